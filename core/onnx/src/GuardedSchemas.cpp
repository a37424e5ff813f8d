// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "GuardedSchemas.h"

#include <onnx/defs/shape_inference.h>

#include <climits>
#include <cstdint>

namespace convoffload {

namespace {

// ONNX 1.12's shape inference for the convolutions reads past its vectors
// when X and W disagree in rank or an attribute has the wrong length
// (onnx/onnx#6180, #8036; fixed upstream in 1.17 by PR #6195), which a
// damaged file triggers. The guard fails the node's inference (an
// InferenceError, which InferShapes records and skips) instead: ranks,
// attribute lengths, strides, dilations and group >= 1, ...
void checkConvolution(onnx::InferenceContext &ctx, int weights)
{
    const auto rank = [&](int input) -> int {
        if (input < 0 || ctx.getNumInputs() <= std::size_t(input) || !ctx.getInputType(std::size_t(input)))
            return -1;
        const onnx::TypeProto &t = *ctx.getInputType(std::size_t(input));
        return t.has_tensor_type() && t.tensor_type().has_shape() ? t.tensor_type().shape().dim_size() : -1;
    };
    const int x = rank(0), w = rank(weights);
    if (x >= 0 && w >= 0 && x != w)
        fail_shape_inference("input of rank ", x, " and weights of rank ", w);
    const int spatial = (x >= 0 ? x : w) - 2;
    if (x >= 0 && x < 3)
        fail_shape_inference("input of rank ", x);
    if (spatial < 1)
        return;
    // A group below 1 divides (by zero, or the sign wrong) in the
    // convolutions' inference; the import skips such a node anyway.
    if (const onnx::AttributeProto *group = ctx.getAttribute("group"); group && group->i() < 1)
        fail_shape_inference("attribute group holds ", group->i());
    for (const char *name : {"kernel_shape", "strides", "dilations", "pads", "output_padding", "output_shape"}) {
        const onnx::AttributeProto *a = ctx.getAttribute(name);
        const int wanted = std::string(name) == "pads" ? 2 * spatial : spatial;
        if (a && a->ints_size() != wanted)
            fail_shape_inference("attribute ", name, " has ", a->ints_size(), " values, not ", wanted);
        // Strides divide, kernel sizes and dilations size vectors.
        const std::int64_t least = std::string(name) == "pads" || std::string(name) == "output_padding" ? 0 : 1;
        if (a && std::string(name) != "output_shape")
            for (std::int64_t v : a->ints())
                if (v < least || v > INT_MAX)
                    fail_shape_inference("attribute ", name, " holds ", v);
    }
}

bool holdsSubgraphs(const onnx::OpSchema &schema)
{
    for (const auto &[name, attribute] : schema.attributes())
        if (attribute.type == onnx::AttributeProto::GRAPH || attribute.type == onnx::AttributeProto::GRAPHS)
            return true;
    return false;
}

} // namespace

GuardedSchemas::GuardedSchemas(Observer observer)
    : m_observer(std::move(observer))
{
}

const onnx::OpSchema *GuardedSchemas::GetSchema(
    const std::string &key, const int maxInclusiveVersion, const std::string &domain) const
{
    if (m_observer)
        m_observer(key, domain, m_depth > 0);
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
    const bool convolution = key == "Conv" || key == "ConvInteger" || key == "QLinearConv" || key == "ConvTranspose";
    const bool pooling = key == "MaxPool" || key == "AveragePool" || key == "LpPool";
    const bool defaultDomain = domain.empty() || domain == "ai.onnx";
    const int weights = key == "QLinearConv" ? 3 : convolution ? 1 : -1;
    if (!schema || !schema->has_type_and_shape_inference_function())
        return schema;
    const bool guard = defaultDomain && (convolution || pooling);
    // Control flow (If, Loop, Scan) infers its subgraphs inside its own
    // inference: the lookups made meanwhile are not the main graph's nodes.
    const bool control = m_observer && holdsSubgraphs(*schema);
    if (!guard && !control)
        return schema;
    const std::lock_guard lock(m_mutex);
    auto &guarded = m_guarded[{key, domain, schema->since_version()}];
    if (!guarded) {
        guarded = std::make_unique<onnx::OpSchema>(*schema);
        guarded->TypeAndShapeInferenceFunction(
            [inner = schema->GetTypeAndShapeInferenceFunction(), weights, guard, &depth = m_depth](onnx::InferenceContext &ctx) {
                if (guard)
                    checkConvolution(ctx, weights);
                ++depth;
                struct Leave {
                    int &depth;
                    ~Leave() { --depth; }
                } leave{depth}; // an InferenceError leaves too
                inner(ctx);
            });
    }
    return guarded.get();
}

} // namespace convoffload

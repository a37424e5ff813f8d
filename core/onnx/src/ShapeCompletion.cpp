// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "ShapeCompletion.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

namespace {

// Values are tracked for shape arithmetic only: short vectors of small
// numbers. Anything longer, or a number a dimension cannot be, is unknown.
constexpr std::size_t kMaxValues = 64;
constexpr double kMaxMagnitude = 9.0e15; // below 2^53: exact in a double
constexpr std::int64_t kMaxDim = std::int64_t(1) << 40;
constexpr int kMaxRank = 16;

using Dims = std::vector<std::optional<std::int64_t>>; // nullopt: unknown

struct Value {
    std::vector<double> v;
    bool scalar = false;
    bool integer = true;
};

bool integerType(int type)
{
    using T = onnx::TensorProto;
    switch (type) {
    case T::INT64:
    case T::INT32:
    case T::INT16:
    case T::INT8:
    case T::UINT64:
    case T::UINT32:
    case T::UINT16:
    case T::UINT8:
        return true;
    default:
        return false;
    }
}

bool floatType(int type)
{
    using T = onnx::TensorProto;
    return type == T::FLOAT || type == T::DOUBLE;
}

bool sane(double x) { return std::isfinite(x) && std::fabs(x) <= kMaxMagnitude; }

template <typename T> void appendRaw(const std::string &raw, std::vector<double> &out)
{
    for (std::size_t at = 0; at + sizeof(T) <= raw.size(); at += sizeof(T)) {
        T x;
        std::memcpy(&x, raw.data() + at, sizeof(T));
        out.push_back(double(x));
    }
}

/// The values of a small integer or float tensor of rank 0 or 1.
std::optional<Value> tensorValue(const onnx::TensorProto &t)
{
    using T = onnx::TensorProto;
    if (t.dims_size() > 1 || t.data_location() == T::EXTERNAL)
        return std::nullopt;
    const std::int64_t count = t.dims_size() == 0 ? 1 : t.dims(0);
    if (count < 0 || std::size_t(count) > kMaxValues)
        return std::nullopt;
    Value value;
    value.scalar = t.dims_size() == 0;
    value.integer = integerType(t.data_type());
    if (t.has_raw_data()) {
        switch (t.data_type()) {
        case T::INT64:
            appendRaw<std::int64_t>(t.raw_data(), value.v);
            break;
        case T::INT32:
            appendRaw<std::int32_t>(t.raw_data(), value.v);
            break;
        case T::FLOAT:
            appendRaw<float>(t.raw_data(), value.v);
            break;
        case T::DOUBLE:
            appendRaw<double>(t.raw_data(), value.v);
            break;
        default:
            return std::nullopt;
        }
    } else if (t.data_type() == T::INT64) {
        value.v.assign(t.int64_data().begin(), t.int64_data().end());
    } else if (t.data_type() == T::INT32) {
        value.v.assign(t.int32_data().begin(), t.int32_data().end());
    } else if (t.data_type() == T::FLOAT) {
        value.v.assign(t.float_data().begin(), t.float_data().end());
    } else if (t.data_type() == T::DOUBLE) {
        value.v.assign(t.double_data().begin(), t.double_data().end());
    } else {
        return std::nullopt;
    }
    if (value.v.size() != std::size_t(count) || !std::all_of(value.v.begin(), value.v.end(), sane))
        return std::nullopt;
    return value;
}

const onnx::AttributeProto *attribute(const onnx::NodeProto &node, const char *name)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

std::optional<std::int64_t> intAttribute(const onnx::NodeProto &node, const char *name)
{
    const onnx::AttributeProto *a = attribute(node, name);
    return a && a->type() == onnx::AttributeProto::INT ? std::optional<std::int64_t>(a->i()) : std::nullopt;
}

std::optional<std::vector<std::int64_t>> intsAttribute(const onnx::NodeProto &node, const char *name)
{
    const onnx::AttributeProto *a = attribute(node, name);
    if (!a || a->type() != onnx::AttributeProto::INTS || std::size_t(a->ints_size()) > kMaxValues)
        return std::nullopt;
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

bool fullyKnown(const Dims &d)
{
    return std::all_of(d.begin(), d.end(), [](const auto &x) { return x.has_value(); });
}

/// Python-like 1-D slicing with ONNX's clamping (the Slice operator).
std::vector<double> slice1D(const std::vector<double> &data, std::int64_t start, std::int64_t end, std::int64_t step)
{
    const auto n = std::int64_t(data.size());
    std::vector<double> out;
    if (step == 0)
        return out;
    if (start < 0)
        start += n;
    if (end < 0)
        end += n;
    if (step > 0) {
        start = std::clamp<std::int64_t>(start, 0, n);
        end = std::clamp<std::int64_t>(end, 0, n);
        for (std::int64_t i = start; i < end; i += step)
            out.push_back(data[std::size_t(i)]);
    } else {
        start = std::clamp<std::int64_t>(start, -1, n - 1);
        end = std::clamp<std::int64_t>(end, -1, n - 1);
        for (std::int64_t i = start; i > end; i += step)
            out.push_back(data[std::size_t(i)]);
    }
    return out;
}

class Completion {
public:
    explicit Completion(onnx::ModelProto &model)
        : m_graph(*model.mutable_graph())
    {
        for (const auto &o : model.opset_import())
            if (o.domain().empty() || o.domain() == "ai.onnx")
                m_opset = o.version();
        for (const auto &v : m_graph.input())
            readInfo(v);
        for (const auto &v : m_graph.value_info())
            readInfo(v);
        for (const auto &v : m_graph.output())
            readInfo(v);
        for (const auto &t : m_graph.initializer()) {
            if (t.dims_size() <= kMaxRank) {
                Dims d;
                for (std::int64_t x : t.dims())
                    d.push_back(x >= 0 ? std::optional<std::int64_t>(x) : std::nullopt);
                m_shapes[t.name()] = d;
            }
            if (auto value = tensorValue(t))
                m_values[t.name()] = *value;
        }
    }

    std::size_t run()
    {
        for (const auto &node : m_graph.node())
            if (node.domain().empty() || node.domain() == "ai.onnx")
                visit(node);
        return write();
    }

private:
    void readInfo(const onnx::ValueInfoProto &v)
    {
        if (!v.type().has_tensor_type())
            return;
        m_types[v.name()] = v.type().tensor_type().elem_type();
        if (!v.type().tensor_type().has_shape() || v.type().tensor_type().shape().dim_size() > kMaxRank)
            return;
        Dims d;
        for (const auto &x : v.type().tensor_type().shape().dim())
            d.push_back(x.has_dim_value() && x.dim_value() >= 0 ? std::optional<std::int64_t>(x.dim_value()) : std::nullopt);
        m_shapes[v.name()] = d;
    }

    const Value *value(const onnx::NodeProto &node, int input) const
    {
        if (node.input_size() <= input || node.input(input).empty())
            return nullptr;
        const auto it = m_values.find(node.input(input));
        return it == m_values.end() ? nullptr : &it->second;
    }

    const Dims *shape(const onnx::NodeProto &node, int input) const
    {
        if (node.input_size() <= input || node.input(input).empty())
            return nullptr;
        const auto it = m_shapes.find(node.input(input));
        return it == m_shapes.end() ? nullptr : &it->second;
    }

    void setValue(const onnx::NodeProto &node, Value value)
    {
        if (node.output_size() < 1 || node.output(0).empty() || value.v.size() > kMaxValues
            || !std::all_of(value.v.begin(), value.v.end(), sane))
            return;
        m_values[node.output(0)] = std::move(value);
    }

    void visit(const onnx::NodeProto &node)
    {
        evaluate(node);
        if (node.output_size() < 1 || node.output(0).empty())
            return;
        if (std::optional<Dims> computed = outputShape(node)) {
            if (computed->size() > std::size_t(kMaxRank))
                return;
            for (auto &d : *computed)
                if (d && (*d < 0 || *d > kMaxDim))
                    d.reset();
            propose(node.output(0), *computed, elementType(node));
        }
    }

    int elementType(const onnx::NodeProto &node) const
    {
        if (node.op_type() == "ConstantOfShape") {
            const onnx::AttributeProto *a = attribute(node, "value");
            return a && a->has_t() ? a->t().data_type() : int(onnx::TensorProto::FLOAT);
        }
        const auto it = node.input_size() > 0 ? m_types.find(node.input(0)) : m_types.end();
        return it == m_types.end() ? 0 : it->second;
    }

    /// Records `computed` for `name` where it adds a dim to what is known;
    /// a disagreement with a known dim keeps the known one.
    void propose(const std::string &name, const Dims &computed, int type)
    {
        auto it = m_shapes.find(name);
        if (it != m_shapes.end() && it->second.size() != computed.size())
            return; // the ranks disagree: ONNX's is kept
        if (it == m_shapes.end()) {
            if (std::none_of(computed.begin(), computed.end(), [](const auto &d) { return d.has_value(); }) && !computed.empty())
                return;
            m_shapes[name] = computed;
            m_changed[name] = type;
            return;
        }
        bool gained = false;
        for (std::size_t i = 0; i < computed.size(); ++i)
            if (!it->second[i] && computed[i]) {
                it->second[i] = computed[i];
                gained = true;
            }
        if (gained)
            m_changed[name] = type;
    }

    void evaluate(const onnx::NodeProto &node)
    {
        const std::string &op = node.op_type();
        if (op == "Constant") {
            if (const onnx::AttributeProto *a = attribute(node, "value"); a && a->has_t()) {
                if (auto v = tensorValue(a->t()))
                    setValue(node, *v);
            } else if (auto i = intAttribute(node, "value_int")) {
                setValue(node, {{double(*i)}, true, true});
            } else if (auto is = intsAttribute(node, "value_ints")) {
                setValue(node, {{is->begin(), is->end()}, false, true});
            }
        } else if (op == "Shape") {
            const Dims *d = shape(node, 0);
            if (!d || !fullyKnown(*d))
                return;
            std::vector<double> all;
            for (const auto &x : *d)
                all.push_back(double(*x));
            const std::int64_t rank = std::int64_t(all.size());
            const std::int64_t start = m_opset >= 15 ? intAttribute(node, "start").value_or(0) : 0;
            const std::int64_t end = m_opset >= 15 ? intAttribute(node, "end").value_or(rank) : rank;
            setValue(node, {slice1D(all, start, end, 1), false, true});
        } else if (op == "Identity" || op == "Cast") {
            const Value *in = value(node, 0);
            if (!in)
                return;
            Value out = *in;
            if (op == "Cast") {
                const int to = int(intAttribute(node, "to").value_or(0));
                if (integerType(to)) {
                    for (double &x : out.v)
                        x = std::trunc(x);
                    out.integer = true;
                } else if (floatType(to)) {
                    out.integer = false;
                } else {
                    return;
                }
            }
            setValue(node, out);
        } else if (op == "Gather") {
            const Value *data = value(node, 0), *indices = value(node, 1);
            if (!data || !indices || data->scalar || intAttribute(node, "axis").value_or(0) != 0)
                return;
            Value out{{}, indices->scalar, data->integer};
            const auto n = std::int64_t(data->v.size());
            for (double i : indices->v) {
                const std::int64_t at = std::int64_t(i) < 0 ? std::int64_t(i) + n : std::int64_t(i);
                if (at < 0 || at >= n)
                    return;
                out.v.push_back(data->v[std::size_t(at)]);
            }
            setValue(node, out);
        } else if (op == "Slice") {
            evaluateSlice(node);
        } else if (op == "Concat") {
            const std::int64_t axis = intAttribute(node, "axis").value_or(0);
            if (axis != 0 && axis != -1)
                return;
            Value out;
            for (int i = 0; i < node.input_size(); ++i) {
                const Value *in = value(node, i);
                if (!in || in->scalar)
                    return;
                out.v.insert(out.v.end(), in->v.begin(), in->v.end());
                out.integer = out.integer && in->integer;
                if (out.v.size() > kMaxValues)
                    return;
            }
            setValue(node, out);
        } else if (op == "Unsqueeze") {
            if (const Value *in = value(node, 0); in && in->scalar)
                setValue(node, {in->v, false, in->integer});
        } else if (op == "Squeeze") {
            if (const Value *in = value(node, 0); in && !in->scalar && in->v.size() == 1)
                setValue(node, {in->v, true, in->integer});
        } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
            evaluateArithmetic(node);
        } else if (op == "Floor" || op == "Ceil") {
            if (const Value *in = value(node, 0)) {
                Value out = *in;
                for (double &x : out.v)
                    x = op == "Floor" ? std::floor(x) : std::ceil(x);
                setValue(node, out);
            }
        }
    }

    void evaluateSlice(const onnx::NodeProto &node)
    {
        const Value *data = value(node, 0);
        if (!data || data->scalar)
            return;
        std::int64_t start = 0, end = 0, step = 1;
        std::vector<std::int64_t> axes{0};
        if (m_opset < 10) {
            const auto starts = intsAttribute(node, "starts"), ends = intsAttribute(node, "ends");
            if (!starts || !ends || starts->size() != 1 || ends->size() != 1)
                return;
            start = (*starts)[0];
            end = (*ends)[0];
            axes = intsAttribute(node, "axes").value_or(axes);
        } else {
            const Value *starts = value(node, 1), *ends = value(node, 2), *ax = value(node, 3), *steps = value(node, 4);
            if (!starts || !ends || starts->v.size() != 1 || ends->v.size() != 1)
                return;
            if ((node.input_size() > 3 && !node.input(3).empty() && !ax)
                || (node.input_size() > 4 && !node.input(4).empty() && !steps))
                return;
            start = std::int64_t(starts->v[0]);
            end = std::int64_t(ends->v[0]);
            if (ax)
                axes.assign(ax->v.begin(), ax->v.end());
            if (steps) {
                if (steps->v.size() != 1)
                    return;
                step = std::int64_t(steps->v[0]);
            }
        }
        if (axes.size() != 1 || (axes[0] != 0 && axes[0] != -1) || step == 0)
            return;
        setValue(node, {slice1D(data->v, start, end, step), false, data->integer});
    }

    void evaluateArithmetic(const onnx::NodeProto &node)
    {
        const Value *a = value(node, 0), *b = value(node, 1);
        if (!a || !b)
            return;
        const std::size_t n = std::max(a->v.size(), b->v.size());
        if ((a->v.size() != n && a->v.size() != 1) || (b->v.size() != n && b->v.size() != 1))
            return;
        Value out{{}, a->scalar && b->scalar, a->integer && b->integer};
        const std::string &op = node.op_type();
        for (std::size_t i = 0; i < n; ++i) {
            const double x = a->v[a->v.size() == 1 ? 0 : i], y = b->v[b->v.size() == 1 ? 0 : i];
            if (op == "Add")
                out.v.push_back(x + y);
            else if (op == "Sub")
                out.v.push_back(x - y);
            else if (op == "Mul")
                out.v.push_back(x * y);
            else if (y == 0)
                return;
            else
                out.v.push_back(out.integer ? std::trunc(x / y) : x / y);
        }
        setValue(node, out);
    }

    std::optional<Dims> outputShape(const onnx::NodeProto &node) const
    {
        const std::string &op = node.op_type();
        if (op == "Reshape")
            return reshape(node);
        if (op == "Resize" || op == "Upsample")
            return resize(node);
        if (op == "ConstantOfShape") {
            const Value *v = value(node, 0);
            if (!v || v->scalar)
                return std::nullopt;
            Dims d;
            for (double x : v->v)
                d.push_back(x >= 0 ? std::optional<std::int64_t>(std::int64_t(x)) : std::nullopt);
            return d;
        }
        if (op == "Expand")
            return expand(node);
        return std::nullopt;
    }

    std::optional<Dims> reshape(const onnx::NodeProto &node) const
    {
        const Value *target = value(node, 1);
        if (!target || target->scalar || !target->integer)
            return std::nullopt;
        const Dims *data = shape(node, 0);
        const bool allowZero = m_opset >= 14 && intAttribute(node, "allowzero").value_or(0) != 0;
        Dims out;
        std::optional<std::size_t> inferred;
        for (std::size_t i = 0; i < target->v.size(); ++i) {
            const auto t = std::int64_t(target->v[i]);
            if (t > 0 || (t == 0 && allowZero)) {
                out.push_back(t);
            } else if (t == 0) {
                out.push_back(data && i < data->size() ? (*data)[i] : std::nullopt);
            } else if (t == -1 && !inferred) {
                inferred = i;
                out.push_back(std::nullopt);
            } else {
                return std::nullopt; // not a valid Reshape
            }
        }
        if (inferred && data && fullyKnown(*data) && fullyKnown(Dims(out.begin(), out.begin() + std::ptrdiff_t(*inferred)))
            && fullyKnown(Dims(out.begin() + std::ptrdiff_t(*inferred) + 1, out.end()))) {
            double total = 1, rest = 1;
            for (const auto &d : *data)
                total *= double(*d);
            for (std::size_t i = 0; i < out.size(); ++i)
                if (i != *inferred)
                    rest *= double(*out[i]);
            if (rest > 0 && std::fmod(total, rest) == 0 && sane(total))
                out[*inferred] = std::int64_t(total / rest);
        }
        return out;
    }

    std::optional<Dims> resize(const onnx::NodeProto &node) const
    {
        const Dims *x = shape(node, 0);
        // Opset 11 and later: X, roi, scales, sizes; Resize 10 and Upsample 9:
        // X, scales; Upsample 7: the scales attribute.
        const bool modern = node.op_type() == "Resize" && m_opset >= 11;
        const Value *sizes = modern ? value(node, 3) : nullptr;
        const auto axes = intsAttribute(node, "axes"); // Resize 18
        if (sizes && !sizes->scalar && sizes->integer) {
            const std::size_t rank = x ? x->size() : sizes->v.size();
            Dims out = x ? *x : Dims(rank);
            if (axes) {
                if (!x || axes->size() != sizes->v.size())
                    return std::nullopt;
                for (std::size_t i = 0; i < axes->size(); ++i) {
                    const std::int64_t a = (*axes)[i] < 0 ? (*axes)[i] + std::int64_t(rank) : (*axes)[i];
                    if (a < 0 || a >= std::int64_t(rank))
                        return std::nullopt;
                    out[std::size_t(a)] = std::int64_t(sizes->v[i]);
                }
            } else {
                if (sizes->v.size() != rank)
                    return std::nullopt;
                for (std::size_t i = 0; i < rank; ++i)
                    out[i] = std::int64_t(sizes->v[i]);
            }
            // A policy other than "stretch" (Resize 18) keeps the aspect ratio
            // and rounds the sizes: not followed here.
            const onnx::AttributeProto *policy = attribute(node, "keep_aspect_ratio_policy");
            if (policy && policy->s() != "stretch")
                return std::nullopt;
            return out;
        }
        if (axes || !x)
            return std::nullopt;
        std::vector<double> scales;
        if (node.op_type() == "Upsample" && m_opset < 9) {
            const onnx::AttributeProto *a = attribute(node, "scales");
            if (!a || a->type() != onnx::AttributeProto::FLOATS)
                return std::nullopt;
            scales.assign(a->floats().begin(), a->floats().end());
        } else if (const Value *s = value(node, modern ? 2 : 1); s && !s->scalar) {
            scales = s->v;
        } else {
            return std::nullopt;
        }
        if (scales.size() != x->size())
            return std::nullopt;
        Dims out(x->size());
        for (std::size_t i = 0; i < x->size(); ++i)
            if ((*x)[i] && scales[i] > 0)
                // As ONNX's inference: the floor of the float product.
                out[i] = std::int64_t(std::floor(float(*(*x)[i]) * float(scales[i])));
        return out;
    }

    std::optional<Dims> expand(const onnx::NodeProto &node) const
    {
        const Dims *x = shape(node, 0);
        const Value *target = value(node, 1);
        if (!x || !target || target->scalar)
            return std::nullopt;
        const std::size_t rank = std::max(x->size(), target->v.size());
        Dims out(rank);
        for (std::size_t i = 0; i < rank; ++i) {
            const std::size_t fromEnd = rank - 1 - i;
            const std::optional<std::int64_t> a
                = fromEnd < x->size() ? (*x)[x->size() - 1 - fromEnd] : std::optional<std::int64_t>(1);
            const std::optional<std::int64_t> b = fromEnd < target->v.size()
                ? std::optional<std::int64_t>(std::int64_t(target->v[target->v.size() - 1 - fromEnd]))
                : std::optional<std::int64_t>(1);
            if (a && *a == 1)
                out[i] = b;
            else if (b && *b == 1)
                out[i] = a;
            else if (a && b && *a == *b)
                out[i] = a;
            else if (a && b)
                return std::nullopt; // not broadcastable
        }
        return out;
    }

    std::size_t write()
    {
        if (m_changed.empty())
            return 0;
        std::map<std::string, onnx::ValueInfoProto *> infos;
        for (auto &v : *m_graph.mutable_value_info())
            infos[v.name()] = &v;
        for (auto &v : *m_graph.mutable_output())
            infos[v.name()] = &v;
        for (const auto &[name, type] : m_changed) {
            onnx::ValueInfoProto *info = infos.count(name) ? infos[name] : nullptr;
            if (!info) {
                info = m_graph.add_value_info();
                info->set_name(name);
            }
            auto &tensor = *info->mutable_type()->mutable_tensor_type();
            if (tensor.elem_type() == 0 && type != 0)
                tensor.set_elem_type(type);
            const Dims &dims = m_shapes.at(name);
            auto &shape = *tensor.mutable_shape();
            if (shape.dim_size() != int(dims.size())) {
                shape.clear_dim();
                for (std::size_t i = 0; i < dims.size(); ++i)
                    shape.add_dim();
            }
            for (std::size_t i = 0; i < dims.size(); ++i)
                if (dims[i])
                    shape.mutable_dim(int(i))->set_dim_value(*dims[i]);
        }
        forgetUnknownEntries();
        return m_changed.size();
    }

    // ONNX 1.12's inference does not carry a dim it learns in a later round
    // through a value_info entry that already holds the tensor unknown: the
    // next node still reads it unknown. Entries with an unknown dim are
    // dropped (all but those just completed), and the next round writes
    // them afresh from what it infers.
    void forgetUnknownEntries()
    {
        auto &infos = *m_graph.mutable_value_info();
        google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
        for (auto &v : infos) {
            bool known = v.type().has_tensor_type() && v.type().tensor_type().has_shape();
            if (known)
                for (const auto &d : v.type().tensor_type().shape().dim())
                    known = known && d.has_dim_value();
            if (known || m_changed.count(v.name()))
                kept.Add()->Swap(&v);
        }
        infos.Swap(&kept);
    }

    onnx::GraphProto &m_graph;
    std::int64_t m_opset = 1;
    std::map<std::string, Dims> m_shapes;
    std::map<std::string, int> m_types;
    std::map<std::string, Value> m_values;
    std::map<std::string, int> m_changed; // name → element type
};

} // namespace

std::size_t completeShapes(onnx::ModelProto &model) { return Completion(model).run(); }

} // namespace convoffload

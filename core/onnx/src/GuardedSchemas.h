// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The schema registry shape inference runs with, in the shape inference
// worker (ShapeInferenceWorker.cpp): ONNX's standard schemas, with the
// inference of the convolutions and poolings guarded, and every lookup told
// to an observer so a crash can be placed at its node.
#include <onnx/defs/schema.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

namespace convoffload {

class GuardedSchemas : public onnx::ISchemaRegistry {
public:
    /// `nested`: the lookup comes from the inference of a subgraph (an If's
    /// branch, a Loop's or Scan's body), not from a node of the main graph.
    using Observer = std::function<void(const std::string &op, const std::string &domain, bool nested)>;

    explicit GuardedSchemas(Observer observer = {});

    const onnx::OpSchema *GetSchema(
        const std::string &key, const int maxInclusiveVersion, const std::string &domain) const override;

private:
    mutable std::mutex m_mutex;
    mutable std::map<std::tuple<std::string, std::string, int>, std::unique_ptr<onnx::OpSchema>> m_guarded;
    Observer m_observer;
    // How deep in subgraph inference the lookups are; shape inference runs
    // on one thread in the worker.
    mutable int m_depth = 0;
};

} // namespace convoffload

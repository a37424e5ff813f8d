// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "GraphOrder.h"

#include <onnx/onnx_pb.h>

#include <functional>
#include <queue>
#include <string>
#include <unordered_map>

namespace convoffload {

std::vector<int> topologicalOrder(const onnx::GraphProto &graph)
{
    const int count = graph.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < count; ++i)
        for (const std::string &out : graph.node(i).output())
            if (!out.empty())
                producer.emplace(out, i); // a second producer is the model's error; the first is kept
    std::vector<int> waiting(std::size_t(count), 0);
    std::vector<std::vector<int>> consumers(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        for (const std::string &in : graph.node(i).input()) {
            const auto it = producer.find(in);
            if (in.empty() || it == producer.end() || it->second == i)
                continue; // a graph input, an initializer, an outer scope's name
            ++waiting[std::size_t(i)];
            consumers[std::size_t(it->second)].push_back(i);
        }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < count; ++i)
        if (waiting[std::size_t(i)] == 0)
            ready.push(i);
    std::vector<int> order;
    std::vector<bool> placed(std::size_t(count), false);
    while (!ready.empty()) {
        const int i = ready.top();
        ready.pop();
        order.push_back(i);
        placed[std::size_t(i)] = true;
        for (int c : consumers[std::size_t(i)])
            if (--waiting[std::size_t(c)] == 0)
                ready.push(c);
    }
    for (int i = 0; i < count; ++i)
        if (!placed[std::size_t(i)])
            order.push_back(i);
    return order;
}

void reorderNodes(onnx::GraphProto &graph, const std::vector<int> &order)
{
    google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
    for (int i : order)
        sorted.Add()->Swap(graph.mutable_node(i));
    graph.mutable_node()->Swap(&sorted);
}

std::vector<int> inverseOrder(const std::vector<int> &order)
{
    std::vector<int> inverse(order.size());
    for (std::size_t at = 0; at < order.size(); ++at)
        inverse[std::size_t(order[at])] = int(at);
    return inverse;
}

} // namespace convoffload

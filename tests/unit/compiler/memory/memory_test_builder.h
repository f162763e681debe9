// Graphs for the memory planner tests: nodes whose outputs have given byte sizes, linked by data
// edges, with the creation order as the topological order.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../graph/status_test_util.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::memory::testing {

/// A graph for the planner, made with GraphBuilder (a failure is a test failure), that keeps its
/// nodes in creation order.
class MemGraph {
 public:
  explicit MemGraph(const std::string& name = "g") : builder_(name) {}

  /// Adds a node with `inputs` inputs and one output per entry of `output_bytes` (a uint8 tensor
  /// of that many elements, GetSize() = the bytes). Nodes are kept in creation order.
  NodePtr Add(const std::string& name, const std::string& type, int inputs,
              const std::vector<int64_t>& output_bytes) {
    std::vector<GeTensorDesc> outputs;
    for (int64_t bytes : output_bytes) {
      GeTensorDesc desc(GeShape({bytes < 0 ? 1 : bytes}), FORMAT_ND, DT_UINT8);
      desc.SetSize(bytes);
      outputs.push_back(desc);
    }
    NodePtr node = ge::testing::Must(builder_.AddNode(
        name, type,
        std::vector<GeTensorDesc>(inputs, GeTensorDesc(GeShape({1}), FORMAT_ND, DT_UINT8)),
        outputs));
    order_.push_back(node);
    return node;
  }

  /// Adds a node and links input i from `inputs[i]` (each a node's output 0).
  NodePtr Op(const std::string& name, const std::vector<NodePtr>& inputs,
             const std::vector<int64_t>& output_bytes, const std::string& type = "Op") {
    NodePtr node = Add(name, type, static_cast<int>(inputs.size()), output_bytes);
    for (size_t i = 0; i < inputs.size(); ++i) Link(inputs[i], 0, node, static_cast<int>(i));
    return node;
  }

  void Link(const NodePtr& src, int out, const NodePtr& dst, int in) {
    EXPECT_TRUE(ge::testing::IsOk(builder_.AddDataEdge({src, out}, dst, in)));
  }
  void Ctrl(const NodePtr& src, const NodePtr& dst) {
    EXPECT_TRUE(ge::testing::IsOk(builder_.AddControlEdge(src, dst)));
  }

  Result<MemoryPlan> Plan(PlanOptions options = {}) const {
    return PlanGraphMemory(*builder_.GetGraph(), order_, options);
  }

  ComputeGraph& graph() { return *builder_.GetGraph(); }
  const ComputeGraphPtr& graph_ptr() const { return builder_.GetGraph(); }
  const std::vector<NodePtr>& order() const { return order_; }
  std::vector<NodePtr>& mutable_order() { return order_; }

 private:
  GraphBuilder builder_;
  std::vector<NodePtr> order_;
};

/// The plan entry of output `index` of `node` (fails the test when absent).
inline const TensorPlan& Out(const MemoryPlan& plan, const std::string& node, int32_t index = 0) {
  for (const TensorPlan& t : plan.tensors) {
    if (t.node == node && t.output_index == index) return t;
  }
  ADD_FAILURE() << "no plan for " << node << ":out" << index;
  static const TensorPlan kMissing;
  return kMissing;
}

/// The index of output `index` of `node` in plan.tensors, or -1.
inline int32_t IndexOf(const MemoryPlan& plan, const std::string& node, int32_t index = 0) {
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    if (plan.tensors[i].node == node && plan.tensors[i].output_index == index) {
      return static_cast<int32_t>(i);
    }
  }
  return -1;
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ge::memory::testing

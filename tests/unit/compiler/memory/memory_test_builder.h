// A small graph builder for the memory planner tests: nodes whose outputs have given byte sizes,
// linked by data edges, with the creation order as the topological order.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge::memory::testing {

class MemGraph {
 public:
  explicit MemGraph(const std::string& name = "g") : graph_(std::make_shared<ComputeGraph>(name)) {}

  /// Adds a node with `inputs` inputs and one output per entry of `output_bytes` (a uint8 tensor
  /// of that many elements, GetSize() = the bytes). Nodes are kept in creation order.
  NodePtr Add(const std::string& name, const std::string& type, int inputs,
              const std::vector<int64_t>& output_bytes) {
    auto op = std::make_shared<OpDesc>(name, type);
    for (int i = 0; i < inputs; ++i) {
      EXPECT_TRUE(op->AddInputDesc(GeTensorDesc(GeShape({1}), FORMAT_ND, DT_UINT8)).ok());
    }
    for (int64_t bytes : output_bytes) {
      GeTensorDesc desc(GeShape({bytes < 0 ? 1 : bytes}), FORMAT_ND, DT_UINT8);
      desc.SetSize(bytes);
      EXPECT_TRUE(op->AddOutputDesc(desc).ok());
    }
    auto node = graph_->AddNode(op);
    EXPECT_TRUE(node.ok()) << node.status().ToString();
    order_.push_back(node.value());
    return node.value();
  }

  /// Adds a node and links input i from `inputs[i]` (each a node's output 0).
  NodePtr Op(const std::string& name, const std::vector<NodePtr>& inputs,
             const std::vector<int64_t>& output_bytes, const std::string& type = "Op") {
    NodePtr node = Add(name, type, static_cast<int>(inputs.size()), output_bytes);
    for (size_t i = 0; i < inputs.size(); ++i) Link(inputs[i], 0, node, static_cast<int>(i));
    return node;
  }

  void Link(const NodePtr& src, int out, const NodePtr& dst, int in) {
    Status s = GraphUtils::AddEdge(src->GetOutDataAnchor(out), dst->GetInDataAnchor(in));
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  void Ctrl(const NodePtr& src, const NodePtr& dst) {
    Status s = GraphUtils::AddEdge(src->GetOutControlAnchor(), dst->GetInControlAnchor());
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  Result<MemoryPlan> Plan(PlanOptions options = {}) const {
    return PlanGraphMemory(*graph_, order_, options);
  }

  ComputeGraph& graph() { return *graph_; }
  const ComputeGraphPtr& graph_ptr() const { return graph_; }
  const std::vector<NodePtr>& order() const { return order_; }
  std::vector<NodePtr>& mutable_order() { return order_; }

 private:
  ComputeGraphPtr graph_;
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

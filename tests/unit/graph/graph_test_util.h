// Small helpers for building graphs in the graph-utility tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge::testing {

inline GeTensorDesc FloatDesc(std::vector<int64_t> dims) {
  return GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT);
}

/// Adds a node with `n_in` inputs and `n_out` outputs of shape [4] to `graph`.
inline NodePtr MakeNode(const ComputeGraphPtr& graph, const std::string& name,
                        const std::string& type, int n_in, int n_out) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (int i = 0; i < n_in; ++i) EXPECT_TRUE(op->AddInputDesc(FloatDesc({4})).ok());
  for (int i = 0; i < n_out; ++i) EXPECT_TRUE(op->AddOutputDesc(FloatDesc({4})).ok());
  auto node = graph->AddNode(op);
  EXPECT_TRUE(node.ok()) << node.status().ToString();
  return node.ok() ? node.value() : nullptr;
}

inline void Link(const NodePtr& src, int out, const NodePtr& dst, int in) {
  Status s = GraphUtils::AddEdge(src->GetOutDataAnchor(out), dst->GetInDataAnchor(in));
  ASSERT_TRUE(s.ok()) << s.ToString();
}

inline void Ctrl(const NodePtr& src, const NodePtr& dst) {
  Status s = GraphUtils::AddEdge(src->GetOutControlAnchor(), dst->GetInControlAnchor());
  ASSERT_TRUE(s.ok()) << s.ToString();
}

inline std::vector<std::string> Names(const std::vector<NodePtr>& nodes) {
  std::vector<std::string> names;
  for (const auto& n : nodes) names.push_back(n ? n->GetName() : "null");
  return names;
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ge::testing

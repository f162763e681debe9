// Helpers for the IR tests: nodes of n float inputs and outputs added and linked through
// GraphBuilder (a failure is a test failure), and the names of nodes and anchor peers.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ge/graph/anchor.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/node.h"
#include "status_test_util.h"

namespace ge::testing {

/// A float ND tensor desc of the given shape.
inline GeTensorDesc FloatDesc(std::vector<int64_t> dims = {2, 2}) {
  return GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT);
}

/// An OpDesc with `n_in` inputs and `n_out` outputs, float tensors of shape `dims`.
inline OpDescPtr MakeOp(const std::string& name, const std::string& type, int n_in = 1,
                        int n_out = 1, std::vector<int64_t> dims = {2, 2}) {
  return GraphBuilder::MakeOpDesc(name, type, std::vector<GeTensorDesc>(n_in, FloatDesc(dims)),
                                  std::vector<GeTensorDesc>(n_out, FloatDesc(dims)));
}

/// Appends such a node to `graph`; nullptr (and a test failure) when the graph refuses it.
inline NodePtr AddNode(const ComputeGraphPtr& graph, const std::string& name,
                       const std::string& type, int n_in = 1, int n_out = 1,
                       std::vector<int64_t> dims = {2, 2}) {
  return Must(GraphBuilder(graph).AddNode(MakeOp(name, type, n_in, n_out, std::move(dims))));
}

/// Data edge src:out_idx → dst:in_idx within src's graph.
inline void Link(const NodePtr& src, int out_idx, const NodePtr& dst, int in_idx) {
  const ComputeGraphPtr graph = src->GetOwnerComputeGraph();
  ASSERT_NE(graph, nullptr) << "'" << src->GetName() << "' is in no graph";
  EXPECT_TRUE(IsOk(GraphBuilder(graph).AddDataEdge({src, out_idx}, dst, in_idx)));
}

/// Control edge src → dst within src's graph.
inline void Ctrl(const NodePtr& src, const NodePtr& dst) {
  const ComputeGraphPtr graph = src->GetOwnerComputeGraph();
  ASSERT_NE(graph, nullptr) << "'" << src->GetName() << "' is in no graph";
  EXPECT_TRUE(IsOk(GraphBuilder(graph).AddControlEdge(src, dst)));
}

/// The names of `nodes`, in order.
inline std::vector<std::string> Names(const std::vector<NodePtr>& nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const auto& node : nodes) names.push_back(node == nullptr ? "<null>" : node->GetName());
  return names;
}

/// The DebugString of every live peer of `anchor`, in peer-list order ("a:out:0", ...).
template <typename AnchorT>
std::vector<std::string> PeerNames(const std::shared_ptr<AnchorT>& anchor) {
  std::vector<std::string> names;
  for (const auto& peer : anchor->GetPeerAnchors()) names.push_back(peer->DebugString());
  return names;
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ge::testing

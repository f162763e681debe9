// Test helpers for the IR core tests: build small graphs one line per node or edge, and check
// Status values (code and message) with readable failures.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/anchor.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"

namespace ge::test_builder {

/// A float ND tensor desc of the given shape.
inline GeTensorDesc FloatDesc(std::vector<int64_t> dims = {2, 2}) {
  return GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT);
}

/// An OpDesc with `n_in` unnamed inputs and `n_out` unnamed outputs (float [2,2]).
inline OpDescPtr MakeOp(const std::string& name, const std::string& type, int n_in = 1,
                        int n_out = 1) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (int i = 0; i < n_in; ++i) {
    const Status status = op->AddInputDesc(FloatDesc());
    EXPECT_TRUE(status.ok()) << status.ToString();
  }
  for (int i = 0; i < n_out; ++i) {
    const Status status = op->AddOutputDesc(FloatDesc());
    EXPECT_TRUE(status.ok()) << status.ToString();
  }
  return op;
}

/// Appends a node to `graph`; nullptr (and a test failure) when the graph refuses it.
inline NodePtr AddNode(const ComputeGraphPtr& graph, const std::string& name,
                       const std::string& type, int n_in = 1, int n_out = 1) {
  Result<NodePtr> node = graph->AddNode(MakeOp(name, type, n_in, n_out));
  EXPECT_TRUE(node.ok()) << node.status().ToString();
  return node.ok() ? node.value() : nullptr;
}

/// Data edge src:out_idx → dst:in_idx.
inline void Link(const NodePtr& src, int out_idx, const NodePtr& dst, int in_idx) {
  const Status status = Anchor::Link(src->GetOutDataAnchor(out_idx), dst->GetInDataAnchor(in_idx));
  EXPECT_TRUE(status.ok()) << status.ToString();
}

/// Control edge src → dst.
inline void Ctrl(const NodePtr& src, const NodePtr& dst) {
  const Status status = Anchor::Link(src->GetOutControlAnchor(), dst->GetInControlAnchor());
  EXPECT_TRUE(status.ok()) << status.ToString();
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

/// Success, or a failure that shows the Status.
inline ::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected OK, got " << status.ToString();
}
template <typename T>
::testing::AssertionResult IsOk(const Result<T>& result) {
  return IsOk(result.status());
}

/// Success when `status` failed with `code` and its message contains every one of `needles`.
inline ::testing::AssertionResult HasError(const Status& status, StatusCode code,
                                           std::initializer_list<std::string_view> needles) {
  if (status.ok()) return ::testing::AssertionFailure() << "expected an error, got OK";
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected code " << static_cast<uint32_t>(code) << ", got " << status.ToString();
  }
  for (std::string_view needle : needles) {
    if (status.message().find(needle) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message '" << status.message() << "' does not mention '" << needle << "'";
    }
  }
  return ::testing::AssertionSuccess();
}
template <typename T>
::testing::AssertionResult HasError(const Result<T>& result, StatusCode code,
                                    std::initializer_list<std::string_view> needles) {
  if (result.ok()) return ::testing::AssertionFailure() << "expected an error, got a value";
  return HasError(result.status(), code, needles);
}

}  // namespace ge::test_builder

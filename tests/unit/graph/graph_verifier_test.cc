// Tests for GraphVerifier: a well-formed graph passes; each reachable violation is named.
#include "ge/graph/graph_verifier.h"

#include <gtest/gtest.h>

#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Contains;
using testing::Link;

TEST(GraphVerifier, AcceptsWellFormedGraph) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto a = AddNode(g, "a", "Data", 0, 1, {4});
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  Link(a, 0, b, 0);
  ASSERT_TRUE(g->AddOutputNode(b, 0).ok());
  EXPECT_TRUE(GraphVerifier::Verify(*g).ok());
}

TEST(GraphVerifier, ReportsDuplicateNamesAfterRename) {
  auto g = std::make_shared<ComputeGraph>("g");
  AddNode(g, "a", "Data", 0, 1, {4});
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  b->GetOpDesc()->SetName("a");
  Status s = GraphVerifier::Verify(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "two nodes are named 'a'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "graph 'g'")) << s.message();
}

TEST(GraphVerifier, ReportsDuplicateIds) {
  auto g = std::make_shared<ComputeGraph>("g");
  AddNode(g, "a", "Data", 0, 1, {4});
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  b->GetOpDesc()->SetId(0);
  Status s = GraphVerifier::Verify(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "shares id 0")) << s.message();
}

TEST(GraphVerifier, ReportsAnchorsOutOfStepWithOpDesc) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  ASSERT_TRUE(b->GetOpDesc()->AddInputDesc(testing::FloatDesc({4})).ok());  // no anchor yet
  Status s = GraphVerifier::Verify(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'b' has 1/1 in/out anchors")) << s.message();
  ASSERT_TRUE(b->UpdateAnchorsFromOpDesc().ok());
  EXPECT_TRUE(GraphVerifier::Verify(*g).ok());
}

TEST(GraphVerifier, ReportsEdgeToAnotherGraph) {
  auto g1 = std::make_shared<ComputeGraph>("g1");
  auto g2 = std::make_shared<ComputeGraph>("g2");
  auto a = AddNode(g1, "a", "Data", 0, 1, {4});
  auto b = AddNode(g2, "b", "Relu", 1, 1, {4});
  // GraphBuilder refuses such an edge, so it is made on the anchors directly.
  ASSERT_TRUE(GraphUtils::AddEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0)).ok());
  Status s = GraphVerifier::Verify(*g1);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "leaves the graph")) << s.message();
}

TEST(GraphVerifier, ReportsBadOutputEntries) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto other = std::make_shared<ComputeGraph>("other");
  auto a = AddNode(g, "a", "Data", 0, 1, {4});
  auto stray = AddNode(other, "stray", "Data", 0, 1, {4});
  g->SetGraphOutNodesInfo({{a, 3}});
  Status s = GraphVerifier::Verify(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "'a:3' names a missing output")) << s.message();
  g->SetGraphOutNodesInfo({{stray, 0}});
  s = GraphVerifier::Verify(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "output node 'stray' is not in the graph")) << s.message();
}

TEST(GraphVerifier, ReportsInconsistentSubgraphParent) {
  auto root = std::make_shared<ComputeGraph>("root");
  auto cond = AddNode(root, "if", "If", 0, 0, {4});
  auto sub = std::make_shared<ComputeGraph>("then");
  AddNode(sub, "a", "Data", 0, 1, {4});
  ASSERT_TRUE(NodeUtils::SetSubgraph(cond, 0, sub).ok());
  EXPECT_TRUE(GraphVerifier::Verify(*root).ok());
  cond->GetOpDesc()->RemoveSubgraphInstanceName("then");
  Status s = GraphVerifier::Verify(*root);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "does not list it")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "graph 'then'")) << s.message();
}

TEST(GraphVerifier, ChecksSubgraphContents) {
  auto root = std::make_shared<ComputeGraph>("root");
  auto cond = AddNode(root, "if", "If", 0, 0, {4});
  auto sub = std::make_shared<ComputeGraph>("then");
  AddNode(sub, "a", "Data", 0, 1, {4});
  auto b = AddNode(sub, "b", "Data", 0, 1, {4});
  ASSERT_TRUE(NodeUtils::SetSubgraph(cond, 0, sub).ok());
  b->GetOpDesc()->SetName("a");
  Status s = GraphVerifier::Verify(*root);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "graph 'then'")) << s.message();
}

/// A root graph "g0" and `levels` graphs below it: "g<k>" is the subgraph of node "call" of
/// "g<k-1>", at level k.
ComputeGraphPtr NestedCalls(int levels) {
  auto root = std::make_shared<ComputeGraph>("g0");
  ComputeGraphPtr graph = root;
  for (int k = 1; k <= levels; ++k) {
    NodePtr call = AddNode(graph, "call", "PartitionedCall", 0, 0, {4});
    auto sub = std::make_shared<ComputeGraph>("g" + std::to_string(k));
    AddNode(sub, "a", "Data", 0, 1, {4});
    EXPECT_TRUE(NodeUtils::SetSubgraph(call, 0, sub).ok());
    graph = sub;
  }
  return root;
}

TEST(GraphVerifier, AcceptsSubgraphsNestedToTheLimit) {
  ComputeGraphPtr root = NestedCalls(kMaxSubgraphDepth);
  Status s = GraphVerifier::Verify(*root);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(GraphVerifier, ReportsSubgraphsNestedDeeperThanTheLimit) {
  for (int levels : {kMaxSubgraphDepth + 1, 1000}) {
    ComputeGraphPtr root = NestedCalls(levels);
    Status s = GraphVerifier::Verify(*root);
    ASSERT_FALSE(s.ok()) << levels << " levels";
    EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
    EXPECT_TRUE(Contains(s.message(),
                         "subgraph 'g33' of node 'call' (PartitionedCall) in graph "
                         "'g32' is nested 33 levels deep; subgraphs may nest at "
                         "most 32 levels"))
        << s.message();
  }
  // A graph about to be attached below a root counts its own level.
  ComputeGraphPtr root = NestedCalls(kMaxSubgraphDepth);
  EXPECT_TRUE(GraphVerifier::VerifySubgraphDepth(*root, /*level=*/0).ok());
  Status s = GraphVerifier::VerifySubgraphDepth(*root, /*level=*/1);
  EXPECT_TRUE(Contains(s.message(),
                       "'g32' of node 'call' (PartitionedCall) in graph 'g31' is "
                       "nested 33 levels deep"))
      << s.message();
}

TEST(GraphVerifier, ReportsASubgraphThatContainsItself) {
  ComputeGraphPtr root = NestedCalls(3);
  // g3 names g1 as its subgraph: g1 > g2 > g3 > g1 > ...
  NodePtr back = AddNode(root->GetSubgraph("g3"), "back", "PartitionedCall", 0, 0, {4});
  back->GetOpDesc()->AddSubgraphInstanceName("g1");
  Status s = GraphVerifier::VerifySubgraphDepth(*root);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "contains itself through its own subgraphs")) << s.message();
}

}  // namespace
}  // namespace ge

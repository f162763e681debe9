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

}  // namespace
}  // namespace ge

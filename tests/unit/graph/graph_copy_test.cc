// Tests for GraphUtils::CopyComputeGraph and CheckEqual.
#include <gtest/gtest.h>

#include "ge/graph/attr_value.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Contains;
using testing::Ctrl;
using testing::Link;
using testing::Names;

// x -> if(then: a -> relu -> out, else: b -> out) -> y, plus a control edge and attributes.
ComputeGraphPtr BuildGraphWithSubgraphs() {
  auto root = std::make_shared<ComputeGraph>("root");
  auto x = AddNode(root, "x", "Data", 0, 1, {4});
  auto cond = AddNode(root, "if", "If", 1, 1, {4});
  auto y = AddNode(root, "y", "NetOutput", 1, 0, {4});
  auto dep = AddNode(root, "dep", "NoOp", 0, 0, {4});
  Link(x, 0, cond, 0);
  Link(cond, 0, y, 0);
  Ctrl(dep, y);
  EXPECT_TRUE(root->AddOutputNode(cond, 0).ok());
  EXPECT_TRUE(AttrUtils::SetListInt(cond->GetOpDesc(), "axes", std::vector<int64_t>{1, -1}));
  EXPECT_TRUE(AttrUtils::SetStr(root, "framework", "onnx"));
  cond->GetOpDesc()->SetStreamId(3);

  auto then_graph = std::make_shared<ComputeGraph>("then");
  auto a = AddNode(then_graph, "a", "Data", 0, 1, {4});
  auto relu = AddNode(then_graph, "relu", "Relu", 1, 1, {4});
  auto then_out = AddNode(then_graph, "then_out", "NetOutput", 1, 0, {4});
  Link(a, 0, relu, 0);
  Link(relu, 0, then_out, 0);
  EXPECT_TRUE(AttrUtils::SetInt(a->GetOpDesc(), kAttrParentNodeIndex, 0));
  EXPECT_TRUE(NodeUtils::SetSubgraph(cond, 0, then_graph).ok());

  auto else_graph = std::make_shared<ComputeGraph>("else");
  auto b = AddNode(else_graph, "b", "Data", 0, 1, {4});
  auto else_out = AddNode(else_graph, "else_out", "NetOutput", 1, 0, {4});
  Link(b, 0, else_out, 0);
  EXPECT_TRUE(NodeUtils::SetSubgraph(cond, 1, else_graph).ok());
  return root;
}

TEST(GraphCopy, CopyIsEqualAndIndependent) {
  auto root = BuildGraphWithSubgraphs();
  ASSERT_TRUE(GraphVerifier::Verify(*root).ok());
  auto copy = GraphUtils::CopyComputeGraph(root);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  ComputeGraphPtr c = copy.value();
  EXPECT_TRUE(GraphVerifier::Verify(*c).ok()) << GraphVerifier::Verify(*c).ToString();
  Status eq = GraphUtils::CheckEqual(*root, *c);
  EXPECT_TRUE(eq.ok()) << eq.ToString();
  EXPECT_EQ(c->GetAllSubgraphs().size(), 2u);
  EXPECT_EQ(Names(c->GetAllNodes()), Names(root->GetAllNodes()));
  // Nothing is shared: editing the copy leaves the original alone.
  c->FindNode("if")->GetOpDesc()->MutableOutputDesc(0)->SetDataType(DT_INT8);
  EXPECT_EQ(root->FindNode("if")->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_NE(c->FindNode("if").get(), root->FindNode("if").get());
  EXPECT_EQ(c->GetSubgraph("then")->GetParentNode(), c->FindNode("if"));
}

TEST(GraphCopy, CheckEqualNamesTheFirstDifference) {
  auto root = BuildGraphWithSubgraphs();
  auto c = GraphUtils::CopyComputeGraph(root).value();

  AttrUtils::SetInt(c->FindNode("if")->GetOpDesc(), "extra", 1);
  Status s = GraphUtils::CheckEqual(*root, *c);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'if' attributes")) << s.message();

  c = GraphUtils::CopyComputeGraph(root).value();
  c->FindNode("if")->GetOpDesc()->MutableOutputDesc(0)->SetShape(GeShape({8}));
  s = GraphUtils::CheckEqual(*root, *c);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "output desc 0")) << s.message();

  c = GraphUtils::CopyComputeGraph(root).value();
  ASSERT_TRUE(GraphUtils::RemoveEdge(c->FindNode("dep")->GetOutControlAnchor(),
                                     c->FindNode("y")->GetInControlAnchor())
                  .ok());
  s = GraphUtils::CheckEqual(*root, *c);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "y:ctrl_in")) << s.message();

  c = GraphUtils::CopyComputeGraph(root).value();
  auto relu = c->GetSubgraph("then")->FindNode("relu");
  relu->GetOpDesc()->SetType("Sigmoid");
  s = GraphUtils::CheckEqual(*root, *c);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "graph 'then'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "Relu vs Sigmoid")) << s.message();
}

TEST(GraphCopy, CopyKeepsFanOutOrderAndIds) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto a = AddNode(g, "a", "Data", 0, 1, {4});
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  auto c = AddNode(g, "c", "Relu", 1, 1, {4});
  Link(a, 0, c, 0);
  Link(a, 0, b, 0);
  a->GetOpDesc()->SetId(42);
  auto copy = GraphUtils::CopyComputeGraph(g).value();
  EXPECT_EQ(Names(copy->FindNode("a")->GetOutDataNodes()), (std::vector<std::string>{"c", "b"}));
  EXPECT_EQ(copy->FindNode("a")->GetOpDesc()->GetId(), 42);
}

TEST(GraphCopy, NullGraphIsAnError) { EXPECT_FALSE(GraphUtils::CopyComputeGraph(nullptr).ok()); }

}  // namespace
}  // namespace ge

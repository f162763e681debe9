// Tests for NodeUtils, OpDescUtils and AnchorUtils.
#include <gtest/gtest.h>

#include "ge/graph/utils/anchor_utils.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Contains;
using testing::Ctrl;
using testing::FloatDesc;
using testing::Link;
using testing::Names;

GeTensor FloatTensor(std::vector<float> values) {
  GeTensorDesc desc(GeShape({static_cast<int64_t>(values.size())}), FORMAT_ND, DT_FLOAT);
  return {desc, reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(float)};
}

TEST(NodeUtils, NeighboursByIndex) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto a = AddNode(g, "a", "Data", 0, 2, {4});
  auto b = AddNode(g, "b", "Add", 2, 1, {4});
  auto c = AddNode(g, "c", "Relu", 1, 1, {4});
  Link(a, 1, b, 1);
  Link(a, 1, c, 0);
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*b, 1), a);
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*b, 0), nullptr);
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*b, 7), nullptr);
  auto outs = NodeUtils::GetOutDataNodesWithAnchorByIndex(*a, 1);
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[0].second, b);
  EXPECT_EQ(outs[0].first->GetIdx(), 1);
  EXPECT_TRUE(NodeUtils::GetOutDataNodesWithAnchorByIndex(*a, 0).empty());
}

TEST(NodeUtils, GrowAndShrinkAnchors) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto a = AddNode(g, "a", "Data", 0, 1, {4});
  auto n = AddNode(g, "n", "ConcatV2", 1, 1, {4});
  ASSERT_TRUE(NodeUtils::AppendInputAnchor(n, 3).ok());
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(n->GetOpDesc()->GetAllInputsSize(), 3u);
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(2).GetDataType(), DT_UNDEFINED);
  Link(a, 0, n, 2);
  Status s = NodeUtils::RemoveInputAnchor(n, 1);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "still linked")) << s.message();
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 3u);
  ASSERT_TRUE(NodeUtils::RemoveInputAnchor(n, 2).ok() == false);
  ASSERT_TRUE(GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), n->GetInDataAnchor(2)).ok());
  ASSERT_TRUE(NodeUtils::RemoveInputAnchor(n, 1).ok());
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 1u);
  ASSERT_TRUE(NodeUtils::AppendOutputAnchor(n, 2).ok());
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 2u);
  ASSERT_TRUE(NodeUtils::RemoveOutputAnchor(n, 1).ok());
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 1u);
}

TEST(NodeUtils, SubgraphsAndParentInputs) {
  auto root = std::make_shared<ComputeGraph>("root");
  auto x = AddNode(root, "x", "Data", 0, 1, {4});
  auto loop = AddNode(root, "while", "While", 1, 1, {4});
  Link(x, 0, loop, 0);
  auto cond = std::make_shared<ComputeGraph>("cond");
  auto body = std::make_shared<ComputeGraph>("body");
  auto body_in = AddNode(body, "body_in", "Data", 0, 1, {4});
  auto body_out = AddNode(body, "body_out", "NetOutput", 1, 0, {4});
  Link(body_in, 0, body_out, 0);
  ASSERT_TRUE(AttrUtils::SetInt(body_in->GetOpDesc(), kAttrParentNodeIndex, 0));
  ASSERT_TRUE(NodeUtils::SetSubgraph(loop, 0, cond).ok());
  ASSERT_TRUE(NodeUtils::SetSubgraph(loop, 1, body).ok());
  EXPECT_EQ(NodeUtils::GetSubgraph(*loop, 1), body);
  EXPECT_EQ(NodeUtils::GetSubgraphs(*loop).size(), 2u);
  EXPECT_TRUE(NodeUtils::IsSubgraphInput(*body_in));
  EXPECT_FALSE(NodeUtils::IsSubgraphInput(*x));
  EXPECT_TRUE(NodeUtils::IsSubgraphOutput(*body_out));
  EXPECT_EQ(NodeUtils::GetParentInput(*body_in), x);
  // A second subgraph under the same name is refused.
  auto dup = std::make_shared<ComputeGraph>("body");
  Status s = NodeUtils::SetSubgraph(loop, 2, dup);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "already used")) << s.message();
}

TEST(OpDescUtils, ConstInputsAndWeights) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto x = AddNode(g, "x", "Data", 0, 1, {4});
  auto w_op = OpDescUtils::CreateConstOp("w", FloatTensor({1, 2, 3}));
  auto w = g->AddNode(w_op).value();
  auto mm = AddNode(g, "mm", "MatMulV2", 2, 1, {4});
  Link(x, 0, mm, 0);
  Link(w, 0, mm, 1);
  EXPECT_EQ(Names(OpDescUtils::GetConstInputs(*mm)), std::vector<std::string>{"w"});
  EXPECT_TRUE(OpDescUtils::IsInputConst(*mm, 1));
  EXPECT_FALSE(OpDescUtils::IsInputConst(*mm, 0));
  auto weights = OpDescUtils::GetWeights(*mm);
  ASSERT_EQ(weights.size(), 1u);
  EXPECT_EQ(weights[0].GetSize(), 12u);
  EXPECT_EQ(weights[0].GetTensorDesc().GetShape().GetDims(), std::vector<int64_t>{3});
  ASSERT_TRUE(OpDescUtils::SetConstValue(w, FloatTensor({1, 2, 3, 4})).ok());
  EXPECT_EQ(w->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), std::vector<int64_t>{4});
  auto missing = OpDescUtils::GetConstValue(*x);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.status().message(), "node 'x' (Data)"));
}

TEST(AnchorUtils, StatusAndControlEdges) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto a = AddNode(g, "a", "Data", 0, 1, {4});
  auto b = AddNode(g, "b", "Relu", 1, 1, {4});
  Link(a, 0, b, 0);
  EXPECT_EQ(AnchorUtils::GetStatus(a->GetOutDataAnchor(0)), ANCHOR_SUSPEND);
  ASSERT_TRUE(AnchorUtils::SetStatus(a->GetOutDataAnchor(0), ANCHOR_CONST).ok());
  EXPECT_EQ(AnchorUtils::GetStatus(a->GetOutDataAnchor(0)), ANCHOR_CONST);
  EXPECT_FALSE(AnchorUtils::SetStatus(a->GetOutDataAnchor(0), static_cast<AnchorStatus>(9)).ok());
  EXPECT_FALSE(AnchorUtils::SetStatus(nullptr, ANCHOR_DATA).ok());
  EXPECT_FALSE(AnchorUtils::HasControlEdge(a->GetOutDataAnchor(0)));
  EXPECT_FALSE(AnchorUtils::IsControlEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0)));
  Ctrl(a, b);
  EXPECT_TRUE(AnchorUtils::HasControlEdge(a->GetOutControlAnchor()));
  EXPECT_TRUE(AnchorUtils::IsControlEdge(a->GetOutControlAnchor(), b->GetInControlAnchor()));
  ASSERT_TRUE(GraphUtils::AddEdge(a->GetOutDataAnchor(0), b->GetInControlAnchor()).ok());
  EXPECT_TRUE(AnchorUtils::HasControlEdge(a->GetOutDataAnchor(0)));
}

TEST(NodeUtils, MoveOutputEdgesMovesDataAndControlPeers) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto x = AddNode(g, "x", "Data", 0, 1, {4});
  auto old_node = AddNode(g, "old", "Relu", 1, 2, {4});
  auto new_node = AddNode(g, "new", "Abs", 1, 2, {4});
  auto c0 = AddNode(g, "c0", "Neg", 1, 1, {4});
  auto c1 = AddNode(g, "c1", "Neg", 1, 1, {4});
  auto after = AddNode(g, "after", "NoOp", 0, 0, {4});
  Link(x, 0, old_node, 0);
  Link(x, 0, new_node, 0);
  Link(old_node, 0, c0, 0);
  Link(old_node, 1, c1, 0);
  Ctrl(old_node, after);
  ASSERT_TRUE(NodeUtils::MoveOutputEdges(old_node, new_node).ok());
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*c0, 0), new_node);
  EXPECT_EQ(c1->GetInDataAnchor(0)->GetPeerOutAnchor()->GetIdx(), 1);
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*c1, 0), new_node);
  EXPECT_TRUE(old_node->GetOutDataNodes().empty());
  EXPECT_EQ(Names(new_node->GetOutControlNodes()), std::vector<std::string>{"after"});
  EXPECT_EQ(Names(NodeUtils::GetInDataNodes(*c0)), std::vector<std::string>{"new"});

  auto one_output = AddNode(g, "one", "Abs", 1, 1, {4});
  Status s = NodeUtils::MoveOutputEdges(new_node, one_output);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "'new' has 2 outputs but 'one' has 1")) << s.message();
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*c0, 0), new_node);  // nothing moved
  EXPECT_FALSE(NodeUtils::MoveOutputEdges(nullptr, new_node).ok());
}

TEST(NodeUtils, AnchorStatusIsSetOnceSetAllAnchorStatusRan) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto n = AddNode(g, "n", "Relu", 1, 1, {4});
  EXPECT_FALSE(NodeUtils::IsAnchorStatusSet(n));
  ASSERT_TRUE(NodeUtils::SetAllAnchorStatus(n).ok());
  EXPECT_TRUE(NodeUtils::IsAnchorStatusSet(*n));
  EXPECT_FALSE(NodeUtils::IsAnchorStatusSet(NodePtr()));
  EXPECT_FALSE(NodeUtils::SetAllAnchorStatus(NodePtr()).ok());
}

TEST(AnchorUtils, GetIdxIsTheIndexOrMinusOne) {
  auto g = std::make_shared<ComputeGraph>("g");
  auto n = AddNode(g, "n", "Add", 2, 1, {4});
  EXPECT_EQ(AnchorUtils::GetIdx(n->GetInDataAnchor(1)), 1);
  EXPECT_EQ(AnchorUtils::GetIdx(n->GetOutDataAnchor(0)), 0);
  EXPECT_EQ(AnchorUtils::GetIdx(n->GetInControlAnchor()), -1);
  EXPECT_EQ(AnchorUtils::GetIdx(nullptr), -1);
}

TEST(OpDescUtils, ClearInputDescRemovesOneInputOfALoneOpDesc) {
  auto op = std::make_shared<OpDesc>("op", "Add");
  ASSERT_TRUE(op->AddInputDesc("x1", FloatDesc()).ok());
  ASSERT_TRUE(op->AddInputDesc("x2", FloatDesc({3})).ok());
  ASSERT_TRUE(OpDescUtils::ClearInputDesc(op, 0).ok());
  ASSERT_EQ(op->GetAllInputsSize(), 1u);
  EXPECT_EQ(op->GetInputNameByIndex(0), "x2");
  EXPECT_FALSE(OpDescUtils::ClearInputDesc(op, 5).ok());
  auto g = std::make_shared<ComputeGraph>("g");
  auto n = AddNode(g, "n", "Add", 2, 1, {4});
  Status s = OpDescUtils::ClearInputDesc(n->GetOpDesc(), 0);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "is a node's")) << s.message();
}

TEST(OpDescUtils, SetSubgraphInstanceNameFindsTheIrName) {
  auto op = std::make_shared<OpDesc>("if", "If");
  ASSERT_TRUE(op->AddSubgraphName("then_branch").ok());
  ASSERT_TRUE(op->AddSubgraphName("else_branch").ok());
  ASSERT_TRUE(OpDescUtils::SetSubgraphInstanceName("else_branch", "g_else", op).ok());
  EXPECT_EQ(op->GetSubgraphInstanceNames(), (std::vector<std::string>{"", "g_else"}));
  EXPECT_EQ(op->GetSubgraphNameIndexes().at("then_branch"), 0u);
  Status s = OpDescUtils::SetSubgraphInstanceName("body", "g", op);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(),
                       "has no subgraph named 'body' (its subgraphs: else_branch, "
                       "then_branch)"))
      << s.message();
}

}  // namespace
}  // namespace ge

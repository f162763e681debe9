// Tests for GraphUtils: edge edits, splicing, isolation, control-edge moves, fusion placement.
#include "ge/graph/utils/graph_utils.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Contains;
using testing::Ctrl;
using testing::Link;
using testing::Names;

class GraphUtilsTest : public ::testing::Test {
 protected:
  ComputeGraphPtr graph_ = std::make_shared<ComputeGraph>("g");
};

TEST_F(GraphUtilsTest, AddAndRemoveEdge) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  ASSERT_TRUE(GraphUtils::AddEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0)).ok());
  EXPECT_EQ(Names(b->GetInDataNodes()), std::vector<std::string>{"a"});
  ASSERT_TRUE(GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0)).ok());
  EXPECT_TRUE(b->GetInDataNodes().empty());
  Status again = GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0));
  EXPECT_FALSE(again.ok());
  EXPECT_TRUE(Contains(again.message(), "not linked")) << again.message();
  EXPECT_FALSE(GraphUtils::RemoveEdge(nullptr, b->GetInDataAnchor(0)).ok());
}

TEST_F(GraphUtilsTest, DataToControlEdgeIsAllowed) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "NoOp", 0, 0, {4});
  ASSERT_TRUE(GraphUtils::AddEdge(a->GetOutDataAnchor(0), b->GetInControlAnchor()).ok());
  EXPECT_EQ(Names(b->GetInControlNodes()), std::vector<std::string>{"a"});
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
}

TEST_F(GraphUtilsTest, ReplaceEdgeSrcKeepsConsumerAndMovesProducer) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto a2 = AddNode(graph_, "a2", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  Link(a, 0, b, 0);
  ASSERT_TRUE(GraphUtils::ReplaceEdgeSrc(a->GetOutDataAnchor(0), b->GetInDataAnchor(0),
                                         a2->GetOutDataAnchor(0))
                  .ok());
  EXPECT_EQ(Names(b->GetInDataNodes()), std::vector<std::string>{"a2"});
  EXPECT_TRUE(a->GetOutDataNodes().empty());
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
  // Replacing an edge that does not exist fails.
  EXPECT_FALSE(GraphUtils::ReplaceEdgeSrc(a->GetOutDataAnchor(0), b->GetInDataAnchor(0),
                                          a2->GetOutDataAnchor(0))
                   .ok());
}

TEST_F(GraphUtilsTest, ReplaceEdgeDstKeepsFanOutPosition) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  auto c = AddNode(graph_, "c", "Relu", 1, 1, {4});
  auto d = AddNode(graph_, "d", "Relu", 1, 1, {4});
  Link(a, 0, b, 0);
  Link(a, 0, c, 0);
  ASSERT_TRUE(GraphUtils::ReplaceEdgeDst(a->GetOutDataAnchor(0), b->GetInDataAnchor(0),
                                         d->GetInDataAnchor(0))
                  .ok());
  EXPECT_EQ(Names(a->GetOutDataNodes()), (std::vector<std::string>{"d", "c"}));
}

TEST_F(GraphUtilsTest, ReplaceControlEdges) {
  auto a = AddNode(graph_, "a", "NoOp", 0, 0, {4});
  auto b = AddNode(graph_, "b", "NoOp", 0, 0, {4});
  auto c = AddNode(graph_, "c", "NoOp", 0, 0, {4});
  Ctrl(a, b);
  ASSERT_TRUE(GraphUtils::ReplaceEdgeSrc(a->GetOutControlAnchor(), b->GetInControlAnchor(),
                                         c->GetOutControlAnchor())
                  .ok());
  EXPECT_EQ(Names(b->GetInControlNodes()), std::vector<std::string>{"c"});
  ASSERT_TRUE(GraphUtils::ReplaceEdgeDst(c->GetOutControlAnchor(), b->GetInControlAnchor(),
                                         a->GetInControlAnchor())
                  .ok());
  EXPECT_EQ(Names(c->GetOutControlNodes()), std::vector<std::string>{"a"});
}

TEST_F(GraphUtilsTest, InsertNodeBetweenDataAnchorsSplicesTheEdge) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  auto cast = AddNode(graph_, "cast", "Cast", 1, 1, {4});
  Link(a, 0, b, 0);
  ASSERT_TRUE(
      GraphUtils::InsertNodeBetweenDataAnchors(a->GetOutDataAnchor(0), b->GetInDataAnchor(0), cast)
          .ok());
  EXPECT_EQ(Names(cast->GetInDataNodes()), std::vector<std::string>{"a"});
  EXPECT_EQ(Names(b->GetInDataNodes()), std::vector<std::string>{"cast"});
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
  // Its input is now taken: inserting it again elsewhere fails cleanly.
  auto c = AddNode(graph_, "c", "Relu", 1, 1, {4});
  Link(a, 0, c, 0);
  Status s =
      GraphUtils::InsertNodeBetweenDataAnchors(a->GetOutDataAnchor(0), c->GetInDataAnchor(0), cast);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "already has a producer")) << s.message();
  EXPECT_EQ(Names(c->GetInDataNodes()), std::vector<std::string>{"a"});
  // A missing anchor index is an error, not a crash.
  EXPECT_FALSE(GraphUtils::InsertNodeBetweenDataAnchors(a->GetOutDataAnchor(0),
                                                        c->GetInDataAnchor(0), cast, 5, 0)
                   .ok());
}

TEST_F(GraphUtilsTest, InsertNodeAfterMovesEveryConsumer) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  auto c = AddNode(graph_, "c", "Relu", 1, 1, {4});
  auto t = AddNode(graph_, "t", "TransData", 1, 1, {4});
  Link(a, 0, b, 0);
  Link(a, 0, c, 0);
  ASSERT_TRUE(GraphUtils::InsertNodeAfter(a->GetOutDataAnchor(0), t).ok());
  EXPECT_EQ(Names(a->GetOutDataNodes()), std::vector<std::string>{"t"});
  EXPECT_EQ(Names(t->GetOutDataNodes()), (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
}

TEST_F(GraphUtilsTest, InsertNodeBeforeWithAndWithoutProducer) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Add", 2, 1, {4});
  auto t1 = AddNode(graph_, "t1", "Cast", 1, 1, {4});
  auto t2 = AddNode(graph_, "t2", "Const", 0, 1, {4});
  Link(a, 0, b, 0);
  ASSERT_TRUE(GraphUtils::InsertNodeBefore(b->GetInDataAnchor(0), t1).ok());
  ASSERT_TRUE(GraphUtils::InsertNodeBefore(b->GetInDataAnchor(1), t2).ok());
  EXPECT_EQ(Names(b->GetInDataNodes()), (std::vector<std::string>{"t1", "t2"}));
  EXPECT_EQ(Names(t1->GetInDataNodes()), std::vector<std::string>{"a"});
}

TEST_F(GraphUtilsTest, IsolateNodeRelinksMappedOutputsAndControl) {
  // p -> id -> {c1, c2};  q -> id:1 (unmapped second output feeds c3);  cp ..> id ..> cs
  auto p = AddNode(graph_, "p", "Data", 0, 1, {4});
  auto q = AddNode(graph_, "q", "Data", 0, 1, {4});
  auto id = AddNode(graph_, "id", "IdentityN", 2, 2, {4});
  auto c1 = AddNode(graph_, "c1", "Relu", 1, 1, {4});
  auto c2 = AddNode(graph_, "c2", "Relu", 1, 1, {4});
  auto c3 = AddNode(graph_, "c3", "Relu", 1, 1, {4});
  auto cp = AddNode(graph_, "cp", "NoOp", 0, 0, {4});
  auto cs = AddNode(graph_, "cs", "NoOp", 0, 0, {4});
  Link(p, 0, id, 0);
  Link(q, 0, id, 1);
  Link(id, 0, c1, 0);
  Link(id, 0, c2, 0);
  Link(id, 1, c3, 0);
  Ctrl(cp, id);
  Ctrl(id, cs);
  ASSERT_TRUE(GraphUtils::IsolateNode(id, {0, -1}).ok());
  EXPECT_EQ(Names(c1->GetInDataNodes()), std::vector<std::string>{"p"});
  EXPECT_EQ(Names(c2->GetInDataNodes()), std::vector<std::string>{"p"});
  EXPECT_TRUE(c3->GetInDataNodes().empty());
  EXPECT_TRUE(id->GetInNodes().empty());
  EXPECT_TRUE(id->GetOutNodes().empty());
  // Ordering is kept: the control predecessor and the producers now come before cs.
  auto cs_preds = Names(cs->GetInControlNodes());
  EXPECT_NE(std::find(cs_preds.begin(), cs_preds.end(), "cp"), cs_preds.end());
  EXPECT_NE(std::find(cs_preds.begin(), cs_preds.end(), "p"), cs_preds.end());
  // A consumer that now reads the producer p gets no control edge from it too: only those of
  // the control predecessor and of q, whose data edge went.
  auto c1_preds = Names(c1->GetInControlNodes());
  std::sort(c1_preds.begin(), c1_preds.end());
  EXPECT_EQ(c1_preds, (std::vector<std::string>{"cp", "q"}));
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
  // A bad io_map entry is reported.
  auto id2 = AddNode(graph_, "id2", "Identity", 1, 1, {4});
  Status s = GraphUtils::IsolateNode(id2, {3});
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "io_map[0] = 3")) << s.message();
}

TEST_F(GraphUtilsTest, IsolateNodeUsesOneNoOpForManyControlEdges) {
  auto hub = AddNode(graph_, "hub", "NoOp", 0, 0, {4});
  std::vector<NodePtr> preds, succs;
  for (int i = 0; i < 40; ++i) {
    preds.push_back(AddNode(graph_, "pred" + std::to_string(i), "NoOp", 0, 0, {4}));
    succs.push_back(AddNode(graph_, "succ" + std::to_string(i), "NoOp", 0, 0, {4}));
    Ctrl(preds.back(), hub);
    Ctrl(hub, succs.back());
  }
  ASSERT_TRUE(GraphUtils::IsolateNode(hub, {}).ok());  // 40 x 40 = 1600 > 1000
  NodePtr relay = graph_->FindNode("hub_ctrl_relay");
  ASSERT_NE(relay, nullptr);
  EXPECT_EQ(relay->GetType(), "NoOp");
  EXPECT_EQ(relay->GetInControlNodes().size(), 40u);
  EXPECT_EQ(relay->GetOutControlNodes().size(), 40u);
  EXPECT_EQ(Names(succs[7]->GetInControlNodes()), std::vector<std::string>{"hub_ctrl_relay"});
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
}

TEST_F(GraphUtilsTest, IsolateNodeLinksDirectlyBelowTheLimit) {
  auto hub = AddNode(graph_, "hub", "NoOp", 0, 0, {4});
  auto p = AddNode(graph_, "p", "NoOp", 0, 0, {4});
  auto s1 = AddNode(graph_, "s1", "NoOp", 0, 0, {4});
  auto s2 = AddNode(graph_, "s2", "NoOp", 0, 0, {4});
  Ctrl(p, hub);
  Ctrl(hub, s1);
  Ctrl(hub, s2);
  ASSERT_TRUE(GraphUtils::IsolateNode(hub, {}).ok());
  EXPECT_EQ(graph_->FindNode("hub_ctrl_relay"), nullptr);
  // In the order the hub had them, whatever the addresses.
  EXPECT_EQ(Names(p->GetOutControlNodes()), (std::vector<std::string>{"s1", "s2"}));
}

TEST_F(GraphUtilsTest, RemoveNodeWithoutRelinkDropsEverything) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto b = AddNode(graph_, "b", "Relu", 1, 1, {4});
  auto c = AddNode(graph_, "c", "Relu", 1, 1, {4});
  Link(a, 0, b, 0);
  Link(b, 0, c, 0);
  ASSERT_TRUE(graph_->AddOutputNode(b, 0).ok());
  ASSERT_TRUE(GraphUtils::RemoveNodeWithoutRelink(graph_, b).ok());
  EXPECT_EQ(graph_->FindNode("b"), nullptr);
  EXPECT_TRUE(c->GetInDataNodes().empty());
  EXPECT_TRUE(a->GetOutDataNodes().empty());
  EXPECT_TRUE(graph_->GetGraphOutNodesInfo().empty());
  EXPECT_FALSE(GraphUtils::RemoveNodeWithoutRelink(graph_, b).ok());
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
}

TEST_F(GraphUtilsTest, CopyAndMoveControlEdges) {
  auto p = AddNode(graph_, "p", "NoOp", 0, 0, {4});
  auto s = AddNode(graph_, "s", "NoOp", 0, 0, {4});
  auto x = AddNode(graph_, "x", "NoOp", 0, 0, {4});
  auto y = AddNode(graph_, "y", "NoOp", 0, 0, {4});
  Ctrl(p, x);
  Ctrl(x, s);
  ASSERT_TRUE(GraphUtils::CopyInCtrlEdges(x, y).ok());
  ASSERT_TRUE(GraphUtils::CopyInCtrlEdges(x, y).ok());  // a second copy adds nothing
  EXPECT_EQ(Names(y->GetInControlNodes()), std::vector<std::string>{"p"});
  EXPECT_EQ(Names(x->GetInControlNodes()), std::vector<std::string>{"p"});
  ASSERT_TRUE(GraphUtils::MoveOutCtrlEdges(x, y).ok());
  EXPECT_TRUE(x->GetOutControlNodes().empty());
  EXPECT_EQ(Names(y->GetOutControlNodes()), std::vector<std::string>{"s"});
  ASSERT_TRUE(GraphUtils::MoveInCtrlEdges(x, y).ok());
  EXPECT_TRUE(x->GetInControlNodes().empty());
  ASSERT_TRUE(GraphUtils::CopyOutCtrlEdges(y, x).ok());
  EXPECT_EQ(Names(x->GetOutControlNodes()), std::vector<std::string>{"s"});
  EXPECT_TRUE(GraphVerifier::Verify(*graph_).ok());
}

TEST_F(GraphUtilsTest, FuseNodeKeepTopoInsertsAfterSmallestIdAndInherits) {
  auto a = AddNode(graph_, "a", "Data", 0, 1, {4});
  auto conv = AddNode(graph_, "conv", "Conv2D", 1, 1, {4});
  auto relu = AddNode(graph_, "relu", "Relu", 1, 1, {4});
  auto tail = AddNode(graph_, "tail", "Relu", 1, 1, {4});
  ASSERT_TRUE(AttrUtils::SetStr(conv->GetOpDesc(), "_user_stream_label", "s1"));
  ASSERT_TRUE(AttrUtils::SetStr(relu->GetOpDesc(), "_user_stream_label", "s1"));
  auto fused = std::make_shared<OpDesc>("conv_relu", "FusedConv2D");
  auto nodes = GraphUtils::FuseNodeKeepTopo({relu, conv}, {fused});
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  EXPECT_EQ(Names(graph_->GetDirectNode()),
            (std::vector<std::string>{"a", "conv", "conv_relu", "relu", "tail"}));
  std::string label;
  EXPECT_TRUE(AttrUtils::GetStr(fused, "_user_stream_label", label));
  EXPECT_EQ(label, "s1");
  (void)a;
  (void)tail;
}

TEST_F(GraphUtilsTest, FuseNodeKeepTopoRefusesDisagreeingOriginals) {
  auto conv = AddNode(graph_, "conv", "Conv2D", 1, 1, {4});
  auto relu = AddNode(graph_, "relu", "Relu", 1, 1, {4});
  ASSERT_TRUE(AttrUtils::SetStr(conv->GetOpDesc(), "_op_aicore_num", "2"));
  ASSERT_TRUE(AttrUtils::SetStr(relu->GetOpDesc(), "_op_aicore_num", "4"));
  auto result =
      GraphUtils::FuseNodeKeepTopo({conv, relu}, {std::make_shared<OpDesc>("f", "Fused")});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(Contains(result.status().message(), "_op_aicore_num"));
  EXPECT_EQ(graph_->GetDirectNodesSize(), 2u);
}

TEST_F(GraphUtilsTest, FuseNodeKeepTopoCarriesTheSuperKernelScopeAndOptions) {
  auto conv = AddNode(graph_, "conv", "Conv2D", 1, 1, {4});
  auto relu = AddNode(graph_, "relu", "Relu", 1, 1, {4});
  for (const NodePtr& node : {conv, relu}) {
    ASSERT_TRUE(AttrUtils::SetStr(node->GetOpDesc(), "_super_kernel_scope", "scope_a"));
    ASSERT_TRUE(AttrUtils::SetStr(node->GetOpDesc(), "_super_kernel_options", "stream-fusion=1"));
  }
  auto fused = std::make_shared<OpDesc>("conv_relu", "FusedConv2D");
  ASSERT_TRUE(GraphUtils::FuseNodeKeepTopo({conv, relu}, {fused}).ok());
  std::string scope;
  std::string options;
  EXPECT_TRUE(AttrUtils::GetStr(fused, "_super_kernel_scope", scope));
  EXPECT_TRUE(AttrUtils::GetStr(fused, "_super_kernel_options", options));
  EXPECT_EQ(scope, "scope_a");
  EXPECT_EQ(options, "stream-fusion=1");

  auto other = AddNode(graph_, "other", "Relu", 1, 1, {4});
  ASSERT_TRUE(AttrUtils::SetStr(other->GetOpDesc(), "_super_kernel_scope", "scope_b"));
  auto refused =
      GraphUtils::FuseNodeKeepTopo({conv, other}, {std::make_shared<OpDesc>("f", "Fused")});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(Contains(refused.status().message(), "_super_kernel_scope"))
      << refused.status().message();
}

}  // namespace
}  // namespace ge

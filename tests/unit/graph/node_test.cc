// Tests of Node: anchors made from the OpDesc, neighbour queries (data first, then control),
// AddLinkFrom, anchor updates and removal.
#include "ge/graph/node.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Ctrl;
using testing::FloatDesc;
using testing::HasError;
using testing::IsOk;
using testing::Link;
using testing::MakeOp;
using testing::Names;
using NameList = std::vector<std::string>;

ComputeGraphPtr NewGraph() { return std::make_shared<ComputeGraph>("g"); }

TEST(Node, AnchorsAreMadeFromTheOpDesc) {
  auto graph = NewGraph();
  OpDescPtr op = MakeOp("n", "Concat", 3, 2);
  // An invalid (optional, unset) input still gets its anchor.
  ASSERT_TRUE(
      IsOk(op->AddOptionalInputDesc("opt", GeTensorDesc(GeShape(), FORMAT_ND, DT_UNDEFINED))));
  Result<NodePtr> added = graph->AddNode(op);
  ASSERT_TRUE(IsOk(added));
  const NodePtr node = added.value();

  ASSERT_EQ(node->GetAllInDataAnchorsSize(), 4u);
  ASSERT_EQ(node->GetAllOutDataAnchorsSize(), 2u);
  for (int i = 0; i < 4; ++i) {
    const InDataAnchorPtr anchor = node->GetInDataAnchor(i);
    ASSERT_NE(anchor, nullptr);
    EXPECT_EQ(anchor->GetIdx(), i);
    EXPECT_EQ(anchor->GetKind(), Anchor::Kind::kInData);
    EXPECT_EQ(anchor->GetOwnerNode(), node);
    EXPECT_EQ(node->GetInDataAnchorBarePtr(i), anchor.get());
    EXPECT_EQ(node->GetAllInDataAnchors()[static_cast<size_t>(i)], anchor);
  }
  for (int i = 0; i < 2; ++i) {
    const OutDataAnchorPtr anchor = node->GetOutDataAnchor(i);
    ASSERT_NE(anchor, nullptr);
    EXPECT_EQ(anchor->GetIdx(), i);
    EXPECT_EQ(anchor->GetOwnerNode(), node);
    EXPECT_EQ(node->GetOutDataAnchorBarePtr(i), anchor.get());
  }
  ASSERT_NE(node->GetInControlAnchor(), nullptr);
  ASSERT_NE(node->GetOutControlAnchor(), nullptr);
  EXPECT_EQ(node->GetInControlAnchor()->GetIdx(), -1);
  EXPECT_EQ(node->GetOutControlAnchor()->GetIdx(), -1);
  EXPECT_EQ(node->GetInControlAnchor()->GetOwnerNode(), node);
  EXPECT_EQ(node->GetOutControlAnchor()->GetOwnerNode(), node);
}

TEST(Node, AllAnchorListsPutTheControlAnchorLast) {
  auto graph = NewGraph();
  NodePtr node = AddNode(graph, "n", "Op", 2, 1);
  const std::vector<AnchorPtr> in = node->GetAllInAnchors();
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[0], node->GetInDataAnchor(0));
  EXPECT_EQ(in[1], node->GetInDataAnchor(1));
  EXPECT_EQ(in[2], node->GetInControlAnchor());
  const std::vector<AnchorPtr> out = node->GetAllOutAnchors();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], node->GetOutDataAnchor(0));
  EXPECT_EQ(out[1], node->GetOutControlAnchor());
}

TEST(Node, OutOfRangeAnchorsAreNull) {
  auto graph = NewGraph();
  NodePtr node = AddNode(graph, "n", "Op", 1, 1);
  EXPECT_EQ(node->GetInDataAnchor(1), nullptr);
  EXPECT_EQ(node->GetInDataAnchor(-1), nullptr);
  EXPECT_EQ(node->GetOutDataAnchor(1), nullptr);
  EXPECT_EQ(node->GetOutDataAnchor(-1), nullptr);
  EXPECT_EQ(node->GetInDataAnchorBarePtr(5), nullptr);
  EXPECT_EQ(node->GetOutDataAnchorBarePtr(-3), nullptr);
}

TEST(Node, NameTypeOpDescAndOwner) {
  auto graph = NewGraph();
  OpDescPtr op = MakeOp("relu", "Relu", 1, 1);
  Result<NodePtr> node = graph->AddNode(op);
  ASSERT_TRUE(IsOk(node));
  EXPECT_EQ((*node)->GetName(), "relu");
  EXPECT_EQ((*node)->GetType(), "Relu");
  EXPECT_EQ((*node)->GetOpDesc(), op);
  EXPECT_EQ((*node)->GetOpDescBarePtr(), op.get());
  EXPECT_EQ((*node)->GetOwnerComputeGraph(), graph);
  EXPECT_EQ((*node)->GetOwnerComputeGraphBarePtr(), graph.get());
  EXPECT_EQ((*node)->DebugString(), "relu(Relu)");
  op->SetName("relu2");
  EXPECT_EQ((*node)->GetName(), "relu2") << "the name is the OpDesc's";
}

TEST(Node, OwnerGraphIsWeak) {
  NodePtr node;
  {
    auto graph = NewGraph();
    node = AddNode(graph, "n", "Op");
  }
  EXPECT_EQ(node->GetOwnerComputeGraph(), nullptr);
  EXPECT_EQ(node->GetOwnerComputeGraphBarePtr(), nullptr);
}

TEST(Node, CreateNeedsAnOpDescAndDoesNotAddTheNode) {
  auto graph = NewGraph();
  EXPECT_TRUE(HasError(Node::Create(nullptr, graph), StatusCode::kParamInvalid, {"null"}));
  Result<NodePtr> node = Node::Create(MakeOp("free", "Op", 2, 1), graph);
  ASSERT_TRUE(IsOk(node));
  EXPECT_EQ((*node)->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ((*node)->GetOwnerComputeGraph(), graph);
  EXPECT_EQ(graph->GetDirectNodesSize(), 0u);
  EXPECT_FALSE(graph->HasNode(node->get()));
  ASSERT_TRUE(IsOk(graph->AddNode(*node)));
  EXPECT_TRUE(graph->HasNode(node->get()));
  EXPECT_EQ(graph->FindNode("free"), *node);
}

TEST(Node, InAndOutNodesListDataPeersThenControlPeers) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  NodePtr c = AddNode(graph, "c", "Op");
  NodePtr n = AddNode(graph, "n", "Op", 2, 2);
  NodePtr x = AddNode(graph, "x", "Op");
  NodePtr y = AddNode(graph, "y", "Op");
  NodePtr z = AddNode(graph, "z", "Op");
  // Links made in an order that differs from the expected listing order.
  Ctrl(c, n);
  Ctrl(n, z);
  Link(b, 0, n, 1);
  Link(a, 0, n, 0);
  Link(n, 1, y, 0);
  Link(n, 0, x, 0);

  EXPECT_EQ(Names(n->GetInNodes()), (NameList{"a", "b", "c"}));
  EXPECT_EQ(Names(n->GetInAllNodes()), (NameList{"a", "b", "c"}));
  EXPECT_EQ(Names(n->GetInDataNodes()), (NameList{"a", "b"})) << "by input index";
  EXPECT_EQ(Names(n->GetInControlNodes()), NameList{"c"});
  EXPECT_EQ(n->GetInDataNodesSize(), 2u);

  EXPECT_EQ(Names(n->GetOutNodes()), (NameList{"x", "y", "z"}));
  EXPECT_EQ(Names(n->GetOutAllNodes()), (NameList{"x", "y", "z"}));
  EXPECT_EQ(Names(n->GetOutDataNodes()), (NameList{"x", "y"})) << "by output index";
  EXPECT_EQ(Names(n->GetOutControlNodes()), NameList{"z"});
  EXPECT_EQ(n->GetOutDataNodesSize(), 2u);

  EXPECT_EQ(Names(a->GetOutNodes()), NameList{"n"});
  EXPECT_EQ(Names(z->GetInControlNodes()), NameList{"n"});
  EXPECT_TRUE(a->GetInNodes().empty());
}

TEST(Node, OutDataNodesFollowEachConsumerOfEachOutput) {
  auto graph = NewGraph();
  NodePtr n = AddNode(graph, "n", "Op", 0, 2);
  NodePtr p = AddNode(graph, "p", "Op", 2, 0);
  NodePtr q = AddNode(graph, "q", "Op", 1, 0);
  Link(n, 0, p, 1);
  Link(n, 0, q, 0);
  Link(n, 1, p, 0);
  EXPECT_EQ(Names(n->GetOutDataNodes()), (NameList{"p", "q", "p"}));
  EXPECT_EQ(n->GetOutDataNodesSize(), 3u);
  EXPECT_EQ(Names(p->GetInDataNodes()), (NameList{"n", "n"}));
}

TEST(Node, UnlinkedInputsAreSkipped) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr n = AddNode(graph, "n", "Op", 3, 1);
  Link(a, 0, n, 2);
  EXPECT_EQ(Names(n->GetInDataNodes()), NameList{"a"});
  EXPECT_EQ(n->GetInDataNodesSize(), 1u);
  const auto pairs = n->GetInDataNodesAndAnchors();
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first, a);
  EXPECT_EQ(pairs[0].second, a->GetOutDataAnchor(0));
}

TEST(Node, MixedEdgesAppearOnBothEnds) {
  // Data→control and control→data links are allowed; whichever end is asked, the two nodes are
  // neighbours, and the edge counts as a control dependency (it carries no tensor).
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  NodePtr c = AddNode(graph, "c", "Op");
  NodePtr d = AddNode(graph, "d", "Op");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(c->GetOutControlAnchor(), d->GetInDataAnchor(0))));

  // out-data → in-control.
  EXPECT_EQ(Names(b->GetInNodes()), NameList{"a"});
  EXPECT_EQ(Names(b->GetInControlNodes()), NameList{"a"});
  EXPECT_EQ(Names(a->GetOutNodes()), NameList{"b"});
  EXPECT_EQ(Names(a->GetOutControlNodes()), NameList{"b"});
  EXPECT_TRUE(a->GetOutDataNodes().empty());
  EXPECT_TRUE(b->GetInDataNodes().empty());

  // out-control → in-data.
  EXPECT_EQ(Names(c->GetOutNodes()), NameList{"d"});
  EXPECT_EQ(Names(c->GetOutControlNodes()), NameList{"d"});
  EXPECT_EQ(Names(d->GetInNodes()), NameList{"c"});
  EXPECT_EQ(Names(d->GetInControlNodes()), NameList{"c"});
  EXPECT_TRUE(d->GetInDataNodes().empty());
  EXPECT_TRUE(c->GetOutDataNodes().empty());
}

TEST(Node, DataNodesAndAnchorsPairNodesWithTheirPorts) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op", 0, 2);
  NodePtr b = AddNode(graph, "b", "Op", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 3, 1);
  NodePtr x = AddNode(graph, "x", "Op", 2, 0);
  Link(b, 0, n, 0);
  Link(a, 1, n, 2);
  Link(n, 0, x, 1);
  Link(n, 0, x, 0);

  const auto in = n->GetInDataNodesAndAnchors();
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].first, b);
  EXPECT_EQ(in[0].second, b->GetOutDataAnchor(0));
  EXPECT_EQ(in[1].first, a);
  EXPECT_EQ(in[1].second, a->GetOutDataAnchor(1));

  const auto out = n->GetOutDataNodesAndAnchors();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first, x);
  EXPECT_EQ(out[0].second, x->GetInDataAnchor(1));
  EXPECT_EQ(out[1].second, x->GetInDataAnchor(0));
}

TEST(Node, AddLinkFromAppendsAnInput) {
  auto graph = NewGraph();
  NodePtr src = AddNode(graph, "src", "Op", 0, 1);
  src->GetOpDesc()->MutableOutputDesc(0u)->SetDataType(DT_INT64);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  ASSERT_TRUE(IsOk(n->AddLinkFrom(src)));
  ASSERT_EQ(n->GetOpDesc()->GetAllInputsSize(), 2u);
  ASSERT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(1u).GetDataType(), DT_INT64) << "copied from src";
  EXPECT_EQ(n->GetOpDesc()->GetInputNameByIndex(1), "__input1");
  EXPECT_EQ(n->GetInDataAnchor(1)->GetPeerOutAnchor(), src->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);
}

TEST(Node, AddLinkFromAnIndexLinksThatInput) {
  auto graph = NewGraph();
  NodePtr src = AddNode(graph, "src", "Op", 0, 1);
  src->GetOpDesc()->MutableOutputDesc(0u)->SetDataType(DT_INT8);
  NodePtr n = AddNode(graph, "n", "Op", 2, 1);
  ASSERT_TRUE(IsOk(n->AddLinkFrom(1u, src)));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u) << "no input added";
  EXPECT_EQ(n->GetInDataAnchor(1)->GetPeerOutAnchor(), src->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(1u).GetDataType(), DT_INT8) << "desc updated";
  EXPECT_TRUE(HasError(n->AddLinkFrom(2u, src), StatusCode::kParamInvalid, {"'n'", "2"}));
}

TEST(Node, AddLinkFromAnOccupiedIndexFailsWithoutChangingTheDesc) {
  auto graph = NewGraph();
  NodePtr first = AddNode(graph, "first", "Op", 0, 1);
  NodePtr second = AddNode(graph, "second", "Op", 0, 1);
  second->GetOpDesc()->MutableOutputDesc(0u)->SetDataType(DT_BOOL);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  ASSERT_TRUE(IsOk(n->AddLinkFrom(0u, first)));
  EXPECT_TRUE(HasError(n->AddLinkFrom(0u, second), StatusCode::kParamInvalid,
                       {"n:in:0", "first:out:0", "second:out:0"}));
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerOutAnchor(), first->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(0u).GetDataType(), DT_FLOAT)
      << "input 0 still describes what 'first' produces";
}

TEST(Node, AddLinkFromANameFindsOrAddsTheInput) {
  auto graph = NewGraph();
  NodePtr src = AddNode(graph, "src", "Op", 0, 1);
  auto op = std::make_shared<OpDesc>("n", "Op");
  ASSERT_TRUE(IsOk(op->AddInputDesc("x", FloatDesc())));
  ASSERT_TRUE(IsOk(op->AddInputDesc("y", FloatDesc())));
  Result<NodePtr> added = graph->AddNode(op);
  ASSERT_TRUE(IsOk(added));
  NodePtr n = *added;

  ASSERT_TRUE(IsOk(n->AddLinkFrom("y", src)));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetInDataAnchor(1)->GetPeerOutAnchor(), src->GetOutDataAnchor(0));

  ASSERT_TRUE(IsOk(n->AddLinkFrom("z", src)));
  EXPECT_EQ(op->GetAllInputNames(), (NameList{"x", "y", "z"}));
  ASSERT_EQ(n->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(n->GetInDataAnchor(2)->GetPeerOutAnchor(), src->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);
}

TEST(Node, AddLinkFromNeedsAnInputWithAnOutput) {
  auto graph = NewGraph();
  NodePtr sink = AddNode(graph, "sink", "Op", 1, 0);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  EXPECT_TRUE(HasError(n->AddLinkFrom(NodePtr()), StatusCode::kParamInvalid, {"'n'"}));
  EXPECT_TRUE(HasError(n->AddLinkFrom(sink), StatusCode::kParamInvalid, {"'n'", "output"}));
  EXPECT_TRUE(HasError(n->AddLinkFrom(0u, sink), StatusCode::kParamInvalid, {"'n'"}));
  EXPECT_TRUE(HasError(n->AddLinkFrom("x", sink), StatusCode::kParamInvalid, {"'n'"}));
  EXPECT_EQ(n->GetOpDesc()->GetAllInputsSize(), 1u) << "nothing added";
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 1u);
}

TEST(Node, UpdateAnchorsFromOpDescAppendsAndKeepsLinks) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  NodePtr x = AddNode(graph, "x", "Op");
  Link(a, 0, n, 0);
  Link(n, 0, x, 0);
  const InDataAnchorPtr in0 = n->GetInDataAnchor(0);
  ASSERT_TRUE(IsOk(n->GetOpDesc()->AddInputDesc(FloatDesc())));
  ASSERT_TRUE(IsOk(n->GetOpDesc()->AddDynamicOutputDesc("extra", 2)));
  ASSERT_TRUE(IsOk(n->UpdateAnchorsFromOpDesc()));
  ASSERT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  ASSERT_EQ(n->GetAllOutDataAnchorsSize(), 3u);
  EXPECT_EQ(n->GetInDataAnchor(0), in0) << "existing anchors are kept";
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(0));
  EXPECT_EQ(Names(n->GetOutDataNodes()), NameList{"x"});
  EXPECT_EQ(n->GetInDataAnchor(1)->GetIdx(), 1);
  EXPECT_EQ(n->GetOutDataAnchor(2)->GetIdx(), 2);
  EXPECT_EQ(n->GetOutDataAnchor(2)->GetOwnerNode(), n);
  ASSERT_TRUE(IsOk(n->UpdateAnchorsFromOpDesc())) << "idempotent";
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 3u);
}

TEST(Node, UpdateAnchorsFromOpDescDropsOnlyUnlinkedAnchors) {
  auto graph = NewGraph();
  NodePtr n = AddNode(graph, "n", "Op", 2, 2);
  NodePtr x = AddNode(graph, "x", "Op");
  Link(n, 1, x, 0);
  ASSERT_TRUE(IsOk(n->GetOpDesc()->RemoveInputDesc(1)));
  ASSERT_TRUE(IsOk(n->GetOpDesc()->RemoveOutputDesc(1)));
  EXPECT_TRUE(HasError(n->UpdateAnchorsFromOpDesc(), StatusCode::kParamInvalid,
                       {"'n'", "output anchor 1", "linked"}));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u) << "nothing changed on failure";
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 2u);

  ASSERT_TRUE(IsOk(n->GetOutDataAnchor(1)->Unlink(x->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(n->UpdateAnchorsFromOpDesc()));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 1u);
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 1u);
}

TEST(Node, RemoveInDataAnchorReindexesLaterAnchors) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr n = AddNode(graph, "n", "Op", 3, 1);
  Link(a, 0, n, 2);
  const InDataAnchorPtr last = n->GetInDataAnchor(2);
  ASSERT_TRUE(IsOk(n->RemoveInDataAnchor(1)));
  ASSERT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetInDataAnchor(1), last) << "same anchor, new index";
  EXPECT_EQ(last->GetIdx(), 1);
  EXPECT_EQ(last->DebugString(), "n:in:1");
  EXPECT_EQ(last->GetPeerOutAnchor(), a->GetOutDataAnchor(0)) << "its link is kept";
  EXPECT_EQ(n->GetInDataAnchor(0)->GetIdx(), 0);
}

TEST(Node, RemoveInDataAnchorRefusesALinkedOrMissingAnchor) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr n = AddNode(graph, "n", "Op", 2, 1);
  Link(a, 0, n, 0);
  EXPECT_TRUE(HasError(n->RemoveInDataAnchor(0), StatusCode::kParamInvalid, {"n:in:0", "linked"}));
  EXPECT_TRUE(HasError(n->RemoveInDataAnchor(2), StatusCode::kParamInvalid, {"'n'", "2"}));
  EXPECT_TRUE(HasError(n->RemoveInDataAnchor(-1), StatusCode::kParamInvalid, {"'n'", "-1"}));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u);
}

TEST(Node, AppendDataAnchors) {
  auto graph = NewGraph();
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  n->AppendInDataAnchor();
  n->AppendOutDataAnchor();
  ASSERT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  ASSERT_EQ(n->GetAllOutDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetInDataAnchor(1)->GetIdx(), 1);
  EXPECT_EQ(n->GetOutDataAnchor(1)->GetOwnerNode(), n);
}

}  // namespace
}  // namespace ge

// Tests of ComputeGraph: adding and placing nodes, GE's RemoveNode semantics, lookup, inputs and
// outputs, the subgraph hierarchy and GetAllNodes order, and TopoSortOptions::FromOptions.
#include "ge/graph/compute_graph.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::Ctrl;
using testing::HasError;
using testing::IsOk;
using testing::Link;
using testing::MakeOp;
using testing::Names;
using testing::PeerNames;
using NameList = std::vector<std::string>;

ComputeGraphPtr NewGraph(const std::string& name = "g") {
  return std::make_shared<ComputeGraph>(name);
}

std::vector<int64_t> Ids(const std::vector<NodePtr>& nodes) {
  std::vector<int64_t> ids;
  for (const auto& node : nodes) ids.push_back(node->GetOpDesc()->GetId());
  return ids;
}

// ---- adding nodes ----

TEST(ComputeGraph, NameDebugStringAndTrainingFlag) {
  auto graph = NewGraph("main");
  EXPECT_EQ(graph->GetName(), "main");
  EXPECT_EQ(graph->DebugString(), "graph 'main' (0 nodes)");
  AddNode(graph, "a", "Op");
  graph->SetName("renamed");
  EXPECT_EQ(graph->DebugString(), "graph 'renamed' (1 nodes)");
  EXPECT_FALSE(graph->IsTrainingGraph());
  graph->SetTrainingGraph(true);
  EXPECT_TRUE(graph->IsTrainingGraph());
}

TEST(ComputeGraph, AddNodeAppendsWithIdEqualToTheDirectNodeCount) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  NodePtr c = AddNode(graph, "c", "Op");
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"a", "b", "c"}));
  EXPECT_EQ(Ids(graph->GetDirectNode()), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 3u);
  EXPECT_EQ(graph->GetDirectNodePtr(), (std::vector<Node*>{a.get(), b.get(), c.get()}));
  EXPECT_EQ(a->GetOwnerComputeGraph(), graph);
  EXPECT_TRUE(graph->HasNode(b.get()));
}

TEST(ComputeGraph, IdsStayUniqueAfterARemoval) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  AddNode(graph, "b", "Op");
  AddNode(graph, "c", "Op");
  ASSERT_TRUE(IsOk(graph->RemoveJustNode(a)));
  NodePtr d = AddNode(graph, "d", "Op");
  EXPECT_EQ(d->GetOpDesc()->GetId(), 3) << "one past the last id, not the node count (2)";
  Result<NodePtr> e = graph->InsertNode(d, MakeOp("e", "Op"));
  ASSERT_TRUE(IsOk(e));
  EXPECT_EQ((*e)->GetOpDesc()->GetId(), 4);
  EXPECT_EQ(Ids(graph->GetDirectNode()), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(ComputeGraph, DataLikeNodesJoinTheInputList) {
  auto graph = NewGraph();
  AddNode(graph, "conv", "Conv2D");
  AddNode(graph, "data", "Data");
  AddNode(graph, "const", "Const");
  AddNode(graph, "ref", "RefData");
  AddNode(graph, "queue", "QueueData");
  AddNode(graph, "aipp", "AippData");
  AddNode(graph, "lower", "data");
  AddNode(graph, "ann", "AnnData");
  EXPECT_EQ(Names(graph->GetInputNodes()), (NameList{"data", "ref", "aipp", "ann"}));
}

TEST(ComputeGraph, DuplicateNodeNameIsRefused) {
  auto graph = NewGraph("main");
  NodePtr first = AddNode(graph, "n", "Relu");
  EXPECT_TRUE(HasError(graph->AddNode(MakeOp("n", "Add")), StatusCode::kParamInvalid,
                       {"'main'", "'n'", "Relu"}));
  EXPECT_TRUE(
      HasError(graph->InsertNode(first, MakeOp("n", "Add")), StatusCode::kParamInvalid, {"'n'"}));
  EXPECT_TRUE(
      HasError(graph->AddNodeFront(MakeOp("n", "Add")), StatusCode::kParamInvalid, {"'n'"}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 1u);
  EXPECT_EQ(graph->FindNode("n"), first);
}

TEST(ComputeGraph, NullOpDescOrNodeIsRefused) {
  auto graph = NewGraph("main");
  EXPECT_TRUE(HasError(graph->AddNode(OpDescPtr()), StatusCode::kParamInvalid, {"'main'", "null"}));
  EXPECT_TRUE(HasError(graph->AddNode(NodePtr()), StatusCode::kParamInvalid, {"'main'", "null"}));
  EXPECT_TRUE(HasError(graph->AddNodeFront(OpDescPtr()), StatusCode::kParamInvalid, {"null"}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 0u);
}

TEST(ComputeGraph, ANodeCannotBeAddedTwice) {
  auto graph = NewGraph("main");
  NodePtr n = AddNode(graph, "n", "Op");
  auto other = NewGraph("other");
  EXPECT_TRUE(HasError(graph->AddNode(n), StatusCode::kParamInvalid, {"'n'", "'main'"}));
  EXPECT_TRUE(HasError(other->AddNode(n), StatusCode::kParamInvalid, {"'n'", "already"}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 1u);
  EXPECT_EQ(other->GetDirectNodesSize(), 0u);
}

TEST(ComputeGraph, AddNodeFrontGoesAfterALeadingData) {
  auto graph = NewGraph();
  AddNode(graph, "data", "Data");
  AddNode(graph, "a", "Op");
  Result<NodePtr> front = graph->AddNodeFront(MakeOp("f", "Op"));
  ASSERT_TRUE(IsOk(front));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"data", "f", "a"}));
  EXPECT_EQ((*front)->GetOpDesc()->GetId(), 2);
  EXPECT_EQ((*front)->GetOwnerComputeGraph(), graph);
}

TEST(ComputeGraph, AddNodeFrontGoesFirstOtherwise) {
  auto graph = NewGraph();
  ASSERT_TRUE(IsOk(graph->AddNodeFront(MakeOp("only", "Op"))));
  EXPECT_EQ(Names(graph->GetDirectNode()), NameList{"only"});
  AddNode(graph, "data", "Data");  // Data, but not leading
  ASSERT_TRUE(IsOk(graph->AddNodeFront(MakeOp("f", "Op"))));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"f", "only", "data"}));
}

TEST(ComputeGraph, InsertNodeGoesRightAfterTheGivenNode) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  Result<NodePtr> mid = graph->InsertNode(a, MakeOp("mid", "Op"));
  ASSERT_TRUE(IsOk(mid));
  Result<NodePtr> last = graph->InsertNode(b, MakeOp("last", "Op"));
  ASSERT_TRUE(IsOk(last));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"a", "mid", "b", "last"}));
  EXPECT_EQ((*mid)->GetOpDesc()->GetId(), 2);
  EXPECT_EQ((*last)->GetOpDesc()->GetId(), 3);
  EXPECT_EQ(graph->FindNode("mid"), *mid);
}

TEST(ComputeGraph, InsertNodesKeepTheirOrderAfterTheGivenNode) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  AddNode(graph, "b", "Op");
  Result<std::vector<NodePtr>> inserted =
      graph->InsertNodes(a, {MakeOp("x", "Op"), MakeOp("y", "Op"), MakeOp("z", "Op")});
  ASSERT_TRUE(IsOk(inserted));
  EXPECT_EQ(Names(*inserted), (NameList{"x", "y", "z"}));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"a", "x", "y", "z", "b"}));
}

TEST(ComputeGraph, InsertNodeBeforeGoesRightBeforeTheGivenNode) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  ASSERT_TRUE(IsOk(graph->InsertNodeBefore(b, MakeOp("pre_b", "Op"))));
  ASSERT_TRUE(IsOk(graph->InsertNodeBefore(a, MakeOp("pre_a", "Op"))));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"pre_a", "a", "pre_b", "b"}));
}

TEST(ComputeGraph, InsertingNextToAForeignNodeIsRefused) {
  auto graph = NewGraph("main");
  auto other = NewGraph("other");
  NodePtr foreign = AddNode(other, "foreign", "Op");
  EXPECT_TRUE(HasError(graph->InsertNode(foreign, MakeOp("x", "Op")), StatusCode::kParamInvalid,
                       {"'main'"}));
  EXPECT_TRUE(HasError(graph->InsertNodeBefore(foreign, MakeOp("x", "Op")),
                       StatusCode::kParamInvalid, {"'main'"}));
  EXPECT_TRUE(
      HasError(graph->InsertNode(NodePtr(), MakeOp("x", "Op")), StatusCode::kParamInvalid, {}));
  EXPECT_TRUE(
      HasError(graph->InsertNodes(foreign, {MakeOp("x", "Op")}), StatusCode::kParamInvalid, {}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 0u);
  EXPECT_EQ(other->GetDirectNodesSize(), 1u);
}

// ---- removing nodes ----

TEST(ComputeGraph, RemoveNodeDropsAConstLeftWithoutConsumers) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Const", 0, 1);
  NodePtr data = AddNode(graph, "data", "Data", 0, 1);
  NodePtr n = AddNode(graph, "n", "MatMul", 2, 1);
  NodePtr out = AddNode(graph, "out", "NetOutput", 1, 0);
  Link(weight, 0, n, 0);
  Link(data, 0, n, 1);
  Link(n, 0, out, 0);

  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"data", "out"}));
  EXPECT_EQ(graph->FindNode("weight"), nullptr);
  EXPECT_EQ(weight->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(out->GetInDataAnchor(0)->GetPeerOutAnchor(), data->GetOutDataAnchor(0));
}

TEST(ComputeGraph, RemoveNodeKeepsAConstWithAnotherConsumer) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Constant", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  NodePtr m = AddNode(graph, "m", "Op", 1, 1);
  Link(weight, 0, n, 0);
  Link(weight, 0, m, 0);
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"weight", "m"}));
  EXPECT_EQ(PeerNames(weight->GetOutDataAnchor(0)), NameList{"m:in:0"});
}

TEST(ComputeGraph, RemoveNodeKeepsAConstWithAControlSuccessor) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Const", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  NodePtr later = AddNode(graph, "later", "Op", 0, 0);
  Link(weight, 0, n, 0);
  Ctrl(weight, later);
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"weight", "later"}));
}

TEST(ComputeGraph, RemoveNodeDropsAConstFeedingTwoOfItsInputs) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Const", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 2, 1);
  Link(weight, 0, n, 0);
  Link(weight, 0, n, 1);
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(graph->GetDirectNodesSize(), 0u);
}

TEST(ComputeGraph, RemoveNodeLeavesTheInputAndOutputLists) {
  auto graph = NewGraph();
  NodePtr data = AddNode(graph, "data", "Data", 0, 2);
  NodePtr keep = AddNode(graph, "keep", "Data", 0, 1);
  ASSERT_TRUE(IsOk(graph->AddOutputNode(data, 1)));
  ASSERT_TRUE(IsOk(graph->AddOutputNode(keep, 0)));
  ASSERT_TRUE(IsOk(graph->AddOutputNode(data, 0)));
  ASSERT_TRUE(IsOk(graph->RemoveNode(data)));
  EXPECT_EQ(Names(graph->GetInputNodes()), NameList{"keep"});
  ASSERT_EQ(graph->GetGraphOutNodesInfo().size(), 1u);
  EXPECT_EQ(graph->GetGraphOutNodesInfo()[0].first, keep);
}

TEST(ComputeGraph, RemoveNodeMovesOutDataEdgesToTheFirstNonConstProducer) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Const", 0, 1);
  NodePtr a = AddNode(graph, "a", "Op", 0, 2);
  NodePtr b = AddNode(graph, "b", "Op", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 3, 2);
  NodePtr x = AddNode(graph, "x", "Op", 1, 0);
  NodePtr y = AddNode(graph, "y", "Op", 1, 0);
  NodePtr z = AddNode(graph, "z", "Op", 1, 0);
  Link(weight, 0, n, 0);
  Link(a, 1, n, 1);
  Link(b, 0, n, 2);
  Link(n, 0, x, 0);
  Link(n, 0, y, 0);
  Link(n, 1, z, 0);

  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(x->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(1));
  EXPECT_EQ(y->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(1));
  EXPECT_EQ(z->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(1));
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(1)), (NameList{"x:in:0", "y:in:0", "z:in:0"}));
  EXPECT_EQ(b->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 0u) << "only the first producer";
  EXPECT_EQ(graph->FindNode("n"), nullptr);
  EXPECT_EQ(graph->FindNode("weight"), nullptr);
  for (const auto& anchor : n->GetAllInAnchors()) EXPECT_EQ(anchor->GetPeerAnchorsSize(), 0u);
  for (const auto& anchor : n->GetAllOutAnchors()) EXPECT_EQ(anchor->GetPeerAnchorsSize(), 0u);
}

TEST(ComputeGraph, RemoveNodeWithOnlyAConstInputUnlinksItsConsumers) {
  auto graph = NewGraph();
  NodePtr weight = AddNode(graph, "weight", "Const", 0, 1);
  NodePtr n = AddNode(graph, "n", "Cast", 1, 1);
  NodePtr x = AddNode(graph, "x", "Op", 1, 0);
  Link(weight, 0, n, 0);
  Link(n, 0, x, 0);
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(x->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u) << "a Const never inherits";
  EXPECT_EQ(Names(graph->GetDirectNode()), NameList{"x"});
}

TEST(ComputeGraph, RemoveNodeGivesControlSuccessorsEdgesFromProducersAndControlPredecessors) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op", 0, 1);
  NodePtr b = AddNode(graph, "b", "Op", 0, 1);
  NodePtr p = AddNode(graph, "p", "Op", 0, 0);
  NodePtr n = AddNode(graph, "n", "Op", 2, 1);
  NodePtr s1 = AddNode(graph, "s1", "Op", 0, 0);
  NodePtr s2 = AddNode(graph, "s2", "Op", 0, 0);
  Link(a, 0, n, 0);
  Link(b, 0, n, 1);
  Ctrl(p, n);
  Ctrl(n, s1);
  Ctrl(n, s2);
  Ctrl(a, s1);  // already there: must not be duplicated

  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(Names(s1->GetInControlNodes()), (NameList{"a", "b", "p"}));
  EXPECT_EQ(Names(s2->GetInControlNodes()), (NameList{"a", "b", "p"}));
  EXPECT_EQ(Names(a->GetOutControlNodes()), (NameList{"s1", "s2"}));
  EXPECT_EQ(Names(p->GetOutControlNodes()), (NameList{"s1", "s2"}));
  EXPECT_EQ(graph->FindNode("n"), nullptr);
}

TEST(ComputeGraph, RemoveNodeKeepsTheOrderOfADataToControlSuccessor) {
  // n:out:0 → s:ctrl_in makes s a control successor of n; after n goes, s must still come
  // after n's producer a.
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op", 0, 1);
  NodePtr n = AddNode(graph, "n", "Op", 1, 1);
  NodePtr s = AddNode(graph, "s", "Op", 0, 0);
  Link(a, 0, n, 0);
  ASSERT_TRUE(IsOk(Anchor::Link(n->GetOutDataAnchor(0), s->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_EQ(Names(s->GetInNodes()), NameList{"a"});
}

TEST(ComputeGraph, RemoveNodeOfAnotherGraphFails) {
  auto graph = NewGraph("main");
  auto other = NewGraph("other");
  NodePtr foreign = AddNode(other, "foreign", "Op");
  EXPECT_TRUE(
      HasError(graph->RemoveNode(foreign), StatusCode::kParamInvalid, {"'main'", "'foreign'"}));
  EXPECT_TRUE(HasError(graph->RemoveNode(NodePtr()), StatusCode::kParamInvalid, {"null"}));
  EXPECT_TRUE(
      HasError(graph->RemoveJustNode(foreign), StatusCode::kParamInvalid, {"'main'", "'foreign'"}));
  EXPECT_EQ(other->GetDirectNodesSize(), 1u);
  NodePtr n = AddNode(graph, "n", "Op");
  ASSERT_TRUE(IsOk(graph->RemoveNode(n)));
  EXPECT_TRUE(HasError(graph->RemoveNode(n), StatusCode::kParamInvalid, {"'n'"}))
      << "a second removal fails";
}

TEST(ComputeGraph, RemoveJustNodeLeavesEdgesAlone) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr n = AddNode(graph, "n", "Op");
  NodePtr x = AddNode(graph, "x", "Op");
  Link(a, 0, n, 0);
  Link(n, 0, x, 0);
  ASSERT_TRUE(IsOk(graph->RemoveJustNode(n)));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"a", "x"}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 2u);
  EXPECT_FALSE(graph->HasNode(n.get()));
  EXPECT_EQ(graph->FindNode("n"), nullptr);
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), NameList{"n:in:0"});
  EXPECT_EQ(PeerNames(x->GetInDataAnchor(0)), NameList{"n:out:0"});
  // The node can be added back.
  ASSERT_TRUE(IsOk(graph->AddNode(n)));
  EXPECT_EQ(Names(graph->GetDirectNode()), (NameList{"a", "x", "n"}));
}

// ---- lookup ----

TEST(ComputeGraph, FindNodeByName) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  EXPECT_EQ(graph->FindNode("a"), a);
  EXPECT_EQ(graph->FindNode("b"), b);
  EXPECT_EQ(graph->FindNode("c"), nullptr);
  EXPECT_EQ(graph->FindNode(""), nullptr);
}

TEST(ComputeGraph, FindNodeFollowsARename) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  a->GetOpDesc()->SetName("renamed");
  EXPECT_EQ(graph->FindNode("renamed"), a);
  EXPECT_EQ(graph->FindNode("a"), nullptr);
  // The old name is free again.
  NodePtr new_a = AddNode(graph, "a", "Op");
  ASSERT_NE(new_a, nullptr);
  EXPECT_EQ(graph->FindNode("a"), new_a);
  EXPECT_EQ(graph->FindNode("renamed"), a);
}

TEST(ComputeGraph, ARenamedNodesNewNameIsTaken) {
  auto graph = NewGraph("main");
  NodePtr a = AddNode(graph, "a", "Op");
  a->GetOpDesc()->SetName("renamed");
  EXPECT_TRUE(HasError(graph->AddNode(MakeOp("renamed", "Op")), StatusCode::kParamInvalid,
                       {"'main'", "'renamed'"}));
  EXPECT_EQ(graph->GetDirectNodesSize(), 1u);
}

TEST(ComputeGraphDeathTest, ARenamedNodeRemovedAndDestroyedLeavesNoDanglingIndexEntry) {
  // Runs in a child process: if the name index kept a pointer to the destroyed node, the lookups
  // below would read freed memory (AddressSanitizer reports it; otherwise it may crash).
  EXPECT_EXIT(
      {
        auto graph = NewGraph();
        {
          Result<NodePtr> a = graph->AddNode(MakeOp("a", "Op"));
          if (!a.ok()) std::exit(2);
          (*a)->GetOpDesc()->SetName("renamed");
          if (!graph->RemoveNode(*a).ok()) std::exit(3);
        }  // the node is destroyed here
        if (graph->FindNode("a") != nullptr) std::exit(4);
        Result<NodePtr> again = graph->AddNode(MakeOp("a", "Op"));
        if (!again.ok() || graph->FindNode("a") != *again) std::exit(5);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(ComputeGraph, FindNodeById) {
  auto graph = NewGraph();
  NodePtr a = AddNode(graph, "a", "Op");
  NodePtr b = AddNode(graph, "b", "Op");
  EXPECT_EQ(graph->FindNodeById(0), a);
  EXPECT_EQ(graph->FindNodeById(1), b);
  EXPECT_EQ(graph->FindNodeById(2), nullptr);
  b->GetOpDesc()->SetId(40);
  EXPECT_EQ(graph->FindNodeById(40), b);
  EXPECT_EQ(graph->FindNodeById(1), nullptr);
}

// ---- inputs and outputs ----

TEST(ComputeGraph, OutputNodesNeedAnExistingOutput) {
  auto graph = NewGraph("main");
  NodePtr n = AddNode(graph, "n", "Op", 1, 2);
  ASSERT_TRUE(IsOk(graph->AddOutputNode(n, 1)));
  ASSERT_TRUE(IsOk(graph->AddOutputNode(n)));
  EXPECT_TRUE(
      HasError(graph->AddOutputNode(n, 2), StatusCode::kParamInvalid, {"'main'", "'n'", "2"}));
  EXPECT_TRUE(HasError(graph->AddOutputNode(n, -1), StatusCode::kParamInvalid, {"'n'", "-1"}));
  EXPECT_TRUE(HasError(graph->AddOutputNode(NodePtr(), 0), StatusCode::kParamInvalid, {"null"}));
  const std::vector<std::pair<NodePtr, int32_t>> expected = {{n, 1}, {n, 0}};
  EXPECT_EQ(graph->GetGraphOutNodesInfo(), expected);

  graph->RemoveOutputNode(n);
  EXPECT_TRUE(graph->GetGraphOutNodesInfo().empty());
  graph->SetGraphOutNodesInfo({{n, 0}});
  EXPECT_EQ(graph->GetGraphOutNodesInfo().size(), 1u);
}

TEST(ComputeGraph, InputNodesAreListedOnce) {
  auto graph = NewGraph();
  NodePtr data = AddNode(graph, "data", "Data");
  NodePtr other = AddNode(graph, "other", "Op");
  ASSERT_TRUE(IsOk(graph->AddInputNode(data)));  // already there
  ASSERT_TRUE(IsOk(graph->AddInputNode(other)));
  EXPECT_EQ(Names(graph->GetInputNodes()), (NameList{"data", "other"}));
  EXPECT_TRUE(HasError(graph->AddInputNode(NodePtr()), StatusCode::kParamInvalid, {"null"}));
  graph->RemoveInputNode(data);
  EXPECT_EQ(Names(graph->GetInputNodes()), NameList{"other"});
}

// ---- subgraphs ----

/// A root with a parent node and a subgraph whose parent links are set (not yet registered).
struct Hierarchy {
  ComputeGraphPtr root = NewGraph("root");
  NodePtr parent = AddNode(root, "if", "If");
  ComputeGraphPtr sub = NewGraph("then");

  Hierarchy() {
    sub->SetParentGraph(root);
    sub->SetParentNode(parent);
  }
};

TEST(ComputeGraph, AddSubgraphRegistersOnTheRoot) {
  Hierarchy h;
  ASSERT_TRUE(IsOk(h.root->AddSubgraph("then", h.sub)));
  EXPECT_EQ(h.root->GetSubgraph("then"), h.sub);
  EXPECT_EQ(h.sub->GetSubgraph("then"), h.sub) << "lookup goes through the root";
  EXPECT_EQ(h.root->GetAllSubgraphs(), std::vector<ComputeGraphPtr>{h.sub});
  EXPECT_EQ(h.root->GetSubgraph("else"), nullptr);
  EXPECT_EQ(h.sub->GetParentGraph(), h.root);
  EXPECT_EQ(h.sub->GetParentGraphBarePtr(), h.root.get());
  EXPECT_EQ(h.sub->GetParentNode(), h.parent);
}

TEST(ComputeGraph, AddSubgraphUnderItsOwnName) {
  Hierarchy h;
  ASSERT_TRUE(IsOk(h.root->AddSubgraph(h.sub)));
  EXPECT_EQ(h.root->GetSubgraph("then"), h.sub);
  EXPECT_TRUE(
      HasError(h.root->AddSubgraph(ComputeGraphPtr()), StatusCode::kParamInvalid, {"null"}));
}

TEST(ComputeGraph, AddSubgraphChecksItsParents) {
  Hierarchy h;
  EXPECT_TRUE(HasError(h.root->AddSubgraph("x", nullptr), StatusCode::kParamInvalid,
                       {"'x'", "'root'", "null"}));
  EXPECT_TRUE(
      HasError(h.root->AddSubgraph("self", h.root), StatusCode::kParamInvalid, {"own subgraph"}));

  auto orphan = NewGraph("orphan");
  EXPECT_TRUE(HasError(h.root->AddSubgraph("orphan", orphan), StatusCode::kParamInvalid,
                       {"'orphan'", "parent graph is not set"}));
  orphan->SetParentGraph(h.root);
  EXPECT_TRUE(HasError(h.root->AddSubgraph("orphan", orphan), StatusCode::kParamInvalid,
                       {"'orphan'", "parent node is not set"}));

  auto elsewhere = NewGraph("elsewhere");
  NodePtr stranger = AddNode(elsewhere, "stranger", "If");
  orphan->SetParentNode(stranger);
  EXPECT_TRUE(HasError(h.root->AddSubgraph("orphan", orphan), StatusCode::kParamInvalid,
                       {"'stranger'", "'root'", "not in its parent graph"}));

  // Consistent parents, but of another hierarchy.
  auto foreign = NewGraph("foreign");
  foreign->SetParentGraph(elsewhere);
  foreign->SetParentNode(stranger);
  EXPECT_TRUE(HasError(h.root->AddSubgraph("foreign", foreign), StatusCode::kParamInvalid,
                       {"'elsewhere'", "another graph hierarchy"}));
  EXPECT_TRUE(h.root->GetAllSubgraphs().empty());
}

TEST(ComputeGraph, AddSubgraphRefusesADuplicateName) {
  Hierarchy h;
  ASSERT_TRUE(IsOk(h.root->AddSubgraph("then", h.sub)));
  auto twin = NewGraph("then");
  twin->SetParentGraph(h.root);
  twin->SetParentNode(h.parent);
  EXPECT_TRUE(HasError(h.root->AddSubgraph("then", twin), StatusCode::kParamInvalid,
                       {"'then'", "already used"}));
  EXPECT_TRUE(HasError(h.root->AddSubgraph("alias", h.sub), StatusCode::kParamInvalid,
                       {"'alias'", "already registered"}));
  EXPECT_EQ(h.root->GetSubgraph("then"), h.sub);
  EXPECT_EQ(h.root->GetAllSubgraphs().size(), 1u);
}

TEST(ComputeGraph, NestedSubgraphsAreRegisteredOnTheRoot) {
  Hierarchy h;
  ASSERT_TRUE(IsOk(h.root->AddSubgraph("then", h.sub)));
  NodePtr inner_parent = AddNode(h.sub, "while", "While");
  auto body = NewGraph("body");
  body->SetParentGraph(h.sub);
  body->SetParentNode(inner_parent);
  ASSERT_TRUE(IsOk(h.sub->AddSubgraph("body", body)));  // called on the subgraph

  EXPECT_EQ(h.root->GetSubgraph("body"), body);
  EXPECT_EQ(h.sub->GetSubgraph("body"), body);
  EXPECT_EQ(body->GetSubgraph("then"), h.sub);
  EXPECT_EQ(h.root->GetAllSubgraphs(), (std::vector<ComputeGraphPtr>{h.sub, body}));
  EXPECT_EQ(body->GetAllSubgraphs(), (std::vector<ComputeGraphPtr>{h.sub, body}));
  EXPECT_EQ(body->GetRootGraph(), h.root);
  EXPECT_EQ(h.sub->GetRootGraph(), h.root);
  EXPECT_EQ(h.root->GetRootGraph(), h.root);

  // Names are unique across the hierarchy.
  auto clash = NewGraph("then");
  clash->SetParentGraph(h.sub);
  clash->SetParentNode(inner_parent);
  EXPECT_TRUE(
      HasError(h.sub->AddSubgraph("then", clash), StatusCode::kParamInvalid, {"already used"}));
}

TEST(ComputeGraph, RemoveSubgraphUnregistersFromTheRoot) {
  Hierarchy h;
  ASSERT_TRUE(IsOk(h.root->AddSubgraph("then", h.sub)));
  NodePtr inner_parent = AddNode(h.sub, "while", "While");
  auto body = NewGraph("body");
  body->SetParentGraph(h.sub);
  body->SetParentNode(inner_parent);
  ASSERT_TRUE(IsOk(h.sub->AddSubgraph("body", body)));

  body->RemoveSubgraph("body");  // through the root from anywhere in the hierarchy
  EXPECT_EQ(h.root->GetSubgraph("body"), nullptr);
  EXPECT_EQ(h.root->GetAllSubgraphs(), std::vector<ComputeGraphPtr>{h.sub});
  h.root->RemoveSubgraph("not_there");
  EXPECT_EQ(h.root->GetAllSubgraphs().size(), 1u);
  h.root->RemoveSubgraph("then");
  EXPECT_TRUE(h.root->GetAllSubgraphs().empty());
  // The name is free again.
  EXPECT_TRUE(IsOk(h.root->AddSubgraph("then", h.sub)));
}

TEST(ComputeGraph, GetAllNodesVisitsSubgraphsAfterTheirParentNode) {
  auto root = NewGraph("root");
  AddNode(root, "a", "Op");
  NodePtr p = AddNode(root, "p", "If");
  AddNode(root, "b", "Op");
  ASSERT_TRUE(IsOk(p->GetOpDesc()->AddSubgraphName("then_branch")));
  ASSERT_TRUE(IsOk(p->GetOpDesc()->AddSubgraphName("else_branch")));
  ASSERT_TRUE(IsOk(p->GetOpDesc()->SetSubgraphInstanceName(0, "p_then")));
  ASSERT_TRUE(IsOk(p->GetOpDesc()->SetSubgraphInstanceName(1, "p_else")));

  auto then_graph = NewGraph("p_then");
  then_graph->SetParentGraph(root);
  then_graph->SetParentNode(p);
  AddNode(then_graph, "t1", "Op");
  NodePtr q = AddNode(then_graph, "q", "PartitionedCall");
  AddNode(then_graph, "t2", "Op");
  q->GetOpDesc()->AddSubgraphInstanceName("q_inner");

  auto else_graph = NewGraph("p_else");
  else_graph->SetParentGraph(root);
  else_graph->SetParentNode(p);
  AddNode(else_graph, "e1", "Op");

  auto inner = NewGraph("q_inner");
  inner->SetParentGraph(then_graph);
  inner->SetParentNode(q);
  AddNode(inner, "i1", "Op");

  // Registered in another order than the instance names list them.
  ASSERT_TRUE(IsOk(root->AddSubgraph("p_else", else_graph)));
  ASSERT_TRUE(IsOk(root->AddSubgraph("q_inner", inner)));
  ASSERT_TRUE(IsOk(root->AddSubgraph("p_then", then_graph)));

  const NameList expected = {"a", "p", "t1", "q", "i1", "t2", "e1", "b"};
  EXPECT_EQ(Names(root->GetAllNodes()), expected);
  EXPECT_EQ(root->GetAllNodesSize(), expected.size());
  EXPECT_EQ(Names(root->GetDirectNode()), (NameList{"a", "p", "b"}));
  EXPECT_EQ(Names(then_graph->GetAllNodes()), (NameList{"t1", "q", "i1", "t2"}));

  EXPECT_EQ(root->FindNode("i1"), nullptr) << "FindNode looks at direct nodes only";
  ASSERT_NE(root->FindNodeInAllGraphs("i1"), nullptr);
  EXPECT_EQ(root->FindNodeInAllGraphs("i1")->GetOwnerComputeGraph(), inner);
  EXPECT_EQ(root->FindNodeInAllGraphs("nope"), nullptr);

  // An empty slot is skipped; an instance name with no registered graph too.
  ASSERT_TRUE(IsOk(p->GetOpDesc()->SetSubgraphInstanceName(0, "")));
  p->GetOpDesc()->AddSubgraphInstanceName("missing");
  EXPECT_EQ(Names(root->GetAllNodes()), (NameList{"a", "p", "e1", "b"}));
}

TEST(ComputeGraph, RootGraphOfAGraphWithoutParentIsItself) {
  auto graph = NewGraph();
  EXPECT_EQ(graph->GetRootGraph(), graph);
  EXPECT_EQ(graph->GetParentGraph(), nullptr);
  EXPECT_EQ(graph->GetParentGraphBarePtr(), nullptr);
  EXPECT_EQ(graph->GetParentNode(), nullptr);
}

// ---- TopoSortOptions::FromOptions ----

TEST(TopoSortOptions, DefaultsToDfs) {
  EXPECT_EQ(TopoSortOptions().mode, TopoSortingMode::kDFS);
  EXPECT_FALSE(TopoSortOptions().memory_priority);
  Result<TopoSortOptions> options = TopoSortOptions::FromOptions({});
  ASSERT_TRUE(IsOk(options));
  EXPECT_EQ(options->mode, TopoSortingMode::kDFS);
  EXPECT_FALSE(options->memory_priority);

  options = TopoSortOptions::FromOptions({{"ge.graphRunMode", "0"}, {"unrelated", "x"}});
  ASSERT_TRUE(IsOk(options));
  EXPECT_EQ(options->mode, TopoSortingMode::kDFS);
}

TEST(TopoSortOptions, TrainingRunModeDefaultsToBfs) {
  Result<TopoSortOptions> options = TopoSortOptions::FromOptions({{"ge.graphRunMode", "1"}});
  ASSERT_TRUE(IsOk(options));
  EXPECT_EQ(options->mode, TopoSortingMode::kBFS);
  // An explicit mode wins over the run mode.
  options = TopoSortOptions::FromOptions({{"ge.graphRunMode", "1"}, {"ge.topoSortingMode", "1"}});
  ASSERT_TRUE(IsOk(options));
  EXPECT_EQ(options->mode, TopoSortingMode::kDFS);
}

TEST(TopoSortOptions, SortingModeNumbersAreGes) {
  const std::vector<std::pair<std::string, TopoSortingMode>> modes = {
      {"0", TopoSortingMode::kBFS},
      {"1", TopoSortingMode::kDFS},
      {"2", TopoSortingMode::kRDFS},
      {"3", TopoSortingMode::kStableRDFS},
  };
  for (const auto& [text, mode] : modes) {
    Result<TopoSortOptions> options = TopoSortOptions::FromOptions({{"ge.topoSortingMode", text}});
    ASSERT_TRUE(IsOk(options)) << text;
    EXPECT_EQ(options->mode, mode) << text;
  }
  EXPECT_STREQ(TopoSortingModeName(TopoSortingMode::kBFS), "BFS");
  EXPECT_STREQ(TopoSortingModeName(TopoSortingMode::kDFS), "DFS");
  EXPECT_STREQ(TopoSortingModeName(TopoSortingMode::kRDFS), "RDFS");
  EXPECT_STREQ(TopoSortingModeName(TopoSortingMode::kStableRDFS), "StableRDFS");
}

TEST(TopoSortOptions, BadSortingModesAreErrorsNamingTheOption) {
  for (const std::string bad : {"4", "x", "-1", "01", " 1", "1 ", "BFS", "10"}) {
    Result<TopoSortOptions> options = TopoSortOptions::FromOptions({{"ge.topoSortingMode", bad}});
    EXPECT_TRUE(
        HasError(options, StatusCode::kParamInvalid, {"ge.topoSortingMode", "'" + bad + "'"}))
        << "'" << bad << "'";
  }
}

TEST(TopoSortOptions, MemoryPriorityPolicy) {
  Result<TopoSortOptions> options =
      TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", "MemoryPriority"}});
  ASSERT_TRUE(IsOk(options));
  EXPECT_TRUE(options->memory_priority);
  EXPECT_EQ(options->mode, TopoSortingMode::kDFS);

  options = TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", ""}});
  ASSERT_TRUE(IsOk(options));
  EXPECT_FALSE(options->memory_priority) << "empty means not set";

  for (const std::string bad : {"memorypriority", "GraphPriority", "1"}) {
    options = TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", bad}});
    EXPECT_TRUE(HasError(options, StatusCode::kParamInvalid,
                         {"ge.exec.memoryOptimizationPolicy", "'" + bad + "'"}))
        << bad;
  }
}

}  // namespace
}  // namespace ge

// Tests of anchors: the four kinds and the links allowed between them, one producer per data
// input, duplicate refusal, unlinking, ReplacePeer/Insert keeping list positions, status, and
// peers of destroyed nodes.
#include "ge/graph/anchor.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;
using testing::HasError;
using testing::IsOk;
using testing::PeerNames;
using Kind = Anchor::Kind;
using Names = std::vector<std::string>;

/// A node of `graph` with two inputs and two outputs.
NodePtr Add(const ComputeGraphPtr& graph, const std::string& name) {
  return AddNode(graph, name, "Op", 2, 2);
}

TEST(Anchor, NodeAnchorsHaveTheirKindIndexAndOwner) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  const InDataAnchorPtr in1 = a->GetInDataAnchor(1);
  const OutDataAnchorPtr out0 = a->GetOutDataAnchor(0);
  const InControlAnchorPtr ctrl_in = a->GetInControlAnchor();
  const OutControlAnchorPtr ctrl_out = a->GetOutControlAnchor();

  EXPECT_EQ(in1->GetKind(), Kind::kInData);
  EXPECT_TRUE(in1->IsInAnchor());
  EXPECT_TRUE(in1->IsDataAnchor());
  EXPECT_FALSE(in1->IsControlAnchor());
  EXPECT_EQ(in1->GetIdx(), 1);

  EXPECT_EQ(out0->GetKind(), Kind::kOutData);
  EXPECT_FALSE(out0->IsInAnchor());
  EXPECT_TRUE(out0->IsDataAnchor());
  EXPECT_EQ(out0->GetIdx(), 0);

  EXPECT_EQ(ctrl_in->GetKind(), Kind::kInControl);
  EXPECT_TRUE(ctrl_in->IsInAnchor());
  EXPECT_TRUE(ctrl_in->IsControlAnchor());
  EXPECT_EQ(ctrl_in->GetIdx(), Anchor::kControlIdx);
  EXPECT_EQ(ctrl_out->GetKind(), Kind::kOutControl);
  EXPECT_FALSE(ctrl_out->IsInAnchor());
  EXPECT_EQ(ctrl_out->GetIdx(), -1);

  for (const AnchorPtr& anchor : std::vector<AnchorPtr>{in1, out0, ctrl_in, ctrl_out}) {
    EXPECT_EQ(anchor->GetOwnerNode(), a);
    EXPECT_EQ(anchor->GetOwnerNodeBarePtr(), a.get());
    EXPECT_EQ(anchor->GetPeerAnchorsSize(), 0u);
    EXPECT_EQ(anchor->GetFirstPeerAnchor(), nullptr);
  }
}

TEST(Anchor, OnlyOutToInKindsAreLinkable) {
  const std::vector<Kind> kinds = {Kind::kInData, Kind::kOutData, Kind::kInControl,
                                   Kind::kOutControl};
  int allowed = 0;
  for (Kind src : kinds) {
    for (Kind dst : kinds) {
      const bool expected = (src == Kind::kOutData || src == Kind::kOutControl) &&
                            (dst == Kind::kInData || dst == Kind::kInControl);
      EXPECT_EQ(Anchor::KindsLinkable(src, dst), expected)
          << static_cast<int>(src) << " -> " << static_cast<int>(dst);
      allowed += expected ? 1 : 0;
    }
  }
  EXPECT_EQ(allowed, 4);
}

TEST(Anchor, OutDataLinksToInData) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(a->GetOutDataAnchor(1)->LinkTo(b->GetInDataAnchor(0))));
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(1));
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchorBarePtr(), a->GetOutDataAnchor(1).get());
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutControlAnchor(), nullptr);
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetPeerInDataAnchors(),
            std::vector<InDataAnchorPtr>{b->GetInDataAnchor(0)});
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetPeerInDataAnchorsPtr(),
            std::vector<InDataAnchor*>{b->GetInDataAnchor(0).get()});
  EXPECT_TRUE(a->GetOutDataAnchor(1)->GetPeerInControlAnchors().empty());
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetPeerInDataNodesSize(), 1u);
  EXPECT_TRUE(a->GetOutDataAnchor(1)->IsLinkedWith(b->GetInDataAnchor(0)));
  EXPECT_TRUE(b->GetInDataAnchor(0)->IsLinkedWith(*a->GetOutDataAnchor(1)));
  EXPECT_FALSE(a->GetOutDataAnchor(0)->IsLinkedWith(b->GetInDataAnchor(0)));
}

TEST(Anchor, InDataLinkFromIsTheSameLink) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(b->GetInDataAnchor(1)->LinkFrom(a->GetOutDataAnchor(0))));
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), Names{"b:in:1"});
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(1)), Names{"a:out:0"});
}

TEST(Anchor, OutDataLinksToInControl) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(a->GetOutDataAnchor(0)->LinkTo(b->GetInControlAnchor())));
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInControlAnchors(),
            std::vector<InControlAnchorPtr>{b->GetInControlAnchor()});
  EXPECT_TRUE(a->GetOutDataAnchor(0)->GetPeerInDataAnchors().empty());
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataNodesSize(), 0u);
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerOutDataAnchors(),
            std::vector<OutDataAnchorPtr>{a->GetOutDataAnchor(0)});
  EXPECT_TRUE(b->GetInControlAnchor()->GetPeerOutControlAnchors().empty());
  EXPECT_FALSE(b->GetInControlAnchor()->IsPeerOutAnchorsEmpty());
}

TEST(Anchor, OutControlLinksToInControl) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  EXPECT_TRUE(b->GetInControlAnchor()->IsPeerOutAnchorsEmpty());
  ASSERT_TRUE(IsOk(a->GetOutControlAnchor()->LinkTo(b->GetInControlAnchor())));
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerInControlAnchors(),
            std::vector<InControlAnchorPtr>{b->GetInControlAnchor()});
  EXPECT_TRUE(a->GetOutControlAnchor()->GetPeerInDataAnchors().empty());
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerOutControlAnchors(),
            std::vector<OutControlAnchorPtr>{a->GetOutControlAnchor()});
  EXPECT_TRUE(b->GetInControlAnchor()->GetPeerOutDataAnchors().empty());

  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(c->GetInControlAnchor()->LinkFrom(a->GetOutControlAnchor())));
  EXPECT_EQ(PeerNames(a->GetOutControlAnchor()), (Names{"b:ctrl_in", "c:ctrl_in"}));
}

TEST(Anchor, OutControlLinksToInData) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(a->GetOutControlAnchor()->LinkTo(b->GetInDataAnchor(0))));
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerInDataAnchors(),
            std::vector<InDataAnchorPtr>{b->GetInDataAnchor(0)});
  EXPECT_TRUE(a->GetOutControlAnchor()->GetPeerInControlAnchors().empty());
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutControlAnchor(), a->GetOutControlAnchor());
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchor(), nullptr) << "not a data producer";
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchorBarePtr(), nullptr);
}

TEST(Anchor, LinksFromAnInAnchorAreRefused) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  EXPECT_TRUE(HasError(Anchor::Link(b->GetInDataAnchor(0), a->GetOutDataAnchor(0)),
                       StatusCode::kParamInvalid, {"b:in:0", "a:out:0", "in-data"}));
  EXPECT_TRUE(HasError(Anchor::Link(b->GetInControlAnchor(), a->GetOutControlAnchor()),
                       StatusCode::kParamInvalid, {"b:ctrl_in", "a:ctrl_out"}));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetInDataAnchor(0), b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:in:0", "b:in:0"}));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutDataAnchor(0), b->GetOutDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:out:0", "b:out:0"}));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutControlAnchor(), b->GetOutControlAnchor()),
                       StatusCode::kParamInvalid, {"a:ctrl_out", "b:ctrl_out"}));
  for (const auto& anchor : a->GetAllInAnchors()) EXPECT_EQ(anchor->GetPeerAnchorsSize(), 0u);
  for (const auto& anchor : b->GetAllOutAnchors()) EXPECT_EQ(anchor->GetPeerAnchorsSize(), 0u);
}

TEST(Anchor, NullAnchorsAreRefused) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  EXPECT_TRUE(HasError(Anchor::Link(nullptr, a->GetInDataAnchor(0)), StatusCode::kParamInvalid,
                       {"null", "a:in:0"}));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutDataAnchor(0), nullptr), StatusCode::kParamInvalid,
                       {"a:out:0", "null"}));
  EXPECT_TRUE(
      HasError(a->GetOutDataAnchor(0)->Unlink(nullptr), StatusCode::kParamInvalid, {"a:out:0"}));
  EXPECT_FALSE(a->GetOutDataAnchor(0)->IsLinkedWith(AnchorPtr()));
}

TEST(Anchor, InDataAcceptsOnlyOneProducer) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(1))));
  EXPECT_TRUE(HasError(Anchor::Link(c->GetOutDataAnchor(1), b->GetInDataAnchor(1)),
                       StatusCode::kParamInvalid, {"b:in:1", "a:out:0", "c:out:1", "producer"}));
  EXPECT_TRUE(HasError(Anchor::Link(c->GetOutControlAnchor(), b->GetInDataAnchor(1)),
                       StatusCode::kParamInvalid, {"b:in:1", "c:ctrl_out"}))
      << "a control source is a second peer too";
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(1)), Names{"a:out:0"});
  EXPECT_EQ(c->GetOutDataAnchor(1)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(c->GetOutControlAnchor()->GetPeerAnchorsSize(), 0u);
}

TEST(Anchor, OutDataFansOut) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), c->GetInDataAnchor(1))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(1))));
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), (Names{"b:in:0", "c:in:1", "b:in:1"}));
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataNodesSize(), 3u);
}

TEST(Anchor, DuplicateEdgesAreRefused) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutControlAnchor(), b->GetInControlAnchor())));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutControlAnchor(), b->GetInControlAnchor()),
                       StatusCode::kParamInvalid, {"a:ctrl_out", "b:ctrl_in", "already exists"}));
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerAnchorsSize(), 1u);

  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInControlAnchor())));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutDataAnchor(0), b->GetInControlAnchor()),
                       StatusCode::kParamInvalid, {"a:out:0", "b:ctrl_in"}));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(1), b->GetInDataAnchor(0))));
  EXPECT_TRUE(HasError(Anchor::Link(a->GetOutDataAnchor(1), b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:out:1", "b:in:0"}));
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerAnchorsSize(), 2u);
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetPeerAnchorsSize(), 1u);
}

TEST(Anchor, UnlinkRemovesBothEnds) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(a->GetOutDataAnchor(0)->Unlink(b->GetInDataAnchor(0))));
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);

  // From the other end as well, and for control edges.
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutControlAnchor(), b->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(b->GetInControlAnchor()->Unlink(a->GetOutControlAnchor())));
  EXPECT_FALSE(a->GetOutControlAnchor()->IsLinkedWith(b->GetInControlAnchor()));
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerAnchorsSize(), 0u);

  // The freed input takes a new producer.
  EXPECT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(1), b->GetInDataAnchor(0))));
}

TEST(Anchor, UnlinkOfUnlinkedAnchorsFails) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  EXPECT_TRUE(HasError(a->GetOutDataAnchor(0)->Unlink(b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:out:0", "b:in:0", "not linked"}));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  EXPECT_TRUE(HasError(a->GetOutDataAnchor(1)->Unlink(b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:out:1", "b:in:0"}));
  ASSERT_TRUE(IsOk(a->GetOutDataAnchor(0)->Unlink(b->GetInDataAnchor(0))));
  EXPECT_TRUE(HasError(a->GetOutDataAnchor(0)->Unlink(b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"not linked"}))
      << "a second unlink fails";
}

TEST(Anchor, UnlinkAllOnAnOutAnchor) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), c->GetInDataAnchor(1))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), c->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(1), b->GetInDataAnchor(1))));
  a->GetOutDataAnchor(0)->UnlinkAll();
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(c->GetInDataAnchor(1)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(c->GetInControlAnchor()->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(1)), Names{"b:in:1"}) << "other anchors untouched";
  a->GetOutDataAnchor(0)->UnlinkAll();  // nothing left: no-op
}

TEST(Anchor, UnlinkAllOnAnInAnchor) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutControlAnchor(), c->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(b->GetOutControlAnchor(), c->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(b->GetOutControlAnchor(), a->GetInControlAnchor())));
  c->GetInControlAnchor()->UnlinkAll();
  EXPECT_EQ(c->GetInControlAnchor()->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(PeerNames(b->GetOutControlAnchor()), Names{"a:ctrl_in"});
}

TEST(Anchor, ReplacePeerKeepsThePosition) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  NodePtr d = Add(graph, "d");
  NodePtr e = Add(graph, "e");
  const OutDataAnchorPtr out = a->GetOutDataAnchor(0);
  ASSERT_TRUE(IsOk(Anchor::Link(out, b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(out, c->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(out, d->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(out->ReplacePeer(c->GetInDataAnchor(0), e->GetInDataAnchor(1))));
  EXPECT_EQ(PeerNames(out), (Names{"b:in:0", "e:in:1", "d:in:0"}));
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(PeerNames(e->GetInDataAnchor(1)), Names{"a:out:0"});
}

TEST(Anchor, ReplacePeerFromTheInSide) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr x = Add(graph, "x");
  NodePtr y = Add(graph, "y");
  // The consumer sits in the middle of a's peer list.
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), y->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), y->GetInDataAnchor(1))));
  ASSERT_TRUE(IsOk(Anchor::Link(x->GetOutDataAnchor(1), x->GetInDataAnchor(0))));
  ASSERT_TRUE(
      IsOk(b->GetInDataAnchor(0)->ReplacePeer(a->GetOutDataAnchor(0), x->GetOutDataAnchor(1))));
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(0)), Names{"x:out:1"});
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), (Names{"y:in:0", "y:in:1"}));
  EXPECT_EQ(PeerNames(x->GetOutDataAnchor(1)), (Names{"x:in:0", "b:in:0"}));
}

TEST(Anchor, ReplacePeerRefusesBadReplacements) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  const OutDataAnchorPtr out = a->GetOutDataAnchor(0);
  ASSERT_TRUE(IsOk(Anchor::Link(out, b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(c->GetOutDataAnchor(0), c->GetInDataAnchor(0))));

  EXPECT_TRUE(HasError(out->ReplacePeer(b->GetInDataAnchor(1), c->GetInDataAnchor(1)),
                       StatusCode::kParamInvalid, {"b:in:1", "a:out:0", "not linked"}));
  EXPECT_TRUE(HasError(out->ReplacePeer(b->GetInDataAnchor(0), c->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"c:in:0", "producer"}))
      << "the new input is taken";
  EXPECT_TRUE(HasError(out->ReplacePeer(b->GetInDataAnchor(0), c->GetOutDataAnchor(1)),
                       StatusCode::kParamInvalid, {"c:out:1", "kinds"}));
  EXPECT_TRUE(HasError(out->ReplacePeer(b->GetInDataAnchor(0), b->GetInDataAnchor(0)),
                       StatusCode::kParamInvalid, {"b:in:0", "already linked"}));
  EXPECT_TRUE(HasError(out->ReplacePeer(nullptr, c->GetInDataAnchor(1)), StatusCode::kParamInvalid,
                       {"a:out:0"}));
  EXPECT_EQ(PeerNames(out), Names{"b:in:0"}) << "failures change nothing";
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(0)), Names{"a:out:0"});
}

TEST(Anchor, InsertSplicesADataEdgeKeepingPositions) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  NodePtr d = Add(graph, "d");
  NodePtr n = Add(graph, "n");
  const OutDataAnchorPtr out = a->GetOutDataAnchor(0);
  ASSERT_TRUE(IsOk(Anchor::Link(out, b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(out, c->GetInDataAnchor(1))));
  ASSERT_TRUE(IsOk(Anchor::Link(out, d->GetInDataAnchor(0))));
  // a:out:0 -> c:in:1 becomes a:out:0 -> n:in:0, n:out:1 -> c:in:1.
  ASSERT_TRUE(
      IsOk(out->Insert(c->GetInDataAnchor(1), n->GetInDataAnchor(0), n->GetOutDataAnchor(1))));
  EXPECT_EQ(PeerNames(out), (Names{"b:in:0", "n:in:0", "d:in:0"}));
  EXPECT_EQ(PeerNames(n->GetInDataAnchor(0)), Names{"a:out:0"});
  EXPECT_EQ(PeerNames(n->GetOutDataAnchor(1)), Names{"c:in:1"});
  EXPECT_EQ(PeerNames(c->GetInDataAnchor(1)), Names{"n:out:1"});
  EXPECT_EQ(c->GetInDataAnchor(1)->GetPeerOutAnchor(), n->GetOutDataAnchor(1));
}

TEST(Anchor, InsertSplicesAControlEdgeKeepingBothPositions) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr x = Add(graph, "x");
  NodePtr y = Add(graph, "y");
  NodePtr p = Add(graph, "p");
  NodePtr q = Add(graph, "q");
  NodePtr s = Add(graph, "s");
  NodePtr t = Add(graph, "t");
  NodePtr n = Add(graph, "n");
  // x:ctrl_out peers: s, y, t. y:ctrl_in peers: p, x, q.
  ASSERT_TRUE(IsOk(Anchor::Link(x->GetOutControlAnchor(), s->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(p->GetOutControlAnchor(), y->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(x->GetOutControlAnchor(), y->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(q->GetOutControlAnchor(), y->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(x->GetOutControlAnchor(), t->GetInControlAnchor())));

  ASSERT_TRUE(IsOk(x->GetOutControlAnchor()->Insert(
      y->GetInControlAnchor(), n->GetInControlAnchor(), n->GetOutControlAnchor())));
  EXPECT_EQ(PeerNames(x->GetOutControlAnchor()), (Names{"s:ctrl_in", "n:ctrl_in", "t:ctrl_in"}));
  EXPECT_EQ(PeerNames(y->GetInControlAnchor()), (Names{"p:ctrl_out", "n:ctrl_out", "q:ctrl_out"}));
  EXPECT_EQ(PeerNames(n->GetInControlAnchor()), Names{"x:ctrl_out"});
  EXPECT_EQ(PeerNames(n->GetOutControlAnchor()), Names{"y:ctrl_in"});
}

TEST(Anchor, InsertFromTheInSide) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr n = Add(graph, "n");
  ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
  // b:in:0 <- a:out:0 becomes b:in:0 <- n:out:0, n:in:1 <- a:out:0.
  ASSERT_TRUE(IsOk(b->GetInDataAnchor(0)->Insert(a->GetOutDataAnchor(0), n->GetOutDataAnchor(0),
                                                 n->GetInDataAnchor(1))));
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(0)), Names{"n:out:0"});
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), Names{"n:in:1"});
}

TEST(Anchor, InsertRefusesBadPieces) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr n = Add(graph, "n");
  NodePtr m = Add(graph, "m");
  const OutDataAnchorPtr out = a->GetOutDataAnchor(0);
  ASSERT_TRUE(IsOk(Anchor::Link(out, b->GetInDataAnchor(0))));
  ASSERT_TRUE(IsOk(Anchor::Link(m->GetOutDataAnchor(0), n->GetInDataAnchor(1))));

  EXPECT_TRUE(
      HasError(out->Insert(b->GetInDataAnchor(1), n->GetInDataAnchor(0), n->GetOutDataAnchor(0)),
               StatusCode::kParamInvalid, {"a:out:0", "b:in:1", "not linked"}));
  EXPECT_TRUE(
      HasError(out->Insert(b->GetInDataAnchor(0), n->GetOutDataAnchor(0), n->GetInDataAnchor(0)),
               StatusCode::kParamInvalid, {"kinds"}));
  EXPECT_TRUE(
      HasError(out->Insert(b->GetInDataAnchor(0), n->GetInDataAnchor(1), n->GetOutDataAnchor(0)),
               StatusCode::kParamInvalid, {"n:in:1", "producer"}));
  EXPECT_TRUE(HasError(out->Insert(b->GetInDataAnchor(0), nullptr, n->GetOutDataAnchor(0)),
                       StatusCode::kParamInvalid, {"a:out:0"}));
  EXPECT_EQ(PeerNames(out), Names{"b:in:0"}) << "failures change nothing";
  EXPECT_EQ(PeerNames(b->GetInDataAnchor(0)), Names{"a:out:0"});
  EXPECT_EQ(n->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 0u);
}

TEST(Anchor, PeerListsInLinkOrder) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr b = Add(graph, "b");
  NodePtr c = Add(graph, "c");
  ASSERT_TRUE(IsOk(Anchor::Link(b->GetOutControlAnchor(), a->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(c->GetOutDataAnchor(1), a->GetInControlAnchor())));
  ASSERT_TRUE(IsOk(Anchor::Link(c->GetOutControlAnchor(), a->GetInControlAnchor())));
  const InControlAnchorPtr& in = a->GetInControlAnchor();
  EXPECT_EQ(PeerNames(in), (Names{"b:ctrl_out", "c:out:1", "c:ctrl_out"}));
  EXPECT_EQ(in->GetFirstPeerAnchor(), b->GetOutControlAnchor());
  EXPECT_EQ(in->GetPeerAnchorsSize(), 3u);
  const std::vector<Anchor*> raw = in->GetPeerAnchorsPtr();
  ASSERT_EQ(raw.size(), 3u);
  EXPECT_EQ(raw[1], c->GetOutDataAnchor(1).get());
  EXPECT_EQ(in->GetPeerOutControlAnchors(),
            (std::vector<OutControlAnchorPtr>{b->GetOutControlAnchor(), c->GetOutControlAnchor()}));
  EXPECT_EQ(in->GetPeerOutDataAnchors(), std::vector<OutDataAnchorPtr>{c->GetOutDataAnchor(1)});
}

TEST(Anchor, DataAnchorStatusDefaultsToSuspend) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  EXPECT_EQ(a->GetInDataAnchor(0)->GetStatus(), ANCHOR_SUSPEND);
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetStatus(), ANCHOR_SUSPEND);
  a->GetInDataAnchor(0)->SetStatus(ANCHOR_CONST);
  a->GetOutDataAnchor(1)->SetStatus(ANCHOR_DATA);
  EXPECT_EQ(a->GetInDataAnchor(0)->GetStatus(), ANCHOR_CONST);
  EXPECT_EQ(a->GetOutDataAnchor(1)->GetStatus(), ANCHOR_DATA);
  EXPECT_EQ(a->GetInDataAnchor(1)->GetStatus(), ANCHOR_SUSPEND) << "per anchor";
  a->GetInDataAnchor(0)->SetStatus(ANCHOR_RESERVED);
  EXPECT_EQ(a->GetInDataAnchor(0)->GetStatus(), ANCHOR_RESERVED);
  EXPECT_EQ(static_cast<int>(ANCHOR_SUSPEND), 0);
  EXPECT_EQ(static_cast<int>(ANCHOR_CONST), 1);
  EXPECT_EQ(static_cast<int>(ANCHOR_DATA), 2);
  EXPECT_EQ(static_cast<int>(ANCHOR_RESERVED), 3);
}

TEST(Anchor, DebugStringNamesNodeAndPort) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "relu_1");
  EXPECT_EQ(a->GetOutDataAnchor(1)->DebugString(), "relu_1:out:1");
  EXPECT_EQ(a->GetInDataAnchor(0)->DebugString(), "relu_1:in:0");
  EXPECT_EQ(a->GetInControlAnchor()->DebugString(), "relu_1:ctrl_in");
  EXPECT_EQ(a->GetOutControlAnchor()->DebugString(), "relu_1:ctrl_out");
}

TEST(Anchor, AnchorsOfADestroyedNodeAreNoLongerPeers) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = Add(graph, "a");
  NodePtr c = Add(graph, "c");
  {
    NodePtr b = Add(graph, "b");
    ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), b->GetInDataAnchor(0))));
    ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(0), c->GetInDataAnchor(0))));
    ASSERT_TRUE(IsOk(Anchor::Link(a->GetOutControlAnchor(), b->GetInControlAnchor())));
    ASSERT_TRUE(IsOk(Anchor::Link(b->GetOutDataAnchor(0), c->GetInDataAnchor(1))));
    ASSERT_TRUE(IsOk(graph->RemoveJustNode(b)));  // the graph lets go; b dies here
  }
  EXPECT_EQ(PeerNames(a->GetOutDataAnchor(0)), Names{"c:in:0"});
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataAnchors().size(), 1u);
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataAnchorsPtr().size(), 1u);
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataNodesSize(), 1u);
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(a->GetOutControlAnchor()->GetFirstPeerAnchor(), nullptr);
  EXPECT_TRUE(a->GetOutControlAnchor()->GetPeerAnchorsPtr().empty());
  EXPECT_EQ(c->GetInDataAnchor(1)->GetPeerOutAnchor(), nullptr);
  EXPECT_EQ(c->GetInDataAnchor(1)->GetPeerOutAnchorBarePtr(), nullptr);
  EXPECT_EQ(c->GetInDataAnchor(1)->GetPeerAnchorsSize(), 0u);
  EXPECT_EQ(testing::Names(a->GetOutNodes()), Names{"c"});
  EXPECT_EQ(testing::Names(c->GetInNodes()), Names{"a"});

  // The freed input takes a new producer, and unlinking with dead entries around works.
  EXPECT_TRUE(IsOk(Anchor::Link(a->GetOutDataAnchor(1), c->GetInDataAnchor(1))));
  a->GetOutDataAnchor(0)->UnlinkAll();
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerAnchorsSize(), 0u);
  a->GetOutControlAnchor()->UnlinkAll();
}

TEST(Anchor, AnAnchorOutlivingItsNodeHasNoOwner) {
  const auto graph = std::make_shared<ComputeGraph>("g");
  InDataAnchorPtr kept;
  {
    NodePtr b = Add(graph, "b");
    kept = b->GetInDataAnchor(0);
    ASSERT_TRUE(IsOk(graph->RemoveJustNode(b)));
  }
  EXPECT_EQ(kept->GetOwnerNode(), nullptr);
  EXPECT_EQ(kept->GetPeerAnchorsSize(), 0u);
}

}  // namespace
}  // namespace ge

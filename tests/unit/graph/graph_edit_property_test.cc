// Property test: random sequences of graph edits (insert, remove, isolate, replace, control
// edges) keep every invariant the verifier checks, and copies stay equal to the original.
#include <gtest/gtest.h>

#include <random>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/graph_utils.h"
#include "graph_test_util.h"

namespace ge {
namespace {

using testing::AddNode;

class RandomEditor {
 public:
  explicit RandomEditor(uint32_t seed) : rng_(seed), graph_(std::make_shared<ComputeGraph>("g")) {}

  void Seed(int n) {
    for (int i = 0; i < n; ++i) {
      auto node = AddNode(graph_, "n" + std::to_string(counter_++), i < 3 ? "Data" : "Add",
                          i < 3 ? 0 : 2, 2, {4});
      auto nodes = graph_->GetDirectNode();
      for (int in = 0; in < static_cast<int>(node->GetAllInDataAnchorsSize()); ++in) {
        const NodePtr& src = nodes[Pick(nodes.size() - 1)];
        (void)GraphUtils::AddEdge(src->GetOutDataAnchor(static_cast<int>(Pick(2))),
                                  node->GetInDataAnchor(in));
      }
    }
  }

  // One random edit; failures are allowed (e.g. an occupied input) but must leave the graph valid.
  void Step() {
    auto nodes = graph_->GetDirectNode();
    if (nodes.size() < 4) {
      Seed(4);
      return;
    }
    const NodePtr& a = nodes[Pick(nodes.size())];
    const NodePtr& b = nodes[Pick(nodes.size())];
    switch (Pick(7)) {
      case 0: {  // splice a new node into a random data edge
        auto in = b->GetInDataAnchor(
            static_cast<int>(Pick(std::max<size_t>(1, b->GetAllInDataAnchorsSize()))));
        if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return;
        auto fresh = AddNode(graph_, "n" + std::to_string(counter_++), "Cast", 1, 1, {4});
        (void)GraphUtils::InsertNodeBetweenDataAnchors(in->GetPeerOutAnchor(), in, fresh);
        return;
      }
      case 1:
        (void)graph_->RemoveNode(a);
        return;
      case 2: {
        std::vector<int> io_map = {static_cast<int>(Pick(3)) - 1, static_cast<int>(Pick(3)) - 1};
        (void)GraphUtils::IsolateNode(a, io_map);
        return;
      }
      case 3: {  // move a data edge to another producer
        auto in = b->GetInDataAnchor(0);
        if (in == nullptr || in->GetPeerOutAnchor() == nullptr || a == b) return;
        (void)GraphUtils::ReplaceEdgeSrc(in->GetPeerOutAnchor(), in, a->GetOutDataAnchor(0));
        return;
      }
      case 4:
        (void)GraphUtils::AddEdge(a->GetOutControlAnchor(), b->GetInControlAnchor());
        return;
      case 5: {
        auto peers = a->GetOutControlAnchor()->GetPeerAnchors();
        if (!peers.empty()) (void)GraphUtils::RemoveEdge(a->GetOutControlAnchor(), peers.front());
        return;
      }
      default: {  // a new node fed by `a`
        auto fresh = AddNode(graph_, "n" + std::to_string(counter_++), "Relu", 1, 1, {4});
        (void)GraphUtils::AddEdge(a->GetOutDataAnchor(0), fresh->GetInDataAnchor(0));
        return;
      }
    }
  }

  const ComputeGraphPtr& graph() const { return graph_; }

 private:
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::mt19937 rng_;
  ComputeGraphPtr graph_;
  int counter_ = 0;
};

TEST(GraphEditProperty, RandomEditsKeepTheVerifierGreen) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    RandomEditor editor(seed);
    editor.Seed(30);
    ASSERT_TRUE(GraphVerifier::Verify(*editor.graph()).ok());
    for (int step = 0; step < 300; ++step) {
      editor.Step();
      Status s = GraphVerifier::Verify(*editor.graph());
      ASSERT_TRUE(s.ok()) << "seed " << seed << " step " << step << ": " << s.ToString();
      if (step % 50 == 49) {
        auto copy = GraphUtils::CopyComputeGraph(editor.graph());
        ASSERT_TRUE(copy.ok()) << copy.status().ToString();
        Status eq = GraphUtils::CheckEqual(*editor.graph(), *copy.value());
        ASSERT_TRUE(eq.ok()) << "seed " << seed << " step " << step << ": " << eq.ToString();
      }
    }
  }
}

}  // namespace
}  // namespace ge

// Tests of ComputeGraph::TopologicalSorting: the order of each mode (BFS, DFS, RDFS, StableRDFS,
// memory priority) on small graphs, DelayTopoSort, loop back-edges, node ids and subgraphs, cycle
// detection in every mode, option parsing, and property tests on random DAGs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/graph_utils.h"
#include "status_test_util.h"

namespace ge {
namespace {

using testing::IsOk;
using testing::Must;
using Names = std::vector<std::string>;

/// An output of `bytes` bytes: a DT_UINT8 tensor of shape [bytes].
GeTensorDesc TensorOfBytes(int64_t bytes) {
  return GeTensorDesc(GeShape({bytes}), FORMAT_ND, DT_UINT8);
}

/// The sorting tests' graphs, made with GraphBuilder: inputs of 4 bytes, outputs of chosen byte
/// sizes, and edges between nodes named by their names. A failure to build is a test failure.
class TopoGraph {
 public:
  explicit TopoGraph(const std::string& graph_name) : builder_(graph_name) {}

  /// Appends a node with `num_inputs` inputs and one output per entry of `output_bytes`.
  NodePtr AddNode(const std::string& name, const std::string& type, size_t num_inputs = 1,
                  const std::vector<int64_t>& output_bytes = {4}) {
    std::vector<GeTensorDesc> outputs;
    for (int64_t bytes : output_bytes) outputs.push_back(TensorOfBytes(bytes));
    return Must(builder_.AddNode(name, type,
                                 std::vector<GeTensorDesc>(num_inputs, TensorOfBytes(4)), outputs));
  }

  /// A source: no inputs, one output of `bytes` bytes.
  NodePtr AddSource(const std::string& name, const std::string& type, int64_t bytes = 4) {
    return AddNode(name, type, /*num_inputs=*/0, {bytes});
  }

  /// Data edge src:out → dst:in.
  void Data(const std::string& src, int out, const std::string& dst, int in) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    EXPECT_TRUE(IsOk(builder_.AddDataEdge({s, out}, d, in)));
  }

  /// Data edge src:0 → the first unlinked input of dst.
  void Data(const std::string& src, const std::string& dst) {
    NodePtr d = Get(dst);
    if (d == nullptr) return;
    for (const auto& in : d->GetAllInDataAnchors()) {
      if (in->GetPeerAnchorsSize() == 0) {
        Data(src, 0, dst, in->GetIdx());
        return;
      }
    }
    ADD_FAILURE() << "node '" << dst << "' has no free input for an edge from '" << src << "'";
  }

  /// Data chain a:0 → b → c → … (each into the first free input).
  void Chain(const std::vector<std::string>& names) {
    for (size_t i = 1; i < names.size(); ++i) Data(names[i - 1], names[i]);
  }

  /// Control edge src → dst.
  void Ctrl(const std::string& src, const std::string& dst) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    EXPECT_TRUE(IsOk(builder_.AddControlEdge(s, d)));
  }

  /// Edge from src's output `out` into dst's in-control anchor (a data-to-control edge, which
  /// GraphBuilder does not make: it is linked on the anchors).
  void DataToCtrl(const std::string& src, int out, const std::string& dst) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    EXPECT_TRUE(IsOk(GraphUtils::AddEdge(s->GetOutDataAnchor(out), d->GetInControlAnchor())));
  }

  NodePtr Get(const std::string& name) const {
    NodePtr node = graph()->FindNode(name);
    if (node == nullptr) ADD_FAILURE() << "no node '" << name << "' in " << graph()->DebugString();
    return node;
  }

  const ComputeGraphPtr& graph() const { return builder_.GetGraph(); }

 private:
  GraphBuilder builder_;
};

struct NamedMode {
  std::string name;
  TopoSortOptions options;
};

std::vector<NamedMode> AllModes() {
  return {
      {"BFS", {TopoSortingMode::kBFS, /*memory_priority=*/false}},
      {"DFS", {TopoSortingMode::kDFS, /*memory_priority=*/false}},
      {"RDFS", {TopoSortingMode::kRDFS, /*memory_priority=*/false}},
      {"StableRDFS", {TopoSortingMode::kStableRDFS, /*memory_priority=*/false}},
      {"BFS+MemoryPriority", {TopoSortingMode::kBFS, /*memory_priority=*/true}},
      {"DFS+MemoryPriority", {TopoSortingMode::kDFS, /*memory_priority=*/true}},
  };
}

const TopoSortOptions kBfs{TopoSortingMode::kBFS, false};
const TopoSortOptions kDfs{TopoSortingMode::kDFS, false};
const TopoSortOptions kRdfs{TopoSortingMode::kRDFS, false};
const TopoSortOptions kStableRdfs{TopoSortingMode::kStableRDFS, false};
const TopoSortOptions kBfsMemory{TopoSortingMode::kBFS, true};
const TopoSortOptions kDfsMemory{TopoSortingMode::kDFS, true};

Names NamesOf(const std::vector<NodePtr>& nodes) {
  Names names;
  names.reserve(nodes.size());
  for (const auto& node : nodes) names.push_back(node->GetName());
  return names;
}

Names DirectNames(const ComputeGraph& graph) { return NamesOf(graph.GetDirectNode()); }

std::vector<int64_t> Ids(const std::vector<NodePtr>& nodes) {
  std::vector<int64_t> ids;
  ids.reserve(nodes.size());
  for (const auto& node : nodes) ids.push_back(node->GetOpDescBarePtr()->GetId());
  return ids;
}

/// Sorts and returns the new direct order (empty, with a test failure, when the sort fails).
Names SortedNames(const ComputeGraphPtr& graph, const TopoSortOptions& options) {
  Status status = graph->TopologicalSorting(options);
  EXPECT_TRUE(status.ok()) << status.ToString();
  if (!status.ok()) return {};
  return DirectNames(*graph);
}

bool IsLoopBackEdge(const Node& src, const Node& dst) {
  const std::string& s = src.GetType();
  const std::string& d = dst.GetType();
  return (s == "NextIteration" || s == "RefNextIteration") && (d == "Merge" || d == "RefMerge");
}

/// Every node of `expected_nodes` appears exactly once, nothing else appears, and every edge
/// between two direct nodes (data, control, data-to-control) goes forward, loop back-edges
/// excepted.
::testing::AssertionResult IsTopological(const ComputeGraph& graph,
                                         const std::vector<NodePtr>& expected_nodes) {
  const std::vector<Node*> order = graph.GetDirectNodePtr();
  if (order.size() != expected_nodes.size()) {
    return ::testing::AssertionFailure()
           << "order has " << order.size() << " nodes, expected " << expected_nodes.size();
  }
  std::unordered_map<const Node*, size_t> pos;
  pos.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (!pos.emplace(order[i], i).second) {
      return ::testing::AssertionFailure() << "node '" << order[i]->GetName() << "' appears twice";
    }
  }
  for (const auto& node : expected_nodes) {
    if (pos.count(node.get()) == 0) {
      return ::testing::AssertionFailure() << "node '" << node->GetName() << "' is missing";
    }
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const Node* src = order[i];
    std::vector<Anchor*> peers;
    for (const auto& out : src->GetAllOutDataAnchors()) {
      for (Anchor* peer : out->GetPeerAnchorsPtr()) peers.push_back(peer);
    }
    for (Anchor* peer : src->GetOutControlAnchor()->GetPeerAnchorsPtr()) peers.push_back(peer);
    for (Anchor* peer : peers) {
      const Node* dst = peer->GetOwnerNodeBarePtr();
      auto found = pos.find(dst);
      if (found == pos.end() || IsLoopBackEdge(*src, *dst)) continue;
      if (found->second <= i) {
        return ::testing::AssertionFailure()
               << "edge " << src->GetName() << " -> " << dst->GetName() << " goes from position "
               << i << " to " << found->second;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsTopological(const ComputeGraph& graph) {
  return IsTopological(graph, graph.GetDirectNode());
}

/// Node ids equal positions in GetAllNodes() order.
::testing::AssertionResult IdsArePositions(const ComputeGraph& graph) {
  const std::vector<NodePtr> all = graph.GetAllNodes();
  for (size_t i = 0; i < all.size(); ++i) {
    const int64_t id = all[i]->GetOpDescBarePtr()->GetId();
    if (id != static_cast<int64_t>(i)) {
      return ::testing::AssertionFailure()
             << "node '" << all[i]->GetName() << "' at position " << i << " has id " << id;
    }
  }
  return ::testing::AssertionSuccess();
}

/// Gives the direct nodes ids that are not their positions, so that a reset is visible.
void ScrambleIds(const ComputeGraph& graph) {
  int64_t id = 1000;
  for (Node* node : graph.GetDirectNodePtr()) {
    node->GetOpDescBarePtr()->SetId(id);
    id -= 7;
  }
}

// ---------------------------------------------------------------------------------------------
// BFS and DFS

// in → {c, a, b} (linked in that order) → sink.
TopoGraph FanOutFanIn() {
  TopoGraph b("fan");
  b.AddNode("sink", "Op", /*num_inputs=*/3);
  b.AddNode("c", "Op");
  b.AddNode("a", "Op");
  b.AddNode("b", "Op");
  b.AddSource("in", "Data");
  b.Data("in", "c");
  b.Data("in", "a");
  b.Data("in", "b");
  b.Data("c", "sink");
  b.Data("a", "sink");
  b.Data("b", "sink");
  return b;
}

TEST(TopoSort, BfsQueuesNodesReadyTogetherInNameOrder) {
  EXPECT_EQ(SortedNames(FanOutFanIn().graph(), kBfs), (Names{"in", "a", "b", "c", "sink"}));
}

TEST(TopoSort, DfsReleasesSuccessorsInLinkOrder) {
  EXPECT_EQ(SortedNames(FanOutFanIn().graph(), kDfs), (Names{"in", "c", "a", "b", "sink"}));
}

TEST(TopoSort, BfsIsFirstInFirstOutAcrossSteps) {
  // in → q → s, in → p → a_r: a_r becomes ready after q was queued, so it comes after q although
  // its name is smaller.
  TopoGraph b("fifo");
  b.AddSource("in", "Data");
  b.AddNode("q", "Op");
  b.AddNode("p", "Op");
  b.AddNode("s", "Op");
  b.AddNode("a_r", "Op");
  b.Data("in", "q");
  b.Data("in", "p");
  b.Data("q", "s");
  b.Data("p", "a_r");
  EXPECT_EQ(SortedNames(b.graph(), kBfs), (Names{"in", "p", "q", "a_r", "s"}));
  EXPECT_EQ(SortedNames(b.graph(), kDfs), (Names{"in", "q", "s", "p", "a_r"}));
}

TEST(TopoSort, DataLikeSeedsComeBeforeOtherSources) {
  for (const TopoSortOptions& options : {kBfs, kDfs}) {
    TopoGraph b("seeds");
    b.AddSource("const_a", "Const");
    b.AddSource("data_z", "Data");
    b.AddSource("var", "Variable");
    b.AddSource("aipp", "AippData");
    b.AddNode("sink", "Op", /*num_inputs=*/4);
    for (const char* src : {"const_a", "data_z", "var", "aipp"}) b.Data(src, "sink");
    // Data-like nodes in graph order, then the other sources in graph order.
    EXPECT_EQ(SortedNames(b.graph(), options), (Names{"data_z", "aipp", "const_a", "var", "sink"}))
        << TopoSortingModeName(options.mode);
  }
}

TEST(TopoSort, DfsGoesDeepAlongOutputZeroFirst) {
  TopoGraph b("deep");
  b.AddSource("in", "Data");
  b.AddNode("split", "Split", /*num_inputs=*/1, {4, 4});
  b.AddNode("z1", "Op");
  b.AddNode("z2", "Op");
  b.AddNode("b1", "Op");
  b.AddNode("b2", "Op");
  b.Data("in", "split");
  b.Data("split", 1, "b1", 0);  // linked first, but output 1
  b.Data("split", 0, "z1", 0);
  b.Chain({"z1", "z2"});
  b.Chain({"b1", "b2"});
  EXPECT_EQ(SortedNames(b.graph(), kDfs), (Names{"in", "split", "z1", "z2", "b1", "b2"}));
  EXPECT_EQ(SortedNames(b.graph(), kBfs), (Names{"in", "split", "b1", "z1", "b2", "z2"}));
}

TEST(TopoSort, DfsReleasesDataSuccessorsBeforeControlSuccessors) {
  TopoGraph b("ctrl_after_data");
  b.AddSource("src", "Data");
  b.AddNode("c", "Op", /*num_inputs=*/0);
  b.AddNode("d", "Op");
  b.AddNode("d2", "Op");
  b.Ctrl("src", "c");  // linked first
  b.Data("src", "d");
  b.Data("d", "d2");
  EXPECT_EQ(SortedNames(b.graph(), kDfs), (Names{"src", "d", "d2", "c"}));
  EXPECT_EQ(SortedNames(b.graph(), kBfs), (Names{"src", "c", "d", "d2"}));
}

// ---------------------------------------------------------------------------------------------
// Memory priority

TEST(TopoSort, MemoryPriorityPrefersFewerConsumersThenFewerBytesThenName) {
  for (const TopoSortOptions& options : {kBfsMemory, kDfsMemory}) {
    TopoGraph b("memory_seeds");
    b.AddSource("d", "Op", /*bytes=*/8);
    b.AddSource("b", "Op", /*bytes=*/100);
    b.AddSource("a", "Op", /*bytes=*/4);  // two consumers
    b.AddSource("c", "Op", /*bytes=*/8);
    b.AddNode("sink", "Op", /*num_inputs=*/5);
    for (const char* src : {"a", "a", "b", "c", "d"}) b.Data(src, "sink");
    EXPECT_EQ(SortedNames(b.graph(), options), (Names{"c", "d", "b", "a", "sink"}))
        << TopoSortingModeName(options.mode);
  }
}

TEST(TopoSort, MemoryPriorityComparesTotalOutputBytesOfReleasedNodes) {
  auto build = [] {
    TopoGraph b("memory_released");
    b.AddSource("in", "Data");
    b.AddNode("x", "Op", /*num_inputs=*/1, {1000});
    b.AddNode("y", "Op", /*num_inputs=*/1, {5});
    b.AddNode("w", "Op", /*num_inputs=*/1, {3, 3});  // 6 bytes in total, one consumer
    b.AddNode("sink", "Op", /*num_inputs=*/3);
    for (const char* mid : {"x", "y", "w"}) {
      b.Data("in", mid);
      b.Data(mid, "sink");
    }
    return b;
  };
  EXPECT_EQ(SortedNames(build().graph(), kBfsMemory), (Names{"in", "y", "w", "x", "sink"}));
  EXPECT_EQ(SortedNames(build().graph(), kDfsMemory), (Names{"in", "y", "w", "x", "sink"}));
  EXPECT_EQ(SortedNames(build().graph(), kBfs), (Names{"in", "w", "x", "y", "sink"}));
}

// The other key: larger outputs first, then fewer consumers, then name.
TEST(TopoSort, MemoryPriorityByOutputSizeTakesTheLargestOutputFirst) {
  for (TopoSortOptions options : {kBfsMemory, kDfsMemory}) {
    options.memory_key = MemoryPriorityKey::kLargerOutputs;
    TopoGraph b("memory_by_size");
    b.AddSource("d", "Op", /*bytes=*/8);
    b.AddSource("b", "Op", /*bytes=*/100);
    b.AddSource("a", "Op", /*bytes=*/8);  // two consumers
    b.AddSource("c", "Op", /*bytes=*/4);
    b.AddNode("sink", "Op", /*num_inputs=*/5);
    for (const char* src : {"a", "a", "b", "c", "d"}) b.Data(src, "sink");
    EXPECT_EQ(SortedNames(b.graph(), options), (Names{"b", "d", "a", "c", "sink"}))
        << TopoSortingModeName(options.mode);
  }
}

TEST(TopoSortOptions, TheMemoryPriorityKeyIsAnOption) {
  auto options =
      TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", "MemoryPriority"},
                                    {"openge.memoryPriorityKey", "output-size"}});
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->memory_key, MemoryPriorityKey::kLargerOutputs);
  options = TopoSortOptions::FromOptions({{"openge.memoryPriorityKey", "consumers"}});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->memory_key, MemoryPriorityKey::kFewerConsumers);
  EXPECT_EQ(TopoSortOptions().memory_key, MemoryPriorityKey::kFewerConsumers);
  options = TopoSortOptions::FromOptions({{"openge.memoryPriorityKey", "size"}});
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.status().message().find("openge.memoryPriorityKey = 'size'"), std::string::npos)
      << options.status().message();
  EXPECT_EQ(MemoryPriorityName(MemoryPriorityKey::kLargerOutputs),
            "MemoryPriority(larger outputs)");
}

// ---------------------------------------------------------------------------------------------
// RDFS, StableRDFS and DelayTopoSort

TEST(TopoSort, RdfsEmitsTheInputWithTheSmallerOutputFirst) {
  TopoGraph b("rdfs");
  b.AddSource("src", "Op");
  b.AddNode("big", "Op", /*num_inputs=*/1, {1000});
  b.AddNode("small", "Op", /*num_inputs=*/1, {4});
  b.AddNode("sink", "Op", /*num_inputs=*/2);
  b.Data("src", "big");
  b.Data("src", "small");
  b.Data("big", "sink");    // input 0
  b.Data("small", "sink");  // input 1
  EXPECT_EQ(SortedNames(b.graph(), kRdfs), (Names{"src", "small", "big", "sink"}));
}

TEST(TopoSort, RdfsBreaksOutputSizeTiesByName) {
  TopoGraph b("rdfs_tie");
  b.AddNode("sink", "Op", /*num_inputs=*/2);
  b.AddSource("src", "Op");
  b.AddNode("b_node", "Op", /*num_inputs=*/1, {16});
  b.AddNode("a_node", "Op", /*num_inputs=*/1, {16});
  b.Data("src", "b_node");
  b.Data("src", "a_node");
  b.Data("b_node", "sink");  // input 0
  b.Data("a_node", "sink");  // input 1
  EXPECT_EQ(SortedNames(b.graph(), kRdfs), (Names{"src", "a_node", "b_node", "sink"}));
}

TEST(TopoSort, StableRdfsKeepsAValidOrderUnchanged) {
  // A valid order that no other mode would produce: sources late, names out of order.
  TopoGraph b("stable");
  b.AddSource("z_in", "Data");
  b.AddNode("m", "Op", /*num_inputs=*/1, {1000});
  b.AddSource("k", "Const");
  b.AddNode("a", "Op", /*num_inputs=*/2, {4});
  b.AddNode("e", "Op", /*num_inputs=*/1, {4});
  b.AddNode("b", "Op", /*num_inputs=*/1, {4});
  b.Data("z_in", "m");
  b.Data("m", "a");
  b.Data("k", "a");
  b.Data("k", "e");
  b.Data("a", "b");
  b.Ctrl("e", "b");
  const Names before = DirectNames(*b.graph());
  EXPECT_EQ(SortedNames(b.graph(), kStableRdfs), before);
  EXPECT_TRUE(IdsArePositions(*b.graph()));
}

TEST(TopoSort, StableRdfsMovesOnlyWhatMustMove) {
  // b needs a, which comes after it; c is independent and keeps its place after them.
  TopoGraph b("stable_fix");
  b.AddNode("b", "Op");
  b.AddSource("a", "Op");
  b.AddSource("c", "Op");
  b.Data("a", "b");
  EXPECT_EQ(SortedNames(b.graph(), kStableRdfs), (Names{"a", "b", "c"}));
}

// variable → node1 → node5 and data → node2 → node3 → node4 → node5, added in scrambled order.
// All outputs have the same size, so RDFS visits node5's inputs by name: node1's branch first.
TopoGraph DelayExample(int64_t node1_bytes) {
  TopoGraph b("delay");
  b.AddNode("node5", "Op", /*num_inputs=*/2);
  b.AddNode("node3", "Op");
  b.AddSource("data", "Data");
  b.AddNode("node1", "Op", /*num_inputs=*/1, {node1_bytes});
  b.AddNode("node4", "Op");
  b.AddSource("variable", "Variable");
  b.AddNode("node2", "Op");
  b.Chain({"variable", "node1", "node5"});
  b.Chain({"data", "node2", "node3", "node4", "node5"});
  return b;
}

TEST(TopoSort, RdfsDelaysANodeFedOnlyByLongLivedInputsToItsConsumer) {
  // The walk gives variable, node1, data, node2, node3, node4, node5; DelayTopoSort moves node1
  // (fed only by a Variable) to just before node5, its only consumer (the example in
  // docs/ge_compatibility.md, "Topological sorting").
  EXPECT_EQ(SortedNames(DelayExample(/*node1_bytes=*/4).graph(), kRdfs),
            (Names{"variable", "data", "node2", "node3", "node4", "node1", "node5"}));
}

TEST(TopoSort, RdfsDoesNotDelayANodeRightBeforeItsConsumer) {
  // With a bigger node1 the walk takes node4's branch first: data, node2, …, node4, variable,
  // node1, node5. node1 and node2 already sit right before their consumers: nothing moves.
  EXPECT_EQ(SortedNames(DelayExample(/*node1_bytes=*/64).graph(), kRdfs),
            (Names{"data", "node2", "node3", "node4", "variable", "node1", "node5"}));
}

TEST(TopoSort, RdfsDelaysAChainOfSingleInputNodes) {
  // variable → node1 → node1b → node5, x ctrl→ node1b, data → node2 → node3 → node4 → node5.
  // Walk: variable, node1, x, node1b, data, node2, node3, node4, node5 (node1 is smaller than x).
  // node1 moves to node1b; node1b has a single data input, so [node1, node1b] moves on to node5.
  TopoGraph b("delay_chain");
  b.AddNode("node5", "Op", /*num_inputs=*/2);
  b.AddSource("x", "Op", /*bytes=*/8);
  b.AddNode("node1b", "Op");
  b.AddNode("node1", "Op");
  b.AddSource("data", "Data");
  b.AddSource("variable", "Variable");
  for (const char* name : {"node2", "node3", "node4"}) b.AddNode(name, "Op");
  b.Chain({"variable", "node1", "node1b", "node5"});
  b.Ctrl("x", "node1b");
  b.Chain({"data", "node2", "node3", "node4", "node5"});
  EXPECT_EQ(SortedNames(b.graph(), kRdfs), (Names{"variable", "x", "data", "node2", "node3",
                                                  "node4", "node1", "node1b", "node5"}));
}

// ---------------------------------------------------------------------------------------------
// Every mode on hand-made graphs

// A diamond with a Const, a control edge, a data-to-control edge and a multi-output node.
TopoGraph MixedGraph() {
  TopoGraph b("mixed");
  b.AddNode("out", "NetOutput", /*num_inputs=*/2, {});
  b.AddNode("add", "Add", /*num_inputs=*/2);
  b.AddNode("split", "Split", /*num_inputs=*/1, {8, 16});
  b.AddSource("w", "Const", /*bytes=*/64);
  b.AddNode("mul", "Mul", /*num_inputs=*/2, {32});
  b.AddNode("relu", "Relu", /*num_inputs=*/1, {8});
  b.AddSource("in", "Data", /*bytes=*/16);
  b.AddNode("noop", "NoOp", /*num_inputs=*/0, {});
  b.Data("in", "split");
  b.Data("split", 0, "mul", 0);
  b.Data("w", 0, "mul", 1);
  b.Data("split", 1, "relu", 0);
  b.Data("mul", "add");
  b.Data("relu", "add");
  b.Data("add", "out");
  b.Data("relu", "out");
  b.Ctrl("mul", "noop");
  b.DataToCtrl("relu", 0, "noop");
  b.Ctrl("noop", "out");
  return b;
}

TEST(TopoSort, EveryModeGivesAValidOrderAndResetsIds) {
  for (const auto& mode : AllModes()) {
    TopoGraph b = MixedGraph();
    ScrambleIds(*b.graph());
    Status status = b.graph()->TopologicalSorting(mode.options);
    ASSERT_TRUE(status.ok()) << mode.name << ": " << status.ToString();
    EXPECT_TRUE(IsTopological(*b.graph())) << mode.name;
    EXPECT_TRUE(IdsArePositions(*b.graph())) << mode.name;
  }
}

TEST(TopoSort, EveryModeSortsEmptyAndSingleNodeGraphs) {
  for (const auto& mode : AllModes()) {
    auto empty = std::make_shared<ComputeGraph>("empty");
    EXPECT_TRUE(empty->TopologicalSorting(mode.options).ok()) << mode.name;
    TopoGraph b("single");
    b.AddSource("only", "Op");
    ScrambleIds(*b.graph());
    EXPECT_EQ(SortedNames(b.graph(), mode.options), (Names{"only"})) << mode.name;
    EXPECT_TRUE(IdsArePositions(*b.graph())) << mode.name;
  }
}

// ---------------------------------------------------------------------------------------------
// Loops

// A While loop: data → enter → merge → {cond → loop_cond, switch}; switch:1 → body → next →
// merge:1 (the back-edge); switch:0 → exit → out.
TopoGraph WhileLoop(const std::string& next_type, const std::string& merge_type) {
  TopoGraph b("while");
  b.AddNode("out", "NetOutput", /*num_inputs=*/1, {});
  b.AddNode("next", next_type);
  b.AddNode("body", "Add");
  b.AddNode("switch", "Switch", /*num_inputs=*/2, {4, 4});
  b.AddNode("merge", merge_type, /*num_inputs=*/2, {4, 4});
  b.AddNode("enter", "Enter");
  b.AddSource("data", "Data");
  b.AddNode("cond", "Less");
  b.AddNode("loop_cond", "LoopCond");
  b.AddNode("exit", "Exit");
  b.Chain({"data", "enter", "merge"});
  b.Chain({"merge", "cond", "loop_cond"});
  b.Data("merge", 0, "switch", 0);
  b.Data("loop_cond", 0, "switch", 1);
  b.Data("switch", 1, "body", 0);
  b.Chain({"body", "next", "merge"});  // into merge:1
  b.Data("switch", 0, "exit", 0);
  b.Chain({"exit", "out"});
  return b;
}

TEST(TopoSort, LoopBackEdgesFromNextIterationAreNotCounted) {
  for (const auto& mode : AllModes()) {
    const std::vector<std::pair<std::string, std::string>> loop_types = {
        {"NextIteration", "Merge"}, {"RefNextIteration", "RefMerge"}};
    for (const auto& [next_type, merge_type] : loop_types) {
      TopoGraph b = WhileLoop(next_type, merge_type);
      Status status = b.graph()->TopologicalSorting(mode.options);
      ASSERT_TRUE(status.ok()) << mode.name << " " << next_type << ": " << status.ToString();
      EXPECT_TRUE(IsTopological(*b.graph())) << mode.name << " " << next_type;
      const Names names = DirectNames(*b.graph());
      const auto pos = [&](const std::string& name) {
        return std::find(names.begin(), names.end(), name) - names.begin();
      };
      EXPECT_LT(pos("merge"), pos("next")) << mode.name << ": the back-edge goes backwards";
    }
  }
}

TEST(TopoSort, OtherEdgesIntoMergeStillCloseACycle) {
  for (const auto& mode : AllModes()) {
    TopoGraph b = WhileLoop("Identity", "Merge");
    Status status = b.graph()->TopologicalSorting(mode.options);
    EXPECT_EQ(status.code(), StatusCode::kFailed) << mode.name;
    EXPECT_NE(status.message().find("merge"), std::string::npos) << status.message();
  }
}

// ---------------------------------------------------------------------------------------------
// Cycles

struct CycleCase {
  std::string name;
  std::function<TopoGraph()> build;
  Names on_cycle;
};

std::vector<CycleCase> CycleCases() {
  std::vector<CycleCase> cases;
  cases.push_back({"data cycle between a source and a sink",
                   [] {
                     TopoGraph b("g_data_cycle");
                     b.AddSource("side_in", "Data");
                     b.AddNode("cyc_a", "Op", /*num_inputs=*/2);
                     b.AddNode("cyc_b", "Op");
                     b.AddNode("cyc_c", "Op");
                     b.AddNode("side_out", "NetOutput", /*num_inputs=*/1, {});
                     b.Data("side_in", "cyc_a");
                     b.Chain({"cyc_a", "cyc_b", "cyc_c", "cyc_a"});
                     b.Data("cyc_c", "side_out");
                     return b;
                   },
                   {"cyc_a", "cyc_b", "cyc_c"}});
  cases.push_back({"two-node cycle with a side output",
                   [] {
                     TopoGraph b("g_two_with_output");
                     b.AddNode("cyc_a", "Op");
                     b.AddNode("cyc_b", "Op", /*num_inputs=*/1, {4, 4});
                     b.AddNode("side_c", "Op");
                     b.Data("cyc_a", 0, "cyc_b", 0);
                     b.Data("cyc_b", 0, "cyc_a", 0);
                     b.Data("cyc_b", 1, "side_c", 0);
                     return b;
                   },
                   {"cyc_a", "cyc_b"}});
  cases.push_back({"two-node cycle not reachable from any sink",
                   [] {
                     TopoGraph b("g_unreachable");
                     b.AddSource("side_in", "Data");
                     b.AddNode("cyc_a", "Op");
                     b.AddNode("cyc_b", "Op");
                     b.AddNode("side_out", "Op");
                     b.Chain({"side_in", "side_out"});
                     b.Chain({"cyc_a", "cyc_b", "cyc_a"});
                     return b;
                   },
                   {"cyc_a", "cyc_b"}});
  cases.push_back({"self-loop through a control edge",
                   [] {
                     TopoGraph b("g_ctrl_self_loop");
                     b.AddSource("side_in", "Data");
                     b.AddNode("cyc_a", "Op");
                     b.AddNode("side_out", "Op");
                     b.Chain({"side_in", "cyc_a", "side_out"});
                     b.Ctrl("cyc_a", "cyc_a");
                     return b;
                   },
                   {"cyc_a"}});
  cases.push_back({"self-loop through a data edge",
                   [] {
                     TopoGraph b("g_data_self_loop");
                     b.AddNode("cyc_a", "Op");
                     b.AddSource("side_in", "Data");
                     b.Data("cyc_a", "cyc_a");
                     b.Ctrl("side_in", "cyc_a");
                     return b;
                   },
                   {"cyc_a"}});
  cases.push_back({"cycle through control edges only",
                   [] {
                     TopoGraph b("g_ctrl_cycle");
                     b.AddSource("side_in", "Data");
                     b.AddNode("cyc_a", "Op");
                     b.AddNode("cyc_b", "Op", /*num_inputs=*/0);
                     b.AddNode("cyc_c", "Op", /*num_inputs=*/0);
                     b.AddNode("side_out", "Op");
                     b.Data("side_in", "cyc_a");
                     b.Ctrl("cyc_a", "cyc_b");
                     b.Ctrl("cyc_b", "cyc_c");
                     b.Ctrl("cyc_c", "cyc_a");
                     b.Data("cyc_c", "side_out");
                     return b;
                   },
                   {"cyc_a", "cyc_b", "cyc_c"}});
  cases.push_back({"cycle through a data-to-control edge",
                   [] {
                     TopoGraph b("g_data_to_ctrl");
                     b.AddNode("cyc_b", "Op");
                     b.AddNode("cyc_a", "Op", /*num_inputs=*/0);
                     b.Data("cyc_a", "cyc_b");
                     b.DataToCtrl("cyc_b", 0, "cyc_a");
                     return b;
                   },
                   {"cyc_a", "cyc_b"}});
  return cases;
}

TEST(TopoSort, DetectsCycleInEveryMode) {
  for (const auto& cycle : CycleCases()) {
    for (const auto& mode : AllModes()) {
      SCOPED_TRACE(cycle.name + " / " + mode.name);
      TopoGraph b = cycle.build();
      const ComputeGraphPtr& graph = b.graph();
      ScrambleIds(*graph);
      const std::vector<NodePtr> nodes_before = graph->GetDirectNode();
      const std::vector<int64_t> ids_before = Ids(nodes_before);

      Status status = graph->TopologicalSorting(mode.options);

      EXPECT_EQ(status.code(), StatusCode::kFailed);
      const std::string& message = status.message();
      EXPECT_NE(message.find("'" + graph->GetName() + "'"), std::string::npos) << message;
      for (const auto& name : cycle.on_cycle) {
        EXPECT_NE(message.find(name), std::string::npos) << name << " in: " << message;
      }
      EXPECT_EQ(message.find("side_"), std::string::npos) << "names an off-cycle node: " << message;
      EXPECT_EQ(graph->GetDirectNode(), nodes_before);
      EXPECT_EQ(Ids(graph->GetDirectNode()), ids_before);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Subgraphs

// root: in → if_node → out (added out, if_node, in). if_node has subgraphs then_sg and else_sg;
// then_sg's t_b has inner_sg. Each subgraph is added in reverse order: y before x, x → y.
struct Hierarchy {
  TopoGraph root{"root"};
  TopoGraph then_sg{"then_sg"};
  TopoGraph else_sg{"else_sg"};
  TopoGraph inner_sg{"inner_sg"};
};

/// Registers `sub` on `root` as subgraph slot `index` of `parent` (the slot must be declared).
void AttachSubgraph(const NodePtr& parent, uint32_t index, const TopoGraph& sub,
                    const ComputeGraphPtr& root) {
  ASSERT_TRUE(
      parent->GetOpDescBarePtr()->SetSubgraphInstanceName(index, sub.graph()->GetName()).ok());
  sub.graph()->SetParentGraph(parent->GetOwnerComputeGraph());
  sub.graph()->SetParentNode(parent);
  Status status = root->AddSubgraph(sub.graph()->GetName(), sub.graph());
  ASSERT_TRUE(status.ok()) << status.ToString();
}

std::unique_ptr<Hierarchy> MakeHierarchy() {
  auto h = std::make_unique<Hierarchy>();
  h->root.AddNode("out", "NetOutput", /*num_inputs=*/1, {});
  h->root.AddNode("if_node", "If");
  h->root.AddSource("in", "Data");
  h->root.Chain({"in", "if_node", "out"});
  h->then_sg.AddNode("t_b", "If");
  h->then_sg.AddSource("t_a", "Op");
  h->then_sg.Chain({"t_a", "t_b"});
  h->else_sg.AddNode("e_b", "Op");
  h->else_sg.AddSource("e_a", "Op");
  h->else_sg.Chain({"e_a", "e_b"});
  h->inner_sg.AddNode("i_y", "Op");
  h->inner_sg.AddSource("i_x", "Op");
  h->inner_sg.Chain({"i_x", "i_y"});
  const ComputeGraphPtr& root = h->root.graph();
  const NodePtr if_node = h->root.Get("if_node");
  EXPECT_TRUE(if_node->GetOpDescBarePtr()->AddSubgraphName("then_branch").ok());
  EXPECT_TRUE(if_node->GetOpDescBarePtr()->AddSubgraphName("else_branch").ok());
  const NodePtr t_b = h->then_sg.Get("t_b");
  EXPECT_TRUE(t_b->GetOpDescBarePtr()->AddSubgraphName("body").ok());
  // Registration order (else, then, inner) differs from GetAllNodes() order on purpose.
  AttachSubgraph(if_node, 1, h->else_sg, root);
  AttachSubgraph(if_node, 0, h->then_sg, root);
  AttachSubgraph(t_b, 0, h->inner_sg, root);
  return h;
}

void ScrambleAllIds(const Hierarchy& h) {
  for (const auto* b : {&h.root, &h.then_sg, &h.else_sg, &h.inner_sg}) ScrambleIds(*b->graph());
}

TEST(TopoSort, SortsSubgraphsAndNumbersIdsAcrossTheHierarchy) {
  for (const auto& mode : AllModes()) {
    SCOPED_TRACE(mode.name);
    auto h = MakeHierarchy();
    ScrambleAllIds(*h);

    Status status = h->root.graph()->TopologicalSorting(mode.options);

    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(NamesOf(h->root.graph()->GetAllNodes()),
              (Names{"in", "if_node", "t_a", "t_b", "i_x", "i_y", "e_a", "e_b", "out"}));
    EXPECT_TRUE(IdsArePositions(*h->root.graph()));
  }
}

TEST(TopoSort, LeavesEveryGraphUnchangedWhenASubgraphHasACycle) {
  for (const auto& mode : AllModes()) {
    SCOPED_TRACE(mode.name);
    auto h = MakeHierarchy();
    const ComputeGraphPtr& root = h->root.graph();
    h->inner_sg.Ctrl("i_y", "i_x");  // i_x → i_y → i_x
    ScrambleAllIds(*h);
    const std::vector<NodePtr> root_before = root->GetDirectNode();
    const std::vector<NodePtr> else_before = h->else_sg.graph()->GetDirectNode();
    const std::vector<NodePtr> inner_before = h->inner_sg.graph()->GetDirectNode();
    const std::vector<int64_t> root_ids = Ids(root_before);
    const std::vector<int64_t> else_ids = Ids(else_before);
    const std::vector<int64_t> inner_ids = Ids(inner_before);

    Status status = root->TopologicalSorting(mode.options);

    EXPECT_EQ(status.code(), StatusCode::kFailed);
    EXPECT_NE(status.message().find("'inner_sg'"), std::string::npos) << status.message();
    EXPECT_NE(status.message().find("i_x"), std::string::npos) << status.message();
    EXPECT_EQ(inner_before, h->inner_sg.graph()->GetDirectNode());
    EXPECT_EQ(inner_ids, Ids(h->inner_sg.graph()->GetDirectNode()));
    // The documented contract: a failed sort leaves the order unchanged — of every graph.
    EXPECT_EQ(NamesOf(root_before), DirectNames(*root));
    EXPECT_EQ(root_ids, Ids(root->GetDirectNode()));
    EXPECT_EQ(NamesOf(else_before), DirectNames(*h->else_sg.graph()));
    EXPECT_EQ(else_ids, Ids(h->else_sg.graph()->GetDirectNode()));
  }
}

// ---------------------------------------------------------------------------------------------
// Options

TEST(TopoSortOptions, FromOptionsSelectsTheMode) {
  const std::map<std::string, TopoSortingMode> modes = {{"0", TopoSortingMode::kBFS},
                                                        {"1", TopoSortingMode::kDFS},
                                                        {"2", TopoSortingMode::kRDFS},
                                                        {"3", TopoSortingMode::kStableRDFS}};
  for (const auto& [value, mode] : modes) {
    auto options = TopoSortOptions::FromOptions({{"ge.topoSortingMode", value}});
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    EXPECT_EQ(options->mode, mode) << value;
    EXPECT_FALSE(options->memory_priority);
  }
  // The mode wins over the run-mode default.
  auto explicit_dfs =
      TopoSortOptions::FromOptions({{"ge.topoSortingMode", "1"}, {"ge.graphRunMode", "1"}});
  ASSERT_TRUE(explicit_dfs.ok());
  EXPECT_EQ(explicit_dfs->mode, TopoSortingMode::kDFS);
}

TEST(TopoSortOptions, AbsentModeIsBfsForTrainingAndDfsOtherwise) {
  auto inference = TopoSortOptions::FromOptions({});
  ASSERT_TRUE(inference.ok());
  EXPECT_EQ(inference->mode, TopoSortingMode::kDFS);
  EXPECT_FALSE(inference->memory_priority);
  auto empty_value = TopoSortOptions::FromOptions({{"ge.topoSortingMode", ""}});
  ASSERT_TRUE(empty_value.ok());
  EXPECT_EQ(empty_value->mode, TopoSortingMode::kDFS);
  auto training = TopoSortOptions::FromOptions({{"ge.graphRunMode", "1"}});
  ASSERT_TRUE(training.ok());
  EXPECT_EQ(training->mode, TopoSortingMode::kBFS);
}

TEST(TopoSortOptions, MemoryPriorityPolicyTurnsOnMemoryPriority) {
  auto options = TopoSortOptions::FromOptions(
      {{"ge.topoSortingMode", "0"}, {"ge.exec.memoryOptimizationPolicy", "MemoryPriority"}});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->mode, TopoSortingMode::kBFS);
  EXPECT_TRUE(options->memory_priority);
  auto empty = TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", ""}});
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->memory_priority);
}

TEST(TopoSortOptions, RejectsBadValuesNamingTheOption) {
  for (const char* bad : {"4", "-1", "01", "bfs", " 0"}) {
    auto options = TopoSortOptions::FromOptions({{"ge.topoSortingMode", bad}});
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_EQ(options.status().code(), StatusCode::kParamInvalid);
    EXPECT_NE(options.status().message().find("ge.topoSortingMode"), std::string::npos);
    EXPECT_NE(options.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << options.status().message();
  }
  auto policy = TopoSortOptions::FromOptions({{"ge.exec.memoryOptimizationPolicy", "Fast"}});
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), StatusCode::kParamInvalid);
  EXPECT_NE(policy.status().message().find("ge.exec.memoryOptimizationPolicy"), std::string::npos);
}

TEST(TopoSortOptions, ParsedOptionsDriveTheSort) {
  auto bfs = TopoSortOptions::FromOptions({{"ge.topoSortingMode", "0"}});
  auto dfs = TopoSortOptions::FromOptions({{"ge.topoSortingMode", "1"}});
  auto memory = TopoSortOptions::FromOptions(
      {{"ge.topoSortingMode", "0"}, {"ge.exec.memoryOptimizationPolicy", "MemoryPriority"}});
  ASSERT_TRUE(bfs.ok() && dfs.ok() && memory.ok());
  EXPECT_EQ(SortedNames(FanOutFanIn().graph(), *bfs), (Names{"in", "a", "b", "c", "sink"}));
  EXPECT_EQ(SortedNames(FanOutFanIn().graph(), *dfs), (Names{"in", "c", "a", "b", "sink"}));
  TopoGraph b("memory_from_options");
  b.AddSource("in", "Data");
  b.AddNode("x", "Op", /*num_inputs=*/1, {1000});
  b.AddNode("y", "Op", /*num_inputs=*/1, {4});
  b.Data("in", "x");
  b.Data("in", "y");
  EXPECT_EQ(SortedNames(b.graph(), *memory), (Names{"in", "y", "x"}));
}

// ---------------------------------------------------------------------------------------------
// Property tests on random DAGs

/// A random DAG: nodes in generation (topological) order. Sources are Data/Const/Variable/Op;
/// other nodes take 1–3 data inputs from earlier outputs (mostly nearby, sometimes far, sometimes
/// from a few hubs, for fan-out) plus one spare unlinked input, and some take a control edge.
/// Names are "n<k>_" with k a permutation of the indices, so name order is not generation order
/// and no name is a substring of another.
struct RandomDag {
  ComputeGraphPtr graph;
  std::vector<NodePtr> nodes;
};

RandomDag MakeRandomDag(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](size_t bound) {  // [0, bound)
    return static_cast<size_t>(std::uniform_int_distribution<size_t>(0, bound - 1)(rng));
  };
  RandomDag dag{
      std::make_shared<ComputeGraph>("random_" + std::to_string(n) + "_" + std::to_string(seed)),
      {}};
  std::vector<size_t> label(n);
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), rng);
  static const char* kSourceTypes[] = {"Data", "Const", "Variable", "Op"};
  static const int64_t kBytes[] = {4, 16, 64, 256, 4096};
  const size_t num_hubs = std::clamp<size_t>(n / 4, 1, 4);
  GraphBuilder builder(dag.graph);
  dag.nodes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    // The last node is never a source, so every DAG of two or more nodes has an edge.
    const bool source = i < num_hubs || (i + 1 < n && uniform(10) == 0);
    const size_t num_inputs = source ? 0 : 1 + uniform(3);
    const std::string type = source ? kSourceTypes[uniform(4)] : "Op";
    const std::vector<GeTensorDesc> inputs(num_inputs + (source ? 0 : 1), TensorOfBytes(4));
    std::vector<GeTensorDesc> outputs(1 + uniform(2));
    for (GeTensorDesc& output : outputs) output = TensorOfBytes(kBytes[uniform(5)]);
    auto node = builder.AddNode("n" + std::to_string(label[i]) + "_", type, inputs, outputs);
    EXPECT_TRUE(IsOk(node));
    if (!node.ok()) return dag;
    for (size_t k = 0; k < num_inputs; ++k) {
      const size_t pick = uniform(10);
      size_t j;
      if (pick < 6) {
        j = i - 1 - uniform(std::min<size_t>(i, 16));  // nearby: long paths
      } else if (pick < 8) {
        j = uniform(i);  // anywhere earlier
      } else {
        j = uniform(num_hubs);  // a hub: fan-out
      }
      const NodePtr& src = dag.nodes[j];
      const int out = static_cast<int>(uniform(src->GetAllOutDataAnchorsSize()));
      EXPECT_TRUE(IsOk(builder.AddDataEdge({src, out}, node.value(), static_cast<int>(k))));
    }
    if (i > 0 && uniform(5) == 0) {
      const NodePtr& src = dag.nodes[uniform(i)];
      if (!src->GetOutControlAnchor()->IsLinkedWith(node.value()->GetInControlAnchor())) {
        EXPECT_TRUE(IsOk(builder.AddControlEdge(src, node.value())));
      }
    }
    dag.nodes.push_back(node.value());
  }
  return dag;
}

void Shuffle(const ComputeGraphPtr& graph, std::mt19937& rng) {
  std::vector<NodePtr> order = graph->GetDirectNode();
  std::shuffle(order.begin(), order.end(), rng);
  ASSERT_TRUE(graph->ReorderNodes(order).ok());
}

/// Adds one edge that closes a cycle: from the end of a random forward path back to its start,
/// into the start's spare data input or (for sources, or when `control`) as a control edge.
/// Returns the names of the start and the end.
std::pair<std::string, std::string> AddBackEdge(const RandomDag& dag, std::mt19937& rng,
                                                bool control) {
  std::vector<NodePtr> with_successors;
  for (const auto& node : dag.nodes) {
    if (!node->GetOutNodes().empty()) with_successors.push_back(node);
  }
  if (with_successors.empty()) {
    ADD_FAILURE() << "no edge to close a cycle with";
    return {};
  }
  const NodePtr start = with_successors[rng() % with_successors.size()];
  NodePtr end = start;
  const size_t steps = 1 + rng() % 20;
  for (size_t s = 0; s < steps; ++s) {
    const std::vector<NodePtr> next = end->GetOutNodes();
    if (next.empty()) break;
    end = next[rng() % next.size()];
  }
  const size_t num_in = start->GetAllInDataAnchorsSize();
  if (!control && num_in > 0 &&
      start->GetInDataAnchor(static_cast<int>(num_in) - 1)->GetPeerAnchorsSize() == 0) {
    EXPECT_TRUE(
        IsOk(GraphBuilder(dag.graph).AddDataEdge(end, start, static_cast<int>(num_in) - 1)));
  } else {
    EXPECT_TRUE(IsOk(GraphBuilder(dag.graph).AddControlEdge(end, start)));
  }
  return {start->GetName(), end->GetName()};
}

struct DagSize {
  size_t nodes;
  uint32_t seeds;
};

std::vector<DagSize> DagSizes() {
  return {{1, 3}, {2, 5}, {5, 20}, {30, 20}, {200, 10}, {1000, 4}, {10000, 2}};
}

TEST(TopoSortProperty, EveryModeOrdersRandomDagsValidly) {
  for (const auto& size : DagSizes()) {
    for (uint32_t seed = 1; seed <= size.seeds; ++seed) {
      RandomDag dag = MakeRandomDag(size.nodes, seed);
      std::mt19937 rng(static_cast<std::mt19937::result_type>(seed * 7919U));
      // The generation order is valid: StableRDFS keeps it.
      ASSERT_TRUE(dag.graph->TopologicalSorting(kStableRdfs).ok());
      ASSERT_EQ(dag.graph->GetDirectNode(), dag.nodes) << dag.graph->GetName();
      for (const auto& mode : AllModes()) {
        SCOPED_TRACE(dag.graph->GetName() + " / " + mode.name);
        Shuffle(dag.graph, rng);
        ScrambleIds(*dag.graph);
        Status status = dag.graph->TopologicalSorting(mode.options);
        ASSERT_TRUE(status.ok()) << status.ToString();
        ASSERT_TRUE(IsTopological(*dag.graph, dag.nodes));
        ASSERT_TRUE(IdsArePositions(*dag.graph));
        // A sorted order is valid, so StableRDFS keeps it too.
        const std::vector<NodePtr> sorted = dag.graph->GetDirectNode();
        ASSERT_TRUE(dag.graph->TopologicalSorting(kStableRdfs).ok());
        ASSERT_EQ(dag.graph->GetDirectNode(), sorted);
      }
    }
  }
}

TEST(TopoSortProperty, OneBackEdgeIsReportedAsACycleInEveryMode) {
  for (const auto& size : DagSizes()) {
    if (size.nodes < 2) continue;
    for (uint32_t seed = 1; seed <= size.seeds; ++seed) {
      RandomDag dag = MakeRandomDag(size.nodes, seed);
      std::mt19937 rng(static_cast<std::mt19937::result_type>(seed * 104729U));
      const auto [start, end] = AddBackEdge(dag, rng, /*control=*/seed % 2 == 0);
      Shuffle(dag.graph, rng);
      ScrambleIds(*dag.graph);
      const std::vector<NodePtr> before = dag.graph->GetDirectNode();
      const std::vector<int64_t> ids_before = Ids(before);
      for (const auto& mode : AllModes()) {
        SCOPED_TRACE(dag.graph->GetName() + " / " + mode.name + ": " + end + " -> " + start);
        Status status = dag.graph->TopologicalSorting(mode.options);
        ASSERT_EQ(status.code(), StatusCode::kFailed);
        // Every cycle goes through the new edge, so the reported one names both its ends.
        EXPECT_NE(status.message().find("'" + dag.graph->GetName() + "'"), std::string::npos)
            << status.message();
        EXPECT_NE(status.message().find(start), std::string::npos) << status.message();
        EXPECT_NE(status.message().find(end), std::string::npos) << status.message();
        ASSERT_EQ(dag.graph->GetDirectNode(), before);
        ASSERT_EQ(Ids(dag.graph->GetDirectNode()), ids_before);
      }
    }
  }
}

}  // namespace
}  // namespace ge

// ComputeGraph: the nodes of one graph in order, its inputs and outputs, and (on the root graph)
// every subgraph of the hierarchy.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/fwd.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// GE's topological sorting modes (option `ge.topoSortingMode`).
enum class TopoSortingMode : int32_t {
  kBFS = 0,
  kDFS = 1,
  kRDFS = 2,
  kStableRDFS = 3,
};

/// Which ready node the memory-priority sort takes first.
enum class MemoryPriorityKey : int32_t {
  /// Fewer data consumers, then smaller output bytes, then name: GE's NodeOutInfo order, the one
  /// its MemoryPriority policy sorts with.
  kFewerConsumers = 0,
  /// Larger output bytes, then fewer data consumers, then name: GE's NodeCmp order (the node
  /// holding the most memory runs, and so frees its inputs, first).
  kLargerOutputs = 1,
};

/// How deeply subgraphs may nest: the root graph is level 0, a subgraph of one of its nodes level
/// 1, a subgraph of a node of that subgraph level 2, and so on. Every loader (GE graph files, the
/// .om, ONNX, GE's graph API) and the compiler's check of its input refuse a deeper hierarchy,
/// naming the level, the limit and the node, so that the code which recurses once per level (the
/// dynamic executor, the passes, the graph walks) runs in a bounded stack. Models nest a few
/// levels (an If inside a Loop inside a Scan); an ONNX file cannot nest much deeper in any case,
/// since each body level takes three protobuf message levels and protobuf stops at 100.
inline constexpr int kMaxSubgraphDepth = 32;

/// How TopologicalSorting orders nodes. Build from GE's option strings with FromOptions.
struct GE_API TopoSortOptions {
  TopoSortingMode mode = TopoSortingMode::kDFS;
  /// Kahn's queue ordered by `memory_key` (BFS/DFS only).
  bool memory_priority = false;
  MemoryPriorityKey memory_key = MemoryPriorityKey::kFewerConsumers;

  /// Reads `ge.topoSortingMode` (0–3; absent → BFS for training graphs, i.e.
  /// `ge.graphRunMode` = 1, DFS otherwise) and `ge.exec.memoryOptimizationPolicy`
  /// ("MemoryPriority" or absent/empty) and `openge.memoryPriorityKey` ("consumers", the
  /// default, or "output-size"). A bad value is an error naming the option.
  static Result<TopoSortOptions> FromOptions(const std::map<std::string, std::string>& options);
};

GE_API const char* TopoSortingModeName(TopoSortingMode mode);
/// "MemoryPriority" (fewer consumers first) or "MemoryPriority(larger outputs)".
GE_API std::string MemoryPriorityName(MemoryPriorityKey key);

class GE_API ComputeGraph : public AttrHolder, public std::enable_shared_from_this<ComputeGraph> {
 public:
  explicit ComputeGraph(std::string name);
  ~ComputeGraph();
  ComputeGraph(const ComputeGraph&) = delete;
  ComputeGraph& operator=(const ComputeGraph&) = delete;

  const std::string& GetName() const;
  void SetName(std::string name);

  // ---- nodes ----
  /// Appends a node for `op_desc`; its id becomes the number of direct nodes before it (GE's
  /// rule), or one past the last id given when nodes were removed, so ids stay unique.
  /// Data-like nodes (Data, RefData, AippData, AnnData) also join the input list.
  /// A null OpDesc or a name already used in this graph is refused.
  Result<NodePtr> AddNode(const OpDescPtr& op_desc);
  /// Appends an existing node (created for this graph with Node::Create).
  Result<NodePtr> AddNode(const NodePtr& node);
  /// Inserts after a leading Data node if there is one, else at the front.
  Result<NodePtr> AddNodeFront(const OpDescPtr& op_desc);
  /// Inserts right after `node`.
  Result<NodePtr> InsertNode(const NodePtr& node, const OpDescPtr& op_desc);
  /// Inserts `op_descs` right after `node`, in order.
  Result<std::vector<NodePtr>> InsertNodes(const NodePtr& node,
                                           const std::vector<OpDescPtr>& op_descs);
  /// Inserts right before `node`.
  Result<NodePtr> InsertNodeBefore(const NodePtr& node, const OpDescPtr& op_desc);
  /// Removes `node` with GE's semantics: its Const inputs are unlinked (and a Const left with no
  /// consumer is removed too), it leaves the input/output lists, and its out-edges move to its
  /// first non-Const data producer (data edges) and to every producer and control predecessor
  /// (control edges) before it is erased. O(degree).
  Status RemoveNode(const NodePtr& node);
  /// Erases `node` from the node list only (no edge changes; GE's RemoveJustNode).
  Status RemoveJustNode(const NodePtr& node);
  bool HasNode(const Node* node) const;

  /// Direct nodes in order.
  std::vector<NodePtr> GetDirectNode() const;
  std::vector<Node*> GetDirectNodePtr() const;
  size_t GetDirectNodesSize() const;
  /// Every node: each node is followed by the nodes of its subgraphs (recursively, in the order of
  /// the node's subgraph instance names).
  std::vector<NodePtr> GetAllNodes() const;
  size_t GetAllNodesSize() const;
  /// A direct node by name, or nullptr.
  NodePtr FindNode(const std::string& name) const;
  /// A direct node by id, or nullptr (linear).
  NodePtr FindNodeById(int64_t id) const;
  /// Looks in this graph and all its subgraphs.
  NodePtr FindNodeInAllGraphs(const std::string& name) const;

  // ---- inputs and outputs ----
  const std::vector<NodePtr>& GetInputNodes() const;
  Status AddInputNode(const NodePtr& node);
  void RemoveInputNode(const NodePtr& node);
  /// Output nodes with the index of the output used.
  const std::vector<std::pair<NodePtr, int32_t>>& GetGraphOutNodesInfo() const;
  void SetGraphOutNodesInfo(std::vector<std::pair<NodePtr, int32_t>> info);
  Status AddOutputNode(const NodePtr& node, int32_t index = 0);
  void RemoveOutputNode(const NodePtr& node);

  // ---- subgraphs ----
  /// Registers `subgraph` under `name` on the root graph. The subgraph's parent graph and parent
  /// node must be set, the parent node must belong to the parent graph, and the name be unique.
  Status AddSubgraph(const std::string& name, const ComputeGraphPtr& subgraph);
  Status AddSubgraph(const ComputeGraphPtr& subgraph);  ///< under the subgraph's own name
  /// Looks the name up on the root graph; nullptr when absent.
  ComputeGraphPtr GetSubgraph(const std::string& name) const;
  void RemoveSubgraph(const std::string& name);
  /// Every subgraph registered on the root, in registration order.
  std::vector<ComputeGraphPtr> GetAllSubgraphs() const;
  void ClearAllSubgraphs();
  ComputeGraphPtr GetParentGraph() const;
  ComputeGraph* GetParentGraphBarePtr() const;
  void SetParentGraph(const ComputeGraphPtr& parent);
  NodePtr GetParentNode() const;
  void SetParentNode(const NodePtr& parent);
  /// The graph at the top of the parent chain (this graph when it has no parent).
  ComputeGraphPtr GetRootGraph();

  // ---- sorting ----
  /// Orders the direct nodes (and every subgraph's) and resets node ids to positions, running
  /// 0..N-1 across GetAllNodes() order. Fails on a cycle, naming the graph and the nodes on it,
  /// and leaves the order unchanged.
  Status TopologicalSorting(const TopoSortOptions& options = {});
  /// Sorts only this graph's direct nodes (no subgraphs, no id reset across the hierarchy).
  Status TopologicalSortingGraph(const TopoSortOptions& options = {});
  /// Replaces the node order with `order`, which must hold exactly the direct nodes.
  Status ReorderNodes(const std::vector<NodePtr>& order);

  /// Hint from whoever built the graph: true for training graphs (default BFS sort).
  bool IsTrainingGraph() const;
  void SetTrainingGraph(bool training);

  /// "graph 'name' (N nodes)".
  std::string DebugString() const;

 private:
  friend class Node;
  friend class GraphUtils;
  friend class OpDesc;
  /// Keeps the name index right when a node's OpDesc is renamed.
  void OnNodeRenamed(const Node& node, const std::string& old_name);
  /// Puts the direct nodes in `sorted` order and resets their ids to positions.
  Status ApplyTopoOrder(const std::vector<NodePtr>& sorted);
  Result<NodePtr> PlaceNode(const OpDescPtr& op_desc, const Node* anchor, bool before);
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

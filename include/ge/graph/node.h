// Node: an OpDesc placed in a graph, with one anchor per input and output and one control anchor
// each way.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/anchor.h"
#include "ge/graph/fwd.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API Node : public std::enable_shared_from_this<Node> {
 public:
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  /// Creates a node owned by `graph` (not yet in its node list) with anchors made from the OpDesc.
  /// ComputeGraph::AddNode is the usual way; this is for graph-construction utilities.
  static Result<NodePtr> Create(const OpDescPtr& op_desc, const ComputeGraphPtr& graph);

  const std::string& GetName() const;
  const std::string& GetType() const;
  OpDescPtr GetOpDesc() const;
  OpDesc* GetOpDescBarePtr() const;
  ComputeGraphPtr GetOwnerComputeGraph() const;
  ComputeGraph* GetOwnerComputeGraphBarePtr() const;
  void SetOwnerComputeGraph(const ComputeGraphPtr& graph);

  // ---- anchors ----
  const std::vector<InDataAnchorPtr>& GetAllInDataAnchors() const;
  const std::vector<OutDataAnchorPtr>& GetAllOutDataAnchors() const;
  size_t GetAllInDataAnchorsSize() const;
  size_t GetAllOutDataAnchorsSize() const;
  InDataAnchorPtr GetInDataAnchor(int idx) const;    ///< nullptr when out of range
  OutDataAnchorPtr GetOutDataAnchor(int idx) const;  ///< nullptr when out of range
  InDataAnchor* GetInDataAnchorBarePtr(int idx) const;
  OutDataAnchor* GetOutDataAnchorBarePtr(int idx) const;
  const InControlAnchorPtr& GetInControlAnchor() const;
  const OutControlAnchorPtr& GetOutControlAnchor() const;
  /// Every in anchor: data anchors then the control anchor.
  std::vector<AnchorPtr> GetAllInAnchors() const;
  std::vector<AnchorPtr> GetAllOutAnchors() const;

  /// Re-creates anchors to match the OpDesc after inputs/outputs were appended to it. Existing
  /// anchors (and their links) are kept; extra anchors are only removed when unlinked.
  Status UpdateAnchorsFromOpDesc();
  /// Appends one in/out data anchor (after OpDesc grew by one).
  void AppendInDataAnchor();
  void AppendOutDataAnchor();
  /// Removes the in-data anchor at idx (must be unlinked); later anchors' indices shift down.
  Status RemoveInDataAnchor(int idx);

  // ---- neighbours (data peers first, then control peers, as in GE) ----
  std::vector<NodePtr> GetInNodes() const;  ///< data producers then control predecessors
  std::vector<NodePtr> GetInAllNodes() const { return GetInNodes(); }
  std::vector<NodePtr> GetInDataNodes() const;
  std::vector<NodePtr> GetInControlNodes() const;
  std::vector<NodePtr> GetOutNodes() const;  ///< data consumers then control successors
  std::vector<NodePtr> GetOutAllNodes() const { return GetOutNodes(); }
  std::vector<NodePtr> GetOutDataNodes() const;
  std::vector<NodePtr> GetOutControlNodes() const;
  size_t GetOutDataNodesSize() const;
  size_t GetInDataNodesSize() const;
  std::vector<std::pair<NodePtr, OutDataAnchorPtr>> GetInDataNodesAndAnchors() const;
  std::vector<std::pair<NodePtr, InDataAnchorPtr>> GetOutDataNodesAndAnchors() const;

  /// Appends an input to this node's OpDesc (a copy of `input`'s output 0 desc) and links it
  /// from `input`'s output 0 (GE's AddLinkFrom).
  Status AddLinkFrom(const NodePtr& input);
  /// Links input `index` (which must exist) from `input`'s output 0.
  Status AddLinkFrom(uint32_t index, const NodePtr& input);
  /// Links the input called `name`, adding it when absent, from `input`'s output 0.
  Status AddLinkFrom(const std::string& name, const NodePtr& input);

  /// "name(type)".
  std::string DebugString() const;

 private:
  Node();
  Status Init(const OpDescPtr& op_desc, const ComputeGraphPtr& graph);
  friend class ComputeGraph;
  friend class NodeUtils;
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

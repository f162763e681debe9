// NodeUtils: neighbour lookups by index, anchor growth/shrink, and subgraph links of a node.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Attribute on a subgraph's Data node: which input of the parent node it stands for.
inline constexpr char kAttrParentNodeIndex[] = "_parent_node_index";
/// Attribute on a root graph's Data node: the tensor a run uses when the caller gives none for
/// that input (an ONNX initializer that is also a graph input).
inline constexpr char kAttrDefaultValue[] = "_default_value";

class GE_API NodeUtils {
 public:
  NodeUtils() = delete;

  /// The producer of input `idx`, or nullptr.
  static NodePtr GetInDataNodeByIndex(const Node& node, int idx);
  /// Consumers of output `idx` with the anchors they read through.
  static std::vector<std::pair<InDataAnchorPtr, NodePtr>> GetOutDataNodesWithAnchorByIndex(
      const Node& node, int idx);
  /// Const or Constant.
  static bool IsConst(const Node& node);
  /// True for Const-like nodes, with `type` set to the node's type.
  static bool GetConstOpType(const NodePtr& node, std::string& type);

  /// Grows the node (OpDesc and anchors) to `num` inputs; new inputs are DT_UNDEFINED.
  static Status AppendInputAnchor(const NodePtr& node, uint32_t num);
  /// Shrinks the node to `num` inputs; removed inputs must be unlinked.
  static Status RemoveInputAnchor(const NodePtr& node, uint32_t num);
  static Status AppendOutputAnchor(const NodePtr& node, uint32_t num);
  static Status RemoveOutputAnchor(const NodePtr& node, uint32_t num);

  /// The subgraphs of `node`, in instance-name order (missing ones skipped).
  static std::vector<ComputeGraphPtr> GetSubgraphs(const Node& node);
  static ComputeGraphPtr GetSubgraph(const Node& node, uint32_t index);
  /// Attaches `subgraph` as subgraph `index` of `node`: sets the instance name (the subgraph's
  /// name), the parent links, and registers it on the root graph.
  static Status SetSubgraph(const NodePtr& node, uint32_t index, const ComputeGraphPtr& subgraph);
  /// A Data node of a subgraph carrying kAttrParentNodeIndex.
  static bool IsSubgraphInput(const Node& node);
  /// The NetOutput of a subgraph.
  static bool IsSubgraphOutput(const Node& node);
  /// For a subgraph input: the node that feeds the matching input of the parent node.
  static NodePtr GetParentInput(const Node& node);

  /// The producers of `node`'s data inputs, in input order (unlinked inputs skipped).
  static std::vector<NodePtr> GetInDataNodes(const Node& node);
  /// Moves every edge leaving `origin` to `new_node`: output i's data and control peers to
  /// output i, and the control peers of the out-control anchor. The nodes need the same number
  /// of outputs; a control edge `new_node` already has is kept once.
  static Status MoveOutputEdges(const NodePtr& origin, const NodePtr& new_node);
  /// Marks the anchor statuses of `node` as set (GE: each input's AnchorStatus is then
  /// meaningful); IsAnchorStatusSet tells whether that happened.
  static Status SetAllAnchorStatus(const NodePtr& node);
  static Status SetAllAnchorStatus(Node& node);
  static bool IsAnchorStatusSet(const NodePtr& node);
  static bool IsAnchorStatusSet(const Node& node);
};

}  // namespace ge

// OpDescUtils: Const inputs and weights of a node, and making Const ops from tensors.
#pragma once

#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// The attribute holding a Const node's tensor (GE's ATTR_NAME_WEIGHTS).
inline constexpr char kAttrConstValue[] = "value";

class GE_API OpDescUtils {
 public:
  OpDescUtils() = delete;

  /// Const/Constant producers of the node's data inputs, in input order.
  static std::vector<NodePtr> GetConstInputs(const Node& node);
  /// The tensors of those Const producers (sharing their bytes).
  static std::vector<GeTensor> GetWeights(const Node& node);
  /// The tensor of a Const node; an error names the node when it has none.
  static Result<GeTensor> GetConstValue(const Node& const_node);
  /// The same, and checked: its bytes are what its shape and dtype need (strings aside). An
  /// error names the node and both sizes; use it on graphs read from files.
  static Result<GeTensor> GetCheckedConstValue(const Node& const_node);
  /// Sets a Const node's tensor and makes its output desc match the tensor's desc.
  static Status SetConstValue(const NodePtr& const_node, const GeTensor& value);
  /// A new Const OpDesc named `name` holding `value`.
  static OpDescPtr CreateConstOp(const std::string& name, const GeTensor& value);
  /// Whether input `index` of the node is fed by a Const.
  static bool IsInputConst(const Node& node, int index);
  /// Removes input desc `index` of a lone OpDesc (one that is not a node's: a node's inputs
  /// change with NodeUtils::RemoveInputAnchor, which keeps its anchors in step). The inputs
  /// after it move down one, keeping their names.
  static Status ClearInputDesc(const OpDescPtr& op_desc, uint32_t index);
  /// Names the instance of the IR subgraph `subgraph_name` (a dynamic one: its first instance).
  static Status SetSubgraphInstanceName(const std::string& subgraph_name,
                                        const std::string& subgraph_instance_name,
                                        const OpDescPtr& op_desc);
};

}  // namespace ge

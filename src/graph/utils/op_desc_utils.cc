// OpDescUtils: Const inputs and weights.
#include "ge/graph/utils/op_desc_utils.h"

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge {

std::vector<NodePtr> OpDescUtils::GetConstInputs(const Node& node) {
  std::vector<NodePtr> out;
  for (const auto& in : node.GetAllInDataAnchors()) {
    auto peer = in->GetPeerOutAnchor();
    if (peer == nullptr) continue;
    NodePtr producer = peer->GetOwnerNode();
    if (producer != nullptr && NodeUtils::IsConst(*producer)) out.push_back(std::move(producer));
  }
  return out;
}

std::vector<GeTensor> OpDescUtils::GetWeights(const Node& node) {
  std::vector<GeTensor> out;
  for (const auto& producer : GetConstInputs(node)) {
    auto value = GetConstValue(*producer);
    if (value.ok()) out.push_back(std::move(value).value());
  }
  return out;
}

Result<GeTensor> OpDescUtils::GetConstValue(const Node& const_node) {
  const auto* value = AttrUtils::GetPtr<GeTensor>(const_node.GetOpDescBarePtr(), kAttrConstValue);
  if (value == nullptr) {
    return ParamInvalid("node '" + const_node.GetName() + "' (" + const_node.GetType() +
                        ") has no tensor attribute '" + kAttrConstValue + "'");
  }
  return *value;
}

Result<GeTensor> OpDescUtils::GetCheckedConstValue(const Node& const_node) {
  GE_ASSIGN_OR_RETURN(GeTensor value, GetConstValue(const_node));
  const GeTensorDesc& desc = value.GetTensorDesc();
  if (desc.GetDataType() == DT_STRING) return value;
  const int64_t needs = TensorUtils::CalcTensorMemSize(desc);
  if (needs < 0 || static_cast<uint64_t>(needs) != value.GetSize()) {
    return ParamInvalid("node '" + const_node.GetName() + "' (" + const_node.GetType() +
                        "): its value holds " + std::to_string(value.GetSize()) +
                        " bytes, but its shape " + desc.GetShape().ToString() + " of " +
                        TypeUtils::DataTypeToSerialString(desc.GetDataType()) +
                        (needs < 0 ? " has no byte size (unknown dims, or a dtype without a size)"
                                   : " needs " + std::to_string(needs)));
  }
  return value;
}

Status OpDescUtils::SetConstValue(const NodePtr& const_node, const GeTensor& value) {
  if (const_node == nullptr) return ParamInvalid("SetConstValue: null node");
  OpDesc& op = *const_node->GetOpDescBarePtr();
  op.MutableAttrMap().Set(kAttrConstValue, value);
  if (op.GetOutputsSize() == 0) {
    GE_RETURN_IF_ERROR(op.AddOutputDesc(value.GetTensorDesc()));
    return const_node->UpdateAnchorsFromOpDesc();
  }
  return op.UpdateOutputDesc(0, value.GetTensorDesc());
}

OpDescPtr OpDescUtils::CreateConstOp(const std::string& name, const GeTensor& value) {
  auto op = std::make_shared<OpDesc>(name, "Const");
  (void)op->AddOutputDesc("y", value.GetTensorDesc());
  op->MutableAttrMap().Set(kAttrConstValue, value);
  return op;
}

bool OpDescUtils::IsInputConst(const Node& node, int index) {
  NodePtr producer = NodeUtils::GetInDataNodeByIndex(node, index);
  return producer != nullptr && NodeUtils::IsConst(*producer);
}

Status OpDescUtils::ClearInputDesc(const OpDescPtr& op_desc, uint32_t index) {
  if (op_desc == nullptr) return ParamInvalid("ClearInputDesc: a null OpDesc");
  if (op_desc->GetOwnerNode() != nullptr) {
    return ParamInvalid("ClearInputDesc: op '" + op_desc->GetName() +
                        "' is a node's; change a node's inputs through NodeUtils, which keeps "
                        "its anchors in step");
  }
  return op_desc->RemoveInputDesc(index);
}

Status OpDescUtils::SetSubgraphInstanceName(const std::string& subgraph_name,
                                            const std::string& subgraph_instance_name,
                                            const OpDescPtr& op_desc) {
  if (op_desc == nullptr) return ParamInvalid("SetSubgraphInstanceName: a null OpDesc");
  const auto& indexes = op_desc->GetSubgraphNameIndexes();
  auto it = indexes.find(subgraph_name);
  if (it == indexes.end()) {
    std::string names;
    for (const auto& [name, unused] : indexes) names += (names.empty() ? "" : ", ") + name;
    return ParamInvalid("op '" + op_desc->GetName() + "' (" + op_desc->GetType() +
                        ") has no subgraph named '" + subgraph_name +
                        "' (its subgraphs: " + (names.empty() ? std::string("none") : names) + ")");
  }
  return op_desc->SetSubgraphInstanceName(it->second, subgraph_instance_name);
}

}  // namespace ge

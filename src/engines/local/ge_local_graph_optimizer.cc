// GeLocalGraphOptimizer: the PhonyConcat / PhonySplit marks.
#include "ge_local_graph_optimizer.h"

#include "ge/graph/utils/attr_utils.h"
#include "ge_local_constants.h"

namespace ge::ge_local {

Status GeLocalGraphOptimizer::OptimizeOriginalGraphJudgeInsert(ComputeGraph& graph) {
  for (const NodePtr& node : graph.GetAllNodes()) {
    const std::string& type = node->GetType();
    const bool is_concat = type == kPhonyConcat;
    if (!is_concat && type != kPhonySplit) continue;
    const OpDescPtr op_desc = node->GetOpDesc();
    AttrUtils::SetBool(op_desc, kAttrNoTask, true);
    AttrUtils::SetBool(
        op_desc, is_concat ? kAttrNoPaddingContinuousInput : kAttrNoPaddingContinuousOutput, true);
    AttrUtils::SetBool(op_desc, kAttrOutputReuseInput, true);
    AttrUtils::SetInt(op_desc, kAttrReuseInputOnDimIndex, 0);
  }
  return Status::Ok();
}

Status GeLocalGraphOptimizer::GetAttributes(GraphOptimizerAttribute& attrs) const {
  attrs.engineName = kEngineName;
  attrs.scope = UNIT;
  return Status::Ok();
}

}  // namespace ge::ge_local

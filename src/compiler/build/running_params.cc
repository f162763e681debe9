// CalcOpRunningParam for every node through the engine that owns it.
#include "build_stage.h"
#include "ge/graph/node.h"

namespace ge::build {

Status CalcRunningParams(ComputeGraph& root, const EngineManager& engines) {
  for (const NodePtr& node : root.GetAllNodes()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    GE_ASSIGN_OR_RETURN(OpsKernelBuilderPtr builder, engines.GetOpsKernelBuilderFor(op));
    Status status = builder->CalcOpRunningParam(*node);
    if (!status.ok()) {
      return std::move(status).Prefix("CalcOpRunningParam of node '" + node->GetName() + "' (" +
                                      node->GetType() + ") by engine " + op.GetOpEngineName());
    }
  }
  return Status::Ok();
}

}  // namespace ge::build

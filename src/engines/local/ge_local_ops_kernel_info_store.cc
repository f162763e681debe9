// GeLocalOpsKernelInfoStore: the OpInfo catalogue and CheckSupported of GE Local.
#include "ge_local_ops_kernel_info_store.h"

#include "ge_local_constants.h"

namespace ge::ge_local {

GeLocalOpsKernelInfoStore::GeLocalOpsKernelInfoStore(std::shared_ptr<const OpFactory> factory)
    : factory_(std::move(factory)) {
  for (const std::string& type : factory_->GetAllOps()) {
    OpInfo info;
    info.engine = kEngineName;
    info.opKernelLib = kOpsKernelLibName;
    info.computeCost = 0;
    infos_.emplace(type, std::move(info));
  }
}

void GeLocalOpsKernelInfoStore::GetAllOpsKernelInfo(std::map<std::string, OpInfo>& infos) const {
  infos = infos_;
}

bool GeLocalOpsKernelInfoStore::CheckSupported(const OpDescPtr& op_desc,
                                               std::string& reason) const {
  if (op_desc == nullptr) {
    reason = "no OpDesc given";
    return false;
  }
  if (factory_->IsRegistered(op_desc->GetType())) return true;
  reason = "op type '" + op_desc->GetType() + "' is not registered in the GE Local op factory";
  return false;
}

std::optional<OpWork> GeLocalOpsKernelInfoStore::WorkOf(const OpDesc& op) const {
  (void)op;
  OpWork none;
  none.parallel = false;
  return none;
}

}  // namespace ge::ge_local

// The GE Local ops kernel info store: supports exactly the types in the GE Local op factory.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "ge/engine/ops_kernel_info_store.h"
#include "op_factory.h"

namespace ge::ge_local {

class GeLocalOpsKernelInfoStore final : public OpsKernelInfoStore {
 public:
  explicit GeLocalOpsKernelInfoStore(std::shared_ptr<const OpFactory> factory);

  /// Every registered type with {DNN_VM_GE_LOCAL, DNN_VM_GE_LOCAL_OP_STORE, 0, false, false,
  /// false, "", ""}.
  void GetAllOpsKernelInfo(std::map<std::string, OpInfo>& infos) const override;
  /// True when the op's type is registered in the GE Local op factory.
  bool CheckSupported(const OpDescPtr& op_desc, std::string& reason) const override;
  /// No work: GE Local's operators compute nothing (views, skeleton ops, offsets fixed at
  /// compile time), so their tasks need one thread (computeCost 0, as a function of the node).
  std::optional<OpWork> WorkOf(const OpDesc& op) const override;

 private:
  std::shared_ptr<const OpFactory> factory_;
  std::map<std::string, OpInfo> infos_;
};

}  // namespace ge::ge_local

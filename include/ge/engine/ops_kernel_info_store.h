// OpsKernelInfoStore: what an engine tells the compiler about the operators it can run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// One operator type an engine supports, with GE's field names (docs/ge_compatibility.md,
/// "GE Local").
struct OpInfo {
  std::string engine;       ///< engine name, e.g. "DNN_VM_GE_LOCAL"
  std::string opKernelLib;  ///< kernel library (store) name, e.g. "DNN_VM_GE_LOCAL_OP_STORE"
  int32_t computeCost = 0;  ///< relative cost; 0 for ops that do no work
  bool flagPartial = false;
  bool flagAsync = false;
  bool isAtomic = false;
  std::string opFileName;
  std::string opFuncName;

  bool operator==(const OpInfo&) const = default;
};

/// The operator catalogue of one kernel library. Placement asks CheckSupported of every
/// engine's store in priority order; the first that says yes owns the node.
class GE_API OpsKernelInfoStore {
 public:
  virtual ~OpsKernelInfoStore() = default;

  virtual Status Initialize(const std::map<std::string, std::string>& /*options*/) {
    return Status::Ok();
  }
  virtual Status Finalize() { return Status::Ok(); }

  /// Every supported op type with its OpInfo.
  virtual void GetAllOpsKernelInfo(std::map<std::string, OpInfo>& infos) const = 0;

  /// True when this library can run `op_desc`; otherwise false with `reason` saying why, in a
  /// form that can be shown to the user next to the engine name.
  virtual bool CheckSupported(const OpDescPtr& op_desc, std::string& reason) const = 0;
};

using OpsKernelInfoStorePtr = std::shared_ptr<OpsKernelInfoStore>;

}  // namespace ge

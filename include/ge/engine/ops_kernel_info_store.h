// OpsKernelInfoStore: what an engine tells the compiler about the operators it can run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
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

/// What running one node takes, for the compiler's cost model (ge/compiler/cost_model.h): the
/// arithmetic of its kernel and the bytes it moves, with the shapes its OpDesc has now.
struct OpWork {
  /// Multiply-adds count two. Arithmetic that runs at the rate of a matrix product (matrix
  /// products, convolutions, attention) goes in `dense_flops`; the rest (elementwise math,
  /// reductions, normalisation, weighted by how dear each element is: an exp counts more than
  /// an add) in `elementwise_ops`.
  double dense_flops = 0;
  double elementwise_ops = 0;
  /// Bytes read and written (every input and output once).
  double bytes = 0;
  /// False for kernels that run on one thread whatever they are given.
  bool parallel = true;
  /// True when the kernel calls a compute library (a oneDNN primitive) that has a fixed cost of
  /// its own per call, beyond the runtime's per task.
  bool library_call = false;
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

  /// The work of `op` (a node this library supports, its shapes known), or nullopt when the
  /// library cannot say: GE's computeCost as a function of the node rather than a constant.
  virtual std::optional<OpWork> WorkOf(const OpDesc& op) const {
    (void)op;
    return std::nullopt;
  }
};

using OpsKernelInfoStorePtr = std::shared_ptr<OpsKernelInfoStore>;

}  // namespace ge

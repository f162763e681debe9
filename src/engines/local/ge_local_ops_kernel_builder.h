// The GE Local kernel builder: output sizes, continuous offsets and reuse marks, and (no) tasks.
#pragma once

#include <memory>
#include <vector>

#include "ge/engine/ops_kernel_builder.h"
#include "op_factory.h"

namespace ge::ge_local {

class GeLocalOpsKernelBuilder final : public OpsKernelBuilder {
 public:
  explicit GeLocalOpsKernelBuilder(std::shared_ptr<const OpFactory> factory);

  /// Skips unknown-shape nodes. Otherwise sizes every output (an output that already has a size
  /// > 0 keeps it unless it is DT_STRING): a DT_STRING Const gets the byte size of its `value`,
  /// FileConstant its `length` attribute, Data-like nodes the auto-padded size, PhonyConcat and
  /// PartitionedCall a 32-byte-aligned size plus 32 bytes, everything else its plain size; a
  /// negative size is refused. Then PhonyConcat / PhonySplit offsets are recorded, and the
  /// reshape-like types mark output 0 as reusing input 0.
  Status CalcOpRunningParam(Node& node) override;

  /// StackPop is marked _unknown_shape_type = DEPEND_COMPUTE; an unknown-shape node is marked
  /// _no_task; otherwise the node's op runs (NoOp-class succeed with no task, GeDeletedOp-class
  /// fail with a message saying why the node should not be here).
  Status GenerateTask(const Node& node, RunContext& context, std::vector<TaskDef>& tasks) override;

 private:
  std::shared_ptr<const OpFactory> factory_;
};

}  // namespace ge::ge_local

// OpsKernelBuilder: the engine's part of the build step (running parameters, then tasks).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/engine/task.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// The implementation an engine chose for a node's kernel, as a string attribute on the node
/// (the CPU engine writes oneDNN's name, e.g. "brg:avx512_core"). The compile report counts them;
/// a name starting "ref" is a reference kernel (correct, slow) and is reported per node.
inline constexpr char kAttrKernelImpl[] = "_kernel_impl";

/// Set (bool, true) by an engine on a Const whose every reader takes its bytes at any alignment
/// (a gather copying rows): the runtime then hands them over where they lie
/// (GeTensor::GetStoredData), so a weight left unaligned in the model file is not copied for
/// them (GPT-2's and BERT's token embeddings, of which a run reads a few rows).
inline constexpr char kAttrWeightAnyAlignment[] = "_weight_any_alignment";

class GE_API OpsKernelBuilder {
 public:
  virtual ~OpsKernelBuilder() = default;

  virtual Status Initialize(const std::map<std::string, std::string>& /*options*/) {
    return Status::Ok();
  }
  virtual Status Finalize() { return Status::Ok(); }

  /// Fills in what memory planning needs: output sizes (GeTensorDesc::SetSize), workspaces,
  /// reuse and continuity marks.
  virtual Status CalcOpRunningParam(Node& node) = 0;

  /// Appends the tasks that run `node` (possibly none).
  virtual Status GenerateTask(const Node& node, RunContext& context,
                              std::vector<TaskDef>& tasks) = 0;
};

using OpsKernelBuilderPtr = std::shared_ptr<OpsKernelBuilder>;

}  // namespace ge

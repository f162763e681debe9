// OpsKernelBuilder: the engine's part of the build step (running parameters, then tasks).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/engine/task.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"

namespace ge {

class OpsKernelBuilder {
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

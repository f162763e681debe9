// The CPU engine's TaskExecutor: loads each task as the CPU kernel of its op type.
#pragma once

#include "ge/engine/task_executor.h"

namespace ge::host_cpu {

class HostCpuTaskExecutor final : public TaskExecutor {
 public:
  Result<std::unique_ptr<TaskKernel>> LoadTask(const TaskDef& task, const Node& node,
                                               const TaskLoadContext& context) override;
};

/// Whether the CPU engine has a kernel for `type` (placement asks this).
bool HasKernel(const std::string& type);

}  // namespace ge::host_cpu

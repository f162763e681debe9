// GeLocalTaskExecutor: GE Local's run-time half. GE Local computes nothing, except the shape
// queries (Shape, ShapeN, Size, Rank) of a node whose input shapes are known only at run time:
// constant folding removes them wherever the shapes are known at compile time, and where they
// are not, their task reads the dims the runtime hands it.
#pragma once

#include <string>

#include "ge/engine/task_executor.h"

namespace ge::ge_local {

/// True for the op types whose tasks GE Local runs.
bool IsShapeQueryType(const std::string& type);

class GeLocalTaskExecutor final : public TaskExecutor {
 public:
  bool Runs(const std::string& kernel_name) const override { return IsShapeQueryType(kernel_name); }
  Result<std::unique_ptr<TaskKernel>> LoadTask(const TaskDef& task, const Node& node,
                                               const TaskLoadContext& context) override;
};

}  // namespace ge::ge_local

// GeLocalTaskExecutor: GE Local's run-time half. GE Local computes nothing, except
//   - the shape queries (Shape, ShapeN, Size, Rank) of a node whose input shapes are known only
//     at run time: constant folding removes them wherever the shapes are known at compile time,
//     and where they are not, their task reads the dims the runtime hands it;
//   - Merge, which forwards its input;
//   - the stack operators (Stack, StackPush, StackPop, StackClose), on the runtime's stacks.
#pragma once

#include <string>

#include "ge/engine/task_executor.h"

namespace ge::ge_local {

/// Shape, ShapeN, Size and Rank.
bool IsShapeQueryType(const std::string& type);
/// Merge and the stack operators: they run whether their shapes are known or not.
bool IsRunTimeOpType(const std::string& type);
/// The kernel of a stack operator (stack_kernels.cc).
Result<std::unique_ptr<TaskKernel>> MakeStackKernel(const std::string& kernel, const Node& node,
                                                    const TaskLoadContext& context);

class GeLocalTaskExecutor final : public TaskExecutor {
 public:
  bool Runs(const std::string& kernel_name) const override {
    return IsShapeQueryType(kernel_name) || IsRunTimeOpType(kernel_name);
  }
  Result<std::unique_ptr<TaskKernel>> LoadTask(const TaskDef& task, const Node& node,
                                               const TaskLoadContext& context) override;
};

}  // namespace ge::ge_local

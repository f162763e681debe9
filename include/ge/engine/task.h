// TaskDef and RunContext: what an engine's builder hands the runtime, and what it is given.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace ge {

/// A minimal, serializable description of one unit of run-time work, made by an engine's
/// OpsKernelBuilder at compile time and loaded by its TaskExecutor in the runtime.
/// Plain data: strings and integers only, so any format can carry it.
struct TaskDef {
  std::string kernel_name;  ///< the kernel to run, usually the op type
  std::string engine;       ///< the engine whose task interface runs it
  std::string op_name;
  int64_t op_id = -1;
  int64_t stream_id = -1;
  /// Kernel arguments: offsets, attribute values, ... as text.
  std::map<std::string, std::string> args;

  bool operator==(const TaskDef&) const = default;
};

/// What task generation knows about the compilation (GE's RunContext, trimmed): the session's
/// options (GE reads them from its thread context; here they are passed in) and the stream.
struct RunContext {
  std::map<std::string, std::string> options;
  int64_t stream_id = 0;
};

}  // namespace ge

// TaskDef: one unit of run-time work in a compiled model. An engine's OpsKernelBuilder makes it at
// compile time; its TaskExecutor loads it in the runtime.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace ge {

/// Plain data (strings and integers), so the model's schema carries it as it is.
struct TaskDef {
  std::string kernel_name;  ///< the kernel to run, usually the op type
  std::string engine;       ///< the engine whose task interface runs it
  std::string op_name;
  int64_t op_id = -1;
  int64_t stream_id = -1;
  /// Arguments private to the engine that made the task (the runtime reads only "event", the
  /// event index of an EventRecord/EventWait task).
  std::map<std::string, std::string> args;

  bool operator==(const TaskDef&) const = default;
};

/// On a node's OpDesc, from the compiler's cost model (ge/compiler/cost_model.h): the most
/// threads its task is worth (the runtime gives it no more, within the run's budget), ...
inline constexpr char kAttrTaskThreads[] = "_task_threads";
/// ... and its predicted time in microseconds on 1, 2, ... threads up to that many (the
/// profile shows the prediction beside the measured time).
inline constexpr char kAttrPredictedMicros[] = "_predicted_us";

}  // namespace ge

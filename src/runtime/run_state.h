// The runtime's view of a static-shape model being run: where each tensor lives (Place), the
// tasks as loaded (Step), and a run context (RunState) holding what one run writes.
// model_context.cc loads them; run_state.cc runs them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dynamic_executor.h"
#include "ge/engine/task_executor.h"
#include "ge/model/memory_plan.h"
#include "ge/runtime/loaded_model.h"
#include "stream_pool.h"

namespace ge::runtime_internal {

using memory::Region;

inline constexpr int64_t kAlignment = 64;

using HostBuffer = std::shared_ptr<uint8_t>;

/// `bytes` (at least kAlignment), aligned and zeroed; `what` names it in the error. A large
/// buffer is pages of its own that the system zeroes as each is first touched
/// (AllocateHostBytes), so loading a model costs no time and no resident memory for an arena
/// its first run has not yet used.
Result<HostBuffer> Allocate(int64_t bytes, const std::string& what);

/// Where a tensor lives.
struct Place {
  Region region = Region::kArena;
  int64_t offset = 0;  ///< the input slot for kInput
  int64_t bytes = 0;
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;
  const uint8_t* weight = nullptr;  ///< kWeight: the bytes, in the Const tensor that holds them
};

inline constexpr char kEventRecord[] = "EventRecord";
inline constexpr char kEventWait[] = "EventWait";

/// A task as the executor runs it: a kernel, or an event record or wait between streams.
struct Step {
  enum class Kind { kKernel, kRecord, kWait };
  Kind kind = Kind::kKernel;
  size_t event = 0;  ///< dense event index (kRecord, kWait)
  std::string name;
  std::string type;
  int64_t stream = 0;  ///< the compiled stream id
  int lane = 0;        ///< dense index of the stream in the executor
  std::unique_ptr<TaskKernel> kernel;
  std::vector<Place> in_places;
  std::vector<bool> in_present;
  std::vector<Place> out_places;
  std::vector<RuntimeTensor> in;
  std::vector<RuntimeTensor> out;
  bool timed = false;  ///< ran in the last profiled run
  TaskTiming timing;
};

/// A run context: what one run writes. The arena, the kernels (their bound memory and scratch
/// are theirs) and workspaces, the input slots, the streams' pool and the profile; or, for shapes
/// known only at run time, a dynamic executor with its own graph copy and kernel cache.
struct RunState {
  HostBuffer arena;
  std::vector<HostBuffer> workspaces;  ///< one per stream (kernels of parallel streams overlap)
  std::vector<std::unique_ptr<GeTensor>> const_values;  // what TaskLoadContext points at
  std::vector<Step> steps;                              ///< in list order
  std::vector<std::vector<size_t>> lanes;               ///< per stream: its steps, in order
  bool several_streams = false;
  /// Runs the streams in parallel; null for one stream (the calling thread runs the steps).
  std::unique_ptr<runtime_internal::StreamPool> pool;
  Status pool_error;                       ///< the first failure of a parallel run
  std::vector<const uint8_t*> input_data;  // per input slot, during a run
  bool profiling = false;
  std::vector<TaskTiming> profile;
  std::chrono::steady_clock::time_point run_start;
  std::unique_ptr<runtime_internal::DynamicExecutor> dynamic;

  ~RunState() {
    pool.reset();   // its threads run the steps
    steps.clear();  // kernels before the arena they point into
  }

  uint8_t* Resolve(const Place& place) const {
    switch (place.region) {
      case Region::kArena:
        return arena.get() + place.offset;
      case Region::kWeight:
        return const_cast<uint8_t*>(place.weight);
      case Region::kInput:
        return const_cast<uint8_t*>(input_data[static_cast<size_t>(place.offset)]);
      default:
        return nullptr;
    }
  }
  Status RunKernel(Step& step);
  void RunLane(int lane);
  /// Runs the steps on the bound input slots (static shapes).
  Status RunSteps();
};

}  // namespace ge::runtime_internal

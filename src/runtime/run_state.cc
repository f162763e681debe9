// Running a loaded static-shape model: binding each task's inputs and outputs to their places
// and calling the kernels, in list order or on the streams' threads.
#include "run_state.h"

#include <new>

#include "ge/graph/host_bytes.h"

namespace ge::runtime_internal {

Result<HostBuffer> Allocate(int64_t bytes, const std::string& what) {
  const int64_t size =
      std::max<int64_t>(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment);
  try {
    return AllocateHostBytes(static_cast<size_t>(size), /*zeroed=*/true);
  } catch (const std::bad_alloc&) {
    return Failed("cannot allocate " + std::to_string(bytes) + " bytes for the " + what);
  }
}

Status RunState::RunKernel(Step& step) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = profiling ? Clock::now() : run_start;
  for (size_t k = 0; k < step.in.size(); ++k) {
    step.in[k].data = step.in_present[k] ? Resolve(step.in_places[k]) : nullptr;
  }
  for (size_t k = 0; k < step.out.size(); ++k) step.out[k].data = Resolve(step.out_places[k]);
  uint8_t* workspace = workspaces[static_cast<size_t>(step.lane)].get();
  Status status = step.kernel->Run(step.in, step.out, workspace);
  if (!status.ok()) {
    const std::string where = several_streams ? " on stream " + std::to_string(step.stream) : "";
    return RunningNode(std::move(status), step.name, step.type, where);
  }
  if (profiling) {
    const Clock::time_point end = Clock::now();
    step.timing.name = step.name;
    step.timing.type = step.type;
    step.timing.stream = step.stream;
    step.timing.start_us = std::chrono::duration<double, std::micro>(start - run_start).count();
    step.timing.duration_us = std::chrono::duration<double, std::micro>(end - start).count();
    step.timed = true;
  }
  return Status::Ok();
}

// One stream of a parallel run; the first failure stops the others (StreamPool::Abort).
void RunState::RunLane(int lane) {
  for (size_t index : lanes[static_cast<size_t>(lane)]) {
    if (pool->aborted()) return;
    Step& step = steps[index];
    switch (step.kind) {
      case Step::Kind::kRecord:
        pool->Record(step.event);
        break;
      case Step::Kind::kWait:
        if (!pool->Wait(step.event)) return;
        break;
      case Step::Kind::kKernel: {
        Status status = RunKernel(step);
        if (!status.ok()) {
          if (pool->Abort()) pool_error = std::move(status);
          return;
        }
        break;
      }
    }
  }
}

Status RunState::RunSteps() {
  run_start = std::chrono::steady_clock::now();
  if (profiling) {
    profile.clear();
    for (Step& step : steps) step.timed = false;
  }
  Status status;
  if (pool != nullptr) {
    pool_error = Status::Ok();
    pool->Run();
    status = std::move(pool_error);
  } else {
    for (Step& step : steps) {
      status = RunKernel(step);  // serial: only kernel steps were loaded
      if (!status.ok()) break;
    }
  }
  if (profiling) {
    for (const Step& step : steps) {
      if (step.timed) profile.push_back(step.timing);
    }
  }
  return status;
}

}  // namespace ge::runtime_internal

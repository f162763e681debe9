// StreamPool: the threads that run a multi-stream model's streams, and the events between them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ge::runtime_internal {

/// Runs the streams of one model in parallel: stream 0 on the calling thread, every other stream
/// on a thread of its own, created once when the pool is made and joined when it is destroyed.
///
/// One mutex guards the run's state and two condition variables wake the sleepers, so a thread
/// waiting for a run or an event sleeps in the kernel instead of spinning. An event is recorded
/// by writing the run's generation into its slot, so nothing is reset between runs. A failing
/// stream calls Abort: every Wait then returns false at once and the other streams stop before
/// their next task, so a run never waits for an event that will not come.
class StreamPool {
 public:
  /// `body(stream)` runs stream `stream`'s tasks; it is called once per stream and run.
  StreamPool(int streams, size_t events, std::function<void(int)> body);
  ~StreamPool();
  StreamPool(const StreamPool&) = delete;
  StreamPool& operator=(const StreamPool&) = delete;

  /// Runs every stream once; returns when all of them have returned.
  void Run();

  /// Marks `event` recorded in this run and wakes its waiters.
  void Record(size_t event);
  /// Sleeps until `event` is recorded in this run; false when the run was aborted instead.
  [[nodiscard]] bool Wait(size_t event);
  /// Stops the run; true for the first call of a run (its caller's error is the run's).
  bool Abort();
  /// Cheap check between tasks.
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }

  int streams() const { return streams_; }
  /// Threads the pool created (streams - 1: the caller runs stream 0).
  int threads() const { return static_cast<int>(workers_.size()); }

 private:
  void Work(int stream);

  const int streams_;
  std::function<void(int)> body_;
  std::mutex mutex_;
  std::condition_variable start_;    // workers: a new run or the end
  std::condition_variable changed_;  // an event recorded, an abort, or a stream done
  uint64_t generation_ = 0;          // the current run; event slots hold the run that set them
  std::vector<uint64_t> recorded_;
  int running_ = 0;  // worker streams still in the current run
  bool stopping_ = false;
  std::atomic<bool> aborted_{false};
  std::vector<std::thread> workers_;
};

}  // namespace ge::runtime_internal

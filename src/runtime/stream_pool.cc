// StreamPool: a thread per extra stream, sleeping between runs; events under one mutex.
#include "stream_pool.h"

namespace ge::runtime_internal {

StreamPool::StreamPool(int streams, size_t events, std::function<void(int)> body)
    : streams_(streams), body_(std::move(body)), recorded_(events, 0) {
  workers_.reserve(static_cast<size_t>(streams > 1 ? streams - 1 : 0));
  for (int stream = 1; stream < streams; ++stream) {
    workers_.emplace_back([this, stream] { Work(stream); });
  }
}

StreamPool::~StreamPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void StreamPool::Work(int stream) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    body_(stream);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --running_;
    }
    changed_.notify_all();
  }
}

void StreamPool::Run() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++generation_;
    running_ = static_cast<int>(workers_.size());
    aborted_.store(false, std::memory_order_relaxed);
  }
  start_.notify_all();
  body_(0);
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return running_ == 0; });
}

void StreamPool::Record(size_t event) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    recorded_[event] = generation_;
  }
  changed_.notify_all();
}

bool StreamPool::Wait(size_t event) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return recorded_[event] == generation_ || aborted_.load(); });
  return !aborted_.load();
}

bool StreamPool::Abort() {
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    first = !aborted_.exchange(true);
  }
  changed_.notify_all();
  return first;
}

}  // namespace ge::runtime_internal

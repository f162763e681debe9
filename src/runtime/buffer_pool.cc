// BufferPool (buffer_pool.h).
#include "buffer_pool.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace ge::runtime_internal {
namespace {

constexpr size_t kAlignment = 64;

// The size class of `bytes`: a power of two from one aligned line up.
size_t SizeClass(size_t bytes) {
  size_t size = kAlignment;
  while (size < bytes) size <<= 1;
  return size;
}

}  // namespace

struct BufferPool::Lists {
  explicit Lists(size_t keep) : keep(keep) {}
  ~Lists() {
    for (auto& [size, buffers] : free) {
      for (void* p : buffers) std::free(p);
    }
  }
  std::mutex mu;
  std::map<size_t, std::vector<void*>> free;
  size_t keep;
  size_t cached = 0;
  int64_t allocated = 0;
  int64_t reused = 0;
};

BufferPool::BufferPool(int64_t keep_bytes)
    : lists_(std::make_shared<Lists>(static_cast<size_t>(std::max<int64_t>(keep_bytes, 0)))) {}

Result<std::shared_ptr<uint8_t>> BufferPool::Allocate(int64_t bytes, int64_t limit,
                                                      const std::string& what) {
  if (bytes > limit) {
    return ParamInvalid(what + " needs " + std::to_string(bytes) + " bytes, over the limit of " +
                        std::to_string(limit) + " (RuntimeOptions::max_memory_bytes)");
  }
  const auto want = static_cast<size_t>(std::max<int64_t>(bytes, 0));
  const bool pooled = want <= kMaxPooledBytes;
  const size_t size = pooled ? SizeClass(want) : (want + kAlignment - 1) / kAlignment * kAlignment;
  void* p = nullptr;
  if (pooled) {
    std::lock_guard<std::mutex> lock(lists_->mu);
    auto it = lists_->free.find(size);
    if (it != lists_->free.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
      lists_->cached -= size;
      ++lists_->reused;
    }
  }
  if (p == nullptr) {
    p = std::aligned_alloc(kAlignment, size);
    if (p == nullptr) {
      return Failed("cannot allocate " + std::to_string(bytes) + " bytes for " + what);
    }
    std::lock_guard<std::mutex> lock(lists_->mu);
    ++lists_->allocated;
  }
  if (!pooled) {
    return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
  }
  // The release holds the lists, so a buffer kept past the pool still has somewhere to go.
  std::shared_ptr<Lists> lists = lists_;
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [lists, size](uint8_t* q) {
    std::lock_guard<std::mutex> lock(lists->mu);
    if (lists->cached + size > lists->keep) {
      std::free(q);
      return;
    }
    lists->free[size].push_back(q);
    lists->cached += size;
  });
}

BufferPool::Stats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(lists_->mu);
  return {lists_->allocated, lists_->reused, static_cast<int64_t>(lists_->cached)};
}

}  // namespace ge::runtime_internal

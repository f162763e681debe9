// BufferPool: the dynamic executor's tensors of a run come from here and go back here when their
// last reader lets go, so a model run again and again (a speech detector every 30 ms) reuses the
// same memory instead of asking the allocator for it, and having the system hand it back, on every
// run. Buffers are pooled by size class (powers of two from 64 bytes to kMaxPooledBytes); larger
// ones are plain allocations. The pool keeps at most `keep_bytes` of free buffers, so a model's
// peak memory is not held after its run beyond that. Thread-safe: a caller may release an output
// it holds while the next run allocates; a buffer outlives the pool that made it (its release
// then frees it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ge/graph/status.h"

namespace ge::runtime_internal {

class BufferPool {
 public:
  static constexpr size_t kMaxPooledBytes = size_t{1} << 20;

  explicit BufferPool(int64_t keep_bytes);
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// At least `bytes` (and one aligned line), 64-byte aligned; refused with both sizes when
  /// `bytes` is over `limit` (RuntimeOptions::max_memory_bytes). `what` names it in errors.
  Result<std::shared_ptr<uint8_t>> Allocate(int64_t bytes, int64_t limit, const std::string& what);

  struct Stats {
    int64_t allocated = 0;     ///< buffers taken from the system
    int64_t reused = 0;        ///< buffers handed out again from the free lists
    int64_t cached_bytes = 0;  ///< free buffers held now
  };
  Stats stats() const;

 private:
  struct Lists;
  std::shared_ptr<Lists> lists_;
};

}  // namespace ge::runtime_internal

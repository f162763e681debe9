// Large host allocations on transparent huge pages (host_bytes.h).
#include "ge/graph/host_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ge {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

std::shared_ptr<uint8_t> AllocateHostBytes(size_t size, bool zeroed) {
  const bool big = size >= kHugePage;
  const size_t rounded =
      std::max(kHostBytesAlignment, (size + kHostBytesAlignment - 1) & ~(kHostBytesAlignment - 1));
  void* p = nullptr;
  if (::posix_memalign(&p, big ? kHugePage : kHostBytesAlignment, rounded) != 0) {
    throw std::bad_alloc();
  }
  // Only the whole huge pages: one over the end would make the block's last bytes cost 2 MiB of
  // memory. Advice only: without it (huge pages off, an old kernel) the block is the same,
  // slower to fill.
  if (big) (void)::madvise(p, size / kHugePage * kHugePage, MADV_HUGEPAGE);
  if (zeroed) std::memset(p, 0, rounded);
  return {static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); }};
}

}  // namespace ge

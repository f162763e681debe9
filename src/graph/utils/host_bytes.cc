// Large host allocations on transparent huge pages (host_bytes.h).
#include "ge/graph/host_bytes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ge {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

std::shared_ptr<uint8_t> AllocateHostBytes(size_t size, bool zeroed) {
  if (size < kHugePage) {
    const size_t rounded = std::max(kHostBytesAlignment,
                                    (size + kHostBytesAlignment - 1) & ~(kHostBytesAlignment - 1));
    void* p = nullptr;
    if (::posix_memalign(&p, kHostBytesAlignment, rounded) != 0) throw std::bad_alloc();
    if (zeroed) std::memset(p, 0, rounded);
    return {static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); }};
  }
  // A mapping of its own: its pages are zero until written and each is only taken when first
  // touched (a zeroed block costs nothing up front, and one filled in parts grows as it fills),
  // and it goes back to the system when freed. Mapped with a huge page's slack, then trimmed to
  // start on a huge page.
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t length = (size + page - 1) / page * page;
  void* map = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) throw std::bad_alloc();
  auto* raw = static_cast<uint8_t*>(map);
  const auto at = reinterpret_cast<uintptr_t>(raw);
  uint8_t* start = raw + ((kHugePage - at % kHugePage) % kHugePage);
  if (start > raw) ::munmap(raw, static_cast<size_t>(start - raw));
  uint8_t* end = start + length;
  uint8_t* map_end = raw + length + kHugePage;
  if (map_end > end) ::munmap(end, static_cast<size_t>(map_end - end));
  // Only the whole huge pages: one over the end would make the block's last bytes cost 2 MiB of
  // memory. Advice only: without it (huge pages off, an old kernel) the block is the same,
  // slower to fill.
  (void)::madvise(start, size / kHugePage * kHugePage, MADV_HUGEPAGE);
  return {start, [length](uint8_t* q) { ::munmap(q, length); }};
}

}  // namespace ge

// Large host allocations that fill fast: weights copied out of a file, packed weights, arenas.
// A block of a few MiB filled through 4 KiB pages takes one page fault (and one page zeroing)
// per 4 KiB. Blocks from 2 MiB up are mappings of their own, aligned to 2 MiB and marked for
// transparent huge pages, so filling them faults once per 2 MiB; their pages read as zero until
// written and are only taken when first touched, so a zeroed block costs nothing up front and
// one filled slice by slice grows as it fills. Smaller blocks come from the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ge {

/// The alignment every block has at least: a cache line, as oneDNN and vector loads want.
inline constexpr size_t kHostBytesAlignment = 64;

/// `size` bytes (at least one), kHostBytesAlignment-aligned, freed when the last holder lets go;
/// zeroed when `zeroed` is true. Throws std::bad_alloc when the memory cannot be had.
std::shared_ptr<uint8_t> AllocateHostBytes(size_t size, bool zeroed);

}  // namespace ge

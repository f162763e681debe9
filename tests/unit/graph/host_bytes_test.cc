// Host allocations for weights and arenas (host_bytes.h): aligned, zeroed on request, and large
// blocks on 2 MiB boundaries so that they can sit on transparent huge pages.
#include "ge/graph/host_bytes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace ge {
namespace {

bool AlignedTo(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

TEST(HostBytes, SmallBlocksAreCacheLineAligned) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{63}, size_t{4097}, (size_t{2} << 20) - 1}) {
    SCOPED_TRACE(size);
    std::shared_ptr<uint8_t> block = AllocateHostBytes(size, /*zeroed=*/false);
    ASSERT_NE(block, nullptr);
    EXPECT_TRUE(AlignedTo(block.get(), kHostBytesAlignment));
    if (size > 0) std::memset(block.get(), 0xab, size);  // every byte is the block's (ASan)
  }
}

TEST(HostBytes, LargeBlocksStartOnAHugePage) {
  for (size_t size : {size_t{2} << 20, (size_t{9} << 20) + 5}) {
    SCOPED_TRACE(size);
    std::shared_ptr<uint8_t> block = AllocateHostBytes(size, /*zeroed=*/false);
    ASSERT_NE(block, nullptr);
    EXPECT_TRUE(AlignedTo(block.get(), size_t{2} << 20));
    std::memset(block.get(), 0xcd, size);
    EXPECT_EQ(block.get()[size - 1], 0xcd);
  }
}

TEST(HostBytes, ZeroedBlocksReadAsZeroEvenWhereTheHeapReusesMemory) {
  for (size_t size : {size_t{1000}, (size_t{3} << 20) + 17}) {
    SCOPED_TRACE(size);
    {
      std::shared_ptr<uint8_t> dirty = AllocateHostBytes(size, /*zeroed=*/false);
      std::memset(dirty.get(), 0xff, size);
    }
    std::shared_ptr<uint8_t> block = AllocateHostBytes(size, /*zeroed=*/true);
    EXPECT_TRUE(std::all_of(block.get(), block.get() + size, [](uint8_t b) { return b == 0; }));
  }
}

}  // namespace
}  // namespace ge

// Read-only file bytes: mappings, aligned copies and per-view page release (file_bytes.h).
#include "ge/graph/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "ge/graph/host_bytes.h"

namespace ge {
namespace {

size_t PageSize() {
  static const size_t page = [] {
    const long size = ::sysconf(_SC_PAGESIZE);
    return size > 0 ? static_cast<size_t>(size) : size_t{4096};
  }();
  return page;
}

}  // namespace

Result<FileBytes> MapFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Failed("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Failed("'" + path + "' is not a regular file");
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return FileBytes{};
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);
  if (map == MAP_FAILED) return Failed("cannot map '" + path + "': " + std::strerror(map_errno));
  auto* base = static_cast<const uint8_t*>(map);
  return FileBytes{std::shared_ptr<const uint8_t>(
                       base, [size](const uint8_t* q) { ::munmap(const_cast<uint8_t*>(q), size); }),
                   size, true};
}

FileBytes CopyAligned(const uint8_t* data, size_t size) {
  std::shared_ptr<uint8_t> copy = AllocateHostBytes(size, /*zeroed=*/false);
  if (size > 0) std::memcpy(copy.get(), data, size);
  return {std::move(copy), size, false};
}

void ReleaseMappedPages(const uint8_t* data, size_t size) {
  const size_t page = PageSize();
  const auto begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + page - 1) / page * page;
  const uintptr_t last = (begin + size) / page * page;
  if (last <= first) return;
  // Advice only: a failure leaves the pages resident, which costs memory, never correctness.
  (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

bool ViewsInPlace(const FileBytes& file, const uint8_t* at) {
  return file.mapped && reinterpret_cast<uintptr_t>(at) % kHostBytesAlignment == 0;
}

namespace {

// `size` bytes at `at` in the mapping `file`, where they lie: the last holder releases their pages.
std::shared_ptr<const uint8_t> MappedView(const FileBytes& file, const uint8_t* at, size_t size) {
  // The deleter holds the mapping, so the view outlives nothing it points into.
  std::shared_ptr<const uint8_t> mapping = file.data;
  return {at, [mapping, size](const uint8_t* q) { ReleaseMappedPages(q, size); }};
}

// Unaligned bytes of a mapping from this size up are copied only when something asks for them
// aligned (GeTensor::SetDeferredData); smaller ones are copied at once, which costs little.
constexpr size_t kDeferCopyFrom = size_t{64} << 10;

}  // namespace

std::shared_ptr<const uint8_t> ViewOrCopy(const FileBytes& file, const uint8_t* at, size_t size) {
  if (size == 0) return nullptr;
  if (ViewsInPlace(file, at)) return MappedView(file, at, size);
  if (!file.mapped) return CopyAligned(at, size).data;
  // Copied in slices that end on page boundaries of the mapping, each slice's pages released
  // as soon as it is copied: the bytes are never in memory twice, however large the tensor.
  std::shared_ptr<uint8_t> copy = AllocateHostBytes(size, /*zeroed=*/false);
  constexpr size_t kSlice = size_t{8} << 20;
  const size_t page = PageSize();
  size_t done = 0;
  while (done < size) {
    const auto from = reinterpret_cast<uintptr_t>(at + done);
    const size_t next =
        std::min(size, (from + kSlice) / page * page - reinterpret_cast<uintptr_t>(at));
    std::memcpy(copy.get() + done, at + done, next - done);
    ReleaseMappedPages(at + done, next - done);
    done = next;
  }
  return copy;
}

void SetBytesFromFile(GeTensor& tensor, const FileBytes& file, const uint8_t* at, size_t size) {
  const bool in_place = size > 0 && ViewsInPlace(file, at);
  if (!in_place && file.mapped && size >= kDeferCopyFrom) {
    tensor.SetDeferredData(MappedView(file, at, size), size);
  } else {
    tensor.SetSharedData(ViewOrCopy(file, at, size), size, in_place);
  }
  // The aliasing pointer holds the whole mapping, which a view would hold anyway; its owner is
  // the mapping's, the same for every tensor over these bytes (a packed weight found by it).
  if (size > 0 && file.mapped && !in_place) tensor.SetFileSource({file.data, at});
}

std::shared_ptr<const uint8_t> CopyOfFileSource(const std::shared_ptr<const uint8_t>& source,
                                                size_t size) {
  // Unaligned, or it would have been shared in place: ViewOrCopy copies it, slice by slice.
  return ViewOrCopy(FileBytes{source, size, true}, source.get(), size);
}

}  // namespace ge

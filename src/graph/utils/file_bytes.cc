// Read-only file bytes: mappings, aligned copies and per-view page release (file_bytes.h).
#include "ge/graph/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <utility>

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

// ---- The guard against files truncated under their mappings ----
// A table of the live mappings, read by the SIGBUS handler: fixed slots of atomics, so that the
// handler takes no lock and allocates nothing. A mapping made when every slot is taken is
// unguarded (a fault there ends the process, as it would without the guard).
struct GuardedMapping {
  std::atomic<uintptr_t> begin{0};  // 0: the slot is free
  std::atomic<uintptr_t> end{0};    // one past the mapping's last page
  std::atomic<bool> damaged{false};
  std::array<char, 512> path{};
};
constexpr size_t kGuardSlots = 1024;
std::array<GuardedMapping, kGuardSlots> g_mappings;
std::mutex g_slots_mutex;  // taken to claim or free a slot, never by the handler
struct sigaction g_previous_sigbus {};
size_t g_page = 4096;

void ForwardSigbus(int sig, siginfo_t* info, void* context) {
  if ((g_previous_sigbus.sa_flags & SA_SIGINFO) != 0 && g_previous_sigbus.sa_sigaction != nullptr) {
    g_previous_sigbus.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous_sigbus.sa_handler != SIG_DFL && g_previous_sigbus.sa_handler != SIG_IGN) {
    g_previous_sigbus.sa_handler(sig);
    return;
  }
  // The default action: returning re-runs the faulting read, which faults again, now fatally.
  ::signal(SIGBUS, SIG_DFL);
}

// Async-signal-safe: atomics and mmap only.
void OnSigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (GuardedMapping& m : g_mappings) {
    const uintptr_t begin = m.begin.load(std::memory_order_acquire);
    const uintptr_t end = m.end.load(std::memory_order_acquire);
    if (begin == 0 || addr < begin || addr >= end) continue;
    // The pages from the faulting one to the end become zeros: the read is re-run and succeeds.
    const uintptr_t page = addr / g_page * g_page;
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros != MAP_FAILED) {
      m.damaged.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  ForwardSigbus(sig, info, context);
}

void InstallSigbusGuard() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page = PageSize();
    struct sigaction action {};
    action.sa_sigaction = OnSigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    (void)::sigaction(SIGBUS, &action, &g_previous_sigbus);
  });
}

// The slot now guarding [begin, begin + size), or nullptr when every slot is taken.
GuardedMapping* Guard(const uint8_t* begin, size_t size, const std::string& path) {
  InstallSigbusGuard();
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (GuardedMapping& m : g_mappings) {
    if (m.begin.load(std::memory_order_relaxed) != 0) continue;
    const size_t n = std::min(path.size(), m.path.size() - 1);
    std::memcpy(m.path.data(), path.data(), n);
    m.path[n] = '\0';
    m.damaged.store(false, std::memory_order_relaxed);
    const auto b = reinterpret_cast<uintptr_t>(begin);
    m.end.store((b + size + g_page - 1) / g_page * g_page, std::memory_order_release);
    m.begin.store(b, std::memory_order_release);
    return &m;
  }
  return nullptr;
}

void Unguard(GuardedMapping* m) {
  if (m == nullptr) return;
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  m->begin.store(0, std::memory_order_release);
}

}  // namespace

Status CheckMappedFile(const uint8_t* mapping) {
  const auto begin = reinterpret_cast<uintptr_t>(mapping);
  if (begin == 0) return Status::Ok();
  for (const GuardedMapping& m : g_mappings) {
    if (m.begin.load(std::memory_order_acquire) != begin) continue;
    if (!m.damaged.load(std::memory_order_acquire)) return Status::Ok();
    std::string message = "'";
    message += m.path.data();
    message +=
        "' was truncated while it was in use: what was read from it since were zeros, not its "
        "bytes; load it again once the file is whole";
    return Failed(std::move(message));
  }
  return Status::Ok();
}

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
  GuardedMapping* guard = Guard(base, size, path);
  return FileBytes{std::shared_ptr<const uint8_t>(base,
                                                  [size, guard](const uint8_t* q) {
                                                    Unguard(guard);
                                                    ::munmap(const_cast<uint8_t*>(q), size);
                                                  }),
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

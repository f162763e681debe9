// The process's packed weights, by the file bytes they were packed from (packed_weights.h).
#include "packed_weights.h"

#include <map>
#include <mutex>
#include <vector>

namespace ge::host_cpu {
namespace {

struct Entry {
  std::weak_ptr<const uint8_t> source;  // its owner is the file's mapping
  dnnl::memory::desc plain, packed;
  std::weak_ptr<uint8_t> bytes;
};

struct Registry {
  std::mutex mutex;
  std::map<const uint8_t*, std::vector<Entry>> by_address;
  size_t swept = 0;  // addresses left after the last sweep
};

Registry& Packed() {
  static auto* registry = new Registry();  // lives as long as the plugin
  return *registry;
}

bool SameOwner(const std::weak_ptr<const uint8_t>& a, const std::shared_ptr<const uint8_t>& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}

}  // namespace

std::shared_ptr<uint8_t> FindPackedWeight(const std::shared_ptr<const uint8_t>& source,
                                          const dnnl::memory::desc& plain,
                                          const dnnl::memory::desc& packed) {
  if (source == nullptr) return nullptr;
  Registry& r = Packed();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_address.find(source.get());
  if (it == r.by_address.end()) return nullptr;
  for (const Entry& e : it->second) {
    // A mapping alive keeps its address from any other: the same address and owner are the
    // same bytes of the same file.
    if (e.source.expired() || !SameOwner(e.source, source)) continue;
    if (e.plain != plain || e.packed != packed) continue;
    if (std::shared_ptr<uint8_t> bytes = e.bytes.lock()) return bytes;
  }
  return nullptr;
}

void AddPackedWeight(const std::shared_ptr<const uint8_t>& source, const dnnl::memory::desc& plain,
                     const dnnl::memory::desc& packed, const std::shared_ptr<uint8_t>& bytes) {
  if (source == nullptr || bytes == nullptr) return;
  Registry& r = Packed();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto gone = [](const Entry& e) { return e.source.expired() || e.bytes.expired(); };
  std::vector<Entry>& entries = r.by_address[source.get()];
  std::erase_if(entries, gone);
  entries.push_back({source, plain, packed, bytes});
  // Entries of weights nothing holds any more go once the addresses have doubled since the last
  // sweep: linear time over all the adds.
  if (r.by_address.size() <= 2 * r.swept + 64) return;
  for (auto it = r.by_address.begin(); it != r.by_address.end();) {
    std::erase_if(it->second, gone);
    it = it->second.empty() ? r.by_address.erase(it) : std::next(it);
  }
  r.swept = r.by_address.size();
}

}  // namespace ge::host_cpu

// The .om container: writing and checking.
#include "om_file.h"

#include <algorithm>
#include <cstring>

namespace ge::om {
namespace {

void PutU32(std::string& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void PutU64(std::string& out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
uint32_t GetU32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

bool KnownType(uint32_t type) {
  switch (static_cast<PartitionType>(type)) {
    case PartitionType::kModelDef:
    case PartitionType::kWeightsData:
    case PartitionType::kTaskInfo:
    case PartitionType::kReport:
    case PartitionType::kPipeline:
    case PartitionType::kStages:
      return true;
  }
  return false;
}

std::string Damaged(const std::string& what) {
  return "the compiled model is damaged: " + what + " (compile it again with gec compile)";
}

}  // namespace

std::span<const uint8_t> OmFile::Get(PartitionType type) const {
  auto it = partitions.find(type);
  return it == partitions.end() ? std::span<const uint8_t>() : it->second;
}

uint64_t Partition::size() const {
  uint64_t total = 0;
  for (const auto& piece : pieces) total += piece.size();
  return total;
}

std::string HeaderFor(const std::vector<std::pair<PartitionType, uint64_t>>& partitions,
                      std::vector<uint64_t>& offsets) {
  const size_t table_end = kHeaderBytes + kTableEntryBytes * partitions.size();
  offsets.clear();
  uint64_t end = table_end;
  for (const auto& [type, size] : partitions) {
    if (type == PartitionType::kWeightsData || type == PartitionType::kStages) {
      end = (end + kWeightsAlignment - 1) / kWeightsAlignment * kWeightsAlignment;
    }
    offsets.push_back(end);
    end += size;
  }
  offsets.push_back(end);
  std::string out(table_end, '\0');
  std::memcpy(out.data(), kMagic, 8);
  PutU32(out, 8, kFormatVersion);
  PutU32(out, 12, static_cast<uint32_t>(kHeaderBytes));
  PutU64(out, 16, end);
  PutU32(out, 24, static_cast<uint32_t>(partitions.size()));
  for (size_t i = 0; i < partitions.size(); ++i) {
    const size_t at = kHeaderBytes + kTableEntryBytes * i;
    PutU32(out, at, static_cast<uint32_t>(partitions[i].first));
    PutU64(out, at + 8, offsets[i]);
    PutU64(out, at + 16, partitions[i].second);
  }
  return out;
}

uint64_t FileSize(const std::vector<Partition>& partitions) {
  std::vector<std::pair<PartitionType, uint64_t>> sizes;
  for (const Partition& p : partitions) sizes.emplace_back(p.type, p.size());
  std::vector<uint64_t> offsets;
  (void)HeaderFor(sizes, offsets);
  return offsets.back();
}

namespace {

// The header and the partition table of a file holding `partitions`, with each partition's
// offset; the weights start at a multiple of kWeightsAlignment.
std::string HeaderAndTable(const std::vector<Partition>& partitions,
                           std::vector<uint64_t>& offsets) {
  std::vector<std::pair<PartitionType, uint64_t>> sizes;
  for (const Partition& p : partitions) sizes.emplace_back(p.type, p.size());
  std::string head = HeaderFor(sizes, offsets);
  offsets.pop_back();  // the end
  return head;
}

// Writes the file through `put(bytes, size)` and `pad(count)` (zeros up to the next offset).
template <typename Put, typename Pad>
void Emit(const std::vector<Partition>& partitions, Put put, Pad pad) {
  std::vector<uint64_t> offsets;
  const std::string head = HeaderAndTable(partitions, offsets);
  put(reinterpret_cast<const uint8_t*>(head.data()), head.size());
  uint64_t at = head.size();
  for (size_t i = 0; i < partitions.size(); ++i) {
    pad(offsets[i] - at);
    at = offsets[i];
    for (const auto& piece : partitions[i].pieces) {
      put(piece.data(), piece.size());
      at += piece.size();
    }
  }
}

}  // namespace

std::string Write(const std::vector<Partition>& partitions) {
  std::string out;
  Emit(
      partitions,
      [&](const uint8_t* data, size_t size) {
        out.append(reinterpret_cast<const char*>(data), size);
      },
      [&](uint64_t count) { out.append(count, '\0'); });
  return out;
}

Status WriteTo(std::ostream& out, const std::string& path,
               const std::vector<Partition>& partitions) {
  Emit(
      partitions,
      [&](const uint8_t* data, size_t size) {
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
      },
      [&](uint64_t count) {
        static constexpr char kZeros[kWeightsAlignment] = {};
        for (; count > 0; count -= std::min<uint64_t>(count, sizeof(kZeros))) {
          out.write(kZeros,
                    static_cast<std::streamsize>(std::min<uint64_t>(count, sizeof(kZeros))));
        }
      });
  out.flush();
  if (!out) return Failed("writing '" + path + "' failed");
  return Status::Ok();
}

bool HasMagic(std::span<const uint8_t> prefix) {
  return prefix.size() >= 8 && std::memcmp(prefix.data(), kMagic, 8) == 0;
}

Result<OmFile> Parse(FileBytes bytes) {
  const std::span<const uint8_t> all = bytes.span();
  if (!HasMagic(all)) {
    return ParamInvalid(
        "not an OpenGE compiled model: it does not start with \"OPENGEOM\" (a .om is written by "
        "gec compile; an .om from an OpenGE older than format 2 must be compiled again)");
  }
  if (all.size() < kHeaderBytes) {
    return ParamInvalid(Damaged("its header is cut short (" + std::to_string(all.size()) + " of " +
                                std::to_string(kHeaderBytes) + " bytes)"));
  }
  const uint8_t* p = all.data();
  const uint32_t version = GetU32(p + 8);
  if (version != kFormatVersion) {
    return ParamInvalid("compiled model format " + std::to_string(version) +
                        " is not supported (this build reads format " +
                        std::to_string(kFormatVersion) + "); compile the model again");
  }
  if (GetU32(p + 12) != kHeaderBytes) {
    return ParamInvalid(Damaged("its header size is " + std::to_string(GetU32(p + 12)) + ", not " +
                                std::to_string(kHeaderBytes)));
  }
  const uint64_t length = GetU64(p + 16);
  if (length != all.size()) {
    return ParamInvalid(Damaged("the header gives " + std::to_string(length) +
                                " bytes, the file has " + std::to_string(all.size()) +
                                (length > all.size() ? " (it is truncated)" : "")));
  }
  const uint32_t count = GetU32(p + 24);
  if (count > kMaxPartitions) {
    return ParamInvalid(Damaged("it lists " + std::to_string(count) + " partitions (at most " +
                                std::to_string(kMaxPartitions) + ")"));
  }
  const uint64_t table_end = kHeaderBytes + kTableEntryBytes * uint64_t{count};
  if (table_end > all.size()) return ParamInvalid(Damaged("its partition table is cut short"));

  OmFile file;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* entry = p + kHeaderBytes + kTableEntryBytes * i;
    const uint32_t type = GetU32(entry);
    const uint64_t offset = GetU64(entry + 8);
    const uint64_t size = GetU64(entry + 16);
    const std::string which =
        "partition " + std::to_string(i) + " (type " + std::to_string(type) + ")";
    if (!KnownType(type)) return ParamInvalid(Damaged(which + " is of an unknown type"));
    if (offset < table_end || offset > all.size() || size > all.size() - offset) {
      return ParamInvalid(Damaged(which + " at bytes " + std::to_string(offset) + "+" +
                                  std::to_string(size) + " lies outside the file's " +
                                  std::to_string(table_end) + ".." + std::to_string(all.size())));
    }
    const auto kind = static_cast<PartitionType>(type);
    if ((kind == PartitionType::kWeightsData || kind == PartitionType::kStages) &&
        offset % kWeightsAlignment != 0) {
      return ParamInvalid(Damaged(which + " starts at byte " + std::to_string(offset) +
                                  ", not a multiple of " + std::to_string(kWeightsAlignment)));
    }
    if (!file.partitions.emplace(kind, all.subspan(offset, size)).second) {
      return ParamInvalid(Damaged(which + " appears twice"));
    }
    ranges.emplace_back(offset, size);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i - 1].first + ranges[i - 1].second > ranges[i].first) {
      return ParamInvalid(
          Damaged("two partitions overlap at byte " + std::to_string(ranges[i].first)));
    }
  }
  const bool pipeline = file.partitions.count(PartitionType::kPipeline) != 0;
  if (pipeline && file.partitions.count(PartitionType::kStages) == 0) {
    return ParamInvalid(Damaged("it has a pipeline manifest but no stages partition"));
  }
  for (PartitionType required : {PartitionType::kModelDef, PartitionType::kTaskInfo}) {
    if (pipeline) break;
    if (file.partitions.count(required) == 0) {
      return ParamInvalid(Damaged(std::string("it has no ") +
                                  (required == PartitionType::kModelDef ? "graph" : "task") +
                                  " partition"));
    }
  }
  file.bytes = std::move(bytes);
  return file;
}

}  // namespace ge::om

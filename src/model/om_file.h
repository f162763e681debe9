// The .om container: a fixed header, a partition table and the partitions, in the shape of GE's
// OM file (ModelFileHeader + ModelPartitionTable; partition types numbered as GE numbers them).
//
//   offset 0   header, 64 bytes, little-endian:
//              magic "OPENGEOM" | u32 format version | u32 header size (64) | u64 file length |
//              u32 partition count | 36 bytes zero
//   offset 64  partition table: per partition u32 type | u32 zero | u64 offset | u64 size
//   then       the partitions, in table order; the weights partition starts at a multiple of
//              kWeightsAlignment, so a reader that maps the file shares its pages
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ge/graph/file_bytes.h"
#include "ge/graph/status.h"

namespace ge::om {

enum class PartitionType : uint32_t {
  kModelDef = 0,     ///< the graph: a ge_ir.proto ModelDef, Const values moved to the weights
  kWeightsData = 1,  ///< every Const's bytes, each at a multiple of 64 within the partition
  kTaskInfo = 2,     ///< openge.model.TaskModel (om_model.proto): tasks, memory plans, streams
  kReport = 100,     ///< the compile report as JSON (informative; not read back)
  /// A pipeline's manifest (JSON: stages, the tensors that cross between them); a file with one
  /// holds no graph of its own but its stages' .om files in kStages.
  kPipeline = 101,
  /// The stages' .om files end to end, each at a multiple of kWeightsAlignment (so the weights
  /// of each stay aligned when the file is mapped); the manifest gives each one's bytes.
  kStages = 102,
};

inline constexpr char kMagic[] = "OPENGEOM";  ///< the first 8 bytes of every .om
inline constexpr uint32_t kFormatVersion = 2;
inline constexpr size_t kHeaderBytes = 64;
inline constexpr size_t kTableEntryBytes = 24;
inline constexpr size_t kMaxPartitions = 16;
inline constexpr uint64_t kWeightsAlignment = 4096;

/// The bytes of a whole file, kept alive by whoever holds a view into them.
using FileBytes = ge::FileBytes;

/// A checked file: each partition's bytes, by type.
struct OmFile {
  FileBytes bytes;
  std::map<PartitionType, std::span<const uint8_t>> partitions;
  /// The partition's bytes; empty when the file has none.
  std::span<const uint8_t> Get(PartitionType type) const;
};

/// A partition's bytes: pieces laid end to end, so a large partition (the weights) is written
/// from where its bytes lie, never gathered into one buffer first.
struct Partition {
  PartitionType type;
  std::vector<std::span<const uint8_t>> pieces;
  uint64_t size() const;
};

/// The header and partition table of a file whose partitions have these types and sizes, in
/// this order; `offsets` gets each partition's offset as Write lays them out, then the file's
/// length.
std::string HeaderFor(const std::vector<std::pair<PartitionType, uint64_t>>& partitions,
                      std::vector<uint64_t>& offsets);
/// The length of the file holding `partitions`.
uint64_t FileSize(const std::vector<Partition>& partitions);

/// The file holding `partitions` in this order.
std::string Write(const std::vector<Partition>& partitions);
/// The same file, written to `out` piece by piece; the error names `path`.
Status WriteTo(std::ostream& out, const std::string& path,
               const std::vector<Partition>& partitions);

/// Checks the header and the table (magic, version, lengths, bounds, overlaps, duplicate or
/// unknown types, alignment of the weights and the stages; a graph and a task partition, or a
/// pipeline manifest) and names what is wrong.
Result<OmFile> Parse(FileBytes bytes);

/// True when `prefix` starts with the magic.
bool HasMagic(std::span<const uint8_t> prefix);

}  // namespace ge::om

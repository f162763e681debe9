// Packed weights shared across compiles in one process. A Const weight that is a copy of bytes in
// a model's file (GeTensor::FileSource) and that a kernel reorders into oneDNN's layout for a
// weight packer is packed once while anything holds the packed bytes: every compile of the same
// model in the process (a shape plan cache's plans for different input shapes) packs nothing
// again and holds the one copy.
#pragma once

#include <cstdint>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>

namespace ge::host_cpu {

/// The packed bytes of the file bytes at `source` read as `plain` and reordered into `packed`,
/// while something holds them; null otherwise. `source` identifies the bytes only while the
/// mapping it keeps alive lives, which the entry checks.
std::shared_ptr<uint8_t> FindPackedWeight(const std::shared_ptr<const uint8_t>& source,
                                          const dnnl::memory::desc& plain,
                                          const dnnl::memory::desc& packed);
/// Records `bytes` as what FindPackedWeight gives for these arguments, for as long as others
/// hold them (the registry keeps neither the bytes nor the mapping alive).
void AddPackedWeight(const std::shared_ptr<const uint8_t>& source, const dnnl::memory::desc& plain,
                     const dnnl::memory::desc& packed, const std::shared_ptr<uint8_t>& bytes);

}  // namespace ge::host_cpu

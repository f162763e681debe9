// NumPy .npy files (format 1.0 / 2.0 / 3.0, little-endian, C order) as GeTensors.
#pragma once

#include <cstdint>
#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Reads an .npy file: dtypes bool, int8/16/32/64, uint8/16/32/64, float16/32/64. Only a regular
/// file is read (a FIFO, a device or a directory is refused before it is opened), and its data
/// only once the header is parsed and the file's size matches what the header's shape needs;
/// data over `max_bytes` (when > 0) is refused unread. Errors name the file and what is wrong
/// (not an .npy, Fortran order, big-endian, a malformed header field, truncated data, ...).
GE_API Result<GeTensor> ReadNpy(const std::string& path, int64_t max_bytes = 0);
/// Parses .npy bytes held in memory (`name` is used in messages); the header as strictly as
/// ReadNpy's.
GE_API Result<GeTensor> ParseNpy(const std::string& bytes, const std::string& name);
/// Writes `tensor` as an .npy file (format 1.0).
GE_API Status WriteNpy(const std::string& path, const GeTensor& tensor);
/// The .npy bytes of `tensor`.
GE_API Result<std::string> SerializeNpy(const GeTensor& tensor);

}  // namespace ge

// NumPy .npy files (format 1.0 / 2.0 / 3.0, little-endian, C order) as GeTensors.
#pragma once

#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Reads an .npy file: dtypes bool, int8/16/32/64, uint8/16/32/64, float16/32/64. Errors name the
/// file and what is wrong (not an .npy, Fortran order, big-endian, truncated data, ...).
GE_API Result<GeTensor> ReadNpy(const std::string& path);
/// Parses .npy bytes held in memory (`name` is used in messages).
GE_API Result<GeTensor> ParseNpy(const std::string& bytes, const std::string& name);
/// Writes `tensor` as an .npy file (format 1.0).
GE_API Status WriteNpy(const std::string& path, const GeTensor& tensor);
/// The .npy bytes of `tensor`.
GE_API Result<std::string> SerializeNpy(const GeTensor& tensor);

}  // namespace ge

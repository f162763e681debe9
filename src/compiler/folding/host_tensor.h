// Helpers for the host kernels of constant folding: reading and writing tensor elements of any
// supported dtype as int64 or double, N-d index arithmetic and broadcasting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"

namespace ge::folding {

/// "Cannot fold this" (an unsupported dtype, a value the kernel does not handle): the pass skips
/// the node and notes the reason; it is not an error of the model.
Status CannotFold(std::string reason);
bool IsCannotFold(const Status& status);

bool IsFloatType(DataType dtype);
bool IsIntType(DataType dtype);  ///< integers and bool
/// Element size in bytes for the dtypes folding handles, 0 otherwise.
int64_t ElementBytes(DataType dtype);

int64_t ElementCount(const std::vector<int64_t>& dims);
std::vector<int64_t> Strides(const std::vector<int64_t>& dims);

/// All elements as int64 (ints, bool) or as double (floats, and ints converted).
Result<std::vector<int64_t>> ReadInts(const GeTensor& tensor);
Result<std::vector<double>> ReadDoubles(const GeTensor& tensor);

/// A tensor of `dtype` and `dims` holding `values` converted to dtype.
Result<GeTensor> MakeTensorFromInts(DataType dtype, const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& values);
Result<GeTensor> MakeTensorFromDoubles(DataType dtype, const std::vector<int64_t>& dims,
                                       const std::vector<double>& values);
/// A tensor with raw bytes (already in dtype's layout).
GeTensor MakeTensorFromBytes(DataType dtype, const std::vector<int64_t>& dims,
                             std::vector<uint8_t> bytes);

/// NumPy broadcasting of two shapes; an error names both.
Result<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                           const std::vector<int64_t>& b);
/// For each element of `out_dims`, the flat index of the element of `in_dims` it reads when
/// `in_dims` is broadcast to `out_dims`.
std::vector<int64_t> BroadcastIndex(const std::vector<int64_t>& in_dims,
                                    const std::vector<int64_t>& out_dims);

const std::vector<int64_t>& DimsOf(const GeTensor& tensor);

/// Constant input `i` of a host kernel, or CannotFold when it is absent or not a constant.
Result<const GeTensor*> Need(const std::vector<const GeTensor*>& inputs, size_t i);

}  // namespace ge::folding

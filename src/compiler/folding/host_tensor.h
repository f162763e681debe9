// Helpers for the host kernels of constant folding: the "cannot fold" status, element counts and
// making the tensors the Shape family and views give.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"

namespace ge::folding {

/// "Cannot fold this" (an unsupported dtype, a value the kernel does not handle): the pass skips
/// the node and notes the reason; it is not an error of the model.
Status CannotFold(std::string reason);
bool IsCannotFold(const Status& status);
/// True when `op` reads or makes DT_STRING tensors: Consts hold strings stored and kernels read
/// them as running heads (ge/graph/string_tensor.h), so such a node is left to the run.
bool TouchesStrings(const OpDesc& op);

/// The product of `dims`; -1 for a negative dim or an overflow.
int64_t ElementCount(const std::vector<int64_t>& dims);

/// A tensor with raw bytes (already in dtype's layout).
GeTensor MakeTensorFromBytes(DataType dtype, const std::vector<int64_t>& dims,
                             std::vector<uint8_t> bytes);
/// A DT_INT32 or DT_INT64 tensor of `dims` holding `values` (CannotFold for another dtype).
Result<GeTensor> MakeTensorFromInts(DataType dtype, const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& values);

const std::vector<int64_t>& DimsOf(const GeTensor& tensor);

/// Constant input `i` of a host kernel, or CannotFold when it is absent or not a constant.
Result<const GeTensor*> Need(const std::vector<const GeTensor*>& inputs, size_t i);

}  // namespace ge::folding

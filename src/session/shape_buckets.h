// Shape buckets (openge.shapeBuckets) and the resizing of tensors into and out of them: a shape
// plan cache compiles one plan per bucket of a dim's sizes, pads inputs up to the bucket and cuts
// outputs back to the request.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"

namespace ge::session_internal {

/// openge.shapeBuckets for one named dim: sizes rounded up to a multiple, or to the first of a
/// list of sizes that holds them (a size beyond the largest is its own bucket).
struct Bucket {
  int64_t multiple = 0;
  std::vector<int64_t> sizes;  ///< ascending, when `multiple` is 0

  int64_t SizeFor(int64_t n) const;
};

/// "DIM:M;DIM:S1,S2,..." (empty entries allowed) → bucket by dim name; an error quotes the
/// option and the entry at fault.
Result<std::map<std::string, Bucket>> ParseBuckets(const std::string& text);

/// `from`'s values at the same indexes of a tensor of `dims`: zeros where `dims` is larger, cut
/// where it is smaller. `what` names the tensor in the error (a rank or size that does not fit).
Result<GeTensor> Resized(const GeTensor& from, const std::vector<int64_t>& dims,
                         const std::string& what);

}  // namespace ge::session_internal

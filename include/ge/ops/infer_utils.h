// Shape arithmetic shared by the operator prototypes: broadcasting, axis normalization,
// convolution/pooling output sizes, reductions, matmul shapes. Unknown dims (-1) and unknown rank
// ({-2}) propagate: a dim that cannot be known stays -1; known dims are kept.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/checked_math.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge::infer {

/// {-2}.
GE_API GeShape UnknownRankShape();
/// `rank` dims of -1.
GE_API GeShape UnknownDimsShape(size_t rank);
inline bool IsUnknownRank(const GeShape& s) { return s.IsUnknownDimNum(); }
/// The length of Range(start, limit, delta): max(ceil((limit - start) / delta), 0); -1 when
/// that is not a count (delta 0, an operand NaN or infinite, or 2^62 elements or more). Inline:
/// the kernels that run Range use it as well.
inline int64_t RangeLength(double start, double limit, double delta) {
  const double n = std::ceil((limit - start) / delta);
  if (delta == 0 || !std::isfinite(n) || n >= 0x1p62) return -1;
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

/// The dims [first, second) of a rank-`rank` shape that ONNX's Shape(start, end) returns: negative
/// values count from the back, both are clamped to [0, rank], and the range is never negative.
/// `end` < 0 with `has_end` false means "to the end". Inline: the kernels that run Shape use it.
inline std::pair<int64_t, int64_t> ShapeSlice(int64_t rank, int64_t start, int64_t end,
                                              bool has_end) {
  if (start < 0) start += rank;
  if (!has_end) end = rank;
  if (end < 0) end += rank;
  start = start < 0 ? 0 : start > rank ? rank : start;
  end = end < start ? start : end > rank ? rank : end;
  return {start, end};
}

/// ONNX Slice along one dim of known size `dim` >= 0: the first index taken and the number of
/// elements from `start` towards `end` by `step` (not 0), after ONNX's clamping. No intermediate
/// overflows, whatever the values (steps of +-2^63 take one element). Inline: the kernels that run
/// Slice use it.
struct SliceRange {
  int64_t begin = 0;
  int64_t length = 0;
};
inline SliceRange SliceAlong(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (dim == 0) return {0, 0};
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    return {start, end > start ? checked::CeilDiv(end - start, step) : 0};
  }
  start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
  end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
  // -step fits for every step but INT64_MIN, whose one step already leaves the dim.
  const int64_t stride = step == INT64_MIN ? INT64_MAX : -step;
  return {start, start > end ? checked::CeilDiv(start - end, stride) : 0};
}

/// Rank of a known-rank shape; -1 for unknown rank.
GE_API int64_t RankOf(const GeShape& s);

/// Product of dims: -1 if any is unknown (or the product overflows int64).
GE_API int64_t DimProduct(const std::vector<int64_t>& dims, size_t begin = 0,
                          size_t end = SIZE_MAX);
/// a * b with unknown (-1) propagation.
GE_API int64_t MulDim(int64_t a, int64_t b);
/// a + b with unknown (-1) propagation.
GE_API int64_t AddDim(int64_t a, int64_t b);

/// Numpy broadcasting of two dims; false when they are known and incompatible.
GE_API bool BroadcastDim(int64_t a, int64_t b, int64_t* out);
/// Numpy (multidirectional) broadcasting. The error says "[2,3] and [4,3] do not broadcast
/// (dim -2: 2 vs 4)"; callers prefix the node and input names.
GE_API Result<GeShape> BroadcastShapes(const GeShape& a, const GeShape& b);
/// Unidirectional broadcasting: `from` must broadcast to `to` (ONNX's PRelu slope, Expand ...).
GE_API bool CanBroadcastTo(const GeShape& from, const GeShape& to);

/// axis in [-rank, rank) → [0, rank); an error otherwise ("axis 3 is out of range for rank 2").
GE_API Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
/// Normalizes every axis; duplicates are an error. The result is sorted.
GE_API Result<std::vector<int64_t>> NormalizeAxes(const std::vector<int64_t>& axes, int64_t rank);

/// Output extent of a convolution / pooling window along one spatial dim (ONNX formula).
/// `ceil_mode` rounds up; the last window must then start inside the input or its begin pad.
/// -1 when `in` is unknown; an error when the window extent or the padded input overflows int64.
GE_API Result<int64_t> ConvOutputDim(int64_t in, int64_t kernel, int64_t stride, int64_t dilation,
                                     int64_t pad_begin, int64_t pad_end, bool ceil_mode = false);

/// Spatial attributes of a convolution or pooling after defaults and auto_pad.
struct WindowParams {
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;  ///< ONNX order [b1, b2, ..., e1, e2, ...]
  std::string auto_pad = "NOTSET";
  bool ceil_mode = false;
};
/// Fills defaults (strides/dilations 1, pads 0) for `spatial_rank` dims and checks lengths and
/// values. The error names the attribute.
GE_API Status CompleteWindowParams(size_t spatial_rank, WindowParams& params);
/// Output spatial extents for `in_spatial` under `params` (auto_pad SAME_UPPER / SAME_LOWER /
/// VALID / NOTSET, ONNX semantics).
/// An error when an extent overflows int64.
GE_API Result<std::vector<int64_t>> WindowOutputDims(const std::vector<int64_t>& in_spatial,
                                                     const WindowParams& params);

/// Shape after reducing `axes` (already normalized). Empty axes reduce every dim.
GE_API GeShape ReduceShape(const GeShape& in, const std::vector<int64_t>& axes, bool keepdims);

/// ONNX MatMul (numpy matmul): 1-D operands are promoted and the added dim removed; batch dims
/// broadcast. The error names the mismatching dims.
GE_API Result<GeShape> MatMulShape(const GeShape& a, const GeShape& b, bool transpose_a = false,
                                   bool transpose_b = false);

/// The shape given by a shape tensor's values (Reshape-style, no 0/-1 handling).
GE_API GeShape ShapeFromValues(const std::vector<int64_t>& values);

}  // namespace ge::infer

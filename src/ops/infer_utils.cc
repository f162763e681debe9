// Shape arithmetic for inference: broadcasting, axes, windows, reductions, matmul.
#include "ge/ops/infer_utils.h"

#include <algorithm>
#include <limits>

#include "ge/graph/checked_math.h"

namespace ge::infer {

GeShape UnknownRankShape() { return GeShape({UNKNOWN_DIM_NUM}); }

GeShape UnknownDimsShape(size_t rank) { return GeShape(std::vector<int64_t>(rank, UNKNOWN_DIM)); }

int64_t RankOf(const GeShape& s) {
  return s.IsUnknownDimNum() ? -1 : static_cast<int64_t>(s.GetDims().size());
}

int64_t MulDim(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a < 0 || b < 0) return UNKNOWN_DIM;
  if (a > std::numeric_limits<int64_t>::max() / b) return UNKNOWN_DIM;
  return a * b;
}

int64_t AddDim(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return UNKNOWN_DIM;
  if (a > std::numeric_limits<int64_t>::max() - b) return UNKNOWN_DIM;
  return a + b;
}

int64_t DimProduct(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  end = std::min(end, dims.size());
  int64_t p = 1;
  bool unknown = false;
  for (size_t i = begin; i < end; ++i) {
    if (dims[i] == 0) return 0;
    if (dims[i] < 0) {
      unknown = true;
      continue;
    }
    p = MulDim(p, dims[i]);
    if (p < 0) unknown = true;
  }
  return unknown ? UNKNOWN_DIM : p;
}

bool BroadcastDim(int64_t a, int64_t b, int64_t* out) {
  if (a == b) {
    *out = a;
  } else if (a == 1) {
    *out = b;
  } else if (b == 1) {
    *out = a;
  } else if (a < 0) {
    *out = b;  // a is 1 or b; either way the result is b (when b is known and not 1)
  } else if (b < 0) {
    *out = a;
  } else {
    return false;
  }
  return true;
}

Result<GeShape> BroadcastShapes(const GeShape& a, const GeShape& b) {
  if (a.IsUnknownDimNum() || b.IsUnknownDimNum()) return UnknownRankShape();
  const auto& da = a.GetDims();
  const auto& db = b.GetDims();
  const size_t rank = std::max(da.size(), db.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t x = i < rank - da.size() ? 1 : da[i - (rank - da.size())];
    const int64_t y = i < rank - db.size() ? 1 : db[i - (rank - db.size())];
    if (!BroadcastDim(x, y, &out[i])) {
      return ParamInvalid(a.ToString() + " and " + b.ToString() + " do not broadcast (dim " +
                          std::to_string(static_cast<int64_t>(i) - static_cast<int64_t>(rank)) +
                          ": " + std::to_string(x) + " vs " + std::to_string(y) + ")");
    }
  }
  return GeShape(std::move(out));
}

bool CanBroadcastTo(const GeShape& from, const GeShape& to) {
  if (from.IsUnknownDimNum() || to.IsUnknownDimNum()) return true;
  const auto& f = from.GetDims();
  const auto& t = to.GetDims();
  if (f.size() > t.size()) return false;
  for (size_t i = 0; i < f.size(); ++i) {
    const int64_t x = f[f.size() - 1 - i];
    const int64_t y = t[t.size() - 1 - i];
    if (x == y || x == 1 || x < 0 || y < 0) continue;
    return false;
  }
  return true;
}

Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (rank < 0) return axis;  // unknown rank: callers must not rely on it
  if (axis < -rank || axis >= rank) {
    return ParamInvalid("axis " + std::to_string(axis) + " is out of range for rank " +
                        std::to_string(rank) + " (valid: [" + std::to_string(-rank) + ", " +
                        std::to_string(rank - 1) + "])");
  }
  return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> NormalizeAxes(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    GE_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(a, rank));
    if (std::find(out.begin(), out.end(), n) != out.end()) {
      return ParamInvalid("axis " + std::to_string(a) + " is given twice (rank " +
                          std::to_string(rank) + ")");
    }
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<int64_t> ConvOutputDim(int64_t in, int64_t kernel, int64_t stride, int64_t dilation,
                              int64_t pad_begin, int64_t pad_end, bool ceil_mode) {
  if (in < 0 || kernel < 0 || stride <= 0) return UNKNOWN_DIM;
  GE_ASSIGN_OR_RETURN(const int64_t extent, checked::WindowExtent(kernel, dilation));
  int64_t padded = 0;
  if (!checked::Add(in, pad_begin, &padded) || !checked::Add(padded, pad_end, &padded)) {
    return ParamInvalid("input dim " + std::to_string(in) + " with pads " +
                        std::to_string(pad_begin) + " and " + std::to_string(pad_end) +
                        " overflows int64");
  }
  const int64_t span = padded - extent;  // both non-negative: cannot overflow
  if (span < 0) return 0;
  int64_t out = span / stride + 1;
  if (ceil_mode && span % stride != 0) {
    // The last window must start inside the input or its begin padding (PyTorch, ONNX >= 1.15):
    // it starts at out * stride, which is span rounded up to a stride multiple.
    if (out <= (in + pad_begin - 1) / stride) ++out;
  }
  return out;
}

Status CompleteWindowParams(size_t spatial_rank, WindowParams& p) {
  auto fill = [&](std::vector<int64_t>& v, size_t n, int64_t value, const char* name) -> Status {
    if (v.empty()) v.assign(n, value);
    if (v.size() != n) {
      return ParamInvalid(std::string("attribute '") + name + "' has " + std::to_string(v.size()) +
                          " values, expected " + std::to_string(n));
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(fill(p.strides, spatial_rank, 1, "strides"));
  GE_RETURN_IF_ERROR(fill(p.dilations, spatial_rank, 1, "dilations"));
  GE_RETURN_IF_ERROR(fill(p.pads, 2 * spatial_rank, 0, "pads"));
  if (p.kernel.size() != spatial_rank) {
    return ParamInvalid("kernel has " + std::to_string(p.kernel.size()) +
                        " spatial dims, expected " + std::to_string(spatial_rank));
  }
  for (size_t i = 0; i < spatial_rank; ++i) {
    if (p.strides[i] <= 0) return ParamInvalid("attribute 'strides' must be positive");
    if (p.dilations[i] <= 0) return ParamInvalid("attribute 'dilations' must be positive");
    if (p.kernel[i] == 0 || p.kernel[i] < -1) {
      return ParamInvalid("kernel dim " + std::to_string(i) + " is " + std::to_string(p.kernel[i]));
    }
    if (p.kernel[i] > 0)
      GE_RETURN_IF_ERROR(checked::WindowExtent(p.kernel[i], p.dilations[i]).status());
  }
  for (int64_t pad : p.pads) {
    if (pad < 0) return ParamInvalid("attribute 'pads' must not be negative");
  }
  if (p.auto_pad != "NOTSET" && p.auto_pad != "SAME_UPPER" && p.auto_pad != "SAME_LOWER" &&
      p.auto_pad != "VALID") {
    return ParamInvalid("attribute 'auto_pad' is '" + p.auto_pad +
                        "', expected NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> WindowOutputDims(const std::vector<int64_t>& in,
                                              const WindowParams& p) {
  std::vector<int64_t> out(in.size(), UNKNOWN_DIM);
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) {
    if (in[i] < 0) continue;
    if (p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER") {
      out[i] = checked::CeilDiv(in[i], p.strides[i]);
    } else if (p.auto_pad == "VALID") {
      GE_ASSIGN_OR_RETURN(out[i], ConvOutputDim(in[i], p.kernel[i], p.strides[i], p.dilations[i], 0,
                                                0, p.ceil_mode));
    } else {
      GE_ASSIGN_OR_RETURN(out[i], ConvOutputDim(in[i], p.kernel[i], p.strides[i], p.dilations[i],
                                                p.pads[i], p.pads[i + n], p.ceil_mode));
    }
  }
  return out;
}

GeShape ReduceShape(const GeShape& in, const std::vector<int64_t>& axes, bool keepdims) {
  if (in.IsUnknownDimNum()) return UnknownRankShape();
  const auto& dims = in.GetDims();
  std::vector<int64_t> out;
  for (size_t i = 0; i < dims.size(); ++i) {
    const bool reduced =
        axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
    if (!reduced) {
      out.push_back(dims[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return GeShape(std::move(out));
}

Result<GeShape> MatMulShape(const GeShape& a, const GeShape& b, bool transpose_a,
                            bool transpose_b) {
  if (a.IsUnknownDimNum() || b.IsUnknownDimNum()) return UnknownRankShape();
  std::vector<int64_t> da = a.GetDims();
  std::vector<int64_t> db = b.GetDims();
  if (da.empty() || db.empty()) {
    return ParamInvalid("matmul operands must not be scalars (got " + a.ToString() + " and " +
                        b.ToString() + ")");
  }
  const bool a_vec = da.size() == 1;
  const bool b_vec = db.size() == 1;
  if (a_vec) da.insert(da.begin(), 1);
  if (b_vec) db.push_back(1);
  if (transpose_a && !a_vec) std::swap(da[da.size() - 1], da[da.size() - 2]);
  if (transpose_b && !b_vec) std::swap(db[db.size() - 1], db[db.size() - 2]);
  const int64_t ka = da.back();
  const int64_t kb = db[db.size() - 2];
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return ParamInvalid("inner dims do not match: " + a.ToString() + (transpose_a ? "^T" : "") +
                        " x " + b.ToString() + (transpose_b ? "^T" : "") + " (" +
                        std::to_string(ka) + " vs " + std::to_string(kb) + ")");
  }
  GeShape batch_a(std::vector<int64_t>(da.begin(), da.end() - 2));
  GeShape batch_b(std::vector<int64_t>(db.begin(), db.end() - 2));
  GE_ASSIGN_OR_RETURN(GeShape batch, BroadcastShapes(batch_a, batch_b));
  std::vector<int64_t> out = batch.GetDims();
  if (!a_vec) out.push_back(da[da.size() - 2]);
  if (!b_vec) out.push_back(db.back());
  return GeShape(std::move(out));
}

GeShape ShapeFromValues(const std::vector<int64_t>& values) { return GeShape(values); }

}  // namespace ge::infer

// Shape manipulation: Transpose, ConcatV2, Split, Slice, StridedSlice, Tile, Expand, PadV3,
// DepthToSpace, SpaceToDepth.
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownDimsShape;
using infer::UnknownRankShape;

Status InferTranspose(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  std::vector<int64_t> perm = ctx.AttrInts("perm");
  if (x.IsUnknownDimNum()) {
    return ctx.SetOutputShape(0, perm.empty() ? UnknownRankShape() : UnknownDimsShape(perm.size()));
  }
  const auto& d = x.GetDims();
  if (perm.empty()) {
    for (size_t i = d.size(); i > 0; --i) perm.push_back(static_cast<int64_t>(i - 1));
  }
  if (perm.size() != d.size()) {
    return ctx.Error("attribute 'perm' has " + std::to_string(perm.size()) + " entries for " +
                     ctx.DescribeInput(0));
  }
  auto norm = infer::NormalizeAxes(perm, RankOf(x));
  if (!norm.ok())
    return ctx.Error("attribute 'perm' is not a permutation: " + norm.status().message());
  std::vector<int64_t> out;
  for (int64_t p : perm) out.push_back(d[static_cast<size_t>(p < 0 ? p + RankOf(x) : p)]);
  return ctx.SetOutputShape(0, GeShape(out));
}

// GE's ConcatV2 takes the axis as input "concat_dim"; ours takes ONNX's attribute.
Status InferConcat(InferContext& ctx) {
  if (ctx.NumInputs() == 0) return ctx.Error("needs at least one input");
  int64_t rank = -1;
  size_t first = 0;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) {
    const int64_t r = RankOf(ctx.InputShape(i));
    if (r < 0) continue;
    if (rank < 0) {
      rank = r;
      first = i;
    } else if (r != rank) {
      return ctx.Error(ctx.DescribeInput(i) + " and " + ctx.DescribeInput(first) +
                       " differ in rank");
    }
  }
  if (rank < 0) return ctx.SetOutputShape(0, UnknownRankShape());
  if (rank == 0) return ctx.Error("cannot concatenate scalars");
  GE_ASSIGN_OR_RETURN(int64_t axis,
                      NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), rank, "attribute 'axis'"));
  std::vector<int64_t> out(static_cast<size_t>(rank), UNKNOWN_DIM);
  int64_t sum = 0;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) {
    const GeShape& s = ctx.InputShape(i);
    if (s.IsUnknownDimNum()) {
      sum = UNKNOWN_DIM;
      continue;
    }
    for (int64_t k = 0; k < rank; ++k) {
      const int64_t d = s.GetDim(static_cast<size_t>(k));
      if (k == axis) continue;
      if (!DimsCompatible(out[k], d)) {
        return ctx.Error(ctx.DescribeInput(i) + " does not match " + ctx.DescribeInput(first) +
                         " in dim " + std::to_string(k) + " (concatenating on axis " +
                         std::to_string(axis) + ")");
      }
      if (d >= 0) out[k] = d;
    }
    sum = infer::AddDim(sum, s.GetDim(static_cast<size_t>(axis)));
  }
  out[axis] = sum;
  return ctx.SetOutputShape(0, GeShape(out));
}

// ONNX Split: sizes from input "split" or attribute "split", else num_outputs equal parts
// (the last one smaller when uneven, opset 18).
Status InferSplit(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const size_t n = ctx.NumOutputs();
  if (n == 0) return ctx.Error("has no outputs (set the dynamic output count)");
  if (x.IsUnknownDimNum()) {
    for (size_t i = 0; i < n; ++i) GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, x));
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis,
                      NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), RankOf(x), "attribute 'axis'"));
  const int64_t dim = x.GetDim(static_cast<size_t>(axis));
  bool known = true;
  std::vector<int64_t> sizes = AxesFromInputOrAttr(ctx, 1, "split", &known);
  if (!known) sizes.assign(n, UNKNOWN_DIM);
  if (sizes.empty()) {
    const int64_t parts = static_cast<int64_t>(n);
    const int64_t chunk = dim < 0 ? UNKNOWN_DIM : (dim + parts - 1) / parts;
    for (int64_t i = 0; i < parts; ++i) {
      sizes.push_back(dim < 0 ? UNKNOWN_DIM
                              : std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
    }
  } else if (known) {
    if (sizes.size() != n) {
      return ctx.Error("split has " + std::to_string(sizes.size()) + " sizes for " +
                       std::to_string(n) + " outputs");
    }
    int64_t total = 0;
    for (int64_t s : sizes) {
      if (s < 0) return ctx.Error("split sizes must not be negative");
      total += s;
    }
    if (dim >= 0 && total != dim) {
      return ctx.Error("split sizes sum to " + std::to_string(total) + " but " +
                       ctx.DescribeInput(0) + " has " + std::to_string(dim) + " on axis " +
                       std::to_string(axis));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    std::vector<int64_t> d = x.GetDims();
    d[axis] = sizes[i];
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, GeShape(d)));
  }
  return Status::Ok();
}

// ONNX Slice (inputs starts, ends, axes, steps). GE's Slice takes offsets and sizes instead.
Status InferSlice(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  const int64_t rank = RankOf(x);
  const auto starts = ctx.GetConstInts(1);
  const auto ends = ctx.GetConstInts(2);
  std::optional<std::vector<int64_t>> axes;
  std::optional<std::vector<int64_t>> steps;
  if (ctx.HasInput(3)) axes = ctx.GetConstInts(3);
  if (ctx.HasInput(4)) steps = ctx.GetConstInts(4);
  if (!starts || !ends || (ctx.HasInput(3) && !axes) || (ctx.HasInput(4) && !steps)) {
    std::vector<int64_t> d = x.GetDims();
    for (size_t i = 0; i < d.size(); ++i) {
      const bool sliced =
          !axes || std::find(axes->begin(), axes->end(), static_cast<int64_t>(i)) != axes->end() ||
          std::find(axes->begin(), axes->end(), static_cast<int64_t>(i) - rank) != axes->end();
      if (sliced) d[i] = UNKNOWN_DIM;
    }
    return ctx.SetOutputShape(0, GeShape(d));
  }
  const size_t n = starts->size();
  if (ends->size() != n) return ctx.Error("starts and ends differ in length");
  std::vector<int64_t> ax = axes ? *axes : std::vector<int64_t>();
  if (!axes) {
    for (size_t i = 0; i < n; ++i) ax.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> st = steps ? *steps : std::vector<int64_t>(n, 1);
  if (ax.size() != n || st.size() != n)
    return ctx.Error("axes and steps must match starts in length");
  auto norm = infer::NormalizeAxes(ax, rank);
  if (!norm.ok()) return ctx.Error("axes: " + norm.status().message());
  std::vector<int64_t> out = x.GetDims();
  for (size_t i = 0; i < n; ++i) {
    if (st[i] == 0) return ctx.Error("steps must not be 0");
    const int64_t a = ax[i] < 0 ? ax[i] + rank : ax[i];
    const int64_t dim = out[a];
    out[a] = dim < 0 ? UNKNOWN_DIM : infer::SliceAlong(dim, (*starts)[i], (*ends)[i], st[i]).length;
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

// GE/TensorFlow StridedSlice with begin/end/ellipsis/new_axis/shrink_axis masks.
Status InferStridedSlice(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const int64_t new_axis_mask = ctx.AttrInt("new_axis_mask", 0);
  const int64_t shrink_mask = ctx.AttrInt("shrink_axis_mask", 0);
  const auto begin = ctx.GetConstInts(1);
  const auto end = ctx.GetConstInts(2);
  const auto strides = ctx.GetConstInts(3);
  if (x.IsUnknownDimNum() || !begin || !end || !strides) {
    if (x.IsUnknownDimNum() || new_axis_mask != 0 || shrink_mask != 0) {
      return ctx.SetOutputShape(0, UnknownRankShape());
    }
    return ctx.SetOutputShape(0, UnknownDimsShape(x.GetDimNum()));
  }
  const size_t n = begin->size();
  if (end->size() != n || strides->size() != n) {
    return ctx.Error("begin, end and strides differ in length");
  }
  const int64_t begin_mask = ctx.AttrInt("begin_mask", 0);
  const int64_t end_mask = ctx.AttrInt("end_mask", 0);
  const int64_t ellipsis_mask = ctx.AttrInt("ellipsis_mask", 0);
  const auto& dims = x.GetDims();
  const size_t rank = dims.size();
  auto bit = [](int64_t mask, size_t i) { return ((mask >> i) & 1) != 0; };
  std::vector<int64_t> out;
  size_t full = 0;
  bool saw_ellipsis = false;
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsis_mask, i)) {
      if (saw_ellipsis) return ctx.Error("more than one ellipsis");
      saw_ellipsis = true;
      size_t new_after = 0;
      for (size_t j = i + 1; j < n; ++j) new_after += bit(new_axis_mask, j) ? 1 : 0;
      // TensorFlow's rule: the ellipsis covers the dims the later entries do not consume.
      const int64_t next =
          std::min<int64_t>(static_cast<int64_t>(rank) - static_cast<int64_t>(n - i) + 1 +
                                static_cast<int64_t>(new_after),
                            static_cast<int64_t>(rank));
      while (static_cast<int64_t>(full) < next) out.push_back(dims[full++]);
      continue;
    }
    if (bit(new_axis_mask, i)) {
      out.push_back(1);
      continue;
    }
    if (full >= rank) return ctx.Error("slices more dims than " + ctx.DescribeInput(0) + " has");
    const int64_t dim = dims[full++];
    const int64_t s = (*strides)[i];
    if (s == 0) return ctx.Error("strides must not be 0");
    if (bit(shrink_mask, i)) {
      int64_t b = (*begin)[i];
      if (dim >= 0 && (b < -dim || b >= dim)) {
        return ctx.Error("shrink index " + std::to_string(b) + " is out of range for dim " +
                         std::to_string(full - 1) + " of " + ctx.DescribeInput(0));
      }
      continue;
    }
    if (dim < 0) {
      out.push_back(UNKNOWN_DIM);
      continue;
    }
    const int64_t b = bit(begin_mask, i) ? (s > 0 ? 0 : dim - 1) : (*begin)[i];
    const int64_t e = bit(end_mask, i) ? (s > 0 ? dim : -dim - 1) : (*end)[i];
    out.push_back(infer::SliceAlong(dim, b, e, s).length);
  }
  while (full < rank) out.push_back(dims[full++]);
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferTile(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const auto multiples = ctx.GetConstInts(1);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  if (!multiples) return ctx.SetOutputShape(0, UnknownDimsShape(x.GetDimNum()));
  if (multiples->size() != x.GetDimNum()) {
    return ctx.Error("multiples has " + std::to_string(multiples->size()) + " values for " +
                     ctx.DescribeInput(0));
  }
  std::vector<int64_t> out = x.GetDims();
  for (size_t i = 0; i < out.size(); ++i) {
    if ((*multiples)[i] < 0) return ctx.Error("multiples must not be negative");
    out[i] = infer::MulDim(out[i], (*multiples)[i]);
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferExpand(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const auto shape = ctx.GetConstInts(1);
  if (!shape) {
    const GeShape& s = ctx.InputShape(1);
    if (x.IsUnknownDimNum() || s.GetDimNum() != 1 || s.GetDim(0) < 0) {
      return ctx.SetOutputShape(0, UnknownRankShape());
    }
    return ctx.SetOutputShape(
        0, UnknownDimsShape(std::max<size_t>(x.GetDimNum(), static_cast<size_t>(s.GetDim(0)))));
  }
  auto r = infer::BroadcastShapes(x, GeShape(*shape));
  if (!r.ok()) {
    return ctx.Error(ctx.DescribeInput(0) + " cannot be expanded to " + GeShape(*shape).ToString() +
                     ": " + r.status().message());
  }
  return ctx.SetOutputShape(0, r.value());
}

// ONNX Pad layout: pads [b1, ..., bn, e1, ..., en] over `axes` (all dims by default). GE's PadV3
// also reads "paddings_contiguous"; we keep ONNX's order only.
Status InferPad(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  const int64_t rank = RankOf(x);
  const auto pads = ctx.GetConstInts(1);
  std::optional<std::vector<int64_t>> axes;
  if (ctx.HasInput(3)) axes = ctx.GetConstInts(3);
  if (!pads || (ctx.HasInput(3) && !axes))
    return ctx.SetOutputShape(0, UnknownDimsShape(x.GetDimNum()));
  std::vector<int64_t> ax;
  if (axes) {
    ax = *axes;
  } else {
    for (int64_t i = 0; i < rank; ++i) ax.push_back(i);
  }
  if (pads->size() != 2 * ax.size()) {
    return ctx.Error("pads has " + std::to_string(pads->size()) + " values, expected " +
                     std::to_string(2 * ax.size()) + " for " + ctx.DescribeInput(0));
  }
  std::vector<int64_t> out = x.GetDims();
  for (size_t i = 0; i < ax.size(); ++i) {
    GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisFor(ctx, ax[i], rank, "axes"));
    if (out[a] < 0) continue;
    if (!checked::Add(out[a], (*pads)[i], &out[a]) ||
        !checked::Add(out[a], (*pads)[i + ax.size()], &out[a])) {
      return ctx.Error("pads of dim " + std::to_string(a) + " overflow int64");
    }
    if (out[a] < 0) return ctx.Error("pads make dim " + std::to_string(a) + " negative");
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferDepthSpace(InferContext& ctx, bool to_space) {
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 4));
  const GeShape& x = ctx.InputShape(0);
  const int64_t b = ctx.AttrInt("blocksize", 0);
  if (b <= 0) return ctx.Error("attribute 'blocksize' must be positive");
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownDimsShape(4));
  std::vector<int64_t> d = x.GetDims();
  auto divide = [&](size_t i, int64_t by) -> Status {
    if (d[i] < 0) return Status::Ok();
    if (d[i] % by != 0) {
      return ctx.Error(ctx.DescribeInput(0) + " dim " + std::to_string(i) +
                       " is not divisible by " + std::to_string(by));
    }
    d[i] /= by;
    return Status::Ok();
  };
  if (to_space) {
    GE_RETURN_IF_ERROR(divide(1, b * b));
    d[2] = infer::MulDim(d[2], b);
    d[3] = infer::MulDim(d[3], b);
  } else {
    GE_RETURN_IF_ERROR(divide(2, b));
    GE_RETURN_IF_ERROR(divide(3, b));
    d[1] = infer::MulDim(d[1], b * b);
  }
  return ctx.SetOutputShape(0, GeShape(d));
}

}  // namespace

void RegisterShapeOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  const TensorType index = TensorType::IndexNumberType();
  // GE's Transpose takes perm as an input; ours takes ONNX's attribute (empty: reverse).
  r.Register(OpProtoBuilder("Transpose")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("perm", std::vector<int64_t>{})
                 .InferShape(InferTranspose)
                 .Build());
  r.Register(OpProtoBuilder("ConcatV2")
                 .TypeConstraint("T", all)
                 .DynamicInput("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("axis", AttrValue::Type::kInt)
                 .Attr("N", 0)
                 .InferShape(InferConcat)
                 .Build());
  r.Register(OpProtoBuilder("Split")  // ONNX Split
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("split", {DT_INT64})
                 .DynamicOutput("y", "T")
                 .Attr("axis", 0)
                 .Attr("split", std::vector<int64_t>{})
                 .Attr("num_outputs", 0)
                 .InferShape(InferSplit)
                 .Build());
  r.Register(OpProtoBuilder("Slice")  // ONNX Slice
                 .TypeConstraint("T", all)
                 .TypeConstraint("Tind", index)
                 .Input("x", "T")
                 .Input("starts", "Tind")
                 .Input("ends", "Tind")
                 .OptionalInput("axes", "Tind")
                 .OptionalInput("steps", "Tind")
                 .Output("y", "T")
                 .InferShape(InferSlice)
                 .Build());
  r.Register(OpProtoBuilder("StridedSlice")
                 .TypeConstraint("T", all)
                 .TypeConstraint("Tind", index)
                 .Input("x", "T")
                 .Input("begin", "Tind")
                 .Input("end", "Tind")
                 .Input("strides", "Tind")
                 .Output("y", "T")
                 .Attr("begin_mask", 0)
                 .Attr("end_mask", 0)
                 .Attr("ellipsis_mask", 0)
                 .Attr("new_axis_mask", 0)
                 .Attr("shrink_axis_mask", 0)
                 .InferShape(InferStridedSlice)
                 .Build());
  r.Register(OpProtoBuilder("Tile")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("multiples", index)
                 .Output("y", "T")
                 .InferShape(InferTile)
                 .Build());
  r.Register(OpProtoBuilder("Expand")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("shape", {DT_INT64})
                 .Output("y", "T")
                 .InferShape(InferExpand)
                 .Build());
  r.Register(OpProtoBuilder("PadV3")  // ONNX Pad
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("pads", {DT_INT64})
                 .OptionalInput("constant_value", "T")
                 .OptionalInput("axes", index)
                 .Output("y", "T")
                 .Attr("mode", "constant")
                 .InferShape(InferPad)
                 .Build());
  r.Register(OpProtoBuilder("DepthToSpace")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("blocksize", AttrValue::Type::kInt)
                 .Attr("mode", "DCR")
                 .InferShape([](InferContext& c) { return InferDepthSpace(c, true); })
                 .Build());
  r.Register(OpProtoBuilder("SpaceToDepth")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("blocksize", AttrValue::Type::kInt)
                 .InferShape([](InferContext& c) { return InferDepthSpace(c, false); })
                 .Build());
}

}  // namespace ge::builtin

// Indexing: GatherV2, GatherElements, GatherNd, ScatterNd, ScatterElements, TensorScatter, OneHot,
// TopKV2, NonZero, Compress (ONNX semantics and attributes).
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownRankShape;

// GE's GatherV2 takes the axis as an input; ours takes ONNX Gather's attribute.
Status InferGather(InferContext& ctx) {
  const GeShape& data = ctx.InputShape(0);
  const GeShape& indices = ctx.InputShape(1);
  if (data.IsUnknownDimNum() || indices.IsUnknownDimNum()) {
    return ctx.SetOutputShape(0, UnknownRankShape());
  }
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 1));
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), RankOf(data),
                                                     "attribute 'axis'"));
  const auto& d = data.GetDims();
  std::vector<int64_t> out(d.begin(), d.begin() + axis);
  out.insert(out.end(), indices.GetDims().begin(), indices.GetDims().end());
  out.insert(out.end(), d.begin() + axis + 1, d.end());
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferGatherElements(InferContext& ctx) {
  const GeShape& data = ctx.InputShape(0);
  const GeShape& indices = ctx.InputShape(1);
  if (!data.IsUnknownDimNum() && !indices.IsUnknownDimNum()) {
    if (data.GetDimNum() != indices.GetDimNum()) {
      return ctx.Error(ctx.DescribeInput(1) + " must have the rank of " + ctx.DescribeInput(0));
    }
    auto a = NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), RankOf(data), "attribute 'axis'");
    if (!a.ok()) return a.status();
  }
  return ctx.SetOutputShape(0, indices);
}

Status InferGatherNd(InferContext& ctx) {
  const GeShape& data = ctx.InputShape(0);
  const GeShape& indices = ctx.InputShape(1);
  const int64_t batch = ctx.AttrInt("batch_dims", 0);
  if (data.IsUnknownDimNum() || indices.IsUnknownDimNum() || indices.GetDimNum() == 0) {
    if (indices.GetDimNum() == 0 && !indices.IsUnknownDimNum()) {
      return ctx.Error(ctx.DescribeInput(1) + " must have rank >= 1");
    }
    return ctx.SetOutputShape(0, UnknownRankShape());
  }
  const int64_t k = indices.GetDims().back();
  if (k < 0) return ctx.SetOutputShape(0, UnknownRankShape());
  const int64_t r = RankOf(data);
  if (batch < 0 || batch + k > r || batch >= RankOf(indices)) {
    return ctx.Error("index depth " + std::to_string(k) + " with batch_dims " +
                     std::to_string(batch) + " does not fit " + ctx.DescribeInput(0) + " and " +
                     ctx.DescribeInput(1));
  }
  std::vector<int64_t> out(indices.GetDims().begin(), indices.GetDims().end() - 1);
  out.insert(out.end(), data.GetDims().begin() + batch + k, data.GetDims().end());
  return ctx.SetOutputShape(0, GeShape(out));
}

// ONNX ScatterND (data, indices, updates). GE's ScatterNd builds a new tensor from a shape input;
// ONNX's semantics is GE's ScatterNdUpdate.
Status InferScatterNd(InferContext& ctx) {
  const GeShape& data = ctx.InputShape(0);
  const GeShape& indices = ctx.InputShape(1);
  const GeShape& updates = ctx.InputShape(2);
  if (!data.IsUnknownDimNum() && !indices.IsUnknownDimNum() && !updates.IsUnknownDimNum() &&
      indices.GetDimNum() > 0 && indices.GetDims().back() >= 0) {
    const int64_t k = indices.GetDims().back();
    const int64_t q = RankOf(indices);
    const int64_t r = RankOf(data);
    if (k > r)
      return ctx.Error(ctx.DescribeInput(1) + " indexes deeper than " + ctx.DescribeInput(0));
    const int64_t expected_rank = q - 1 + r - k;
    bool ok = RankOf(updates) == expected_rank;
    for (int64_t i = 0; ok && i < expected_rank; ++i) {
      const int64_t want = i < q - 1 ? indices.GetDim(i) : data.GetDim(k + i - (q - 1));
      ok = DimsCompatible(want, updates.GetDim(i));
    }
    if (!ok) {
      return ctx.Error(ctx.DescribeInput(2) + " does not match " + ctx.DescribeInput(0) + " and " +
                       ctx.DescribeInput(1));
    }
  }
  return ctx.SetOutputShape(0, data);
}

Status InferScatterElements(InferContext& ctx) {
  if (!ShapesCompatible(ctx.InputShape(1), ctx.InputShape(2))) {
    return ctx.Error(ctx.DescribeInput(1) + " and " + ctx.DescribeInput(2) +
                     " must have the same shape");
  }
  const int64_t r = RankOf(ctx.InputShape(0));
  if (r > 0) {
    auto a = NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), r, "attribute 'axis'");
    if (!a.ok()) return a.status();
  }
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

// ONNX TensorScatter: past_cache's shape and dtype; update differs from it only in the sequence
// dim `axis` (not the batch dim 0), where it may be shorter; write_indices is one per batch.
Status InferTensorScatter(InferContext& ctx) {
  const GeShape& past = ctx.InputShape(0);
  const GeShape& update = ctx.InputShape(1);
  if (!past.IsUnknownDimNum()) {
    const int64_t rank = RankOf(past);
    GE_ASSIGN_OR_RETURN(int64_t axis,
                        NormalizeAxisFor(ctx, ctx.AttrInt("axis", -2), rank, "attribute 'axis'"));
    if (axis == 0) return ctx.Error("attribute 'axis' names the batch dim 0");
    if (!update.IsUnknownDimNum()) {
      bool fits = update.GetDimNum() == past.GetDimNum();
      for (size_t i = 0; fits && i < past.GetDimNum(); ++i) {
        const int64_t u = update.GetDim(i), c = past.GetDim(i);
        fits = static_cast<int64_t>(i) == axis ? (u < 0 || c < 0 || u <= c) : DimsCompatible(u, c);
      }
      if (!fits) {
        return ctx.Error(ctx.DescribeInput(1) + " must be " + ctx.DescribeInput(0) +
                         " but for dim " + std::to_string(axis) + ", at most as long");
      }
    }
  }
  const std::string mode = ctx.AttrStr("mode", "linear");
  if (mode != "linear" && mode != "circular") {
    return ctx.Error("attribute 'mode' is '" + mode + "'; it must be 'linear' or 'circular'");
  }
  return ctx.SetOutput(0, past, ctx.InputDataType(0));
}

Status InferOneHot(InferContext& ctx) {
  const GeShape& indices = ctx.InputShape(0);
  int64_t depth = UNKNOWN_DIM;
  if (auto v = ctx.GetConstFloats(1); v && v->size() == 1) depth = static_cast<int64_t>((*v)[0]);
  if (depth == 0 || depth < UNKNOWN_DIM) return ctx.Error("depth must be positive");
  if (indices.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  const int64_t out_rank = RankOf(indices) + 1;
  GE_ASSIGN_OR_RETURN(int64_t axis,
                      NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), out_rank, "attribute 'axis'"));
  std::vector<int64_t> out = indices.GetDims();
  out.insert(out.begin() + axis, depth);
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferTopK(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) {
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, x));
    return ctx.SetOutputShape(1, x);
  }
  GE_ASSIGN_OR_RETURN(
      int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), RankOf(x), "attribute 'axis'"));
  int64_t k = UNKNOWN_DIM;
  if (auto v = ctx.GetConstInts(1)) {
    if (v->size() != 1) return ctx.Error("k must hold one value");
    k = (*v)[0];
    if (k < 0) return ctx.Error("k must not be negative");
    const int64_t dim = x.GetDim(static_cast<size_t>(axis));
    if (dim >= 0 && k > dim) {
      return ctx.Error("k " + std::to_string(k) + " exceeds dim " + std::to_string(axis) + " of " +
                       ctx.DescribeInput(0));
    }
  }
  std::vector<int64_t> out = x.GetDims();
  out[axis] = k;
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, GeShape(out)));
  return ctx.SetOutputShape(1, GeShape(out));
}

Status InferNonZero(InferContext& ctx) {
  const int64_t r = RankOf(ctx.InputShape(0));
  return ctx.SetOutputShape(0, GeShape({r < 0 ? UNKNOWN_DIM : r, UNKNOWN_DIM}));
}

// ONNX Compress: the slices of x along 'axis' (x flattened when the attribute is absent) whose
// condition is true; conditions past the end count as false. The selected count is known only
// when the condition is a constant.
Status InferCompress(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 1));
  const GeShape& x = ctx.InputShape(0);
  const GeShape& cond = ctx.InputShape(1);
  int64_t count = UNKNOWN_DIM;
  if (auto values = ctx.GetConstInts(1)) {
    count = static_cast<int64_t>(
        std::count_if(values->begin(), values->end(), [](int64_t v) { return v != 0; }));
  }
  const bool has_axis = ctx.FindAttr("axis") != nullptr;
  if (!has_axis) {
    const int64_t n = x.IsUnknownDimNum() ? UNKNOWN_DIM : infer::DimProduct(x.GetDims());
    if (n >= 0 && !cond.IsUnknownDimNum() && cond.GetDim(0) > n) {
      return ctx.Error(ctx.DescribeInput(1) + " is longer than the " + std::to_string(n) +
                       " elements of " + ctx.DescribeInput(0));
    }
    return ctx.SetOutputShape(0, GeShape({count}));
  }
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  const int64_t rank = RankOf(x);
  GE_ASSIGN_OR_RETURN(const int64_t axis,
                      NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), rank, "attribute 'axis'"));
  std::vector<int64_t> out = x.GetDims();
  if (out[axis] >= 0 && !cond.IsUnknownDimNum() && cond.GetDim(0) > out[axis]) {
    return ctx.Error(ctx.DescribeInput(1) + " is longer than dim " + std::to_string(axis) + " of " +
                     ctx.DescribeInput(0));
  }
  out[axis] = count;
  return ctx.SetOutputShape(0, GeShape(out));
}

}  // namespace

void RegisterIndexOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  const TensorType index = TensorType::IndexNumberType();
  r.Register(OpProtoBuilder("GatherV2")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("indices", index)
                 .Output("y", "T")
                 .Attr("axis", 0)
                 .InferShape(InferGather)
                 .Build());
  r.Register(OpProtoBuilder("GatherElements")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("indices", index)
                 .Output("y", "T")
                 .Attr("axis", 0)
                 .InferShape(InferGatherElements)
                 .Build());
  r.Register(OpProtoBuilder("GatherNd")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("indices", {DT_INT64, DT_INT32})
                 .Output("y", "T")
                 .Attr("batch_dims", 0)
                 .InferShape(InferGatherNd)
                 .Build());
  r.Register(OpProtoBuilder("ScatterNd")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("indices", {DT_INT64, DT_INT32})
                 .Input("updates", "T")
                 .Output("y", "T")
                 .Attr("reduction", "none")
                 .InferShape(InferScatterNd)
                 .Build());
  r.Register(OpProtoBuilder("TensorScatter")  // ONNX 24: a KV cache written at write_indices
                 .TypeConstraint("T", all)
                 .Input("past_cache", "T")
                 .Input("update", "T")
                 .OptionalInput("write_indices", {DT_INT64})
                 .Output("present_cache", "T")
                 .Attr("axis", -2)
                 .Attr("mode", "linear")
                 .InferShape(InferTensorScatter)
                 .Build());
  r.Register(OpProtoBuilder("ScatterElements")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("indices", index)
                 .Input("updates", "T")
                 .Output("y", "T")
                 .Attr("axis", 0)
                 .Attr("reduction", "none")
                 .InferShape(InferScatterElements)
                 .Build());
  r.Register(OpProtoBuilder("OneHot")
                 .TypeConstraint("T", all)
                 .Input("indices", TensorType::RealNumberType())
                 .Input("depth", TensorType::RealNumberType())
                 .Input("values", "T")
                 .Output("y", "T")
                 .Attr("axis", -1)
                 .InferShape(InferOneHot)
                 .Build());
  r.Register(OpProtoBuilder("TopKV2")  // ONNX TopK attributes
                 .TypeConstraint("T", TensorType::RealNumberType())
                 .Input("x", "T")
                 .Input("k", {DT_INT64, DT_INT32})
                 .Output("values", "T")
                 .Output("indices", {DT_INT64})
                 .Attr("axis", -1)
                 .Attr("largest", 1)
                 .Attr("sorted", 1)
                 .InferShape(InferTopK)
                 .Build());
  r.Register(OpProtoBuilder("NonZero")
                 .Input("x", TensorType::BasicType())
                 .Output("y", {DT_INT64})
                 .InferShape(InferNonZero)
                 .Build());
  // ONNX Compress; attribute 'axis' has no default (absent: x is flattened).
  r.Register(OpProtoBuilder("Compress")
                 .TypeConstraint("T", all)
                 .Input("input", "T")
                 .Input("condition", TensorType::BOOL())
                 .Output("output", "T")
                 .OptionalAttr("axis", AttrValue::Type::kInt)
                 .InferShape(InferCompress)
                 .Build());
}

}  // namespace ge::builtin

// Slice reorderings (ONNX names and semantics, GE has neither): Unique and ReverseSequence.
//
// Unique's outputs Y, indices and counts have as many entries as there are distinct values (or
// slices along 'axis'), known only at run time; inverse_indices has one entry per input element
// (or slice).
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownRankShape;

// 'axis' has no default (absent: the input is flattened), so it is not declared.
Status InferUnique(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  GeShape y({UNKNOWN_DIM});
  int64_t slices = UNKNOWN_DIM;
  if (ctx.FindAttr("axis") == nullptr) {
    if (!x.IsUnknownDimNum()) slices = infer::DimProduct(x.GetDims());
  } else if (x.IsUnknownDimNum()) {
    y = UnknownRankShape();
  } else {
    GE_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), RankOf(x),
                                                             "attribute 'axis'"));
    std::vector<int64_t> d = x.GetDims();
    slices = d[static_cast<size_t>(axis)];
    d[static_cast<size_t>(axis)] = UNKNOWN_DIM;
    y = GeShape(d);
  }
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, y));
  const GeShape unique_count({UNKNOWN_DIM});
  for (size_t i = 1; i < ctx.NumOutputs(); ++i) {
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, i == 2 ? GeShape({slices}) : unique_count));
  }
  return Status::Ok();
}

// input [batch, time, ...] or [time, batch, ...], sequence_lens [batch] → input's shape.
Status InferReverseSequence(InferContext& ctx) {
  const int64_t batch_axis = ctx.AttrInt("batch_axis", 1);
  const int64_t time_axis = ctx.AttrInt("time_axis", 0);
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) ||
      batch_axis == time_axis) {
    return ctx.Error("attributes 'batch_axis' and 'time_axis' must be 0 and 1 in some order, got " +
                     std::to_string(batch_axis) + " and " + std::to_string(time_axis));
  }
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 1));
  const GeShape& x = ctx.InputShape(0);
  const GeShape& lens = ctx.InputShape(1);
  if (!x.IsUnknownDimNum() && !lens.IsUnknownDimNum() &&
      !DimsCompatible(lens.GetDim(0), x.GetDim(static_cast<size_t>(batch_axis)))) {
    return ctx.Error(ctx.DescribeInput(1) + " must have one length per batch entry (dim " +
                     std::to_string(batch_axis) + ") of " + ctx.DescribeInput(0));
  }
  return ctx.SetOutputShape(0, x);
}

}  // namespace

void RegisterReorderOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::BasicType();
  r.Register(OpProtoBuilder("Unique")
                 .TypeConstraint("T", all)
                 .Input("X", "T")
                 .Output("Y", "T")
                 .Output("indices", {DT_INT64})
                 .Output("inverse_indices", {DT_INT64})
                 .Output("counts", {DT_INT64})
                 .Attr("sorted", 1)
                 .OptionalAttr("axis", AttrValue::Type::kInt)
                 .InferShape(InferUnique)
                 .Build());
  r.Register(OpProtoBuilder("ReverseSequence")
                 .TypeConstraint("T", all)
                 .Input("input", "T")
                 .Input("sequence_lens", {DT_INT64})
                 .Output("Y", "T")
                 .Attr("batch_axis", 1)
                 .Attr("time_axis", 0)
                 .InferShape(InferReverseSequence)
                 .Build());
}

}  // namespace ge::builtin

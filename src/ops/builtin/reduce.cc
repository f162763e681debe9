// Reductions (ONNX semantics: axes as an optional input or attribute, keepdims,
// noop_with_empty_axes) and ArgMaxV2 / ArgMin.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

Status InferReduce(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const bool keepdims = ctx.AttrInt("keepdims", 1) != 0;
  bool known = true;
  const auto axes = AxesFromInputOrAttr(ctx, 1, "axes", &known);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  if (!known) {
    if (!keepdims) return ctx.SetOutputShape(0, infer::UnknownRankShape());
    std::vector<int64_t> dims = x.GetDims();
    for (auto& d : dims) {
      if (d != 1) d = UNKNOWN_DIM;  // reduced to 1 or kept: unknown
    }
    return ctx.SetOutputShape(0, GeShape(dims));
  }
  if (axes.empty() && ctx.AttrInt("noop_with_empty_axes", 0) != 0) {
    return ctx.SetOutputShape(0, x);
  }
  auto norm = infer::NormalizeAxes(axes, infer::RankOf(x));
  if (!norm.ok())
    return ctx.Error("axes of " + ctx.DescribeInput(0) + ": " + norm.status().message());
  return ctx.SetOutputShape(0, infer::ReduceShape(x, *norm, keepdims));
}

Status InferArg(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const bool keepdims = ctx.AttrInt("keepdims", 1) != 0;
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", 0), infer::RankOf(x),
                                                     "attribute 'axis'"));
  return ctx.SetOutputShape(0, infer::ReduceShape(x, {axis}, keepdims));
}

}  // namespace

void RegisterReduceOps(OpProtoRegistrar& r) {
  const TensorType numbers = TensorType::RealNumberType();
  const TensorType floats = TensorType::FloatingDataType();
  struct Def {
    const char* type;
    TensorType types;
  };
  for (const Def& d :
       {Def{"ReduceSum", numbers}, Def{"ReduceMean", numbers},
        Def{"ReduceMax", numbers | TensorType::BOOL()},
        Def{"ReduceMin", numbers | TensorType::BOOL()}, Def{"ReduceProd", numbers},
        Def{"ReduceL1", numbers}, Def{"ReduceL2", numbers}, Def{"ReduceLogSum", floats},
        Def{"ReduceLogSumExp", floats}, Def{"ReduceSumSquare", numbers}}) {
    r.Register(OpProtoBuilder(d.type)
                   .TypeConstraint("T", d.types)
                   .Input("x", "T")
                   .OptionalInput("axes", {DT_INT64, DT_INT32})
                   .Output("y", "T")
                   .Attr("axes", std::vector<int64_t>{})
                   .Attr("keepdims", 1)
                   .Attr("noop_with_empty_axes", 0)
                   .InferShape(InferReduce)
                   .Build());
  }
  // ONNX ArgMax/ArgMin attributes (GE's ArgMaxV2 takes the axis as input "dimension").
  for (const char* t : {"ArgMaxV2", "ArgMin"}) {
    r.Register(OpProtoBuilder(t)
                   .Input("x", numbers)
                   .Output("y", {DT_INT64})
                   .Attr("axis", 0)
                   .Attr("keepdims", 1)
                   .Attr("select_last_index", 0)
                   .InferShape(InferArg)
                   .Build());
  }
}

}  // namespace ge::builtin

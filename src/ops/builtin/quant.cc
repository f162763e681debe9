// Quantization (ONNX): QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

// A scale (or zero point) is a scalar, a 1-D vector along `axis`, or (blocked) of x's rank.
Status CheckQuantParam(InferContext& ctx, size_t param) {
  if (!ctx.HasInput(param)) return Status::Ok();
  const GeShape& x = ctx.InputShape(0);
  const GeShape& s = ctx.InputShape(param);
  if (x.IsUnknownDimNum() || s.IsUnknownDimNum() || s.GetDimNum() == 0) return Status::Ok();
  if (s.GetDimNum() == 1 && s.GetDim(0) == 1) return Status::Ok();
  if (s.GetDimNum() == 1) {
    GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", 1),
                                                       infer::RankOf(x), "attribute 'axis'"));
    if (!DimsCompatible(s.GetDim(0), x.GetDim(static_cast<size_t>(axis)))) {
      return ctx.Error(ctx.DescribeInput(param) + " does not match dim " + std::to_string(axis) +
                       " of " + ctx.DescribeInput(0));
    }
    return Status::Ok();
  }
  if (s.GetDimNum() != x.GetDimNum() || ctx.AttrInt("block_size", 0) <= 0) {
    return ctx.Error(ctx.DescribeInput(param) + " must be a scalar or 1-D along the axis of " +
                     ctx.DescribeInput(0) + " (or blocked, with block_size)");
  }
  return Status::Ok();
}

Status InferQuantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 1));
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 2));
  DataType out = ctx.HasInput(2) ? ctx.InputDataType(2) : ctx.AttrDataType("output_dtype");
  if (out == DT_UNDEFINED) out = DT_UINT8;
  return ctx.SetOutput(0, ctx.InputShape(0), out);
}

Status InferDequantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 1));
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 2));
  return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(1));
}

Status InferDynamicQuantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(ctx.SetOutput(0, ctx.InputShape(0), DT_UINT8));
  GE_RETURN_IF_ERROR(ctx.SetOutput(1, GeShape(), DT_FLOAT));
  return ctx.SetOutput(2, GeShape(), DT_UINT8);
}

Status InferQLinearMatMul(InferContext& ctx) {
  auto r = infer::MatMulShape(ctx.InputShape(0), ctx.InputShape(3));
  if (!r.ok()) {
    return ctx.Error(ctx.DescribeInput(0) + " and " + ctx.DescribeInput(3) +
                     " cannot be multiplied: " + r.status().message());
  }
  return ctx.SetOutput(0, r.value(), ctx.InputDataType(7));
}

}  // namespace

void RegisterQuantOps(OpProtoRegistrar& r) {
  const TensorType quant = TensorType::QuantizedType();
  const TensorType scale_types = TensorType::FloatingDataType();
  r.Register(OpProtoBuilder("QuantizeLinear")
                 .Input("x", scale_types | TensorType{DT_INT32})
                 .Input("y_scale", scale_types)
                 .OptionalInput("y_zero_point", quant)
                 .Output("y", quant)
                 .Attr("axis", 1)
                 .Attr("saturate", 1)
                 .Attr("block_size", 0)
                 .Attr("output_dtype", DT_UNDEFINED)
                 .InferShape(InferQuantize)
                 .Build());
  r.Register(OpProtoBuilder("DequantizeLinear")
                 .TypeConstraint("T", quant)
                 .Input("x", "T")
                 .Input("x_scale", scale_types)
                 .OptionalInput("x_zero_point", "T")
                 .Output("y", scale_types)
                 .Attr("axis", 1)
                 .Attr("block_size", 0)
                 .InferShape(InferDequantize)
                 .Build());
  r.Register(OpProtoBuilder("DynamicQuantizeLinear")
                 .Input("x", {DT_FLOAT})
                 .Output("y", {DT_UINT8})
                 .Output("y_scale", {DT_FLOAT})
                 .Output("y_zero_point", {DT_UINT8})
                 .InferShape(InferDynamicQuantize)
                 .Build());
  r.Register(OpProtoBuilder("QLinearMatMul")
                 .TypeConstraint("T1", {DT_INT8, DT_UINT8})
                 .TypeConstraint("T2", {DT_INT8, DT_UINT8})
                 .TypeConstraint("T3", {DT_INT8, DT_UINT8})
                 .Input("a", "T1")
                 .Input("a_scale", scale_types)
                 .Input("a_zero_point", "T1")
                 .Input("b", "T2")
                 .Input("b_scale", scale_types)
                 .Input("b_zero_point", "T2")
                 .Input("y_scale", scale_types)
                 .Input("y_zero_point", "T3")
                 .Output("y", "T3")
                 .InferShape(InferQLinearMatMul)
                 .Build());
}

}  // namespace ge::builtin

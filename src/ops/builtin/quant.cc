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
  const int64_t block = ctx.AttrInt("block_size", 0);
  if (s.GetDimNum() != x.GetDimNum() || block <= 0) {
    return ctx.Error(ctx.DescribeInput(param) + " must be a scalar or 1-D along the axis of " +
                     ctx.DescribeInput(0) + " (or blocked, with block_size)");
  }
  // Blocked: x's dims, but dim `axis` counts blocks of block_size (the last one may be short).
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", 1), infer::RankOf(x),
                                                     "attribute 'axis'"));
  for (size_t d = 0; d < x.GetDimNum(); ++d) {
    const int64_t xd = x.GetDim(d);
    const int64_t want =
        static_cast<int64_t>(d) != axis || xd < 0 ? xd : xd / block + (xd % block != 0 ? 1 : 0);
    if (!DimsCompatible(s.GetDim(d), want)) {
      return ctx.Error(ctx.DescribeInput(param) + " does not block " + ctx.DescribeInput(0) +
                       " in blocks of " + std::to_string(block) + " along dim " +
                       std::to_string(axis) + ": dim " + std::to_string(d) + " should be " +
                       std::to_string(want));
    }
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
  const DataType out = ctx.AttrDataType("output_dtype");
  return ctx.SetOutput(0, ctx.InputShape(0), out == DT_UNDEFINED ? ctx.InputDataType(1) : out);
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
  // ONNX's quantized types: 8- and 16-bit integers, the 4- and 2-bit integers, the float8 types
  // and FLOAT4_E2M1 (and int32 for DequantizeLinear's x, as ONNX allows).
  const TensorType quant{DT_INT8,          DT_UINT8,           DT_INT16,       DT_UINT16,
                         DT_INT4,          DT_UINT4,           DT_INT2,        DT_UINT2,
                         DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E5M2, DT_FLOAT8_E5M2FNUZ,
                         DT_FLOAT4_E2M1};
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
                 .Attr("precision", DT_UNDEFINED)
                 .InferShape(InferQuantize)
                 .Build());
  r.Register(OpProtoBuilder("DequantizeLinear")
                 .TypeConstraint("T", quant | TensorType{DT_INT32})
                 .Input("x", "T")
                 .Input("x_scale", scale_types)
                 .OptionalInput("x_zero_point", "T")
                 .Output("y", scale_types)
                 .Attr("axis", 1)
                 .Attr("block_size", 0)
                 .Attr("output_dtype", DT_UNDEFINED)
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

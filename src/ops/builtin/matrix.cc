// Matrix products: MatMulV2, BatchMatMulV2 (numpy matmul shapes, optional transposes and bias),
// Gemm (ONNX), and ONNX's MatMulInteger.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

Status InferMatMulWith(InferContext& ctx, const char* ta, const char* tb, bool has_bias) {
  auto r =
      infer::MatMulShape(ctx.InputShape(0), ctx.InputShape(1), ctx.AttrBool(ta), ctx.AttrBool(tb));
  if (!r.ok()) {
    return ctx.Error(ctx.DescribeInput(0) + " and " + ctx.DescribeInput(1) +
                     " cannot be multiplied: " + r.status().message());
  }
  GeShape out = std::move(r).value();
  if (has_bias && ctx.HasInput(2) && !infer::CanBroadcastTo(ctx.InputShape(2), out)) {
    return ctx.Error(ctx.DescribeInput(2) + " does not broadcast to the product " + out.ToString());
  }
  return has_bias ? SetOutputWithAddend(ctx, 3, out) : ctx.SetOutputShape(0, out);
}

// GE's MatMulV2 is 2-D; ours also accepts ONNX MatMul's 1-D and batched operands.
Status InferMatMul(InferContext& ctx) {
  return InferMatMulWith(ctx, "transpose_x1", "transpose_x2", true);
}
Status InferBatchMatMul(InferContext& ctx) {
  return InferMatMulWith(ctx, "adj_x1", "adj_x2", true);
}

Status InferGemm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 2));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 2));
  const GeShape& a = ctx.InputShape(0);
  const GeShape& b = ctx.InputShape(1);
  const bool ta = ctx.AttrInt("transA", 0) != 0;
  const bool tb = ctx.AttrInt("transB", 0) != 0;
  const int64_t m = a.IsUnknownDimNum() ? UNKNOWN_DIM : a.GetDim(ta ? 1 : 0);
  const int64_t ka = a.IsUnknownDimNum() ? UNKNOWN_DIM : a.GetDim(ta ? 0 : 1);
  const int64_t kb = b.IsUnknownDimNum() ? UNKNOWN_DIM : b.GetDim(tb ? 1 : 0);
  const int64_t n = b.IsUnknownDimNum() ? UNKNOWN_DIM : b.GetDim(tb ? 0 : 1);
  if (!DimsCompatible(ka, kb)) {
    return ctx.Error("inner dims do not match: " + ctx.DescribeInput(0) +
                     (ta ? " (transposed)" : "") + ", " + ctx.DescribeInput(1) +
                     (tb ? " (transposed)" : ""));
  }
  GeShape out({m, n});
  if (ctx.HasInput(2) && !infer::CanBroadcastTo(ctx.InputShape(2), out)) {
    return ctx.Error(ctx.DescribeInput(2) + " does not broadcast to " + out.ToString());
  }
  return SetOutputWithAddend(ctx, 3, out);
}

}  // namespace

void RegisterMatrixOps(OpProtoRegistrar& r) {
  const TensorType types = TensorType::RealNumberType();
  r.Register(OpProtoBuilder("MatMulV2")
                 .TypeConstraint("T", types)
                 .Input("x1", "T")
                 .Input("x2", "T")
                 .OptionalInput("bias", "T")
                 .OptionalInput("addend", "T")  // a fused residual (post-op "Sum")
                 .Output("y", "T")
                 .Attr("transpose_x1", false)
                 .Attr("transpose_x2", false)
                 .InferShape(InferMatMul)
                 .Build());
  r.Register(OpProtoBuilder("BatchMatMulV2")
                 .TypeConstraint("T", types)
                 .Input("x1", "T")
                 .Input("x2", "T")
                 .OptionalInput("bias", "T")
                 .OptionalInput("addend", "T")  // a fused residual (post-op "Sum")
                 .Output("y", "T")
                 .Attr("adj_x1", false)
                 .Attr("adj_x2", false)
                 .InferShape(InferBatchMatMul)
                 .Build());
  r.Register(OpProtoBuilder("Gemm")  // ONNX name and attributes
                 .TypeConstraint("T", types)
                 .Input("a", "T")
                 .Input("b", "T")
                 .OptionalInput("c", "T")
                 .OptionalInput("addend", "T")  // a fused residual (post-op "Sum")
                 .Output("y", "T")
                 .Attr("alpha", 1.0F)
                 .Attr("beta", 1.0F)
                 .Attr("transA", 0)
                 .Attr("transB", 0)
                 .InferShape(InferGemm)
                 .Build());
  r.Register(OpProtoBuilder("MatMulInteger")  // ONNX name: int8/uint8 operands, int32 result
                 .Input("a", {DT_INT8, DT_UINT8})
                 .Input("b", {DT_INT8, DT_UINT8})
                 .OptionalInput("a_zero_point", {DT_INT8, DT_UINT8})
                 .OptionalInput("b_zero_point", {DT_INT8, DT_UINT8})
                 .Output("y", {DT_INT32})
                 .InferShape([](InferContext& ctx) { return InferMatMulWith(ctx, "", "", false); })
                 .Build());
}

}  // namespace ge::builtin

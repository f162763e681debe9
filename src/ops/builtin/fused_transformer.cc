// Prototypes of the transformer ops the fusion pass creates: FusedAttention and SkipLayerNorm.
//
// Residual + LayerNorm is its own op (SkipLayerNorm) rather than an optional input of LayerNorm:
// LayerNorm's inputs, outputs and attributes are ONNX LayerNormalization's, which the frontend
// maps name for name, and its statistics outputs (mean, inv_std_dev) have no meaning for a fused
// sum; a separate op keeps both contracts plain.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

/// The dims before the last two of `s` (the batch dims of a matrix operand).
std::vector<int64_t> BatchDims(const GeShape& s) {
  const auto& d = s.GetDims();
  return std::vector<int64_t>(d.begin(), d.end() - 2);
}

// q [.., S, D]; k [.., D, Sk] (k_transposed) or [.., Sk, D]; v [.., Sk, Dv]; mask broadcasting to
// [.., S, Sk]. Batch dims broadcast (numpy). y [.., S, Dv].
Status InferFusedAttention(InferContext& ctx) {
  const GeShape& q = ctx.InputShape(0);
  const GeShape& k = ctx.InputShape(1);
  const GeShape& v = ctx.InputShape(2);
  if (q.IsUnknownDimNum() || k.IsUnknownDimNum() || v.IsUnknownDimNum()) {
    return ctx.SetOutputShape(0, infer::UnknownRankShape());
  }
  for (size_t i = 0; i < 3; ++i) GE_RETURN_IF_ERROR(RequireMinRank(ctx, i, 2));
  const bool k_transposed = ctx.AttrBool("k_transposed", false);
  const int64_t rq = infer::RankOf(q), rk = infer::RankOf(k), rv = infer::RankOf(v);
  const int64_t s = q.GetDim(rq - 2), d = q.GetDim(rq - 1);
  const int64_t kd = k.GetDim(k_transposed ? rk - 2 : rk - 1);
  const int64_t sk = k.GetDim(k_transposed ? rk - 1 : rk - 2);
  if (!DimsCompatible(d, kd)) {
    return ctx.Error("the head size of " + ctx.DescribeInput(0) + " differs from that of " +
                     ctx.DescribeInput(1) + (k_transposed ? " (k_transposed)" : ""));
  }
  if (!DimsCompatible(sk, v.GetDim(rv - 2))) {
    return ctx.Error("the key length of " + ctx.DescribeInput(1) + " differs from that of " +
                     ctx.DescribeInput(2));
  }
  GE_ASSIGN_OR_RETURN(GeShape batch,
                      infer::BroadcastShapes(GeShape(BatchDims(q)), GeShape(BatchDims(k))));
  auto with_v = infer::BroadcastShapes(batch, GeShape(BatchDims(v)));
  if (!with_v.ok())
    return ctx.Error("the batch dims of q, k and v do not broadcast: " + with_v.status().message());
  std::vector<int64_t> scores = with_v->GetDims();
  scores.push_back(s);
  scores.push_back(sk);
  if (ctx.AttrBool("causal", false) && ctx.HasInput(3)) {
    return ctx.Error("a causal attention takes no mask input");
  }
  if (ctx.AttrBool("causal", false) && sk >= 0 && s >= 0 && sk < s) {
    return ctx.Error("a causal attention needs at least as many keys as queries");
  }
  if (ctx.HasInput(3) && !infer::CanBroadcastTo(ctx.InputShape(3), GeShape(scores))) {
    return ctx.Error(ctx.DescribeInput(3) + " does not broadcast to the scores " +
                     GeShape(scores).ToString());
  }
  std::vector<int64_t> out = with_v->GetDims();
  out.push_back(s);
  out.push_back(v.GetDim(rv - 1));
  return ctx.SetOutputShape(0, GeShape(out));
}

// y is x + skip broadcast (numpy); scale and bias broadcast to its normalized dims (axis..end).
Status InferSkipLayerNorm(InferContext& ctx) {
  auto sum = infer::BroadcastShapes(ctx.InputShape(0), ctx.InputShape(1));
  if (!sum.ok()) {
    return ctx.Error(ctx.DescribeInput(0) + " and " + ctx.DescribeInput(1) + " do not broadcast");
  }
  const GeShape& shape = *sum;
  if (!shape.IsUnknownDimNum()) {
    GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1),
                                                       infer::RankOf(shape), "attribute 'axis'"));
    const auto& d = shape.GetDims();
    const GeShape normalized(std::vector<int64_t>(d.begin() + axis, d.end()));
    for (size_t i = 2; i <= 3; ++i) {
      if (ctx.HasInput(i) && !infer::CanBroadcastTo(ctx.InputShape(i), normalized)) {
        return ctx.Error(ctx.DescribeInput(i) + " does not broadcast to the normalized shape " +
                         normalized.ToString());
      }
    }
  }
  return ctx.SetOutputShape(0, shape);
}

}  // namespace

void RegisterFusedTransformerOps(OpProtoRegistrar& r) {
  const TensorType floats({DT_FLOAT});
  // softmax(q k^T * scale + mask) v; `causal`: query i sees keys j <= i + Sk - S (no mask input).
  r.Register(OpProtoBuilder("FusedAttention")
                 .TypeConstraint("T", floats)
                 .Input("q", "T")
                 .Input("k", "T")
                 .Input("v", "T")
                 .OptionalInput("mask", "T")
                 .Output("y", "T")
                 .Attr("scale", 1.0F)
                 .Attr("k_transposed", false)
                 .Attr("causal", false)
                 .InferShape(InferFusedAttention)
                 .Build());
  // LayerNorm(x + skip) over the dims from axis on; x and skip broadcast.
  r.Register(OpProtoBuilder("SkipLayerNorm")
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Input("skip", "T")
                 .Input("scale", "T")
                 .OptionalInput("bias", "T")
                 .Output("y", "T")
                 .Attr("axis", -1)
                 .Attr("epsilon", 1e-5F)
                 .InferShape(InferSkipLayerNorm)
                 .Build());
}

}  // namespace ge::builtin

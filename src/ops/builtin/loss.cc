// Losses (ONNX names, GE has none): NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
//
// Both take scores [N, C, d1..dk] (k >= 0), class indices [N, d1..dk] and optional per-class
// weights [C]. reduction "none" gives a loss of the indices' shape, "sum" / "mean" a scalar.
// ignore_index has no default (ONNX): it is not declared here, so a node carries it only when
// the model sets it.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;

Status VerifyReduction(InferContext& ctx) {
  const std::string r = ctx.AttrStr("reduction", "mean");
  if (r != "none" && r != "sum" && r != "mean") {
    return ctx.Error("attribute 'reduction' must be none, sum or mean, not '" + r + "'");
  }
  return Status::Ok();
}

// Scores (input 0) [N, C, d1..dk], indices (input 1) [N, d1..dk], weights (input 2) [C]; the
// loss (output 0) by the reduction; any further output has the scores' shape (log_prob).
Status InferLoss(InferContext& ctx) {
  GE_RETURN_IF_ERROR(VerifyReduction(ctx));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  const GeShape& x = ctx.InputShape(0);
  const GeShape& t = ctx.InputShape(1);
  const int64_t xr = RankOf(x);
  const int64_t tr = RankOf(t);
  if (xr >= 0 && tr >= 0) {
    bool ok = tr == xr - 1;
    for (int64_t i = 0; ok && i < tr; ++i) {
      const auto xi = static_cast<size_t>(i == 0 ? 0 : i + 1);
      ok = DimsCompatible(t.GetDim(static_cast<size_t>(i)), x.GetDim(xi));
    }
    if (!ok) {
      return ctx.Error(ctx.DescribeInput(1) + " must be " + ctx.DescribeInput(0) +
                       " without its class dim 1");
    }
  }
  if (ctx.NumInputs() > 2 && ctx.HasInput(2)) {
    const GeShape& w = ctx.InputShape(2);
    const int64_t c = xr >= 2 ? x.GetDim(1) : UNKNOWN_DIM;
    if (!w.IsUnknownDimNum() && (w.GetDimNum() != 1 || !DimsCompatible(w.GetDim(0), c))) {
      return ctx.Error(ctx.DescribeInput(2) + " must be [C] with C = dim 1 of " +
                       ctx.DescribeInput(0));
    }
  }
  GeShape loss;  // a scalar for sum / mean
  if (ctx.AttrStr("reduction", "mean") == "none") {
    if (tr >= 0) {
      loss = t;
    } else if (xr >= 0) {
      std::vector<int64_t> d = x.GetDims();
      d.erase(d.begin() + 1);
      loss = GeShape(d);
    } else {
      loss = infer::UnknownRankShape();
    }
  }
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, loss));
  for (size_t i = 1; i < ctx.NumOutputs(); ++i) GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, x));
  return Status::Ok();
}

}  // namespace

void RegisterLossOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  const TensorType index = TensorType::IndexNumberType();
  r.Register(OpProtoBuilder("NegativeLogLikelihoodLoss")  // ONNX name
                 .TypeConstraint("T", floats)
                 .TypeConstraint("Tind", index)
                 .Input("input", "T")
                 .Input("target", "Tind")
                 .OptionalInput("weight", "T")
                 .Output("loss", "T")
                 .Attr("reduction", "mean")
                 .OptionalAttr("ignore_index", AttrValue::Type::kInt)
                 .InferShape(InferLoss)
                 .Build());
  r.Register(OpProtoBuilder("SoftmaxCrossEntropyLoss")  // ONNX name; log_prob = LogSoftmax(axis 1)
                 .TypeConstraint("T", floats)
                 .TypeConstraint("Tind", index)
                 .Input("scores", "T")
                 .Input("labels", "Tind")
                 .OptionalInput("weights", "T")
                 .Output("output", "T")
                 .Output("log_prob", "T")
                 .Attr("reduction", "mean")
                 .OptionalAttr("ignore_index", AttrValue::Type::kInt)
                 .InferShape(InferLoss)
                 .Build());
}

}  // namespace ge::builtin

// Normalization: BatchNorm (ONNX BatchNormalization), LayerNorm, RMSNormalization, InstanceNorm,
// GroupNorm, LRN, LpNormalization and MeanVarianceNormalization.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

int64_t ChannelDim(const InferContext& ctx, const GeShape& x) {
  if (x.IsUnknownDimNum() || x.GetDimNum() < 2) return UNKNOWN_DIM;
  const std::string fmt = ctx.AttrStr("data_format", "NCHW");
  const bool last = fmt == "NHWC" || fmt == "NDHWC";
  return x.GetDim(last ? x.GetDimNum() - 1 : 1);
}

// Input `i`, when present, must be [c] (or [alt] when alt >= 0).
Status RequireVector(const InferContext& ctx, size_t i, int64_t c, int64_t alt = -2) {
  if (!ctx.HasInput(i)) return Status::Ok();
  const GeShape& s = ctx.InputShape(i);
  if (s.IsUnknownDimNum()) return Status::Ok();
  const bool ok = s.GetDimNum() == 1 && (DimsCompatible(s.GetDim(0), c) ||
                                         (alt >= -1 && DimsCompatible(s.GetDim(0), alt)));
  if (!ok) {
    return ctx.Error(ctx.DescribeInput(i) + " must be [" + std::to_string(c) + "] to match " +
                     ctx.DescribeInput(0));
  }
  return Status::Ok();
}

Status InferBatchNorm(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  const int64_t c = ChannelDim(ctx, x);
  for (size_t i = 1; i < 5; ++i) GE_RETURN_IF_ERROR(RequireVector(ctx, i, c));
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, x));
  for (size_t i = 1; i < ctx.NumOutputs(); ++i)
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, GeShape({c})));
  return Status::Ok();
}

Status InferLayerNorm(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, x));
  if (x.IsUnknownDimNum()) {
    for (size_t i = 1; i < ctx.NumOutputs(); ++i) GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, x));
    return Status::Ok();
  }
  const int64_t rank = infer::RankOf(x);
  GE_ASSIGN_OR_RETURN(int64_t axis,
                      NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), rank, "attribute 'axis'"));
  const auto& d = x.GetDims();
  const GeShape normalized(std::vector<int64_t>(d.begin() + axis, d.end()));
  for (size_t i = 1; i <= 2; ++i) {
    if (ctx.HasInput(i) && !infer::CanBroadcastTo(ctx.InputShape(i), normalized)) {
      return ctx.Error(ctx.DescribeInput(i) + " does not broadcast to the normalized shape " +
                       normalized.ToString() + " of " + ctx.DescribeInput(0));
    }
  }
  std::vector<int64_t> stat(d.begin(), d.begin() + axis);
  stat.resize(d.size(), 1);
  for (size_t i = 1; i < ctx.NumOutputs(); ++i) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(i, GeShape(stat), ctx.InputDataType(0)));
  }
  return Status::Ok();
}

// Y has X's dims and the scale's dtype; the scale broadcasts to X (numpy, one way).
Status InferRmsNorm(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, x));
  if (x.IsUnknownDimNum()) return Status::Ok();
  const auto axis =
      NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), infer::RankOf(x), "attribute 'axis'");
  if (!axis.ok()) return axis.status();
  if (!infer::CanBroadcastTo(ctx.InputShape(1), x)) {
    return ctx.Error(ctx.DescribeInput(1) + " does not broadcast to " + ctx.DescribeInput(0));
  }
  return Status::Ok();
}

Status InferInstanceNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 3));
  const int64_t c = ChannelDim(ctx, ctx.InputShape(0));
  GE_RETURN_IF_ERROR(RequireVector(ctx, 1, c));
  GE_RETURN_IF_ERROR(RequireVector(ctx, 2, c));
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

Status InferGroupNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 3));
  const int64_t groups = ctx.AttrInt("num_groups", 0);
  if (groups <= 0) return ctx.Error("attribute 'num_groups' must be positive");
  const int64_t c = ChannelDim(ctx, ctx.InputShape(0));
  if (c >= 0 && c % groups != 0) {
    return ctx.Error(ctx.DescribeInput(0) + " has " + std::to_string(c) +
                     " channels, not divisible by num_groups " + std::to_string(groups));
  }
  // Scale/bias are [C] (opset 21) or [num_groups] (opset 18).
  GE_RETURN_IF_ERROR(RequireVector(ctx, 1, c, groups));
  GE_RETURN_IF_ERROR(RequireVector(ctx, 2, c, groups));
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

Status InferLrn(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 3));
  if (ctx.AttrInt("size", 0) <= 0) return ctx.Error("attribute 'size' must be positive");
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

Status InferAxisChecked(InferContext& ctx) {
  const int64_t rank = infer::RankOf(ctx.InputShape(0));
  if (rank > 0) {
    auto a = NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), rank, "attribute 'axis'");
    if (!a.ok()) return a.status();
  }
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

}  // namespace

void RegisterNormOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  // ONNX BatchNormalization's inputs and attributes; outputs 1 and 2 are the running statistics
  // (training_mode = 1).
  r.Register(OpProtoBuilder("BatchNorm")
                 .TypeConstraint("T", floats)
                 .TypeConstraint("U", floats)
                 .Input("x", "T")
                 .Input("scale", "U")
                 .Input("offset", "U")
                 .Input("mean", "U")
                 .Input("variance", "U")
                 .Output("y", "T")
                 .Output("running_mean", "U")
                 .Output("running_var", "U")
                 .Attr("epsilon", 1e-5F)
                 .Attr("momentum", 0.9F)
                 .Attr("training_mode", 0)
                 .Attr("data_format", "NCHW")
                 .InferShape(InferBatchNorm)
                 .Build());
  // ONNX LayerNormalization: outputs mean and inv_std_dev have x's dims before axis, 1 after.
  r.Register(OpProtoBuilder("LayerNorm")
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Input("scale", "T")
                 .OptionalInput("bias", "T")
                 .Output("y", "T")
                 .Output("mean", floats)
                 .Output("inv_std_dev", floats)
                 .Attr("axis", -1)
                 .Attr("epsilon", 1e-5F)
                 .Attr("stash_type", 1)
                 .InferShape(InferLayerNorm)
                 .Build());
  // ONNX RMSNormalization: X / sqrt(mean(X^2 over the dims from axis on) + epsilon) * scale.
  r.Register(OpProtoBuilder("RMSNormalization")
                 .TypeConstraint("T", floats)
                 .TypeConstraint("V", floats)
                 .Input("X", "T")
                 .Input("scale", "V")
                 .Output("Y", "V")
                 .Attr("axis", -1)
                 .Attr("epsilon", 1e-5F)
                 .Attr("stash_type", 1)
                 .InferShape(InferRmsNorm)
                 .Build());
  r.Register(OpProtoBuilder("InstanceNorm")  // ONNX InstanceNormalization
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Input("scale", "T")
                 .Input("bias", "T")
                 .Output("y", "T")
                 .Attr("epsilon", 1e-5F)
                 .Attr("data_format", "NCHW")
                 .InferShape(InferInstanceNorm)
                 .Build());
  r.Register(OpProtoBuilder("GroupNorm")  // ONNX GroupNormalization
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Input("scale", "T")
                 .Input("bias", "T")
                 .Output("y", "T")
                 .RequiredAttr("num_groups", AttrValue::Type::kInt)
                 .Attr("epsilon", 1e-5F)
                 .Attr("stash_type", 1)
                 .Attr("data_format", "NCHW")
                 .InferShape(InferGroupNorm)
                 .Build());
  r.Register(OpProtoBuilder("LRN")
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("size", AttrValue::Type::kInt)
                 .Attr("alpha", 1e-4F)
                 .Attr("beta", 0.75F)
                 .Attr("bias", 1.0F)
                 .InferShape(InferLrn)
                 .Build());
  r.Register(OpProtoBuilder("LpNormalization")  // ONNX name
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axis", -1)
                 .Attr("p", 2)
                 .InferShape(InferAxisChecked)
                 .Build());
  r.Register(OpProtoBuilder("MeanVarianceNormalization")  // ONNX name
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axes", std::vector<int64_t>{0, 2, 3})
                 .InferShape(InferSameShape)
                 .Build());
}

}  // namespace ge::builtin

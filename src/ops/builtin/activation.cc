// Activations (shape-preserving, with ONNX's attributes and defaults) and the softmax family.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

OpProtoBuilder Activation(const char* type, const TensorType& types) {
  OpProtoBuilder b(type);
  b.TypeConstraint("T", types)
      .Input("x", "T")
      .Output("y", "T")
      .InferShape(InferSameShape)
      .Elementwise(ElementwiseKind::kUnary);
  return b;
}

Status VerifyAxisInRange(InferContext& ctx) {
  const int64_t rank = infer::RankOf(ctx.InputShape(0));
  if (rank < 0) return Status::Ok();
  // Softmax of a scalar has no axis; ONNX allows rank >= 1 only.
  if (rank == 0) return ctx.Error(ctx.DescribeInput(0) + " must have rank >= 1");
  auto a = NormalizeAxisFor(ctx, ctx.AttrInt("axis", -1), rank, "attribute 'axis'");
  return a.ok() ? Status::Ok() : a.status();
}

Status InferSoftmax(InferContext& ctx) {
  GE_RETURN_IF_ERROR(VerifyAxisInRange(ctx));
  return InferSameShape(ctx);
}

// ONNX Softmax, LogSoftmax and Hardmax before opset 13: the input is seen as 2-D, the dims
// before `axis` flattened into rows and the rest into one row each to normalize. The parser emits
// these when it cannot tell that the axis is the last (the rank is unknown at parse); once shapes
// are inferred, SimplifyChains turns a last-axis one into the one-axis operator.
Status InferLegacySoftmax(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (!x.IsUnknownDimNum()) {
    const auto rank = static_cast<int64_t>(x.GetDimNum());
    const int64_t axis = ctx.AttrInt("axis", 1);
    if (axis < -rank || axis > rank) {
      return ctx.Error("attribute 'axis' " + std::to_string(axis) + " is out of range for " +
                       ctx.DescribeInput(0) + " (from " + std::to_string(-rank) + " to " +
                       std::to_string(rank) + ")");
    }
  }
  return InferSameShape(ctx);
}

// ONNX PRelu: the slope broadcasts to x (unidirectionally).
Status InferPRelu(InferContext& ctx) {
  if (!infer::CanBroadcastTo(ctx.InputShape(1), ctx.InputShape(0))) {
    return ctx.Error(ctx.DescribeInput(1) + " does not broadcast to " + ctx.DescribeInput(0));
  }
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

// ONNX Clip (opset 11+): min and max are optional scalar inputs.
Status InferClip(InferContext& ctx) {
  for (size_t i = 1; i <= 2; ++i) {
    if (!ctx.HasInput(i)) continue;
    const GeShape& s = ctx.InputShape(i);
    if (!s.IsUnknownDimNum() && infer::DimProduct(s.GetDims()) > 1) {
      return ctx.Error(ctx.DescribeInput(i) + " must be a scalar");
    }
  }
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

}  // namespace

void RegisterActivationOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  const TensorType signed_numbers = floats | TensorType::SignedIntegerType();

  r.Register(Activation("Relu", signed_numbers).Build());
  r.Register(Activation("Relu6", signed_numbers).Build());  // GE's: min(max(x, 0), 6)
  r.Register(Activation("LeakyRelu", floats).Attr("alpha", 0.01F).Build());
  r.Register(OpProtoBuilder("PRelu")
                 .TypeConstraint("T", signed_numbers)
                 .Input("x", "T")
                 .Input("slope", "T")
                 .Output("y", "T")
                 .InferShape(InferPRelu)
                 .Elementwise(ElementwiseKind::kBinary)
                 .Build());
  r.Register(Activation("Elu", floats).Attr("alpha", 1.0F).Build());
  r.Register(Activation("Selu", floats)
                 .Attr("alpha", 1.67326319217681884765625F)
                 .Attr("gamma", 1.05070102214813232421875F)
                 .Build());
  r.Register(Activation("Celu", floats).Attr("alpha", 1.0F).Build());
  // ONNX Gelu (opset 20): approximate "none" or "tanh".
  r.Register(Activation("Gelu", floats)
                 .Attr("approximate", "none")
                 .Verify([](InferContext& ctx) {
                   const std::string a = ctx.AttrStr("approximate");
                   if (a != "none" && a != "tanh") {
                     return ctx.Error("attribute 'approximate' must be none or tanh, not '" + a +
                                      "'");
                   }
                   return Status::Ok();
                 })
                 .Build());
  r.Register(Activation("Sigmoid", floats).Build());
  r.Register(Activation("HardSigmoid", floats).Attr("alpha", 0.2F).Attr("beta", 0.5F).Build());
  r.Register(Activation("HardSwish", floats).Build());
  r.Register(Activation("Tanh", floats).Build());
  r.Register(Activation("Softplus", floats).Build());
  r.Register(Activation("Softsign", floats).Build());
  r.Register(Activation("Mish", floats).Build());
  r.Register(Activation("ThresholdedRelu", floats).Attr("alpha", 1.0F).Build());  // ONNX name
  r.Register(Activation("Shrink", TensorType::RealNumberType())                   // ONNX name
                 .Attr("bias", 0.0F)
                 .Attr("lambd", 0.5F)
                 .Build());
  // GE's Swish (x * sigmoid(scale * x)); ONNX has no Swish before opset 24.
  r.Register(Activation("Swish", floats).Attr("scale", 1.0F).Build());
  // ONNX SwiGLU (opset 28): Swish(A) * B, A and B of one shape (no broadcasting).
  r.Register(OpProtoBuilder("SwiGLU")
                 .TypeConstraint("T", floats)
                 .Input("A", "T")
                 .Input("B", "T")
                 .Output("Y", "T")
                 .Attr("alpha", 1.0F)
                 .InferShape([](InferContext& ctx) {
                   const GeShape& a = ctx.InputShape(0);
                   const GeShape& b = ctx.InputShape(1);
                   if (!ShapesCompatible(a, b)) {
                     return ctx.Error(ctx.DescribeInput(0) + " and " + ctx.DescribeInput(1) +
                                      " must have one shape (SwiGLU does not broadcast)");
                   }
                   return ctx.SetOutputShape(0, a.IsUnknownDimNum() ? b : a);
                 })
                 .Build());
  r.Register(OpProtoBuilder("Clip")  // ONNX Clip; GE's ClipByValue needs both bounds
                 .TypeConstraint("T", TensorType::RealNumberType())
                 .Input("x", "T")
                 .OptionalInput("min", "T")
                 .OptionalInput("max", "T")
                 .Output("y", "T")
                 .InferShape(InferClip)
                 .Elementwise(ElementwiseKind::kUnary)
                 .Build());

  // Softmax family: ONNX opset 13 semantics (one axis, default -1).
  for (const char* t : {"SoftmaxV2", "LogSoftmaxV2", "Hardmax"}) {  // Hardmax: ONNX name
    r.Register(OpProtoBuilder(t)
                   .TypeConstraint("T", floats)
                   .Input("x", "T")
                   .Output("y", "T")
                   .Attr("axis", -1)
                   .InferShape(InferSoftmax)
                   .Build());
  }
  for (const char* t : {"SoftmaxLegacy", "LogSoftmaxLegacy", "HardmaxLegacy"}) {
    r.Register(OpProtoBuilder(t)
                   .TypeConstraint("T", floats)
                   .Input("x", "T")
                   .Output("y", "T")
                   .Attr("axis", 1)
                   .InferShape(InferLegacySoftmax)
                   .Build());
  }
}

}  // namespace ge::builtin

// Elementwise math, comparison and logic with numpy broadcasting; unary math functions.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

void Binary(OpProtoRegistrar& r, const char* type, const TensorType& types, bool bool_out = false) {
  OpProtoBuilder b(type);
  b.TypeConstraint("T", types).Input("x1", "T").Input("x2", "T");
  if (bool_out) {
    b.Output("y", TensorType::BOOL());
  } else {
    b.Output("y", "T");
  }
  r.Register(b.InferShape(InferBroadcast).Elementwise(ElementwiseKind::kBinary).Build());
}

void Unary(OpProtoRegistrar& r, const char* type, const TensorType& types) {
  r.Register(OpProtoBuilder(type)
                 .TypeConstraint("T", types)
                 .Input("x", "T")
                 .Output("y", "T")
                 .InferShape(InferSameShape)
                 .Elementwise(ElementwiseKind::kUnary)
                 .Build());
}

// Variadic broadcasting ops (ONNX Sum/Mean/Max/Min; GE's AddN).
void Variadic(OpProtoRegistrar& r, const char* type, const TensorType& types) {
  r.Register(OpProtoBuilder(type)
                 .TypeConstraint("T", types)
                 .DynamicInput("x", "T")
                 .Output("y", "T")
                 .Attr("N", 0)
                 .InferShape([](InferContext& ctx) {
                   if (ctx.NumInputs() == 0) return ctx.Error("needs at least one input");
                   return InferBroadcast(ctx);
                 })
                 .Elementwise(ElementwiseKind::kVariadic)
                 .Build());
}

}  // namespace

void RegisterElementwiseOps(OpProtoRegistrar& r) {
  const TensorType number = TensorType::NumberType();
  const TensorType real = TensorType::RealNumberType();
  const TensorType floats = TensorType::FloatingDataType();
  const TensorType ints = TensorType::IntegerDataType();
  const TensorType all = TensorType::ALL();

  for (const char* t : {"Add", "Sub", "Mul"}) Binary(r, t, number);
  Binary(r, "RealDiv", number);  // ONNX Div
  // ONNX Pow-12+: the exponent may have another numeric dtype; y has the base's.
  r.Register(OpProtoBuilder("Pow")
                 .TypeConstraint("T", number)
                 .TypeConstraint("T1", number)
                 .Input("x1", "T")
                 .Input("x2", "T1")
                 .Output("y", "T")
                 .InferShape(InferBroadcast)
                 .Elementwise(ElementwiseKind::kBinary)
                 .Build());
  Binary(r, "Maximum", real);
  Binary(r, "Minimum", real);
  // ONNX Mod: fmod = 0 is Python's sign-of-divisor modulo (integers only), 1 is C fmod.
  r.Register(OpProtoBuilder("Mod")
                 .TypeConstraint("T", real)
                 .Input("x1", "T")
                 .Input("x2", "T")
                 .Output("y", "T")
                 .Attr("fmod", 0)
                 .InferShape(InferBroadcast)
                 .Elementwise(ElementwiseKind::kBinary)
                 .Build());
  r.Register(OpProtoBuilder("BitShift")  // ONNX name
                 .TypeConstraint("T", TensorType::UnsignedIntegerType())
                 .Input("x1", "T")
                 .Input("x2", "T")
                 .Output("y", "T")
                 .RequiredAttr("direction", AttrValue::Type::kString)
                 .InferShape(InferBroadcast)
                 .Elementwise(ElementwiseKind::kBinary)
                 .Verify([](InferContext& ctx) {
                   const std::string d = ctx.AttrStr("direction");
                   if (d != "LEFT" && d != "RIGHT") {
                     return ctx.Error("attribute 'direction' must be LEFT or RIGHT, not '" + d +
                                      "'");
                   }
                   return Status::Ok();
                 })
                 .Build());
  for (const char* t : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) Binary(r, t, ints);
  Unary(r, "BitwiseNot", ints);

  const TensorType comparable = real | TensorType::BOOL();
  Binary(r, "Equal", all, /*bool_out=*/true);
  for (const char* t : {"Less", "Greater", "LessEqual", "GreaterEqual"}) {
    Binary(r, t, comparable, /*bool_out=*/true);
  }
  for (const char* t : {"LogicalAnd", "LogicalOr", "LogicalXor"}) {  // LogicalXor: ONNX Xor
    Binary(r, t, TensorType::BOOL());
  }
  Unary(r, "LogicalNot", TensorType::BOOL());

  Variadic(r, "AddN", number);                                        // ONNX Sum
  for (const char* t : {"Mean", "Max", "Min"}) Variadic(r, t, real);  // ONNX names

  for (const char* t : {"Abs", "Neg", "Sign"}) Unary(r, t, number);
  for (const char* t :
       {"Exp", "Log",  "Sqrt", "Rsqrt", "Reciprocal", "Floor", "Ceil",  "Round", "Sin",   "Cos",
        "Tan", "Asin", "Acos", "Atan",  "Sinh",       "Cosh",  "Asinh", "Acosh", "Atanh", "Erf"}) {
    Unary(r, t, floats);
  }
  // ONNX IsNaN / IsInf: bool of the input's shape.
  r.Register(OpProtoBuilder("IsNaN")
                 .Input("x", floats)
                 .Output("y", TensorType::BOOL())
                 .InferShape(InferSameShape)
                 .Elementwise(ElementwiseKind::kUnary)
                 .Build());
  r.Register(OpProtoBuilder("IsInf")
                 .Input("x", floats)
                 .Output("y", TensorType::BOOL())
                 .Attr("detect_negative", 1)
                 .Attr("detect_positive", 1)
                 .InferShape(InferSameShape)
                 .Elementwise(ElementwiseKind::kUnary)
                 .Build());
}

}  // namespace ge::builtin

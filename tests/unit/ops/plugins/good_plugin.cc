// Test prototype library: registers TestOpA and TestOpB.
#include "ge/ops/infer_context.h"
#include "ge/ops/op_registry.h"

namespace {
ge::Status SameShape(ge::InferContext& ctx) { return ctx.SetOutputShape(0, ctx.InputShape(0)); }
}  // namespace

OPENGE_OP_PROTO_ENTRY int OpenGeRegisterOpProtos(ge::OpProtoRegistrar* r) {
  if (r == nullptr || r->AbiVersion() != ge::kOpProtoAbiVersion) return 1;
  r->Register(ge::OpProtoBuilder("TestOpA")
                  .TypeConstraint("T", ge::TensorType::FloatingDataType())
                  .Input("x", "T")
                  .Output("y", "T")
                  .Attr("alpha", 0.5F)
                  .InferShape(SameShape)
                  .Build());
  r->Register(ge::OpProtoBuilder("TestOpB")
                  .DynamicInput("x", ge::TensorType::ALL())
                  .Output("y", ge::TensorType::ALL())
                  .InferShape(SameShape)
                  .Build());
  return r->ok() ? 0 : 1;
}

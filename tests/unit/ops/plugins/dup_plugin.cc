// Test prototype library: registers TestOpA again (with attr beta instead of alpha) and TestOpC.
#include "ge/ops/infer_context.h"
#include "ge/ops/op_registry.h"

OPENGE_OP_PROTO_ENTRY int OpenGeRegisterOpProtos(ge::OpProtoRegistrar* r) {
  if (r == nullptr || r->AbiVersion() != ge::kOpProtoAbiVersion) return 1;
  auto same = [](ge::InferContext& ctx) { return ctx.SetOutputShape(0, ctx.InputShape(0)); };
  r->Register(ge::OpProtoBuilder("TestOpA")
                  .Input("x", ge::TensorType::ALL())
                  .Output("y", ge::TensorType::ALL())
                  .Attr("beta", 2)
                  .InferShape(same)
                  .Build());
  r->Register(ge::OpProtoBuilder("TestOpC")
                  .Input("x", ge::TensorType::ALL())
                  .Output("y", ge::TensorType::ALL())
                  .InferShape(same)
                  .Build());
  return r->ok() ? 0 : 1;
}

// Test prototype library: declares a malformed prototype (an undeclared type symbol) next to a
// good one; the whole load must fail and register nothing.
#include "ge/ops/infer_context.h"
#include "ge/ops/op_registry.h"

OPENGE_OP_PROTO_ENTRY int OpenGeRegisterOpProtos(ge::OpProtoRegistrar* r) {
  if (r == nullptr || r->AbiVersion() != ge::kOpProtoAbiVersion) return 1;
  auto same = [](ge::InferContext& ctx) { return ctx.SetOutputShape(0, ctx.InputShape(0)); };
  r->Register(ge::OpProtoBuilder("TestOpFine")
                  .Input("x", ge::TensorType::ALL())
                  .Output("y", ge::TensorType::ALL())
                  .InferShape(same)
                  .Build());
  r->Register(
      ge::OpProtoBuilder("TestOpBroken").Input("x", "T").Output("y", "T").InferShape(same).Build());
  return r->ok() ? 0 : 1;
}

// The prototype of FusedElementwise, the op elementwise fusion creates: an expression program
// (ge/ops/fused_ops.h) over float32 inputs; every output is the broadcast of all inputs.
#include "ge/ops/fused_elementwise.h"

#include "builtin_ops.h"
#include "ge/ops/fused_ops.h"

namespace ge::builtin {
namespace {

Status InferFusedElementwise(InferContext& ctx) {
  if (ctx.NumInputs() == 0) return ctx.Error("needs at least one input");
  GeShape shape = ctx.InputShape(0);
  for (size_t i = 1; i < ctx.NumInputs(); ++i)
    GE_RETURN_IF_ERROR(BroadcastWithInput(ctx, 0, i, shape));
  for (size_t k = 0; k < ctx.NumOutputs(); ++k)
    GE_RETURN_IF_ERROR(ctx.SetOutput(k, shape, DT_FLOAT));
  return Status::Ok();
}

Status VerifyFusedElementwise(InferContext& ctx) {
  const AttrValue* attr = ctx.FindAttr(kAttrEwProgram);
  const auto* program = attr == nullptr ? nullptr : attr->Get<std::vector<std::string>>();
  if (program == nullptr) return ctx.Error("attribute 'program' must be a list of strings");
  const std::vector<int64_t> outputs = ctx.AttrInts(kAttrEwOutputRegisters);
  if (outputs.size() != ctx.NumOutputs()) {
    return ctx.Error("attribute 'output_registers' names " + std::to_string(outputs.size()) +
                     " register(s) for " + std::to_string(ctx.NumOutputs()) + " output(s)");
  }
  auto parsed = fused::ParseEwProgram(*program, outputs, static_cast<int64_t>(ctx.NumInputs()));
  if (!parsed.ok()) return ctx.Error("malformed program: " + parsed.status().message());
  return Status::Ok();
}

}  // namespace

void RegisterFusedElementwiseOps(OpProtoRegistrar& r) {
  r.Register(OpProtoBuilder("FusedElementwise")
                 .TypeConstraint("T", TensorType{DT_FLOAT})
                 .DynamicInput("x", "T")
                 .DynamicOutput("y", "T")
                 .RequiredAttr(kAttrEwProgram, AttrValue::Type::kListString)
                 .RequiredAttr(kAttrEwOutputRegisters, AttrValue::Type::kListInt)
                 .InferShape(InferFusedElementwise)
                 .Verify(VerifyFusedElementwise)
                 .Elementwise(ElementwiseKind::kVariadic)
                 .Build());
}

}  // namespace ge::builtin

// Control flow with subgraphs: If, Case, While, PartitionedCall. Their output descs come from the
// subgraphs (the compiler's subgraph-aware inference fills them); the prototypes only check the
// inputs and, for While, carry loop variables through.
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

// Outputs are defined by the subgraphs: leave the descs as the graph builder or frontend set them.
Status KeepOutputs(InferContext&) { return Status::Ok(); }

Status RequireScalarLike(InferContext& ctx, size_t i) {
  const GeShape& s = ctx.InputShape(i);
  if (!s.IsUnknownDimNum() && infer::DimProduct(s.GetDims()) > 1) {
    return ctx.Error(ctx.DescribeInput(i) + " must hold a single value");
  }
  return Status::Ok();
}

// While: loop-carried variables keep their dtype; a dim may change between iterations only if
// the body says so, which the subgraph pass checks. Here output k = input k.
Status InferWhile(InferContext& ctx) {
  const size_t n = std::min(ctx.NumInputs(), ctx.NumOutputs());
  for (size_t i = 0; i < n; ++i) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(i, ctx.InputShape(i), ctx.InputDataType(i)));
  }
  return Status::Ok();
}

}  // namespace

void RegisterControlFlowOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  r.Register(OpProtoBuilder("If")
                 .Input("cond", all).DynamicInput("input", all).DynamicOutput("output", all)
                 .Graph("then_branch").Graph("else_branch")
                 .InferShape([](InferContext& ctx) {
                   GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                   return KeepOutputs(ctx);
                 })
                 .Build());
  r.Register(OpProtoBuilder("Case")
                 .Input("branch_index", TensorType::IndexNumberType())
                 .DynamicInput("input", all).DynamicOutput("output", all)
                 .DynamicGraph("branches")
                 .InferShape([](InferContext& ctx) {
                   GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                   return KeepOutputs(ctx);
                 })
                 .Build());
  r.Register(OpProtoBuilder("While")
                 .DynamicInput("input", all).DynamicOutput("output", all)
                 .Graph("cond").Graph("body")
                 .Attr("parallel_iterations", 10)
                 .InferShape(InferWhile).Build());
  r.Register(OpProtoBuilder("PartitionedCall")
                 .DynamicInput("args", all).DynamicOutput("output", all)
                 .Graph("f")
                 .Attr("config", "").Attr("config_proto", "").Attr("executor_type", "")
                 .InferShape(KeepOutputs).Build());
}

}  // namespace ge::builtin

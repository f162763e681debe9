// The entry point of the built-in prototype library and the helpers its families share.
#include "builtin_ops.h"

namespace ge::builtin {

Status InferSameShape(InferContext& ctx) {
  for (size_t i = 0; i < ctx.NumOutputs(); ++i) {
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, ctx.InputShape(0)));
  }
  return Status::Ok();
}

Status BroadcastWithInput(InferContext& ctx, size_t first, size_t i, GeShape& shape) {
  auto r = infer::BroadcastShapes(shape, ctx.InputShape(i));
  if (!r.ok()) {
    return ctx.Error("input " + ctx.InputName(i) + " " + ctx.InputShape(i).ToString() +
                     " does not broadcast with input " + ctx.InputName(first) + " " +
                     ctx.InputShape(first).ToString() + ": " + r.status().message());
  }
  shape = std::move(r).value();
  return Status::Ok();
}

Status SetOutputWithAddend(InferContext& ctx, size_t addend_index, const GeShape& out) {
  if (ctx.HasInput(addend_index)) {
    const GeShape& a = ctx.InputShape(addend_index);
    bool fits = a.IsUnknownDimNum() || out.IsUnknownDimNum() || a.GetDimNum() == out.GetDimNum();
    for (size_t i = 0; fits && !a.IsUnknownDimNum() && !out.IsUnknownDimNum() && i < a.GetDimNum();
         ++i) {
      fits = DimsCompatible(a.GetDim(i), out.GetDim(i));
    }
    if (!fits) {
      return ctx.Error(ctx.DescribeInput(addend_index) + " must have the output's shape " +
                       out.ToString());
    }
  }
  return ctx.SetOutputShape(0, out);
}

Status InferBroadcast(InferContext& ctx) {
  GeShape shape;
  bool have = false;
  size_t first = 0;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) {
    if (!ctx.HasInput(i)) continue;
    if (!have) {
      shape = ctx.InputShape(i);
      first = i;
      have = true;
      continue;
    }
    GE_RETURN_IF_ERROR(BroadcastWithInput(ctx, first, i, shape));
  }
  return ctx.SetOutputShape(0, shape);
}

Result<int64_t> NormalizeAxisFor(const InferContext& ctx, int64_t axis, int64_t rank,
                                 const std::string& what) {
  auto r = infer::NormalizeAxis(axis, rank);
  if (!r.ok()) return ctx.Error(what + ": " + r.status().message());
  return r;
}

std::vector<int64_t> AxesFromInputOrAttr(const InferContext& ctx, size_t input,
                                         const std::string& attr, bool* known) {
  *known = true;
  if (ctx.HasInput(input)) {
    auto v = ctx.GetConstInts(input);
    if (!v) {
      *known = false;
      return {};
    }
    return *v;
  }
  return ctx.AttrInts(attr);
}

Result<std::vector<int64_t>> AttrAxesInOrder(const InferContext& ctx, const std::string& attr,
                                             int64_t rank) {
  std::vector<int64_t> axes = ctx.AttrInts(attr);
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  auto checked = infer::NormalizeAxes(axes, rank);
  if (!checked.ok()) return ctx.Error("attribute '" + attr + "': " + checked.status().message());
  for (int64_t& a : axes) a = a < 0 ? a + rank : a;
  return axes;
}

Status RequireRank(const InferContext& ctx, size_t i, int64_t rank) {
  const int64_t r = infer::RankOf(ctx.InputShape(i));
  if (r >= 0 && r != rank) {
    return ctx.Error(ctx.DescribeInput(i) + " must have rank " + std::to_string(rank));
  }
  return Status::Ok();
}

Status RequireMinRank(const InferContext& ctx, size_t i, int64_t rank) {
  const int64_t r = infer::RankOf(ctx.InputShape(i));
  if (r >= 0 && r < rank) {
    return ctx.Error(ctx.DescribeInput(i) + " must have rank >= " + std::to_string(rank));
  }
  return Status::Ok();
}

}  // namespace ge::builtin

OPENGE_OP_PROTO_ENTRY int OpenGeRegisterOpProtos(ge::OpProtoRegistrar* registrar) {
  if (registrar == nullptr || registrar->AbiVersion() != ge::kOpProtoAbiVersion) return 1;
  using namespace ge::builtin;  // NOLINT(google-build-using-namespace)
  RegisterSkeletonOps(*registrar);
  RegisterControlFlowOps(*registrar);
  RegisterElementwiseOps(*registrar);
  RegisterActivationOps(*registrar);
  RegisterMatrixOps(*registrar);
  RegisterNnOps(*registrar);
  RegisterNormOps(*registrar);
  RegisterReduceOps(*registrar);
  RegisterShapeOps(*registrar);
  RegisterDataMovementOps(*registrar);
  RegisterIndexOps(*registrar);
  RegisterQuantOps(*registrar);
  RegisterRnnOps(*registrar);
  RegisterLossOps(*registrar);
  RegisterVisionOps(*registrar);
  RegisterMlOps(*registrar);
  RegisterReorderOps(*registrar);
  RegisterSignalOps(*registrar);
  RegisterLinalgOps(*registrar);
  RegisterTextOps(*registrar);
  RegisterCompositeOps(*registrar);
  RegisterFusedElementwiseOps(*registrar);
  RegisterFusedTransformerOps(*registrar);
  RegisterTransformerOps(*registrar);
  RegisterLayoutOps(*registrar);
  RegisterStateOps(*registrar);
  RegisterFrameworkOps(*registrar);
  return registrar->ok() ? 0 : 1;
}

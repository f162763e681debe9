// Linear algebra beyond matmul (ONNX names): Det, the determinant of each square matrix of a
// batch.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

// x [..., M, M] → y [...].
Status InferDet(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, infer::UnknownRankShape());
  std::vector<int64_t> dims = x.GetDims();
  const int64_t m = dims[dims.size() - 2];
  const int64_t n = dims.back();
  if (!DimsCompatible(m, n)) {
    return ctx.Error(ctx.DescribeInput(0) + " must end in a square matrix [M, M]");
  }
  dims.resize(dims.size() - 2);
  return ctx.SetOutputShape(0, GeShape(dims));
}

}  // namespace

void RegisterLinalgOps(OpProtoRegistrar& r) {
  r.Register(OpProtoBuilder("Det")  // ONNX name
                 .TypeConstraint("T", TensorType::FloatingDataType())
                 .Input("x", "T")
                 .Output("y", "T")
                 .InferShape(InferDet)
                 .Build());
}

}  // namespace ge::builtin

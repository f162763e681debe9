// The built-in prototype library: one Register function per operator family, and the inference
// helpers the families share.
//
// Conventions of the built-in vocabulary:
// - Op types are GE's names where GE has the operator, else ONNX's. Inputs, attributes and their
//   semantics follow the latest ONNX opset of the op (attribute names too, and ONNX's int-valued
//   flags such as keepdims), so the ONNX frontend maps names, not semantics. Where GE's operator of
//   the same name differs (an attribute that GE takes as an input or the reverse), the family file
//   says so next to the prototype.
// - Convolution and pooling: NCHW (data_format "NCHW", ND layouts in general: N, C, spatial...);
//   kernel_shape, strides, dilations over spatial dims only; pads ONNX-style [b1, b2, ..., e1,
//   e2, ...]; auto_pad NOTSET / SAME_UPPER / SAME_LOWER / VALID; group.
// - Where a value input (shape, axes, k, ...) is not a compile-time constant, the outputs get
//   unknown dims (or unknown rank) instead of an error.
#pragma once

#include <string>
#include <vector>

#include "ge/ops/infer_context.h"
#include "ge/ops/infer_utils.h"
#include "ge/ops/op_proto.h"
#include "ge/ops/op_registry.h"

namespace ge::builtin {

void RegisterSkeletonOps(OpProtoRegistrar& r);
void RegisterControlFlowOps(OpProtoRegistrar& r);
void RegisterElementwiseOps(OpProtoRegistrar& r);
void RegisterActivationOps(OpProtoRegistrar& r);
void RegisterMatrixOps(OpProtoRegistrar& r);
void RegisterNnOps(OpProtoRegistrar& r);
void RegisterNormOps(OpProtoRegistrar& r);
void RegisterReduceOps(OpProtoRegistrar& r);
void RegisterShapeOps(OpProtoRegistrar& r);
void RegisterDataMovementOps(OpProtoRegistrar& r);
void RegisterIndexOps(OpProtoRegistrar& r);
void RegisterQuantOps(OpProtoRegistrar& r);
void RegisterRnnOps(OpProtoRegistrar& r);
void RegisterLossOps(OpProtoRegistrar& r);
void RegisterVisionOps(OpProtoRegistrar& r);
void RegisterMlOps(OpProtoRegistrar& r);
void RegisterReorderOps(OpProtoRegistrar& r);
void RegisterSignalOps(OpProtoRegistrar& r);
void RegisterLinalgOps(OpProtoRegistrar& r);
void RegisterTextOps(OpProtoRegistrar& r);
void RegisterCompositeOps(OpProtoRegistrar& r);
void RegisterFusedElementwiseOps(OpProtoRegistrar& r);
void RegisterFusedTransformerOps(OpProtoRegistrar& r);
void RegisterTransformerOps(OpProtoRegistrar& r);
void RegisterLayoutOps(OpProtoRegistrar& r);
void RegisterStateOps(OpProtoRegistrar& r);
void RegisterFrameworkOps(OpProtoRegistrar& r);

// ---- shared infer functions ----
/// Every output gets input 0's shape (dtypes from the type rules).
Status InferSameShape(InferContext& ctx);
/// Output 0 is the numpy broadcast of every present input.
Status InferBroadcast(InferContext& ctx);

// ---- helpers ----
/// Broadcasts `shape` with input `i`, naming both inputs and shapes in the error.
Status BroadcastWithInput(InferContext& ctx, size_t first, size_t i, GeShape& shape);
/// Normalizes `axis` against `rank`, with the node and attribute named in the error.
Result<int64_t> NormalizeAxisFor(const InferContext& ctx, int64_t axis, int64_t rank,
                                 const std::string& what);
/// Axes from the const input `input` when present and known, else from attribute `attr`.
/// `known` is false when the input is present but its value unknown.
std::vector<int64_t> AxesFromInputOrAttr(const InferContext& ctx, size_t input,
                                         const std::string& attr, bool* known);
/// The attribute `attr`'s axes (every dim when it is empty), checked against `rank` and made
/// non-negative, in the attribute's order: the order other inputs list their values in (Resize's
/// scales, CenterCropPad's shape).
Result<std::vector<int64_t>> AttrAxesInOrder(const InferContext& ctx, const std::string& attr,
                                             int64_t rank);
/// Requires input `i` to have rank `rank` (when its rank is known).
Status RequireRank(const InferContext& ctx, size_t i, int64_t rank);
/// Requires input `i` to have rank at least `rank` (when its rank is known).
Status RequireMinRank(const InferContext& ctx, size_t i, int64_t rank);
/// Whether two dims can be equal (unknown matches anything).
inline bool DimsCompatible(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }
/// Two shapes that may be the same: either of unknown rank, or of one rank with every pair of
/// dims compatible.
inline bool ShapesCompatible(const GeShape& a, const GeShape& b) {
  if (a.IsUnknownDimNum() || b.IsUnknownDimNum()) return true;
  if (a.GetDimNum() != b.GetDimNum()) return false;
  for (size_t i = 0; i < a.GetDimNum(); ++i) {
    if (!DimsCompatible(a.GetDim(i), b.GetDim(i))) return false;
  }
  return true;
}
/// The optional input "addend" that the fusion pass gives a convolution or matrix product whose
/// result it adds a residual to (post-op "Sum", ge/ops/fused_ops.h): when present it must
/// have the output's shape. Sets output 0 to `out` either way.
Status SetOutputWithAddend(InferContext& ctx, size_t addend_index, const GeShape& out);

}  // namespace ge::builtin

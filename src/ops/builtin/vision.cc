// Vision operators (ONNX names and semantics, GE has none of these): GridSample, AffineGrid,
// Col2Im, CenterCropPad, RoiAlign, NonMaxSuppression and MaxUnpool.
//
// NonMaxSuppression's selected count depends on the data: its output is [-1, 3].
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownDimsShape;
using infer::UnknownRankShape;

Status RequireOneOf(const InferContext& ctx, const std::string& attr, const std::string& def,
                    std::initializer_list<const char*> allowed) {
  const std::string v = ctx.AttrStr(attr, def);
  std::string list;
  for (const char* a : allowed) {
    if (v == a) return Status::Ok();
    list += list.empty() ? a : std::string(", ") + a;
  }
  return ctx.Error("attribute '" + attr + "' must be one of " + list + ", not '" + v + "'");
}

// X [N, C, D1..Dr], grid [N, D1_out..Dr_out, r] → Y [N, C, D1_out..Dr_out]. Opset 16 names the
// modes bilinear / bicubic, opset 20 linear / cubic; both are accepted.
Status InferGridSample(InferContext& ctx) {
  GE_RETURN_IF_ERROR(
      RequireOneOf(ctx, "mode", "bilinear", {"bilinear", "nearest", "bicubic", "linear", "cubic"}));
  GE_RETURN_IF_ERROR(RequireOneOf(ctx, "padding_mode", "zeros", {"zeros", "border", "reflection"}));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 3));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 1, 3));
  const GeShape& x = ctx.InputShape(0);
  const GeShape& grid = ctx.InputShape(1);
  if (grid.IsUnknownDimNum()) {
    return ctx.SetOutputShape(
        0, x.IsUnknownDimNum() ? UnknownRankShape() : UnknownDimsShape(x.GetDimNum()));
  }
  const int64_t r = RankOf(grid) - 2;
  if (!x.IsUnknownDimNum()) {
    const int64_t last = grid.GetDim(static_cast<size_t>(r + 1));
    if (RankOf(x) != r + 2 || !DimsCompatible(last, r) ||
        !DimsCompatible(x.GetDim(0), grid.GetDim(0))) {
      return ctx.Error(ctx.DescribeInput(1) + " must be [N, D1_out..Dr_out, r] for " +
                       ctx.DescribeInput(0) + " [N, C, D1..Dr]");
    }
  }
  std::vector<int64_t> out = {grid.GetDim(0), x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(1)};
  for (int64_t i = 1; i <= r; ++i) out.push_back(grid.GetDim(static_cast<size_t>(i)));
  return ctx.SetOutputShape(0, GeShape(out));
}

// X [N, C, H, W], rois [R, 4], batch_indices [R] → Y [R, C, output_height, output_width].
Status InferRoiAlign(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireOneOf(ctx, "mode", "avg", {"avg", "max"}));
  GE_RETURN_IF_ERROR(RequireOneOf(ctx, "coordinate_transformation_mode", "half_pixel",
                                  {"half_pixel", "output_half_pixel"}));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 4));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 2));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 2, 1));
  const int64_t oh = ctx.AttrInt("output_height", 1);
  const int64_t ow = ctx.AttrInt("output_width", 1);
  if (oh <= 0 || ow <= 0) {
    return ctx.Error("output_height and output_width must be positive, got " + std::to_string(oh) +
                     " and " + std::to_string(ow));
  }
  const GeShape& x = ctx.InputShape(0);
  const GeShape& rois = ctx.InputShape(1);
  const GeShape& idx = ctx.InputShape(2);
  const int64_t r_rois = rois.IsUnknownDimNum() ? UNKNOWN_DIM : rois.GetDim(0);
  const int64_t r_idx = idx.IsUnknownDimNum() ? UNKNOWN_DIM : idx.GetDim(0);
  if (!rois.IsUnknownDimNum() && !DimsCompatible(rois.GetDim(1), 4)) {
    return ctx.Error(ctx.DescribeInput(1) + " must be [num_rois, 4]");
  }
  if (!DimsCompatible(r_rois, r_idx)) {
    return ctx.Error(ctx.DescribeInput(2) + " must have one index per roi of " +
                     ctx.DescribeInput(1));
  }
  const int64_t c = x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(1);
  return ctx.SetOutputShape(0, GeShape({r_rois >= 0 ? r_rois : r_idx, c, oh, ow}));
}

// boxes [B, S, 4], scores [B, C, S] → selected_indices [-1, 3] (batch, class, box).
Status InferNonMaxSuppression(InferContext& ctx) {
  const int64_t center = ctx.AttrInt("center_point_box", 0);
  if (center != 0 && center != 1) {
    return ctx.Error("attribute 'center_point_box' must be 0 or 1, got " + std::to_string(center));
  }
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 3));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 3));
  const GeShape& boxes = ctx.InputShape(0);
  const GeShape& scores = ctx.InputShape(1);
  if (!boxes.IsUnknownDimNum() && !scores.IsUnknownDimNum() &&
      (!DimsCompatible(boxes.GetDim(2), 4) || !DimsCompatible(boxes.GetDim(0), scores.GetDim(0)) ||
       !DimsCompatible(boxes.GetDim(1), scores.GetDim(2)))) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [B, S, 4] and " + ctx.DescribeInput(1) +
                     " [B, C, S]");
  }
  return ctx.SetOutputShape(0, GeShape({UNKNOWN_DIM, 3}));
}

// X [N, C, D1..Dr] and the indices I (X's shape) → [N, C, (Di - 1) * stride + kernel - pads], or
// the shape in the const output_shape input.
Status InferMaxUnpool(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const std::vector<int64_t> kernel = ctx.AttrInts("kernel_shape");
  if (kernel.empty()) return ctx.Error("attribute 'kernel_shape' is required");
  const size_t r = kernel.size();
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, static_cast<int64_t>(r + 2)));
  const GeShape& ind = ctx.InputShape(1);
  if (!x.IsUnknownDimNum() && !ind.IsUnknownDimNum() && x.GetDims() != ind.GetDims() &&
      RankOf(ind) == RankOf(x)) {
    bool ok = true;
    for (size_t i = 0; i < x.GetDimNum(); ++i)
      ok = ok && DimsCompatible(x.GetDim(i), ind.GetDim(i));
    if (!ok)
      return ctx.Error(ctx.DescribeInput(1) + " must have the shape of " + ctx.DescribeInput(0));
  }
  std::vector<int64_t> strides = ctx.AttrInts("strides");
  std::vector<int64_t> pads = ctx.AttrInts("pads");
  if (strides.empty()) strides.assign(r, 1);
  if (pads.empty()) pads.assign(2 * r, 0);
  if (strides.size() != r || pads.size() != 2 * r) {
    return ctx.Error("attributes 'strides' and 'pads' must have " + std::to_string(r) + " and " +
                     std::to_string(2 * r) + " values for kernel_shape of " + std::to_string(r));
  }
  if (ctx.NumInputs() > 2 && ctx.HasInput(2)) {
    if (auto shape = ctx.GetConstInts(2)) {
      if (shape->size() != r + 2) {
        return ctx.Error(ctx.DescribeInput(2) + " must hold " + std::to_string(r + 2) + " dims");
      }
      return ctx.SetOutputShape(0, GeShape(*shape));
    }
    return ctx.SetOutputShape(0, UnknownDimsShape(r + 2));
  }
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownDimsShape(r + 2));
  std::vector<int64_t> out = {x.GetDim(0), x.GetDim(1)};
  for (size_t i = 0; i < r; ++i) {
    const int64_t d = x.GetDim(i + 2);
    int64_t dim = UNKNOWN_DIM;  // (d - 1) * strides + kernel - pads, every step checked
    if (d >= 0 &&
        (!checked::Mul(d - 1, strides[i], &dim) || !checked::Add(dim, kernel[i], &dim) ||
         !checked::Sub(dim, pads[i], &dim) || !checked::Sub(dim, pads[i + r], &dim) || dim < 0)) {
      return ctx.Error("output dim " + std::to_string(i + 2) +
                       " (strides, kernel_shape and pads) is negative or overflows int64");
    }
    out.push_back(dim);
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

// theta [N, 2, 3] (or [N, 3, 4]), size [N, C, H, W] (or [N, C, D, H, W]) → grid [N, H, W, 2]
// (or [N, D, H, W, 3]); the dims come from size's values.
Status InferAffineGrid(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 3));
  const auto size = ctx.GetConstInts(1);
  const GeShape& theta = ctx.InputShape(0);
  if (!size) {
    const GeShape& s = ctx.InputShape(1);
    if (s.IsUnknownDimNum() || s.GetDimNum() != 1 || s.GetDim(0) < 0) {
      return ctx.SetOutputShape(0, UnknownRankShape());
    }
    return ctx.SetOutputShape(0, UnknownDimsShape(static_cast<size_t>(s.GetDim(0)) - 1));
  }
  if (size->size() != 4 && size->size() != 5) {
    return ctx.Error("size must have 4 (2-D) or 5 (3-D) values, not " +
                     std::to_string(size->size()));
  }
  const int64_t spatial = static_cast<int64_t>(size->size()) - 2;
  if (!theta.IsUnknownDimNum() &&
      (theta.GetDimNum() != 3 || (theta.GetDim(1) >= 0 && theta.GetDim(1) != spatial) ||
       (theta.GetDim(2) >= 0 && theta.GetDim(2) != spatial + 1))) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [N, " + std::to_string(spatial) + ", " +
                     std::to_string(spatial + 1) + "] for a " + std::to_string(spatial) +
                     "-D size");
  }
  std::vector<int64_t> dims = {(*size)[0]};
  dims.insert(dims.end(), size->begin() + 2, size->end());
  dims.push_back(spatial);
  return ctx.SetOutputShape(0, GeShape(dims));
}

// input [N, C * prod(block_shape), L], image_shape, block_shape → [N, C, image_shape...].
Status InferCol2Im(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (!x.IsUnknownDimNum() && x.GetDimNum() != 3) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [N, C * prod(block_shape), L]");
  }
  const auto image = ctx.GetConstInts(1);
  const auto block = ctx.GetConstInts(2);
  if (!image || !block || x.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  if (image->size() != block->size() || image->empty()) {
    return ctx.Error("image_shape and block_shape must have the same, non-zero length");
  }
  int64_t block_size = 1;
  for (int64_t b : *block) {
    if (b <= 0) return ctx.Error("block_shape values must be positive");
    block_size *= b;
  }
  const int64_t cols = x.GetDim(1);
  if (cols >= 0 && cols % block_size != 0) {
    return ctx.Error(ctx.DescribeInput(0) + ": dim 1 is not a multiple of the block size " +
                     std::to_string(block_size));
  }
  std::vector<int64_t> dims = {x.GetDim(0), cols < 0 ? UNKNOWN_DIM : cols / block_size};
  dims.insert(dims.end(), image->begin(), image->end());
  return ctx.SetOutputShape(0, GeShape(dims));
}

// input, shape (the target dims of `axes`, default every dim) → the input cropped or zero-padded
// around its center to those dims.
Status InferCenterCropPad(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  GE_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, AttrAxesInOrder(ctx, "axes", RankOf(x)));
  std::vector<int64_t> dims = x.GetDims();
  const auto shape = ctx.GetConstInts(1);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i];
    if (!shape) {
      dims[static_cast<size_t>(a)] = UNKNOWN_DIM;
      continue;
    }
    if (shape->size() != axes.size()) return ctx.Error("shape must have one value per axis");
    if ((*shape)[i] < 0) return ctx.Error("shape values must not be negative");
    dims[static_cast<size_t>(a)] = (*shape)[i];
  }
  return ctx.SetOutputShape(0, GeShape(dims));
}

}  // namespace

void RegisterVisionOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  r.Register(OpProtoBuilder("AffineGrid")
                 .TypeConstraint("T", floats)
                 .Input("theta", "T")
                 .Input("size", {DT_INT64})
                 .Output("grid", "T")
                 .Attr("align_corners", 0)
                 .InferShape(InferAffineGrid)
                 .Build());
  r.Register(OpProtoBuilder("Col2Im")
                 .TypeConstraint("T", TensorType::BasicType())
                 .Input("input", "T")
                 .Input("image_shape", {DT_INT64})
                 .Input("block_shape", {DT_INT64})
                 .Output("output", "T")
                 .Attr("dilations", std::vector<int64_t>{})
                 .Attr("pads", std::vector<int64_t>{})
                 .Attr("strides", std::vector<int64_t>{})
                 .InferShape(InferCol2Im)
                 .Build());
  r.Register(OpProtoBuilder("CenterCropPad")
                 .TypeConstraint("T", TensorType::BasicType())
                 .Input("input_data", "T")
                 .Input("shape", TensorType::IndexNumberType())
                 .Output("output_data", "T")
                 .Attr("axes", std::vector<int64_t>{})
                 .InferShape(InferCenterCropPad)
                 .Build());
  r.Register(OpProtoBuilder("GridSample")
                 .TypeConstraint("T1", TensorType::ALL())
                 .TypeConstraint("T2", floats)
                 .Input("X", "T1")
                 .Input("grid", "T2")
                 .Output("Y", "T1")
                 .Attr("align_corners", 0)
                 .Attr("mode", "bilinear")
                 .Attr("padding_mode", "zeros")
                 .InferShape(InferGridSample)
                 .Build());
  r.Register(OpProtoBuilder("RoiAlign")
                 .TypeConstraint("T1", floats)
                 .Input("X", "T1")
                 .Input("rois", "T1")
                 .Input("batch_indices", {DT_INT64})
                 .Output("Y", "T1")
                 .Attr("coordinate_transformation_mode", "half_pixel")
                 .Attr("mode", "avg")
                 .Attr("output_height", 1)
                 .Attr("output_width", 1)
                 .Attr("sampling_ratio", 0)
                 .Attr("spatial_scale", 1.0F)
                 .InferShape(InferRoiAlign)
                 .Build());
  r.Register(OpProtoBuilder("NonMaxSuppression")
                 .Input("boxes", {DT_FLOAT})
                 .Input("scores", {DT_FLOAT})
                 .OptionalInput("max_output_boxes_per_class", {DT_INT64})
                 .OptionalInput("iou_threshold", {DT_FLOAT})
                 .OptionalInput("score_threshold", {DT_FLOAT})
                 .Output("selected_indices", {DT_INT64})
                 .Attr("center_point_box", 0)
                 .InferShape(InferNonMaxSuppression)
                 .Build());
  r.Register(OpProtoBuilder("MaxUnpool")
                 .TypeConstraint("T1", floats)
                 .Input("X", "T1")
                 .Input("I", {DT_INT64})
                 .OptionalInput("output_shape", {DT_INT64})
                 .Output("output", "T1")
                 .RequiredAttr("kernel_shape", AttrValue::Type::kListInt)
                 .Attr("pads", std::vector<int64_t>{})
                 .Attr("strides", std::vector<int64_t>{})
                 .InferShape(InferMaxUnpool)
                 .Build());
}

}  // namespace ge::builtin

// Convolution (Conv2D, Conv3D, DepthwiseConv2D, Conv, transposed convolutions, and ONNX's integer
// forms ConvInteger and QLinearConv), pooling (MaxPool, AvgPool, LpPool, global pools) and Dropout.
//
// Attribute convention (ONNX): kernel_shape, strides, dilations over the spatial dims; pads
// [b1, b2, ..., e1, e2, ...]; auto_pad NOTSET / SAME_UPPER / SAME_LOWER / VALID; group. Weights
// are [M, C/group, k...] (OIHW; ConvTranspose: [C, M/group, k...]). data_format "NCHW" (channel
// first, also for 3-D and 1-D) or "NHWC"/"NDHWC" (channel last) for the activations.
#include <optional>

#include "builtin_ops.h"
#include "ge/graph/checked_math.h"

namespace ge::builtin {
namespace {

struct Layout {
  size_t channel;               // index of C in x
  std::vector<size_t> spatial;  // indices of the spatial dims in x
};

Result<Layout> LayoutOf(const InferContext& ctx, size_t rank) {
  const std::string fmt = ctx.AttrStr("data_format", "NCHW");
  Layout l;
  const bool last = fmt == "NHWC" || fmt == "NDHWC" || fmt == "NWC";
  if (!last && fmt != "NCHW" && fmt != "NCDHW" && fmt != "NCW" && fmt != "ND") {
    return ctx.Error("attribute 'data_format' '" + fmt + "' is not supported");
  }
  l.channel = last ? rank - 1 : 1;
  for (size_t i = last ? 1 : 2; i < (last ? rank - 1 : rank); ++i) l.spatial.push_back(i);
  return l;
}

GeShape Assemble(size_t rank, const Layout& l, int64_t n, int64_t c,
                 const std::vector<int64_t>& spatial) {
  std::vector<int64_t> out(rank, UNKNOWN_DIM);
  out[0] = n;
  out[l.channel] = c;
  for (size_t i = 0; i < l.spatial.size(); ++i) out[l.spatial[i]] = spatial[i];
  return GeShape(out);
}

Status CheckInputRank(const InferContext& ctx, int64_t rank, int64_t expected) {
  if (expected > 0 && rank != expected) {
    return ctx.Error(ctx.DescribeInput(0) + " must have rank " + std::to_string(expected));
  }
  if (rank < 3) return ctx.Error(ctx.DescribeInput(0) + " must have rank >= 3 (N, C, spatial...)");
  return Status::Ok();
}

infer::WindowParams WindowFrom(const InferContext& ctx, std::vector<int64_t> kernel) {
  infer::WindowParams p;
  p.kernel = std::move(kernel);
  p.strides = ctx.AttrInts("strides");
  p.dilations = ctx.AttrInts("dilations");
  p.pads = ctx.AttrInts("pads");
  p.auto_pad = ctx.AttrStr("auto_pad", "NOTSET");
  p.ceil_mode = ctx.AttrInt("ceil_mode", 0) != 0;
  return p;
}

Status Complete(const InferContext& ctx, size_t spatial, infer::WindowParams& p) {
  Status s = infer::CompleteWindowParams(spatial, p);
  return s.ok() ? s : ctx.Error(s.message());
}

// Where a convolution's filter and bias are, and the dtype of its output: Conv's (the filter at
// 1, the bias at 2, the addend at 3 and the dtype of the generic rules), or the integer forms'.
struct ConvPorts {
  size_t filter = 1;
  std::optional<size_t> bias = 2;
  DataType out = DT_UNDEFINED;  // DT_UNDEFINED: the generic rules' dtype, with the addend at 3
};

// Conv2D / Conv3D / Conv / DepthwiseConv2D (and ConvInteger, QLinearConv through `ports`).
// `expected_rank` 0 accepts any rank >= 3.
Status InferConv(InferContext& ctx, int64_t expected_rank, bool depthwise,
                 const ConvPorts& ports = {}) {
  const size_t filter = ports.filter;
  const GeShape& x = ctx.InputShape(0);
  const GeShape& w = ctx.InputShape(filter);
  if (x.IsUnknownDimNum()) {
    return ctx.SetOutputShape(
        0, expected_rank > 0 ? infer::UnknownDimsShape(expected_rank) : infer::UnknownRankShape());
  }
  const int64_t rank = infer::RankOf(x);
  GE_RETURN_IF_ERROR(CheckInputRank(ctx, rank, expected_rank));
  GE_ASSIGN_OR_RETURN(Layout l, LayoutOf(ctx, static_cast<size_t>(rank)));
  const size_t sp = l.spatial.size();
  if (!w.IsUnknownDimNum() && w.GetDimNum() != sp + 2) {
    return ctx.Error(ctx.DescribeInput(filter) + " must have rank " + std::to_string(sp + 2) +
                     " to match " + ctx.DescribeInput(0));
  }
  const bool w_known = !w.IsUnknownDimNum();
  const int64_t c = x.GetDim(l.channel);
  const int64_t m = w_known ? w.GetDim(0) : UNKNOWN_DIM;
  const int64_t group = depthwise ? c : ctx.AttrInt("group", 1);
  if (!depthwise && group <= 0) return ctx.Error("attribute 'group' must be positive");
  if (w_known && group > 0) {
    const int64_t wc = w.GetDim(1);
    if (c >= 0 && wc >= 0 && c != wc * group) {
      return ctx.Error(ctx.DescribeInput(0) + " has " + std::to_string(c) + " channels but " +
                       ctx.DescribeInput(filter) + " expects " + std::to_string(wc) + " x group " +
                       std::to_string(group));
    }
    if (m >= 0 && m % group != 0) {
      return ctx.Error(ctx.DescribeInput(filter) + " output channels are not divisible by group " +
                       std::to_string(group));
    }
  }
  std::vector<int64_t> kernel = ctx.AttrInts("kernel_shape");
  if (kernel.empty()) {
    kernel.assign(sp, UNKNOWN_DIM);
    if (w_known) {
      for (size_t i = 0; i < sp; ++i) kernel[i] = w.GetDim(i + 2);
    }
  }
  infer::WindowParams p = WindowFrom(ctx, kernel);
  GE_RETURN_IF_ERROR(Complete(ctx, sp, p));
  std::vector<int64_t> in_spatial;
  for (size_t i : l.spatial) in_spatial.push_back(x.GetDim(i));
  if (ports.bias && ctx.HasInput(*ports.bias)) {
    const GeShape& b = ctx.InputShape(*ports.bias);
    if (!b.IsUnknownDimNum() && (b.GetDimNum() != 1 || !DimsCompatible(b.GetDim(0), m))) {
      return ctx.Error(ctx.DescribeInput(*ports.bias) + " must be [" + std::to_string(m) + "]");
    }
  }
  auto out_spatial = infer::WindowOutputDims(in_spatial, p);
  if (!out_spatial.ok()) return ctx.Error(out_spatial.status().message());
  const GeShape out = Assemble(static_cast<size_t>(rank), l, x.GetDim(0), m, *out_spatial);
  if (ports.out != DT_UNDEFINED) return ctx.SetOutput(0, out, ports.out);
  return SetOutputWithAddend(ctx, 3, out);
}

// ConvInteger: Conv's shape, int32; x's zero point is one value, w's one or one per output channel.
Status InferConvInteger(InferContext& ctx) {
  for (size_t i : {2U, 3U}) {
    if (!ctx.HasInput(i) || ctx.InputShape(i).IsUnknownShape()) continue;
    const int64_t n = ctx.InputShape(i).GetElementCount();
    const GeShape& w = ctx.InputShape(1);
    const bool per_channel = i == 3 && !w.IsUnknownDimNum() && w.GetDimNum() > 0 &&
                             ctx.InputShape(i).GetDimNum() == 1 && n == w.GetDim(0);
    if (n != 1 && !per_channel) {
      return ctx.Error(ctx.DescribeInput(i) + " must be one value" +
                       (i == 3 ? std::string(" or one per output channel") : std::string()));
    }
  }
  return InferConv(ctx, 0, false, {.filter = 1, .bias = std::nullopt, .out = DT_INT32});
}

// QLinearConv: Conv's shape from x and w (input 3), B (input 8) as Conv's bias, y_zero_point's
// dtype; the scales and zero points per tensor, w's also per output channel.
Status InferQLinearConv(InferContext& ctx) {
  const GeShape& w = ctx.InputShape(3);
  const int64_t m = w.IsUnknownDimNum() || w.GetDimNum() == 0 ? UNKNOWN_DIM : w.GetDim(0);
  for (size_t i : {1U, 2U, 4U, 5U, 6U, 7U}) {
    if (!ctx.HasInput(i) || ctx.InputShape(i).IsUnknownShape()) continue;
    const int64_t n = ctx.InputShape(i).GetElementCount();
    const bool per_channel =
        (i == 4 || i == 5) && ctx.InputShape(i).GetDimNum() == 1 && (m < 0 || n == m);
    if (n != 1 && !per_channel) {
      return ctx.Error(
          ctx.DescribeInput(i) + " must be one value" +
          (i == 4 || i == 5 ? std::string(" or one per output channel") : std::string()));
    }
  }
  return InferConv(ctx, 0, false, {.filter = 3, .bias = 8, .out = ctx.InputDataType(7)});
}

Status InferConvTranspose(InferContext& ctx, int64_t expected_rank) {
  const GeShape& x = ctx.InputShape(0);
  const GeShape& w = ctx.InputShape(1);
  if (x.IsUnknownDimNum()) {
    return ctx.SetOutputShape(
        0, expected_rank > 0 ? infer::UnknownDimsShape(expected_rank) : infer::UnknownRankShape());
  }
  const int64_t rank = infer::RankOf(x);
  GE_RETURN_IF_ERROR(CheckInputRank(ctx, rank, expected_rank));
  GE_ASSIGN_OR_RETURN(Layout l, LayoutOf(ctx, static_cast<size_t>(rank)));
  const size_t sp = l.spatial.size();
  const bool w_known = !w.IsUnknownDimNum();
  if (w_known && w.GetDimNum() != sp + 2) {
    return ctx.Error(ctx.DescribeInput(1) + " must have rank " + std::to_string(sp + 2));
  }
  const int64_t group = ctx.AttrInt("group", 1);
  if (group <= 0) return ctx.Error("attribute 'group' must be positive");
  const int64_t c = x.GetDim(l.channel);
  if (w_known && !DimsCompatible(c, w.GetDim(0))) {
    return ctx.Error(ctx.DescribeInput(0) + " has " + std::to_string(c) + " channels but " +
                     ctx.DescribeInput(1) + " expects " + std::to_string(w.GetDim(0)));
  }
  const int64_t m = w_known ? infer::MulDim(w.GetDim(1), group) : UNKNOWN_DIM;
  std::vector<int64_t> kernel = ctx.AttrInts("kernel_shape");
  if (kernel.empty()) {
    kernel.assign(sp, UNKNOWN_DIM);
    if (w_known) {
      for (size_t i = 0; i < sp; ++i) kernel[i] = w.GetDim(i + 2);
    }
  }
  infer::WindowParams p = WindowFrom(ctx, kernel);
  GE_RETURN_IF_ERROR(Complete(ctx, sp, p));
  std::vector<int64_t> out_pad = ctx.AttrInts("output_padding");
  if (out_pad.empty()) out_pad.assign(sp, 0);
  if (out_pad.size() != sp) return ctx.Error("attribute 'output_padding' has the wrong length");
  std::vector<int64_t> spatial(sp, UNKNOWN_DIM);
  const std::vector<int64_t> output_shape = ctx.AttrInts("output_shape");
  if (!output_shape.empty()) {
    if (output_shape.size() < sp) return ctx.Error("attribute 'output_shape' is too short");
    for (size_t i = 0; i < sp; ++i) spatial[i] = output_shape[output_shape.size() - sp + i];
  } else {
    for (size_t i = 0; i < sp; ++i) {
      const int64_t in = x.GetDim(l.spatial[i]);
      if (in < 0 || p.kernel[i] < 0) continue;
      if (p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER") {
        spatial[i] = in * p.strides[i];
        continue;
      }
      const bool valid = p.auto_pad == "VALID";
      // strides * (in - 1) + output_padding + extent - pads, every step checked: the attributes
      // come from the file.
      int64_t extent = 0;
      int64_t dim = 0;
      const int64_t pad_begin = valid ? 0 : p.pads[i];
      const int64_t pad_end = valid ? 0 : p.pads[i + sp];
      if (!checked::WindowExtent(p.kernel[i], p.dilations[i], &extent) ||
          !checked::Mul(p.strides[i], in - 1, &dim) || !checked::Add(dim, out_pad[i], &dim) ||
          !checked::Add(dim, extent, &dim) || !checked::Sub(dim, pad_begin, &dim) ||
          !checked::Sub(dim, pad_end, &dim) || dim < 0) {
        return ctx.Error("output spatial dim " + std::to_string(i) + " of input dim " +
                         std::to_string(in) +
                         " (strides, kernel_shape, dilations, pads and "
                         "output_padding) is negative or overflows int64");
      }
      spatial[i] = dim;
    }
  }
  return ctx.SetOutputShape(0, Assemble(static_cast<size_t>(rank), l, x.GetDim(0), m, spatial));
}

Status InferPool(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) {
    for (size_t i = 0; i < ctx.NumOutputs(); ++i) {
      GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, infer::UnknownRankShape()));
    }
    return Status::Ok();
  }
  const int64_t rank = infer::RankOf(x);
  GE_RETURN_IF_ERROR(CheckInputRank(ctx, rank, 0));
  GE_ASSIGN_OR_RETURN(Layout l, LayoutOf(ctx, static_cast<size_t>(rank)));
  infer::WindowParams p = WindowFrom(ctx, ctx.AttrInts("kernel_shape"));
  GE_RETURN_IF_ERROR(Complete(ctx, l.spatial.size(), p));
  std::vector<int64_t> in_spatial;
  for (size_t i : l.spatial) in_spatial.push_back(x.GetDim(i));
  auto out_spatial = infer::WindowOutputDims(in_spatial, p);
  if (!out_spatial.ok()) return ctx.Error(out_spatial.status().message());
  const GeShape out =
      Assemble(static_cast<size_t>(rank), l, x.GetDim(0), x.GetDim(l.channel), *out_spatial);
  for (size_t i = 0; i < ctx.NumOutputs(); ++i) GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, out));
  return Status::Ok();
}

Status InferGlobalPool(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  const int64_t rank = infer::RankOf(x);
  GE_RETURN_IF_ERROR(CheckInputRank(ctx, rank, 0));
  GE_ASSIGN_OR_RETURN(Layout l, LayoutOf(ctx, static_cast<size_t>(rank)));
  return ctx.SetOutputShape(0,
                            Assemble(static_cast<size_t>(rank), l, x.GetDim(0), x.GetDim(l.channel),
                                     std::vector<int64_t>(l.spatial.size(), 1)));
}

// The window attributes every convolution has (ONNX's forms), after its inputs and outputs.
OpProtoBuilder& ConvAttrs(OpProtoBuilder& b) {
  return b.Attr("strides", std::vector<int64_t>{})
      .Attr("pads", std::vector<int64_t>{})
      .Attr("dilations", std::vector<int64_t>{})
      .Attr("kernel_shape", std::vector<int64_t>{})
      .Attr("auto_pad", "NOTSET")
      .Attr("group", 1)
      .Attr("data_format", "NCHW");
}

OpProtoBuilder ConvProto(const char* type, bool transposed) {
  OpProtoBuilder b(type);
  b.TypeConstraint("T", TensorType::FloatingDataType() | TensorType{DT_INT8})
      .Input("x", "T")
      .Input("filter", "T")
      .OptionalInput("bias", TensorType::RealNumberType());
  // The residual a fusion adds to the result (post-op "Sum"); written only by the fusion pass.
  if (!transposed) b.OptionalInput("addend", "T");
  ConvAttrs(b.Output("y", "T"));
  if (transposed) {
    b.Attr("output_padding", std::vector<int64_t>{}).Attr("output_shape", std::vector<int64_t>{});
  }
  return b;
}

OpProtoBuilder PoolProto(const char* type, const TensorType& types) {
  OpProtoBuilder b(type);
  b.TypeConstraint("T", types)
      .Input("x", "T")
      .Output("y", "T")
      .RequiredAttr("kernel_shape", AttrValue::Type::kListInt)
      .Attr("strides", std::vector<int64_t>{})
      .Attr("pads", std::vector<int64_t>{})
      .Attr("auto_pad", "NOTSET")
      .Attr("ceil_mode", 0)
      .Attr("data_format", "NCHW")
      .InferShape(InferPool);
  return b;
}

}  // namespace

void RegisterNnOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  r.Register(ConvProto("Conv2D", false)
                 .InferShape([](InferContext& c) { return InferConv(c, 4, false); })
                 .Build());
  r.Register(ConvProto("Conv3D", false)
                 .InferShape([](InferContext& c) { return InferConv(c, 5, false); })
                 .Build());
  // ONNX Conv of any spatial rank (1-D convolutions have no GE type of their own here).
  r.Register(ConvProto("Conv", false)
                 .InferShape([](InferContext& c) { return InferConv(c, 0, false); })
                 .Build());
  // ONNX ConvInteger: int32 = conv(x - x_zero_point, w - w_zero_point), any spatial rank.
  r.Register(ConvAttrs(OpProtoBuilder("ConvInteger")
                           .TypeConstraint("T1", {DT_INT8, DT_UINT8})
                           .TypeConstraint("T2", {DT_INT8, DT_UINT8})
                           .Input("x", "T1")
                           .Input("filter", "T2")
                           .OptionalInput("x_zero_point", "T1")
                           .OptionalInput("w_zero_point", "T2")
                           .Output("y", {DT_INT32}))
                 .InferShape(InferConvInteger)
                 .Build());
  // ONNX DeformConv (opset 19): each tap samples x at its place moved by `offset`, times `mask`.
  r.Register(OpProtoBuilder("DeformConv")
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .Input("filter", "T")
                 .Input("offset", "T")
                 .OptionalInput("bias", "T")
                 .OptionalInput("mask", "T")
                 .Output("y", "T")
                 .Attr("strides", std::vector<int64_t>{})
                 .Attr("pads", std::vector<int64_t>{})
                 .Attr("dilations", std::vector<int64_t>{})
                 .Attr("kernel_shape", std::vector<int64_t>{})
                 .Attr("group", 1)
                 .Attr("offset_group", 1)
                 .Attr("data_format", "NCHW")
                 .InferShape([](InferContext& c) {
                   return InferConv(c, 4, false,
                                    {.filter = 1, .bias = 3, .out = c.InputDataType(0)});
                 })
                 .Build());
  // ONNX QLinearConv: y = quantize(conv(dequantize(x), dequantize(w)) + B * x_scale * w_scale).
  r.Register(ConvAttrs(OpProtoBuilder("QLinearConv")
                           .TypeConstraint("T1", {DT_INT8, DT_UINT8})
                           .TypeConstraint("T2", {DT_INT8, DT_UINT8})
                           .TypeConstraint("T3", {DT_INT8, DT_UINT8})
                           .Input("x", "T1")
                           .Input("x_scale", {DT_FLOAT})
                           .Input("x_zero_point", "T1")
                           .Input("filter", "T2")
                           .Input("w_scale", {DT_FLOAT})
                           .Input("w_zero_point", "T2")
                           .Input("y_scale", {DT_FLOAT})
                           .Input("y_zero_point", "T3")
                           .OptionalInput("bias", {DT_INT32})
                           .Output("y", "T3"))
                 .InferShape(InferQLinearConv)
                 .Build());
  // group = input channels; filter [C * multiplier, 1, kh, kw].
  r.Register(ConvProto("DepthwiseConv2D", false)
                 .InferShape([](InferContext& c) { return InferConv(c, 4, true); })
                 .Build());
  r.Register(ConvProto("Conv2DTranspose", true)
                 .InferShape([](InferContext& c) { return InferConvTranspose(c, 4); })
                 .Build());
  r.Register(ConvProto("Conv3DTranspose", true)
                 .InferShape([](InferContext& c) { return InferConvTranspose(c, 5); })
                 .Build());
  r.Register(ConvProto("ConvTranspose", true)  // ONNX name, any spatial rank
                 .InferShape([](InferContext& c) { return InferConvTranspose(c, 0); })
                 .Build());

  // ONNX MaxPool: output 1 (indices, int64) is optional in the model and always declared here.
  r.Register(PoolProto("MaxPool", floats | TensorType{DT_INT8, DT_UINT8})
                 .Output("indices", {DT_INT64})
                 .Attr("dilations", std::vector<int64_t>{})
                 .Attr("storage_order", 0)
                 .Build());
  r.Register(PoolProto("AvgPool", floats)
                 .Attr("count_include_pad", 0)
                 .Attr("dilations", std::vector<int64_t>{})
                 .Build());
  r.Register(PoolProto("LpPool", floats)  // ONNX name
                 .Attr("p", 2)
                 .Attr("dilations", std::vector<int64_t>{})
                 .Build());
  for (const char* t : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) {
    OpProtoBuilder b(t);
    b.TypeConstraint("T", floats)
        .Input("x", "T")
        .Output("y", "T")
        .Attr("data_format", "NCHW")
        .InferShape(InferGlobalPool);
    if (std::string(t) == "GlobalLpPool") b.Attr("p", 2);
    r.Register(b.Build());
  }
  // ONNX Dropout: identity at inference; mask is bool of the input's shape.
  r.Register(OpProtoBuilder("Dropout")
                 .TypeConstraint("T", floats)
                 .Input("x", "T")
                 .OptionalInput("ratio", floats)
                 .OptionalInput("training_mode", TensorType::BOOL())
                 .Output("y", "T")
                 .Output("mask", TensorType::BOOL())
                 .Attr("seed", 0)
                 .InferShape(InferSameShape)
                 .Impure()
                 .Build());
}

}  // namespace ge::builtin

// Signal processing (ONNX names, GE has none): the window generators HannWindow, HammingWindow
// and BlackmanWindow, MelWeightMatrix, DFT (opset 17: axis is an attribute) and STFT.
//
// Complex tensors are real ones with a trailing dim of 2 (real, imaginary); a real signal has a
// trailing dim of 1. Output extents that come from input values (a window's size, dft_length,
// frame_step) are known when those inputs are constant, and at run time, where the runtime
// infers again with every value visible; otherwise they are -1.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;

// The value of scalar input `i` when known; an error when it is known but not one element.
Status ScalarInput(const InferContext& ctx, size_t i, std::optional<int64_t>* value) {
  const GeShape& s = ctx.InputShape(i);
  if (!s.IsUnknownDimNum() && infer::DimProduct(s.GetDims()) > 1) {
    return ctx.Error(ctx.DescribeInput(i) + " must be a scalar");
  }
  value->reset();
  if (auto v = ctx.GetConstInts(i); v && v->size() == 1) *value = (*v)[0];
  return Status::Ok();
}

// The output dtype from attribute 'output_datatype' (an IR DataType; the frontend converts
// ONNX's TensorProto number).
Result<DataType> OutputDatatype(const InferContext& ctx) {
  const DataType dt = ctx.AttrDataType("output_datatype", DT_FLOAT);
  if (!TensorType::RealNumberType().Contains(dt)) {
    return ctx.Error("attribute 'output_datatype' must be a real number type");
  }
  return dt;
}

// Hann / Hamming / Blackman: output [size].
Status InferWindow(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const DataType dt, OutputDatatype(ctx));
  std::optional<int64_t> size;
  GE_RETURN_IF_ERROR(ScalarInput(ctx, 0, &size));
  if (size && *size < 0) {
    return ctx.Error("size must not be negative, got " + std::to_string(*size));
  }
  return ctx.SetOutput(0, GeShape({size ? *size : UNKNOWN_DIM}), dt);
}

// MelWeightMatrix: output [floor(dft_length / 2) + 1, num_mel_bins].
Status InferMelWeightMatrix(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const DataType dt, OutputDatatype(ctx));
  std::optional<int64_t> bins;
  std::optional<int64_t> dft_length;
  std::optional<int64_t> ignored;
  GE_RETURN_IF_ERROR(ScalarInput(ctx, 0, &bins));
  GE_RETURN_IF_ERROR(ScalarInput(ctx, 1, &dft_length));
  for (size_t i = 2; i < 5; ++i) GE_RETURN_IF_ERROR(ScalarInput(ctx, i, &ignored));
  if (bins && *bins <= 0) return ctx.Error("num_mel_bins must be positive");
  if (dft_length && *dft_length <= 0) return ctx.Error("dft_length must be positive");
  return ctx.SetOutput(
      0, GeShape({dft_length ? *dft_length / 2 + 1 : UNKNOWN_DIM, bins ? *bins : UNKNOWN_DIM}), dt);
}

// DFT (opset 17): input [..., n, ..., 1|2], axis in [0, r-2] (negative counts from the back of
// the rank-r input); output: the input's shape, the last dim 2, dim `axis` dft_length (the
// input's extent when absent) or floor(dft_length / 2) + 1 when onesided.
Status InferDft(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  const GeShape& x = ctx.InputShape(0);
  const int64_t r = RankOf(x);
  std::optional<int64_t> length;
  const bool has_length = ctx.NumInputs() > 1 && ctx.HasInput(1);
  if (has_length) GE_RETURN_IF_ERROR(ScalarInput(ctx, 1, &length));
  if (length && *length <= 0) return ctx.Error("dft_length must be positive");
  if (r < 0) return ctx.SetOutputShape(0, infer::UnknownRankShape());
  const int64_t last = x.GetDim(static_cast<size_t>(r - 1));
  if (last >= 0 && last != 1 && last != 2) {
    return ctx.Error(ctx.DescribeInput(0) + " must end in 1 (real) or 2 (complex)");
  }
  int64_t given = ctx.AttrInt("axis", 1);
  if (ctx.NumInputs() > 2 && ctx.HasInput(2)) {  // opset 20: the axis is an input
    std::optional<int64_t> axis_input;
    GE_RETURN_IF_ERROR(ScalarInput(ctx, 2, &axis_input));
    if (!axis_input) return ctx.SetOutputShape(0, infer::UnknownDimsShape(static_cast<size_t>(r)));
    given = *axis_input;
  }
  int64_t axis = given < 0 ? given + r : given;
  if (axis < 0 || axis > r - 2) {
    return ctx.Error("axis " + std::to_string(given) + " is out of range for rank " +
                     std::to_string(r) + " (the last dim holds real / imaginary parts)");
  }
  std::vector<int64_t> dims = x.GetDims();
  int64_t n = has_length ? (length ? *length : UNKNOWN_DIM) : dims[static_cast<size_t>(axis)];
  if (n >= 0 && ctx.AttrInt("onesided", 0) != 0) n = n / 2 + 1;
  dims[static_cast<size_t>(axis)] = n;
  dims.back() = 2;
  return ctx.SetOutputShape(0, GeShape(dims));
}

// STFT: signal [batch, length, 1|2], frame_step, window [frame_length]?, frame_length?;
// output [batch, frames, bins, 2] with frames = 1 + (length - frame_length) / frame_step and
// bins = frame_length (floor(frame_length / 2) + 1 when onesided).
Status InferStft(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 3));
  const GeShape& x = ctx.InputShape(0);
  std::optional<int64_t> step;
  GE_RETURN_IF_ERROR(ScalarInput(ctx, 1, &step));
  if (step && *step <= 0) return ctx.Error("frame_step must be positive");
  int64_t frame_length = UNKNOWN_DIM;
  int64_t window_length = UNKNOWN_DIM;
  if (ctx.NumInputs() > 2 && ctx.HasInput(2)) {
    GE_RETURN_IF_ERROR(RequireRank(ctx, 2, 1));
    if (!ctx.InputShape(2).IsUnknownDimNum()) window_length = ctx.InputShape(2).GetDim(0);
    frame_length = window_length;
  }
  if (ctx.NumInputs() > 3 && ctx.HasInput(3)) {
    std::optional<int64_t> fl;
    GE_RETURN_IF_ERROR(ScalarInput(ctx, 3, &fl));
    if (fl && *fl <= 0) return ctx.Error("frame_length must be positive");
    if (fl && window_length >= 0 && *fl != window_length) {
      return ctx.Error("frame_length " + std::to_string(*fl) + " differs from the window's " +
                       std::to_string(window_length));
    }
    frame_length = fl ? *fl : UNKNOWN_DIM;
  } else if (window_length < 0 && !x.IsUnknownDimNum()) {
    frame_length = x.GetDim(1);  // no window and no frame_length: one frame of the signal
  }
  if (x.IsUnknownDimNum()) {
    return ctx.SetOutputShape(0, GeShape({UNKNOWN_DIM, UNKNOWN_DIM, UNKNOWN_DIM, 2}));
  }
  const int64_t last = x.GetDim(2);
  if (last >= 0 && last != 1 && last != 2) {
    return ctx.Error(ctx.DescribeInput(0) + " must end in 1 (real) or 2 (complex)");
  }
  const int64_t length = x.GetDim(1);
  int64_t frames = UNKNOWN_DIM;
  if (length >= 0 && frame_length >= 0 && step) {
    if (frame_length > length) {
      return ctx.Error("frame_length " + std::to_string(frame_length) +
                       " exceeds the signal length " + std::to_string(length));
    }
    frames = 1 + (length - frame_length) / *step;
  }
  int64_t bins = frame_length;
  if (bins >= 0 && ctx.AttrInt("onesided", 1) != 0) bins = bins / 2 + 1;
  return ctx.SetOutputShape(0, GeShape({x.GetDim(0), frames, bins, 2}));
}

}  // namespace

void RegisterSignalOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  const TensorType index = TensorType::IndexNumberType();
  const TensorType numbers = TensorType::RealNumberType();
  // Windows: periodic 1 divides by size (for spectral analysis), 0 by size - 1 (symmetric).
  for (const char* type : {"HannWindow", "HammingWindow", "BlackmanWindow"}) {
    r.Register(OpProtoBuilder(type)
                   .Input("size", index)
                   .Output("output", numbers)
                   .Attr("output_datatype", AttrValue(DT_FLOAT))
                   .Attr("periodic", 1)
                   .InferShape(InferWindow)
                   .Build());
  }
  r.Register(OpProtoBuilder("MelWeightMatrix")
                 .TypeConstraint("T1", index)
                 .TypeConstraint("T2", floats)
                 .Input("num_mel_bins", "T1")
                 .Input("dft_length", "T1")
                 .Input("sample_rate", "T1")
                 .Input("lower_edge_hertz", "T2")
                 .Input("upper_edge_hertz", "T2")
                 .Output("output", numbers)
                 .Attr("output_datatype", AttrValue(DT_FLOAT))
                 .InferShape(InferMelWeightMatrix)
                 .Build());
  r.Register(OpProtoBuilder("DFT")  // opset 17: axis an attribute; from opset 20 an input
                 .TypeConstraint("T1", floats)
                 .Input("input", "T1")
                 .OptionalInput("dft_length", index)
                 .OptionalInput("axis", {DT_INT64})
                 .Output("output", "T1")
                 .Attr("axis", 1)
                 .Attr("inverse", 0)
                 .Attr("onesided", 0)
                 .InferShape(InferDft)
                 .Build());
  r.Register(OpProtoBuilder("STFT")
                 .TypeConstraint("T1", floats)
                 .TypeConstraint("T2", index)
                 .Input("signal", "T1")
                 .Input("frame_step", "T2")
                 .OptionalInput("window", "T1")
                 .OptionalInput("frame_length", "T2")
                 .Output("output", "T1")
                 .Attr("onesided", 1)
                 .InferShape(InferStft)
                 .Build());
}

}  // namespace ge::builtin

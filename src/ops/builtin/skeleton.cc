// Skeleton operators of GE: graph inputs/outputs and constants, identities, shape queries,
// PhonyConcat/PhonySplit and the reshape-like ops (Reshape, Squeeze, Unsqueeze, ExpandDims,
// Flatten).
#include <algorithm>

#include "builtin_ops.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::builtin {
namespace {

/// GE's option that switches constant folding on, which removes the Shape family.
constexpr char kOptionConstantFolding[] = "ge.oo.constantFolding";

using infer::RankOf;
using infer::ShapeSlice;
using infer::UnknownRankShape;

Status InferData(InferContext& ctx) {
  if (!ctx.HasInput(0)) return Status::Ok();  // a graph input: its output desc is given
  return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
}

Status InferConst(InferContext& ctx) {
  const auto* value = AttrUtils::GetPtr<GeTensor>(ctx.op(), "value");
  if (value == nullptr) return ctx.Error("attribute 'value' (the constant's tensor) is missing");
  return ctx.SetOutput(0, value->GetTensorDesc().GetShape(), value->GetTensorDesc().GetDataType());
}

// Output k takes input k's desc (NetOutput, IdentityN).
Status InferPassThrough(InferContext& ctx) {
  const size_t n = std::min(ctx.NumInputs(), ctx.NumOutputs());
  for (size_t i = 0; i < n; ++i) {
    if (!ctx.HasInput(i)) continue;
    GE_RETURN_IF_ERROR(ctx.SetOutput(i, ctx.InputShape(i), ctx.InputDataType(i)));
  }
  return Status::Ok();
}

Status InferShapeOp(InferContext& ctx) {
  const DataType dt = ctx.AttrDataType("dtype", DT_INT64);
  const GeShape& in = ctx.InputShape(0);
  if (in.IsUnknownDimNum()) return ctx.SetOutput(0, GeShape({UNKNOWN_DIM}), dt);
  const int64_t rank = RankOf(in);
  const auto [start, end] =
      ShapeSlice(rank, ctx.AttrInt("start", 0), ctx.AttrInt("end", rank), ctx.HasAttr("end"));
  return ctx.SetOutput(0, GeShape({end - start}), dt);
}

Status InferShapeN(InferContext& ctx) {
  if (ctx.NumInputs() != ctx.NumOutputs()) {
    return ctx.Error("has " + std::to_string(ctx.NumInputs()) + " inputs but " +
                     std::to_string(ctx.NumOutputs()) + " outputs; ShapeN gives one per input");
  }
  const DataType dt = ctx.AttrDataType("dtype", DT_INT64);
  for (size_t i = 0; i < ctx.NumInputs(); ++i) {
    const GeShape& in = ctx.InputShape(i);
    const int64_t rank = in.IsUnknownDimNum() ? UNKNOWN_DIM : RankOf(in);
    GE_RETURN_IF_ERROR(ctx.SetOutput(i, GeShape({rank}), dt));
  }
  return Status::Ok();
}

Status InferScalarOf(InferContext& ctx, DataType fallback) {
  return ctx.SetOutput(0, GeShape(), ctx.AttrDataType("dtype", fallback));
}

Status InferPhonyConcat(InferContext& ctx) {
  const auto dims = ctx.AttrInts("concat_dim");
  const auto counts = ctx.AttrInts("N");
  if (dims.size() != counts.size()) {
    return ctx.Error("attributes 'concat_dim' and 'N' differ in length");
  }
  if (ctx.NumInputs() == 0) return ctx.Error("has no inputs");
  GeShape out = ctx.InputShape(0);
  if (out.IsUnknownDimNum()) return ctx.SetOutputShape(0, out);
  // Pieces of different sizes along a single concat_dim add up along it.
  bool equal = true;
  for (size_t k = 1; k < ctx.NumInputs(); ++k) equal = equal && ctx.InputShape(k) == out;
  if (!equal && dims.size() == 1) {
    GE_ASSIGN_OR_RETURN(int64_t d, NormalizeAxisFor(ctx, dims[0], RankOf(out), "concat_dim"));
    int64_t total = 0;
    for (size_t k = 0; k < ctx.NumInputs(); ++k) {
      const GeShape& piece = ctx.InputShape(k);
      if (piece.IsUnknownDimNum() || piece.GetDimNum() != out.GetDimNum()) {
        return ctx.Error("input " + std::to_string(k) + " has another rank than input 0");
      }
      total = infer::AddDim(total, piece.GetDim(static_cast<size_t>(d)));
    }
    out.MutableDims()[static_cast<size_t>(d)] = total;
    return ctx.SetOutputShape(0, out);
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    GE_ASSIGN_OR_RETURN(int64_t d, NormalizeAxisFor(ctx, dims[i], RankOf(out), "concat_dim"));
    out.MutableDims()[d] = infer::MulDim(out.GetDim(d), counts[i]);
  }
  return ctx.SetOutputShape(0, out);
}

Status InferPhonySplit(InferContext& ctx) {
  const auto dims = ctx.AttrInts("split_dim");
  const auto counts = ctx.AttrInts("num_split");
  if (dims.size() != counts.size()) {
    return ctx.Error("attributes 'split_dim' and 'num_split' differ in length");
  }
  GeShape out = ctx.InputShape(0);
  if (!out.IsUnknownDimNum()) {
    for (size_t i = 0; i < dims.size(); ++i) {
      GE_ASSIGN_OR_RETURN(int64_t d, NormalizeAxisFor(ctx, dims[i], RankOf(out), "split_dim"));
      if (counts[i] <= 0) return ctx.Error("num_split must be positive");
      const int64_t dim = out.GetDim(d);
      if (dim >= 0 && dim % counts[i] != 0) {
        return ctx.Error(ctx.DescribeInput(0) + " dim " + std::to_string(d) +
                         " is not divisible by " + std::to_string(counts[i]));
      }
      out.MutableDims()[d] = dim < 0 ? UNKNOWN_DIM : dim / counts[i];
    }
  }
  for (size_t i = 0; i < ctx.NumOutputs(); ++i) GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, out));
  return Status::Ok();
}

// Reshapes `in` (known rank) to the requested `target` (ONNX: 0 copies, -1 infers).
Result<std::vector<int64_t>> ReshapeDims(const InferContext& ctx, const std::vector<int64_t>& in,
                                         const std::vector<int64_t>& target, bool allow_zero) {
  std::vector<int64_t> out(target.size());
  int64_t infer_at = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    const int64_t v = target[i];
    if (v == 0 && !allow_zero) {
      if (i >= in.size()) {
        return ctx.Error("shape value 0 at position " + std::to_string(i) +
                         " has no input dim to copy (input rank " + std::to_string(in.size()) +
                         ")");
      }
      out[i] = in[i];
    } else if (v == -1) {
      if (infer_at >= 0) return ctx.Error("shape has more than one -1");
      infer_at = static_cast<int64_t>(i);
      out[i] = UNKNOWN_DIM;
    } else if (v < 0) {
      return ctx.Error("shape value " + std::to_string(v) + " is invalid");
    } else {
      out[i] = v;
    }
  }
  const int64_t total = infer::DimProduct(in);
  if (infer_at >= 0) {
    std::vector<int64_t> rest = out;
    rest[infer_at] = 1;
    const int64_t known = infer::DimProduct(rest);
    if (total >= 0 && known > 0) {
      if (total % known != 0) {
        return ctx.Error("cannot reshape " + GeShape(in).ToString() + " to " +
                         GeShape(target).ToString() + ": " + std::to_string(total) +
                         " elements are not divisible by " + std::to_string(known));
      }
      out[infer_at] = total / known;
    } else if (total == 0) {
      out[infer_at] = 0;
    }
    return out;
  }
  const int64_t produced = infer::DimProduct(out);
  if (total >= 0 && produced >= 0 && total != produced) {
    return ctx.Error("cannot reshape " + GeShape(in).ToString() + " (" + std::to_string(total) +
                     " elements) to " + GeShape(out).ToString() + " (" + std::to_string(produced) +
                     " elements)");
  }
  return out;
}

Status InferReshape(InferContext& ctx) {
  const auto target = ctx.GetConstInts(1);
  if (!target) {
    const GeShape& s = ctx.InputShape(1);
    const bool rank_known = s.GetDimNum() == 1 && s.GetDim(0) >= 0;
    return ctx.SetOutputShape(0, rank_known
                                     ? infer::UnknownDimsShape(static_cast<size_t>(s.GetDim(0)))
                                     : UnknownRankShape());
  }
  const GeShape& in = ctx.InputShape(0);
  const bool allow_zero = ctx.AttrInt("allowzero", 0) != 0;
  if (in.IsUnknownDimNum()) {
    std::vector<int64_t> out = *target;
    for (auto& d : out) {
      if (d < 0 || (d == 0 && !allow_zero)) d = UNKNOWN_DIM;
    }
    return ctx.SetOutputShape(0, GeShape(out));
  }
  const auto& dims = in.GetDims();
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = ctx.AttrInt("axis", 0);
  const int64_t num_axes = ctx.AttrInt("num_axes", -1);
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) return ctx.Error("attribute 'axis' is out of range");
  const int64_t end = num_axes < 0 ? rank : axis + num_axes;
  if (end > rank) return ctx.Error("attributes 'axis' + 'num_axes' exceed the input rank");
  std::vector<int64_t> sub(dims.begin() + axis, dims.begin() + end);
  GE_ASSIGN_OR_RETURN(auto mid, ReshapeDims(ctx, sub, *target, allow_zero));
  std::vector<int64_t> out(dims.begin(), dims.begin() + axis);
  out.insert(out.end(), mid.begin(), mid.end());
  out.insert(out.end(), dims.begin() + end, dims.end());
  return ctx.SetOutputShape(0, GeShape(out));
}

/// Squeeze with the axes in input 1 or in `attr` (GE's SqueezeV2 calls it "axis").
Status InferSqueezeAxes(InferContext& ctx, const char* attr) {
  const GeShape& in = ctx.InputShape(0);
  bool known = true;
  const auto axes = AxesFromInputOrAttr(ctx, 1, attr, &known);
  if (!known || in.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  const auto& dims = in.GetDims();
  std::vector<int64_t> out;
  if (axes.empty()) {
    for (int64_t d : dims) {
      if (d < 0) return ctx.SetOutputShape(0, UnknownRankShape());
      if (d != 1) out.push_back(d);
    }
    return ctx.SetOutputShape(0, GeShape(out));
  }
  auto norm = infer::NormalizeAxes(axes, RankOf(in));
  if (!norm.ok()) return ctx.Error("axes: " + norm.status().message());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (std::find(norm->begin(), norm->end(), static_cast<int64_t>(i)) == norm->end()) {
      out.push_back(dims[i]);
    } else if (dims[i] > 1 || dims[i] == 0) {
      return ctx.Error("cannot squeeze dim " + std::to_string(i) + " of " + ctx.DescribeInput(0) +
                       ": its size is " + std::to_string(dims[i]) + ", not 1");
    }
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InsertOnes(InferContext& ctx, const std::vector<int64_t>& axes) {
  const GeShape& in = ctx.InputShape(0);
  const int64_t out_rank = RankOf(in) + static_cast<int64_t>(axes.size());
  auto norm = infer::NormalizeAxes(axes, out_rank);
  if (!norm.ok()) return ctx.Error("axes: " + norm.status().message());
  std::vector<int64_t> out;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (std::find(norm->begin(), norm->end(), i) != norm->end()) {
      out.push_back(1);
    } else {
      out.push_back(in.GetDims()[next++]);
    }
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

Status InferSqueeze(InferContext& ctx) { return InferSqueezeAxes(ctx, "axes"); }

/// Unsqueeze with the axes in input 1 or in `attr` (GE's UnsqueezeV2 calls it "axis").
Status InferUnsqueezeAxes(InferContext& ctx, const char* attr) {
  const GeShape& in = ctx.InputShape(0);
  bool known = true;
  const auto axes = AxesFromInputOrAttr(ctx, 1, attr, &known);
  if (in.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  if (!known) {
    const GeShape& a = ctx.InputShape(1);
    if (a.GetDimNum() == 1 && a.GetDim(0) >= 0) {
      return ctx.SetOutputShape(
          0, infer::UnknownDimsShape(in.GetDimNum() + static_cast<size_t>(a.GetDim(0))));
    }
    return ctx.SetOutputShape(0, UnknownRankShape());
  }
  if (axes.empty()) return ctx.Error("axes are empty");
  return InsertOnes(ctx, axes);
}

Status InferUnsqueeze(InferContext& ctx) { return InferUnsqueezeAxes(ctx, "axes"); }

Status InferExpandDims(InferContext& ctx) {
  const GeShape& in = ctx.InputShape(0);
  if (in.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  const auto axis = ctx.GetConstInts(1);
  if (!axis) return ctx.SetOutputShape(0, infer::UnknownDimsShape(in.GetDimNum() + 1));
  if (axis->size() != 1) return ctx.Error("input axis must hold one value");
  return InsertOnes(ctx, *axis);
}

Status InferFlatten(InferContext& ctx) {
  const GeShape& in = ctx.InputShape(0);
  if (in.IsUnknownDimNum()) return ctx.SetOutputShape(0, infer::UnknownDimsShape(2));
  const int64_t rank = RankOf(in);
  int64_t axis = ctx.AttrInt("axis", 1);
  if (axis < -rank || axis > rank) {
    return ctx.Error("attribute 'axis' " + std::to_string(axis) + " is out of range for " +
                     ctx.DescribeInput(0));
  }
  if (axis < 0) axis += rank;
  const auto& d = in.GetDims();
  return ctx.SetOutputShape(0, GeShape({infer::DimProduct(d, 0, static_cast<size_t>(axis)),
                                        infer::DimProduct(d, static_cast<size_t>(axis))}));
}

/// GE's FlattenV2: dims axis..end_axis become one.
Status InferFlattenV2(InferContext& ctx) {
  const GeShape& in = ctx.InputShape(0);
  if (in.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  const int64_t rank = RankOf(in);
  int64_t axis = ctx.AttrInt("axis", 1);
  int64_t end_axis = ctx.AttrInt("end_axis", -1);
  if (axis < 0) axis += rank;
  if (end_axis < 0) end_axis += rank;
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1) || end_axis < axis || end_axis >= rank) {
    return ctx.Error("attributes 'axis' " + std::to_string(ctx.AttrInt("axis", 1)) +
                     " and 'end_axis' " + std::to_string(ctx.AttrInt("end_axis", -1)) +
                     " do not name a range of dims of " + ctx.DescribeInput(0));
  }
  const auto& d = in.GetDims();
  std::vector<int64_t> out(d.begin(), d.begin() + axis);
  out.push_back(infer::DimProduct(d, static_cast<size_t>(axis), static_cast<size_t>(end_axis + 1)));
  out.insert(out.end(), d.begin() + end_axis + 1, d.end());
  return ctx.SetOutputShape(0, GeShape(out));
}

/// GE's Bitcast: the same bytes as another element type. A narrower type adds a last dim of the
/// size ratio; a wider one needs the last dim to be that ratio and drops it.
Status InferBitcast(InferContext& ctx) {
  const DataType to = ctx.AttrDataType("type");
  const int32_t in_size = TypeUtils::GetSizeByDataType(ctx.InputDataType(0));
  const int32_t out_size = TypeUtils::GetSizeByDataType(to);
  if (in_size <= 0 || out_size <= 0 || in_size >= kDataTypeSizeBitOffset ||
      out_size >= kDataTypeSizeBitOffset) {
    return ctx.Error("cannot bitcast " + TypeUtils::DataTypeToSerialString(ctx.InputDataType(0)) +
                     " to " + TypeUtils::DataTypeToSerialString(to) +
                     ": both need a whole number of bytes per element");
  }
  const GeShape& in = ctx.InputShape(0);
  if (in_size == out_size || in.IsUnknownDimNum()) {
    return ctx.SetOutput(0, in_size == out_size ? in : UnknownRankShape(), to);
  }
  std::vector<int64_t> dims = in.GetDims();
  if (in_size > out_size) {
    if (in_size % out_size != 0) return ctx.Error("element sizes are not multiples");
    dims.push_back(in_size / out_size);
  } else {
    if (out_size % in_size != 0 || dims.empty() || dims.back() != out_size / in_size) {
      return ctx.Error("the last dim of " + ctx.DescribeInput(0) + " must be " +
                       std::to_string(out_size / std::max(in_size, 1)) + " to bitcast to " +
                       TypeUtils::DataTypeToSerialString(to));
    }
    dims.pop_back();
  }
  return ctx.SetOutput(0, GeShape(dims), to);
}

}  // namespace

void RegisterSkeletonOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  r.Register(OpProtoBuilder("Data")
                 .TypeConstraint("T", all)
                 .OptionalInput("x", "T")
                 .Output("y", "T")
                 .Attr("index", 0)
                 .InferShape(InferData)
                 .Build());
  for (const char* type : {"Const", "Constant"}) {
    r.Register(OpProtoBuilder(type)
                   .Output("y", all)
                   .RequiredAttr("value", AttrValue::Type::kTensor)
                   .InferShape(InferConst)
                   .Build());
  }
  r.Register(OpProtoBuilder("NetOutput")
                 .DynamicInput("x", all)
                 .DynamicOutput("y", all)
                 .InferShape(InferPassThrough)
                 .Build());
  r.Register(OpProtoBuilder("NoOp").InferShape([](InferContext&) { return Status::Ok(); }).Build());
  // Identities: GE's Identity class of GeDeletedOps, which identity removal bypasses.
  // PlaceholderWithDefault is an identity once the graph is an inference graph: its default is
  // what it gives when nothing feeds it.
  for (const char* type : {"Identity", "Snapshot", "StopGradient", "PreventGradient",
                           "GuaranteeConst", "RefIdentity", "PlaceholderWithDefault"}) {
    r.Register(OpProtoBuilder(type)
                   .TypeConstraint("T", all)
                   .Input("x", "T")
                   .Output("y", "T")
                   .InferShape(InferSameShape)
                   .PassThrough()
                   .DeletedBy("RemoveIdentity")
                   .Build());
  }
  r.Register(OpProtoBuilder("IdentityN")
                 .DynamicInput("x", all)
                 .DynamicOutput("y", all)
                 .InferShape(InferPassThrough)
                 .PassThrough()
                 .DeletedBy("RemoveIdentity")
                 .Build());
  // GE's Shape has attr dtype; start/end are ONNX's (opset 15).
  r.Register(OpProtoBuilder("Shape")
                 .Input("x", all)
                 .Output("y", TensorType::IndexNumberType())
                 .Attr("dtype", DT_INT64)
                 .Attr("start", 0)
                 .OptionalAttr("end", AttrValue::Type::kInt)
                 .InferShape(InferShapeOp)
                 .DeletedBy("ConstantFolding", kOptionConstantFolding)
                 .Build());
  // GE's ShapeN: the shape of each input.
  r.Register(OpProtoBuilder("ShapeN")
                 .DynamicInput("x", all)
                 .DynamicOutput("y", TensorType::IndexNumberType())
                 .Attr("dtype", DT_INT64)
                 .InferShape(InferShapeN)
                 .DeletedBy("ConstantFolding", kOptionConstantFolding)
                 .Build());
  r.Register(OpProtoBuilder("Size")
                 .Input("x", all)
                 .Output("y", TensorType::IndexNumberType())
                 .Attr("dtype", DT_INT64)
                 .InferShape([](InferContext& c) { return InferScalarOf(c, DT_INT64); })
                 .DeletedBy("ConstantFolding", kOptionConstantFolding)
                 .Build());
  r.Register(OpProtoBuilder("Rank")
                 .Input("x", all)
                 .Output("y", {DT_INT32})
                 .InferShape([](InferContext& c) { return InferScalarOf(c, DT_INT32); })
                 .DeletedBy("ConstantFolding", kOptionConstantFolding)
                 .Build());
  r.Register(OpProtoBuilder("PhonyConcat")
                 .TypeConstraint("T", all)
                 .DynamicInput("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("concat_dim", AttrValue::Type::kListInt)
                 .RequiredAttr("N", AttrValue::Type::kListInt)
                 .Attr("keep_input_offset", true)
                 .InferShape(InferPhonyConcat)
                 .Build());
  r.Register(OpProtoBuilder("PhonySplit")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .DynamicOutput("y", "T")
                 .RequiredAttr("split_dim", AttrValue::Type::kListInt)
                 .RequiredAttr("num_split", AttrValue::Type::kListInt)
                 .Attr("keep_output_offset", true)
                 .InferShape(InferPhonySplit)
                 .Build());
  // ONNX Reshape (allowzero) plus GE's axis/num_axes (reshape a sub-range of dims).
  r.Register(OpProtoBuilder("Reshape")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("shape", TensorType::IndexNumberType())
                 .Output("y", "T")
                 .Attr("allowzero", 0)
                 .Attr("axis", 0)
                 .Attr("num_axes", -1)
                 .InferShape(InferReshape)
                 .ViewOf(0)
                 .Build());
  // Axes as an input (ONNX opset 13+) or as the attribute (GE, older ONNX).
  r.Register(OpProtoBuilder("Squeeze")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("axes", {DT_INT64, DT_INT32})
                 .Output("y", "T")
                 .Attr("axes", std::vector<int64_t>{})
                 .InferShape(InferSqueeze)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("Unsqueeze")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("axes", {DT_INT64, DT_INT32})
                 .Output("y", "T")
                 .Attr("axes", std::vector<int64_t>{})
                 .InferShape(InferUnsqueeze)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("ExpandDims")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("axis", TensorType::IndexNumberType())
                 .Output("y", "T")
                 .InferShape(InferExpandDims)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("Flatten")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axis", 1)
                 .InferShape(InferFlatten)
                 .ViewOf(0)
                 .Build());
  // GE's other views: the axes as an attribute "axis" (V2) or an input (V3), Flatten over a
  // range of dims, a change of format only, a change of element type.
  r.Register(OpProtoBuilder("SqueezeV2")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axis", std::vector<int64_t>{})
                 .InferShape([](InferContext& c) { return InferSqueezeAxes(c, "axis"); })
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("UnsqueezeV2")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axis", std::vector<int64_t>{})
                 .InferShape([](InferContext& c) { return InferUnsqueezeAxes(c, "axis"); })
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("SqueezeV3")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("axes", {DT_INT64, DT_INT32})
                 .Output("y", "T")
                 .InferShape(InferSqueeze)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("UnsqueezeV3")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Input("axes", {DT_INT64, DT_INT32})
                 .Output("y", "T")
                 .InferShape(InferUnsqueeze)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("FlattenV2")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("axis", 1)
                 .Attr("end_axis", -1)
                 .InferShape(InferFlattenV2)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("ReFormat")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .InferShape(InferSameShape)
                 .ViewOf(0)
                 .Build());
  r.Register(OpProtoBuilder("Bitcast")
                 .Input("x", all)
                 .Output("y", all)
                 .RequiredAttr("type", AttrValue::Type::kDataType)
                 .InferShape(InferBitcast)
                 .ViewOf(0)
                 .Build());
}

}  // namespace ge::builtin

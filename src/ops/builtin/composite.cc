// ONNX's sequence and optional operators (ONNX names). A sequence or optional is a DT_VARIANT
// tensor of shape {} whose desc names what it holds (ge/graph/composite_value.h); these
// prototypes carry that type from inputs to outputs. The runtime runs the operators itself (no
// engine computes them): it keeps such values as the tensors they hold.
#include "builtin_ops.h"
#include "ge/graph/composite_value.h"

namespace ge::builtin {
namespace {

// The value type of input `index`, or an error naming it.
Result<ValueType> InputType(InferContext& ctx, size_t index) {
  Result<ValueType> type = ValueTypeOf(ctx.InputDesc(index));
  if (!type.ok()) return ctx.Error(ctx.DescribeInput(index) + ": " + type.status().message());
  return type;
}

Result<ValueType> SequenceInput(InferContext& ctx, size_t index) {
  GE_ASSIGN_OR_RETURN(ValueType type, InputType(ctx, index));
  if (type.kind != ValueType::Kind::kSequence) {
    return ctx.Error(ctx.DescribeInput(index) + " must be a sequence, not " + ValueTypeName(type));
  }
  return type;
}

Status SetOutputType(InferContext& ctx, size_t index, const ValueType& type) {
  GeTensorDesc* desc = ctx.MutableOutputDesc(index);
  if (desc == nullptr) return ctx.Error("has no output " + std::to_string(index));
  SetValueType(*desc, type);
  return Status::Ok();
}

// The element tensor type, with an unknown shape: a sequence's tensors may each differ.
Status SetElementOutput(InferContext& ctx, size_t index, const ValueType& element) {
  if (element.kind != ValueType::Kind::kTensor) return SetOutputType(ctx, index, element);
  return ctx.SetOutput(index, GeShape({UNKNOWN_DIM_NUM}), element.dtype);
}

ValueType TensorOf(DataType dtype) {
  ValueType type;
  type.dtype = dtype;
  return type;
}

Status InferSequenceEmpty(InferContext& ctx) {
  return SetOutputType(ctx, 0, SequenceOf(TensorOf(ctx.AttrDataType("dtype", DT_FLOAT))));
}

Status InferSequenceConstruct(InferContext& ctx) {
  if (ctx.NumInputs() == 0) return ctx.Error("needs at least one input");
  const DataType dtype = ctx.InputDataType(0);
  for (size_t i = 1; i < ctx.NumInputs(); ++i) {
    if (ctx.InputDataType(i) != dtype) {
      return ctx.Error("its inputs must share one dtype; " + ctx.DescribeInput(i) +
                       " differs from " + ctx.DescribeInput(0));
    }
  }
  if (dtype == DT_VARIANT) return ctx.Error("builds sequences of tensors, not of sequences");
  return SetOutputType(ctx, 0, SequenceOf(TensorOf(dtype)));
}

Status InferSequenceInsert(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ValueType seq, SequenceInput(ctx, 0));
  if (ctx.InputDataType(1) != seq.inner[0].dtype) {
    return ctx.Error(ctx.DescribeInput(1) + " must have the sequence's element type " +
                     ValueTypeName(seq.inner[0]));
  }
  return SetOutputType(ctx, 0, seq);
}

Status InferSequenceErase(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ValueType seq, SequenceInput(ctx, 0));
  return SetOutputType(ctx, 0, seq);
}

Status InferSequenceAt(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ValueType seq, SequenceInput(ctx, 0));
  return SetElementOutput(ctx, 0, seq.inner[0]);
}

Status InferSequenceLength(InferContext& ctx) {
  GE_RETURN_IF_ERROR(SequenceInput(ctx, 0).status());
  return ctx.SetOutput(0, GeShape(std::vector<int64_t>{}), DT_INT64);
}

Status InferSplitToSequence(InferContext& ctx) {
  if (ctx.InputDataType(0) == DT_VARIANT) return ctx.Error("splits a tensor, not a sequence");
  return SetOutputType(ctx, 0, SequenceOf(TensorOf(ctx.InputDataType(0))));
}

Status InferConcatFromSequence(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ValueType seq, SequenceInput(ctx, 0));
  if (seq.inner[0].kind != ValueType::Kind::kTensor) {
    return ctx.Error("concatenates tensors, not " + ValueTypeName(seq.inner[0]));
  }
  return ctx.SetOutput(0, GeShape({UNKNOWN_DIM_NUM}), seq.inner[0].dtype);
}

Status InferOptional(InferContext& ctx) {
  if (ctx.HasInput(0)) {
    GE_ASSIGN_OR_RETURN(ValueType inner, InputType(ctx, 0));
    return SetOutputType(ctx, 0, OptionalOf(inner));
  }
  const std::string name = ctx.AttrStr("type");
  if (name.empty()) return ctx.Error("without an input it needs the attribute 'type'");
  Result<ValueType> inner = ParseValueType(name);
  if (!inner.ok()) return ctx.Error("attribute 'type': " + inner.status().message());
  return SetOutputType(ctx, 0, OptionalOf(*inner));
}

Status InferOptionalHasElement(InferContext& ctx) {
  return ctx.SetOutput(0, GeShape(std::vector<int64_t>{}), DT_BOOL);
}

// A plain tensor or sequence passes through; an optional gives what it holds.
Status InferOptionalGetElement(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ValueType type, InputType(ctx, 0));
  if (type.kind == ValueType::Kind::kOptional) type = type.inner[0];
  if (type.kind == ValueType::Kind::kTensor) {
    return ctx.SetOutput(0,
                         ctx.InputDesc(0).GetDataType() == DT_VARIANT ? GeShape({UNKNOWN_DIM_NUM})
                                                                      : ctx.InputShape(0),
                         type.dtype);
  }
  return SetOutputType(ctx, 0, type);
}

// The outputs' types come from the body (the shape pass merges them); until then each is a
// sequence of unknown tensors.
Status InferSequenceMap(InferContext& ctx) {
  GE_RETURN_IF_ERROR(SequenceInput(ctx, 0).status());
  for (size_t i = 0; i < ctx.NumOutputs(); ++i) {
    GeTensorDesc* desc = ctx.MutableOutputDesc(i);
    if (desc != nullptr && desc->GetDataType() != DT_VARIANT) {
      desc->SetDataType(DT_VARIANT);
      desc->SetShape(GeShape(std::vector<int64_t>{}));
    }
  }
  return Status::Ok();
}

// ai.onnx.ml ZipMap: X [N, C] (or [C]) → N maps from the C class labels to the row's scores.
Status VerifyZipMap(InferContext& ctx) {
  const std::vector<int64_t> ints = ctx.AttrInts("classlabels_int64s");
  const AttrValue* strings = ctx.FindAttr("classlabels_strings");
  const auto* names = strings == nullptr ? nullptr : strings->Get<std::vector<std::string>>();
  const size_t labels = names == nullptr ? 0 : names->size();
  if ((labels == 0) == ints.empty()) {
    return ctx.Error("needs one of classlabels_strings and classlabels_int64s, not " +
                     std::string(labels == 0 ? "neither" : "both"));
  }
  const GeShape& x = ctx.InputShape(0);
  if (!x.IsUnknownDimNum() && x.GetDimNum() != 1 && x.GetDimNum() != 2) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [C] or [N, C]");
  }
  const int64_t classes = x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(x.GetDimNum() - 1);
  const auto want = static_cast<int64_t>(labels == 0 ? ints.size() : labels);
  if (classes >= 0 && classes != want) {
    return ctx.Error(ctx.DescribeInput(0) + " has " + std::to_string(classes) + " classes, the " +
                     std::to_string(want) + " labels say otherwise");
  }
  return Status::Ok();
}

Status InferZipMap(InferContext& ctx) {
  const bool strings = ctx.AttrInts("classlabels_int64s").empty();
  return SetOutputType(ctx, 0,
                       SequenceOf(MapOf(strings ? DT_STRING : DT_INT64, TensorOf(DT_FLOAT))));
}

}  // namespace

void RegisterCompositeOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  r.Register(OpProtoBuilder("SequenceEmpty")
                 .Output("output", {DT_VARIANT})
                 .Attr("dtype", DT_FLOAT)
                 .InferShape(InferSequenceEmpty)
                 .Build());
  r.Register(OpProtoBuilder("SequenceConstruct")
                 .DynamicInput("inputs", all)
                 .Output("output_sequence", {DT_VARIANT})
                 .InferShape(InferSequenceConstruct)
                 .Build());
  r.Register(OpProtoBuilder("SequenceInsert")
                 .Input("input_sequence", {DT_VARIANT})
                 .Input("tensor", all)
                 .OptionalInput("position", {DT_INT32, DT_INT64})
                 .Output("output_sequence", {DT_VARIANT})
                 .InferShape(InferSequenceInsert)
                 .Build());
  r.Register(OpProtoBuilder("SequenceErase")
                 .Input("input_sequence", {DT_VARIANT})
                 .OptionalInput("position", {DT_INT32, DT_INT64})
                 .Output("output_sequence", {DT_VARIANT})
                 .InferShape(InferSequenceErase)
                 .Build());
  r.Register(OpProtoBuilder("SequenceAt")
                 .Input("input_sequence", {DT_VARIANT})
                 .Input("position", {DT_INT32, DT_INT64})
                 .Output("tensor", all)
                 .InferShape(InferSequenceAt)
                 .Build());
  r.Register(OpProtoBuilder("SequenceLength")
                 .Input("input_sequence", {DT_VARIANT})
                 .Output("length", {DT_INT64})
                 .InferShape(InferSequenceLength)
                 .Build());
  r.Register(OpProtoBuilder("SplitToSequence")
                 .Input("input", all)
                 .OptionalInput("split", {DT_INT32, DT_INT64})
                 .Output("output_sequence", {DT_VARIANT})
                 .Attr("axis", int64_t{0})
                 .Attr("keepdims", int64_t{1})
                 .InferShape(InferSplitToSequence)
                 .Build());
  r.Register(OpProtoBuilder("ConcatFromSequence")
                 .Input("input_sequence", {DT_VARIANT})
                 .Output("concat_result", all)
                 .RequiredAttr("axis", AttrValue::Type::kInt)
                 .Attr("new_axis", int64_t{0})
                 .InferShape(InferConcatFromSequence)
                 .Build());
  r.Register(OpProtoBuilder("SequenceMap")
                 .Input("input_sequence", {DT_VARIANT})
                 .DynamicInput("additional_inputs", all)
                 .DynamicInput("implicit_input", all)
                 .DynamicOutput("out_sequence", {DT_VARIANT})
                 .Graph("body")
                 .ControlFlow(ControlFlowKind::kSequenceMap)
                 .InferShape(InferSequenceMap)
                 .Build());
  r.Register(OpProtoBuilder("ZipMap")  // ai.onnx.ml
                 .Input("X", {DT_FLOAT})
                 .Output("Z", {DT_VARIANT})
                 .Attr("classlabels_strings", std::vector<std::string>{})
                 .Attr("classlabels_int64s", std::vector<int64_t>{})
                 .Verify(VerifyZipMap)
                 .InferShape(InferZipMap)
                 .Build());
  r.Register(OpProtoBuilder("Optional")
                 .OptionalInput("input", all)
                 .Output("output", {DT_VARIANT})
                 .Attr("type", std::string())
                 .InferShape(InferOptional)
                 .Build());
  r.Register(OpProtoBuilder("OptionalHasElement")
                 .OptionalInput("input", all)
                 .Output("output", {DT_BOOL})
                 .InferShape(InferOptionalHasElement)
                 .Build());
  r.Register(OpProtoBuilder("OptionalGetElement")
                 .Input("input", all)
                 .Output("output", all)
                 .InferShape(InferOptionalGetElement)
                 .Build());
}

}  // namespace ge::builtin

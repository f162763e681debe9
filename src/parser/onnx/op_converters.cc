// The conversion functions that mapping-table rows name, for operators a row cannot describe
// with renames and value conversions alone, plus NodeContext's helpers.
#include "op_converters.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <numeric>

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "onnx_tensor.h"

namespace ge::onnx_parser {
namespace {

template <typename T>
GeTensor MakeTensor(const std::vector<T>& values, bool scalar, DataType dtype) {
  std::vector<int64_t> dims;
  if (!scalar) dims.push_back(static_cast<int64_t>(values.size()));
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(desc.GetShape());
  desc.SetOriginDataType(dtype);
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return {desc, std::move(bytes)};
}

int64_t IntAttr(const OpDesc& op, const std::string& name, int64_t fallback) {
  int64_t value = fallback;
  (void)AttrUtils::GetInt(op, name, value);
  return value;
}

}  // namespace

GeTensor MakeInt64Tensor(const std::vector<int64_t>& values, bool scalar) {
  return MakeTensor(values, scalar, DT_INT64);
}
GeTensor MakeFloatTensor(const std::vector<float>& values, bool scalar) {
  return MakeTensor(values, scalar, DT_FLOAT);
}

const onnx::AttributeProto* NodeContext::FindAttr(const std::string& name) const {
  for (const auto& attr : node_.attribute()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

Status NodeContext::InsertConstInput(uint32_t index, const std::string& name, GeTensor value) {
  int32_t existing = op_.GetInputIndexByName(name);
  if (existing >= 0) {
    auto& source = sources_[static_cast<size_t>(existing)];
    if (!source.value.empty() || source.constant.has_value()) {
      return Error("input '" + name + "' is given both as an input and as an attribute");
    }
    GE_RETURN_IF_ERROR(op_.UpdateInputDesc(static_cast<uint32_t>(existing), value.GetTensorDesc()));
    source.constant = std::move(value);
    return Status::Ok();
  }
  index = std::min<uint32_t>(index, static_cast<uint32_t>(op_.GetAllInputsSize()));
  GE_RETURN_IF_ERROR(op_.AddInputDesc(index, name, value.GetTensorDesc()));
  sources_.insert(sources_.begin() + index, InputSource{"", std::move(value)});
  return Status::Ok();
}

Status NodeContext::InsertValueInput(uint32_t index, const std::string& name,
                                     const std::string& value) {
  index = std::min<uint32_t>(index, static_cast<uint32_t>(op_.GetAllInputsSize()));
  const GeTensorDesc* known = ValueDesc(value);
  GE_RETURN_IF_ERROR(op_.AddInputDesc(
      index, name,
      known != nullptr ? *known
                       : GeTensorDesc(GeShape({UNKNOWN_DIM_NUM}), FORMAT_ND, DT_UNDEFINED)));
  sources_.insert(sources_.begin() + index, InputSource{value, std::nullopt});
  return Status::Ok();
}

// Constant: one of value, value_float(s), value_int(s), value_string(s) becomes the Const's tensor.
Status ConvertConstant(NodeContext& ctx) {
  OpDesc& op = ctx.op();
  GeTensor tensor;
  bool found = false;
  for (const auto& attr : ctx.node().attribute()) {
    const std::string& name = attr.name();
    if (name == "value") {
      GE_ASSIGN_OR_RETURN(tensor, TensorFromProto(attr.t(), ctx.tensors(), ctx.where()));
    } else if (name == "value_float") {
      tensor = MakeFloatTensor({attr.f()}, /*scalar=*/true);
    } else if (name == "value_floats") {
      tensor = MakeFloatTensor({attr.floats().begin(), attr.floats().end()});
    } else if (name == "value_int") {
      tensor = MakeInt64Tensor({attr.i()}, /*scalar=*/true);
    } else if (name == "value_ints") {
      tensor = MakeInt64Tensor({attr.ints().begin(), attr.ints().end()});
    } else if (name == "value_string" || name == "value_strings") {
      onnx::TensorProto proto;
      proto.set_data_type(onnx::TensorProto::STRING);
      if (name == "value_string") {
        proto.add_string_data(attr.s());
      } else {
        proto.add_dims(attr.strings_size());
        for (const auto& s : attr.strings()) proto.add_string_data(s);
      }
      GE_ASSIGN_OR_RETURN(tensor, TensorFromProto(proto, ctx.tensors(), ctx.where()));
    } else if (name == "sparse_value") {
      return ctx.Error("a sparse Constant is not supported; densify it (onnx.numpy_helper)");
    } else {
      continue;
    }
    if (found) return ctx.Error("has more than one value attribute; exactly one is allowed");
    found = true;
    (void)op.DelAttr(name);
  }
  if (!found) return ctx.Error("has no value attribute");
  GE_RETURN_IF_ERROR(op.UpdateOutputDesc(0, tensor.GetTensorDesc()));
  AttrUtils::SetTensor(op, kAttrConstValue, std::move(tensor));
  return Status::Ok();
}

// The spatial rank of a convolution: from kernel_shape, else from the filter's rank; -1 unknown.
int64_t SpatialRank(NodeContext& ctx) {
  std::vector<int64_t> kernel;
  if (AttrUtils::GetListInt(ctx.op(), "kernel_shape", kernel)) {
    return static_cast<int64_t>(kernel.size());
  }
  const GeTensorDesc* w =
      ctx.node().input_size() > 1 ? ctx.ValueDesc(ctx.node().input(1)) : nullptr;
  if (w == nullptr || w->GetShape().IsUnknownDimNum()) return -1;
  return static_cast<int64_t>(w->GetShape().GetDimNum()) - 2;
}

// Conv → Conv2D / Conv3D by the spatial rank; other (or unknown) ranks keep ONNX's Conv.
Status ConvertConv(NodeContext& ctx) {
  int64_t rank = SpatialRank(ctx);
  ctx.op().SetType(rank == 2 ? "Conv2D" : rank == 3 ? "Conv3D" : "Conv");
  return Status::Ok();
}

// ConvTranspose → Conv2DTranspose / Conv3DTranspose by the spatial rank, else ConvTranspose.
Status ConvertConvTranspose(NodeContext& ctx) {
  int64_t rank = SpatialRank(ctx);
  ctx.op().SetType(rank == 2 ? "Conv2DTranspose" : rank == 3 ? "Conv3DTranspose" : "ConvTranspose");
  return Status::Ok();
}

// MatMul → MatMulV2 when both operands are known to be 2-D, else BatchMatMulV2 (which
// broadcasts batch dims as ONNX MatMul does).
Status ConvertMatMul(NodeContext& ctx) {
  OpDesc& op = ctx.op();
  auto rank = [&](int i) -> int64_t {
    const GeTensorDesc* d = ctx.ValueDesc(ctx.node().input(i));
    if (d == nullptr || d->GetShape().IsUnknownDimNum()) return -1;
    return static_cast<int64_t>(d->GetShape().GetDimNum());
  };
  if (rank(0) == 2 && rank(1) == 2) {
    op.SetType("MatMulV2");
    AttrUtils::SetBool(op, "transpose_x1", false);
    AttrUtils::SetBool(op, "transpose_x2", false);
  } else {
    op.SetType("BatchMatMulV2");
    AttrUtils::SetBool(op, "adj_x1", false);
    AttrUtils::SetBool(op, "adj_x2", false);
  }
  return Status::Ok();
}

// Softmax / LogSoftmax / Hardmax before opset 13 flatten the input to 2-D at `axis` (default 1)
// and normalize the second dim. That is the opset-13 operator on the same axis when the axis is
// the last dim; otherwise the node keeps ONNX's old semantics under a *Legacy type.
Status ConvertLegacySoftmax(NodeContext& ctx) {
  OpDesc& op = ctx.op();
  const std::string onnx_type = ctx.node().op_type();
  int64_t axis = IntAttr(op, "axis", 1);
  const GeTensorDesc* x = ctx.ValueDesc(ctx.node().input(0));
  int64_t rank = x == nullptr || x->GetShape().IsUnknownDimNum()
                     ? -1
                     : static_cast<int64_t>(x->GetShape().GetDimNum());
  if (axis == -1 || (rank > 0 && axis == rank - 1)) {
    op.SetType(onnx_type == "Hardmax" ? onnx_type : onnx_type + "V2");
    AttrUtils::SetInt(op, "axis", axis);
  } else {
    op.SetType(onnx_type + "Legacy");
    AttrUtils::SetInt(op, "axis", axis);
  }
  return Status::Ok();
}

// Variadic ops (Sum → AddN, Concat → ConcatV2, Max, Min, Mean, Einsum): N = the input count.
Status ConvertVariadicN(NodeContext& ctx) {
  AttrUtils::SetInt(ctx.op(), "N", static_cast<int64_t>(ctx.op().GetAllInputsSize()));
  return Status::Ok();
}

// ai.onnx.ml models: what the kernels cannot do is refused here, with the node named, rather
// than at run time: a classifier's labels given in both forms (int64 and classlabels_strings) or,
// where it needs them, in neither, and an unknown post_transform. (OneHotEncoder's categories,
// cats_int64s or cats_strings, are checked by its prototype.)
Status ConvertMlModel(NodeContext& ctx) {
  const std::string& type = ctx.node().op_type();
  const char* ints = type == "TreeEnsembleClassifier"                        ? "classlabels_int64s"
                     : type == "LinearClassifier" || type == "SVMClassifier" ? "classlabels_ints"
                                                                             : nullptr;
  if (ints != nullptr) {
    const onnx::AttributeProto* int_labels = ctx.FindAttr(ints);
    const onnx::AttributeProto* string_labels = ctx.FindAttr("classlabels_strings");
    const bool has_ints = int_labels != nullptr && int_labels->ints_size() > 0;
    const bool has_strings = string_labels != nullptr && string_labels->strings_size() > 0;
    if (has_ints && has_strings) {
      return ctx.Error(std::string("both ") + ints +
                       " and classlabels_strings are given; a classifier's labels are one or the "
                       "other");
    }
    // A LinearClassifier with one intercept (one score column) may go without labels: its label
    // is then 1 or 0.
    const onnx::AttributeProto* intercepts = ctx.FindAttr("intercepts");
    const bool required =
        type != "LinearClassifier" || (intercepts != nullptr && intercepts->floats_size() > 1);
    if (required && !has_ints && !has_strings) {
      return ctx.Error(std::string("neither ") + ints +
                       " nor classlabels_strings is given: the classifier needs its labels");
    }
  }
  const onnx::AttributeProto* post = ctx.FindAttr("post_transform");
  if (post != nullptr) {
    static const char* const kKnown[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
    if (std::none_of(std::begin(kKnown), std::end(kKnown),
                     [&](const char* k) { return post->s() == k; })) {
      return ctx.Error("post_transform '" + post->s() +
                       "' is none of NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT");
    }
  }
  return Status::Ok();
}

// LabelEncoder of ai.onnx.ml 1 as CategoryMapper: the row renamed classes_strings to cats_strings,
// whose integers are their indices.
Status ConvertLabelEncoderV1(NodeContext& ctx) {
  std::vector<std::string> classes;
  (void)AttrUtils::GetListStr(ctx.op(), "cats_strings", classes);
  std::vector<int64_t> indices(classes.size());
  std::iota(indices.begin(), indices.end(), int64_t{0});
  AttrUtils::SetListInt(ctx.op(), "cats_int64s", indices);
  return Status::Ok();
}

}  // namespace ge::onnx_parser

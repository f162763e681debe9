// Classical machine-learning operators of ONNX's ai.onnx.ml domain, as scikit-learn and LightGBM
// exports write them (ONNX names): Binarizer, ArrayFeatureExtractor, Scaler, Normalizer,
// LinearRegressor and the tree ensembles (TreeEnsemble of ai.onnx.ml 5, with its node and leaf
// arrays as attributes; TreeEnsembleRegressor and TreeEnsembleClassifier of ai.onnx.ml 1 and 3).
// Their outputs are float whatever the input's numeric type; a classifier's label is int64, or a
// string when the node gives classlabels_strings (as scikit-learn exports of classifiers trained
// on string labels do). OneHotEncoder's categories are integers or strings (cats_strings, for a
// string input).
// LabelEncoder (ai.onnx.ml 2 to 4) and CategoryMapper map values to values, strings included:
// their output dtype follows their attributes, or (CategoryMapper) the input's.
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownRankShape;

// X [..., F], Y indices [K] → Z [..., K] (a 1-D X gives [1, K], as the domain's runtimes do).
Status InferArrayFeatureExtractor(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const GeShape& y = ctx.InputShape(1);
  if (x.IsUnknownDimNum() || y.IsUnknownDimNum()) return ctx.SetOutputShape(0, UnknownRankShape());
  if (x.GetDimNum() == 0) return ctx.Error(ctx.DescribeInput(0) + " must have rank >= 1");
  int64_t k = 1;
  for (int64_t d : y.GetDims()) k = d < 0 || k < 0 ? UNKNOWN_DIM : k * d;
  std::vector<int64_t> dims = x.GetDims();
  if (dims.size() == 1) dims.insert(dims.begin(), 1);
  dims.back() = k;
  return ctx.SetOutputShape(0, GeShape(dims));
}

// X [N, F] → Y [N, n_targets].
Status InferTreeEnsemble(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const int64_t targets = ctx.AttrInt("n_targets", 0);
  if (targets <= 0) return ctx.Error("attribute 'n_targets' must be positive");
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, GeShape({UNKNOWN_DIM, targets}));
  if (RankOf(x) != 2 && RankOf(x) != 1) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [N, features] or [features]");
  }
  return ctx.SetOutputShape(0, GeShape({RankOf(x) == 2 ? x.GetDim(0) : 1, targets}));
}

// X [N, C] or [C] → Y float of X's shape.
Status InferFloatSameShape(InferContext& ctx) {
  return ctx.SetOutput(0, ctx.InputShape(0), DT_FLOAT);
}

// The rows of X [N, C] or [C] (a 1-D X is one row), or an error.
Result<int64_t> RowsOf(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return UNKNOWN_DIM;
  if (RankOf(x) != 1 && RankOf(x) != 2) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [N, features] or [features]");
  }
  return RankOf(x) == 2 ? x.GetDim(0) : 1;
}

// X [N, C] → Y float [N, attribute `count`] (LinearRegressor's targets, a tree ensemble's
// n_targets; `fallback` columns when `count` is "", as SVMRegressor's one).
Status InferFloatRows(InferContext& ctx, const std::string& count, int64_t fallback) {
  const int64_t targets = count.empty() ? fallback : ctx.AttrInt(count, fallback);
  if (targets <= 0) return ctx.Error("attribute '" + count + "' must be positive");
  GE_ASSIGN_OR_RETURN(const int64_t rows, RowsOf(ctx));
  return ctx.SetOutput(0, GeShape({rows, targets}), DT_FLOAT);
}

// A classifier's labels: the attribute they come from, Y's dtype and how many there are.
struct ClassLabels {
  std::string attr;
  DataType dtype = DT_INT64;
  int64_t count = 0;
};

// The labels the node sets: its int64 list `ints` (classlabels_int64s or classlabels_ints) or
// classlabels_strings, not both; neither is an error when `required`.
Result<ClassLabels> ClassLabelsOf(const InferContext& ctx, const std::string& ints, bool required) {
  const AttrValue* s = ctx.FindAttr("classlabels_strings");
  const auto* strings = s == nullptr ? nullptr : s->Get<std::vector<std::string>>();
  const auto n_strings = static_cast<int64_t>(strings == nullptr ? 0 : strings->size());
  const auto n_ints = static_cast<int64_t>(ctx.AttrInts(ints).size());
  if (n_strings > 0 && n_ints > 0) {
    return ctx.Error("both '" + ints +
                     "' and 'classlabels_strings' are set; a classifier's labels are one or the "
                     "other");
  }
  if (n_strings > 0) return ClassLabels{"classlabels_strings", DT_STRING, n_strings};
  if (required && n_ints == 0) {
    return ctx.Error("neither '" + ints + "' nor 'classlabels_strings' is set");
  }
  return ClassLabels{ints, DT_INT64, n_ints};
}

// At least two labels, as the classifiers' kernels need.
Status NeedTwoLabels(const InferContext& ctx, const ClassLabels& labels) {
  if (labels.count >= 2) return Status::Ok();
  return ctx.Error("attribute '" + labels.attr + "' must name at least two classes, not " +
                   std::to_string(labels.count));
}

// X [N, C] → label Y [N] of the labels' dtype, scores Z float [N, columns].
Status InferLabelsAndScores(InferContext& ctx, const ClassLabels& labels, int64_t columns) {
  GE_ASSIGN_OR_RETURN(const int64_t rows, RowsOf(ctx));
  GE_RETURN_IF_ERROR(ctx.SetOutput(0, GeShape({rows}), labels.dtype));
  return ctx.SetOutput(1, GeShape({rows, columns}), DT_FLOAT);
}

// TreeEnsembleClassifier: at least two labels, and one for every class a leaf names.
Status VerifyTreeClassifier(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_int64s", /*required=*/true));
  GE_RETURN_IF_ERROR(NeedTwoLabels(ctx, labels));
  for (int64_t id : ctx.AttrInts("class_ids")) {
    if (id < 0 || id >= labels.count) {
      return ctx.Error("attribute 'class_ids' names class " + std::to_string(id) + " but '" +
                       labels.attr + "' holds " + std::to_string(labels.count) + " labels");
    }
  }
  return Status::Ok();
}

// TreeEnsembleClassifier: one score per label.
Status InferClassifier(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_int64s", /*required=*/true));
  return InferLabelsAndScores(ctx, labels, labels.count);
}

// LinearClassifier: one label per intercept when there are several (one intercept is one score
// column, whose label is either of two labels, or 1 or 0 without them).
Status VerifyLinearClassifier(InferContext& ctx) {
  const auto classes = static_cast<int64_t>(ctx.AttrFloats("intercepts").size());
  if (classes == 0) return ctx.Error("attribute 'intercepts' must have one value per class");
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_ints", /*required=*/classes > 1));
  if (classes > 1 && labels.count != classes) {
    return ctx.Error("attribute '" + labels.attr + "' holds " + std::to_string(labels.count) +
                     " labels for " + std::to_string(classes) + " intercepts");
  }
  return Status::Ok();
}

// LinearClassifier: one score per intercept, two when one intercept has two labels (binary).
Status InferLinearClassifier(InferContext& ctx) {
  const auto classes = static_cast<int64_t>(ctx.AttrFloats("intercepts").size());
  if (classes == 0) return ctx.Error("attribute 'intercepts' must have one value per class");
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_ints", /*required=*/classes > 1));
  const bool binary = classes == 1 && labels.count == 2;
  return InferLabelsAndScores(ctx, labels, binary ? 2 : classes);
}

// SVMClassifier: at least two labels, and with support vectors a count of them per label.
Status VerifySvmClassifier(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_ints", /*required=*/true));
  GE_RETURN_IF_ERROR(NeedTwoLabels(ctx, labels));
  const auto per_class = static_cast<int64_t>(ctx.AttrInts("vectors_per_class").size());
  if (per_class > 0 && per_class != labels.count) {
    return ctx.Error("attribute 'vectors_per_class' has " + std::to_string(per_class) +
                     " counts but '" + labels.attr + "' " + std::to_string(labels.count) +
                     " labels");
  }
  return Status::Ok();
}

// SVMClassifier: with support vectors, one score per pair of classes (two for two classes), or
// with prob_a one probability per class; without, one score per class.
Status InferSvmClassifier(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ClassLabels labels,
                      ClassLabelsOf(ctx, "classlabels_ints", /*required=*/true));
  GE_RETURN_IF_ERROR(NeedTwoLabels(ctx, labels));
  const int64_t classes = labels.count;
  int64_t vectors = 0;
  for (int64_t c : ctx.AttrInts("vectors_per_class")) vectors += c;
  const bool pairwise = vectors > 0 && ctx.AttrFloats("prob_a").empty();
  const int64_t pairs = classes * (classes - 1) / 2;
  return InferLabelsAndScores(ctx, labels, pairwise ? std::max<int64_t>(pairs, 2) : classes);
}

// OneHotEncoder's categories: how many, and whether they are cats_strings (else cats_int64s).
// Exactly one of the two lists is set.
struct OneHotCategories {
  int64_t count = 0;
  bool strings = false;
};

Result<OneHotCategories> OneHotCategoriesOf(const InferContext& ctx) {
  const auto ints = static_cast<int64_t>(ctx.AttrInts("cats_int64s").size());
  const AttrValue* attr = ctx.FindAttr("cats_strings");
  const auto* names = attr == nullptr ? nullptr : attr->Get<std::vector<std::string>>();
  const auto strings = static_cast<int64_t>(names == nullptr ? 0 : names->size());
  if (ints > 0 && strings > 0) {
    return ctx.Error(
        "both cats_int64s and cats_strings are set; the categories are one or the "
        "other");
  }
  if (ints == 0 && strings == 0) {
    return ctx.Error("neither cats_int64s nor cats_strings is set: there are no categories");
  }
  return OneHotCategories{strings > 0 ? strings : ints, strings > 0};
}

// X is a string tensor for cats_strings, a numeric one for cats_int64s.
Status VerifyOneHotEncoder(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const OneHotCategories cats, OneHotCategoriesOf(ctx));
  const DataType x = ctx.InputDataType(0);
  if (x != DT_UNDEFINED && (x == DT_STRING) != cats.strings) {
    return ctx.Error(ctx.DescribeInput(0) + " is " + TypeUtils::DataTypeToSerialString(x) +
                     " but the categories (" + (cats.strings ? "cats_strings" : "cats_int64s") +
                     ") are " + (cats.strings ? "strings" : "integers"));
  }
  return Status::Ok();
}

// OneHotEncoder: X [...] → Y float [..., categories].
Status InferOneHotEncoder(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const OneHotCategories cats, OneHotCategoriesOf(ctx));
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutput(0, UnknownRankShape(), DT_FLOAT);
  std::vector<int64_t> dims = x.GetDims();
  dims.push_back(cats.count);
  return ctx.SetOutput(0, GeShape(dims), DT_FLOAT);
}

// FeatureVectorizer: inputs [N, Ci] → Y float [N, sum of inputdimensions].
Status InferFeatureVectorizer(InferContext& ctx) {
  int64_t total = 0;
  for (int64_t d : ctx.AttrInts("inputdimensions")) total += d;
  GE_ASSIGN_OR_RETURN(const int64_t rows, RowsOf(ctx));
  return ctx.SetOutput(0, GeShape({rows, total}), DT_FLOAT);
}

// The attribute a LabelEncoder takes its keys or values from, their dtype and how many there are.
struct LabelColumn {
  std::string attr;
  DataType dtype = DT_UNDEFINED;
  int64_t count = 0;
};

// LabelEncoder's element types (ai.onnx.ml 4; 2 has string, int64 and float only).
TensorType LabelTypes() {
  return TensorType{DT_STRING, DT_INT64, DT_FLOAT, DT_INT32, DT_INT16, DT_DOUBLE};
}

// The one of `prefix`_strings, _int64s, _floats and _tensor that the node sets (a list is set
// when it is not empty).
Result<LabelColumn> LabelColumnOf(const InferContext& ctx, const std::string& prefix) {
  std::vector<LabelColumn> set;
  const auto list = [&](const std::string& suffix, DataType dtype, auto tag) {
    const AttrValue* a = ctx.FindAttr(prefix + suffix);
    const auto* v = a == nullptr ? nullptr : a->Get<decltype(tag)>();
    if (v != nullptr && !v->empty()) {
      set.push_back({prefix + suffix, dtype, static_cast<int64_t>(v->size())});
    }
  };
  list("_strings", DT_STRING, std::vector<std::string>{});
  list("_int64s", DT_INT64, std::vector<int64_t>{});
  list("_floats", DT_FLOAT, std::vector<float>{});
  const AttrValue* t = ctx.FindAttr(prefix + "_tensor");
  if (const auto* tensor = t == nullptr ? nullptr : t->Get<GeTensor>(); tensor != nullptr) {
    const GeTensorDesc& desc = tensor->GetTensorDesc();
    if (!LabelTypes().Contains(desc.GetDataType())) {
      return ctx.Error("attribute '" + prefix + "_tensor' has dtype " +
                       TypeUtils::DataTypeToSerialString(desc.GetDataType()) + ", not one of " +
                       LabelTypes().ToString());
    }
    set.push_back({prefix + "_tensor", desc.GetDataType(), desc.GetShape().GetElementCount()});
  }
  const std::string names =
      prefix + "_strings, " + prefix + "_int64s, " + prefix + "_floats or " + prefix + "_tensor";
  if (set.empty()) return ctx.Error("one of " + names + " must be set");
  if (set.size() > 1) {
    return ctx.Error("only one of " + names + " may be set, not both " + set[0].attr + " and " +
                     set[1].attr);
  }
  return set[0];
}

Status VerifyLabelEncoder(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const LabelColumn keys, LabelColumnOf(ctx, "keys"));
  GE_ASSIGN_OR_RETURN(const LabelColumn values, LabelColumnOf(ctx, "values"));
  if (keys.count != values.count) {
    return ctx.Error(keys.attr + " holds " + std::to_string(keys.count) + " keys but " +
                     values.attr + " " + std::to_string(values.count) + " values");
  }
  const DataType x = ctx.InputDataType(0);
  if (x != DT_UNDEFINED && x != keys.dtype) {
    return ctx.Error(ctx.DescribeInput(0) + " is " + TypeUtils::DataTypeToSerialString(x) +
                     " but its keys (" + keys.attr + ") are " +
                     TypeUtils::DataTypeToSerialString(keys.dtype));
  }
  const auto* fallback = AttrUtils::GetPtr<GeTensor>(ctx.op(), "default_tensor");
  if (fallback != nullptr && (fallback->GetTensorDesc().GetDataType() != values.dtype ||
                              fallback->GetTensorDesc().GetShape().GetElementCount() != 1)) {
    return ctx.Error("attribute 'default_tensor' must be one " +
                     TypeUtils::DataTypeToSerialString(values.dtype) + " value, as " + values.attr +
                     " are");
  }
  return Status::Ok();
}

// Y has X's shape and the values' dtype.
Status InferLabelEncoder(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(const LabelColumn values, LabelColumnOf(ctx, "values"));
  return ctx.SetOutput(0, ctx.InputShape(0), values.dtype);
}

Status VerifyCategoryMapper(InferContext& ctx) {
  const AttrValue* cats = ctx.FindAttr("cats_strings");
  const auto* strings = cats == nullptr ? nullptr : cats->Get<std::vector<std::string>>();
  const size_t count = strings == nullptr ? 0 : strings->size();
  const size_t ints = ctx.AttrInts("cats_int64s").size();
  if (count != ints) {
    return ctx.Error("cats_strings holds " + std::to_string(count) + " strings but cats_int64s " +
                     std::to_string(ints) + " integers");
  }
  return Status::Ok();
}

// The attributes TreeEnsembleRegressor and TreeEnsembleClassifier share; `weights` is "target"
// or "class" (the prefix of the leaves' weight lists).
OpProtoBuilder& WithTreeNodes(OpProtoBuilder&& b, const std::string& weights) {
  using T = AttrValue::Type;
  for (const char* name :
       {"nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_truenodeids",
        "nodes_falsenodeids", "nodes_missing_value_tracks_true"}) {
    b.OptionalAttr(name, T::kListInt);
  }
  for (const std::string& name : {weights + "_treeids", weights + "_nodeids", weights + "_ids"}) {
    b.OptionalAttr(name, T::kListInt);
  }
  for (const std::string& name : {std::string("nodes_values"), std::string("nodes_hitrates"),
                                  std::string("base_values"), weights + "_weights"}) {
    b.OptionalAttr(name, T::kListFloat);
    b.OptionalAttr(name + "_as_tensor", T::kTensor);
  }
  b.OptionalAttr("nodes_modes", T::kListString);
  b.Attr("post_transform", "NONE");
  return b;
}

}  // namespace

void RegisterMlOps(OpProtoRegistrar& r) {
  const TensorType numbers = TensorType{DT_FLOAT, DT_DOUBLE, DT_INT64, DT_INT32};
  r.Register(OpProtoBuilder("Binarizer")
                 .TypeConstraint("T", numbers)
                 .Input("X", "T")
                 .Output("Y", "T")
                 .Attr("threshold", 0.0F)
                 .InferShape(InferSameShape)
                 .Build());
  r.Register(OpProtoBuilder("ArrayFeatureExtractor")
                 .TypeConstraint("T", numbers | TensorType::BOOL())
                 .Input("X", "T")
                 .Input("Y", {DT_INT64})
                 .Output("Z", "T")
                 .InferShape(InferArrayFeatureExtractor)
                 .Build());
  const TensorType features = TensorType{DT_FLOAT, DT_DOUBLE, DT_INT64, DT_INT32};
  r.Register(OpProtoBuilder("Scaler")  // Y = (X - offset) * scale, per feature or for all
                 .Input("X", features)
                 .Output("Y", {DT_FLOAT})
                 .Attr("offset", std::vector<float>{})
                 .Attr("scale", std::vector<float>{})
                 .InferShape(InferFloatSameShape)
                 .Build());
  r.Register(OpProtoBuilder("Normalizer")  // each row divided by its MAX, L1 or L2 norm
                 .Input("X", features)
                 .Output("Y", {DT_FLOAT})
                 .Attr("norm", "MAX")
                 .InferShape(InferFloatSameShape)
                 .Verify([](InferContext& ctx) {
                   const std::string n = ctx.AttrStr("norm", "MAX");
                   if (n != "MAX" && n != "L1" && n != "L2") {
                     return ctx.Error("attribute 'norm' must be MAX, L1 or L2, not '" + n + "'");
                   }
                   return Status::Ok();
                 })
                 .Build());
  r.Register(OpProtoBuilder("LinearRegressor")  // Y = X coefficients^T + intercepts
                 .Input("X", features)
                 .Output("Y", {DT_FLOAT})
                 .Attr("coefficients", std::vector<float>{})
                 .Attr("intercepts", std::vector<float>{})
                 .Attr("targets", 1)
                 .Attr("post_transform", "NONE")
                 .InferShape([](InferContext& ctx) { return InferFloatRows(ctx, "targets", 1); })
                 .Build());
  r.Register(
      OpProtoBuilder("TreeEnsemble")
          .TypeConstraint("T", TensorType{DT_FLOAT, DT_DOUBLE, DT_FLOAT16})
          .Input("X", "T")
          .Output("Y", "T")
          .Attr("aggregate_function", 1)  // 0 AVERAGE, 1 SUM, 2 MIN, 3 MAX
          .Attr("post_transform", 0)      // 0 NONE, 1 SOFTMAX, 2 LOGISTIC, 3 SOFTMAX_ZERO, 4 PROBIT
          .RequiredAttr("n_targets", AttrValue::Type::kInt)
          .RequiredAttr("tree_roots", AttrValue::Type::kListInt)
          .RequiredAttr("nodes_featureids", AttrValue::Type::kListInt)
          .RequiredAttr("nodes_splits", AttrValue::Type::kTensor)
          .RequiredAttr("nodes_modes", AttrValue::Type::kTensor)
          .RequiredAttr("nodes_truenodeids", AttrValue::Type::kListInt)
          .RequiredAttr("nodes_falsenodeids", AttrValue::Type::kListInt)
          .RequiredAttr("nodes_trueleafs", AttrValue::Type::kListInt)
          .RequiredAttr("nodes_falseleafs", AttrValue::Type::kListInt)
          .OptionalAttr("nodes_missing_value_tracks_true", AttrValue::Type::kListInt)
          .OptionalAttr("nodes_hitrates", AttrValue::Type::kTensor)
          .OptionalAttr("membership_values", AttrValue::Type::kTensor)
          .RequiredAttr("leaf_targetids", AttrValue::Type::kListInt)
          .RequiredAttr("leaf_weights", AttrValue::Type::kTensor)
          .InferShape(InferTreeEnsemble)
          .Build());
  // ai.onnx.ml 1 and 3: nodes named by (tree, node) id, leaves by the mode LEAF, weights per
  // (leaf, target or class); the float lists may come as tensors (`name`_as_tensor, ml 3).
  r.Register(WithTreeNodes(OpProtoBuilder("TreeEnsembleRegressor"), "target")
                 .Input("X", features)
                 .Output("Y", {DT_FLOAT})
                 .Attr("n_targets", 1)
                 .Attr("aggregate_function", "SUM")
                 .InferShape([](InferContext& ctx) { return InferFloatRows(ctx, "n_targets", 1); })
                 .Build());
  r.Register(WithTreeNodes(OpProtoBuilder("TreeEnsembleClassifier"), "class")
                 .Input("X", features)
                 .Output("Y", {DT_INT64, DT_STRING})
                 .Output("Z", {DT_FLOAT})
                 .OptionalAttr("classlabels_int64s", AttrValue::Type::kListInt)
                 .OptionalAttr("classlabels_strings", AttrValue::Type::kListString)
                 .Verify(VerifyTreeClassifier)
                 .InferShape(InferClassifier)
                 .Build());
  r.Register(OpProtoBuilder("LinearClassifier")  // scores = X coefficients^T + intercepts
                 .Input("X", features)
                 .Output("Y", {DT_INT64, DT_STRING})
                 .Output("Z", {DT_FLOAT})
                 .OptionalAttr("coefficients", AttrValue::Type::kListFloat)
                 .OptionalAttr("intercepts", AttrValue::Type::kListFloat)
                 .OptionalAttr("classlabels_ints", AttrValue::Type::kListInt)
                 .OptionalAttr("classlabels_strings", AttrValue::Type::kListString)
                 .Attr("multi_class", 0)
                 .Attr("post_transform", "NONE")
                 .Verify(VerifyLinearClassifier)
                 .InferShape(InferLinearClassifier)
                 .Build());
  r.Register(OpProtoBuilder("SVMRegressor")
                 .Input("X", features)
                 .Output("Y", {DT_FLOAT})
                 .OptionalAttr("coefficients", AttrValue::Type::kListFloat)
                 .OptionalAttr("support_vectors", AttrValue::Type::kListFloat)
                 .OptionalAttr("kernel_params", AttrValue::Type::kListFloat)
                 .OptionalAttr("rho", AttrValue::Type::kListFloat)
                 .Attr("kernel_type", "LINEAR")
                 .Attr("n_supports", 0)
                 .Attr("one_class", 0)
                 .Attr("post_transform", "NONE")
                 .InferShape([](InferContext& ctx) { return InferFloatRows(ctx, "", 1); })
                 .Build());
  r.Register(OpProtoBuilder("SVMClassifier")
                 .Input("X", features)
                 .Output("Y", {DT_INT64, DT_STRING})
                 .Output("Z", {DT_FLOAT})
                 .OptionalAttr("classlabels_ints", AttrValue::Type::kListInt)
                 .OptionalAttr("classlabels_strings", AttrValue::Type::kListString)
                 .OptionalAttr("coefficients", AttrValue::Type::kListFloat)
                 .OptionalAttr("support_vectors", AttrValue::Type::kListFloat)
                 .OptionalAttr("vectors_per_class", AttrValue::Type::kListInt)
                 .OptionalAttr("kernel_params", AttrValue::Type::kListFloat)
                 .OptionalAttr("rho", AttrValue::Type::kListFloat)
                 .OptionalAttr("prob_a", AttrValue::Type::kListFloat)
                 .OptionalAttr("prob_b", AttrValue::Type::kListFloat)
                 .Attr("kernel_type", "LINEAR")
                 .Attr("post_transform", "NONE")
                 .Verify(VerifySvmClassifier)
                 .InferShape(InferSvmClassifier)
                 .Build());
  r.Register(OpProtoBuilder("Imputer")  // replaced values (or NaN) → the feature's imputed value
                 .TypeConstraint("T", numbers)
                 .Input("X", "T")
                 .Output("Y", "T")
                 .OptionalAttr("imputed_value_floats", AttrValue::Type::kListFloat)
                 .OptionalAttr("imputed_value_int64s", AttrValue::Type::kListInt)
                 .Attr("replaced_value_float", 0.0F)
                 .Attr("replaced_value_int64", 0)
                 .InferShape(InferSameShape)
                 .Build());
  // Each element of X becomes a row with a 1 at its category (of cats_int64s for a numeric X,
  // cast to integers; of cats_strings for a string X) and 0 elsewhere.
  r.Register(OpProtoBuilder("OneHotEncoder")
                 .Input("X", TensorType{DT_STRING, DT_FLOAT, DT_DOUBLE, DT_INT64, DT_INT32})
                 .Output("Y", {DT_FLOAT})
                 .OptionalAttr("cats_int64s", AttrValue::Type::kListInt)
                 .OptionalAttr("cats_strings", AttrValue::Type::kListString)
                 .Attr("zeros", 1)
                 .Verify(VerifyOneHotEncoder)
                 .InferShape(InferOneHotEncoder)
                 .Build());
  r.Register(OpProtoBuilder("FeatureVectorizer")
                 .DynamicInput("X", features)
                 .Output("Y", {DT_FLOAT})
                 .OptionalAttr("inputdimensions", AttrValue::Type::kListInt)
                 .InferShape(InferFeatureVectorizer)
                 .Build());
  // Each element of X found among the keys becomes the value of the same place (the last of
  // equal keys wins; a NaN key matches every NaN), any other the default of the values' type.
  r.Register(OpProtoBuilder("LabelEncoder")
                 .Input("X", LabelTypes())
                 .Output("Y", LabelTypes())
                 .OptionalAttr("keys_strings", AttrValue::Type::kListString)
                 .OptionalAttr("keys_int64s", AttrValue::Type::kListInt)
                 .OptionalAttr("keys_floats", AttrValue::Type::kListFloat)
                 .OptionalAttr("keys_tensor", AttrValue::Type::kTensor)
                 .OptionalAttr("values_strings", AttrValue::Type::kListString)
                 .OptionalAttr("values_int64s", AttrValue::Type::kListInt)
                 .OptionalAttr("values_floats", AttrValue::Type::kListFloat)
                 .OptionalAttr("values_tensor", AttrValue::Type::kTensor)
                 .Attr("default_string", std::string("_Unused"))
                 .Attr("default_int64", -1)
                 .Attr("default_float", -0.0F)
                 .OptionalAttr("default_tensor", AttrValue::Type::kTensor)
                 .Verify(VerifyLabelEncoder)
                 .InferShape(InferLabelEncoder)
                 .Build());
  // Strings to int64 (cats_strings[i] → cats_int64s[i], else default_int64) or int64 to strings
  // (the reverse, else default_string), by X's dtype. The ONNX frontend maps LabelEncoder of
  // ai.onnx.ml 1 here (its classes_strings are the strings of 0, 1, ...).
  r.Register(OpProtoBuilder("CategoryMapper")
                 .Input("X", {DT_STRING, DT_INT64})
                 .Output("Y", {DT_STRING, DT_INT64})
                 .Attr("cats_strings", std::vector<std::string>{})
                 .Attr("cats_int64s", std::vector<int64_t>{})
                 .Attr("default_string", std::string("_Unused"))
                 .Attr("default_int64", -1)
                 .Verify(VerifyCategoryMapper)
                 .InferShape([](InferContext& ctx) {
                   const bool from_strings = ctx.InputDataType(0) == DT_STRING;
                   return ctx.SetOutput(0, ctx.InputShape(0), from_strings ? DT_INT64 : DT_STRING);
                 })
                 .Build());
}

}  // namespace ge::builtin

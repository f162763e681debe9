// ai.onnx.ml kernels: Binarizer, ArrayFeatureExtractor, Scaler, Normalizer and LinearRegressor,
// and the helpers the domain's other kernels share (ml_util.h). The feature kernels read any
// numeric input as double and write float, as the domain defines. The tree ensembles are in
// ml_tree_kernels.cc, LinearClassifier, the SVMs and the other feature operators in
// ml_classifier_kernels.cc, LabelEncoder and CategoryMapper in ml_label_kernels.cc.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ge/graph/utils/attr_utils.h"
#include "half_float_util.h"
#include "kernel_util.h"
#include "ml_util.h"

namespace ge::host_cpu {
namespace {

class BinarizerKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != x.spec.dims || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      const int64_t n = NumElements(x.spec.dims);
      for (int64_t i = 0; i < n; ++i) {
        out[i] = static_cast<double>(in[i]) > threshold_ ? T(1) : T(0);
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    threshold_ = AttrFloat("threshold", 0.0F);
    return Status::Ok();
  }
  double threshold_ = 0;
};

class ArrayFeatureExtractorKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& z = args.outputs[0];
    std::vector<int64_t> indices;
    if (!ReadInts(args.inputs[1], &indices)) return Error("indices must be int64");
    if (x.spec.dims.empty()) return Error("input must have rank >= 1");
    const int64_t features = x.spec.dims.back();
    const int64_t rows = features == 0 ? 0 : NumElements(x.spec.dims) / features;
    const auto k = static_cast<int64_t>(indices.size());
    if (NumElements(z.spec.dims) != rows * k || z.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(z.spec.dims) + " should hold " + std::to_string(rows) +
                   " x " + std::to_string(k) + " elements");
    }
    for (int64_t i : indices) {
      if (i < 0 || i >= features) {
        return Error("index " + std::to_string(i) + " is out of range for " +
                     std::to_string(features) + " features");
      }
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    const auto* in = static_cast<const uint8_t*>(x.data);
    auto* out = static_cast<uint8_t*>(z.data);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t j = 0; j < k; ++j) {
        std::memcpy(out + (r * k + j) * eb, in + (r * features + indices[j]) * eb,
                    static_cast<size_t>(eb));
      }
    }
    return Status::Ok();
  }
};

// Scaler (y = (x - offset) * scale) and Normalizer (each row over its MAX, L1 or L2 norm).
template <bool kNormalizer>
class FeatureKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelOutput& y = args.outputs[0];
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    if (y.spec.dtype != DT_FLOAT || NumElements(y.spec.dims) != rows * features) {
      return Error("output must be float32 of the input's shape");
    }
    auto* out = static_cast<float*>(y.data);
    for (int64_t r = 0; r < rows; ++r) {
      double* row = v.data() + r * features;
      if constexpr (kNormalizer) {
        double norm = 0;
        for (int64_t f = 0; f < features; ++f) {
          norm = norm_ == "MAX"  ? (f == 0 ? row[f] : std::max(norm, row[f]))
                 : norm_ == "L1" ? norm + std::fabs(row[f])
                                 : norm + row[f] * row[f];
        }
        if (norm_ == "L2") norm = std::sqrt(norm);
        for (int64_t f = 0; f < features; ++f) row[f] = norm == 0 ? 0 : row[f] / norm;
      } else {
        if ((offset_.size() > 1 && static_cast<int64_t>(offset_.size()) != features) ||
            (scale_.size() > 1 && static_cast<int64_t>(scale_.size()) != features)) {
          return Error("offset and scale must have one value or one per feature (" +
                       std::to_string(features) + ")");
        }
        for (int64_t f = 0; f < features; ++f) {
          const auto k = static_cast<size_t>(f);
          const double offset = offset_.empty() ? 0.0 : offset_[offset_.size() > 1 ? k : 0];
          const double scale = scale_.empty() ? 1.0 : scale_[scale_.size() > 1 ? k : 0];
          row[f] = (row[f] - offset) * scale;
        }
      }
      for (int64_t f = 0; f < features; ++f) out[r * features + f] = static_cast<float>(row[f]);
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    norm_ = AttrStr("norm", "MAX");
    if (kNormalizer && norm_ != "MAX" && norm_ != "L1" && norm_ != "L2") {
      return Error("attribute 'norm' must be MAX, L1 or L2, not '" + norm_ + "'");
    }
    const std::vector<float> offset = AttrFloats("offset"), scale = AttrFloats("scale");
    offset_.assign(offset.begin(), offset.end());
    scale_.assign(scale.begin(), scale.end());
    return Status::Ok();
  }
  std::string norm_;
  std::vector<double> offset_, scale_;
};

// LinearRegressor: y[n, t] = sum_f x[n, f] coefficients[t, f] + intercepts[t], then
// post_transform over each row of targets.
class LinearRegressorKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelOutput& y = args.outputs[0];
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    if (static_cast<int64_t>(coefficients_.size()) != targets_ * features) {
      return Error("coefficients has " + std::to_string(coefficients_.size()) +
                   " values; targets " + std::to_string(targets_) + " x " +
                   std::to_string(features) + " features need " +
                   std::to_string(targets_ * features));
    }
    if (y.spec.dtype != DT_FLOAT || y.spec.dims != std::vector<int64_t>{rows, targets_}) {
      return Error("output must be float32 [" + std::to_string(rows) + ", " +
                   std::to_string(targets_) + "]");
    }
    auto* out = static_cast<float*>(y.data);
    std::vector<double> row(static_cast<size_t>(targets_));
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t t = 0; t < targets_; ++t) {
        double acc = intercepts_.empty() ? 0.0 : intercepts_[static_cast<size_t>(t)];
        for (int64_t f = 0; f < features; ++f) {
          acc += v[static_cast<size_t>(r * features + f)] *
                 coefficients_[static_cast<size_t>(t * features + f)];
        }
        row[static_cast<size_t>(t)] = acc;
      }
      PostTransform(post_, row);
      for (int64_t t = 0; t < targets_; ++t) {
        out[r * targets_ + t] = static_cast<float>(row[static_cast<size_t>(t)]);
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    targets_ = AttrInt("targets", 1);
    const std::vector<float> c = AttrFloats("coefficients"), b = AttrFloats("intercepts");
    coefficients_.assign(c.begin(), c.end());
    intercepts_.assign(b.begin(), b.end());
    if (!PostTransformNamed(AttrStr("post_transform", "NONE"), &post_))
      return Error("attribute 'post_transform' '" + AttrStr("post_transform", "") + "' is unknown");
    if (targets_ <= 0 ||
        (!intercepts_.empty() && static_cast<int64_t>(intercepts_.size()) != targets_)) {
      return Error("targets must be positive and intercepts have one value per target");
    }
    return Status::Ok();
  }
  int64_t targets_ = 1;
  std::vector<double> coefficients_, intercepts_;
  Post post_ = Post::kNone;
};

}  // namespace

double Probit(double p) {  // Newton's method on erfc: solve Phi(z) = p
  if (p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return std::numeric_limits<double>::infinity();
  double z = 0;
  for (int i = 0; i < 50; ++i) {
    const double phi = 0.5 * std::erfc(-z / std::sqrt(2.0));
    const double density = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
    const double step = (phi - p) / density;
    z -= step;
    if (std::fabs(step) < 1e-15) break;
  }
  return z;
}

double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

void PostTransform(Post post, std::vector<double>& v) {
  switch (post) {
    case Post::kNone:
      return;
    case Post::kLogistic:
      for (double& x : v) x = Logistic(x);
      return;
    case Post::kProbit:
      for (double& x : v) x = Probit(x);
      return;
    case Post::kSoftmax:
    case Post::kSoftmaxZero: {
      const bool skip_zero = post == Post::kSoftmaxZero;
      double m = -std::numeric_limits<double>::infinity();
      for (double x : v) {
        if (!(skip_zero && x == 0)) m = std::max(m, x);
      }
      double sum = 0;
      for (double& x : v) {
        x = skip_zero && x == 0 ? 0 : std::exp(x - m);
        sum += x;
      }
      if (sum > 0) {
        for (double& x : v) x /= sum;
      }
      return;
    }
  }
}

bool PostTransformNamed(const std::string& name, Post* post) {
  static const std::pair<const char*, Post> kNames[] = {{"NONE", Post::kNone},
                                                        {"SOFTMAX", Post::kSoftmax},
                                                        {"LOGISTIC", Post::kLogistic},
                                                        {"SOFTMAX_ZERO", Post::kSoftmaxZero},
                                                        {"PROBIT", Post::kProbit}};
  for (const auto& [text, value] : kNames) {
    if (name == text) {
      *post = value;
      return true;
    }
  }
  return false;
}

Status ReadFeatures(const KernelTensor& x, std::vector<double>& values, int64_t& rows,
                    int64_t& features) {
  const auto& d = x.spec.dims;
  if (d.size() != 1 && d.size() != 2) {
    return ParamInvalid("the input must be [N, features] or [features], not " + DimsToString(d));
  }
  features = d.back();
  rows = d.size() == 2 ? d[0] : 1;
  values.resize(static_cast<size_t>(rows * features));
  const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* in = static_cast<const T*>(x.data);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(in[i]);
  });
  return ok ? Status::Ok()
            : ParamInvalid("input dtype " + DtypeName(x.spec.dtype) + " is not supported");
}

Status TensorAttrDoubles(const OpDesc& op, const std::string& name, std::vector<double>* out) {
  const auto* t = AttrUtils::GetPtr<GeTensor>(op, name);
  if (t == nullptr) return ParamInvalid("attribute '" + name + "' is missing");
  const DataType dt = t->GetTensorDesc().GetDataType();
  const int64_t eb = ElementBytes(dt);
  const int64_t count = eb > 0 ? static_cast<int64_t>(t->GetData().size()) / eb : 0;
  out->resize(static_cast<size_t>(count));
  const uint8_t* bytes = t->GetData().data();
  bool ok = DispatchNumeric(dt, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, bytes + i * eb, sizeof(T));
      (*out)[static_cast<size_t>(i)] = static_cast<double>(v);
    }
  });
  if (!ok) {
    ok = DispatchHalf(dt, [&](auto tag) {
      using H = decltype(tag);
      for (int64_t i = 0; i < count; ++i) {
        H v;
        std::memcpy(&v, bytes + i * eb, sizeof(H));
        (*out)[static_cast<size_t>(i)] = static_cast<double>(ToFloat(v));
      }
    });
  }
  return ok ? Status::Ok()
            : ParamInvalid("attribute '" + name + "' has dtype " + DtypeName(dt) +
                           ", which is not supported");
}

Status FloatsOrTensor(const OpDesc& op, const std::string& name, std::vector<double>* out) {
  if (op.HasAttr(name + "_as_tensor")) return TensorAttrDoubles(op, name + "_as_tensor", out);
  std::vector<float> values;
  (void)AttrUtils::GetListFloat(op, name, values);
  out->assign(values.begin(), values.end());
  return Status::Ok();
}

std::vector<std::string> AttrStrings(const OpDesc& op, const std::string& name) {
  std::vector<std::string> values;
  (void)AttrUtils::GetListStr(op, name, values);
  return values;
}

Status ClassLabels::Read(const OpDesc& op, const std::string& ints_attr, bool required) {
  ints_.clear();
  names_.clear();
  (void)AttrUtils::GetListInt(op, ints_attr, ints_);
  names_ = AttrStrings(op, "classlabels_strings");
  if (!ints_.empty() && !names_.empty()) {
    return ParamInvalid("both " + ints_attr +
                        " and classlabels_strings are set; a classifier's labels are one or the "
                        "other");
  }
  if (required && ints_.empty() && names_.empty()) {
    return ParamInvalid("neither " + ints_attr + " nor classlabels_strings is set");
  }
  strings_ = !names_.empty();
  attr_ = strings_ ? "classlabels_strings" : ints_attr;
  return Status::Ok();
}

void ClassLabels::UseZeroAndOne() {
  if (strings_) {
    names_ = {"0", "1"};
  } else {
    ints_ = {0, 1};
  }
}

void RegisterMlKernels(KernelTable& t) {
  t.Add("Binarizer", MakeKernel<BinarizerKernel>);
  t.Add("ArrayFeatureExtractor", MakeKernel<ArrayFeatureExtractorKernel>);
  t.Add("Scaler", MakeKernel<FeatureKernel</*kNormalizer=*/false>>);
  t.Add("Normalizer", MakeKernel<FeatureKernel</*kNormalizer=*/true>>);
  t.Add("LinearRegressor", MakeKernel<LinearRegressorKernel>);
  RegisterMlTreeKernels(t);
  RegisterMlClassifierKernels(t);
  RegisterMlLabelKernels(t);
}

}  // namespace ge::host_cpu

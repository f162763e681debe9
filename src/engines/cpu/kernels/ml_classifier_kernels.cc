// ai.onnx.ml's linear and SVM models and the feature operators scikit-learn pipelines write
// around their models: LinearClassifier, SVMRegressor, SVMClassifier, Imputer, OneHotEncoder and
// FeatureVectorizer. The classifiers' labels are int64 or strings (ClassLabels): the kernels choose
// a label's index and write that label, whichever its form; OneHotEncoder's categories are int64
// (for a numeric input) or strings (for a string input).
//
// Where ONNX leaves the result open, the kernels follow ONNX Runtime, the reference runtime of
// the domain: a LinearClassifier with one score column and two labels is binary (label 1 when the
// score s is positive) and writes the scores [1 - p, p], p the logistic of s under LOGISTIC and
// s itself under NONE, SOFTMAX and SOFTMAX_ZERO; with one score column and any other number of
// labels its label is 1 or 0 ("1" or "0" for string labels) by the same sign; SVMRegressor applies
// PROBIT only; a two-class SVMClassifier without probabilities writes [-s, s] (NONE) or [1 - p, p].
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/string_utils.h"
#include "kernel_util.h"
#include "ml_util.h"

namespace ge::host_cpu {
namespace {

// LinearClassifier: scores[n, c] = x[n] . coefficients[c] + intercepts[c]; the label is the
// class of the first highest score, or with one score column, label 1 when it is positive.
class LinearClassifierKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 2));
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    const auto classes = static_cast<int64_t>(intercepts_.size());
    if (static_cast<int64_t>(coefficients_.size()) != classes * features) {
      return Error("coefficients has " + std::to_string(coefficients_.size()) + " values; " +
                   std::to_string(classes) + " classes x " + std::to_string(features) +
                   " features need " + std::to_string(classes * features));
    }
    const KernelOutput& y = args.outputs[0];
    const KernelOutput& z = args.outputs[1];
    const int64_t columns = binary_ ? 2 : classes;
    if (y.spec.dtype != labels_.dtype() || NumElements(y.spec.dims) != rows ||
        z.spec.dtype != DT_FLOAT || z.spec.dims != std::vector<int64_t>{rows, columns}) {
      return Error("outputs must be " + std::string(labels_.dtype_name()) + " [" +
                   std::to_string(rows) + "] and float32 [" + std::to_string(rows) + ", " +
                   std::to_string(columns) + "]");
    }
    auto* out = static_cast<float*>(z.data);
    std::vector<double> s(static_cast<size_t>(classes));
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < classes; ++c) {
        double acc = intercepts_[static_cast<size_t>(c)];
        for (int64_t f = 0; f < features; ++f) {
          acc += v[static_cast<size_t>(r * features + f)] *
                 coefficients_[static_cast<size_t>(c * features + f)];
        }
        s[static_cast<size_t>(c)] = acc;
      }
      labels_.Write(y.data, r,
                    classes == 1
                        ? (s[0] > 0 ? 1 : 0)
                        : static_cast<size_t>(std::max_element(s.begin(), s.end()) - s.begin()));
      if (binary_) {  // SOFTMAX of one score would be 1: ONNX Runtime leaves it
        const double p = post_ == Post::kLogistic ? Logistic(s[0]) : s[0];
        s = {1 - p, p};
        if (post_ == Post::kProbit) PostTransform(post_, s);
      } else {
        PostTransform(post_, s);
      }
      for (int64_t c = 0; c < columns; ++c) {
        out[r * columns + c] = static_cast<float>(s[static_cast<size_t>(c)]);
      }
      s.resize(static_cast<size_t>(classes));
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    const std::vector<float> c = AttrFloats("coefficients"), b = AttrFloats("intercepts");
    coefficients_.assign(c.begin(), c.end());
    intercepts_.assign(b.begin(), b.end());
    if (!PostTransformNamed(AttrStr("post_transform", "NONE"), &post_)) {
      return Error("post_transform '" + AttrStr("post_transform", "") + "' is unknown");
    }
    if (intercepts_.empty()) return Error("intercepts must have one value per class");
    GE_RETURN_IF_ERROR(
        Named(labels_.Read(*op_, "classlabels_ints", /*required=*/intercepts_.size() > 1)));
    if (intercepts_.size() > 1 && labels_.size() != intercepts_.size()) {
      return Error(labels_.attr() + " has " + std::to_string(labels_.size()) + " labels for " +
                   std::to_string(intercepts_.size()) + " classes");
    }
    binary_ = intercepts_.size() == 1 && labels_.size() == 2;
    // One score column without two labels: the label is 1 or 0 by the score's sign.
    if (intercepts_.size() == 1 && !binary_) labels_.UseZeroAndOne();
    return Status::Ok();
  }
  std::vector<double> coefficients_, intercepts_;
  ClassLabels labels_;
  Post post_ = Post::kNone;
  bool binary_ = false;  // one score column, two labels: the scores are [1 - p, p]
};

// An SVM's kernel K(a, b): LINEAR a.b, POLY (gamma a.b + coef0)^degree, RBF
// exp(-gamma |a - b|^2), SIGMOID tanh(gamma a.b + coef0); kernel_params is [gamma, coef0,
// degree] (all 0 when absent).
struct SvmKernel {
  enum class Kind : uint8_t { kLinear, kPoly, kRbf, kSigmoid };
  Kind kind = Kind::kLinear;
  double gamma = 0, coef0 = 0, degree = 0;

  double operator()(const double* a, const double* b, int64_t n) const {
    double acc = 0;
    if (kind == Kind::kRbf) {
      for (int64_t i = 0; i < n; ++i) acc += (a[i] - b[i]) * (a[i] - b[i]);
      return std::exp(-gamma * acc);
    }
    for (int64_t i = 0; i < n; ++i) acc += a[i] * b[i];
    switch (kind) {
      case Kind::kPoly:
        return std::pow(gamma * acc + coef0, degree);
      case Kind::kSigmoid:
        return std::tanh(gamma * acc + coef0);
      default:
        return acc;
    }
  }

  // From kernel_type and kernel_params; "" when they are valid, else the cause.
  std::string Read(const std::string& type, const std::vector<float>& params) {
    if (!params.empty() && params.size() != 3)
      return "kernel_params must be [gamma, coef0, degree]";
    if (params.size() == 3) {
      gamma = params[0];
      coef0 = params[1];
      degree = params[2];
    }
    static const std::pair<const char*, Kind> kNames[] = {{"LINEAR", Kind::kLinear},
                                                          {"POLY", Kind::kPoly},
                                                          {"RBF", Kind::kRbf},
                                                          {"SIGMOID", Kind::kSigmoid}};
    const auto* found = std::find_if(std::begin(kNames), std::end(kNames),
                                     [&](const auto& e) { return type == e.first; });
    if (found == std::end(kNames)) {
      return "kernel_type '" + type + "' is none of LINEAR, POLY, RBF, SIGMOID";
    }
    kind = found->second;
    return "";
  }
};

std::vector<double> Doubles(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// SVMRegressor: y = sum_j coefficients[j] K(x, support_vectors[j]) + rho[0] (n_supports > 0),
// or x . coefficients + rho[0]; one_class gives 1 or -1 by the sign.
class SvmRegressorKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    const int64_t expected = supports_ > 0 ? static_cast<int64_t>(vectors_.size()) / supports_
                                           : static_cast<int64_t>(coefficients_.size());
    if (features != expected) {
      return Error("the input has " + std::to_string(features) + " features; the model " +
                   std::to_string(expected));
    }
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dtype != DT_FLOAT || NumElements(y.spec.dims) != rows) {
      return Error("output must be float32 [" + std::to_string(rows) + ", 1]");
    }
    auto* out = static_cast<float*>(y.data);
    for (int64_t r = 0; r < rows; ++r) {
      const double* x = v.data() + r * features;
      double sum = rho_;
      if (supports_ > 0) {
        for (int64_t j = 0; j < supports_; ++j) {
          sum += coefficients_[static_cast<size_t>(j)] *
                 kernel_(x, vectors_.data() + j * features, features);
        }
      } else {
        for (int64_t f = 0; f < features; ++f) sum += x[f] * coefficients_[static_cast<size_t>(f)];
      }
      if (one_class_) {
        sum = sum > 0 ? 1 : -1;
      } else if (post_ == Post::kProbit) {
        sum = Probit(sum);
      }
      out[r] = static_cast<float>(sum);
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    coefficients_ = Doubles(AttrFloats("coefficients"));
    vectors_ = Doubles(AttrFloats("support_vectors"));
    supports_ = AttrInt("n_supports", 0);
    one_class_ = AttrInt("one_class", 0) != 0;
    const std::vector<float> rho = AttrFloats("rho");
    rho_ = rho.empty() ? 0.0 : rho[0];
    const std::string problem =
        kernel_.Read(AttrStr("kernel_type", "LINEAR"), AttrFloats("kernel_params"));
    if (!problem.empty()) return Error(problem);
    if (supports_ == 0) kernel_.kind = SvmKernel::Kind::kLinear;
    if (!PostTransformNamed(AttrStr("post_transform", "NONE"), &post_)) {
      return Error("post_transform '" + AttrStr("post_transform", "") + "' is unknown");
    }
    if (coefficients_.empty() || supports_ < 0 ||
        (supports_ > 0 && (static_cast<int64_t>(coefficients_.size()) != supports_ ||
                           vectors_.size() % static_cast<size_t>(supports_) != 0))) {
      return Error("coefficients must have one value per support vector (n_supports " +
                   std::to_string(supports_) + ") and support_vectors n_supports rows");
    }
    return Status::Ok();
  }
  std::vector<double> coefficients_, vectors_;
  int64_t supports_ = 0;
  bool one_class_ = false;
  double rho_ = 0;
  SvmKernel kernel_;
  Post post_ = Post::kNone;
};

// libsvm's pairwise coupling: the class probabilities p that best fit the pairwise ones r
// (r[i * k + j]: class i against j), by its fixed-point iteration.
std::vector<double> CoupledProbabilities(size_t k, const std::vector<double>& r) {
  std::vector<double> q(k * k, 0.0), qp(k), p(k, 1.0 / static_cast<double>(k));
  for (size_t t = 0; t < k; ++t) {
    for (size_t j = 0; j < k; ++j) {
      if (j == t) continue;
      q[t * k + t] += r[j * k + t] * r[j * k + t];
      q[t * k + j] = -r[j * k + t] * r[t * k + j];
    }
  }
  const double eps = 0.005 / static_cast<double>(k);
  for (size_t iter = 0; iter < std::max<size_t>(100, k); ++iter) {
    double pqp = 0;
    for (size_t t = 0; t < k; ++t) {
      qp[t] = 0;
      for (size_t j = 0; j < k; ++j) qp[t] += q[t * k + j] * p[j];
      pqp += p[t] * qp[t];
    }
    double max_error = 0;
    for (size_t t = 0; t < k; ++t) max_error = std::max(max_error, std::fabs(qp[t] - pqp));
    if (max_error < eps) break;
    for (size_t t = 0; t < k; ++t) {
      const double diff = (-qp[t] + pqp) / q[t * k + t];
      p[t] += diff;
      pqp = (pqp + diff * (diff * q[t * k + t] + 2 * qp[t])) / (1 + diff) / (1 + diff);
      for (size_t j = 0; j < k; ++j) {
        qp[j] = (qp[j] + diff * q[t * k + j]) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
  return p;
}

// SVMClassifier, as libsvm computes it. With support vectors (vectors_per_class), each pair of
// classes i < j has a decision value (coefficients [classes - 1, vectors], rho per pair) and a
// vote for i when it is positive; the label is the class of most votes. The scores are the
// decision values (two, [-s, s] or [1 - p, p], for two classes), or with prob_a / prob_b the
// class probabilities by pairwise coupling. Without support vectors the model is linear:
// scores[c] = x . coefficients[c] + rho[0] and the label their argmax.
class SvmClassifierKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 2));
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    if (features != features_) {
      return Error("the input has " + std::to_string(features) + " features; the model " +
                   std::to_string(features_));
    }
    const KernelOutput& y = args.outputs[0];
    const KernelOutput& z = args.outputs[1];
    if (y.spec.dtype != labels_.dtype() || NumElements(y.spec.dims) != rows ||
        z.spec.dtype != DT_FLOAT || z.spec.dims != std::vector<int64_t>{rows, columns_}) {
      return Error("outputs must be " + std::string(labels_.dtype_name()) + " [" +
                   std::to_string(rows) + "] and float32 [" + std::to_string(rows) + ", " +
                   std::to_string(columns_) + "]");
    }
    auto* out = static_cast<float*>(z.data);
    for (int64_t r = 0; r < rows; ++r) {
      size_t label = 0;
      std::vector<double> scores = vectors_ > 0 ? Pairwise(v.data() + r * features, &label)
                                                : Linear(v.data() + r * features, &label);
      labels_.Write(y.data, r, label);
      for (int64_t c = 0; c < columns_; ++c) {
        out[r * columns_ + c] = static_cast<float>(scores[static_cast<size_t>(c)]);
      }
    }
    return Status::Ok();
  }

 private:
  // The scores of one row; `label` gets the index of its label.
  std::vector<double> Linear(const double* x, size_t* label) const {
    const size_t k = labels_.size();
    std::vector<double> s(k);
    for (size_t c = 0; c < k; ++c) {
      s[c] = kernel_(x, coefficients_.data() + c * static_cast<size_t>(features_), features_) +
             rho_[0];
    }
    const size_t best = static_cast<size_t>(std::max_element(s.begin(), s.end()) - s.begin());
    const double top = s[best];
    const bool positive = all_positive_ ? top >= 0.5 : top > 0;
    *label = k == 2 && prob_a_.empty() && positive ? 1 : best;
    PostTransform(post_, s);
    return s;
  }

  std::vector<double> Pairwise(const double* x, size_t* label) const {
    const size_t k = labels_.size();
    std::vector<double> kern(static_cast<size_t>(vectors_));
    for (int64_t j = 0; j < vectors_; ++j) {
      kern[static_cast<size_t>(j)] = kernel_(x, support_.data() + j * features_, features_);
    }
    std::vector<double> decisions;
    std::vector<int64_t> votes(k, 0);
    const auto n = static_cast<size_t>(vectors_);
    for (size_t i = 0; i + 1 < k; ++i) {
      for (size_t j = i + 1; j < k; ++j) {
        double sum = rho_[decisions.size()];
        for (size_t m = 0; m < per_class_[i]; ++m) {
          sum += coefficients_[(j - 1) * n + start_[i] + m] * kern[start_[i] + m];
        }
        for (size_t m = 0; m < per_class_[j]; ++m) {
          sum += coefficients_[i * n + start_[j] + m] * kern[start_[j] + m];
        }
        decisions.push_back(sum);
        ++votes[sum > 0 ? i : j];
      }
    }
    *label = static_cast<size_t>(std::max_element(votes.begin(), votes.end()) - votes.begin());
    if (!prob_a_.empty()) {
      std::vector<double> pairs(k * k, 0.0);
      size_t index = 0;
      for (size_t i = 0; i + 1 < k; ++i) {
        for (size_t j = i + 1; j < k; ++j, ++index) {
          const double p = std::clamp(
              1 - Logistic(decisions[index] * prob_a_[index] + prob_b_[index]), 1e-7, 1 - 1e-7);
          pairs[i * k + j] = p;
          pairs[j * k + i] = 1 - p;
        }
      }
      std::vector<double> p = CoupledProbabilities(k, pairs);
      PostTransform(post_, p);
      return p;
    }
    if (k > 2) {
      PostTransform(post_, decisions);
      return decisions;
    }
    const double s = decisions[0];
    if (post_ == Post::kNone) return {-s, s};
    if (post_ == Post::kProbit) return {Probit(s), 0.0};
    const double p = post_ == Post::kLogistic ? Logistic(s) : s;
    return {1 - p, p};
  }

  Status PrepareImpl(const KernelSpec&) override {
    GE_RETURN_IF_ERROR(Named(labels_.Read(*op_, "classlabels_ints", /*required=*/true)));
    coefficients_ = Doubles(AttrFloats("coefficients"));
    support_ = Doubles(AttrFloats("support_vectors"));
    rho_ = Doubles(AttrFloats("rho"));
    prob_a_ = Doubles(AttrFloats("prob_a"));
    prob_b_ = Doubles(AttrFloats("prob_b"));
    const std::vector<int64_t> per_class = AttrInts("vectors_per_class");
    if (!PostTransformNamed(AttrStr("post_transform", "NONE"), &post_)) {
      return Error("post_transform '" + AttrStr("post_transform", "") + "' is unknown");
    }
    const std::string problem =
        kernel_.Read(AttrStr("kernel_type", "LINEAR"), AttrFloats("kernel_params"));
    if (!problem.empty()) return Error(problem);
    const size_t k = labels_.size();
    if (k < 2) return Error(labels_.attr() + " must name at least two classes");
    if (prob_a_.size() != prob_b_.size()) return Error("prob_a and prob_b differ in length");
    if (rho_.empty() || coefficients_.empty()) return Error("rho and coefficients are required");
    all_positive_ =
        std::all_of(coefficients_.begin(), coefficients_.end(), [](double c) { return c >= 0; });
    vectors_ = 0;
    start_.clear();
    per_class_.clear();
    for (int64_t c : per_class) {
      // vectors_ never passes support_.size() (each vector has at least one value), so the sum
      // cannot overflow.
      if (c < 0 || static_cast<uint64_t>(c) > support_.size() - static_cast<size_t>(vectors_)) {
        return Error(
            "vectors_per_class must not be negative, nor count more vectors than "
            "support_vectors holds");
      }
      start_.push_back(static_cast<size_t>(vectors_));
      per_class_.push_back(static_cast<size_t>(c));
      vectors_ += c;
    }
    const size_t pairs = k * (k - 1) / 2;
    if (vectors_ > 0) {
      features_ = static_cast<int64_t>(support_.size()) / vectors_;
      if (per_class_.size() != k || support_.size() != static_cast<size_t>(features_ * vectors_) ||
          coefficients_.size() != (k - 1) * static_cast<size_t>(vectors_) || rho_.size() < pairs ||
          (!prob_a_.empty() && prob_a_.size() < pairs)) {
        return Error(
            "vectors_per_class needs one count per class, support_vectors one row per "
            "vector, coefficients (classes - 1) x vectors values, and rho (and prob_a, "
            "prob_b when given) one value per pair of classes");
      }
      columns_ = static_cast<int64_t>(prob_a_.empty() ? (k > 2 ? pairs : 2) : k);
    } else {
      kernel_.kind = SvmKernel::Kind::kLinear;
      features_ = static_cast<int64_t>(coefficients_.size() / k);
      if (coefficients_.size() != k * static_cast<size_t>(features_)) {
        return Error("coefficients must hold one row per class");
      }
      columns_ = static_cast<int64_t>(k);
    }
    return Status::Ok();
  }

  ClassLabels labels_;
  std::vector<double> coefficients_, support_, rho_, prob_a_, prob_b_;
  std::vector<size_t> start_, per_class_;  // each class's first support vector and count
  int64_t vectors_ = 0, features_ = 0, columns_ = 0;
  bool all_positive_ = true;
  SvmKernel kernel_;
  Post post_ = Post::kNone;
};

// Imputer: each element equal to the replaced value (or NaN, when that value is NaN) becomes the
// imputed value of its feature (the last dim), or the one imputed value of all features.
class ImputerKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != x.spec.dims || y.spec.dtype != x.spec.dtype || x.spec.dims.empty()) {
      return Error("output must have the input's dims and dtype, of rank >= 1");
    }
    const int64_t features = x.spec.dims.back();
    const bool is_float = x.spec.dtype == DT_FLOAT || x.spec.dtype == DT_DOUBLE;
    const std::vector<double>& imputed = is_float ? float_values_ : int_values_;
    if (imputed.size() != 1 && static_cast<int64_t>(imputed.size()) != features) {
      return Error(std::string(is_float ? "imputed_value_floats" : "imputed_value_int64s") +
                   " has " + std::to_string(imputed.size()) + " values; it needs 1 or one per " +
                   "feature (" + std::to_string(features) + ")");
    }
    const double replaced = is_float ? replaced_float_ : replaced_int_;
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      const int64_t n = NumElements(x.spec.dims);
      for (int64_t i = 0; i < n; ++i) {
        const auto value = static_cast<double>(in[i]);
        const bool hit = std::isnan(replaced) ? std::isnan(value) : value == replaced;
        out[i] = hit ? static_cast<T>(imputed[imputed.size() == 1 ? 0 : i % features]) : in[i];
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    const std::vector<float> f = AttrFloats("imputed_value_floats");
    const std::vector<int64_t> i = AttrInts("imputed_value_int64s");
    float_values_.assign(f.begin(), f.end());
    int_values_.assign(i.begin(), i.end());
    replaced_float_ = AttrFloat("replaced_value_float", 0.0F);
    replaced_int_ = static_cast<double>(AttrInt("replaced_value_int64", 0));
    return Status::Ok();
  }
  std::vector<double> float_values_, int_values_;
  double replaced_float_ = 0, replaced_int_ = 0;
};

// Where element `i` of a tensor of `dims` is, as X[i0, i1, ...] (X alone for a scalar).
std::string PositionIn(const std::vector<int64_t>& dims, int64_t i) {
  if (dims.empty()) return "X";
  std::vector<int64_t> index(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    index[d] = dims[d] > 0 ? i % dims[d] : 0;
    i = dims[d] > 0 ? i / dims[d] : 0;
  }
  std::string s = "X[";
  for (size_t d = 0; d < index.size(); ++d) s += (d > 0 ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

// OneHotEncoder: y[..., c] = 1 where the input equals category c, of cats_int64s (a numeric X,
// cast to integers) or cats_strings (a string X); a value of no category gives a row of zeros, or
// an error naming it and its place when zeros is 0. Of equal categories the last one is set, as in
// ONNX's reference and ONNX Runtime.
class OneHotEncoderKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const int64_t n = NumElements(x.spec.dims);
    const auto cats = static_cast<int64_t>(strings_ ? names_.size() : ints_.size());
    if (y.spec.dtype != DT_FLOAT || NumElements(y.spec.dims) != n * cats) {
      return Error("output must be float32 of the input's dims and " + std::to_string(cats) +
                   " categories");
    }
    if (strings_ != (x.spec.dtype == DT_STRING)) {
      return Error("input X is " + DtypeName(x.spec.dtype) + " but the categories (" +
                   (strings_ ? "cats_strings" : "cats_int64s") + ") are " +
                   (strings_ ? "strings" : "integers"));
    }
    auto* out = static_cast<float*>(y.data);
    std::fill(out, out + n * cats, 0.0F);
    if (strings_) {
      for (int64_t i = 0; i < n; ++i) {
        const std::string_view value = ReadString(x.data, i);
        const auto it = by_name_.find(value);
        if (it != by_name_.end()) {
          out[i * cats + it->second] = 1.0F;
        } else if (!zeros_) {
          return Error("value " + Quote(value) + " at " + PositionIn(x.spec.dims, i) +
                       " is in no category of cats_strings, and zeros is 0");
        }
      }
      return Status::Ok();
    }
    Status status = Status::Ok();
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      for (int64_t i = 0; i < n && status.ok(); ++i) {
        const auto value = static_cast<int64_t>(static_cast<double>(in[i]));  // floats truncate
        const auto it = by_int_.find(value);
        if (it != by_int_.end()) {
          out[i * cats + it->second] = 1.0F;
        } else if (!zeros_) {
          status = Error("value " + std::to_string(value) + " at " + PositionIn(x.spec.dims, i) +
                         " is in no category of cats_int64s, and zeros is 0");
        }
      }
    });
    if (!ok) return Unsupported(x.spec.dtype);
    return status;
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    ints_ = AttrInts("cats_int64s");
    names_ = AttrStrings(*op_, "cats_strings");
    zeros_ = AttrInt("zeros", 1) != 0;
    if (!ints_.empty() && !names_.empty()) {
      return Error(
          "both cats_int64s and cats_strings are set; the categories are one or the other");
    }
    if (ints_.empty() && names_.empty()) {
      return Error("neither cats_int64s nor cats_strings is set: there are no categories");
    }
    strings_ = !names_.empty();
    by_int_.clear();
    by_name_.clear();
    for (size_t c = 0; c < ints_.size(); ++c) by_int_[ints_[c]] = static_cast<int64_t>(c);
    for (size_t c = 0; c < names_.size(); ++c) by_name_[names_[c]] = static_cast<int64_t>(c);
    return Status::Ok();
  }
  std::vector<int64_t> ints_;
  std::vector<std::string> names_;
  std::unordered_map<int64_t, int64_t> by_int_;            ///< category → its column
  std::unordered_map<std::string_view, int64_t> by_name_;  ///< into names_, → its column
  bool strings_ = false;
  bool zeros_ = true;
};

// FeatureVectorizer: the rows of the inputs side by side, input i giving inputdimensions[i]
// columns (its first ones; zeros past its own width).
class FeatureVectorizerKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    if (args.inputs.size() != dims_.size() || args.outputs.empty()) {
      return Error("inputdimensions has " + std::to_string(dims_.size()) + " entries for " +
                   std::to_string(args.inputs.size()) + " inputs");
    }
    int64_t total = 0;
    for (int64_t d : dims_) total += d;
    const KernelOutput& y = args.outputs[0];
    const int64_t rows = y.spec.dims.empty() ? 0 : y.spec.dims[0];
    if (y.spec.dtype != DT_FLOAT || y.spec.dims != std::vector<int64_t>{rows, total}) {
      return Error("output must be float32 [N, " + std::to_string(total) + "]");
    }
    auto* out = static_cast<float*>(y.data);
    int64_t offset = 0;
    for (size_t k = 0; k < args.inputs.size(); ++k) {
      std::vector<double> v;
      int64_t in_rows = 0, width = 0;
      GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[k], v, in_rows, width)));
      if (in_rows != rows) {
        return Error("input " + std::to_string(k) + " has " + std::to_string(in_rows) +
                     " rows, input 0 " + std::to_string(rows));
      }
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < dims_[k]; ++c) {
          out[r * total + offset + c] =
              c < width ? static_cast<float>(v[static_cast<size_t>(r * width + c)]) : 0.0F;
        }
      }
      offset += dims_[k];
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    dims_ = AttrInts("inputdimensions");
    int64_t total = 0;
    for (int64_t d : dims_) {
      if (d < 0) return Error("inputdimensions must not be negative");
      if (__builtin_add_overflow(total, d, &total)) {
        return Error("inputdimensions add up to more columns than int64 counts");
      }
    }
    return Status::Ok();
  }
  std::vector<int64_t> dims_;
};

}  // namespace

void RegisterMlClassifierKernels(KernelTable& t) {
  t.Add("LinearClassifier", MakeKernel<LinearClassifierKernel>);
  t.Add("SVMRegressor", MakeKernel<SvmRegressorKernel>);
  t.Add("SVMClassifier", MakeKernel<SvmClassifierKernel>);
  t.Add("Imputer", MakeKernel<ImputerKernel>);
  t.Add("OneHotEncoder", MakeKernel<OneHotEncoderKernel>);
  t.Add("FeatureVectorizer", MakeKernel<FeatureVectorizerKernel>);
}

}  // namespace ge::host_cpu

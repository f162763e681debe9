// ai.onnx.ml kernels: Binarizer, ArrayFeatureExtractor, Scaler, Normalizer, LinearRegressor and
// TreeEnsemble (ai.onnx.ml 5). The feature kernels read any numeric input as double and write
// float, as the domain defines.
//
// TreeEnsemble walks each tree from its root: a node compares feature nodes_featureids[i] of the
// row with nodes_splits[i] by nodes_modes[i] (<=, <, >=, >, ==, !=, or membership in the node's
// segment of membership_values, segments split by NaN) and goes to its true or false child; a
// child flagged in nodes_trueleafs / nodes_falseleafs is a leaf, an index into leaf_targetids and
// leaf_weights. The leaves reached add to their targets (sum, average over trees, min or max),
// then post_transform applies.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ge/graph/utils/attr_utils.h"
#include "half_float_util.h"
#include "kernel_util.h"

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

enum class Mode : uint8_t { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember };
enum class Aggregate : int64_t { kAverage = 0, kSum = 1, kMin = 2, kMax = 3 };
enum class Post : int64_t { kNone = 0, kSoftmax = 1, kLogistic = 2, kSoftmaxZero = 3, kProbit = 4 };

// The standard normal quantile of p (the inverse of Phi), by Newton's method on erfc.
double Probit(double p) {
  if (p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return std::numeric_limits<double>::infinity();
  double z = 0;  // solve Phi(z) = p
  for (int i = 0; i < 50; ++i) {
    const double phi = 0.5 * std::erfc(-z / std::sqrt(2.0));
    const double density = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
    const double step = (phi - p) / density;
    z -= step;
    if (std::fabs(step) < 1e-15) break;
  }
  return z;
}

// ai.onnx.ml's post_transform of a row of scores.
void PostTransform(Post post, std::vector<double>& v) {
  switch (post) {
    case Post::kNone:
      return;
    case Post::kLogistic:
      for (double& x : v) x = 1.0 / (1.0 + std::exp(-x));
      return;
    case Post::kProbit:  // sqrt(2) * erfinv(2x - 1), by Newton's method on erf
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

// The input as doubles, row-major: rows x features (a 1-D input is one row).
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

Post PostTransformNamed(const std::string& name, bool* known) {
  static const std::pair<const char*, Post> kNames[] = {{"NONE", Post::kNone},
                                                        {"SOFTMAX", Post::kSoftmax},
                                                        {"LOGISTIC", Post::kLogistic},
                                                        {"SOFTMAX_ZERO", Post::kSoftmaxZero},
                                                        {"PROBIT", Post::kProbit}};
  for (const auto& [text, post] : kNames) {
    if (name == text) {
      *known = true;
      return post;
    }
  }
  *known = false;
  return Post::kNone;
}

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
    bool known = false;
    post_ = PostTransformNamed(AttrStr("post_transform", "NONE"), &known);
    if (!known)
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

class TreeEnsembleKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rows = d.size() == 2 ? d[0] : 1;
    const int64_t features = d.empty() ? 0 : d.back();
    if ((d.size() != 1 && d.size() != 2) || y.spec.dims != std::vector<int64_t>{rows, targets_}) {
      return Error("input " + DimsToString(d) + " and output " + DimsToString(y.spec.dims) +
                   " must be [N, F] and [N, " + std::to_string(targets_) + "]");
    }
    if (max_feature_ >= features) {
      return Error("a node reads feature " + std::to_string(max_feature_) + " of " +
                   std::to_string(features));
    }
    std::vector<double> row(static_cast<size_t>(features)), out(static_cast<size_t>(targets_));
    std::vector<int64_t> hits(static_cast<size_t>(targets_));
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* result = static_cast<T*>(y.data);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t f = 0; f < features; ++f) row[f] = static_cast<double>(in[r * features + f]);
        Evaluate(row, out, hits);
        for (int64_t t = 0; t < targets_; ++t) result[r * targets_ + t] = static_cast<T>(out[t]);
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    targets_ = AttrInt("n_targets", 0);
    aggregate_ = static_cast<Aggregate>(AttrInt("aggregate_function", 1));
    post_ = static_cast<Post>(AttrInt("post_transform", 0));
    roots_ = AttrInts("tree_roots");
    features_ = AttrInts("nodes_featureids");
    true_ids_ = AttrInts("nodes_truenodeids");
    false_ids_ = AttrInts("nodes_falsenodeids");
    true_leafs_ = AttrInts("nodes_trueleafs");
    false_leafs_ = AttrInts("nodes_falseleafs");
    missing_true_ = AttrInts("nodes_missing_value_tracks_true");
    leaf_targets_ = AttrInts("leaf_targetids");
    GE_RETURN_IF_ERROR(TensorDoubles("nodes_splits", &splits_));
    GE_RETURN_IF_ERROR(TensorDoubles("leaf_weights", &leaf_weights_));
    std::vector<double> modes;
    GE_RETURN_IF_ERROR(TensorDoubles("nodes_modes", &modes));
    const size_t n = features_.size();
    if (targets_ <= 0 || static_cast<int64_t>(aggregate_) < 0 ||
        static_cast<int64_t>(aggregate_) > 3 || static_cast<int64_t>(post_) < 0 ||
        static_cast<int64_t>(post_) > 4) {
      return Error("n_targets, aggregate_function or post_transform is out of range");
    }
    if (splits_.size() != n || modes.size() != n || true_ids_.size() != n ||
        false_ids_.size() != n || true_leafs_.size() != n || false_leafs_.size() != n ||
        (!missing_true_.empty() && missing_true_.size() != n) ||
        leaf_targets_.size() != leaf_weights_.size()) {
      return Error("the node attributes must all have one entry per node (" + std::to_string(n) +
                   ") and the leaf attributes one per leaf");
    }
    std::vector<double> members;
    if (HasAttr("membership_values"))
      GE_RETURN_IF_ERROR(TensorDoubles("membership_values", &members));
    size_t next_member = 0;
    modes_.clear();
    sets_.assign(n, {});
    max_feature_ = -1;
    for (size_t i = 0; i < n; ++i) {
      if (modes[i] < 0 || modes[i] > 6) return Error("nodes_modes value out of range");
      modes_.push_back(static_cast<Mode>(static_cast<int>(modes[i])));
      if (modes_.back() == Mode::kMember) {
        // This node's set: the members up to the next NaN.
        while (next_member < members.size() && !std::isnan(members[next_member])) {
          sets_[i].push_back(members[next_member++]);
        }
        ++next_member;
      }
      if (features_[i] < 0) return Error("a negative feature id");
      max_feature_ = std::max(max_feature_, features_[i]);
      // A child is either a node or a leaf, and its index must be in range (a bad model must not
      // send the walk out of its arrays).
      for (const auto& [id, leaf] :
           {std::pair{true_ids_[i], true_leafs_[i]}, std::pair{false_ids_[i], false_leafs_[i]}}) {
        const auto bound = static_cast<int64_t>(leaf != 0 ? leaf_targets_.size() : n);
        if (id < 0 || id >= bound)
          return Error("node " + std::to_string(i) + " has a child out of range");
      }
    }
    for (int64_t t : leaf_targets_) {
      if (t < 0 || t >= targets_) return Error("a leaf target id is out of range");
    }
    for (int64_t root : roots_) {
      if (root < 0 || root >= static_cast<int64_t>(n)) return Error("a tree root is out of range");
    }
    return Status::Ok();
  }

  Status TensorDoubles(const std::string& name, std::vector<double>* out) const {
    const auto* t = AttrUtils::GetPtr<GeTensor>(*op_, name);
    if (t == nullptr) return Error("attribute '" + name + "' is missing");
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
    return ok ? Status::Ok() : Unsupported(dt, "attribute '" + name + "'");
  }

  bool GoesTrue(size_t node, double v) const {
    if (std::isnan(v)) return !missing_true_.empty() && missing_true_[node] != 0;
    const double s = splits_[node];
    switch (modes_[node]) {
      case Mode::kLeq:
        return v <= s;
      case Mode::kLt:
        return v < s;
      case Mode::kGte:
        return v >= s;
      case Mode::kGt:
        return v > s;
      case Mode::kEq:
        return v == s;
      case Mode::kNeq:
        return v != s;
      case Mode::kMember:
        return std::find(sets_[node].begin(), sets_[node].end(), v) != sets_[node].end();
    }
    return false;
  }

  void Evaluate(const std::vector<double>& row, std::vector<double>& out,
                std::vector<int64_t>& hits) const {
    std::fill(out.begin(), out.end(), 0.0);
    std::fill(hits.begin(), hits.end(), 0);
    const size_t n = features_.size();
    for (int64_t root : roots_) {
      auto node = static_cast<size_t>(root);
      for (size_t steps = 0; steps <= n; ++steps) {  // a well-formed tree ends within n steps
        const bool go = GoesTrue(node, row[static_cast<size_t>(features_[node])]);
        const int64_t id = go ? true_ids_[node] : false_ids_[node];
        if ((go ? true_leafs_[node] : false_leafs_[node]) == 0) {
          node = static_cast<size_t>(id);
          continue;
        }
        const auto t = static_cast<size_t>(leaf_targets_[static_cast<size_t>(id)]);
        const double w = leaf_weights_[static_cast<size_t>(id)];
        if (aggregate_ == Aggregate::kMin) {
          out[t] = hits[t] == 0 ? w : std::min(out[t], w);
        } else if (aggregate_ == Aggregate::kMax) {
          out[t] = hits[t] == 0 ? w : std::max(out[t], w);
        } else {
          out[t] += w;
        }
        ++hits[t];
        break;
      }
    }
    if (aggregate_ == Aggregate::kAverage && !roots_.empty()) {
      for (double& v : out) v /= static_cast<double>(roots_.size());
    }
    PostTransform(post_, out);
  }

  int64_t targets_ = 0;
  Aggregate aggregate_ = Aggregate::kSum;
  Post post_ = Post::kNone;
  std::vector<int64_t> roots_, features_, true_ids_, false_ids_, true_leafs_, false_leafs_,
      missing_true_, leaf_targets_;
  std::vector<double> splits_, leaf_weights_;
  std::vector<Mode> modes_;
  std::vector<std::vector<double>> sets_;
  int64_t max_feature_ = -1;
};

}  // namespace

void RegisterMlKernels(KernelTable& t) {
  t.Add("Binarizer", MakeKernel<BinarizerKernel>);
  t.Add("ArrayFeatureExtractor", MakeKernel<ArrayFeatureExtractorKernel>);
  t.Add("TreeEnsemble", MakeKernel<TreeEnsembleKernel>);
  t.Add("Scaler", MakeKernel<FeatureKernel</*kNormalizer=*/false>>);
  t.Add("Normalizer", MakeKernel<FeatureKernel</*kNormalizer=*/true>>);
  t.Add("LinearRegressor", MakeKernel<LinearRegressorKernel>);
}

}  // namespace ge::host_cpu

// Losses with ONNX semantics: NegativeLogLikelihoodLoss over log-probabilities, and
// SoftmaxCrossEntropyLoss (log-softmax over the class dim 1, then the same NLL, with the
// log-probabilities as an optional second output). Scores are [N, C, d1..dk], class indices
// [N, d1..dk], optional weights [C]. An index equal to ignore_index contributes 0 and leaves the
// mean's denominator; the mean divides by the sum of the applied weights (their count without
// weights), as ONNX's reference does.
#include <cmath>
#include <limits>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

enum class LossReduction { kNone, kSum, kMean };

class LossKernelBase : public KernelBase {
 protected:
  Status PrepareImpl(const KernelSpec&) override {
    const std::string r = AttrStr("reduction", "mean");
    if (r == "none") {
      reduction_ = LossReduction::kNone;
    } else if (r == "sum") {
      reduction_ = LossReduction::kSum;
    } else if (r == "mean") {
      reduction_ = LossReduction::kMean;
    } else {
      return Error("attribute 'reduction' must be none, sum or mean, not '" + r + "'");
    }
    has_ignore_ = HasAttr("ignore_index");
    ignore_ = AttrInt("ignore_index", 0);
    return Status::Ok();
  }

  // Checks scores [N, C, d...], indices [N, d...], weights [C] and the loss output; sets n_, c_,
  // d_ (the product of d...).
  Status CheckShapes(const KernelArgs& args) {
    const auto& x = args.inputs[0].spec;
    const auto& t = args.inputs[1].spec;
    if (x.dims.size() < 2) return Error("scores must have rank >= 2, got " + DimsToString(x.dims));
    bool ok = t.dims.size() + 1 == x.dims.size() && t.dims[0] == x.dims[0];
    for (size_t i = 1; ok && i < t.dims.size(); ++i) ok = t.dims[i] == x.dims[i + 1];
    if (!ok) {
      return Error("class indices " + DimsToString(t.dims) + " must be the scores' dims " +
                   DimsToString(x.dims) + " without dim 1");
    }
    n_ = x.dims[0];
    c_ = x.dims[1];
    d_ = NumElements(std::vector<int64_t>(x.dims.begin() + 2, x.dims.end()));
    if (HasInput(args, 2)) {
      const auto& w = args.inputs[2].spec;
      if (w.dims != std::vector<int64_t>{c_} || w.dtype != x.dtype) {
        return Error("weights must be [" + std::to_string(c_) + "] of the scores' dtype, got " +
                     DimsToString(w.dims));
      }
    }
    const auto& y = args.outputs[0].spec;
    const std::vector<int64_t> want =
        reduction_ == LossReduction::kNone ? t.dims : std::vector<int64_t>{};
    if (y.dtype != x.dtype || NumElements(y.dims) != NumElements(want)) {
      return Error("loss output " + DimsToString(y.dims) + " must be " + DimsToString(want) +
                   " of the scores' dtype");
    }
    if (!ReadInts(args.inputs[1], &target_)) return Error("class indices must be int32 or int64");
    return Status::Ok();
  }

  // The loss of log-probabilities `logp` [N, C, D] into `out` (N*D values, or one).
  template <typename T>
  Status Nll(const T* logp, const T* weight, T* out) const {
    const int64_t count = n_ * d_;
    double sum = 0;
    double denom = 0;
    for (int64_t i = 0; i < count; ++i) {
      const int64_t cls = target_[static_cast<size_t>(i)];
      double loss = 0;
      double w = 0;
      if (!has_ignore_ || cls != ignore_) {
        if (cls < 0 || cls >= c_) {
          return Error("class index " + std::to_string(cls) + " is out of range [0, " +
                       std::to_string(c_) + ")");
        }
        const int64_t nn = i / d_;
        const int64_t dd = i % d_;
        w = weight != nullptr ? static_cast<double>(weight[cls]) : 1.0;
        loss = -w * static_cast<double>(logp[(nn * c_ + cls) * d_ + dd]);
      }
      if (reduction_ == LossReduction::kNone) out[i] = static_cast<T>(loss);
      sum += loss;
      denom += w;
    }
    if (reduction_ == LossReduction::kSum) out[0] = static_cast<T>(sum);
    // All targets ignored: 0 / 0, NaN as in ONNX's reference.
    if (reduction_ == LossReduction::kMean) out[0] = static_cast<T>(sum / denom);
    return Status::Ok();
  }

  LossReduction reduction_ = LossReduction::kMean;
  bool has_ignore_ = false;
  int64_t ignore_ = 0;
  int64_t n_ = 0, c_ = 0, d_ = 1;
  std::vector<int64_t> target_;
};

class NllLossKernel final : public LossKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    GE_RETURN_IF_ERROR(CheckShapes(args));
    Status status = Status::Ok();
    const bool ok = DispatchFloat(args.inputs[0].spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* w = HasInput(args, 2) ? static_cast<const T*>(args.inputs[2].data) : nullptr;
      status =
          Nll(static_cast<const T*>(args.inputs[0].data), w, static_cast<T*>(args.outputs[0].data));
    });
    if (!ok) return Unsupported(args.inputs[0].spec.dtype);
    return status;
  }
};

class SoftmaxCrossEntropyLossKernel final : public LossKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    GE_RETURN_IF_ERROR(CheckShapes(args));
    const auto& x = args.inputs[0].spec;
    void* log_prob = nullptr;
    if (args.outputs.size() > 1 && args.outputs[1].data != nullptr) {
      if (args.outputs[1].spec.dims != x.dims || args.outputs[1].spec.dtype != x.dtype) {
        return Error("log_prob output must have the scores' dims and dtype");
      }
      log_prob = args.outputs[1].data;
    }
    Status status = Status::Ok();
    const bool ok = DispatchFloat(x.dtype, [&](auto tag) {
      using T = decltype(tag);
      T* lp = static_cast<T*>(log_prob);
      if (lp == nullptr) {
        scratch_.resize(static_cast<size_t>(NumElements(x.dims)) * sizeof(T));
        lp = reinterpret_cast<T*>(scratch_.data());
      }
      LogSoftmaxOverClasses(static_cast<const T*>(args.inputs[0].data), lp);
      const T* w = HasInput(args, 2) ? static_cast<const T*>(args.inputs[2].data) : nullptr;
      status = Nll(lp, w, static_cast<T*>(args.outputs[0].data));
    });
    if (!ok) return Unsupported(x.dtype);
    return status;
  }

 private:
  // y[n, :, d] = log_softmax(x[n, :, d]) for [N, C, D] data.
  template <typename T>
  void LogSoftmaxOverClasses(const T* x, T* y) const {
    ParallelFor(n_ * d_, threads_, c_ * 8, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t base = (i / d_) * c_ * d_ + i % d_;
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < c_; ++k) m = std::max(m, static_cast<double>(x[base + k * d_]));
        double s = 0;
        for (int64_t k = 0; k < c_; ++k) s += std::exp(static_cast<double>(x[base + k * d_]) - m);
        const double lse = m + std::log(s);
        for (int64_t k = 0; k < c_; ++k) {
          y[base + k * d_] = static_cast<T>(static_cast<double>(x[base + k * d_]) - lse);
        }
      }
    });
  }

  std::vector<uint8_t> scratch_;  // log-probabilities when log_prob is not an output
};

}  // namespace

void RegisterLossKernels(KernelTable& t) {
  t.Add("NegativeLogLikelihoodLoss", MakeKernel<NllLossKernel>);
  t.Add("SoftmaxCrossEntropyLoss", MakeKernel<SoftmaxCrossEntropyLossKernel>);
}

}  // namespace ge::host_cpu

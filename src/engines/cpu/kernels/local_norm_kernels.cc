// Normalizations over windows or chosen axes, with ONNX semantics: LRN (across channels) and
// MeanVarianceNormalization. Naive loops in double; these ops are rare and small in practice.
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// ONNX LRN on [N, C, d...]: y = x / (bias + alpha / size * sum of x^2 over channels
// [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)]) ^ beta.
class LrnKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    if (d.size() < 2) return Error("input must have rank >= 2, got " + DimsToString(d));
    if (y.spec.dims != d || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const int64_t n = d[0];
    const int64_t c = d[1];
    const int64_t inner = NumElements(std::vector<int64_t>(d.begin() + 2, d.end()));
    const int64_t before = (size_ - 1) / 2;
    const int64_t after = size_ / 2;  // ceil((size - 1) / 2)
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      ParallelFor(n * c, threads_, inner * std::min<int64_t>(size_, c),
                  [&](int64_t begin, int64_t end) {
                    for (int64_t nc = begin; nc < end; ++nc) {
                      const int64_t b = nc / c;
                      const int64_t ch = nc % c;
                      const int64_t lo = std::max<int64_t>(0, ch - before);
                      const int64_t hi = std::min<int64_t>(c - 1, ch + after);
                      for (int64_t i = 0; i < inner; ++i) {
                        double sq = 0;
                        for (int64_t k = lo; k <= hi; ++k) {
                          const double v = in[(b * c + k) * inner + i];
                          sq += v * v;
                        }
                        const double den =
                            std::pow(bias_ + alpha_ / static_cast<double>(size_) * sq, beta_);
                        out[nc * inner + i] = static_cast<T>(in[nc * inner + i] / den);
                      }
                    }
                  });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    if (!HasAttr("size")) return Error("attribute 'size' is required");
    size_ = AttrInt("size", 1);
    if (size_ < 1) return Error("attribute 'size' must be positive, got " + std::to_string(size_));
    alpha_ = AttrFloat("alpha", 1e-4F);
    beta_ = AttrFloat("beta", 0.75F);
    bias_ = AttrFloat("bias", 1.0F);
    return Status::Ok();
  }
  int64_t size_ = 1;
  double alpha_ = 1e-4, beta_ = 0.75, bias_ = 1.0;
};

// ONNX MeanVarianceNormalization: y = (x - mean) / (sqrt(E[x^2] - mean^2) + 1e-9), the
// statistics over 'axes' (default [0, 2, 3]).
class MvnKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    if (y.spec.dims != d || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const int64_t rank = static_cast<int64_t>(d.size());
    std::vector<int64_t> kept = d;  // the statistics' dims (reduced axes set to 1)
    for (int64_t a : axes_) {
      int64_t axis = 0;
      if (!NormalizeAxis(a, rank, &axis)) {
        return Error("attribute 'axes' value " + std::to_string(a) + " is out of range for " +
                     DimsToString(d));
      }
      kept[static_cast<size_t>(axis)] = 1;
    }
    const int64_t total = NumElements(d);
    const int64_t groups = NumElements(kept);
    const double count =
        groups == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(groups);
    BroadcastPlan plan;
    if (!PlanBroadcast({kept}, d, &plan)) return Error("internal: statistics do not broadcast");
    // Offset of each element's statistics.
    offsets_.resize(static_cast<size_t>(total));
    const int64_t s = plan.dims.empty() ? 0 : plan.strides[0].back();
    ForEachBroadcastRow(plan, 1, [&](int64_t yo, const int64_t* offs, int64_t cnt) {
      for (int64_t i = 0; i < cnt; ++i) offsets_[static_cast<size_t>(yo + i)] = offs[0] + i * s;
    });
    sum_.assign(static_cast<size_t>(groups), 0.0);
    sumsq_.assign(static_cast<size_t>(groups), 0.0);
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      for (int64_t i = 0; i < total; ++i) {
        const double v = in[i];
        sum_[static_cast<size_t>(offsets_[i])] += v;
        sumsq_[static_cast<size_t>(offsets_[i])] += v * v;
      }
      for (int64_t i = 0; i < total; ++i) {
        const size_t g = static_cast<size_t>(offsets_[i]);
        const double mean = sum_[g] / count;
        const double var = std::max(0.0, sumsq_[g] / count - mean * mean);
        out[i] = static_cast<T>((in[i] - mean) / (std::sqrt(var) + kEpsilon));
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  static constexpr double kEpsilon = 1e-9;
  Status PrepareImpl(const KernelSpec&) override {
    axes_ = HasAttr("axes") ? AttrInts("axes") : std::vector<int64_t>{0, 2, 3};
    return Status::Ok();
  }
  std::vector<int64_t> axes_;
  std::vector<int64_t> offsets_;
  std::vector<double> sum_, sumsq_;
};

}  // namespace

void RegisterLocalNormKernels(KernelTable& t) {
  t.Add("LRN", MakeKernel<LrnKernel>);
  t.Add("MeanVarianceNormalization", MakeKernel<MvnKernel>);
}

}  // namespace ge::host_cpu

// Reductions (ReduceSum / Mean / Max / Min / Prod / L1 / L2 / LogSum / LogSumExp / SumSquare,
// ONNX semantics: axes as input 1 or attribute, keepdims, noop_with_empty_axes) and
// ArgMaxV2 / ArgMin.
//
// The input's dims are merged into runs of kept and reduced dims. When that leaves at most
// [kept] reduced [kept] the data are reduced in place as (outer, reduce, inner); otherwise the
// kept dims are first gathered in front (a strided copy) to reach that form. Inner runs are
// accumulated a row at a time so the inner loop is contiguous and vectorized.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

enum class Red { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

// The identity of the reduction: what an empty set reduces to (ONNX: -inf for a float ReduceMax).
template <Red kOp, typename T>
constexpr T Init() {
  if constexpr (kOp == Red::kMax) {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
  if constexpr (kOp == Red::kMin) {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
  }
  if constexpr (kOp == Red::kProd) return T(1);
  return T(0);
}

// The value accumulated for x (before combining); `shift` is LogSumExp's max.
template <Red kOp, typename T>
inline T Pre(T x, T shift) {
  if constexpr (kOp == Red::kL1) return x < 0 ? static_cast<T>(-x) : x;
  if constexpr (kOp == Red::kL2 || kOp == Red::kSumSquare) return static_cast<T>(x * x);
  if constexpr (kOp == Red::kLogSumExp) return static_cast<T>(std::exp(x - shift));
  (void)shift;
  return x;
}

template <Red kOp, typename T>
inline T Combine(T a, T b) {
  if constexpr (kOp == Red::kMax) return a > b ? a : b;
  if constexpr (kOp == Red::kMin) return a < b ? a : b;
  if constexpr (kOp == Red::kProd) return static_cast<T>(a * b);
  return static_cast<T>(a + b);
}

template <Red kOp, typename T>
inline T Post(T acc, int64_t count, T shift) {
  if constexpr (kOp == Red::kMean) return static_cast<T>(acc / static_cast<T>(count));
  if constexpr (kOp == Red::kL2) return static_cast<T>(std::sqrt(acc));
  if constexpr (kOp == Red::kLogSum) return static_cast<T>(std::log(acc));
  if constexpr (kOp == Red::kLogSumExp) return static_cast<T>(std::log(acc) + shift);
  (void)count;
  return acc;
}

// Reduces x viewed as [outer, len, inner] over len into y [outer, inner]; shift (LogSumExp) is
// per output element or null.
template <Red kOp, typename T>
void ReduceBlock(const T* x, T* y, int64_t outer, int64_t len, int64_t inner, const T* shift,
                 int threads) {
  ParallelFor(outer, threads, len * inner, [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      T* yr = y + o * inner;
      const T* xb = x + o * len * inner;
      for (int64_t i = 0; i < inner; ++i) yr[i] = Init<kOp, T>();
      if (inner == 1) {
        T acc = Init<kOp, T>();
        const T s = shift != nullptr ? shift[o] : T(0);
        if constexpr (kOp == Red::kMax || kOp == Red::kMin || kOp == Red::kProd ||
                      kOp == Red::kLogSumExp) {
          for (int64_t r = 0; r < len; ++r) acc = Combine<kOp, T>(acc, Pre<kOp, T>(xb[r], s));
        } else {
#pragma omp simd reduction(+ : acc)
          for (int64_t r = 0; r < len; ++r) acc += Pre<kOp, T>(xb[r], s);
        }
        yr[0] = Post<kOp, T>(acc, len, s);
        continue;
      }
      const T* sr = shift != nullptr ? shift + o * inner : nullptr;
      for (int64_t r = 0; r < len; ++r) {
        const T* xr = xb + r * inner;
#pragma omp simd
        for (int64_t i = 0; i < inner; ++i) {
          yr[i] = Combine<kOp, T>(yr[i], Pre<kOp, T>(xr[i], sr != nullptr ? sr[i] : T(0)));
        }
      }
      for (int64_t i = 0; i < inner; ++i)
        yr[i] = Post<kOp, T>(yr[i], len, sr != nullptr ? sr[i] : T(0));
    }
  });
}

template <Red kOp>
class ReduceKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    std::vector<int64_t> axes = attr_axes_;
    if (HasInput(args, 1) && !ReadInts(args.inputs[1], &axes))
      return Error("axes must be integers");
    std::vector<bool> reduced(d.size(), false);
    if (axes.empty()) {
      if (noop_) {
        if (y.spec.dims != d) return Error("output dims should equal the input's (no-op)");
        return CopyThrough(x, y);
      }
      reduced.assign(d.size(), true);
    }
    for (int64_t a : axes) {
      int64_t n = 0;
      if (!NormalizeAxis(a, rank, &n)) {
        return Error("axis " + std::to_string(a) + " is out of range for " + DimsToString(d));
      }
      reduced[n] = true;
    }
    std::vector<int64_t> out;
    for (size_t i = 0; i < d.size(); ++i) {
      if (!reduced[i]) {
        out.push_back(d[i]);
      } else if (keepdims_) {
        out.push_back(1);
      }
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(y.spec.dims) + " should be " + DimsToString(out));
    }
    // ReduceMax / ReduceMin of booleans (opset 20): any and all, as bytes of 0 and 1.
    if (x.spec.dtype == DT_BOOL && (kOp == Red::kMax || kOp == Red::kMin)) {
      auto* out = static_cast<uint8_t*>(y.data);
      RunTyped<uint8_t>(static_cast<const uint8_t*>(x.data), out, d, reduced);
      for (int64_t i = 0; i < NumElements(y.spec.dims); ++i) out[i] = out[i] != 0 ? 1 : 0;
      return Status::Ok();
    }
    bool ok = false;
    DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T> ||
                    (kOp != Red::kLogSum && kOp != Red::kLogSumExp && kOp != Red::kL2)) {
        RunTyped<T>(static_cast<const T*>(x.data), static_cast<T*>(y.data), d, reduced);
        ok = true;
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    attr_axes_ = AttrInts("axes");
    keepdims_ = AttrInt("keepdims", 1) != 0;
    noop_ = AttrInt("noop_with_empty_axes", 0) != 0;
    return Status::Ok();
  }

  Status CopyThrough(const KernelTensor& x, const KernelOutput& y) const {
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    StridedCopy(x.data, y.data, x.spec.dims, StridesOf(x.spec.dims), eb, threads_);
    return Status::Ok();
  }

  template <typename T>
  void RunTyped(const T* x, T* y, const std::vector<int64_t>& d, const std::vector<bool>& reduced) {
    // Merge into alternating runs of kept / reduced dims (size-1 dims dropped).
    std::vector<int64_t> run_dims;
    std::vector<bool> run_red;
    for (size_t i = 0; i < d.size(); ++i) {
      if (d[i] == 1) continue;
      if (!run_red.empty() && run_red.back() == reduced[i]) {
        run_dims.back() *= d[i];
      } else {
        run_dims.push_back(d[i]);
        run_red.push_back(reduced[i]);
      }
    }
    const int64_t total = NumElements(d);
    int64_t outer = 1, len = 1, inner = 1;
    const T* src = x;
    const bool simple = run_dims.size() <= 2 || (run_dims.size() == 3 && run_red[1]);
    if (simple) {
      size_t i = 0;
      if (i < run_dims.size() && !run_red[i]) outer = run_dims[i++];
      if (i < run_dims.size() && run_red[i]) len = run_dims[i++];
      if (i < run_dims.size()) inner = run_dims[i];
    } else {
      // Gather the kept dims in front: [kept..., reduced...].
      std::vector<int64_t> perm_dims, perm_strides;
      const std::vector<int64_t> xs = StridesOf(d);
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t k = 0; k < d.size(); ++k) {
          if (reduced[k] != (pass == 1)) continue;
          perm_dims.push_back(d[k]);
          perm_strides.push_back(xs[k]);
          (pass == 0 ? outer : len) *= d[k];
        }
      }
      gathered_.resize(static_cast<size_t>(total) * sizeof(T));
      StridedCopy(x, gathered_.data(), perm_dims, perm_strides, sizeof(T), threads_);
      src = reinterpret_cast<const T*>(gathered_.data());
    }
    if (total == 0) {
      // Reducing an empty axis gives the op's identity (ONNX); nothing to do when y is empty.
      const int64_t n = len == 0 ? outer * inner : 0;
      for (int64_t i = 0; i < n; ++i) y[i] = Post<kOp, T>(Init<kOp, T>(), 0, T(0));
      return;
    }
    const T* shift = nullptr;
    if constexpr (kOp == Red::kLogSumExp) {
      shift_.resize(static_cast<size_t>(outer * inner) * sizeof(T));
      T* s = reinterpret_cast<T*>(shift_.data());
      ReduceBlock<Red::kMax, T>(src, s, outer, len, inner, nullptr, threads_);
      shift = s;
    }
    ReduceBlock<kOp, T>(src, y, outer, len, inner, shift, threads_);
  }

  std::vector<int64_t> attr_axes_;
  bool keepdims_ = true;
  bool noop_ = false;
  std::vector<uint8_t> gathered_, shift_;
};

template <bool kMax>
class ArgKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    int64_t axis = 0;
    if (!NormalizeAxis(axis_, rank, &axis)) {
      return Error("attribute 'axis' " + std::to_string(axis_) + " is out of range for " +
                   DimsToString(d));
    }
    std::vector<int64_t> out = d;
    if (keepdims_) {
      out[axis] = 1;
    } else {
      out.erase(out.begin() + axis);
    }
    if (y.spec.dims != out || y.spec.dtype != DT_INT64) {
      return Error("output should be DT_INT64" + DimsToString(out));
    }
    const int64_t len = d[axis];
    if (len == 0)
      return Error("cannot take the arg" + std::string(kMax ? "max" : "min") + " of an empty axis");
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= d[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= d[i];
    auto* idx = static_cast<int64_t*>(y.data);
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      ParallelFor(outer * inner, threads_, len, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
          const int64_t o = p / inner, i = p % inner;
          const T* base = in + o * len * inner + i;
          T best = base[0];
          int64_t at = 0;
          for (int64_t r = 1; r < len; ++r) {
            const T v = base[r * inner];
            const bool better =
                kMax ? (last_ ? v >= best : v > best) : (last_ ? v <= best : v < best);
            if (better) {
              best = v;
              at = r;
            }
          }
          idx[p] = at;
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", 0);
    keepdims_ = AttrInt("keepdims", 1) != 0;
    last_ = AttrInt("select_last_index", 0) != 0;
    return Status::Ok();
  }
  int64_t axis_ = 0;
  bool keepdims_ = true;
  bool last_ = false;
};

}  // namespace

void RegisterReduceKernels(KernelTable& t) {
  t.Add("ReduceSum", MakeKernel<ReduceKernel<Red::kSum>>);
  t.Add("ReduceMean", MakeKernel<ReduceKernel<Red::kMean>>);
  t.Add("ReduceMax", MakeKernel<ReduceKernel<Red::kMax>>);
  t.Add("ReduceMin", MakeKernel<ReduceKernel<Red::kMin>>);
  t.Add("ReduceProd", MakeKernel<ReduceKernel<Red::kProd>>);
  t.Add("ReduceL1", MakeKernel<ReduceKernel<Red::kL1>>);
  t.Add("ReduceL2", MakeKernel<ReduceKernel<Red::kL2>>);
  t.Add("ReduceLogSum", MakeKernel<ReduceKernel<Red::kLogSum>>);
  t.Add("ReduceLogSumExp", MakeKernel<ReduceKernel<Red::kLogSumExp>>);
  t.Add("ReduceSumSquare", MakeKernel<ReduceKernel<Red::kSumSquare>>);
  t.Add("ArgMaxV2", MakeKernel<ArgKernel<true>>);
  t.Add("ArgMin", MakeKernel<ArgKernel<false>>);
}

}  // namespace ge::host_cpu

// Elementwise binary kernels with numpy broadcasting: arithmetic (Add, Sub, Mul, RealDiv, Pow,
// Maximum, Minimum, Mod, PRelu), BitShift (unsigned), the Bitwise* operators (integers),
// comparisons (→ bool), logic (bool), the variadic AddN / Max / Min / Mean, and SelectV2 (ONNX
// Where). float16 / bfloat16 run in float and round back (RunWidened), as numpy computes them.
//
// Each kernel builds a BroadcastPlan (dims merged where inputs broadcast alike), so the inner
// loop runs over a contiguous run of the output with each input either contiguous or a single
// repeated value; those loops are `omp simd` and rows are split over threads when large.
#include <cmath>
#include <limits>
#include <type_traits>

#include "half_float_util.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

enum class Bin {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMax,
  kMin,
  kMod,
  kFmod,
  kPRelu,
  kEq,
  kLt,
  kGt,
  kLe,
  kGe,
  kAnd,
  kOr,
  kXor,
  kShl,
  kShr,
  kBitAnd,
  kBitOr,
  kBitXor
};

constexpr bool IsCompare(Bin op) {
  return op == Bin::kEq || op == Bin::kLt || op == Bin::kGt || op == Bin::kLe || op == Bin::kGe;
}
constexpr bool IsLogic(Bin op) { return op == Bin::kAnd || op == Bin::kOr || op == Bin::kXor; }

template <Bin kOp, typename T>
constexpr bool Supports() {
  if constexpr (IsLogic(kOp)) return std::is_same_v<T, bool>;
  if constexpr (IsCompare(kOp)) return true;
  if constexpr (kOp == Bin::kPRelu) return std::is_floating_point_v<T>;
  if constexpr (kOp == Bin::kShl || kOp == Bin::kShr) {
    return std::is_unsigned_v<T> && !std::is_same_v<T, bool>;
  }
  if constexpr (kOp == Bin::kBitAnd || kOp == Bin::kBitOr || kOp == Bin::kBitXor) {
    return std::is_integral_v<T> && !std::is_same_v<T, bool>;
  }
  return !std::is_same_v<T, bool>;
}

// Integer Add, Sub, Mul and Pow wrap around in two's complement, as ONNX Runtime and numpy
// compute them; in C++ signed overflow is undefined, so they compute in an unsigned type at
// least as wide as unsigned int (narrower ones would promote back to int).
template <typename T>
using WrapType =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <typename T>
T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
}
template <typename T>
T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
}
template <typename T>
T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
}

template <typename T>
T IntPow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) return base == 1 ? T{1} : (base == T{-1} ? ((exp & 1) ? T{-1} : T{1}) : T{0});
  }
  T r = 1;
  for (; exp > 0; exp >>= 1, base = WrapMul(base, base)) {
    if (exp & 1) r = WrapMul(r, base);
  }
  return r;
}

template <Bin kOp, typename T>
inline auto Apply(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (kOp == Bin::kAdd) return WrapAdd(a, b);
    if constexpr (kOp == Bin::kSub) return WrapSub(a, b);
    if constexpr (kOp == Bin::kMul) return WrapMul(a, b);
  } else {
    if constexpr (kOp == Bin::kAdd) return static_cast<T>(a + b);
    if constexpr (kOp == Bin::kSub) return static_cast<T>(a - b);
    if constexpr (kOp == Bin::kMul) return static_cast<T>(a * b);
  }
  if constexpr (kOp == Bin::kDiv) {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return T{0};  // integer division by zero yields 0
      // lowest / -1 does not fit (the hardware traps): it wraps to lowest, as -lowest does.
      if constexpr (std::is_signed_v<T>) {
        if (b == T{-1}) return WrapSub(T{0}, a);
      }
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
  if constexpr (kOp == Bin::kPow) {
    if constexpr (std::is_integral_v<T>) {
      return IntPow<T>(a, b);
    } else {
      return static_cast<T>(std::pow(a, b));
    }
  }
  if constexpr (kOp == Bin::kMax) return a > b ? a : b;
  if constexpr (kOp == Bin::kMin) return a < b ? a : b;
  if constexpr (kOp == Bin::kMod) {  // Python modulo: the sign of the divisor
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return T{0};
      if constexpr (std::is_signed_v<T>) {
        if (b == T{-1}) return T{0};  // also avoids the overflow of lowest % -1
      }
      T r = static_cast<T>(a % b);
      if constexpr (std::is_signed_v<T>) {
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      }
      return r;
    } else {
      T r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
  }
  if constexpr (kOp == Bin::kFmod) {  // C's fmod / %: the sign of the dividend
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return T{0};
      if constexpr (std::is_signed_v<T>) {
        if (b == T{-1}) return T{0};
      }
      return static_cast<T>(a % b);
    } else {
      return static_cast<T>(std::fmod(a, b));
    }
  }
  if constexpr (kOp == Bin::kShl || kOp == Bin::kShr) {  // shifts past the width give 0
    constexpr T kBits = static_cast<T>(sizeof(T) * 8);
    if (b >= kBits) return T{0};
    return static_cast<T>(kOp == Bin::kShl ? a << b : a >> b);
  }
  if constexpr (kOp == Bin::kBitAnd) return static_cast<T>(a & b);
  if constexpr (kOp == Bin::kBitOr) return static_cast<T>(a | b);
  if constexpr (kOp == Bin::kBitXor) return static_cast<T>(a ^ b);
  if constexpr (kOp == Bin::kPRelu) return a < 0 ? a * b : a;
  if constexpr (kOp == Bin::kEq) return a == b;
  if constexpr (kOp == Bin::kLt) return a < b;
  if constexpr (kOp == Bin::kGt) return a > b;
  if constexpr (kOp == Bin::kLe) return a <= b;
  if constexpr (kOp == Bin::kGe) return a >= b;
  if constexpr (kOp == Bin::kAnd) return a && b;
  if constexpr (kOp == Bin::kOr) return a || b;
  if constexpr (kOp == Bin::kXor) return a != b;
}

// y[i] = op(a[i * sa], b[i * sb]) for a run of n outputs, with the common strides 0/1 unrolled.
template <Bin kOp, typename T, typename O>
void Row(const T* a, int64_t sa, const T* b, int64_t sb, O* y, int64_t n) {
  if (sa == 1 && sb == 1) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = Apply<kOp, T>(a[i], b[i]);
  } else if (sa == 0 && sb == 1) {
    const T av = a[0];
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = Apply<kOp, T>(av, b[i]);
  } else if (sa == 1 && sb == 0) {
    const T bv = b[0];
    if constexpr (kOp == Bin::kPow && std::is_floating_point_v<T>) {
      if (bv == T{2}) {
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) y[i] = a[i] * a[i];
        return;
      }
    }
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = Apply<kOp, T>(a[i], bv);
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = Apply<kOp, T>(a[i * sa], b[i * sb]);
  }
}

template <Bin kOp, typename T, typename O>
void RunPlan(const BroadcastPlan& plan, const T* a, const T* b, O* y, int threads) {
  const int64_t sa = plan.strides.empty() || plan.dims.empty() ? 0 : plan.strides[0].back();
  const int64_t sb = plan.dims.empty() ? 0 : plan.strides[1].back();
  ForEachBroadcastRow(plan, threads, [&](int64_t yo, const int64_t* offs, int64_t n) {
    Row<kOp, T, O>(a + offs[0], sa, b + offs[1], sb, y + yo, n);
  });
}

template <Bin kOp>
class BinaryKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    if (HasHalfFloat(args)) {
      return RunWidened(args, [this](const KernelArgs& wide) { return Run(wide); });
    }
    const KernelTensor& a = args.inputs[0];
    const KernelTensor& b = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    BroadcastPlan plan;
    if (!PlanBroadcast({a.spec.dims, b.spec.dims}, y.spec.dims, &plan)) {
      return Error("inputs " + DimsToString(a.spec.dims) + " and " + DimsToString(b.spec.dims) +
                   " do not broadcast to the output " + DimsToString(y.spec.dims));
    }
    if (NumElements(y.spec.dims) == 0) return Status::Ok();
    const void* bdata = b.data;
    std::vector<uint8_t> converted;  // Pow with an exponent of another dtype
    if (a.spec.dtype != b.spec.dtype) {
      if (kOp != Bin::kPow) {
        return Error("input dtypes differ: " + DtypeName(a.spec.dtype) + " and " +
                     DtypeName(b.spec.dtype));
      }
      if (IsIntegerDtype(a.spec.dtype) && !IsIntegerDtype(b.spec.dtype)) {
        return RunIntegerPowFloatExponent(args, plan);
      }
      GE_RETURN_IF_ERROR(ConvertExponent(b, a.spec.dtype, &converted));
      bdata = converted.data();
    }
    const DataType out_dtype = IsCompare(kOp) ? DT_BOOL : a.spec.dtype;
    if (y.spec.dtype != out_dtype) {
      return Error("output dtype " + DtypeName(y.spec.dtype) + " should be " +
                   DtypeName(out_dtype));
    }
    if (kOp == Bin::kEq && a.spec.dtype == DT_STRING) return RunStringEqual(plan, a, b, y);
    bool supported = false;
    DispatchAll(a.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (Supports<kOp, T>()) {
        using O = std::conditional_t<IsCompare(kOp), bool, T>;
        RunPlan<kOp, T, O>(plan, static_cast<const T*>(a.data), static_cast<const T*>(bdata),
                           static_cast<O*>(y.data), threads_);
        supported = true;
      }
    });
    return supported ? Status::Ok() : Unsupported(a.spec.dtype);
  }

 private:
  // Strings are equal when their bytes are (running heads, ge/graph/string_tensor.h).
  Status RunStringEqual(const BroadcastPlan& plan, const KernelTensor& a, const KernelTensor& b,
                        const KernelOutput& y) const {
    const int64_t sa = plan.strides.empty() || plan.dims.empty() ? 0 : plan.strides[0].back();
    const int64_t sb = plan.dims.empty() ? 0 : plan.strides[1].back();
    bool* out = static_cast<bool*>(y.data);
    ForEachBroadcastRow(plan, 1, [&](int64_t yo, const int64_t* offs, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        out[yo + i] = ReadString(a.data, offs[0] + i * sa) == ReadString(b.data, offs[1] + i * sb);
      }
    });
    return Status::Ok();
  }

  Status ConvertExponent(const KernelTensor& b, DataType to, std::vector<uint8_t>* out) const {
    const int64_t n = NumElements(b.spec.dims);
    bool ok = false;
    DispatchNumeric(to, [&](auto to_tag) {
      using T = decltype(to_tag);
      out->resize(static_cast<size_t>(n) * sizeof(T));
      T* dst = reinterpret_cast<T*>(out->data());
      ok = DispatchAll(b.spec.dtype, [&](auto from_tag) {
        using F = decltype(from_tag);
        const F* src = static_cast<const F*>(b.data);
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
      });
    });
    return ok ? Status::Ok() : Unsupported(b.spec.dtype, "exponent");
  }

  static bool IsIntegerDtype(DataType dtype) {
    bool integral = false;
    DispatchAll(dtype, [&](auto tag) { integral = std::is_integral_v<decltype(tag)>; });
    return integral;
  }

  // ONNX Pow of an integer base with a floating exponent: numpy's float64 power, truncated to the
  // base's dtype (saturating), rather than truncating the exponent first.
  Status RunIntegerPowFloatExponent(const KernelArgs& args, const BroadcastPlan& plan) const {
    if (args.outputs[0].spec.dtype != args.inputs[0].spec.dtype) {
      return Error("output dtype " + DtypeName(args.outputs[0].spec.dtype) + " should be " +
                   DtypeName(args.inputs[0].spec.dtype));
    }
    std::vector<double> a, b;
    if (!ToDoubles(args.inputs[0], &a)) return Unsupported(args.inputs[0].spec.dtype);
    if (!ToDoubles(args.inputs[1], &b)) return Unsupported(args.inputs[1].spec.dtype, "exponent");
    const KernelOutput& y = args.outputs[0];
    std::vector<double> out(static_cast<size_t>(NumElements(y.spec.dims)));
    RunPlan<Bin::kPow, double, double>(plan, a.data(), b.data(), out.data(), threads_);
    DispatchAll(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      T* dst = static_cast<T*>(y.data);
      for (size_t i = 0; i < out.size(); ++i) {
        const double v = out[i];
        if (!(v == v)) {
          dst[i] = T{0};
        } else if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) {
          dst[i] = std::numeric_limits<T>::lowest();
        } else if (v >= static_cast<double>(std::numeric_limits<T>::max())) {
          dst[i] = std::numeric_limits<T>::max();
        } else {
          dst[i] = static_cast<T>(v);
        }
      }
    });
    return Status::Ok();
  }

  static bool ToDoubles(const KernelTensor& t, std::vector<double>* out) {
    const int64_t n = NumElements(t.spec.dims);
    out->resize(static_cast<size_t>(n));
    return DispatchAll(t.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* src = static_cast<const T*>(t.data);
      for (int64_t i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = static_cast<double>(src[i]);
    });
  }
};

// ONNX BitwiseNot on integers.
class BitwiseNotKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != x.spec.dims || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    bool supported = false;
    DispatchAll(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const T* in = static_cast<const T*>(x.data);
        T* out = static_cast<T*>(y.data);
        const int64_t n = NumElements(x.spec.dims);
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(~in[i]);
        supported = true;
      }
    });
    return supported ? Status::Ok() : Unsupported(x.spec.dtype);
  }
};

// ONNX Mod: attribute fmod = 0 is Python's modulo, 1 is C's fmod (the sign of the dividend).
class ModKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    return fmod_ ? fmod_kernel_.Run(args) : mod_kernel_.Run(args);
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    fmod_ = AttrInt("fmod", 0) != 0;
    GE_RETURN_IF_ERROR(mod_kernel_.Prepare(spec));
    return fmod_kernel_.Prepare(spec);
  }
  bool fmod_ = false;
  BinaryKernel<Bin::kMod> mod_kernel_;
  BinaryKernel<Bin::kFmod> fmod_kernel_;
};

// ONNX BitShift on unsigned integers: attribute direction LEFT or RIGHT.
class BitShiftKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    return left_ ? left_kernel_.Run(args) : right_kernel_.Run(args);
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    const std::string direction = AttrStr("direction", "");
    if (direction != "LEFT" && direction != "RIGHT") {
      return Error("attribute 'direction' must be LEFT or RIGHT, not '" + direction + "'");
    }
    left_ = direction == "LEFT";
    GE_RETURN_IF_ERROR(left_kernel_.Prepare(spec));
    return right_kernel_.Prepare(spec);
  }
  bool left_ = true;
  BinaryKernel<Bin::kShl> left_kernel_;
  BinaryKernel<Bin::kShr> right_kernel_;
};

enum class Var { kSum, kMax, kMin, kMean };

// AddN (ONNX Sum), Max, Min, Mean over any number of broadcasting inputs: y = x0, then
// y = op(y, xi) for each further input, then / N for Mean.
template <Var kOp>
class VariadicKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    if (HasHalfFloat(args)) {
      return RunWidened(args, [this](const KernelArgs& wide) { return Run(wide); });
    }
    const KernelOutput& y = args.outputs[0];
    const DataType dtype = args.inputs[0].spec.dtype;
    for (const KernelTensor& x : args.inputs) {
      if (x.spec.dtype != dtype) return Error("inputs have different dtypes");
      BroadcastPlan plan;
      if (!PlanBroadcast({x.spec.dims}, y.spec.dims, &plan)) {
        return Error("input " + DimsToString(x.spec.dims) + " does not broadcast to the output " +
                     DimsToString(y.spec.dims));
      }
    }
    if (y.spec.dtype != dtype) return Error("output dtype differs from the inputs'");
    if (NumElements(y.spec.dims) == 0) return Status::Ok();
    bool supported = false;
    DispatchAll(dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, bool>) {
        RunTyped<T>(args);
        supported = true;
      }
    });
    return supported ? Status::Ok() : Unsupported(dtype);
  }

 private:
  template <typename T>
  void RunTyped(const KernelArgs& args) const {
    const KernelOutput& y = args.outputs[0];
    T* out = static_cast<T*>(y.data);
    BroadcastPlan plan;
    PlanBroadcast({args.inputs[0].spec.dims}, y.spec.dims, &plan);
    const T* x0 = static_cast<const T*>(args.inputs[0].data);
    if (x0 != out) {
      const int64_t s = plan.dims.empty() ? 0 : plan.strides[0].back();
      ForEachBroadcastRow(plan, threads_, [&](int64_t yo, const int64_t* offs, int64_t n) {
        for (int64_t i = 0; i < n; ++i) out[yo + i] = x0[offs[0] + i * s];
      });
    }
    constexpr Bin kBin = kOp == Var::kMax ? Bin::kMax : kOp == Var::kMin ? Bin::kMin : Bin::kAdd;
    for (size_t k = 1; k < args.inputs.size(); ++k) {
      PlanBroadcast({y.spec.dims, args.inputs[k].spec.dims}, y.spec.dims, &plan);
      RunPlan<kBin, T, T>(plan, out, static_cast<const T*>(args.inputs[k].data), out, threads_);
    }
    if constexpr (kOp == Var::kMean) {
      const int64_t n = NumElements(y.spec.dims);
      const T count = static_cast<T>(args.inputs.size());
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(out[i] / count);
    }
  }
};

// SelectV2 (ONNX Where): y = condition ? x1 : x2 with three-way broadcasting.
class SelectKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& c = args.inputs[0];
    const KernelTensor& a = args.inputs[1];
    const KernelTensor& b = args.inputs[2];
    const KernelOutput& y = args.outputs[0];
    if (c.spec.dtype != DT_BOOL)
      return Error("condition must be DT_BOOL, not " + DtypeName(c.spec.dtype));
    if (a.spec.dtype != b.spec.dtype || y.spec.dtype != a.spec.dtype) {
      return Error("x1, x2 and y must have the same dtype");
    }
    BroadcastPlan plan;
    if (!PlanBroadcast({c.spec.dims, a.spec.dims, b.spec.dims}, y.spec.dims, &plan)) {
      return Error("inputs " + DimsToString(c.spec.dims) + ", " + DimsToString(a.spec.dims) + ", " +
                   DimsToString(b.spec.dims) + " do not broadcast to " + DimsToString(y.spec.dims));
    }
    if (NumElements(y.spec.dims) == 0) return Status::Ok();
    const int64_t sc = plan.dims.empty() ? 0 : plan.strides[0].back();
    const int64_t sa = plan.dims.empty() ? 0 : plan.strides[1].back();
    const int64_t sb = plan.dims.empty() ? 0 : plan.strides[2].back();
    const bool ok = DispatchMovable(a.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const bool* cp = static_cast<const bool*>(c.data);
      const T* ap = static_cast<const T*>(a.data);
      const T* bp = static_cast<const T*>(b.data);
      T* yp = static_cast<T*>(y.data);
      ForEachBroadcastRow(plan, threads_, [&](int64_t yo, const int64_t* offs, int64_t n) {
        const bool* cr = cp + offs[0];
        const T* ar = ap + offs[1];
        const T* br = bp + offs[2];
        T* yr = yp + yo;
        for (int64_t i = 0; i < n; ++i) yr[i] = cr[i * sc] ? ar[i * sa] : br[i * sb];
      });
    });
    return ok ? Status::Ok() : Unsupported(a.spec.dtype);
  }
};

}  // namespace

void RegisterBinaryKernels(KernelTable& t) {
  t.Add("Add", MakeKernel<BinaryKernel<Bin::kAdd>>);
  t.Add("Sub", MakeKernel<BinaryKernel<Bin::kSub>>);
  t.Add("Mul", MakeKernel<BinaryKernel<Bin::kMul>>);
  t.Add("RealDiv", MakeKernel<BinaryKernel<Bin::kDiv>>);
  t.Add("Div", MakeKernel<BinaryKernel<Bin::kDiv>>);
  t.Add("Pow", MakeKernel<BinaryKernel<Bin::kPow>>);
  t.Add("Maximum", MakeKernel<BinaryKernel<Bin::kMax>>);
  t.Add("Minimum", MakeKernel<BinaryKernel<Bin::kMin>>);
  t.Add("Mod", MakeKernel<ModKernel>);
  t.Add("BitShift", MakeKernel<BitShiftKernel>);
  t.Add("BitwiseAnd", MakeKernel<BinaryKernel<Bin::kBitAnd>>);
  t.Add("BitwiseOr", MakeKernel<BinaryKernel<Bin::kBitOr>>);
  t.Add("BitwiseXor", MakeKernel<BinaryKernel<Bin::kBitXor>>);
  t.Add("BitwiseNot", MakeKernel<BitwiseNotKernel>);
  t.Add("PRelu", MakeKernel<BinaryKernel<Bin::kPRelu>>);
  t.Add("Equal", MakeKernel<BinaryKernel<Bin::kEq>>);
  t.Add("Less", MakeKernel<BinaryKernel<Bin::kLt>>);
  t.Add("Greater", MakeKernel<BinaryKernel<Bin::kGt>>);
  t.Add("LessEqual", MakeKernel<BinaryKernel<Bin::kLe>>);
  t.Add("GreaterEqual", MakeKernel<BinaryKernel<Bin::kGe>>);
  t.Add("LogicalAnd", MakeKernel<BinaryKernel<Bin::kAnd>>);
  t.Add("LogicalOr", MakeKernel<BinaryKernel<Bin::kOr>>);
  t.Add("LogicalXor", MakeKernel<BinaryKernel<Bin::kXor>>);
  t.Add("AddN", MakeKernel<VariadicKernel<Var::kSum>>);
  t.Add("Max", MakeKernel<VariadicKernel<Var::kMax>>);
  t.Add("Min", MakeKernel<VariadicKernel<Var::kMin>>);
  t.Add("Mean", MakeKernel<VariadicKernel<Var::kMean>>);
  t.Add("SelectV2", MakeKernel<SelectKernel>);
}

}  // namespace ge::host_cpu

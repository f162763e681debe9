// Elementwise unary kernels: math functions and activations as Eigen array expressions
// (vectorized exp/log/tanh/erf), split over threads for large tensors; Clip; IsNaN / IsInf /
// LogicalNot (bool outputs).
#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <unsupported/Eigen/SpecialFunctions>

#include "kernel_util.h"
#include "logistic.h"

namespace ge::host_cpu {
namespace {

template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Attribute reader handed to an op's Load: (name, default) → value.
using AttrGetter = std::function<float(const std::string&, float)>;

// Each op: kInts says whether integer inputs are accepted; Load reads attributes; operator()
// maps an Eigen array expression to the result expression.
struct NoAttrs {
  void Load(const AttrGetter&) {}
};
#define GE_UNARY_OP(Name, ints, expr)   \
  struct Name : NoAttrs {               \
    static constexpr bool kInts = ints; \
    template <typename A>               \
    auto operator()(const A& x) const { \
      using S = typename A::Scalar;     \
      (void)sizeof(S);                  \
      return expr;                      \
    }                                   \
  };
GE_UNARY_OP(AbsOp, true, x.abs())
GE_UNARY_OP(NegOp, true, -x)
GE_UNARY_OP(SignOp, true, x.sign())
GE_UNARY_OP(ReluOp, true, x.max(S(0)))
GE_UNARY_OP(Relu6Op, true, x.max(S(0)).min(S(6)))
GE_UNARY_OP(ExpOp, false, x.exp())
GE_UNARY_OP(LogOp, false, x.log())
GE_UNARY_OP(SqrtOp, false, x.sqrt())
GE_UNARY_OP(RsqrtOp, false, x.rsqrt())
GE_UNARY_OP(ReciprocalOp, false, x.inverse())
GE_UNARY_OP(FloorOp, false, x.floor())
GE_UNARY_OP(CeilOp, false, x.ceil())
GE_UNARY_OP(RoundOp, false, x.rint())  // half to even, as ONNX
GE_UNARY_OP(SinOp, false, x.sin())
GE_UNARY_OP(CosOp, false, x.cos())
GE_UNARY_OP(TanOp, false, x.tan())
GE_UNARY_OP(AsinOp, false, x.asin())
GE_UNARY_OP(AcosOp, false, x.acos())
GE_UNARY_OP(AtanOp, false, x.atan())
GE_UNARY_OP(SinhOp, false, x.sinh())
GE_UNARY_OP(CoshOp, false, x.cosh())
GE_UNARY_OP(AsinhOp, false, x.asinh())
GE_UNARY_OP(AcoshOp, false, x.acosh())
GE_UNARY_OP(AtanhOp, false, x.atanh())
GE_UNARY_OP(TanhOp, false, x.tanh())
GE_UNARY_OP(ErfOp, false, x.erf())
GE_UNARY_OP(SigmoidOp, false, Logistic(x))
GE_UNARY_OP(SoftsignOp, false, x / (S(1) + x.abs()))
GE_UNARY_OP(SoftplusOp, false, x.max(S(0)) + (-x.abs()).exp().log1p())
GE_UNARY_OP(MishOp, false, x*(x.max(S(0)) + (-x.abs()).exp().log1p()).tanh())
GE_UNARY_OP(HardSwishOp, false, x*(x / S(6) + S(0.5)).max(S(0)).min(S(1)))
#undef GE_UNARY_OP

struct LeakyReluOp {
  static constexpr bool kInts = false;
  float alpha = 0.01F;
  void Load(const AttrGetter& get) { alpha = get("alpha", 0.01F); }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return (x < S(0)).select(x * S(alpha), x);
  }
};
struct EluOp {
  static constexpr bool kInts = false;
  float alpha = 1.0F;
  void Load(const AttrGetter& get) { alpha = get("alpha", 1.0F); }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return (x > S(0)).select(x, S(alpha) * x.expm1());
  }
};
struct SeluOp {
  static constexpr bool kInts = false;
  float alpha = 1.67326319217681884765625F;
  float gamma = 1.05070102214813232421875F;
  void Load(const AttrGetter& get) {
    alpha = get("alpha", alpha);
    gamma = get("gamma", gamma);
  }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return S(gamma) * (x > S(0)).select(x, S(alpha) * x.expm1());
  }
};
struct CeluOp {
  static constexpr bool kInts = false;
  float alpha = 1.0F;
  void Load(const AttrGetter& get) { alpha = get("alpha", 1.0F); }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return x.max(S(0)) + (S(alpha) * (x / S(alpha)).expm1()).min(S(0));
  }
};
struct HardSigmoidOp {
  static constexpr bool kInts = false;
  float alpha = 0.2F;
  float beta = 0.5F;
  void Load(const AttrGetter& get) {
    alpha = get("alpha", 0.2F);
    beta = get("beta", 0.5F);
  }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return (x * S(alpha) + S(beta)).max(S(0)).min(S(1));
  }
};
struct ThresholdedReluOp {
  static constexpr bool kInts = false;
  float alpha = 1.0F;
  void Load(const AttrGetter& get) { alpha = get("alpha", 1.0F); }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return (x > S(alpha)).select(x, S(0));
  }
};
struct ShrinkOp {
  static constexpr bool kInts = false;
  float bias = 0.0F;
  float lambd = 0.5F;
  void Load(const AttrGetter& get) {
    bias = get("bias", 0.0F);
    lambd = get("lambd", 0.5F);
  }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return (x < S(-lambd)).select(x + S(bias), (x > S(lambd)).select(x - S(bias), S(0)));
  }
};
struct SwishOp {
  static constexpr bool kInts = false;
  float scale = 1.0F;
  void Load(const AttrGetter& get) { scale = get("scale", 1.0F); }
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return x * Logistic(x * S(scale));
  }
};
// Gelu: 0.5 x (1 + erf(x / sqrt 2)), or the tanh approximation (attribute approximate="tanh").
struct GeluErfOp : NoAttrs {
  static constexpr bool kInts = false;
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    return S(0.5) * x * (S(1) + (x * S(M_SQRT1_2)).erf());
  }
};
struct GeluTanhOp : NoAttrs {
  static constexpr bool kInts = false;
  template <typename A>
  auto operator()(const A& x) const {
    using S = typename A::Scalar;
    const S k = S(0.7978845608028654);  // sqrt(2 / pi)
    return S(0.5) * x * (S(1) + (k * (x + S(0.044715) * x.cube())).tanh());
  }
};

template <typename Op, typename T>
void Apply(const Op& op, const T* x, T* y, int64_t n, int threads) {
  ParallelFor(n, threads, 8, [&](int64_t begin, int64_t end) {
    ConstArrayMap<T> in(x + begin, end - begin);
    ArrayMap<T> out(y + begin, end - begin);
    out = op(in);
  });
}

template <typename Op>
class UnaryKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dims != y.spec.dims || x.spec.dtype != y.spec.dtype) {
      return Error("output " + DtypeName(y.spec.dtype) + DimsToString(y.spec.dims) +
                   " does not match input " + DtypeName(x.spec.dtype) + DimsToString(x.spec.dims));
    }
    const int64_t n = NumElements(x.spec.dims);
    bool ok = false;
    auto run = [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T> || (Op::kInts && std::is_signed_v<T>)) {
        Apply(op_, static_cast<const T*>(x.data), static_cast<T*>(y.data), n, threads_);
        ok = true;
      }
    };
    if (x.spec.dtype == DT_FLOAT || x.spec.dtype == DT_DOUBLE) {
      DispatchFloat(x.spec.dtype, run);
    } else if (x.spec.dtype == DT_INT32 || x.spec.dtype == DT_INT64) {
      DispatchNumeric(x.spec.dtype, run);
    }
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    op_.Load([this](const std::string& name, float def) { return AttrFloat(name, def); });
    return Status::Ok();
  }
  Op op_;
};

class GeluKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    return tanh_ ? tanh_kernel_.Run(args) : erf_kernel_.Run(args);
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    const std::string approximate = AttrStr("approximate", "none");
    if (approximate != "none" && approximate != "tanh") {
      return Error("attribute 'approximate' must be 'none' or 'tanh', not '" + approximate + "'");
    }
    tanh_ = approximate == "tanh";
    GE_RETURN_IF_ERROR(erf_kernel_.Prepare(spec));
    return tanh_kernel_.Prepare(spec);
  }
  bool tanh_ = false;
  UnaryKernel<GeluErfOp> erf_kernel_;
  UnaryKernel<GeluTanhOp> tanh_kernel_;
};

// ONNX Clip: y = min(max(x, min), max) with optional scalar bounds (inputs 1 and 2).
class ClipKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dims != y.spec.dims || x.spec.dtype != y.spec.dtype) {
      return Error("output does not match input " + DimsToString(x.spec.dims));
    }
    for (size_t i = 1; i <= 2; ++i) {
      if (!HasInput(args, i)) continue;
      if (args.inputs[i].spec.dtype != x.spec.dtype || NumElements(args.inputs[i].spec.dims) != 1) {
        return Error(std::string(i == 1 ? "min" : "max") +
                     " must be a scalar of the input's dtype");
      }
    }
    const int64_t n = NumElements(x.spec.dims);
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T lo = HasInput(args, 1) ? *static_cast<const T*>(args.inputs[1].data)
                                     : std::numeric_limits<T>::lowest();
      const T hi = HasInput(args, 2) ? *static_cast<const T*>(args.inputs[2].data)
                                     : std::numeric_limits<T>::max();
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      ParallelFor(n, threads_, 1, [&](int64_t begin, int64_t end) {
#pragma omp simd
        for (int64_t i = begin; i < end; ++i) {
          const T v = in[i] < lo ? lo : in[i];
          out[i] = v > hi ? hi : v;
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }
};

enum class Pred { kIsNaN, kIsInf, kNot };

// IsNaN, IsInf (attributes detect_negative / detect_positive) and LogicalNot: bool outputs.
template <Pred kPred>
class PredicateKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dims != y.spec.dims || y.spec.dtype != DT_BOOL) {
      return Error("output must be DT_BOOL" + DimsToString(x.spec.dims));
    }
    const int64_t n = NumElements(x.spec.dims);
    bool* out = static_cast<bool*>(y.data);
    if constexpr (kPred == Pred::kNot) {
      if (x.spec.dtype != DT_BOOL) return Unsupported(x.spec.dtype);
      const bool* in = static_cast<const bool*>(x.data);
      for (int64_t i = 0; i < n; ++i) out[i] = !in[i];
      return Status::Ok();
    } else {
      const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* in = static_cast<const T*>(x.data);
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (kPred == Pred::kIsNaN) {
            out[i] = std::isnan(in[i]);
          } else {
            out[i] = std::isinf(in[i]) && ((in[i] > 0 && positive_) || (in[i] < 0 && negative_));
          }
        }
      });
      return ok ? Status::Ok() : Unsupported(x.spec.dtype);
    }
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    negative_ = AttrInt("detect_negative", 1) != 0;
    positive_ = AttrInt("detect_positive", 1) != 0;
    return Status::Ok();
  }
  bool negative_ = true;
  bool positive_ = true;
};

}  // namespace

void RegisterUnaryKernels(KernelTable& t) {
  t.Add("Abs", MakeKernel<UnaryKernel<AbsOp>>);
  t.Add("Neg", MakeKernel<UnaryKernel<NegOp>>);
  t.Add("Sign", MakeKernel<UnaryKernel<SignOp>>);
  t.Add("Relu", MakeKernel<UnaryKernel<ReluOp>>);
  t.Add("Relu6", MakeKernel<UnaryKernel<Relu6Op>>);
  t.Add("Exp", MakeKernel<UnaryKernel<ExpOp>>);
  t.Add("Log", MakeKernel<UnaryKernel<LogOp>>);
  t.Add("Sqrt", MakeKernel<UnaryKernel<SqrtOp>>);
  t.Add("Rsqrt", MakeKernel<UnaryKernel<RsqrtOp>>);
  t.Add("Reciprocal", MakeKernel<UnaryKernel<ReciprocalOp>>);
  t.Add("Floor", MakeKernel<UnaryKernel<FloorOp>>);
  t.Add("Ceil", MakeKernel<UnaryKernel<CeilOp>>);
  t.Add("Round", MakeKernel<UnaryKernel<RoundOp>>);
  t.Add("Sin", MakeKernel<UnaryKernel<SinOp>>);
  t.Add("Cos", MakeKernel<UnaryKernel<CosOp>>);
  t.Add("Tan", MakeKernel<UnaryKernel<TanOp>>);
  t.Add("Asin", MakeKernel<UnaryKernel<AsinOp>>);
  t.Add("Acos", MakeKernel<UnaryKernel<AcosOp>>);
  t.Add("Atan", MakeKernel<UnaryKernel<AtanOp>>);
  t.Add("Sinh", MakeKernel<UnaryKernel<SinhOp>>);
  t.Add("Cosh", MakeKernel<UnaryKernel<CoshOp>>);
  t.Add("Asinh", MakeKernel<UnaryKernel<AsinhOp>>);
  t.Add("Acosh", MakeKernel<UnaryKernel<AcoshOp>>);
  t.Add("Atanh", MakeKernel<UnaryKernel<AtanhOp>>);
  t.Add("Tanh", MakeKernel<UnaryKernel<TanhOp>>);
  t.Add("Erf", MakeKernel<UnaryKernel<ErfOp>>);
  t.Add("Sigmoid", MakeKernel<UnaryKernel<SigmoidOp>>);
  t.Add("Softsign", MakeKernel<UnaryKernel<SoftsignOp>>);
  t.Add("Softplus", MakeKernel<UnaryKernel<SoftplusOp>>);
  t.Add("Mish", MakeKernel<UnaryKernel<MishOp>>);
  t.Add("HardSwish", MakeKernel<UnaryKernel<HardSwishOp>>);
  t.Add("LeakyRelu", MakeKernel<UnaryKernel<LeakyReluOp>>);
  t.Add("Elu", MakeKernel<UnaryKernel<EluOp>>);
  t.Add("Selu", MakeKernel<UnaryKernel<SeluOp>>);
  t.Add("Celu", MakeKernel<UnaryKernel<CeluOp>>);
  t.Add("HardSigmoid", MakeKernel<UnaryKernel<HardSigmoidOp>>);
  t.Add("ThresholdedRelu", MakeKernel<UnaryKernel<ThresholdedReluOp>>);
  t.Add("Shrink", MakeKernel<UnaryKernel<ShrinkOp>>);
  t.Add("Swish", MakeKernel<UnaryKernel<SwishOp>>);
  t.Add("Gelu", MakeKernel<GeluKernel>);
  t.Add("Clip", MakeKernel<ClipKernel>);
  t.Add("IsNaN", MakeKernel<PredicateKernel<Pred::kIsNaN>>);
  t.Add("IsInf", MakeKernel<PredicateKernel<Pred::kIsInf>>);
  t.Add("LogicalNot", MakeKernel<PredicateKernel<Pred::kNot>>);
}

}  // namespace ge::host_cpu

// ONNX's linear quantization on the CPU: QuantizeLinear and DequantizeLinear (per tensor, per axis
// or blocked; 8- and 16-bit integers, the 4- and 2-bit integers and the float8 and float4 types),
// DynamicQuantizeLinear, MatMulInteger and QLinearMatMul (uint8 / int8, int32 accumulation).
// Rounding is to nearest even (std::nearbyint), then saturation to the integer type, as ONNX says.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ge/graph/narrow_types.h"
#include "half_float_util.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Calls f(T{}) for the 8-bit quantized types.
template <typename F>
bool DispatchQuant(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_UINT8:
      f(uint8_t{});
      return true;
    case DT_INT8:
      f(int8_t{});
      return true;
    default:
      return false;
  }
}

template <typename T>
T SaturateRound(float v) {
  const float r = std::nearbyint(v);
  if (!(r == r)) return T{0};
  return static_cast<T>(std::clamp(r, static_cast<float>(std::numeric_limits<T>::lowest()),
                                   static_cast<float>(std::numeric_limits<T>::max())));
}

// Where an element's scale and zero point are: x seen as [outer, axis, inner], the parameter is
// one value (per tensor), one per axis index (per axis), or one per block of `block` axis indices
// with x's other dims (blocked).
struct QuantParams {
  int64_t axis_len = 1;
  int64_t inner = 1;
  int64_t block = 0;   // 0: not blocked
  int64_t blocks = 1;  // ceil(axis_len / block)
  bool per_tensor = true;

  int64_t Index(int64_t i) const {
    if (per_tensor) return 0;
    const int64_t a = (i / inner) % axis_len;
    if (block == 0) return a;
    const int64_t outer = i / (inner * axis_len);
    return (outer * blocks + a / block) * inner + i % inner;
  }
};

// Calls f(read) with read(i) giving element i of a quantized tensor as a double: 8-, 16- and
// 32-bit integers, and the narrow integers and floats (ge/graph/narrow_types.h).
template <typename F>
bool WithQuantReader(const void* data, DataType dtype, F&& f) {
  auto typed = [&](auto tag) {
    using T = decltype(tag);
    const auto* p = static_cast<const T*>(data);
    f([p](int64_t i) { return static_cast<double>(p[i]); });
    return true;
  };
  switch (dtype) {
    case DT_INT8:
      return typed(int8_t{});
    case DT_UINT8:
      return typed(uint8_t{});
    case DT_INT16:
      return typed(int16_t{});
    case DT_UINT16:
      return typed(uint16_t{});
    case DT_INT32:
      return typed(int32_t{});
    default:
      break;
  }
  if (!IsNarrowType(dtype)) return false;
  const int bits = NarrowBits(dtype);
  const auto* codes = static_cast<const uint8_t*>(data);
  f([=](int64_t i) { return NarrowFloatValue(dtype, ReadPackedCode(codes, i, bits)); });
  return true;
}

// The integer range of a quantized integer type; false for the others.
bool IntegerRange(DataType dtype, double* lo, double* hi) {
  switch (dtype) {
    case DT_INT8:
      *lo = -128.0, *hi = 127.0;
      return true;
    case DT_UINT8:
      *lo = 0.0, *hi = 255.0;
      return true;
    case DT_INT16:
      *lo = -32768.0, *hi = 32767.0;
      return true;
    case DT_UINT16:
      *lo = 0.0, *hi = 65535.0;
      return true;
    case DT_INT4:
      *lo = -8.0, *hi = 7.0;
      return true;
    case DT_UINT4:
      *lo = 0.0, *hi = 15.0;
      return true;
    case DT_INT2:
      *lo = -2.0, *hi = 1.0;
      return true;
    case DT_UINT2:
      *lo = 0.0, *hi = 3.0;
      return true;
    default:
      return false;
  }
}

bool IsNarrowFloat(DataType dtype) { return IsNarrowType(dtype) && !IsNarrowIntegerType(dtype); }

// Reads a float, float16, bfloat16 (or, for QuantizeLinear's x, int32) tensor as floats.
bool ReadAsFloats(const KernelTensor& t, std::vector<float>* out) {
  const int64_t n = NumElements(t.spec.dims);
  out->resize(static_cast<size_t>(n));
  if (t.spec.dtype == DT_FLOAT) {
    std::copy_n(static_cast<const float*>(t.data), n, out->data());
    return true;
  }
  if (t.spec.dtype == DT_INT32) {
    const auto* v = static_cast<const int32_t*>(t.data);
    for (int64_t i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = static_cast<float>(v[i]);
    return true;
  }
  return DispatchHalf(t.spec.dtype, [&](auto tag) {
    using H = decltype(tag);
    HalfToFloat(static_cast<const H*>(t.data), out->data(), n);
  });
}

class QuantKernelBase : public KernelBase {
 protected:
  // Checks a scale / zero point against x: a scalar or [1] (per tensor), 1-D of x's dim `axis`
  // (per axis), or x's shape with dim `axis` counted in blocks of block_size (blocked).
  Result<QuantParams> ParamsOf(const std::vector<int64_t>& x,
                               const std::vector<int64_t>& param) const {
    QuantParams q;
    if (NumElements(param) == 1 && param.size() <= 1) return q;
    const auto rank = static_cast<int64_t>(x.size());
    GE_ASSIGN_OR_RETURN(int64_t axis, AxisAttr(AttrInt("axis", 1), rank));
    const auto ax = static_cast<size_t>(axis);
    q.per_tensor = false;
    q.axis_len = x[ax];
    for (size_t d = ax + 1; d < x.size(); ++d) q.inner *= x[d];
    const int64_t block = AttrInt("block_size", 0);
    if (block <= 0) {
      if (param.size() != 1 || param[0] != x[ax]) {
        return Error("scale / zero point " + DimsToString(param) +
                     " is neither a scalar nor 1-D of dim " + std::to_string(axis) + " of x " +
                     DimsToString(x) + " (and block_size is not set)");
      }
      return q;
    }
    q.block = block;
    q.blocks = x[ax] / block + (x[ax] % block != 0 ? 1 : 0);
    std::vector<int64_t> want = x;
    want[ax] = q.blocks;
    if (param != want) {
      return Error("blocked scale / zero point " + DimsToString(param) + " is not " +
                   DimsToString(want) + ": x " + DimsToString(x) + " in blocks of " +
                   std::to_string(block) + " along dim " + std::to_string(axis));
    }
    return q;
  }
  // The scale's and zero point's layout, the same for both.
  Result<QuantParams> ParamsOf(const KernelArgs& args) const {
    GE_ASSIGN_OR_RETURN(QuantParams q,
                        ParamsOf(args.inputs[0].spec.dims, args.inputs[1].spec.dims));
    if (HasInput(args, 2) && args.inputs[2].spec.dims != args.inputs[1].spec.dims &&
        NumElements(args.inputs[2].spec.dims) != NumElements(args.inputs[1].spec.dims)) {
      return Error("zero point " + DimsToString(args.inputs[2].spec.dims) + " and scale " +
                   DimsToString(args.inputs[1].spec.dims) + " differ");
    }
    return q;
  }
};

// y = saturate(round(x / y_scale) + y_zero_point) for the integer types; x / y_scale rounded to
// the float8 types (saturating unless saturate = 0; their zero point is zero), and
// x / y_scale + y_zero_point rounded to FLOAT4_E2M1. uint8 without a zero point or output_dtype.
class QuantizeKernel final : public QuantKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const DataType out = y.spec.dtype;
    const bool has_zp = HasInput(args, 2);
    if (has_zp && args.inputs[2].spec.dtype != out) {
      return Error("y_zero_point and y must have the same dtype");
    }
    GE_ASSIGN_OR_RETURN(QuantParams q, ParamsOf(args));
    std::vector<float> xs, scales;
    if (!ReadAsFloats(x, &xs)) return Unsupported(x.spec.dtype);
    if (!ReadAsFloats(args.inputs[1], &scales) || args.inputs[1].spec.dtype == DT_INT32) {
      return Unsupported(args.inputs[1].spec.dtype, "y_scale");
    }
    std::vector<double> zps(scales.size(), 0.0);
    if (has_zp && !WithQuantReader(args.inputs[2].data, out, [&](auto read) {
          for (size_t p = 0; p < zps.size(); ++p) zps[p] = read(static_cast<int64_t>(p));
        })) {
      return Unsupported(out, "output");
    }
    double lo = 0.0, hi = 0.0;
    const bool integer = IntegerRange(out, &lo, &hi);
    if (!integer && !IsNarrowFloat(out)) return Unsupported(out, "output");
    const auto n = static_cast<int64_t>(xs.size());
    // Each element's value in the output type: the clamped integer, or the real to round.
    auto value = [&](int64_t i) {
      const auto p = static_cast<size_t>(q.Index(i));
      const float scaled = xs[static_cast<size_t>(i)] / scales[p];
      if (integer) {
        const double r = std::nearbyint(scaled);
        return r == r ? std::clamp(r + zps[p], lo, hi) : std::clamp(zps[p], lo, hi);
      }
      if (out == DT_FLOAT4_E2M1) return static_cast<double>(static_cast<float>(scaled + zps[p]));
      return static_cast<double>(scaled);
    };
    auto store = [&](auto tag) {
      using T = decltype(tag);
      T* o = static_cast<T*>(y.data);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(value(i));
    };
    switch (out) {
      case DT_INT8:
        store(int8_t{});
        return Status::Ok();
      case DT_UINT8:
        store(uint8_t{});
        return Status::Ok();
      case DT_INT16:
        store(int16_t{});
        return Status::Ok();
      case DT_UINT16:
        store(uint16_t{});
        return Status::Ok();
      default:
        break;
    }
    NarrowConversion how;
    how.saturate = AttrInt("saturate", 1) != 0;
    const int bits = NarrowBits(out);
    auto* codes = static_cast<uint8_t*>(y.data);
    for (int64_t i = 0; i < n; ++i) {
      const double v = value(i);
      WritePackedCode(codes, i, bits,
                      integer ? NarrowCodeFromInteger(out, static_cast<int64_t>(v))
                              : NarrowCodeFromDouble(out, v, how));
    }
    return Status::Ok();
  }
};

// y = (x - x_zero_point) * x_scale, in float, then in y's dtype (x_scale's, or output_dtype).
// The float8 and float4 types have no zero point: a float8 one must be zero.
class DequantizeKernel final : public QuantKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    GE_ASSIGN_OR_RETURN(QuantParams q, ParamsOf(args));
    std::vector<float> scales;
    if (!ReadAsFloats(args.inputs[1], &scales) || args.inputs[1].spec.dtype == DT_INT32) {
      return Unsupported(args.inputs[1].spec.dtype, "x_scale");
    }
    const bool narrow_float = IsNarrowFloat(x.spec.dtype);
    std::vector<double> zps(scales.size(), 0.0);
    if (HasInput(args, 2)) {
      const KernelTensor& zp = args.inputs[2];
      if (zp.spec.dtype != x.spec.dtype)
        return Error("x_zero_point and x must have the same dtype");
      if (!WithQuantReader(zp.data, zp.spec.dtype, [&](auto read) {
            for (size_t p = 0; p < zps.size(); ++p) zps[p] = read(static_cast<int64_t>(p));
          })) {
        return Unsupported(zp.spec.dtype, "x_zero_point");
      }
      if (narrow_float && x.spec.dtype != DT_FLOAT4_E2M1) {
        for (const double z : zps) {
          if (z != 0.0) return Error("x_zero_point of a float8 x must be zero");
        }
      }
      if (narrow_float) std::fill(zps.begin(), zps.end(), 0.0);
    }
    const int64_t n = NumElements(x.spec.dims);
    bool ok = false;
    const bool known = WithQuantReader(x.data, x.spec.dtype, [&](auto read) {
      auto run = [&](auto tag) {
        using T = decltype(tag);
        T* out = static_cast<T*>(y.data);
        for (int64_t i = 0; i < n; ++i) {
          const auto p = static_cast<size_t>(q.Index(i));
          const auto dx = static_cast<float>(read(i) - zps[p]);
          out[i] = FromDouble<T>(static_cast<double>(dx * scales[p]));
        }
        ok = true;
      };
      if (y.spec.dtype == DT_FLOAT) run(float{});
      DispatchHalf(y.spec.dtype, run);
    });
    if (!known) return Unsupported(x.spec.dtype);
    return ok ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }
};

// uint8 quantization with the scale and zero point that map [min(x, 0), max(x, 0)] onto [0, 255].
class DynamicQuantizeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 3));
    const KernelTensor& x = args.inputs[0];
    if (x.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const int64_t n = NumElements(x.spec.dims);
    const auto* in = static_cast<const float*>(x.data);
    float lo = 0.0F, hi = 0.0F;
    for (int64_t i = 0; i < n; ++i) {
      lo = std::min(lo, in[i]);
      hi = std::max(hi, in[i]);
    }
    const float scale = (hi - lo) / 255.0F;
    const uint8_t zp = scale == 0.0F ? uint8_t{0} : SaturateRound<uint8_t>((0.0F - lo) / scale);
    auto* y = static_cast<uint8_t*>(args.outputs[0].data);
    for (int64_t i = 0; i < n; ++i) {
      y[i] = scale == 0.0F
                 ? zp
                 : SaturateRound<uint8_t>(std::nearbyint(in[i] / scale) + static_cast<float>(zp));
    }
    *static_cast<float*>(args.outputs[1].data) = scale;
    *static_cast<uint8_t*>(args.outputs[2].data) = zp;
    return Status::Ok();
  }
};

// Batched matmul geometry with numpy broadcasting of the batch dims (1-D operands promoted).
struct MatMulShape {
  int64_t m = 1, k = 1, n = 1;
  std::vector<int64_t> a_batch_offset, b_batch_offset;  // per output batch, in elements
};

Result<MatMulShape> PlanMatMul(std::vector<int64_t> a, std::vector<int64_t> b,
                               const std::vector<int64_t>& y) {
  if (a.empty() || b.empty()) return ParamInvalid("matmul operands must not be scalars");
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  MatMulShape s;
  s.m = a[a.size() - 2];
  s.k = a.back();
  s.n = b.back();
  if (b[b.size() - 2] != s.k) {
    return ParamInvalid("inner dims differ: " + DimsToString(a) + " x " + DimsToString(b));
  }
  const std::vector<int64_t> ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  std::vector<int64_t> batch;
  if (!BroadcastDims(ab, bb, &batch)) {
    return ParamInvalid("batch dims do not broadcast: " + DimsToString(a) + " x " +
                        DimsToString(b));
  }
  if (NumElements(batch) * s.m * s.n != NumElements(y)) {
    return ParamInvalid("output " + DimsToString(y) + " does not match the operands");
  }
  const int64_t count = NumElements(batch);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat, ao = 0, bo = 0, astride = s.m * s.k, bstride = s.k * s.n;
    for (size_t k = 0; k < batch.size(); ++k) {
      const int64_t coord = rest % batch[batch.size() - 1 - k];
      rest /= batch[batch.size() - 1 - k];
      if (k < ab.size()) {
        const int64_t extent = ab[ab.size() - 1 - k];
        ao += (extent == 1 ? 0 : coord) * astride;
        astride *= extent;
      }
      if (k < bb.size()) {
        const int64_t extent = bb[bb.size() - 1 - k];
        bo += (extent == 1 ? 0 : coord) * bstride;
        bstride *= extent;
      }
    }
    s.a_batch_offset.push_back(ao);
    s.b_batch_offset.push_back(bo);
  }
  return s;
}

// A zero point or scale: per tensor (one element) or per row of a / column of b (`count`).
template <typename T>
Result<std::vector<T>> PerRowOrColumn(const KernelArgs& args, size_t index, int64_t count,
                                      T absent) {
  if (!HasInput(args, index)) return std::vector<T>(static_cast<size_t>(count), absent);
  const KernelTensor& t = args.inputs[index];
  const int64_t n = NumElements(t.spec.dims);
  if (n != 1 && n != count) {
    return ParamInvalid("input #" + std::to_string(index) + " " + DimsToString(t.spec.dims) +
                        " is neither per tensor nor of " + std::to_string(count) + " elements");
  }
  std::vector<T> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    out[static_cast<size_t>(i)] = static_cast<const T*>(t.data)[n == 1 ? 0 : i];
  return out;
}

// acc[b][i][j] = sum_k (a[i][k] - a_zp[i]) * (b[k][j] - b_zp[j]) in int32, for every batch.
template <typename A, typename B>
void IntegerMatMul(const MatMulShape& s, const A* a, const B* b, const std::vector<int32_t>& a_zp,
                   const std::vector<int32_t>& b_zp, int32_t* acc) {
  for (size_t batch = 0; batch < s.a_batch_offset.size(); ++batch) {
    const A* ab = a + s.a_batch_offset[batch];
    const B* bb = b + s.b_batch_offset[batch];
    int32_t* yb = acc + static_cast<int64_t>(batch) * s.m * s.n;
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j) {
        int32_t sum = 0;
        for (int64_t k = 0; k < s.k; ++k) {
          sum += (static_cast<int32_t>(ab[i * s.k + k]) - a_zp[static_cast<size_t>(i)]) *
                 (static_cast<int32_t>(bb[k * s.n + j]) - b_zp[static_cast<size_t>(j)]);
        }
        yb[i * s.n + j] = sum;
      }
    }
  }
}

// The int32 product of two 8-bit operands with zero points at inputs za and zb.
class IntegerMatMulBase : public KernelBase {
 protected:
  Status Accumulate(const KernelArgs& args, size_t ia, size_t ib, size_t za, size_t zb,
                    const std::vector<int64_t>& y_dims, MatMulShape* shape,
                    std::vector<int32_t>* acc) const {
    const KernelTensor& a = args.inputs[ia];
    const KernelTensor& b = args.inputs[ib];
    auto plan = PlanMatMul(a.spec.dims, b.spec.dims, y_dims);
    if (!plan.ok()) return Error(plan.status().message());
    *shape = std::move(plan).value();
    acc->assign(static_cast<size_t>(NumElements(y_dims)), 0);
    std::vector<int32_t> a_zp, b_zp;
    bool zp_ok = true;
    Status zp_status = Status::Ok();
    auto read = [&](size_t index, DataType dtype, int64_t count, std::vector<int32_t>* out) {
      DispatchQuant(dtype, [&](auto tag) {
        using T = decltype(tag);
        auto v = PerRowOrColumn<T>(args, index, count, T{0});
        if (!v.ok()) {
          zp_ok = false;
          zp_status = Error(v.status().message());
          return;
        }
        out->assign(v->begin(), v->end());
      });
    };
    read(za, a.spec.dtype, shape->m, &a_zp);
    read(zb, b.spec.dtype, shape->n, &b_zp);
    if (!zp_ok) return zp_status;
    if (a_zp.empty() || b_zp.empty())
      return Unsupported(a_zp.empty() ? a.spec.dtype : b.spec.dtype);
    DispatchQuant(a.spec.dtype, [&](auto at) {
      DispatchQuant(b.spec.dtype, [&](auto bt) {
        IntegerMatMul(*shape, static_cast<const decltype(at)*>(a.data),
                      static_cast<const decltype(bt)*>(b.data), a_zp, b_zp, acc->data());
      });
    });
    return Status::Ok();
  }
};

class MatMulIntegerKernel final : public IntegerMatMulBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dtype != DT_INT32) return Unsupported(y.spec.dtype, "output");
    MatMulShape shape;
    std::vector<int32_t> acc;
    GE_RETURN_IF_ERROR(Accumulate(args, 0, 1, 2, 3, y.spec.dims, &shape, &acc));
    std::copy(acc.begin(), acc.end(), static_cast<int32_t*>(y.data));
    return Status::Ok();
  }
};

// y = saturate(round((a - a_zp)(b - b_zp) * a_scale * b_scale / y_scale) + y_zp).
class QLinearMatMulKernel final : public IntegerMatMulBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 8, 1));
    const KernelOutput& y = args.outputs[0];
    for (size_t i : {1U, 4U, 6U}) {
      if (args.inputs[i].spec.dtype != DT_FLOAT)
        return Unsupported(args.inputs[i].spec.dtype, "scale");
    }
    MatMulShape shape;
    std::vector<int32_t> acc;
    GE_RETURN_IF_ERROR(Accumulate(args, 0, 3, 2, 5, y.spec.dims, &shape, &acc));
    auto a_scale = PerRowOrColumn<float>(args, 1, shape.m, 1.0F);
    auto b_scale = PerRowOrColumn<float>(args, 4, shape.n, 1.0F);
    if (!a_scale.ok()) return Error(a_scale.status().message());
    if (!b_scale.ok()) return Error(b_scale.status().message());
    if (NumElements(args.inputs[6].spec.dims) != 1 || NumElements(args.inputs[7].spec.dims) != 1) {
      return Error("y_scale and y_zero_point must be per tensor");
    }
    const float y_scale = *static_cast<const float*>(args.inputs[6].data);
    bool ok = DispatchQuant(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const auto y_zp = static_cast<float>(*static_cast<const T*>(args.inputs[7].data));
      T* out = static_cast<T*>(y.data);
      for (size_t idx = 0; idx < acc.size(); ++idx) {
        const auto ij = static_cast<int64_t>(idx) % (shape.m * shape.n);
        const auto i = static_cast<size_t>(ij / shape.n), j = static_cast<size_t>(ij % shape.n);
        const float multiplier = (*a_scale)[i] * (*b_scale)[j] / y_scale;
        out[idx] =
            SaturateRound<T>(std::nearbyint(static_cast<float>(acc[idx]) * multiplier) + y_zp);
      }
    });
    return ok ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }
};

}  // namespace

void RegisterQuantKernels(KernelTable& t) {
  t.Add("QuantizeLinear", MakeKernel<QuantizeKernel>);
  t.Add("DequantizeLinear", MakeKernel<DequantizeKernel>);
  t.Add("DynamicQuantizeLinear", MakeKernel<DynamicQuantizeKernel>);
  t.Add("MatMulInteger", MakeKernel<MatMulIntegerKernel>);
  t.Add("QLinearMatMul", MakeKernel<QLinearMatMulKernel>);
}

}  // namespace ge::host_cpu

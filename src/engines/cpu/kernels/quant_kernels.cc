// ONNX's linear quantization on the CPU: QuantizeLinear, DequantizeLinear (per tensor or per axis),
// DynamicQuantizeLinear, MatMulInteger and QLinearMatMul (uint8 / int8, int32 accumulation).
// Rounding is to nearest even (std::nearbyint), then saturation to the integer type, as ONNX says.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

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

// Per-element parameter index: 0 for a per-tensor parameter, else the coordinate along `axis`.
struct QuantAxis {
  int64_t count = 1;  // parameter elements (1 = per tensor)
  int64_t inner = 1;  // elements after the axis
};

class QuantKernelBase : public KernelBase {
 protected:
  // Checks a scale / zero point (scalar, [1] or 1-D along the axis) against x.
  Result<QuantAxis> AxisOf(const std::vector<int64_t>& x, const std::vector<int64_t>& param) const {
    QuantAxis q;
    if (NumElements(param) == 1) return q;
    const int64_t rank = static_cast<int64_t>(x.size());
    GE_ASSIGN_OR_RETURN(int64_t axis, AxisAttr(AttrInt("axis", 1), rank));
    if (param.size() != 1 || param[0] != x[static_cast<size_t>(axis)]) {
      return Error("scale / zero point " + DimsToString(param) +
                   " is neither a scalar nor 1-D of dim " + std::to_string(axis) + " of x " +
                   DimsToString(x));
    }
    q.count = param[0];
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.size(); ++d) q.inner *= x[d];
    return q;
  }
};

// y = saturate(round(x / y_scale) + y_zero_point); uint8 without a zero point.
class QuantizeKernel final : public QuantKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& scale = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    if (scale.spec.dtype != DT_FLOAT) return Unsupported(scale.spec.dtype, "y_scale");
    GE_ASSIGN_OR_RETURN(QuantAxis q, AxisOf(x.spec.dims, scale.spec.dims));
    const bool has_zp = HasInput(args, 2);
    if (has_zp && args.inputs[2].spec.dtype != y.spec.dtype) {
      return Error("y_zero_point and y must have the same dtype");
    }
    std::vector<float> xs;
    if (!ReadFloats(x, &xs)) return Unsupported(x.spec.dtype);
    const auto* s = static_cast<const float*>(scale.data);
    bool ok = DispatchQuant(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* zp = has_zp ? static_cast<const T*>(args.inputs[2].data) : nullptr;
      T* out = static_cast<T*>(y.data);
      for (size_t i = 0; i < xs.size(); ++i) {
        const int64_t p = q.count == 1 ? 0 : (static_cast<int64_t>(i) / q.inner) % q.count;
        const float z = zp != nullptr ? static_cast<float>(zp[p]) : 0.0F;
        out[i] = SaturateRound<T>(std::nearbyint(xs[i] / s[p]) + z);
      }
    });
    return ok ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }

 private:
  static bool ReadFloats(const KernelTensor& x, std::vector<float>* out) {
    const int64_t n = NumElements(x.spec.dims);
    out->resize(static_cast<size_t>(n));
    if (x.spec.dtype == DT_FLOAT) {
      std::copy_n(static_cast<const float*>(x.data), n, out->data());
      return true;
    }
    if (x.spec.dtype == DT_INT32) {
      const auto* v = static_cast<const int32_t*>(x.data);
      for (int64_t i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = static_cast<float>(v[i]);
      return true;
    }
    return false;
  }
};

// y = (x - x_zero_point) * x_scale.
class DequantizeKernel final : public QuantKernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& scale = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    if (scale.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) {
      return Unsupported(scale.spec.dtype, "x_scale");
    }
    GE_ASSIGN_OR_RETURN(QuantAxis q, AxisOf(x.spec.dims, scale.spec.dims));
    const bool has_zp = HasInput(args, 2);
    const auto* s = static_cast<const float*>(scale.data);
    float* out = static_cast<float*>(y.data);
    const int64_t n = NumElements(x.spec.dims);
    auto run = [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      const T* zp = has_zp ? static_cast<const T*>(args.inputs[2].data) : nullptr;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t p = q.count == 1 ? 0 : (i / q.inner) % q.count;
        const int64_t z = zp != nullptr ? static_cast<int64_t>(zp[p]) : 0;
        out[i] = static_cast<float>(static_cast<int64_t>(in[i]) - z) * s[p];
      }
    };
    if (x.spec.dtype == DT_INT32) {
      run(int32_t{});
      return Status::Ok();
    }
    return DispatchQuant(x.spec.dtype, run) ? Status::Ok() : Unsupported(x.spec.dtype);
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
      y[i] = scale == 0.0F ? zp : SaturateRound<uint8_t>(std::nearbyint(in[i] / scale) + zp);
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

// ONNX's integer convolutions, x and w int8 or uint8 with zero points (x's per tensor, w's per
// tensor or per output channel) and Conv's attributes:
// - ConvInteger: y = conv(x - x_zero_point, w - w_zero_point), int32;
// - QLinearConv: that sum plus the int32 bias B, times x_scale * w_scale / y_scale, rounded to
//   nearest even, plus y_zero_point, saturated to y's type (int8 or uint8).
// Both run the float convolution (the Conv kernel, on oneDNN) of the shifted integers, which
// float holds exactly: each sum is exact while its partial sums stay below 2^24 in magnitude, and
// beyond that a whole number within float's rounding (relative 2^-24), which the scale that
// follows makes immaterial. A Const filter is shifted and widened once, at Prepare.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Element i of an int8 or uint8 tensor.
float IntegerAt(const void* data, DataType dtype, int64_t i) {
  return dtype == DT_INT8 ? static_cast<float>(static_cast<const int8_t*>(data)[i])
                          : static_cast<float>(static_cast<const uint8_t*>(data)[i]);
}

bool IsByteInteger(DataType t) { return t == DT_INT8 || t == DT_UINT8; }

// Where the operator's x, w and zero points are.
struct ConvPorts {
  size_t x, w, x_zp, w_zp;
};

// The float convolution of (x - x_zero_point) and (w - w_zero_point) for both operators.
class ShiftedConvKernel : public KernelBase {
 public:
  explicit ShiftedConvKernel(ConvPorts ports) : ports_(ports) {}

  int64_t WorkspaceBytes() const override { return inner_ws_ + (static_ ? buffers_ : 0); }
  std::string ImplInfo() const override {
    return inner_ == nullptr ? "" : inner_->ImplInfo() + " (on the integers as floats)";
  }

 protected:
  // Prepares the float convolution for x, w and y (of y's dims).
  Status PrepareConv(const KernelSpec& spec) {
    const size_t w_index = ports_.w;
    if (spec.inputs.size() <= w_index || spec.outputs.empty()) return Error("needs x, w and y");
    for (size_t i : {ports_.x, ports_.w}) {
      if (!IsByteInteger(spec.inputs[i].dtype)) return Unsupported(spec.inputs[i].dtype);
    }
    CpuKernelFactory conv = FindCpuKernel("Conv");
    if (conv == nullptr) return Error("the Conv kernel is not registered");
    inner_ = conv();
    KernelSpec wide;
    wide.op = spec.op;
    wide.threads = spec.threads;
    wide.memory_limit = spec.memory_limit;
    wide.probe = spec.probe;
    wide.inputs = {FloatSpec(spec.inputs[ports_.x]), FloatSpec(spec.inputs[w_index])};
    wide.outputs = {FloatSpec(spec.outputs[0])};
    wide.const_inputs = {nullptr, nullptr};
    // A Const filter whose zero point is known too is shifted once.
    const GeTensor* w = ConstInput(spec, w_index);
    const bool zp_known = !HasInputSpec(spec, ports_.w_zp) || ConstInput(spec, ports_.w_zp);
    filter_.reset();
    if (w != nullptr && zp_known && !HasUnknownDims(spec.inputs[w_index].dims)) {
      const std::vector<int64_t>& wd = spec.inputs[w_index].dims;
      const int64_t m = wd.empty() ? 0 : wd[0];
      std::vector<float> zp(static_cast<size_t>(m), 0.0F);
      if (const GeTensor* z = ConstInput(spec, ports_.w_zp)) {
        GE_ASSIGN_OR_RETURN(
            zp, PerChannel(z->GetData().data(), spec.inputs[ports_.w_zp], m, "w_zero_point"));
      }
      const int64_t nw = NumElements(wd);
      if (static_cast<int64_t>(w->GetData().size()) != nw) return Error("w's bytes do not fit");
      std::vector<uint8_t> bytes(static_cast<size_t>(nw) * sizeof(float));
      Shift(w->GetData().data(), spec.inputs[w_index].dtype, nw, m, zp,
            reinterpret_cast<float*>(bytes.data()));
      filter_ = std::make_unique<GeTensor>(GeTensorDesc(GeShape(wd), FORMAT_NCHW, DT_FLOAT),
                                           std::move(bytes));
      wide.const_inputs[1] = filter_.get();
    }
    GE_RETURN_IF_ERROR(inner_->Prepare(wide));
    inner_ws_ = Align64(inner_->WorkspaceBytes());
    buffers_ = 0;
    static_ = false;
    for (size_t i : {ports_.x, ports_.w}) {
      if (i == ports_.w && filter_ != nullptr) continue;
      if (HasUnknownDims(spec.inputs[i].dims)) return Status::Ok();
      buffers_ += Align64(NumElements(spec.inputs[i].dims) * static_cast<int64_t>(sizeof(float)));
    }
    if (HasUnknownDims(spec.outputs[0].dims)) return Status::Ok();
    buffers_ += Align64(NumElements(spec.outputs[0].dims) * static_cast<int64_t>(sizeof(float)));
    static_ = true;
    return Status::Ok();
  }

  // Runs the float convolution; *acc receives y's sums (in the workspace or in `heap`).
  Status Accumulate(const KernelArgs& args, std::vector<std::vector<float>>& heap,
                    const float** acc) {
    const KernelTensor& x = args.inputs[ports_.x];
    const KernelTensor& w = args.inputs[ports_.w];
    const KernelOutput& y = args.outputs[0];
    for (const KernelTensor* t : {&x, &w}) {
      if (!IsByteInteger(t->spec.dtype)) return Unsupported(t->spec.dtype);
    }
    const int64_t m = w.spec.dims.empty() ? 0 : w.spec.dims[0];
    float x_zp = 0.0F;
    if (HasInput(args, ports_.x_zp)) {
      const KernelTensor& z = args.inputs[ports_.x_zp];
      if (NumElements(z.spec.dims) != 1) {
        return Error("x_zero_point must be one value, not " + DimsToString(z.spec.dims));
      }
      if (z.spec.dtype != x.spec.dtype) return Error("x_zero_point's dtype is not x's");
      x_zp = IntegerAt(z.data, z.spec.dtype, 0);
    }
    std::vector<float> w_zp(static_cast<size_t>(m), 0.0F);
    if (HasInput(args, ports_.w_zp)) {
      const KernelTensor& z = args.inputs[ports_.w_zp];
      if (z.spec.dtype != w.spec.dtype) return Error("w_zero_point's dtype is not w's");
      GE_ASSIGN_OR_RETURN(w_zp, PerChannel(z.data, z.spec, m, "w_zero_point"));
    }
    auto* next = static_cast<uint8_t*>(args.workspace) + inner_ws_;
    auto buffer = [&](int64_t n) -> float* {
      if (static_) {
        auto* p = reinterpret_cast<float*>(next);
        next += Align64(n * static_cast<int64_t>(sizeof(float)));
        return p;
      }
      return heap.emplace_back(static_cast<size_t>(n)).data();
    };
    KernelArgs wide;
    wide.workspace = args.workspace;
    const int64_t nx = NumElements(x.spec.dims);
    float* xf = buffer(nx);
    Shift(x.data, x.spec.dtype, nx, 1, std::vector<float>{x_zp}, xf);
    wide.inputs.push_back({xf, FloatSpec(x.spec)});
    if (filter_ != nullptr) {
      wide.inputs.push_back({filter_->GetData().data(), FloatSpec(w.spec)});
    } else {
      const int64_t nw = NumElements(w.spec.dims);
      float* wf = buffer(nw);
      Shift(w.data, w.spec.dtype, nw, m, w_zp, wf);
      wide.inputs.push_back({wf, FloatSpec(w.spec)});
    }
    float* yf = buffer(NumElements(y.spec.dims));
    wide.outputs.push_back({yf, FloatSpec(y.spec)});
    GE_RETURN_IF_ERROR(inner_->Run(wide));
    *acc = yf;
    return Status::Ok();
  }

  // One value per output channel from a tensor of one (per tensor) or `m` values.
  Result<std::vector<float>> PerChannel(const void* data, const TensorSpec& spec, int64_t m,
                                        const char* name) const {
    const int64_t n = NumElements(spec.dims);
    if (n != 1 && n != m) {
      return Error(std::string(name) + " has " + std::to_string(n) + " values for " +
                   std::to_string(m) + " output channels");
    }
    std::vector<float> out(static_cast<size_t>(m));
    for (int64_t c = 0; c < m; ++c) {
      const int64_t i = n == 1 ? 0 : c;
      out[static_cast<size_t>(c)] = spec.dtype == DT_FLOAT ? static_cast<const float*>(data)[i]
                                                           : IntegerAt(data, spec.dtype, i);
    }
    return out;
  }

  const ConvPorts ports_;

 private:
  static TensorSpec FloatSpec(TensorSpec spec) {
    spec.dtype = DT_FLOAT;
    return spec;
  }
  static const GeTensor* ConstInput(const KernelSpec& spec, size_t i) {
    return i < spec.const_inputs.size() ? spec.const_inputs[i] : nullptr;
  }

  // v - zp[c] as floats for an int8 or uint8 tensor of `n` values in `m` runs of n / m (a
  // filter's output channels, outermost; m = 1 for x), the type dispatched once per run.
  static void Shift(const void* v, DataType dtype, int64_t n, int64_t m,
                    const std::vector<float>& zp, float* out) {
    const int64_t run = m > 0 ? n / m : 0;
    auto shift = [&](auto tag) {
      using T = decltype(tag);
      const auto* in = static_cast<const T*>(v);
      for (int64_t c = 0; c < m; ++c) {
        const float z = zp[static_cast<size_t>(c)];
#pragma omp simd
        for (int64_t i = c * run; i < (c + 1) * run; ++i) out[i] = static_cast<float>(in[i]) - z;
      }
    };
    if (dtype == DT_INT8) {
      shift(int8_t{});
    } else {
      shift(uint8_t{});
    }
  }

  std::unique_ptr<CpuKernel> inner_;
  std::unique_ptr<GeTensor> filter_;  // the shifted Const filter, as floats
  int64_t inner_ws_ = 0;
  int64_t buffers_ = 0;
  bool static_ = false;  // every float buffer's dims were known at Prepare
};

class ConvIntegerKernel final : public ShiftedConvKernel {
 public:
  ConvIntegerKernel() : ShiftedConvKernel({.x = 0, .w = 1, .x_zp = 2, .w_zp = 3}) {}

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dtype != DT_INT32) return Unsupported(y.spec.dtype, "output");
    std::vector<std::vector<float>> heap;
    const float* acc = nullptr;
    GE_RETURN_IF_ERROR(Accumulate(args, heap, &acc));
    auto* out = static_cast<int32_t*>(y.data);
    const int64_t n = NumElements(y.spec.dims);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(std::nearbyint(acc[i]));
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (!spec.outputs.empty() && spec.outputs[0].dtype != DT_INT32) {
      return Unsupported(spec.outputs[0].dtype, "output");
    }
    return PrepareConv(spec);
  }
};

class QLinearConvKernel final : public ShiftedConvKernel {
 public:
  QLinearConvKernel() : ShiftedConvKernel({.x = 0, .w = 3, .x_zp = 2, .w_zp = 5}) {}

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 8, 1));
    const KernelOutput& y = args.outputs[0];
    if (!IsByteInteger(y.spec.dtype)) return Unsupported(y.spec.dtype, "output");
    for (size_t i : {1U, 4U, 6U}) {
      if (args.inputs[i].spec.dtype != DT_FLOAT) return Unsupported(args.inputs[i].spec.dtype);
    }
    for (size_t i : {1U, 6U, 7U}) {
      if (NumElements(args.inputs[i].spec.dims) != 1) {
        return Error("input #" + std::to_string(i) + " must be one value, not " +
                     DimsToString(args.inputs[i].spec.dims));
      }
    }
    if (args.inputs[7].spec.dtype != y.spec.dtype) return Error("y_zero_point's dtype is not y's");
    const std::vector<int64_t>& wd = args.inputs[ports_.w].spec.dims;
    const int64_t m = wd.empty() ? 0 : wd[0];
    GE_ASSIGN_OR_RETURN(std::vector<float> w_scale,
                        PerChannel(args.inputs[4].data, args.inputs[4].spec, m, "w_scale"));
    const float x_scale = *static_cast<const float*>(args.inputs[1].data);
    const float y_scale = *static_cast<const float*>(args.inputs[6].data);
    const float y_zp = IntegerAt(args.inputs[7].data, y.spec.dtype, 0);
    const int32_t* bias = nullptr;
    if (HasInput(args, 8)) {
      const KernelTensor& b = args.inputs[8];
      if (b.spec.dtype != DT_INT32 || NumElements(b.spec.dims) != m) {
        return Error("B must be int32 with one value per output channel");
      }
      bias = static_cast<const int32_t*>(b.data);
    }
    std::vector<std::vector<float>> heap;
    const float* acc = nullptr;
    GE_RETURN_IF_ERROR(Accumulate(args, heap, &acc));
    const std::vector<int64_t>& yd = y.spec.dims;
    const int64_t n = NumElements(yd);
    const int64_t plane =
        yd.size() > 2 ? NumElements(std::vector<int64_t>(yd.begin() + 2, yd.end())) : 1;
    const float lo = y.spec.dtype == DT_INT8 ? -128.0F : 0.0F;
    const float hi = y.spec.dtype == DT_INT8 ? 127.0F : 255.0F;
    for (int64_t i = 0; i < n; ++i) {
      const auto c = static_cast<size_t>(m > 0 ? (i / plane) % m : 0);
      const double sum = static_cast<double>(acc[i]) + (bias != nullptr ? bias[c] : 0);
      const float multiplier = x_scale * w_scale[c] / y_scale;
      // A NaN (a zero or NaN scale) gives the zero point, as QuantizeLinear does.
      const double q = std::nearbyint(sum * static_cast<double>(multiplier));
      const float v = std::clamp(static_cast<float>(q == q ? q : 0.0) + y_zp, lo, hi);
      if (y.spec.dtype == DT_INT8) {
        static_cast<int8_t*>(y.data)[i] = static_cast<int8_t>(v);
      } else {
        static_cast<uint8_t*>(y.data)[i] = static_cast<uint8_t>(v);
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override { return PrepareConv(spec); }
};

}  // namespace

void RegisterConvIntegerKernels(KernelTable& t) {
  t.Add("ConvInteger", MakeKernel<ConvIntegerKernel>);
  t.Add("QLinearConv", MakeKernel<QLinearConvKernel>);
}

}  // namespace ge::host_cpu

// ConvInteger (ONNX): y = conv(x - x_zero_point, w - w_zero_point) in int32, x and w int8 or
// uint8, x's zero point per tensor and w's per tensor or per output channel; the attributes are
// Conv's. It runs as the float convolution (the Conv kernel, on oneDNN) of the shifted integers,
// which float holds exactly: each output is exact while its partial sums stay below 2^24 in
// magnitude, and beyond that the float sum is itself a whole number within float's rounding
// (relative 2^-24), which the scale that follows a ConvInteger in a dynamically quantized model
// makes immaterial. A Const filter is shifted and widened once, at Prepare.
#include <cmath>
#include <cstring>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

constexpr int64_t kAlign = 64;

int64_t Aligned(int64_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Element i of an int8 or uint8 tensor.
float IntegerAt(const void* data, DataType dtype, int64_t i) {
  return dtype == DT_INT8 ? static_cast<float>(static_cast<const int8_t*>(data)[i])
                          : static_cast<float>(static_cast<const uint8_t*>(data)[i]);
}

class ConvIntegerKernel final : public KernelBase {
 public:
  int64_t WorkspaceBytes() const override { return inner_ws_ + (static_ ? buffers_ : 0); }
  std::string ImplInfo() const override {
    return inner_ == nullptr ? "" : inner_->ImplInfo() + " (on the integers as floats)";
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& w = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    GE_RETURN_IF_ERROR(CheckTypes(x.spec.dtype, w.spec.dtype, y.spec.dtype));
    const int64_t m = w.spec.dims.empty() ? 0 : w.spec.dims[0];
    GE_ASSIGN_OR_RETURN(float x_zp, XZeroPoint(args));
    GE_ASSIGN_OR_RETURN(std::vector<float> w_zp, WZeroPoints(args, 3, m));
    std::vector<std::vector<float>> heap;  // only when the shapes were not known at Prepare
    auto* next = static_cast<uint8_t*>(args.workspace) + inner_ws_;
    auto buffer = [&](int64_t n) -> float* {
      if (static_) {
        auto* p = reinterpret_cast<float*>(next);
        next += Aligned(n * static_cast<int64_t>(sizeof(float)));
        return p;
      }
      return heap.emplace_back(static_cast<size_t>(n)).data();
    };
    KernelArgs wide;
    wide.workspace = args.workspace;
    const int64_t nx = NumElements(x.spec.dims);
    float* xf = buffer(nx);
    for (int64_t i = 0; i < nx; ++i) xf[i] = IntegerAt(x.data, x.spec.dtype, i) - x_zp;
    wide.inputs.push_back({xf, FloatSpec(x.spec)});
    if (filter_ != nullptr) {
      wide.inputs.push_back({filter_->GetData().data(), FloatSpec(w.spec)});
    } else {
      const int64_t nw = NumElements(w.spec.dims);
      float* wf = buffer(nw);
      Shift(w.data, w.spec.dtype, nw, m, w_zp, wf);
      wide.inputs.push_back({wf, FloatSpec(w.spec)});
    }
    const int64_t ny = NumElements(y.spec.dims);
    float* yf = buffer(ny);
    wide.outputs.push_back({yf, FloatSpec(y.spec)});
    GE_RETURN_IF_ERROR(inner_->Run(wide));
    auto* out = static_cast<int32_t*>(y.data);
    for (int64_t i = 0; i < ny; ++i) out[i] = static_cast<int32_t>(std::nearbyint(yf[i]));
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.size() < 2 || spec.outputs.empty()) return Error("needs x, w and y");
    GE_RETURN_IF_ERROR(
        CheckTypes(spec.inputs[0].dtype, spec.inputs[1].dtype, spec.outputs[0].dtype));
    CpuKernelFactory conv = FindCpuKernel("Conv");
    if (conv == nullptr) return Error("the Conv kernel is not registered");
    inner_ = conv();
    KernelSpec wide;
    wide.op = spec.op;
    wide.threads = spec.threads;
    wide.memory_limit = spec.memory_limit;
    wide.probe = spec.probe;
    wide.inputs = {FloatSpec(spec.inputs[0]), FloatSpec(spec.inputs[1])};
    wide.outputs = {FloatSpec(spec.outputs[0])};
    wide.const_inputs = {nullptr, nullptr};
    // A Const filter whose zero point is known too is shifted once.
    const GeTensor* w = spec.const_inputs.size() > 1 ? spec.const_inputs[1] : nullptr;
    const bool zp_const =
        !HasInputSpec(spec, 3) || (spec.const_inputs.size() > 3 && spec.const_inputs[3] != nullptr);
    filter_.reset();
    if (w != nullptr && zp_const && !HasUnknownDims(spec.inputs[1].dims)) {
      const std::vector<int64_t>& wd = spec.inputs[1].dims;
      const int64_t m = wd.empty() ? 0 : wd[0];
      std::vector<float> zp(static_cast<size_t>(m), 0.0F);
      if (HasInputSpec(spec, 3)) {
        const GeTensor& z = *spec.const_inputs[3];
        const auto n = static_cast<int64_t>(z.GetData().size());
        if (n != 1 && n != m) {
          return Error("w_zero_point has " + std::to_string(n) + " values for " +
                       std::to_string(m) + " output channels");
        }
        for (int64_t c = 0; c < m; ++c) {
          zp[static_cast<size_t>(c)] =
              IntegerAt(z.GetData().data(), spec.inputs[3].dtype, n == 1 ? 0 : c);
        }
      }
      const int64_t nw = NumElements(wd);
      if (static_cast<int64_t>(w->GetData().size()) != nw) return Error("w's bytes do not fit");
      std::vector<uint8_t> bytes(static_cast<size_t>(nw) * sizeof(float));
      Shift(w->GetData().data(), spec.inputs[1].dtype, nw, m, zp,
            reinterpret_cast<float*>(bytes.data()));
      filter_ = std::make_unique<GeTensor>(GeTensorDesc(GeShape(wd), FORMAT_NCHW, DT_FLOAT),
                                           std::move(bytes));
      wide.const_inputs[1] = filter_.get();
    }
    GE_RETURN_IF_ERROR(inner_->Prepare(wide));
    inner_ws_ = Aligned(inner_->WorkspaceBytes());
    buffers_ = 0;
    static_ = false;
    for (size_t i = 0; i < 2; ++i) {
      if (i == 1 && filter_ != nullptr) continue;
      if (HasUnknownDims(spec.inputs[i].dims)) return Status::Ok();
      buffers_ += Aligned(NumElements(spec.inputs[i].dims) * static_cast<int64_t>(sizeof(float)));
    }
    if (HasUnknownDims(spec.outputs[0].dims)) return Status::Ok();
    buffers_ += Aligned(NumElements(spec.outputs[0].dims) * static_cast<int64_t>(sizeof(float)));
    static_ = true;
    return Status::Ok();
  }

  Status CheckTypes(DataType x, DataType w, DataType y) const {
    for (const DataType t : {x, w}) {
      if (t != DT_INT8 && t != DT_UINT8) return Unsupported(t);
    }
    if (y != DT_INT32) return Unsupported(y, "output");
    return Status::Ok();
  }

  static TensorSpec FloatSpec(TensorSpec spec) {
    spec.dtype = DT_FLOAT;
    return spec;
  }

  // w - zp[channel] as floats; a filter is [M, C/group, k...], so its channel is the outermost.
  static void Shift(const void* w, DataType dtype, int64_t n, int64_t m,
                    const std::vector<float>& zp, float* out) {
    const int64_t per_channel = m > 0 ? n / m : 0;
    for (int64_t i = 0; i < n; ++i) {
      const float z = per_channel > 0 ? zp[static_cast<size_t>(i / per_channel)] : 0.0F;
      out[i] = IntegerAt(w, dtype, i) - z;
    }
  }

  Result<float> XZeroPoint(const KernelArgs& args) const {
    if (!HasInput(args, 2)) return 0.0F;
    const KernelTensor& z = args.inputs[2];
    if (NumElements(z.spec.dims) != 1) {
      return Error("x_zero_point must be one value, not " + DimsToString(z.spec.dims));
    }
    if (z.spec.dtype != args.inputs[0].spec.dtype) return Error("x_zero_point's dtype is not x's");
    return IntegerAt(z.data, z.spec.dtype, 0);
  }

  Result<std::vector<float>> WZeroPoints(const KernelArgs& args, size_t index, int64_t m) const {
    std::vector<float> zp(static_cast<size_t>(m), 0.0F);
    if (!HasInput(args, index)) return zp;
    const KernelTensor& z = args.inputs[index];
    const int64_t n = NumElements(z.spec.dims);
    if (n != 1 && n != m) {
      return Error("w_zero_point has " + std::to_string(n) + " values for " + std::to_string(m) +
                   " output channels");
    }
    if (z.spec.dtype != args.inputs[1].spec.dtype) return Error("w_zero_point's dtype is not w's");
    for (int64_t c = 0; c < m; ++c) {
      zp[static_cast<size_t>(c)] = IntegerAt(z.data, z.spec.dtype, n == 1 ? 0 : c);
    }
    return zp;
  }

  std::unique_ptr<CpuKernel> inner_;
  std::unique_ptr<GeTensor> filter_;  // the shifted Const filter, as floats
  int64_t inner_ws_ = 0;
  int64_t buffers_ = 0;
  bool static_ = false;  // every float buffer's dims were known at Prepare
};

}  // namespace

void RegisterConvIntegerKernels(KernelTable& t) {
  t.Add("ConvInteger", MakeKernel<ConvIntegerKernel>);
}

}  // namespace ge::host_cpu

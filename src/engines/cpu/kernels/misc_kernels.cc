// Small ONNX operators without a GE counterpart: Hardmax (one axis, first maximum wins),
// EyeLike, Compress (output size known only after the run) and Dropout (identity at inference;
// in training mode a mask drawn from MT19937 seeded by 'seed', as numpy's RandomState draws it).
#include <cstring>
#include <random>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// kFlatten: ONNX's Hardmax before opset 13 (HardmaxLegacy), one-hot over each row of the input
// seen as 2-D [prod(dims[:axis]), prod(dims[axis:])].
template <bool kFlatten = false>
class HardmaxKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != x.spec.dims || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const int64_t rank = static_cast<int64_t>(x.spec.dims.size());
    int64_t outer = 0, len = 0, inner = 0;
    if constexpr (kFlatten) {
      if (axis_ < -rank || axis_ > rank) {
        return Error("attribute 'axis' " + std::to_string(axis_) + " is out of range for rank " +
                     std::to_string(rank));
      }
      const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
      outer = 1;
      len = 1;
      inner = 1;
      for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : len) *= x.spec.dims[i];
    } else {
      if (rank == 0) return Error("input must have rank >= 1");
      GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
      SplitAt(x.spec.dims, axis, &outer, &len, &inner);
    }
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      std::fill(out, out + outer * len * inner, T(0));
      if (len == 0) return;
      ParallelFor(outer * inner, threads_, len, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          const int64_t base = (i / inner) * len * inner + i % inner;
          int64_t best = 0;
          for (int64_t k = 1; k < len; ++k) {
            if (in[base + k * inner] > in[base + best * inner]) best = k;
          }
          out[base + best * inner] = T(1);
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    return Status::Ok();
  }
  int64_t axis_ = -1;
};

// y[i][j] = 1 where j == i + k, else 0; y has x's 2-D shape and the output's dtype.
class EyeLikeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const auto& d = args.inputs[0].spec.dims;
    const KernelOutput& y = args.outputs[0];
    if (d.size() != 2) return Error("input must have rank 2, got " + DimsToString(d));
    if (y.spec.dims != d) return Error("output must have the input's dims " + DimsToString(d));
    const bool ok = DispatchAll(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      T* out = static_cast<T*>(y.data);
      std::fill(out, out + d[0] * d[1], T(0));
      for (int64_t i = std::max<int64_t>(0, -k_); i < d[0] && i + k_ < d[1]; ++i) {
        out[i * d[1] + i + k_] = T(1);
      }
    });
    return ok ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    // A diagonal past every dim gives zeros; clamping keeps i + k and -k within int64.
    constexpr int64_t kFar = int64_t{1} << 62;
    k_ = std::clamp<int64_t>(AttrInt("k", 0), -kFar, kFar);
    return Status::Ok();
  }
  int64_t k_ = 0;
};

// ONNX Compress: the slices along 'axis' (of the flattened input when 'axis' is absent) whose
// condition is true. The runtime allocates MaxOutputDims (the input's dims) and reads
// ActualOutputDims after Run; the kernel writes the selected slices densely.
class CompressKernel final : public KernelBase {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index == 0; }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    if (index != 0 || inputs.empty()) return {};
    if (!has_axis_) return {NumElements(inputs[0].dims)};
    return inputs[0].dims;
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return index == 0 ? actual_ : std::vector<int64_t>{};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& cond = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    if (y.spec.dtype != x.spec.dtype) return Error("output must have the input's dtype");
    if (cond.spec.dtype != DT_BOOL || cond.spec.dims.size() != 1) {
      return Error("condition must be 1-D bool, got " + DtypeName(cond.spec.dtype) + " " +
                   DimsToString(cond.spec.dims));
    }
    int64_t outer = 1, len = NumElements(x.spec.dims), inner = 1;
    int64_t axis = 0;
    if (has_axis_) {
      const int64_t rank = static_cast<int64_t>(x.spec.dims.size());
      GE_ASSIGN_OR_RETURN(axis, AxisAttr(axis_, rank));
      SplitAt(x.spec.dims, axis, &outer, &len, &inner);
    }
    if (cond.spec.dims[0] > len) {
      return Error("condition has " + std::to_string(cond.spec.dims[0]) +
                   " values, more than the " + std::to_string(len) + " slices of input " +
                   DimsToString(x.spec.dims));
    }
    const auto* c = static_cast<const uint8_t*>(cond.data);
    std::vector<int64_t> picked;
    for (int64_t k = 0; k < cond.spec.dims[0]; ++k) {
      if (c[k] != 0) picked.push_back(k);
    }
    const int64_t count = static_cast<int64_t>(picked.size());
    if (NumElements(y.spec.dims) < outer * count * inner) {
      return Error("output " + DimsToString(y.spec.dims) + " has no room for the selection");
    }
    const auto* in = static_cast<const uint8_t*>(x.data);
    auto* out = static_cast<uint8_t*>(y.data);
    const int64_t slice = inner * eb;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < count; ++j) {
        std::memcpy(out + (o * count + j) * slice, in + (o * len + picked[j]) * slice,
                    static_cast<size_t>(slice));
      }
    }
    if (has_axis_) {
      actual_ = x.spec.dims;
      actual_[static_cast<size_t>(axis)] = count;
    } else {
      actual_ = {count};
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    has_axis_ = HasAttr("axis");
    axis_ = AttrInt("axis", 0);
    return Status::Ok();
  }
  bool has_axis_ = false;
  int64_t axis_ = 0;
  std::vector<int64_t> actual_;
};

// ONNX Dropout: y = x and an all-true mask unless training_mode is given and true and the ratio
// (default 0.5) is positive; then mask = u >= ratio for u uniform in [0, 1) and
// y = x * mask / (1 - ratio). u comes from MT19937 seeded with 'seed' (default 0) and built from
// 53 bits as numpy's RandomState does, so one seed gives the mask ONNX's reference gives.
class DropoutKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != x.spec.dims || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const KernelOutput* mask = nullptr;
    if (args.outputs.size() > 1 && args.outputs[1].data != nullptr) {
      mask = &args.outputs[1];
      if (mask->spec.dims != x.spec.dims || mask->spec.dtype != DT_BOOL) {
        return Error("mask output must be bool with the input's dims");
      }
    }
    double ratio = 0.5;
    if (HasInput(args, 1) && !ReadScalar(args.inputs[1], &ratio)) {
      return Error("ratio must be a numeric scalar");
    }
    double training = 0;
    if (HasInput(args, 2) && !ReadScalar(args.inputs[2], &training)) {
      return Error("training_mode must be a bool scalar");
    }
    if (ratio < 0 || ratio >= 1) {
      return Error("ratio " + std::to_string(ratio) + " is outside [0, 1)");
    }
    const int64_t n = NumElements(x.spec.dims);
    auto* m = mask != nullptr ? static_cast<uint8_t*>(mask->data) : nullptr;
    if (training == 0 || ratio == 0) {
      if (n > 0) {
        std::memcpy(y.data, x.data, static_cast<size_t>(n * ElementBytes(x.spec.dtype)));
      }
      if (m != nullptr) std::memset(m, 1, static_cast<size_t>(n));
      return Status::Ok();
    }
    std::mt19937 gen(static_cast<uint32_t>(seed_));
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      const T r = static_cast<T>(ratio);
      const T scale = T(1) / (T(1) - r);
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t a = gen() >> 5;
        const uint32_t b = gen() >> 6;
        const double u = (a * 67108864.0 + b) / 9007199254740992.0;
        const bool keep = u >= static_cast<double>(r);
        out[i] = keep ? in[i] * scale : T(0);
        if (m != nullptr) m[i] = keep ? 1 : 0;
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    seed_ = AttrInt("seed", 0);
    return Status::Ok();
  }
  int64_t seed_ = 0;
};

}  // namespace

void RegisterMiscKernels(KernelTable& t) {
  t.Add("Hardmax", MakeKernel<HardmaxKernel<>>);
  t.Add("HardmaxLegacy", MakeKernel<HardmaxKernel</*kFlatten=*/true>>);
  t.Add("EyeLike", MakeKernel<EyeLikeKernel>);
  t.Add("Compress", MakeKernel<CompressKernel>);
  t.Add("Dropout", MakeKernel<DropoutKernel>);
}

}  // namespace ge::host_cpu

// The Lp family (ONNX names): LpNormalization (x divided by its p-norm along an axis), LpPool
// (the p-norm of each window: kernel_shape, strides, dilations, pads or auto_pad, ceil_mode through
// the output dims shape inference gave) and GlobalLpPool (the p-norm of each channel's plane).
// Direct loops in double: these operators are rare and small in the models that use them.
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

double PowAbs(double v, int64_t p) {
  return p == 1 ? std::fabs(v) : p == 2 ? v * v : std::pow(std::fabs(v), static_cast<double>(p));
}

double Root(double sum, int64_t p) {
  return p == 1 ? sum : p == 2 ? std::sqrt(sum) : std::pow(sum, 1.0 / static_cast<double>(p));
}

class LpNormalizationKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    if (y.spec.dims != x.spec.dims) return Error("output dims differ from the input's");
    const auto rank = static_cast<int64_t>(x.spec.dims.size());
    if (rank == 0) return Error("input must have rank >= 1");
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    int64_t outer = 0, len = 0, inner = 0;
    SplitAt(x.spec.dims, axis, &outer, &len, &inner);
    const auto* in = static_cast<const float*>(x.data);
    auto* out = static_cast<float*>(y.data);
    ParallelFor(outer * inner, threads_, len * 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t base = (i / inner) * len * inner + i % inner;
        double sum = 0;
        for (int64_t k = 0; k < len; ++k) sum += PowAbs(in[base + k * inner], p_);
        const double norm = Root(sum, p_);
        // A zero vector stays zero (its direction is undefined).
        for (int64_t k = 0; k < len; ++k) {
          const int64_t at = base + k * inner;
          out[at] = norm == 0 ? 0.0F : static_cast<float>(in[at] / norm);
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    p_ = AttrInt("p", 2);
    if (p_ != 1 && p_ != 2) return Error("attribute 'p' must be 1 or 2, not " + std::to_string(p_));
    return Status::Ok();
  }
  int64_t axis_ = -1;
  int64_t p_ = 2;
};

// kGlobal: GlobalLpPool, one window covering each plane.
template <bool kGlobal>
class LpPoolKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const std::vector<int64_t>& xd = x.spec.dims;
    const std::vector<int64_t>& yd = y.spec.dims;
    if (xd.size() < 3 || yd.size() != xd.size() || yd[0] != xd[0] || yd[1] != xd[1]) {
      return Error("input " + DimsToString(xd) + " and output " + DimsToString(yd) +
                   " are not [N, C, spatial...] alike");
    }
    const size_t spatial = xd.size() - 2;
    std::vector<int64_t> kernel = kernel_, strides = strides_, dilations = dilations_;
    std::vector<int64_t> begins(spatial, 0);
    if constexpr (kGlobal) {
      kernel.assign(xd.begin() + 2, xd.end());
    }
    strides.resize(spatial, 1);
    dilations.resize(spatial, 1);
    if (kernel.size() != spatial) {
      return Error("attribute 'kernel_shape' has " + std::to_string(kernel.size()) +
                   " values for " + std::to_string(spatial) + " spatial dims");
    }
    for (size_t s = 0; s < spatial; ++s) {
      int64_t extent = 0;
      if (strides[s] <= 0 || !checked::WindowExtent(kernel[s], dilations[s], &extent)) {
        return Error("kernel_shape " + DimsToString(kernel) + ", strides " + DimsToString(strides) +
                     " and dilations " + DimsToString(dilations) +
                     " must be positive and their window extent must fit int64");
      }
      if (auto_pad_ == "SAME_UPPER" || auto_pad_ == "SAME_LOWER") {
        int64_t reach = 0;  // (out - 1) * strides + extent
        if (!checked::Mul(yd[s + 2] - 1, strides[s], &reach) ||
            !checked::Add(reach, extent, &reach)) {
          return Error("the SAME window's reach along spatial dim " + std::to_string(s) +
                       " overflows int64");
        }
        const int64_t total = std::max<int64_t>(0, reach - xd[s + 2]);
        begins[s] = auto_pad_ == "SAME_UPPER" ? total / 2 : total - total / 2;
      } else if (auto_pad_ != "VALID" && s < pads_.size()) {
        begins[s] = pads_[s];
      }
    }
    const int64_t planes = xd[0] * xd[1];
    const int64_t in_plane = NumElements({xd.begin() + 2, xd.end()});
    const int64_t out_plane = NumElements({yd.begin() + 2, yd.end()});
    const auto* in = static_cast<const float*>(x.data);
    auto* out = static_cast<float*>(y.data);
    const std::vector<int64_t> in_strides = StridesOf({xd.begin() + 2, xd.end()});
    ParallelFor(planes * out_plane, threads_, 16, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> o(spatial), k(spatial);
      for (int64_t i = begin; i < end; ++i) {
        const int64_t plane = i / out_plane;
        int64_t rest = i % out_plane;
        for (size_t s = spatial; s-- > 0;) {
          o[s] = rest % yd[s + 2];
          rest /= yd[s + 2];
        }
        double sum = 0;
        std::fill(k.begin(), k.end(), 0);
        for (bool more = true; more;) {
          int64_t at = 0;
          bool inside = true;
          for (size_t s = 0; s < spatial && inside; ++s) {
            const int64_t pos = o[s] * strides[s] - begins[s] + k[s] * dilations[s];
            inside = pos >= 0 && pos < xd[s + 2];
            at += pos * in_strides[s];
          }
          if (inside) sum += PowAbs(in[plane * in_plane + at], p_);  // padding adds |0|^p
          more = false;
          for (size_t s = spatial; s-- > 0;) {
            if (++k[s] < kernel[s]) {
              more = true;
              break;
            }
            k[s] = 0;
          }
        }
        out[i] = static_cast<float>(Root(sum, p_));
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    p_ = AttrInt("p", 2);
    if (p_ < 1) return Error("attribute 'p' must be at least 1, not " + std::to_string(p_));
    if constexpr (!kGlobal) {
      kernel_ = AttrInts("kernel_shape");
      strides_ = AttrInts("strides");
      dilations_ = AttrInts("dilations");
      pads_ = AttrInts("pads");
      auto_pad_ = AttrStr("auto_pad", "NOTSET");
      if (auto_pad_ != "NOTSET" && auto_pad_ != "VALID" && auto_pad_ != "SAME_UPPER" &&
          auto_pad_ != "SAME_LOWER") {
        return Error("attribute 'auto_pad' '" + auto_pad_ + "' is not supported");
      }
    }
    const std::string format = AttrStr("data_format", "NCHW");
    if (format != "NCHW" && format != "NCDHW" && format != "NCW") {
      return Error("data_format '" + format + "' is not supported (channel-first only)");
    }
    return Status::Ok();
  }
  int64_t p_ = 2;
  std::vector<int64_t> kernel_, strides_, dilations_, pads_;
  std::string auto_pad_ = "NOTSET";
};

}  // namespace

void RegisterLpKernels(KernelTable& t) {
  t.Add("LpNormalization", MakeKernel<LpNormalizationKernel>);
  t.Add("LpPool", MakeKernel<LpPoolKernel</*kGlobal=*/false>>);
  t.Add("GlobalLpPool", MakeKernel<LpPoolKernel</*kGlobal=*/true>>);
}

}  // namespace ge::host_cpu

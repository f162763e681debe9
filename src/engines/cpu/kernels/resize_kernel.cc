// ONNX Resize, modes nearest and linear (n-linear over every dim whose size changes), with the
// coordinate transformations half_pixel, pytorch_half_pixel, align_corners, asymmetric and
// half_pixel_symmetric, and the four nearest rounding modes. The output size comes from the
// output's dims; the scales input, when given, sets the coordinate mapping (as ONNX says).
//
// Per dim a table gives, for each output coordinate, the two source coordinates and the weight
// of the second; the output walk then combines up to 2^k corners for the k resized dims.
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

struct Taps {
  std::vector<int64_t> lo, hi;
  std::vector<float> w;  // weight of hi
};

class ResizeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const auto& od = y.spec.dims;
    if (od.size() != d.size() || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(od) + " must have the input's rank and dtype");
    }
    std::vector<float> scales;
    if (HasInput(args, 2) && NumElements(args.inputs[2].spec.dims) > 0) {
      if (args.inputs[2].spec.dtype != DT_FLOAT) return Error("scales must be float32");
      const auto* s = static_cast<const float*>(args.inputs[2].data);
      scales.assign(s, s + NumElements(args.inputs[2].spec.dims));
      if (scales.size() != d.size()) return Error("scales must have one value per dim");
    }
    std::vector<Taps> taps(d.size());
    std::vector<size_t> resized;
    for (size_t a = 0; a < d.size(); ++a) {
      if (d[a] == 0 && od[a] > 0) return Error("cannot resize an empty dim");
      const float scale = scales.empty() ? static_cast<float>(od[a]) / static_cast<float>(d[a])
                                         : scales[a];
      if (!(scale > 0)) return Error("scales must be positive");
      GE_RETURN_IF_ERROR(MakeTaps(d[a], od[a], scale, &taps[a]));
      if (d[a] != od[a] || scale != 1.0F) resized.push_back(a);
    }
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      Walk(static_cast<const T*>(x.data), static_cast<T*>(y.data), d, od, taps, resized);
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    mode_ = AttrStr("mode", "nearest");
    coord_ = AttrStr("coordinate_transformation_mode", "half_pixel");
    nearest_ = AttrStr("nearest_mode", "round_prefer_floor");
    if (mode_ != "nearest" && mode_ != "linear") {
      return Error("attribute 'mode' '" + mode_ + "' is not supported (nearest, linear)");
    }
    if (coord_ != "half_pixel" && coord_ != "pytorch_half_pixel" && coord_ != "align_corners" &&
        coord_ != "asymmetric" && coord_ != "half_pixel_symmetric") {
      return Error("coordinate_transformation_mode '" + coord_ + "' is not supported");
    }
    if (nearest_ != "round_prefer_floor" && nearest_ != "round_prefer_ceil" && nearest_ != "floor" &&
        nearest_ != "ceil") {
      return Error("nearest_mode '" + nearest_ + "' is not supported");
    }
    if (AttrInt("antialias", 0) != 0) return Error("antialias is not supported");
    if (!AttrInts("axes").empty()) return Error("attribute 'axes' is not supported");
    return Status::Ok();
  }

  // The source coordinate of output coordinate o (ONNX's coordinate transformations).
  double Source(int64_t o, int64_t in, int64_t out, double scale) const {
    if (coord_ == "asymmetric") return o / scale;
    if (coord_ == "align_corners") return out == 1 ? 0.0 : o * double(in - 1) / double(out - 1);
    if (coord_ == "pytorch_half_pixel") return out > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    if (coord_ == "half_pixel_symmetric") {
      const double adj = out / (scale * in);
      const double center = in / 2.0;
      const double offset = center * (1 - adj);
      return offset + (o + 0.5) / scale - 0.5;
    }
    return (o + 0.5) / scale - 0.5;
  }

  Status MakeTaps(int64_t in, int64_t out, float scale, Taps* t) const {
    for (int64_t o = 0; o < out; ++o) {
      const double s = Source(o, in, out, scale);
      if (mode_ == "nearest") {
        double r = 0;
        if (nearest_ == "floor") {
          r = std::floor(s);
        } else if (nearest_ == "ceil") {
          r = std::ceil(s);
        } else {
          const double fl = std::floor(s);
          const bool half = s - fl == 0.5;
          r = half ? (nearest_ == "round_prefer_ceil" ? fl + 1 : fl) : std::round(s);
        }
        const int64_t i = std::clamp<int64_t>(static_cast<int64_t>(r), 0, in - 1);
        t->lo.push_back(i);
        t->hi.push_back(i);
        t->w.push_back(0.0F);
      } else {
        const double c = std::clamp(s, 0.0, static_cast<double>(in - 1));
        const int64_t lo = static_cast<int64_t>(std::floor(c));
        t->lo.push_back(lo);
        t->hi.push_back(std::min(lo + 1, in - 1));
        t->w.push_back(static_cast<float>(c - lo));
      }
    }
    return Status::Ok();
  }

  template <typename T>
  void Walk(const T* x, T* y, const std::vector<int64_t>& d, const std::vector<int64_t>& od,
            const std::vector<Taps>& taps, const std::vector<size_t>& resized) const {
    const std::vector<int64_t> xs = StridesOf(d);
    const size_t rank = d.size();
    const int64_t n = NumElements(od);
    const size_t corners = size_t{1} << resized.size();
    std::vector<int64_t> o(rank, 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t base = 0;
      for (size_t a = 0; a < rank; ++a) base += taps[a].lo[o[a]] * xs[a];
      double acc = 0;
      for (size_t c = 0; c < corners; ++c) {
        double w = 1;
        int64_t off = base;
        for (size_t r = 0; r < resized.size(); ++r) {
          const size_t a = resized[r];
          const Taps& t = taps[a];
          if (c >> r & 1) {
            w *= t.w[o[a]];
            off += (t.hi[o[a]] - t.lo[o[a]]) * xs[a];
          } else {
            w *= 1.0 - t.w[o[a]];
          }
        }
        if (w != 0) acc += w * static_cast<double>(x[off]);
      }
      y[i] = static_cast<T>(acc);
      for (size_t a = rank; a-- > 0;) {
        if (++o[a] < od[a]) break;
        o[a] = 0;
      }
    }
  }

  std::string mode_, coord_, nearest_;
};

}  // namespace

void RegisterResizeKernel(KernelTable& t) { t.Add("Resize", MakeKernel<ResizeKernel>); }

}  // namespace ge::host_cpu

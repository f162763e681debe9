// DeformConv (ONNX 19), 2-D: a convolution whose every tap samples the input at its place in the
// window moved by a learned offset (bilinearly, zero outside the input), scaled by an optional
// mask; offsets and masks are per offset group of input channels, per tap and per output position.
// Direct loops in double, as ONNX's reference defines it (GridSample with align_corners).
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// x[h, w] of one plane, bilinearly, each of the four neighbours outside the plane counting zero.
double Bilinear(const float* plane, int64_t ih, int64_t iw, double h, double w) {
  const double h0 = std::floor(h), w0 = std::floor(w);
  const double fh = h - h0, fw = w - w0;
  double v = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const double y = h0 + dy, x = w0 + dx;
      if (y < 0 || y >= static_cast<double>(ih) || x < 0 || x >= static_cast<double>(iw)) continue;
      const double weight = (dy != 0 ? fh : 1 - fh) * (dx != 0 ? fw : 1 - fw);
      v += weight * plane[static_cast<int64_t>(y) * iw + static_cast<int64_t>(x)];
    }
  }
  return v;
}

class DeformConvKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& w = args.inputs[1];
    const KernelTensor& off = args.inputs[2];
    const KernelOutput& y = args.outputs[0];
    for (const DataType t : {x.spec.dtype, w.spec.dtype, off.spec.dtype, y.spec.dtype}) {
      if (t != DT_FLOAT) return Unsupported(t);
    }
    const auto& xd = x.spec.dims;
    const auto& wd = w.spec.dims;
    const auto& yd = y.spec.dims;
    if (xd.size() != 4 || wd.size() != 4 || yd.size() != 4 || off.spec.dims.size() != 4) {
      return Error("only 2-D deformable convolutions run: X, W, offset and Y must be 4-D");
    }
    const int64_t n = xd[0], ic = xd[1], ih = xd[2], iw = xd[3];
    const int64_t oc = wd[0], icg = wd[1], kh = wd[2], kw = wd[3];
    const int64_t oh = yd[2], ow = yd[3];
    const int64_t group = AttrInt("group", 1), offset_group = AttrInt("offset_group", 1);
    if (group <= 0 || offset_group <= 0 || icg * group != ic || oc % group != 0 ||
        ic % offset_group != 0 || yd[0] != n || yd[1] != oc) {
      return Error("X " + DimsToString(xd) + ", W " + DimsToString(wd) + ", Y " + DimsToString(yd) +
                   " do not fit group " + std::to_string(group) + " and offset_group " +
                   std::to_string(offset_group));
    }
    const int64_t taps = kh * kw;
    const std::vector<int64_t> want_off = {n, offset_group * 2 * taps, oh, ow};
    if (off.spec.dims != want_off) {
      return Error("offset " + DimsToString(off.spec.dims) + " should be " +
                   DimsToString(want_off));
    }
    const float* bias = nullptr;
    if (HasInput(args, 3)) {
      const KernelTensor& b = args.inputs[3];
      if (b.spec.dtype != DT_FLOAT || NumElements(b.spec.dims) != oc) {
        return Error("B must be float with one value per output channel");
      }
      bias = static_cast<const float*>(b.data);
    }
    const float* mask = nullptr;
    if (HasInput(args, 4)) {
      const KernelTensor& m = args.inputs[4];
      const std::vector<int64_t> want_mask = {n, offset_group * taps, oh, ow};
      if (m.spec.dtype != DT_FLOAT || m.spec.dims != want_mask) {
        return Error("mask should be float " + DimsToString(want_mask));
      }
      mask = static_cast<const float*>(m.data);
    }
    std::vector<int64_t> strides = AttrInts("strides"), dilations = AttrInts("dilations"),
                         pads = AttrInts("pads");
    if (strides.empty()) strides = {1, 1};
    if (dilations.empty()) dilations = {1, 1};
    if (pads.empty()) pads = {0, 0, 0, 0};
    if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
      return Error("strides and dilations need 2 values and pads 4");
    }
    const auto* xp = static_cast<const float*>(x.data);
    const auto* wp = static_cast<const float*>(w.data);
    const auto* op = static_cast<const float*>(off.data);
    auto* yp = static_cast<float*>(y.data);
    const int64_t ocg = oc / group, ic_per_og = ic / offset_group, plane = oh * ow;
    ParallelFor(n * oc, threads_, plane * icg * taps, [&](int64_t begin, int64_t end) {
      std::vector<double> acc(static_cast<size_t>(plane));
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / oc, o = r % oc, g = o / ocg;
        std::fill(acc.begin(), acc.end(), bias != nullptr ? bias[o] : 0.0);
        for (int64_t cl = 0; cl < icg; ++cl) {
          const int64_t c = g * icg + cl, og = c / ic_per_og;
          const float* xplane = xp + (b * ic + c) * ih * iw;
          for (int64_t t = 0; t < taps; ++t) {
            const int64_t ty = t / kw, tx = t % kw;
            const double weight = wp[((o * icg + cl) * kh + ty) * kw + tx];
            const float* dy = op + ((b * offset_group + og) * taps + t) * 2 * plane;
            const float* dx = dy + plane;
            const float* mk =
                mask != nullptr ? mask + ((b * offset_group + og) * taps + t) * plane : nullptr;
            for (int64_t i = 0; i < oh; ++i) {
              for (int64_t j = 0; j < ow; ++j) {
                const int64_t p = i * ow + j;
                const double h =
                    static_cast<double>(i * strides[0] - pads[0] + ty * dilations[0]) + dy[p];
                const double wv =
                    static_cast<double>(j * strides[1] - pads[1] + tx * dilations[1]) + dx[p];
                const double v = Bilinear(xplane, ih, iw, h, wv);
                acc[static_cast<size_t>(p)] += v * weight * (mk != nullptr ? mk[p] : 1.0);
              }
            }
          }
        }
        for (int64_t p = 0; p < plane; ++p)
          yp[r * plane + p] = static_cast<float>(acc[static_cast<size_t>(p)]);
      }
    });
    return Status::Ok();
  }
};

}  // namespace

void RegisterDeformConvKernel(KernelTable& t) { t.Add("DeformConv", MakeKernel<DeformConvKernel>); }

}  // namespace ge::host_cpu

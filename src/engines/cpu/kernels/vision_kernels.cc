// Vision kernels after ONNX's reference: GridSample (1-D to 3-D grids; nearest, linear and cubic
// sampling; zeros, border and reflection padding), RoiAlign (avg / max, both coordinate modes) and
// MaxUnpool (scatter into a zeroed output).
//
// GridSample samples every channel at the same points, so each output point's taps (input
// offsets and weights, one per corner of the 2^r or 4^r neighbourhood) are computed once and
// reused for all C channels.
#include <cmath>
#include <cstring>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// ---- GridSample ----

enum class SampleMode : uint8_t { kNearest, kLinear, kCubic };
enum class PadMode : uint8_t { kZeros, kBorder, kReflection };

// Reflects x by the nearer border until it lies in [lo, hi] (ONNX's _gs_reflect).
template <typename T>
T Reflect(T x, T lo, T hi) {
  const T range = hi - lo;
  if (range <= T(0)) return lo;
  if (x < lo) {
    const T dx = lo - x;
    const auto n = static_cast<int64_t>(dx / range);
    const T r = dx - static_cast<T>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const T dx = x - hi;
    const auto n = static_cast<int64_t>(dx / range);
    const T r = dx - static_cast<T>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

// Keys' cubic convolution weights (alpha = -0.75) of the taps at -1, 0, 1, 2 for offset t.
template <typename T>
void CubicCoeffs(T t, T c[4]) {
  constexpr T kA = T(-0.75);
  t = std::fabs(t);
  const T t1 = t + 1, u = 1 - t, u1 = 2 - t;
  c[0] = ((kA * t1 - 5 * kA) * t1 + 8 * kA) * t1 - 4 * kA;
  c[1] = ((kA + 2) * t - (kA + 3)) * t * t + 1;
  c[2] = ((kA + 2) * u - (kA + 3)) * u * u + 1;
  c[3] = ((kA * u1 - 5 * kA) * u1 + 8 * kA) * u1 - 4 * kA;
}

class GridSampleKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& grid = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    const auto& xd = x.spec.dims;
    const auto& gd = grid.spec.dims;
    const size_t r = gd.size() >= 2 ? gd.size() - 2 : 0;
    if (r < 1 || r > kMaxRank || xd.size() != r + 2 || gd.back() != static_cast<int64_t>(r) ||
        gd[0] != xd[0]) {
      return Error("grid " + DimsToString(gd) +
                   " must be [N, D1_out..Dr_out, r] (r = 1..3) for X " + DimsToString(xd));
    }
    std::vector<int64_t> want = {xd[0], xd[1]};
    want.insert(want.end(), gd.begin() + 1, gd.end() - 1);
    if (y.spec.dims != want || y.spec.dtype != x.spec.dtype) {
      return Error("output must be " + DimsToString(want) + " of X's dtype");
    }
    if (grid.spec.dtype != x.spec.dtype) return Error("grid must have X's dtype");
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      Sample(static_cast<const decltype(tag)*>(x.data),
             static_cast<const decltype(tag)*>(grid.data), static_cast<decltype(tag)*>(y.data), xd,
             gd, r);
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  static constexpr size_t kMaxRank = 3;

  Status PrepareImpl(const KernelSpec&) override {
    const std::string mode = AttrStr("mode", "bilinear");
    if (mode == "nearest") {
      mode_ = SampleMode::kNearest;
    } else if (mode == "bilinear" || mode == "linear") {
      mode_ = SampleMode::kLinear;
    } else if (mode == "bicubic" || mode == "cubic") {
      mode_ = SampleMode::kCubic;
    } else {
      return Error("unknown mode '" + mode + "'");
    }
    const std::string pad = AttrStr("padding_mode", "zeros");
    if (pad == "zeros") {
      pad_ = PadMode::kZeros;
    } else if (pad == "border") {
      pad_ = PadMode::kBorder;
    } else if (pad == "reflection") {
      pad_ = PadMode::kReflection;
    } else {
      return Error("unknown padding_mode '" + pad + "'");
    }
    align_corners_ = AttrInt("align_corners", 0) != 0;
    return Status::Ok();
  }

  // The input index for tap `i` along a dim of size d, or -1 where zeros padding reads 0.
  template <typename T>
  int64_t TapIndex(int64_t i, int64_t d, T lo, T hi) const {
    switch (pad_) {
      case PadMode::kZeros:
        return i >= 0 && i < d ? i : -1;
      case PadMode::kBorder:
        return std::clamp<int64_t>(i, 0, d - 1);
      case PadMode::kReflection:
        return std::clamp<int64_t>(static_cast<int64_t>(Reflect(static_cast<T>(i), lo, hi)), 0,
                                   d - 1);
    }
    return -1;
  }

  template <typename T>
  void Sample(const T* x, const T* grid, T* y, const std::vector<int64_t>& xd,
              const std::vector<int64_t>& gd, size_t r) const {
    const int64_t n_batch = xd[0], channels = xd[1];
    const std::vector<int64_t> in_sp(xd.begin() + 2, xd.end());
    const int64_t in_size = NumElements(in_sp);
    const int64_t out_size = NumElements(std::vector<int64_t>(gd.begin() + 1, gd.end() - 1));
    const std::vector<int64_t> in_strides = StridesOf(in_sp);
    const int taps = mode_ == SampleMode::kNearest ? 1 : mode_ == SampleMode::kLinear ? 2 : 4;
    ParallelFor(n_batch * out_size, threads_, channels * 16, [&](int64_t begin, int64_t end) {
      // Per dim: the taps' indices (-1: zero) and weights.
      std::vector<std::array<int64_t, 4>> idx(r);
      std::vector<std::array<T, 4>> w(r);
      for (int64_t job = begin; job < end; ++job) {
        const int64_t n = job / out_size, p = job % out_size;
        const T* g = grid + job * static_cast<int64_t>(r);
        for (size_t i = 0; i < r; ++i) {
          const int64_t d = in_sp[i];
          const T lo = align_corners_ ? T(0) : T(-0.5);
          const T hi = align_corners_ ? static_cast<T>(d - 1) : static_cast<T>(d) - T(0.5);
          const T gn = g[r - 1 - i];  // the grid lists coordinates innermost dim first
          T v = align_corners_ ? (gn + 1) / 2 * static_cast<T>(d - 1)
                               : ((gn + 1) * static_cast<T>(d) - 1) / 2;
          if (mode_ == SampleMode::kNearest) v = std::nearbyint(v);  // half to even, as PyTorch
          if (v < lo || v > hi) {
            if (pad_ == PadMode::kBorder) v = std::clamp(v, T(0), static_cast<T>(d - 1));
            if (pad_ == PadMode::kReflection) v = Reflect(v, lo, hi);
          }
          if (mode_ == SampleMode::kNearest) {
            idx[i][0] = TapIndex(static_cast<int64_t>(v), d, lo, hi);
            w[i][0] = T(1);
            continue;
          }
          const T fl = std::floor(v);
          const auto i0 = static_cast<int64_t>(fl);
          if (mode_ == SampleMode::kLinear) {
            w[i][0] = 1 - (v - fl);
            w[i][1] = v - fl;
            idx[i][0] = TapIndex(i0, d, lo, hi);
            idx[i][1] = TapIndex(i0 + 1, d, lo, hi);
          } else {
            CubicCoeffs(v - fl, w[i].data());
            for (int k = 0; k < 4; ++k)
              idx[i][static_cast<size_t>(k)] = TapIndex(i0 - 1 + k, d, lo, hi);
          }
        }
        // Every combination of per-dim taps: offset and weight.
        int64_t combos = 1;
        for (size_t i = 0; i < r; ++i) combos *= taps;
        std::array<int64_t, 64> offs{};
        std::array<T, 64> ws{};
        int64_t used = 0;
        for (int64_t c = 0; c < combos; ++c) {
          int64_t rem = c, off = 0;
          T weight = T(1);
          bool zero = false;
          for (size_t i = r; i-- > 0;) {
            const auto k = static_cast<size_t>(rem % taps);
            rem /= taps;
            if (idx[i][k] < 0) {
              zero = true;
              break;
            }
            off += idx[i][k] * in_strides[i];
            weight *= w[i][k];
          }
          if (zero) continue;
          offs[static_cast<size_t>(used)] = off;
          ws[static_cast<size_t>(used)] = weight;
          ++used;
        }
        for (int64_t ch = 0; ch < channels; ++ch) {
          const T* plane = x + (n * channels + ch) * in_size;
          T acc = T(0);
          for (int64_t k = 0; k < used; ++k) {
            acc += ws[static_cast<size_t>(k)] * plane[offs[static_cast<size_t>(k)]];
          }
          y[(n * channels + ch) * out_size + p] = acc;
        }
      }
    });
  }

  SampleMode mode_ = SampleMode::kLinear;
  PadMode pad_ = PadMode::kZeros;
  bool align_corners_ = false;
};

// ---- RoiAlign ----

// One bilinear sample of a feature map: four offsets and weights (all zero outside the map).
template <typename T>
struct BilinearTap {
  std::array<int64_t, 4> pos{};
  std::array<T, 4> w{};
};

template <typename T>
BilinearTap<T> RoiTap(T y, T x, int64_t height, int64_t width) {
  BilinearTap<T> tap;
  // Written so that a NaN coordinate (a NaN roi or spatial_scale) is outside as well.
  if (!(y >= T(-1) && y <= static_cast<T>(height) && x >= T(-1) && x <= static_cast<T>(width))) {
    return tap;
  }
  y = std::max(y, T(0));
  x = std::max(x, T(0));
  auto y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = static_cast<T>(y_low);
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = static_cast<T>(x_low);
  }
  const T ly = y - static_cast<T>(y_low), lx = x - static_cast<T>(x_low);
  const T hy = 1 - ly, hx = 1 - lx;
  tap.pos = {y_low * width + x_low, y_low * width + x_high, y_high * width + x_low,
             y_high * width + x_high};
  tap.w = {hy * hx, hy * lx, ly * hx, ly * lx};
  return tap;
}

class RoiAlignKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& rois = args.inputs[1];
    const KernelTensor& bi = args.inputs[2];
    const KernelOutput& y = args.outputs[0];
    const auto& xd = x.spec.dims;
    if (xd.size() != 4) return Error("X must be [N, C, H, W], got " + DimsToString(xd));
    if (rois.spec.dims.size() != 2 || rois.spec.dims[1] != 4) {
      return Error("rois must be [num_rois, 4], got " + DimsToString(rois.spec.dims));
    }
    const int64_t num_rois = rois.spec.dims[0];
    std::vector<int64_t> batch;
    if (!ReadInts(bi, &batch) || static_cast<int64_t>(batch.size()) != num_rois) {
      return Error("batch_indices must hold " + std::to_string(num_rois) + " integers");
    }
    for (int64_t b : batch) {
      if (b < 0 || b >= xd[0]) {
        return Error("batch index " + std::to_string(b) + " is out of range for X " +
                     DimsToString(xd));
      }
    }
    const std::vector<int64_t> want = {num_rois, xd[1], out_h_, out_w_};
    if (y.spec.dims != want || y.spec.dtype != x.spec.dtype || rois.spec.dtype != x.spec.dtype) {
      return Error("output must be " + DimsToString(want) + " and rois of X's dtype");
    }
    Status checked = Status::Ok();
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      checked = CheckSampling(static_cast<const T*>(rois.data), num_rois);
      if (!checked.ok()) return;
      Compute(static_cast<const T*>(x.data), static_cast<const T*>(rois.data), batch,
              static_cast<T*>(y.data), xd);
    });
    if (!checked.ok()) return checked;
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  // The samples per bin along one side: sampling_ratio, or adaptively ceil(side / bins).
  // -1 when the roi's extent is not a finite count.
  template <typename T>
  int64_t GridOf(T side, int64_t bins) const {
    if (sampling_ratio_ > 0) return sampling_ratio_;
    const double n = std::ceil(static_cast<double>(side) / static_cast<double>(bins));
    if (!(n < 0x1p62)) return -1;  // also NaN
    return n > 0 ? static_cast<int64_t>(n) : 0;
  }

  template <typename T>
  void RoiExtent(const T* roi, T* start_w, T* start_h, T* roi_w, T* roi_h) const {
    const T offset = half_pixel_ ? T(0.5) : T(0);
    const auto scale = static_cast<T>(spatial_scale_);
    *start_w = roi[0] * scale - offset;
    *start_h = roi[1] * scale - offset;
    *roi_w = roi[2] * scale - offset - *start_w;
    *roi_h = roi[3] * scale - offset - *start_h;
    if (!half_pixel_) {  // malformed rois are forced to 1x1
      *roi_w = std::max(*roi_w, T(1));
      *roi_h = std::max(*roi_h, T(1));
    }
  }

  // Each roi's sample taps are listed before they are read: their count comes from the rois'
  // values (adaptive sampling over a huge region lists billions), so it is checked against the
  // memory limit first, per thread.
  template <typename T>
  Status CheckSampling(const T* rois, int64_t num_rois) const {
    int64_t most = 0;
    for (int64_t n = 0; n < num_rois; ++n) {
      T start_w, start_h, roi_w, roi_h;
      RoiExtent(rois + n * 4, &start_w, &start_h, &roi_w, &roi_h);
      const int64_t grid_h = GridOf(roi_h, out_h_), grid_w = GridOf(roi_w, out_w_);
      int64_t taps = 0;
      if (grid_h < 0 || grid_w < 0 || !checked::Mul(grid_h, grid_w, &taps) ||
          !checked::Mul(taps, out_h_ * out_w_, &taps)) {
        return Error("roi " + std::to_string(n) + " asks for a sampling grid that is not a count");
      }
      most = std::max(most, taps);
    }
    const int64_t threads = std::min<int64_t>(threads_, std::max<int64_t>(num_rois, 1));
    int64_t all = 0;
    if (!checked::Mul(most, threads, &all)) all = -1;
    return CheckScratch(all, static_cast<int64_t>(sizeof(BilinearTap<T>)),
                        "listing the largest roi's sample taps");
  }
  Status PrepareImpl(const KernelSpec&) override {
    const std::string mode = AttrStr("mode", "avg");
    if (mode != "avg" && mode != "max") return Error("mode must be avg or max, not '" + mode + "'");
    max_ = mode == "max";
    const std::string ctm = AttrStr("coordinate_transformation_mode", "half_pixel");
    if (ctm != "half_pixel" && ctm != "output_half_pixel") {
      return Error("coordinate_transformation_mode must be half_pixel or output_half_pixel, not '" +
                   ctm + "'");
    }
    half_pixel_ = ctm == "half_pixel";
    out_h_ = AttrInt("output_height", 1);
    out_w_ = AttrInt("output_width", 1);
    sampling_ratio_ = AttrInt("sampling_ratio", 0);
    spatial_scale_ = AttrFloat("spatial_scale", 1.0F);
    if (out_h_ <= 0 || out_w_ <= 0 || sampling_ratio_ < 0) {
      return Error("output_height / output_width must be positive and sampling_ratio >= 0");
    }
    return Status::Ok();
  }

  template <typename T>
  void Compute(const T* x, const T* rois, const std::vector<int64_t>& batch, T* y,
               const std::vector<int64_t>& xd) const {
    const int64_t channels = xd[1], height = xd[2], width = xd[3];
    const int64_t num_rois = static_cast<int64_t>(batch.size());
    ParallelFor(num_rois, threads_, channels * out_h_ * out_w_ * 16, [&](int64_t b, int64_t e) {
      std::vector<BilinearTap<T>> taps;
      for (int64_t n = b; n < e; ++n) {
        T start_w, start_h, roi_w, roi_h;
        RoiExtent(rois + n * 4, &start_w, &start_h, &roi_w, &roi_h);
        const T bin_h = roi_h / static_cast<T>(out_h_), bin_w = roi_w / static_cast<T>(out_w_);
        const int64_t grid_h = GridOf(roi_h, out_h_), grid_w = GridOf(roi_w, out_w_);
        const T count = static_cast<T>(std::max<int64_t>(grid_h * grid_w, 1));
        taps.clear();
        for (int64_t ph = 0; ph < out_h_; ++ph) {
          for (int64_t pw = 0; pw < out_w_; ++pw) {
            for (int64_t iy = 0; iy < grid_h; ++iy) {
              const T yy = start_h + static_cast<T>(ph) * bin_h +
                           (static_cast<T>(iy) + T(0.5)) * bin_h / static_cast<T>(grid_h);
              for (int64_t ix = 0; ix < grid_w; ++ix) {
                const T xx = start_w + static_cast<T>(pw) * bin_w +
                             (static_cast<T>(ix) + T(0.5)) * bin_w / static_cast<T>(grid_w);
                taps.push_back(RoiTap(yy, xx, height, width));
              }
            }
          }
        }
        const int64_t per_bin = grid_h * grid_w;
        for (int64_t c = 0; c < channels; ++c) {
          const T* plane = x + (batch[static_cast<size_t>(n)] * channels + c) * height * width;
          T* out = y + (n * channels + c) * out_h_ * out_w_;
          for (int64_t bin = 0; bin < out_h_ * out_w_; ++bin) {
            T acc = T(0);
            for (int64_t s = 0; s < per_bin; ++s) {
              const BilinearTap<T>& t = taps[static_cast<size_t>(bin * per_bin + s)];
              if (max_) {  // ONNX's max mode: the largest weighted corner over the samples
                T v = t.w[0] * plane[t.pos[0]];
                for (size_t k = 1; k < 4; ++k) v = std::max(v, t.w[k] * plane[t.pos[k]]);
                acc = s == 0 ? v : std::max(acc, v);
              } else {
                for (size_t k = 0; k < 4; ++k) acc += t.w[k] * plane[t.pos[k]];
              }
            }
            out[bin] = max_ ? acc : acc / count;
          }
        }
      }
    });
  }

  bool max_ = false;
  bool half_pixel_ = true;
  int64_t out_h_ = 1, out_w_ = 1, sampling_ratio_ = 0;
  float spatial_scale_ = 1.0F;
};

// ---- MaxUnpool ----

// ONNX's reference: y0 = 0 of the inferred shape [N, C, (Di - 1) * stride + kernel - pads], then
// y0.flat[I[i]] = X[i] (I holds MaxPool's flat indices), then y0 placed at the origin of a zeroed
// output of output_shape when that input is given (each dim at least the inferred one).
class MaxUnpoolKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& ind = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    const auto& xd = x.spec.dims;
    const size_t r = kernel_.size();
    if (xd.size() != r + 2) {
      return Error("X " + DimsToString(xd) + " must have rank " + std::to_string(r + 2) +
                   " for kernel_shape of " + std::to_string(r));
    }
    if (ind.spec.dims != xd || ind.spec.dtype != DT_INT64) {
      return Error("indices must be int64 with X's dims " + DimsToString(xd));
    }
    std::vector<int64_t> inferred = {xd[0], xd[1]};
    for (size_t i = 0; i < r; ++i) {
      int64_t dim = 0;  // (in - 1) * strides + kernel - pads, every step checked
      if (!checked::Mul(xd[i + 2] - 1, strides_[i], &dim) || !checked::Add(dim, kernel_[i], &dim) ||
          !checked::Sub(dim, pads_[i], &dim) || !checked::Sub(dim, pads_[i + r], &dim)) {
        return Error("the unpooled dim " + std::to_string(i + 2) +
                     " (strides, kernel_shape and pads) overflows int64");
      }
      inferred.push_back(dim);
    }
    std::vector<int64_t> shape = inferred;
    if (HasInput(args, 2) && !ReadInts(args.inputs[2], &shape)) {
      return Error("output_shape must hold integers");
    }
    bool fits = shape.size() == inferred.size();
    for (size_t i = 0; fits && i < shape.size(); ++i) fits = shape[i] >= inferred[i];
    if (!fits) {
      return Error("output_shape " + DimsToString(shape) + " is smaller than the unpooled " +
                   DimsToString(inferred));
    }
    if (y.spec.dims != shape || y.spec.dtype != x.spec.dtype) {
      return Error("output must be " + DimsToString(shape) + " of X's dtype");
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    const int64_t n_in = NumElements(xd), n_inferred = NumElements(inferred);
    const std::vector<int64_t> out_strides = StridesOf(shape);
    const auto* in = static_cast<const uint8_t*>(x.data);
    const auto* idx = static_cast<const int64_t*>(ind.data);
    auto* out = static_cast<uint8_t*>(y.data);
    std::memset(out, 0, static_cast<size_t>(NumElements(shape) * eb));
    for (int64_t i = 0; i < n_in; ++i) {
      if (idx[i] < 0 || idx[i] >= n_inferred) {
        return Error("index " + std::to_string(idx[i]) + " is outside the unpooled " +
                     DimsToString(inferred));
      }
      int64_t rem = idx[i], off = 0;
      for (size_t d = inferred.size(); d-- > 0;) {
        off += (rem % inferred[d]) * out_strides[d];
        rem /= inferred[d];
      }
      std::memcpy(out + off * eb, in + i * eb, static_cast<size_t>(eb));
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    kernel_ = AttrInts("kernel_shape");
    strides_ = AttrInts("strides");
    pads_ = AttrInts("pads");
    const size_t r = kernel_.size();
    if (strides_.empty()) strides_.assign(r, 1);
    if (pads_.empty()) pads_.assign(2 * r, 0);
    if (r == 0 || strides_.size() != r || pads_.size() != 2 * r) {
      return Error("kernel_shape must be given, with as many strides and twice as many pads");
    }
    return Status::Ok();
  }
  std::vector<int64_t> kernel_, strides_, pads_;
};

}  // namespace

void RegisterVisionKernels(KernelTable& t) {
  t.Add("GridSample", MakeKernel<GridSampleKernel>);
  t.Add("RoiAlign", MakeKernel<RoiAlignKernel>);
  t.Add("MaxUnpool", MakeKernel<MaxUnpoolKernel>);
  RegisterNmsKernel(t);
}

}  // namespace ge::host_cpu

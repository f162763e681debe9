// ONNX Resize, modes nearest, linear and cubic (separable over every dim whose size or mapping
// changes), with the coordinate transformations half_pixel, pytorch_half_pixel, align_corners,
// asymmetric, half_pixel_symmetric and tf_crop_and_resize (roi, extrapolation_value), the four
// nearest rounding modes, cubic_coeff_a, exclude_outside, antialias, the 'axes' attribute and
// keep_aspect_ratio_policy. The output
// size comes from the output's dims; the scales input, when given, sets the coordinate mapping
// (as ONNX says: the resized length is scale * length, not the rounded output dim).
//
// The semantics follow ONNX's reference implementation: per dim, an output coordinate maps to a
// source coordinate x; its taps are the n (2 or 4) nearest indices of the edge-padded input
// (smaller first), weighted by the mode's coefficients of x's fraction. One table per dim holds
// the taps of every output coordinate; the output walk takes the product over the resized dims.
#include <algorithm>
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

/// The taps of one dim: for output coordinate o, indices idx[o*n .. o*n+n) (already clamped to
/// the input, as edge padding) with weights w[o*n ..]; outside[o] marks a tf_crop_and_resize
/// coordinate outside the input (the element is extrapolation_value).
struct Taps {
  int64_t n = 1;
  std::vector<int64_t> idx;
  std::vector<double> w;
  std::vector<uint8_t> outside;
};

class ResizeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const auto& od = y.spec.dims;
    const size_t rank = d.size();
    if (od.size() != rank || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(od) + " must have the input's rank and dtype");
    }
    std::vector<int64_t> axes;
    for (int64_t a : axes_attr_) {
      int64_t n = 0;
      if (!NormalizeAxis(a, static_cast<int64_t>(rank), &n)) {
        return Error("attribute 'axes' value " + std::to_string(a) + " is out of range");
      }
      axes.push_back(n);
    }
    if (axes.empty()) {
      for (size_t a = 0; a < rank; ++a) axes.push_back(static_cast<int64_t>(a));
    }
    // Per dim: scale (0 = from the dims) and roi [start, end].
    std::vector<double> scales(rank, 0.0), roi_start(rank, 0.0), roi_end(rank, 1.0);
    if (HasInput(args, 2) && NumElements(args.inputs[2].spec.dims) > 0) {
      if (args.inputs[2].spec.dtype != DT_FLOAT) return Error("scales must be float32");
      const auto* s = static_cast<const float*>(args.inputs[2].data);
      if (NumElements(args.inputs[2].spec.dims) != static_cast<int64_t>(axes.size())) {
        return Error("scales must have one value per axis");
      }
      for (size_t i = 0; i < axes.size(); ++i) {
        if (!(s[i] > 0.0F) || !std::isfinite(s[i])) {
          return Error("scales must be positive and finite, got " + std::to_string(s[i]));
        }
        scales[axes[i]] = s[i];
      }
    }
    // keep_aspect_ratio_policy (opset 18): with sizes, one scale for every axis, the smallest
    // (not_larger) or the largest (not_smaller) of sizes / input dims; the output dims (shape
    // inference's) are the input dims times it, rounded.
    if (policy_ != "stretch" && HasInput(args, 3)) {
      std::vector<int64_t> sizes;
      if (!ReadInts(args.inputs[3], &sizes) || sizes.size() != axes.size()) {
        return Error("sizes must have one value per axis");
      }
      double scale = policy_ == "not_larger" ? HUGE_VAL : 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        if (d[axes[i]] <= 0) return Error("cannot keep the aspect ratio of an empty dim");
        const double s = static_cast<double>(sizes[i]) / static_cast<double>(d[axes[i]]);
        scale = policy_ == "not_larger" ? std::min(scale, s) : std::max(scale, s);
      }
      for (int64_t a : axes) scales[a] = scale;
    }
    if (coord_ == "tf_crop_and_resize") {
      if (!HasInput(args, 1)) return Error("tf_crop_and_resize needs the roi input");
      std::vector<double> roi;
      GE_RETURN_IF_ERROR(ReadRoi(args.inputs[1], &roi));
      if (roi.size() != 2 * axes.size()) {
        return Error("roi must have 2 values per axis, got " + std::to_string(roi.size()));
      }
      for (size_t i = 0; i < axes.size(); ++i) {
        roi_start[axes[i]] = roi[i];
        roi_end[axes[i]] = roi[i + axes.size()];
      }
    }
    std::vector<Taps> taps(rank);
    std::vector<size_t> resized;
    for (size_t a = 0; a < rank; ++a) {
      if (d[a] == 0 && od[a] > 0) return Error("cannot resize an empty dim");
      const double scale =
          scales[a] > 0 ? scales[a] : static_cast<double>(od[a]) / static_cast<double>(d[a]);
      if (scales[a] < 0 || !(scale > 0)) return Error("scales must be positive");
      const bool identity =
          d[a] == od[a] && scale == 1.0 &&
          (coord_ != "tf_crop_and_resize" || (roi_start[a] == 0.0 && roi_end[a] == 1.0));
      if (identity) continue;
      // An antialiased filter spans 1 / scale inputs (twice for cubic); a scale that agrees with
      // the output dims never reaches past the input, one from a crafted file may.
      if (antialias_ && scale < 1.0 && 1.0 / scale > static_cast<double>(d[a]) + 2.0) {
        return Error("antialias with scale " + std::to_string(scale) + " on dim " +
                     std::to_string(a) + " of " + std::to_string(d[a]) +
                     " would filter past the input");
      }
      MakeTaps(d[a], od[a], scale, roi_start[a], roi_end[a], &taps[a]);
      resized.push_back(a);
    }
    // The common case, an image resized in its last two dims (and nothing cropped outside the
    // input), runs separably, row by row; anything else takes the general walk.
    bool last_two = coord_ != "tf_crop_and_resize";
    for (size_t a : resized) last_two = last_two && a + 2 >= rank;
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      if (last_two) {
        WalkLastTwo(static_cast<const T*>(x.data), static_cast<T*>(y.data), d, od, taps);
      } else {
        Walk(static_cast<const T*>(x.data), static_cast<T*>(y.data), d, od, taps, resized);
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    mode_ = AttrStr("mode", "nearest");
    coord_ = AttrStr("coordinate_transformation_mode", "half_pixel");
    nearest_ = AttrStr("nearest_mode", "round_prefer_floor");
    cubic_a_ = AttrFloat("cubic_coeff_a", -0.75F);
    exclude_outside_ = AttrInt("exclude_outside", 0) != 0;
    extrapolation_ = AttrFloat("extrapolation_value", 0.0F);
    axes_attr_ = AttrInts("axes");
    if (mode_ != "nearest" && mode_ != "linear" && mode_ != "cubic") {
      return Error("attribute 'mode' '" + mode_ + "' is not supported (nearest, linear, cubic)");
    }
    if (coord_ != "half_pixel" && coord_ != "pytorch_half_pixel" && coord_ != "align_corners" &&
        coord_ != "asymmetric" && coord_ != "half_pixel_symmetric" &&
        coord_ != "tf_crop_and_resize") {
      return Error("coordinate_transformation_mode '" + coord_ + "' is not supported");
    }
    if (nearest_ != "round_prefer_floor" && nearest_ != "round_prefer_ceil" &&
        nearest_ != "floor" && nearest_ != "ceil") {
      return Error("nearest_mode '" + nearest_ + "' is not supported");
    }
    antialias_ = AttrInt("antialias", 0) != 0;
    if (antialias_ && mode_ == "nearest") {
      return Error("antialias applies to the linear and cubic modes, not to nearest");
    }
    policy_ = AttrStr("keep_aspect_ratio_policy", "stretch");
    if (policy_ != "stretch" && policy_ != "not_larger" && policy_ != "not_smaller") {
      return Error("keep_aspect_ratio_policy '" + policy_ +
                   "' is not supported (stretch, not_larger, not_smaller)");
    }
    return Status::Ok();
  }

  Status ReadRoi(const KernelTensor& t, std::vector<double>* roi) const {
    const int64_t n = NumElements(t.spec.dims);
    const bool ok = DispatchFloat(t.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* p = static_cast<const T*>(t.data);
      roi->assign(p, p + n);
    });
    return ok ? Status::Ok() : Unsupported(t.spec.dtype, "roi");
  }

  // The source coordinate of output coordinate o (ONNX's coordinate transformations); `length`
  // is the resized length scale * in, `out` the output dim.
  double Source(int64_t o, int64_t in, int64_t out, double scale, double roi_start,
                double roi_end) const {
    const double length = scale * static_cast<double>(in);
    if (coord_ == "asymmetric") return o / scale;
    if (coord_ == "align_corners") return length == 1 ? 0.0 : o * double(in - 1) / (length - 1);
    if (coord_ == "pytorch_half_pixel") return length == 1 ? -0.5 : (o + 0.5) / scale - 0.5;
    if (coord_ == "tf_crop_and_resize") {
      const double span = (roi_end - roi_start) * double(in - 1);
      const double s = out == 1 ? span / 2 : o * span / double(out - 1);
      return s + roi_start * double(in - 1);
    }
    if (coord_ == "half_pixel_symmetric") {
      const double adj = out / length;
      const double center = in / 2.0;
      const double offset = center * (1 - adj);
      return offset + (o + 0.5) / scale - 0.5;
    }
    return (o + 0.5) / scale - 0.5;
  }

  // How many taps an output coordinate takes: 2 (linear, nearest) or 4 (cubic); with antialias,
  // a downscale by `scale` widens the filter by 1 / scale, as ONNX's reference does.
  int64_t TapCount(double scale) const {
    if (!antialias_) return mode_ == "cubic" ? 4 : 2;
    const double s = std::min(scale, 1.0);
    const auto start = static_cast<int64_t>(std::floor((mode_ == "cubic" ? -2.0 : -1.0) / s)) + 1;
    return 2 - 2 * start;
  }

  // The antialiasing filter's coefficients, normalized to sum 1: tap k lies at distance
  // (k + 1 - n/2 - ratio) from the source coordinate, scaled by min(scale, 1).
  void AntialiasCoefficients(double ratio, double scale, std::vector<double>& c) const {
    const double s = std::min(scale, 1.0);
    const auto n = static_cast<int64_t>(c.size());
    const double a = cubic_a_;
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double x = std::fabs((static_cast<double>(k + 1 - n / 2) - ratio) * s);
      double v = 0;
      if (mode_ == "linear") {
        v = std::clamp(1 - x, 0.0, 1.0);
      } else if (x <= 1) {
        v = ((a + 2) * x - (a + 3)) * x * x + 1;
      } else if (x < 2) {
        v = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
      }
      c[static_cast<size_t>(k)] = v;
      sum += v;
    }
    for (double& v : c) v /= sum;
  }

  // The mode's coefficients of fraction `ratio` in (0, 1] for taps [base, base + n).
  void Coefficients(double ratio, double scale, std::vector<double>& cv) const {
    if (antialias_) {
      AntialiasCoefficients(ratio, scale, cv);
      return;
    }
    double* c = cv.data();
    if (mode_ == "linear") {
      c[0] = 1 - ratio;
      c[1] = ratio;
      return;
    }
    if (mode_ == "nearest") {
      bool hi = false;
      if (ratio == 1.0) {
        hi = true;
      } else if (nearest_ == "round_prefer_floor") {
        hi = ratio > 0.5;
      } else if (nearest_ == "round_prefer_ceil") {
        hi = ratio >= 0.5;
      } else {
        hi = nearest_ == "ceil";
      }
      c[0] = hi ? 0.0 : 1.0;
      c[1] = hi ? 1.0 : 0.0;
      return;
    }
    const double a = cubic_a_;
    const double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
    c[0] = ((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a;
    c[1] = ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1;
    c[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
    c[3] = ((a * q1 - 5 * a) * q1 + 8 * a) * q1 - 4 * a;
  }

  void MakeTaps(int64_t in, int64_t out, double scale, double roi_start, double roi_end,
                Taps* t) const {
    const int64_t n = TapCount(scale);
    const int64_t pad = (n + 1) / 2;  // the reference pads the input by ceil(n / 2) at the edges
    t->n = n;
    t->idx.assign(static_cast<size_t>(out * n), 0);
    t->w.assign(static_cast<size_t>(out * n), 0.0);
    t->outside.assign(static_cast<size_t>(out), 0);
    std::vector<double> c(static_cast<size_t>(n));
    for (int64_t o = 0; o < out; ++o) {
      const double s = Source(o, in, out, scale, roi_start, roi_end);
      if (coord_ == "tf_crop_and_resize" && (s < 0 || s > double(in - 1))) {
        t->outside[o] = 1;
        continue;
      }
      // The taps start at ceil(s) - n/2 (an integral s counts as the right end of its interval,
      // ratio 1), kept inside the padded input [-pad, in + pad).
      const double fl = std::floor(s);
      const double ratio = s == fl ? 1.0 : s - fl;
      const int64_t first = static_cast<int64_t>(std::ceil(s)) - n / 2;
      const int64_t base = std::clamp<int64_t>(first, -pad, in + pad - n);
      Coefficients(ratio, scale, c);
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) {
        const int64_t i = base + k;
        if (exclude_outside_ && (i < 0 || i >= in)) c[static_cast<size_t>(k)] = 0;
        sum += c[static_cast<size_t>(k)];
      }
      for (int64_t k = 0; k < n; ++k) {
        const double ck = c[static_cast<size_t>(k)];
        t->idx[o * n + k] = std::clamp<int64_t>(base + k, 0, in - 1);
        t->w[o * n + k] = exclude_outside_ && sum != 0 ? ck / sum : ck;
      }
    }
  }

  // The taps of one dim whose weight is not zero (a nearest tap, both of a linear one unless the
  // coordinate is whole), for output coordinate o at [begin[o], begin[o + 1]); a dim that is not
  // resized maps each coordinate to itself.
  struct NonZeroTaps {
    std::vector<int64_t> begin, idx;
    std::vector<double> w;

    NonZeroTaps(const Taps& t, bool resized, int64_t out) {
      begin.reserve(static_cast<size_t>(out + 1));
      for (int64_t o = 0; o < out; ++o) {
        begin.push_back(static_cast<int64_t>(idx.size()));
        if (!resized) {
          idx.push_back(o);
          w.push_back(1.0);
          continue;
        }
        for (int64_t k = 0; k < t.n; ++k) {
          const double weight = t.w[static_cast<size_t>(o * t.n + k)];
          if (weight == 0) continue;
          idx.push_back(t.idx[static_cast<size_t>(o * t.n + k)]);
          w.push_back(weight);
        }
      }
      begin.push_back(static_cast<int64_t>(idx.size()));
    }
    // The one input coordinate o copies, or -1 when it mixes several.
    int64_t Copies(int64_t o) const {
      const auto b = static_cast<size_t>(begin[static_cast<size_t>(o)]);
      return begin[static_cast<size_t>(o) + 1] - begin[static_cast<size_t>(o)] == 1 && w[b] == 1.0
                 ? idx[b]
                 : -1;
    }
  };

  // Resizes the last two dims (the dims before them are not resized), output row by output row
  // from tables of the taps of weight not zero: the same terms as Walk's, in Walk's order (height
  // taps outer), weighted and summed in double as Walk does, so that the results are the same
  // floats (a quantized network downstream turns a last-bit difference into another quantum),
  // without Walk's per-element index arithmetic over every dim.
  template <typename T>
  void WalkLastTwo(const T* x, T* y, const std::vector<int64_t>& d, const std::vector<int64_t>& od,
                   const std::vector<Taps>& taps) const {
    const size_t rank = d.size();
    const int64_t h = rank >= 2 ? d[rank - 2] : 1, w = d[rank - 1];
    const int64_t oh = rank >= 2 ? od[rank - 2] : 1, ow = od[rank - 1];
    if (h * w == 0 || oh * ow == 0) return;
    const int64_t planes = NumElements(d) / (h * w);
    const Taps none;
    const bool h_resized = rank >= 2 && !taps[rank - 2].idx.empty();
    const bool w_resized = !taps[rank - 1].idx.empty();
    const NonZeroTaps th(rank >= 2 ? taps[rank - 2] : none, h_resized, oh);
    const NonZeroTaps tw(taps[rank - 1], w_resized, ow);
    ParallelFor(planes * oh, threads_, ow * 4, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t p = r / oh, row = r % oh;
        const T* plane = x + p * h * w;
        T* out = y + r * ow;
        const auto hb = static_cast<size_t>(th.begin[static_cast<size_t>(row)]);
        const auto he = static_cast<size_t>(th.begin[static_cast<size_t>(row) + 1]);
        for (int64_t c = 0; c < ow; ++c) {
          const auto wb = static_cast<size_t>(tw.begin[static_cast<size_t>(c)]);
          const auto we = static_cast<size_t>(tw.begin[static_cast<size_t>(c) + 1]);
          double acc = 0;
          for (size_t k = hb; k < he; ++k) {
            const T* in = plane + th.idx[k] * w;
            for (size_t j = wb; j < we; ++j) {
              acc += th.w[k] * tw.w[j] * static_cast<double>(in[tw.idx[j]]);
            }
          }
          out[c] = static_cast<T>(acc);
        }
      }
    });
  }

  template <typename T>
  void Walk(const T* x, T* y, const std::vector<int64_t>& d, const std::vector<int64_t>& od,
            const std::vector<Taps>& taps, const std::vector<size_t>& resized) const {
    const std::vector<int64_t> xs = StridesOf(d);
    const size_t rank = d.size();
    const int64_t total = NumElements(od);
    int64_t combos = 1;
    std::vector<bool> is_resized(rank, false);
    for (size_t a : resized) {
      combos *= taps[a].n;
      is_resized[a] = true;
    }
    ParallelFor(total, threads_, combos * 2, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> o(rank, 0);
      for (int64_t r = begin, a = static_cast<int64_t>(rank) - 1; a >= 0; --a) {
        o[a] = r % od[a];
        r /= od[a];
      }
      std::vector<int64_t> k(resized.size(), 0);
      for (int64_t i = begin; i < end; ++i) {
        int64_t base = 0;  // the offset along the dims that are not resized
        bool outside = false;
        for (size_t a = 0; a < rank; ++a) {
          if (is_resized[a]) {
            outside = outside || taps[a].outside[o[a]] != 0;
          } else {
            base += o[a] * xs[a];
          }
        }
        double acc = 0;
        if (outside) {
          acc = extrapolation_;
        } else {
          std::fill(k.begin(), k.end(), 0);
          for (int64_t c = 0; c < combos; ++c) {
            double w = 1;
            int64_t off = base;
            for (size_t r = 0; r < resized.size(); ++r) {
              const Taps& t = taps[resized[r]];
              const int64_t at = o[resized[r]] * t.n + k[r];
              w *= t.w[at];
              off += t.idx[at] * xs[resized[r]];
            }
            if (w != 0) acc += w * static_cast<double>(x[off]);
            for (size_t r = resized.size(); r-- > 0;) {
              if (++k[r] < taps[resized[r]].n) break;
              k[r] = 0;
            }
          }
        }
        y[i] = static_cast<T>(acc);
        for (size_t a = rank; a-- > 0;) {
          if (++o[a] < od[a]) break;
          o[a] = 0;
        }
      }
    });
  }

  std::string mode_, coord_, nearest_, policy_ = "stretch";
  double cubic_a_ = -0.75;
  bool exclude_outside_ = false;
  bool antialias_ = false;  // a downscale widens the linear or cubic filter by 1 / scale
  double extrapolation_ = 0.0;
  std::vector<int64_t> axes_attr_;
};

}  // namespace

void RegisterResizeKernel(KernelTable& t) { t.Add("Resize", MakeKernel<ResizeKernel>); }

}  // namespace ge::host_cpu

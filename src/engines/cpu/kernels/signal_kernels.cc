// CPU kernels of the signal operators (ONNX semantics, src/ops/builtin/signal.cc): the Hann,
// Hamming and Blackman windows, MelWeightMatrix, DFT and STFT.
//
// The transforms are direct O(n^2) sums accumulated in double, with the twiddle factors of one
// length tabulated once per run (exp(-2 pi i f k / n) indexes the table by f * k mod n, so no
// angle loses precision for long signals). Complex values are interleaved (real, imaginary) in a
// trailing dim of 2; a real signal has a trailing dim of 1.
#include <cmath>
#include <numbers>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Writes double values to an output of any real dtype.
bool WriteAs(const KernelOutput& y, const std::vector<double>& values) {
  return DispatchNumeric(y.spec.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* out = static_cast<T*>(y.data);
    for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
  });
}

// The integer scalar input `i`, or an error naming it.
Result<int64_t> ScalarInt(const KernelArgs& args, size_t i, const std::string& what) {
  std::vector<int64_t> v;
  if (!ReadInts(args.inputs[i], &v) || v.size() != 1) {
    return Status(StatusCode::kParamInvalid, what + " must be an int32 / int64 scalar");
  }
  return v[0];
}

// ---- Windows ----

// w[k] = sum_j a_j cos(2 pi j k / N) with signs alternating, N = size (periodic) or size - 1.
class WindowKernel : public KernelBase {
 public:
  explicit WindowKernel(std::vector<double> coefficients)
      : coefficients_(std::move(coefficients)) {}

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    auto size = ScalarInt(args, 0, "size");
    if (!size.ok()) return Error(size.status().message());
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != std::vector<int64_t>{*size}) {
      return Error("output dims " + DimsToString(y.spec.dims) + " do not match size " +
                   std::to_string(*size));
    }
    const int64_t n = periodic_ ? *size : *size - 1;
    std::vector<double> w(static_cast<size_t>(*size), 1.0);  // a symmetric window of 1 is [1]
    for (int64_t k = 0; k < *size && n > 0; ++k) {
      double v = 0;
      for (size_t j = 0; j < coefficients_.size(); ++j) {
        const double c = std::cos(2 * std::numbers::pi * static_cast<double>(j) *
                                  static_cast<double>(k) / static_cast<double>(n));
        v += (j % 2 == 0 ? 1.0 : -1.0) * coefficients_[j] * c;
      }
      w[static_cast<size_t>(k)] = v;
    }
    return WriteAs(y, w) ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    periodic_ = AttrInt("periodic", 1) != 0;
    return Status::Ok();
  }
  std::vector<double> coefficients_;
  bool periodic_ = true;
};

class HannWindowKernel final : public WindowKernel {
 public:
  HannWindowKernel() : WindowKernel({0.5, 0.5}) {}
};
class HammingWindowKernel final : public WindowKernel {
 public:
  HammingWindowKernel() : WindowKernel({25.0 / 46.0, 21.0 / 46.0}) {}
};
class BlackmanWindowKernel final : public WindowKernel {
 public:
  BlackmanWindowKernel() : WindowKernel({0.42, 0.5, 0.08}) {}
};

// ---- MelWeightMatrix ----

// Triangular filters [dft_length / 2 + 1, num_mel_bins] between lower_edge_hertz and
// upper_edge_hertz, equally spaced on the mel scale (2595 log10(1 + f / 700)); each filter's
// corners are rounded down to spectrogram bins, as ONNX's reference does.
class MelWeightMatrixKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 5, 1));
    auto bins = ScalarInt(args, 0, "num_mel_bins");
    auto length = ScalarInt(args, 1, "dft_length");
    auto rate = ScalarInt(args, 2, "sample_rate");
    for (const auto* r : {&bins, &length, &rate}) {
      if (!r->ok()) return Error(r->status().message());
    }
    double lower = 0;
    double upper = 0;
    if (!ReadScalar(args.inputs[3], &lower) || !ReadScalar(args.inputs[4], &upper)) {
      return Error("lower_edge_hertz and upper_edge_hertz must be numeric scalars");
    }
    if (*bins <= 0 || *length <= 0 || *rate <= 0) {
      return Error("num_mel_bins, dft_length and sample_rate must be positive");
    }
    const int64_t rows = *length / 2 + 1;
    const int64_t cols = *bins;
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != std::vector<int64_t>{rows, cols}) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are not " +
                   DimsToString({rows, cols}));
    }
    auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
    const double low_mel = mel(lower);
    const double step = (mel(upper) - low_mel) / static_cast<double>(cols + 2);
    std::vector<int64_t> corner(static_cast<size_t>(cols + 2));
    for (int64_t i = 0; i < cols + 2; ++i) {
      const double hz =
          700.0 * (std::pow(10.0, (static_cast<double>(i) * step + low_mel) / 2595.0) - 1);
      corner[static_cast<size_t>(i)] = static_cast<int64_t>(
          std::floor(static_cast<double>(*length + 1) * hz / static_cast<double>(*rate)));
      if (corner[static_cast<size_t>(i)] < 0 || corner[static_cast<size_t>(i)] >= rows) {
        return Error("upper_edge_hertz " + std::to_string(upper) +
                     " lies beyond the spectrogram's last bin (sample_rate / 2)");
      }
    }
    std::vector<double> w(static_cast<size_t>(rows * cols), 0.0);
    auto at = [&](int64_t r, int64_t c) -> double& { return w[static_cast<size_t>(r * cols + c)]; };
    for (int64_t i = 0; i < cols; ++i) {
      const int64_t left = corner[static_cast<size_t>(i)];
      const int64_t center = corner[static_cast<size_t>(i + 1)];
      const int64_t right = corner[static_cast<size_t>(i + 2)];
      if (center == left) {
        at(center, i) = 1;
      } else {
        for (int64_t j = left; j <= center; ++j) {
          at(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
        }
      }
      for (int64_t j = center; j < right; ++j) {
        at(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
      }
    }
    return WriteAs(y, w) ? Status::Ok() : Unsupported(y.spec.dtype, "output");
  }
};

// ---- DFT and STFT ----

// cos / sin of 2 pi j / n for j in [0, n).
struct Twiddles {
  explicit Twiddles(int64_t n) : n(n), cos(static_cast<size_t>(n)), sin(static_cast<size_t>(n)) {
    for (int64_t j = 0; j < n; ++j) {
      const double a = 2 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(n);
      cos[static_cast<size_t>(j)] = std::cos(a);
      sin[static_cast<size_t>(j)] = std::sin(a);
    }
  }
  int64_t n;
  std::vector<double> cos, sin;
};

// out[f] (f < out_n, interleaved complex) = sum_{k < len} in[k] exp(-+2 pi i f k / n), scaled by
// 1 / n when inverse; `in` holds `len` <= n complex values (the rest of the n are zero).
void Dft1d(const std::vector<double>& re, const std::vector<double>& im, int64_t len,
           const Twiddles& tw, bool inverse, int64_t out_n, double* out) {
  const double sign = inverse ? 1.0 : -1.0;
  const double scale = inverse ? 1.0 / static_cast<double>(tw.n) : 1.0;
  for (int64_t f = 0; f < out_n; ++f) {
    double sr = 0;
    double si = 0;
    for (int64_t k = 0; k < len; ++k) {
      const auto j = static_cast<size_t>((f * k) % tw.n);
      const double c = tw.cos[j];
      const double s = sign * tw.sin[j];
      const auto ku = static_cast<size_t>(k);
      sr += re[ku] * c - im[ku] * s;
      si += re[ku] * s + im[ku] * c;
    }
    out[2 * f] = sr * scale;
    out[2 * f + 1] = si * scale;
  }
}

// DFT: input [..., L, ..., 1|2] along attribute 'axis' (opset 17) or the axis input (opset 20,
// which overrides the attribute); dft_length pads with zeros or truncates; onesided keeps the first
// n / 2 + 1 frequencies (after an inverse too, as ONNX's reference does).
class DftKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const std::vector<int64_t>& d = x.spec.dims;
    const auto r = static_cast<int64_t>(d.size());
    if (r < 2 || (d.back() != 1 && d.back() != 2)) {
      return Error("input " + DimsToString(d) + " must have rank >= 2 and end in 1 or 2");
    }
    int64_t given = axis_;
    if (HasInput(args, 2)) {
      auto v = ScalarInt(args, 2, "axis");
      if (!v.ok()) return Error(v.status().message());
      given = *v;
    }
    int64_t axis = given < 0 ? given + r : given;
    if (axis < 0 || axis > r - 2) {
      return Error("axis " + std::to_string(given) + " is out of range for rank " +
                   std::to_string(r));
    }
    const int64_t len = d[static_cast<size_t>(axis)];
    int64_t n = len;
    if (HasInput(args, 1)) {
      auto v = ScalarInt(args, 1, "dft_length");
      if (!v.ok()) return Error(v.status().message());
      n = *v;
    }
    if (n <= 0) return Error("dft_length must be positive, got " + std::to_string(n));
    const int64_t out_n = onesided_ ? n / 2 + 1 : n;
    std::vector<int64_t> want = d;
    want[static_cast<size_t>(axis)] = out_n;
    want.back() = 2;
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != want) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are not " + DimsToString(want));
    }
    if (x.spec.dtype != y.spec.dtype) return Error("input and output dtypes differ");
    int64_t outer = 1;
    int64_t inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= d[static_cast<size_t>(i)];
    for (int64_t i = axis + 1; i < r - 1; ++i) inner *= d[static_cast<size_t>(i)];
    const int64_t c = d.back();
    const int64_t used = std::min(len, n);
    const Twiddles tw(n);
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      std::vector<double> re(static_cast<size_t>(used));
      std::vector<double> im(static_cast<size_t>(used));
      std::vector<double> res(static_cast<size_t>(2 * out_n));
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          for (int64_t k = 0; k < used; ++k) {
            const T* p = in + ((o * len + k) * inner + i) * c;
            re[static_cast<size_t>(k)] = static_cast<double>(p[0]);
            im[static_cast<size_t>(k)] = c == 2 ? static_cast<double>(p[1]) : 0.0;
          }
          Dft1d(re, im, used, tw, inverse_, out_n, res.data());
          for (int64_t f = 0; f < out_n; ++f) {
            T* q = out + ((o * out_n + f) * inner + i) * 2;
            q[0] = static_cast<T>(res[static_cast<size_t>(2 * f)]);
            q[1] = static_cast<T>(res[static_cast<size_t>(2 * f + 1)]);
          }
        }
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", 1);
    inverse_ = AttrInt("inverse", 0) != 0;
    onesided_ = AttrInt("onesided", 0) != 0;
    return Status::Ok();
  }
  int64_t axis_ = 1;
  bool inverse_ = false;
  bool onesided_ = false;
};

// STFT: signal [B, L, 1|2], frame_step, window [W]?, frame_length?; frame t of batch b is
// signal[b, t * step + k] * window[k] for k < frame_length, transformed with length
// frame_length. Output [B, frames, bins, 2].
class StftKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const std::vector<int64_t>& d = x.spec.dims;
    if (d.size() != 3 || (d[2] != 1 && d[2] != 2)) {
      return Error("signal " + DimsToString(d) + " must be [batch, length, 1 or 2]");
    }
    auto step = ScalarInt(args, 1, "frame_step");
    if (!step.ok()) return Error(step.status().message());
    if (*step <= 0) return Error("frame_step must be positive");
    const bool has_window = HasInput(args, 2);
    int64_t fl = d[1];
    if (has_window) {
      const auto& wd = args.inputs[2].spec.dims;
      if (wd.size() != 1) return Error("window must be 1-D, got " + DimsToString(wd));
      if (args.inputs[2].spec.dtype != x.spec.dtype) return Error("window's dtype differs");
      fl = wd[0];
    }
    if (HasInput(args, 3)) {
      auto v = ScalarInt(args, 3, "frame_length");
      if (!v.ok()) return Error(v.status().message());
      if (has_window && *v != fl) {
        return Error("frame_length " + std::to_string(*v) + " differs from the window's " +
                     std::to_string(fl));
      }
      fl = *v;
    }
    if (fl <= 0 || fl > d[1]) {
      return Error("frame_length " + std::to_string(fl) + " must be in [1, " +
                   std::to_string(d[1]) + "]");
    }
    const int64_t frames = 1 + (d[1] - fl) / *step;
    const int64_t bins = onesided_ ? fl / 2 + 1 : fl;
    const std::vector<int64_t> want = {d[0], frames, bins, 2};
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != want) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are not " + DimsToString(want));
    }
    const int64_t c = d[2];
    const Twiddles tw(fl);
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      const T* window = has_window ? static_cast<const T*>(args.inputs[2].data) : nullptr;
      T* out = static_cast<T*>(y.data);
      std::vector<double> re(static_cast<size_t>(fl));
      std::vector<double> im(static_cast<size_t>(fl));
      std::vector<double> res(static_cast<size_t>(2 * bins));
      for (int64_t b = 0; b < d[0]; ++b) {
        for (int64_t t = 0; t < frames; ++t) {
          for (int64_t k = 0; k < fl; ++k) {
            const T* p = in + (b * d[1] + t * *step + k) * c;
            const double w = window != nullptr ? static_cast<double>(window[k]) : 1.0;
            re[static_cast<size_t>(k)] = static_cast<double>(p[0]) * w;
            im[static_cast<size_t>(k)] = c == 2 ? static_cast<double>(p[1]) * w : 0.0;
          }
          Dft1d(re, im, fl, tw, /*inverse=*/false, bins, res.data());
          T* q = out + (b * frames + t) * bins * 2;
          for (int64_t j = 0; j < 2 * bins; ++j) q[j] = static_cast<T>(res[static_cast<size_t>(j)]);
        }
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    onesided_ = AttrInt("onesided", 1) != 0;
    return Status::Ok();
  }
  bool onesided_ = true;
};

}  // namespace

void RegisterSignalKernels(KernelTable& t) {
  t.Add("HannWindow", MakeKernel<HannWindowKernel>);
  t.Add("HammingWindow", MakeKernel<HammingWindowKernel>);
  t.Add("BlackmanWindow", MakeKernel<BlackmanWindowKernel>);
  t.Add("MelWeightMatrix", MakeKernel<MelWeightMatrixKernel>);
  t.Add("DFT", MakeKernel<DftKernel>);
  t.Add("STFT", MakeKernel<StftKernel>);
}

}  // namespace ge::host_cpu

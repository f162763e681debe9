// Image geometry (ONNX names): AffineGrid (the sampling grid of an affine transform, for
// GridSample), Col2Im (column blocks summed back into an image, torch's fold) and CenterCropPad
// (cropped or zero-padded around the center). Direct loops: their cost is the copy itself.
#include <cstring>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Walks every index of `dims` in row-major order: f(index, flat position).
template <typename F>
void ForEachIndex(const std::vector<int64_t>& dims, F&& f) {
  const int64_t n = NumElements(dims);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    f(index, flat);
    for (size_t d = dims.size(); d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

class AffineGridKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& theta = args.inputs[0];
    const KernelOutput& grid = args.outputs[0];
    if (theta.spec.dtype != DT_FLOAT || grid.spec.dtype != DT_FLOAT) {
      return Unsupported(theta.spec.dtype);
    }
    std::vector<int64_t> size;
    if (!ReadInts(args.inputs[1], &size) || (size.size() != 4 && size.size() != 5)) {
      return Error("size must have 4 or 5 values");
    }
    const size_t spatial = size.size() - 2;
    const std::vector<int64_t> space(size.begin() + 2, size.end());  // D, H, W (or H, W)
    std::vector<int64_t> expected = {size[0]};
    expected.insert(expected.end(), space.begin(), space.end());
    expected.push_back(static_cast<int64_t>(spatial));
    const std::vector<int64_t> theta_dims = {size[0], static_cast<int64_t>(spatial),
                                             static_cast<int64_t>(spatial) + 1};
    if (grid.spec.dims != expected || theta.spec.dims != theta_dims) {
      return Error("theta " + DimsToString(theta.spec.dims) + " and grid " +
                   DimsToString(grid.spec.dims) + " should be " + DimsToString(theta_dims) +
                   " and " + DimsToString(expected));
    }
    // The base coordinate of position i of a dim of n positions, in [-1, 1].
    auto base = [this](int64_t i, int64_t n) {
      if (align_corners_) {
        return n > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
      }
      return (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n) - 1.0;
    };
    const auto* t = static_cast<const float*>(theta.data);
    auto* out = static_cast<float*>(grid.data);
    const int64_t points = NumElements(space);
    const auto matrix = static_cast<int64_t>(spatial * (spatial + 1));
    for (int64_t b = 0; b < size[0]; ++b) {
      const float* m = t + b * matrix;
      ForEachIndex(space, [&](const std::vector<int64_t>& at, int64_t flat) {
        // Homogeneous position (x, y[, z], 1): x runs along the last dim.
        double p[4] = {0, 0, 0, 1};
        for (size_t k = 0; k < spatial; ++k) {
          p[k] = base(at[spatial - 1 - k], space[spatial - 1 - k]);
        }
        p[spatial] = 1;
        float* g = out + (b * points + flat) * static_cast<int64_t>(spatial);
        for (size_t r = 0; r < spatial; ++r) {
          double v = 0;
          for (size_t c = 0; c <= spatial; ++c) v += m[r * (spatial + 1) + c] * p[c];
          g[r] = static_cast<float>(v);
        }
      });
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    align_corners_ = AttrInt("align_corners", 0) != 0;
    return Status::Ok();
  }
  bool align_corners_ = false;
};

class Col2ImKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    std::vector<int64_t> image, block;
    if (!ReadInts(args.inputs[1], &image) || !ReadInts(args.inputs[2], &block) ||
        image.size() != block.size() || image.empty() || x.spec.dims.size() != 3) {
      return Error(
          "needs input [N, C * prod(block), L] and image_shape, block_shape of one length");
    }
    const size_t r = image.size();
    std::vector<int64_t> strides = strides_, dilations = dilations_, pads = pads_;
    strides.resize(r, 1);
    dilations.resize(r, 1);
    pads.resize(2 * r, 0);
    std::vector<int64_t> counts(r);  // blocks along each dim
    for (size_t d = 0; d < r; ++d) {
      int64_t span = 0;
      int64_t padded = 0;
      if (strides[d] <= 0 || image[d] < 0 || pads[d] < 0 || pads[d + r] < 0 ||
          !checked::WindowExtent(block[d], dilations[d], &span) ||
          !checked::Add(image[d], pads[d], &padded) ||
          !checked::Add(padded, pads[d + r], &padded) || padded < span) {
        return Error("block " + DimsToString(block) + " does not fit image " + DimsToString(image));
      }
      counts[d] = (padded - span) / strides[d] + 1;
    }
    const int64_t k = NumElements(block);
    const int64_t n = x.spec.dims[0];
    const int64_t l = NumElements(counts);
    if (x.spec.dims[1] % k != 0 || x.spec.dims[2] != l) {
      return Error("input " + DimsToString(x.spec.dims) + " must be [N, C * " + std::to_string(k) +
                   ", " + std::to_string(l) + "]");
    }
    const int64_t c = x.spec.dims[1] / k;
    std::vector<int64_t> expected = {n, c};
    expected.insert(expected.end(), image.begin(), image.end());
    if (y.spec.dims != expected || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(y.spec.dims) + " should be " + DimsToString(expected));
    }
    const int64_t plane = NumElements(image);
    const std::vector<int64_t> image_strides = StridesOf(image);
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      std::fill(out, out + n * c * plane, T(0));
      for (int64_t img = 0; img < n * c; ++img) {
        ForEachIndex(block, [&](const std::vector<int64_t>& kk, int64_t kflat) {
          ForEachIndex(counts, [&](const std::vector<int64_t>& ll, int64_t lflat) {
            int64_t at = 0;
            for (size_t d = 0; d < r; ++d) {
              const int64_t pos = ll[d] * strides[d] - pads[d] + kk[d] * dilations[d];
              if (pos < 0 || pos >= image[d]) return;
              at += pos * image_strides[d];
            }
            out[img * plane + at] += in[(img * k + kflat) * l + lflat];
          });
        });
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    strides_ = AttrInts("strides");
    dilations_ = AttrInts("dilations");
    pads_ = AttrInts("pads");
    return Status::Ok();
  }
  std::vector<int64_t> strides_, dilations_, pads_;
};

class CenterCropPadKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const std::vector<int64_t>& in = x.spec.dims;
    const std::vector<int64_t>& out = y.spec.dims;
    if (out.size() != in.size() || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(out) + " must have the input's rank and dtype");
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    // Per dim, the input index of output index 0: a crop starts inside (rounded down), a pad
    // before the input (the odd pixel of padding goes to the end).
    std::vector<int64_t> shift(in.size());
    for (size_t d = 0; d < in.size(); ++d) {
      shift[d] = out[d] <= in[d] ? (in[d] - out[d]) / 2 : -((out[d] - in[d]) / 2);
    }
    const std::vector<int64_t> in_strides = StridesOf(in);
    const auto* src = static_cast<const uint8_t*>(x.data);
    auto* dst = static_cast<uint8_t*>(y.data);
    ForEachIndex(out, [&](const std::vector<int64_t>& at, int64_t flat) {
      int64_t from = 0;
      for (size_t d = 0; d < in.size(); ++d) {
        const int64_t pos = at[d] + shift[d];
        if (pos < 0 || pos >= in[d]) {
          std::memset(dst + flat * eb, 0, static_cast<size_t>(eb));
          return;
        }
        from += pos * in_strides[d];
      }
      std::memcpy(dst + flat * eb, src + from * eb, static_cast<size_t>(eb));
    });
    return Status::Ok();
  }
};

}  // namespace

void RegisterGeometryKernels(KernelTable& t) {
  t.Add("AffineGrid", MakeKernel<AffineGridKernel>);
  t.Add("Col2Im", MakeKernel<Col2ImKernel>);
  t.Add("CenterCropPad", MakeKernel<CenterCropPadKernel>);
}

}  // namespace ge::host_cpu

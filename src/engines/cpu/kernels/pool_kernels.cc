// Pooling: MaxPool and AvgPool on oneDNN pooling primitives (plain NCHW / NCDHW / NCW, dilations,
// ceil_mode, count_include_pad), MaxPool's optional indices output with a direct loop, and
// GlobalAveragePool / GlobalMaxPool as per-channel reductions.
//
// Blocked tensors (the layout planner's NC1HWC0, oneDNN's nChw16c): MaxPool and AvgPool read and
// write them (both or neither; no indices then), and the global pools read them and write NCHW
// [N, C, 1, 1]. The channel padding stays zero: max and mean of zeros are zero.
#include <limits>

#include "dnnl_util.h"

namespace ge::host_cpu {
namespace {

using dnnl::memory;

class PoolKernel final : public KernelBase {
 public:
  explicit PoolKernel(bool max = true) : max_(max) {}

  int64_t WorkspaceBytes() const override { return static_ ? static_cast<int64_t>(ws_bytes_) : 0; }
  std::string ImplInfo() const override { return impl_; }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != dtype_ || y.spec.dtype != dtype_) return Unsupported(x.spec.dtype);
    if (blocked_ && (x.spec.dims != x_stored_ || y.spec.dims != y_stored_)) {
      return Error("blocked (NC1HWC0) tensors changed shape: input " + DimsToString(x.spec.dims) +
                   ", output " + DimsToString(y.spec.dims));
    }
    const std::vector<int64_t>& xd = blocked_ ? x_dims_ : x.spec.dims;
    const std::vector<int64_t>& yd = blocked_ ? y_dims_ : y.spec.dims;
    try {
      OmpThreadsGuard guard(threads_);
      if (!built_ || xd != x_dims_) GE_RETURN_IF_ERROR(Build(xd));
      if (yd != y_dims_) {
        return Error("output dims " + DimsToString(yd) + " should be " + DimsToString(y_dims_) +
                     " for input " + DimsToString(xd));
      }
      if (NumElements(y_dims_) == 0) return Status::Ok();
      const bool want_indices =
          indices_read_ && args.outputs.size() > 1 && args.outputs[1].data != nullptr;
      if (want_indices || dtype_ != DT_FLOAT) {
        const KernelOutput* idx = want_indices ? &args.outputs[1] : nullptr;
        if (dtype_ == DT_INT8) return RunLoop<int8_t>(x, y, idx);
        if (dtype_ == DT_UINT8) return RunLoop<uint8_t>(x, y, idx);
        return RunLoop<float>(x, y, idx);
      }
      uint8_t* ws = static_ && args.workspace != nullptr ? static_cast<uint8_t*>(args.workspace)
                                                         : owned_ws_.Get(ws_bytes_);
      src_mem_.set_data_handle(const_cast<void*>(x.data));
      dst_mem_.set_data_handle(y.data);
      if (ws_bytes_ > 0) scratch_mem_.set_data_handle(ws);
      pool_.execute(stream_, exec_args_);
      stream_.wait();
      if (!divisor_scale_.empty()) ScaleByDivisor(static_cast<float*>(y.data));
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.empty() || spec.outputs.empty()) return Error("expects input x and output y");
    const std::string format = AttrStr("data_format", "NCHW");
    if (format != "NCHW" && format != "NCDHW" && format != "NCW") {
      return Error("data_format '" + format + "' is not supported (channel-first only)");
    }
    if (AttrInts("kernel_shape").empty()) return Error("attribute 'kernel_shape' is required");
    const int64_t storage_order = max_ ? AttrInt("storage_order", 0) : 0;
    if (storage_order != 0 && storage_order != 1) {
      return Error("attribute 'storage_order' is " + std::to_string(storage_order) +
                   "; it must be 0 (row-major indices) or 1 (column-major)");
    }
    column_major_ = storage_order == 1;
    // The indices (output 1) cost a scalar loop over NCHW: only when something reads them.
    indices_read_ = max_ && spec.outputs.size() > 1 && spec.outputs[1].present;
    blocked_ = spec.inputs[0].format == FORMAT_NC1HWC0;
    if (blocked_ != (spec.outputs[0].format == FORMAT_NC1HWC0)) {
      return Error("input and output must both be NC1HWC0 or neither");
    }
    if (blocked_ && indices_read_) return Error("indices are not computed on NC1HWC0 tensors");
    if (blocked_) {
      for (const TensorSpec* t : {&spec.inputs[0], &spec.outputs[0]}) {
        if (t->origin_dims.size() != 4 || HasUnknownDims(t->origin_dims) ||
            HasUnknownDims(t->dims)) {
          return Error("an NC1HWC0 tensor needs static 4-D NCHW origin dims, got " +
                       DimsToString(t->origin_dims));
        }
      }
      x_stored_ = spec.inputs[0].dims;
      y_stored_ = spec.outputs[0].dims;
    }
    const auto& xd = blocked_ ? spec.inputs[0].origin_dims : spec.inputs[0].dims;
    if (xd.size() < 3 || xd.size() > 5) {
      return Error("input must have rank 3 to 5 (N, C, spatial...), got " + DimsToString(xd));
    }
    // MaxPool of int8 and uint8 runs the scalar loop; everything else is float.
    dtype_ = spec.inputs[0].dtype;
    const bool integer = dtype_ == DT_INT8 || dtype_ == DT_UINT8;
    if (dtype_ != DT_FLOAT && !(max_ && integer && !blocked_)) return Unsupported(dtype_);
    if (HasUnknownDims(xd)) return Status::Ok();
    try {
      OmpThreadsGuard guard(threads_);
      GE_RETURN_IF_ERROR(Build(xd));
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    static_ = true;
    return Status::Ok();
  }

  Status Build(const std::vector<int64_t>& xd) {
    built_ = false;
    const size_t sp = xd.size() - 2;
    Status s =
        ResolveWindow(std::vector<int64_t>(xd.begin() + 2, xd.end()), AttrInts("kernel_shape"),
                      AttrInts("strides"), AttrInts("dilations"), AttrInts("pads"),
                      AttrStr("auto_pad", "NOTSET"), AttrInt("ceil_mode", 0) != 0, &win_);
    if (!s.ok()) return Error(s.message());
    x_dims_ = xd;
    y_dims_ = {xd[0], xd[1]};
    y_dims_.insert(y_dims_.end(), win_.out.begin(), win_.out.end());
    if (NumElements(y_dims_) == 0 || dtype_ != DT_FLOAT) {  // the integer types need no primitive
      built_ = true;
      return Status::Ok();
    }
    memory::dims strides(win_.strides.begin(), win_.strides.end());
    memory::dims kernel(win_.kernel.begin(), win_.kernel.end());
    memory::dims dil, pl(win_.pad_begin.begin(), win_.pad_begin.end()), pr;
    for (size_t i = 0; i < sp; ++i) {
      const int64_t extent = (win_.kernel[i] - 1) * win_.dilations[i] + 1;
      dil.push_back(win_.dilations[i] - 1);
      // ceil_mode: extend the right padding so oneDNN's floor division gives the same count.
      pr.push_back(std::max<int64_t>(win_.pad_end[i], (win_.out[i] - 1) * win_.strides[i] + extent -
                                                          xd[i + 2] - win_.pad_begin[i]));
    }
    // count_include_pad counts the pads, not what ceil_mode's last window reaches past them, but
    // oneDNN counts that extension as padding too: then the average excluding all padding is
    // rescaled per output position to divide by the taps inside the padded input instead.
    bool include_pad = !max_ && AttrInt("count_include_pad", 0) != 0;
    divisor_scale_.clear();
    bool extended = false;
    for (size_t i = 0; i < sp; ++i) extended = extended || pr[i] > win_.pad_end[i];
    if (include_pad && extended) {
      include_pad = false;
      divisor_scale_ = DivisorScale(xd);
    }
    const dnnl::algorithm alg = max_          ? dnnl::algorithm::pooling_max
                                : include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                              : dnnl::algorithm::pooling_avg_exclude_padding;
    const auto blocked = [](const std::vector<int64_t>& d) {
      return memory::desc(ToDnnlDims(d), memory::data_type::f32, memory::format_tag::nChw16c);
    };
    const memory::desc src = blocked_ ? blocked(xd) : PlainDesc(xd);
    const memory::desc dst = blocked_ ? blocked(y_dims_) : PlainDesc(y_dims_);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, dst, strides,
                                     kernel, dil, pl, pr);
    dnnl::pooling_v2_forward::primitive_desc pd(d, attr, DnnlEngine());
    impl_ = pd.impl_info_str();
    if (IsReferenceImpl(impl_)) {
      KernelLog(2, "node '" + name_ + "' (" + type_ + "): oneDNN chose the reference pooling '" +
                       impl_ + "' for input " + DimsToString(xd));
    }
    stream_ = dnnl::stream(DnnlEngine());
    pool_ = dnnl::pooling_v2_forward(pd);
    src_mem_ = memory(src, DnnlEngine(), nullptr);
    dst_mem_ = memory(dst, DnnlEngine(), nullptr);
    exec_args_ = {{DNNL_ARG_SRC, src_mem_}, {DNNL_ARG_DST, dst_mem_}};
    ws_bytes_ = Align64(pd.scratchpad_desc().get_size());
    if (ws_bytes_ > 0) {
      scratch_mem_ = memory(pd.scratchpad_desc(), DnnlEngine(), nullptr);
      exec_args_[DNNL_ARG_SCRATCHPAD] = scratch_mem_;
    }
    built_ = true;
    return Status::Ok();
  }

  // MaxPool as a scalar loop, with ONNX's indices output when `idx` is given: the flat index
  // into x, N and C included, over the spatial dims in row-major order, or with storage_order 1
  // in column-major order (the first spatial dim fastest).
  template <typename T>
  Status RunLoop(const KernelTensor& x, const KernelOutput& y, const KernelOutput* idx) {
    if (idx != nullptr && (idx->spec.dtype != DT_INT64 || idx->spec.dims != y_dims_)) {
      return Error("indices output must be DT_INT64" + DimsToString(y_dims_));
    }
    const size_t sp = x_dims_.size() - 2;
    const T* in = static_cast<const T*>(x.data);
    T* out = static_cast<T*>(y.data);
    auto* ind = idx != nullptr ? static_cast<int64_t*>(idx->data) : nullptr;
    const std::vector<int64_t> xs = StridesOf(x_dims_);
    std::vector<int64_t> cs(sp, 1);  // column-major strides of the spatial dims
    for (size_t d = 1; d < sp; ++d) cs[d] = cs[d - 1] * x_dims_[d + 1];
    const int64_t planes = x_dims_[0] * x_dims_[1];
    const int64_t out_plane = NumElements(y_dims_) / planes;
    const int64_t in_plane = xs[1];
    std::vector<int64_t> o(sp), k(sp);
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t j = 0; j < out_plane; ++j) {
        int64_t r = j;
        for (size_t d = sp; d-- > 0;) {
          o[d] = r % y_dims_[d + 2];
          r /= y_dims_[d + 2];
        }
        T best = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                      : std::numeric_limits<T>::lowest();
        int64_t best_off = -1, best_col = 0;
        const int64_t kn = NumElements(win_.kernel);
        for (int64_t t = 0; t < kn; ++t) {
          int64_t rt = t, off = 0, col = 0;
          bool inside = true;
          for (size_t d = sp; d-- > 0;) {
            k[d] = rt % win_.kernel[d];
            rt /= win_.kernel[d];
          }
          for (size_t d = 0; d < sp && inside; ++d) {
            const int64_t pos =
                o[d] * win_.strides[d] - win_.pad_begin[d] + k[d] * win_.dilations[d];
            inside = pos >= 0 && pos < x_dims_[d + 2];
            off += pos * xs[d + 2];
            col += pos * cs[d];
          }
          if (inside && (best_off < 0 || in[p * in_plane + off] > best)) {
            best = in[p * in_plane + off];
            best_off = off;
            best_col = col;
          }
        }
        out[p * out_plane + j] = best;
        if (ind != nullptr)
          ind[p * out_plane + j] = p * in_plane + (column_major_ ? best_col : best_off);
      }
    }
    return Status::Ok();
  }

  // Per output spatial position: (taps inside the input) / (taps inside the padded input), for
  // ceil_mode windows with count_include_pad (see Build).
  std::vector<float> DivisorScale(const std::vector<int64_t>& xd) const {
    const size_t sp = xd.size() - 2;
    std::vector<std::vector<float>> per_dim(sp);
    for (size_t i = 0; i < sp; ++i) {
      for (int64_t o = 0; o < win_.out[i]; ++o) {
        int64_t inside = 0, padded = 0;
        for (int64_t k = 0; k < win_.kernel[i]; ++k) {
          const int64_t p = o * win_.strides[i] - win_.pad_begin[i] + k * win_.dilations[i];
          inside += p >= 0 && p < xd[i + 2];
          padded += p >= -win_.pad_begin[i] && p < xd[i + 2] + win_.pad_end[i];
        }
        per_dim[i].push_back(padded > 0 ? static_cast<float>(inside) / static_cast<float>(padded)
                                        : 1.0F);
      }
    }
    std::vector<float> scale(static_cast<size_t>(NumElements(win_.out)), 1.0F);
    for (size_t s = 0; s < scale.size(); ++s) {
      size_t rest = s;
      for (size_t i = sp; i-- > 0;) {
        scale[s] *= per_dim[i][rest % static_cast<size_t>(win_.out[i])];
        rest /= static_cast<size_t>(win_.out[i]);
      }
    }
    return scale;
  }
  void ScaleByDivisor(float* y) const {
    const auto plane = static_cast<int64_t>(divisor_scale_.size());
    const int64_t lanes = blocked_ ? 16 : 1;  // nChw16c: 16 channels at each position
    const int64_t planes = NumElements(blocked_ ? y_stored_ : y_dims_) / (plane * lanes);
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t s = 0; s < plane; ++s) {
        for (int64_t l = 0; l < lanes; ++l) y[(p * plane + s) * lanes + l] *= divisor_scale_[s];
      }
    }
  }

  bool max_;
  std::vector<float> divisor_scale_;          // empty unless DivisorScale applies
  bool indices_read_ = false;                 // output 1 is read
  bool column_major_ = false;                 // storage_order 1: indices in column-major order
  DataType dtype_ = DT_FLOAT;                 // float, or int8 / uint8 for MaxPool (a loop)
  bool blocked_ = false;                      // NC1HWC0 (nChw16c) input and output
  std::vector<int64_t> x_stored_, y_stored_;  // their stored (5-D) dims
  bool built_ = false;
  bool static_ = false;
  Window win_;
  std::vector<int64_t> x_dims_, y_dims_;
  std::string impl_;
  dnnl::stream stream_;
  dnnl::pooling_v2_forward pool_;
  memory src_mem_, dst_mem_, scratch_mem_;
  std::unordered_map<int, memory> exec_args_;
  size_t ws_bytes_ = 0;
  AlignedBuffer owned_ws_;
};

// GlobalAveragePool / GlobalMaxPool: one value per (n, c) plane.
template <bool kMax>
class GlobalPoolKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (blocked_) return RunBlocked(x, y);
    const auto& xd = x.spec.dims;
    if (xd.size() < 3) return Error("input must have rank >= 3, got " + DimsToString(xd));
    std::vector<int64_t> want(xd.size(), 1);
    want[0] = xd[0];
    want[1] = xd[1];
    if (y.spec.dims != want) {
      return Error("output dims " + DimsToString(y.spec.dims) + " should be " + DimsToString(want));
    }
    const int64_t planes = xd[0] * xd[1];
    const int64_t plane = planes == 0 ? 0 : NumElements(xd) / planes;
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      ParallelFor(planes, threads_, plane, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
          const T* row = in + p * plane;
          if constexpr (kMax) {
            T m = plane > 0 ? row[0] : T(0);
            for (int64_t i = 1; i < plane; ++i) m = row[i] > m ? row[i] : m;
            out[p] = m;
          } else {
            T s = 0;
#pragma omp simd reduction(+ : s)
            for (int64_t i = 0; i < plane; ++i) s += row[i];
            out[p] = plane > 0 ? s / static_cast<T>(plane) : T(0);
          }
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.empty() || spec.outputs.empty()) return Error("expects input x and output y");
    blocked_ = spec.inputs[0].format == FORMAT_NC1HWC0;
    if (!blocked_) {
      if (spec.outputs[0].format == FORMAT_NC1HWC0) {
        return Error("an NC1HWC0 output needs an NC1HWC0 input");
      }
      return Status::Ok();
    }
    const TensorSpec& x = spec.inputs[0];
    if (x.dtype != DT_FLOAT || x.origin_dims.size() != 4 || HasUnknownDims(x.origin_dims) ||
        x.dims.size() != 5) {
      return Error(
          "an NC1HWC0 input needs float data and static 4-D NCHW origin dims, got origin "
          "dims " +
          DimsToString(x.origin_dims));
    }
    x_stored_ = x.dims;
    channels_ = x.origin_dims[1];
    out_blocked_ = spec.outputs[0].format == FORMAT_NC1HWC0;
    return Status::Ok();
  }

  // x [N, C1, H, W, 16] -> y [N, C, 1, 1], or y [N, C1, 1, 1, 16] (blocked too, its padding
  // lanes zero): each (n, c1) block reduces 16 channels at once.
  Status RunBlocked(const KernelTensor& x, const KernelOutput& y) const {
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT || x.spec.dims != x_stored_) {
      return Error("the NC1HWC0 input changed: " + DimsToString(x.spec.dims) + ", expected " +
                   DimsToString(x_stored_));
    }
    constexpr int64_t kC0 = 16;
    const int64_t n = x_stored_[0], c1 = x_stored_[1], plane = x_stored_[2] * x_stored_[3];
    const std::vector<int64_t> want = out_blocked_ ? std::vector<int64_t>{n, c1, 1, 1, kC0}
                                                   : std::vector<int64_t>{n, channels_, 1, 1};
    if (y.spec.dims != want) {
      return Error("output dims " + DimsToString(y.spec.dims) + " should be " + DimsToString(want));
    }
    const float* in = static_cast<const float*>(x.data);
    float* out = static_cast<float*>(y.data);
    ParallelFor(n * c1, threads_, plane * kC0, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        const float* block = in + b * plane * kC0;
        float acc[kC0];
        for (int64_t l = 0; l < kC0; ++l) acc[l] = kMax && plane > 0 ? block[l] : 0.0F;
        for (int64_t i = kMax ? 1 : 0; i < plane; ++i) {
#pragma omp simd
          for (int64_t l = 0; l < kC0; ++l) {
            const float v = block[i * kC0 + l];
            acc[l] = kMax ? (v > acc[l] ? v : acc[l]) : acc[l] + v;
          }
        }
        const int64_t c0 = (b % c1) * kC0, batch = b / c1;
        for (int64_t l = 0; l < kC0; ++l) {
          const float v = kMax ? acc[l] : (plane > 0 ? acc[l] / static_cast<float>(plane) : 0.0F);
          if (out_blocked_) {
            out[b * kC0 + l] = c0 + l < channels_ ? v : 0.0F;
          } else if (c0 + l < channels_) {
            out[batch * channels_ + c0 + l] = v;
          }
        }
      }
    });
    return Status::Ok();
  }

  bool blocked_ = false;      // NC1HWC0 input
  bool out_blocked_ = false;  // and NC1HWC0 output
  std::vector<int64_t> x_stored_;
  int64_t channels_ = 0;
};

std::unique_ptr<CpuKernel> MakeAvgPool() { return std::make_unique<PoolKernel>(false); }

}  // namespace

void RegisterPoolKernels(KernelTable& t) {
  t.Add("MaxPool", MakeKernel<PoolKernel>);
  t.Add("AvgPool", MakeAvgPool);
  t.Add("GlobalAveragePool", MakeKernel<GlobalPoolKernel<false>>);
  t.Add("GlobalMaxPool", MakeKernel<GlobalPoolKernel<true>>);
}

}  // namespace ge::host_cpu

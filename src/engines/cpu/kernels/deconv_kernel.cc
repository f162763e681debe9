// Transposed convolution (ConvTranspose, Conv2DTranspose, Conv3DTranspose; 1-D to 3-D, groups,
// strides, dilations, pads, auto_pad, output_padding, output_shape, bias) on a oneDNN
// deconvolution primitive; activations are plain NCHW (NCDHW, NCW) at the interface.
//
// ONNX's geometry maps onto oneDNN's as: padding_l = pads_begin and padding_r = pads_end -
// output_padding (oneDNN accepts a negative right padding: the extra output rows get only the
// bias). When output_shape or a SAME auto_pad is given, the pads come from ONNX's total-padding
// rule. The filter [C, M/group, k...] is ONNX's "IOHW"; it is described to oneDNN by strides and
// reordered once at Prepare into the layout oneDNN picks. As for convolution, blocked activation
// layouts are asked for first (reordered through the workspace) and plain NCHW is the fallback;
// a reference (`ref:`) implementation is logged with the node's name.
#include <numeric>

#include "dnnl_util.h"

namespace ge::host_cpu {
namespace {

using dnnl::memory;

/// floor(a / 2) for any sign, as Python's `//` in ONNX's reference.
int64_t FloorHalf(int64_t a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

struct DeconvGeometry {
  std::vector<int64_t> y_dims;                  // N, M, spatial...
  memory::dims strides, dilates, pad_l, pad_r;  // oneDNN terms (dilates count the gaps)
};

class DeconvKernel final : public KernelBase {
 public:
  int64_t WorkspaceBytes() const override { return static_ ? static_cast<int64_t>(ws_bytes_) : 0; }
  std::string ImplInfo() const override { return impl_; }
  std::optional<PackedWeight> PackedWeights() const override { return weights_.Packed(1); }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& w = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || w.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) {
      return Unsupported(x.spec.dtype);
    }
    try {
      OmpThreadsGuard guard(threads_);
      const std::vector<int64_t>& wd = weights_.stored() ? w_dims_ : w.spec.dims;
      if (!built_ || x.spec.dims != x_dims_ || wd != w_dims_) {
        GE_RETURN_IF_ERROR(Build(x.spec.dims, wd, HasInput(args, 2)));
      }
      if (y.spec.dims != y_dims_) {
        return Error("output dims " + DimsToString(y.spec.dims) + " should be " +
                     DimsToString(y_dims_) + " for input " + DimsToString(x.spec.dims));
      }
      if (NumElements(y_dims_) == 0) return Status::Ok();
      uint8_t* ws = static_ && args.workspace != nullptr ? static_cast<uint8_t*>(args.workspace)
                                                         : owned_ws_.Get(ws_bytes_);
      if (has_bias_ && !HasInput(args, 2)) {
        return Error("bias was present at Prepare but is absent now");
      }
      weights_.Bind(w.data, ws, stream_);
      io_.Bind(x.data, y.data, has_bias_ ? args.inputs[2].data : nullptr, ws, stream_);
      deconv_.execute(stream_, io_.args());
      io_.Finish(y.data, stream_);
      stream_.wait();
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.size() < 2 || spec.outputs.empty()) {
      return Error("expects inputs x, filter[, bias] and output y");
    }
    const std::string format = AttrStr("data_format", "NCHW");
    if (format != "NCHW" && format != "NCDHW" && format != "NCW") {
      return Error("data_format '" + format + "' is not supported (channel-first only)");
    }
    group_ = AttrInt("group", 1);
    if (group_ <= 0)
      return Error("attribute 'group' must be positive, got " + std::to_string(group_));
    if (spec.inputs[0].dtype != DT_FLOAT) return Unsupported(spec.inputs[0].dtype);
    const auto& xd = spec.inputs[0].dims;
    const GeTensor* weight = ConstInput(spec, 1);
    GE_RETURN_IF_ERROR(
        Named(weights_.Init(*op_, weight, WeightUseOf(spec), spec.weights_released)));
    const auto& wd = weights_.LogicalDims(spec.inputs[1]);
    GE_RETURN_IF_ERROR(Named(CheckConvOperands(xd, wd, weight != nullptr)));
    if (HasUnknownDims(xd) || HasUnknownDims(wd)) return Status::Ok();  // built at Run
    weights_.ReadOnce();  // static shapes: built once, here
    try {
      OmpThreadsGuard guard(threads_);
      GE_RETURN_IF_ERROR(Build(xd, wd, HasInputSpec(spec, 2)));
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    static_ = true;
    if (spec.outputs[0].dims != y_dims_ && !HasUnknownDims(spec.outputs[0].dims)) {
      return Error("output dims " + DimsToString(spec.outputs[0].dims) + " should be " +
                   DimsToString(y_dims_));
    }
    return Status::Ok();
  }

  // ONNX ConvTranspose's output dims and pads for input `xd` and filter `wd`.
  Status Geometry(const std::vector<int64_t>& xd, const std::vector<int64_t>& wd,
                  DeconvGeometry* g) const {
    const size_t sp = xd.size() - 2;
    std::vector<int64_t> kernel = AttrInts("kernel_shape");
    const std::vector<int64_t> wk(wd.begin() + 2, wd.end());
    if (kernel.empty()) kernel = wk;
    if (kernel != wk) {
      return Error("attribute 'kernel_shape' " + DimsToString(kernel) +
                   " does not match the filter " + DimsToString(wd));
    }
    auto per_dim = [&](const char* name, int64_t def) -> Result<std::vector<int64_t>> {
      std::vector<int64_t> v = AttrInts(name);
      if (v.empty()) v.assign(sp, def);
      if (v.size() != sp) {
        return Error(std::string("attribute '") + name + "' has " + std::to_string(v.size()) +
                     " values for " + std::to_string(sp) + " spatial dims");
      }
      return v;
    };
    GE_ASSIGN_OR_RETURN(auto strides, per_dim("strides", 1));
    GE_ASSIGN_OR_RETURN(auto dilations, per_dim("dilations", 1));
    GE_ASSIGN_OR_RETURN(auto out_pad, per_dim("output_padding", 0));
    std::vector<int64_t> pads = AttrInts("pads");
    if (pads.empty()) pads.assign(2 * sp, 0);
    if (pads.size() != 2 * sp) {
      return Error("attribute 'pads' has " + std::to_string(pads.size()) + " values, expected " +
                   std::to_string(2 * sp));
    }
    const std::string auto_pad = AttrStr("auto_pad", "NOTSET");
    const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
    if (!same && auto_pad != "NOTSET" && auto_pad != "VALID" && !auto_pad.empty()) {
      return Error("attribute 'auto_pad' '" + auto_pad + "' is not supported");
    }
    const std::vector<int64_t> output_shape = AttrInts("output_shape");
    if (!output_shape.empty() && output_shape.size() < sp) {
      return Error("attribute 'output_shape' " + DimsToString(output_shape) + " has fewer than " +
                   std::to_string(sp) + " spatial dims");
    }
    g->y_dims = {xd[0], wd[1] * group_};
    g->strides.clear();
    g->dilates.clear();
    g->pad_l.clear();
    g->pad_r.clear();
    for (size_t i = 0; i < sp; ++i) {
      if (kernel[i] <= 0 || strides[i] <= 0 || dilations[i] <= 0) {
        return Error("kernel_shape, strides and dilations must be positive");
      }
      if (out_pad[i] < 0) return Error("attribute 'output_padding' is negative");
      const int64_t in = xd[i + 2];
      int64_t extent = 0;
      int64_t full = 0;  // strides * (in - 1) + output_padding + extent
      if (!checked::WindowExtent(kernel[i], dilations[i], &extent) ||
          !checked::Mul(strides[i], in - 1, &full) || !checked::Add(full, out_pad[i], &full) ||
          !checked::Add(full, extent, &full)) {
        return Error("the output extent of spatial dim " + std::to_string(i) +
                     " (strides, kernel_shape, dilations, output_padding) overflows int64");
      }
      int64_t begin = 0, end = 0, out = 0;
      if (!output_shape.empty() || same) {
        if (output_shape.empty()) {
          if (!checked::Mul(in, strides[i], &out)) {
            return Error("input dim " + std::to_string(in) + " times strides " +
                         std::to_string(strides[i]) + " overflows int64");
          }
        } else {
          out = output_shape[output_shape.size() - sp + i];
        }
        if (out < 0) return Error("output spatial dim " + std::to_string(i) + " is negative");
        const int64_t total = full - out;  // both within [-1, 2^63): cannot overflow
        const int64_t half = FloorHalf(total);
        begin = auto_pad == "SAME_UPPER" ? half : total - half;
        end = total - begin;
      } else {
        if (auto_pad != "VALID") {
          begin = pads[i];
          end = pads[i + sp];
          if (begin < 0 || end < 0) return Error("attribute 'pads' is negative");
        }
        if (!checked::Sub(full, begin, &out) || !checked::Sub(out, end, &out)) {
          return Error("attribute 'pads' of spatial dim " + std::to_string(i) + " overflows int64");
        }
      }
      if (out < 0) return Error("output spatial dim " + std::to_string(i) + " is negative");
      g->y_dims.push_back(out);
      g->strides.push_back(strides[i]);
      g->dilates.push_back(dilations[i] - 1);
      g->pad_l.push_back(begin);
      g->pad_r.push_back(end - out_pad[i]);
    }
    return Status::Ok();
  }

  Result<dnnl::deconvolution_forward::primitive_desc> MakePd(const memory::desc& src,
                                                             const memory::desc& wts,
                                                             const memory::desc& dst,
                                                             const DeconvGeometry& g) const {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    try {
      if (has_bias_) {
        const memory::desc bias({g.y_dims[1]}, memory::data_type::f32, memory::format_tag::a);
        dnnl::deconvolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                            dnnl::algorithm::deconvolution_direct, src, wts, bias,
                                            dst, g.strides, g.dilates, g.pad_l, g.pad_r);
        return dnnl::deconvolution_forward::primitive_desc(d, attr, DnnlEngine());
      }
      dnnl::deconvolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                          dnnl::algorithm::deconvolution_direct, src, wts, dst,
                                          g.strides, g.dilates, g.pad_l, g.pad_r);
      return dnnl::deconvolution_forward::primitive_desc(d, attr, DnnlEngine());
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN has no deconvolution for this configuration: ") + e.what());
    }
  }

  // The ONNX filter [C, M/group, k...] as oneDNN's logical (G,) O, I, k... dims with strides.
  memory::desc UserWeights(const std::vector<int64_t>& wd) const {
    const int64_t ic = wd[0], ocg = wd[1], icg = ic / group_;
    const int64_t window = NumElements(std::vector<int64_t>(wd.begin() + 2, wd.end()));
    const std::vector<int64_t> kstrides = StridesOf(std::vector<int64_t>(wd.begin() + 2, wd.end()));
    memory::dims dims, strides;
    if (group_ > 1) {
      dims = {group_, ocg, icg};
      strides = {icg * ocg * window, window, ocg * window};
    } else {
      dims = {ocg, ic};
      strides = {window, ocg * window};
    }
    dims.insert(dims.end(), wd.begin() + 2, wd.end());
    strides.insert(strides.end(), kstrides.begin(), kstrides.end());
    return {dims, memory::data_type::f32, strides};
  }

  Status Build(const std::vector<int64_t>& xd, const std::vector<int64_t>& wd, bool has_bias) {
    built_ = false;
    if (wd[0] != xd[1]) {
      return Error("input has " + std::to_string(xd[1]) + " channels but the filter " +
                   DimsToString(wd) + " expects " + std::to_string(wd[0]));
    }
    if (xd[1] % group_ != 0) {
      return Error("input channels " + std::to_string(xd[1]) + " are not divisible by group " +
                   std::to_string(group_));
    }
    DeconvGeometry g;
    GE_RETURN_IF_ERROR(Geometry(xd, wd, &g));
    has_bias_ = has_bias;
    x_dims_ = xd;
    w_dims_ = wd;
    y_dims_ = g.y_dims;
    if (NumElements(y_dims_) == 0 || NumElements(xd) == 0) {
      built_ = true;
      return Status::Ok();
    }

    const memory::desc user_src = PlainDesc(xd);
    const memory::desc user_dst = PlainDesc(y_dims_);
    const memory::desc user_w = UserWeights(wd);
    const memory::desc any_w(user_w.dims(), memory::data_type::f32, memory::format_tag::any);
    GE_ASSIGN_OR_RETURN(
        auto pd, ChooseActivationLayouts(true, user_src, user_dst,
                                         [&](const memory::desc& src, const memory::desc& dst) {
                                           return MakePd(src, any_w, dst, g);
                                         }));
    impl_ = pd.impl_info_str();
    if (IsReferenceImpl(impl_)) {
      KernelLog(2, "node '" + name_ + "' (" + type_ +
                       "): oneDNN chose the reference deconvolution '" + impl_ + "' for input " +
                       DimsToString(xd) + " and filter " + DimsToString(wd) +
                       "; it is correct but slow");
    } else {
      KernelLog(0, "node '" + name_ + "' (" + type_ + "): oneDNN deconvolution '" + impl_ + "'");
    }

    const dnnl::engine& eng = DnnlEngine();
    stream_ = dnnl::stream(eng);
    deconv_ = dnnl::deconvolution_forward(pd);
    // Workspace: [weights if reordered per run][src][dst][scratchpad], each 64-byte aligned.
    size_t off = 0;
    GE_RETURN_IF_ERROR(Named(weights_.Build(user_w, pd.weights_desc(), stream_, &off)));
    GE_RETURN_IF_ERROR(
        Named(io_.Build(pd, user_src, user_dst, has_bias_, y_dims_[1], weights_.memory(), &off)));
    ws_bytes_ = off;
    impl_ += io_.ReorderNote();
    built_ = true;
    return Status::Ok();
  }

  int64_t group_ = 1;
  bool has_bias_ = false;
  bool built_ = false;
  bool static_ = false;
  DnnlWeights weights_;
  std::vector<int64_t> x_dims_, w_dims_, y_dims_;
  std::string impl_;
  dnnl::stream stream_;
  dnnl::deconvolution_forward deconv_;
  DnnlConvIo io_;
  size_t ws_bytes_ = 0;
  AlignedBuffer owned_ws_;
};

}  // namespace

void RegisterDeconvKernels(KernelTable& t) {
  t.Add("ConvTranspose", MakeKernel<DeconvKernel>);
  t.Add("Conv2DTranspose", MakeKernel<DeconvKernel>);
  t.Add("Conv3DTranspose", MakeKernel<DeconvKernel>);
}

}  // namespace ge::host_cpu

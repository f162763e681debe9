// Convolution (Conv2D, Conv3D, Conv, DepthwiseConv2D; groups, pads, strides, dilations, bias) on
// a oneDNN convolution primitive; activations are plain NCHW (NCDHW, NCW) at the interface,
// unless the layout planner (layout_planner.cc) gave the data input, the output and the addend
// the blocked NC1HWC0 format, which is oneDNN's nChw16c: then no reorder is needed at all.
//
// Prepare creates the primitive once for static shapes, with the weights in the layout oneDNN
// picks (format_tag::any): a Const filter is reordered once, or read in place when the weight
// packer stored it in that layout (DnnlWeights). For the activations it asks
// oneDNN for its preferred layout too when the kernel is larger than 1x1 (measured here: plain
// NCHW gets only gemm-based convolutions, 2x slower for 3x3 and 20x for depthwise, while 1x1
// gains nothing from blocking); NCHW input and output are then reordered in and out through
// the workspace. If that choice lands on a gemm or reference implementation, the plain layout is
// used instead. A reference (`ref:`) implementation is never chosen silently: it is logged with
// the node's name. Dynamic shapes rebuild the primitive when the input dims change. Activations
// the fusion pass folded into the node (_fused_post_ops) run as oneDNN eltwise post-ops; a fused
// residual ("Sum", input 3 "addend") is oneDNN's sum post-op: the addend is put in the
// destination first (reordered into the blocked layout when the destination is blocked).
#include <cstring>
#include <numeric>

#include "dnnl_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge::host_cpu {
namespace {

using dnnl::memory;

class ConvKernel final : public KernelBase {
 public:
  explicit ConvKernel(bool depthwise = false) : depthwise_(depthwise) {}

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
    // Blocked (NC1HWC0) tensors have static shapes: their logical dims are Prepare's.
    if ((src_blocked_ && x.spec.dims != x_stored_) || (dst_blocked_ && y.spec.dims != y_stored_)) {
      return Error("blocked (NC1HWC0) tensors changed shape: input " + DimsToString(x.spec.dims) +
                   ", output " + DimsToString(y.spec.dims));
    }
    const std::vector<int64_t>& xd = src_blocked_ ? x_dims_ : x.spec.dims;
    const std::vector<int64_t>& yd = dst_blocked_ ? y_dims_ : y.spec.dims;
    try {
      OmpThreadsGuard guard(threads_);
      const std::vector<int64_t>& wd = weights_.stored() ? w_dims_ : w.spec.dims;
      if (!built_ || xd != x_dims_ || wd != w_dims_) {
        GE_RETURN_IF_ERROR(Build(xd, wd, HasInput(args, 2)));
      }
      if (yd != y_dims_) {
        return Error("output dims " + DimsToString(yd) + " should be " + DimsToString(y_dims_) +
                     " for input " + DimsToString(xd));
      }
      if (NumElements(y_dims_) == 0) return Status::Ok();
      uint8_t* ws = static_ && args.workspace != nullptr ? static_cast<uint8_t*>(args.workspace)
                                                         : owned_ws_.Get(ws_bytes_);
      if (has_bias_ && !HasInput(args, 2)) {
        return Error("bias was present at Prepare but is absent now");
      }
      weights_.Bind(w.data, ws, stream_);
      io_.Bind(x.data, y.data, has_bias_ ? args.inputs[2].data : nullptr, ws, stream_);
      if (has_sum_) GE_RETURN_IF_ERROR(LoadAddend(args));
      conv_.execute(stream_, io_.args());
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
    auto fused = ReadFusedPostOps(*op_, HasInputSpec(spec, kAddendInput));
    if (!fused.ok()) return Error(fused.status().message());
    post_ops_ = fused->ops;
    has_post_ops_ = fused->any;
    has_sum_ = fused->sum;
    // Blocked tensors (the layout planner's NC1HWC0): data input, output, and the addend, which
    // must be laid out as the output.
    src_blocked_ = spec.inputs[0].format == FORMAT_NC1HWC0;
    dst_blocked_ = spec.outputs[0].format == FORMAT_NC1HWC0;
    for (const TensorSpec* t : {&spec.inputs[0], &spec.outputs[0]}) {
      if (t->format != FORMAT_NC1HWC0) continue;
      if (t->origin_dims.size() != 4 || HasUnknownDims(t->origin_dims) || HasUnknownDims(t->dims)) {
        return Error("an NC1HWC0 tensor needs static 4-D NCHW origin dims, got " +
                     DimsToString(t->origin_dims));
      }
    }
    if (has_sum_ && (spec.inputs[kAddendInput].format == FORMAT_NC1HWC0) != dst_blocked_) {
      return Error("the fused residual (input 3) must have the output's layout");
    }
    if (src_blocked_) x_stored_ = spec.inputs[0].dims;
    if (dst_blocked_) y_stored_ = spec.outputs[0].dims;
    group_ = AttrInt("group", 1);
    winograd_ = AttrStr("_conv_algorithm", "direct") == "winograd";
    if (group_ <= 0)
      return Error("attribute 'group' must be positive, got " + std::to_string(group_));
    if (spec.inputs[0].dtype != DT_FLOAT) return Unsupported(spec.inputs[0].dtype);
    const auto& xd = src_blocked_ ? spec.inputs[0].origin_dims : spec.inputs[0].dims;
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
    const std::vector<int64_t>& yd =
        dst_blocked_ ? spec.outputs[0].origin_dims : spec.outputs[0].dims;
    if (yd != y_dims_ && !HasUnknownDims(yd)) {
      return Error("output dims " + DimsToString(yd) + " should be " + DimsToString(y_dims_));
    }
    return Status::Ok();
  }

  /// Puts the addend (input 3) in the destination, where the sum post-op adds to it.
  Status LoadAddend(const KernelArgs& args) {
    if (!HasInput(args, kAddendInput))
      return Error("the fused residual (input 3, addend) is absent");
    const KernelTensor& addend = args.inputs[kAddendInput];
    const std::vector<int64_t>& want = dst_blocked_ ? y_stored_ : y_dims_;
    if (addend.spec.dtype != DT_FLOAT || addend.spec.dims != want) {
      return Error("the fused residual " + DimsToString(addend.spec.dims) + " must be float " +
                   DimsToString(want) + " like the output");
    }
    if (io_.dst_reordered()) {
      user_addend_mem_.set_data_handle(const_cast<void*>(addend.data));
      dnnl::memory dst = io_.dst();
      addend_reorder_.execute(stream_, user_addend_mem_, dst);
    } else if (addend.data != args.outputs[0].data) {
      std::memmove(args.outputs[0].data, addend.data, user_dst_bytes_);
    }
    return Status::Ok();
  }

  Result<dnnl::convolution_forward::primitive_desc> MakePd(const memory::desc& src,
                                                           const memory::desc& wts,
                                                           const memory::desc& dst,
                                                           const Window& win) const {
    memory::dims strides(win.strides.begin(), win.strides.end());
    memory::dims dil, pl(win.pad_begin.begin(), win.pad_begin.end());
    memory::dims pr(win.pad_end.begin(), win.pad_end.end());
    for (int64_t d : win.dilations) dil.push_back(d - 1);  // oneDNN counts the gaps
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (has_post_ops_) attr.set_post_ops(post_ops_);  // activations the fusion pass folded in
    const int64_t oc = y_dims_[1];
    // Winograd's algorithm where the layout planner chose it (_conv_algorithm).
    const dnnl::algorithm alg =
        winograd_ ? dnnl::algorithm::convolution_winograd : dnnl::algorithm::convolution_direct;
    try {
      if (has_bias_) {
        const memory::desc bias({oc}, memory::data_type::f32, memory::format_tag::a);
        dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, wts, bias,
                                          dst, strides, dil, pl, pr);
        return dnnl::convolution_forward::primitive_desc(d, attr, DnnlEngine());
      }
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, wts, dst,
                                        strides, dil, pl, pr);
      return dnnl::convolution_forward::primitive_desc(d, attr, DnnlEngine());
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN has no convolution for this configuration: ") + e.what());
    }
  }

  Status Build(const std::vector<int64_t>& xd, const std::vector<int64_t>& wd, bool has_bias) {
    built_ = false;
    const int64_t c = xd[1];
    const int64_t group = depthwise_ ? c : group_;
    const int64_t oc = wd[0];
    if (wd[1] * group != c) {
      return Error("input has " + std::to_string(c) + " channels but the filter " +
                   DimsToString(wd) + " expects " + std::to_string(wd[1]) + " x group " +
                   std::to_string(group));
    }
    if (oc % group != 0) {
      return Error("filter output channels " + std::to_string(oc) + " are not divisible by group " +
                   std::to_string(group));
    }
    std::vector<int64_t> kernel = AttrInts("kernel_shape");
    const std::vector<int64_t> wk(wd.begin() + 2, wd.end());
    if (kernel.empty()) kernel = wk;
    if (kernel != wk) {
      return Error("attribute 'kernel_shape' " + DimsToString(kernel) +
                   " does not match the filter " + DimsToString(wd));
    }
    Window win;
    Status s = ResolveWindow(std::vector<int64_t>(xd.begin() + 2, xd.end()), kernel,
                             AttrInts("strides"), AttrInts("dilations"), AttrInts("pads"),
                             AttrStr("auto_pad", "NOTSET"), false, &win);
    if (!s.ok()) return Error(s.message());
    has_bias_ = has_bias;
    x_dims_ = xd;
    w_dims_ = wd;
    y_dims_ = {xd[0], oc};
    y_dims_.insert(y_dims_.end(), win.out.begin(), win.out.end());
    if (NumElements(y_dims_) == 0 || NumElements(xd) == 0) {
      built_ = true;
      return Status::Ok();
    }

    const memory::desc user_src = src_blocked_ ? BlockedDesc(xd) : PlainDesc(xd);
    const memory::desc user_dst = dst_blocked_ ? BlockedDesc(y_dims_) : PlainDesc(y_dims_);
    user_dst_bytes_ = user_dst.get_size();
    std::vector<int64_t> gw = wd;
    if (group > 1) {
      gw = {group, oc / group};
      gw.insert(gw.end(), wd.begin() + 1, wd.end());
    }
    const memory::desc any_w(ToDnnlDims(gw), memory::data_type::f32, memory::format_tag::any);
    const int64_t window =
        std::accumulate(kernel.begin(), kernel.end(), int64_t{1}, std::multiplies<>());
    // With blocked (NC1HWC0) tensors from the layout planner, only a dense convolution on a
    // blocked input still lets oneDNN pick: it picks brgconv in NHWC, reorders included faster
    // than the direct nChw16c kernel (resnet18: 20 ms against 26). A grouped or depthwise one
    // takes the blocked tensors as they are (jit_dw; `any` gave brdgmm_dw in NHWC, whose reorders
    // took a quarter of mobilenet_v2's time and did not scale to 2 threads), and so does a first
    // convolution reading NCHW (the direct kernel's first-layer path beats NHWC plus reorders).
    const bool let_onednn_choose =
        !winograd_ && ((!src_blocked_ && !dst_blocked_) || (src_blocked_ && group == 1));
    GE_ASSIGN_OR_RETURN(
        auto pd, ChooseActivationLayouts(window > 1 && let_onednn_choose, user_src, user_dst,
                                         [&](const memory::desc& src, const memory::desc& dst) {
                                           return MakePd(src, any_w, dst, win);
                                         }));
    impl_ = pd.impl_info_str();
    if (winograd_ && probe_) {
      // oneDNN blocks Winograd weights by the threads it sees when the primitive is made, which
      // need not be the kernel's: a process may hold a second OpenMP runtime whose settings
      // oneDNN reads (one that imported torch: its main thread and a new thread then differ).
      // So a Winograd filter is never stored transformed: the kernel transforms it when the
      // model loads, for the layout oneDNN then wants. Where the layout differs between one
      // thread and every core (F(2x2, 3x3) at 14x14 with 256 channels on an Intel Xeon) the
      // layout planner keeps the direct kernels: Winograd there gave ResNet-50 1.5 ms of 32 at
      // two threads, and cost its .om 9 MiB of peak and 25-80 ms of load for the transform.
      weights_.KeepUnpacked();
      // Whatever threads this probe has: the model may load with one or with every core.
      auto layout_on = [&](int threads) {
        OmpThreadsGuard guard(threads);
        return MakePd(pd.src_desc(), any_w, pd.dst_desc(), win);
      };
      auto one = layout_on(1);
      auto wide = layout_on(omp_get_num_procs());
      if (!one.ok() || !wide.ok() || wide->weights_desc() != one->weights_desc()) {
        return Error("oneDNN lays out this convolution's Winograd weights by its threads");
      }
    }
    if (probe_) {
      // The layout planner's question: it logs its own decision.
    } else if (IsReferenceImpl(impl_)) {
      KernelLog(2, "node '" + name_ + "' (" + type_ +
                       "): oneDNN chose the reference convolution '" + impl_ + "' for input " +
                       DimsToString(xd) + " and filter " + DimsToString(wd) +
                       "; it is correct but slow");
    } else {
      KernelLog(0, "node '" + name_ + "' (" + type_ + "): oneDNN convolution '" + impl_ + "'");
    }

    const dnnl::engine& eng = DnnlEngine();
    stream_ = dnnl::stream(eng);
    conv_ = dnnl::convolution_forward(pd);
    // Workspace: [weights if reordered per run][src][dst][scratchpad], each 64-byte aligned.
    size_t off = 0;
    GE_RETURN_IF_ERROR(Named(weights_.Build(PlainDesc(gw), pd.weights_desc(), stream_, &off)));
    GE_RETURN_IF_ERROR(
        Named(io_.Build(pd, user_src, user_dst, has_bias_, oc, weights_.memory(), &off)));
    ws_bytes_ = off;
    impl_ += io_.ReorderNote();  // dumps and tests see what each call costs besides
    if (io_.dst_reordered() && has_sum_) {
      user_addend_mem_ = memory(user_dst, eng, nullptr);
      addend_reorder_ = dnnl::reorder(user_addend_mem_, io_.dst());
    }
    built_ = true;
    return Status::Ok();
  }

  static memory::desc BlockedDesc(const std::vector<int64_t>& dims) {
    return {ToDnnlDims(dims), memory::data_type::f32, memory::format_tag::nChw16c};
  }

  bool depthwise_;
  bool src_blocked_ = false, dst_blocked_ = false;  // NC1HWC0 (nChw16c) at the interface
  std::vector<int64_t> x_stored_, y_stored_;        // their stored (5-D) dims
  size_t user_dst_bytes_ = 0;
  bool has_post_ops_ = false;
  bool has_sum_ = false;  // post-op Sum: input 3 is added to the result
  dnnl::post_ops post_ops_;
  int64_t group_ = 1;
  bool winograd_ = false;  // Winograd's algorithm (the layout planner's choice), else direct
  bool has_bias_ = false;
  bool built_ = false;
  bool static_ = false;
  DnnlWeights weights_;
  std::vector<int64_t> x_dims_, w_dims_, y_dims_;
  std::string impl_;
  dnnl::stream stream_;
  dnnl::convolution_forward conv_;
  DnnlConvIo io_;
  dnnl::reorder addend_reorder_;
  memory user_addend_mem_;
  size_t ws_bytes_ = 0;
  AlignedBuffer owned_ws_;
};

std::unique_ptr<CpuKernel> MakeDepthwise() { return std::make_unique<ConvKernel>(true); }

}  // namespace

bool SupportsFusedPostOps(const std::string& type, const std::vector<std::string>& specs,
                          std::string& reason) {
  if (type != "Conv2D" && type != "Conv3D" && type != "Conv" && type != "DepthwiseConv2D" &&
      type != "MatMulV2" && type != "MatMul" && type != "BatchMatMulV2" && type != "BatchMatMul" &&
      type != "Gemm") {
    reason = "the CPU kernel of " + type + " takes no fused post-ops";
    return false;
  }
  auto ops = MakePostOps(specs);
  if (!ops.ok()) {
    reason = ops.status().message();
    return false;
  }
  return true;
}

bool ReadsBlockedLayout(const std::string& type) {
  return type == "Conv2D" || type == "DepthwiseConv2D" || type == "TransData" ||
         type == "MaxPool" || type == "AvgPool" || type == "GlobalAveragePool" ||
         type == "GlobalMaxPool" || type == "BatchNorm";
}

void RegisterConvKernels(KernelTable& t) {
  t.Add("Conv2D", MakeKernel<ConvKernel>);
  t.Add("Conv3D", MakeKernel<ConvKernel>);
  t.Add("Conv", MakeKernel<ConvKernel>);
  t.Add("DepthwiseConv2D", MakeDepthwise);
}

}  // namespace ge::host_cpu

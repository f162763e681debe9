// TransData between NCHW and NC1HWC0 (oneDNN's nChw16c, channels zero-padded to a multiple of
// 16): one oneDNN reorder, created in Prepare. The layout planner inserts it where a blocked
// convolution chain meets the rest of the graph; shapes are static there.
#include "dnnl_util.h"

namespace ge::host_cpu {
namespace {

using dnnl::memory;

class TransDataKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    if (args.inputs[0].spec.dims != in_dims_ || args.outputs[0].spec.dims != out_dims_) {
      return Error(
          "shapes changed since the model was loaded: " + DimsToString(args.inputs[0].spec.dims) +
          " -> " + DimsToString(args.outputs[0].spec.dims));
    }
    try {
      OmpThreadsGuard guard(threads_);
      src_.set_data_handle(const_cast<void*>(args.inputs[0].data));
      dst_.set_data_handle(args.outputs[0].data);
      reorder_.execute(stream_, src_, dst_);
      stream_.wait();
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.empty() || spec.outputs.empty()) return Error("expects x and y");
    if (spec.inputs[0].dtype != DT_FLOAT) return Unsupported(spec.inputs[0].dtype);
    const std::string src = AttrStr("src_format", ""), dst = AttrStr("dst_format", "");
    in_dims_ = spec.inputs[0].dims;
    out_dims_ = spec.outputs[0].dims;
    if (HasUnknownDims(in_dims_) || HasUnknownDims(out_dims_)) return Error("needs static shapes");
    bool to_blocked = false;
    if (src == "NCHW" && dst == "NC1HWC0") {
      to_blocked = true;
    } else if (!(src == "NC1HWC0" && dst == "NCHW")) {
      return Error("converts NCHW <-> NC1HWC0 only, not '" + src + "' -> '" + dst + "'");
    }
    const std::vector<int64_t>& plain = to_blocked ? in_dims_ : out_dims_;
    const std::vector<int64_t>& blocked = to_blocked ? out_dims_ : in_dims_;
    if (plain.size() != 4 || blocked.size() != 5 || blocked[4] != 16 || blocked[0] != plain[0] ||
        blocked[1] != (plain[1] + 15) / 16 || blocked[2] != plain[2] || blocked[3] != plain[3]) {
      return Error("NCHW " + DimsToString(plain) + " and NC1HWC0 " + DimsToString(blocked) +
                   " do not describe the same tensor");
    }
    try {
      const dnnl::engine& eng = DnnlEngine();
      const memory::desc plain_md = PlainDesc(plain);
      const memory::desc blocked_md(ToDnnlDims(plain), memory::data_type::f32,
                                    memory::format_tag::nChw16c);
      src_ = memory(to_blocked ? plain_md : blocked_md, eng, nullptr);
      dst_ = memory(to_blocked ? blocked_md : plain_md, eng, nullptr);
      reorder_ = dnnl::reorder(src_, dst_);
      stream_ = dnnl::stream(eng);
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    return Status::Ok();
  }

  std::vector<int64_t> in_dims_, out_dims_;
  memory src_, dst_;
  dnnl::reorder reorder_;
  dnnl::stream stream_;
};

}  // namespace

void RegisterTransDataKernels(KernelTable& t) { t.Add("TransData", MakeKernel<TransDataKernel>); }

}  // namespace ge::host_cpu

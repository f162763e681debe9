// Matrix products on oneDNN's matmul primitive: MatMulV2 and BatchMatMulV2 (numpy matmul shapes:
// 1-D operands, broadcast batch dims, transposes through strides, optional bias) and ONNX Gemm
// (transA/transB, alpha, beta, C broadcast to [M, N]).
//
// A Const right operand (a weight) is reordered once into the layout oneDNN prefers (packed
// weights), or read in place when the weight packer stored it so (DnnlWeights); other operands are
// read in place through strides. A product of [batch..., M, K] by a matrix [K, N] (every linear
// layer a transformer exporter writes as MatMul) runs as one GEMM over batch x M rows: oneDNN's
// batched matmul with a broadcast weight takes a far slower path than its packed 2-D GEMM. The
// primitive is created in Prepare for static shapes and re-created when the dims of a dynamic-shape
// run change. Gemm's alpha != 1 or beta != 1 run as an epilogue over the output; otherwise C is
// oneDNN's bias. Post-ops the fusion pass put on the node
// (_fused_post_ops: activations, and "Sum" for a residual given as input 3 "addend", copied into
// the output first) run inside the primitive.
#include <cstring>

#include "dnnl_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge::host_cpu {
namespace {

using dnnl::memory;

enum class MatKind { kMatMul, kBatchMatMul, kGemm };

class MatMulKernel final : public KernelBase {
 public:
  explicit MatMulKernel(MatKind kind = MatKind::kMatMul) : kind_(kind) {}

  int64_t WorkspaceBytes() const override { return static_ ? static_cast<int64_t>(ws_bytes_) : 0; }
  std::string ImplInfo() const override { return impl_; }
  std::optional<PackedWeight> PackedWeights() const override { return weights_.Packed(1); }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& a = args.inputs[0];
    const KernelTensor& b = args.inputs[1];
    const std::vector<int64_t>& bd = weights_.stored() ? b_dims_ : b.spec.dims;
    const KernelOutput& y = args.outputs[0];
    if (a.spec.dtype != DT_FLOAT || b.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) {
      return Unsupported(a.spec.dtype != DT_FLOAT ? a.spec.dtype : b.spec.dtype);
    }
    const bool has_c = HasInput(args, 2);
    const std::vector<int64_t> c_dims = has_c ? args.inputs[2].spec.dims : std::vector<int64_t>{};
    try {
      OmpThreadsGuard guard(threads_);
      if (!built_ || a.spec.dims != a_dims_ || bd != b_dims_ || has_c != has_c_ ||
          c_dims != c_dims_) {
        GE_RETURN_IF_ERROR(Build(a.spec.dims, bd, has_c, c_dims));
      }
      if (y.spec.dims != y_dims_) {
        return Error("output dims " + DimsToString(y.spec.dims) + " should be " +
                     DimsToString(y_dims_) + " for inputs " + DimsToString(a.spec.dims) + " and " +
                     DimsToString(bd));
      }
      const int64_t n = NumElements(y_dims_);
      if (n == 0) return Status::Ok();
      if (k_ == 0) {
        if (has_post_ops_) return Error("an empty inner dim with fused post-ops is not supported");
        std::fill_n(static_cast<float*>(y.data), n, 0.0F);
      } else {
        if (has_sum_) GE_RETURN_IF_ERROR(LoadAddend(args));
        uint8_t* ws = static_ && args.workspace != nullptr ? static_cast<uint8_t*>(args.workspace)
                                                           : owned_ws_.Get(ws_bytes_);
        src_mem_.set_data_handle(const_cast<void*>(a.data));
        weights_.Bind(b.data, ws, stream_);
        if (bias_in_primitive_) bias_mem_.set_data_handle(const_cast<void*>(args.inputs[2].data));
        dst_mem_.set_data_handle(y.data);
        if (scratch_bytes_ > 0) scratch_mem_.set_data_handle(ws + scratch_off_);
        matmul_.execute(stream_, exec_args_);
        stream_.wait();
      }
      if (has_c && !bias_in_primitive_) Epilogue(static_cast<const float*>(args.inputs[2].data), y);
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    if (spec.inputs.size() < 2 || spec.outputs.empty()) return Error("expects two inputs and y");
    switch (kind_) {
      case MatKind::kMatMul:
        ta_ = AttrBool("transpose_x1", false);
        tb_ = AttrBool("transpose_x2", false);
        break;
      case MatKind::kBatchMatMul:
        ta_ = AttrBool("adj_x1", false);
        tb_ = AttrBool("adj_x2", false);
        break;
      case MatKind::kGemm:
        ta_ = AttrInt("transA", 0) != 0;
        tb_ = AttrInt("transB", 0) != 0;
        alpha_ = AttrFloat("alpha", 1.0F);
        beta_ = AttrFloat("beta", 1.0F);
        break;
    }
    for (size_t i = 0; i < 2; ++i) {
      if (spec.inputs[i].dtype != DT_FLOAT) return Unsupported(spec.inputs[i].dtype);
    }
    auto fused = ReadFusedPostOps(*op_, HasInputSpec(spec, kAddendInput));
    if (!fused.ok()) return Error(fused.status().message());
    post_ops_ = fused->ops;
    has_post_ops_ = fused->any;
    has_sum_ = fused->sum;
    if (has_post_ops_ && kind_ == MatKind::kGemm && (alpha_ != 1.0F || beta_ != 1.0F)) {
      return Error("fused post-ops need alpha = beta = 1 (they would run before the scaling)");
    }
    const GeTensor* weight = ConstInput(spec, 1);
    if (weight != nullptr && HasUnknownDims(spec.inputs[1].dims)) weight = nullptr;
    GE_RETURN_IF_ERROR(
        Named(weights_.Init(*op_, weight, WeightUseOf(spec), spec.weights_released)));
    const std::vector<int64_t>& bd = weights_.LogicalDims(spec.inputs[1]);
    if (kind_ == MatKind::kGemm && (spec.inputs[0].dims.size() != 2 || bd.size() != 2)) {
      return Error("Gemm operands must be 2-D, got " + DimsToString(spec.inputs[0].dims) + " and " +
                   DimsToString(bd));
    }
    const bool has_c = HasInputSpec(spec, 2);
    const std::vector<int64_t> c_dims = has_c ? spec.inputs[2].dims : std::vector<int64_t>{};
    if (HasUnknownDims(spec.inputs[0].dims) || HasUnknownDims(bd) || HasUnknownDims(c_dims)) {
      return Status::Ok();
    }
    weights_.ReadOnce();  // static shapes: built once, here
    try {
      OmpThreadsGuard guard(threads_);
      GE_RETURN_IF_ERROR(Build(spec.inputs[0].dims, bd, has_c, c_dims));
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    static_ = true;
    return Status::Ok();
  }

  /// Puts the addend (input 3) in the output, where the sum post-op adds the product to it.
  Status LoadAddend(const KernelArgs& args) {
    if (!HasInput(args, kAddendInput))
      return Error("the fused residual (input 3, addend) is absent");
    const KernelTensor& addend = args.inputs[kAddendInput];
    if (addend.spec.dtype != DT_FLOAT || addend.spec.dims != y_dims_) {
      return Error("the fused residual " + DimsToString(addend.spec.dims) + " must be float " +
                   DimsToString(y_dims_) + " like the output");
    }
    if (addend.data != args.outputs[0].data) {
      std::memmove(args.outputs[0].data, addend.data,
                   static_cast<size_t>(NumElements(y_dims_)) * 4);
    }
    return Status::Ok();
  }

  // An operand as oneDNN sees it: dims [batch..., rows, cols] (after the transpose) and strides
  // into the stored tensor.
  static void Operand(std::vector<int64_t> stored, bool transposed, size_t rank,
                      std::vector<int64_t>* dims, std::vector<int64_t>* strides) {
    stored.insert(stored.begin(), rank - stored.size(), 1);
    *dims = stored;
    *strides = StridesOf(stored);
    if (transposed) {
      std::swap((*dims)[rank - 1], (*dims)[rank - 2]);
      std::swap((*strides)[rank - 1], (*strides)[rank - 2]);
    }
  }

  Status Build(const std::vector<int64_t>& ad, const std::vector<int64_t>& bd, bool has_c,
               const std::vector<int64_t>& cd) {
    built_ = false;
    if (ad.empty() || bd.empty()) return Error("operands must have rank >= 1");
    // numpy matmul: a 1-D left operand is a row [1, K], a 1-D right operand a column [K, 1]; the
    // added dim is removed from the result.
    std::vector<int64_t> a2 = ad, b2 = bd;
    const bool a_vec = ad.size() == 1, b_vec = bd.size() == 1;
    if (a_vec) a2 = {1, ad[0]};
    if (b_vec) b2 = {bd[0], 1};
    const size_t rank = std::max(a2.size(), b2.size());
    std::vector<int64_t> adims, astr, bdims, bstr;
    Operand(a2, ta_ && !a_vec, rank, &adims, &astr);
    Operand(b2, tb_ && !b_vec, rank, &bdims, &bstr);
    const int64_t m = adims[rank - 2], k = adims[rank - 1], n = bdims[rank - 1];
    if (bdims[rank - 2] != k) {
      return Error("inner dims do not match: " + DimsToString(ad) + (ta_ ? " (transposed)" : "") +
                   " x " + DimsToString(bd) + (tb_ ? " (transposed)" : ""));
    }
    std::vector<int64_t> ddims(rank);
    for (size_t i = 0; i + 2 < rank; ++i) {
      if (adims[i] != bdims[i] && adims[i] != 1 && bdims[i] != 1) {
        return Error("batch dims of " + DimsToString(ad) + " and " + DimsToString(bd) +
                     " do not broadcast");
      }
      ddims[i] = adims[i] == 1 ? bdims[i] : adims[i];
    }
    ddims[rank - 2] = m;
    ddims[rank - 1] = n;
    y_dims_.assign(ddims.begin(), ddims.end() - 2);
    if (!a_vec) y_dims_.push_back(m);
    if (!b_vec) y_dims_.push_back(n);
    a_dims_ = ad;
    b_dims_ = bd;
    has_c_ = has_c;
    c_dims_ = cd;
    k_ = k;
    // C / bias: in the primitive when it is a plain add that oneDNN can broadcast.
    bias_in_primitive_ = false;
    std::vector<int64_t> bias_dims;
    if (has_c) {
      if (cd.size() > rank) return Error("bias/C " + DimsToString(cd) + " has too many dims");
      bias_dims = cd;
      bias_dims.insert(bias_dims.begin(), rank - cd.size(), 1);
      for (size_t i = 0; i < rank; ++i) {
        if (bias_dims[i] != 1 && bias_dims[i] != ddims[i]) {
          return Error("bias/C " + DimsToString(cd) + " does not broadcast to the product " +
                       DimsToString(ddims));
        }
      }
      bias_in_primitive_ = kind_ != MatKind::kGemm || (alpha_ == 1.0F && beta_ == 1.0F);
    }
    if (NumElements(ddims) == 0 || k == 0) {
      built_ = true;
      return Status::Ok();
    }
    if (FlattensToOneGemm(rank, a_vec, bdims, bias_dims)) {
      // Rows of every batch back to back: A is dense [rows, K] and y dense [rows, N].
      const int64_t rows = NumElements(ddims) / n;
      adims = {rows, k};
      astr = {k, 1};
      bdims = {k, n};
      bstr = {bstr[rank - 2], bstr[rank - 1]};
      ddims = {rows, n};
      if (has_c) bias_dims = {1, n};
    }
    const auto f32 = memory::data_type::f32;
    const memory::desc src(ToDnnlDims(adims), f32, ToDnnlDims(astr));
    const memory::desc user_w(ToDnnlDims(bdims), f32, ToDnnlDims(bstr));
    const memory::desc dst = PlainDesc(ddims);
    const bool pack = weights_.has_const();
    const memory::desc w =
        pack ? memory::desc(ToDnnlDims(bdims), f32, memory::format_tag::any) : user_w;
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (has_post_ops_) attr.set_post_ops(post_ops_);  // folded in by the compiler's fusion pass
    dnnl::matmul::primitive_desc pd;
    if (bias_in_primitive_) {
      const memory::desc bias = PlainDesc(bias_dims);
      pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(src, w, bias, dst), attr, DnnlEngine());
    } else {
      pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(src, w, dst), attr, DnnlEngine());
    }
    impl_ = pd.impl_info_str();
    if (IsReferenceImpl(impl_)) {
      KernelLog(2, "node '" + name_ + "' (" + type_ + "): oneDNN chose the reference matmul '" +
                       impl_ + "' for " + DimsToString(ad) + " x " + DimsToString(bd));
    }
    const dnnl::engine& eng = DnnlEngine();
    stream_ = dnnl::stream(eng);
    matmul_ = dnnl::matmul(pd);
    src_mem_ = memory(pd.src_desc(), eng, nullptr);
    dst_mem_ = memory(pd.dst_desc(), eng, nullptr);
    size_t off = 0;
    GE_RETURN_IF_ERROR(Named(weights_.Build(user_w, pd.weights_desc(), stream_, &off)));
    exec_args_ = {
        {DNNL_ARG_SRC, src_mem_}, {DNNL_ARG_WEIGHTS, weights_.memory()}, {DNNL_ARG_DST, dst_mem_}};
    if (bias_in_primitive_) {
      bias_mem_ = memory(PlainDesc(bias_dims), eng, nullptr);
      exec_args_[DNNL_ARG_BIAS] = bias_mem_;
    }
    scratch_bytes_ = pd.scratchpad_desc().get_size();
    scratch_off_ = off;
    off += Align64(scratch_bytes_);
    if (scratch_bytes_ > 0) {
      scratch_mem_ = memory(pd.scratchpad_desc(), eng, nullptr);
      exec_args_[DNNL_ARG_SCRATCHPAD] = scratch_mem_;
    }
    ws_bytes_ = off;
    built_ = true;
    return Status::Ok();
  }

  /// True when the product is A's rows times one matrix: B has no batch dims above 1, A is not
  /// transposed (its rows are dense), and the bias, if any, is one row.
  bool FlattensToOneGemm(size_t rank, bool a_vec, const std::vector<int64_t>& bdims,
                         const std::vector<int64_t>& bias_dims) const {
    if (rank <= 2 || a_vec || ta_) return false;
    for (size_t i = 0; i + 2 < rank; ++i) {
      if (bdims[i] != 1) return false;
    }
    for (size_t i = 0; i + 1 < bias_dims.size(); ++i) {
      if (bias_dims[i] != 1) return false;
    }
    return true;
  }

  // y = alpha * y + beta * C (C broadcast to y), for Gemm when oneDNN's bias does not apply.
  void Epilogue(const float* c, const KernelOutput& y) const {
    BroadcastPlan plan;
    PlanBroadcast({y.spec.dims, c_dims_}, y.spec.dims, &plan);
    auto* out = static_cast<float*>(y.data);
    const float alpha = k_ == 0 ? 0.0F : alpha_, beta = beta_;
    const int64_t sc = plan.dims.empty() ? 0 : plan.strides[1].back();
    ForEachBroadcastRow(plan, threads_, [&](int64_t yo, const int64_t* offs, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        out[yo + i] = alpha * out[yo + i] + beta * c[offs[1] + i * sc];
    });
  }

  MatKind kind_;
  bool ta_ = false, tb_ = false;
  float alpha_ = 1.0F, beta_ = 1.0F;
  bool built_ = false, static_ = false, has_c_ = false;
  bool bias_in_primitive_ = false;
  bool has_post_ops_ = false, has_sum_ = false;
  dnnl::post_ops post_ops_;
  int64_t k_ = 0;
  DnnlWeights weights_;
  std::vector<int64_t> a_dims_, b_dims_, c_dims_, y_dims_;
  std::string impl_;
  dnnl::stream stream_;
  dnnl::matmul matmul_;
  memory src_mem_, dst_mem_, bias_mem_, scratch_mem_;
  std::unordered_map<int, memory> exec_args_;
  size_t scratch_off_ = 0, scratch_bytes_ = 0, ws_bytes_ = 0;
  AlignedBuffer owned_ws_;
};

std::unique_ptr<CpuKernel> MakeBatchMatMul() {
  return std::make_unique<MatMulKernel>(MatKind::kBatchMatMul);
}
std::unique_ptr<CpuKernel> MakeGemm() { return std::make_unique<MatMulKernel>(MatKind::kGemm); }

}  // namespace

void RegisterMatMulKernels(KernelTable& t) {
  t.Add("MatMulV2", MakeKernel<MatMulKernel>);
  t.Add("MatMul", MakeKernel<MatMulKernel>);
  t.Add("BatchMatMulV2", MakeBatchMatMul);
  t.Add("BatchMatMul", MakeBatchMatMul);
  t.Add("Gemm", MakeGemm);
}

}  // namespace ge::host_cpu

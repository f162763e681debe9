// FusedAttention, the kernel of the attention the fusion pass finds: for each batch x head matrix
// y = softmax(scale * q k^T + mask) v, the mask additive (broadcast to the scores) or, with
// `causal`, query i seeing keys j <= i + Sk - S (a decoder's mask, never stored).
//
// Two ways, chosen per shape when it is first seen (the crossovers were measured with
// bench/kernels/attention_bench.cc, see docs/cpu_kernels.md):
//   whole     the scores of every matrix at once, when they fit kWholeScoresBytes and the
//             attention is not causal over kCausalStreamedFrom keys or more: one oneDNN
//             batched matmul writes scale * q k^T into the workspace, one vectorized pass masks
//             and softmaxes each row in place, a second matmul multiplies by v. Two large GEMMs
//             on oneDNN's best kernels, the scores never leaving the cache.
//   streamed  otherwise (long sequences), a block of query rows at a time: the block's scores (a
//             per-thread buffer of at most kScoresBudget floats) are computed, softmaxed and
//             multiplied into v at once, so the [.., S, Sk] scores are never all in memory; a
//             causal block skips the keys after its last query. Work items (matrix, row block)
//             are spread over OpenMP threads.
// The whole way needs q, k and v with the same batch dims; any shape can stream. The attribute
// _attention_way ("whole" or "streamed") forces one where it can run (tests and benchmarks).
#include <Eigen/Core>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention_util.h"
#include "dnnl_util.h"

namespace ge::host_cpu {
namespace {

/// Bytes of scores (all matrices) up to which they are computed whole. Whole is faster at every
/// size measured (12 heads x 64 at 128 to 2048 tokens: 1.0-1.7x); the cap bounds the workspace.
constexpr int64_t kWholeScoresBytes = 16 << 20;
/// Keys from which a causal attention streams: skipping the hidden half of the scores then beats
/// the whole way's better GEMMs (at 512 keys 3.4 against 7.0 ms, at 128 about even).
constexpr int64_t kCausalStreamedFrom = 256;
/// Floats of scores a thread holds at once when streaming (128 KiB, within L2), and the bounds
/// on the query rows per block: larger blocks make the GEMMs efficient, the budget keeps them in
/// cache.
constexpr int64_t kScoresBudget = 32 * 1024;
constexpr int64_t kMinRowBlock = 8;
constexpr int64_t kMaxRowBlock = 128;

/// Softmax of row[0, valid) in place, after adding the mask (stride `mask_col`, or none); the
/// keys from `valid` on (hidden by a causal mask) get 0.
void SoftmaxRow(float* row, int64_t sk, int64_t valid, const float* mask, int64_t mask_col) {
  Eigen::Map<Eigen::ArrayXf> r(row, valid);
  if (mask != nullptr && mask_col == 1) {
    r += Eigen::Map<const Eigen::ArrayXf>(mask, valid);
  } else if (mask != nullptr && mask_col == 0) {
    r += mask[0];
  } else if (mask != nullptr) {
    for (int64_t j = 0; j < valid; ++j) r[j] += mask[j * mask_col];
  }
  SoftmaxInPlace(row, valid);
  if (valid < sk) std::fill(row + valid, row + sk, 0.0F);
}

class FusedAttentionKernel final : public KernelBase {
 public:
  int64_t WorkspaceBytes() const override {
    return prepared_ ? static_cast<int64_t>(ws_bytes_) : 0;
  }
  std::string ImplInfo() const override { return whole_ ? "whole:" + impl_ : "streamed"; }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    for (size_t i = 0; i < 3; ++i) {
      if (args.inputs[i].spec.dtype != DT_FLOAT) return Unsupported(args.inputs[i].spec.dtype);
    }
    const bool has_mask = HasInput(args, 3);
    if (has_mask && args.inputs[3].spec.dtype != DT_FLOAT) {
      return Unsupported(args.inputs[3].spec.dtype, "mask");
    }
    const std::vector<int64_t> no_mask;
    const std::vector<int64_t>& mask_dims = has_mask ? args.inputs[3].spec.dims : no_mask;
    if (!planned_ || args.inputs[0].spec.dims != plan_q_ || args.inputs[1].spec.dims != plan_k_ ||
        args.inputs[2].spec.dims != plan_v_ || mask_dims != plan_mask_ ||
        has_mask != plan_has_mask_) {
      GE_RETURN_IF_ERROR(Plan(args.inputs[0].spec.dims, args.inputs[1].spec.dims,
                              args.inputs[2].spec.dims, has_mask, mask_dims));
    }
    if (args.outputs[0].spec.dims != out_dims_) {
      return Error("output dims " + DimsToString(args.outputs[0].spec.dims) + " differ from " +
                   DimsToString(out_dims_));
    }
    if (nb_ * s_ * dv_ == 0) return Status::Ok();
    const float* mask = has_mask ? static_cast<const float*>(args.inputs[3].data) : nullptr;
    try {
      OmpThreadsGuard guard(threads_);
      if (whole_) {
        uint8_t* ws = prepared_ && args.workspace != nullptr ? static_cast<uint8_t*>(args.workspace)
                                                             : owned_ws_.Get(ws_bytes_);
        return RunWhole(args, mask, ws);
      }
      return RunStreamed(args, mask);
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    scale_ = AttrFloat("scale", 1.0F);
    k_transposed_ = AttrBool("k_transposed", false);
    causal_ = AttrBool("causal", false);
    forced_way_ = AttrStr("_attention_way", "");
    if (!forced_way_.empty() && forced_way_ != "whole" && forced_way_ != "streamed") {
      return Error("_attention_way must be 'whole' or 'streamed', got '" + forced_way_ + "'");
    }
    if (spec.inputs.size() < 3) return Error("expects q, k and v");
    const bool has_mask = HasInputSpec(spec, 3);
    if (causal_ && has_mask) return Error("a causal attention takes no mask input");
    std::vector<int64_t> mask_dims = has_mask ? spec.inputs[3].dims : std::vector<int64_t>{};
    for (size_t i = 0; i < 3; ++i) {
      if (HasUnknownDims(spec.inputs[i].dims)) return Status::Ok();  // planned at Run
    }
    if (HasUnknownDims(mask_dims)) return Status::Ok();
    try {
      OmpThreadsGuard guard(threads_);
      GE_RETURN_IF_ERROR(
          Plan(spec.inputs[0].dims, spec.inputs[1].dims, spec.inputs[2].dims, has_mask, mask_dims));
    } catch (const dnnl::error& e) {
      return Error(std::string("oneDNN: ") + e.what());
    }
    prepared_ = true;
    return Status::Ok();
  }

  /// Checks the dims, works out the batch and the per-matrix offsets, and chooses the way.
  Status Plan(const std::vector<int64_t>& qd, const std::vector<int64_t>& kd,
              const std::vector<int64_t>& vd, bool has_mask, const std::vector<int64_t>& md) {
    planned_ = false;
    for (const auto* dims : {&qd, &kd, &vd}) {
      if (dims->size() < 2) {
        return Error("q, k and v must have rank >= 2, got " + DimsToString(qd) + ", " +
                     DimsToString(kd) + " and " + DimsToString(vd));
      }
    }
    const size_t rq = qd.size(), rk = kd.size(), rv = vd.size();
    s_ = qd[rq - 2];
    d_ = qd[rq - 1];
    const int64_t k_head = kd[k_transposed_ ? rk - 2 : rk - 1];
    sk_ = kd[k_transposed_ ? rk - 1 : rk - 2];
    dv_ = vd[rv - 1];
    if (k_head != d_ || vd[rv - 2] != sk_) {
      return Error("q " + DimsToString(qd) + ", k " + DimsToString(kd) +
                   (k_transposed_ ? " (transposed)" : "") + " and v " + DimsToString(vd) +
                   " do not fit together");
    }
    if (causal_ && sk_ < s_) {
      return Error("a causal attention needs at least as many keys as queries, got " +
                   std::to_string(sk_) + " keys for " + std::to_string(s_) + " queries");
    }
    const std::vector<int64_t> qb(qd.begin(), qd.end() - 2), kb(kd.begin(), kd.end() - 2),
        vb(vd.begin(), vd.end() - 2);
    std::vector<int64_t> batch, tmp;
    if (!BroadcastDims(qb, kb, &tmp) || !BroadcastDims(tmp, vb, &batch)) {
      return Error("the batch dims of q " + DimsToString(qd) + ", k " + DimsToString(kd) +
                   " and v " + DimsToString(vd) + " do not broadcast");
    }
    out_dims_ = batch;
    out_dims_.push_back(s_);
    out_dims_.push_back(dv_);
    std::vector<int64_t> scores = batch;
    scores.push_back(s_);
    scores.push_back(sk_);
    mask_strides_.assign(scores.size(), 0);
    if (has_mask && !BroadcastStrides(md, scores, &mask_strides_)) {
      return Error("mask " + DimsToString(md) + " does not broadcast to the scores " +
                   DimsToString(scores));
    }
    // Per matrix of the batch: the element offset of its q, k, v and mask.
    nb_ = NumElements(batch);
    std::vector<int64_t> sq, sk, sv;
    BroadcastStrides(qb, batch, &sq);
    BroadcastStrides(kb, batch, &sk);
    BroadcastStrides(vb, batch, &sv);
    offsets_.assign(static_cast<size_t>(nb_) * 4, 0);
    std::vector<int64_t> idx(batch.size(), 0);
    for (int64_t b = 0; b < nb_; ++b) {
      int64_t* o = &offsets_[static_cast<size_t>(b) * 4];
      for (size_t i = 0; i < batch.size(); ++i) {
        o[0] += idx[i] * sq[i];
        o[1] += idx[i] * sk[i];
        o[2] += idx[i] * sv[i];
        o[3] += idx[i] * mask_strides_[i];
      }
      for (size_t i = batch.size(); i-- > 0;) {
        if (++idx[i] < batch[i]) break;
        idx[i] = 0;
      }
    }
    mask_row_ = mask_strides_[batch.size()];
    mask_col_ = mask_strides_[batch.size() + 1];
    plan_q_ = qd;
    plan_k_ = kd;
    plan_v_ = vd;
    plan_mask_ = md;
    plan_has_mask_ = has_mask;
    const bool can_whole = qb == batch && kb == batch && vb == batch && nb_ * s_ * sk_ > 0;
    const bool fits = nb_ * s_ * sk_ * static_cast<int64_t>(sizeof(float)) <= kWholeScoresBytes &&
                      !(causal_ && sk_ >= kCausalStreamedFrom);
    whole_ = can_whole && (forced_way_.empty() ? fits : forced_way_ == "whole");
    if (whole_) GE_RETURN_IF_ERROR(BuildWhole());
    planned_ = true;
    return Status::Ok();
  }

  /// The two batched matmuls of the whole way and the workspace they and the scores need.
  Status BuildWhole() {
    const auto f32 = dnnl::memory::data_type::f32;
    const dnnl::memory::dims q_dims = {nb_, s_, d_}, kt_dims = {nb_, d_, sk_},
                             p_dims = {nb_, s_, sk_}, v_dims = {nb_, sk_, dv_},
                             y_dims = {nb_, s_, dv_};
    // k^T through strides: k is [B, D, Sk] when given transposed, else [B, Sk, D].
    const dnnl::memory::dims kt_strides =
        k_transposed_ ? dnnl::memory::dims{d_ * sk_, sk_, 1} : dnnl::memory::dims{sk_ * d_, 1, d_};
    const dnnl::memory::desc q(q_dims, f32, dnnl::memory::format_tag::abc);
    const dnnl::memory::desc kt(kt_dims, f32, kt_strides);
    const dnnl::memory::desc p(p_dims, f32, dnnl::memory::format_tag::abc);
    const dnnl::memory::desc v(v_dims, f32, dnnl::memory::format_tag::abc);
    const dnnl::memory::desc y(y_dims, f32, dnnl::memory::format_tag::abc);
    dnnl::primitive_attr scaled;
    scaled.set_output_scales(0, {scale_});
    scaled.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::primitive_attr plain;
    plain.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::engine& eng = DnnlEngine();
    const dnnl::matmul::primitive_desc qk_pd(dnnl::matmul::desc(q, kt, p), scaled, eng);
    const dnnl::matmul::primitive_desc pv_pd(dnnl::matmul::desc(p, v, y), plain, eng);
    impl_ = qk_pd.impl_info_str();
    qk_ = dnnl::matmul(qk_pd);
    pv_ = dnnl::matmul(pv_pd);
    stream_ = dnnl::stream(eng);
    q_mem_ = dnnl::memory(q, eng, nullptr);
    kt_mem_ = dnnl::memory(kt, eng, nullptr);
    p_mem_ = dnnl::memory(p, eng, nullptr);
    v_mem_ = dnnl::memory(v, eng, nullptr);
    y_mem_ = dnnl::memory(y, eng, nullptr);
    const size_t qk_scratch = qk_pd.scratchpad_desc().get_size();
    const size_t pv_scratch = pv_pd.scratchpad_desc().get_size();
    qk_scratch_ = dnnl::memory(qk_pd.scratchpad_desc(), eng, nullptr);
    pv_scratch_ = dnnl::memory(pv_pd.scratchpad_desc(), eng, nullptr);
    scores_bytes_ = Align64(static_cast<size_t>(nb_ * s_ * sk_) * sizeof(float));
    ws_bytes_ = scores_bytes_ + Align64(std::max(qk_scratch, pv_scratch));
    has_scratch_ = qk_scratch > 0 || pv_scratch > 0;
    return Status::Ok();
  }

  Status RunWhole(const KernelArgs& args, const float* mask, uint8_t* ws) {
    auto* scores = reinterpret_cast<float*>(ws);
    q_mem_.set_data_handle(const_cast<void*>(args.inputs[0].data));
    kt_mem_.set_data_handle(const_cast<void*>(args.inputs[1].data));
    p_mem_.set_data_handle(scores);
    std::unordered_map<int, dnnl::memory> qk_args = {
        {DNNL_ARG_SRC, q_mem_}, {DNNL_ARG_WEIGHTS, kt_mem_}, {DNNL_ARG_DST, p_mem_}};
    if (has_scratch_) {
      qk_scratch_.set_data_handle(ws + scores_bytes_);
      qk_args[DNNL_ARG_SCRATCHPAD] = qk_scratch_;
    }
    qk_.execute(stream_, qk_args);
    stream_.wait();
    const int64_t rows = nb_ * s_;
    const int64_t shift = sk_ - s_;
    const int64_t* offsets = offsets_.data();
    ParallelFor(rows, threads_, sk_ * 4, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / s_, i = r % s_;
        const float* m = mask == nullptr ? nullptr : mask + offsets[b * 4 + 3] + i * mask_row_;
        SoftmaxRow(scores + r * sk_, sk_, causal_ ? std::min(sk_, i + shift + 1) : sk_, m,
                   mask_col_);
      }
    });
    v_mem_.set_data_handle(const_cast<void*>(args.inputs[2].data));
    y_mem_.set_data_handle(args.outputs[0].data);
    std::unordered_map<int, dnnl::memory> pv_args = {
        {DNNL_ARG_SRC, p_mem_}, {DNNL_ARG_WEIGHTS, v_mem_}, {DNNL_ARG_DST, y_mem_}};
    if (has_scratch_) {
      pv_scratch_.set_data_handle(ws + scores_bytes_);
      pv_args[DNNL_ARG_SCRATCHPAD] = pv_scratch_;
    }
    pv_.execute(stream_, pv_args);
    stream_.wait();
    return Status::Ok();
  }

  Status RunStreamed(const KernelArgs& args, const float* mask) {
    const float* q = static_cast<const float*>(args.inputs[0].data);
    const float* k = static_cast<const float*>(args.inputs[1].data);
    const float* v = static_cast<const float*>(args.inputs[2].data);
    float* y = static_cast<float*>(args.outputs[0].data);
    const int64_t s = s_, sk = sk_, d = d_, dv = dv_, shift = sk_ - s_;
    const int64_t row_block =
        std::clamp<int64_t>(kScoresBudget / std::max<int64_t>(sk, 1), kMinRowBlock, kMaxRowBlock);
    const int64_t blocks = (s + row_block - 1) / row_block;
    const float scale = scale_;
    const bool causal = causal_;
    const int64_t* offsets = offsets_.data();
    const int64_t mask_row = mask_row_, mask_col = mask_col_;
    // k^T: k as [Sk, D] (row stride D) is multiplied transposed; k given transposed is [D, Sk].
    const bool k_rows = !k_transposed_;
    // The GEMMs run on the calling thread: the work items are what is spread over threads.
    const int saved_threads = omp_get_max_threads();
    omp_set_num_threads(1);
    std::atomic<bool> gemm_failed{false};
    ParallelFor(
        nb_ * blocks, threads_, row_block * sk * (d + dv + 4), [&](int64_t begin, int64_t end) {
          std::vector<float> buffer(static_cast<size_t>(row_block * sk));
          for (int64_t item = begin; item < end; ++item) {
            const int64_t b = item / blocks;
            const int64_t r0 = (item % blocks) * row_block;
            const int64_t rows = std::min(row_block, s - r0);
            // Keys a causal block's queries can see: up to its last row's.
            const int64_t keys = causal ? std::min(sk, r0 + rows + shift) : sk;
            const int64_t* o = offsets + b * 4;
            float* scores = buffer.data();
            // scores[rows x keys] = scale * q_block k^T.
            if (!AttentionGemm(k_rows, rows, keys, d, scale, q + o[0] * s * d + r0 * d, d,
                               k + o[1] * d * sk, k_rows ? d : sk, scores, keys)) {
              gemm_failed = true;
              continue;
            }
            for (int64_t r = 0; r < rows; ++r) {
              const float* m = mask == nullptr ? nullptr : mask + o[3] + (r0 + r) * mask_row;
              SoftmaxRow(scores + r * keys, keys,
                         causal ? std::min(keys, r0 + r + shift + 1) : keys, m, mask_col);
            }
            if (!AttentionGemm(false, rows, dv, keys, 1.0F, scores, keys, v + o[2] * sk * dv, dv,
                               y + (b * s + r0) * dv, dv)) {
              gemm_failed = true;
            }
          }
        });
    omp_set_num_threads(saved_threads);
    if (gemm_failed) return Error("oneDNN sgemm failed");
    return Status::Ok();
  }

  float scale_ = 1.0F;
  bool k_transposed_ = false, causal_ = false;
  std::string forced_way_;
  bool prepared_ = false, planned_ = false, whole_ = false, plan_has_mask_ = false;
  std::vector<int64_t> plan_q_, plan_k_, plan_v_, plan_mask_, out_dims_, mask_strides_;
  int64_t s_ = 0, sk_ = 0, d_ = 0, dv_ = 0, nb_ = 0, mask_row_ = 0, mask_col_ = 0;
  std::vector<int64_t> offsets_;
  // The whole way.
  std::string impl_;
  dnnl::stream stream_;
  dnnl::matmul qk_, pv_;
  dnnl::memory q_mem_, kt_mem_, p_mem_, v_mem_, y_mem_, qk_scratch_, pv_scratch_;
  size_t scores_bytes_ = 0, ws_bytes_ = 0;
  bool has_scratch_ = false;
  AlignedBuffer owned_ws_;
};

}  // namespace

void RegisterAttentionKernels(KernelTable& t) {
  t.Add("FusedAttention", MakeKernel<FusedAttentionKernel>);
}

}  // namespace ge::host_cpu

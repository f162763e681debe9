// Attention (ONNX opsets 23-24): per batch and query head, Y = softmax(softcap(scale Q K^T) +
// bias) V, as ONNX 1.23 defines it (its errata included):
//   - Q, K, V are [B, S, H * D] (head counts from attributes) or [B, H, S, D]; query head h reads
//     key/value head h / (Hq / Hkv) (grouped-query attention); V may have its own head size.
//   - past_key / past_value [B, Hkv, P, D] are put before K and V; present_key / present_value
//     are the results, 4-D whatever the inputs' rank.
//   - The bias of score (i, j) over the T = P + L keys: attn_mask added (a boolean one: false is
//     -inf), -inf for keys past the mask's last dim, -inf for j > i + offset when causal (offset P
//     with a cache, nonpad_kv_seqlen[b] - S with that input, else 0: top-left), -inf for
//     j >= nonpad_kv_seqlen[b].
//   - A row whose bias is -inf for every key has probabilities 0 (a zero row of Y), not NaN.
//   - qk_matmul_output: the scores (mode 0), softcapped (1), plus the bias (2), probabilities (3).
// All in float: the CPU engine runs the kernel widened on float16 / bfloat16 (widened_kernel.h).
//
// The work: K and V are gathered into [B, Hkv, T, size] (into the present outputs when they are
// read, else the workspace) when a cache comes before them or the presents are asked for, else
// read where they lie. Work items are (batch, query head, block of query rows), spread over
// threads: each computes its block's scores with one product, biases and normalizes them row by
// row, and multiplies them by V with a second (attention_util.h, as FusedAttention streams). The
// products stop at the last key the block's rows may see (causal frontier, padding, mask).
#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "attention_util.h"
#include "dnnl_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

constexpr size_t kQ = 0, kK = 1, kV = 2, kMask = 3, kPastKey = 4, kPastValue = 5, kNonpad = 6;
constexpr size_t kY = 0, kPresentKey = 1, kPresentValue = 2, kQk = 3;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
/// Floats of scores a work item holds at once (128 KiB, within L2), and the bounds on its query
/// rows: larger blocks make the products efficient, the budget keeps them in cache.
constexpr int64_t kScoresBudget = int64_t{32} * 1024;
constexpr int64_t kMinRowBlock = 8;
constexpr int64_t kMaxRowBlock = 128;

/// The dims of each input, nullopt for an absent one.
using InputDims = std::vector<std::optional<std::vector<int64_t>>>;

/// qk_matmul_output_mode.
enum class QkMode : int64_t { kScores = 0, kSoftcapped = 1, kBiased = 2, kProbabilities = 3 };

/// Where the rows of one head of a [B, S, H * size] or [B, H, S, size] tensor lie.
struct HeadLayout {
  int64_t batch = 0, head = 0, row = 0;  ///< element strides
  int64_t Offset(int64_t b, int64_t h) const { return b * batch + h * head; }
};
HeadLayout Packed(bool three_d, int64_t heads, int64_t seq, int64_t size) {
  return three_d ? HeadLayout{seq * heads * size, size, heads * size}
                 : HeadLayout{heads * seq * size, seq * size, size};
}

/// One call's dims, checked, and how its work is split.
struct Plan {
  bool three_d = false, has_past = false, has_mask = false, has_nonpad = false;
  int64_t batch = 0, q_heads = 0, kv_heads = 0, s = 0, l = 0, past = 0, t = 0, d = 0, dv = 0;
  float scale = 1.0F;
  HeadLayout q, k, v, y;  ///< of the inputs Q, K, V and the output Y
  int64_t mask_keys = 0;
  std::vector<int64_t> mask_strides;  ///< over [B, Hq, S, mask_keys]
  int64_t row_block = 1, blocks = 0, chunks = 1;
  std::vector<int64_t> y_dims, present_k_dims, present_v_dims, qk_dims;
};

/// Copies past [B, H, P, size] and cur (rows per `layout`) into out [B, H, P + L, size].
void GatherCache(const float* past, const float* cur, const HeadLayout& layout, int64_t batch,
                 int64_t heads, int64_t p, int64_t l, int64_t size, float* out, int threads) {
  const auto row_bytes = static_cast<size_t>(size) * sizeof(float);
  ParallelFor(batch * heads, threads, (p + l) * size, [&](int64_t begin, int64_t end) {
    for (int64_t bh = begin; bh < end; ++bh) {
      float* o = out + bh * (p + l) * size;
      if (p > 0) std::memcpy(o, past + bh * p * size, static_cast<size_t>(p) * row_bytes);
      const float* c = cur + layout.Offset(bh / heads, bh % heads);
      for (int64_t j = 0; j < l; ++j) {
        std::memcpy(o + (p + j) * size, c + j * layout.row, row_bytes);
      }
    }
  });
}

class OnnxAttentionKernel final : public KernelBase {
 public:
  int64_t WorkspaceBytes() const override { return static_cast<int64_t>(ws_bytes_); }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    for (size_t i : {kQ, kK, kV, kPastKey, kPastValue}) {
      if (HasInput(args, i) && args.inputs[i].spec.dtype != DT_FLOAT) {
        return Unsupported(args.inputs[i].spec.dtype, kInputNames[i]);
      }
    }
    if (HasInput(args, kNonpad) && args.inputs[kNonpad].spec.dtype != DT_INT64) {
      return Unsupported(args.inputs[kNonpad].spec.dtype, kInputNames[kNonpad]);
    }
    InputDims dims(kNonpad + 1);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (HasInput(args, i)) dims[i] = args.inputs[i].spec.dims;
    }
    if (!planned_ || dims != plan_inputs_) GE_RETURN_IF_ERROR(MakePlan(dims));
    const Plan& p = plan_;
    GE_RETURN_IF_ERROR(CheckOutput(args, kY, p.y_dims));
    GE_RETURN_IF_ERROR(CheckOutput(args, kPresentKey, p.present_k_dims));
    GE_RETURN_IF_ERROR(CheckOutput(args, kPresentValue, p.present_v_dims));
    GE_RETURN_IF_ERROR(CheckOutput(args, kQk, p.qk_dims));
    const bool out_k = Wanted(args, kPresentKey), out_v = Wanted(args, kPresentValue);
    const size_t needed = NeededBytes(p, out_k, out_v);
    uint8_t* ws = args.workspace != nullptr && needed <= ws_bytes_
                      ? static_cast<uint8_t*>(args.workspace)
                      : owned_ws_.Get(needed);
    return Compute(args, p, out_k, out_v, ws);
  }

 private:
  static constexpr const char* kInputNames[] = {
      "Q", "K", "V", "attn_mask", "past_key", "past_value", "nonpad_kv_seqlen"};

  Status PrepareImpl(const KernelSpec& spec) override {
    causal_ = AttrInt("is_causal", 0) != 0;
    q_heads_attr_ = AttrInt("q_num_heads", 0);
    kv_heads_attr_ = AttrInt("kv_num_heads", 0);
    has_scale_ = HasAttr("scale");
    scale_ = AttrFloat("scale", 1.0F);
    softcap_ = AttrFloat("softcap", 0.0F);
    const int64_t mode = AttrInt("qk_matmul_output_mode", 0);
    if (mode < 0 || mode > 3) {
      return Error("attribute 'qk_matmul_output_mode' must be 0 to 3, got " + std::to_string(mode));
    }
    mode_ = static_cast<QkMode>(mode);
    DataType precision = DT_FLOAT;
    if (AttrUtils::GetDataType(op_, "softmax_precision", precision) && precision != DT_FLOAT &&
        precision != DT_DOUBLE && precision != DT_FLOAT16 && precision != DT_BF16) {
      return Error("attribute 'softmax_precision' " + DtypeName(precision) +
                   " is not a floating-point type");
    }
    InputDims dims(kNonpad + 1);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (!HasInputSpec(spec, i)) continue;
      if (HasUnknownDims(spec.inputs[i].dims)) return Status::Ok();  // planned at Run
      dims[i] = spec.inputs[i].dims;
    }
    GE_RETURN_IF_ERROR(MakePlan(dims));
    auto read = [&](size_t i) { return i < spec.outputs.size() && spec.outputs[i].present; };
    ws_bytes_ = NeededBytes(plan_, read(kPresentKey), read(kPresentValue));
    return Status::Ok();
  }

  static bool Wanted(const KernelArgs& args, size_t i) {
    return i < args.outputs.size() && args.outputs[i].data != nullptr;
  }

  Status CheckOutput(const KernelArgs& args, size_t i, const std::vector<int64_t>& want) const {
    if (!Wanted(args, i) || args.outputs[i].spec.dims == want) return Status::Ok();
    static constexpr const char* kNames[] = {"Y", "present_key", "present_value",
                                             "qk_matmul_output"};
    return Error(std::string("output ") + kNames[i] + " " +
                 DimsToString(args.outputs[i].spec.dims) + " differs from " + DimsToString(want));
  }

  /// Checks the dims of the inputs against each other and plans the work.
  Status MakePlan(const InputDims& in) {
    planned_ = false;
    Plan p;
    static const std::vector<int64_t> kNone;
    const auto& q = in[kQ].value_or(kNone);
    const auto& k = in[kK].value_or(kNone);
    const auto& v = in[kV].value_or(kNone);
    const size_t rank = q.size();
    if ((rank != 3 && rank != 4) || k.size() != rank || v.size() != rank) {
      return Error("Q, K and V must be all 3-D or all 4-D, got Q " + DimsToString(q) + ", K " +
                   DimsToString(k) + " and V " + DimsToString(v));
    }
    p.three_d = rank == 3;
    int64_t k_batch = k[0], v_batch = v[0], v_len = 0, k_size = 0, v_heads = 0;
    if (p.three_d) {
      if (q_heads_attr_ <= 0 || kv_heads_attr_ <= 0) {
        return Error(
            "3-D Q, K and V need positive attributes 'q_num_heads' and 'kv_num_heads', "
            "got " +
            std::to_string(q_heads_attr_) + " and " + std::to_string(kv_heads_attr_));
      }
      if (q[2] % q_heads_attr_ != 0 || k[2] % kv_heads_attr_ != 0 || v[2] % kv_heads_attr_ != 0) {
        return Error("the hidden sizes of Q " + DimsToString(q) + ", K " + DimsToString(k) +
                     " and V " + DimsToString(v) + " are not multiples of q_num_heads " +
                     std::to_string(q_heads_attr_) + " and kv_num_heads " +
                     std::to_string(kv_heads_attr_));
      }
      p.batch = q[0], p.q_heads = q_heads_attr_, p.kv_heads = v_heads = kv_heads_attr_;
      p.s = q[1], p.d = q[2] / p.q_heads, p.l = k[1], k_size = k[2] / p.kv_heads;
      v_len = v[1], p.dv = v[2] / p.kv_heads;
    } else {
      p.batch = q[0], p.q_heads = q[1], p.s = q[2], p.d = q[3];
      p.kv_heads = k[1], p.l = k[2], k_size = k[3];
      v_heads = v[1], v_len = v[2], p.dv = v[3];
      if ((q_heads_attr_ > 0 && q_heads_attr_ != p.q_heads) ||
          (kv_heads_attr_ > 0 && kv_heads_attr_ != p.kv_heads)) {
        return Error("Q " + DimsToString(q) + " and K " + DimsToString(k) +
                     " do not have the head counts of attributes q_num_heads " +
                     std::to_string(q_heads_attr_) + " and kv_num_heads " +
                     std::to_string(kv_heads_attr_));
      }
    }
    if (k_batch != p.batch || v_batch != p.batch || k_size != p.d || v_heads != p.kv_heads ||
        v_len != p.l) {
      return Error("Q " + DimsToString(q) + ", K " + DimsToString(k) + " and V " + DimsToString(v) +
                   " do not fit together: batch, head size of Q and K, and heads and length of K "
                   "and V must agree");
    }
    if (p.kv_heads <= 0 || p.q_heads % p.kv_heads != 0) {
      return Error("the " + std::to_string(p.q_heads) + " query heads are not a multiple of the " +
                   std::to_string(p.kv_heads) + " key/value heads");
    }
    p.has_past = in[kPastKey].has_value();
    if (p.has_past != in[kPastValue].has_value()) {
      return Error("past_key and past_value must be given together");
    }
    if (p.has_past) {
      const std::vector<int64_t>& pk = *in[kPastKey];
      p.past = pk.size() == 4 ? pk[2] : -1;
      const std::vector<int64_t> want_k = {p.batch, p.kv_heads, p.past, p.d};
      const std::vector<int64_t> want_v = {p.batch, p.kv_heads, p.past, p.dv};
      if (pk != want_k || *in[kPastValue] != want_v) {
        return Error("past_key " + DimsToString(pk) + " and past_value " +
                     DimsToString(*in[kPastValue]) + " must be [batch, kv_num_heads, past, " +
                     "head size] of K and V: " + DimsToString(want_k) + " and " +
                     DimsToString(want_v));
      }
    }
    p.t = p.past + p.l;
    p.has_mask = in[kMask].has_value();
    if (p.has_mask) {
      const std::vector<int64_t>& m = *in[kMask];
      p.mask_keys = m.empty() ? 0 : m.back();
      const std::vector<int64_t> scores = {p.batch, p.q_heads, p.s, p.mask_keys};
      if (m.empty() || m.size() > 4 || p.mask_keys > p.t ||
          !BroadcastStrides(m, scores, &p.mask_strides)) {
        return Error("attn_mask " + DimsToString(m) + " does not broadcast to the scores " +
                     DimsToString({p.batch, p.q_heads, p.s, p.t}) +
                     " (its last dim may be shorter)");
      }
    }
    p.has_nonpad = in[kNonpad].has_value();
    if (p.has_nonpad && *in[kNonpad] != std::vector<int64_t>{p.batch}) {
      return Error("nonpad_kv_seqlen " + DimsToString(*in[kNonpad]) + " must be [batch] = [" +
                   std::to_string(p.batch) + "]");
    }
    p.scale = has_scale_ ? scale_ : 1.0F / std::sqrt(static_cast<float>(p.d));
    p.q = Packed(p.three_d, p.q_heads, p.s, p.d);
    p.k = Packed(p.three_d, p.kv_heads, p.l, p.d);
    p.v = Packed(p.three_d, p.kv_heads, p.l, p.dv);
    p.y = Packed(p.three_d, p.q_heads, p.s, p.dv);
    p.y_dims = p.three_d ? std::vector<int64_t>{p.batch, p.s, p.q_heads * p.dv}
                         : std::vector<int64_t>{p.batch, p.q_heads, p.s, p.dv};
    p.present_k_dims = {p.batch, p.kv_heads, p.t, p.d};
    p.present_v_dims = {p.batch, p.kv_heads, p.t, p.dv};
    p.qk_dims = {p.batch, p.q_heads, p.s, p.t};
    p.row_block =
        std::clamp<int64_t>(kScoresBudget / std::max<int64_t>(p.t, 1), kMinRowBlock, kMaxRowBlock);
    p.blocks = (p.s + p.row_block - 1) / p.row_block;
    const int64_t items = p.batch * p.q_heads * p.blocks;
    const int64_t work = items * p.row_block * p.t * (p.d + p.dv + 8);
    const int64_t most = std::max<int64_t>(1, std::min<int64_t>(threads_, items));
    p.chunks = std::clamp<int64_t>(work / kMinParallelWork, 1, most);
    plan_ = std::move(p);
    plan_inputs_ = in;
    planned_ = true;
    return Status::Ok();
  }

  /// Workspace: K and V gathered where no present output takes them, then per chunk of work a
  /// block of scores and one row of bias.
  static size_t NeededBytes(const Plan& p, bool out_k, bool out_v) {
    const bool gather = p.has_past || out_k || out_v;
    size_t bytes = 0;
    if (gather && !out_k) bytes += Align64(sizeof(float) * p.batch * p.kv_heads * p.t * p.d);
    if (gather && !out_v) bytes += Align64(sizeof(float) * p.batch * p.kv_heads * p.t * p.dv);
    return bytes + Align64(sizeof(float) * p.chunks * (p.row_block + 1) * p.t);
  }

  /// The keys row i of batch b may see: those before the causal frontier, nonpad_kv_seqlen[b] and
  /// the mask's last dim (every later one is -inf). Never decreases with i.
  int64_t KeyLimit(const Plan& p, const KernelArgs& args, int64_t b, int64_t i) const {
    int64_t keys = p.has_mask ? p.mask_keys : p.t;
    if (p.has_nonpad) {
      const int64_t valid = static_cast<const int64_t*>(args.inputs[kNonpad].data)[b];
      keys = std::min(keys, std::clamp<int64_t>(valid, 0, p.t));
      if (causal_ && !p.has_past) keys = std::min(keys, std::max<int64_t>(0, valid - p.s + i + 1));
    }
    if (causal_ && (p.has_past || !p.has_nonpad)) keys = std::min(keys, p.past + i + 1);
    return keys;
  }

  /// The bias of score row i of batch b over its first n keys into `bias`; false when every key
  /// is masked (-inf).
  bool RowBias(const Plan& p, const KernelArgs& args, const float* mask, int64_t mask_offset,
               int64_t i, int64_t b, int64_t n, float* bias) const {
    const int64_t keys = std::min(n, KeyLimit(p, args, b, i));
    bool any = false;
    if (p.has_mask) {
      const int64_t col = p.mask_strides[3];
      if (args.inputs[kMask].spec.dtype == DT_BOOL) {
        const bool* m = static_cast<const bool*>(args.inputs[kMask].data) + mask_offset;
        for (int64_t j = 0; j < keys; ++j) {
          bias[j] = m[j * col] ? 0.0F : kNegInf;
          any = any || m[j * col];
        }
      } else {
        for (int64_t j = 0; j < keys; ++j) {
          bias[j] = mask[mask_offset + j * col];
          any = any || bias[j] != kNegInf;
        }
      }
    } else {
      std::fill(bias, bias + keys, 0.0F);
      any = keys > 0;
    }
    std::fill(bias + keys, bias + n, kNegInf);
    return any;
  }

  Status Compute(const KernelArgs& args, const Plan& p, bool out_k, bool out_v, uint8_t* ws) {
    const auto* q = static_cast<const float*>(args.inputs[kQ].data);
    const auto* k = static_cast<const float*>(args.inputs[kK].data);
    const auto* v = static_cast<const float*>(args.inputs[kV].data);
    HeadLayout kl = p.k, vl = p.v;
    if (p.has_past || out_k || out_v) {
      auto* kc = out_k ? static_cast<float*>(args.outputs[kPresentKey].data)
                       : reinterpret_cast<float*>(ws);
      if (!out_k) ws += Align64(sizeof(float) * p.batch * p.kv_heads * p.t * p.d);
      auto* vc = out_v ? static_cast<float*>(args.outputs[kPresentValue].data)
                       : reinterpret_cast<float*>(ws);
      if (!out_v) ws += Align64(sizeof(float) * p.batch * p.kv_heads * p.t * p.dv);
      const auto* pk = p.has_past ? static_cast<const float*>(args.inputs[kPastKey].data) : k;
      const auto* pv = p.has_past ? static_cast<const float*>(args.inputs[kPastValue].data) : v;
      GatherCache(pk, k, p.k, p.batch, p.kv_heads, p.past, p.l, p.d, kc, threads_);
      GatherCache(pv, v, p.v, p.batch, p.kv_heads, p.past, p.l, p.dv, vc, threads_);
      k = kc, v = vc;
      kl = Packed(false, p.kv_heads, p.t, p.d);
      vl = Packed(false, p.kv_heads, p.t, p.dv);
    }
    const float* mask = nullptr;
    if (p.has_mask && args.inputs[kMask].spec.dtype != DT_BOOL) {
      GE_ASSIGN_OR_RETURN(mask, FloatMask(args.inputs[kMask]));
    }
    auto* y = static_cast<float*>(args.outputs[kY].data);
    float* qk = Wanted(args, kQk) ? static_cast<float*>(args.outputs[kQk].data) : nullptr;
    const bool all_scores = qk != nullptr && mode_ != QkMode::kProbabilities;
    auto* scratch = reinterpret_cast<float*>(ws);
    const int64_t items = p.batch * p.q_heads * p.blocks, group = p.q_heads / p.kv_heads;
    std::atomic<bool> gemm_failed{false};
    // The products run on the calling thread: the work items are what is spread over threads.
    OmpThreadsGuard one_thread(1);
    ParallelFor(p.chunks, threads_, kMinParallelWork, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        float* scores = scratch + c * (p.row_block + 1) * p.t;
        float* bias = scores + p.row_block * p.t;
        for (int64_t item = items * c / p.chunks; item < items * (c + 1) / p.chunks; ++item) {
          const int64_t bh = item / p.blocks, b = bh / p.q_heads, h = bh % p.q_heads;
          const int64_t r0 = (item % p.blocks) * p.row_block;
          const int64_t rows = std::min(p.row_block, p.s - r0);
          const float* kh = k + kl.Offset(b, h / group);
          const float* vh = v + vl.Offset(b, h / group);
          // The block computes only the keys its last row may see (a causal block skips the
          // keys after its frontier), unless qk_matmul_output wants every score.
          const int64_t n = all_scores ? p.t : std::min(p.t, KeyLimit(p, args, b, r0 + rows - 1));
          if (!AttentionGemm(true, rows, n, p.d, p.scale, q + p.q.Offset(b, h) + r0 * p.q.row,
                             p.q.row, kh, kl.row, scores, n)) {
            gemm_failed = true;
            continue;
          }
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t i = r0 + r;
            const int64_t mask_offset =
                p.has_mask ? b * p.mask_strides[0] + h * p.mask_strides[1] + i * p.mask_strides[2]
                           : 0;
            float* qk_row = qk == nullptr ? nullptr : qk + ((b * p.q_heads + h) * p.s + i) * p.t;
            const bool any = RowBias(p, args, mask, mask_offset, i, b, n, bias);
            NormalizeRow(scores + r * n, bias, n, any, qk_row);
            if (qk_row != nullptr) std::fill(qk_row + n, qk_row + p.t, 0.0F);
          }
          if (!AttentionGemm(false, rows, p.dv, n, 1.0F, scores, n, vh, vl.row,
                             y + p.y.Offset(b, h) + r0 * p.y.row, p.y.row)) {
            gemm_failed = true;
          }
        }
      }
    });
    if (gemm_failed) return Error("oneDNN sgemm failed");
    return Status::Ok();
  }

  /// Scores to probabilities, in place: softcap, bias, softmax (a row with no key left is 0);
  /// `qk_row`, when asked for, gets the row at the stage qk_matmul_output_mode names.
  void NormalizeRow(float* row, const float* bias, int64_t n, bool any, float* qk_row) const {
    Eigen::Map<Eigen::ArrayXf> r(row, n);
    auto take = [&](QkMode stage) {
      if (qk_row != nullptr && mode_ == stage) std::copy(row, row + n, qk_row);
    };
    take(QkMode::kScores);
    if (softcap_ > 0.0F) r = (r / softcap_).tanh() * softcap_;
    take(QkMode::kSoftcapped);
    r += Eigen::Map<const Eigen::ArrayXf>(bias, n);
    take(QkMode::kBiased);
    if (any && n > 0 && r.maxCoeff() != kNegInf) {
      SoftmaxInPlace(row, n);
    } else {
      r.setZero();
    }
    take(QkMode::kProbabilities);
  }

  /// An additive mask as floats: itself when float, else converted (integer masks add as
  /// numbers, as numpy adds them).
  Result<const float*> FloatMask(const KernelTensor& m) {
    if (m.spec.dtype == DT_FLOAT) return static_cast<const float*>(m.data);
    const int64_t n = NumElements(m.spec.dims);
    mask_buf_.resize(static_cast<size_t>(n));
    const bool known = DispatchAll(m.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(m.data);
      for (int64_t i = 0; i < n; ++i) mask_buf_[i] = static_cast<float>(in[i]);
    });
    if (!known) return Unsupported(m.spec.dtype, "attn_mask");
    return mask_buf_.data();
  }

  bool causal_ = false, has_scale_ = false, planned_ = false;
  int64_t q_heads_attr_ = 0, kv_heads_attr_ = 0;
  float scale_ = 1.0F, softcap_ = 0.0F;
  QkMode mode_ = QkMode::kScores;
  Plan plan_;
  InputDims plan_inputs_;
  size_t ws_bytes_ = 0;
  AlignedBuffer owned_ws_;
  std::vector<float> mask_buf_;
};

}  // namespace

void RegisterOnnxAttentionKernels(KernelTable& t) {
  t.Add("Attention", MakeKernel<OnnxAttentionKernel>);
}

}  // namespace ge::host_cpu

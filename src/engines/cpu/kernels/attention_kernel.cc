// Kernels of the transformer ops fusion creates: FusedAttention and SkipLayerNorm.
//
// FusedAttention computes softmax(q k^T * scale + mask) v for each batch x head matrix, a block
// of query rows at a time: the block's scaled scores (a oneDNN sgemm) live in a per-thread buffer
// of at most 32K floats (up to 128 rows x Sk), are masked and softmaxed (with the row max
// subtracted, as SoftmaxV2 does, Eigen's vectorized exp) and multiplied into v (sgemm) at once, so
// the [.., S, Sk] scores tensor is never written to memory. Work items (matrix, row block) are
// spread over OpenMP threads. Every dim is read at Run, so one prepared kernel serves any shape
// (dynamic shapes).
#include <oneapi/dnnl/dnnl.h>

#include <Eigen/Core>
#include <atomic>
#include <cmath>

#include "kernel_util.h"
#include "row_norm.h"

namespace ge::host_cpu {
namespace {

/// Floats of scores a thread holds at once (128 KiB, within L2), and the bounds on the query
/// rows per block: larger blocks make the GEMMs efficient, the budget keeps them in cache.
constexpr int64_t kScoresBudget = 32 * 1024;
constexpr int64_t kMinRowBlock = 8;
constexpr int64_t kMaxRowBlock = 128;

/// Per dim of `out` (rank >= dims' rank, right-aligned), the element stride of `dims` along it:
/// 0 where `dims` broadcasts. False when `dims` does not broadcast to `out`.
bool BroadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& out,
                      std::vector<int64_t>* strides) {
  if (dims.size() > out.size()) return false;
  const std::vector<int64_t> own = StridesOf(dims);
  const size_t lead = out.size() - dims.size();
  strides->assign(out.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == out[lead + i]) {
      (*strides)[lead + i] = dims[i] == 1 ? 0 : own[i];
    } else if (dims[i] != 1) {
      return false;
    }
  }
  return true;
}

/// Multiply-adds below which a block's GEMM runs through Eigen (inlined, no dispatch) rather
/// than oneDNN's sgemm, whose per-call cost dominates small heads.
constexpr int64_t kSmallGemm = 64 * 1024;

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// c[m x n] = alpha * a[m x k] * b, b given as [k x n] or, with `b_transposed`, [n x k]; all
/// row-major and dense. oneDNN's sgemm runs on the calling thread: Run sets one OpenMP thread
/// around its parallel region, inside which nested regions are serial. False when oneDNN fails.
bool Gemm(bool b_transposed, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
          const float* b, float* c) {
  if (m * n * k < kSmallGemm) {
    Eigen::Map<const RowMajor> am(a, m, k);
    Eigen::Map<RowMajor> cm(c, m, n);
    if (b_transposed) {
      cm.noalias() = alpha * (am * Eigen::Map<const RowMajor>(b, n, k).transpose());
    } else {
      cm.noalias() = alpha * (am * Eigen::Map<const RowMajor>(b, k, n));
    }
    return true;
  }
  return dnnl_sgemm('N', b_transposed ? 'T' : 'N', m, n, k, alpha, a, k, b, b_transposed ? k : n,
                    0.0F, c, n) == dnnl_success;
}

class FusedAttentionKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    for (size_t i = 0; i < 3; ++i) {
      if (args.inputs[i].spec.dtype != DT_FLOAT) return Unsupported(args.inputs[i].spec.dtype);
      if (args.inputs[i].spec.dims.size() < 2) {
        return Error("input " + std::to_string(i) + " must have rank >= 2, got " +
                     DimsToString(args.inputs[i].spec.dims));
      }
    }
    const auto& qd = args.inputs[0].spec.dims;
    const auto& kd = args.inputs[1].spec.dims;
    const auto& vd = args.inputs[2].spec.dims;
    const size_t rq = qd.size(), rk = kd.size(), rv = vd.size();
    const int64_t s = qd[rq - 2], d = qd[rq - 1];
    const int64_t k_head = kd[k_transposed_ ? rk - 2 : rk - 1];
    const int64_t sk = kd[k_transposed_ ? rk - 1 : rk - 2];
    const int64_t dv = vd[rv - 1];
    if (k_head != d || vd[rv - 2] != sk) {
      return Error("q " + DimsToString(qd) + ", k " + DimsToString(kd) +
                   (k_transposed_ ? " (transposed)" : "") + " and v " + DimsToString(vd) +
                   " do not fit together");
    }
    const std::vector<int64_t> qb(qd.begin(), qd.end() - 2), kb(kd.begin(), kd.end() - 2),
        vb(vd.begin(), vd.end() - 2);
    std::vector<int64_t> batch, tmp;
    if (!BroadcastDims(qb, kb, &tmp) || !BroadcastDims(tmp, vb, &batch)) {
      return Error("the batch dims of q " + DimsToString(qd) + ", k " + DimsToString(kd) +
                   " and v " + DimsToString(vd) + " do not broadcast");
    }
    std::vector<int64_t> out_dims = batch;
    out_dims.push_back(s);
    out_dims.push_back(dv);
    if (args.outputs[0].spec.dims != out_dims) {
      return Error("output dims " + DimsToString(args.outputs[0].spec.dims) + " differ from " +
                   DimsToString(out_dims));
    }
    std::vector<int64_t> scores = batch;
    scores.push_back(s);
    scores.push_back(sk);
    const bool has_mask = HasInput(args, 3);
    std::vector<int64_t> mask_strides(scores.size(), 0);
    if (has_mask) {
      if (args.inputs[3].spec.dtype != DT_FLOAT)
        return Unsupported(args.inputs[3].spec.dtype, "mask");
      if (!BroadcastStrides(args.inputs[3].spec.dims, scores, &mask_strides)) {
        return Error("mask " + DimsToString(args.inputs[3].spec.dims) +
                     " does not broadcast to the scores " + DimsToString(scores));
      }
    }
    // Per matrix of the batch: the element offset of its q, k, v, mask and output.
    const int64_t nb = NumElements(batch);
    std::vector<int64_t> sq, sk_, sv;
    BroadcastStrides(qb, batch, &sq);
    BroadcastStrides(kb, batch, &sk_);
    BroadcastStrides(vb, batch, &sv);
    offsets_.assign(static_cast<size_t>(nb) * 4, 0);
    std::vector<int64_t> idx(batch.size(), 0);
    for (int64_t b = 0; b < nb; ++b) {
      int64_t* o = &offsets_[static_cast<size_t>(b) * 4];
      for (size_t i = 0; i < batch.size(); ++i) {
        o[0] += idx[i] * sq[i];
        o[1] += idx[i] * sk_[i];
        o[2] += idx[i] * sv[i];
        o[3] += idx[i] * mask_strides[i];
      }
      for (size_t i = batch.size(); i-- > 0;) {
        if (++idx[i] < batch[i]) break;
        idx[i] = 0;
      }
    }
    const int64_t mask_row = mask_strides[batch.size()], mask_col = mask_strides[batch.size() + 1];
    const float* q = static_cast<const float*>(args.inputs[0].data);
    const float* k = static_cast<const float*>(args.inputs[1].data);
    const float* v = static_cast<const float*>(args.inputs[2].data);
    const float* mask = has_mask ? static_cast<const float*>(args.inputs[3].data) : nullptr;
    float* y = static_cast<float*>(args.outputs[0].data);
    const int64_t row_block =
        std::clamp<int64_t>(kScoresBudget / std::max<int64_t>(sk, 1), kMinRowBlock, kMaxRowBlock);
    const int64_t blocks = (s + row_block - 1) / row_block;
    const float scale = scale_;
    const int64_t* offsets = offsets_.data();
    // The GEMMs run on the calling thread: the work items are what is spread over threads.
    const int saved_threads = omp_get_max_threads();
    omp_set_num_threads(1);
    std::atomic<bool> gemm_failed{false};
    ParallelFor(
        nb * blocks, threads_, row_block * sk * (d + dv + 4), [&](int64_t begin, int64_t end) {
          std::vector<float> buffer(static_cast<size_t>(row_block * sk));
          for (int64_t item = begin; item < end; ++item) {
            const int64_t b = item / blocks;
            const int64_t r0 = (item % blocks) * row_block;
            const int64_t rows = std::min(row_block, s - r0);
            const int64_t* o = offsets + b * 4;
            float* scores = buffer.data();
            // scores = scale * q_block k^T.
            if (!Gemm(!k_transposed_, rows, sk, d, scale, q + o[0] * s * d + r0 * d,
                      k + o[1] * d * sk, scores)) {
              gemm_failed = true;
              continue;
            }
            // Softmax per row, vectorized as the SoftmaxV2 kernel is (Eigen's exp).
            for (int64_t r = 0; r < rows; ++r) {
              Eigen::Map<Eigen::ArrayXf> row(scores + r * sk, sk);
              const float* m = mask == nullptr ? nullptr : mask + o[3] + (r0 + r) * mask_row;
              if (m != nullptr && mask_col == 1) {
                row += Eigen::Map<const Eigen::ArrayXf>(m, sk);
              } else if (m != nullptr && mask_col == 0) {
                row += m[0];
              } else if (m != nullptr) {
                for (int64_t j = 0; j < sk; ++j) row[j] += m[j * mask_col];
              }
              row = (row - row.maxCoeff()).exp();
              row /= row.sum();
            }
            if (!Gemm(false, rows, dv, sk, 1.0F, scores, v + o[2] * sk * dv,
                      y + (b * s + r0) * dv)) {
              gemm_failed = true;
            }
          }
        });
    omp_set_num_threads(saved_threads);
    if (gemm_failed) return Error("oneDNN sgemm failed");
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    scale_ = AttrFloat("scale", 1.0F);
    k_transposed_ = AttrBool("k_transposed", false);
    return Status::Ok();
  }
  float scale_ = 1.0F;
  bool k_transposed_ = false;
  std::vector<int64_t> offsets_;
};

/// y = LayerNorm(x + skip) over the dims from `axis` on, times scale, plus bias; x and skip
/// broadcast to y (a position embedding added to token embeddings, say).
class SkipLayerNormKernel final : public KernelBase {
  /// One operand of the sum as y's rows see it.
  struct Addend {
    const float* data = nullptr;
    std::vector<int64_t> strides;  ///< per dim of y, 0 where broadcast
    std::vector<int64_t> inner;    ///< per element of a row, its offset; empty when contiguous
    int64_t RowOffset(int64_t r, const std::vector<int64_t>& dims, int64_t axis) const {
      int64_t offset = 0;
      for (int64_t d = axis; d-- > 0;) {
        offset += (r % dims[d]) * strides[d];
        r /= dims[d];
      }
      return offset;
    }
    int64_t Inner(int64_t c) const { return inner.empty() ? c : inner[static_cast<size_t>(c)]; }
  };

  static Addend Plan(const KernelTensor& t, const std::vector<int64_t>& dims, int64_t axis) {
    Addend a;
    a.data = static_cast<const float*>(t.data);
    BroadcastStrides(t.spec.dims, dims, &a.strides);
    const std::vector<int64_t> dense = StridesOf(dims);
    bool contiguous = true;
    for (size_t d = static_cast<size_t>(axis); d < dims.size(); ++d) {
      contiguous = contiguous && (dims[d] == 1 || a.strides[d] == dense[d]);
    }
    if (contiguous) return a;
    const std::vector<int64_t> norm(dims.begin() + axis, dims.end());
    const int64_t cols = NumElements(norm);
    a.inner.resize(static_cast<size_t>(cols));
    for (int64_t c = 0; c < cols; ++c) {
      int64_t rest = c, offset = 0;
      for (size_t d = dims.size(); d-- > static_cast<size_t>(axis);) {
        offset += (rest % dims[d]) * a.strides[d];
        rest /= dims[d];
      }
      a.inner[static_cast<size_t>(c)] = offset;
    }
    return a;
  }

 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& skip = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || skip.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const std::vector<int64_t>& dims = y.spec.dims;
    std::vector<int64_t> sum_dims;
    if (!BroadcastDims(x.spec.dims, skip.spec.dims, &sum_dims) || sum_dims != dims) {
      return Error("x " + DimsToString(x.spec.dims) + " and skip " + DimsToString(skip.spec.dims) +
                   " do not broadcast to y " + DimsToString(dims));
    }
    const int64_t rank = static_cast<int64_t>(dims.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    const std::vector<int64_t> norm(dims.begin() + axis, dims.end());
    const int64_t cols = NumElements(norm);
    const int64_t rows = cols == 0 ? 0 : NumElements(dims) / cols;
    const float* scale = nullptr;
    const float* bias = nullptr;
    GE_RETURN_IF_ERROR(Param(args, 2, norm, &scale_buf_, &scale));
    if (HasInput(args, 3)) GE_RETURN_IF_ERROR(Param(args, 3, norm, &bias_buf_, &bias));
    const Addend a = Plan(x, dims, axis), b = Plan(skip, dims, axis);
    float* out = static_cast<float*>(y.data);
    const float eps = epsilon_;
    ParallelFor(rows, threads_, cols * 5, [&](int64_t begin, int64_t end) {
      using Row = Eigen::Map<Eigen::ArrayXf>;
      using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
      for (int64_t r = begin; r < end; ++r) {
        Row yr(out + r * cols, cols);
        const float* ar = a.data + a.RowOffset(r, dims, axis);
        const float* br = b.data + b.RowOffset(r, dims, axis);
        if (a.inner.empty() && b.inner.empty()) {  // the sum, in y
          yr = ConstRow(ar, cols) + ConstRow(br, cols);
        } else {
          for (int64_t c = 0; c < cols; ++c) yr[c] = ar[a.Inner(c)] + br[b.Inner(c)];
        }
        NormalizeRow(yr.data(), yr.data(), cols, scale, bias, eps);  // in place
      }
    });
    return Status::Ok();
  }

 private:
  /// Input `i` (scale or bias) expanded to the normalized dims when it broadcasts to them.
  Status Param(const KernelArgs& args, size_t i, const std::vector<int64_t>& norm,
               std::vector<float>* buf, const float** out) const {
    const KernelTensor& t = args.inputs[i];
    if (t.spec.dtype != DT_FLOAT) return Unsupported(t.spec.dtype, i == 2 ? "scale" : "bias");
    if (t.spec.dims.size() <= norm.size() && NumElements(t.spec.dims) == NumElements(norm)) {
      *out = static_cast<const float*>(t.data);
      return Status::Ok();
    }
    std::vector<int64_t> strides;
    if (!BroadcastStrides(t.spec.dims, norm, &strides)) {
      return Error(std::string(i == 2 ? "scale " : "bias ") + DimsToString(t.spec.dims) +
                   " does not broadcast to the normalized shape " + DimsToString(norm));
    }
    buf->resize(static_cast<size_t>(NumElements(norm)));
    StridedCopy(t.data, buf->data(), norm, strides, sizeof(float), 1);
    *out = buf->data();
    return Status::Ok();
  }
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    return Status::Ok();
  }
  int64_t axis_ = -1;
  float epsilon_ = 1e-5F;
  std::vector<float> scale_buf_, bias_buf_;
};

}  // namespace

void RegisterAttentionKernels(KernelTable& t) {
  t.Add("FusedAttention", MakeKernel<FusedAttentionKernel>);
  t.Add("SkipLayerNorm", MakeKernel<SkipLayerNormKernel>);
}

}  // namespace ge::host_cpu

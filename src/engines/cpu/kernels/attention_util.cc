// The arithmetic the attention kernels share: see attention_util.h.
#include "attention_util.h"

#include <oneapi/dnnl/dnnl.h>

#include <Eigen/Core>
#include <algorithm>

namespace ge::host_cpu {
namespace {

/// Multiply-adds below which a product runs through Eigen rather than oneDNN's sgemm, whose
/// per-call cost dominates small heads.
constexpr int64_t kSmallGemm = int64_t{64} * 1024;

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstStrided = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using Strided = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;

}  // namespace

bool AttentionGemm(bool b_transposed, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return true;
  if (k == 0) {  // an empty sum (a block of queries that sees no key)
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0F);
    return true;
  }
  if (m * n * k < kSmallGemm) {
    ConstStrided am(a, m, k, Eigen::OuterStride<>(lda));
    Strided cm(c, m, n, Eigen::OuterStride<>(ldc));
    if (b_transposed) {
      cm.noalias() = alpha * (am * ConstStrided(b, n, k, Eigen::OuterStride<>(ldb)).transpose());
    } else {
      cm.noalias() = alpha * (am * ConstStrided(b, k, n, Eigen::OuterStride<>(ldb)));
    }
    return true;
  }
  return dnnl_sgemm('N', b_transposed ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, 0.0F, c, ldc) ==
         dnnl_success;
}

void SoftmaxInPlace(float* row, int64_t n) {
  if (n <= 0) return;  // no maximum to subtract
  Eigen::Map<Eigen::ArrayXf> r(row, n);
  r = (r - r.maxCoeff()).exp();
  r /= r.sum();
}

}  // namespace ge::host_cpu

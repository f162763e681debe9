// The arithmetic the attention kernels share (FusedAttention, ONNX Attention): a matrix product
// on the calling thread and the softmax of one row of scores.
#pragma once

#include <cstdint>

namespace ge::host_cpu {

/// c[m x n] = alpha * a[m x k] * b, with b given as [k x n] or, with `b_transposed`, as [n x k];
/// lda, ldb and ldc are the row strides of a, b and c (heads side by side in one tensor have
/// rows longer than the head). Small products run through Eigen (inlined, no dispatch), larger
/// ones through oneDNN's sgemm; both on the calling thread, which the attention kernels call
/// from their own parallel regions. Any of m, n and k may be 0 (k = 0: c is zero). False when
/// oneDNN fails.
bool AttentionGemm(bool b_transposed, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc);

/// row[0, n) = exp(row - max) / sum, in place. A row whose largest value is -inf (no key left)
/// comes out NaN: callers that define such rows otherwise test for them first.
void SoftmaxInPlace(float* row, int64_t n);

}  // namespace ge::host_cpu

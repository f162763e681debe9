// CPU kernel of Det (ONNX): the determinant of each [M, M] matrix of x [..., M, M], by LU
// factorization with partial pivoting in double.
#include <cmath>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Determinant of the row-major m x m matrix in `a` (overwritten by its LU factors).
double LuDeterminant(std::vector<double>& a, int64_t m) {
  double det = 1.0;
  auto at = [&](int64_t r, int64_t c) -> double& { return a[static_cast<size_t>(r * m + c)]; };
  for (int64_t col = 0; col < m; ++col) {
    int64_t pivot = col;
    for (int64_t r = col + 1; r < m; ++r) {
      if (std::fabs(at(r, col)) > std::fabs(at(pivot, col))) pivot = r;
    }
    if (at(pivot, col) == 0.0) return 0.0;  // singular
    if (pivot != col) {
      for (int64_t c = 0; c < m; ++c) std::swap(at(pivot, c), at(col, c));
      det = -det;
    }
    const double p = at(col, col);
    det *= p;
    for (int64_t r = col + 1; r < m; ++r) {
      const double f = at(r, col) / p;
      if (f == 0.0) continue;
      for (int64_t c = col + 1; c < m; ++c) at(r, c) -= f * at(col, c);
    }
  }
  return det;
}

class DetKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const std::vector<int64_t>& d = x.spec.dims;
    if (d.size() < 2 || d[d.size() - 1] != d[d.size() - 2]) {
      return Error("input " + DimsToString(d) + " must end in a square matrix [M, M]");
    }
    const std::vector<int64_t> batch(d.begin(), d.end() - 2);
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != batch) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are not " + DimsToString(batch));
    }
    const int64_t m = d.back();
    const int64_t count = NumElements(batch);
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      ParallelFor(count, threads_, m * m * m, [&](int64_t begin, int64_t end) {
        std::vector<double> a(static_cast<size_t>(m * m));
        for (int64_t b = begin; b < end; ++b) {
          const T* src = in + b * m * m;
          for (int64_t i = 0; i < m * m; ++i) a[static_cast<size_t>(i)] = src[i];
          out[b] = static_cast<T>(LuDeterminant(a, m));
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }
};

}  // namespace

void RegisterLinalgKernels(KernelTable& t) { t.Add("Det", MakeKernel<DetKernel>); }

}  // namespace ge::host_cpu

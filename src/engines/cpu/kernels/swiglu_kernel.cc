// SwiGLU (ONNX 28): the gated activation of transformer feed-forward blocks, y = a *
// sigmoid(alpha * a) * b for a gate a and a value b of one shape (no broadcasting), with the
// accurate logistic of logistic.h (Swish's), over float or double; the 16-bit floats are widened.
#include "kernel_util.h"
#include "logistic.h"

namespace ge::host_cpu {
namespace {

class SwigluKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& a = args.inputs[0];
    const KernelTensor& b = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    if (b.spec.dims != a.spec.dims || y.spec.dims != a.spec.dims) {
      return Error("A " + DimsToString(a.spec.dims) + ", B " + DimsToString(b.spec.dims) +
                   " and Y " + DimsToString(y.spec.dims) + " must have one shape");
    }
    if (b.spec.dtype != a.spec.dtype || y.spec.dtype != a.spec.dtype) {
      return Error("A, B and Y must have one dtype");
    }
    const int64_t n = NumElements(a.spec.dims);
    const bool ok = DispatchFloat(a.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
      ParallelFor(n, threads_, 4096, [&](int64_t begin, int64_t end) {
        const Eigen::Map<const Array> ga(static_cast<const T*>(a.data) + begin, end - begin);
        const Eigen::Map<const Array> vb(static_cast<const T*>(b.data) + begin, end - begin);
        Eigen::Map<Array> out(static_cast<T*>(y.data) + begin, end - begin);
        out = ga * Logistic(ga * T(alpha_)) * vb;
      });
    });
    return ok ? Status::Ok() : Unsupported(a.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    alpha_ = AttrFloat("alpha", 1.0F);
    return Status::Ok();
  }
  float alpha_ = 1.0F;
};

}  // namespace

void RegisterSwigluKernel(KernelTable& t) { t.Add("SwiGLU", MakeKernel<SwigluKernel>); }

}  // namespace ge::host_cpu

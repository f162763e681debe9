// SkipLayerNorm, the kernel of the residual + LayerNorm the fusion pass creates: y = LayerNorm(x
// + skip) over the trailing dims, scaled and shifted, x and skip broadcasting to y.
#include "kernel_util.h"
#include "row_norm.h"

namespace ge::host_cpu {
namespace {

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

void RegisterSkipLayerNormKernels(KernelTable& t) {
  t.Add("SkipLayerNorm", MakeKernel<SkipLayerNormKernel>);
}

}  // namespace ge::host_cpu

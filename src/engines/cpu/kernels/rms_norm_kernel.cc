// RMSNormalization (ONNX opset 23): Y = X / sqrt(mean(X^2 over the dims from axis on) + epsilon)
// * scale, the scale broadcasting to X (numpy, one way). Computed in float (stash_type 1, the
// only precision ONNX's reference defines); the CPU engine widens float16 / bfloat16 tensors.
#include <vector>

#include "kernel_util.h"
#include "row_norm.h"

namespace ge::host_cpu {
namespace {

class RmsNormKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& scale = args.inputs[1];
    const KernelOutput& y = args.outputs[0];
    for (DataType t : {x.spec.dtype, scale.spec.dtype, y.spec.dtype}) {
      if (t != DT_FLOAT) return Unsupported(t);
    }
    const std::vector<int64_t>& dims = x.spec.dims;
    if (y.spec.dims != dims) {
      return Error("output Y " + DimsToString(y.spec.dims) + " differs from X " +
                   DimsToString(dims));
    }
    const auto rank = static_cast<int64_t>(dims.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    std::vector<int64_t> strides;
    if (!BroadcastStrides(scale.spec.dims, dims, &strides)) {
      return Error("scale " + DimsToString(scale.spec.dims) + " does not broadcast to X " +
                   DimsToString(dims));
    }
    const std::vector<int64_t> inner(dims.begin() + axis, dims.end());
    const int64_t cols = NumElements(inner);
    const int64_t rows = cols == 0 ? 0 : NumElements(dims) / cols;
    // The scale of each row, laid out as the row: the scale itself when it is exactly the
    // normalized dims, one row expanded when it is the same for every row, else expanded to X.
    bool per_row = false;
    for (int64_t d = 0; d < axis; ++d) per_row = per_row || strides[d] != 0;
    const auto* scale_data = static_cast<const float*>(scale.data);
    if (per_row) {
      scale_buf_.resize(static_cast<size_t>(rows * cols));
      StridedCopy(scale_data, scale_buf_.data(), dims, strides, sizeof(float), threads_);
      scale_data = scale_buf_.data();
    } else if (scale.spec.dims != inner) {
      scale_buf_.resize(static_cast<size_t>(cols));
      StridedCopy(scale_data, scale_buf_.data(), inner,
                  std::vector<int64_t>(strides.begin() + axis, strides.end()), sizeof(float), 1);
      scale_data = scale_buf_.data();
    }
    const auto* in = static_cast<const float*>(x.data);
    auto* out = static_cast<float*>(y.data);
    const int64_t scale_row = per_row ? cols : 0;
    const float eps = epsilon_;
    ParallelFor(rows, threads_, cols * 4, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        RmsNormalizeRow(in + r * cols, out + r * cols, cols, scale_data + r * scale_row, eps);
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    const int64_t stash = AttrInt("stash_type", 1);
    if (stash != 1) {
      return Error("attribute 'stash_type' " + std::to_string(stash) +
                   " is not supported: only 1 (float) is");
    }
    return Status::Ok();
  }

  int64_t axis_ = -1;
  float epsilon_ = 1e-5F;
  std::vector<float> scale_buf_;
};

}  // namespace

void RegisterRmsNormKernels(KernelTable& t) {
  t.Add("RMSNormalization", MakeKernel<RmsNormKernel>);
}

}  // namespace ge::host_cpu

// Normalization and softmax with Eigen row expressions: LayerNorm (with optional mean /
// inv_std_dev outputs), SoftmaxV2 / LogSoftmaxV2 on any axis, BatchNorm (inference) and
// InstanceNorm. Rows are split over threads.
#include <Eigen/Core>
#include <cmath>

#include "kernel_util.h"
#include "row_norm.h"

namespace ge::host_cpu {
namespace {

using RowMap = Eigen::Map<Eigen::ArrayXf>;
using ConstRowMap = Eigen::Map<const Eigen::ArrayXf>;
using BlockMap = Eigen::Map<Eigen::ArrayXXf>;  // column-major [inner, axis]
using ConstBlockMap = Eigen::Map<const Eigen::ArrayXXf>;

// Expands a per-normalized-element parameter (scale, bias) that broadcasts to `dims` into
// `out` (size NumElements(dims)); returns the pointer to use.
const float* ExpandParam(const KernelTensor& t, const std::vector<int64_t>& dims,
                         std::vector<float>* out, bool* ok) {
  const int64_t n = NumElements(dims);
  *ok = true;
  if (NumElements(t.spec.dims) == n) return static_cast<const float*>(t.data);
  BroadcastPlan plan;
  if (!PlanBroadcast({t.spec.dims}, dims, &plan)) {
    *ok = false;
    return nullptr;
  }
  out->resize(static_cast<size_t>(n));
  const float* in = static_cast<const float*>(t.data);
  const int64_t s = plan.dims.empty() ? 0 : plan.strides[0].back();
  ForEachBroadcastRow(plan, 1, [&](int64_t yo, const int64_t* offs, int64_t cnt) {
    for (int64_t i = 0; i < cnt; ++i) (*out)[yo + i] = in[offs[0] + i * s];
  });
  return out->data();
}

class LayerNormKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    if (y.spec.dims != x.spec.dims) return Error("output dims differ from the input's");
    const int64_t rank = static_cast<int64_t>(x.spec.dims.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    const std::vector<int64_t> norm(x.spec.dims.begin() + axis, x.spec.dims.end());
    const int64_t cols = NumElements(norm);
    const int64_t rows = cols == 0 ? 0 : NumElements(x.spec.dims) / cols;
    bool ok_s = true, ok_b = true;
    const float* scale = ExpandParam(args.inputs[1], norm, &scale_buf_, &ok_s);
    const float* bias =
        HasInput(args, 2) ? ExpandParam(args.inputs[2], norm, &bias_buf_, &ok_b) : nullptr;
    if (!ok_s || !ok_b) {
      return Error("scale/bias do not broadcast to the normalized shape " + DimsToString(norm));
    }
    auto stat = [&](size_t i) -> float* {
      if (args.outputs.size() <= i || args.outputs[i].data == nullptr) return nullptr;
      return NumElements(args.outputs[i].spec.dims) == rows
                 ? static_cast<float*>(args.outputs[i].data)
                 : nullptr;
    };
    float* mean_out = stat(1);
    float* inv_out = stat(2);
    const float* in = static_cast<const float*>(x.data);
    float* out = static_cast<float*>(y.data);
    const float eps = epsilon_;
    ParallelFor(rows, threads_, cols * 4, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const RowStats st = NormalizeRow(in + r * cols, out + r * cols, cols, scale, bias, eps);
        if (mean_out != nullptr) mean_out[r] = st.mean;
        if (inv_out != nullptr) inv_out[r] = st.inv;
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    return Status::Ok();
  }
  int64_t axis_ = -1;
  float epsilon_ = 1e-5F;
  std::vector<float> scale_buf_, bias_buf_;
};

// kFlatten: ONNX's Softmax / LogSoftmax before opset 13 (SoftmaxLegacy), which normalizes each
// row of the input seen as 2-D [prod(dims[:axis]), prod(dims[axis:])].
template <bool kLog, bool kFlatten = false>
class SoftmaxKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    if (y.spec.dims != x.spec.dims) return Error("output dims differ from the input's");
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    int64_t axis = 0;
    // The flattening form also takes axis == rank (rows of one element).
    const bool in_range = kFlatten ? (axis_ >= -rank && axis_ <= rank)
                                   : (rank > 0 && NormalizeAxis(axis_, rank, &axis));
    if (!in_range) {
      return Error("attribute 'axis' " + std::to_string(axis_) + " is out of range for " +
                   DimsToString(d));
    }
    int64_t len = 1;
    int64_t inner = 1;
    if constexpr (kFlatten) {
      axis = axis_ < 0 ? axis_ + rank : axis_;
      for (int64_t i = axis; i < rank; ++i) len *= d[i];
    } else {
      len = d[axis];
      for (int64_t i = axis + 1; i < rank; ++i) inner *= d[i];
    }
    const int64_t outer = len * inner == 0 ? 0 : NumElements(d) / (len * inner);
    const float* in = static_cast<const float*>(x.data);
    float* out = static_cast<float*>(y.data);
    ParallelFor(outer, threads_, len * inner * 8, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        if (inner == 1) {
          ConstRowMap xr(in + o * len, len);
          RowMap yr(out + o * len, len);
          const float m = xr.maxCoeff();
          if constexpr (kLog) {
            yr = xr - m - std::log((xr - m).exp().sum());
          } else {
            yr = (xr - m).exp();
            yr /= yr.sum();
          }
        } else {
          ConstBlockMap xb(in + o * len * inner, inner, len);
          BlockMap yb(out + o * len * inner, inner, len);
          const Eigen::ArrayXf m = xb.rowwise().maxCoeff();
          yb = (xb.colwise() - m).exp();
          const Eigen::ArrayXf s = yb.rowwise().sum();
          if constexpr (kLog) {
            yb = xb.colwise() - (m + s.log());
          } else {
            yb.colwise() /= s;
          }
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    return Status::Ok();
  }
  int64_t axis_ = -1;
};

// BatchNorm: y = (x - mean) / sqrt(var + eps) * scale + offset per channel (dim 1). In training
// mode (ONNX's training_mode = 1) mean and var are the batch's (over N and the spatial dims, var
// the population variance), and the running statistics outputs are
// input * momentum + batch * (1 - momentum).
class BatchNormKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 5, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const auto& d = x.spec.dims;
    if (d.size() < 2 || y.spec.dims != d) return Error("input must have rank >= 2 and match y");
    const int64_t c = blocked_ ? channels_ : d[1];
    for (size_t i = 1; i < 5; ++i) {
      if (args.inputs[i].spec.dtype != DT_FLOAT || NumElements(args.inputs[i].spec.dims) != c) {
        return Error("input " + std::to_string(i) + " must be float32 [" + std::to_string(c) + "]");
      }
    }
    // Blocked, the padding lanes get 0 * x + 0: they stay zero.
    mul_.assign(static_cast<size_t>(blocked_ ? d[1] * kC0 : c), 0.0F);
    add_.assign(mul_.size(), 0.0F);
    const auto* scale = static_cast<const float*>(args.inputs[1].data);
    const auto* offset = static_cast<const float*>(args.inputs[2].data);
    const auto* mean = static_cast<const float*>(args.inputs[3].data);
    const auto* var = static_cast<const float*>(args.inputs[4].data);
    std::vector<float> batch_mean, batch_var;
    if (training_) {
      GE_RETURN_IF_ERROR(BatchStatistics(args, c, batch_mean, batch_var));
      mean = batch_mean.data();
      var = batch_var.data();
    }
    for (int64_t i = 0; i < c; ++i) {
      mul_[i] = scale[i] / std::sqrt(var[i] + epsilon_);
      add_[i] = offset[i] - mean[i] * mul_[i];
    }
    const float* in = static_cast<const float*>(x.data);
    float* out = static_cast<float*>(y.data);
    if (blocked_) return RunBlocked(d, in, out);
    const int64_t planes = d[0] * c;
    const int64_t plane = planes == 0 ? 0 : NumElements(d) / planes;
    ParallelFor(planes, threads_, plane, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const int64_t ch = p % c;
        RowMap(out + p * plane, plane) = ConstRowMap(in + p * plane, plane) * mul_[ch] + add_[ch];
      }
    });
    return Status::Ok();
  }

 private:
  // The batch's mean and variance per channel, and the running statistics outputs when read.
  Status BatchStatistics(const KernelArgs& args, int64_t c, std::vector<float>& mean,
                         std::vector<float>& var) const {
    const auto& d = args.inputs[0].spec.dims;
    const int64_t plane = d[0] * c == 0 ? 0 : NumElements(d) / (d[0] * c);
    const auto* in = static_cast<const float*>(args.inputs[0].data);
    mean.assign(static_cast<size_t>(c), 0.0F);
    var.assign(static_cast<size_t>(c), 0.0F);
    const auto count = static_cast<double>(d[0] * plane);
    for (int64_t ch = 0; ch < c; ++ch) {
      double sum = 0, sum_sq = 0;
      for (int64_t n = 0; n < d[0]; ++n) {
        for (int64_t i = 0; i < plane; ++i) sum += in[(n * c + ch) * plane + i];
      }
      const double m = count > 0 ? sum / count : 0.0;
      for (int64_t n = 0; n < d[0]; ++n) {
        for (int64_t i = 0; i < plane; ++i) {
          const double v = in[(n * c + ch) * plane + i] - m;
          sum_sq += v * v;
        }
      }
      mean[ch] = static_cast<float>(m);
      var[ch] = static_cast<float>(count > 0 ? sum_sq / count : 0.0);
    }
    const float* stats[2] = {static_cast<const float*>(args.inputs[3].data),
                             static_cast<const float*>(args.inputs[4].data)};
    const std::vector<float>* batch[2] = {&mean, &var};
    for (size_t k = 0; k < 2; ++k) {
      const size_t output = k + 1;
      if (args.outputs.size() <= output || args.outputs[output].data == nullptr) continue;
      if (args.outputs[output].spec.dtype != DT_FLOAT ||
          NumElements(args.outputs[output].spec.dims) != c) {
        return Error("output " + std::to_string(output) + " must be float32 [" + std::to_string(c) +
                     "]");
      }
      auto* out = static_cast<float*>(args.outputs[output].data);
      for (int64_t ch = 0; ch < c; ++ch) {
        out[ch] = stats[k][ch] * momentum_ + (*batch[k])[ch] * (1.0F - momentum_);
      }
    }
    return Status::Ok();
  }

  Status PrepareImpl(const KernelSpec& spec) override {
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    momentum_ = AttrFloat("momentum", 0.9F);
    training_ = AttrInt("training_mode", 0) != 0;
    const std::string format = AttrStr("data_format", "NCHW");
    if (format != "NCHW" && format != "NCDHW" && format != "ND" && format != "NCW") {
      return Error("data_format '" + format + "' is not supported (channel-first only)");
    }
    blocked_ = !spec.inputs.empty() && spec.inputs[0].format == FORMAT_NC1HWC0;
    if (blocked_ && training_) return Error("training_mode 1 on blocked (NC1HWC0) data");
    if (blocked_) {
      const TensorSpec& x = spec.inputs[0];
      if (x.dims.size() != 5 || x.origin_dims.size() != 4 || HasUnknownDims(x.dims) ||
          spec.outputs.empty() || spec.outputs[0].format != FORMAT_NC1HWC0) {
        return Error(
            "an NC1HWC0 input needs static [N, C1, H, W, 16] dims with 4-D origin dims "
            "and an NC1HWC0 output");
      }
      channels_ = x.origin_dims[1];
    }
    return Status::Ok();
  }

  static constexpr int64_t kC0 = 16;

  // x, y [N, C1, H, W, 16]: every position of a channel block scales its 16 lanes at once.
  Status RunBlocked(const std::vector<int64_t>& d, const float* in, float* out) const {
    if (d.size() != 5 || d[4] != kC0) return Error("the NC1HWC0 input changed: " + DimsToString(d));
    const int64_t blocks = d[0] * d[1], plane = d[2] * d[3];
    using Lanes = Eigen::Array<float, 1, kC0>;
    ParallelFor(blocks, threads_, plane * kC0, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        const int64_t c0 = (b % d[1]) * kC0;
        const Eigen::Map<const Lanes> mul(mul_.data() + c0), add(add_.data() + c0);
        for (int64_t p = 0; p < plane; ++p) {
          const int64_t at = (b * plane + p) * kC0;
          Eigen::Map<Lanes>(out + at) = Eigen::Map<const Lanes>(in + at) * mul + add;
        }
      }
    });
    return Status::Ok();
  }

  float epsilon_ = 1e-5F;
  float momentum_ = 0.9F;
  bool training_ = false;
  bool blocked_ = false;  // NC1HWC0 data, 4-D NCHW logically
  int64_t channels_ = 0;
  std::vector<float> mul_, add_;
};

// InstanceNorm: each (n, c) plane normalized by its own mean and variance, then scale[c], bias[c].
class InstanceNormKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const auto& d = x.spec.dims;
    if (d.size() < 3 || y.spec.dims != d) return Error("input must have rank >= 3 and match y");
    const int64_t c = d[1];
    for (size_t i = 1; i < 3; ++i) {
      if (NumElements(args.inputs[i].spec.dims) != c) {
        return Error("input " + std::to_string(i) + " must be [" + std::to_string(c) + "]");
      }
    }
    const auto* scale = static_cast<const float*>(args.inputs[1].data);
    const auto* bias = static_cast<const float*>(args.inputs[2].data);
    const int64_t planes = d[0] * c;
    const int64_t plane = planes == 0 ? 0 : NumElements(d) / planes;
    if (plane == 0) return Status::Ok();  // empty planes: nothing to normalize, no mean to take
    const float* in = static_cast<const float*>(x.data);
    float* out = static_cast<float*>(y.data);
    ParallelFor(planes, threads_, plane * 4, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        ConstRowMap xr(in + p * plane, plane);
        const float mean = xr.mean();
        const float inv = 1.0F / std::sqrt((xr - mean).square().mean() + epsilon_);
        RowMap(out + p * plane, plane) = (xr - mean) * (inv * scale[p % c]) + bias[p % c];
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    return Status::Ok();
  }
  float epsilon_ = 1e-5F;
};

// ONNX GroupNormalization: the channels of each image in num_groups groups, each group normalized
// over its channels and spatial positions together, then scaled and shifted per channel (opset 21:
// scale and bias [C]) or per group (opset 18: [num_groups]).
class GroupNormKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != DT_FLOAT || y.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype);
    const auto& d = x.spec.dims;
    if (d.size() < 3 || y.spec.dims != d) return Error("input must have rank >= 3 and match y");
    const int64_t c = d[1];
    if (groups_ <= 0 || c % groups_ != 0) {
      return Error("num_groups " + std::to_string(groups_) + " does not divide " +
                   std::to_string(c) + " channels");
    }
    const int64_t per_group_scale = NumElements(args.inputs[1].spec.dims);
    for (size_t i = 1; i < 3; ++i) {
      const int64_t n = NumElements(args.inputs[i].spec.dims);
      if (n != per_group_scale || (n != c && n != groups_)) {
        return Error("scale and bias must both be [" + std::to_string(c) + "] or [" +
                     std::to_string(groups_) + "]");
      }
    }
    const bool by_channel = per_group_scale == c;
    const auto* scale = static_cast<const float*>(args.inputs[1].data);
    const auto* bias = static_cast<const float*>(args.inputs[2].data);
    const int64_t channels = c / groups_;
    const int64_t plane = c == 0 || d[0] == 0 ? 0 : NumElements(d) / (d[0] * c);
    const int64_t group_size = channels * plane;
    const auto* in = static_cast<const float*>(x.data);
    auto* out = static_cast<float*>(y.data);
    ParallelFor(d[0] * groups_, threads_, group_size * 4, [&](int64_t begin, int64_t end) {
      for (int64_t g = begin; g < end; ++g) {
        const float* xg = in + g * group_size;
        double sum = 0, sum_sq = 0;
        for (int64_t i = 0; i < group_size; ++i) sum += xg[i];
        const double mean = group_size > 0 ? sum / static_cast<double>(group_size) : 0.0;
        for (int64_t i = 0; i < group_size; ++i) sum_sq += (xg[i] - mean) * (xg[i] - mean);
        const double var = group_size > 0 ? sum_sq / static_cast<double>(group_size) : 0.0;
        const auto inv = static_cast<float>(1.0 / std::sqrt(var + epsilon_));
        const int64_t group = g % groups_;
        for (int64_t k = 0; k < channels; ++k) {
          const int64_t at = by_channel ? group * channels + k : group;
          const int64_t offset = k * plane;
          ConstRowMap xr(xg + offset, plane);
          RowMap(out + g * group_size + offset, plane) =
              (xr - static_cast<float>(mean)) * (inv * scale[at]) + bias[at];
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    epsilon_ = AttrFloat("epsilon", 1e-5F);
    groups_ = AttrInt("num_groups", 0);
    return Status::Ok();
  }
  float epsilon_ = 1e-5F;
  int64_t groups_ = 0;
};

}  // namespace

void RegisterNormKernels(KernelTable& t) {
  t.Add("LayerNorm", MakeKernel<LayerNormKernel>);
  t.Add("SoftmaxV2", MakeKernel<SoftmaxKernel<false>>);
  t.Add("LogSoftmaxV2", MakeKernel<SoftmaxKernel<true>>);
  t.Add("SoftmaxLegacy", MakeKernel<SoftmaxKernel<false, /*kFlatten=*/true>>);
  t.Add("LogSoftmaxLegacy", MakeKernel<SoftmaxKernel<true, /*kFlatten=*/true>>);
  t.Add("BatchNorm", MakeKernel<BatchNormKernel>);
  t.Add("InstanceNorm", MakeKernel<InstanceNormKernel>);
  t.Add("GroupNorm", MakeKernel<GroupNormKernel>);
}

}  // namespace ge::host_cpu

// WidenedKernel: a float kernel run on float16 / bfloat16 tensors (see widened_kernel.h).
#include "widened_kernel.h"

#include <cstring>
#include <set>
#include <vector>

#include "half_float_util.h"

namespace ge::host_cpu {
namespace {

class WidenedKernel final : public CpuKernel {
 public:
  explicit WidenedKernel(std::unique_ptr<CpuKernel> inner) : inner_(std::move(inner)) {}

  Status Prepare(const KernelSpec& spec) override {
    KernelSpec wide = spec;
    // Pages of the widened weights belong to this kernel: the inner one must not release them.
    wide.weights_released = nullptr;
    wide.const_inputs.resize(spec.inputs.size(), nullptr);
    input_half_.assign(spec.inputs.size(), DT_UNDEFINED);
    output_half_.assign(spec.outputs.size(), DT_UNDEFINED);
    weights_.clear();
    weights_.resize(spec.inputs.size());
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      if (!IsHalfFloat(spec.inputs[i].dtype)) continue;
      input_half_[i] = spec.inputs[i].dtype;
      wide.inputs[i].dtype = DT_FLOAT;
      const GeTensor* weight = i < spec.const_inputs.size() ? spec.const_inputs[i] : nullptr;
      if (weight != nullptr) {
        weights_[i] = Widen(*weight);
        wide.const_inputs[i] = weights_[i].get();
      }
    }
    for (size_t i = 0; i < spec.outputs.size(); ++i) {
      if (!IsHalfFloat(spec.outputs[i].dtype)) continue;
      output_half_[i] = spec.outputs[i].dtype;
      wide.outputs[i].dtype = DT_FLOAT;
    }
    GE_RETURN_IF_ERROR(inner_->Prepare(wide));
    inner_workspace_ = Align64(inner_->WorkspaceBytes());
    // With static shapes the widened activations live in the workspace: no allocation per run.
    buffers_bytes_ = 0;
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      if (input_half_[i] == DT_UNDEFINED || weights_[i] != nullptr) continue;
      if (!Add(spec.inputs[i].dims)) return Status::Ok();
    }
    for (size_t i = 0; i < spec.outputs.size(); ++i) {
      if (output_half_[i] != DT_UNDEFINED && !Add(spec.outputs[i].dims)) return Status::Ok();
    }
    static_ = true;
    return Status::Ok();
  }

  int64_t WorkspaceBytes() const override {
    return inner_workspace_ + (static_ ? buffers_bytes_ : 0);
  }

  Status Run(const KernelArgs& args) override {
    KernelArgs wide = args;
    std::vector<std::vector<float>> heap;  // only when the shapes were not known at Prepare
    auto* next = static_cast<uint8_t*>(args.workspace) + inner_workspace_;
    auto buffer = [&](const std::vector<int64_t>& dims) -> float* {
      const int64_t n = NumElements(dims);
      if (static_) {
        auto* p = reinterpret_cast<float*>(next);
        next += Align64(n * static_cast<int64_t>(sizeof(float)));
        return p;
      }
      return heap.emplace_back(static_cast<size_t>(n)).data();
    };
    for (size_t i = 0; i < wide.inputs.size() && i < input_half_.size(); ++i) {
      KernelTensor& in = wide.inputs[i];
      if (input_half_[i] == DT_UNDEFINED || in.data == nullptr) continue;
      in.spec.dtype = DT_FLOAT;
      if (weights_[i] != nullptr) {
        in.data = weights_[i]->GetData().data();
        continue;
      }
      float* out = buffer(in.spec.dims);
      DispatchHalf(input_half_[i], [&](auto tag) {
        using H = decltype(tag);
        HalfToFloat(static_cast<const H*>(args.inputs[i].data), out, NumElements(in.spec.dims));
      });
      in.data = out;
    }
    for (size_t i = 0; i < wide.outputs.size() && i < output_half_.size(); ++i) {
      if (output_half_[i] == DT_UNDEFINED) continue;
      wide.outputs[i].spec.dtype = DT_FLOAT;
      wide.outputs[i].data = buffer(wide.outputs[i].spec.dims);
    }
    wide.workspace = args.workspace;
    GE_RETURN_IF_ERROR(inner_->Run(wide));
    for (size_t i = 0; i < wide.outputs.size() && i < output_half_.size(); ++i) {
      if (output_half_[i] == DT_UNDEFINED || args.outputs[i].data == nullptr) continue;
      const auto* from = static_cast<const float*>(wide.outputs[i].data);
      // The inner kernel may have narrowed a value-dependent output's dims.
      const int64_t n = NumElements(inner_->OutputDimsDependOnData(i) ? inner_->ActualOutputDims(i)
                                                                      : args.outputs[i].spec.dims);
      DispatchHalf(output_half_[i], [&](auto tag) {
        using H = decltype(tag);
        FloatToHalf(from, static_cast<H*>(args.outputs[i].data), n);
      });
    }
    return Status::Ok();
  }

  bool OutputDimsDependOnData(size_t index) const override {
    return inner_->OutputDimsDependOnData(index);
  }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    return inner_->MaxOutputDims(index, inputs);
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return inner_->ActualOutputDims(index);
  }
  std::string ImplInfo() const override {
    const std::string inner = inner_->ImplInfo();
    return inner.empty() ? "float (widened)" : inner + " (widened from 16-bit floats)";
  }
  std::optional<PackedWeight> PackedWeights() const override { return inner_->PackedWeights(); }

 private:
  // A float copy of a 16-bit float weight.
  static std::unique_ptr<GeTensor> Widen(const GeTensor& weight) {
    GeTensorDesc desc = weight.GetTensorDesc();
    const DataType half = desc.GetDataType();
    desc.SetDataType(DT_FLOAT);
    const int64_t n = static_cast<int64_t>(weight.GetData().size() / 2);
    std::vector<uint8_t> bytes(static_cast<size_t>(n) * sizeof(float));
    DispatchHalf(half, [&](auto tag) {
      using H = decltype(tag);
      HalfToFloat(reinterpret_cast<const H*>(weight.GetData().data()),
                  reinterpret_cast<float*>(bytes.data()), n);
    });
    return std::make_unique<GeTensor>(std::move(desc), std::move(bytes));
  }
  // Counts a buffer of `dims` floats into the workspace; false when a dim is not known yet.
  bool Add(const std::vector<int64_t>& dims) {
    if (HasUnknownDims(dims)) return false;
    buffers_bytes_ += Align64(NumElements(dims) * static_cast<int64_t>(sizeof(float)));
    return true;
  }

  std::unique_ptr<CpuKernel> inner_;
  std::vector<DataType> input_half_, output_half_;  // DT_UNDEFINED: passed as it is
  std::vector<std::unique_ptr<GeTensor>> weights_;  // widened Const inputs, by input index
  int64_t inner_workspace_ = 0;
  int64_t buffers_bytes_ = 0;
  bool static_ = false;  // every widened buffer's dims were known at Prepare
};

}  // namespace

bool HandlesHalfFloats(const std::string& type) {
  // Cast and CastLike convert to and from the 16-bit types themselves.
  static const std::set<std::string, std::less<>> kNative = {"Cast", "CastLike"};
  return kNative.contains(type);
}

bool HasHalfFloatTensor(const KernelSpec& spec) {
  for (const TensorSpec& t : spec.inputs) {
    if (t.present && IsHalfFloat(t.dtype)) return true;
  }
  for (const TensorSpec& t : spec.outputs) {
    if (IsHalfFloat(t.dtype)) return true;
  }
  return false;
}

std::unique_ptr<CpuKernel> MakeWidenedKernel(std::unique_ptr<CpuKernel> inner) {
  return std::make_unique<WidenedKernel>(std::move(inner));
}

}  // namespace ge::host_cpu

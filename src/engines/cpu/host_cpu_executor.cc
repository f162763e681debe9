// HostCpuTaskExecutor: a task becomes its op type's CpuKernel, prepared once with the node's
// static descs and constant inputs; each run maps the runtime's tensors onto KernelArgs.
#include "host_cpu_executor.h"

#include "ge/graph/op_desc.h"
#include "kernels/cpu_kernel.h"
#include "kernels/widened_kernel.h"

namespace ge::host_cpu {
namespace {

class CpuTaskKernel final : public TaskKernel {
 public:
  CpuTaskKernel(std::unique_ptr<CpuKernel> kernel, std::string who, size_t inputs, size_t outputs,
                std::vector<std::pair<size_t, ChannelPadding>> padding)
      : kernel_(std::move(kernel)), who_(std::move(who)), padding_(std::move(padding)) {
    args_.inputs.resize(inputs);
    args_.outputs.resize(outputs);
  }
  int64_t WorkspaceBytes() const override { return kernel_->WorkspaceBytes(); }
  int64_t LoadedWeightBytes() const override {
    const std::optional<PackedWeight> packed = kernel_->PackedWeights();
    return packed ? static_cast<int64_t>(packed->size) : 0;
  }
  Status Run(const std::vector<RuntimeTensor>& inputs, const std::vector<RuntimeTensor>& outputs,
             void* workspace) override {
    if (inputs.size() != args_.inputs.size() || outputs.size() != args_.outputs.size()) {
      return InternalError(who_ + ": the runtime passed " + std::to_string(inputs.size()) +
                           " inputs and " + std::to_string(outputs.size()) +
                           " outputs, the node has " + std::to_string(args_.inputs.size()) +
                           " and " + std::to_string(args_.outputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      KernelTensor& t = args_.inputs[i];
      t.data = inputs[i].data;
      t.spec.present = inputs[i].data != nullptr;
      t.spec.dtype = inputs[i].dtype;
      if (t.spec.dims != inputs[i].dims) t.spec.dims = inputs[i].dims;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      KernelOutput& t = args_.outputs[i];
      t.data = outputs[i].data;
      t.spec.dtype = outputs[i].dtype;
      if (t.spec.dims != outputs[i].dims) t.spec.dims = outputs[i].dims;
    }
    args_.workspace = workspace;
    GE_RETURN_IF_ERROR(kernel_->Run(args_));
    // What a kernel computed in the channel padding of a blocked output (sigmoid(0), 0 / 0)
    // never reaches a reader: every blocked tensor keeps it zero.
    for (const auto& [output, pad] : padding_) {
      if (args_.outputs[output].data != nullptr) pad.Zero(args_.outputs[output].data);
    }
    return Status::Ok();
  }
  bool OutputDimsDependOnData(size_t index) const override {
    return kernel_->OutputDimsDependOnData(index);
  }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<RuntimeTensor>& inputs) const override {
    std::vector<KernelTensor> tensors;
    tensors.reserve(inputs.size());
    for (const RuntimeTensor& t : inputs) {
      KernelTensor k;
      k.data = t.data;
      k.spec.dtype = t.dtype;
      k.spec.dims = t.dims;
      k.spec.present = t.data != nullptr;
      tensors.push_back(std::move(k));
    }
    return kernel_->MaxOutputDimsOfValues(index, tensors);
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return kernel_->ActualOutputDims(index);
  }

 private:
  std::unique_ptr<CpuKernel> kernel_;
  std::string who_;
  std::vector<std::pair<size_t, ChannelPadding>> padding_;
  KernelArgs args_;
};

}  // namespace

bool HasKernel(const std::string& type) { return FindCpuKernel(type) != nullptr; }

Result<std::unique_ptr<TaskKernel>> HostCpuTaskExecutor::LoadTask(const TaskDef& task,
                                                                  const Node& node,
                                                                  const TaskLoadContext& context) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string who = "node '" + node.GetName() + "' (" + op.GetType() + ")";
  CpuKernelFactory factory = FindCpuKernel(task.kernel_name);
  if (factory == nullptr) {
    return ParamInvalid(who + ": the CPU engine has no kernel " + task.kernel_name);
  }
  std::unique_ptr<CpuKernel> kernel = factory();
  KernelSpec spec;
  spec.op = &op;
  spec.threads = context.threads;
  spec.memory_limit = context.memory_limit;
  spec.const_inputs = context.const_inputs;
  spec.strings = context.strings;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const auto anchor = node.GetInDataAnchor(static_cast<int>(i));
    const bool present = anchor != nullptr && anchor->GetPeerOutAnchor() != nullptr;
    spec.inputs.push_back(TensorSpecOf(op.GetInputDesc(static_cast<uint32_t>(i)), present));
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    // An output nothing reads is not present: a kernel may skip computing it (MaxPool's indices).
    const auto out = node.GetOutDataAnchor(static_cast<int>(i));
    const bool read = out != nullptr && !out->GetPeerInDataAnchors().empty();
    spec.outputs.push_back(TensorSpecOf(op.GetOutputDesc(static_cast<uint32_t>(i)), read));
  }
  std::vector<std::pair<size_t, ChannelPadding>> padding;
  if (op.GetType() != "TransData") {  // its reorder writes the zeros itself
    for (size_t i = 0; i < spec.outputs.size(); ++i) {
      if (auto pad = ChannelPadding::Of(spec.outputs[i])) padding.emplace_back(i, *pad);
    }
  }
  // A kernel meeting float16 / bfloat16 tensors computes in float unless it handles them itself;
  // one whose widened form does not prepare (a dtype attribute that must match its output's)
  // gets them as they are.
  bool ready = false;
  if (HasHalfFloatTensor(spec) && !HandlesHalfFloats(task.kernel_name)) {
    std::unique_ptr<CpuKernel> widened = MakeWidenedKernel(factory());
    if (widened->Prepare(spec).ok()) {
      kernel = std::move(widened);
      ready = true;
    }
  }
  if (!ready) {
    Status prepared = kernel->Prepare(spec);
    if (!prepared.ok()) return std::move(prepared).Prefix("preparing the CPU kernel of " + who);
  }
  return std::unique_ptr<TaskKernel>(std::make_unique<CpuTaskKernel>(
      std::move(kernel), who, spec.inputs.size(), spec.outputs.size(), std::move(padding)));
}

}  // namespace ge::host_cpu

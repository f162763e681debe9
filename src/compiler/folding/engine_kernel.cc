// RunOnEngine: a node's kernel loaded and run once through its engine's TaskExecutor.
#include "engine_kernel.h"

#include "ge/compiler/graph_edit.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/utils/tensor_utils.h"
#include "host_tensor.h"

namespace ge::folding {

Result<std::vector<GeTensor>> RunOnEngine(const EngineManager& engines, const Node& node,
                                          const std::vector<const GeTensor*>& inputs) {
  const OpDescPtr op = node.GetOpDesc();
  if (passes::IsImpure(op->GetType())) return CannotFold("not a pure function");
  if (TouchesStrings(*op)) return CannotFold("a node on strings runs at run time");
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < op->GetOutputsSize(); ++i) {
    const GeTensorDesc& desc = op->GetOutputDesc(static_cast<uint32_t>(i));
    if (desc.GetShape().IsUnknownDimNum() || desc.GetShape().IsUnknownShape())
      return CannotFold("an output shape is not known");
    const int64_t size = TensorUtils::CalcTensorMemSize(desc);
    if (size < 0) return CannotFold("an output dtype has no size");
    sizes.push_back(size);
  }
  for (const EngineInfo& engine : engines.GetEngines()) {
    if (engine.executor == nullptr || !engine.executor->Runs(op->GetType())) continue;
    std::string reason;
    if (!engine.store->CheckSupported(op, reason)) continue;
    TaskDef task;
    task.kernel_name = op->GetType();
    task.engine = engine.config.name;
    task.op_name = op->GetName();
    TaskLoadContext context;
    context.const_inputs = inputs;
    GE_ASSIGN_OR_RETURN(std::unique_ptr<TaskKernel> kernel,
                        engine.executor->LoadTask(task, node, context));
    std::vector<RuntimeTensor> in;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const GeTensorDesc& desc = op->GetInputDesc(static_cast<uint32_t>(i));
      RuntimeTensor t;
      t.data = inputs[i] == nullptr ? nullptr : const_cast<uint8_t*>(inputs[i]->GetData().data());
      t.dtype = desc.GetDataType();
      t.dims = desc.GetShape().GetDims();
      in.push_back(std::move(t));
    }
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<RuntimeTensor> out;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const GeTensorDesc& desc = op->GetOutputDesc(static_cast<uint32_t>(i));
      buffers.emplace_back(static_cast<size_t>(std::max<int64_t>(sizes[i], 1)));
      out.push_back({buffers.back().data(), desc.GetDataType(), desc.GetShape().GetDims()});
    }
    std::vector<uint8_t> workspace(
        static_cast<size_t>(std::max<int64_t>(kernel->WorkspaceBytes(), 0)) + 64);
    void* aligned =
        workspace.data() + (64 - reinterpret_cast<uintptr_t>(workspace.data()) % 64) % 64;
    GE_RETURN_IF_ERROR(kernel->Run(in, out, aligned));
    std::vector<GeTensor> results;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const GeTensorDesc& desc = op->GetOutputDesc(static_cast<uint32_t>(i));
      results.push_back(MakeTensorFromBytes(
          desc.GetDataType(), desc.GetShape().GetDims(),
          std::vector<uint8_t>(buffers[i].begin(), buffers[i].begin() + sizes[i])));
    }
    return results;
  }
  return CannotFold("no engine runs " + op->GetType());
}

}  // namespace ge::folding

// Compile-time kernel preparation: see kernel_probe.h.
#include "kernel_probe.h"

#include "ge/graph/anchor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/model/task_def.h"

namespace ge::host_cpu {

bool AllShapesStatic(const ComputeGraph& graph) {
  if (!graph.GetAllSubgraphs().empty()) return false;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      if (op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape().IsUnknownShape()) return false;
    }
  }
  return true;
}

Result<ProbedKernel> ProbeKernel(const Node& node, const std::map<size_t, GeTensorDesc>& inputs,
                                 const std::map<size_t, GeTensorDesc>& outputs, bool pack_weights,
                                 bool* released) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  CpuKernelFactory factory = FindCpuKernel(op.GetType());
  if (factory == nullptr) return ParamInvalid("the CPU engine has no kernel for " + op.GetType());
  ProbedKernel probed;
  KernelSpec spec;
  spec.op = &op;
  spec.probe = true;
  spec.pack_weights = pack_weights;
  spec.weights_released = released;
  // The threads the compiler expects the task to run with: oneDNN makes a primitive for the
  // threads it sees, so the runtime's kernel, prepared for the same, finds this one made.
  int64_t threads = 0;
  if (AttrUtils::GetInt(op, kAttrTaskThreads, threads) && threads > 0) {
    spec.threads = static_cast<int>(threads);
  }
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const auto in = node.GetInDataAnchor(static_cast<int>(i));
    const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
    auto replaced = inputs.find(i);
    const GeTensorDesc& desc =
        replaced != inputs.end() ? replaced->second : op.GetInputDesc(static_cast<uint32_t>(i));
    spec.inputs.push_back(TensorSpecOf(desc, peer != nullptr));
    const GeTensor* value = nullptr;
    if (peer != nullptr) {
      const Node& producer = *peer->GetOwnerNodeBarePtr();
      if (producer.GetType() == "Const" || producer.GetType() == "Constant") {
        auto v = OpDescUtils::GetConstValue(producer);
        if (v.ok()) {
          probed.consts.push_back(std::make_unique<GeTensor>(std::move(v).value()));
          value = probed.consts.back().get();
        }
      }
    }
    spec.const_inputs.push_back(value);
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    auto replaced = outputs.find(i);
    spec.outputs.push_back(TensorSpecOf(
        replaced != outputs.end() ? replaced->second : op.GetOutputDesc(static_cast<uint32_t>(i)),
        true));
  }
  probed.kernel = factory();
  GE_RETURN_IF_ERROR(probed.kernel->Prepare(spec));
  return probed;
}

}  // namespace ge::host_cpu

// The CPU engine's weight packer: see weight_packer.h.
#include "weight_packer.h"

#include <utility>
#include <vector>

#include "cpu_options.h"
#include "ge/graph/anchor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "kernel_probe.h"
#include "kernels/cpu_kernel.h"

namespace ge::host_cpu {
namespace {

constexpr char kEngineName[] = "DNN_VM_HOST_CPU";

bool IsConst(const Node& node) { return node.GetType() == "Const" || node.GetType() == "Constant"; }

/// The desc of a weight stored in an engine layout: 1-D float over its bytes, with the logical
/// shape and format as origin.
GeTensorDesc StoredDesc(const GeTensorDesc& logical, size_t bytes) {
  GeTensorDesc desc(GeShape({static_cast<int64_t>(bytes / sizeof(float))}), FORMAT_ND, DT_FLOAT);
  desc.SetOriginShape(logical.GetShape());
  desc.SetOriginFormat(logical.GetFormat());
  desc.SetOriginDataType(DT_FLOAT);
  return desc;
}

}  // namespace

Status WeightPacker::Initialize(const std::map<std::string, std::string>& options) {
  // The host checked the value against CpuEngineOptions().
  enabled_ = EngineOptionValue(CpuWeightLayoutOption(), options) == "packed";
  return Status::Ok();
}

Status WeightPacker::GetAttributes(GraphOptimizerAttribute& attrs) const {
  attrs.engineName = kEngineName;
  attrs.scope = ENGINE;
  return Status::Ok();
}

Status WeightPacker::OptimizeWholeGraph(ComputeGraph& graph) {
  if (!enabled_ || !AllShapesStatic(graph)) return Status::Ok();
  std::map<std::pair<const Node*, std::string>, NodePtr> made;  // (old Const, layout) -> new
  size_t packed = 0, bytes = 0;
  for (const NodePtr& node : graph.GetDirectNode()) {  // a copy: Consts are added on the way
    const OpDescPtr op = node->GetOpDesc();
    if (op->GetOpEngineName() != kEngineName || !PacksWeights(op->GetType()) ||
        AttrUtils::HasAttr(op, kAttrCpuWeightLayout)) {
      continue;
    }
    const InDataAnchorPtr in = node->GetInDataAnchor(1);
    const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
    if (peer == nullptr || !IsConst(*peer->GetOwnerNodeBarePtr())) continue;
    const NodePtr source = peer->GetOwnerNode();
    // The only reader of a Const whose bytes nothing else holds (a caller's tensor may share
    // them) lets the kernel release their pages as it packs them, so that a large weight is
    // never in memory twice (the Const is removed below). Pages of a file mapping may go
    // whoever else holds them: a later read brings the same bytes back from the file (a shape
    // plan cache compiling copies of one parsed graph, a weight read by two nodes). Deferred
    // bytes are packed from their place in the file, so they too are pages of the mapping.
    const auto* value = AttrUtils::GetPtr<GeTensor>(source->GetOpDescBarePtr(), kAttrConstValue);
    const bool file_mapped = value != nullptr && (value->IsFileMapped() || value->IsDeferred());
    const bool only_reader = value != nullptr && value->DataHolders() == 1 &&
                             peer->GetPeerInDataAnchors().size() == 1 &&
                             source->GetOutControlNodes().empty();
    bool released = false;
    auto probed = ProbeKernel(*node, {}, {}, /*pack_weights=*/true,
                              only_reader || file_mapped ? &released : nullptr);
    if (!probed.ok()) {
      // A weight released in part cannot be read again: the compile cannot go on. A kernel that
      // refuses its node otherwise is reported by the runtime when the model loads.
      if (released && !file_mapped) {
        return Status(probed.status())
            .Prefix("packing the weight of node '" + node->GetName() + "' (" + node->GetType() +
                    ")");
      }
      continue;
    }
    const std::string impl = probed->kernel->ImplInfo();
    if (!AttrUtils::HasAttr(op, kAttrKernelImpl)) AttrUtils::SetStr(op, kAttrKernelImpl, impl);
    const std::optional<PackedWeight> weight = probed->kernel->PackedWeights();
    // No packed weight: oneDNN wants the framework's layout as it is (read in place).
    if (!weight || weight->input != 1 || weight->layout.empty()) continue;
    NodePtr& stored = made[{source.get(), weight->layout}];
    const GeTensorDesc desc = StoredDesc(op->GetInputDesc(1), weight->size);
    if (stored == nullptr) {
      GeTensor value(desc);
      value.SetSharedData(weight->bytes, weight->size);  // the kernel's buffer: no copy
      OpDescPtr const_op =
          OpDescUtils::CreateConstOp(source->GetName() + "/" + weight->layout, value);
      const_op->SetOpEngineName(source->GetOpDescBarePtr()->GetOpEngineName());
      const_op->SetOpKernelLibName(source->GetOpDescBarePtr()->GetOpKernelLibName());
      GE_ASSIGN_OR_RETURN(stored, graph.AddNode(const_op));
      bytes += weight->size;
    }
    GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(peer, in, stored->GetOutDataAnchor(0)));
    GE_RETURN_IF_ERROR(op->UpdateInputDesc(1, desc));
    AttrUtils::SetStr(op, kAttrCpuWeightLayout, weight->layout);
    ++packed;
    // The framework's weight goes as soon as nothing reads it, bytes included (the node list
    // being walked still holds the node): a model's weights are never all in memory twice.
    if (peer->GetPeerInDataAnchors().empty() && source->GetOutControlNodes().empty()) {
      GE_RETURN_IF_ERROR(GraphUtils::RemoveNodeWithoutRelink(graph.shared_from_this(), source));
      source->GetOpDesc()->MutableAttrMap().Set(kAttrConstValue, GeTensor());
    }
  }
  if (packed > 0) {
    KernelLog(1, "graph '" + graph.GetName() + "': " + std::to_string(packed) +
                     " weights stored in oneDNN's layouts (" + std::to_string(made.size()) +
                     " Consts, " + std::to_string(bytes) + " bytes)");
  }
  return Status::Ok();
}

}  // namespace ge::host_cpu

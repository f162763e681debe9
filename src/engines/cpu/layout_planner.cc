// The CPU engine's layout planner: see layout_planner.h.
#include "layout_planner.h"

#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "ge/engine/fused_elementwise.h"
#include "ge/engine/fused_ops.h"
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
constexpr char kKernelLibName[] = "DNN_VM_HOST_CPU_OP_STORE";
constexpr int64_t kC0 = 16;
constexpr int kAddend = 3;


/// The NC1HWC0 desc of a float NCHW tensor.
GeTensorDesc Blocked(const GeTensorDesc& plain) {
  const std::vector<int64_t> d = plain.GetShape().GetDims();
  GeTensorDesc out(GeShape({d[0], (d[1] + kC0 - 1) / kC0, d[2], d[3], kC0}), FORMAT_NC1HWC0, DT_FLOAT);
  out.SetOriginShape(plain.GetShape());
  out.SetOriginFormat(FORMAT_NCHW);
  out.SetOriginDataType(DT_FLOAT);
  return out;
}

GeTensorDesc Plain(const GeTensorDesc& blocked) {
  GeTensorDesc out(blocked.GetOriginShape(), FORMAT_NCHW, DT_FLOAT);
  out.SetOriginShape(blocked.GetOriginShape());
  out.SetOriginFormat(FORMAT_NCHW);
  out.SetOriginDataType(DT_FLOAT);
  return out;
}

bool IsBlocked(const GeTensorDesc& desc) { return desc.GetFormat() == FORMAT_NC1HWC0; }

struct Choice {
  bool src = false, dst = false;
};

/// The oneDNN implementation the node's kernel gets with `choice`, or "" when it cannot be
/// prepared that way.
std::string TryLayout(const Node& node, Choice choice) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::map<size_t, GeTensorDesc> inputs, outputs;
  if (choice.src) inputs[0] = Blocked(op.GetInputDesc(0));
  if (choice.dst) {
    outputs[0] = Blocked(op.GetOutputDesc(0));
    const auto addend = node.GetInDataAnchor(kAddend);
    if (addend != nullptr && addend->GetPeerOutAnchor() != nullptr) {
      inputs[kAddend] = Blocked(op.GetInputDesc(kAddend));
    }
  }
  auto probed = ProbeKernel(node, inputs, outputs);
  return probed.ok() ? probed->kernel->ImplInfo() : "";
}

bool Acceptable(const std::string& impl) {
  return !impl.empty() && !IsReferenceImpl(impl) && impl.find("gemm") == std::string::npos;
}

bool IsCandidate(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOpEngineName() != kEngineName || !ReadsBlockedLayout(op.GetType()) ||
      (op.GetType() != "Conv2D" && op.GetType() != "DepthwiseConv2D")) {
    return false;
  }
  std::string format = "NCHW";
  AttrUtils::GetStr(op, "data_format", format);
  const GeTensorDesc& x = op.GetInputDesc(0);
  const GeTensorDesc& y = op.GetOutputDesc(0);
  return format == "NCHW" && x.GetDataType() == DT_FLOAT && y.GetDataType() == DT_FLOAT &&
         x.GetShape().GetDimNum() == 4 && y.GetShape().GetDimNum() == 4 && x.GetFormat() != FORMAT_NC1HWC0;
}

/// Elementwise operators that keep zero at zero (f(0) = 0, f(0, 0) = 0): on NC1HWC0 buffers of
/// equal shape they compute the same values, and the channel padding stays zero.
bool IsZeroPreserving(const std::string& type) {
  static const char* const kTypes[] = {"Relu", "Clip", "LeakyRelu", "Elu", "Tanh", "HardSwish", "Gelu",
                                       "Neg", "Abs", "Add", "Sub", "Mul", "Maximum", "Minimum"};
  for (const char* t : kTypes) {
    if (type == t) return true;
  }
  return false;
}

/// A FusedElementwise keeps zero at zero when each instruction does: zero-preserving operations
/// whose immediates cannot move zero (Mul by anything; Add/Sub/Max/Min only with registers).
bool ProgramKeepsZero(const OpDesc& op) {
  using fused::EwOp;
  std::vector<std::string> text;
  std::vector<int64_t> outputs;
  if (!AttrUtils::GetListStr(op, kAttrEwProgram, text) ||
      !AttrUtils::GetListInt(op, kAttrEwOutputRegisters, outputs)) {
    return false;
  }
  auto program = fused::ParseEwProgram(text, outputs, static_cast<int64_t>(op.GetAllInputsSize()));
  if (!program.ok()) return false;
  for (const fused::EwInstruction& ins : program->code) {
    switch (ins.op) {
      case EwOp::kMul:
      case EwOp::kRelu: case EwOp::kTanh: case EwOp::kNeg: case EwOp::kAbs: case EwOp::kHardSwish:
      case EwOp::kGelu: case EwOp::kGeluTanh: case EwOp::kLeakyRelu: case EwOp::kElu:
        break;
      case EwOp::kAdd: case EwOp::kSub: case EwOp::kMax: case EwOp::kMin:
        if (ins.reg[0] < 0 || ins.reg[1] < 0) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/// True when `node` can run on blocked tensors as they are: a zero-preserving elementwise node of
/// this engine whose every data input is blocked with one shape, and whose output has that
/// tensor's logical shape (no broadcasting).
bool CanStayBlocked(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOpEngineName() != kEngineName || op.GetOutputsSize() != 1) return false;
  if (!IsZeroPreserving(op.GetType()) && !(op.GetType() == "FusedElementwise" && ProgramKeepsZero(op))) {
    return false;
  }
  const GeTensorDesc* first = nullptr;
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    const OutDataAnchorPtr peer = in->GetPeerOutAnchor();
    if (op.GetType() == "Clip" && in->GetIdx() > 0) {
      // The bounds: absent, or Const scalars with min <= 0 <= max.
      if (peer == nullptr) continue;
      auto bound = OpDescUtils::GetConstValue(*peer->GetOwnerNodeBarePtr());
      if (!bound.ok() || bound->GetTensorDesc().GetDataType() != DT_FLOAT || bound->GetSize() != sizeof(float)) {
        return false;
      }
      float v = 0;
      std::memcpy(&v, bound->GetData().data(), sizeof(float));
      if (in->GetIdx() == 1 ? v > 0.0F : v < 0.0F) return false;
      continue;
    }
    if (peer == nullptr) return false;
    const GeTensorDesc& d = peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx()));
    if (!IsBlocked(d) || d.GetDataType() != DT_FLOAT) return false;
    if (first != nullptr && (d.GetShape().GetDims() != first->GetShape().GetDims() ||
                             d.GetOriginShape().GetDims() != first->GetOriginShape().GetDims())) {
      return false;
    }
    first = &d;
  }
  return first != nullptr && op.GetOutputDesc(0).GetDataType() == DT_FLOAT &&
         op.GetOutputDesc(0).GetShape().GetDims() == first->GetOriginShape().GetDims();
}

/// How a pooling node of this engine may run on a blocked input.
enum class BlockedPool { kNo, kInOut, kInOnly };

/// MaxPool / AvgPool (2-D, NCHW, float, indices not read) keep a blocked input's layout; the
/// global pools read it and write NCHW [N, C, 1, 1]. Only when the data input is blocked.
BlockedPool PoolOnBlocked(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = op.GetType();
  if (op.GetOpEngineName() != kEngineName || !ReadsBlockedLayout(type) ||
      (type != "MaxPool" && type != "AvgPool" && type != "GlobalAveragePool" &&
       type != "GlobalMaxPool")) {
    return BlockedPool::kNo;
  }
  const auto in = node.GetInDataAnchor(0);
  const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
  if (peer == nullptr) return BlockedPool::kNo;
  const GeTensorDesc& x = peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(
      static_cast<uint32_t>(peer->GetIdx()));
  const GeTensorDesc& y = op.GetOutputDesc(0);
  if (!IsBlocked(x) || x.GetDataType() != DT_FLOAT || y.GetDataType() != DT_FLOAT ||
      y.GetShape().GetDimNum() != 4) {
    return BlockedPool::kNo;
  }
  if (type == "GlobalAveragePool" || type == "GlobalMaxPool") return BlockedPool::kInOnly;
  std::string format = "NCHW";
  AttrUtils::GetStr(op, "data_format", format);
  for (size_t i = 1; i < op.GetOutputsSize(); ++i) {  // MaxPool's indices
    const auto out = node.GetOutDataAnchor(static_cast<int>(i));
    if (out != nullptr && !out->GetPeerInDataAnchors().empty()) return BlockedPool::kNo;
  }
  return format == "NCHW" ? BlockedPool::kInOut : BlockedPool::kNo;
}

/// Inserts a TransData on the edge `out` -> `in` (reusing one made for the same output and
/// direction).
Status Convert(ComputeGraph& graph, const OutDataAnchorPtr& out, const InDataAnchorPtr& in,
               std::unordered_map<const OutDataAnchor*, NodePtr>& made) {
  auto it = made.find(out.get());
  NodePtr trans;
  if (it != made.end()) {
    trans = it->second;
  } else {
    const Node& producer = *out->GetOwnerNodeBarePtr();
    const GeTensorDesc from = producer.GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(out->GetIdx()));
    const bool to_blocked = !IsBlocked(from);
    const GeTensorDesc to = to_blocked ? Blocked(from) : Plain(from);
    auto op = std::make_shared<OpDesc>(producer.GetName() + (to_blocked ? "/to_NC1HWC0" : "/to_NCHW"), "TransData");
    GE_RETURN_IF_ERROR(op->AddInputDesc("x", from));
    GE_RETURN_IF_ERROR(op->AddOutputDesc("y", to));
    AttrUtils::SetStr(op, "src_format", to_blocked ? "NCHW" : "NC1HWC0");
    AttrUtils::SetStr(op, "dst_format", to_blocked ? "NC1HWC0" : "NCHW");
    AttrUtils::SetInt(op, "channels", (to_blocked ? from : to).GetShape().GetDim(1));
    op->SetOpEngineName(kEngineName);
    op->SetOpKernelLibName(kKernelLibName);
    GE_ASSIGN_OR_RETURN(trans, graph.AddNode(op));
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(out, trans->GetInDataAnchor(0)));
    made[out.get()] = trans;
  }
  return GraphUtils::ReplaceEdgeSrc(out, in, trans->GetOutDataAnchor(0));
}

}  // namespace

Status LayoutPlanner::Initialize(const std::map<std::string, std::string>& options) {
  auto it = options.find(kOptCpuLayout);
  const std::string value = it == options.end() ? "blocked" : it->second;
  if (value != "blocked" && value != "plain") {
    return ParamInvalid(std::string(kOptCpuLayout) + " must be 'blocked' or 'plain', got '" + value + "'");
  }
  enabled_ = value == "blocked";
  return Status::Ok();
}

Status LayoutPlanner::GetAttributes(GraphOptimizerAttribute& attrs) const {
  attrs.engineName = kEngineName;
  attrs.scope = ENGINE;
  return Status::Ok();
}

Status LayoutPlanner::OptimizeFusedGraph(ComputeGraph& graph) {
  if (!enabled_ || !AllShapesStatic(graph)) return Status::Ok();
  // Graph outputs keep NCHW at their producers (the model's outputs are read there).
  std::unordered_map<const Node*, bool> graph_output;
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    (void)index;
    graph_output[node.get()] = true;
  }
  // 1. Decide each convolution's layout by asking oneDNN.
  size_t convolutions = 0;
  std::vector<NodePtr> changed;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsCandidate(*node)) continue;
    const OpDesc& op = *node->GetOpDescBarePtr();
    const int64_t c_in = op.GetInputDesc(0).GetShape().GetDim(1);
    const int64_t c_out = op.GetOutputDesc(0).GetShape().GetDim(1);
    std::vector<Choice> tries;
    const bool dst_ok = c_out >= kC0 && graph_output.count(node.get()) == 0;
    if (c_in >= kC0 && dst_ok) tries.push_back({true, true});
    if (dst_ok) tries.push_back({false, true});
    tries.push_back({false, false});
    Choice chosen;
    std::string impl;
    for (const Choice& c : tries) {
      impl = TryLayout(*node, c);
      if (Acceptable(impl)) {
        chosen = c;
        break;
      }
      chosen = c;
      const std::string layout = c.src ? "NC1HWC0" : (c.dst ? "NCHW in, NC1HWC0 out" : "NCHW");
      if (impl.empty()) {
        // Not preparable this way; the plain layout's error, if any, is the runtime's to report.
        KernelLog(1, "node '" + node->GetName() + "' (" + node->GetType() + "): oneDNN has no " +
                         layout + " convolution for it");
      } else if (c.src || c.dst) {
        KernelLog(1, "node '" + node->GetName() + "' (" + node->GetType() + "): " + layout +
                         " gets oneDNN's '" + impl + "'; rerouted to the next layout");
      } else if (IsReferenceImpl(impl)) {
        KernelLog(2, "node '" + node->GetName() + "' (" + node->GetType() + "): only oneDNN's '" + impl +
                         "' takes it, which is correct but slow");
      }
    }
    const OpDescPtr opd = node->GetOpDesc();
    AttrUtils::SetStr(opd, kAttrKernelImpl, impl);
    if (!chosen.src && !chosen.dst) continue;
    ++convolutions;
    if (chosen.src) GE_RETURN_IF_ERROR(opd->UpdateInputDesc(0, Blocked(op.GetInputDesc(0))));
    if (chosen.dst) {
      GE_RETURN_IF_ERROR(opd->UpdateOutputDesc(0, Blocked(op.GetOutputDesc(0))));
      const auto addend = node->GetInDataAnchor(kAddend);
      if (addend != nullptr && addend->GetPeerOutAnchor() != nullptr) {
        GE_RETURN_IF_ERROR(opd->UpdateInputDesc(kAddend, Blocked(op.GetInputDesc(kAddend))));
      }
    }
    changed.push_back(node);
  }
  // 2. Zero-preserving elementwise nodes between blocked tensors stay blocked (a Relu or a
  // residual Add the fusion pass left between two convolutions), and pooling reads them, in
  // topological order.
  size_t pools = 0;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const BlockedPool pool = PoolOnBlocked(*node);
    if (pool != BlockedPool::kNo) {
      const OpDescPtr opd = node->GetOpDesc();
      GE_RETURN_IF_ERROR(opd->UpdateInputDesc(0, Blocked(opd->GetInputDesc(0))));
      if (pool == BlockedPool::kInOut) {
        GE_RETURN_IF_ERROR(opd->UpdateOutputDesc(0, Blocked(opd->GetOutputDesc(0))));
      }
      changed.push_back(node);
      ++pools;
      continue;
    }
    if (!CanStayBlocked(*node)) continue;
    const OpDescPtr opd = node->GetOpDesc();
    const size_t data_inputs = node->GetType() == "Clip" ? 1 : opd->GetAllInputsSize();
    for (size_t i = 0; i < data_inputs; ++i) {
      GE_RETURN_IF_ERROR(opd->UpdateInputDesc(static_cast<uint32_t>(i), Blocked(opd->GetInputDesc(static_cast<uint32_t>(i)))));
    }
    GE_RETURN_IF_ERROR(opd->UpdateOutputDesc(0, Blocked(opd->GetOutputDesc(0))));
    changed.push_back(node);
  }
  // 3. TransData on every edge whose ends now disagree.
  std::unordered_map<const OutDataAnchor*, NodePtr> made;
  std::vector<std::pair<OutDataAnchorPtr, InDataAnchorPtr>> edges;
  for (const NodePtr& node : changed) {
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      if (in->GetPeerOutAnchor() != nullptr) edges.emplace_back(in->GetPeerOutAnchor(), in);
    }
    for (const OutDataAnchorPtr& out : node->GetAllOutDataAnchors()) {
      for (const InDataAnchorPtr& in : out->GetPeerInDataAnchors()) edges.emplace_back(out, in);
    }
  }
  for (const auto& [out, in] : edges) {
    if (in->GetPeerOutAnchor() != out) continue;  // already converted
    const GeTensorDesc& from = out->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(out->GetIdx()));
    const GeTensorDesc& to = in->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx()));
    if (IsBlocked(from) == IsBlocked(to)) continue;
    GE_RETURN_IF_ERROR(Convert(graph, out, in, made));
  }
  if (!changed.empty()) {
    KernelLog(1, "graph '" + graph.GetName() + "': " + std::to_string(convolutions) +
                     " convolutions, " + std::to_string(pools) + " pooling and " +
                     std::to_string(changed.size() - convolutions - pools) +
                     " elementwise nodes in NC1HWC0, " + std::to_string(made.size()) +
                     " TransData inserted");
  }
  return Status::Ok();
}

}  // namespace ge::host_cpu

// The CPU engine's layout planner: see layout_planner.h.
#include "layout_planner.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cpu_options.h"
#include "cpu_traits.h"
#include "ge/graph/anchor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/fused_elementwise.h"
#include "ge/ops/fused_ops.h"
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
  GeTensorDesc out(GeShape({d[0], (d[1] + kC0 - 1) / kC0, d[2], d[3], kC0}), FORMAT_NC1HWC0,
                   DT_FLOAT);
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

/// The smallest output map (14x14) on which Winograd pays.
constexpr int64_t kWinogradMinPixels = 196;  // 14 x 14

/// A dense 3x3 stride-1 undilated 2-D convolution on a map of at least 14x14: where Winograd's
/// F(2x2 or 4x4, 3x3) pays (at 7x7 oneDNN's direct kernels are as fast, measured).
bool WinogradCandidate(const OpDesc& op) {
  if (op.GetType() != "Conv2D") return false;
  int64_t group = 1;
  AttrUtils::GetInt(op, "group", group);
  std::vector<int64_t> strides, dilations, kernel;
  AttrUtils::GetListInt(op, "strides", strides);
  AttrUtils::GetListInt(op, "dilations", dilations);
  const GeShape& w = op.GetInputDesc(1).GetOriginShape().GetDimNum() == 4
                         ? op.GetInputDesc(1).GetOriginShape()
                         : op.GetInputDesc(1).GetShape();
  const GeShape& y = op.GetOutputDesc(0).GetShape().GetDimNum() == 4
                         ? op.GetOutputDesc(0).GetShape()
                         : op.GetOutputDesc(0).GetOriginShape();
  auto all_one = [](const std::vector<int64_t>& v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
  };
  return group == 1 && all_one(strides) && all_one(dilations) && w.GetDimNum() == 4 &&
         w.GetDim(2) == 3 && w.GetDim(3) == 3 && y.GetDimNum() == 4 &&
         y.GetDim(2) * y.GetDim(3) >= kWinogradMinPixels;
}

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
  auto probed = ProbeKernel(node, inputs, outputs, /*pack_weights=*/false);
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
         x.GetShape().GetDimNum() == 4 && y.GetShape().GetDimNum() == 4 &&
         x.GetFormat() != FORMAT_NC1HWC0;
}

/// Elementwise operators (the prototypes' trait) compute over any dims with numpy broadcasting,
/// so on NC1HWC0 operands ([N, C1, H, W, 16], and [N, C1, 1, 1, 16] for a per-channel operand)
/// they compute the logical values. What they compute in the channel padding is zeroed after
/// every run (host_cpu_executor.cc), so any of them may run blocked.
bool IsBroadcastElementwise(const std::string& type) {
  return TraitsOf(type).elementwise != ElementwiseKind::kNone;
}

/// The inputs an elementwise node computes on (the others are parameters, like Clip's bounds).
size_t DataInputs(const OpDesc& op) {
  switch (TraitsOf(op.GetType()).elementwise) {
    case ElementwiseKind::kUnary:
      return 1;
    case ElementwiseKind::kBinary:
      return 2;
    case ElementwiseKind::kVariadic:
    case ElementwiseKind::kNone:
      break;
  }
  return op.GetAllInputsSize();
}

/// The desc a producer gives input `in`, or nullptr when it is not linked.
const GeTensorDesc* PeerDesc(const InDataAnchor& in) {
  const OutDataAnchorPtr peer = in.GetPeerOutAnchor();
  if (peer == nullptr) return nullptr;
  return &peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(
      static_cast<uint32_t>(peer->GetIdx()));
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

/// Which data inputs of an elementwise node to give NC1HWC0 descs so that the node runs blocked,
/// or nullopt when it should not. It does when its output is a static 4-D float [N, C, H, W] and
///  - some input arrives blocked with that same logical shape (the tensor being computed on),
///  - every other input is blocked with C channels, or a scalar (left as it is: it broadcasts
///    the same in five dims), or a plain per-channel operand [N or 1, C, 1, 1] (a TransData makes
///    it blocked; it is small).
std::optional<std::vector<bool>> BlockedElementwiseInputs(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOpEngineName() != kEngineName || op.GetOutputsSize() != 1 ||
      !IsBroadcastElementwise(op.GetType())) {
    return std::nullopt;
  }
  const GeTensorDesc& y = op.GetOutputDesc(0);
  const std::vector<int64_t> out = y.GetShape().GetDims();
  if (y.GetDataType() != DT_FLOAT || out.size() != 4 || y.GetShape().IsUnknownShape()) {
    return std::nullopt;
  }
  const size_t data_inputs = std::min(DataInputs(op), op.GetAllInputsSize());
  std::vector<bool> blocked(op.GetAllInputsSize(), false);
  bool main = false;
  for (size_t i = 0; i < data_inputs; ++i) {
    const InDataAnchorPtr in = node.GetInDataAnchor(static_cast<int>(i));
    const GeTensorDesc* d = in == nullptr ? nullptr : PeerDesc(*in);
    if (d == nullptr) return std::nullopt;
    if (d->GetDataType() != DT_FLOAT) return std::nullopt;
    const std::vector<int64_t> logical =
        IsBlocked(*d) ? d->GetOriginShape().GetDims() : d->GetShape().GetDims();
    if (!IsBlocked(*d) && ElementCount(logical) == 1 && !d->GetShape().IsUnknownShape()) {
      continue;  // a scalar
    }
    if (logical.size() != 4 || logical[1] != out[1]) return std::nullopt;
    for (size_t k : {0U, 2U, 3U}) {
      if (logical[k] != out[k] && logical[k] != 1) return std::nullopt;
    }
    if (IsBlocked(*d)) {
      main = main || logical == out;
    } else if (logical[2] != 1 || logical[3] != 1) {
      return std::nullopt;  // a plain activation: converting it would cost what it saves
    }
    blocked[i] = true;
  }
  if (!main) return std::nullopt;
  return blocked;
}

/// A ConcatV2 (of this engine) or PhonyConcat (of GE Local: pieces written in place) along the
/// channels of 4-D float tensors, each a whole number of 16-channel blocks, with some input
/// already blocked: in NC1HWC0 it concatenates along C1 (axis 1 of five dims).
bool CanConcatBlocked(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const bool phony = op.GetType() == "PhonyConcat";
  if (!phony && (op.GetOpEngineName() != kEngineName || op.GetType() != "ConcatV2")) return false;
  const GeTensorDesc& y = op.GetOutputDesc(0);
  if (y.GetDataType() != DT_FLOAT || y.GetShape().GetDimNum() != 4 ||
      y.GetShape().IsUnknownShape()) {
    return false;
  }
  int64_t axis = 0;
  std::vector<int64_t> dims;
  if (phony) {
    if (!AttrUtils::GetListInt(op, "concat_dim", dims) || dims.size() != 1) return false;
    axis = dims[0];
  } else if (!AttrUtils::GetInt(op, "axis", axis)) {
    return false;
  }
  if (axis != 1 && axis != -3) return false;
  bool any_blocked = false;
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    const GeTensorDesc* d = PeerDesc(*in);
    if (d == nullptr || d->GetDataType() != DT_FLOAT) return false;
    const std::vector<int64_t> logical =
        IsBlocked(*d) ? d->GetOriginShape().GetDims() : d->GetShape().GetDims();
    if (logical.size() != 4 || logical[1] % kC0 != 0) return false;
    any_blocked = any_blocked || IsBlocked(*d);
  }
  return any_blocked;
}

/// A BatchNorm (inference) on 4-D float NCHW whose data input arrives blocked: its kernel reads
/// and writes NC1HWC0 as they are.
bool CanNormalizeBlocked(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOpEngineName() != kEngineName || op.GetType() != "BatchNorm") return false;
  std::string format = "NCHW";
  AttrUtils::GetStr(op, "data_format", format);
  int64_t training = 0;
  AttrUtils::GetInt(op, "training_mode", training);
  const InDataAnchorPtr in = node.GetInDataAnchor(0);
  const GeTensorDesc* d = in == nullptr ? nullptr : PeerDesc(*in);
  for (size_t i = 1; i < op.GetOutputsSize(); ++i) {  // running statistics must not be read
    const auto out = node.GetOutDataAnchor(static_cast<int>(i));
    if (out != nullptr && !out->GetPeerInDataAnchors().empty()) return false;
  }
  return format == "NCHW" && training == 0 && d != nullptr && IsBlocked(*d) &&
         d->GetDataType() == DT_FLOAT && op.GetOutputDesc(0).GetShape().GetDimNum() == 4;
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
  if (type == "GlobalAveragePool" || type == "GlobalMaxPool") {
    // [N, C, 1, 1] stays blocked for readers that take it so: the convolutions and the
    // per-channel products of a squeeze-and-excite block. Others (a Flatten before the
    // classifier, the graph's output) read NCHW.
    const auto out = node.GetOutDataAnchor(0);
    if (out == nullptr) return BlockedPool::kInOnly;
    bool blocked_readers = !out->GetPeerInDataAnchors().empty();
    for (const InDataAnchorPtr& reader : out->GetPeerInDataAnchors()) {
      const Node& r = *reader->GetOwnerNodeBarePtr();
      blocked_readers =
          blocked_readers && (r.GetType() == "Conv2D" || IsBroadcastElementwise(r.GetType()));
    }
    return blocked_readers ? BlockedPool::kInOut : BlockedPool::kInOnly;
  }
  std::string format = "NCHW";
  AttrUtils::GetStr(op, "data_format", format);
  for (size_t i = 1; i < op.GetOutputsSize(); ++i) {  // MaxPool's indices
    const auto out = node.GetOutDataAnchor(static_cast<int>(i));
    if (out != nullptr && !out->GetPeerInDataAnchors().empty()) return BlockedPool::kNo;
  }
  return format == "NCHW" ? BlockedPool::kInOut : BlockedPool::kNo;
}

/// What step 1 decides for a convolution, and the log lines that say why.
struct Decision {
  Choice chosen;
  std::string impl;
  bool winograd = false;
  std::vector<std::pair<int, std::string>> logs;
};

/// The layout of `node`'s convolution: the first of its candidate layouts whose kernel is neither
/// a reference nor a gemm one, else the plain one. `dst_ok` is false for a graph output. Reads
/// only the node and its Consts; while it asks for Winograd the node carries kAttrConvAlgorithm,
/// which it leaves unset.
Decision Decide(Node& node, bool dst_ok, bool winograd) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  // Fewer than 16 channels are worth blocking only on 1x1 maps (squeeze-and-excite), where
  // the padding costs nothing and a conversion would cost a call.
  const GeShape& in_shape = op.GetInputDesc(0).GetShape();
  const GeShape& out_shape = op.GetOutputDesc(0).GetShape();
  const bool src_ok = in_shape.GetDim(1) >= kC0 || in_shape.GetDim(2) * in_shape.GetDim(3) == 1;
  dst_ok = dst_ok && (out_shape.GetDim(1) >= kC0 || out_shape.GetDim(2) * out_shape.GetDim(3) == 1);
  std::vector<Choice> tries;
  if (src_ok && dst_ok) tries.push_back({true, true});
  if (dst_ok) tries.push_back({false, true});
  if (src_ok && !dst_ok) tries.push_back({true, false});  // a final output
  tries.push_back({false, false});
  Decision d;
  const std::string who = "node '" + node.GetName() + "' (" + node.GetType() + "): ";
  for (const Choice& c : tries) {
    d.impl = TryLayout(node, c);
    d.chosen = c;
    if (Acceptable(d.impl)) break;
    const std::string layout = c.src && c.dst ? "NC1HWC0"
                               : c.src        ? "NC1HWC0 in, NCHW out"
                               : c.dst        ? "NCHW in, NC1HWC0 out"
                                              : "NCHW";
    if (d.impl.empty()) {
      // Not preparable this way; the plain layout's error, if any, is the runtime's to report.
      d.logs.emplace_back(1, who + "oneDNN has no " + layout + " convolution for it");
    } else if (c.src || c.dst) {
      d.logs.emplace_back(
          1, who + layout + " gets oneDNN's '" + d.impl + "'; rerouted to the next layout");
    } else if (IsReferenceImpl(d.impl)) {
      d.logs.emplace_back(
          2, who + "only oneDNN's '" + d.impl + "' takes it, which is correct but slow");
    }
  }
  if (winograd && d.chosen.src && d.chosen.dst && WinogradCandidate(op)) {
    const OpDescPtr opd = node.GetOpDesc();
    AttrUtils::SetStr(opd, kAttrConvAlgorithm, "winograd");
    const std::string wino = TryLayout(node, d.chosen);
    opd->DelAttr(kAttrConvAlgorithm);
    if (wino.find("wino") != std::string::npos && Acceptable(wino)) {
      d.impl = wino;
      d.winograd = true;
    }
  }
  return d;
}

/// Calls `work(i)` for every i < n, spread over this thread and one more per further core; the
/// first exception thrown is returned as an error once every call has ended. `work(0)` runs
/// alone, before the other threads start: oneDNN makes its process-wide state (the primitive
/// cache and its lock) on first use, without synchronization a thread sanitizer can see.
Status OnEveryCore(size_t n, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  Status first = Status::Ok();
  auto run = [&](size_t last) {
    for (size_t i = next++; i < last; i = next++) {
      Status status = CatchExceptions("planning a layout", [&] {
        work(i);
        return Status::Ok();
      });
      if (!status.ok()) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (first.ok()) first = std::move(status);
      }
    }
  };
  run(std::min<size_t>(n, 1));
  next = 1;
  const size_t cores = std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < std::min(cores, n); ++t) helpers.emplace_back(run, n);
  run(n);
  for (std::thread& t : helpers) t.join();
  return first;
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
    const GeTensorDesc from =
        producer.GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(out->GetIdx()));
    const bool to_blocked = !IsBlocked(from);
    const GeTensorDesc to = to_blocked ? Blocked(from) : Plain(from);
    // Named after the producer, and its output when it has several (a Split's halves).
    std::string name = producer.GetName();
    if (out->GetIdx() > 0) name += ":" + std::to_string(out->GetIdx());
    auto op =
        std::make_shared<OpDesc>(name + (to_blocked ? "/to_NC1HWC0" : "/to_NCHW"), "TransData");
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
  // The host checked the values against CpuEngineOptions().
  enabled_ = EngineOptionValue(CpuLayoutOption(), options) == "blocked";
  winograd_ = EngineOptionValue(CpuConvAlgorithmOption(), options) == "auto";
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
  // 1. Decide each convolution's layout by asking oneDNN. A decision reads only its own node
  // (and the Consts it reads), so the cores take the convolutions between them (each probe makes
  // a oneDNN primitive, JIT-compiled code: most of the planner's time); the decisions are then
  // applied, and logged, in the graph's order.
  std::vector<NodePtr> convs;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (IsCandidate(*node)) convs.push_back(node);
  }
  std::vector<Decision> decisions(convs.size());
  GE_RETURN_IF_ERROR(OnEveryCore(convs.size(), [&](size_t i) {
    decisions[i] = Decide(*convs[i], graph_output.count(convs[i].get()) == 0, winograd_);
  }));
  size_t convolutions = 0;
  std::vector<NodePtr> changed;
  for (size_t i = 0; i < convs.size(); ++i) {
    const NodePtr& node = convs[i];
    const Decision& d = decisions[i];
    for (const auto& [level, message] : d.logs) KernelLog(level, message);
    const OpDescPtr opd = node->GetOpDesc();
    if (d.winograd) AttrUtils::SetStr(opd, kAttrConvAlgorithm, "winograd");
    AttrUtils::SetStr(opd, kAttrKernelImpl, d.impl);
    const Choice chosen = d.chosen;
    if (!chosen.src && !chosen.dst) continue;
    ++convolutions;
    const OpDesc& op = *opd;
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
    const OpDescPtr opd = node->GetOpDesc();
    if (CanConcatBlocked(*node) || CanNormalizeBlocked(*node)) {
      const size_t inputs = node->GetType() == "BatchNorm" ? 1 : opd->GetAllInputsSize();
      for (size_t i = 0; i < inputs; ++i) {
        const auto index = static_cast<uint32_t>(i);
        GE_RETURN_IF_ERROR(opd->UpdateInputDesc(index, Blocked(opd->GetInputDesc(index))));
      }
      GE_RETURN_IF_ERROR(opd->UpdateOutputDesc(0, Blocked(opd->GetOutputDesc(0))));
      // Axis 1 of NC1HWC0's dims.
      if (node->GetType() == "ConcatV2") AttrUtils::SetInt(opd, "axis", 1);
      if (node->GetType() == "PhonyConcat")
        AttrUtils::SetListInt(opd, "concat_dim", std::vector<int64_t>{1});
      changed.push_back(node);
      continue;
    }
    const std::optional<std::vector<bool>> inputs = BlockedElementwiseInputs(*node);
    if (!inputs) continue;
    for (size_t i = 0; i < inputs->size(); ++i) {
      if (!(*inputs)[i]) continue;
      const auto index = static_cast<uint32_t>(i);
      GE_RETURN_IF_ERROR(opd->UpdateInputDesc(index, Blocked(opd->GetInputDesc(index))));
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
    const GeTensorDesc& from = out->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(
        static_cast<uint32_t>(out->GetIdx()));
    const GeTensorDesc& to = in->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetInputDesc(
        static_cast<uint32_t>(in->GetIdx()));
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

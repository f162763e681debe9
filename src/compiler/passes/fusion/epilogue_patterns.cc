// Epilogue fusion: a producer absorbs the chain of nodes after it, each the only reader of the
// one before, into its oneDNN primitive:
//
//   producer   Conv2D, Conv, Conv3D, DepthwiseConv2D, MatMulV2, BatchMatMulV2, Gemm
//   + BatchNorm (convolutions with a Const filter, inference mode, Const statistics) folded into
//              new Const weights and bias: w' = w * s, b' = (b - mean) * s + offset per output
//              channel, s = scale / sqrt(variance + epsilon)
//   + bias     (matrix products without one) an Add of a row [.., N]: the bias input
//   + residual an Add of a tensor of the output's shape: input 3 "addend", post-op "Sum"
//              (first, or right after the bias: where oneDNN's sum post-op goes)
//   + activations, each a post-op (_fused_post_ops); Swish (SiLU) is the pair x * Sigmoid(x),
//              the only two readers of x
//
// And the scale of a squeeze-and-excite block moves into the 1x1 convolution after it:
//   Conv1x1(x * s, W) = Conv1x1(x, W * s)  for s [1, C, 1, 1] over x [1, C, H, W]
// so that the small filter is scaled (per input channel) instead of the large activation,
// where the map has at least as many positions as the convolution has output channels.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "fusion_pattern.h"
#include "ge/compiler/graph_edit.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge::fusion {
namespace {

bool IsConvolution(const std::string& type) {
  return type == "Conv2D" || type == "Conv" || type == "Conv3D" || type == "DepthwiseConv2D";
}

/// The post-op an activation node becomes, or nullopt when it cannot be one.
std::optional<std::string> PostOpOf(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = node.GetType();
  if (op.GetOutputsSize() != 1 || op.GetOutputDesc(0).GetDataType() != DT_FLOAT)
    return std::nullopt;
  float alpha = 0;
  if (type == "Relu" || type == "Sigmoid" || type == "Tanh" || type == "HardSwish") return type;
  if (type == "Relu6") return std::string("Clip:0:6");
  if (type == "HardSigmoid") {
    float beta = 0.5F;
    if (!AttrUtils::GetFloat(op, "alpha", alpha)) alpha = 0.2F;
    AttrUtils::GetFloat(op, "beta", beta);
    return "HardSigmoid:" + FormatFloat(alpha) + ":" + FormatFloat(beta);
  }
  if (type == "LeakyRelu") {
    if (!AttrUtils::GetFloat(op, "alpha", alpha)) alpha = 0.01F;
    return "LeakyRelu:" + FormatFloat(alpha);
  }
  if (type == "Elu") {
    if (!AttrUtils::GetFloat(op, "alpha", alpha)) alpha = 1.0F;
    return "Elu:" + FormatFloat(alpha);
  }
  if (type == "Gelu") {
    std::string approximate = "none";
    AttrUtils::GetStr(op, "approximate", approximate);
    return std::string(approximate == "tanh" ? "GeluTanh" : "Gelu");
  }
  if (type == "Clip") {
    // Bounds must be Const scalars (absent: unbounded on that side).
    float lo = -std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::max();
    for (int i : {1, 2}) {
      if (Producer(node, i) == nullptr) continue;
      const std::optional<float> v = ConstScalar(node, i);
      if (!v) return std::nullopt;
      (i == 1 ? lo : hi) = *v;
    }
    return "Clip:" + FormatFloat(lo) + ":" + FormatFloat(hi);
  }
  return std::nullopt;
}

/// The same shape for every size of the dims known only at run time (their expressions equal).
bool SameDims(const GeTensorDesc& a, const GeTensorDesc& b) { return SameSymbolicShape(a, b); }

/// One node a producer absorbs: a bias Add (into the bias input), a residual Add (into the
/// addend input, post-op "Sum"), or an activation (a post-op).
struct Step {
  enum Kind { kBatchNorm, kBias, kSum, kActivation } kind = kActivation;
  NodePtr node;
  int chain_input = 0;  ///< which input of `node` the chain comes in by
  Port other;           ///< the Add's other operand (kBias, kSum)
  std::string post_op;  ///< kSum: "Sum"; kActivation: the spec
  NodePtr gate;         ///< Swish: the Sigmoid whose output `node` (the Mul) multiplies in
};

/// x * Sigmoid(x) after `current`: its output read by exactly a Sigmoid and a Mul, the Sigmoid
/// read by that Mul alone. The Swish step (the Mul, with the Sigmoid as its gate), or nullopt.
std::optional<Step> SwishAfter(const NodePtr& current) {
  const OpDesc& op = *current->GetOpDescBarePtr();
  const OutDataAnchorPtr out = current->GetOutDataAnchor(0);
  if (out == nullptr || op.GetOutputsSize() != 1) return std::nullopt;
  const auto peers = out->GetPeerInDataAnchors();
  if (peers.size() != 2) return std::nullopt;
  for (int s = 0; s < 2; ++s) {
    const NodePtr sigmoid = peers[static_cast<size_t>(s)]->GetOwnerNode();
    const NodePtr mul = peers[static_cast<size_t>(1 - s)]->GetOwnerNode();
    if (sigmoid->GetType() != "Sigmoid" || mul->GetType() != "Mul" || SoleReader(*sigmoid) != mul) {
      continue;
    }
    const int side = Producer(*mul, 0) == current ? 0 : (Producer(*mul, 1) == current ? 1 : -1);
    if (side < 0 || Producer(*mul, 1 - side) != sigmoid ||
        !SameDims(mul->GetOpDescBarePtr()->GetOutputDesc(0), op.GetOutputDesc(0)) ||
        mul->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType() != DT_FLOAT) {
      return std::nullopt;
    }
    Step step;
    step.node = mul;
    step.chain_input = side;
    step.post_op = "Swish";
    step.gate = sigmoid;
    return step;
  }
  return std::nullopt;
}

bool IsMatrixProduct(const std::string& type) {
  return type == "MatMulV2" || type == "BatchMatMulV2" || type == "Gemm";
}

int BiasInputOf(const std::string& type) { return IsMatrixProduct(type) ? 2 : -1; }
constexpr int kAddendInput = 3;

/// True when `bias` broadcasts along the last dim of `out` only: [N], [1, N], [1, 1, N] ...
bool IsRowBias(const GeTensorDesc& bias, const GeTensorDesc& out) {
  const std::vector<int64_t> b = bias.GetShape().GetDims();
  const std::vector<int64_t> o = out.GetShape().GetDims();
  if (bias.GetShape().IsUnknownShape() || b.empty() || b.size() > o.size() || o.empty())
    return false;
  if (b.back() != o.back() || b.back() < 0) return false;
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    if (b[i] != 1) return false;
  }
  return true;
}

/// The float values of a Const, or nullopt.
std::optional<std::vector<float>> ConstFloats(const NodePtr& node) {
  if (node == nullptr) return std::nullopt;
  auto value = OpDescUtils::GetConstValue(*node);
  if (!value.ok() || value->GetTensorDesc().GetDataType() != DT_FLOAT) return std::nullopt;
  std::vector<float> v(value->GetSize() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), value->GetData().data(), v.size() * sizeof(float));
  return v;
}

/// A BatchNorm in inference mode right after a convolution whose filter (and bias, if any) are
/// Consts, with Const statistics of one value per output channel and no reader of its running
/// statistics: it can be folded into the convolution's weights.
bool CanFoldBatchNorm(const Node& conv, const Node& bn) {
  const OpDesc& op = *bn.GetOpDescBarePtr();
  int64_t training = 0;
  AttrUtils::GetInt(op, "training_mode", training);
  std::string format = "NCHW";
  AttrUtils::GetStr(op, "data_format", format);
  if (training != 0 || format != "NCHW" || Producer(bn, 0).get() != &conv) return false;
  if (ReaderCount(bn, 1) != 0 || ReaderCount(bn, 2) != 0) return false;
  const GeShape& filter = conv.GetOpDescBarePtr()->GetInputDesc(1).GetShape();
  if (filter.IsUnknownShape() || filter.GetDimNum() < 3) return false;
  const auto channels = static_cast<size_t>(filter.GetDim(0));
  const auto weights = ConstFloats(Producer(conv, 1));
  if (!weights || weights->size() != static_cast<size_t>(filter.GetShapeSize())) return false;
  if (Producer(conv, 2) != nullptr) {
    const auto bias = ConstFloats(Producer(conv, 2));
    if (!bias || bias->size() != channels) return false;
  }
  for (int i = 1; i <= 4; ++i) {
    const auto v = ConstFloats(Producer(bn, i));
    if (!v || v->size() != channels) return false;
  }
  return true;
}

/// The chain step `next` would be after `current`, or nullopt. `steps` are those taken so far.
std::optional<Step> NextStep(const Node& producer, const NodePtr& current, const NodePtr& next,
                             const std::vector<Step>& steps) {
  const OpDesc& pop = *producer.GetOpDescBarePtr();
  const GeTensorDesc& out = current->GetOpDescBarePtr()->GetOutputDesc(0);
  if (next->GetType() == "BatchNorm") {
    if (!steps.empty() || !IsConvolution(producer.GetType()) ||
        !CanFoldBatchNorm(producer, *next)) {
      return std::nullopt;
    }
    Step step;
    step.kind = Step::kBatchNorm;
    step.node = next;
    return step;
  }
  if (next->GetType() == "Add" &&
      next->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType() == DT_FLOAT) {
    const int side = Producer(*next, 0) == current ? 0 : (Producer(*next, 1) == current ? 1 : -1);
    if (side < 0) return std::nullopt;
    const NodePtr other = Producer(*next, 1 - side);
    if (other == nullptr) return std::nullopt;
    const int other_index = next->GetInDataAnchor(1 - side)->GetPeerOutAnchor()->GetIdx();
    const GeTensorDesc& other_desc =
        next->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(1 - side));
    // The Add must not broadcast the product up.
    if (!SameDims(next->GetOpDescBarePtr()->GetOutputDesc(0), out)) return std::nullopt;
    if (other_desc.GetDataType() != DT_FLOAT) return std::nullopt;
    Step step;
    step.node = next;
    step.chain_input = side;
    step.other = {other, other_index};
    const bool nothing_yet = steps.empty();
    if (SameDims(other_desc, out)) {
      // A residual: only first (or right after a bias or a folded BatchNorm), where oneDNN's sum
      // post-op goes.
      const bool after_bias_only = std::all_of(steps.begin(), steps.end(), [](const Step& s) {
        return s.kind == Step::kBias || s.kind == Step::kBatchNorm;
      });
      if (!after_bias_only) return std::nullopt;
      step.kind = Step::kSum;
      step.post_op = "Sum";
      return step;
    }
    const int bias_input = BiasInputOf(producer.GetType());
    if (nothing_yet && bias_input >= 0 && Producer(producer, bias_input) == nullptr &&
        IsRowBias(other_desc, out)) {
      float alpha = 1.0F, beta = 1.0F;
      AttrUtils::GetFloat(pop, "alpha", alpha);
      AttrUtils::GetFloat(pop, "beta", beta);
      if (producer.GetType() == "Gemm" && (alpha != 1.0F || beta != 1.0F)) return std::nullopt;
      step.kind = Step::kBias;
      return step;
    }
    return std::nullopt;
  }
  if (Producer(*next, 0) != current) return std::nullopt;
  std::optional<std::string> post_op = PostOpOf(*next);
  if (!post_op) return std::nullopt;
  // Gemm's alpha/beta run after the product, so post-ops would come too early.
  if (producer.GetType() == "Gemm") {
    float alpha = 1.0F, beta = 1.0F;
    AttrUtils::GetFloat(pop, "alpha", alpha);
    AttrUtils::GetFloat(pop, "beta", beta);
    if (alpha != 1.0F || beta != 1.0F) return std::nullopt;
  }
  Step step;
  step.node = next;
  step.post_op = *post_op;
  return step;
}

/// The name of optional input `index` of a producer: its prototype's, when the OpDesc carries
/// the IR inputs, else the built-in vocabulary's (bias / c, addend).
std::string OptionalInputName(const OpDesc& op, size_t index) {
  const auto& ir = op.GetIrInputs();
  if (index < ir.size()) return ir[index].first;
  if (index == 2) return op.GetType() == "Gemm" ? "c" : "bias";
  return "addend";
}

/// Gives `node` input slots up to `index` (absent optional inputs until one is linked).
Status EnsureInputSlot(const NodePtr& node, int index) {
  const OpDescPtr op = node->GetOpDesc();
  while (static_cast<int>(op->GetAllInputsSize()) <= index) {
    const size_t k = op->GetAllInputsSize();
    if (k < 2) return InternalError("'" + node->GetName() + "' has fewer than two inputs");
    GE_RETURN_IF_ERROR(op->AddOptionalInputDesc(OptionalInputName(*op, k), GeTensorDesc()));
  }
  return node->UpdateAnchorsFromOpDesc();
}

/// Replaces the convolution's filter and bias by Consts with the BatchNorm folded in, and removes
/// the BatchNorm; the old filter, bias and statistics are left to DeadCodeElimination.
Status FoldBatchNorm(ComputeGraph& graph, const NodePtr& conv, const NodePtr& bn) {
  const OpDesc& bop = *bn->GetOpDescBarePtr();
  float epsilon = 1e-5F;
  AttrUtils::GetFloat(bop, "epsilon", epsilon);
  const auto w = ConstFloats(Producer(*conv, 1));
  const auto scale = ConstFloats(Producer(*bn, 1));
  const auto offset = ConstFloats(Producer(*bn, 2));
  const auto mean = ConstFloats(Producer(*bn, 3));
  const auto var = ConstFloats(Producer(*bn, 4));
  if (!w || !scale || !offset || !mean || !var)
    return InternalError("the BatchNorm's inputs changed");
  const size_t channels = scale->size();
  std::vector<float> b(channels, 0.0F);
  if (Producer(*conv, 2) != nullptr) {
    const auto old = ConstFloats(Producer(*conv, 2));
    if (!old || old->size() != channels) return InternalError("the convolution's bias changed");
    b = *old;
  }
  std::vector<float> w2(*w);
  const size_t per_channel = w2.size() / channels;
  for (size_t c = 0; c < channels; ++c) {
    const double s =
        static_cast<double>((*scale)[c]) / std::sqrt(static_cast<double>((*var)[c]) + epsilon);
    for (size_t k = 0; k < per_channel; ++k) {
      w2[c * per_channel + k] = static_cast<float>((*w)[c * per_channel + k] * s);
    }
    b[c] = static_cast<float>((static_cast<double>(b[c]) - (*mean)[c]) * s + (*offset)[c]);
  }
  const OpDescPtr op = conv->GetOpDesc();
  auto make_const = [&](const std::string& suffix, const GeShape& shape, Format format,
                        const std::vector<float>& values) -> Result<NodePtr> {
    GeTensorDesc desc(shape, format, DT_FLOAT);
    desc.SetOriginShape(shape);
    GeTensor value(desc, reinterpret_cast<const uint8_t*>(values.data()),
                   values.size() * sizeof(float));
    return graph.AddNode(
        OpDescUtils::CreateConstOp(passes::UniqueNodeName(graph, conv->GetName() + suffix), value));
  };
  GE_RETURN_IF_ERROR(EnsureInputSlot(conv, 2));
  const GeTensorDesc& filter = op->GetInputDesc(1);
  GE_ASSIGN_OR_RETURN(NodePtr new_w,
                      make_const("/folded_filter", filter.GetShape(), filter.GetFormat(), w2));
  GE_ASSIGN_OR_RETURN(
      NodePtr new_b,
      make_const("/folded_bias", GeShape({static_cast<int64_t>(channels)}), FORMAT_ND, b));
  for (const auto& [index, node] : {std::pair<int, NodePtr>{1, new_w}, {2, new_b}}) {
    const InDataAnchorPtr in = conv->GetInDataAnchor(index);
    if (in->GetPeerOutAnchor() != nullptr)
      GE_RETURN_IF_ERROR(GraphUtils::RemoveEdge(in->GetPeerOutAnchor(), in));
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(node->GetOutDataAnchor(0), in));
    GE_RETURN_IF_ERROR(op->UpdateInputDesc(static_cast<uint32_t>(index),
                                           node->GetOpDescBarePtr()->GetOutputDesc(0)));
  }
  return passes::BypassNode(graph, bn, {0});
}

/// The producer's OpDesc as it will be after the steps (post-ops and extra inputs).
OpDescPtr FusedDesc(const Node& producer, const std::vector<Step>& steps) {
  auto fused = std::make_shared<OpDesc>(*producer.GetOpDescBarePtr());
  std::vector<std::string> ops;
  AttrUtils::GetListStr(fused, kAttrFusedPostOps, ops);
  for (const Step& s : steps) {
    if (s.kind == Step::kSum || s.kind == Step::kActivation) ops.push_back(s.post_op);
  }
  if (!ops.empty()) AttrUtils::SetListStr(fused, kAttrFusedPostOps, ops);
  return fused;
}

/// Absorbs the steps into the producer one by one, so that a failure part way leaves a valid
/// graph that computes the same (what is absorbed so far is in the producer, the rest are nodes).
Status AbsorbChain(ComputeGraph& graph, const NodePtr& producer, const std::vector<Step>& steps) {
  const OpDescPtr op = producer->GetOpDesc();
  std::vector<std::string> ops, from;
  AttrUtils::GetListStr(op, kAttrFusedPostOps, ops);
  AttrUtils::GetListStr(op, kAttrFusedFrom, from);
  if (from.empty()) from.push_back(producer->GetName());
  std::string pattern = producer->GetType();
  AttrUtils::GetStr(op, kAttrFusedPattern, pattern);
  for (const Step& step : steps) {
    const NodePtr& absorbed = step.node;
    // The fused output is the absorbed node's: its desc (name included) moves to the producer.
    const GeTensorDesc out = absorbed->GetOpDescBarePtr()->GetOutputDesc(0);
    const std::string name = absorbed->GetName();
    const std::string type = absorbed->GetType();
    // An absorbed node that was itself fused stands for its originals.
    std::vector<std::string> originals;
    AttrUtils::GetListStr(absorbed->GetOpDesc(), kAttrFusedFrom, originals);
    if (originals.empty()) originals.push_back(name);
    if (step.kind == Step::kBatchNorm) {
      GE_RETURN_IF_ERROR(FoldBatchNorm(graph, producer, absorbed));
    } else if (step.kind != Step::kActivation) {
      const int slot = step.kind == Step::kBias ? BiasInputOf(producer->GetType()) : kAddendInput;
      GE_RETURN_IF_ERROR(EnsureInputSlot(producer, slot));
      const GeTensorDesc other =
          absorbed->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(1 - step.chain_input));
      // The operand as linked now: an earlier rewrite may have replaced its producer.
      const InDataAnchorPtr other_in = absorbed->GetInDataAnchor(1 - step.chain_input);
      const OutDataAnchorPtr source = other_in->GetPeerOutAnchor();
      if (source == nullptr) return InternalError("'" + name + "' lost its operand");
      GE_RETURN_IF_ERROR(GraphUtils::RemoveEdge(source, other_in));
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, absorbed, {step.chain_input}));
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(source, producer->GetInDataAnchor(slot)));
      GE_RETURN_IF_ERROR(op->UpdateInputDesc(static_cast<uint32_t>(slot), other));
    } else if (step.gate != nullptr) {
      // Swish: the Mul passes the chain on; its Sigmoid, read by nothing else, goes too.
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, absorbed, {step.chain_input}));
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, step.gate, {0}));
      from.push_back(step.gate->GetName());
    } else {
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, absorbed, {0}));
    }
    GE_RETURN_IF_ERROR(op->UpdateOutputDesc(0, out));
    if (step.kind == Step::kSum || step.kind == Step::kActivation) ops.push_back(step.post_op);
    from.insert(from.end(), originals.begin(), originals.end());
    pattern += "+" + std::string(step.kind == Step::kBias ? "Bias" : step.gate ? "Swish" : type);
    if (!ops.empty()) AttrUtils::SetListStr(op, kAttrFusedPostOps, ops);
    AttrUtils::SetListStr(op, kAttrFusedFrom, from);
    AttrUtils::SetStr(op, kAttrFusedPattern, pattern);
  }
  return Status::Ok();
}

/// A convolution or matrix product + BatchNorm + bias + residual + the activations after it.
std::vector<Candidate> ProducerChains(ComputeGraph& graph, Env& env) {
  const int64_t cap = env.max_group_nodes();
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsConvolution(node->GetType()) && !IsMatrixProduct(node->GetType())) continue;
    const OpDesc& pop = *node->GetOpDescBarePtr();
    if (pop.GetOutputDesc(0).GetDataType() != DT_FLOAT) continue;
    if (Producer(*node, kAddendInput) != nullptr) continue;  // already holds a residual
    std::vector<std::string> existing;
    AttrUtils::GetListStr(pop, kAttrFusedPostOps, existing);
    std::vector<Step> steps;
    NodePtr current = node;
    bool cut = false;
    while (true) {
      std::optional<Step> step = SwishAfter(current);
      NodePtr next = step ? step->node : SoleReader(*current);
      if (next == nullptr || passes::IsGraphBoundary(*next)) break;
      if (!step) step = NextStep(*node, current, next, steps);
      if (!step) break;
      if (step->gate != nullptr && node->GetType() == "Gemm") break;    // alpha/beta come later
      if (step->kind != Step::kActivation && !existing.empty()) break;  // Sum must come first
      if (static_cast<int64_t>(steps.size()) + 1 >= cap) {
        cut = true;
        break;
      }
      steps.push_back(std::move(*step));
      current = next;
    }
    if (steps.empty()) continue;
    if (cut) env.Count("groups cut at openge.fusionMaxGroupNodes");
    Candidate c;
    c.pattern = node->GetType();
    c.nodes.push_back(node);
    for (const Step& s : steps) {
      if (s.gate != nullptr) c.nodes.push_back(s.gate);
      c.nodes.push_back(s.node);
      c.pattern += "+" + std::string(s.kind == Step::kBias ? "Bias"
                                     : s.gate              ? "Swish"
                                                           : s.node->GetType());
    }
    c.bytes_before = GroupTraffic(c.nodes);
    // Fused: the producer's inputs and the Adds' other operands in, the last node's output out.
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      if (in->GetPeerOutAnchor() != nullptr)
        c.bytes_after += Bytes(pop.GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
    }
    for (const Step& s : steps) {
      if (s.kind == Step::kBias || s.kind == Step::kSum) {
        c.bytes_after += Bytes(
            s.node->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(1 - s.chain_input)));
      }
    }
    c.bytes_after += Bytes(c.nodes.back()->GetOpDescBarePtr()->GetOutputDesc(0));
    c.fused = FusedDesc(*node, steps);
    c.free_when_no_worse = true;
    c.rewrite = [node, steps](ComputeGraph& g) { return AbsorbChain(g, node, steps); };
    out.push_back(std::move(c));
  }
  return out;
}

/// A 1x1 stride-1 unpadded dense Conv2D of a Const filter, reading `x * s` from a Mul whose only
/// reader it is, s [1, C, 1, 1] broadcast over x [1, C, H, W] with H * W >= the output
/// channels: the Mul moves onto the filter, [O, C, 1, 1] * [1, C, 1, 1].
std::vector<Candidate> ScaledInputs(ComputeGraph& graph, Env&) {
  std::vector<Candidate> out;
  for (const NodePtr& mul : graph.GetDirectNode()) {
    if (mul->GetType() != "Mul") continue;
    const NodePtr conv = SoleReader(*mul);
    if (conv == nullptr || conv->GetType() != "Conv2D" || Producer(*conv, 0) != mul) continue;
    const OpDesc& cop = *conv->GetOpDescBarePtr();
    int64_t group = 1;
    AttrUtils::GetInt(cop, "group", group);
    std::vector<int64_t> strides, pads;
    AttrUtils::GetListInt(cop, "strides", strides);
    AttrUtils::GetListInt(cop, "pads", pads);
    std::string format = "NCHW", auto_pad = "NOTSET";
    AttrUtils::GetStr(cop, "data_format", format);
    AttrUtils::GetStr(cop, "auto_pad", auto_pad);
    const NodePtr filter = Producer(*conv, 1);
    const GeShape& w = cop.GetInputDesc(1).GetShape();
    if (group != 1 || format != "NCHW" || (auto_pad != "NOTSET" && auto_pad != "VALID") ||
        filter == nullptr || !passes::IsConstNode(*filter) || w.GetDimNum() != 4 ||
        w.GetDim(2) != 1 || w.GetDim(3) != 1 ||
        std::any_of(strides.begin(), strides.end(), [](int64_t v) { return v != 1; }) ||
        std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v != 0; })) {
      continue;
    }
    const GeTensorDesc& y = mul->GetOpDescBarePtr()->GetOutputDesc(0);
    for (int side = 0; side < 2; ++side) {
      const GeTensorDesc& x = mul->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(side));
      const GeTensorDesc& s =
          mul->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(1 - side));
      const std::vector<int64_t> xd = x.GetShape().GetDims(), sd = s.GetShape().GetDims();
      if (x.GetShape().IsUnknownShape() || s.GetShape().IsUnknownShape() || xd.size() != 4 ||
          sd.size() != 4 || xd[0] != 1 || sd != std::vector<int64_t>{1, xd[1], 1, 1} ||
          y.GetShape().GetDims() != xd || x.GetDataType() != DT_FLOAT ||
          s.GetDataType() != DT_FLOAT || xd[2] * xd[3] < w.GetDim(0)) {
        continue;
      }
      Candidate c;
      c.pattern = "ScaledInput+Conv2D";
      c.nodes = {mul, conv};
      // Now: the Mul reads x and s and writes x * s, the convolution reads it. Then: a Mul
      // reads the filter and s and writes the scaled filter, the convolution reads x.
      c.bytes_before = 3 * Bytes(x) + Bytes(s);
      c.bytes_after = Bytes(x) + 2 * Bytes(cop.GetInputDesc(1)) + Bytes(s);
      c.free_when_no_worse = true;
      const int x_side = side;
      c.rewrite = [mul, conv, filter, x_side](ComputeGraph& g) -> Status {
        const OutDataAnchorPtr x_out = mul->GetInDataAnchor(x_side)->GetPeerOutAnchor();
        const InDataAnchorPtr filter_in = conv->GetInDataAnchor(1);
        const OutDataAnchorPtr w_out = filter_in->GetPeerOutAnchor();
        if (x_out == nullptr || w_out == nullptr)
          return InternalError("the scaled input lost an operand");
        // The Mul now scales the filter: its x operand becomes W, its output feeds input 1.
        const GeTensorDesc w_desc = conv->GetOpDescBarePtr()->GetInputDesc(1);
        GE_RETURN_IF_ERROR(
            GraphUtils::ReplaceEdgeSrc(mul->GetOutDataAnchor(0), conv->GetInDataAnchor(0), x_out));
        GE_RETURN_IF_ERROR(GraphUtils::RemoveEdge(w_out, filter_in));
        GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(x_out, mul->GetInDataAnchor(x_side), w_out));
        GE_RETURN_IF_ERROR(GraphUtils::AddEdge(mul->GetOutDataAnchor(0), filter_in));
        const OpDescPtr mop = mul->GetOpDesc();
        GE_RETURN_IF_ERROR(mop->UpdateInputDesc(static_cast<uint32_t>(x_side), w_desc));
        GeTensorDesc scaled = w_desc;
        GE_RETURN_IF_ERROR(mop->UpdateOutputDesc(0, scaled));
        GE_RETURN_IF_ERROR(conv->GetOpDesc()->UpdateInputDesc(
            0, x_out->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDesc(
                   static_cast<uint32_t>(x_out->GetIdx()))));
        AttrUtils::SetStr(mop, kAttrFusedPattern, "ScaledInput");
        (void)g;
        return Status::Ok();
      };
      out.push_back(std::move(c));
      break;
    }
  }
  return out;
}

}  // namespace

std::vector<Collector> OperandPatterns() { return {ScaledInputs}; }
std::vector<Collector> EpiloguePatterns() { return {ProducerChains}; }

}  // namespace ge::fusion

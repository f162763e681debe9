// Transformer structures found structurally (phase 1 of fusion): each becomes one op.
//
//   LayerNorm  mean = ReduceMean(x); d = x - mean; var = ReduceMean(d^2); d / Sqrt(var + eps)
//              [* gamma] [+ beta]                                    -> LayerNorm
//              (d^2 as Pow(d, 2) or d * d; the division also as d * Rsqrt(..) or
//              d * Reciprocal(Sqrt(..)); reductions over trailing axes, keepdims)
//   residual   Add(a, b) read only by a LayerNorm (a LayerNorm node or the decomposition above)
//                                                                    -> SkipLayerNorm
// Here: LayerNorm and residual + LayerNorm. Softmax and attention: attention_pattern.cc.
//
//   Softmax    Exp(x - ReduceMax(x)) / ReduceSum(..) over the last axis, or without the max;
//              the division also as * Reciprocal(sum)               -> SoftmaxV2
//   attention  MatMul(q, k^T) [/ c or * c] [+ mask] -> softmax over the last axis (a SoftmaxV2
//              or the pieces above) -> MatMul(., v)                  -> FusedAttention
//              (k^T given, or k with the MatMul's adj_x2, or k through a Transpose of its last
//              two axes that only the MatMul reads; the scale also on q before the product)
//   GELU       gelu_pattern.cc
//
// Structures contain one another (softmax in attention, LayerNorm in residual + LayerNorm):
// each collector proposes the largest form it finds and also the smaller ones; the pass keeps
// the best gain among overlapping candidates.
#include <cmath>
#include <cstring>

#include "ge/compiler/graph_edit.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "transformer_match.h"

namespace ge::fusion {
namespace {

// ---- LayerNorm ----

struct LayerNormMatch {
  Port x;
  Use x_use;
  std::optional<Use> gamma, beta;
  float epsilon = 1e-5F;
  int64_t axis = -1;
  std::vector<NodePtr> nodes;  ///< empty for an existing LayerNorm node
  NodePtr last;
};

/// `p` broadcasts to the normalized dims without adding dims before them.
bool IsNormParam(const Port& p, const std::vector<int64_t>& normalized) {
  const std::optional<std::vector<int64_t>> dims = KnownDims(PortDesc(p));
  if (!dims || dims->size() > normalized.size() || PortDesc(p).GetDataType() != DT_FLOAT)
    return false;
  const size_t lead = normalized.size() - dims->size();
  for (size_t i = 0; i < dims->size(); ++i) {
    if ((*dims)[i] != 1 && (*dims)[i] != normalized[lead + i]) return false;
  }
  return true;
}

/// The node reading `node` alone if it is a binary `type` whose other operand (not in `nodes`)
/// is a normalization parameter; that operand in `param`.
NodePtr AffineStep(const NodePtr& node, const char* type, const std::vector<int64_t>& normalized,
                   std::optional<Use>& param) {
  const NodePtr next = SoleReader(*node);
  if (next == nullptr || next->GetType() != type) return nullptr;
  const int side = InputFedBy(*next, *node);
  if (side < 0) return nullptr;
  const std::optional<Port> p = InputPort(*next, 1 - side);
  if (!p || p->node == node || !IsNormParam(*p, normalized)) return nullptr;
  param = Use{next, 1 - side};
  return next;
}

/// The decomposition, matched from its first ReduceMean.
std::optional<LayerNormMatch> MatchLayerNormPieces(const NodePtr& mean) {
  LayerNormMatch m;
  const std::optional<Port> x = InputPort(*mean, 0);
  const std::optional<int64_t> axis = TrailingReduceAxis(*mean);
  if (!x || !axis) return std::nullopt;
  m.x = *x;
  m.x_use = Use{mean, 0};
  m.axis = *axis;
  const NodePtr sub = SoleReader(*mean);
  if (sub == nullptr || sub->GetType() != "Sub" || InputFedBy(*sub, *mean) != 1)
    return std::nullopt;
  const std::optional<Port> sx = InputPort(*sub, 0);
  if (!sx || !SamePort(*sx, *x)) return std::nullopt;
  // The readers of d: the square (once, or twice as d * d) and the normalizing step.
  NodePtr square, norm;
  for (const InDataAnchorPtr& peer : sub->GetOutDataAnchor(0)->GetPeerInDataAnchors()) {
    const NodePtr r = peer->GetOwnerNode();
    const std::optional<Port> a = InputPort(*r, 0), b = InputPort(*r, 1);
    const bool dd = r->GetType() == "Mul" && a && b && SamePort(*a, *b);
    const bool pow2 = r->GetType() == "Pow" && peer->GetIdx() == 0 && IsConstNear(*r, 1, 2.0);
    if (dd || pow2) {
      if (square != nullptr && square != r) return std::nullopt;
      square = r;
    } else {
      if (norm != nullptr) return std::nullopt;
      norm = r;
    }
  }
  if (square == nullptr || norm == nullptr) return std::nullopt;
  const NodePtr var = SoleReader(*square);
  if (var == nullptr || var->GetType() != "ReduceMean" || TrailingReduceAxis(*var) != axis)
    return std::nullopt;
  const NodePtr add = SoleReader(*var);
  if (add == nullptr || add->GetType() != "Add") return std::nullopt;
  const int var_side = InputFedBy(*add, *var);
  const std::optional<float> eps = var_side < 0 ? std::nullopt : ConstScalar(*add, 1 - var_side);
  if (!eps || *eps < 0) return std::nullopt;
  m.epsilon = *eps;
  m.nodes = {mean, sub, square, var, add};
  // d / Sqrt(v), d * Rsqrt(v), d * Reciprocal(Sqrt(v)).
  NodePtr root = SoleReader(*add);
  if (root == nullptr) return std::nullopt;
  m.nodes.push_back(root);
  NodePtr divisor = root;
  if (root->GetType() == "Sqrt") {
    const NodePtr r = SoleReader(*root);
    if (r != nullptr && r->GetType() == "Reciprocal") {
      m.nodes.push_back(r);
      divisor = r;
    }
  } else if (root->GetType() != "Rsqrt") {
    return std::nullopt;
  }
  const bool divides = divisor->GetType() == "Sqrt";
  if (divides ? !IsAnyOf(*norm, {"RealDiv", "Div"}) : norm->GetType() != "Mul") return std::nullopt;
  const int d_side = InputFedBy(*norm, *sub);
  if (d_side < 0 || (divides && d_side != 0) || InputFedBy(*norm, *divisor) != 1 - d_side)
    return std::nullopt;
  m.nodes.push_back(norm);
  m.last = norm;
  // [* gamma] [+ beta].
  const std::optional<std::vector<int64_t>> normalized = TrailingDims(PortDesc(*x), m.axis);
  if (!normalized) return std::nullopt;
  if (NodePtr mul = AffineStep(m.last, "Mul", *normalized, m.gamma); mul != nullptr) {
    m.nodes.push_back(mul);
    m.last = mul;
  }
  if (NodePtr plus = AffineStep(m.last, "Add", *normalized, m.beta); plus != nullptr) {
    m.nodes.push_back(plus);
    m.last = plus;
  }
  // Every step keeps x's dims unless a one-element constant (eps, 2) of higher rank adds
  // leading ones; gamma and beta cannot (IsNormParam).
  if (!ClosedGroup(m.nodes, m.last) ||
      RankOf(m.last->GetOpDescBarePtr()->GetOutputDesc(0)) != RankOf(PortDesc(*x)) ||
      PortDesc(*x).GetDataType() != DT_FLOAT) {
    return std::nullopt;
  }
  return m;
}

/// An existing LayerNorm node whose statistics outputs are unread.
std::optional<LayerNormMatch> MatchLayerNormNode(const NodePtr& ln) {
  const OpDesc& op = *ln->GetOpDescBarePtr();
  for (size_t i = 1; i < op.GetOutputsSize(); ++i) {
    if (ReaderCount(*ln, static_cast<int>(i)) != 0) return std::nullopt;
  }
  LayerNormMatch m;
  const std::optional<Port> x = InputPort(*ln, 0);
  if (!x) return std::nullopt;
  m.x = *x;
  m.x_use = Use{ln, 0};
  if (InputPort(*ln, 1)) m.gamma = Use{ln, 1};
  if (InputPort(*ln, 2)) m.beta = Use{ln, 2};
  AttrUtils::GetInt(op, "axis", m.axis);
  AttrUtils::GetFloat(op, "epsilon", m.epsilon);
  const int64_t rank = RankOf(PortDesc(*x));
  if (rank < 0 || !m.gamma) return std::nullopt;
  if (m.axis < -rank || m.axis >= rank) return std::nullopt;
  if (m.axis < 0) m.axis += rank;
  m.last = ln;
  return m;
}

/// A float32 Const of ones shaped like the normalized dims of `m` (LayerNorm needs a scale).
Result<Port> AddOnes(ComputeGraph& graph, const LayerNormMatch& m) {
  const std::optional<std::vector<int64_t>> dims = TrailingDims(PortDesc(m.x), m.axis);
  if (!dims) return InternalError("the normalized dims of '" + m.last->GetName() + "' are unknown");
  const std::vector<int64_t>& normalized = *dims;
  int64_t n = 1;
  for (int64_t d : normalized) n *= d;
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * sizeof(float));
  const float one = 1.0F;
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(bytes.data() + i * sizeof(float), &one, sizeof(float));
  GeTensorDesc desc(GeShape(normalized), FORMAT_ND, DT_FLOAT);
  desc.SetOriginShape(GeShape(normalized));
  const OpDescPtr op = OpDescUtils::CreateConstOp(
      passes::UniqueNodeName(graph, m.last->GetName() + "_ones"), GeTensor(desc, std::move(bytes)));
  GE_ASSIGN_OR_RETURN(NodePtr node, graph.AddNode(op));
  return Port{node, 0};
}

/// The candidate: `m` (with `residual`, the Add feeding it, when given) as one LayerNorm or
/// SkipLayerNorm.
std::optional<Candidate> LayerNormCandidate(ComputeGraph& graph, Env& env, const LayerNormMatch& m,
                                            const NodePtr& residual) {
  std::vector<NodePtr> nodes = m.nodes.empty() ? std::vector<NodePtr>{m.last} : m.nodes;
  Uses inputs = {m.x_use};
  if (residual != nullptr) {
    nodes.insert(nodes.begin(), residual);
    inputs = {Use{residual, 0}, Use{residual, 1}};
  }
  inputs.push_back(m.gamma);
  inputs.push_back(m.beta);
  const std::string type = residual != nullptr ? "SkipLayerNorm" : "LayerNorm";
  OpDescPtr op = MakeFusedOp(graph, env, type, m.last, inputs);
  if (op == nullptr) return std::nullopt;
  AttrUtils::SetInt(op, "axis", m.axis);
  AttrUtils::SetFloat(op, "epsilon", m.epsilon);
  Candidate c;
  c.pattern = type;
  c.nodes = nodes;
  c.bytes_before = GroupTraffic(nodes);
  c.bytes_after = FusedTraffic(inputs, m.last);
  const size_t scale_index = inputs.size() - 2;
  if (!m.gamma) {
    // The ones the rewrite adds as scale: read, but by no node before.
    const std::optional<std::vector<int64_t>> dims = TrailingDims(PortDesc(m.x), m.axis);
    if (!dims) return std::nullopt;
    int64_t n = 1;
    for (int64_t d : *dims) n *= d;
    c.bytes_after += n * static_cast<int64_t>(sizeof(float));
    GeTensorDesc desc(GeShape(*dims), FORMAT_ND, DT_FLOAT);
    if (!op->UpdateInputDesc(static_cast<uint32_t>(scale_index), desc).ok()) return std::nullopt;
  }
  c.fused = op;
  c.rewrite = [nodes, m, op, inputs, scale_index, type](ComputeGraph& g) -> Status {
    std::vector<std::optional<Port>> in = Resolve(inputs);
    if (!in[scale_index]) {
      GE_ASSIGN_OR_RETURN(Port ones, AddOnes(g, m));
      in[scale_index] = ones;
    }
    return ReplaceWithFused(g, nodes, m.last, op, in, type);
  };
  return c;
}

/// The Add feeding `m` when it can join: read only by `m`, float operands (SkipLayerNorm
/// broadcasts them as Add does).
NodePtr ResidualOf(const LayerNormMatch& m) {
  if (m.x.index != 0 || m.x.node->GetType() != "Add") return nullptr;
  const NodePtr add = m.x.node;
  std::vector<NodePtr> readers = m.nodes.empty() ? std::vector<NodePtr>{m.last} : m.nodes;
  for (const InDataAnchorPtr& peer : add->GetOutDataAnchor(0)->GetPeerInDataAnchors()) {
    bool inside = false;
    for (const NodePtr& n : readers) inside = inside || n.get() == peer->GetOwnerNodeBarePtr();
    if (!inside) return nullptr;
  }
  for (int i = 0; i < 2; ++i) {
    const std::optional<Port> p = InputPort(*add, i);
    if (!p || RankOf(PortDesc(*p)) < 0 || PortDesc(*p).GetDataType() != DT_FLOAT) return nullptr;
  }
  return passes::IsGraphBoundary(*add) ? nullptr : add;
}

std::vector<Candidate> LayerNormPatterns(ComputeGraph& graph, Env& env) {
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    std::optional<LayerNormMatch> m;
    if (node->GetType() == "ReduceMean") m = MatchLayerNormPieces(node);
    if (node->GetType() == "LayerNorm") m = MatchLayerNormNode(node);
    if (!m) continue;
    if (!m->nodes.empty()) {
      if (std::optional<Candidate> c = LayerNormCandidate(graph, env, *m, nullptr))
        out.push_back(std::move(*c));
    }
    if (const NodePtr add = ResidualOf(*m); add != nullptr) {
      if (std::optional<Candidate> c = LayerNormCandidate(graph, env, *m, add))
        out.push_back(std::move(*c));
    }
  }
  return out;
}

}  // namespace

std::vector<Collector> StructurePatterns() {
  return {AttentionPatterns, LayerNormPatterns, SoftmaxPatterns, GeluPatterns};
}

}  // namespace ge::fusion

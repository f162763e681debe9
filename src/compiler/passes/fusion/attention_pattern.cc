// Softmax and attention found structurally (phase 1 of fusion; the catalogue is in
// transformer_patterns.cc).
//
//   Softmax    Exp(x - ReduceMax(x)) / ReduceSum(..) over the last axis, or without the max, or
//              * Reciprocal(sum)                                      -> SoftmaxV2
//   attention  MatMul(q, k^T) [/ c or * c] [+ mask | causal Where] -> softmax over the last axis
//              -> MatMul(., v)                                        -> FusedAttention
//   A causal Where is a decoder's masked_fill: Where(hidden, -inf, scores) (or Where(seen,
//   scores, -inf)) with a Const condition that hides key j from query i exactly when
//   j > i + Sk - S; it becomes the fused node's `causal` attribute, with no mask tensor.
#include <cmath>

#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "transformer_match.h"

namespace ge::fusion {
namespace {

// ---- Softmax ----

struct SoftmaxMatch {
  Port x;
  Use x_use;
  std::vector<NodePtr> nodes;
};

/// True when reduction `r` is over the last axis alone.
bool OverLastAxis(const Node& r) {
  const std::optional<int64_t> axis = TrailingReduceAxis(r);
  const GeShape& in = r.GetOpDescBarePtr()->GetInputDesc(0).GetShape();
  return axis && !in.IsUnknownDimNum() && *axis == static_cast<int64_t>(in.GetDimNum()) - 1;
}

/// Exp(x [- ReduceMax(x)]) / ReduceSum(that) over the last axis, matched from the division
/// (or the product with Reciprocal(sum)).
std::optional<SoftmaxMatch> MatchSoftmaxPieces(const NodePtr& last) {
  SoftmaxMatch m;
  NodePtr exp, sum, recip;
  if (IsAnyOf(*last, {"RealDiv", "Div"})) {
    exp = Producer(*last, 0);
    sum = Producer(*last, 1);
  } else if (last->GetType() == "Mul") {
    for (int i = 0; i < 2 && exp == nullptr; ++i) {
      const NodePtr r = Producer(*last, 1 - i);
      if (r != nullptr && r->GetType() == "Reciprocal") {
        exp = Producer(*last, i);
        recip = r;
        sum = Producer(*r, 0);
      }
    }
  }
  if (exp == nullptr || sum == nullptr || exp->GetType() != "Exp" ||
      sum->GetType() != "ReduceSum" || Producer(*sum, 0) != exp || !OverLastAxis(*sum)) {
    return std::nullopt;
  }
  std::optional<Port> x = InputPort(*exp, 0);
  if (!x) return std::nullopt;
  m.x_use = Use{exp, 0};
  if (x->index == 0 && x->node->GetType() == "Sub") {
    const NodePtr sub = x->node;
    const NodePtr max = Producer(*sub, 1);
    const std::optional<Port> in = InputPort(*sub, 0);
    if (max != nullptr && max->GetType() == "ReduceMax" && in && OverLastAxis(*max)) {
      const std::optional<Port> max_in = InputPort(*max, 0);
      if (max_in && SamePort(*max_in, *in)) {
        m.nodes = {max, sub};
        m.x_use = Use{sub, 0};
        x = in;
      }
    }
  }
  m.x = *x;
  m.nodes.insert(m.nodes.end(), {exp, sum});
  if (recip != nullptr) m.nodes.push_back(recip);
  m.nodes.push_back(last);
  const int64_t rank = RankOf(PortDesc(m.x));
  if (!ClosedGroup(m.nodes, last) || rank < 0 ||
      rank != RankOf(last->GetOpDescBarePtr()->GetOutputDesc(0)) ||
      PortDesc(m.x).GetDataType() != DT_FLOAT) {
    return std::nullopt;
  }
  return m;
}

/// A SoftmaxV2 over the last axis, or the pieces, ending at `last`.
std::optional<SoftmaxMatch> MatchSoftmax(const NodePtr& last) {
  if (last->GetType() != "SoftmaxV2") return MatchSoftmaxPieces(last);
  const std::optional<Port> x = InputPort(*last, 0);
  if (!x) return std::nullopt;
  const GeShape& in = PortDesc(*x).GetShape();
  int64_t axis = -1;
  AttrUtils::GetInt(last->GetOpDescBarePtr(), "axis", axis);
  if (in.IsUnknownDimNum() || (axis != -1 && axis != static_cast<int64_t>(in.GetDimNum()) - 1))
    return std::nullopt;
  return SoftmaxMatch{*x, Use{last, 0}, {last}};
}

}  // namespace

std::vector<Candidate> SoftmaxPatterns(ComputeGraph& graph, Env& env) {
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsAnyOf(*node, {"RealDiv", "Div", "Mul"})) continue;
    std::optional<SoftmaxMatch> m = MatchSoftmaxPieces(node);
    if (!m) continue;
    const Uses inputs = {m->x_use};
    OpDescPtr op = MakeFusedOp(graph, env, "SoftmaxV2", node, inputs);
    if (op == nullptr) continue;
    AttrUtils::SetInt(op, "axis", -1);
    Candidate c;
    c.pattern = "Softmax";
    c.nodes = m->nodes;
    c.bytes_before = GroupTraffic(c.nodes);
    c.bytes_after = FusedTraffic(inputs, node);
    c.fused = op;
    c.rewrite = [nodes = m->nodes, node, op, inputs](ComputeGraph& g) {
      return ReplaceWithFused(g, nodes, node, op, Resolve(inputs), "Softmax");
    };
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

// ---- Attention ----

bool IsPlainMatMul(const Node& n, bool allow_adj_b) {
  if (!IsAnyOf(n, {"BatchMatMulV2", "MatMulV2"})) return false;
  const bool batch = n.GetType() == "BatchMatMulV2";
  bool ta = false, tb = false;
  AttrUtils::GetBool(n.GetOpDescBarePtr(), batch ? "adj_x1" : "transpose_x1", ta);
  AttrUtils::GetBool(n.GetOpDescBarePtr(), batch ? "adj_x2" : "transpose_x2", tb);
  return !ta && (allow_adj_b || !tb) && Producer(n, 2) == nullptr;  // no bias input
}

bool AdjB(const Node& n) {
  bool tb = false;
  AttrUtils::GetBool(n.GetOpDescBarePtr(),
                     n.GetType() == "BatchMatMulV2" ? "adj_x2" : "transpose_x2", tb);
  return tb;
}

/// The mask cannot widen the scores (FusedAttention broadcasts it to them): per aligned dim it
/// is 1, or equal to the scores' dim, or unknown where the scores' dim is not 1. Unknown against
/// unknown passes: if they differ at run time, the unfused Add would fail as well.
bool MaskKeepsScores(const GeShape& mask, const GeShape& scores) {
  if (mask.IsUnknownDimNum() || scores.IsUnknownDimNum() || mask.GetDimNum() > scores.GetDimNum())
    return false;
  const size_t lead = scores.GetDimNum() - mask.GetDimNum();
  for (size_t i = 0; i < mask.GetDimNum(); ++i) {
    const int64_t m = mask.GetDim(i), s = scores.GetDim(lead + i);
    const bool ok = m == 1 || (m >= 0 && m == s) || (m < 0 && s != 1);
    if (!ok) return false;
  }
  return true;
}

/// The scores input of a causal Where (SelectV2), or -1 when `where` is not one: its condition a
/// Const bool over [.., S, Sk] (leading dims 1) that hides exactly the keys j > i + Sk - S from
/// query i, and its other value a Const -inf.
int CausalWhereScores(const Node& where) {
  const NodePtr cond = Producer(where, 0);
  if (where.GetType() != "SelectV2" || cond == nullptr) return -1;
  auto value = OpDescUtils::GetConstValue(*cond);
  if (!value.ok() || value->GetTensorDesc().GetDataType() != DT_BOOL) return -1;
  const std::vector<int64_t> dims = value->GetTensorDesc().GetShape().GetDims();
  if (dims.size() < 2) return -1;
  for (size_t i = 0; i + 2 < dims.size(); ++i) {
    if (dims[i] != 1) return -1;
  }
  const int64_t s = dims[dims.size() - 2], sk = dims.back();
  if (s <= 0 || sk < s || static_cast<int64_t>(value->GetSize()) != s * sk) return -1;
  // Which side holds the -inf fill decides the condition's polarity.
  for (int fill = 1; fill <= 2; ++fill) {
    const std::optional<float> v = ConstScalar(where, fill);
    if (!v || !std::isinf(*v) || *v > 0) continue;
    const bool true_hides = fill == 1;
    const uint8_t* c = value->GetData().data();
    bool causal = true;
    for (int64_t i = 0; i < s && causal; ++i) {
      for (int64_t j = 0; j < sk && causal; ++j) {
        const bool hidden = j > i + sk - s;
        causal = (c[i * sk + j] != 0) == (true_hides ? hidden : !hidden);
      }
    }
    return causal ? 3 - fill : -1;
  }
  return -1;
}

struct AttentionMatch {
  Uses inputs;  ///< q, k, v, mask
  float scale = 1.0F;
  bool k_transposed = true;
  bool causal = false;
  std::vector<NodePtr> nodes;
  NodePtr last;
};

std::optional<AttentionMatch> MatchAttention(const NodePtr& mm2) {
  if (!IsPlainMatMul(*mm2, /*allow_adj_b=*/false)) return std::nullopt;
  const NodePtr sm_last = Producer(*mm2, 0);
  if (sm_last == nullptr) return std::nullopt;
  std::optional<SoftmaxMatch> sm = MatchSoftmax(sm_last);
  if (!sm || sm->x.index != 0) return std::nullopt;
  AttentionMatch m;
  m.nodes = sm->nodes;
  NodePtr cur = sm->x.node;
  std::optional<Port> mask;
  std::optional<Use> mask_use;
  NodePtr mask_add;
  if (const int scores = CausalWhereScores(*cur); scores > 0) {
    const NodePtr p = Producer(*cur, scores);
    if (p == nullptr || !IsAnyOf(*p, {"RealDiv", "Div", "Mul", "BatchMatMulV2", "MatMulV2"})) {
      return std::nullopt;
    }
    // The condition must not widen the scores: the Where's output is the scores' shape.
    if (!SameSymbolicShape(cur->GetOpDescBarePtr()->GetOutputDesc(0),
                           p->GetOpDescBarePtr()->GetOutputDesc(0))) {
      return std::nullopt;
    }
    m.causal = true;
    m.nodes.insert(m.nodes.begin(), cur);
    cur = p;
  } else if (cur->GetType() == "Add") {
    // One operand leads back to the scores; the other is the mask.
    for (int i = 0; i < 2 && !mask; ++i) {
      const NodePtr p = Producer(*cur, i);
      if (p != nullptr && (IsAnyOf(*p, {"RealDiv", "Div", "Mul", "BatchMatMulV2", "MatMulV2"}))) {
        mask = InputPort(*cur, 1 - i);
        mask_use = Use{cur, 1 - i};
        m.nodes.insert(m.nodes.begin(), cur);
        mask_add = cur;
        cur = p;
      }
    }
    if (!mask) return std::nullopt;
  }
  if (IsAnyOf(*cur, {"RealDiv", "Div", "Mul"})) {
    const std::optional<ScalarOperand> s = ScalarOperandOf(*cur);
    const bool divides = cur->GetType() != "Mul";
    if (!s || (divides && s->other != 0) || s->value == 0) return std::nullopt;
    m.scale = divides ? 1.0F / s->value : s->value;
    m.nodes.insert(m.nodes.begin(), cur);
    cur = Producer(*cur, s->other);
    if (cur == nullptr) return std::nullopt;
  }
  const NodePtr mm1 = cur;
  if (!IsPlainMatMul(*mm1, /*allow_adj_b=*/true)) return std::nullopt;
  m.nodes.insert(m.nodes.begin(), mm1);
  std::optional<Port> k = InputPort(*mm1, 1);
  if (!k) return std::nullopt;
  Use k_use{mm1, 1};
  m.k_transposed = !AdjB(*mm1);
  // K^T as Transpose(K) over the last two axes, read by this MatMul only: take K itself.
  if (m.k_transposed && k->node->GetType() == "Transpose" && ReaderCount(*k->node) == 1) {
    std::vector<int64_t> perm;
    AttrUtils::GetListInt(k->node->GetOpDescBarePtr(), "perm", perm);
    bool swap_last = perm.size() >= 2;
    for (size_t i = 0; swap_last && i < perm.size(); ++i) {
      const size_t want = i + 2 < perm.size() ? i : (i + 2 == perm.size() ? i + 1 : i - 1);
      swap_last = perm[i] == static_cast<int64_t>(want);
    }
    const std::optional<Port> kin = InputPort(*k->node, 0);
    if (swap_last && kin && Producer(*k->node, 1) == nullptr) {
      m.nodes.insert(m.nodes.begin(), k->node);
      k_use = Use{k->node, 0};
      k = kin;
      m.k_transposed = false;
    }
  }
  m.nodes.push_back(mm2);
  m.last = mm2;
  // q scaled before the product (q * c or q / c, read by this MatMul only): the scale joins.
  Use q_use{mm1, 0};
  if (const NodePtr qs = Producer(*mm1, 0);
      qs != nullptr && IsAnyOf(*qs, {"RealDiv", "Div", "Mul"}) && ReaderCount(*qs) == 1) {
    const std::optional<ScalarOperand> c = ScalarOperandOf(*qs);
    const bool divides = qs->GetType() != "Mul";
    if (c && c->value != 0 && (!divides || c->other == 0) && InputPort(*qs, c->other) &&
        RankOf(PortDesc(*InputPort(*qs, c->other))) ==
            RankOf(qs->GetOpDescBarePtr()->GetOutputDesc(0))) {
      m.scale *= divides ? 1.0F / c->value : c->value;
      m.nodes.insert(m.nodes.begin(), qs);
      q_use = Use{qs, c->other};
    }
  }
  m.inputs = {q_use, k_use, Use{mm2, 1}, mask_use};
  const std::vector<std::optional<Port>> ports = Resolve(m.inputs);
  for (size_t i = 0; i < 3; ++i) {
    if (!ports[i]) return std::nullopt;
    const GeShape& s = PortDesc(*ports[i]).GetShape();
    if (s.IsUnknownDimNum() || s.GetDimNum() < 2 || PortDesc(*ports[i]).GetDataType() != DT_FLOAT)
      return std::nullopt;
  }
  if (mask && (!MaskKeepsScores(PortDesc(*mask).GetShape(),
                                mm1->GetOpDescBarePtr()->GetOutputDesc(0).GetShape()) ||
               PortDesc(*mask).GetDataType() != DT_FLOAT)) {
    return std::nullopt;
  }
  if (!ClosedGroup(m.nodes, m.last)) return std::nullopt;
  return m;
}

}  // namespace

std::vector<Candidate> AttentionPatterns(ComputeGraph& graph, Env& env) {
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsAnyOf(*node, {"BatchMatMulV2", "MatMulV2"})) continue;
    std::optional<AttentionMatch> m = MatchAttention(node);
    if (!m) continue;
    OpDescPtr op = MakeFusedOp(graph, env, "FusedAttention", m->last, m->inputs);
    if (op == nullptr) continue;
    AttrUtils::SetFloat(op, "scale", m->scale);
    AttrUtils::SetBool(op, "k_transposed", m->k_transposed);
    if (m->causal) AttrUtils::SetBool(op, "causal", true);
    Candidate c;
    c.pattern = "Attention";
    c.nodes = m->nodes;
    c.bytes_before = GroupTraffic(c.nodes);
    c.bytes_after = FusedTraffic(m->inputs, m->last);
    c.fused = op;
    c.rewrite = [nodes = m->nodes, last = m->last, op, inputs = m->inputs](ComputeGraph& g) {
      return ReplaceWithFused(g, nodes, last, op, Resolve(inputs), "Attention");
    };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ge::fusion

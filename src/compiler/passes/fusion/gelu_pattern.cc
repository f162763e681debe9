// GELU written out by exporters becomes one Gelu node (phase 1 of fusion).
//
//   erf:  x * 0.5 * (1 + erf(x / sqrt(2)))            -> Gelu (approximate "none")
//   tanh: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))  -> Gelu (approximate "tanh")
//
// Matched from the Erf / Tanh node outwards. Spellings: x / sqrt(2) or x * (1/sqrt(2)); x^3 as
// Pow(x, 3), x * (x * x) or (x * x) * x; the tail's three factors x, 0.5 and (1 + erf) multiplied
// in any grouping and operand order. Every constant must be within 1e-4 of its value.
#include <cmath>

#include "ge/graph/utils/attr_utils.h"
#include "transformer_match.h"

namespace ge::fusion {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kTanhCubic = 0.044715;

struct GeluMatch {
  Port x;
  Use x_use;
  std::vector<NodePtr> nodes;
  NodePtr last;
};

/// x * (x * x) or (x * x) * x or Pow(x, 3), producing output 0 of `node`; adds its nodes.
bool IsCubeOf(const NodePtr& node, const Port& x, std::vector<NodePtr>& nodes) {
  if (node->GetType() == "Pow") {
    const std::optional<Port> base = InputPort(*node, 0);
    if (!base || !SamePort(*base, x) || !IsConstNear(*node, 1, 3.0)) return false;
    nodes.push_back(node);
    return true;
  }
  if (node->GetType() != "Mul") return false;
  for (int i = 0; i < 2; ++i) {
    const std::optional<Port> a = InputPort(*node, i), b = InputPort(*node, 1 - i);
    if (!a || !b || !SamePort(*a, x) || b->index != 0 || b->node->GetType() != "Mul") continue;
    const std::optional<Port> s0 = InputPort(*b->node, 0), s1 = InputPort(*b->node, 1);
    if (s0 && s1 && SamePort(*s0, x) && SamePort(*s1, x)) {
      nodes.push_back(b->node);
      nodes.push_back(node);
      return true;
    }
  }
  return false;
}

/// From `inner` (the Erf or Tanh), with `x` known: Add 1, then the product with x and 0.5.
std::optional<GeluMatch> MatchTail(const NodePtr& inner, const Port& x, const Use& use,
                                   std::vector<NodePtr> nodes) {
  const NodePtr add = SoleReader(*inner);
  if (add == nullptr || add->GetType() != "Add") return std::nullopt;
  const int side = InputFedBy(*add, *inner);
  if (side < 0 || !IsConstNear(*add, 1 - side, 1.0)) return std::nullopt;
  nodes.push_back(add);
  const NodePtr m1 = SoleReader(*add);
  if (m1 == nullptr || m1->GetType() != "Mul") return std::nullopt;
  const int a_side = InputFedBy(*m1, *add);
  if (a_side < 0) return std::nullopt;
  const std::optional<Port> other = InputPort(*m1, 1 - a_side);
  if (!other) return std::nullopt;
  nodes.push_back(m1);
  if (IsConstNear(*m1, 1 - a_side, 0.5) || SamePort(*other, x)) {
    // (1 + erf) * 0.5 then * x, or (1 + erf) * x then * 0.5.
    const bool half_first = !SamePort(*other, x);
    const NodePtr m2 = SoleReader(*m1);
    if (m2 == nullptr || m2->GetType() != "Mul") return std::nullopt;
    const int m_side = InputFedBy(*m2, *m1);
    if (m_side < 0) return std::nullopt;
    const std::optional<Port> rest = InputPort(*m2, 1 - m_side);
    if (!rest) return std::nullopt;
    if (half_first ? !SamePort(*rest, x) : !IsConstNear(*m2, 1 - m_side, 0.5)) return std::nullopt;
    nodes.push_back(m2);
    return GeluMatch{x, use, std::move(nodes), m2};
  }
  // (x * 0.5) * (1 + erf).
  const NodePtr half = other->node;
  if (other->index != 0 || half->GetType() != "Mul") return std::nullopt;
  const std::optional<ScalarOperand> s = ScalarOperandOf(*half);
  if (!s || std::fabs(s->value - 0.5) > 0.5e-4) return std::nullopt;
  const std::optional<Port> hx = InputPort(*half, s->other);
  if (!hx || !SamePort(*hx, x)) return std::nullopt;
  nodes.push_back(half);
  return GeluMatch{x, use, std::move(nodes), m1};
}

/// Erf(x / sqrt 2) or Erf(x * (1 / sqrt 2)).
std::optional<GeluMatch> MatchErf(const NodePtr& erf) {
  const NodePtr scaled = Producer(*erf, 0);
  if (scaled == nullptr || !IsAnyOf(*scaled, {"RealDiv", "Div", "Mul"})) return std::nullopt;
  int x_index = 0;
  if (scaled->GetType() == "Mul") {
    const std::optional<ScalarOperand> s = ScalarOperandOf(*scaled);
    if (!s || std::fabs(s->value - 1.0 / kSqrt2) > 1e-4 / kSqrt2) return std::nullopt;
    x_index = s->other;
  } else if (!IsConstNear(*scaled, 1, kSqrt2)) {
    return std::nullopt;
  }
  const std::optional<Port> x = InputPort(*scaled, x_index);
  if (!x) return std::nullopt;
  return MatchTail(erf, *x, Use{scaled, x_index}, {scaled, erf});
}

/// Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)), products and the sum in either operand order.
std::optional<GeluMatch> MatchTanh(const NodePtr& tanh) {
  const NodePtr outer = Producer(*tanh, 0);
  if (outer == nullptr || outer->GetType() != "Mul") return std::nullopt;
  const std::optional<ScalarOperand> c = ScalarOperandOf(*outer);
  if (!c || std::fabs(c->value - kSqrt2OverPi) > 1e-4 * kSqrt2OverPi) return std::nullopt;
  const std::optional<Port> sum_port = InputPort(*outer, c->other);
  if (!sum_port || sum_port->index != 0 || sum_port->node->GetType() != "Add") return std::nullopt;
  const NodePtr sum = sum_port->node;
  for (int i = 0; i < 2; ++i) {
    const std::optional<Port> x = InputPort(*sum, i), cubic = InputPort(*sum, 1 - i);
    if (!x || !cubic || cubic->index != 0 || cubic->node->GetType() != "Mul") continue;
    const std::optional<ScalarOperand> k = ScalarOperandOf(*cubic->node);
    if (!k || std::fabs(k->value - kTanhCubic) > 1e-4 * kTanhCubic) continue;
    const std::optional<Port> cube = InputPort(*cubic->node, k->other);
    if (!cube || cube->index != 0) continue;
    std::vector<NodePtr> nodes;
    if (!IsCubeOf(cube->node, *x, nodes)) continue;
    nodes.insert(nodes.end(), {cubic->node, sum, outer, tanh});
    return MatchTail(tanh, *x, Use{sum, i}, std::move(nodes));
  }
  return std::nullopt;
}

}  // namespace

std::vector<Candidate> GeluPatterns(ComputeGraph& graph, Env& env) {
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const bool is_erf = node->GetType() == "Erf";
    if (!is_erf && node->GetType() != "Tanh") continue;
    std::optional<GeluMatch> m = is_erf ? MatchErf(node) : MatchTanh(node);
    if (!m || !ClosedGroup(m->nodes, m->last)) continue;
    // Every operand but x is a one-element constant: the output has x's dims unless a constant
    // of higher rank adds leading ones.
    const int64_t rank = RankOf(PortDesc(m->x));
    if (rank < 0 || rank != RankOf(m->last->GetOpDescBarePtr()->GetOutputDesc(0)) ||
        PortDesc(m->x).GetDataType() != DT_FLOAT) {
      continue;
    }
    const Uses inputs = {m->x_use};
    OpDescPtr op = MakeFusedOp(graph, env, "Gelu", m->last, inputs);
    if (op == nullptr) continue;
    AttrUtils::SetStr(op, "approximate", is_erf ? "none" : "tanh");
    Candidate c;
    c.pattern = is_erf ? "Gelu" : "Gelu(tanh)";
    c.nodes = m->nodes;
    c.bytes_before = GroupTraffic(c.nodes);
    c.bytes_after = FusedTraffic(inputs, m->last);
    c.fused = op;
    c.rewrite = [nodes = m->nodes, last = m->last, op, inputs,
                 pattern = c.pattern](ComputeGraph& g) {
      return ReplaceWithFused(g, nodes, last, op, Resolve(inputs), pattern);
    };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ge::fusion

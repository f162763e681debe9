// Transformer fusions (phase 1 of fusion): LayerNorm, residual + LayerNorm, GELU, Softmax and
// attention found in the spellings exporters use; where they must not fire; and the outputs of
// every graph compiled with and without the Fusion pass compared on random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "fusion_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/graph_edit.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"

namespace ge {
namespace {

using fusion_test::Compile;
using fusion_test::Counter;
using fusion_test::Random;
using testing::CountType;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

AttrValue Ints(std::vector<int64_t> v) { return {std::move(v)}; }

using MakeGraph = std::function<ComputeGraphPtr()>;

class FusionTransformerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  /// The node of `type` in `m`'s graph (exactly one expected).
  static NodePtr OnlyNodeOf(const CompiledModel& m, const std::string& type) {
    NodePtr found;
    for (const NodePtr& n : m.graph->GetAllNodes()) {
      if (n->GetType() != type) continue;
      EXPECT_EQ(found, nullptr) << "two nodes of " << type;
      found = n;
    }
    EXPECT_NE(found, nullptr) << "no node of " << type;
    return found;
  }

  static std::vector<std::string> FusedFrom(const NodePtr& n) {
    std::vector<std::string> from;
    if (n != nullptr) AttrUtils::GetListStr(n->GetOpDesc(), kAttrFusedFrom, from);
    return from;
  }

  /// Output by output, element by element within `rtol` (relative to max(1, |b|)).
  static void ExpectSameOutputs(const std::vector<std::vector<float>>& a,
                                const std::vector<std::vector<float>>& b, float rtol) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t o = 0; o < a.size(); ++o) {
      ASSERT_EQ(a[o].size(), b[o].size());
      ASSERT_FALSE(a[o].empty());
      for (size_t i = 0; i < a[o].size(); ++i) {
        ASSERT_NEAR(a[o][i], b[o][i], rtol * std::max(1.0F, std::fabs(b[o][i])))
            << "output " << o << " element " << i;
      }
    }
  }

  /// `make()` compiled with and without fusion gives the same outputs on random float inputs of
  /// `dims` (fusion_test_util.h); returns the fused compile for structural checks.
  static CompiledModel ExpectSameNumbers(const MakeGraph& make,
                                         const std::vector<std::vector<int64_t>>& dims,
                                         std::map<std::string, std::string> extra = {}) {
    return fusion_test::ExpectFusedMatchesUnfused(make, dims, std::move(extra));
  }
};

// ---- LayerNorm from its pieces ----

struct LnSpelling {
  bool pow = true;  ///< d^2 as Pow(d, 2), else d * d
  int root = 0;     ///< 0: d / Sqrt, 1: d * Rsqrt, 2: d * Reciprocal(Sqrt)
  bool gamma = true, beta = true;
  bool swapped = false;     ///< eps + var, gamma * n, beta + m (constants first)
  bool axes_input = false;  ///< the reductions' axes as a Const input (opset 18)
  int64_t axes = 1;         ///< trailing axes normalized (1 or 2)
  std::vector<int64_t> eps_dims = {};
  bool residual = false;     ///< x = a + b
  bool d_is_output = false;  ///< d also a graph output (a second reader)
};

constexpr int64_t kRows = 2, kSeq = 6, kHidden = 16;

ComputeGraphPtr LayerNormPieces(const LnSpelling& s) {
  ProtoGraph b("ln");
  const std::vector<int64_t> dims = {kRows, kSeq, kHidden};
  NodePtr x;
  if (s.residual) {
    NodePtr a = b.Data("a", dims), c = b.Data("b", dims);
    x = b.Op("Add", "residual", {{a, 0}, {c, 0}});
  } else {
    x = b.Data("x", dims);
  }
  const std::vector<int64_t> axes =
      s.axes == 1 ? std::vector<int64_t>{-1} : std::vector<int64_t>{1, 2};
  auto reduce = [&](const std::string& name, const NodePtr& in) {
    if (s.axes_input) {
      NodePtr ax =
          b.Const<int64_t>(name + "_axes", DT_INT64, {static_cast<int64_t>(axes.size())}, axes);
      return b.Op("ReduceMean", name, {{in, 0}, {ax, 0}});
    }
    return b.Op("ReduceMean", name, {{in, 0}}, {{"axes", Ints(axes)}});
  };
  NodePtr mean = reduce("mean", x);
  NodePtr d = b.Op("Sub", "d", {{x, 0}, {mean, 0}});
  NodePtr sq = s.pow ? b.Op("Pow", "sq", {{d, 0}, {b.Const<float>("two", DT_FLOAT, {}, {2.0F}), 0}})
                     : b.Op("Mul", "sq", {{d, 0}, {d, 0}});
  NodePtr var = reduce("var", sq);
  NodePtr eps = b.Const<float>("eps", DT_FLOAT, s.eps_dims, {1e-5F});
  NodePtr ve =
      s.swapped ? b.Op("Add", "ve", {{eps, 0}, {var, 0}}) : b.Op("Add", "ve", {{var, 0}, {eps, 0}});
  NodePtr n;
  if (s.root == 0) {
    n = b.Op("RealDiv", "n", {{d, 0}, {b.Op("Sqrt", "root", {{ve, 0}}), 0}});
  } else if (s.root == 1) {
    n = b.Op("Mul", "n", {{b.Op("Rsqrt", "root", {{ve, 0}}), 0}, {d, 0}});
  } else {
    NodePtr r = b.Op("Reciprocal", "inv", {{b.Op("Sqrt", "root", {{ve, 0}}), 0}});
    n = b.Op("Mul", "n", {{d, 0}, {r, 0}});
  }
  const int64_t norm = s.axes == 1 ? kHidden : kSeq * kHidden;
  const std::vector<int64_t> pdims =
      s.axes == 1 ? std::vector<int64_t>{kHidden} : std::vector<int64_t>{kSeq, kHidden};
  if (s.gamma) {
    NodePtr g =
        b.Const<float>("gamma", DT_FLOAT, pdims, Random(static_cast<size_t>(norm), 5, 0.5F, 1.5F));
    n = s.swapped ? b.Op("Mul", "scaled", {{g, 0}, {n, 0}})
                  : b.Op("Mul", "scaled", {{n, 0}, {g, 0}});
  }
  if (s.beta) {
    NodePtr be = b.Const<float>("beta", DT_FLOAT, pdims, Random(static_cast<size_t>(norm), 6));
    n = s.swapped ? b.Op("Add", "shifted", {{be, 0}, {n, 0}})
                  : b.Op("Add", "shifted", {{n, 0}, {be, 0}});
  }
  if (s.d_is_output) {
    b.Output({{n, 0}, {d, 0}});
  } else {
    b.Output({{n, 0}});
  }
  return b.graph();
}

TEST_F(FusionTransformerTest, LayerNormFromItsPiecesInEverySpelling) {
  const std::vector<LnSpelling> spellings = {
      {},                                                           // torch
      {.pow = false, .root = 1, .swapped = true, .eps_dims = {1}},  // d * d, Rsqrt
      {.root = 2, .gamma = false, .axes_input = true},              // Reciprocal, no gamma
      {.pow = false, .gamma = false, .beta = false, .axes = 2},     // two axes, no affine
      {.swapped = true, .axes_input = true, .axes = 2, .eps_dims = {1, 1}},
  };
  for (const LnSpelling& s : spellings) {
    SCOPED_TRACE(::testing::Message() << "pow " << s.pow << " root " << s.root << " gamma "
                                      << s.gamma << " beta " << s.beta << " axes " << s.axes);
    CompiledModel m =
        ExpectSameNumbers([&] { return LayerNormPieces(s); }, {{kRows, kSeq, kHidden}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(Counter(m, "fused LayerNorm"), 1);
    const NodePtr ln = OnlyNodeOf(m, "LayerNorm");
    ASSERT_NE(ln, nullptr);
    int64_t axis = 0;
    float eps = 0;
    ASSERT_TRUE(AttrUtils::GetInt(ln->GetOpDesc(), "axis", axis));
    ASSERT_TRUE(AttrUtils::GetFloat(ln->GetOpDesc(), "epsilon", eps));
    EXPECT_EQ(axis, 3 - s.axes);
    EXPECT_FLOAT_EQ(eps, 1e-5F);
    const std::vector<std::string> from = FusedFrom(ln);
    EXPECT_EQ(from.front(), "mean");
    EXPECT_NE(std::find(from.begin(), from.end(), "root"), from.end());
    EXPECT_EQ(CountType(*m.graph, "ReduceMean"), 0U);
  }
}

TEST_F(FusionTransformerTest, LayerNormPiecesWithASecondReaderStay) {
  CompiledModel m = ExpectSameNumbers([] { return LayerNormPieces({.d_is_output = true}); },
                                      {{kRows, kSeq, kHidden}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(Counter(m, "fused LayerNorm"), 0);
  EXPECT_EQ(CountType(*m.graph, "LayerNorm"), 0U);
  EXPECT_EQ(CountType(*m.graph, "ReduceMean"), 2U);
}

// The cost model: LayerNorm's pieces move about twelve tensors of x's size, the fused node two
// (and gamma, beta): under 0.3 of it, over 0.1.
TEST_F(FusionTransformerTest, TheCostModelCanRejectALayerNorm) {
  CompiledModel strict =
      ExpectSameNumbers([] { return LayerNormPieces({}); }, {{kRows, kSeq, kHidden}},
                        {{"openge.fusionCostRatio", "0.1"}});
  ASSERT_NE(strict.graph, nullptr);
  EXPECT_EQ(Counter(strict, "fused LayerNorm"), 0);
  EXPECT_GE(Counter(strict, "rejected by the cost model"), 1);
  EXPECT_EQ(CountType(*strict.graph, "LayerNorm"), 0U);
  auto loose = Compile(LayerNormPieces({}), {{"openge.fusionCostRatio", "0.3"}});
  ASSERT_TRUE(loose.ok()) << loose.status().message();
  EXPECT_EQ(Counter(*loose, "fused LayerNorm"), 1);
}

// ---- Residual + LayerNorm ----

ComputeGraphPtr ResidualLayerNorm(bool sum_is_output) {
  ProtoGraph b("residual_ln");
  NodePtr a = b.Data("a", {kRows, kSeq, kHidden}), c = b.Data("b", {kRows, kSeq, kHidden});
  NodePtr sum = b.Op("Add", "residual", {{a, 0}, {c, 0}});
  NodePtr g = b.Const<float>("gamma", DT_FLOAT, {kHidden}, Random(kHidden, 7, 0.5F, 1.5F));
  NodePtr be = b.Const<float>("beta", DT_FLOAT, {kHidden}, Random(kHidden, 8));
  NodePtr ln =
      b.Op("LayerNorm", "ln", {{sum, 0}, {g, 0}, {be, 0}}, {{"epsilon", AttrValue(1e-3F)}});
  if (sum_is_output) {
    b.Output({{ln, 0}, {sum, 0}});
  } else {
    b.Output({{ln, 0}});
  }
  return b.graph();
}

TEST_F(FusionTransformerTest, AResidualAddJoinsItsLayerNorm) {
  const std::vector<std::vector<int64_t>> dims = {{kRows, kSeq, kHidden}, {kRows, kSeq, kHidden}};
  CompiledModel m = ExpectSameNumbers([] { return ResidualLayerNorm(false); }, dims);
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(Counter(m, "fused SkipLayerNorm"), 1);
  const NodePtr skip = OnlyNodeOf(m, "SkipLayerNorm");
  EXPECT_EQ(FusedFrom(skip), (std::vector<std::string>{"residual", "ln"}));
  float eps = 0;
  ASSERT_TRUE(AttrUtils::GetFloat(skip->GetOpDesc(), "epsilon", eps));
  EXPECT_FLOAT_EQ(eps, 1e-3F);
  EXPECT_EQ(CountType(*m.graph, "Add"), 0U);

  // The pieces spelling: the Add joins the whole decomposition.
  CompiledModel p =
      ExpectSameNumbers([] { return LayerNormPieces({.pow = false, .residual = true}); }, dims);
  ASSERT_NE(p.graph, nullptr);
  EXPECT_EQ(Counter(p, "fused SkipLayerNorm"), 1);
  EXPECT_EQ(Counter(p, "fused LayerNorm"), 0);
  EXPECT_EQ(FusedFrom(OnlyNodeOf(p, "SkipLayerNorm")).front(), "residual");
}

// The sum is read elsewhere too: the LayerNorm keeps its input (no second output is made).
TEST_F(FusionTransformerTest, AResidualSumWithAnotherReaderStays) {
  CompiledModel m = ExpectSameNumbers([] { return ResidualLayerNorm(true); },
                                      {{kRows, kSeq, kHidden}, {kRows, kSeq, kHidden}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(Counter(m, "fused SkipLayerNorm"), 0);
  EXPECT_EQ(CountType(*m.graph, "LayerNorm"), 1U);
}

// ---- GELU ----

constexpr float kSqrt2 = 1.41421356F;

/// x [4, 40]. erf spellings 0..2, tanh spellings 3..4; `half` is the 0.5 (0.6 must not match).
ComputeGraphPtr GeluGraph(int spelling, float half = 0.5F, float cubic = 0.044715F,
                          bool extra_reader = false) {
  ProtoGraph b("gelu");
  NodePtr x = b.Data("x", {4, 40});
  auto k = [&](const std::string& name, float v, std::vector<int64_t> dims = {}) {
    return b.Const<float>(name, DT_FLOAT, std::move(dims), {v});
  };
  NodePtr y, inner;
  if (spelling == 0) {  // torch: x * (1 + erf(x / sqrt 2)) * 0.5
    inner = b.Op("Erf", "erf", {{b.Op("RealDiv", "scaled", {{x, 0}, {k("sqrt2", kSqrt2), 0}}), 0}});
    NodePtr a = b.Op("Add", "plus1", {{inner, 0}, {k("one", 1.0F), 0}});
    y = b.Op("Mul", "half",
             {{b.Op("Mul", "times_x", {{x, 0}, {a, 0}}), 0}, {k("half_c", half), 0}});
  } else if (spelling == 1) {  // constants first: 0.5 * (1 + erf(0.7071 * x)) then * x
    inner = b.Op("Erf", "erf",
                 {{b.Op("Mul", "scaled", {{k("rsqrt2", 0.70710678F, {1}), 0}, {x, 0}}), 0}});
    NodePtr a = b.Op("Add", "plus1", {{k("one", 1.0F, {1}), 0}, {inner, 0}});
    y = b.Op("Mul", "times_x",
             {{b.Op("Mul", "half", {{k("half_c", half), 0}, {a, 0}}), 0}, {x, 0}});
  } else if (spelling == 2) {  // (x * 0.5) * (1 + erf(x / sqrt 2))
    NodePtr hx = b.Op("Mul", "half", {{x, 0}, {k("half_c", half), 0}});
    inner = b.Op("Erf", "erf", {{b.Op("RealDiv", "scaled", {{x, 0}, {k("sqrt2", kSqrt2), 0}}), 0}});
    NodePtr a = b.Op("Add", "plus1", {{inner, 0}, {k("one", 1.0F), 0}});
    y = b.Op("Mul", "times_x", {{hx, 0}, {a, 0}});
  } else {  // tanh: 3 with Pow and x first, 4 with x * x * x and constants first
    NodePtr cube =
        spelling == 3 ? b.Op("Pow", "cube", {{x, 0}, {k("three", 3.0F), 0}})
                      : b.Op("Mul", "cube", {{b.Op("Mul", "square", {{x, 0}, {x, 0}}), 0}, {x, 0}});
    NodePtr c = spelling == 3 ? b.Op("Mul", "cubic", {{cube, 0}, {k("c", cubic), 0}})
                              : b.Op("Mul", "cubic", {{k("c", cubic), 0}, {cube, 0}});
    NodePtr sum =
        spelling == 3 ? b.Op("Add", "sum", {{x, 0}, {c, 0}}) : b.Op("Add", "sum", {{c, 0}, {x, 0}});
    NodePtr sc = b.Op("Mul", "scaled", {{sum, 0}, {k("s2pi", 0.7978845608F), 0}});
    inner = b.Op("Tanh", "tanh", {{sc, 0}});
    NodePtr a = b.Op("Add", "plus1", {{k("one", 1.0F), 0}, {inner, 0}});
    if (spelling == 3) {
      y = b.Op("Mul", "half",
               {{b.Op("Mul", "times_x", {{x, 0}, {a, 0}}), 0}, {k("half_c", half), 0}});
    } else {
      y = b.Op("Mul", "times_x",
               {{a, 0}, {b.Op("Mul", "half", {{k("half_c", half), 0}, {x, 0}}), 0}});
    }
  }
  if (extra_reader) {
    b.Output({{y, 0}, {inner, 0}});
  } else {
    b.Output({{y, 0}});
  }
  return b.graph();
}

TEST_F(FusionTransformerTest, GeluInItsErfAndTanhSpellings) {
  for (int spelling = 0; spelling < 5; ++spelling) {
    SCOPED_TRACE(spelling);
    CompiledModel m = ExpectSameNumbers([&] { return GeluGraph(spelling); }, {{4, 40}});
    ASSERT_NE(m.graph, nullptr);
    const bool tanh = spelling >= 3;
    EXPECT_EQ(Counter(m, tanh ? "fused Gelu(tanh)" : "fused Gelu"), 1);
    const NodePtr gelu = OnlyNodeOf(m, "Gelu");
    ASSERT_NE(gelu, nullptr);
    std::string approximate;
    ASSERT_TRUE(AttrUtils::GetStr(gelu->GetOpDesc(), "approximate", approximate));
    EXPECT_EQ(approximate, tanh ? "tanh" : "none");
    EXPECT_EQ(FusedFrom(gelu).size(), spelling == 4 ? 9U : tanh ? 8U : 5U);
    EXPECT_EQ(CountType(*m.graph, tanh ? "Tanh" : "Erf"), 0U);
  }
}

TEST_F(FusionTransformerTest, GeluWithWrongConstantsOrASecondReaderStays) {
  struct Case {
    int spelling;
    float half, cubic;
    bool extra_reader;
  };
  for (const Case& c : {Case{0, 0.6F, 0.044715F, false}, Case{2, 0.6F, 0.044715F, false},
                        Case{3, 0.5F, 0.05F, false}, Case{1, 0.5F, 0.044715F, true},
                        Case{4, 0.5F, 0.044715F, true}}) {
    SCOPED_TRACE(c.spelling);
    CompiledModel m = ExpectSameNumbers(
        [&] { return GeluGraph(c.spelling, c.half, c.cubic, c.extra_reader); }, {{4, 40}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(Counter(m, "fused Gelu") + Counter(m, "fused Gelu(tanh)"), 0);
    EXPECT_EQ(CountType(*m.graph, "Gelu"), 0U);
  }
}

// ---- Softmax ----

/// x [3, 5, 12]: 0: Exp(x - ReduceMax) / ReduceSum (axes as input); 1:
/// Reciprocal(ReduceSum(Exp(x)))
/// * Exp(x) (axes as attribute). `sum_axis`/`max_axis` other than 2 must not match.
ComputeGraphPtr SoftmaxGraph(int spelling, int64_t sum_axis = -1, int64_t max_axis = -1) {
  ProtoGraph b("softmax");
  NodePtr x = b.Data("x", {3, 5, 12});
  NodePtr e;
  if (spelling == 0) {
    NodePtr mx = b.Op("ReduceMax", "max", {{x, 0}}, {{"axes", Ints({max_axis})}});
    e = b.Op("Exp", "exp", {{b.Op("Sub", "shifted", {{x, 0}, {mx, 0}}), 0}});
    NodePtr ax = b.Const<int64_t>("axes", DT_INT64, {1}, {sum_axis});
    NodePtr s = b.Op("ReduceSum", "sum", {{e, 0}, {ax, 0}});
    b.Output({{b.Op("RealDiv", "div", {{e, 0}, {s, 0}}), 0}});
  } else {
    e = b.Op("Exp", "exp", {{x, 0}});
    NodePtr s =
        b.Op("ReduceSum", "sum", {{e, 0}}, {{"axes", Ints({sum_axis == -1 ? 2 : sum_axis})}});
    NodePtr r = b.Op("Reciprocal", "inv", {{s, 0}});
    b.Output({{b.Op("Mul", "div", {{r, 0}, {e, 0}}), 0}});
  }
  return b.graph();
}

TEST_F(FusionTransformerTest, SoftmaxFromItsPieces) {
  for (int spelling : {0, 1}) {
    SCOPED_TRACE(spelling);
    CompiledModel m = ExpectSameNumbers([&] { return SoftmaxGraph(spelling); }, {{3, 5, 12}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(Counter(m, "fused Softmax"), 1);
    const NodePtr sm = OnlyNodeOf(m, "SoftmaxV2");
    EXPECT_EQ(FusedFrom(sm).size(), spelling == 0 ? 5U : 4U);
    EXPECT_EQ(CountType(*m.graph, "Exp"), 0U);
  }
}

TEST_F(FusionTransformerTest, SoftmaxOverAnotherAxisStays) {
  struct Case {
    int spelling;
    int64_t sum_axis, max_axis;
  };
  for (const Case& c : {Case{0, 1, 1}, Case{0, 1, -1}, Case{1, 1, -1}}) {
    SCOPED_TRACE(::testing::Message() << c.spelling << " " << c.sum_axis << " " << c.max_axis);
    auto m = Compile(SoftmaxGraph(c.spelling, c.sum_axis, c.max_axis));
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(Counter(*m, "fused Softmax"), 0);
    EXPECT_EQ(CountType(*m->graph, "SoftmaxV2"), 0U);
  }
  // Numbers for the two spellings whose max and sum agree on axis 1.
  ExpectSameNumbers([] { return SoftmaxGraph(0, 1, 1); }, {{3, 5, 12}});
}

// ---- Attention ----

constexpr int64_t kB = 2, kH = 4, kS = 16, kD = 8;

struct AttnSpelling {
  int k_form = 0;          ///< 0: K^T given; 1: Transpose(K) of the last two axes; 2: MatMul adj_x2
  bool mul_scale = false;  ///< scores * c, else scores / c
  bool scale_q = false;    ///< q * c before the product instead
  bool mask = false;       ///< + mask [B, 1, 1, S] (mask first)
  bool pieces = false;     ///< softmax as Exp/ReduceSum/Div with the max
  int softmax_axis = -1;
  bool scores_out = false;   ///< the scores also a graph output
  bool cyclic_mask = false;  ///< mask = Relu(scaled scores): fusing would create a cycle
  /// A decoder's Where: 1 Where(hidden, -inf, scores), 2 Where(seen, scores, -inf), 3 like 1 with
  /// one key of the condition wrong (not causal).
  int causal = 0;
};

ComputeGraphPtr AttentionGraph(const AttnSpelling& s) {
  ProtoGraph b("attention");
  NodePtr q = b.Data("q", {kB, kH, kS, kD});
  NodePtr k = b.Data("k", s.k_form == 0 ? std::vector<int64_t>{kB, kH, kD, kS}
                                        : std::vector<int64_t>{kB, kH, kS, kD});
  NodePtr v = b.Data("v", {kB, kH, kS, kD});
  NodePtr mask = s.mask ? b.Data("mask", {kB, 1, 1, kS}) : nullptr;
  NodePtr kt = k;
  std::map<std::string, AttrValue> mm_attrs;
  if (s.k_form == 1) kt = b.Op("Transpose", "kt", {{k, 0}}, {{"perm", Ints({0, 1, 3, 2})}});
  if (s.k_form == 2) mm_attrs["adj_x2"] = AttrValue(true);
  const float c = std::sqrt(static_cast<float>(kD));
  NodePtr qq = s.scale_q ? b.Op("Mul", "scale_q",
                                {{q, 0}, {b.Const<float>("cq", DT_FLOAT, {}, {1.0F / c}), 0}})
                         : q;
  NodePtr scores = b.Op("BatchMatMulV2", "qk", {{qq, 0}, {kt, 0}}, mm_attrs);
  NodePtr scaled =
      s.scale_q ? scores
      : s.mul_scale
          ? b.Op("Mul", "scale", {{b.Const<float>("c", DT_FLOAT, {1}, {1.0F / c}), 0}, {scores, 0}})
          : b.Op("RealDiv", "scale", {{scores, 0}, {b.Const<float>("c", DT_FLOAT, {}, {c}), 0}});
  if (s.mask) scaled = b.Op("Add", "masked", {{mask, 0}, {scaled, 0}});
  if (s.causal != 0) {
    std::vector<uint8_t> cond(static_cast<size_t>(kS * kS));
    for (int64_t i = 0; i < kS; ++i) {
      for (int64_t j = 0; j < kS; ++j) {
        const bool hidden = j > i;
        cond[static_cast<size_t>(i * kS + j)] = (s.causal == 2 ? !hidden : hidden) ? 1 : 0;
      }
    }
    if (s.causal == 3) cond[3] = 0;  // query 0 sees key 3
    NodePtr c = b.Const<uint8_t>("causal_cond", DT_BOOL, {1, 1, kS, kS}, cond);
    NodePtr fill = b.Const<float>("fill", DT_FLOAT, {}, {-INFINITY});
    scaled = s.causal == 2 ? b.Op("SelectV2", "masked", {{c, 0}, {scaled, 0}, {fill, 0}})
                           : b.Op("SelectV2", "masked", {{c, 0}, {fill, 0}, {scaled, 0}});
  }
  if (s.cyclic_mask)
    scaled = b.Op("Add", "masked", {{scaled, 0}, {b.Op("Relu", "relu", {{scaled, 0}}), 0}});
  NodePtr probs;
  if (s.pieces) {
    NodePtr mx = b.Op("ReduceMax", "max", {{scaled, 0}}, {{"axes", Ints({-1})}});
    NodePtr e = b.Op("Exp", "exp", {{b.Op("Sub", "shifted", {{scaled, 0}, {mx, 0}}), 0}});
    NodePtr sum =
        b.Op("ReduceSum", "sum", {{e, 0}, {b.Const<int64_t>("axes", DT_INT64, {1}, {-1}), 0}});
    probs = b.Op("RealDiv", "probs", {{e, 0}, {sum, 0}});
  } else {
    probs =
        b.Op("SoftmaxV2", "probs", {{scaled, 0}}, {{"axis", AttrValue(int64_t{s.softmax_axis})}});
  }
  NodePtr out = b.Op("BatchMatMulV2", "pv", {{probs, 0}, {v, 0}});
  if (s.scores_out) {
    b.Output({{out, 0}, {scores, 0}});
  } else {
    b.Output({{out, 0}});
  }
  return b.graph();
}

std::vector<std::vector<int64_t>> AttentionInputs(const AttnSpelling& s) {
  std::vector<std::vector<int64_t>> dims = {
      {kB, kH, kS, kD},
      s.k_form == 0 ? std::vector<int64_t>{kB, kH, kD, kS} : std::vector<int64_t>{kB, kH, kS, kD},
      {kB, kH, kS, kD}};
  if (s.mask) dims.push_back({kB, 1, 1, kS});
  return dims;
}

TEST_F(FusionTransformerTest, AttentionBecomesOneFusedAttention) {
  const std::vector<AttnSpelling> spellings = {
      {},  // BERT's export
      {.k_form = 1, .mul_scale = true, .mask = true, .pieces = true},
      {.k_form = 2, .mul_scale = true, .softmax_axis = 3},
      {.k_form = 0, .mask = true},
      {.k_form = 1, .scale_q = true, .mask = true},  // q scaled before the product
      {.causal = 1},                                 // GPT-2's masked_fill
      {.k_form = 2, .causal = 2},
  };
  for (const AttnSpelling& s : spellings) {
    SCOPED_TRACE(::testing::Message() << "k form " << s.k_form << " mul " << s.mul_scale << " q "
                                      << s.scale_q << " mask " << s.mask << " pieces " << s.pieces);
    CompiledModel m = ExpectSameNumbers([&] { return AttentionGraph(s); }, AttentionInputs(s));
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(Counter(m, "fused Attention"), 1);
    const NodePtr a = OnlyNodeOf(m, "FusedAttention");
    ASSERT_NE(a, nullptr);
    bool k_transposed = false;
    float scale = 0;
    ASSERT_TRUE(AttrUtils::GetBool(a->GetOpDesc(), "k_transposed", k_transposed));
    ASSERT_TRUE(AttrUtils::GetFloat(a->GetOpDesc(), "scale", scale));
    EXPECT_EQ(k_transposed, s.k_form == 0);
    EXPECT_NEAR(scale, 1.0F / std::sqrt(static_cast<float>(kD)), 1e-6F);
    size_t connected = 0;
    for (const InDataAnchorPtr& in : a->GetAllInDataAnchors())
      connected += in->GetPeerOutAnchor() != nullptr;
    EXPECT_EQ(connected, s.mask ? 4U : 3U);
    bool causal = false;
    AttrUtils::GetBool(a->GetOpDesc(), "causal", causal);
    EXPECT_EQ(causal, s.causal != 0);
    const std::vector<std::string> from = FusedFrom(a);
    EXPECT_EQ(from.back(), "pv");
    EXPECT_EQ(from.front(), s.scale_q ? "scale_q" : s.k_form == 1 ? "kt" : "qk");
    EXPECT_EQ(CountType(*m.graph, "BatchMatMulV2"), 0U);
  }
}

TEST_F(FusionTransformerTest, AttentionThatMustNotFuse) {
  const std::vector<AttnSpelling> spellings = {
      {.scores_out = true},  // the scores have a second reader
      {.softmax_axis = 2},   // softmax over the query axis
      {.pieces = true, .scores_out = true},
      {.causal = 3},  // a condition that is not causal
  };
  for (const AttnSpelling& s : spellings) {
    CompiledModel m = ExpectSameNumbers([&] { return AttentionGraph(s); }, AttentionInputs(s));
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(Counter(m, "fused Attention"), 0);
    EXPECT_EQ(CountType(*m.graph, "FusedAttention"), 0U);
  }
}

// The mask is computed from the scaled scores: one node for the whole group would read its own
// output through Relu. The group is not closed (the scaled scores have a reader outside it), so
// no candidate is proposed and the graph computes as before.
TEST_F(FusionTransformerTest, AttentionWhoseFusionWouldCreateACycleStays) {
  const AttnSpelling s{.cyclic_mask = true};
  ComputeGraphPtr g = AttentionGraph(s);
  std::vector<NodePtr> group;
  for (const char* name : {"qk", "scale", "masked", "probs", "pv"})
    group.push_back(g->FindNode(name));
  EXPECT_TRUE(passes::FusionWouldCreateCycle(group));
  CompiledModel m = ExpectSameNumbers([&] { return AttentionGraph(s); }, AttentionInputs(s));
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(Counter(m, "fused Attention"), 0);
  EXPECT_EQ(CountType(*m.graph, "FusedAttention"), 0U);
}

// ---- The BERT-like encoder ----

class FusionTransformerModels : public FusionTransformerTest,
                                public ::testing::WithParamInterface<int> {};

TEST_P(FusionTransformerModels, BertEncoderFusesItsStructuresAndKeepsItsNumbers) {
  ASSERT_EQ(testing::ExportStatus(GE_TEST_MODELS_DIR), "ok");
  const std::string path = std::string(GE_TEST_MODELS_DIR) + "/bert_encoder_opset" +
                           std::to_string(GetParam()) + "/model.onnx";
  const std::map<std::string, std::string> shape = {{"ge.inputShape", "input_ids:2,16"}};
  auto g1 = ParseOnnxFile(path);
  auto g2 = ParseOnnxFile(path);
  ASSERT_TRUE(g1.ok() && g2.ok()) << g1.status().message();
  auto fused = Compile(*g1, shape);
  auto no_fusion = shape;
  no_fusion["openge.disablePasses"] = "Fusion";
  auto plain = Compile(*g2, no_fusion);
  ASSERT_TRUE(fused.ok()) << fused.status().message();
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  // Two layers: attention and GELU each twice; all five LayerNorms take the Add before them
  // (the embedding's broadcasts the position embedding over the batch); at opset 13 they are
  // written out in pieces.
  EXPECT_EQ(Counter(*fused, "fused Attention"), 2);
  EXPECT_EQ(Counter(*fused, "fused Gelu"), 2);
  EXPECT_EQ(Counter(*fused, "fused SkipLayerNorm"), 5);
  EXPECT_EQ(Counter(*fused, "fused LayerNorm"), 0);
  EXPECT_EQ(CountType(*fused->graph, "FusedAttention"), 2U);
  EXPECT_EQ(CountType(*fused->graph, "SkipLayerNorm"), 5U);
  EXPECT_EQ(CountType(*fused->graph, "LayerNorm"), 0U);
  EXPECT_EQ(CountType(*fused->graph, "Erf"), 0U);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int64_t> token(0, 999);
  std::vector<int64_t> ids(32);
  for (int64_t& id : ids) id = token(rng);
  const std::vector<GeTensor> inputs = {MakeTensor(DT_INT64, {2, 16}, ids)};
  const auto a = fusion_test::Run(std::move(fused).value(), inputs);
  const auto b = fusion_test::Run(std::move(plain).value(), inputs);
  ASSERT_EQ(a.size(), 1U);
  ASSERT_EQ(b.size(), 1U);
  ASSERT_EQ(a[0].size(), 2U * 16 * 64);
  for (size_t i = 0; i < a[0].size(); ++i) {
    ASSERT_NEAR(a[0][i], b[0][i], 1e-4F * std::max(1.0F, std::fabs(b[0][i]))) << "element " << i;
  }
}

// Compiled with unknown batch and sequence, run at two shapes: the fused kernels take any dims.
TEST_P(FusionTransformerModels, BertEncoderWithUnknownDimsFusesAndKeepsItsNumbers) {
  ASSERT_EQ(testing::ExportStatus(GE_TEST_MODELS_DIR), "ok");
  const std::string path = std::string(GE_TEST_MODELS_DIR) + "/bert_encoder_opset" +
                           std::to_string(GetParam()) + "/model.onnx";
  std::map<std::string, std::string> options = {{"ge.inputShape", "input_ids:-1,-1"}};
  auto g1 = ParseOnnxFile(path);
  auto g2 = ParseOnnxFile(path);
  ASSERT_TRUE(g1.ok() && g2.ok()) << g1.status().message();
  auto fused = Compile(*g1, options);
  options["openge.disablePasses"] = "Fusion";
  auto plain = Compile(*g2, options);
  ASSERT_TRUE(fused.ok()) << fused.status().message();
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  // The dims are expressions over the inputs' (SymbolicShapes): the cost model sizes them, and
  // the patterns see that the bias and residual Adds keep the products' shapes. Everything the
  // static compile fuses fuses.
  EXPECT_EQ(Counter(*fused, "fused Attention"), 2);
  EXPECT_EQ(Counter(*fused, "fused Gelu"), 2);
  EXPECT_EQ(Counter(*fused, "fused SkipLayerNorm"), 5);
  EXPECT_EQ(Counter(*fused, "fused BatchMatMulV2+Bias") +
                Counter(*fused, "fused BatchMatMulV2+Bias+Gelu"),
            8);
  std::mt19937 rng(9);
  std::uniform_int_distribution<int64_t> token(0, 999);
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{2, 16}, std::vector<int64_t>{1, 7}}) {
    std::vector<int64_t> ids(static_cast<size_t>(dims[0] * dims[1]));
    for (int64_t& id : ids) id = token(rng);
    const std::vector<GeTensor> inputs = {MakeTensor(DT_INT64, dims, ids)};
    const auto a = fusion_test::Run(*fused, inputs);
    const auto b = fusion_test::Run(*plain, inputs);
    ASSERT_EQ(a.size(), 1U);
    EXPECT_EQ(a[0].size(), static_cast<size_t>(dims[0] * dims[1] * 64));
    ExpectSameOutputs(a, b, 1e-4F);
  }
}

INSTANTIATE_TEST_SUITE_P(Opsets, FusionTransformerModels, ::testing::Values(13, 17));

}  // namespace
}  // namespace ge

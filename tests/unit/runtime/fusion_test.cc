// Fusion: where it fires, where it must not, and that outputs do not change. Each
// graph is compiled with and without the Fusion pass and both run on the same random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

const std::map<std::string, AttrValue> kConvAttrs = {
    {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
    {"strides", AttrValue(std::vector<int64_t>{1, 1})}};

class FusionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  /// x [1,3,8,8] -> Conv2D (4 filters 3x3, bias) -> `activations`..., the last one the output.
  static ComputeGraphPtr ConvChain(const std::vector<std::string>& activations) {
    ProtoGraph b("conv_chain");
    NodePtr x = b.Data("x", {1, 3, 8, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 3, 3, 3}, Random(108, 1, -2.0F, 2.0F));
    NodePtr bias = b.Const<float>("bias", DT_FLOAT, {4}, Random(4, 2));
    NodePtr current = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}, {bias, 0}}, kConvAttrs);
    int k = 0;
    for (const std::string& type : activations) {
      const std::string name = "act" + std::to_string(k++);
      if (type == "Clip") {
        NodePtr lo = b.Const<float>(name + "_min", DT_FLOAT, {}, {0.0F});
        NodePtr hi = b.Const<float>(name + "_max", DT_FLOAT, {}, {6.0F});
        current = b.Op("Clip", name, {{current, 0}, {lo, 0}, {hi, 0}});
      } else if (type == "LeakyRelu") {
        current = b.Op(type, name, {{current, 0}}, {{"alpha", AttrValue(0.2F)}});
      } else {
        current = b.Op(type, name, {{current, 0}});
      }
    }
    b.Output({{current, 0}});
    return b.graph();
  }

  static std::vector<float> RunOn(CompiledModel compiled, const std::vector<float>& x) {
    const auto out = fusion_test::Run(std::move(compiled), {MakeTensor(DT_FLOAT, {1, 3, 8, 8}, x)});
    return out.empty() ? std::vector<float>{} : out[0];
  }

  static NodePtr Find(const CompiledModel& m, const std::string& name) {
    return m.graph->FindNode(name);
  }

  /// The graph compiled with and without fusion gives the same numbers on random inputs.
  static void ExpectSameNumbers(const std::vector<std::string>& activations) {
    auto fused = Compile(ConvChain(activations));
    auto plain = Compile(ConvChain(activations), {{"openge.disablePasses", "Fusion"}});
    ASSERT_TRUE(fused.ok()) << fused.status().message();
    ASSERT_TRUE(plain.ok()) << plain.status().message();
    for (uint32_t seed : {11U, 12U}) {
      const std::vector<float> x = Random(192, seed, -3.0F, 3.0F);
      const std::vector<float> a = RunOn(*fused, x);
      const std::vector<float> b = RunOn(*plain, x);
      ASSERT_EQ(a.size(), 256U);
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(a[i], b[i], 1e-5F * std::max(1.0F, std::fabs(b[i]))) << "element " << i;
      }
    }
  }
};

TEST_F(FusionTest, ConvolutionAbsorbsItsActivation) {
  auto m = Compile(ConvChain({"Relu"}));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(Find(*m, "act0"), nullptr);
  NodePtr conv = Find(*m, "conv");
  ASSERT_NE(conv, nullptr);
  std::vector<std::string> ops, from;
  std::string pattern;
  ASSERT_TRUE(AttrUtils::GetListStr(conv->GetOpDesc(), kAttrFusedPostOps, ops));
  ASSERT_TRUE(AttrUtils::GetListStr(conv->GetOpDesc(), kAttrFusedFrom, from));
  ASSERT_TRUE(AttrUtils::GetStr(conv->GetOpDesc(), kAttrFusedPattern, pattern));
  EXPECT_EQ(ops, (std::vector<std::string>{"Relu"}));
  EXPECT_EQ(from, (std::vector<std::string>{"conv", "act0"}));
  EXPECT_EQ(pattern, "Conv2D+Relu");
  EXPECT_EQ(Counter(*m, "fused Conv2D+Relu"), 1);
  ExpectSameNumbers({"Relu"});
}

TEST_F(FusionTest, ChainsOfActivationsBecomePostOpsInOrder) {
  auto m = Compile(ConvChain({"Clip", "Sigmoid", "LeakyRelu"}));
  ASSERT_TRUE(m.ok()) << m.status().message();
  NodePtr conv = Find(*m, "conv");
  ASSERT_NE(conv, nullptr);
  std::vector<std::string> ops;
  ASSERT_TRUE(AttrUtils::GetListStr(conv->GetOpDesc(), kAttrFusedPostOps, ops));
  EXPECT_EQ(ops, (std::vector<std::string>{"Clip:0:6", "Sigmoid", "LeakyRelu:0.200000003"}));
  EXPECT_EQ(Counter(*m, "fused Conv2D+Clip+Sigmoid+LeakyRelu"), 1);
  ExpectSameNumbers({"Clip", "Sigmoid", "LeakyRelu"});
  ExpectSameNumbers({"Tanh", "HardSwish", "Elu"});
  // GE's Relu6 is a bounded Relu: a Clip post-op.
  auto relu6 = Compile(ConvChain({"Relu6"}));
  ASSERT_TRUE(relu6.ok()) << relu6.status().message();
  ASSERT_TRUE(AttrUtils::GetListStr(Find(*relu6, "conv")->GetOpDesc(), kAttrFusedPostOps, ops));
  EXPECT_EQ(ops, (std::vector<std::string>{"Clip:0:6"}));
  ExpectSameNumbers({"Relu6"});
}

// A convolution whose output has a second reader keeps its activation: fusing would lose the
// pre-activation value the other reader needs. (The Relu and the Add become one
// FusedElementwise instead, which reads the convolution's output once.)
TEST_F(FusionTest, DoesNotFuseAProducerWithTwoReaders) {
  ProtoGraph b("two_readers");
  NodePtr x = b.Data("x", {1, 3, 8, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 3, 3, 3}, Random(108, 1));
  NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, kConvAttrs);
  NodePtr relu = b.Op("Relu", "relu", {{conv, 0}});
  NodePtr sum = b.Op("Add", "sum", {{relu, 0}, {conv, 0}});
  b.Output({{sum, 0}});
  auto m = Compile(b.graph());
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_FALSE(Find(*m, "conv")->GetOpDesc()->HasAttr(kAttrFusedPostOps));
  EXPECT_EQ(Counter(*m, "fused Conv2D+Relu"), 0);
  int64_t fused_elementwise = 0;
  for (const NodePtr& n : m->graph->GetAllNodes()) {
    if (n->GetType() != "FusedElementwise") continue;
    ++fused_elementwise;
    std::vector<std::string> from;
    ASSERT_TRUE(AttrUtils::GetListStr(n->GetOpDesc(), kAttrFusedFrom, from));
    EXPECT_EQ(from, (std::vector<std::string>{"relu", "sum"}));
  }
  EXPECT_EQ(fused_elementwise, 1);
}

// The cost model. An elementwise group pays for the interpreted kernel that runs it: Relu then
// Tanh of x [1, 64] move 4 x 256 bytes, fused 2 x 256 (0.5 of it), so a ratio of 0.45 rejects
// them and 0.55 takes them. Post-ops of a producer run inside its primitive at no cost of their
// own and are taken whenever they move no more bytes, whatever the ratio.
TEST_F(FusionTest, TheCostModelDecides) {
  auto chain = [] {
    ProtoGraph b("elementwise");
    NodePtr x = b.Data("x", {1, 64});
    NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
    NodePtr tanh = b.Op("Tanh", "tanh", {{relu, 0}});
    b.Output({{tanh, 0}});
    return b.graph();
  };
  auto strict = Compile(chain(), {{"openge.fusionCostRatio", "0.45"}});
  ASSERT_TRUE(strict.ok()) << strict.status().message();
  EXPECT_NE(Find(*strict, "relu"), nullptr);
  EXPECT_EQ(Counter(*strict, "rejected by the cost model"), 1);
  auto loose = Compile(chain(), {{"openge.fusionCostRatio", "0.55"}});
  ASSERT_TRUE(loose.ok()) << loose.status().message();
  EXPECT_EQ(Find(*loose, "relu"), nullptr);
  auto post_op = Compile(ConvChain({"Relu"}), {{"openge.fusionCostRatio", "0.1"}});
  ASSERT_TRUE(post_op.ok()) << post_op.status().message();
  EXPECT_EQ(Find(*post_op, "act0"), nullptr);
  EXPECT_EQ(Counter(*post_op, "rejected by the cost model"), 0);
  auto bad = Compiler::Create(testing::TestOptions({{"openge.fusionCostRatio", "1.5"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("expected a number in (0, 1]"), std::string::npos)
      << bad.status().message();
}

// Groups are capped: with at most 2 nodes per group, conv takes Relu and Sigmoid stays.
TEST_F(FusionTest, GroupsStopAtTheCap) {
  auto m = Compile(ConvChain({"Relu", "Sigmoid"}), {{"openge.fusionMaxGroupNodes", "2"}});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(Find(*m, "act0"), nullptr);
  EXPECT_NE(Find(*m, "act1"), nullptr);
  std::vector<std::string> ops;
  ASSERT_TRUE(AttrUtils::GetListStr(Find(*m, "conv")->GetOpDesc(), kAttrFusedPostOps, ops));
  EXPECT_EQ(ops, (std::vector<std::string>{"Relu"}));
  EXPECT_EQ(Counter(*m, "groups cut at openge.fusionMaxGroupNodes"), 1);
}

// The reachability check: in a -> b -> c with a -> c, fusing {a, c} would put the fused node both
// before and after b.
TEST_F(FusionTest, ACycleIsDetectedBeforeFusing) {
  ProtoGraph g("cycle");
  NodePtr x = g.Data("x", {4});
  NodePtr a = g.Op("Relu", "a", {{x, 0}});
  NodePtr b = g.Op("Sigmoid", "b", {{a, 0}});
  NodePtr c = g.Op("Add", "c", {{a, 0}, {b, 0}});
  g.Output({{c, 0}});
  EXPECT_TRUE(passes::FusionWouldCreateCycle({a, c}));
  EXPECT_FALSE(passes::FusionWouldCreateCycle({a, b}));
  EXPECT_FALSE(passes::FusionWouldCreateCycle({b, c}));
  EXPECT_FALSE(passes::FusionWouldCreateCycle({a, b, c}));
}

// The check against its definition on random graphs and groups: fusing makes a cycle exactly when
// some node outside the group is reachable from it and reaches it.
TEST_F(FusionTest, TheCycleCheckAgreesWithReachabilityOnRandomGraphs) {
  std::mt19937 rng(11);
  int cycles = 0, acyclic = 0;
  for (int trial = 0; trial < 300; ++trial) {
    constexpr int kNodes = 10;
    ProtoGraph g("random");
    std::vector<NodePtr> nodes = {g.Data("x", {4})};
    std::vector<std::vector<bool>> edge(kNodes, std::vector<bool>(kNodes, false));
    for (int i = 1; i < kNodes; ++i) {
      const auto a = static_cast<int>(rng() % static_cast<unsigned>(i));
      const auto b = static_cast<int>(rng() % static_cast<unsigned>(i));
      edge[a][i] = edge[b][i] = true;
      nodes.push_back(g.Op("Add", "n" + std::to_string(i), {{nodes[a], 0}, {nodes[b], 0}}));
    }
    g.Output({{nodes.back(), 0}});
    // reach[i][j]: a path i -> ... -> j (nodes are in topological order).
    std::vector<std::vector<bool>> reach = edge;
    for (int j = 0; j < kNodes; ++j) {
      for (int i = j - 1; i >= 0; --i) {
        for (int k = i + 1; k < j && !reach[i][j]; ++k) reach[i][j] = reach[i][k] && reach[k][j];
      }
    }
    std::vector<NodePtr> group;
    std::vector<bool> in(kNodes, false);
    for (int i = 1; i < kNodes; ++i) {
      if (rng() % 3 == 0) {
        group.push_back(nodes[i]);
        in[i] = true;
      }
    }
    if (group.size() < 2) continue;
    bool cycle = false;
    for (int u = 0; u < kNodes && !cycle; ++u) {
      if (in[u]) continue;
      bool from = false, to = false;
      for (int m = 0; m < kNodes; ++m) {
        if (!in[m]) continue;
        from = from || reach[m][u];
        to = to || reach[u][m];
      }
      cycle = from && to;
    }
    cycles += cycle ? 1 : 0;
    acyclic += cycle ? 0 : 1;
    EXPECT_EQ(passes::FusionWouldCreateCycle(group), cycle) << "trial " << trial;
  }
  EXPECT_GT(cycles, 20);  // both answers are exercised
  EXPECT_GT(acyclic, 20);
}

// mobilenet_v2's ReLU6s (Clip) after its 35 convolutions and the residual Adds after its 1x1
// projections all become post-ops, even where the convolution's input is six times its output
// (fusing saves little in proportion, but a whole pass over the output). Outputs against torch,
// fused and not, are run_models_test's business.
TEST_F(FusionTest, MobilenetsReluSixesAndResidualsAreAllFused) {
  const std::string path = std::string(GE_TEST_MODELS_DIR) + "/mobilenet_v2_opset17/model.onnx";
  auto graph = ParseOnnxFile(path);
  ASSERT_TRUE(graph.ok()) << testing::ExportStatus(GE_TEST_MODELS_DIR) << ": "
                          << graph.status().message();
  auto m = Compile(*graph);
  ASSERT_TRUE(m.ok()) << m.status().message();
  int64_t clips = 0, adds = 0;
  for (const NodePtr& n : m->graph->GetAllNodes()) {
    clips += n->GetType() == "Clip" ? 1 : 0;
    adds += n->GetType() == "Add" ? 1 : 0;
  }
  EXPECT_EQ(Counter(*m, "fused Conv2D+Clip"), 35);
  EXPECT_EQ(Counter(*m, "fused Conv2D+Add"), 10);
  EXPECT_EQ(Counter(*m, "rejected by the cost model"), 0);
  EXPECT_EQ(clips, 0);
  EXPECT_EQ(adds, 0);
}

}  // namespace
}  // namespace ge

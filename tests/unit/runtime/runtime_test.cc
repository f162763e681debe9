// The runtime on small compiled graphs: numbers against a reference computed here, optimizations
// on and off give the same outputs, and the errors a caller meets.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "../process_memory.h"
#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/runtime/loaded_model.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using testing::EngineOptions;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

// y = relu(x) * 3 + (relu(x) - c) / 2, with a folded constant branch and an identity.
ComputeGraphPtr Sample() {
  ProtoGraph b("sample");
  NodePtr x = b.Data("x", {4, 8});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr id = b.Op("Identity", "id", {{relu, 0}});
  NodePtr one = b.Const<float>("one", DT_FLOAT, {1}, {1.0F});
  NodePtr two = b.Const<float>("two", DT_FLOAT, {1}, {2.0F});
  NodePtr three = b.Op("Add", "three", {{one, 0}, {two, 0}});  // folded
  NodePtr scaled = b.Op("Mul", "scaled", {{id, 0}, {three, 0}});
  NodePtr c = b.Const<float>("c", DT_FLOAT, {8}, {0, 1, 2, 3, 4, 5, 6, 7});
  NodePtr diff = b.Op("Sub", "diff", {{relu, 0}, {c, 0}});
  NodePtr half = b.Op("RealDiv", "half", {{diff, 0}, {two, 0}});
  NodePtr sum = b.Op("Add", "sum", {{scaled, 0}, {half, 0}});
  b.Output({{sum, 0}, {relu, 0}});
  return b.graph();
}

std::vector<float> Reference(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float r = std::max(x[i], 0.0F);
    y[i] = r * 3.0F + (r - static_cast<float>(i % 8)) / 2.0F;
  }
  return y;
}

std::vector<float> RandomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2.0F, 2.0F);
  std::vector<float> v(n);
  for (float& f : v) f = dist(rng);
  return v;
}

class RuntimeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static std::unique_ptr<LoadedModel> CompileAndLoad(
      ComputeGraphPtr graph, std::map<std::string, std::string> extra = {}) {
    auto compiler = Compiler::Create(testing::TestOptions(std::move(extra)));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    if (!compiler.ok()) return nullptr;
    auto compiled = (*compiler)->Compile(graph);
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    if (!compiled.ok()) return nullptr;
    auto model = LoadedModel::Load(std::move(compiled).value(), EngineOptions());
    EXPECT_TRUE(model.ok()) << model.status().message();
    return model.ok() ? std::move(model).value() : nullptr;
  }
};

TEST_F(RuntimeTest, RunsACompiledGraphAndMatchesTheReference) {
  auto model = CompileAndLoad(Sample());
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].name, "x");
  ASSERT_EQ(model->outputs().size(), 2u);
  for (uint32_t seed = 0; seed < 3; ++seed) {  // the arena is reused across runs
    const std::vector<float> x = RandomValues(32, seed);
    auto outputs = model->Run({MakeTensor<float>(DT_FLOAT, {4, 8}, x)});
    ASSERT_TRUE(outputs.ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 2u);
    EXPECT_EQ((*outputs)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 8}));
    const std::vector<float> y = TensorValues<float>((*outputs)[0]);
    const std::vector<float> want = Reference(x);
    for (size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], want[i]) << i;
    const std::vector<float> r = TensorValues<float>((*outputs)[1]);
    for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i], std::max(x[i], 0.0F));
  }
}

TEST_F(RuntimeTest, OptimizationsDoNotChangeTheNumbers) {
  auto optimized = CompileAndLoad(Sample());
  auto plain =
      CompileAndLoad(Sample(), {{"openge.disablePasses",
                                 "ConstantFolding,SimplifyChains,"
                                 "CommonSubexpressionElimination,Fusion,DeadCodeElimination"},
                                {"ge.exec.disableReuseMemory", "1"}});
  ASSERT_NE(optimized, nullptr);
  ASSERT_NE(plain, nullptr);
  EXPECT_GT(plain->arena_bytes(), optimized->arena_bytes());
  const std::vector<float> x = RandomValues(32, 7);
  auto a = optimized->Run({MakeTensor<float>(DT_FLOAT, {4, 8}, x)});
  auto b = plain->Run({MakeTensor<float>(DT_FLOAT, {4, 8}, x)});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(TensorValues<float>((*a)[0]), TensorValues<float>((*b)[0]));
}

TEST_F(RuntimeTest, ACompiledModelFileLoadsAndRuns) {
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(Sample());
  ASSERT_TRUE(compiled.ok());
  const std::string path = ::testing::TempDir() + "/sample.om";
  ASSERT_TRUE(compiled->SaveToFile(path).ok());
  auto model = LoadedModel::LoadFromFile(path, EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<float> x = RandomValues(32, 3);
  auto out =
      (*model)->Run(std::map<std::string, GeTensor>{{"x", MakeTensor<float>(DT_FLOAT, {4, 8}, x)}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ(TensorValues<float>(out->begin()->second).size(), 32u);
}

TEST_F(RuntimeTest, BadInputsAreRefusedNamingTheInput) {
  auto model = CompileAndLoad(Sample());
  ASSERT_NE(model, nullptr);
  auto none = model->Run(std::vector<GeTensor>{});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("takes 1 input(s), 0 given"), std::string::npos);
  auto shape = model->Run({MakeTensor<float>(DT_FLOAT, {8, 4}, std::vector<float>(32))});
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.status().message().find("input 'x' must be DT_FLOAT [4,8]"), std::string::npos)
      << shape.status().message();
  auto dtype = model->Run({MakeTensor<int32_t>(DT_INT32, {4, 8}, std::vector<int32_t>(32))});
  ASSERT_FALSE(dtype.ok());
  auto bytes = model->Run({MakeTensor<float>(DT_FLOAT, {4, 8}, std::vector<float>(3))});
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("holds 12 bytes"), std::string::npos)
      << bytes.status().message();
  auto named = model->Run(std::map<std::string, GeTensor>{
      {"y", MakeTensor<float>(DT_FLOAT, {4, 8}, std::vector<float>(32))}});
  ASSERT_FALSE(named.ok());
  EXPECT_NE(named.status().message().find("'x' is not given"), std::string::npos);
}

// Weights are read where the Const tensors hold them, not copied into a region of their own:
// a Const that is a graph output, and a Reshape planned as a view of a Const (folding off), read
// the right bytes; a Const whose value is shorter than its desc fails the load, naming it.
TEST_F(RuntimeTest, WeightsAreReadInPlaceFromTheConsts) {
  auto make = [] {
    ProtoGraph b("weights");
    NodePtr x = b.Data("x", {2, 3});
    NodePtr c = b.Const<float>("c", DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
    NodePtr shape = b.Const<int64_t>("shape", DT_INT64, {2}, {3, 2});
    NodePtr view = b.Op("Reshape", "view", {{c, 0}, {shape, 0}});
    NodePtr add = b.Op("Add", "add", {{x, 0}, {c, 0}});
    b.Output({{add, 0}, {c, 0}, {view, 0}});
    return b.graph();
  };
  auto compiler =
      Compiler::Create(testing::TestOptions({{"openge.disablePasses", "ConstantFolding"}}));
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(make());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = LoadedModel::Load(*compiled, EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_GE((*model)->weight_bytes(), 24);
  auto out = (*model)->Run({MakeTensor<float>(DT_FLOAT, {2, 3}, {10, 10, 10, 10, 10, 10})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 3U);
  EXPECT_EQ(TensorValues<float>((*out)[0]), (std::vector<float>{11, 12, 13, 14, 15, 16}));
  EXPECT_EQ(TensorValues<float>((*out)[1]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(TensorValues<float>((*out)[2]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ((*out)[2].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3, 2}));

  auto damaged = (*compiler)->Compile(make());
  ASSERT_TRUE(damaged.ok());
  NodePtr c = damaged->graph->FindNode("c");
  ASSERT_NE(c, nullptr);
  // The value alone is cut (its desc still says [2, 3]), as in a damaged file.
  ASSERT_TRUE(AttrUtils::SetTensor(c->GetOpDesc(), kAttrConstValue,
                                   MakeTensor<float>(DT_FLOAT, {2}, {1, 2})));
  auto refused = LoadedModel::Load(std::move(damaged).value(), EngineOptions());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("node 'c' (Const): its value (8 bytes) does not fit"),
            std::string::npos)
      << refused.status().message();
}

// Loading takes no memory for the activation arena: its pages are zeros the system gives as the
// first run writes them, so a model is ready without touching them, and every run (the first,
// and the later ones reusing the arena) gives the same numbers.
TEST_F(RuntimeTest, TheArenaTakesMemoryOnlyAsARunWritesIt) {
  constexpr int64_t kSide = 1024;  // 4 MiB per tensor
  ProtoGraph b("arena");
  NodePtr x = b.Data("x", {kSide, kSide});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr turned =
      b.Op("Transpose", "turned", {{relu, 0}}, {{"perm", AttrValue(std::vector<int64_t>{1, 0})}});
  NodePtr sig = b.Op("Sigmoid", "sig", {{turned, 0}});
  NodePtr back =
      b.Op("Transpose", "back", {{sig, 0}}, {{"perm", AttrValue(std::vector<int64_t>{1, 0})}});
  NodePtr sum = b.Op("Add", "sum", {{back, 0}, {relu, 0}});
  b.Output({{sum, 0}});
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(b.graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  auto model = LoadedModel::Load(std::move(compiled).value(), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  const int64_t loaded = testing::ProcStatusBytes("VmRSS") - before;
  const int64_t arena = (*model)->arena_bytes();
  ASSERT_GE(arena, 2 * kSide * kSide * 4) << "the test wants an arena of several tensors";
  EXPECT_LT(loaded, arena / 4) << "loading took " << loaded << " bytes for an arena of " << arena;

  const std::vector<float> values = RandomValues(kSide * kSide, 3);
  for (int run = 0; run < 2; ++run) {
    auto out = (*model)->Run({MakeTensor(DT_FLOAT, {kSide, kSide}, values)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), values.size());
    for (size_t i = 0; i < values.size(); i += 4099) {
      const float r = std::max(values[i], 0.0F);
      EXPECT_NEAR(y[i], r + 1.0F / (1.0F + std::exp(-r)), 1e-5F) << "run " << run << ", " << i;
    }
  }
}

// Threads: 0 (the default) takes every core and gives the same numbers as one thread; a negative
// count, of threads or of any other option where 0 means the machine's figure, is refused.
TEST_F(RuntimeTest, ThreadCountDefaultsToEveryCore) {
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  const std::vector<float> x = RandomValues(32, 7);
  std::vector<std::vector<float>> results;
  for (int threads : {0, 1, 2}) {
    auto compiled = (*compiler)->Compile(Sample());
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    RuntimeOptions options = EngineOptions();
    options.threads = threads;
    auto model = LoadedModel::Load(std::move(compiled).value(), options);
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {4, 8}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    results.push_back(TensorValues<float>((*out)[0]));
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[1], results[2]);
  auto compiled = (*compiler)->Compile(Sample());
  ASSERT_TRUE(compiled.ok());
  const std::vector<std::pair<std::string, std::function<void(RuntimeOptions&)>>> negatives = {
      {"threads must be 0", [](RuntimeOptions& o) { o.threads = -1; }},
      {"max_concurrent_runs must be 0", [](RuntimeOptions& o) { o.max_concurrent_runs = -1; }}};
  for (const auto& [message, set] : negatives) {
    RuntimeOptions negative = EngineOptions();
    set(negative);
    auto refused = LoadedModel::Load(*compiled, negative);
    ASSERT_FALSE(refused.ok()) << message;
    EXPECT_NE(refused.status().message().find(message), std::string::npos)
        << refused.status().message();
  }
}

}  // namespace
}  // namespace ge

// A compiled model is a file: its memory plan, offsets, regions, input slots and Const values
// are checked at load against the buffers they index, and an edited one is refused with the node
// and the cause, never run out of bounds. Inputs with a default value (an ONNX initializer that
// is also a graph input) run with it when the caller leaves them out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <limits>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/runtime/loaded_model.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using testing::EngineOptions;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

// y = relu(x + w) with w a Const: an arena tensor, a weight and an input slot.
ComputeGraphPtr Small() {
  ProtoGraph b("small");
  NodePtr x = b.Data("x", {2, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {8}, {1, 2, 3, 4, 5, 6, 7, 8});
  NodePtr add = b.Op("Add", "add", {{x, 0}, {w, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{add, 0}});
  b.Output({{relu, 0}});
  return b.graph();
}

class UntrustedModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // Compiled without fusion, so each node keeps its name and its own planned output.
  static CompiledModel Compile(ComputeGraphPtr graph) {
    auto compiler = Compiler::Create(testing::TestOptions({{"openge.disablePasses", "Fusion"}}));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    auto compiled = (*compiler)->Compile(std::move(graph));
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    return std::move(compiled).value();
  }

  // Loads `model` after `edit` changed it (through the file, as a damaged .om would arrive) and
  // expects an error with every one of `parts`.
  template <typename Edit>
  static void ExpectRefused(Edit edit, std::initializer_list<std::string> parts,
                            RuntimeOptions options = EngineOptions()) {
    CompiledModel model = Compile(Small());
    edit(model);
    auto bytes = model.Serialize();
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    auto read = CompiledModel::Deserialize(*bytes);
    ASSERT_TRUE(read.ok()) << read.status().message();
    auto loaded = LoadedModel::Load(std::move(read).value(), options);
    ASSERT_FALSE(loaded.ok()) << "an edited model loaded";
    for (const std::string& part : parts) {
      EXPECT_NE(loaded.status().message().find(part), std::string::npos)
          << "missing '" << part << "' in: " << loaded.status().message();
    }
  }

  // The compiled graph's node `name`; a failure lists the nodes there are.
  static OpDescPtr Op(CompiledModel& model, const std::string& name) {
    NodePtr node = model.graph->FindNode(name);
    if (node != nullptr) return node->GetOpDesc();
    std::string names;
    for (const NodePtr& n : model.graph->GetDirectNode()) names += " " + n->GetName();
    ADD_FAILURE() << "the compiled graph has no node '" << name << "'; it has:" << names;
    return std::make_shared<OpDesc>("missing", "Missing");
  }

  static void SetOffset(CompiledModel& model, const std::string& node, int64_t offset) {
    OpDescPtr op = Op(model, node);
    std::vector<int64_t> offsets = op->GetOutputOffset();
    offsets.resize(std::max<size_t>(offsets.size(), 1));
    offsets[0] = offset;
    op->SetOutputOffset(offsets);
  }

  static void SetRegion(CompiledModel& model, const std::string& node, int64_t region) {
    OpDescPtr op = Op(model, node);
    std::vector<int64_t> regions;
    AttrUtils::GetListInt(op, memory::kAttrOutputMemRegion, regions);
    regions.resize(std::max<size_t>(regions.size(), 1));
    regions[0] = region;
    AttrUtils::SetListInt(op, memory::kAttrOutputMemRegion, regions);
  }
};

TEST_F(UntrustedModelTest, TheUneditedModelLoadsAndRuns) {
  auto model = LoadedModel::Load(Compile(Small()), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run({MakeTensor<float>(DT_FLOAT, {2, 8}, std::vector<float>(16, -3.0F))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(TensorValues<float>((*out)[0]),
            (std::vector<float>{0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 1, 2, 3, 4, 5}));
}

TEST_F(UntrustedModelTest, AnArenaOffsetOutsideTheArenaIsRefused) {
  for (int64_t offset : {int64_t{1} << 40, std::numeric_limits<int64_t>::max() - 8, int64_t{-64}}) {
    ExpectRefused([&](CompiledModel& m) { SetOffset(m, "relu", offset); },
                  {"node 'relu' (Relu) output 0 (64 bytes)",
                   "is planned at arena offset " + std::to_string(offset), "-byte arena",
                   "the model is inconsistent"});
  }
}

TEST_F(UntrustedModelTest, AnArenaSmallerThanItsTensorsIsRefused) {
  ExpectRefused([](CompiledModel& m) { m.plans.begin()->second.arena_bytes = 16; },
                {"outside the 16-byte arena"});
  ExpectRefused([](CompiledModel& m) { m.plans.begin()->second.arena_bytes = -1; },
                {"its memory plan has an arena of -1 bytes", "damaged"});
}

TEST_F(UntrustedModelTest, AnArenaOverTheMemoryLimitIsRefusedBeforeItIsAllocated) {
  ExpectRefused([](CompiledModel& m) { m.plans.begin()->second.arena_bytes = int64_t{1} << 60; },
                {"asks for an activation arena of 1152921504606846976 bytes, over the limit of",
                 "max_memory_bytes"});
  RuntimeOptions small = EngineOptions();
  small.max_memory_bytes = 32;
  ExpectRefused([](CompiledModel&) {}, {"over the limit of 32"}, small);
  small.max_memory_bytes = -1;
  ExpectRefused([](CompiledModel&) {}, {"max_memory_bytes must be 0"}, small);
}

TEST_F(UntrustedModelTest, ARegionThatDoesNotExistOrCannotRunIsRefused) {
  ExpectRefused([](CompiledModel& m) { SetRegion(m, "relu", 9); },
                {"node 'relu' (Relu) output 0 is planned in region 9, which does not exist"});
  ExpectRefused(
      [](CompiledModel& m) { SetRegion(m, "relu", static_cast<int64_t>(memory::Region::kOutput)); },
      {"node 'relu' (Relu) output 0", "output region, which a static model does not run from"});
}

TEST_F(UntrustedModelTest, AnInputSlotTheModelDoesNotHaveIsRefused) {
  ExpectRefused(
      [](CompiledModel& m) { SetOffset(m, "x", 5); },
      {"node 'x' (Data) output 0", "reads graph input slot 5, which the model does not have"});
  ExpectRefused([](CompiledModel& m) { SetOffset(m, "x", -1); }, {"reads graph input slot -1"});
}

TEST_F(UntrustedModelTest, AWeightOffsetNoConstHoldsIsRefused) {
  ExpectRefused(
      [](CompiledModel& m) { SetOffset(m, "w", std::numeric_limits<int64_t>::max() - 4); },
      {"node 'w' (Const)", "does not fit its planned weight memory"});
  // A view of the weight planned past its Const's bytes.
  ExpectRefused(
      [](CompiledModel& m) {
        NodePtr add = m.graph->FindNode("add");
        NodePtr w = m.graph->FindNode("w");
        ASSERT_NE(add, nullptr);
        // add reads w at its planned offset; move add's own output into the weight region.
        SetRegion(m, "add", static_cast<int64_t>(memory::Region::kWeight));
        SetOffset(m, "add", w->GetOpDesc()->GetOutputOffset()[0] + 16);
      },
      {"node 'add' (Add) output 0", "is planned at weight offset", "which no Const holds"});
}

TEST_F(UntrustedModelTest, AConstValueShorterThanItsShapeIsRefused) {
  // Cut both the value and its desc's dtype size check: the value's desc still says [8].
  ExpectRefused(
      [](CompiledModel& m) {
        NodePtr w = m.graph->FindNode("w");
        GeTensor cut(GeTensorDesc(GeShape({8}), FORMAT_ND, DT_FLOAT),
                     std::vector<uint8_t>(8, 0));  // 8 bytes, not 32
        ASSERT_TRUE(AttrUtils::SetTensor(w->GetOpDesc(), kAttrConstValue, cut));
      },
      {"node 'w' (Const): its value holds 8 bytes, but its shape [8] of DT_FLOAT needs 32"});
}

// Shapes known only at run time: a Const whose value is shorter than its shape is refused by the
// compiler (a graph from a file) and by the runtime (a compiled model from a file).
TEST_F(UntrustedModelTest, AShortConstIsRefusedOnTheRunTimeShapePath) {
  auto make = [](bool cut) {
    ProtoGraph b("dynamic");
    NodePtr x = b.Data("x", {-1, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {8}, {1, 2, 3, 4, 5, 6, 7, 8});
    if (cut) {
      GeTensor value(GeTensorDesc(GeShape({8}), FORMAT_ND, DT_FLOAT), std::vector<uint8_t>(8, 0));
      AttrUtils::SetTensor(w->GetOpDesc(), kAttrConstValue, value);
    }
    NodePtr add = b.Op("Add", "add", {{x, 0}, {w, 0}});
    b.Output({{add, 0}});
    return b.graph();
  };
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  auto refused = (*compiler)->Compile(make(true));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.status().message().find(
          "node 'w' (Const): its value holds 8 bytes, but its shape [8] of DT_FLOAT needs 32"),
      std::string::npos)
      << refused.status().message();

  auto compiled = (*compiler)->Compile(make(false));
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  for (const NodePtr& node : compiled->graph->GetAllNodes()) {
    if (!NodeUtils::IsConst(*node)) continue;
    GeTensor value = *OpDescUtils::GetConstValue(*node);
    value.SetData(std::vector<uint8_t>(value.GetSize() / 2, 0));
    AttrUtils::SetTensor(node->GetOpDesc(), kAttrConstValue, value);
  }
  auto loaded = LoadedModel::Load(std::move(compiled).value(), EngineOptions());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("(Const): its value holds 16 bytes, but its shape"),
            std::string::npos)
      << loaded.status().message();
}

TEST_F(UntrustedModelTest, ARunTimeTensorOverTheMemoryLimitIsRefused) {
  ProtoGraph b("dynamic");
  NodePtr x = b.Data("x", {-1, 8});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{relu, 0}});
  RuntimeOptions options = EngineOptions();
  options.max_memory_bytes = 1024;
  auto model = LoadedModel::Load(Compile(b.graph()), options);
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto fits = (*model)->Run({MakeTensor<float>(DT_FLOAT, {4, 8}, std::vector<float>(32, 1.0F))});
  ASSERT_TRUE(fits.ok()) << fits.status().message();
  auto over = (*model)->Run({MakeTensor<float>(DT_FLOAT, {64, 8}, std::vector<float>(512, 1.0F))});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("output 0 of node 'relu' (Relu) needs 2048 bytes, over "
                                         "the limit of 1024"),
            std::string::npos)
      << over.status().message();
}

// y = x + b, where b is an input with a default value: a run by name may leave it out.
ComputeGraphPtr WithDefault(std::vector<int64_t> dims) {
  ProtoGraph b("defaults");
  NodePtr x = b.Data("x", dims);
  NodePtr bias = b.Data("b", {2});
  AttrUtils::SetTensor(bias->GetOpDesc(), kAttrDefaultValue,
                       MakeTensor<float>(DT_FLOAT, {2}, {10, 20}));
  NodePtr add = b.Op("Add", "add", {{x, 0}, {bias, 0}});
  b.Output({{add, 0}});
  return b.graph();
}

TEST_F(UntrustedModelTest, AnInputLeftOutRunsWithItsDefaultValue) {
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{2}, std::vector<int64_t>{-1}}) {
    auto model = LoadedModel::Load(Compile(WithDefault(dims)), EngineOptions());
    ASSERT_TRUE(model.ok()) << model.status().message();
    ASSERT_EQ((*model)->inputs().size(), 2U);
    EXPECT_EQ((*model)->inputs()[0].default_value, nullptr);
    ASSERT_NE((*model)->inputs()[1].default_value, nullptr);
    const GeTensor x = MakeTensor<float>(DT_FLOAT, {2}, {1, 2});
    auto by_default = (*model)->Run(std::map<std::string, GeTensor>{{"x", x}});
    ASSERT_TRUE(by_default.ok()) << by_default.status().message();
    EXPECT_EQ(TensorValues<float>(by_default->begin()->second), (std::vector<float>{11, 22}));
    auto given = (*model)->Run(std::map<std::string, GeTensor>{
        {"x", x}, {"b", MakeTensor<float>(DT_FLOAT, {2}, {100, 200})}});
    ASSERT_TRUE(given.ok()) << given.status().message();
    EXPECT_EQ(TensorValues<float>(given->begin()->second), (std::vector<float>{101, 202}));
    auto missing = (*model)->Run(std::map<std::string, GeTensor>{{"b", x}});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.status().message().find("input 'x' is not given (it has no default value)"),
              std::string::npos)
        << missing.status().message();
  }
}

TEST_F(UntrustedModelTest, ADefaultValueThatIsNotAValueOfItsInputIsRefused) {
  CompiledModel model = Compile(WithDefault({2}));
  AttrUtils::SetTensor(model.graph->FindNode("b")->GetOpDesc(), kAttrDefaultValue,
                       MakeTensor<float>(DT_FLOAT, {3}, {1, 2, 3}));
  auto loaded = LoadedModel::Load(std::move(model), EngineOptions());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("input 'b': its default value is DT_FLOAT [3]"),
            std::string::npos)
      << loaded.status().message();
}

// PartitionedCalls nested `levels` deep: "call<k>" in graph "g<k-1>" (the root "g0" for k = 1)
// calls "g<k>", and the innermost graph applies Relu to what reaches it.
ComputeGraphPtr NestedCalls(int levels) {
  const DynamicPortCounts one = {{"args", 1}, {"output", 1}};
  ProtoGraph root("g0");
  NodePtr x = root.Data("x", {2, 8});
  NodePtr call = root.Op("PartitionedCall", "call1", {{x, 0}}, {}, one);
  root.Output({{call, 0}});
  for (int k = 1; k <= levels; ++k) {
    const std::string name = "g" + std::to_string(k);
    ProtoGraph sub(name);
    NodePtr in = sub.SubgraphData(name + "_x", 0, {2, 8});
    NodePtr next =
        k < levels ? sub.Op("PartitionedCall", "call" + std::to_string(k + 1), {{in, 0}}, {}, one)
                   : sub.Op("Relu", "relu", {{in, 0}});
    sub.Output({{next, 0}}, name + "_out");
    EXPECT_TRUE(NodeUtils::SetSubgraph(call, 0, sub.graph()).ok());
    call = next;
  }
  return root.graph();
}

TEST_F(UntrustedModelTest, SubgraphsNestedToTheLimitCompileAndRun) {
  auto model = LoadedModel::Load(Compile(NestedCalls(kMaxSubgraphDepth)), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  std::vector<float> in(16);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) - 8;
  auto out = (*model)->Run({MakeTensor<float>(DT_FLOAT, {2, 8}, in)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::vector<float> relu = in;
  for (float& v : relu) v = std::max(v, 0.0F);
  EXPECT_EQ(TensorValues<float>((*out)[0]), relu);
}

TEST_F(UntrustedModelTest, SubgraphsNestedDeeperThanTheLimitAreRefusedByTheCompiler) {
  // A graph built in memory reaches the compiler without a loader's check.
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  for (int levels : {kMaxSubgraphDepth + 1, 1000}) {
    auto compiled = (*compiler)->Compile(NestedCalls(levels));
    ASSERT_FALSE(compiled.ok()) << levels << " levels";
    EXPECT_NE(compiled.status().message().find(
                  "the input graph is invalid: subgraph 'g33' of node 'call33' (PartitionedCall) "
                  "in graph 'g32' is nested 33 levels deep; subgraphs may nest at most 32 levels"),
              std::string::npos)
        << compiled.status().message();
  }
}

TEST_F(UntrustedModelTest, SubgraphsNestedDeeperThanTheLimitAreRefusedAtLoad) {
  // A compiled model edited in memory, one level deeper than the compiler allows.
  CompiledModel model = Compile(NestedCalls(kMaxSubgraphDepth));
  ComputeGraphPtr bottom = model.graph->GetSubgraph("g32");
  ASSERT_NE(bottom, nullptr);
  auto extra = GraphBuilder(bottom).AddNode("extra", "PartitionedCall", 0, 0, GeTensorDesc());
  ASSERT_TRUE(extra.ok()) << extra.status().message();
  auto deeper = std::make_shared<ComputeGraph>("g33");
  ASSERT_TRUE(NodeUtils::SetSubgraph(*extra, 0, deeper).ok());
  auto loaded = LoadedModel::Load(std::move(model), EngineOptions());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find(
                "loading model 'g0': subgraph 'g33' of node 'extra' (PartitionedCall) in graph "
                "'g32' is nested 33 levels deep; subgraphs may nest at most 32 levels"),
            std::string::npos)
      << loaded.status().message();
}

// A .om's weights are read where they lie in the file's mapping. Truncating the file under a
// loaded model makes its runs fail naming the file (what they read there were zeros): the
// process is not ended by SIGBUS, and a model loaded again from a whole file runs.
TEST_F(UntrustedModelTest, AnOmTruncatedUnderItsModelFailsItsRunsNamingTheFile) {
  constexpr int64_t kN = 1 << 16;  // a 256 KiB weight, many pages past the file's start
  ProtoGraph b("big_weight");
  NodePtr x = b.Data("x", {kN});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {kN}, std::vector<float>(kN, 1.5F));
  NodePtr add = b.Op("Add", "add", {{x, 0}, {w, 0}});
  b.Output({{add, 0}});
  const std::string path =
      ::testing::TempDir() + "/truncated_" + std::to_string(::getpid()) + ".om";
  ASSERT_TRUE(Compile(b.graph()).SaveToFile(path).ok());
  auto model = LoadedModel::LoadFromFile(path, EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<GeTensor> x0 = {MakeTensor(DT_FLOAT, {kN}, std::vector<float>(kN, 0.0F))};
  auto before = (*model)->Run(x0);
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_EQ(TensorValues<float>((*before)[0]), std::vector<float>(kN, 1.5F));
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  for (int run = 0; run < 2; ++run) {  // the next runs fail too: the model's weights are gone
    auto after = (*model)->Run(x0);
    ASSERT_FALSE(after.ok()) << "run " << run << " gave outputs from a truncated file";
    EXPECT_NE(after.status().message().find("'" + path + "' was truncated while it was in use"),
              std::string::npos)
        << after.status().message();
  }
  ASSERT_TRUE(Compile(b.graph()).SaveToFile(path).ok());
  auto again = LoadedModel::LoadFromFile(path, EngineOptions());
  ASSERT_TRUE(again.ok()) << again.status().message();
  auto whole = (*again)->Run(x0);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(TensorValues<float>((*whole)[0]), std::vector<float>(kN, 1.5F));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge

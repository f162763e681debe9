// Pipeline stages: a model compiled as stages gives the whole model's numbers when its stages
// run one after another (a CNN, a transformer, a graph with control flow); the cuts balance the
// predicted time and fall where few bytes cross; the .om holding the stages reads back, stage
// by stage, and a damaged one is refused naming what is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "../process_memory.h"
#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/pipeline_compile.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/pipeline_run.h"

namespace ge {
namespace {

using testing::MakeTensor;
using testing::ProtoGraph;
using testing::RandomFloats;
using testing::TensorValues;

const std::string kModelsDir = GE_TEST_MODELS_DIR;

std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/pipeline_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

std::map<std::string, std::string> Options(const std::string& input_shape = "") {
  std::map<std::string, std::string> extra;
  if (!input_shape.empty()) extra["ge.inputShape"] = input_shape;
  return testing::TestOptions(extra);
}

// Random inputs for `model`'s inputs (token ids in [0, 100) for integer inputs).
std::vector<GeTensor> InputsFor(const LoadedModel& model, uint32_t seed) {
  std::vector<GeTensor> inputs;
  for (const IoInfo& info : model.inputs()) {
    size_t n = 1;
    for (int64_t d : info.dims) n *= static_cast<size_t>(d);
    if (info.dtype == DT_INT64) {
      std::vector<int64_t> ids(n);
      for (size_t i = 0; i < n; ++i) ids[i] = static_cast<int64_t>((i * 7 + seed) % 100);
      inputs.push_back(MakeTensor<int64_t>(DT_INT64, info.dims, ids));
    } else {
      inputs.push_back(MakeTensor<float>(DT_FLOAT, info.dims, RandomFloats(n, seed)));
    }
  }
  return inputs;
}

void ExpectClose(const std::vector<GeTensor>& got, const std::vector<GeTensor>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].GetTensorDesc().GetShape().GetDims(),
              want[o].GetTensorDesc().GetShape().GetDims());
    const std::vector<float> a = TensorValues<float>(got[o]);
    const std::vector<float> b = TensorValues<float>(want[o]);
    ASSERT_EQ(a.size(), b.size());
    float largest = 0;
    for (float v : b) largest = std::max(largest, std::abs(v));
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(a[i], b[i], 1e-5F * (1 + largest)) << "output " << o << " [" << i << "]";
    }
  }
}

class PipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // The whole model and its pipeline of `stages`, both from `make()`, run on the same inputs.
  static void ExpectSameNumbers(const std::function<ComputeGraphPtr()>& make, int stages,
                                const std::string& input_shape = "") {
    auto compiler = Compiler::Create(Options(input_shape));
    ASSERT_TRUE(compiler.ok()) << compiler.status().message();
    auto whole = (*compiler)->Compile(make());
    ASSERT_TRUE(whole.ok()) << whole.status().message();
    auto model = LoadedModel::Load(std::move(whole).value());
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto pipeline = CompilePipeline(Options(input_shape), make(), stages);
    ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
    ASSERT_EQ(pipeline->stages.size(), static_cast<size_t>(stages));
    for (size_t s = 0; s + 1 < pipeline->stages.size(); ++s) {
      EXPECT_FALSE(pipeline->stages[s].sends.empty()) << "stage " << s;
      EXPECT_GT(pipeline->stages[s].send_bytes, 0) << "stage " << s;
    }
    auto stages_run = PipelineStages::Load(*pipeline);
    ASSERT_TRUE(stages_run.ok()) << stages_run.status().message();
    for (uint32_t seed = 1; seed <= 2; ++seed) {
      const std::vector<GeTensor> inputs = InputsFor(**model, seed);
      auto want = (*model)->Run(inputs);
      ASSERT_TRUE(want.ok()) << want.status().message();
      auto got = (*stages_run)->Run(inputs);
      ASSERT_TRUE(got.ok()) << got.status().message();
      ExpectClose(*got, *want);
    }
  }

  static std::function<ComputeGraphPtr()> Onnx(const std::string& model) {
    return [model]() -> ComputeGraphPtr {
      auto graph = ParseOnnxFile(kModelsDir + "/" + model + "/model.onnx");
      EXPECT_TRUE(graph.ok()) << graph.status().message();
      return graph.ok() ? *graph : nullptr;
    };
  }
};

TEST_F(PipelineTest, ACnnInTwoAndThreeStagesGivesTheWholeModelsNumbers) {
  ASSERT_EQ(testing::ExportStatus(kModelsDir), "ok");
  ExpectSameNumbers(Onnx("resnet18_opset17"), 2);
  ExpectSameNumbers(Onnx("resnet18_opset17"), 3);
}

TEST_F(PipelineTest, ATransformerInThreeStagesGivesTheWholeModelsNumbers) {
  ASSERT_EQ(testing::ExportStatus(kModelsDir), "ok");
  ExpectSameNumbers(Onnx("bert_encoder_opset17"), 3, "input_ids:2,16");
}

// x -> four wide products -> a narrow one (16 columns) -> four wide ones: the cut near the
// middle falls on the narrow tensor, the fewest bytes that cross.
ComputeGraphPtr Bottleneck() {
  ProtoGraph b("bottleneck");
  NodePtr current = b.Data("x", {64, 256});
  uint32_t seed = 10;
  auto product = [&](int64_t in, int64_t out, const std::string& name) {
    NodePtr w = b.Const<float>(name + "_w", DT_FLOAT, {in, out},
                               RandomFloats(static_cast<size_t>(in * out), seed++));
    current = b.Op("MatMulV2", name, {{current, 0}, {w, 0}});
    current = b.Op("Tanh", name + "_tanh", {{current, 0}});
  };
  for (int i = 0; i < 4; ++i) product(256, 256, "a" + std::to_string(i));
  product(256, 16, "narrow");
  product(16, 256, "widen");
  for (int i = 0; i < 3; ++i) product(256, 256, "b" + std::to_string(i));
  b.Output({{current, 0}});
  return b.graph();
}

TEST_F(PipelineTest, TheCutFallsWhereTheFewestBytesCrossNearAnEqualSplit) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  const PipelineStage& first = pipeline->stages[0];
  ASSERT_EQ(first.sends.size(), 1U);
  EXPECT_EQ(first.send_bytes, 64 * 16 * 4) << first.sends[0];
  // Near-equal predicted halves: 4.5 wide products against 4.5.
  const double a = pipeline->stages[0].predicted_us;
  const double b = pipeline->stages[1].predicted_us;
  EXPECT_LT(std::max(a, b) / std::min(a, b), 1.5) << a << " / " << b;
  // Each stage holds only the weights it reads.
  EXPECT_LT(first.weight_bytes, 5 * 256 * 256 * 4);
  EXPECT_LT(pipeline->stages[1].weight_bytes, 5 * 256 * 256 * 4);
  ExpectSameNumbers(Bottleneck, 2);
}

// x -> Tanh -> If (then: Relu, else: Neg) -> Sigmoid: three stages, one node each.
ComputeGraphPtr WithControlFlow() {
  ProtoGraph b("control_flow");
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr x = b.Data("x", {2, 3});
  NodePtr t = b.Op("Tanh", "tanh", {{x, 0}});
  NodePtr if_node = b.Op("If", "if", {{cond, 0}, {t, 0}}, {}, {{"input", 1}, {"output", 1}});
  NodePtr s = b.Op("Sigmoid", "sigmoid", {{if_node, 0}});
  b.Output({{s, 0}});
  for (int branch = 0; branch < 2; ++branch) {
    ProtoGraph sub(branch == 0 ? "then" : "else");
    NodePtr in = sub.SubgraphData(sub.graph()->GetName() + "_in", 1, {2, 3});
    sub.Output({{sub.Op(branch == 0 ? "Relu" : "Neg", "op", {{in, 0}}), 0}});
    EXPECT_TRUE(NodeUtils::SetSubgraph(if_node, static_cast<uint32_t>(branch), sub.graph()).ok());
  }
  return b.graph();
}

TEST_F(PipelineTest, AStageKeepsTheSubgraphsOfTheNodesItRuns) {
  auto pipeline = CompilePipeline(Options(), WithControlFlow(), 3);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  int with_if = 0;
  for (const PipelineStage& stage : pipeline->stages) {
    bool has_if = false;
    for (const NodePtr& node : stage.model.graph->GetDirectNode())
      has_if |= node->GetType() == "If";
    EXPECT_EQ(stage.model.graph->GetAllSubgraphs().size(), has_if ? 2U : 0U);
    with_if += has_if ? 1 : 0;
  }
  EXPECT_EQ(with_if, 1);
  auto run = PipelineStages::Load(*pipeline);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const std::vector<float> x = RandomFloats(6, 4);
  for (uint8_t cond : {1, 0}) {
    auto out = (*run)->Run(
        {MakeTensor<uint8_t>(DT_BOOL, {}, {cond}), MakeTensor<float>(DT_FLOAT, {2, 3}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    for (size_t i = 0; i < 6; ++i) {
      const float t = std::tanh(x[i]);
      const float branch = cond != 0 ? std::max(t, 0.0F) : -t;
      EXPECT_NEAR(y[i], 1 / (1 + std::exp(-branch)), 1e-6) << i;
    }
  }
}

TEST_F(PipelineTest, TheFileReadsBackWholeOrOneStageAtATime) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  const std::string path = TempPath("bottleneck.om");
  ASSERT_TRUE(pipeline->SaveToFile(path).ok());
  EXPECT_TRUE(PipelineModel::IsPipelineFile(path));
  auto back = PipelineModel::LoadFromFile(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->inputs, pipeline->inputs);
  EXPECT_EQ(back->outputs, pipeline->outputs);
  EXPECT_EQ(back->stages[0].sends, pipeline->stages[0].sends);
  EXPECT_EQ(back->stages[1].weight_bytes, pipeline->stages[1].weight_bytes);
  auto second = PipelineModel::LoadFromFile(path, 1);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(second->stages[0].model.graph, nullptr);
  ASSERT_NE(second->stages[1].model.graph, nullptr);
  // The stages from the file give the numbers of the stages compiled.
  auto fresh = PipelineStages::Load(*pipeline);
  auto loaded = PipelineStages::Load(std::move(back).value());
  ASSERT_TRUE(fresh.ok() && loaded.ok());
  const std::vector<GeTensor> x = {
      MakeTensor<float>(DT_FLOAT, {64, 256}, RandomFloats(size_t{64} * 256, 9))};
  auto a = (*fresh)->Run(x);
  auto b = (*loaded)->Run(x);
  ASSERT_TRUE(a.ok() && b.ok());
  ExpectClose(*b, *a);
  // One model's loader and the pipeline's tell the two apart.
  auto as_one = CompiledModel::LoadFromFile(path);
  ASSERT_FALSE(as_one.ok());
  EXPECT_NE(as_one.status().message().find("pipeline of stages"), std::string::npos)
      << as_one.status().message();
  EXPECT_FALSE(PipelineModel::LoadFromFile(path, 2).ok());
}

TEST_F(PipelineTest, ADamagedPipelineFileIsRefusedNamingThePart) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  const std::string path = TempPath("good.om");
  ASSERT_TRUE(pipeline->SaveToFile(path).ok());
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto write = [&](const std::string& name, const std::string& content) {
    const std::string p = TempPath(name);
    std::ofstream(p, std::ios::binary) << content;
    return p;
  };
  // Cut short: the header's length disagrees with the file.
  auto cut = PipelineModel::LoadFromFile(write("cut.om", bytes.substr(0, bytes.size() / 2)));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("cut.om"), std::string::npos) << cut.status().message();
  // A manifest that names a tensor no stage makes (same length, so the file stays whole).
  std::string renamed = bytes;
  const size_t at = renamed.find(R"("sends":[")");
  ASSERT_NE(at, std::string::npos);
  renamed[at + 10] = renamed[at + 10] == 'Z' ? 'Y' : 'Z';
  auto misnamed = PipelineModel::LoadFromFile(write("misnamed.om", renamed));
  ASSERT_FALSE(misnamed.ok());
  EXPECT_NE(misnamed.status().message().find("names no tensor"), std::string::npos)
      << misnamed.status().message();
  // A stage's range moved off its alignment.
  std::string moved = bytes;
  const size_t offset = moved.find("\"offset\":0");
  ASSERT_NE(offset, std::string::npos);
  moved[offset + 9] = '8';
  auto misaligned = PipelineModel::LoadFromFile(write("misaligned.om", moved));
  ASSERT_FALSE(misaligned.ok());
  EXPECT_NE(misaligned.status().message().find("not an aligned range"), std::string::npos)
      << misaligned.status().message();
}

// Every byte of a small pipeline's file, flipped one at a time in a sample, and the file cut at
// many lengths: each either loads and runs (the damage fell on bytes nothing checks, such as a
// weight's value) or is refused with a message; never a crash or an out-of-bounds read (the
// sanitizer build runs this too).
TEST_F(PipelineTest, DamagedBytesAreRefusedOrRunNeverCrash) {
  ProtoGraph b("small");
  NodePtr x = b.Data("x", {4, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {8, 8}, RandomFloats(64, 5));
  NodePtr mm = b.Op("MatMulV2", "mm", {{x, 0}, {w, 0}});
  NodePtr t = b.Op("Tanh", "t", {{mm, 0}});
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {8, 8}, RandomFloats(64, 6));
  NodePtr mm2 = b.Op("MatMulV2", "mm2", {{t, 0}, {w2, 0}});
  b.Output({{mm2, 0}});
  auto pipeline = CompilePipeline(Options(), b.graph(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  const std::string path = TempPath("small.om");
  ASSERT_TRUE(pipeline->SaveToFile(path).ok());
  std::ifstream in(path, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(PipelineModel::Deserialize(good).ok());
  const std::vector<GeTensor> inputs = {MakeTensor<float>(DT_FLOAT, {4, 8}, RandomFloats(32, 7))};
  int refused = 0;
  int ran = 0;
  auto attempt = [&](const std::string& bytes) {
    Result<PipelineModel> loaded = PipelineModel::Deserialize(bytes);
    if (!loaded.ok()) {
      EXPECT_FALSE(loaded.status().message().empty());
      ++refused;
      return;
    }
    auto stages = PipelineStages::Load(std::move(loaded).value());
    if (!stages.ok()) {
      EXPECT_FALSE(stages.status().message().empty());
      ++refused;
      return;
    }
    auto out = (*stages)->Run(inputs);
    if (!out.ok()) {
      EXPECT_FALSE(out.status().message().empty());
    }
    ++ran;
  };
  std::mt19937 rng(11);
  // Every byte of the header, the table and the manifest, and a sample of the rest.
  const size_t manifest_end = std::min<size_t>(good.size(), good.find("\"version\"") + 16);
  for (size_t i = 0; i < good.size(); i += (i < manifest_end ? 1 : 1 + rng() % 97)) {
    std::string bytes = good;
    bytes[i] = static_cast<char>(bytes[i] ^ (1 << (rng() % 8)));
    attempt(bytes);
  }
  for (size_t cut = 0; cut < good.size(); cut += 1 + good.size() / 64) attempt(good.substr(0, cut));
  EXPECT_GT(refused, 100);
  EXPECT_GT(ran, 0);
}

// Writing the file streams each stage's weights from where they lie: two stages of 32 MiB of
// weights each are saved with the peak growing by much less than one stage (a stage's file
// gathered in memory would add all of it).
TEST_F(PipelineTest, SavingWritesTheWeightsWithoutGatheringThem) {
  constexpr int64_t kSide = 2048;  // 16 MiB of float per weight, two per stage
  ProtoGraph b("large");
  NodePtr current = b.Data("x", {4, kSide});
  for (int i = 0; i < 4; ++i) {
    NodePtr w = b.Const<float>(
        "w" + std::to_string(i), DT_FLOAT, {kSide, kSide},
        std::vector<float>(static_cast<size_t>(kSide * kSide), 0.001F * static_cast<float>(i + 1)));
    current = b.Op("MatMulV2", "mm" + std::to_string(i), {{current, 0}, {w, 0}});
  }
  b.Output({{current, 0}});
  auto pipeline = CompilePipeline(Options(), b.graph(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  testing::ResetPeakResident();
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  const std::string path = TempPath("large.om");
  ASSERT_TRUE(pipeline->SaveToFile(path).ok());
  const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
  EXPECT_LT(growth, kSide * kSide * 4) << "the peak grew by " << growth << " bytes";
  EXPECT_GT(std::filesystem::file_size(path), static_cast<uintmax_t>(4 * kSide * kSide * 4));
  auto back = PipelineModel::LoadFromFile(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  auto a = PipelineStages::Load(*pipeline);
  auto c = PipelineStages::Load(std::move(back).value());
  ASSERT_TRUE(a.ok() && c.ok());
  const std::vector<GeTensor> x = {
      MakeTensor<float>(DT_FLOAT, {4, kSide}, RandomFloats(static_cast<size_t>(4 * kSide), 3))};
  auto want = (*a)->Run(x);
  auto got = (*c)->Run(x);
  ASSERT_TRUE(want.ok() && got.ok());
  ExpectClose(*got, *want);
}

// The one tensor Bottleneck's first stage sends: its narrow product, [64, 16] float.
PipelineTensor& Sent(PipelineModel& pipeline) {
  PipelineTensor* t = nullptr;
  for (PipelineTensor& candidate : pipeline.tensors) {
    if (candidate.name == pipeline.stages[0].sends.at(0)) t = &candidate;
  }
  EXPECT_NE(t, nullptr);
  return *t;
}

void ExpectLoadRefused(const PipelineModel& pipeline, const std::string& part,
                       const RuntimeOptions& options = {}) {
  auto loaded = PipelineStages::Load(pipeline, options);
  ASSERT_FALSE(loaded.ok()) << part;
  EXPECT_NE(loaded.status().message().find(part), std::string::npos) << loaded.status().message();
}

// A manifest whose tensors disagree with the stages' own models (a dim, a dtype, a count), or
// whose byte counts overflow (to 0 here: 4 * 2^32 * 2^32), is refused before any stage is
// loaded or any buffer is sized from it.
TEST_F(PipelineTest, AManifestThatDisagreesWithItsStagesIsRefusedAtLoad) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  ASSERT_EQ(Sent(*pipeline).dims, (std::vector<int64_t>{64, 16}));
  {
    PipelineModel wider = *pipeline;
    Sent(wider).dims = {64, 17};
    ExpectLoadRefused(wider, "stage 0 output 0 '" + Sent(wider).name +
                                 "' is DT_FLOAT [64,16] in the stage's model; the manifest says "
                                 "DT_FLOAT [64,17]");
  }
  {
    PipelineModel retyped = *pipeline;
    Sent(retyped).dtype = DT_INT32;
    ExpectLoadRefused(retyped, "in the stage's model; the manifest says DT_INT32 [64,16]");
  }
  {
    PipelineModel overflowing = *pipeline;
    Sent(overflowing).dims = {int64_t{1} << 32, int64_t{1} << 32};
    ExpectLoadRefused(overflowing, "needs more bytes than int64 counts");
  }
  {
    PipelineModel more = *pipeline;
    more.stages[0].outputs.push_back(more.inputs[0]);
    ExpectLoadRefused(more, "stage 0's model has 1 output(s); the manifest names 2");
  }
  {
    // A tensor renamed throughout the manifest leaves it consistent with itself, but not with
    // the stage models, which name the tensors they receive and make: tensors of one dtype and
    // shape listed in another order would otherwise reach the wrong inputs.
    PipelineModel renamed = *pipeline;
    const std::string old_name = Sent(renamed).name;
    const std::string new_name = old_name + "_renamed";
    auto rename = [&](std::vector<std::string>& names) {
      std::replace(names.begin(), names.end(), old_name, new_name);
    };
    Sent(renamed).name = new_name;
    rename(renamed.inputs);
    rename(renamed.outputs);
    for (PipelineStage& stage : renamed.stages) {
      rename(stage.inputs);
      rename(stage.outputs);
      rename(stage.sends);
    }
    ASSERT_TRUE(renamed.Check().ok()) << renamed.Check().message();
    ExpectLoadRefused(renamed, "stage 0 output 0 is tensor '" + old_name +
                                   "' in the stage's model; the manifest says '" + new_name + "'");
    // Stage 0's model renamed too: now stage 1's model disagrees (the graph is shared with
    // `pipeline`, so the name is put back after).
    NodePtr sink;
    for (const NodePtr& node : renamed.stages[0].model.graph->GetDirectNode()) {
      if (node->GetType() == "NetOutput") sink = node;
    }
    ASSERT_NE(sink, nullptr);
    ASSERT_TRUE(AttrUtils::SetListStr(sink->GetOpDesc(), kAttrPipelineTensors, {new_name}));
    ExpectLoadRefused(renamed, "stage 1 input 0 is tensor '" + old_name +
                                   "' in the stage's model; the manifest says '" + new_name + "'");
    ASSERT_TRUE(AttrUtils::SetListStr(sink->GetOpDesc(), kAttrPipelineTensors, {old_name}));
  }
  // The same from a file: a dim of the manifest changed in place (the file stays whole).
  const std::string path = TempPath("bottleneck.om");
  ASSERT_TRUE(pipeline->SaveToFile(path).ok());
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = bytes.find(R"("dims":[64,16])");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 12] = '7';
  auto edited = PipelineModel::Deserialize(bytes);
  ASSERT_TRUE(edited.ok()) << edited.status().message();
  ExpectLoadRefused(*edited, "[64,16] in the stage's model; the manifest says DT_FLOAT [64,17]");
}

// The memory limit bounds the pipeline as a whole: every stage's arena and scratch and the
// tensors crossing between them, not each stage alone.
TEST_F(PipelineTest, TheMemoryLimitCountsEveryStageAndTheTensorsBetweenThem) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  auto unlimited = PipelineStages::Load(*pipeline);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status().message();
  int64_t largest = 0;
  int64_t stages_bytes = 0;
  for (size_t s = 0; s < pipeline->stages.size(); ++s) {
    const int64_t held =
        (*unlimited)->stage(s).arena_bytes() + (*unlimited)->stage(s).workspace_bytes();
    largest = std::max(largest, held);
    stages_bytes += held;
  }
  std::vector<std::string> names;
  for (const PipelineTensor& t : pipeline->tensors) names.push_back(t.name);
  auto crossing = PipelineBytes(*pipeline, names, "test");
  ASSERT_TRUE(crossing.ok()) << crossing.status().message();
  EXPECT_EQ(*crossing, 2 * 64 * 256 * 4 + 64 * 16 * 4);  // x, the output, the narrow product
  ASSERT_GT(largest, 0);
  RuntimeOptions options;
  // Enough for any one stage, not for all of it together: the second stage finds too little.
  options.max_memory_bytes = largest + *crossing;
  ASSERT_LT(options.max_memory_bytes, stages_bytes + *crossing);
  ExpectLoadRefused(*pipeline, "stage 1", options);
  ExpectLoadRefused(*pipeline, "limit of " + std::to_string(options.max_memory_bytes), options);
  options.max_memory_bytes = *crossing;
  ExpectLoadRefused(*pipeline,
                    "stage 0: nothing is left of the memory limit of " + std::to_string(*crossing) +
                        " bytes (RuntimeOptions::max_memory_bytes): the tensors that cross "
                        "stages take " +
                        std::to_string(*crossing),
                    options);
  options.max_memory_bytes = stages_bytes + *crossing;
  auto fits = PipelineStages::Load(*pipeline, options);
  ASSERT_TRUE(fits.ok()) << fits.status().message();
  auto out =
      (*fits)->Run({MakeTensor<float>(DT_FLOAT, {64, 256}, RandomFloats(size_t{64} * 256, 3))});
  ASSERT_TRUE(out.ok()) << out.status().message();
}

// What a stage receives is checked against the manifest before it is received (the counts a
// message announces), and what a stage's model makes before it is sent.
TEST_F(PipelineTest, WhatAStageReceivesOrMakesIsCheckedAgainstTheManifest) {
  auto pipeline = CompilePipeline(Options(), Bottleneck(), 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  const std::string sent = Sent(*pipeline).name;
  constexpr int64_t kBytes = int64_t{64} * 16 * 4;
  EXPECT_TRUE(CheckPipelineReceive(*pipeline, 1, {kBytes}, "rank 0").ok());
  for (const auto& [bytes, part] : std::vector<std::pair<std::vector<int64_t>, std::string>>{
           {{kBytes - 4},
            "stage 1 received '" + sent + "' from rank 0 as 4092 bytes; the manifest says " +
                "DT_FLOAT [64,16] (" + std::to_string(kBytes) + " bytes)"},
           {{kBytes + 1}, "as 4097 bytes"},
           {{kBytes, 4}, "stage 1 received 2 tensor(s) from rank 0; the manifest says 1"},
           {{}, "received 0 tensor(s)"}}) {
    Status checked = CheckPipelineReceive(*pipeline, 1, bytes, "rank 0");
    ASSERT_FALSE(checked.ok()) << part;
    EXPECT_NE(checked.message().find(part), std::string::npos) << checked.message();
  }
  // A stage model whose output is not what the manifest says is stopped before it sends it.
  auto first = LoadedModel::Load(pipeline->stages[0].model);
  ASSERT_TRUE(first.ok()) << first.status().message();
  PipelineModel wider = *pipeline;
  Sent(wider).dims = {64, 17};
  auto sends =
      RunPipelineStage(**first, wider, 0,
                       {MakeTensor<float>(DT_FLOAT, {64, 256}, RandomFloats(size_t{64} * 256, 3))});
  ASSERT_FALSE(sends.ok());
  EXPECT_NE(sends.status().message().find("stage 0 made: '" + sent +
                                          "' is DT_FLOAT [64,16] (4096 bytes); the manifest says "
                                          "DT_FLOAT [64,17] (4352 bytes)"),
            std::string::npos)
      << sends.status().message();
}

TEST_F(PipelineTest, ShapesKnownOnlyAtRunTimeAreRefusedNamingTheNode) {
  ProtoGraph b("dynamic");
  NodePtr x = b.Data("x", {-1, 8});
  NodePtr t = b.Op("Tanh", "tanh", {{x, 0}});
  NodePtr s = b.Op("Sigmoid", "sigmoid", {{t, 0}});
  b.Output({{s, 0}});
  auto pipeline = CompilePipeline(Options(), b.graph(), 2);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_NE(pipeline.status().message().find("--input-shape"), std::string::npos)
      << pipeline.status().message();
}

}  // namespace
}  // namespace ge

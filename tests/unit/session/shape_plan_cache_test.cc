// The shape plan cache: a graph whose input dims are known only at run time gets, for each set
// of input shapes it runs with, a static plan compiled on first sight, with the numbers of the
// same graph compiled for that shape by ge.inputShape; plans are reused when shapes come back
// (in turn, interleaved, from several threads at once), bounded by count and bytes, and misfit
// shapes, failed compiles and graphs with state are handled as the header says.
#include "ge/session/shape_plan_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "../process_memory.h"
#include "ge/api/all_ops.h"
#include "ge/compiler/compile_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/file_bytes.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"

namespace ge {
namespace {

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

std::string ModelPath(const std::string& name) {
  return std::string(GE_TEST_MODELS_DIR) + "/" + name + "/model.onnx";
}

// The export status of the test models: "ok", or why they are missing.
std::string ExportStatus() {
  std::ifstream in(std::string(GE_TEST_MODELS_DIR) + "/export_status.txt");
  std::string line;
  std::getline(in, line);
  return in ? line : "no export_status.txt in " + std::string(GE_TEST_MODELS_DIR);
}

RuntimeOptions Runtime() {
  RuntimeOptions runtime;
  runtime.options = kOptions;
  runtime.threads = 1;
  return runtime;
}

// Token ids in [0, 1000), one fixed draw per shape.
GeTensor Ids(int64_t batch, int64_t seq) {
  std::mt19937 rng(static_cast<uint32_t>(batch * 131 + seq));
  std::uniform_int_distribution<int64_t> token(0, 999);
  std::vector<int64_t> ids(static_cast<size_t>(batch * seq));
  for (int64_t& id : ids) id = token(rng);
  return {GeTensorDesc(GeShape({batch, seq}), FORMAT_ND, DT_INT64),
          reinterpret_cast<const uint8_t*>(ids.data()), ids.size() * sizeof(int64_t)};
}

std::vector<float> FloatsOf(const GeTensor& t) {
  const auto* data = reinterpret_cast<const float*>(t.GetData().data());
  return {data, data + t.GetData().size() / sizeof(float)};
}

// The largest difference of two outputs relative to the largest magnitude of `want`.
double RelativeError(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return INFINITY;
  double diff = 0;
  double scale = 1e-30;
  for (size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, static_cast<double>(std::fabs(got[i] - want[i])));
    scale = std::max(scale, static_cast<double>(std::fabs(want[i])));
  }
  return diff / scale;
}

// The model compiled the usual way for one shape: ge.inputShape, then run once.
std::vector<float> StaticOutput(const std::string& model, const GeTensor& ids) {
  const std::vector<int64_t>& dims = ids.GetTensorDesc().GetShape().GetDims();
  std::map<std::string, std::string> options = kOptions;
  options[kOptInputShape] = "input_ids:" + std::to_string(dims[0]) + "," + std::to_string(dims[1]);
  auto graph = ParseOnnxFile(ModelPath(model));
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return {};
  auto compiler = Compiler::Create(options);
  EXPECT_TRUE(compiler.ok()) << compiler.status().message();
  if (!compiler.ok()) return {};
  auto compiled = (*compiler)->Compile(*graph);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok()) return {};
  auto loaded = LoadedModel::Load(std::move(*compiled), Runtime());
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return {};
  EXPECT_FALSE((*loaded)->runs_dynamically());
  auto out = (*loaded)->Run({ids});
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? FloatsOf((*out)[0]) : std::vector<float>{};
}

std::unique_ptr<ShapePlanCache> CacheOf(const std::string& model,
                                        std::map<std::string, std::string> extra = {}) {
  auto graph = ParseOnnxFile(ModelPath(model));
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return nullptr;
  std::map<std::string, std::string> options = kOptions;
  options.insert(extra.begin(), extra.end());
  // Handed over, as gec and ge::Session do, so the cache may drop the weights it copies again.
  auto cache = ShapePlanCache::Create(std::move(*graph), options, Runtime());
  EXPECT_TRUE(cache.ok()) << cache.status().message();
  return cache.ok() ? std::move(*cache) : nullptr;
}

std::vector<float> RunOn(ShapePlanCache& cache, const GeTensor& ids) {
  auto out = cache.Run({ids});
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? FloatsOf((*out)[0]) : std::vector<float>{};
}

class ShapePlanModels : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { ASSERT_EQ(ExportStatus(), "ok"); }
};

// Shapes in turn and back again: each new one compiles a static plan whose output is the static
// compile's; a shape seen before is a hit, with the same numbers as its first run.
TEST_P(ShapePlanModels, EachShapeRunsAStaticPlanWithTheStaticCompilesNumbers) {
  std::unique_ptr<ShapePlanCache> cache = CacheOf(GetParam());
  ASSERT_NE(cache, nullptr);
  EXPECT_TRUE(cache->specializes());
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 8}, {2, 16}, {3, 5}};
  std::vector<std::vector<float>> first;
  for (auto [batch, seq] : shapes) {
    const GeTensor ids = Ids(batch, seq);
    first.push_back(RunOn(*cache, ids));
    EXPECT_LT(RelativeError(first.back(), StaticOutput(GetParam(), ids)), 1e-5)
        << GetParam() << " at " << batch << "x" << seq;
  }
  for (size_t i = 0; i < shapes.size(); ++i) {  // back again, in another order
    const size_t k = shapes.size() - 1 - i;
    EXPECT_EQ(RunOn(*cache, Ids(shapes[k].first, shapes[k].second)), first[k]);
  }
  const ShapePlanStats stats = cache->Stats();
  EXPECT_EQ(stats.misses, 3);
  EXPECT_EQ(stats.hits, 3);
  EXPECT_EQ(stats.evictions, 0);
  ASSERT_EQ(stats.plans.size(), 3u);
  EXPECT_EQ(stats.plans[0].shapes, "input_ids:1,8");  // the most recently used first
  EXPECT_EQ(stats.plans[2].shapes, "input_ids:3,5");
  int64_t bytes = 0;
  for (const ShapePlanInfo& plan : stats.plans) {
    EXPECT_FALSE(plan.dynamic) << plan.shapes;
    EXPECT_EQ(plan.runs, 2) << plan.shapes;
    EXPECT_GT(plan.compile_millis, 0.0);
    EXPECT_GT(plan.bytes, 0);
    EXPECT_TRUE(plan.error.empty()) << plan.error;
    bytes += plan.bytes;
  }
  // Each plan's bytes are what dropping it frees; weights several plans share (packed once by
  // the CPU engine where oneDNN packs) are in the total only.
  EXPECT_GE(stats.bytes, bytes);
  EXPECT_GT(stats.specialize_millis, 0.0);
}

INSTANTIATE_TEST_SUITE_P(DynamicAxes, ShapePlanModels,
                         ::testing::Values("bert_encoder_opset17", "gpt2_tiny_dynamic_opset17"));

// Two shapes from four threads at once: each compiles once, and every run has its numbers.
TEST(ShapePlanCache, ConcurrentRunsCompileEachShapeOnce) {
  ASSERT_EQ(ExportStatus(), "ok");
  std::unique_ptr<ShapePlanCache> cache = CacheOf("bert_encoder_opset17");
  ASSERT_NE(cache, nullptr);
  const std::vector<GeTensor> ids = {Ids(1, 12), Ids(2, 7)};
  const std::vector<std::vector<float>> want = {StaticOutput("bert_encoder_opset17", ids[0]),
                                                StaticOutput("bert_encoder_opset17", ids[1])};
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 6; ++i) {
        const auto k = static_cast<size_t>((t + i) % 2);
        auto out = cache->Run({ids[k]});
        if (!out.ok() || RelativeError(FloatsOf((*out)[0]), want[k]) > 1e-5) ++wrong[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  const ShapePlanStats stats = cache->Stats();
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.hits, 22);
  EXPECT_EQ(stats.plans.size(), 2u);
}

// The count bound drops the least recently used plan; a byte cap below one plan keeps only the
// newest.
TEST(ShapePlanCache, BoundsDropTheLeastRecentlyUsedPlans) {
  ASSERT_EQ(ExportStatus(), "ok");
  std::unique_ptr<ShapePlanCache> two =
      CacheOf("bert_encoder_opset17", {{kOptShapePlanEntries, "2"}});
  ASSERT_NE(two, nullptr);
  RunOn(*two, Ids(1, 4));
  RunOn(*two, Ids(1, 5));
  RunOn(*two, Ids(1, 4));  // now 1x5 is the least recently used
  RunOn(*two, Ids(1, 6));
  ShapePlanStats stats = two->Stats();
  EXPECT_EQ(stats.evictions, 1);
  ASSERT_EQ(stats.plans.size(), 2u);
  EXPECT_EQ(stats.plans[0].shapes, "input_ids:1,6");
  EXPECT_EQ(stats.plans[1].shapes, "input_ids:1,4");
  RunOn(*two, Ids(1, 5));  // compiled again
  EXPECT_EQ(two->Stats().misses, 4);

  std::unique_ptr<ShapePlanCache> capped =
      CacheOf("bert_encoder_opset17", {{kOptShapePlanBytes, "1"}});
  ASSERT_NE(capped, nullptr);
  RunOn(*capped, Ids(1, 4));
  RunOn(*capped, Ids(1, 5));
  stats = capped->Stats();
  ASSERT_EQ(stats.plans.size(), 1u);
  EXPECT_EQ(stats.plans[0].shapes, "input_ids:1,5");
  EXPECT_EQ(stats.evictions, 1);
  EXPECT_EQ(stats.bytes, stats.plans[0].bytes);
}

// Without plans (0 entries) the graph runs on the dynamic executor, with the same numbers.
TEST(ShapePlanCache, ZeroEntriesRunsTheDynamicExecutor) {
  ASSERT_EQ(ExportStatus(), "ok");
  std::unique_ptr<ShapePlanCache> cache =
      CacheOf("bert_encoder_opset17", {{kOptShapePlanEntries, "0"}});
  ASSERT_NE(cache, nullptr);
  EXPECT_FALSE(cache->specializes());
  const GeTensor a = Ids(1, 9);
  const GeTensor b = Ids(2, 3);
  EXPECT_LT(RelativeError(RunOn(*cache, a), StaticOutput("bert_encoder_opset17", a)), 1e-5);
  EXPECT_LT(RelativeError(RunOn(*cache, b), StaticOutput("bert_encoder_opset17", b)), 1e-5);
  const ShapePlanStats stats = cache->Stats();
  ASSERT_EQ(stats.plans.size(), 1u);
  EXPECT_TRUE(stats.plans[0].dynamic);
  EXPECT_EQ(stats.plans[0].shapes, "");
  EXPECT_EQ(stats.misses, 1);
  EXPECT_EQ(stats.hits, 1);
}

// A shape that does not fit the graph is refused before anything compiles, naming the input.
TEST(ShapePlanCache, AMisfitShapeIsRefusedNamingTheInput) {
  ASSERT_EQ(ExportStatus(), "ok");
  std::unique_ptr<ShapePlanCache> cache = CacheOf("bert_encoder_opset17");
  ASSERT_NE(cache, nullptr);
  const int64_t ids[3] = {1, 2, 3};
  GeTensor rank1(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_INT64),
                 reinterpret_cast<const uint8_t*>(ids), sizeof(ids));
  auto out = cache->Run({rank1});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("input 'input_ids'"), std::string::npos)
      << out.status().message();
  EXPECT_NE(out.status().message().find("[-1,-1]"), std::string::npos) << out.status().message();
  out = cache->Run({});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("1 input(s), 0 given"), std::string::npos)
      << out.status().message();
  EXPECT_EQ(cache->Stats().misses, 0);
}

std::vector<int64_t> DimsOf(const GeTensor& t) { return t.GetTensorDesc().GetShape().GetDims(); }

// With openge.shapeBuckets the causal decoder runs 5, 7 and 9 tokens on plans for 8 and 16, its
// outputs cut back to the real tokens with the static compile's numbers for them; 8 tokens take
// the plan for 8 unpadded.
TEST(ShapePlanBuckets, PaddedRunsGiveTheRealTokensTheStaticNumbers) {
  ASSERT_EQ(ExportStatus(), "ok");
  const std::string model = "gpt2_tiny_dynamic_opset17";
  std::unique_ptr<ShapePlanCache> cache = CacheOf(model, {{kOptShapeBuckets, "sequence:8"}});
  ASSERT_NE(cache, nullptr);
  for (int64_t seq : {5, 7, 9, 8}) {
    const GeTensor ids = Ids(1, seq);
    auto plan = cache->PlanFor({ids});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_EQ(plan->padded(), seq % 8 != 0) << seq;
    EXPECT_EQ(plan->shapes(), seq <= 8 ? "input_ids:1,8" : "input_ids:1,16");
    auto out = plan->Run({ids});
    ASSERT_TRUE(out.ok()) << out.status().message();
    ASSERT_EQ(DimsOf((*out)[0]).size(), 3u);
    EXPECT_EQ(DimsOf((*out)[0])[1], seq);
    EXPECT_LT(RelativeError(FloatsOf((*out)[0]), StaticOutput(model, ids)), 1e-5) << seq;
    // The same through Run, which looks the plan up again.
    EXPECT_EQ(RunOn(*cache, ids), FloatsOf((*out)[0])) << seq;
  }
  const ShapePlanStats stats = cache->Stats();
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.hits, 6);
  EXPECT_EQ(stats.padded, 6);
  ASSERT_EQ(stats.plans.size(), 2u);
  EXPECT_EQ(stats.plans[0].shapes, "input_ids:1,8");
  EXPECT_EQ(stats.plans[1].shapes, "input_ids:1,16");
}

// Listed sizes and a batch bucket: each dim goes to the first listed size that holds it (a size
// beyond the last is its own), the batch to its multiple; every real row and token has the
// static numbers.
TEST(ShapePlanBuckets, ListedSizesAndABatchMultiple) {
  ASSERT_EQ(ExportStatus(), "ok");
  const std::string model = "gpt2_tiny_dynamic_opset17";
  std::unique_ptr<ShapePlanCache> cache =
      CacheOf(model, {{kOptShapeBuckets, "sequence:4,16;batch:2"}});
  ASSERT_NE(cache, nullptr);
  const std::vector<std::tuple<int64_t, int64_t, std::string>> cases = {
      {1, 3, "input_ids:2,4"}, {3, 10, "input_ids:4,16"}, {2, 17, "input_ids:2,17"}};
  for (const auto& [batch, seq, shapes] : cases) {
    const GeTensor ids = Ids(batch, seq);
    auto plan = cache->PlanFor({ids});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_EQ(plan->shapes(), shapes);
    auto out = plan->Run({ids});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(DimsOf((*out)[0])[0], batch);
    EXPECT_EQ(DimsOf((*out)[0])[1], seq);
    EXPECT_LT(RelativeError(FloatsOf((*out)[0]), StaticOutput(model, ids)), 1e-5)
        << batch << "x" << seq;
  }
  EXPECT_EQ(cache->Stats().padded, 2);  // 2x17 fits its own size
}

// ge::Session follows the option too: RunGraph pads, runs the bucket's plan and cuts back.
TEST(ShapePlanBuckets, ASessionRunsPaddedAndCutsBack) {
  ASSERT_EQ(ExportStatus(), "ok");
  auto graph = ParseOnnxFile(ModelPath("gpt2_tiny_dynamic_opset17"));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  std::map<std::string, std::string> options = kOptions;
  options[kOptShapeBuckets] = "sequence:8";
  Session session(options);
  ASSERT_EQ(session.AddGraph(1, Graph::FromComputeGraph(*graph)), GRAPH_SUCCESS) << GEGetErrorMsg();
  for (int64_t seq : {5, 6}) {
    std::vector<Tensor> outputs;
    ASSERT_EQ(session.RunGraph(1, {TensorAdapter::AsTensor(Ids(1, seq))}, outputs), GRAPH_SUCCESS)
        << GEGetErrorMsg();
    ASSERT_EQ(outputs.size(), 1u);
    ASSERT_EQ(outputs[0].GetTensorDesc().GetShape().GetDims().size(), 3u);
    EXPECT_EQ(outputs[0].GetTensorDesc().GetShape().GetDims()[1], seq);
  }
  ShapePlanStats stats;
  ASSERT_EQ(session.GetShapePlanStats(1, stats), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(stats.misses, 1);
  EXPECT_EQ(stats.padded, 2);
}

// A plan runs only the shapes it was looked up for: others would be padded wrong.
TEST(ShapePlanBuckets, APlanRefusesOtherShapes) {
  ASSERT_EQ(ExportStatus(), "ok");
  std::unique_ptr<ShapePlanCache> cache =
      CacheOf("gpt2_tiny_dynamic_opset17", {{kOptShapeBuckets, "sequence:8"}});
  ASSERT_NE(cache, nullptr);
  auto plan = cache->PlanFor({Ids(1, 5)});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto out = plan->Run({Ids(1, 6)});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("[1,5], the shape it was looked up for"), std::string::npos)
      << out.status().message();
  auto empty = ShapePlan().Run({Ids(1, 5)});
  EXPECT_FALSE(empty.ok());
}

// `graph` as a ComputeGraph whose one input names its dims `names`, as an ONNX model's would.
ComputeGraphPtr WithDimNames(const Graph& graph, const std::vector<std::string>& names) {
  auto compute = graph.ToComputeGraph();
  EXPECT_TRUE(compute.ok()) << compute.status().message();
  if (!compute.ok()) return nullptr;
  for (const NodePtr& node : (*compute)->GetDirectNode()) {
    if (node->GetType() != kTypeData) continue;
    EXPECT_TRUE(
        AttrUtils::SetListStr(*node->GetOpDesc()->MutableOutputDesc(0), kAttrSymbolicDims, names));
  }
  return *compute;
}

// The cache is not made from a bucket option it cannot follow; the error says why.
TEST(ShapePlanBuckets, AnOptionItCannotFollowIsRefusedSayingWhy) {
  ASSERT_EQ(ExportStatus(), "ok");
  auto graph = ParseOnnxFile(ModelPath("gpt2_tiny_dynamic_opset17"));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto refused = [&](ComputeGraphPtr g, std::map<std::string, std::string> extra) {
    std::map<std::string, std::string> options = kOptions;
    options.insert(extra.begin(), extra.end());
    auto cache = ShapePlanCache::Create(std::move(g), options, Runtime());
    return cache.ok() ? std::string("made") : cache.status().message();
  };
  auto copy = [&] {
    auto c = GraphUtils::CopyComputeGraph(*graph);
    EXPECT_TRUE(c.ok());
    return c.ok() ? *c : nullptr;
  };
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"sequence", "expected DIM:M"},
      {":8", "expected DIM:M"},
      {"sequence:0", "above 0"},
      {"sequence:8,x", "whole numbers"},
      {"sequence:16,8", "ascending"},
      {"sequence:8;sequence:16", "given twice"},
      {"seq:8", "no input has a dim named 'seq' (they name 'batch', 'sequence')"}};
  for (const auto& [text, why] : texts) {
    const std::string message = refused(copy(), {{kOptShapeBuckets, text}});
    EXPECT_NE(message.find(kOptShapeBuckets), std::string::npos) << text << ": " << message;
    EXPECT_NE(message.find(why), std::string::npos) << text << ": " << message;
  }
  EXPECT_NE(refused(copy(), {{kOptShapeBuckets, "sequence:8"}, {kOptInputShape, "input_ids:1,4"}})
                .find("ge.inputShape fixes the shapes"),
            std::string::npos);
  EXPECT_NE(
      refused(copy(), {{kOptShapeBuckets, "sequence:8"}, {kOptShapePlanEntries, "0"}}).find("is 0"),
      std::string::npos);
  EXPECT_EQ(refused(copy(), {{kOptShapeBuckets, ";"}}), "made");  // no buckets

  // An output whose run-time dims have no names, and nothing that proves what they are: a
  // NonZero's count depends on the values.
  {
    op::Data x("x");
    x.update_output_desc_y(TensorDesc(Shape({-1}), FORMAT_ND, DT_FLOAT));
    op::NonZero nz("nz");
    nz.set_input_x(x);
    Graph nonzero("nonzero");
    nonzero.SetInputs({x}).SetOutputs({nz});
    ComputeGraphPtr compute = WithDimNames(nonzero, {"n"});
    ASSERT_NE(compute, nullptr);
    const std::string message = refused(compute, {{kOptShapeBuckets, "n:8"}});
    EXPECT_NE(message.find("output 'output_0' has a dim known only at run time that it does not "
                           "name and shape inference does not relate to the inputs' dims"),
              std::string::npos)
        << message;
  }
}

// Outputs whose dims the model does not name are cut back by what the compiler proves of them:
// the logits of the decoder are [batch, sequence, 1000] by shape inference alone.
TEST(ShapePlanBuckets, OutputsTheModelLeavesUnnamedAreCutByTheirProvedDims) {
  ASSERT_EQ(ExportStatus(), "ok");
  const std::string model = "gpt2_tiny_dynamic_opset17";
  auto graph = ParseOnnxFile(ModelPath(model));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  for (const NodePtr& node : (*graph)->GetDirectNode()) {
    if (node->GetType() != kTypeNetOutput) continue;
    ASSERT_TRUE(node->GetOpDesc()->MutableInputDesc(0)->DelAttr(kAttrSymbolicDims));
  }
  std::map<std::string, std::string> options = kOptions;
  options[kOptShapeBuckets] = "sequence:8";
  auto cache = ShapePlanCache::Create(std::move(*graph), options, Runtime());
  ASSERT_TRUE(cache.ok()) << cache.status().message();
  const GeTensor ids = Ids(2, 5);
  auto out = (*cache)->Run({ids});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{2, 5, 1000}));
  EXPECT_LT(RelativeError(FloatsOf((*out)[0]), StaticOutput(model, ids)), 1e-5);
  EXPECT_EQ((*cache)->Stats().padded, 1);
}

// An output dim that padding changes but that is not the padded dim itself cannot be cut back:
// y = Concat(x, x) along the sequence is [batch, seq*2], its padding in two places.
TEST(ShapePlanBuckets, AnOutputPaddingChangesOtherwiseIsRefusedWithItsExpression) {
  op::Data x("x");
  x.update_output_desc_y(TensorDesc(Shape({-1, -1}), FORMAT_ND, DT_FLOAT));
  op::ConcatV2 concat("concat");
  concat.create_dynamic_input_x(2).set_dynamic_input_x(0, x).set_dynamic_input_x(1, x);
  concat.set_attr_axis(1);
  Graph graph("twice");
  graph.SetInputs({x}).SetOutputs({concat});
  ComputeGraphPtr compute = WithDimNames(graph, {"batch", "seq"});
  ASSERT_NE(compute, nullptr);
  std::map<std::string, std::string> options = kOptions;
  options[kOptShapeBuckets] = "seq:8";
  auto refused = ShapePlanCache::Create(compute, options, Runtime());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("dim 1 = seq*2, which padding changes"),
            std::string::npos)
      << refused.status().message();
  // Padding the batch instead is fine: the batch dim of the output is the batch.
  options[kOptShapeBuckets] = "batch:4";
  auto cache = ShapePlanCache::Create(compute, options, Runtime());
  ASSERT_TRUE(cache.ok()) << cache.status().message();
  std::vector<float> values(6);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const GeTensor in(GeTensorDesc(GeShape({3, 2}), FORMAT_ND, DT_FLOAT),
                    reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(float));
  auto out = (*cache)->Run({in});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(FloatsOf((*out)[0]), (std::vector<float>{0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5}));
}

TensorDesc FloatDesc(std::vector<int64_t> dims) {
  return TensorDesc(Shape(std::move(dims)), FORMAT_ND, DT_FLOAT);
}

Tensor Zeros(std::vector<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return {FloatDesc(dims), std::vector<uint8_t>(static_cast<size_t>(count) * 4, 0)};
}

// A cache over `graph` with the test engines; null (and a test failure) when it cannot be made.
std::unique_ptr<ShapePlanCache> CacheOver(const Graph& graph) {
  auto compute = graph.ToComputeGraph();
  EXPECT_TRUE(compute.ok()) << compute.status().message();
  if (!compute.ok()) return nullptr;
  auto cache = ShapePlanCache::Create(*compute, kOptions, Runtime());
  EXPECT_TRUE(cache.ok()) << cache.status().message();
  return cache.ok() ? std::move(*cache) : nullptr;
}

// y = x + c with x [-1, 3] and c [4, 3]: only x of 4 (or 1) rows broadcasts.
Graph AddToFourRows() {
  op::Data x("x");
  x.update_output_desc_y(FloatDesc({-1, 3}));
  op::Const c("c");
  c.set_attr_value(Zeros({4, 3}));
  op::Add add("add");
  add.set_input_x1(x).set_input_x2(c);
  Graph graph("add_rows");
  graph.SetInputs({x}).SetOutputs({add});
  return graph;
}

// A shape whose compile fails fails on every run with the compiler's message, without compiling
// again; other shapes still run.
TEST(ShapePlanCache, AFailedCompileIsKeptAsThatShapesOutcome) {
  std::unique_ptr<ShapePlanCache> cache = CacheOver(AddToFourRows());
  ASSERT_NE(cache, nullptr);
  const GeTensor three_rows = TensorAdapter::AsGeTensor(Zeros({3, 3}));
  for (int i = 0; i < 2; ++i) {
    auto out = cache->Run({three_rows});
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find("input shapes x:3,3"), std::string::npos)
        << out.status().message();
    EXPECT_NE(out.status().message().find("add"), std::string::npos) << out.status().message();
  }
  auto four = cache->Run({TensorAdapter::AsGeTensor(Zeros({4, 3}))});
  ASSERT_TRUE(four.ok()) << four.status().message();
  EXPECT_EQ((*four)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 3}));
  const ShapePlanStats stats = cache->Stats();
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.hits, 1);
  ASSERT_EQ(stats.plans.size(), 2u);
  EXPECT_FALSE(stats.plans[1].error.empty());
}

// The cache describes the graph's outputs as its inputs, with the names of their run-time dims,
// and compiles it for any shape on request (from weights it dropped: the numbers are the same).
TEST(ShapePlanCache, DescribesItsOutputsAndCompilesTheGraphForAnyShape) {
  ASSERT_EQ(ExportStatus(), "ok");
  const std::string model = "gpt2_tiny_dynamic_opset17";
  std::unique_ptr<ShapePlanCache> cache = CacheOf(model);
  ASSERT_NE(cache, nullptr);
  ASSERT_EQ(cache->inputs().size(), 1u);
  EXPECT_EQ(cache->inputs()[0].dim_names, (std::vector<std::string>{"batch", "sequence"}));
  ASSERT_EQ(cache->outputs().size(), 1u);
  EXPECT_EQ(cache->outputs()[0].dtype, DT_FLOAT);
  EXPECT_EQ(cache->outputs()[0].dims, (std::vector<int64_t>{-1, -1, 1000}));
  auto any_shape = cache->CompileForAnyShape();
  ASSERT_TRUE(any_shape.ok()) << any_shape.status().message();
  auto model_any = LoadedModel::Load(std::move(*any_shape), Runtime());
  ASSERT_TRUE(model_any.ok()) << model_any.status().message();
  EXPECT_TRUE((*model_any)->runs_dynamically());
  EXPECT_EQ((*model_any)->outputs()[0].dim_names,
            (std::vector<std::string>{"batch", "sequence", ""}));
  for (const GeTensor& ids : {Ids(1, 6), Ids(2, 3)}) {
    auto out = (*model_any)->Run({ids});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_LT(RelativeError(FloatsOf((*out)[0]), RunOn(*cache, ids)), 1e-5);
  }
}

// A graph with an operator no library registers is refused when the cache is made, not at its
// first run.
TEST(ShapePlanCache, AnUnknownOperatorIsRefusedWhenTheCacheIsMade) {
  GraphBuilder b("unknown");
  auto x = b.AddData("x", {-1, 3});
  ASSERT_TRUE(x.ok());
  auto odd = b.AddOp("odd", "NoSuchOperator", {NodeOutput(*x)}, {GraphBuilder::Desc({-1, 3})});
  ASSERT_TRUE(odd.ok()) << odd.status().message();
  ASSERT_TRUE(b.AddNetOutput({NodeOutput(*odd)}).ok());
  auto cache = ShapePlanCache::Create(b.GetGraph(), kOptions, Runtime());
  ASSERT_FALSE(cache.ok());
  EXPECT_NE(cache.status().message().find("NoSuchOperator"), std::string::npos)
      << cache.status().message();
}

// Plans compiled from copies of the graph share its weights: a 1 MiB embedding table read by a
// Gather is held once, whatever the number of plans, and is not counted in their bytes.
TEST(ShapePlanCache, PlansShareTheGraphsWeights) {
  constexpr int64_t kRows = 65536;
  op::Data ids("ids");
  ids.update_output_desc_y(TensorDesc(Shape({-1}), FORMAT_ND, DT_INT64));
  op::Const table("table");
  table.set_attr_value(Zeros({kRows, 4}));
  op::GatherV2 gather("gather");
  gather.set_input_x(table).set_input_indices(ids).set_attr_axis(0);
  Graph graph("embedding");
  graph.SetInputs({ids}).SetOutputs({gather});
  std::unique_ptr<ShapePlanCache> cache = CacheOver(graph);
  ASSERT_NE(cache, nullptr);
  for (int64_t n : {1, 2, 3}) {
    std::vector<int64_t> rows(static_cast<size_t>(n), kRows - 1);
    GeTensor in(GeTensorDesc(GeShape({n}), FORMAT_ND, DT_INT64),
                reinterpret_cast<const uint8_t*>(rows.data()), rows.size() * sizeof(int64_t));
    auto out = cache->Run({in});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{n, 4}));
  }
  const ShapePlanStats stats = cache->Stats();
  ASSERT_EQ(stats.plans.size(), 3u);
  const int64_t table_bytes = kRows * 4 * 4;
  for (const ShapePlanInfo& plan : stats.plans) {
    EXPECT_FALSE(plan.dynamic) << plan.shapes;
    EXPECT_LT(plan.bytes, table_bytes / 16) << plan.shapes;
  }
  EXPECT_LT(stats.bytes, table_bytes / 4);
}

// y = Gather(table, ids) x w^T, ids [-1]: a table a Gather reads as it is and a weight the CPU
// engine packs for its matrix product. Weights given later (WithFileWeights).
ComputeGraphPtr LookupThenProject(int64_t rows, int64_t k, int64_t n) {
  op::Data ids("ids");
  ids.update_output_desc_y(TensorDesc(Shape({-1}), FORMAT_ND, DT_INT64));
  op::Const table("table");
  table.set_attr_value(Zeros({rows, k}));
  op::GatherV2 gather("gather");
  gather.set_input_x(table).set_input_indices(ids).set_attr_axis(0);
  op::Const w("w");
  w.set_attr_value(Zeros({n, k}));
  op::MatMulV2 project("project");
  project.set_input_x1(gather).set_input_x2(w).set_attr_transpose_x2(true);
  Graph graph("lookup_project");
  graph.SetInputs({ids}).SetOutputs({project});
  auto compute = graph.ToComputeGraph();
  EXPECT_TRUE(compute.ok()) << compute.status().message();
  return compute.ok() ? *compute : nullptr;
}

// Weights copied out of a model file, as the ONNX parser copies initializers that do not lie
// on a 64-byte boundary: a plan copies them again from the file while it needs them, so a plan
// that packs a weight holds only the packed form (the static model's memory), and plans alive
// share one copy of a weight they read as it is. The numbers are the weights', every time.
TEST(ShapePlanCache, PlansCopyFileWeightsAgainRatherThanHoldThemTwice) {
  constexpr int64_t kRows = 4096, kK = 1024, kN = 4096;  // 16 MiB each
  constexpr int64_t kWeight = kN * kK * 4;
  const std::vector<float> table = [] {
    std::vector<float> v(static_cast<size_t>(kRows * kK));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 97) / 97.0F;
    return v;
  }();
  const std::vector<float> w = [] {
    std::vector<float> v(static_cast<size_t>(kN * kK));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 89) / 89.0F - 0.5F;
    return v;
  }();
  const std::string path = ::testing::TempDir() + "/openge_plan_file_weights.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write("ONNX", 4);  // the weights after it lie 4 bytes off a boundary: they are copied
    out.write(reinterpret_cast<const char*>(table.data()),
              static_cast<std::streamsize>(table.size() * 4));
    out.write(reinterpret_cast<const char*>(w.data()), static_cast<std::streamsize>(w.size() * 4));
  }
  // What the plans give, worked out here: row r of the table against every row of w.
  auto want = [&](const std::vector<int64_t>& ids) {
    std::vector<float> y;
    for (int64_t r : ids) {
      for (int64_t j = 0; j < kN; ++j) {
        double sum = 0;
        for (int64_t c = 0; c < kK; ++c) {
          sum += static_cast<double>(table[static_cast<size_t>(r * kK + c)]) *
                 w[static_cast<size_t>(j * kK + c)];
        }
        y.push_back(static_cast<float>(sum));
      }
    }
    return y;
  };
  auto run = [&](ShapePlanCache& cache, const std::vector<int64_t>& ids) {
    GeTensor in(GeTensorDesc(GeShape({static_cast<int64_t>(ids.size())}), FORMAT_ND, DT_INT64),
                reinterpret_cast<const uint8_t*>(ids.data()), ids.size() * sizeof(int64_t));
    return RunOn(cache, in);
  };
  {  // engines, oneDNN and the kernels' code in memory before anything is measured
    auto warm = ShapePlanCache::Create(LookupThenProject(8, 16, 32), kOptions, Runtime());
    ASSERT_TRUE(warm.ok()) << warm.status().message();
    run(**warm, {1, 2});
  }
  {
    auto file = MapFile(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    ComputeGraphPtr graph = LookupThenProject(kRows, kK, kN);
    ASSERT_NE(graph, nullptr);
    const uint8_t* at = file->data.get() + 4;
    for (auto [name, dims, bytes] :
         {std::make_tuple("table", std::vector<int64_t>{kRows, kK}, at),
          std::make_tuple("w", std::vector<int64_t>{kN, kK}, at + kRows * kK * 4)}) {
      GeTensor value(GeTensorDesc(GeShape(dims), FORMAT_ND, DT_FLOAT));
      SetBytesFromFile(value, *file, bytes, static_cast<size_t>(kWeight));
      ASSERT_NE(value.FileSource(), nullptr) << name;
      ASSERT_FALSE(value.IsFileMapped()) << name;
      ASSERT_TRUE(OpDescUtils::SetConstValue(graph->FindNode(name), value).ok()) << name;
    }
    auto made = ShapePlanCache::Create(std::move(graph), kOptions, Runtime());
    ASSERT_TRUE(made.ok()) << made.status().message();
    ShapePlanCache& cache = **made;
    // Both weights' copies resident: the cache parks them for its first plan.
    const int64_t with_graph = testing::ProcStatusBytes("VmRSS");

    testing::ResetPeakResident();  // VmHWM from here on
    EXPECT_LT(RelativeError(run(cache, {5, 4095}), want({5, 4095})), 1e-5);
    const int64_t one_plan = testing::ProcStatusBytes("VmRSS");
    // The first plan takes the parser's copies instead of copying the file again: at no moment
    // is a weight in memory twice.
    EXPECT_LT(testing::ProcStatusBytes("VmHWM") - with_graph, kWeight / 2)
        << "the first plan peaked " << testing::ProcStatusBytes("VmHWM") - with_graph
        << " bytes higher";
    // The graph's copies went; the plan holds the table's and w packed, not w beside it.
    EXPECT_LT(one_plan - with_graph, kWeight / 2)
        << "one plan grew the process by " << one_plan - with_graph << " bytes";
    EXPECT_LT(RelativeError(run(cache, {0, 7, 4000}), want({0, 7, 4000})), 1e-5);
    const int64_t two_plans = testing::ProcStatusBytes("VmRSS");
    // The second shares w as the first packed it (or, where nothing is packed, as the first
    // copied it); the table is the first plan's.
    EXPECT_LT(two_plans - one_plan, kWeight / 2)
        << "a second plan grew the process by " << two_plans - one_plan << " bytes";
    const ShapePlanStats stats = cache.Stats();
    EXPECT_EQ(stats.plans.size(), 2u);
    int64_t each = 0;
    for (const ShapePlanInfo& plan : stats.plans) {
      EXPECT_LT(plan.bytes, kWeight / 2) << plan.shapes << ": w is both plans'";
      each += plan.bytes;
    }
    EXPECT_LT(stats.bytes, each + kWeight * 3 / 2) << "w counts once in the total";
  }
  // With one plan kept, each new shape's plan is made as the last is dropped: it copies the
  // packed weight out of the file again, a file gone from its directory by then (the mapping
  // keeps its bytes).
  auto graph = LookupThenProject(kRows, kK, kN);
  ASSERT_NE(graph, nullptr);
  auto file = MapFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  for (auto [name, offset] :
       {std::make_pair("table", int64_t{4}), std::make_pair("w", 4 + kRows * kK * 4)}) {
    GeTensor value(OpDescUtils::GetConstValue(*graph->FindNode(name))->GetTensorDesc());
    SetBytesFromFile(value, *file, file->data.get() + offset, static_cast<size_t>(kWeight));
    ASSERT_TRUE(OpDescUtils::SetConstValue(graph->FindNode(name), value).ok()) << name;
  }
  file = FileBytes{};             // the weights' sources keep the mapping
  std::filesystem::remove(path);  // and the mapping keeps the bytes
  auto made = ShapePlanCache::Create(
      std::move(graph), {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}, {kOptShapePlanEntries, "1"}},
      Runtime());
  ASSERT_TRUE(made.ok()) << made.status().message();
  for (const std::vector<int64_t>& ids : {std::vector<int64_t>{1}, {2, 3}, {4, 5, 6}}) {
    EXPECT_LT(RelativeError(run(**made, ids), want(ids)), 1e-5) << ids.size() << " rows";
  }
  EXPECT_EQ((*made)->Stats().evictions, 2);
}

// A graph with a Variable keeps one plan, so its state is one across shapes.
TEST(ShapePlanCache, AGraphWithStateKeepsOnePlan) {
  op::Data x("x");
  x.update_output_desc_y(FloatDesc({-1}));
  op::Variable v("v");
  v.set_attr_value(Zeros({1}));
  op::ReduceSum sum("sum");
  op::Const axes("axes");
  const int64_t zero = 0;
  axes.set_attr_value(Tensor(TensorDesc(Shape({1}), FORMAT_ND, DT_INT64),
                             reinterpret_cast<const uint8_t*>(&zero), sizeof(zero)));
  sum.set_input_x(x).set_input_axes(axes).set_attr_keepdims(true);
  op::AssignAdd add("add");
  add.set_input_ref(v).set_input_value(sum);
  Graph graph("running_total");
  graph.SetInputs({x}).SetOutputs({add});
  std::unique_ptr<ShapePlanCache> cache = CacheOver(graph);
  ASSERT_NE(cache, nullptr);
  EXPECT_FALSE(cache->specializes());
  const float two[2] = {1, 1};
  const float three[3] = {2, 2, 2};
  auto first = cache->Run(
      {GeTensor(GeTensorDesc(GeShape({2})), reinterpret_cast<const uint8_t*>(two), sizeof(two))});
  ASSERT_TRUE(first.ok()) << first.status().message();
  auto second = cache->Run({GeTensor(GeTensorDesc(GeShape({3})),
                                     reinterpret_cast<const uint8_t*>(three), sizeof(three))});
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(FloatsOf((*second)[0]), std::vector<float>{8});  // 0 + 2, then + 6
  EXPECT_EQ(cache->Stats().plans.size(), 1u);
}

// ge::Session compiles a graph of run-time input shapes per shape and reports its plans.
TEST(ShapePlanCache, ASessionCompilesPerShapeAndReportsItsPlans) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, AddToFourRows()), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(session.BuildGraph(1), GRAPH_SUCCESS) << GEGetErrorMsg();  // nothing to compile yet
  EXPECT_TRUE(session.IsGraphNeedRebuild(1));
  std::vector<Tensor> outputs;
  ASSERT_EQ(session.RunGraph(1, {Zeros({4, 3})}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(session.RunGraph(1, {Zeros({1, 3})}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 3}));
  EXPECT_FALSE(session.IsGraphNeedRebuild(1));
  ASSERT_EQ(session.RunGraph(1, {Zeros({4, 3})}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_NE(session.RunGraph(1, {Zeros({3, 3})}, outputs), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("graph 1"), std::string::npos) << GEGetErrorMsg();
  ShapePlanStats stats;
  ASSERT_EQ(session.GetShapePlanStats(1, stats), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(stats.misses, 3);
  EXPECT_EQ(stats.hits, 1);
  ASSERT_EQ(stats.plans.size(), 3u);
  EXPECT_EQ(stats.plans[1].shapes, "x:4,3");
  EXPECT_FALSE(stats.plans[1].dynamic);
  EXPECT_NE(session.GetShapePlanStats(2, stats), GRAPH_SUCCESS);
}

}  // namespace
}  // namespace ge

// LoadedModel::Run from several threads on one loaded model: every run gets a context of its own
// (arena, kernels, workspaces), so concurrent runs on different inputs give exactly the numbers
// of the same runs one after another; and a shape plan cache compiling plans while other threads
// run theirs. The ThreadSanitizer build (OPENGE_TSAN) runs these tests.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <thread>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/shape_plan_cache.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using testing::EngineOptions;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

constexpr int kThreads = 4;
constexpr int kRunsPerThread = 50;

std::vector<float> Wave(size_t n, float phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.37F * static_cast<float>(i) + phase);
  return v;
}

// Convolutions (oneDNN primitives bound to the run's memory), a residual Add, and a rank-3
// MatMul on a constant weight (packed at load): kernels that keep per-run state. `batch` -1
// makes the shapes known only at run time.
ComputeGraphPtr ConvAndMatMul(int64_t batch) {
  ProtoGraph b(batch < 0 ? "concurrent_dynamic" : "concurrent_static");
  NodePtr x = b.Data("x", {batch, 8, 10, 10});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {8, 8, 3, 3}, Wave(576, 0.1F));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {8, 8, 3, 3}, Wave(576, 0.7F));
  const std::map<std::string, AttrValue> same = {
      {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
      {"strides", AttrValue(std::vector<int64_t>{1, 1})}};
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, same);
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{relu, 0}, {w2, 0}}, same);
  NodePtr residual = b.Op("Add", "residual", {{conv2, 0}, {x, 0}});
  NodePtr tokens = b.Data("tokens", {batch, 16, 32});
  NodePtr w3 = b.Const<float>("w3", DT_FLOAT, {32, 48}, Wave(1536, 1.3F));
  NodePtr proj = b.Op("BatchMatMulV2", "proj", {{tokens, 0}, {w3, 0}});
  NodePtr act = b.Op("Relu", "act", {{proj, 0}});
  b.Output({{residual, 0}, {act, 0}});
  return b.graph();
}

std::unique_ptr<LoadedModel> CompileAndLoad(ComputeGraphPtr graph, int max_concurrent_runs) {
  auto compiler = Compiler::Create(testing::TestOptions());
  EXPECT_TRUE(compiler.ok()) << compiler.status().message();
  if (!compiler.ok()) return nullptr;
  auto compiled = (*compiler)->Compile(graph);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok()) return nullptr;
  RuntimeOptions options = EngineOptions();
  options.threads = 1;  // the callers are the parallelism (and OpenMP stays out of TSan's view)
  options.max_concurrent_runs = max_concurrent_runs;
  auto model = LoadedModel::Load(std::move(compiled).value(), options);
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : nullptr;
}

// Thread t's inputs: batch `batches[t]`, values of their own so crossed runs would show.
std::vector<GeTensor> InputsOf(int t, int64_t batch) {
  const float phase = 0.5F * static_cast<float>(t);
  return {MakeTensor(DT_FLOAT, {batch, 8, 10, 10}, Wave(static_cast<size_t>(batch * 800), phase)),
          MakeTensor(DT_FLOAT, {batch, 16, 32}, Wave(static_cast<size_t>(batch * 512), -phase))};
}

std::vector<std::vector<float>> ValuesOf(const std::vector<GeTensor>& outputs) {
  std::vector<std::vector<float>> values;
  for (const GeTensor& t : outputs) values.push_back(TensorValues<float>(t));
  return values;
}

// kThreads threads make `runs` runs each, at once: run(t, i) is thread t's i-th run, want(t, i)
// the outputs it must give. Every failure and every differing output fails the test.
void ExpectThreadsGiveTheSerialNumbers(
    int runs, const std::function<Result<std::vector<GeTensor>>(int, int)>& run,
    const std::function<const std::vector<std::vector<float>>&(int, int)>& want) {
  std::atomic<int> mismatches{0};
  std::atomic<int> failures{0};
  std::vector<std::string> first_failure(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < runs; ++i) {
        auto out = run(t, i);
        if (!out.ok()) {
          if (failures.fetch_add(1) == 0)
            first_failure[static_cast<size_t>(t)] = out.status().message();
          continue;
        }
        if (ValuesOf(*out) != want(t, i)) mismatches.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::string why;
  for (const std::string& f : first_failure) why += f;
  EXPECT_EQ(failures.load(), 0) << why;
  EXPECT_EQ(mismatches.load(), 0) << "runs whose outputs differ from the serial run's";
}

// kThreads threads run kRunsPerThread times each at once, every result compared with what the
// same inputs gave one run at a time.
void ExpectConcurrentRunsMatchSerialOnes(LoadedModel& model, const std::vector<int64_t>& batches) {
  std::vector<std::vector<GeTensor>> inputs;
  std::vector<std::vector<std::vector<float>>> expected;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(InputsOf(t, batches[static_cast<size_t>(t)]));
    auto out = model.Run(inputs.back());
    ASSERT_TRUE(out.ok()) << out.status().message();
    expected.push_back(ValuesOf(*out));
  }
  ExpectThreadsGiveTheSerialNumbers(
      kRunsPerThread, [&](int t, int) { return model.Run(inputs[static_cast<size_t>(t)]); },
      [&](int t, int) -> const auto& { return expected[static_cast<size_t>(t)]; });
}

class ConcurrentRunsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

TEST_F(ConcurrentRunsTest, StaticShapesGiveTheSerialNumbers) {
  std::unique_ptr<LoadedModel> model = CompileAndLoad(ConvAndMatMul(2), kThreads);
  ASSERT_NE(model, nullptr);
  ExpectConcurrentRunsMatchSerialOnes(*model, {2, 2, 2, 2});
  EXPECT_GE(model->run_contexts(), 1);
  EXPECT_LE(model->run_contexts(), kThreads);
  // Contexts made later leave what the model reports as it was at load.
  EXPECT_EQ(model->execution().streams, 1);
  EXPECT_EQ(model->execution().kernel_threads, std::vector<int>{1});
}

// Every thread at a batch of its own: contexts serve whatever shapes come.
TEST_F(ConcurrentRunsTest, RunTimeShapesGiveTheSerialNumbers) {
  std::unique_ptr<LoadedModel> model = CompileAndLoad(ConvAndMatMul(-1), kThreads);
  ASSERT_NE(model, nullptr);
  ExpectConcurrentRunsMatchSerialOnes(*model, {1, 2, 3, 2});
  // Each context prepared kernels for the shapes its runs met; none was shared across contexts.
  EXPECT_GT(model->kernel_cache().prepared, 0);
}

// With one context allowed, callers take turns: still the serial numbers.
TEST_F(ConcurrentRunsTest, CallersWaitWhenNoMoreContextsAreAllowed) {
  std::unique_ptr<LoadedModel> model = CompileAndLoad(ConvAndMatMul(2), 1);
  ASSERT_NE(model, nullptr);
  ExpectConcurrentRunsMatchSerialOnes(*model, {2, 2, 2, 2});
  EXPECT_EQ(model->run_contexts(), 1);
}

// The memory cap counts every context's arena: with room for one arena only, runs share it.
TEST_F(ConcurrentRunsTest, TheMemoryCapBoundsTheContextsTogether) {
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  auto compiled = (*compiler)->Compile(ConvAndMatMul(2));
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  RuntimeOptions options = EngineOptions();
  options.threads = 1;
  options.max_concurrent_runs = kThreads;
  auto probe = LoadedModel::Load(*compiled, options);
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  options.max_memory_bytes = (*probe)->arena_bytes() + (*probe)->arena_bytes() / 2;
  auto model = LoadedModel::Load(std::move(compiled).value(), options);
  ASSERT_TRUE(model.ok()) << model.status().message();
  ExpectConcurrentRunsMatchSerialOnes(**model, {2, 2, 2, 2});
  EXPECT_EQ((*model)->run_contexts(), 1);
}

// Threads running batches 1, 2 and 3 interleaved through one shape plan cache: each shape is
// compiled once, by whichever thread met it first, while the others wait for it or run plans
// made already; every output is what the same run gave alone.
TEST_F(ConcurrentRunsTest, AShapePlanCacheCompilesEachShapeOnceWhileOthersRun) {
  RuntimeOptions options = EngineOptions();
  options.threads = 1;
  auto serial = ShapePlanCache::Create(ConvAndMatMul(-1), testing::TestOptions(), options);
  auto cache = ShapePlanCache::Create(ConvAndMatMul(-1), testing::TestOptions(), options);
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  ASSERT_TRUE(cache.ok()) << cache.status().message();
  ASSERT_TRUE((*cache)->specializes());
  constexpr int kBatches = 3;
  std::vector<std::vector<std::vector<GeTensor>>> inputs(kThreads);
  std::vector<std::vector<std::vector<std::vector<float>>>> expected(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int64_t batch = 1; batch <= kBatches; ++batch) {
      inputs[static_cast<size_t>(t)].push_back(InputsOf(t, batch));
      auto out = (*serial)->Run(inputs[static_cast<size_t>(t)].back());
      ASSERT_TRUE(out.ok()) << out.status().message();
      expected[static_cast<size_t>(t)].push_back(ValuesOf(*out));
    }
  }
  constexpr int kRuns = 12;
  auto which = [](int t, int i) { return static_cast<size_t>((i + t) % kBatches); };
  ExpectThreadsGiveTheSerialNumbers(
      kRuns,
      [&](int t, int i) { return (*cache)->Run(inputs[static_cast<size_t>(t)][which(t, i)]); },
      [&](int t, int i) -> const auto& { return expected[static_cast<size_t>(t)][which(t, i)]; });
  const ShapePlanStats stats = (*cache)->Stats();
  EXPECT_EQ(stats.misses, kBatches);
  EXPECT_EQ(stats.hits, kThreads * kRuns - kBatches);
  EXPECT_EQ(stats.plans.size(), static_cast<size_t>(kBatches));
}

}  // namespace
}  // namespace ge

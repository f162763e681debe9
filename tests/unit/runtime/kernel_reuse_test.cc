// Kernels the CPU engine prepares while compiling are the ones the runtime loads: a model compiled
// and loaded in one process makes each oneDNN primitive once, for the threads its task runs with.
#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <sstream>

#include "fusion_test_util.h"
#include "ge/compiler/compile_options.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/model/task_def.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using fusion_test::Random;
using testing::ProtoGraph;

AttrValue Ints(std::vector<int64_t> v) { return {std::move(v)}; }

/// x [1, 64, 28, 28] -> 3x3 conv -> relu -> 1x1 conv -> y: worth every thread on two cores;
/// s [1, 8, 2, 2] -> 1x1 conv -> z: worth one.
ComputeGraphPtr Net() {
  ProtoGraph b("net");
  NodePtr x = b.Data("x", {1, 64, 28, 28});
  NodePtr s = b.Data("s", {1, 8, 2, 2});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {64, 64, 3, 3}, Random(size_t{64} * 64 * 9, 1));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {48, 64, 1, 1}, Random(size_t{48} * 64, 2));
  NodePtr w3 = b.Const<float>("w3", DT_FLOAT, {8, 8, 1, 1}, Random(size_t{8} * 8, 3));
  NodePtr wide = b.Op("Conv2D", "wide", {{x, 0}, {w1, 0}}, {{"pads", Ints({1, 1, 1, 1})}});
  NodePtr relu = b.Op("Relu", "relu", {{wide, 0}});
  NodePtr narrow = b.Op("Conv2D", "narrow", {{relu, 0}, {w2, 0}});
  NodePtr small = b.Op("Conv2D", "small", {{s, 0}, {w3, 0}});
  b.Output({{narrow, 0}, {small, 0}});
  return b.graph();
}

int64_t TaskThreads(const CompiledModel& m, const std::string& node) {
  int64_t threads = 0;
  AttrUtils::GetInt(m.graph->FindNode(node)->GetOpDesc(), kAttrTaskThreads, threads);
  return threads;
}

/// oneDNN's log of the primitives `load` makes that its cache did not hold.
std::string PrimitivesMadeBy(const std::function<void()>& load) {
  dnnl_set_verbose(2);
  ::testing::internal::CaptureStdout();
  load();
  const std::string log = ::testing::internal::GetCapturedStdout();
  dnnl_set_verbose(0);
  std::istringstream lines(log);
  std::string made, line;
  while (std::getline(lines, line)) {
    if (line.find("create:cache_miss") != std::string::npos) made += line + "\n";
  }
  return made;
}

class KernelReuseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

// For one thread and for two, the model is compiled for them and loaded with them: loading makes
// no convolution oneDNN did not make while compiling, and the numbers are the same either way.
TEST_F(KernelReuseTest, ALoadInTheCompilingProcessMakesNoConvolutionAgain) {
  std::vector<std::vector<float>> results;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    auto compiled = fusion_test::Compile(Net(), {{kOptScheduleThreads, std::to_string(threads)}});
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    // The test needs tasks of both kinds when the budget is two threads.
    EXPECT_EQ(TaskThreads(*compiled, "wide"), threads);
    EXPECT_EQ(TaskThreads(*compiled, "small"), 1);
    RuntimeOptions options = testing::EngineOptions();
    options.threads = threads;
    Result<std::unique_ptr<LoadedModel>> model = InternalError("not loaded");
    const std::string made =
        PrimitivesMadeBy([&] { model = LoadedModel::Load(std::move(compiled).value(), options); });
    ASSERT_TRUE(model.ok()) << model.status().message();
    EXPECT_EQ(made.find(",convolution,"), std::string::npos) << made;
    auto out = (*model)->Run(std::vector<GeTensor>{
        testing::MakeTensor(DT_FLOAT, {1, 64, 28, 28}, Random(size_t{64} * 28 * 28, 4)),
        testing::MakeTensor(DT_FLOAT, {1, 8, 2, 2}, Random(32, 5))});
    ASSERT_TRUE(out.ok()) << out.status().message();
    std::vector<float> all;
    for (const GeTensor& t : *out) {
      const std::vector<float> v = testing::TensorValues<float>(t);
      all.insert(all.end(), v.begin(), v.end());
    }
    results.push_back(std::move(all));
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (size_t i = 0; i < results[0].size(); ++i) {
    ASSERT_NEAR(results[0][i], results[1][i], 1e-4F * (1.0F + std::abs(results[0][i]))) << i;
  }
}

}  // namespace
}  // namespace ge

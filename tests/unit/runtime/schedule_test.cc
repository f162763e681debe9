// The cost model's decisions at run time: a task runs on the threads it was found worth, the
// profile carries its prediction beside the measured time, and the decisions (threads, streams)
// leave the outputs as they are without them.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/cost_model.h"
#include "ge/runtime/loaded_model.h"
#include "schedule_graphs.h"

namespace ge {
namespace {

using testing::LargeAndTiny;
using testing::MakeTensor;
using testing::RandomFloats;
using testing::TensorValues;
using testing::TwoChains;

class ScheduledRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // Loads `graph` compiled with the built-in machine profile (written to a file, so a profile
  // `gec calibrate` left on this machine does not change the test) for two threads.
  static std::unique_ptr<LoadedModel> Load(ComputeGraphPtr graph,
                                           std::map<std::string, std::string> extra) {
    const std::string profile = ::testing::TempDir() + "/schedule_test_machine.json";
    EXPECT_TRUE(MachineProfile::BuiltIn(2).Save(profile).ok());
    extra[kOptMachineProfile] = profile;
    extra[kOptScheduleThreads] = "2";
    extra[kOptDisablePasses] = "Fusion";
    auto compiler = Compiler::Create(testing::TestOptions(extra));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    if (!compiler.ok()) return nullptr;
    auto compiled = (*compiler)->Compile(std::move(graph));
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    if (!compiled.ok()) return nullptr;
    RuntimeOptions runtime;
    runtime.threads = 2;
    auto model = LoadedModel::Load(std::move(compiled).value(), runtime);
    EXPECT_TRUE(model.ok()) << model.status().message();
    return model.ok() ? std::move(model).value() : nullptr;
  }

  static std::vector<std::vector<float>> Run(LoadedModel& model,
                                             const std::vector<GeTensor>& inputs) {
    auto outputs = model.Run(inputs);
    EXPECT_TRUE(outputs.ok()) << outputs.status().message();
    std::vector<std::vector<float>> values;
    if (outputs.ok()) {
      for (const GeTensor& t : *outputs) values.push_back(TensorValues<float>(t));
    }
    return values;
  }
};

TEST_F(ScheduledRunTest, TasksRunOnTheThreadsTheyAreWorthWithTheirPredictionsInTheProfile) {
  const std::vector<GeTensor> inputs = {
      MakeTensor<float>(DT_FLOAT, {128, 512}, RandomFloats(size_t{128} * 512, 1)),
      MakeTensor<float>(DT_FLOAT, {16}, RandomFloats(16, 2))};
  std::unique_ptr<LoadedModel> decided = Load(LargeAndTiny(128), {});
  std::unique_ptr<LoadedModel> fixed = Load(LargeAndTiny(128), {{kOptCostModel, "0"}});
  ASSERT_NE(decided, nullptr);
  ASSERT_NE(fixed, nullptr);
  decided->EnableProfiling(true);
  fixed->EnableProfiling(true);
  const auto with = Run(*decided, inputs);
  const auto without = Run(*fixed, inputs);
  ASSERT_EQ(with.size(), 2U);
  ASSERT_EQ(without.size(), 2U);
  for (size_t o = 0; o < with.size(); ++o) {
    ASSERT_EQ(with[o].size(), without[o].size());
    for (size_t i = 0; i < with[o].size(); ++i) {
      ASSERT_NEAR(with[o][i], without[o][i], 1e-5F * (1 + std::abs(without[o][i])))
          << "output " << o << " [" << i << "]";
    }
  }
  std::map<std::string, TaskTiming> by_name;
  for (const TaskTiming& t : decided->LastProfile()) by_name[t.name] = t;
  ASSERT_EQ(by_name.count("mm"), 1U);
  ASSERT_EQ(by_name.count("tiny_tanh"), 1U);
  EXPECT_EQ(by_name["mm"].threads, 2);
  EXPECT_EQ(by_name["tiny_tanh"].threads, 1);
  // 2 x 128 x 512 x 512 flops at the built-in rate, on two threads.
  OpWork mm;
  mm.dense_flops = 2.0 * 128 * 512 * 512;
  mm.bytes = 4.0 * (128 * 512 * 2 + 512 * 512);
  mm.library_call = true;
  EXPECT_NEAR(by_name["mm"].predicted_us, PredictMicros(mm, 2, MachineProfile::BuiltIn(2)),
              0.05 * by_name["mm"].predicted_us);
  EXPECT_GT(by_name["tiny_tanh"].predicted_us, 0);
  // Without the cost model every task has the run's threads and no prediction.
  for (const TaskTiming& t : fixed->LastProfile()) {
    if (t.name == "mm" || t.name == "tiny_tanh") {
      EXPECT_EQ(t.threads, 2) << t.name;
      EXPECT_LT(t.predicted_us, 0) << t.name;
    }
  }
}

TEST_F(ScheduledRunTest, StreamsTheCostModelChoseGiveTheSingleStreamOutputs) {
  std::unique_ptr<LoadedModel> streams =
      Load(TwoChains(4096, 24), {{"ge.enableSingleStream", "false"}});
  std::unique_ptr<LoadedModel> single = Load(TwoChains(4096, 24), {});
  ASSERT_NE(streams, nullptr);
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(streams->execution().streams, 2);
  EXPECT_EQ(single->execution().streams, 1);
  for (uint32_t seed = 0; seed < 5; ++seed) {
    const std::vector<GeTensor> inputs = {
        MakeTensor<float>(DT_FLOAT, {4096}, RandomFloats(4096, seed))};
    EXPECT_EQ(Run(*streams, inputs), Run(*single, inputs)) << "inputs of seed " << seed;
  }
}

}  // namespace
}  // namespace ge

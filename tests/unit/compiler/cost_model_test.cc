// The cost model: machine profiles and their errors, the roofline's predictions, the work the
// CPU engine reports for a node, and the decisions a compile makes with them (threads per task,
// the stream count, the order among orders whose arenas tie), shown in the compile report.
#include "ge/compiler/cost_model.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/passes.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/model/task_def.h"
#include "schedule_graphs.h"

namespace ge {
namespace {

using testing::LargeAndTiny;
using testing::ProtoGraph;
using testing::RandomFloats;
using testing::TwoChains;

std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/cost_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// A profile whose rates make the arithmetic easy to check: 100 GFLOP/s dense, 10 Gop/s
// elementwise, 10 GB/s on one thread and 20 on two, 1 µs a task, 2 µs a library call, 5 µs a
// thread more.
MachineProfile Round() {
  MachineProfile m = MachineProfile::BuiltIn(2);
  m.dense_gflops = 100;
  m.elementwise_gops = 10;
  m.bandwidth_gbs = 10;
  m.bandwidth_all_gbs = 20;
  m.task_us = 1;
  m.library_us = 2;
  m.thread_us = 5;
  return m;
}

TEST(MachineProfile, WhatSaveWritesLoadReads) {
  const std::string path = TempPath("sub/dir/machine.json");
  MachineProfile m = Round();
  m.cores = 3;
  ASSERT_TRUE(m.Save(path).ok());
  Result<MachineProfile> back = MachineProfile::Load(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->cores, 3);
  EXPECT_EQ(back->dense_gflops, 100);
  EXPECT_EQ(back->library_us, 2);
  EXPECT_EQ(back->thread_us, 5);
  EXPECT_EQ(back->source, path);
}

TEST(MachineProfile, ADamagedFileIsRefusedNamingTheFileAndTheField) {
  const std::string path = TempPath("machine.json");
  struct Case {
    std::string text;
    std::string says;
  };
  // A whole profile with one field changed.
  auto with = [](const std::string& key, const nlohmann::json& value) {
    nlohmann::json j = nlohmann::json::parse(Round().ToJson());
    j[key] = value;
    return j.dump();
  };
  const Case cases[] = {
      {"{not json", "not a JSON object"},
      {"[1, 2]", "not a JSON object"},
      {"{\"cores\": 2}", "'dense_gflops' is missing"},
      {with("dense_gflops", -1), "'dense_gflops' must be a positive number"},
      {with("task_us", "x"), "'task_us' must be a positive number"},
      {with("thread_us", 1e300), "'thread_us' must be a positive number"},
      {with("cores", 0), "'cores' must be a whole number"},
      {with("cores", 1.5), "'cores' must be a whole number"},
  };
  for (const Case& c : cases) {
    WriteText(path, c.text);
    Result<MachineProfile> m = MachineProfile::Load(path);
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.status().message().find(path), std::string::npos) << m.status().message();
    EXPECT_NE(m.status().message().find(c.says), std::string::npos)
        << m.status().message() << " / " << c.text;
  }
  Result<MachineProfile> missing = MachineProfile::Load(TempPath("none.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot be read"), std::string::npos);
}

TEST(MachineProfile, ACompileTakesTheGivenFileElseTheCachedOneElseTheBuiltIn) {
  const std::string home = TempPath("cache");
  const char* before = std::getenv("XDG_CACHE_HOME");
  const std::string saved = before != nullptr ? before : "";
  ASSERT_EQ(::setenv("XDG_CACHE_HOME", home.c_str(), 1), 0);
  EXPECT_EQ(MachineProfile::DefaultPath(), home + "/openge/machine.json");
  Result<MachineProfile> none = MachineProfile::ForCompile("");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->source, "built-in");
  ASSERT_TRUE(Round().Save(MachineProfile::DefaultPath()).ok());
  Result<MachineProfile> cached = MachineProfile::ForCompile("");
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ(cached->source, MachineProfile::DefaultPath());
  EXPECT_EQ(cached->dense_gflops, 100);
  // A damaged cache file is not the model's fault: the built-in rates serve ...
  WriteText(MachineProfile::DefaultPath(), "{");
  Result<MachineProfile> damaged = MachineProfile::ForCompile("");
  ASSERT_TRUE(damaged.ok());
  EXPECT_EQ(damaged->source, "built-in");
  // ... but a file the user names must be right.
  EXPECT_FALSE(MachineProfile::ForCompile(MachineProfile::DefaultPath()).ok());
  if (before != nullptr) {
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
}

TEST(CostModel, PredictionsAreARooflinePlusTheFixedCosts) {
  const MachineProfile m = Round();
  OpWork dense;
  dense.dense_flops = 2e9;  // 20 ms at 100 GFLOP/s
  dense.bytes = 1e6;        // 0.1 ms at 10 GB/s
  dense.library_call = true;
  EXPECT_NEAR(PredictMicros(dense, 1, m), 1 + 2 + 20000, 1e-6);
  EXPECT_NEAR(PredictMicros(dense, 2, m), 1 + 2 + 5 + 10000, 1e-6);
  OpWork copy;
  copy.bytes = 1e8;  // memory-bound: 10 ms on one thread, 5 on two (20 GB/s)
  copy.elementwise_ops = 1e6;
  EXPECT_NEAR(PredictMicros(copy, 1, m), 1 + 10000, 1e-6);
  EXPECT_NEAR(PredictMicros(copy, 2, m), 1 + 5 + 5000, 1e-6);
  OpWork serial = dense;
  serial.parallel = false;  // a one-thread kernel is not sped up by threads
  EXPECT_EQ(PredictMicros(serial, 2, m), PredictMicros(serial, 1, m));
}

TEST(CostModel, SmallWorkIsWorthOneThreadAndLargeWorkEveryThread) {
  const MachineProfile m = Round();
  OpWork tiny;
  tiny.elementwise_ops = 64;
  tiny.bytes = 512;
  EXPECT_EQ(WorthThreads(tiny, 2, m), 1);
  OpWork large;
  large.dense_flops = 1e9;
  EXPECT_EQ(WorthThreads(large, 2, m), 2);
  EXPECT_EQ(WorthThreads(large, 8, m), 8);
  large.parallel = false;
  EXPECT_EQ(WorthThreads(large, 8, m), 1);
  // Close calls keep every thread: fewer must be predicted a tenth faster. 10 µs of arithmetic
  // is 6 µs on two threads with the 5 µs thread cost, 1 µs more than on one.
  OpWork close;
  close.elementwise_ops = 1e5;
  EXPECT_EQ(WorthThreads(close, 2, m), 2);
}

// The CPU engine's account of a node: arithmetic by kind, bytes read and written.
class CpuWorkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // The work of `node` once the shapes of its graph are inferred.
  static std::optional<OpWork> WorkOf(const NodePtr& node) {
    auto infer = CreateInferShapePass();
    testing::RunPass(*infer, *node->GetOwnerComputeGraph());
    const EngineInfo* cpu = testing::TestEngines().GetEngine("DNN_VM_HOST_CPU");
    EXPECT_NE(cpu, nullptr);
    if (cpu == nullptr) return std::nullopt;
    return cpu->store->WorkOf(*node->GetOpDescBarePtr());
  }
};

TEST_F(CpuWorkTest, AMatrixProductCountsTwoFlopsAMultiplyAdd) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {64, 768});
  NodePtr w =
      b.Const<float>("w", DT_FLOAT, {768, 256}, std::vector<float>(size_t{768} * 256, 0.5F));
  NodePtr mm = b.Op("MatMulV2", "mm", {{x, 0}, {w, 0}});
  b.Output({{mm, 0}});
  std::optional<OpWork> work = WorkOf(mm);
  ASSERT_TRUE(work.has_value());
  EXPECT_EQ(work->dense_flops, 2.0 * 64 * 768 * 256);
  EXPECT_EQ(work->bytes, 4.0 * (64 * 768 + 768 * 256 + 64 * 256));
  EXPECT_TRUE(work->library_call);
  EXPECT_TRUE(work->parallel);
}

TEST_F(CpuWorkTest, ADepthwiseConvolutionRunsAtElementwiseRatesAndADenseOneAtDenseRates) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {1, 32, 28, 28});
  const std::map<std::string, AttrValue> same = {
      {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
      {"strides", AttrValue(std::vector<int64_t>{1, 1})}};
  std::map<std::string, AttrValue> depthwise = same;
  depthwise["group"] = AttrValue(int64_t{32});
  NodePtr dw_w = b.Const<float>("dw_w", DT_FLOAT, {32, 1, 3, 3}, std::vector<float>(288, 0.1F));
  NodePtr dw = b.Op("Conv2D", "dw", {{x, 0}, {dw_w, 0}}, depthwise);
  NodePtr pw_w = b.Const<float>("pw_w", DT_FLOAT, {32, 32, 3, 3},
                                RandomFloats(size_t{32} * 32 * 9, 1, -0.1F, 0.1F));
  NodePtr pw = b.Op("Conv2D", "dense", {{dw, 0}, {pw_w, 0}}, same);
  b.Output({{pw, 0}});
  const double outputs = 32.0 * 28 * 28;
  std::optional<OpWork> d = WorkOf(dw);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->dense_flops, 0);
  EXPECT_EQ(d->elementwise_ops, outputs * 9);
  std::optional<OpWork> p = WorkOf(pw);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->dense_flops, 2 * outputs * 32 * 9);
}

TEST_F(CpuWorkTest, AGatherReadsTheRowsItWritesNotTheWholeTable) {
  ProtoGraph b;
  NodePtr ids = b.Data("ids", {1, 8}, DT_INT64);
  NodePtr table =
      b.Const<float>("table", DT_FLOAT, {4096, 64}, std::vector<float>(size_t{4096} * 64));
  NodePtr gather = b.Op("GatherV2", "gather", {{table, 0}, {ids, 0}});
  b.Output({{gather, 0}});
  std::optional<OpWork> work = WorkOf(gather);
  ASSERT_TRUE(work.has_value());
  const double rows = 8.0 * 64 * 4;
  EXPECT_EQ(work->bytes, 2 * rows + 8 * 8);
  EXPECT_FALSE(work->library_call);
}

TEST_F(CpuWorkTest, AShapeKnownOnlyAtRunTimeCannotBeSized) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {-1, 16});
  NodePtr t = b.Op("Tanh", "t", {{x, 0}});
  b.Output({{t, 0}});
  EXPECT_FALSE(WorkOf(t).has_value());
}

// Compiles with a fixed machine profile (not this machine's cached one) and a budget of two.
class ScheduleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static Result<CompiledModel> Compile(ComputeGraphPtr graph,
                                       std::map<std::string, std::string> extra = {}) {
    const std::string profile = TempPath("machine.json");
    if (!std::filesystem::exists(profile)) {
      EXPECT_TRUE(Round().Save(profile).ok());
    }
    extra.emplace(kOptMachineProfile, profile);
    extra.emplace(kOptScheduleThreads, "2");
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler,
                        Compiler::Create(testing::TestOptions(std::move(extra))));
    return compiler->Compile(std::move(graph));
  }

  static NodePtr Find(const CompiledModel& model, const std::string& name) {
    for (const NodePtr& node : model.graph->GetDirectNode()) {
      if (node->GetName() == name) return node;
    }
    ADD_FAILURE() << "no node " << name;
    return nullptr;
  }
};

TEST_F(ScheduleTest, EachTaskGetsTheThreadsItIsWorthAndTheReportSaysSo) {
  Result<CompiledModel> model = Compile(LargeAndTiny(256));
  ASSERT_TRUE(model.ok()) << model.status().message();
  int64_t threads = 0;
  std::vector<float> predicted;
  ASSERT_TRUE(AttrUtils::GetInt(Find(*model, "mm")->GetOpDescBarePtr(), kAttrTaskThreads, threads));
  EXPECT_EQ(threads, 2);
  ASSERT_TRUE(AttrUtils::GetListFloat(Find(*model, "mm")->GetOpDescBarePtr(), kAttrPredictedMicros,
                                      predicted));
  ASSERT_EQ(predicted.size(), 2U);
  // 2 x 256 x 512 x 512 flops at 100 GFLOP/s: 1342 µs on one thread, plus the fixed costs.
  EXPECT_NEAR(predicted[0], 1 + 2 + 2.0 * 256 * 512 * 512 / 1e5, 0.5);
  EXPECT_LT(predicted[1], predicted[0] * 0.6);
  ASSERT_TRUE(
      AttrUtils::GetInt(Find(*model, "tiny_tanh")->GetOpDescBarePtr(), kAttrTaskThreads, threads));
  EXPECT_EQ(threads, 1);

  const ScheduleReport& s = model->report.schedule;
  EXPECT_TRUE(s.on);
  EXPECT_EQ(s.threads, 2);
  EXPECT_NE(s.machine.find("machine.json"), std::string::npos) << s.machine;
  EXPECT_EQ(s.tasks_by_threads.at(2), 1);
  EXPECT_EQ(s.tasks_by_threads.at(1), 1);
  EXPECT_GT(s.one_thread_us, s.predicted_us);
  EXPECT_NE(model->report.ToJson().find("\"tasks_by_threads\""), std::string::npos);
  EXPECT_NE(model->report.ToText().find("schedule: predicted"), std::string::npos);
}

TEST_F(ScheduleTest, WithTheCostModelOffNoTaskIsLimited) {
  Result<CompiledModel> model = Compile(LargeAndTiny(256), {{kOptCostModel, "0"}});
  ASSERT_TRUE(model.ok()) << model.status().message();
  for (const NodePtr& node : model->graph->GetDirectNode()) {
    EXPECT_FALSE(AttrUtils::HasAttr(node->GetOpDescBarePtr(), kAttrTaskThreads)) << node->GetName();
  }
  EXPECT_FALSE(model->report.schedule.on);
}

TEST_F(ScheduleTest, AnUnreadableProfileFailsTheCompileNamingIt) {
  Result<CompiledModel> model =
      Compile(LargeAndTiny(256), {{kOptMachineProfile, TempPath("absent.json")}});
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("absent.json"), std::string::npos)
      << model.status().message();
}

TEST_F(ScheduleTest, BranchesOfSmallTasksGetParallelStreamsAndSerialWorkKeepsOne) {
  const std::map<std::string, std::string> streams = {{"ge.enableSingleStream", "false"},
                                                      {kOptDisablePasses, "Fusion"}};
  // Tasks worth one thread each: two streams run the branches side by side in half the time.
  Result<CompiledModel> small = Compile(TwoChains(256, 24), streams);
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(small->report.streams, 2) << small->report.ToText();
  const auto& tried = small->report.schedule.streams_predicted_us;
  ASSERT_GE(tried.size(), 2U);
  EXPECT_LT(tried.at(2), tried.at(1) * 0.95);
  // Tasks worth both threads: a second stream would halve each task's threads for nothing.
  Result<CompiledModel> large = Compile(TwoChains(1 << 22, 3), streams);
  ASSERT_TRUE(large.ok()) << large.status().message();
  EXPECT_EQ(large->report.streams, 1);
  EXPECT_GT(large->report.schedule.streams_predicted_us.at(2),
            large->report.schedule.streams_predicted_us.at(1) * 0.95);
}

TEST_F(ScheduleTest, OrdersWhoseArenasTieArePredictedAndTheFastestKept) {
  Result<CompiledModel> model = Compile(
      TwoChains(256, 24), {{"ge.enableSingleStream", "false"}, {kOptDisablePasses, "Fusion"}});
  ASSERT_TRUE(model.ok()) << model.status().message();
  const MemoryReport& memory = model->report.memory;
  ASSERT_GE(memory.order_predicted_us.size(), 2U) << model->report.ToJson();
  double fastest = -1;
  for (const auto& [order, micros] : memory.order_predicted_us) {
    EXPECT_EQ(memory.order_bytes.at(order), model->report.memory.order_bytes.at(memory.topo_order))
        << order;
    if (fastest < 0 || micros < fastest) fastest = micros;
  }
  EXPECT_EQ(memory.order_predicted_us.at(memory.topo_order), fastest);
}

}  // namespace
}  // namespace ge

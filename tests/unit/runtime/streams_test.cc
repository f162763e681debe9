// Streams at run time: models compiled with parallel streams run each stream on its own thread,
// give the single-stream outputs on every run, keep their memory plan safe between streams, and
// stop cleanly when a kernel on one stream fails.
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/runtime/loaded_model.h"

namespace ge {
namespace {

using testing::MakeTensor;
using testing::ProtoGraph;
using testing::RandomFloats;
using testing::TensorValues;

constexpr int64_t kChannels = 8;
constexpr int64_t kSide = 12;
constexpr size_t kElements = static_cast<size_t>(kChannels * kSide * kSide);

const std::map<std::string, AttrValue> kConvAttrs = {
    {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
    {"strides", AttrValue(std::vector<int64_t>{1, 1})}};

// A chain of 3x3 convolutions from `x`, each followed by `activation`.
NodePtr ConvChain(ProtoGraph& b, const NodePtr& x, const std::string& prefix, int length,
                  const std::string& activation, uint32_t seed) {
  NodePtr current = x;
  for (int i = 0; i < length; ++i) {
    const std::string name = prefix + std::to_string(i);
    NodePtr w =
        b.Const<float>(name + "_w", DT_FLOAT, {kChannels, kChannels, 3, 3},
                       RandomFloats(static_cast<size_t>(kChannels * kChannels * 9), seed + 2 * i));
    NodePtr bias = b.Const<float>(name + "_b", DT_FLOAT, {kChannels},
                                  RandomFloats(static_cast<size_t>(kChannels), seed + 2 * i + 1));
    current = b.Op("Conv2D", name, {{current, 0}, {w, 0}, {bias, 0}}, kConvAttrs);
    current = b.Op(activation, name + "_act", {{current, 0}});
  }
  return current;
}

// x -> three independent branches (two convolution chains and a GatherElements on x by the
// indices input) -> joined by adds; the branches' ends are outputs too.
ComputeGraphPtr Branches() {
  ProtoGraph b("branches");
  NodePtr x = b.Data("x", {1, kChannels, kSide, kSide});
  NodePtr indices = b.Data("indices", {1, kChannels, kSide, kSide}, DT_INT64);
  NodePtr a = ConvChain(b, x, "a", 3, "Relu", 10);
  NodePtr c = ConvChain(b, x, "c", 3, "Sigmoid", 30);
  NodePtr gather =
      b.Op("GatherElements", "gather", {{x, 0}, {indices, 0}}, {{"axis", AttrValue(int64_t{1})}});
  NodePtr g = b.Op("Tanh", "gather_tanh", {{gather, 0}});
  NodePtr ac = b.Op("Add", "join_ac", {{a, 0}, {c, 0}});
  NodePtr all = b.Op("Add", "join_all", {{ac, 0}, {g, 0}});
  b.Output({{all, 0}, {a, 0}, {c, 0}});
  return b.graph();
}

std::vector<int64_t> Indices(uint32_t seed, int64_t bad = -1) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> dist(0, kChannels - 1);
  std::vector<int64_t> v(kElements);
  for (int64_t& i : v) i = dist(rng);
  if (bad >= 0) v[kElements / 2] = bad;
  return v;
}

std::vector<GeTensor> Inputs(uint32_t seed, int64_t bad_index = -1) {
  return {MakeTensor<float>(DT_FLOAT, {1, kChannels, kSide, kSide}, RandomFloats(kElements, seed)),
          MakeTensor<int64_t>(DT_INT64, {1, kChannels, kSide, kSide}, Indices(seed, bad_index))};
}

/// Threads of this process, from /proc.
int ProcessThreads() {
  int n = 0;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  while (dirent* entry = readdir(dir)) n += entry->d_name[0] != '.';
  closedir(dir);
  return n;
}

class StreamsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  /// Compiles Branches() with `max_streams` parallel streams (0: the default single stream).
  /// The branches are too small for the cost model to find streams worth their threads, so it
  /// is off: these tests are about what the runtime does with streams.
  static Result<CompiledModel> Compile(int max_streams) {
    std::map<std::string, std::string> extra;
    if (max_streams > 0) {
      extra = {{"ge.enableSingleStream", "false"},
               {"openge.maxStreamNum", std::to_string(max_streams)},
               {"openge.costModel", "0"}};
    }
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler,
                        Compiler::Create(testing::TestOptions(std::move(extra))));
    return compiler->Compile(Branches());
  }

  static std::unique_ptr<LoadedModel> Load(CompiledModel compiled, int threads) {
    RuntimeOptions options;
    options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
    options.threads = threads;
    auto model = LoadedModel::Load(std::move(compiled), options);
    EXPECT_TRUE(model.ok()) << model.status().message();
    return model.ok() ? std::move(model).value() : nullptr;
  }
};

TEST_F(StreamsTest, ParallelStreamsGiveTheSingleStreamOutputsOnEveryRun) {
  auto single_compiled = Compile(0);
  ASSERT_TRUE(single_compiled.ok()) << single_compiled.status().message();
  EXPECT_EQ(single_compiled->stream_count, 1);
  auto single = Load(std::move(single_compiled).value(), /*threads=*/1);
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->execution().streams, 1);
  EXPECT_EQ(single->execution().pool_threads, 0);

  constexpr int kInputSets = 4;
  std::vector<std::vector<GeTensor>> inputs;
  std::vector<std::vector<std::vector<float>>> expected;
  for (int k = 0; k < kInputSets; ++k) {
    inputs.push_back(Inputs(100 + static_cast<uint32_t>(k)));
    auto out = single->Run(inputs.back());
    ASSERT_TRUE(out.ok()) << out.status().message();
    expected.emplace_back();
    for (const GeTensor& t : *out) expected.back().push_back(TensorValues<float>(t));
  }

  for (int streams : {2, 3}) {
    SCOPED_TRACE("maxStreamNum " + std::to_string(streams));
    auto compiled = Compile(streams);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    EXPECT_EQ(compiled->stream_count, streams);
    const int threads_before = ProcessThreads();
    // One intra-op thread per stream, so every kernel computes as in the single-stream model.
    auto model = Load(std::move(compiled).value(), /*threads=*/streams);
    ASSERT_NE(model, nullptr);
    const ExecutionInfo& execution = model->execution();
    EXPECT_EQ(execution.streams, streams);
    EXPECT_EQ(execution.pool_threads, streams - 1);
    EXPECT_EQ(execution.kernel_threads, std::vector<int>(static_cast<size_t>(streams), 1));
    EXPECT_EQ(ProcessThreads() - threads_before, streams - 1);

    model->EnableProfiling(true);
    for (int run = 0; run < 150; ++run) {
      const int k = run % kInputSets;
      auto out = model->Run(inputs[static_cast<size_t>(k)]);
      ASSERT_TRUE(out.ok()) << out.status().message();
      ASSERT_EQ(out->size(), expected[static_cast<size_t>(k)].size());
      for (size_t i = 0; i < out->size(); ++i) {
        ASSERT_EQ(TensorValues<float>((*out)[i]), expected[static_cast<size_t>(k)][i])
            << "run " << run << ", output " << i;
      }
    }
    // Every stream ran tasks, and the runs made no threads.
    std::set<int64_t> used;
    for (const TaskTiming& t : model->LastProfile()) used.insert(t.stream);
    EXPECT_EQ(static_cast<int>(used.size()), streams);
    EXPECT_EQ(ProcessThreads() - threads_before, streams - 1);
    model.reset();
    EXPECT_EQ(ProcessThreads(), threads_before);
  }
}

TEST_F(StreamsTest, TheThreadsBudgetIsSplitBetweenStreams) {
  auto compiled = Compile(2);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = Load(std::move(compiled).value(), /*threads=*/5);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->execution().kernel_threads, (std::vector<int>{3, 2}));
  compiled = Compile(3);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  model = Load(std::move(compiled).value(), /*threads=*/2);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->execution().kernel_threads, (std::vector<int>{1, 1, 1}));
  auto out = model->Run(Inputs(7));
  ASSERT_TRUE(out.ok()) << out.status().message();
}

TEST_F(StreamsTest, AFailingKernelStopsEveryStreamAndNamesTheNode) {
  auto compiled = Compile(3);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const int64_t gather_stream = compiled->graph->FindNode("gather")->GetOpDesc()->GetStreamId();
  auto model = Load(std::move(compiled).value(), /*threads=*/3);
  ASSERT_NE(model, nullptr);
  auto good = model->Run(Inputs(5));
  ASSERT_TRUE(good.ok()) << good.status().message();
  const std::vector<float> want = TensorValues<float>((*good)[0]);
  // The join waits for the gather's stream, which fails: the run must return, every time.
  for (int run = 0; run < 50; ++run) {
    auto bad = model->Run(Inputs(5, /*bad_index=*/kChannels + 3));
    ASSERT_FALSE(bad.ok());
    const std::string& message = bad.status().message();
    EXPECT_NE(
        message.find("node 'gather' (GatherElements) on stream " + std::to_string(gather_stream)),
        std::string::npos)
        << message;
    EXPECT_NE(message.find("out of range"), std::string::npos) << message;
    // The model runs again after a failure.
    auto again = model->Run(Inputs(5));
    ASSERT_TRUE(again.ok()) << again.status().message();
    ASSERT_EQ(TensorValues<float>((*again)[0]), want);
  }
}

TEST_F(StreamsTest, AWaitWithoutAnEarlierRecordIsRefusedAtLoad) {
  auto compiled = Compile(2);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  std::vector<TaskDef>& tasks = compiled->tasks.at(compiled->graph->GetName());
  // Move the first wait to the front of the list, before the record it waits for.
  auto wait = std::find_if(tasks.begin(), tasks.end(),
                           [](const TaskDef& t) { return t.kernel_name == "EventWait"; });
  ASSERT_NE(wait, tasks.end());
  const std::string node = wait->op_name;
  const std::string event = wait->args.at("event");
  std::rotate(tasks.begin(), wait, wait + 1);
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  auto model = LoadedModel::Load(std::move(compiled).value(), options);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), StatusCode::kParamInvalid);
  EXPECT_NE(model.status().message().find("node '" + node + "'"), std::string::npos)
      << model.status().message();
  EXPECT_NE(
      model.status().message().find("waits for event " + event + ", which no earlier task records"),
      std::string::npos)
      << model.status().message();
}

TEST_F(StreamsTest, ASavedModelKeepsItsParallelStreams) {
  auto compiled = Compile(2);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto loaded = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto model = Load(std::move(loaded).value(), /*threads=*/2);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->execution().streams, 2);
  auto out = model->Run(Inputs(3));
  ASSERT_TRUE(out.ok()) << out.status().message();
}

TEST_F(StreamsTest, APlanNotMadeForParallelStreamsRunsInListOrder) {
  auto compiled = Compile(2);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  ASSERT_TRUE(compiled->graph->HasAttr(memory::kAttrPlanStreams));
  auto parallel_compiled = Compile(2);
  ASSERT_TRUE(parallel_compiled.ok());
  compiled->graph->DelAttr(memory::kAttrPlanStreams);
  auto serial = Load(std::move(compiled).value(), /*threads=*/1);
  ASSERT_NE(serial, nullptr);
  EXPECT_EQ(serial->execution().streams, 1);
  EXPECT_EQ(serial->execution().pool_threads, 0);
  auto parallel = Load(std::move(parallel_compiled).value(), /*threads=*/2);
  ASSERT_NE(parallel, nullptr);
  auto a = serial->Run(Inputs(9));
  auto b = parallel->Run(Inputs(9));
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(TensorValues<float>((*a)[0]), TensorValues<float>((*b)[0]));
}

// Two arena tensors sharing bytes must be ordered at run time: every use of the one planned
// first happens before the producer of the other (same stream earlier, or reached by edges).
TEST_F(StreamsTest, TheMemoryPlanNeverSharesBytesBetweenTensorsOfConcurrentNodes) {
  for (int streams : {2, 3}) {
    auto compiled = Compile(streams);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    const ComputeGraph& graph = *compiled->graph;
    const std::vector<NodePtr> order = graph.GetDirectNode();
    std::unordered_map<std::string, size_t> step;
    for (size_t i = 0; i < order.size(); ++i) step[order[i]->GetName()] = i;
    // before[q]: the steps ordered before step q.
    std::vector<std::set<size_t>> before(order.size());
    std::map<int64_t, size_t> last_on_stream;
    for (size_t q = 0; q < order.size(); ++q) {
      std::vector<size_t> preds;
      for (const NodePtr& p : order[q]->GetInNodes()) preds.push_back(step.at(p->GetName()));
      const int64_t s = order[q]->GetOpDesc()->GetStreamId();
      if (last_on_stream.count(s) != 0) preds.push_back(last_on_stream[s]);
      last_on_stream[s] = q;
      for (size_t p : preds) {
        before[q].insert(p);
        before[q].insert(before[p].begin(), before[p].end());
      }
    }
    // Uses of each planned tensor: its producer and consumers.
    const memory::MemoryPlan& plan = compiled->plans.at(graph.GetName());
    struct Use {
      int64_t offset, size;
      std::vector<size_t> steps;
      std::string label;
    };
    std::vector<Use> tensors;
    for (const memory::TensorPlan& t : plan.tensors) {
      if (t.region != memory::Region::kArena || t.alias_of >= 0) continue;
      const NodePtr node = graph.FindNode(t.node);
      Use use{t.offset, t.size, {step.at(t.node)}, memory::TensorLabel(t)};
      if (t.output_index >= 0) {
        for (const auto& in : node->GetOutDataAnchor(t.output_index)->GetPeerInDataAnchors()) {
          use.steps.push_back(step.at(in->GetOwnerNode()->GetName()));
        }
      }
      tensors.push_back(use);
    }
    int shared = 0;
    for (const Use& u : tensors) {
      for (const Use& v : tensors) {
        if (&u == &v || u.offset + u.size <= v.offset || v.offset + v.size <= u.offset) continue;
        if (u.steps[0] > v.steps[0]) continue;  // each pair once, u produced first
        ++shared;
        for (size_t use : u.steps) {
          EXPECT_TRUE(before[v.steps[0]].count(use) != 0)
              << u.label << " and " << v.label << " share bytes, but step " << use
              << " may run beside " << v.label << "'s producer (" << streams << " streams)";
        }
      }
    }
    EXPECT_GT(shared, 0) << "the plan reuses nothing: the test checks nothing";
  }
}

}  // namespace
}  // namespace ge

// The compiler end to end on small graphs: placement, memory, streams, tasks, the report, the
// CompiledModel round trip, and the errors a user meets.
#include "ge/compiler/compiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "compiler_test_util.h"
#include "ge/compiler/memory/plan_options.h"
#include "ge/compiler/memory_plan_json.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge {
namespace {

using testing::ProtoGraph;
using testing::TestOptions;

class CompilerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // These tests follow the nodes of the unfused graph (elementwise fusion would make the diamond
  // one node); Fusion has tests of its own (tests/unit/runtime/fusion_*_test.cc).
  static std::unique_ptr<Compiler> Make(std::map<std::string, std::string> extra = {},
                                        bool fusion = false) {
    if (!fusion) {
      std::string& disabled = extra["openge.disablePasses"];
      disabled += disabled.empty() ? "Fusion" : ",Fusion";
    }
    auto compiler = Compiler::Create(TestOptions(std::move(extra)));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    return compiler.ok() ? std::move(compiler).value() : nullptr;
  }

  // x -> Relu -> Identity -> (Sigmoid, Tanh) -> Add -> NetOutput, plus a foldable constant branch.
  static ComputeGraphPtr Diamond() {
    ProtoGraph b("diamond");
    NodePtr x = b.Data("x", {8, 16});
    NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
    NodePtr id = b.Op("Identity", "id", {{relu, 0}});
    NodePtr s = b.Op("Sigmoid", "sigmoid", {{id, 0}});
    NodePtr t = b.Op("Tanh", "tanh", {{id, 0}});
    NodePtr c1 = b.Const<float>("c1", DT_FLOAT, {16}, std::vector<float>(16, 1.0F));
    NodePtr c2 = b.Const<float>("c2", DT_FLOAT, {16}, std::vector<float>(16, 2.0F));
    NodePtr bias = b.Op("Mul", "bias", {{c1, 0}, {c2, 0}});
    NodePtr add = b.Op("Add", "add", {{s, 0}, {t, 0}});
    NodePtr out = b.Op("Add", "out", {{add, 0}, {bias, 0}});
    b.Output({{out, 0}});
    return b.graph();
  }
};

TEST_F(CompilerTest, CompilesASmallGraphThroughEveryStage) {
  auto compiler = Make();
  ASSERT_NE(compiler, nullptr);
  ComputeGraphPtr graph = Diamond();
  auto model = compiler->Compile(graph);
  ASSERT_TRUE(model.ok()) << model.status().message();
  const CompileReport& report = model->report;
  ASSERT_EQ(report.stages.size(), 4u);
  EXPECT_EQ(report.stages[0].name, "prepare");
  EXPECT_EQ(report.stages[3].name, "build");
  // Identity removed, the bias branch folded.
  EXPECT_EQ(graph->FindNode("id"), nullptr);
  EXPECT_EQ(graph->FindNode("bias"), nullptr);
  EXPECT_EQ(report.FindPass("optimize", "ConstantFolding")->counters.at("folded Mul"), 1);
  EXPECT_EQ(report.FindPass("optimize", "RemoveIdentity")->rewrites, 1);
  EXPECT_LT(report.nodes_compiled, report.nodes_parsed);
  // Every node placed; compute on the CPU engine, Data/Const on GE Local.
  for (const NodePtr& node : graph->GetAllNodes()) {
    const std::string& engine = node->GetOpDesc()->GetOpEngineName();
    if (node->GetType() == "Data" || node->GetType() == "Const") {
      EXPECT_EQ(engine, "DNN_VM_GE_LOCAL") << node->GetName();
    } else {
      EXPECT_EQ(engine, "DNN_VM_HOST_CPU") << node->GetName();
    }
  }
  // One stream; one task per compute node, whose node has the offsets the planner chose (the
  // runtime reads them from the node; a CPU task carries no arguments of its own).
  EXPECT_EQ(model->stream_count, 1);
  const std::vector<TaskDef>& tasks = model->tasks.at("diamond");
  std::set<std::string> kernels;
  for (const TaskDef& t : tasks) {
    kernels.insert(t.kernel_name);
    EXPECT_EQ(t.stream_id, 0);
    EXPECT_TRUE(t.args.empty()) << t.op_name;
    NodePtr node = model->graph->FindNode(t.op_name);
    ASSERT_NE(node, nullptr) << t.op_name;
    EXPECT_FALSE(node->GetOpDesc()->GetOutputOffset().empty()) << t.op_name;
  }
  EXPECT_EQ(kernels, (std::set<std::string>{"Relu", "Sigmoid", "Tanh", "Add"}));
  EXPECT_EQ(tasks.size(), 5u);
  // The plan: 8x16 floats = 512 bytes per tensor; relu dies after sigmoid and tanh read it.
  const memory::MemoryPlan& plan = model->plans.at("diamond");
  EXPECT_GT(plan.arena_bytes, 0);
  EXPECT_GE(plan.arena_bytes, plan.lower_bound);
  EXPECT_TRUE(memory::CheckMemoryPlan(plan).ok());
  EXPECT_EQ(report.memory.arena_bytes, plan.arena_bytes);
  EXPECT_FALSE(report.memory.order_bytes.empty());
  EXPECT_EQ(report.memory.order_bytes.count("DFS+MemoryPriority(larger outputs)"), 1u)
      << "both memory-priority keys are tried";
  NodePtr add = graph->FindNode("add");
  ASSERT_EQ(add->GetOpDesc()->GetOutputOffset().size(), 1u);
  EXPECT_EQ(add->GetOpDesc()->GetInputOffset().size(), 2u);
  // The report prints and converts.
  EXPECT_NE(report.ToText().find("ConstantFolding"), std::string::npos);
  EXPECT_NE(report.ToJson().find("\"arena_bytes\""), std::string::npos);
}

/// A chain with a skip, x -> relu -> sig -> tanh -> add(relu, tanh): one topological order
/// whatever the mode, whose peak (relu held across sig and tanh) is more than one node holds.
/// `skip` false: a plain chain, whose peak is the working set of one node.
ComputeGraphPtr Chain(bool skip) {
  ProtoGraph b("chain");
  NodePtr x = b.Data("x", {64, 64});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr sig = b.Op("Sigmoid", "sig", {{relu, 0}});
  NodePtr tanh = b.Op("Tanh", "tanh", {{sig, 0}});
  NodePtr last =
      skip ? b.Op("Add", "add", {{relu, 0}, {tanh, 0}}) : b.Op("Neg", "neg", {{tanh, 0}});
  b.Output({{last, 0}});
  return b.graph();
}

// The order of a graph that has only one is planned once, whatever the mode: every candidate
// order has its bytes in the report, and the plan kept is the one the planner makes for that
// order alone. A plan whose peak is what one node holds when it runs is every order's floor: no
// other order is tried, and the report names the node.
TEST_F(CompilerTest, CandidateOrdersThatAreTheSameGiveThePlanOfThatOrder) {
  const std::map<std::string, std::string> unfused = {{"openge.disablePasses", "Fusion"}};
  auto tried = Make(unfused);
  std::map<std::string, std::string> dfs_only = unfused;
  dfs_only[kOptTopoSortingMode] = "1";
  auto given = Make(dfs_only);
  ASSERT_NE(tried, nullptr);
  ASSERT_NE(given, nullptr);
  // The same plan, but for how long each strategy took.
  auto untimed = [](memory::MemoryPlan plan) {
    for (memory::StrategyResult& s : plan.strategies) s.millis = 0;
    return MemoryPlanToJson(plan);
  };
  for (const bool skip : {true, false}) {
    SCOPED_TRACE(skip ? "with a skip" : "a plain chain");
    auto a = tried->Compile(Chain(skip));
    auto b = given->Compile(Chain(skip));
    ASSERT_TRUE(a.ok()) << a.status().message();
    ASSERT_TRUE(b.ok()) << b.status().message();
    const MemoryReport& memory = a->report.memory;
    EXPECT_EQ(memory.order_bytes.size(), skip ? 8u : 1u);
    EXPECT_EQ(memory.floor_node, skip ? "" : "sig");  // the first step at the peak
    for (const auto& [order, bytes] : memory.order_bytes) {
      EXPECT_EQ(bytes, a->plans.at("chain").arena_bytes) << order;
    }
    EXPECT_EQ(b->report.memory.order_bytes.size(), 0u);
    EXPECT_EQ(untimed(a->plans.at("chain")), untimed(b->plans.at("chain")));
  }
}

// Branches of several sizes give the modes different orders: the order kept is the one judged
// best, so its arena is no more than that order was judged to need (the search may lower it).
TEST_F(CompilerTest, TheOrderKeptIsTheOrderJudged) {
  auto branches = [] {
    ProtoGraph b("branches");
    NodePtr x = b.Data("x", {32, 32});
    NodePtr wide =
        b.Op("Tile", "wide", {{x, 0}, {b.Const<int64_t>("m", DT_INT64, {2}, {4, 1}), 0}});
    NodePtr a = b.Op("Relu", "a", {{wide, 0}});
    NodePtr s = b.Op("ReduceSum", "s", {{a, 0}, {b.Const<int64_t>("ax", DT_INT64, {1}, {0}), 0}});
    NodePtr t = b.Op("Tanh", "t", {{x, 0}});
    NodePtr u = b.Op("Sigmoid", "u", {{t, 0}});
    NodePtr sum = b.Op("Add", "sum", {{u, 0}, {s, 0}});
    NodePtr e = b.Op("Exp", "e", {{x, 0}});
    b.Output({{sum, 0}, {e, 0}});
    return b.graph();
  };
  auto compiler = Make({{"openge.disablePasses", "Fusion"}});
  ASSERT_NE(compiler, nullptr);
  auto a = compiler->Compile(branches());
  auto again = compiler->Compile(branches());
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(again.ok()) << again.status().message();
  const auto& memory = a->report.memory;
  ASSERT_EQ(memory.order_bytes.count(memory.topo_order), 1u);
  EXPECT_LE(memory.arena_bytes, memory.order_bytes.at(memory.topo_order));
  EXPECT_EQ(a->plans.at("branches").arena_bytes, again->plans.at("branches").arena_bytes);
  EXPECT_EQ(a->plans.at("branches").tensors.size(), again->plans.at("branches").tensors.size());
}

TEST_F(CompilerTest, FoldsOperatorsWithoutAHostKernelThroughTheCpuEngine) {
  ProtoGraph b("engine_fold");
  NodePtr x = b.Data("x", {4});
  NodePtr c = b.Const<float>("c", DT_FLOAT, {4}, {-2.0F, 0.0F, 1.0F, 3.0F});
  NodePtr sig = b.Op("Sigmoid", "sig", {{c, 0}});  // no host kernel: the CPU engine's kernel runs
  NodePtr add = b.Op("Add", "add", {{x, 0}, {sig, 0}});
  b.Output({{add, 0}});
  auto compiler = Make();
  ASSERT_NE(compiler, nullptr);
  ComputeGraphPtr graph = b.graph();
  auto model = compiler->Compile(graph);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(graph->FindNode("sig"), nullptr);
  const PassReport* folding = model->report.FindPass("optimize", "ConstantFolding");
  EXPECT_EQ(folding->counters.at("folded on an engine"), 1);
  NodePtr folded = testing::ConstInput(graph->FindNode("add"), 1);
  ASSERT_NE(folded, nullptr);
  const std::vector<float> values =
      testing::TensorValues<float>(*OpDescUtils::GetConstValue(*folded));
  const std::vector<float> inputs = {-2.0F, 0.0F, 1.0F, 3.0F};
  ASSERT_EQ(values.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(values[i], 1.0 / (1.0 + std::exp(-inputs[i])), 1e-6) << i;
}

TEST_F(CompilerTest, DumpsTheGraphAfterEveryPassWhenAsked) {
  const std::string dir = ::testing::TempDir() + "/compiler_dumps";
  std::filesystem::remove_all(dir);
  auto compiler = Make({{"openge.dumpGraphDir", dir}}, /*fusion=*/true);  // a dump per pass run
  ASSERT_NE(compiler, nullptr);
  auto model = compiler->Compile(Diamond());
  ASSERT_TRUE(model.ok()) << model.status().message();
  size_t passes = 0;
  for (const StageReport& stage : model->report.stages) passes += stage.passes.size();
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), passes);
  EXPECT_NE(files.front().find("000_ApplyInputShapes.pbtxt"), std::string::npos) << files.front();
  // Each dump is a GE graph file: the one after folding has no Mul left.
  auto folded = std::find_if(files.begin(), files.end(), [](const std::string& f) {
    return f.find("_ConstantFolding.pbtxt") != std::string::npos;
  });
  ASSERT_NE(folded, files.end());
  auto graph = ModelSerialize::LoadFromFile(*folded);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ((*graph)->FindNode("bias"), nullptr);
  EXPECT_NE((*graph)->FindNode("sigmoid"), nullptr);
}

TEST_F(CompilerTest, CompiledModelSerializesAndLoadsBackIdentically) {
  auto compiler = Make();
  ASSERT_NE(compiler, nullptr);
  auto model = compiler->Compile(Diamond());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto bytes = model->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto loaded = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  Status same = GraphUtils::CheckEqual(*model->graph, *loaded->graph);
  EXPECT_TRUE(same.ok()) << same.message();
  EXPECT_EQ(loaded->tasks, model->tasks);
  EXPECT_EQ(loaded->stream_count, model->stream_count);
  ASSERT_EQ(loaded->plans.size(), model->plans.size());
  const auto& a = model->plans.begin()->second;
  const auto& b = loaded->plans.begin()->second;
  EXPECT_EQ(a.arena_bytes, b.arena_bytes);
  EXPECT_EQ(a.strategy, b.strategy);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].offset, b.tensors[i].offset);
    EXPECT_EQ(a.tensors[i].region, b.tensors[i].region);
  }
  // Node compile state survives: offsets, streams, engines.
  for (const NodePtr& node : model->graph->GetAllNodes()) {
    NodePtr other = loaded->graph->FindNode(node->GetName());
    ASSERT_NE(other, nullptr) << node->GetName();
    EXPECT_EQ(other->GetOpDesc()->GetOutputOffset(), node->GetOpDesc()->GetOutputOffset());
    EXPECT_EQ(other->GetOpDesc()->GetStreamId(), node->GetOpDesc()->GetStreamId());
    EXPECT_EQ(other->GetOpDesc()->GetOpEngineName(), node->GetOpDesc()->GetOpEngineName());
  }
  // Writing moves no weight out of the in-memory graph: serializing again gives the same bytes.
  auto again = model->Serialize();
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, *bytes);
}

TEST_F(CompilerTest, LoadingRejectsGarbageAndPlainGraphs) {
  auto garbage = CompiledModel::Deserialize("definitely not a model");
  EXPECT_FALSE(garbage.ok());
  auto plain_bytes = ModelSerialize::Serialize(*Diamond());
  ASSERT_TRUE(plain_bytes.ok());
  auto plain = CompiledModel::Deserialize(*plain_bytes);
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.status().message().find("not an OpenGE compiled model"), std::string::npos);
  // A compiled model cut short.
  auto compiler = Make();
  auto model = compiler->Compile(Diamond());
  ASSERT_TRUE(model.ok());
  auto bytes = model->Serialize();
  ASSERT_TRUE(bytes.ok());
  auto damaged = CompiledModel::Deserialize(std::string_view(*bytes).substr(0, bytes->size() / 2));
  ASSERT_FALSE(damaged.ok());
  EXPECT_NE(damaged.status().message().find("truncated"), std::string::npos);
  auto missing = CompiledModel::LoadFromFile("/nonexistent/model.om");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/model.om"), std::string::npos);
}

TEST_F(CompilerTest, ParallelBranchesGetStreamsAndEvents) {
  // Every branch gets its stream when the cost model does not weigh them.
  auto compiler = Make({{"ge.enableSingleStream", "false"}, {"openge.costModel", "0"}});
  ASSERT_NE(compiler, nullptr);
  ComputeGraphPtr graph = Diamond();
  auto model = compiler->Compile(graph);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->stream_count, 2);
  NodePtr sigmoid = graph->FindNode("sigmoid");
  NodePtr tanh = graph->FindNode("tanh");
  EXPECT_NE(sigmoid->GetOpDesc()->GetStreamId(), tanh->GetOpDesc()->GetStreamId());
  // Every wait has a record of the same event on another stream, earlier in the list.
  std::map<std::string, std::pair<int64_t, size_t>> records;
  const auto& tasks = model->tasks.at("diamond");
  size_t waits = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].kernel_name == "EventRecord")
      records[tasks[i].args.at("event")] = {tasks[i].stream_id, i};
    if (tasks[i].kernel_name != "EventWait") continue;
    ++waits;
    auto it = records.find(tasks[i].args.at("event"));
    ASSERT_NE(it, records.end());
    EXPECT_NE(it->second.first, tasks[i].stream_id);
    EXPECT_LT(it->second.second, i);
  }
  EXPECT_GE(waits, 2u);  // the fork and the join
  // GE Local nodes (skip_assign_stream) sit on a neighbour's stream.
  NodePtr x = graph->FindNode("x");
  NodePtr relu = graph->FindNode("relu");
  EXPECT_EQ(x->GetOpDesc()->GetStreamId(), relu->GetOpDesc()->GetStreamId());
}

TEST_F(CompilerTest, DisabledPassesAreSkippedAndReported) {
  auto compiler =
      Make({{"openge.disablePasses", "ConstantFolding,CommonSubexpressionElimination"}});
  ASSERT_NE(compiler, nullptr);
  ComputeGraphPtr graph = Diamond();
  auto model = compiler->Compile(graph);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_TRUE(model->report.FindPass("optimize", "ConstantFolding")->skipped);
  EXPECT_TRUE(model->report.FindPass("optimize", "CommonSubexpressionElimination")->skipped);
  EXPECT_FALSE(model->report.FindPass("optimize", "RemoveIdentity")->skipped);
  EXPECT_NE(graph->FindNode("bias"), nullptr);
  EXPECT_EQ(graph->FindNode("id"), nullptr);
}

// The pass list is written once: the passes a compile runs are PassList()'s, in its order, each
// disablable one can be switched off (and is reported skipped), and every other is refused.
TEST_F(CompilerTest, ThePassListRunsReportsAndDisablesFromOneList) {
  const auto pass_list = Compiler::PassList();
  const std::vector<std::string> disablable = Compiler::DisablablePasses();
  std::string all;
  for (const std::string& name : disablable) all += (all.empty() ? "" : ",") + name;
  auto compiler = Make({{"openge.disablePasses", all}}, /*fusion=*/true);
  ASSERT_NE(compiler, nullptr);
  ProtoGraph b("chain");  // nothing in it needs an optional pass (the diamond's Identity does)
  NodePtr x = b.Data("x", {4, 8});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr sigmoid = b.Op("Sigmoid", "sigmoid", {{relu, 0}});
  b.Output({{sigmoid, 0}});
  auto model = compiler->Compile(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ(model->report.stages.size(), pass_list.size());
  size_t total = 0;
  for (size_t i = 0; i < pass_list.size(); ++i) {
    const StageReport& stage = model->report.stages[i];
    EXPECT_EQ(stage.name, pass_list[i].first);
    std::vector<std::string> ran;
    for (const PassReport& pass : stage.passes) {
      ran.push_back(pass.name);
      const bool off =
          std::find(disablable.begin(), disablable.end(), pass.name) != disablable.end();
      EXPECT_EQ(pass.skipped, off) << pass.name;
    }
    EXPECT_EQ(ran, pass_list[i].second) << stage.name;
    total += ran.size();
  }
  EXPECT_GT(disablable.size(), 0U);
  EXPECT_LT(disablable.size(), total);
  for (const auto& [stage, names] : pass_list) {
    for (const std::string& name : names) {
      if (std::find(disablable.begin(), disablable.end(), name) != disablable.end()) continue;
      auto refused = Compiler::Create(TestOptions({{"openge.disablePasses", name}}));
      ASSERT_FALSE(refused.ok()) << name;
      EXPECT_NE(refused.status().message().find("pass '" + name + "' is required"),
                std::string::npos)
          << refused.status().message();
    }
  }
}

TEST_F(CompilerTest, AnIdentityLeftByADisabledPassIsExplainedByGeLocal) {
  auto compiler = Make({{"openge.disablePasses", "RemoveIdentity"}});
  ASSERT_NE(compiler, nullptr);
  auto model = compiler->Compile(Diamond());
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find(
                "node 'id' (type Identity) was not removed because identity removal is switched "
                "off (the pass RemoveIdentity is in openge.disablePasses=RemoveIdentity"),
            std::string::npos)
      << model.status().message();
  EXPECT_NE(model.status().message().find("stage build"), std::string::npos);
}

TEST_F(CompilerTest, ErrorsNameTheCause) {
  auto unknown_option = Compiler::Create(TestOptions({{"ge.bogus", "1"}}));
  ASSERT_FALSE(unknown_option.ok());
  EXPECT_NE(unknown_option.status().message().find("unknown option 'ge.bogus'"), std::string::npos);

  auto unknown_pass = Compiler::Create(TestOptions({{"openge.disablePasses", "Fold"}}));
  ASSERT_FALSE(unknown_pass.ok());
  EXPECT_NE(unknown_pass.status().message().find("unknown pass 'Fold'"), std::string::npos);

  auto required = Compiler::Create(TestOptions({{"openge.disablePasses", "InferShape"}}));
  ASSERT_FALSE(required.ok());
  EXPECT_NE(required.status().message().find("required"), std::string::npos);

  auto compiler = Make();
  ProtoGraph b("bad");
  NodePtr x = b.Data("x", {2});
  OpDescPtr op = std::make_shared<OpDesc>("mystery", "NoSuchOp");
  ASSERT_TRUE(op->AddInputDesc("x", GeTensorDesc()).ok());
  ASSERT_TRUE(op->AddOutputDesc("y", GeTensorDesc()).ok());
  NodePtr mystery = *b.graph()->AddNode(op);
  ASSERT_TRUE(GraphUtils::AddEdge(x->GetOutDataAnchor(0), mystery->GetInDataAnchor(0)).ok());
  b.Output({{mystery, 0}});
  auto result = compiler->Compile(b.graph());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("'mystery' has type NoSuchOp"), std::string::npos)
      << result.status().message();
  EXPECT_NE(result.status().message().find("stage prepare"), std::string::npos);
}

}  // namespace
}  // namespace ge

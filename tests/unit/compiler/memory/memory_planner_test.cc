// Tests of PlanGraphMemory on small graphs: liveness, regions, errors and ApplyMemoryPlan.
#include "ge/compiler/memory/memory_planner.h"

#include <gtest/gtest.h>

#include "memory_test_builder.h"

namespace ge::memory {
namespace {

using testing::Contains;
using testing::MemGraph;
using testing::Out;

// data → a → b → c → out, with 1 KiB activations: a and c can share memory.
struct Chain {
  MemGraph g;
  NodePtr data, a, b, c, out;
  Chain() {
    data = g.Add("data", "Data", 0, {1024});
    a = g.Op("a", {data}, {1024});
    b = g.Op("b", {a}, {1024});
    c = g.Op("c", {b}, {1024});
    out = g.Op("out", {c}, {}, "NetOutput");
  }
};

TEST(PlanGraphMemory, ChainReusesTheDeadTensor) {
  Chain chain;
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->lower_bound, 2048);
  EXPECT_EQ(plan->arena_bytes, 2048);
  EXPECT_DOUBLE_EQ(plan->Ratio(), 1.0);
  EXPECT_EQ(Out(*plan, "a").first_step, 1);
  EXPECT_EQ(Out(*plan, "a").last_step, 2);
  // c feeds NetOutput: a graph output, live to the last step.
  EXPECT_EQ(Out(*plan, "c").last_step, 4);
  EXPECT_EQ(Out(*plan, "c").region, Region::kArena);
  EXPECT_NE(Out(*plan, "b").offset, Out(*plan, "a").offset);
  EXPECT_NE(Out(*plan, "b").offset, Out(*plan, "c").offset);
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
}

TEST(PlanGraphMemory, DataAndConstLiveInTheirOwnRegions) {
  MemGraph g;
  NodePtr d0 = g.Add("d0", "Data", 0, {100});
  NodePtr d1 = g.Add("d1", "Data", 0, {100});
  AttrUtils::SetInt(d1->GetOpDesc(), "index", 7);
  NodePtr w0 = g.Add("w0", "Const", 0, {100});
  NodePtr w1 = g.Add("w1", "Const", 0, {64});
  NodePtr op = g.Op("op", {d0, d1, w0, w1}, {64});
  g.Op("out", {op}, {}, "NetOutput");
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Out(*plan, "d0").region, Region::kInput);
  EXPECT_EQ(Out(*plan, "d0").offset, 0);  // ordinal among the Data nodes
  EXPECT_EQ(Out(*plan, "d1").offset, 7);  // its index attribute
  EXPECT_EQ(Out(*plan, "w0").region, Region::kWeight);
  EXPECT_EQ(Out(*plan, "w0").offset, 0);
  EXPECT_EQ(Out(*plan, "w1").offset, 128);  // after w0, aligned
  EXPECT_EQ(plan->weight_bytes, 192);
  EXPECT_EQ(plan->arena_bytes, 64);  // only op's output is in the arena
}

TEST(PlanGraphMemory, SeparateOutputsMovesGraphOutputsOutOfTheArena) {
  Chain chain;
  PlanOptions options;
  options.separate_outputs = true;
  auto plan = chain.g.Plan(options);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Out(*plan, "c").region, Region::kOutput);
  EXPECT_EQ(Out(*plan, "c").offset, 0);
  EXPECT_EQ(plan->output_bytes, 1024);
  EXPECT_EQ(plan->arena_bytes, 2048);  // a and b
  auto inline_plan = chain.g.Plan();
  ASSERT_TRUE(inline_plan.ok());
  EXPECT_EQ(inline_plan->output_bytes, 0);
}

TEST(PlanGraphMemory, UnconsumedOutputLivesOnlyAtItsStep) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {256, 512});  // output 1 is never read
  NodePtr b = g.Op("b", {a}, {256});
  g.Op("c", {b}, {64});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "a", 1).first_step, 0);
  EXPECT_EQ(Out(*plan, "a", 1).last_step, 0);
  EXPECT_EQ(plan->lower_bound, 768);
  EXPECT_EQ(plan->peak_step, 0);
}

TEST(PlanGraphMemory, ControlEdgesDoNotExtendLiveness) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {256});
  NodePtr b = g.Op("b", {a}, {256});
  NodePtr c = g.Op("c", {b}, {256});
  g.Ctrl(a, c);
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "a").last_step, 1);
}

TEST(PlanGraphMemory, WorkspacesLiveOnlyAtTheirStep) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {256});
  NodePtr b = g.Op("b", {a}, {256});
  b->GetOpDesc()->SetWorkspaceBytes({100, 300});
  NodePtr c = g.Op("c", {b}, {256});
  c->GetOpDesc()->SetWorkspaceBytes({512});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  int workspaces = 0;
  for (const TensorPlan& t : plan->tensors) {
    if (t.workspace_index < 0) continue;
    ++workspaces;
    EXPECT_EQ(t.first_step, t.last_step);
    EXPECT_EQ(t.size % 64, 0);
  }
  EXPECT_EQ(workspaces, 3);
  // Step 1: a, b, 128 + 320 bytes of workspace; step 2: b, c, 512.
  EXPECT_EQ(plan->lower_bound, 256 + 256 + 512);
  EXPECT_EQ(plan->peak_step, 2);
}

TEST(PlanGraphMemory, EveryStrategyIsReportedAndDisableReuseKeepsOnlyNoReuse) {
  Chain chain;
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok());
  ASSERT_GE(plan->strategies.size(), 4u);
  EXPECT_EQ(plan->strategies[3].name, "no_reuse");
  EXPECT_EQ(plan->strategies[3].arena_bytes, 3072);
  PlanOptions options;
  options.disable_reuse = true;
  auto no_reuse = chain.g.Plan(options);
  ASSERT_TRUE(no_reuse.ok());
  ASSERT_EQ(no_reuse->strategies.size(), 1u);
  EXPECT_EQ(no_reuse->strategy, "no_reuse");
  EXPECT_EQ(no_reuse->arena_bytes, 3072);
}

TEST(PlanGraphMemory, AlignmentOf512AsGe) {
  Chain chain;
  chain.a->GetOpDesc()->MutableOutputDesc(0)->SetSize(1000);
  PlanOptions options;
  options.alignment = 512;
  auto plan = chain.g.Plan(options);
  ASSERT_TRUE(plan.ok());
  for (const TensorPlan& t : plan->tensors) {
    if (t.region == Region::kArena) {
      EXPECT_EQ(t.offset % 512, 0);
      EXPECT_EQ(t.size % 512, 0);
    }
  }
  EXPECT_EQ(Out(*plan, "a").size, 1024);
}

TEST(PlanGraphMemory, RefusesANegativeSizeNamingTheNode) {
  Chain chain;
  chain.b->GetOpDesc()->MutableOutputDesc(0)->SetSize(-4);
  auto plan = chain.g.Plan();
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kParamInvalid);
  EXPECT_TRUE(Contains(plan.status().message(), "node 'b'"));
  EXPECT_TRUE(Contains(plan.status().message(), "negative size"));
}

TEST(PlanGraphMemory, UnknownShapesAreLeftToTheRuntime) {
  Chain chain;
  chain.b->GetOpDesc()->MutableOutputDesc(0)->SetShape(GeShape({-1, 4}));
  chain.b->GetOpDesc()->MutableOutputDesc(0)->SetSize(0);
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Out(*plan, "b").region, Region::kDynamic);
  EXPECT_EQ(Out(*plan, "b").size, 0);
  EXPECT_EQ(Out(*plan, "c").region, Region::kArena);
  // Only a and c need the arena now, and they are never live together... a dies at b.
  EXPECT_EQ(plan->arena_bytes, 1024);
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
  EXPECT_STREQ(RegionName(Region::kDynamic), "dynamic");
}

TEST(PlanGraphMemory, RefusesANegativeWorkspace) {
  Chain chain;
  chain.c->GetOpDesc()->SetWorkspaceBytes({-1});
  auto plan = chain.g.Plan();
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "node 'c'"));
  EXPECT_TRUE(Contains(plan.status().message(), "workspace 0"));
}

TEST(PlanGraphMemory, RefusesAnOrderMissingANode) {
  Chain chain;
  std::vector<NodePtr> order = chain.g.order();
  order.erase(order.begin() + 2);
  auto plan = PlanGraphMemory(chain.g.graph(), order, {});
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "misses node 'b'"));
}

TEST(PlanGraphMemory, RefusesAnOrderThatIsNotTopological) {
  Chain chain;
  std::vector<NodePtr> order = chain.g.order();
  std::swap(order[1], order[2]);  // b before a
  auto plan = PlanGraphMemory(chain.g.graph(), order, {});
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "not topological"));
  EXPECT_TRUE(Contains(plan.status().message(), "node 'b'"));
  EXPECT_TRUE(Contains(plan.status().message(), "node 'a'"));
}

TEST(PlanGraphMemory, RefusesAnOrderAgainstAControlEdge) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {64});
  NodePtr b = g.Add("b", "Op", 0, {64});
  g.Ctrl(b, a);
  auto plan = g.Plan();
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "not topological"));
}

TEST(PlanGraphMemory, RefusesDuplicatesAndForeignNodes) {
  Chain chain;
  std::vector<NodePtr> order = chain.g.order();
  order.push_back(order[0]);
  auto twice = PlanGraphMemory(chain.g.graph(), order, {});
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(Contains(twice.status().message(), "twice"));
  MemGraph other("other");
  NodePtr stranger = other.Add("stranger", "Op", 0, {64});
  order = chain.g.order();
  order.push_back(stranger);
  auto foreign = PlanGraphMemory(chain.g.graph(), order, {});
  ASSERT_FALSE(foreign.ok());
  EXPECT_TRUE(Contains(foreign.status().message(), "not a direct node"));
}

TEST(PlanGraphMemory, PlansOnlyTheDirectNodes) {
  Chain chain;
  auto sub = std::make_shared<ComputeGraph>("sub");
  auto op = std::make_shared<OpDesc>("inner", "Op");
  GeTensorDesc desc(GeShape({4096}), FORMAT_ND, DT_UINT8);
  desc.SetSize(4096);
  ASSERT_TRUE(op->AddOutputDesc(desc).ok());
  ASSERT_TRUE(sub->AddNode(op).ok());
  sub->SetParentGraph(chain.g.graph_ptr());
  sub->SetParentNode(chain.b);
  chain.b->GetOpDesc()->AddSubgraphInstanceName("sub");
  Status added = chain.g.graph().AddSubgraph(sub);
  ASSERT_TRUE(added.ok()) << added.ToString();
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  for (const TensorPlan& t : plan->tensors) EXPECT_NE(t.node, "inner");
}

TEST(ApplyMemoryPlan, WritesOffsetsRegionsAndWorkspaces) {
  Chain chain;
  chain.b->GetOpDesc()->SetWorkspaceBytes({128});
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(ApplyMemoryPlan(chain.g.graph(), *plan).ok());
  const OpDesc& b = *chain.b->GetOpDesc();
  EXPECT_EQ(b.GetOutputOffset(), std::vector<int64_t>{Out(*plan, "b").offset});
  EXPECT_EQ(b.GetInputOffset(), std::vector<int64_t>{Out(*plan, "a").offset});
  ASSERT_EQ(b.GetWorkspace().size(), 1u);
  std::vector<int64_t> regions;
  ASSERT_TRUE(AttrUtils::GetListInt(chain.data->GetOpDesc(), kAttrOutputMemRegion, regions));
  EXPECT_EQ(regions, std::vector<int64_t>{static_cast<int64_t>(Region::kInput)});
  ASSERT_TRUE(AttrUtils::GetListInt(chain.c->GetOpDesc(), kAttrOutputMemRegion, regions));
  EXPECT_EQ(regions, std::vector<int64_t>{static_cast<int64_t>(Region::kArena)});
  EXPECT_EQ(chain.out->GetOpDesc()->GetInputOffset(), std::vector<int64_t>{Out(*plan, "c").offset});
}

TEST(ApplyMemoryPlan, FailsNamingTheNodeWhenThePlanDoesNotMatch) {
  Chain chain;
  auto plan = chain.g.Plan();
  ASSERT_TRUE(plan.ok());
  MemoryPlan missing = *plan;
  missing.tensors.erase(missing.tensors.begin() + testing::IndexOf(*plan, "b"));
  Status status = ApplyMemoryPlan(chain.g.graph(), missing);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "node 'b'"));
  EXPECT_TRUE(chain.a->GetOpDesc()->GetOutputOffset().empty());  // nothing written
  MemoryPlan unknown = *plan;
  unknown.tensors[0].node = "ghost";
  status = ApplyMemoryPlan(chain.g.graph(), unknown);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "ghost"));
  chain.b->GetOpDesc()->SetWorkspaceBytes({64});
  status = ApplyMemoryPlan(chain.g.graph(), *plan);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "workspace 0"));
}

}  // namespace
}  // namespace ge::memory

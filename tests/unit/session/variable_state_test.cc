// State that lives across runs: a Variable keeps what Assign, AssignAdd and AssignSub write into
// it from one run to the next, reads and writes ordered by control edges (directly or through a
// ControlTrigger); a RefData written by Assign is the caller's own buffer; every loaded model
// starts from the variable's initial value. And Merge forwarding its input, and the stack
// operators on the runtime's stacks, at run time.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/compiler/compiler.h"
#include "ge/model/compiled_model.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"

namespace ge {
namespace {

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

TensorDesc Desc(std::vector<int64_t> dims) { return TensorDesc(Shape(std::move(dims))); }

Tensor Floats(const std::vector<float>& values) {
  return {Desc({static_cast<int64_t>(values.size())}),
          reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(float)};
}

GeTensor GeFloats(const std::vector<float>& values) {
  return {GeTensorDesc(GeShape({static_cast<int64_t>(values.size())})),
          reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(float)};
}

std::vector<float> FloatsOf(const GeTensor& t) {
  const auto* data = reinterpret_cast<const float*>(t.GetData().data());
  return {data, data + t.GetData().size() / sizeof(float)};
}

// v starts at [1, 2, 3, 4]; each run adds x to it and gives the sum.
Graph Accumulator() {
  op::Data x("x");
  x.update_output_desc_y(Desc({4}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::AssignAdd add("add");
  add.set_input_ref(v).set_input_value(x);
  Graph graph("accumulator");
  graph.SetInputs({x}).SetOutputs({add});
  return graph;
}

// Each run gives 2 * v, then sets v to x: a run sees the x of the run before it.
Graph Delay() {
  op::Data x("x");
  x.update_output_desc_y(Desc({4}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::Const two("two");
  two.set_attr_value(Floats({2, 2, 2, 2}));
  op::Mul twice("twice");
  twice.set_input_x1(v).set_input_x2(two);
  op::Assign set("set");
  set.set_input_ref(v).set_input_value(x);
  set.AddControlInput(twice);  // the read comes before the write
  Graph graph("delay");
  graph.SetInputs({x}).SetOutputs({twice}).SetTargets({set});
  return graph;
}

std::vector<float> RunOnce(Session& session, uint32_t id, const std::vector<float>& x) {
  std::vector<Tensor> outputs;
  EXPECT_EQ(session.RunGraph(id, {Floats(x)}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
  if (outputs.empty()) return {};
  const auto* data = reinterpret_cast<const float*>(outputs[0].GetData());
  return {data, data + outputs[0].GetSize() / sizeof(float)};
}

Result<CompiledModel> CompileGraph(const Graph& graph) {
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr built, graph.ToComputeGraph());
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(kOptions));
  return compiler->Compile(built);
}

std::unique_ptr<LoadedModel> Load(CompiledModel compiled) {
  RuntimeOptions runtime;
  runtime.options = kOptions;
  auto model = LoadedModel::Load(std::move(compiled), runtime);
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : nullptr;
}

TEST(VariableState, AssignAddAccumulatesAcrossRuns) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, Accumulator()), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{3, 4, 5, 6}));
  EXPECT_EQ(RunOnce(session, 1, {10, 0, -1, 0.5F}), (std::vector<float>{13, 4, 4, 6.5F}));
}

// An input of unknown shape makes the graph run on the dynamic executor: its variables are kept
// across runs the same way.
TEST(VariableState, AGraphOfRunTimeShapesKeepsItsVariableToo) {
  op::Data x("x");
  x.update_output_desc_y(Desc({-1}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::AssignAdd add("add");
  add.set_input_ref(v).set_input_value(x);
  Graph graph("dynamic_accumulator");
  graph.SetInputs({x}).SetOutputs({add});
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, graph), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(RunOnce(session, 1, {0, 1, 0, 1}), (std::vector<float>{2, 4, 4, 6}));
  std::vector<Tensor> outputs;
  EXPECT_NE(session.RunGraph(1, {Floats({1, 2, 3})}, outputs), GRAPH_SUCCESS);
  EXPECT_NE(std::string(GEGetErrorMsg()).find("does not fit ref [4]"), std::string::npos)
      << GEGetErrorMsg();
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{3, 5, 5, 7}))
      << "a refused run leaves the variable as it was";
}

TEST(VariableState, AssignSubGoesTheOtherWay) {
  op::Data x("x");
  x.update_output_desc_y(Desc({4}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::AssignSub sub("sub");
  sub.set_input_ref(v).set_input_value(x);
  Graph graph("down");
  graph.SetInputs({x}).SetOutputs({sub});
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, graph), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(RunOnce(session, 1, {1, 1, 1, 1}), (std::vector<float>{-1, 0, 1, 2}));
}

TEST(VariableState, AReadBeforeTheWriteSeesThePreviousRunsValue) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, Delay()), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(RunOnce(session, 1, {5, 6, 7, 8}), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(RunOnce(session, 1, {0, 1, 0, 1}), (std::vector<float>{10, 12, 14, 16}));
  EXPECT_EQ(RunOnce(session, 1, {9, 9, 9, 9}), (std::vector<float>{0, 2, 0, 2}));
}

TEST(VariableState, EachLoadedModelStartsFromTheInitialValue) {
  auto compiled = CompileGraph(Accumulator());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const std::string path = ::testing::TempDir() + "/accumulator.om";
  ASSERT_TRUE(compiled->SaveToFile(path).ok());
  auto first = Load(std::move(compiled).value());
  ASSERT_NE(first, nullptr);
  const GeTensor ones = GeFloats({1, 1, 1, 1});
  ASSERT_TRUE(first->Run({ones}).ok());
  auto reloaded = CompiledModel::LoadFromFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(reloaded.ok()) << reloaded.status().message();
  auto second = Load(std::move(reloaded).value());
  ASSERT_NE(second, nullptr);
  auto a = first->Run({ones});
  auto b = second->Run({ones});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(FloatsOf((*a)[0]), (std::vector<float>{3, 4, 5, 6})) << "its second run";
  EXPECT_EQ(FloatsOf((*b)[0]), (std::vector<float>{2, 3, 4, 5})) << "the saved model's first run";
}

TEST(VariableState, AssignToARefDataWritesTheCallersBuffer) {
  op::RefData ref("ref");
  ref.update_output_desc_y(Desc({4}));
  op::Data x("x");
  x.set_attr_index(1);
  x.update_output_desc_y(Desc({4}));
  op::AssignAdd add("add");
  add.set_input_ref(ref).set_input_value(x);
  Graph graph("ref_update");
  graph.SetInputs({ref, x}).SetTargets({add});
  auto compiled = CompileGraph(graph);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = Load(std::move(compiled).value());
  ASSERT_NE(model, nullptr);
  GeTensor state = GeFloats({0, 0, 0, 0});
  const GeTensor step = GeFloats({1, 2, 3, 4});
  ASSERT_TRUE(model->Run(std::vector<GeTensor>{state, step}).ok());
  ASSERT_TRUE(model->Run(std::vector<GeTensor>{state, step}).ok());
  EXPECT_EQ(FloatsOf(state), (std::vector<float>{2, 4, 6, 8}));
}

TEST(VariableState, AValueThatDoesNotFitTheVariableIsRefusedAtCompile) {
  op::Data x("x");
  x.update_output_desc_y(Desc({3}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::Assign set("set");
  set.set_input_ref(v).set_input_value(x);
  Graph graph("misfit");
  graph.SetInputs({x}).SetOutputs({set});
  auto compiled = CompileGraph(graph);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find("'set' (Assign)"), std::string::npos)
      << compiled.status().message();
  EXPECT_NE(compiled.status().message().find("does not fit ref [4]"), std::string::npos)
      << compiled.status().message();
}

// A ControlTrigger joins control edges: the read before it, the write after it, and a second read
// after the write, all in one run.
// A Variable is allocated and zero-filled when its model loads: its bytes count against the
// memory limit, in a static model (beside its arena) and on the dynamic executor alike.
TEST(VariableState, AVariableOverTheMemoryLimitIsRefusedBeforeItIsAllocated) {
  for (const int64_t x_dim : {int64_t{4}, int64_t{-1}}) {
    op::Data x("x");
    x.update_output_desc_y(Desc({x_dim}));
    op::Variable v("huge");
    v.update_output_desc_y(Desc({int64_t{1} << 29}));  // 2 GiB of floats
    op::Add add("add");
    add.set_input_x1(x).set_input_x2(x);
    op::AssignAdd bump("bump");
    bump.set_input_ref(v).set_input_value(v);
    Graph graph("huge_variable");
    graph.SetInputs({x}).SetOutputs({add}).SetTargets({bump});
    auto compiled = CompileGraph(graph);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    RuntimeOptions runtime;
    runtime.options = kOptions;
    runtime.max_memory_bytes = int64_t{64} << 20;
    auto model = LoadedModel::Load(std::move(compiled).value(), runtime);
    ASSERT_FALSE(model.ok()) << "a 2 GiB variable loaded under a 64 MiB limit (x dim " << x_dim
                             << ")";
    EXPECT_NE(model.status().message().find("'huge'"), std::string::npos)
        << model.status().message();
    EXPECT_NE(model.status().message().find("needs 2147483648 bytes"), std::string::npos)
        << model.status().message();
    EXPECT_NE(model.status().message().find("limit of 67108864"), std::string::npos)
        << model.status().message();
  }
}

TEST(VariableState, AControlTriggerOrdersTheReadsAroundTheWrite) {
  op::Data x("x");
  x.update_output_desc_y(Desc({4}));
  op::Variable v("v");
  v.set_attr_value(Floats({1, 2, 3, 4}));
  op::Const two("two");
  two.set_attr_value(Floats({2, 2, 2, 2}));
  op::Mul before("before");
  before.set_input_x1(v).set_input_x2(two);
  op::ControlTrigger trigger("trigger");
  trigger.AddControlInput(before);
  op::Assign set("set");
  set.set_input_ref(v).set_input_value(x);
  set.AddControlInput(trigger);
  op::Mul after("after");
  after.set_input_x1(v).set_input_x2(two);
  after.AddControlInput(set);
  Graph graph("around");
  graph.SetInputs({x}).SetOutputs({before, after});
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, graph), GRAPH_SUCCESS) << GEGetErrorMsg();
  for (const auto& [given, want_before, want_after] :
       std::vector<std::tuple<std::vector<float>, std::vector<float>, std::vector<float>>>{
           {{5, 6, 7, 8}, {2, 4, 6, 8}, {10, 12, 14, 16}},
           {{0, 0, 1, 1}, {10, 12, 14, 16}, {0, 0, 2, 2}}}) {
    std::vector<Tensor> outputs;
    ASSERT_EQ(session.RunGraph(1, {Floats(given)}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
    ASSERT_EQ(outputs.size(), 2u);
    const auto* b = reinterpret_cast<const float*>(outputs[0].GetData());
    const auto* a = reinterpret_cast<const float*>(outputs[1].GetData());
    EXPECT_EQ(std::vector<float>(b, b + 4), want_before);
    EXPECT_EQ(std::vector<float>(a, a + 4), want_after);
  }
}

TEST(VariableState, MergeForwardsItsFirstInputAndItsIndex) {
  op::Data x("x");
  x.update_output_desc_y(Desc({4}));
  op::Const c("c");
  c.set_attr_value(Floats({9, 9, 9, 9}));
  op::Relu relu("relu");
  relu.set_input_x(x);
  op::Merge merge("merge");
  merge.create_dynamic_input_x(2).set_dynamic_input_x(0, relu).set_dynamic_input_x(1, c);
  Graph graph("merge");
  graph.SetInputs({x}).SetOutputs(
      std::vector<std::pair<Operator, std::string>>{{merge, "y"}, {merge, "value_index"}});
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, graph), GRAPH_SUCCESS) << GEGetErrorMsg();
  std::vector<Tensor> outputs;
  ASSERT_EQ(session.RunGraph(1, {Floats({-1, 2, -3, 4})}, outputs), GRAPH_SUCCESS)
      << GEGetErrorMsg();
  ASSERT_EQ(outputs.size(), 2u);
  const auto* y = reinterpret_cast<const float*>(outputs[0].GetData());
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{0, 2, 0, 4}));
  ASSERT_EQ(outputs[1].GetSize(), sizeof(int32_t));
  EXPECT_EQ(*reinterpret_cast<const int32_t*>(outputs[1].GetData()), 0);
}

// Pushes x, then relu(x); pops twice (last in, first out); closes. Each run makes its own stack.
Graph StackRoundTrip(bool pop_three_times) {
  op::Data x("x");
  x.update_output_desc_y(Desc({2, 2}));
  op::Stack stack("stack");
  stack.set_attr_dtype(DT_FLOAT);
  op::StackPush first("first");
  first.set_input_handle(stack).set_input_element(x);
  op::Relu relu("relu");
  relu.set_input_x(x);
  op::StackPush second("second");
  second.set_input_handle(stack).set_input_element(relu);
  second.AddControlInput(first);
  op::StackPop top("top");
  top.set_input_handle(stack).set_attr_elem_type(DT_FLOAT);
  top.AddControlInput(second);
  op::StackPop bottom("bottom");
  bottom.set_input_handle(stack).set_attr_elem_type(DT_FLOAT);
  bottom.AddControlInput(top);
  op::StackPop beyond("beyond");
  beyond.set_input_handle(stack).set_attr_elem_type(DT_FLOAT);
  beyond.AddControlInput(bottom);
  op::StackClose close("close");
  close.set_input_handle(stack);
  close.AddControlInput(pop_three_times ? beyond : bottom);
  Graph graph("stack_round_trip");
  std::vector<Operator> outputs = {top, bottom};
  if (pop_three_times) outputs.push_back(beyond);
  graph.SetInputs({x}).SetOutputs(outputs).SetTargets({close});
  return graph;
}

TEST(VariableState, AStackGivesBackWhatWasPushedLastInFirstOut) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, StackRoundTrip(false)), GRAPH_SUCCESS) << GEGetErrorMsg();
  for (const std::vector<float>& x :
       {std::vector<float>{-1, 2, -3, 4}, std::vector<float>{5, -6, 7, -8}}) {
    std::vector<Tensor> outputs;
    const Tensor given(Desc({2, 2}), reinterpret_cast<const uint8_t*>(x.data()),
                       x.size() * sizeof(float));
    ASSERT_EQ(session.RunGraph(1, {given}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
    ASSERT_EQ(outputs.size(), 2u);
    const auto* top = reinterpret_cast<const float*>(outputs[0].GetData());
    const auto* bottom = reinterpret_cast<const float*>(outputs[1].GetData());
    std::vector<float> relu = x;
    for (float& v : relu) v = v < 0 ? 0 : v;
    EXPECT_EQ(std::vector<float>(top, top + 4), relu);
    EXPECT_EQ(std::vector<float>(bottom, bottom + 4), x);
    EXPECT_EQ(outputs[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 2}));
  }
}

TEST(VariableState, PoppingAnEmptyStackFailsNamingTheNode) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, StackRoundTrip(true)), GRAPH_SUCCESS) << GEGetErrorMsg();
  std::vector<Tensor> outputs;
  const std::vector<float> x = {1, 2, 3, 4};
  const Tensor given(Desc({2, 2}), reinterpret_cast<const uint8_t*>(x.data()),
                     x.size() * sizeof(float));
  EXPECT_NE(session.RunGraph(1, {given}, outputs), GRAPH_SUCCESS);
  const std::string message = GEGetErrorMsg();
  EXPECT_NE(message.find("'beyond' (type StackPop)"), std::string::npos) << message;
  EXPECT_NE(message.find("the stack is empty"), std::string::npos) << message;
}

}  // namespace
}  // namespace ge

// Every operator type GE Local owns has a prototype: a graph using all of them, built with the
// graph API and written as a GE graph (.pbtxt), verifies and compiles, and its control flow (in
// every GE spelling) runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"
#include "ge_local_type_lists.h"

namespace ge {
namespace {

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

using ge_local_types::kGeNoOpTypes;

// GE Local's GeDeletedOp types, all 29.
const std::vector<std::string> kDeletedTypes = [] {
  std::vector<std::string> types = ge_local_types::kFrameworkDeletedTypes;
  for (const auto* more :
       {&ge_local_types::kConstantFoldedTypes, &ge_local_types::kIdentityTypes}) {
    types.insert(types.end(), more->begin(), more->end());
  }
  return types;
}();

TensorDesc Desc(std::vector<int64_t> dims, DataType dtype = DT_FLOAT) {
  return TensorDesc(Shape(std::move(dims)), FORMAT_ND, dtype);
}

template <typename T>
Tensor Values(std::vector<int64_t> dims, DataType dtype, const std::vector<T>& values) {
  return {Desc(std::move(dims), dtype), reinterpret_cast<const uint8_t*>(values.data()),
          values.size() * sizeof(T)};
}

op::Const ConstOf(const std::string& name, const Tensor& value) {
  op::Const c(name);
  c.set_attr_value(value);
  return c;
}

// A subgraph of one input (Data 0) and `make`(input) as its output.
SubgraphBuilder Branch(const std::string& name,
                       const std::function<Operator(const Operator&)>& make, int inputs = 1) {
  return [=]() {
    std::vector<Operator> data;
    for (int i = 0; i < inputs; ++i) {
      op::Data d((name + "_in" + std::to_string(i)).c_str());
      d.set_attr_index(i);
      d.update_output_desc_y(i == 0 && inputs == 2 ? Desc({}, DT_INT32) : Desc({2, 3}));
      data.push_back(d);
    }
    Operator out = make(data.back());
    Graph g(name.c_str());
    g.SetInputs(data).SetOutputs({out});
    return g;
  };
}

Operator AbsOf(const std::string& name, const Operator& x) {
  op::Abs abs(name.c_str());
  abs.set_input_x(x);
  return abs;
}

// One node of every GE Local NoOp type, fed by the graph's inputs and small constants; the ones
// with outputs are outputs of the graph, the others its targets.
Graph EveryGeLocalType(const std::string& file_path) {
  std::vector<Operator> outputs;
  std::vector<Operator> targets;
  op::Data x("x");
  x.update_output_desc_y(Desc({2, 3}));
  op::RefData ref("ref");
  ref.set_attr_index(1);
  ref.update_output_desc_y(Desc({2, 3}));
  op::Data wide("wide");
  wide.set_attr_index(2);
  wide.update_output_desc_y(Desc({2, 8}));
  op::AippData aipp("aipp");
  aipp.set_attr_index(3);
  aipp.update_output_desc_out(Desc({2, 3}));
  op::UnfedData unfed("unfed");  // not a graph input: nothing feeds it
  unfed.update_output_desc_y(Desc({2, 3}));
  outputs.insert(outputs.end(), {ref, aipp, unfed});

  op::QueueData queue("queue");
  queue.set_attr_queue_name("q").set_attr_output_types({DT_FLOAT}).set_attr_output_shapes({{2, 3}});
  op::Variable variable("variable");
  variable.set_attr_value(Values<float>({2, 3}, DT_FLOAT, {1, 2, 3, 4, 5, 6}));
  op::Constant constant("constant");
  constant.set_attr_value(Values<float>({2, 3}, DT_FLOAT, {1, 1, 1, 1, 1, 1}));
  op::FileConstant file_constant("file_constant");
  file_constant.set_attr_file_path(file_path).set_attr_shape({2, 3}).set_attr_dtype(DT_FLOAT);
  op::ConstPlaceHolder placeholder("const_placeholder");
  placeholder.set_attr_origin_shape({2, 3}).set_attr_dtype(DT_FLOAT);
  outputs.insert(outputs.end(), {queue, variable, constant, file_constant, placeholder});

  op::NoOp noop("noop");
  noop.AddControlInput(x);
  op::ControlTrigger trigger("trigger");
  trigger.AddControlInput(noop);
  targets.insert(targets.end(), {noop, trigger});
  op::Merge merge("merge");
  merge.create_dynamic_input_x(2).set_dynamic_input_x(0, x).set_dynamic_input_x(1, constant);
  outputs.push_back(merge);

  auto cond = ConstOf("cond", Values<uint8_t>({}, DT_BOOL, {1}));
  for (const char* type : {"If", "_If", "StatelessIf"}) {
    Operator node(std::string("if_") + type, type);
    node.DynamicInputRegister("input", 1).DynamicOutputRegister("output", 1);
    node.SetInput("cond", cond).SetInput("input", 0, x);
    node.SetSubgraphBuilder(
        "then_branch", 0,
        Branch(std::string(type) + "_then",
               [t = std::string(type)](const Operator& in) { return AbsOf(t + "_abs", in); }));
    node.SetSubgraphBuilder(
        "else_branch", 0,
        Branch(std::string(type) + "_else", [t = std::string(type)](const Operator& in) {
          op::Neg neg((t + "_neg").c_str());
          neg.set_input_x(in);
          return neg;
        }));
    outputs.push_back(node);
  }
  auto index = ConstOf("branch", Values<int32_t>({}, DT_INT32, {1}));
  for (const char* type : {"Case", "StatelessCase"}) {
    Operator node(std::string("case_") + type, type);
    node.DynamicInputRegister("input", 1).DynamicOutputRegister("output", 1);
    node.SubgraphCountRegister("branches", 2);
    node.SetInput("branch_index", index).SetInput("input", 0, x);
    for (uint32_t b = 0; b < 2; ++b) {
      const std::string name = std::string(type) + "_b" + std::to_string(b);
      node.SetSubgraphBuilder("branches", b, Branch(name, [name](const Operator& in) {
                                return AbsOf(name + "_abs", in);
                              }));
    }
    outputs.push_back(node);
  }
  for (const char* type : {"While", "_While", "StatelessWhile"}) {
    Operator node(std::string("while_") + type, type);
    node.DynamicInputRegister("input", 1).DynamicOutputRegister("output", 1);
    node.SetInput("input", 0, x);
    const std::string t = type;
    node.SetSubgraphBuilder(
        "cond", 0, Branch(t + "_cond", [t](const Operator&) {
          return Operator(ConstOf(t + "_false", Values<uint8_t>({}, DT_BOOL, {0})));
        }));
    node.SetSubgraphBuilder(
        "body", 0, Branch(t + "_body", [t](const Operator& in) { return AbsOf(t + "_abs", in); }));
    outputs.push_back(node);
  }
  op::For for_op("for");
  for_op.create_dynamic_input_input(1).create_dynamic_output_output(1);
  for_op.set_input_start(ConstOf("start", Values<int32_t>({}, DT_INT32, {0})))
      .set_input_limit(ConstOf("limit", Values<int32_t>({}, DT_INT32, {3})))
      .set_input_delta(ConstOf("delta", Values<int32_t>({}, DT_INT32, {1})))
      .set_dynamic_input_input(0, x)
      .set_subgraph_builder_body(Branch(
          "for_body", [](const Operator& in) { return AbsOf("for_abs", in); }, 2));
  outputs.push_back(for_op);
  for (const char* type : {"PartitionedCall", "StatefulPartitionedCall"}) {
    Operator node(std::string("call_") + type, type);
    node.DynamicInputRegister("args", 1).DynamicOutputRegister("output", 1);
    node.SetInput("args", 0, x);
    const std::string t = type;
    node.SetSubgraphBuilder(
        "f", 0, Branch(t + "_f", [t](const Operator& in) { return AbsOf(t + "_abs", in); }));
    outputs.push_back(node);
  }

  op::OpTiling tiling("tiling");
  tiling.create_dynamic_input_x(1).set_dynamic_input_x(0, x);
  op::ConditionCalc condition("condition");
  condition.create_dynamic_input_x(1).set_dynamic_input_x(0, x);
  condition.set_attr_cond_func("pick").set_attr_x_dependency({0});
  outputs.insert(outputs.end(), {tiling, condition});

  op::Stack stack("stack");
  stack.set_attr_dtype(DT_FLOAT);
  op::StackPush push("push");
  push.set_input_handle(stack).set_input_element(x);
  op::StackPop pop("pop");
  pop.set_input_handle(stack).set_attr_elem_type(DT_FLOAT);
  pop.AddControlInput(push);
  op::StackClose close("close");
  close.set_input_handle(stack).AddControlInput(pop);
  outputs.insert(outputs.end(), {push, pop});
  targets.push_back(close);

  auto shape = ConstOf("shape", Values<int64_t>({2}, DT_INT64, {3, 2}));
  op::Reshape reshape("reshape");
  reshape.set_input_x(x).set_input_shape(shape);
  op::Bitcast bitcast("bitcast");
  bitcast.set_input_x(x).set_attr_type(DT_INT32);
  // Continuous memory needs tensors the plan places (not graph inputs, whose memory is the
  // caller's).
  Operator wide0 = AbsOf("wide0", wide);
  Operator wide1 = AbsOf("wide1", wide);
  op::PhonyConcat phony_concat("phony_concat");
  phony_concat.create_dynamic_input_x(2).set_dynamic_input_x(0, wide0).set_dynamic_input_x(1,
                                                                                           wide1);
  phony_concat.set_attr_concat_dim({0}).set_attr_N({2});
  op::PhonySplit phony_split("phony_split");
  phony_split.create_dynamic_output_y(2).set_input_x(AbsOf("wide2", wide));
  phony_split.set_attr_split_dim({0}).set_attr_num_split({2});
  op::Flatten flatten("flatten");
  flatten.set_input_x(x);
  op::FlattenV2 flatten_v2("flatten_v2");
  flatten_v2.set_input_x(x);
  auto axis0 = ConstOf("axis0", Values<int64_t>({1}, DT_INT64, {0}));
  op::ExpandDims expand("expand");
  expand.set_input_x(x).set_input_axis(ConstOf("axis", Values<int32_t>({}, DT_INT32, {0})));
  op::ReFormat reformat("reformat");
  reformat.set_input_x(x);
  op::Unsqueeze unsqueeze("unsqueeze");
  unsqueeze.set_input_x(x).set_input_axes(axis0);
  op::Squeeze squeeze("squeeze");
  squeeze.set_input_x(unsqueeze).set_input_axes(axis0);
  op::UnsqueezeV2 unsqueeze_v2("unsqueeze_v2");
  unsqueeze_v2.set_input_x(x).set_attr_axis({0});
  op::SqueezeV2 squeeze_v2("squeeze_v2");
  squeeze_v2.set_input_x(unsqueeze_v2).set_attr_axis({0});
  op::UnsqueezeV3 unsqueeze_v3("unsqueeze_v3");
  unsqueeze_v3.set_input_x(x).set_input_axes(axis0);
  op::SqueezeV3 squeeze_v3("squeeze_v3");
  squeeze_v3.set_input_x(unsqueeze_v3).set_input_axes(axis0);
  outputs.insert(outputs.end(), {reshape, bitcast, phony_concat, phony_split, flatten, flatten_v2,
                                 expand, reformat, squeeze, squeeze_v2, squeeze_v3});

  Graph graph("every_ge_local_type");
  graph.SetInputs({x, ref, wide, aipp}).SetOutputs(outputs).SetTargets(targets);
  return graph;
}

class GeLocalTypes : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(OpsProtoManager::Instance().Initialize({}).ok());
    // One file per test: ctest runs the tests of this suite in parallel processes.
    file_ = ::testing::TempDir() + "/file_constant_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".bin";
    std::ofstream(file_, std::ios::binary).write(std::string(24, '\0').data(), 24);
  }
  void TearDown() override { std::remove(file_.c_str()); }
  std::string file_;
};

TEST_F(GeLocalTypes, EveryTypeHasAPrototype) {
  ASSERT_EQ(kGeNoOpTypes.size(), 44u);
  ASSERT_EQ(kDeletedTypes.size(), 29u);
  for (const auto& list : {kGeNoOpTypes, kDeletedTypes}) {
    for (const std::string& type : list) {
      EXPECT_TRUE(OpRegistry::Instance().Has(type)) << type;
    }
  }
  for (const std::string& type : kDeletedTypes) {
    const OpTraits traits = OpRegistry::Instance().TraitsOf(type);
    EXPECT_TRUE(!traits.deleted_by_pass.empty() || !traits.deleted_before.empty()) << type;
  }
  for (const char* type : {"If", "_If", "StatelessIf"}) {
    EXPECT_EQ(OpRegistry::Instance().TraitsOf(type).control_flow, ControlFlowKind::kIf) << type;
  }
  EXPECT_EQ(OpRegistry::Instance().TraitsOf("For").control_flow, ControlFlowKind::kFor);
}

TEST_F(GeLocalTypes, AGraphOfEveryTypeVerifiesAndCompilesFromItsPbtxt) {
  Graph graph = EveryGeLocalType(file_);
  auto built = graph.ToComputeGraph();
  ASSERT_TRUE(built.ok()) << built.status().message();
  std::set<std::string> types;
  for (const NodePtr& node : (*built)->GetAllNodes()) types.insert(node->GetType());
  for (const std::string& type : kGeNoOpTypes) EXPECT_EQ(types.count(type), 1u) << type;

  const std::string path = ::testing::TempDir() + "/every_ge_local_type.pbtxt";
  ASSERT_EQ(graph.SaveToFile(path), GRAPH_SUCCESS) << GEGetErrorMsg();
  auto compiler = Compiler::Create(kOptions);
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  // The prepare stage verifies every node against its prototype and infers its outputs.
  auto loaded = ModelSerialize::LoadFromFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto prepared = (*compiler)->Compile(*loaded, "prepare");
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  loaded = ModelSerialize::LoadFromFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  std::remove(path.c_str());
  auto compiled = (*compiler)->Compile(*loaded);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
}

// Runs one control-flow node of `type` on x = [-1, 2, -3, 4, -5, 6] in a session.
std::vector<float> RunControlFlow(const std::string& type) {
  Graph graph = EveryGeLocalType("");
  Operator node;
  const std::string name = type == "For"                             ? "for"
                           : type.find("If") != std::string::npos    ? "if_" + type
                           : type.find("Case") != std::string::npos  ? "case_" + type
                           : type.find("While") != std::string::npos ? "while_" + type
                                                                     : "call_" + type;
  EXPECT_EQ(graph.FindOpByName(name.c_str(), node), GRAPH_SUCCESS) << name;
  Operator x;
  EXPECT_EQ(graph.FindOpByName("x", x), GRAPH_SUCCESS);
  Graph one(("one_" + type).c_str());
  one.SetInputs({x}).SetOutputs({node});
  Session session(kOptions);
  std::vector<Tensor> outputs;
  if (session.AddGraph(1, one) != GRAPH_SUCCESS ||
      session.RunGraph(1, {Values<float>({2, 3}, DT_FLOAT, {-1, 2, -3, 4, -5, 6})}, outputs) !=
          GRAPH_SUCCESS) {
    ADD_FAILURE() << type << ": " << GEGetErrorMsg();
    return {};
  }
  const auto* p = reinterpret_cast<const float*>(outputs.at(0).GetData());
  std::vector<float> values(p, p + outputs[0].GetSize() / sizeof(float));
  return values;
}

TEST_F(GeLocalTypes, ControlFlowRunsInEveryGeSpelling) {
  const std::vector<float> abs{1, 2, 3, 4, 5, 6};
  const std::vector<float> x{-1, 2, -3, 4, -5, 6};
  for (const char* type : {"If", "_If", "StatelessIf", "Case", "StatelessCase", "PartitionedCall",
                           "StatefulPartitionedCall", "For"}) {
    EXPECT_EQ(RunControlFlow(type), abs) << type;  // then branch, branch 1, the call, 3 x abs
  }
  for (const char* type : {"While", "_While", "StatelessWhile"}) {
    EXPECT_EQ(RunControlFlow(type), x) << type;  // cond is false at once
  }
}

// y = c + x, with c a FileConstant of `file`.
Graph FileConstantPlusX(const std::string& file, int64_t offset, int64_t length) {
  op::Data x("x");
  x.update_output_desc_y(Desc({2, 3}));
  op::FileConstant c("weights");
  c.set_attr_file_path(file).set_attr_shape({2, 3}).set_attr_dtype(DT_FLOAT);
  c.set_attr_offset(offset).set_attr_length(length);
  op::Add add("add");
  add.set_input_x1(c).set_input_x2(x);
  Graph graph("file_constant");
  graph.SetInputs({x}).SetOutputs({add});
  return graph;
}

TEST_F(GeLocalTypes, AFileConstantReadsItsFileWhereItsAttributesSay) {
  const std::string path = ::testing::TempDir() + "/weights.bin";
  std::vector<float> bytes{99, 1, 2, 3, 4, 5, 6};  // one float of header, then the weights
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(28));
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, FileConstantPlusX(path, 4, 24)), GRAPH_SUCCESS);
  for (int run = 0; run < 3; ++run) {
    std::vector<Tensor> outputs;
    ASSERT_EQ(session.RunGraph(1, {Values<float>({2, 3}, DT_FLOAT, {0, 0, 0, 1, 1, 1})}, outputs),
              GRAPH_SUCCESS)
        << GEGetErrorMsg();
    const auto* y = reinterpret_cast<const float*>(outputs.at(0).GetData());
    EXPECT_EQ(std::vector<float>(y, y + 6), (std::vector<float>{1, 2, 3, 5, 6, 7}));
  }
  std::remove(path.c_str());
}

TEST_F(GeLocalTypes, AFileConstantOutsideItsFileIsRefusedWithTheNumbers) {
  const std::string path = ::testing::TempDir() + "/short_weights.bin";
  std::ofstream(path, std::ios::binary).write(std::string(20, '\0').data(), 20);
  struct Case {
    std::string file;
    int64_t offset, length;
    std::string says;
  };
  const std::vector<Case> cases = {
      {path, 0, 0, "bytes 0..24 lie outside '" + path + "' (20 bytes)"},
      {path, 8, 24, "bytes 8..32 lie outside"},
      {path, 0, 16, "reads 16 bytes but shape [2,3] of DT_FLOAT holds 24"},
      {path, -4, 0, "must not be negative"},
      {::testing::TempDir() + "/no_such_file.bin", 0, 0, "is not a file"},
      {"", 0, 0, "has no file_path"},
  };
  for (const Case& c : cases) {
    Session session(kOptions);
    ASSERT_EQ(session.AddGraph(1, FileConstantPlusX(c.file, c.offset, c.length)), GRAPH_SUCCESS);
    std::vector<Tensor> outputs;
    EXPECT_NE(session.RunGraph(1, {Values<float>({2, 3}, DT_FLOAT, {0, 0, 0, 0, 0, 0})}, outputs),
              GRAPH_SUCCESS);
    EXPECT_NE(GEGetErrorMsg().find("FileConstant 'weights'"), std::string::npos) << GEGetErrorMsg();
    EXPECT_NE(GEGetErrorMsg().find(c.says), std::string::npos) << GEGetErrorMsg();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge

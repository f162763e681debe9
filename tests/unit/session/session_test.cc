// aclgrphBuildModel / aclgrphSaveModel and ge::Session: a graph built with the API compiles to a
// .om that the runtime loads, runs by id in a session (from several threads at once), and every
// misuse is a graphStatus with a message that says what went wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"
#include "ge/session/ge_ir_build.h"

namespace ge {
namespace {

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

// y = relu(x · w + b) with x [2, 3], w [3, 2] = 1..6, b = [-10, 0].
Graph SmallMatMul(const char* name = "mm") {
  op::Data x("x");
  x.update_output_desc_y(TensorDesc(Shape({2, 3}), FORMAT_ND, DT_FLOAT));
  std::vector<float> w{1, 2, 3, 4, 5, 6};
  std::vector<float> b{-10, 0};
  op::Const wc("w");
  wc.set_attr_value(Tensor(TensorDesc(Shape({3, 2}), FORMAT_ND, DT_FLOAT),
                           reinterpret_cast<const uint8_t*>(w.data()), w.size() * 4));
  op::Const bc("b");
  bc.set_attr_value(Tensor(TensorDesc(Shape({2}), FORMAT_ND, DT_FLOAT),
                           reinterpret_cast<const uint8_t*>(b.data()), b.size() * 4));
  op::MatMulV2 mm("matmul");
  mm.set_input_x1(x).set_input_x2(wc);
  op::Add add("add");
  add.set_input_x1(mm).set_input_x2(bc);
  op::Relu relu("relu");
  relu.set_input_x(add);
  Graph graph(name);
  graph.SetInputs({x}).SetOutputs({relu});
  return graph;
}

Tensor Input(std::vector<float> values) {
  return Tensor(TensorDesc(Shape({2, 3}), FORMAT_ND, DT_FLOAT),
                reinterpret_cast<const uint8_t*>(values.data()), values.size() * 4);
}

std::vector<float> Floats(const Tensor& t) {
  const auto* p = reinterpret_cast<const float*>(t.GetData());
  std::vector<float> values(p, p + t.GetSize() / 4);
  return values;
}

// x = [[1, 1, 1], [0, 1, 2]]: x·w = [[9, 12], [13, 16]], + b, relu.
const std::vector<float> kX{1, 1, 1, 0, 1, 2};
const std::vector<float> kY{0, 12, 3, 16};

TEST(IrBuild, BuildsSavesAndTheRuntimeRunsTheModel) {
  ASSERT_EQ(aclgrphBuildInitialize(kOptions), GRAPH_SUCCESS);
  ModelBufferData model;
  ASSERT_EQ(aclgrphBuildModel(SmallMatMul(), std::map<std::string, std::string>{}, model),
            GRAPH_SUCCESS)
      << GEGetErrorMsg();
  ASSERT_NE(model.data, nullptr);
  ASSERT_GT(model.length, 0u);
  const std::string base = ::testing::TempDir() + "/ir_build_mm";
  ASSERT_EQ(aclgrphSaveModel(base, model), GRAPH_SUCCESS) << GEGetErrorMsg();
  aclgrphBuildFinalize();

  RuntimeOptions runtime;
  runtime.options = kOptions;
  auto loaded = LoadedModel::LoadFromFile(base + ".om", runtime);  // ".om" added, as GE does
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto out = (*loaded)->Run({TensorAdapter::AsGeTensor(Input(kX))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(Floats(TensorAdapter::AsTensor((*out)[0])), kY);
  std::remove((base + ".om").c_str());
}

TEST(IrBuild, FailuresNameTheirCause) {
  ModelBufferData model;
  op::Data x("x");
  op::Relu relu("relu");
  relu.SetInput("q", x);
  Graph broken("broken");
  broken.SetInputs({x}).SetOutputs({relu});
  EXPECT_EQ(aclgrphBuildModel(broken, std::map<std::string, std::string>{}, model),
            GRAPH_PARAM_INVALID);
  EXPECT_NE(GEGetErrorMsg().find("aclgrphBuildModel of graph 'broken': graph 'broken': operator "
                                 "'relu' (Relu): has no input named 'q'"),
            std::string::npos)
      << GEGetErrorMsg();

  std::map<std::string, std::string> options = kOptions;
  options["ge.noSuchOption"] = "1";
  EXPECT_NE(aclgrphBuildModel(SmallMatMul(), options, model), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("ge.noSuchOption"), std::string::npos) << GEGetErrorMsg();

  ModelBufferData empty;
  EXPECT_EQ(aclgrphSaveModel("x.om", empty), GRAPH_PARAM_INVALID);
  EXPECT_NE(GEGetErrorMsg().find("the model buffer is empty"), std::string::npos);
  ASSERT_EQ(aclgrphBuildModel(SmallMatMul(), kOptions, model), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_NE(aclgrphSaveModel(::testing::TempDir() + "/no/such/dir/m", model), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("cannot write"), std::string::npos) << GEGetErrorMsg();
}

TEST(IrBuild, InputShapeOptionUsesGesName) {
  // "input_shape" (GE's build option) reaches the compiler as ge.inputShape: a graph whose input
  // has an unknown dim compiles for the named shape.
  op::Data x("x");
  x.update_output_desc_y(TensorDesc(Shape({-1, 3}), FORMAT_ND, DT_FLOAT));
  op::Relu relu("relu");
  relu.set_input_x(x);
  Graph graph("dyn");
  graph.SetInputs({x}).SetOutputs({relu});
  std::map<AscendString, AscendString> options = {
      {AscendString("ge.enginePluginPath"), AscendString(GE_TEST_ENGINE_DIR)},
      {AscendString("input_shape"), AscendString("x:2,3")},
      {AscendString("soc_version"), AscendString("Ascend310")}};
  ModelBufferData model;
  ASSERT_EQ(aclgrphBuildModel(graph, options, model), GRAPH_SUCCESS) << GEGetErrorMsg();
  options[AscendString("input_shape")] = AscendString("nope:2,3");
  EXPECT_NE(aclgrphBuildModel(graph, options, model), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("nope"), std::string::npos) << GEGetErrorMsg();
}

TEST(Session, RunsAGraphByIdAndCompilesItOnce) {
  ASSERT_EQ(GEInitialize(kOptions), GRAPH_SUCCESS);
  Session session(std::map<std::string, std::string>{});
  ASSERT_EQ(session.AddGraph(7, SmallMatMul()), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_TRUE(session.IsGraphNeedRebuild(7));
  std::vector<Tensor> outputs;
  ASSERT_EQ(session.RunGraph(7, {Input(kX)}, outputs), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(Floats(outputs[0]), kY);
  EXPECT_FALSE(session.IsGraphNeedRebuild(7));
  ASSERT_EQ(session.RunGraph(7, {Input({0, 0, 0, 1, 0, 0})}, outputs), GRAPH_SUCCESS);
  EXPECT_EQ(Floats(outputs[0]), (std::vector<float>{0, 0, 0, 2}));
  EXPECT_EQ(session.RemoveGraph(7), GRAPH_SUCCESS);
  EXPECT_NE(session.RunGraph(7, {Input(kX)}, outputs), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("graph 7 is not in this session"), std::string::npos);
  EXPECT_EQ(GEFinalize(), GRAPH_SUCCESS);
}

TEST(Session, TwoThreadsRunOneGraphAtOnce) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, SmallMatMul()), GRAPH_SUCCESS) << GEGetErrorMsg();
  std::vector<std::vector<float>> results(2);
  std::vector<graphStatus> statuses(2, GRAPH_FAILED);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        std::vector<Tensor> outputs;
        statuses[t] = session.RunGraph(1, {Input(kX)}, outputs);
        if (statuses[t] != GRAPH_SUCCESS || outputs.size() != 1) return;
        results[t] = Floats(outputs[0]);
        if (results[t] != kY) return;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 2; ++t) {
    EXPECT_EQ(statuses[t], GRAPH_SUCCESS);
    EXPECT_EQ(results[t], kY);
  }
}

TEST(Session, MisuseIsReportedNotCrashed) {
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, SmallMatMul()), GRAPH_SUCCESS);
  EXPECT_EQ(session.AddGraph(1, SmallMatMul()), GRAPH_PARAM_INVALID);
  EXPECT_NE(GEGetErrorMsg().find("graph 1 is already in this session"), std::string::npos);
  EXPECT_NE(session.RemoveGraph(9), GRAPH_SUCCESS);

  std::vector<Tensor> outputs;
  EXPECT_NE(session.RunGraph(1, {}, outputs), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("RunGraph of graph 1"), std::string::npos) << GEGetErrorMsg();
  Tensor wrong(TensorDesc(Shape({3, 3}), FORMAT_ND, DT_FLOAT), std::vector<uint8_t>(36, 0));
  EXPECT_NE(session.RunGraph(1, {wrong}, outputs), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("[2,3]"), std::string::npos) << GEGetErrorMsg();

  Graph no_outputs("empty");
  EXPECT_NE(session.AddGraph(2, no_outputs), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("AddGraph 2: graph 'empty' has no outputs"), std::string::npos)
      << GEGetErrorMsg();
  EXPECT_EQ(session.BuildGraph(1), GRAPH_SUCCESS) << GEGetErrorMsg();
}

TEST(Session, ABuildFailureIsReportedOnEveryRun) {
  op::Data x("x");
  x.update_output_desc_y(TensorDesc(Shape({2, 3}), FORMAT_ND, DT_FLOAT));
  op::Data y("y");
  y.update_output_desc_y(TensorDesc(Shape({4, 5}), FORMAT_ND, DT_FLOAT));
  op::Add add("add");
  add.set_input_x1(x).set_input_x2(y);  // shapes that do not broadcast
  Graph graph("bad_shapes");
  graph.SetInputs({x, y}).SetOutputs({add});
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(3, graph), GRAPH_SUCCESS);
  std::vector<Tensor> outputs;
  for (int i = 0; i < 2; ++i) {
    EXPECT_NE(session.RunGraph(3, {}, outputs), GRAPH_SUCCESS);
    EXPECT_NE(GEGetErrorMsg().find("graph 3"), std::string::npos) << GEGetErrorMsg();
    EXPECT_NE(GEGetErrorMsg().find("add"), std::string::npos) << GEGetErrorMsg();
  }
}

}  // namespace
}  // namespace ge

// InferenceSession and ModelSource: a file is identified once by what it holds, and each kind
// (ONNX under any name, GE graph, .om, pipeline .om, bytes) opens on the run strategy it needs,
// with the numbers of compiling and loading it by hand; inputs bind by name; the trace has one
// format.
#include "ge/session/inference_session.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/compiler/compile_options.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/pipeline_compile.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/model/model_source.h"
#include "ge/parser/onnx_parser.h"
#include "ge/session/ge_api.h"

namespace ge {
namespace {

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

std::string SmallCnn() { return std::string(GE_TEST_SOURCE_MODELS_DIR) + "/small_cnn.onnx"; }

std::string Temp(const std::string& name) {
  const std::string dir = testing::TempDir() + "inference_session_test";
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Copy(const std::string& from, const std::string& to) {
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

InferenceOptions Options(int threads = 1) {
  InferenceOptions options;
  options.compile = kOptions;
  options.runtime.options = kOptions;
  options.runtime.threads = threads;
  return options;
}

// Deterministic floats in [-1, 1] for an input of known dims.
GeTensor RandomFloats(const IoInfo& info, uint32_t seed) {
  GeTensorDesc desc(GeShape(info.dims), FORMAT_ND, DT_FLOAT);
  const auto count = static_cast<size_t>(desc.GetShape().GetShapeSize());
  std::vector<float> values(count);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> real(-1.0F, 1.0F);
  for (float& v : values) v = real(rng);
  std::vector<uint8_t> bytes(count * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return {desc, std::move(bytes)};
}

std::vector<float> Floats(const GeTensor& t) {
  std::vector<float> v(t.GetSize() / sizeof(float));
  std::memcpy(v.data(), t.GetData().data(), v.size() * sizeof(float));
  return v;
}

void ExpectClose(const GeTensor& a, const GeTensor& b) {
  ASSERT_EQ(a.GetTensorDesc().GetShape().GetDims(), b.GetTensorDesc().GetShape().GetDims());
  const std::vector<float> x = Floats(a);
  const std::vector<float> y = Floats(b);
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(x[i], y[i], 1e-4F * std::max(1.0F, std::fabs(y[i]))) << "element " << i;
  }
}

std::unique_ptr<InferenceSession> OpenOrFail(const ModelSource& source, InferenceOptions options) {
  auto session = InferenceSession::Open(source, std::move(options));
  EXPECT_TRUE(session.ok()) << session.status().message();
  return session.ok() ? std::move(*session) : nullptr;
}

// small_cnn compiled and loaded by hand: what every front door must give.
std::vector<GeTensor> ReferenceOutputs(const std::vector<GeTensor>& inputs) {
  auto graph = ParseOnnxFile(SmallCnn());
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  auto compiler = Compiler::Create(kOptions);
  EXPECT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(*graph);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  RuntimeOptions runtime;
  runtime.options = kOptions;
  runtime.threads = 1;
  auto model = LoadedModel::Load(std::move(*compiled), runtime);
  EXPECT_TRUE(model.ok()) << model.status().message();
  auto outputs = (*model)->Run(inputs);
  EXPECT_TRUE(outputs.ok()) << outputs.status().message();
  return outputs.ok() ? *outputs : std::vector<GeTensor>{};
}

// y = x + c with x [-1, 3] and c [4, 3]: its input dims are known only at run time.
ComputeGraphPtr AddToFourRows() {
  op::Data x("x");
  x.update_output_desc_y(TensorDesc(Shape({-1, 3}), FORMAT_ND, DT_FLOAT));
  op::Const c("c");
  c.set_attr_value(Tensor(TensorDesc(Shape({4, 3}), FORMAT_ND, DT_FLOAT),
                          std::vector<uint8_t>(size_t{4} * 3 * 4, 0)));
  op::Add add("add");
  add.set_input_x1(x).set_input_x2(c);
  Graph graph("add_rows");
  graph.SetInputs({x}).SetOutputs({add});
  auto compute = graph.ToComputeGraph();
  EXPECT_TRUE(compute.ok()) << compute.status().message();
  return compute.ok() ? *compute : nullptr;
}

GeTensor Rows(int64_t rows, float value) {
  IoInfo info;
  info.dims = {rows, 3};
  GeTensor t = RandomFloats(info, 1);
  std::vector<float> v(static_cast<size_t>(rows) * 3, value);
  std::memcpy(t.MutableData(), v.data(), v.size() * sizeof(float));
  return t;
}

TEST(ModelSource, AFileIsWhatItsBytesSayThenWhatItsNameSays) {
  // ONNX under any name (ONNX files carry no magic; ONNX Runtime loads any name too).
  Copy(SmallCnn(), Temp("model.bin"));
  auto onnx = ModelSource::FromFile(Temp("model.bin"));
  ASSERT_TRUE(onnx.ok()) << onnx.status().message();
  EXPECT_EQ(onnx->format(), ModelFormat::kOnnx);
  EXPECT_TRUE(onnx->NeedsCompile());

  // A compiled model by its magic, whatever its name says.
  auto graph = ParseOnnxFile(SmallCnn());
  ASSERT_TRUE(graph.ok());
  auto compiler = Compiler::Create(kOptions);
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(*graph);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  ASSERT_TRUE(compiled->SaveToFile(Temp("compiled.onnx")).ok());
  auto om = ModelSource::FromFile(Temp("compiled.onnx"));
  ASSERT_TRUE(om.ok()) << om.status().message();
  EXPECT_EQ(om->format(), ModelFormat::kCompiled);
  EXPECT_FALSE(om->NeedsCompile());
  auto om_bytes = ModelSource::FromBytes(ReadAll(Temp("compiled.onnx")));
  ASSERT_TRUE(om_bytes.ok());
  EXPECT_EQ(om_bytes->format(), ModelFormat::kCompiled);
  auto onnx_bytes = ModelSource::FromBytes(ReadAll(SmallCnn()), "cnn");
  ASSERT_TRUE(onnx_bytes.ok());
  EXPECT_EQ(onnx_bytes->format(), ModelFormat::kOnnx);
  EXPECT_EQ(onnx_bytes->name(), "cnn");

  // A GE graph by its extension: binary ModelDef (.pb, GE's .air, .ge) or text.
  auto parsed = ParseOnnxFile(SmallCnn());
  ASSERT_TRUE(parsed.ok());
  for (const char* name : {"graph.pb", "graph.air", "graph.ge", "graph.pbtxt"}) {
    ASSERT_TRUE(ModelSerialize::SaveToFile(**parsed, Temp(name)).ok());
    auto ge_graph = ModelSource::FromFile(Temp(name));
    ASSERT_TRUE(ge_graph.ok()) << name;
    EXPECT_EQ(ge_graph->format(), ModelFormat::kGeGraph) << name;
    EXPECT_STREQ(ModelFormatName(ge_graph->format()), "GE graph");
  }

  // What is not a regular file is refused before anything reads it (a FIFO would block).
  auto dir = ModelSource::FromFile(testing::TempDir());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("not a regular file"), std::string::npos);
  const std::string fifo = Temp("fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(ModelSource::FromFile(fifo).ok());
  EXPECT_FALSE(ModelSource::FromFile(Temp("missing.onnx")).ok());
  auto empty = ModelSource::FromBytes("", "nothing");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("nothing"), std::string::npos);
}

// ONNX from a file, from bytes, as a GE graph and as the .om it compiles to: one strategy
// (static), the numbers of compiling and loading by hand, and where the time went.
TEST(InferenceSession, EveryKindOfFileGivesTheNumbersOfACompileByHand) {
  auto onnx = ModelSource::FromFile(SmallCnn());
  ASSERT_TRUE(onnx.ok());
  auto session = OpenOrFail(*onnx, Options());
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->strategy(), RunStrategy::kStatic);
  EXPECT_EQ(session->stages(), 1);
  ASSERT_EQ(session->inputs().size(), 1u);
  EXPECT_EQ(session->inputs()[0].name, "image");
  ASSERT_EQ(session->outputs().size(), 1u);
  EXPECT_EQ(session->outputs()[0].name, "logits");
  EXPECT_GT(session->times().parse, 0.0);
  EXPECT_GT(session->times().compile, 0.0);
  EXPECT_EQ(session->times().read_om, 0.0);
  ASSERT_NE(session->compiled(), nullptr);
  // Planned for the threads it runs with.
  EXPECT_EQ(session->compiled()->report.schedule.threads, 1);
  const std::vector<GeTensor> inputs = {RandomFloats(session->inputs()[0], 7)};
  const std::vector<GeTensor> want = ReferenceOutputs(inputs);
  ASSERT_EQ(want.size(), 1u);
  auto got = session->Run(inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ExpectClose((*got)[0], want[0]);
  EXPECT_GT(session->Memory().weight_bytes, 0);

  auto from_bytes = ModelSource::FromBytes(ReadAll(SmallCnn()));
  ASSERT_TRUE(from_bytes.ok());
  auto bytes_session = OpenOrFail(*from_bytes, Options());
  ASSERT_NE(bytes_session, nullptr);
  got = bytes_session->Run(inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ExpectClose((*got)[0], want[0]);

  ASSERT_TRUE(session->compiled()->SaveToFile(Temp("cnn.om")).ok());
  auto om = ModelSource::FromFile(Temp("cnn.om"));
  ASSERT_TRUE(om.ok());
  auto loaded = OpenOrFail(*om, Options());
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->strategy(), RunStrategy::kStatic);
  EXPECT_GT(loaded->times().read_om, 0.0);
  EXPECT_EQ(loaded->times().compile, 0.0);
  got = loaded->Run(inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ExpectClose((*got)[0], want[0]);

  auto parsed = ParseOnnxFile(SmallCnn());
  ASSERT_TRUE(parsed.ok());
  ASSERT_TRUE(ModelSerialize::SaveToFile(**parsed, Temp("cnn.pb")).ok());
  auto ge_graph = ModelSource::FromFile(Temp("cnn.pb"));
  ASSERT_TRUE(ge_graph.ok());
  auto graph_session = OpenOrFail(*ge_graph, Options());
  ASSERT_NE(graph_session, nullptr);
  got = graph_session->Run(inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ExpectClose((*got)[0], want[0]);
}

// Input dims known only at run time: a plan per set of shapes, or, without cache entries, one
// model for every shape; both give the same numbers, and shapes given up front make it static.
TEST(InferenceSession, RunTimeDimsPickTheirStrategy) {
  auto plans = InferenceSession::FromGraph(AddToFourRows(), Options());
  ASSERT_TRUE(plans.ok()) << plans.status().message();
  EXPECT_EQ((*plans)->strategy(), RunStrategy::kShapePlans);
  EXPECT_EQ((*plans)->compiled(), nullptr);
  EXPECT_EQ((*plans)->inputs()[0].dims, (std::vector<int64_t>{-1, 3}));
  for (int64_t rows : {4, 1, 4}) {
    auto out = (*plans)->Run({Rows(rows, 2.0F)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 3}));
  }
  const ShapePlanStats stats = (*plans)->PlanStats();
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.hits, 1);
  auto any = (*plans)->CompileForAnyShape();
  ASSERT_TRUE(any.ok()) << any.status().message();

  InferenceOptions no_cache = Options();
  no_cache.compile[kOptShapePlanEntries] = "0";
  auto dynamic = InferenceSession::FromGraph(AddToFourRows(), no_cache);
  ASSERT_TRUE(dynamic.ok()) << dynamic.status().message();
  EXPECT_EQ((*dynamic)->strategy(), RunStrategy::kAnyShape);
  auto out = (*dynamic)->Run({Rows(1, 2.0F)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(Floats((*out)[0]), std::vector<float>(12, 2.0F));

  InferenceOptions fixed = Options();
  fixed.input_shapes["x"] = {4, 3};
  auto fixed_session = InferenceSession::FromGraph(AddToFourRows(), fixed);
  ASSERT_TRUE(fixed_session.ok()) << fixed_session.status().message();
  EXPECT_EQ((*fixed_session)->strategy(), RunStrategy::kStatic);
  EXPECT_EQ((*fixed_session)->inputs()[0].dims, (std::vector<int64_t>{4, 3}));
}

TEST(InferenceSession, InputsBindByNameAndMistakesNameTheInput) {
  auto source = ModelSource::FromFile(SmallCnn());
  ASSERT_TRUE(source.ok());
  auto session = OpenOrFail(*source, Options());
  ASSERT_NE(session, nullptr);
  const GeTensor image = RandomFloats(session->inputs()[0], 3);
  auto by_name = session->Run(std::map<std::string, GeTensor>{{"image", image}});
  ASSERT_TRUE(by_name.ok()) << by_name.status().message();
  ASSERT_EQ(by_name->count("logits"), 1u);
  auto by_position = session->Run(std::vector<GeTensor>{image});
  ASSERT_TRUE(by_position.ok());
  ExpectClose(by_name->at("logits"), (*by_position)[0]);

  auto unknown = session->Bind({{"picture", image}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("'picture' is not an input of this model; its "
                                            "inputs are: image"),
            std::string::npos)
      << unknown.status().message();
  auto missing = session->Bind({});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("input 'image' is not given"), std::string::npos)
      << missing.status().message();
}

TEST(InferenceSession, ACompiledModelRefusesNewInputShapes) {
  auto graph = ParseOnnxFile(SmallCnn());
  ASSERT_TRUE(graph.ok());
  auto compiler = Compiler::Create(kOptions);
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(*graph);
  ASSERT_TRUE(compiled.ok());
  ASSERT_TRUE(compiled->SaveToFile(Temp("fixed.om")).ok());
  auto source = ModelSource::FromFile(Temp("fixed.om"));
  ASSERT_TRUE(source.ok());
  InferenceOptions options = Options();
  options.input_shapes["image"] = {2, 3, 32, 32};
  auto session = InferenceSession::Open(*source, options);
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.status().message().find("fixed.om is a compiled model: its input shapes were "
                                            "fixed when it was compiled"),
            std::string::npos)
      << session.status().message();
}

// A pipeline .om runs its stages one after another with the single model's numbers, and its
// profile lays the stages end to end.
TEST(InferenceSession, APipelineRunsItsStagesInThisProcess) {
  auto graph = ParseOnnxFile(SmallCnn());
  ASSERT_TRUE(graph.ok());
  auto pipeline = CompilePipeline(kOptions, *graph, 2);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  ASSERT_TRUE(pipeline->SaveToFile(Temp("cnn_pipeline.om")).ok());
  auto source = ModelSource::FromFile(Temp("cnn_pipeline.om"));
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(source->format(), ModelFormat::kPipeline);
  auto bytes = ModelSource::FromBytes(ReadAll(Temp("cnn_pipeline.om")));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->format(), ModelFormat::kPipeline);
  auto session = OpenOrFail(*source, Options());
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->strategy(), RunStrategy::kPipeline);
  EXPECT_EQ(session->stages(), 2);
  EXPECT_EQ(session->compiled(), nullptr);
  ASSERT_EQ(session->outputs().size(), 1u);
  EXPECT_EQ(session->outputs()[0].name, "logits");
  const std::vector<GeTensor> inputs = {RandomFloats(session->inputs()[0], 5)};
  session->EnableProfiling(true);
  auto got = session->Run(inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ExpectClose((*got)[0], ReferenceOutputs(inputs)[0]);
  const std::vector<TaskTiming> profile = session->LastProfile();
  ASSERT_FALSE(profile.empty());
  EXPECT_EQ(profile.front().stream, 0);
  EXPECT_EQ(profile.back().stream, 1);
  EXPECT_GE(profile.back().start_us, profile.front().start_us);
}

TEST(InferenceSession, ATraceIsOneRunEventThenItsTasksAsOnnxRuntimeWritesThem) {
  std::vector<TaskTiming> tasks(2);
  tasks[0] = {"conv", "Conv2D", 0, 1.0, 4.0, 2, 3.5};
  tasks[1] = {"relu", "Relu", 1, 6.0, 1.0, 1, -1};
  const nlohmann::json events = nlohmann::json::parse(TraceEventsJson(tasks, 100.0, 42));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].at("name"), "run");
  EXPECT_EQ(events[0].at("cat"), "Session");
  EXPECT_EQ(events[0].at("ts").get<double>(), 100.0);
  EXPECT_EQ(events[0].at("dur").get<double>(), 7.0);  // to the end of the last task
  EXPECT_EQ(events[1].at("cat"), "Node");
  EXPECT_EQ(events[1].at("name"), "conv");
  EXPECT_EQ(events[1].at("ts").get<double>(), 101.0);
  EXPECT_EQ(events[1].at("tid").get<int>(), 1);
  EXPECT_EQ(events[1].at("pid").get<int>(), 42);
  EXPECT_EQ(events[1].at("args").at("op_name"), "Conv2D");
  EXPECT_EQ(events[1].at("args").at("predicted_us").get<double>(), 3.5);
  EXPECT_EQ(events[2].at("tid").get<int>(), 2);
  EXPECT_FALSE(events[2].at("args").contains("predicted_us"));
}

}  // namespace
}  // namespace ge

// Writes the fuzzers' seed corpora, one directory per target (fuzz_targets.h), from the test
// models:
//   ge_load/     small graphs in binary and text (edges of every kind, subgraphs, each attribute
//                encoding) and the handwritten GE fixture
//   onnx_parse/  the bundled model, small models with Loop, Scan, If and an initializer that is
//                also an input, and the models of ONNX's node test suite when it is given
//   om_run/      those models compiled (a sample of the suite's), static and run-time shapes
//   npy/         arrays of each dtype, rank 0 to 3, empty ones included
//   ge_run/      GE graphs that compile and run: PartitionedCalls nested 1, 3 and
//                kMaxSubgraphDepth levels deep, and the handmade ONNX models (If, Loop, Scan,
//                nested Ifs) as GE graphs, in binary and text
//   values/      a string tensor, sequences, an optional and a map in their stored forms
//   pipeline_run/ the bundled model and a handmade one with an If compiled as pipelines of 2
//                and 3 stages
// Usage: make_fuzz_seeds <source dir> <ONNX node suite dir, or -> <output dir>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ge/compiler/compiler.h"
#include "ge/compiler/pipeline_compile.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/npy.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

NodePtr Add(const ComputeGraphPtr& graph, const std::string& name, const std::string& type,
            uint32_t n_in, uint32_t n_out) {
  return GraphBuilder(graph)
      .AddNode(name, type, n_in, n_out, GeTensorDesc(GeShape({2, 2})))
      .value();
}

void Link(const NodePtr& src, int out, const NodePtr& dst, int in) {
  (void)GraphBuilder(src->GetOwnerComputeGraph()).AddDataEdge({src, out}, dst, in);
}

ComputeGraphPtr Chain() {
  auto graph = std::make_shared<ComputeGraph>("chain");
  NodePtr data = Add(graph, "data", "Data", 0, 1);
  NodePtr weight = graph
                       ->AddNode(OpDescUtils::CreateConstOp(
                           "w", GeTensor(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT32),
                                         std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0})))
                       .value();
  NodePtr add = Add(graph, "add", "Add", 3, 1);
  NodePtr out = Add(graph, "out", "NetOutput", 1, 0);
  Link(data, 0, add, 0);
  Link(weight, 0, add, 1);
  Link(add, 0, out, 0);
  (void)GraphBuilder(graph).AddControlEdge(weight, out);
  // A data-to-control edge, which GraphBuilder does not make, on the anchors.
  (void)Anchor::Link(data->GetOutDataAnchor(0), out->GetInControlAnchor());
  graph->SetGraphOutNodesInfo({{add, 0}});
  return graph;
}

ComputeGraphPtr WithSubgraphs() {
  auto graph = std::make_shared<ComputeGraph>("main");
  NodePtr data = Add(graph, "data", "Data", 0, 1);
  NodePtr if_node = Add(graph, "if", "If", 1, 1);
  Link(data, 0, if_node, 0);
  (void)if_node->GetOpDescBarePtr()->AddSubgraphName("then_branch");
  auto then_graph = std::make_shared<ComputeGraph>("then");
  NodePtr arg = Add(then_graph, "arg", "Data", 0, 1);
  AttrUtils::SetInt(arg->GetOpDesc(), "_parent_node_index", 0);
  NodePtr ret = Add(then_graph, "ret", "NetOutput", 1, 0);
  Link(arg, 0, ret, 0);
  (void)NodeUtils::SetSubgraph(if_node, 0, then_graph);
  return graph;
}

ComputeGraphPtr WithAttributes() {
  auto graph = std::make_shared<ComputeGraph>("attrs");
  NodePtr node = Add(graph, "n", "Foo", 1, 1);
  const OpDescPtr op = node->GetOpDesc();
  NamedAttrs named("fn");
  AttrUtils::SetInt(named, "i", 3);
  AttrUtils::SetInt(op, "i", -5);
  AttrUtils::SetFloat(op, "f", 1.5f);
  AttrUtils::SetBool(op, "b", true);
  AttrUtils::SetStr(op, "s", "text");
  AttrUtils::SetBytes(op, "bt", Buffer{{1, 2, 3}});
  AttrUtils::SetDataType(op, "dt", DT_FLOAT16);
  AttrUtils::SetNamedAttrs(op, "func", named);
  AttrUtils::SetListInt(op, "li", std::vector<int64_t>{1, 2});
  AttrUtils::SetListStr(op, "ls", {});
  AttrUtils::SetListListInt(op, "lli", {{1}, {2, 3}});
  AttrUtils::SetListListFloat(op, "llf", {{1.0f}});
  AttrUtils::SetListDataType(op, "ldt", {DT_INT8});
  AttrUtils::SetTensorDesc(op, "td", GeTensorDesc(GeShape({1, 16, 4, 4, 16}), FORMAT_NC1HWC0));
  AttrUtils::SetGraph(op, "g", Chain());
  AttrUtils::SetListNamedAttrs(op, "lna", {named});
  op->SetStreamId(2);
  op->SetWorkspace({64});
  (void)op->UpdateInputName({{"__input0", "x"}});
  return graph;
}

bool Write(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(file);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int WriteGeSeeds(const std::filesystem::path& source, const std::filesystem::path& dir) {
  int failures = 0;
  const std::pair<const char*, ComputeGraphPtr> graphs[] = {
      {"chain", Chain()}, {"subgraphs", WithSubgraphs()}, {"attrs", WithAttributes()}};
  for (const auto& [name, graph] : graphs) {
    for (auto format : {SerializeFormat::kBinary, SerializeFormat::kText}) {
      const bool text = format == SerializeFormat::kText;
      Result<std::string> bytes = ModelSerialize::Serialize(*graph, format);
      if (!bytes.ok() || !Write(dir / (std::string(name) + (text ? ".pbtxt" : ".pb")), *bytes)) {
        ++failures;
      }
    }
  }
  const std::string text = ReadFile(source / "tests/data/ge_fixture_handwritten.pbtxt");
  Result<ComputeGraphPtr> loaded = ModelSerialize::Deserialize(text, SerializeFormat::kText);
  Result<std::string> bytes = loaded.ok() ? ModelSerialize::Serialize(**loaded) : loaded.status();
  if (!bytes.ok() || !Write(dir / "ge_fixture.pb", *bytes)) ++failures;
  if (!Write(dir / "ge_fixture.pbtxt", text)) ++failures;
  return failures;
}

// Small ONNX models of the kinds the suite has few of: control flow, run-time shapes, an
// initializer that is also an input.
std::vector<std::pair<std::string, onnx::ModelProto>> HandmadeOnnx() {
  using namespace ge::testing;
  std::vector<std::pair<std::string, onnx::ModelProto>> models;
  {
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "x", {0, 4}, {"batch", ""});
    AddInput(g, "w", {4, 3});
    AddInitializer(g, "w", {4, 3});
    AddInitializer(g, "b", {3});
    AddNode(g, "MatMul", "mm", {"x", "w"}, {"h"});
    AddNode(g, "Add", "add", {"h", "b"}, {"s"});
    AddNode(g, "Relu", "relu", {"s"}, {"y"});
    AddOutput(g, "y", {0, 3});
    models.emplace_back("dynamic_matmul", m);
  }
  {
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "n", {}, {}, onnx::TensorProto::INT64);
    AddInput(g, "v0", {2});
    auto* loop = AddNode(g, "Loop", "loop", {"n", "", "v0"}, {"r", "scan"});
    auto* body = AddGraphAttr(loop, "body");
    AddInput(body, "i", {}, {}, onnx::TensorProto::INT64);
    AddInput(body, "cond", {}, {}, onnx::TensorProto::BOOL);
    AddInput(body, "v", {2});
    AddNode(body, "Identity", "c", {"cond"}, {"cond_out"});
    AddNode(body, "Add", "step", {"v", "v"}, {"v_out"});
    AddNode(body, "Neg", "neg", {"v"}, {"s_out"});
    AddOutput(body, "cond_out", {}, onnx::TensorProto::BOOL);
    AddOutput(body, "v_out", {2});
    AddOutput(body, "s_out", {2});
    AddOutput(g, "r", {2});
    AddOutput(g, "scan", {0, 2});
    models.emplace_back("loop", m);
  }
  {
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "s0", {2});
    AddInput(g, "xs", {3, 2});
    auto* scan = AddNode(g, "Scan", "scan", {"s0", "xs"}, {"s", "ys"});
    AddIntAttr(scan, "num_scan_inputs", 1);
    auto* body = AddGraphAttr(scan, "body");
    AddInput(body, "state", {2});
    AddInput(body, "x", {2});
    AddNode(body, "Add", "acc", {"state", "x"}, {"state_out"});
    AddNode(body, "Identity", "y", {"state_out"}, {"y_out"});
    AddOutput(body, "state_out", {2});
    AddOutput(body, "y_out", {2});
    AddOutput(g, "s", {2});
    AddOutput(g, "ys", {3, 2});
    models.emplace_back("scan", m);
  }
  {
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "c", {}, {}, onnx::TensorProto::BOOL);
    AddInput(g, "x", {2});
    auto* node = AddNode(g, "If", "if", {"c"}, {"y"});
    auto* then_branch = AddGraphAttr(node, "then_branch");
    AddNode(then_branch, "Relu", "r", {"x"}, {"t"});
    AddOutput(then_branch, "t", {2});
    auto* else_branch = AddGraphAttr(node, "else_branch");
    AddNode(else_branch, "Neg", "n", {"x"}, {"e"});
    AddOutput(else_branch, "e", {2});
    AddOutput(g, "y", {2});
    models.emplace_back("if", m);
  }
  {
    // Ifs three deep: each then_branch holds the next If, each else_branch a Neg.
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "c", {}, {}, onnx::TensorProto::BOOL);
    AddInput(g, "x", {2});
    onnx::GraphProto* graph = g;
    std::string out = "y";
    for (int k = 1; k <= 3; ++k) {
      const std::string name = "if" + std::to_string(k);
      auto* node = AddNode(graph, "If", name, {"c"}, {out});
      AddOutput(graph, out, {2});
      auto* else_branch = AddGraphAttr(node, "else_branch");
      AddNode(else_branch, "Neg", name + "_neg", {"x"}, {name + "_e"});
      AddOutput(else_branch, name + "_e", {2});
      graph = AddGraphAttr(node, "then_branch");
      out = name + "_t";
    }
    AddNode(graph, "Relu", "relu", {"x"}, {out});
    AddOutput(graph, out, {2});
    models.emplace_back("nested_if", m);
  }
  return models;
}

// A GE graph in text: PartitionedCalls nested `levels` deep on a float [2, 3] (graph "g<k>"
// calls "g<k+1>"; the innermost applies Relu), as GE writes a graph of functions.
std::string NestedCallsText(int levels) {
  const std::string desc = R"(dtype: DT_FLOAT shape { dim: 2 dim: 3 } layout: "ND")";
  const std::string parent = R"(attr { key: "_parent_node_index" value { i: 0 } })";
  std::string text = "name: \"nested_calls\"\n";
  for (int k = 0; k <= levels; ++k) {
    const std::string src = k < levels ? "call" : "relu";
    text += "graph {\n  name: \"g" + std::to_string(k) + "\"\n";
    if (k == 0) text += "  input: \"x:0\"\n";
    text += "  output: \"" + src + ":0\"\n";
    text += R"(  op { name: "x" type: "Data" attr { key: "index" value { i: 0 } } )" +
            (k == 0 ? std::string() : parent) + " input_desc { " + desc + " } output_desc { " +
            desc + " } }\n";
    if (k < levels) {
      text += R"(  op { name: "call" type: "PartitionedCall" input: "x:0" subgraph_name: "g)" +
              std::to_string(k + 1) + "\" input_desc { " + desc + " } output_desc { " + desc +
              " } }\n";
    } else {
      text += R"(  op { name: "relu" type: "Relu" input: "x:0" input_desc { )" + desc +
              " } output_desc { " + desc + " } }\n";
    }
    text += R"(  op { name: "out" type: "NetOutput" input: ")" + src + ":0\" input_desc { " + desc +
            " } }\n}\n";
  }
  return text;
}

// GE graphs that compile and run, control flow and nested subgraphs among them.
int WriteGeRunSeeds(const std::filesystem::path& source, const std::filesystem::path& dir) {
  int failures = 0;
  for (int levels : {1, 3, kMaxSubgraphDepth}) {
    const std::string name = "nested_calls_" + std::to_string(levels);
    const std::string text = NestedCallsText(levels);
    Result<ComputeGraphPtr> graph = ModelSerialize::Deserialize(text, SerializeFormat::kText);
    Result<std::string> bytes = graph.ok() ? ModelSerialize::Serialize(**graph) : graph.status();
    if (!bytes.ok() || !Write(dir / (name + ".pb"), *bytes) ||
        !Write(dir / (name + ".pbtxt"), text)) {
      ++failures;
    }
  }
  std::vector<std::pair<std::string, std::string>> onnx;  // name, bytes
  onnx.emplace_back("small_cnn", ReadFile(source / "models/small_cnn.onnx"));
  for (const auto& [name, model] : HandmadeOnnx())
    onnx.emplace_back(name, model.SerializeAsString());
  for (const auto& [name, bytes] : onnx) {
    Result<ComputeGraphPtr> graph = ParseOnnxBytes(bytes, ".", name);
    if (!graph.ok()) {
      ++failures;
      continue;
    }
    for (auto format : {SerializeFormat::kBinary, SerializeFormat::kText}) {
      const bool text = format == SerializeFormat::kText;
      Result<std::string> out = ModelSerialize::Serialize(**graph, format);
      if (!out.ok() || !Write(dir / (name + (text ? ".pbtxt" : ".pb")), *out)) ++failures;
    }
  }
  return failures;
}

// Pipelines of the bundled model and of a handmade model with control flow.
int WritePipelineSeeds(const std::filesystem::path& source, const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, std::string>> onnx;  // name, bytes
  onnx.emplace_back("small_cnn", ReadFile(source / "models/small_cnn.onnx"));
  {
    // An If between elementwise nodes, so that a cut can fall on either side of it.
    using namespace ge::testing;
    auto m = MakeModel(13);
    auto* g = m.mutable_graph();
    AddInput(g, "c", {}, {}, onnx::TensorProto::BOOL);
    AddInput(g, "x", {2, 3});
    AddNode(g, "Relu", "relu", {"x"}, {"a"});
    AddNode(g, "Mul", "square", {"a", "a"}, {"b"});
    auto* node = AddNode(g, "If", "if", {"c"}, {"y"});
    auto* then_branch = AddGraphAttr(node, "then_branch");
    AddNode(then_branch, "Neg", "neg", {"b"}, {"t"});
    AddOutput(then_branch, "t", {2, 3});
    auto* else_branch = AddGraphAttr(node, "else_branch");
    AddNode(else_branch, "Abs", "abs", {"b"}, {"e"});
    AddOutput(else_branch, "e", {2, 3});
    AddNode(g, "Add", "add", {"y", "a"}, {"z"});
    AddNode(g, "Sigmoid", "sigmoid", {"z"}, {"w"});
    AddOutput(g, "w", {2, 3});
    onnx.emplace_back("if_between", m.SerializeAsString());
  }
  int failures = 0;
  for (const auto& [name, bytes] : onnx) {
    for (int stages : {2, 3}) {
      Result<ComputeGraphPtr> graph = ParseOnnxBytes(bytes, ".", name);
      Result<PipelineModel> pipeline =
          graph.ok()
              ? CompilePipeline({{"ge.enginePluginPath", OPENGE_FUZZ_ENGINE_DIR}}, *graph, stages)
              : Result<PipelineModel>(graph.status());
      const std::string file = name + "_" + std::to_string(stages) + "_stages.om";
      Status saved =
          pipeline.ok() ? pipeline->SaveToFile((dir / file).string()) : Status(pipeline.status());
      if (!saved.ok()) {
        std::fprintf(stderr, "make_fuzz_seeds: %s: %s\n", file.c_str(), saved.ToString().c_str());
        ++failures;
      }
    }
  }
  return failures;
}

int WriteOnnxAndOmSeeds(const std::filesystem::path& source, const std::string& suite,
                        const std::filesystem::path& onnx_dir,
                        const std::filesystem::path& om_dir) {
  std::vector<std::pair<std::string, std::string>> models;  // name, bytes
  models.emplace_back("small_cnn", ReadFile(source / "models/small_cnn.onnx"));
  for (const auto& [name, model] : HandmadeOnnx())
    models.emplace_back(name, model.SerializeAsString());
  const size_t handmade = models.size();
  if (suite != "-") {
    std::vector<std::filesystem::path> cases;
    for (const auto& entry : std::filesystem::directory_iterator(suite)) {
      if (std::filesystem::exists(entry.path() / "model.onnx")) cases.push_back(entry.path());
    }
    std::sort(cases.begin(), cases.end());
    for (const auto& c : cases)
      models.emplace_back(c.filename().string(), ReadFile(c / "model.onnx"));
  }
  auto compiler = Compiler::Create({{"ge.enginePluginPath", OPENGE_FUZZ_ENGINE_DIR}});
  if (!compiler.ok()) {
    std::fprintf(stderr, "make_fuzz_seeds: %s\n", compiler.status().ToString().c_str());
    return 1;
  }
  int failures = 0;
  size_t compiled = 0;
  for (size_t i = 0; i < models.size(); ++i) {
    const auto& [name, bytes] = models[i];
    if (!Write(onnx_dir / (name + ".onnx"), bytes)) ++failures;
    // Every handmade model, and one suite model in eight: the compiled seeds are larger and
    // slower to run, and the suite's operators repeat.
    if (i >= handmade && (i - handmade) % 8 != 0) continue;
    Result<ComputeGraphPtr> graph = ParseOnnxBytes(bytes, ".", name);
    if (!graph.ok()) continue;  // the suite has models this build does not take
    Result<CompiledModel> model = (*compiler)->Compile(*graph);
    if (!model.ok()) continue;
    Result<std::string> om = model->Serialize();
    if (!om.ok() || !Write(om_dir / (name + ".om"), *om)) {
      ++failures;
      continue;
    }
    ++compiled;
  }
  if (compiled < handmade) {
    std::fprintf(stderr, "make_fuzz_seeds: only %zu models compiled\n", compiled);
    ++failures;
  }
  return failures;
}

template <typename T>
GeTensor Tensor(DataType dtype, std::vector<int64_t> dims, size_t count) {
  std::vector<uint8_t> bytes(count * sizeof(T));
  for (size_t i = 0; i < count; ++i) {
    const T v = static_cast<T>(i % 5);
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return {GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, dtype), std::move(bytes)};
}

int WriteNpySeeds(const std::filesystem::path& dir) {
  const std::pair<const char*, GeTensor> arrays[] = {
      {"f32_2x3", Tensor<float>(DT_FLOAT, {2, 3}, 6)},
      {"f32_scalar", Tensor<float>(DT_FLOAT, {}, 1)},
      {"f32_empty", Tensor<float>(DT_FLOAT, {0, 4}, 0)},
      {"f64_3", Tensor<double>(DT_DOUBLE, {3}, 3)},
      {"f16_2x2x2", Tensor<uint16_t>(DT_FLOAT16, {2, 2, 2}, 8)},
      {"i64_1x5", Tensor<int64_t>(DT_INT64, {1, 5}, 5)},
      {"i32_4", Tensor<int32_t>(DT_INT32, {4}, 4)},
      {"u8_3x1", Tensor<uint8_t>(DT_UINT8, {3, 1}, 3)},
      {"bool_2", Tensor<uint8_t>(DT_BOOL, {2}, 2)},
  };
  int failures = 0;
  for (const auto& [name, tensor] : arrays) {
    Result<std::string> bytes = SerializeNpy(tensor);
    if (!bytes.ok() || !Write(dir / (std::string(name) + ".npy"), *bytes)) ++failures;
  }
  return failures;
}

// Stored values: a byte choosing the form (even: strings, odd: a sequence, optional or map),
// a byte with the string count, then the bytes.
int WriteValueSeeds(const std::filesystem::path& dir) {
  auto with = [](char form, char count, const GeTensor& t) {
    return std::string{form, count} +
           std::string(reinterpret_cast<const char*>(t.GetData().data()), t.GetSize());
  };
  const GeTensor words = MakeStringTensor({3}, {"a", "", "\xc3\xa9t\xc3\xa9"});
  const GeTensor floats = Tensor<float>(DT_FLOAT, {2, 2}, 4);
  const GeTensor keys = Tensor<int64_t>(DT_INT64, {2}, 2);
  const GeTensor values = Tensor<float>(DT_FLOAT, {2}, 2);
  const GeTensor seq = StoreComposite({ValueType::Kind::kSequence, {floats, words}});
  const std::pair<const char*, std::string> seeds[] = {
      {"strings", with(0, 3, words)},
      {"sequence", with(1, 0, seq)},
      {"optional_of_sequence", with(1, 0, StoreComposite({ValueType::Kind::kOptional, {seq}}))},
      {"empty_optional", with(1, 0, StoreComposite({ValueType::Kind::kOptional, {}}))},
      {"map", with(1, 0, StoreComposite({ValueType::Kind::kMap, {keys, values}}))},
  };
  int failures = 0;
  for (const auto& [name, bytes] : seeds) {
    if (!Write(dir / (std::string(name) + ".bin"), bytes)) ++failures;
  }
  return failures;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <source dir> <ONNX node suite dir, or -> <output dir>\n",
                 argv[0]);
    return 2;
  }
  const std::filesystem::path source = argv[1];
  const std::filesystem::path out = argv[3];
  for (const char* target :
       {"ge_load", "ge_run", "onnx_parse", "om_run", "npy", "pipeline_run", "values"}) {
    std::filesystem::create_directories(out / target);
  }
  int failures = ge::WriteGeSeeds(source, out / "ge_load");
  failures += ge::WriteGeRunSeeds(source, out / "ge_run");
  failures += ge::WriteOnnxAndOmSeeds(source, argv[2], out / "onnx_parse", out / "om_run");
  failures += ge::WriteNpySeeds(out / "npy");
  failures += ge::WritePipelineSeeds(source, out / "pipeline_run");
  failures += ge::WriteValueSeeds(out / "values");
  if (failures != 0) std::fprintf(stderr, "make_fuzz_seeds: %d seeds not written\n", failures);
  return failures == 0 ? 0 : 1;
}

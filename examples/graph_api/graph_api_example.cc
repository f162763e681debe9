// Builds two networks with GE's graph construction API (networks.h), compiles each to a .om with
// aclgrphBuildModel / aclgrphSaveModel, runs it in a ge::Session, and compares its outputs with
// the same network parsed from its ONNX file and compiled the usual way.
//
//   graph_api_example MODELS_DIR [OUT_DIR]
//
// MODELS_DIR holds small_cnn.onnx and attention_block.onnx (the repository's models/); the .om
// files go to OUT_DIR (default: the current directory). Exits 1 when a step fails or the outputs
// differ.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"
#include "ge/session/ge_ir_build.h"
#include "networks.h"

namespace {

using graph_api_example::Weights;

// The ONNX file's weights by initializer name, and its input's desc.
bool ReadOnnx(const std::string& path, ge::ComputeGraphPtr& graph, Weights& weights,
              ge::GeTensorDesc& input) {
  auto parsed = ge::ParseOnnxFile(path);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), parsed.status().message().c_str());
    return false;
  }
  graph = *parsed;
  for (const ge::NodePtr& node : graph->GetDirectNode()) {
    if (ge::IsDataType(node->GetType())) input = node->GetOpDesc()->GetOutputDesc(0);
    if (!ge::IsConstType(node->GetType())) continue;
    auto value = ge::OpDescUtils::GetConstValue(*node);
    if (value.ok()) weights[node->GetName()] = ge::TensorAdapter::AsTensor(*value);
  }
  return true;
}

std::vector<float> ToFloats(const uint8_t* data, size_t bytes) {
  const auto* p = reinterpret_cast<const float*>(data);
  std::vector<float> values(p, p + bytes / sizeof(float));
  return values;
}

bool RunOne(const std::string& models_dir, const std::string& out_dir, const std::string& name,
            ge::Graph (*build)(const Weights&)) {
  ge::ComputeGraphPtr onnx_graph;
  Weights weights;
  ge::GeTensorDesc input_desc;
  if (!ReadOnnx(models_dir + "/" + name + ".onnx", onnx_graph, weights, input_desc)) return false;

  // 1. The network in code, built into an offline model.
  ge::Graph graph = build(weights);
  ge::ModelBufferData om;
  if (ge::aclgrphBuildModel(graph, std::map<std::string, std::string>{}, om) != ge::GRAPH_SUCCESS ||
      ge::aclgrphSaveModel(out_dir + "/" + name + "_api", om) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), ge::GEGetErrorMsg().c_str());
    return false;
  }

  // 2. Run in a session on a random input.
  std::vector<float> values(static_cast<size_t>(input_desc.GetShape().GetShapeSize()));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& v : values) v = dist(rng);
  ge::GeTensor input(input_desc, reinterpret_cast<const uint8_t*>(values.data()),
                     values.size() * sizeof(float));
  ge::Session session;
  std::vector<ge::Tensor> outputs;
  if (session.AddGraph(1, graph) != ge::GRAPH_SUCCESS ||
      session.RunGraph(1, {ge::TensorAdapter::AsTensor(input)}, outputs) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), ge::GEGetErrorMsg().c_str());
    return false;
  }
  const std::vector<float> api = ToFloats(outputs[0].GetData(), outputs[0].GetSize());

  // 3. The same network from its ONNX file.
  auto compiler = ge::Compiler::Create({});
  auto compiled = compiler.ok() ? (*compiler)->Compile(onnx_graph)
                                : ge::Result<ge::CompiledModel>(compiler.status());
  auto model = compiled.ok() ? ge::LoadedModel::Load(std::move(compiled).value())
                             : ge::Result<std::unique_ptr<ge::LoadedModel>>(compiled.status());
  auto ran =
      model.ok() ? (*model)->Run({input}) : ge::Result<std::vector<ge::GeTensor>>(model.status());
  if (!ran.ok()) {
    std::fprintf(stderr, "%s.onnx: %s\n", name.c_str(), ran.status().message().c_str());
    return false;
  }
  const std::vector<float> onnx = ToFloats((*ran)[0].GetData().data(), (*ran)[0].GetData().size());

  double max_diff = api.size() == onnx.size() ? 0.0 : INFINITY;
  for (size_t i = 0; i < api.size() && i < onnx.size(); ++i) {
    max_diff = std::fmax(max_diff, std::fabs(static_cast<double>(api[i]) - onnx[i]));
  }
  std::printf("%-16s %zu outputs, .om %llu bytes, max |graph API - ONNX| = %g\n", name.c_str(),
              api.size(), static_cast<unsigned long long>(om.length), max_diff);
  return max_diff <= 1e-5;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODELS_DIR [OUT_DIR]\n", argv[0]);
    return 2;
  }
  const std::string models_dir = argv[1];
  const std::string out_dir = argc > 2 ? argv[2] : ".";
  bool ok = RunOne(models_dir, out_dir, "small_cnn", graph_api_example::SmallCnn);
  ok = RunOne(models_dir, out_dir, "attention_block", graph_api_example::AttentionBlock) && ok;
  return ok ? 0 : 1;
}

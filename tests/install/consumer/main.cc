// consumer MODEL.onnx PREFIX: the README's C++ API examples against an installed OpenGE. Parses the
// model, compiles it, loads and runs it on a deterministic input, checks the output is [1,10] of
// finite, varying floats, and that the engine plugins and operator library came from PREFIX; then
// builds a graph with GE's graph API (the installed, generated all_ops.h) and runs it in a session.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/compiler/compiler.h"
#include "ge/engine/engine_paths.h"
#include "ge/ops/ops_proto_manager.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"

namespace {

int Fail(const std::string& what) {
  std::cerr << "consumer: " << what << "\n";
  return 1;
}

bool Under(const std::string& path, const std::filesystem::path& prefix) {
  std::error_code ec;
  const std::string p = std::filesystem::canonical(path, ec).string();
  return !ec && p.rfind(prefix.string() + "/", 0) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Fail("usage: consumer MODEL.onnx PREFIX");
  const std::filesystem::path prefix = std::filesystem::canonical(argv[2]);

  const std::string engines_dir = ge::DefaultEnginePluginDir();
  const std::string ops_dir = ge::OpsProtoManager::DefaultDirectory();
  std::cout << "engine plugins: " << engines_dir << "\noperator library: " << ops_dir << "\n";
  if (!Under(engines_dir, prefix)) {
    return Fail("engine plugins are not found under " + prefix.string());
  }
  if (!Under(ops_dir, prefix)) return Fail("operators are not found under " + prefix.string());

  auto graph = ge::ParseOnnxFile(argv[1]);
  if (!graph.ok()) return Fail("parse: " + graph.status().message());
  auto compiler = ge::Compiler::Create({{"ge.inputShape", "image:1,3,64,64"}});
  if (!compiler.ok()) return Fail("compiler: " + compiler.status().message());
  auto compiled = (*compiler)->Compile(*graph);
  if (!compiled.ok()) return Fail("compile: " + compiled.status().message());
  auto model = ge::LoadedModel::Load(std::move(compiled).value());
  if (!model.ok()) return Fail("load: " + model.status().message());

  std::vector<float> image(1 * 3 * 64 * 64);
  for (size_t i = 0; i < image.size(); ++i) image[i] = std::sin(0.01f * static_cast<float>(i));
  ge::GeTensor input(ge::GeTensorDesc(ge::GeShape({1, 3, 64, 64}), ge::FORMAT_ND, ge::DT_FLOAT),
                     reinterpret_cast<const uint8_t*>(image.data()), image.size() * sizeof(float));
  auto outputs = (*model)->Run({input});
  if (!outputs.ok()) return Fail("run: " + outputs.status().message());

  if (outputs->size() != 1) {
    return Fail("expected one output, got " + std::to_string(outputs->size()));
  }
  const ge::GeTensor& logits = outputs->front();
  if (logits.GetTensorDesc().GetShape().GetDims() != std::vector<int64_t>{1, 10}) {
    return Fail("the output is not [1,10]");
  }
  std::vector<float> values(10);
  if (logits.GetData().size() != values.size() * sizeof(float)) {
    return Fail("the output has the wrong size");
  }
  std::memcpy(values.data(), logits.GetData().data(), logits.GetData().size());
  float lo = values[0], hi = values[0];
  for (float v : values) {
    if (!std::isfinite(v)) return Fail("the output is not finite");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(hi - lo > 1e-6f)) return Fail("the output is constant");
  std::cout << "logits [1,10]:";
  for (float v : values) std::cout << " " << v;
  std::cout << "\n";

  // relu(x) with GE's graph API, run in a session.
  ge::op::Data x("x");
  x.update_output_desc_y(ge::TensorDesc(ge::Shape({4}), ge::FORMAT_ND, ge::DT_FLOAT));
  ge::op::Relu relu("relu");
  relu.set_input_x(x);
  ge::Graph relu_graph("relu_graph");
  relu_graph.SetInputs({x}).SetOutputs({relu});
  ge::Session session;
  const std::vector<float> in{-1.0f, 2.0f, -3.0f, 4.0f};
  std::vector<ge::Tensor> out;
  if (session.AddGraph(1, relu_graph) != ge::GRAPH_SUCCESS ||
      session.RunGraph(1,
                       {ge::Tensor(ge::TensorDesc(ge::Shape({4}), ge::FORMAT_ND, ge::DT_FLOAT),
                                   reinterpret_cast<const uint8_t*>(in.data()), in.size() * 4)},
                       out) != ge::GRAPH_SUCCESS) {
    return Fail("graph API: " + ge::GEGetErrorMsg());
  }
  const auto* relu_values = reinterpret_cast<const float*>(out.at(0).GetData());
  if (out.at(0).GetSize() != 16 || relu_values[0] != 0.0f || relu_values[3] != 4.0f) {
    return Fail("graph API: relu gave the wrong numbers");
  }
  std::cout << "graph API: relu ok\nconsumer: ok\n";
  return 0;
}

// The exported models compile, run, and give torch's outputs (test_data_set_0 of each export)
// with every optimization on and with the optional passes off: resnet18, mobilenet_v2, the
// BERT-like encoder, and the benchmark corpus's other families at small sizes (EfficientNet-B0,
// DenseNet-121, SqueezeNet, ShuffleNet, a ViT, a GPT-2-like decoder), which exercise the blocked
// squeeze-and-excite, SiLU post-ops, in-place concats and splits, Winograd, and causal attention.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace {

const std::string kModelsDir = GE_TEST_MODELS_DIR;

std::string ExportStatus() { return testing::ExportStatus(kModelsDir); }

// A TensorProto file as a GeTensor (float and int64, raw or typed data).
Result<GeTensor> ReadTensor(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  onnx::TensorProto proto;
  if (!in.good() || !proto.ParseFromString(buffer.str()))
    return ParamInvalid("cannot read " + path);
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  std::vector<uint8_t> bytes;
  DataType dtype = DT_UNDEFINED;
  if (proto.data_type() == onnx::TensorProto::FLOAT) {
    dtype = DT_FLOAT;
    if (!proto.raw_data().empty()) {
      bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
    } else {
      bytes.resize(static_cast<size_t>(proto.float_data_size()) * 4);
      std::memcpy(bytes.data(), proto.float_data().data(), bytes.size());
    }
  } else if (proto.data_type() == onnx::TensorProto::INT64) {
    dtype = DT_INT64;
    if (!proto.raw_data().empty()) {
      bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
    } else {
      bytes.resize(static_cast<size_t>(proto.int64_data_size()) * 8);
      std::memcpy(bytes.data(), proto.int64_data().data(), bytes.size());
    }
  } else {
    return ParamInvalid(path + ": dtype " + std::to_string(proto.data_type()) + " not handled");
  }
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  return GeTensor(desc, std::move(bytes));
}

struct Case {
  std::string model;
  std::string input_shape;
};

// max |ours - torch| / max |torch|: the error relative to the output's scale.
double RelativeError(const std::vector<float>& ours, const std::vector<float>& want) {
  double max_diff = 0;
  double scale = 1e-12;
  for (size_t i = 0; i < want.size(); ++i) {
    max_diff = std::max(max_diff, std::fabs(static_cast<double>(ours[i]) - want[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  return max_diff / scale;
}

class RunModels : public ::testing::TestWithParam<std::tuple<Case, bool>> {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

TEST_P(RunModels, GiveTorchsOutputs) {
  ASSERT_EQ(ExportStatus(), "ok") << "the test models were not exported (target ge_onnx_test_data)";
  const auto& [c, optimize] = GetParam();
  const std::string dir = kModelsDir + "/" + c.model;
  auto graph = ParseOnnxFile(dir + "/model.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  std::map<std::string, std::string> extra;
  if (!c.input_shape.empty()) extra["ge.inputShape"] = c.input_shape;
  if (!optimize) {
    // Every optional pass off, NCHW everywhere and no memory reuse; the transformer exports keep
    // constant folding, which their Shape nodes need, and every export keeps RemoveIdentity
    // (GE Local has no kernel for Shape or Identity, as in GE).
    const bool needs_folding =
        c.model.find("bert") != std::string::npos || c.model.find("gpt2") != std::string::npos ||
        c.model.find("vit") != std::string::npos || c.model.find("shufflenet") != std::string::npos;
    extra["openge.disablePasses"] =
        std::string(needs_folding ? "" : "ConstantFolding,") +
        "SimplifyChains,CommonSubexpressionElimination,Fusion,DeadCodeElimination,InPlaceConcat";
    extra["ge.exec.disableReuseMemory"] = "1";
    extra["openge.cpuLayout"] = "plain";        // no blocked layouts, no TransData
    extra["openge.cpuWeightLayout"] = "plain";  // weights in the framework's layout
  }
  auto compiler = Compiler::Create(testing::TestOptions(extra));
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  auto compiled = (*compiler)->Compile(*graph);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  auto model = LoadedModel::Load(std::move(compiled).value(), options);
  ASSERT_TRUE(model.ok()) << model.status().message();
  std::vector<GeTensor> inputs;
  for (size_t i = 0; i < (*model)->inputs().size(); ++i) {
    auto t = ReadTensor(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb");
    ASSERT_TRUE(t.ok()) << t.status().message();
    inputs.push_back(std::move(t).value());
  }
  auto outputs = (*model)->Run(inputs);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  for (size_t i = 0; i < outputs->size(); ++i) {
    auto want = ReadTensor(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb");
    ASSERT_TRUE(want.ok()) << want.status().message();
    EXPECT_EQ((*outputs)[i].GetTensorDesc().GetShape().GetDims(),
              want->GetTensorDesc().GetShape().GetDims());
    const double error = RelativeError(testing::TensorValues<float>((*outputs)[i]),
                                       testing::TensorValues<float>(*want));
    EXPECT_LE(error, 1e-4) << c.model << " output " << i;
    std::cout << c.model << (optimize ? " (optimized)" : " (passes off)") << " output " << i
              << ": relative error " << error << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Exported, RunModels,
    ::testing::Combine(
        ::testing::Values(Case{"resnet18_opset17", ""}, Case{"mobilenet_v2_opset17", ""},
                          Case{"bert_encoder_opset17", "input_ids:2,16"},
                          Case{"bert_encoder_opset13", "input_ids:2,16"},
                          Case{"efficientnet_b0_opset17", ""}, Case{"densenet121_opset17", ""},
                          Case{"squeezenet_opset17", ""}, Case{"shufflenet_v2_opset17", ""},
                          Case{"vit_tiny_opset17", ""}, Case{"gpt2_tiny_opset17", ""}),
        ::testing::Bool()),
    [](const auto& info) {
      return std::get<0>(info.param).model + (std::get<1>(info.param) ? "_optimized" : "_plain");
    });

}  // namespace
}  // namespace ge

// Our shape inference against ONNX's (onnx::shape_inference, from libonnx) on the exported
// models: every tensor whose dimension ONNX knows has that dimension in our graph too.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "../compiler_test_util.h"
#include "ge/compiler/passes.h"
#include "ge/parser/onnx_parser.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

namespace ge {
namespace {

const std::string kModelsDir = GE_TEST_MODELS_DIR;

std::string ExportStatus() { return testing::ExportStatus(kModelsDir); }

// name -> dims (-1 where ONNX has no value) for every value ONNX typed as a tensor with a shape.
// ONNX's defaults, as onnx.shape_inference.infer_shapes runs them: no data propagation (with it,
// ONNX also reads dims out of Shape->Gather->Concat chains feeding a Reshape, which we only learn
// once folding has the input shapes).
std::map<std::string, std::vector<int64_t>> OnnxShapes(onnx::ModelProto& model) {
  onnx::ShapeInferenceOptions options;
  onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  std::map<std::string, std::vector<int64_t>> shapes;
  auto add = [&](const onnx::ValueInfoProto& value) {
    if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
    std::vector<int64_t> dims;
    for (const auto& d : value.type().tensor_type().shape().dim()) {
      dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    }
    shapes[value.name()] = dims;
  };
  for (const auto& v : model.graph().value_info()) add(v);
  for (const auto& v : model.graph().output()) add(v);
  return shapes;
}

class InferCrossCheck : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

TEST_P(InferCrossCheck, OurShapesMatchOnnxWhereOnnxKnowsThem) {
  ASSERT_EQ(ExportStatus(), "ok") << "the test models were not exported (target ge_onnx_test_data)";
  const std::string path = kModelsDir + "/" + GetParam() + "/model.onnx";
  onnx::ModelProto model;
  {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    ASSERT_TRUE(model.ParseFromString(buffer.str())) << path;
  }
  const auto expected = OnnxShapes(model);
  ASSERT_FALSE(expected.empty());

  auto graph = ParseOnnxFile(path);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto infer = CreateInferShapePass();
  testing::RunPass(*infer, **graph);

  size_t compared_dims = 0;
  size_t tensors = 0;
  std::vector<std::string> mismatches;
  for (const NodePtr& node : (*graph)->GetAllNodes()) {
    const OpDesc& op = *node->GetOpDesc();
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
      auto it = expected.find(desc.GetName());
      if (it == expected.end()) continue;
      ++tensors;
      const std::vector<int64_t>& onnx_dims = it->second;
      const GeShape& ours = desc.GetShape();
      if (ours.IsUnknownDimNum() || ours.GetDimNum() != onnx_dims.size()) {
        mismatches.push_back(desc.GetName() + " (" + node->GetType() + "): ours " +
                             ours.ToString() + ", ONNX rank " + std::to_string(onnx_dims.size()));
        continue;
      }
      for (size_t d = 0; d < onnx_dims.size(); ++d) {
        if (onnx_dims[d] < 0) continue;
        ++compared_dims;
        if (ours.GetDim(d) != onnx_dims[d]) {
          mismatches.push_back(desc.GetName() + " (" + node->GetType() + ") dim " +
                               std::to_string(d) + ": ours " + ours.ToString() + ", ONNX " +
                               GeShape(onnx_dims).ToString());
          break;
        }
      }
    }
  }
  std::string report;
  for (const std::string& m : mismatches) report += "\n  " + m;
  EXPECT_TRUE(mismatches.empty()) << mismatches.size() << " mismatch(es):" << report;
  EXPECT_GT(tensors, 20u);
  std::cout << GetParam() << ": " << tensors << " tensors, " << compared_dims
            << " dimensions compared with ONNX\n";
}

INSTANTIATE_TEST_SUITE_P(Exported, InferCrossCheck,
                         ::testing::Values("resnet18_opset13", "resnet18_opset17",
                                           "mobilenet_v2_opset13", "mobilenet_v2_opset17",
                                           "bert_encoder_opset13", "bert_encoder_opset17"));

}  // namespace
}  // namespace ge

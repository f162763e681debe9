// ONNX parser on real models exported by tests/models/export_models.py (resnet18, mobilenet_v2,
// a BERT-like encoder; opsets 13 and 17): they parse, and their node counts by type match the
// ONNX file's, allowing the mapping table's documented rewrites.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_test_data.h"

namespace ge {
namespace {

const std::string kModelsDir = GE_TEST_MODELS_DIR;

class OnnxModels : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxModels, ParsesWithMatchingNodeCounts) {
  ASSERT_EQ(testing::ReadStatus(kModelsDir + "/export_status.txt"), "ok")
      << "the test models were not exported; see the build log of target ge_onnx_test_data";
  const std::string case_dir = kModelsDir + "/" + GetParam();
  const std::string path = case_dir + "/model.onnx";
  onnx::ModelProto model;
  ASSERT_TRUE(testing::ReadProto(path, model)) << path;
  auto result = ParseOnnxFile(path);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ComputeGraphPtr graph = *result;
  Status verified = GraphVerifier::Verify(*graph);
  ASSERT_TRUE(verified.ok()) << verified.message();

  int64_t opset = 0;
  for (const auto& imp : model.opset_import()) {
    if (imp.domain().empty() || imp.domain() == "ai.onnx") opset = imp.version();
  }
  // Expected IR counts from the ONNX file through the mapping table.
  std::map<std::string, int> onnx_counts;
  std::map<std::string, int> expected;
  for (const auto& node : model.graph().node()) {
    ++onnx_counts[node.op_type()];
    auto ir = OnnxOpToIrType(node.op_type(), opset);
    ASSERT_TRUE(ir.has_value()) << node.op_type();
    std::string type = *ir;
    if (node.op_type() == "MatMul") type = "MatMul*";  // MatMulV2 or BatchMatMulV2 by rank
    ++expected[type];
  }
  std::set<std::string> initializer_names;
  for (const auto& t : model.graph().initializer()) initializer_names.insert(t.name());
  int data = 0;
  for (const auto& in : model.graph().input()) data += !initializer_names.contains(in.name());
  expected["Data"] = data;
  expected["NetOutput"] = 1;
  expected["Const"] +=
      static_cast<int>(initializer_names.size()) + data - model.graph().input_size();
  // Opsets 13 and 17 need no Const made from an attribute (kAttrMadeConst): Const nodes are the
  // initializers and the Constant nodes exactly.
  std::map<std::string, int> actual;
  int made = 0;
  for (const auto& node : graph->GetAllNodes()) {
    std::string type = node->GetType();
    if (type == "MatMulV2" || type == "BatchMatMulV2") type = "MatMul*";
    ++actual[type];
    made += AttrUtils::HasAttr(node->GetOpDesc(), kAttrMadeConst);
  }
  EXPECT_EQ(made, 0);
  EXPECT_EQ(actual, expected);
  // Every operator node was made by the factory: it carries its prototype's IR metadata and
  // functions, and its ports have the prototype's names (a dynamic port's as <name><k>).
  for (const auto& node : graph->GetAllNodes()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    if (op.GetType() == "Data" || op.GetType() == "Const" || op.GetType() == "NetOutput") continue;
    EXPECT_TRUE(op.GetInferShapeFunc() && op.GetVerifyFunc()) << op.GetName();
    EXPECT_FALSE(op.GetIrOutputs().empty()) << op.GetName();
    size_t port = 0;
    const std::vector<std::string> inputs = op.GetAllInputNames();
    for (const auto& [name, kind] : op.GetIrInputs()) {
      if (kind == kIrInputDynamic) {
        for (size_t k = 0; port < inputs.size() && inputs[port] == name + std::to_string(k); ++k) {
          ++port;
        }
      } else if (port < inputs.size()) {
        EXPECT_EQ(inputs[port++], name) << op.GetName() << " (" << op.GetType() << ")";
      }
    }
    EXPECT_EQ(port, inputs.size()) << op.GetName() << " (" << op.GetType() << ")";
  }
  std::cout << GetParam() << ": " << graph->GetAllNodesSize() << " IR nodes from "
            << model.graph().node_size() << " ONNX nodes;";
  for (const auto& [type, count] : actual) std::cout << " " << type << "=" << count;
  std::cout << "\n";

  // The graph input matches the reference input saved beside the model.
  onnx::TensorProto input;
  ASSERT_TRUE(testing::ReadProto(case_dir + "/test_data_set_0/input_0.pb", input));
  onnx::TensorProto output;
  ASSERT_TRUE(testing::ReadProto(case_dir + "/test_data_set_0/output_0.pb", output));
  ASSERT_EQ(graph->GetInputNodes().size(), 1U);
  const GeTensorDesc& desc = graph->GetInputNodes()[0]->GetOpDesc()->GetOutputDesc(0);
  ASSERT_EQ(desc.GetShape().GetDimNum(), static_cast<size_t>(input.dims_size()));
  for (int i = 0; i < input.dims_size(); ++i) {
    int64_t dim = desc.GetShape().GetDim(static_cast<size_t>(i));
    EXPECT_TRUE(dim == -1 || dim == input.dims(i)) << "dim " << i;
  }
  EXPECT_EQ(desc.GetDataType(),
            input.data_type() == onnx::TensorProto::INT64 ? DT_INT64 : DT_FLOAT);
  if (GetParam().starts_with("bert")) {
    std::vector<std::string> names;
    ASSERT_TRUE(AttrUtils::GetListStr(desc, kAttrSymbolicDims, names));
    EXPECT_EQ(names, (std::vector<std::string>{"batch", "sequence"}));
  }
}

INSTANTIATE_TEST_SUITE_P(Exported, OnnxModels,
                         ::testing::Values("resnet18_opset13", "resnet18_opset17",
                                           "mobilenet_v2_opset13", "mobilenet_v2_opset17",
                                           "bert_encoder_opset13", "bert_encoder_opset17"));

}  // namespace
}  // namespace ge

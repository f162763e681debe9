// ONNX parser, ai.onnx.ml: the classifiers' labels in either form (int64 or classlabels_strings,
// whose label output is then a string), OneHotEncoder's string categories, and what is refused at
// parse in one line naming the node, its operator and the cause: labels in both forms or in
// neither and an unknown post_transform. The operators' numbers are checked by
// the idiom cases (tests/conformance/ml_idiom_cases.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddInput;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;

// A model of one ai.onnx.ml node `op` named "m", X float [2, 3] → outputs.
onnx::ModelProto MlModel(const std::string& op, int64_t ml_opset,
                         std::initializer_list<std::string> outputs, onnx::NodeProto** node) {
  auto model = MakeModel(13);
  auto* imp = model.add_opset_import();
  imp->set_domain("ai.onnx.ml");
  imp->set_version(ml_opset);
  auto* g = model.mutable_graph();
  AddInput(g, "X", {2, 3});
  *node = AddNode(g, op, "m", {"X"}, outputs);
  (*node)->set_domain("ai.onnx.ml");
  for (const auto& out : outputs) AddOutput(g, out, {2});
  return model;
}

void AddStrings(onnx::NodeProto* n, const std::string& name, std::initializer_list<const char*> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (const char* s : v) a->add_strings(s);
}

void AddString(onnx::NodeProto* n, const std::string& name, const std::string& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

std::string ParseError(const onnx::ModelProto& model) {
  auto result = ParseOnnxBytes(model.SerializeAsString(), ".", "ml.onnx");
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), StatusCode::kParamInvalid);
  return result.status().message();
}

void AddFloats(onnx::NodeProto* n, const std::string& name, std::initializer_list<float> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float f : v) a->add_floats(f);
}

struct Classifier {
  const char* op;
  int64_t opset;
  const char* ints;  // the int64 form of its labels
};

// A classifier with the attributes its prototype needs besides its labels (two classes).
onnx::ModelProto ClassifierModel(const Classifier& c, onnx::NodeProto** node) {
  auto model = MlModel(c.op, c.opset, {"label", "scores"}, node);
  const std::string op = c.op;
  if (op == "LinearClassifier") {
    AddFloats(*node, "coefficients", {1, 2, 3, 4, 5, 6});
    AddFloats(*node, "intercepts", {0, 1});
  } else if (op == "SVMClassifier") {
    AddFloats(*node, "coefficients", {1, 2, 3, 4, 5, 6});
    AddFloats(*node, "rho", {0});
  } else {
    testing::AddIntsAttr(*node, "class_ids", {0, 1});
  }
  return model;
}

class OnnxMlClassifier : public ::testing::TestWithParam<Classifier> {};

TEST_P(OnnxMlClassifier, StringLabelsParseAndMakeTheLabelAString) {
  const Classifier& c = GetParam();
  onnx::NodeProto* node = nullptr;
  auto model = ClassifierModel(c, &node);
  AddStrings(node, "classlabels_strings", {"cat", "dog"});
  auto graph = ParseOnnxBytes(model.SerializeAsString(), ".", "ml.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  NodePtr m = graph.value()->FindNode("m");
  ASSERT_NE(m, nullptr);
  const OpDescPtr op = m->GetOpDesc();
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE(op->Verify().ok()) << op->Verify().ToString();
  ASSERT_TRUE(op->InferShapeAndType().ok()) << op->InferShapeAndType().ToString();
  EXPECT_EQ(op->GetOutputDesc(0).GetDataType(), DT_STRING);
  EXPECT_EQ(op->GetOutputDesc(0).GetShape(), GeShape({2}));
  EXPECT_EQ(op->GetOutputDesc(1).GetDataType(), DT_FLOAT);
  EXPECT_EQ(op->GetOutputDesc(1).GetShape(), GeShape({2, 2}));
}

TEST_P(OnnxMlClassifier, LabelsInBothFormsAreRefusedAtParse) {
  const Classifier& c = GetParam();
  onnx::NodeProto* node = nullptr;
  auto model = ClassifierModel(c, &node);
  AddStrings(node, "classlabels_strings", {"cat", "dog"});
  testing::AddIntsAttr(node, c.ints, {0, 1});
  const std::string msg = ParseError(model);
  ASSERT_FALSE(msg.empty()) << c.op << " with both label forms parsed";
  EXPECT_NE(msg.find("node 'm' (" + std::string(c.op)), std::string::npos) << msg;
  EXPECT_NE(msg.find("both " + std::string(c.ints) + " and classlabels_strings are given"),
            std::string::npos)
      << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST_P(OnnxMlClassifier, LabelsInNeitherFormAreRefusedAtParse) {
  const Classifier& c = GetParam();
  onnx::NodeProto* node = nullptr;
  auto model = ClassifierModel(c, &node);
  const std::string msg = ParseError(model);
  ASSERT_FALSE(msg.empty()) << c.op << " without labels parsed";
  EXPECT_NE(msg.find("node 'm' (" + std::string(c.op)), std::string::npos) << msg;
  EXPECT_NE(msg.find("neither " + std::string(c.ints) + " nor classlabels_strings is given"),
            std::string::npos)
      << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Labels, OnnxMlClassifier,
    ::testing::Values(Classifier{"TreeEnsembleClassifier", 1, "classlabels_int64s"},
                      Classifier{"TreeEnsembleClassifier", 3, "classlabels_int64s"},
                      Classifier{"LinearClassifier", 1, "classlabels_ints"},
                      Classifier{"SVMClassifier", 1, "classlabels_ints"}),
    [](const auto& info) {
      return std::string(info.param.op) + "_ml" + std::to_string(info.param.opset);
    });

TEST(OnnxMl, StringCategoriesParseAndEncodeAStringInput) {
  auto model = MakeModel(13);
  auto* imp = model.add_opset_import();
  imp->set_domain("ai.onnx.ml");
  imp->set_version(1);
  auto* g = model.mutable_graph();
  AddInput(g, "X", {2, 3}, {}, onnx::TensorProto::STRING);
  onnx::NodeProto* node = AddNode(g, "OneHotEncoder", "m", {"X"}, {"Y"});
  node->set_domain("ai.onnx.ml");
  AddOutput(g, "Y", {2, 3, 2});
  AddStrings(node, "cats_strings", {"cat", "dog"});
  testing::AddIntAttr(node, "zeros", 0);
  auto graph = ParseOnnxBytes(model.SerializeAsString(), ".", "ml.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  NodePtr m = graph.value()->FindNode("m");
  ASSERT_NE(m, nullptr);
  const OpDescPtr op = m->GetOpDesc();
  std::vector<std::string> cats;
  ASSERT_TRUE(AttrUtils::GetListStr(op, "cats_strings", cats));
  EXPECT_EQ(cats, (std::vector<std::string>{"cat", "dog"}));
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_STRING)).ok());
  ASSERT_TRUE(op->Verify().ok()) << op->Verify().ToString();
  ASSERT_TRUE(op->InferShapeAndType().ok()) << op->InferShapeAndType().ToString();
  EXPECT_EQ(op->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(op->GetOutputDesc(0).GetShape(), GeShape({2, 3, 2}));
}

TEST(OnnxMl, ALinearClassifierWithOneInterceptNeedsNoLabels) {
  onnx::NodeProto* node = nullptr;
  auto model = MlModel("LinearClassifier", 1, {"label", "scores"}, &node);
  AddFloats(node, "coefficients", {1, 2, 3});
  AddFloats(node, "intercepts", {0});
  EXPECT_EQ(ParseError(model), "");
}

TEST(OnnxMl, UnknownPostTransformIsRefusedAtParse) {
  onnx::NodeProto* node = nullptr;
  auto model = MlModel("TreeEnsembleRegressor", 3, {"Y"}, &node);
  AddString(node, "post_transform", "SQUASH");
  const std::string msg = ParseError(model);
  EXPECT_NE(msg.find("node 'm' (TreeEnsembleRegressor"), std::string::npos) << msg;
  EXPECT_NE(msg.find("post_transform 'SQUASH' is none of NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, "
                     "PROBIT"),
            std::string::npos)
      << msg;
}

TEST(OnnxMl, Int64LabelsParse) {
  onnx::NodeProto* node = nullptr;
  auto model = MlModel("TreeEnsembleClassifier", 1, {"label", "scores"}, &node);
  testing::AddIntsAttr(node, "classlabels_int64s", {0, 1});
  EXPECT_EQ(ParseError(model), "");
}

}  // namespace
}  // namespace ge

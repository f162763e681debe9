// ONNX parser, ai.onnx.ml: what the runtime cannot hold yet (string labels and categories) and
// an unknown post_transform are refused at parse, in one line naming the node, its operator and
// the cause. The operators' numbers are checked by the idiom cases
// (tests/conformance/ml_idiom_cases.py).
#include <gtest/gtest.h>

#include <string>

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

struct StringForm {
  const char* op;
  int64_t opset;
  const char* attr;
};

class OnnxMlStrings : public ::testing::TestWithParam<StringForm> {};

TEST_P(OnnxMlStrings, AreRefusedAtParseNamingTheNode) {
  const StringForm& form = GetParam();
  onnx::NodeProto* node = nullptr;
  auto model = std::string(form.op) == "OneHotEncoder"
                   ? MlModel(form.op, form.opset, {"Y"}, &node)
                   : MlModel(form.op, form.opset, {"label", "scores"}, &node);
  AddStrings(node, form.attr, {"cat", "dog"});
  const std::string msg = ParseError(model);
  ASSERT_FALSE(msg.empty()) << form.op << " with " << form.attr << " parsed";
  EXPECT_NE(msg.find("node 'm' (" + std::string(form.op)), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::string(form.attr) +
                     " is given: string labels are not supported yet (only their int64 form)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Refused, OnnxMlStrings,
    ::testing::Values(StringForm{"TreeEnsembleClassifier", 1, "classlabels_strings"},
                      StringForm{"TreeEnsembleClassifier", 3, "classlabels_strings"},
                      StringForm{"LinearClassifier", 1, "classlabels_strings"},
                      StringForm{"SVMClassifier", 1, "classlabels_strings"},
                      StringForm{"OneHotEncoder", 1, "cats_strings"}),
    [](const auto& info) {
      return std::string(info.param.op) + "_ml" + std::to_string(info.param.opset);
    });

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

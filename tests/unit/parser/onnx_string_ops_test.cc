// ONNX parser, the operators over strings: their rows map them to their prototypes with their
// string-list and tensor attributes intact, and LabelEncoder of ai.onnx.ml 1 becomes the
// CategoryMapper of its classes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddInput;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;

void AddStrings(onnx::NodeProto* n, const std::string& name, std::vector<std::string> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (const std::string& s : v) a->add_strings(s);
}

onnx::TensorProto* AddTensorAttr(onnx::NodeProto* n, const std::string& name, int32_t type) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(type);
  return a->mutable_t();
}

// A model of one ai.onnx.ml node `op` named "m": X of `in_type` [3] → Y of `out_type` [3].
onnx::ModelProto MlModel(const std::string& op, int64_t ml_opset, int32_t in_type, int32_t out_type,
                         onnx::NodeProto** node) {
  auto model = MakeModel(13);
  auto* imp = model.add_opset_import();
  imp->set_domain("ai.onnx.ml");
  imp->set_version(ml_opset);
  auto* g = model.mutable_graph();
  AddInput(g, "X", {3}, {}, in_type);
  *node = AddNode(g, op, "m", {"X"}, {"Y"});
  (*node)->set_domain("ai.onnx.ml");
  AddOutput(g, "Y", {3}, out_type);
  return model;
}

OpDescPtr ParsedNode(const onnx::ModelProto& model) {
  auto graph = ParseOnnxBytes(model.SerializeAsString(), ".", "strings.onnx");
  EXPECT_TRUE(graph.ok()) << graph.status().ToString();
  if (!graph.ok()) return nullptr;
  NodePtr node = graph.value()->FindNode("m");
  EXPECT_NE(node, nullptr);
  return node == nullptr ? nullptr : node->GetOpDesc();
}

TEST(OnnxStringOps, LabelEncoderOneIsTheCategoryMapperOfItsClasses) {
  onnx::NodeProto* node = nullptr;
  auto model =
      MlModel("LabelEncoder", 1, onnx::TensorProto::STRING, onnx::TensorProto::INT64, &node);
  AddStrings(node, "classes_strings", {"a", "b", "c"});
  testing::AddIntAttr(node, "default_int64", 7);
  OpDescPtr op = ParsedNode(model);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->GetType(), "CategoryMapper");
  std::vector<std::string> cats;
  ASSERT_TRUE(AttrUtils::GetListStr(op, "cats_strings", cats));
  EXPECT_EQ(cats, (std::vector<std::string>{"a", "b", "c"}));
  std::vector<int64_t> ints;
  ASSERT_TRUE(AttrUtils::GetListInt(op, "cats_int64s", ints));
  EXPECT_EQ(ints, (std::vector<int64_t>{0, 1, 2}));
  int64_t fallback = 0;
  ASSERT_TRUE(AttrUtils::GetInt(op, "default_int64", fallback));
  EXPECT_EQ(fallback, 7);
  EXPECT_FALSE(op->HasAttr("classes_strings"));
}

TEST(OnnxStringOps, LabelEncoderKeepsItsTensorAttributes) {
  onnx::NodeProto* node = nullptr;
  auto model =
      MlModel("LabelEncoder", 4, onnx::TensorProto::STRING, onnx::TensorProto::INT16, &node);
  onnx::TensorProto* keys = AddTensorAttr(node, "keys_tensor", onnx::TensorProto::STRING);
  keys->add_dims(2);
  keys->add_string_data("a");
  keys->add_string_data("b");
  onnx::TensorProto* values = AddTensorAttr(node, "values_tensor", onnx::TensorProto::INT16);
  values->add_dims(2);
  values->add_int32_data(5);
  values->add_int32_data(6);
  OpDescPtr op = ParsedNode(model);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->GetType(), "LabelEncoder");
  const auto* key_tensor = AttrUtils::GetPtr<GeTensor>(op, "keys_tensor");
  ASSERT_NE(key_tensor, nullptr);
  auto strings = StringsOf(*key_tensor, "keys_tensor");
  ASSERT_TRUE(strings.ok()) << strings.status().ToString();
  EXPECT_EQ(strings.value(), (std::vector<std::string_view>{"a", "b"}));
  const auto* value_tensor = AttrUtils::GetPtr<GeTensor>(op, "values_tensor");
  ASSERT_NE(value_tensor, nullptr);
  EXPECT_EQ(value_tensor->GetTensorDesc().GetDataType(), DT_INT16);
}

TEST(OnnxStringOps, StringOperatorsMapToTheirPrototypes) {
  auto model = MakeModel(20);
  auto* g = model.mutable_graph();
  AddInput(g, "X", {2}, {}, onnx::TensorProto::STRING);
  onnx::NodeProto* split = AddNode(g, "StringSplit", "m", {"X"}, {"Y", "Z"});
  auto* delimiter = split->add_attribute();
  delimiter->set_name("delimiter");
  delimiter->set_type(onnx::AttributeProto::STRING);
  delimiter->set_s(",");
  onnx::NodeProto* norm = AddNode(g, "StringNormalizer", "n", {"X"}, {"W"});
  AddStrings(norm, "stopwords", {"monday", "tuesday"});
  AddOutput(g, "Y", {2, 2}, onnx::TensorProto::STRING);
  AddOutput(g, "Z", {2}, onnx::TensorProto::INT64);
  AddOutput(g, "W", {2}, onnx::TensorProto::STRING);
  auto graph = ParseOnnxBytes(model.SerializeAsString(), ".", "strings.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  NodePtr m = graph.value()->FindNode("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->GetType(), "StringSplit");
  EXPECT_EQ(m->GetOpDesc()->GetOutputsSize(), 2U);
  NodePtr n = graph.value()->FindNode("n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->GetType(), "StringNormalizer");
  std::vector<std::string> stopwords;
  ASSERT_TRUE(AttrUtils::GetListStr(n->GetOpDesc(), "stopwords", stopwords));
  EXPECT_EQ(stopwords, (std::vector<std::string>{"monday", "tuesday"}));
}

}  // namespace
}  // namespace ge

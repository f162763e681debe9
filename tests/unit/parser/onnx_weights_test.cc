// ONNX parser: large weights are left in the mapped file (or copied once) and come out with the
// right bytes wherever they are held (initializers, Constant values, bodies, external files);
// the walk that finds them reports damage inside nested messages.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddGraphAttr;
using testing::AddInitializer;
using testing::AddInput;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;
using testing::TempDir;

constexpr int64_t kLarge = 1000;  // 4000 bytes of raw data: left in the file

// The float values a node's Const tensor holds.
std::vector<float> ConstFloats(const ComputeGraph& graph, const std::string& name) {
  NodePtr node = graph.FindNode(name);
  if (node == nullptr) {
    ADD_FAILURE() << "no node " << name;
    return {};
  }
  auto value = OpDescUtils::GetConstValue(*node);
  if (!value.ok()) {
    ADD_FAILURE() << value.status().message();
    return {};
  }
  std::vector<float> out(value->GetSize() / sizeof(float));
  std::memcpy(out.data(), value->GetData().data(), out.size() * sizeof(float));
  return out;
}

std::vector<float> Iota(int64_t count, float start = 0.0F) {
  std::vector<float> v(static_cast<size_t>(count));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  return v;
}

// y = Add(x, w) with a large w, and a large Constant c added after.
onnx::ModelProto LargeModel() {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {kLarge});
  AddInitializer(g, "w", {kLarge});
  auto* c = AddNode(g, "Constant", "c", {}, {"cv"});
  auto* attr = c->add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  auto* t = attr->mutable_t();
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(kLarge);
  std::vector<float> values = Iota(kLarge, 0.5F);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  AddNode(g, "Add", "add", {"x", "w"}, {"s"});
  AddNode(g, "Add", "add2", {"s", "cv"}, {"y"});
  AddOutput(g, "y", {kLarge});
  return model;
}

TEST(OnnxWeights, LargeInitializerAndConstantFromAFileKeepTheirBytes) {
  TempDir dir("large");
  auto result = ParseOnnxFile(dir.WriteModel("large.onnx", LargeModel()));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(ConstFloats(**result, "w"), Iota(kLarge));
  EXPECT_EQ(ConstFloats(**result, "c"), Iota(kLarge, 0.5F));
}

TEST(OnnxWeights, LargeWeightsFromBytesAreCopiedOutOfTheCallersBuffer) {
  std::string bytes = LargeModel().SerializeAsString();
  auto result = ParseOnnxBytes(bytes, ".", "large.onnx");
  ASSERT_TRUE(result.ok()) << result.status().message();
  // The graph owns its weights: overwriting the caller's bytes changes nothing.
  std::fill(bytes.begin(), bytes.end(), '\x7f');
  EXPECT_EQ(ConstFloats(**result, "w"), Iota(kLarge));
  EXPECT_EQ(ConstFloats(**result, "c"), Iota(kLarge, 0.5F));
}

TEST(OnnxWeights, WeightsOutliveTheFile) {
  TempDir dir("gone");
  const std::string path = dir.WriteModel("gone.onnx", LargeModel());
  auto result = ParseOnnxFile(path);
  ASSERT_TRUE(result.ok()) << result.status().message();
  std::filesystem::remove(path);  // a mapping outlives its name
  EXPECT_EQ(ConstFloats(**result, "w"), Iota(kLarge));
}

TEST(OnnxWeights, InitializerOfABodyIsFound) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "cond", {}, {}, onnx::TensorProto::BOOL);
  AddInput(g, "a", {kLarge});
  auto* if_node = AddNode(g, "If", "if", {"cond"}, {"y"});
  auto* then_g = AddGraphAttr(if_node, "then_branch");
  AddInitializer(then_g, "bw", {kLarge});
  AddNode(then_g, "Add", "then_add", {"a", "bw"}, {"t"});
  AddOutput(then_g, "t", {kLarge});
  auto* else_g = AddGraphAttr(if_node, "else_branch");
  AddNode(else_g, "Relu", "else_relu", {"a"}, {"e"});
  AddOutput(else_g, "e", {kLarge});
  AddOutput(g, "y", {kLarge});
  TempDir dir("body");
  auto result = ParseOnnxFile(dir.WriteModel("body.onnx", model));
  ASSERT_TRUE(result.ok()) << result.status().message();
  auto subgraphs = NodeUtils::GetSubgraphs(*(*result)->FindNode("if"));
  ASSERT_EQ(subgraphs.size(), 2U);
  EXPECT_EQ(ConstFloats(*subgraphs[0], "bw"), Iota(kLarge));
}

// Raw data of 16 bytes looks like the reader's marker; it must still read as itself, since a
// file cannot know the marker of a parse.
TEST(OnnxWeights, SixteenByteRawDataIsItsOwnValue) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  auto* w = AddInitializer(g, "w", {4});
  const float values[4] = {7.0F, 8.0F, 9.0F, 10.0F};
  w->set_raw_data(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  AddNode(g, "Add", "add", {"x", "w"}, {"y"});
  AddOutput(g, "y", {4});
  TempDir dir("sixteen");
  auto result = ParseOnnxFile(dir.WriteModel("sixteen.onnx", model));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(ConstFloats(**result, "w"), (std::vector<float>{7.0F, 8.0F, 9.0F, 10.0F}));
}

TEST(OnnxWeights, LargeRawDataOfTheWrongSizeIsAnError) {
  auto model = LargeModel();
  auto* w = model.mutable_graph()->mutable_initializer(0);
  w->set_raw_data(std::string(4 * (kLarge - 1), '\0'));
  TempDir dir("size");
  auto result = ParseOnnxFile(dir.WriteModel("size.onnx", model));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("initializer 'w': raw data has 3996 bytes but shape "
                                           "[1000] of DT_FLOAT needs 4000"),
            std::string::npos)
      << result.status().message();
}

// A graph field (7) whose length runs past the file: cut short inside the weights.
TEST(OnnxWeights, FileCutInsideAWeightIsTruncated) {
  const std::string bytes = LargeModel().SerializeAsString();
  TempDir dir("cut");
  auto result = ParseOnnxFile(dir.Write("cut.onnx", bytes.substr(0, bytes.size() - 100)));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("cut.onnx: the model is truncated: a field at byte"),
            std::string::npos)
      << result.status().message();
}

// An initializer whose raw data claims more bytes than the initializer holds, though the file
// has them: corrupt, and the error says where.
TEST(OnnxWeights, NestedFieldPastItsMessageIsCorrupt) {
  onnx::ModelProto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {kLarge});
  AddInitializer(g, "w", {kLarge});
  AddNode(g, "Add", "add", {"x", "w"}, {"y"});
  AddOutput(g, "y", {kLarge});
  std::string bytes = model.SerializeAsString();
  // The raw data's length prefix: tag 0x4A (field 9, length-delimited), then varint 4000 (a0 1f).
  const std::string prefix("\x4a\xa0\x1f", 3);
  const size_t at = bytes.find(prefix);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 2] = '\x20';  // 4000 -> 4000 + 128 * 1 (0x20 instead of 0x1f): 4128
  TempDir dir("corrupt");
  auto result = ParseOnnxFile(dir.Write("corrupt.onnx", bytes));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("corrupt.onnx: not an ONNX model: the field at byte " +
                                           std::to_string(at)),
            std::string::npos)
      << result.status().message();
  EXPECT_NE(result.status().message().find("runs past the end of the message that holds it"),
            std::string::npos);
}

TEST(OnnxWeights, BodiesNestedTooDeepAreRefused) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "cond", {}, {}, onnx::TensorProto::BOOL);
  onnx::GraphProto* level = g;
  for (int i = 0; i < 40; ++i) {  // three messages per level: node, attribute, graph
    auto* node = AddNode(level, "If", "if" + std::to_string(i), {"cond"}, {"y"});
    level = AddGraphAttr(node, "then_branch");
  }
  TempDir dir("deep");
  auto result = ParseOnnxFile(dir.WriteModel("deep.onnx", model));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("node 'if32' (If), graph attribute 'then_branch' at "
                                           "byte 1358: the graph is nested 33 levels deep"),
            std::string::npos)
      << result.status().message();
}

TEST(OnnxWeights, LargeExternalDataIsReadFromItsFile) {
  TempDir dir("extlarge");
  const std::vector<float> values = Iota(kLarge, 3.0F);
  std::string data(100, '\0');  // the tensor starts at an offset that is no multiple of 64
  data.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  data.append(60, '\0');  // and a second one at 4160, a multiple of 64, shared in place
  data.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  dir.Write("weights.bin", data);
  auto model = LargeModel();
  auto* g = model.mutable_graph();
  auto external = [&](onnx::TensorProto* t, int64_t offset) {
    t->clear_raw_data();
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"location", "weights.bin"},
                               {"offset", std::to_string(offset)},
                               {"length", std::to_string(kLarge * 4)}}) {
      auto* e = t->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
  };
  external(g->mutable_initializer(0), 100);
  external(g->mutable_node(0)->mutable_attribute(0)->mutable_t(), 4160);
  auto result = ParseOnnxFile(dir.WriteModel("ext.onnx", model));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(ConstFloats(**result, "w"), values);
  EXPECT_EQ(ConstFloats(**result, "c"), values);
  // The copy names where its bytes lie in the file, so a holder may drop it and copy it again.
  auto copied = OpDescUtils::GetConstValue(*(*result)->FindNode("w"));
  auto shared = OpDescUtils::GetConstValue(*(*result)->FindNode("c"));
  ASSERT_TRUE(copied.ok() && shared.ok());
  EXPECT_FALSE(copied->IsFileMapped());
  ASSERT_NE(copied->FileSource(), nullptr);
  EXPECT_EQ(std::memcmp(copied->FileSource().get(), values.data(), kLarge * 4), 0);
  EXPECT_TRUE(shared->IsFileMapped());
  EXPECT_EQ(shared->FileSource(), nullptr);
}

}  // namespace
}  // namespace ge

// Reading GE's format: a ModelDef written by hand from ge_ir.proto's field table
// (tests/data/ge_fixture_handwritten.pbtxt) loads, as text and as binary made from it by protobuf
// alone, with every field landing where GE puts it.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge_ir.pb.h"
#include "serialize_test_util.h"

namespace ge {
namespace {

using serialize_test::ReadTestData;
using serialize_test::SameGraph;

constexpr char kFixture[] = "ge_fixture_handwritten.pbtxt";

std::string InputPeer(const NodePtr& node, int index) {
  auto peer = node->GetInDataAnchor(index)->GetPeerOutAnchor();
  return peer == nullptr ? ""
                         : peer->GetOwnerNode()->GetName() + ":" + std::to_string(peer->GetIdx());
}

void ExpectData(const ComputeGraph& graph) {
  NodePtr data = graph.FindNode("data");
  ASSERT_NE(data, nullptr);
  const GeTensorDesc& y = data->GetOpDescBarePtr()->GetOutputDesc(0);
  EXPECT_EQ(y.GetName(), "y");
  EXPECT_EQ(y.GetDataType(), DT_FLOAT);
  EXPECT_EQ(y.GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(y.GetShape().GetDims(), (std::vector<int64_t>{1, 3, 2, 2}));
  EXPECT_EQ(y.GetOriginFormat(), FORMAT_NHWC);
  EXPECT_EQ(y.GetOriginDataType(), DT_FLOAT16);
  EXPECT_TRUE(y.IsOriginShapeInitialized());
  EXPECT_EQ(y.GetOriginShape().GetDims(), (std::vector<int64_t>{1, 2, 2, 3}));
  EXPECT_TRUE(y.GetAttrMap().Empty()) << "origin attrs are fields, not attributes";
  EXPECT_EQ(data->GetOpDescBarePtr()->GetInputDesc(0).GetName(), "x");

  Result<GeTensor> weight = OpDescUtils::GetConstValue(*graph.FindNode("const"));
  ASSERT_TRUE(weight.ok()) << weight.status().ToString();
  ASSERT_EQ(weight->GetSize(), 12u);
  const auto* floats = reinterpret_cast<const float*>(weight->GetData().data());
  EXPECT_EQ(floats[0], 1.0f);
  EXPECT_EQ(floats[1], 2.0f);
  EXPECT_EQ(floats[2], 3.0f);
  const GeTensorDesc& const_out = graph.FindNode("const")->GetOpDescBarePtr()->GetOutputDesc(0);
  EXPECT_EQ(const_out.GetSize(), 12);
  EXPECT_EQ(const_out.GetWeightSize(), 12);
  EXPECT_EQ(const_out.GetRealDimCnt(), 1u);
}

void ExpectAddAttrs(const OpDesc& add) {
  int64_t i = 0;
  EXPECT_TRUE(AttrUtils::GetInt(add, "an_int", i));
  EXPECT_EQ(i, -7);
  float f = 0;
  EXPECT_TRUE(AttrUtils::GetFloat(add, "a_float", f));
  EXPECT_EQ(f, 0.5f);
  bool b = false;
  EXPECT_TRUE(AttrUtils::GetBool(add, "a_bool", b));
  EXPECT_TRUE(b);
  std::string s;
  EXPECT_TRUE(AttrUtils::GetStr(add, "a_string", s));
  EXPECT_EQ(s, "hello");
  Buffer bytes;
  EXPECT_TRUE(AttrUtils::GetBytes(add, "some_bytes", bytes));
  EXPECT_EQ(bytes.data, (std::vector<uint8_t>{1, 2, 255}));
  DataType dt = DT_UNDEFINED;
  EXPECT_TRUE(AttrUtils::GetDataType(add, "a_dtype", dt));
  EXPECT_EQ(dt, DT_INT64) << "AttrDef.dt carries the C++ number";
  std::vector<int64_t> ints;
  EXPECT_TRUE(AttrUtils::GetListInt(add, "ints", ints));
  EXPECT_EQ(ints, (std::vector<int64_t>{1, 2, 3}));
  std::vector<std::string> strings = {"x"};
  EXPECT_TRUE(AttrUtils::GetListStr(add, "no_strings", strings)) << "empty list keeps its type";
  EXPECT_TRUE(strings.empty());
  std::vector<DataType> dtypes;
  EXPECT_TRUE(AttrUtils::GetListDataType(add, "dtypes", dtypes));
  EXPECT_EQ(dtypes, (std::vector<DataType>{DT_FLOAT, DT_BF16}));
  std::vector<std::vector<int64_t>> int_lists;
  EXPECT_TRUE(AttrUtils::GetListListInt(add, "int_lists", int_lists));
  EXPECT_EQ(int_lists, (std::vector<std::vector<int64_t>>{{1, 2}, {}, {3}}));
  std::vector<std::vector<float>> float_lists;
  EXPECT_TRUE(AttrUtils::GetListListFloat(add, "float_lists", float_lists));
  EXPECT_EQ(float_lists, (std::vector<std::vector<float>>{{1.5f}, {2.0f, 2.5f}}));
  NamedAttrs fn;
  EXPECT_TRUE(AttrUtils::GetNamedAttrs(add, "fn", fn));
  EXPECT_EQ(fn.GetName(), "activation");
  EXPECT_TRUE(AttrUtils::GetFloat(fn, "alpha", f));
  EXPECT_EQ(f, 0.25f);
  EXPECT_TRUE(AttrUtils::GetStr(add, "shape_expr", s)) << "expression reads as a string";
  EXPECT_EQ(s, "s0 * 2");
  GeTensorDesc desc;
  EXPECT_TRUE(AttrUtils::GetTensorDesc(add, "a_desc", desc));
  EXPECT_EQ(desc.GetDataType(), DT_INT64) << "proto DT_INT64 (8) is C++ DT_INT64 (9)";
  EXPECT_EQ(desc.GetShape().GetDims(), (std::vector<int64_t>{4}));
  for (const char* reserved : {"_input_name_key", "_input_name_value", "_opt_input"}) {
    EXPECT_FALSE(add.HasAttr(reserved)) << reserved;
  }
}

void ExpectAdd(const ComputeGraph& graph) {
  NodePtr add = graph.FindNode("add");
  ASSERT_NE(add, nullptr);
  const OpDesc& op = *add->GetOpDescBarePtr();
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"x1", "x2", "bias"}));
  EXPECT_TRUE(op.IsOptionalInput("bias"));
  EXPECT_FALSE(op.IsOptionalInput("x1"));
  EXPECT_EQ(op.GetAllOutputNames(), (std::vector<std::string>{"__output0"}));
  EXPECT_EQ(InputPeer(add, 0), "data:0");
  EXPECT_EQ(InputPeer(add, 1), "const:0");
  EXPECT_EQ(InputPeer(add, 2), "");
  ASSERT_EQ(add->GetInControlNodes().size(), 1u);
  EXPECT_EQ(add->GetInControlNodes()[0]->GetName(), "const");
  EXPECT_EQ(op.GetInputDesc(2).GetDataType(), DT_UNDEFINED);

  EXPECT_EQ(op.GetId(), 2);
  EXPECT_EQ(op.GetStreamId(), 1);
  EXPECT_EQ(op.GetInputName(), (std::vector<std::string>{"data", "const"}));
  EXPECT_EQ(op.GetInputOffset(), (std::vector<int64_t>{0, 64}));
  EXPECT_EQ(op.GetOutputOffset(), (std::vector<int64_t>{128}));
  EXPECT_EQ(op.GetWorkspace(), (std::vector<int64_t>{256}));
  EXPECT_EQ(op.GetWorkspaceBytes(), (std::vector<int64_t>{32}));
  EXPECT_EQ(op.GetIsInputConst(), (std::vector<bool>{false, true}));

  const GeTensorDesc& y = op.GetOutputDesc(0);
  EXPECT_EQ(y.GetDataType(), DT_INT64);
  EXPECT_EQ(y.GetFormat(), TypeUtils::GetFormatFromSub(FORMAT_FRACTAL_Z, 4));
  EXPECT_EQ(y.GetDeviceType(), CPU);
  EXPECT_TRUE(y.GetReuseInput());
  EXPECT_EQ(y.GetReuseInputIndex(), 1u);
  EXPECT_EQ(y.GetDataOffset(), 512);
  EXPECT_TRUE(y.GetOutputTensor());
  ExpectAddAttrs(op);
}

void ExpectFixture(const ComputeGraph& graph) {
  EXPECT_TRUE(GraphVerifier::Verify(graph).ok()) << GraphVerifier::Verify(graph).ToString();
  EXPECT_EQ(graph.GetName(), "main");
  std::vector<std::string> names;
  for (const auto& node : graph.GetDirectNode()) names.push_back(node->GetName());
  EXPECT_EQ(names, (std::vector<std::string>{"data", "const", "add", "if"}));
  ASSERT_EQ(graph.GetInputNodes().size(), 1u);
  EXPECT_EQ(graph.GetInputNodes()[0]->GetName(), "data");
  ASSERT_EQ(graph.GetGraphOutNodesInfo().size(), 2u);
  EXPECT_EQ(graph.GetGraphOutNodesInfo()[1].first->GetName(), "if");
  int64_t level = 0;
  EXPECT_TRUE(AttrUtils::GetInt(graph, "graph_level", level));
  EXPECT_EQ(level, 3);
  ExpectData(graph);
  ExpectAdd(graph);

  NodePtr if_node = graph.FindNode("if");
  ASSERT_NE(if_node, nullptr);
  ComputeGraphPtr then_g = graph.GetSubgraph("then_g");
  ASSERT_NE(then_g, nullptr);
  EXPECT_EQ(then_g->GetParentNode(), if_node);
  EXPECT_EQ(then_g->GetParentGraph().get(), &graph);
  EXPECT_EQ(InputPeer(then_g->FindNode("neg"), 0), "arg:0");
  ComputeGraphPtr in_attr;
  EXPECT_TRUE(AttrUtils::GetGraph(if_node->GetOpDesc(), "branches", in_attr));
  ASSERT_NE(in_attr, nullptr);
  EXPECT_EQ(in_attr->GetName(), "branch_in_attr");
  EXPECT_EQ(in_attr->GetDirectNodesSize(), 1u);
}

TEST(GeFixture, HandwrittenTextLoads) {
  Result<ComputeGraphPtr> graph =
      ModelSerialize::Deserialize(ReadTestData(kFixture), SerializeFormat::kText);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ExpectFixture(*graph.value());
}

TEST(GeFixture, BinaryMadeByProtobufFromTheTextLoads) {
  proto::ModelDef model;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadTestData(kFixture), &model));
  Result<ComputeGraphPtr> graph = ModelSerialize::Deserialize(model.SerializeAsString());
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ExpectFixture(*graph.value());
}

TEST(GeFixture, LoadFromFileReadsTextByExtension) {
  Result<ComputeGraphPtr> graph =
      ModelSerialize::LoadFromFile(std::string(GE_TEST_DATA_DIR) + "/" + kFixture);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ExpectFixture(*graph.value());
}

TEST(GeFixture, WhatWeReadWeWriteBackExactly) {
  Result<ComputeGraphPtr> graph =
      ModelSerialize::Deserialize(ReadTestData(kFixture), SerializeFormat::kText);
  ASSERT_TRUE(graph.ok());
  ComputeGraphPtr again = serialize_test::RoundTrip(*graph.value(), SerializeFormat::kText);
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(SameGraph(*graph.value(), *again));
}

TEST(GeFixture, OurFilesUseGeFieldNames) {
  Result<ComputeGraphPtr> graph =
      ModelSerialize::Deserialize(ReadTestData(kFixture), SerializeFormat::kText);
  ASSERT_TRUE(graph.ok());
  Result<std::string> text = ModelSerialize::Serialize(*graph.value(), SerializeFormat::kText);
  ASSERT_TRUE(text.ok());
  for (const char* field :
       {"graph {", "op {", "input_desc {", "output_desc {", "layout: \"NCHW\"", "dtype: DT_INT64",
        "subgraph_name: \"then_g\"", "stream_id: 1", "input_i: 64", "key: \"origin_format\"",
        "device_type: \"CPU\"", "list_list_int {", "val_type: VT_LIST_STRING", "dt: 9"}) {
    EXPECT_NE(text->find(field), std::string::npos) << field;
  }
  // The binary encoding protobuf itself reads back as the same ModelDef.
  Result<std::string> bytes = ModelSerialize::Serialize(*graph.value());
  ASSERT_TRUE(bytes.ok());
  proto::ModelDef model;
  ASSERT_TRUE(model.ParseFromString(bytes.value()));
  ASSERT_EQ(model.graph_size(), 2);
  EXPECT_EQ(model.graph(0).op(2).input(3), "const:-1");
  EXPECT_EQ(model.graph(1).name(), "then_g");
}

}  // namespace
}  // namespace ge

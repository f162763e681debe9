// Tests of GE Local's CalcOpRunningParam: one test per special case, through the loaded plugin.
#include <gtest/gtest.h>

#include "engine_test_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CalcOpRunningParam : public GeLocalTest {
 protected:
  // Runs CalcOpRunningParam on a node with `outputs` (and one input shaped like output 0).
  Result<NodePtr> Calc(const std::string& type, const std::vector<GeTensorDesc>& outputs,
                       bool with_input = true) {
    std::vector<GeTensorDesc> inputs;
    if (with_input && !outputs.empty()) inputs.push_back(outputs[0]);
    NodePtr node =
        Must(graph_builder_.AddNode("n" + std::to_string(count_++), type, inputs, outputs));
    GE_RETURN_IF_ERROR(builder()->CalcOpRunningParam(*node));
    return node;
  }
  static int64_t SizeOf(const NodePtr& node, uint32_t index = 0) {
    return node->GetOpDesc()->GetOutputDesc(index).GetSize();
  }

  int count_ = 0;
};

TEST_F(CalcOpRunningParam, PlainOutputsGetTheirUnpaddedSize) {
  auto node = Calc("Reshape", {GraphBuilder::Desc({2, 3}), GraphBuilder::Desc({5}, DT_FLOAT16)});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(SizeOf(*node, 0), 24);
  EXPECT_EQ(SizeOf(*node, 1), 10);
}

TEST_F(CalcOpRunningParam, AnOutputThatAlreadyHasASizeKeepsIt) {
  GeTensorDesc sized = GraphBuilder::Desc({4, 5, 6, 7});
  sized.SetSize(3360 + 7);
  auto node = Calc("NoOp", {sized});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(SizeOf(*node), 3367);
}

TEST_F(CalcOpRunningParam, DataOutputsGetTheAutoPaddedSize) {
  // ((size + 32 + 32 - 1) / 32) * 32, and 32 for an empty tensor.
  auto data = Calc("Data", {GraphBuilder::Desc({1, 3})}, /*with_input=*/false);
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  EXPECT_EQ(SizeOf(*data), 64);  // 12 bytes
  auto aligned = Calc("Data", {GraphBuilder::Desc({8})}, false);
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(SizeOf(*aligned), 64);  // 32 bytes
  auto big = Calc("RefData", {GraphBuilder::Desc({100})}, false);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(SizeOf(*big), 448);  // 400 bytes
  auto empty = Calc("AippData", {GraphBuilder::Desc({0, 3})}, false);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(SizeOf(*empty), 32);
}

TEST_F(CalcOpRunningParam, AStringConstIsSizedByItsValue) {
  auto op_desc = std::make_shared<OpDesc>("str", "Const");
  ASSERT_TRUE(op_desc->AddOutputDesc(GraphBuilder::Desc({2}, DT_STRING)).ok());
  std::vector<uint8_t> bytes(40, 'a');
  ASSERT_TRUE(
      AttrUtils::SetTensor(op_desc, "value", GeTensor(GraphBuilder::Desc({2}, DT_STRING), bytes)));
  // A size set earlier does not count for DT_STRING.
  op_desc->MutableOutputDesc(0)->SetSize(999);
  NodePtr node = *graph_->AddNode(op_desc);
  Status status = builder()->CalcOpRunningParam(*node);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(SizeOf(node), 40);
}

TEST_F(CalcOpRunningParam, AStringConstWithoutValueIsRefused) {
  auto node = Calc("Constant", {GraphBuilder::Desc({2}, DT_STRING)}, false);
  ASSERT_FALSE(node.ok());
  EXPECT_TRUE(Contains(node.status().message(), "node 'n0' (type Constant): output 0 is DT_STRING"))
      << node.status().message();
  EXPECT_TRUE(Contains(node.status().message(), "`value`")) << node.status().message();
}

TEST_F(CalcOpRunningParam, ANonStringConstIsSizedByItsShape) {
  auto node = Calc("Const", {GraphBuilder::Desc({3, 3})}, false);
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(SizeOf(*node), 36);
}

TEST_F(CalcOpRunningParam, AFileConstantIsSizedByItsLengthAttribute) {
  auto op_desc = std::make_shared<OpDesc>("file", "FileConstant");
  ASSERT_TRUE(op_desc->AddOutputDesc(GraphBuilder::Desc({4, 4})).ok());
  AttrUtils::SetInt(op_desc, "length", 1000);
  NodePtr node = *graph_->AddNode(op_desc);
  ASSERT_TRUE(builder()->CalcOpRunningParam(*node).ok());
  EXPECT_EQ(SizeOf(node), 1000);
}

TEST_F(CalcOpRunningParam, AFileConstantWithoutLengthIsRefused) {
  auto node = Calc("FileConstant", {GraphBuilder::Desc({4})}, false);
  ASSERT_FALSE(node.ok());
  EXPECT_TRUE(Contains(node.status().message(), "(type FileConstant): attribute `length`"))
      << node.status().message();
}

TEST_F(CalcOpRunningParam, PhonyConcatOutputIsAlignedTo32AndPadded) {
  // [4,2,2,4,8] float16 = 1024 bytes -> 1056. The inputs make a valid concat (see the offset
  // tests).
  const GeTensorDesc piece = GraphBuilder::Desc({1, 2, 2, 4, 8}, DT_FLOAT16);
  NodePtr concat =
      Must(graph_builder_.AddNode("concat", "PhonyConcat", {piece, piece, piece, piece},
                                  {GraphBuilder::Desc({4, 2, 2, 4, 8}, DT_FLOAT16)}));
  for (int i = 0; i < 4; ++i) {
    NodePtr producer = Must(graph_builder_.AddNode("p" + std::to_string(i), "Mul", {}, {piece}));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(producer, concat, i)));
  }
  AttrUtils::SetListInt(concat->GetOpDesc(), "concat_dim", std::vector<int64_t>{0});
  AttrUtils::SetListInt(concat->GetOpDesc(), "N", std::vector<int64_t>{4});
  Status status = builder()->CalcOpRunningParam(*concat);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(SizeOf(concat), 1056);
}

TEST_F(CalcOpRunningParam, PartitionedCallOutputIsAlignedTo32AndPadded) {
  auto node = Calc("PartitionedCall", {GraphBuilder::Desc({4, 50, 50, 8}),
                                       GraphBuilder::Desc({3}, DT_INT8), GraphBuilder::Desc({0})});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(SizeOf(*node, 0), 320032);
  EXPECT_EQ(SizeOf(*node, 1), 64);  // 3 -> 32 + 32
  EXPECT_EQ(SizeOf(*node, 2), 32);  // 0 -> 32
}

TEST_F(CalcOpRunningParam, UnknownShapeNodesAreSkipped) {
  auto unknown_output = Calc("Reshape", {GraphBuilder::Desc({-1, 3})}, false);
  ASSERT_TRUE(unknown_output.ok()) << unknown_output.status().ToString();
  EXPECT_EQ(SizeOf(*unknown_output), 0);
  // An unknown input is enough, even with a known output; and an unknown rank counts too.
  NodePtr node = Must(graph_builder_.AddNode("partly", "Squeeze", {GraphBuilder::Desc({-2})},
                                             {GraphBuilder::Desc({3})}));
  ASSERT_TRUE(builder()->CalcOpRunningParam(*node).ok());
  EXPECT_EQ(SizeOf(node), 0);
  EXPECT_FALSE(node->GetOpDesc()->GetOutputDesc(0).GetReuseInput());
}

TEST_F(CalcOpRunningParam, ANegativeSizeIsRefused) {
  // -4 is not an unknown dim: the shape is invalid and its size negative.
  auto bad_dim = Calc("NoOp", {GraphBuilder::Desc({-4, 5})}, false);
  ASSERT_FALSE(bad_dim.ok());
  EXPECT_TRUE(Contains(bad_dim.status().message(),
                       "node 'n0' (type NoOp): output 0 (DT_FLOAT[-4,5] ND) has a negative size"))
      << bad_dim.status().message();
  EXPECT_TRUE(Contains(bad_dim.status().message(), "not supported")) << bad_dim.status().message();
  auto bad_type = Calc("Data", {GraphBuilder::Desc({2}, DT_UNDEFINED)}, false);
  ASSERT_FALSE(bad_type.ok());
  EXPECT_TRUE(Contains(bad_type.status().message(), "negative size"))
      << bad_type.status().message();
  auto op_desc = std::make_shared<OpDesc>("file", "FileConstant");
  ASSERT_TRUE(op_desc->AddOutputDesc(GraphBuilder::Desc({4})).ok());
  AttrUtils::SetInt(op_desc, "length", -8);
  NodePtr file = *graph_->AddNode(op_desc);
  Status status = builder()->CalcOpRunningParam(*file);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "negative size (-8)")) << status.message();
}

class ReuseInput : public CalcOpRunningParam, public ::testing::WithParamInterface<const char*> {};

TEST_P(ReuseInput, Output0ReusesInput0) {
  auto node = Calc(GetParam(), {GraphBuilder::Desc({2, 8})});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  const GeTensorDesc& output = (*node)->GetOpDesc()->GetOutputDesc(0);
  EXPECT_TRUE(output.GetReuseInput());
  EXPECT_EQ(output.GetReuseInputIndex(), 0u);
  EXPECT_EQ(output.GetSize(), 64);
}

INSTANTIATE_TEST_SUITE_P(ReshapeLikeTypes, ReuseInput,
                         ::testing::Values("Bitcast", "Flatten", "FlattenV2", "ExpandDims",
                                           "ReFormat", "Squeeze", "Unsqueeze", "SqueezeV2",
                                           "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3", "Reshape"));

TEST_F(CalcOpRunningParam, OtherTypesDoNotReuseTheirInput) {
  for (const char* type : {"NoOp", "Data", "Const"}) {
    auto node = Calc(type, {GraphBuilder::Desc({2, 8})});
    ASSERT_TRUE(node.ok()) << type;
    EXPECT_FALSE((*node)->GetOpDesc()->GetOutputDesc(0).GetReuseInput()) << type;
  }
}

TEST_F(CalcOpRunningParam, AReuseTypeWithoutAnInputIsRefused) {
  auto node = Calc("ExpandDims", {GraphBuilder::Desc({2})}, /*with_input=*/false);
  ASSERT_FALSE(node.ok());
  EXPECT_TRUE(Contains(node.status().message(), "(type ExpandDims) needs an input and an output"))
      << node.status().message();
}

}  // namespace
}  // namespace ge

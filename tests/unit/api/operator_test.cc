// ge::Operator: ports and attributes from the prototype, links, and how mistakes are reported.
#include "ge/api/operator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/string_tensor.h"

namespace ge {
namespace {

TEST(Operator, TakesPortsAndDefaultsFromThePrototype) {
  op::Conv2D conv("conv1");
  EXPECT_EQ(conv.GetName(), "conv1");
  EXPECT_EQ(conv.GetOpType(), "Conv2D");
  EXPECT_FALSE(conv.IsEmpty());
  ASSERT_NE(conv.GetOpDesc(), nullptr);
  EXPECT_GE(conv.GetOpDesc()->GetInputIndexByName("filter"), 0);
  EXPECT_EQ(conv.get_attr_group(), 1);  // the prototype's default
  EXPECT_EQ(conv.GetOutputsSize(), 1u);
  AscendString type;
  ASSERT_EQ(conv.GetOpType(type), GRAPH_SUCCESS);
  EXPECT_STREQ(type.GetString(), "Conv2D");
}

TEST(Operator, UnnamedOperatorsGetDistinctNames) {
  op::Relu a;
  op::Relu b;
  EXPECT_NE(a.GetName(), b.GetName());
  EXPECT_EQ(a.GetName().rfind("Relu_", 0), 0u);
}

TEST(Operator, CopiesAreHandlesToOneOperator) {
  op::Relu relu("r");
  Operator copy = relu;
  copy.SetAttr("_note", "shared");
  std::string note;
  ASSERT_EQ(relu.GetAttr("_note", note), GRAPH_SUCCESS);
  EXPECT_EQ(note, "shared");
}

TEST(Operator, TypedAttributesRoundTrip) {
  op::Conv2D conv("c");
  conv.set_attr_strides({2, 2}).set_attr_pads({1, 1, 1, 1}).set_attr_data_format("NCHW");
  EXPECT_EQ(conv.get_attr_strides(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(conv.get_attr_pads(), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(conv.get_attr_data_format(), "NCHW");
  std::vector<int32_t> narrow;
  ASSERT_EQ(conv.GetAttr("strides", narrow), GRAPH_SUCCESS);
  EXPECT_EQ(narrow, (std::vector<int32_t>{2, 2}));

  Operator any("extra", "Relu");
  any.SetAttr("_f", 1.5f).SetAttr("_b", true).SetAttr("_dt", DT_INT8);
  any.SetAttr("_ll", std::vector<std::vector<int64_t>>{{1}, {2, 3}});
  float f = 0;
  bool b = false;
  DataType dt = DT_UNDEFINED;
  std::vector<std::vector<int64_t>> ll;
  EXPECT_EQ(any.GetAttr("_f", f), GRAPH_SUCCESS);
  EXPECT_EQ(any.GetAttr("_b", b), GRAPH_SUCCESS);
  EXPECT_EQ(any.GetAttr("_dt", dt), GRAPH_SUCCESS);
  EXPECT_EQ(any.GetAttr("_ll", ll), GRAPH_SUCCESS);
  EXPECT_FLOAT_EQ(f, 1.5f);
  EXPECT_TRUE(b);
  EXPECT_EQ(dt, DT_INT8);
  EXPECT_EQ(ll.size(), 2u);

  std::map<AscendString, AscendString> kinds;
  ASSERT_EQ(any.GetAllAttrNamesAndTypes(kinds), GRAPH_SUCCESS);
  EXPECT_STREQ(kinds[AscendString("_f")].GetString(), "VT_FLOAT");
  EXPECT_STREQ(kinds[AscendString("_ll")].GetString(), "VT_LIST_LIST_INT");
}

TEST(Operator, ReadingAnAttributeAsAnotherKindFailsWithTheKinds) {
  op::Conv2D conv("c");
  float wrong = 0;
  EXPECT_EQ(conv.GetAttr("group", wrong), GRAPH_FAILED);
  EXPECT_NE(GEGetErrorMsg().find("attribute 'group' is a VT_INT, not a VT_FLOAT"),
            std::string::npos)
      << GEGetErrorMsg();
  int64_t missing = 0;
  EXPECT_EQ(conv.GetAttr("no_such", missing), GRAPH_FAILED);
  EXPECT_NE(GEGetErrorMsg().find("has no attribute 'no_such'"), std::string::npos);
}

TEST(Operator, SettingADeclaredAttributeToAnotherKindIsKeptAsItsError) {
  op::Conv2D conv("c");
  conv.SetAttr("group", 2.5f);
  EXPECT_NE(GEGetErrorMsg().find("operator 'c' (Conv2D): attribute 'group' is a VT_INT, not a "
                                 "VT_FLOAT"),
            std::string::npos)
      << GEGetErrorMsg();
  EXPECT_EQ(conv.get_attr_group(), 1);  // unchanged
}

TEST(Operator, SetInputLinksAndCopiesTheProducersDesc) {
  op::Data data("x");
  TensorDesc desc(Shape({1, 3, 8, 8}), FORMAT_NCHW, DT_FLOAT);
  ASSERT_EQ(data.update_output_desc_y(desc), GRAPH_SUCCESS);
  op::Relu relu("r");
  relu.set_input_x(data);
  TensorDesc in = relu.get_input_desc_x();
  EXPECT_EQ(in.GetShape().GetDims(), (std::vector<int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(in.GetFormat(), FORMAT_NCHW);
}

TEST(Operator, UnknownInputOrOutputNamesNameTheOperatorAndItsPorts) {
  op::Data data("x");
  op::Relu relu("r");
  relu.SetInput("q", data);
  EXPECT_NE(GEGetErrorMsg().find("operator 'r' (Relu): has no input named 'q' (its inputs: x)"),
            std::string::npos)
      << GEGetErrorMsg();
  relu.set_input_x(data, "z");
  EXPECT_NE(GEGetErrorMsg().find("has no output named 'z' (its outputs: y)"), std::string::npos)
      << GEGetErrorMsg();
  relu.SetInput("x", data, 3);
  EXPECT_NE(GEGetErrorMsg().find("reads output 3 of operator 'x' (Data), which has 1 outputs"),
            std::string::npos)
      << GEGetErrorMsg();
  TensorDesc desc;
  EXPECT_EQ(relu.TryGetInputDesc("nope", desc), GRAPH_PARAM_INVALID);
  EXPECT_NE(relu.UpdateOutputDesc("nope", desc), GRAPH_SUCCESS);
}

TEST(Operator, AnUnregisteredTypeSaysSo) {
  Operator odd("odd", "NoSuchOperatorType");
  EXPECT_NE(GEGetErrorMsg().find("'NoSuchOperatorType', which no loaded prototype library "
                                 "registers"),
            std::string::npos)
      << GEGetErrorMsg();
  EXPECT_EQ(odd.GetInputsSize(), 0u);
}

TEST(Operator, DynamicInputsAreCreatedAndSetByIndex) {
  op::Data a("a");
  op::Data b("b");
  op::ConcatV2 concat("cat");
  concat.create_dynamic_input_x(2);
  EXPECT_EQ(concat.GetDynamicInputNum("x"), 2);
  concat.set_dynamic_input_x(0, a).set_dynamic_input_x(1, b);
  EXPECT_GE(concat.GetOpDesc()->GetInputIndexByName("x1"), 0);
  concat.create_dynamic_input_x(1);
  EXPECT_EQ(concat.GetDynamicInputNum("x"), 3);
  concat.DynamicInputRegister("not_dynamic", 1);
  EXPECT_NE(GEGetErrorMsg().find("has no dynamic input named 'not_dynamic'"), std::string::npos);
}

TEST(Operator, InferShapeAndTypeRunsThePrototypesInference) {
  op::Relu relu("r");
  TensorDesc desc(Shape({2, 5}), FORMAT_ND, DT_FLOAT);
  ASSERT_EQ(relu.update_input_desc_x(desc), GRAPH_SUCCESS);
  ASSERT_EQ(relu.InferShapeAndType(), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(relu.get_output_desc_y().GetShape().GetDims(), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(relu.get_output_desc_y().GetDataType(), DT_FLOAT);
}

TEST(Operator, VerifyAllAttrReportsAMissingRequiredAttribute) {
  op::Const c("w");  // "value" is required and unset
  EXPECT_NE(c.VerifyAllAttr(), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("value"), std::string::npos) << GEGetErrorMsg();
}

TEST(Operator, GetInputConstDataReadsTheConstantFeedingAnInput) {
  TensorDesc desc(Shape({2}), FORMAT_ND, DT_INT64);
  std::vector<int64_t> dims{3, 4};
  Tensor value(desc, reinterpret_cast<const uint8_t*>(dims.data()), sizeof(int64_t) * 2);
  op::Const shape("shape");
  shape.set_attr_value(value);
  op::Reshape reshape("reshape");
  reshape.set_input_shape(shape);
  Tensor got;
  ASSERT_EQ(reshape.GetInputConstData("shape", got), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(got.GetSize(), 16u);
  EXPECT_EQ(reinterpret_cast<const int64_t*>(got.GetData())[1], 4);
  EXPECT_NE(reshape.GetInputConstData("x", got), GRAPH_SUCCESS);
}

TEST(Tensor, ChecksItsSizeAgainstItsDesc) {
  TensorDesc desc(Shape({2, 3}), FORMAT_ND, DT_FLOAT);
  Tensor t(desc, std::vector<uint8_t>(24, 0));
  EXPECT_EQ(t.IsValid(), GRAPH_SUCCESS);
  Tensor short_one(desc, std::vector<uint8_t>(20, 0));
  EXPECT_NE(short_one.IsValid(), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("needs 24 bytes but holds 20"), std::string::npos);
  Tensor copy = t.Clone();
  copy.GetData()[0] = 7;
  EXPECT_EQ(t.GetData()[0], 0);
  Shape s({2, -1});
  EXPECT_EQ(s.GetShapeSize(), -1);
  EXPECT_NE(s.SetDim(5, 1), GRAPH_SUCCESS);
  TensorDesc ranged(Shape({-1, 4}));
  ASSERT_EQ(ranged.SetShapeRange({{1, 64}, {4, 4}}), GRAPH_SUCCESS);
  std::vector<std::pair<int64_t, int64_t>> range;
  ASSERT_EQ(ranged.GetShapeRange(range), GRAPH_SUCCESS);
  EXPECT_EQ(range[0], (std::pair<int64_t, int64_t>{1, 64}));
  EXPECT_NE(ranged.SetShapeRange({{5, 2}}), GRAPH_SUCCESS);
}

TEST(Tensor, StringsAreHeldInGesForm) {
  Tensor one;
  ASSERT_EQ(one.SetData("hello"), GRAPH_SUCCESS);
  EXPECT_EQ(one.GetTensorDesc().GetDataType(), DT_STRING);
  EXPECT_TRUE(one.GetTensorDesc().GetShape().GetDims().empty());
  ASSERT_EQ(one.GetSize(), sizeof(StringHead) + 6);  // a head, the bytes, a NUL
  StringHead head;
  std::memcpy(&head, one.GetData(), sizeof(head));
  EXPECT_EQ(head.addr, 16);
  EXPECT_EQ(head.len, 5);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(one.GetData()) + 16), "hello");
  EXPECT_EQ(one.IsValid(), GRAPH_SUCCESS);

  Tensor many(TensorDesc(Shape({2, 2}), FORMAT_ND, DT_STRING));
  ASSERT_EQ(many.SetData(std::vector<std::string>{"a", "bb", "", "dddd"}), GRAPH_SUCCESS);
  EXPECT_EQ(many.GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(many.IsValid(), GRAPH_SUCCESS);
  Tensor other;
  ASSERT_EQ(other.SetData(std::vector<std::string>{"x", "y", "z"}), GRAPH_SUCCESS);
  EXPECT_EQ(other.GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3}));
  // A head pointing past the bytes makes the tensor invalid.
  StringHead bad{1000, 1};
  std::memcpy(other.GetData(), &bad, sizeof(bad));
  EXPECT_NE(other.IsValid(), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("corrupt"), std::string::npos);
}

}  // namespace
}  // namespace ge

// Tests of OpDesc: inputs and outputs by index and by name, IR metadata, subgraph names,
// infer/verify functions, compile state, deep copies and equality.
#include "ge/graph/op_desc.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/utils/attr_utils.h"
#include "status_test_util.h"

namespace ge {
namespace {

using testing::HasError;
using testing::IsOk;

/// A desc told apart from the others by its name (and dtype), so index mix-ups show.
GeTensorDesc NamedDesc(const std::string& name, DataType dtype = DT_FLOAT) {
  GeTensorDesc desc(GeShape({1, 2}), FORMAT_ND, dtype);
  desc.SetName(name);
  return desc;
}

/// Checks that name → index and index → name agree for every input, and that each input's desc
/// is the one added under that name (descs are named after their input).
void ExpectInputsAre(const OpDesc& op, const std::vector<std::string>& names) {
  ASSERT_EQ(op.GetAllInputNames(), names);
  ASSERT_EQ(op.GetAllInputsSize(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const auto idx = static_cast<uint32_t>(i);
    EXPECT_EQ(op.GetInputIndexByName(names[i]), static_cast<int32_t>(i)) << names[i];
    EXPECT_EQ(op.GetInputNameByIndex(idx), names[i]);
    EXPECT_EQ(&op.GetInputDesc(names[i]), &op.GetInputDesc(idx)) << names[i];
    EXPECT_EQ(op.MutableInputDesc(names[i]), op.MutableInputDesc(idx)) << names[i];
  }
}

void ExpectOutputsAre(const OpDesc& op, const std::vector<std::string>& names) {
  ASSERT_EQ(op.GetAllOutputNames(), names);
  ASSERT_EQ(op.GetOutputsSize(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const auto idx = static_cast<uint32_t>(i);
    EXPECT_EQ(op.GetOutputIndexByName(names[i]), static_cast<int32_t>(i)) << names[i];
    EXPECT_EQ(op.GetOutputNameByIndex(idx), names[i]);
    EXPECT_EQ(&op.GetOutputDesc(names[i]), &op.GetOutputDesc(idx)) << names[i];
  }
}

/// An op with named inputs `names`, each desc named after its input.
OpDesc WithInputs(const std::vector<std::string>& names) {
  OpDesc op("op", "Op");
  for (const auto& name : names) EXPECT_TRUE(IsOk(op.AddInputDesc(name, NamedDesc(name))));
  return op;
}

// ---- names and types ----

TEST(OpDesc, NameAndType) {
  OpDesc op("conv1", "Conv2D");
  EXPECT_EQ(op.GetName(), "conv1");
  EXPECT_EQ(op.GetType(), "Conv2D");
  op.SetName("conv2");
  op.SetType("Conv3D");
  EXPECT_EQ(op.GetName(), "conv2");
  EXPECT_EQ(op.GetType(), "Conv3D");
  const OpDesc empty;
  EXPECT_EQ(empty.GetName(), "");
  EXPECT_EQ(empty.GetAllInputsSize(), 0u);
  EXPECT_EQ(empty.GetOutputsSize(), 0u);
}

// ---- inputs ----

TEST(OpDesc, UnnamedInputsAndOutputsGetDefaultNames) {
  OpDesc op("op", "Op");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(IsOk(op.AddInputDesc(NamedDesc("in"))));
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(IsOk(op.AddOutputDesc(NamedDesc("out"))));
  ExpectInputsAre(op, {"__input0", "__input1", "__input2"});
  ExpectOutputsAre(op, {"__output0", "__output1"});
}

TEST(OpDesc, NamedInputsAreFoundByNameAndIndex) {
  OpDesc op = WithInputs({"x", "y"});
  ExpectInputsAre(op, {"x", "y"});
  EXPECT_EQ(op.GetInputDesc("y").GetName(), "y");
  EXPECT_EQ(op.GetInputDescPtr(1)->GetName(), "y");
  EXPECT_EQ(op.GetAllInputsDescPtr().size(), 2u);
  EXPECT_EQ(op.GetAllInputsDescPtr()[1], op.MutableInputDesc("y"));
  EXPECT_EQ(op.GetInputIndexByName("z"), -1);

  // Mutable descs are the stored ones.
  op.MutableInputDesc("x")->SetDataType(DT_INT8);
  EXPECT_EQ(op.GetInputDesc(0u).GetDataType(), DT_INT8);
}

TEST(OpDesc, MissingInputsReadAsEmpty) {
  const OpDesc op = WithInputs({"x"});
  EXPECT_EQ(op.GetInputDesc(5u), GeTensorDesc());
  EXPECT_EQ(op.GetInputDesc("nope"), GeTensorDesc());
  EXPECT_EQ(op.MutableInputDesc(5u), nullptr);
  EXPECT_EQ(op.MutableInputDesc("nope"), nullptr);
  EXPECT_EQ(op.GetInputDescPtr(1), nullptr);
  EXPECT_EQ(op.GetInputNameByIndex(1), "");
}

TEST(OpDesc, DuplicateInputNameIsRefused) {
  OpDesc op = WithInputs({"x"});
  EXPECT_TRUE(
      HasError(op.AddInputDesc("x", NamedDesc("other")), StatusCode::kParamInvalid, {"op", "'x'"}));
  EXPECT_TRUE(
      HasError(op.AddInputDesc(0, "x", NamedDesc("other")), StatusCode::kParamInvalid, {"'x'"}));
  ExpectInputsAre(op, {"x"});
  EXPECT_EQ(op.GetInputDesc("x").GetName(), "x") << "the first desc is kept";
}

TEST(OpDesc, UnnamedInputAfterARemovalGetsAFreeName) {
  // "__input<count>" can already be taken once an earlier input was removed; an unnamed
  // append must still succeed (it has no name the caller could have chosen differently).
  OpDesc op("op", "Op");
  ASSERT_TRUE(IsOk(op.AddInputDesc(NamedDesc("a"))));  // __input0
  ASSERT_TRUE(IsOk(op.AddInputDesc(NamedDesc("b"))));  // __input1
  ASSERT_TRUE(IsOk(op.RemoveInputDesc(0)));            // leaves __input1 at index 0
  EXPECT_TRUE(IsOk(op.AddInputDesc(NamedDesc("c"))));
  EXPECT_EQ(op.GetAllInputsSize(), 2u);
  EXPECT_EQ(op.GetInputDesc(1u).GetName(), "c");
}

TEST(OpDesc, InsertingAnInputInTheMiddleKeepsEveryNameRight) {
  OpDesc op = WithInputs({"a", "b", "c"});
  ASSERT_TRUE(IsOk(op.AddInputDesc(1, "m", NamedDesc("m"))));
  ExpectInputsAre(op, {"a", "m", "b", "c"});
  for (const auto& name : op.GetAllInputNames()) {
    EXPECT_EQ(op.GetInputDesc(name).GetName(), name) << "desc moved with its name";
  }
}

TEST(OpDesc, InsertingAnInputAtTheFrontOrEndKeepsEveryNameRight) {
  OpDesc op = WithInputs({"a", "b"});
  ASSERT_TRUE(IsOk(op.AddInputDesc(0, "front", NamedDesc("front"))));
  ASSERT_TRUE(IsOk(op.AddInputDesc(3, "back", NamedDesc("back"))));
  ExpectInputsAre(op, {"front", "a", "b", "back"});
  for (const auto& name : op.GetAllInputNames()) EXPECT_EQ(op.GetInputDesc(name).GetName(), name);
}

TEST(OpDesc, InsertingAnInputPastTheEndIsRefused) {
  OpDesc op = WithInputs({"a", "b"});
  EXPECT_TRUE(HasError(op.AddInputDesc(3, "far", NamedDesc("far")), StatusCode::kParamInvalid,
                       {"'op'", "'far'", "3"}));
  ExpectInputsAre(op, {"a", "b"});
}

TEST(OpDesc, DynamicInputsArePushedBack) {
  OpDesc op = WithInputs({"a"});
  ASSERT_TRUE(IsOk(op.AddDynamicInputDesc("x", 3)));
  ExpectInputsAre(op, {"a", "x0", "x1", "x2"});
  ASSERT_TRUE(IsOk(op.AddDynamicInputDesc("y", 0))) << "zero inputs is allowed";
  EXPECT_EQ(op.GetAllInputsSize(), 4u);
}

TEST(OpDesc, DynamicInputsArePushedFront) {
  OpDesc op = WithInputs({"a", "b"});
  ASSERT_TRUE(IsOk(op.AddDynamicInputDesc("x", 2, /*is_push_back=*/false)));
  ExpectInputsAre(op, {"x0", "x1", "a", "b"});
  EXPECT_EQ(op.GetInputDesc("a").GetName(), "a");
  EXPECT_EQ(op.GetInputDesc("b").GetName(), "b");
}

TEST(OpDesc, InputDescForwardInsertsAtTheFront) {
  OpDesc op = WithInputs({"a"});
  ASSERT_TRUE(IsOk(op.AddInputDescForward("f", 2)));
  ExpectInputsAre(op, {"f0", "f1", "a"});
}

TEST(OpDesc, DynamicInputsInsertedAtAnIndex) {
  OpDesc op = WithInputs({"a", "b"});
  ASSERT_TRUE(IsOk(op.AddDynamicInputDescByIndex("z", 2, 1)));
  ExpectInputsAre(op, {"a", "z0", "z1", "b"});
  EXPECT_EQ(op.GetInputDesc("b").GetName(), "b");
  EXPECT_TRUE(
      HasError(op.AddDynamicInputDescByIndex("w", 1, 9), StatusCode::kParamInvalid, {"'w0'", "9"}));
  ExpectInputsAre(op, {"a", "z0", "z1", "b"});
}

TEST(OpDesc, FailedDynamicInputAddLeavesTheInputsUnchanged) {
  OpDesc op = WithInputs({"a", "x1"});
  EXPECT_TRUE(HasError(op.AddDynamicInputDesc("x", 3), StatusCode::kParamInvalid, {"'x1'"}));
  ExpectInputsAre(op, {"a", "x1"});  // no stray x0
}

TEST(OpDesc, OptionalInputs) {
  OpDesc op = WithInputs({"x"});
  ASSERT_TRUE(IsOk(
      op.AddOptionalInputDesc("bias", GeTensorDesc(GeShape(), FORMAT_RESERVED, DT_UNDEFINED))));
  ExpectInputsAre(op, {"x", "bias"});
  EXPECT_TRUE(op.IsOptionalInput("bias"));
  EXPECT_TRUE(op.IsOptionalInput(1u));
  EXPECT_FALSE(op.IsOptionalInput("x"));
  EXPECT_FALSE(op.IsOptionalInput(0u));
  EXPECT_FALSE(op.IsOptionalInput(7u));
  EXPECT_FALSE(op.IsOptionalInput("nope"));
  EXPECT_FALSE(op.InputIsSet("bias")) << "an undefined optional input is not set";

  // Declaring an existing input optional does not add it again.
  ASSERT_TRUE(IsOk(op.AddOptionalInputDesc("x", NamedDesc("ignored"))));
  ExpectInputsAre(op, {"x", "bias"});
  EXPECT_TRUE(op.IsOptionalInput("x"));
  EXPECT_EQ(op.GetInputDesc("x").GetName(), "x");
}

TEST(OpDesc, ValidInputsAreCountedApart) {
  OpDesc op = WithInputs({"x"});
  ASSERT_TRUE(
      IsOk(op.AddOptionalInputDesc("opt", GeTensorDesc(GeShape(), FORMAT_ND, DT_UNDEFINED))));
  EXPECT_EQ(op.GetAllInputsSize(), 2u);
  EXPECT_EQ(op.GetInputsSize(), 1u) << "only valid descs";
  EXPECT_TRUE(op.InputIsSet("x"));
  EXPECT_FALSE(op.InputIsSet("opt"));
  EXPECT_FALSE(op.InputIsSet("absent"));
  ASSERT_TRUE(IsOk(op.UpdateInputDesc("opt", NamedDesc("opt"))));
  EXPECT_EQ(op.GetInputsSize(), 2u);
  EXPECT_TRUE(op.InputIsSet("opt"));
}

TEST(OpDesc, UpdateInputDescByIndexAndName) {
  OpDesc op("mul", "Mul");
  ASSERT_TRUE(IsOk(op.AddInputDesc("x", NamedDesc("x"))));
  const GeTensorDescPtr stored = op.MutableInputDesc(0u);
  ASSERT_TRUE(IsOk(op.UpdateInputDesc(0, NamedDesc("x", DT_INT32))));
  EXPECT_EQ(op.GetInputDesc("x").GetDataType(), DT_INT32);
  EXPECT_EQ(op.MutableInputDesc(0u), stored) << "updated in place";
  ASSERT_TRUE(IsOk(op.UpdateInputDesc("x", NamedDesc("x", DT_INT64))));
  EXPECT_EQ(op.GetInputDesc(0u).GetDataType(), DT_INT64);

  EXPECT_TRUE(HasError(op.UpdateInputDesc(1, NamedDesc("y")), StatusCode::kParamInvalid,
                       {"'mul'", "Mul", "1"}));
  EXPECT_TRUE(
      HasError(op.UpdateInputDesc("y", NamedDesc("y")), StatusCode::kParamInvalid, {"'y'"}));
}

TEST(OpDesc, UpdateInputNameRenamesWithoutMoving) {
  OpDesc op = WithInputs({"x", "y", "z"});
  const GeTensorDescPtr y_desc = op.MutableInputDesc("y");
  ASSERT_TRUE(IsOk(op.UpdateInputName({{"y", "renamed"}})));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"x", "renamed", "z"}));
  EXPECT_EQ(op.GetInputIndexByName("renamed"), 1);
  EXPECT_EQ(op.GetInputIndexByName("y"), -1);
  EXPECT_EQ(op.MutableInputDesc("renamed"), y_desc) << "the desc stays";
  EXPECT_EQ(op.GetInputIndexByName("x"), 0);
  EXPECT_EQ(op.GetInputIndexByName("z"), 2);
}

TEST(OpDesc, UpdateInputNameCanSwapNames) {
  OpDesc op = WithInputs({"x", "y"});
  ASSERT_TRUE(IsOk(op.UpdateInputName({{"x", "y"}, {"y", "x"}})));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(op.GetInputDesc("y").GetName(), "x") << "descs did not move";
  EXPECT_EQ(op.GetInputIndexByName("x"), 1);
}

TEST(OpDesc, UpdateInputNameOfAnUnknownInputFails) {
  OpDesc op = WithInputs({"x", "y"});
  EXPECT_TRUE(HasError(op.UpdateInputName({{"x", "a"}, {"ghost", "b"}}), StatusCode::kParamInvalid,
                       {"'op'", "'ghost'"}));
  ExpectInputsAre(op, {"x", "y"});  // nothing renamed, not even x
}

TEST(OpDesc, UpdateInputNameToATakenNameFails) {
  OpDesc op = WithInputs({"x", "y"});
  EXPECT_TRUE(
      HasError(op.UpdateInputName({{"x", "y"}}), StatusCode::kParamInvalid, {"'op'", "same name"}));
  ExpectInputsAre(op, {"x", "y"});
}

TEST(OpDesc, UpdateInputNameKeepsOptionalMarks) {
  OpDesc op = WithInputs({"x"});
  ASSERT_TRUE(IsOk(op.AddOptionalInputDesc("bias", NamedDesc("bias"))));
  ASSERT_TRUE(IsOk(op.UpdateInputName({{"bias", "b"}})));
  EXPECT_TRUE(op.IsOptionalInput("b"));
  EXPECT_FALSE(op.IsOptionalInput("bias"));
  EXPECT_TRUE(op.IsOptionalInput(1u));
}

TEST(OpDesc, RemoveInputDescReindexesLaterInputs) {
  OpDesc op = WithInputs({"a", "b", "c", "d"});
  ASSERT_TRUE(IsOk(op.RemoveInputDesc(1)));
  ExpectInputsAre(op, {"a", "c", "d"});
  EXPECT_EQ(op.GetInputIndexByName("b"), -1);
  EXPECT_EQ(op.GetInputDesc(1u).GetName(), "c");
  ASSERT_TRUE(IsOk(op.RemoveInputDesc(0)));
  ExpectInputsAre(op, {"c", "d"});
  EXPECT_TRUE(HasError(op.RemoveInputDesc(2), StatusCode::kParamInvalid, {"'op'", "input", "2"}));
  ExpectInputsAre(op, {"c", "d"});
  // A removed name can be used again.
  ASSERT_TRUE(IsOk(op.AddInputDesc("b", NamedDesc("b"))));
  ExpectInputsAre(op, {"c", "d", "b"});
}

// ---- outputs ----

OpDesc WithOutputs(const std::vector<std::string>& names) {
  OpDesc op("op", "Op");
  for (const auto& name : names) EXPECT_TRUE(IsOk(op.AddOutputDesc(name, NamedDesc(name))));
  return op;
}

TEST(OpDesc, NamedOutputsAndDuplicates) {
  OpDesc op = WithOutputs({"y", "mask"});
  ExpectOutputsAre(op, {"y", "mask"});
  EXPECT_EQ(op.GetOutputDesc("mask").GetName(), "mask");
  EXPECT_EQ(op.GetOutputDescPtr(1)->GetName(), "mask");
  EXPECT_EQ(op.GetAllOutputsDescSize(), 2u);
  EXPECT_EQ(op.GetAllOutputsDescPtr()[0], op.MutableOutputDesc("y"));
  EXPECT_TRUE(HasError(op.AddOutputDesc("y", NamedDesc("y2")), StatusCode::kParamInvalid,
                       {"output", "'y'"}));
  ExpectOutputsAre(op, {"y", "mask"});
  EXPECT_EQ(op.GetOutputDesc(9u), GeTensorDesc());
  EXPECT_EQ(op.GetOutputDesc("nope"), GeTensorDesc());
  EXPECT_EQ(op.MutableOutputDesc(9u), nullptr);
  EXPECT_EQ(op.MutableOutputDesc("nope"), nullptr);
  EXPECT_EQ(op.GetOutputDescPtr(9), nullptr);
  EXPECT_EQ(op.GetOutputNameByIndex(9), "");
  EXPECT_EQ(op.GetOutputIndexByName("nope"), -1);
}

TEST(OpDesc, DynamicOutputsPushBackAndFront) {
  OpDesc op = WithOutputs({"y"});
  ASSERT_TRUE(IsOk(op.AddDynamicOutputDesc("out", 2)));
  ExpectOutputsAre(op, {"y", "out0", "out1"});
  ASSERT_TRUE(IsOk(op.AddDynamicOutputDesc("pre", 2, /*is_push_back=*/false)));
  ExpectOutputsAre(op, {"pre0", "pre1", "y", "out0", "out1"});
  EXPECT_EQ(op.GetOutputDesc("y").GetName(), "y");
}

TEST(OpDesc, UpdateOutputDescAndName) {
  OpDesc op = WithOutputs({"y", "z"});
  ASSERT_TRUE(IsOk(op.UpdateOutputDesc(1, NamedDesc("z", DT_INT8))));
  EXPECT_EQ(op.GetOutputDesc("z").GetDataType(), DT_INT8);
  ASSERT_TRUE(IsOk(op.UpdateOutputDesc("y", NamedDesc("y", DT_BOOL))));
  EXPECT_EQ(op.GetOutputDesc(0u).GetDataType(), DT_BOOL);
  EXPECT_TRUE(HasError(op.UpdateOutputDesc(2, NamedDesc("w")), StatusCode::kParamInvalid,
                       {"'op'", "Op", "output 2"}));
  EXPECT_TRUE(
      HasError(op.UpdateOutputDesc("w", NamedDesc("w")), StatusCode::kParamInvalid, {"'w'"}));

  ASSERT_TRUE(IsOk(op.UpdateOutputName({{"z", "zz"}})));
  ExpectOutputsAre(op, {"y", "zz"});
  EXPECT_EQ(op.GetOutputDesc("zz").GetName(), "z");
  EXPECT_TRUE(
      HasError(op.UpdateOutputName({{"ghost", "g"}}), StatusCode::kParamInvalid, {"'ghost'"}));
  EXPECT_TRUE(
      HasError(op.UpdateOutputName({{"y", "zz"}}), StatusCode::kParamInvalid, {"same name"}));
  ExpectOutputsAre(op, {"y", "zz"});
}

TEST(OpDesc, RemoveOutputDescReindexesLaterOutputs) {
  OpDesc op = WithOutputs({"a", "b", "c"});
  ASSERT_TRUE(IsOk(op.RemoveOutputDesc(0)));
  ExpectOutputsAre(op, {"b", "c"});
  EXPECT_EQ(op.GetOutputDesc(0u).GetName(), "b");
  EXPECT_TRUE(HasError(op.RemoveOutputDesc(2), StatusCode::kParamInvalid, {"output", "2"}));
}

// ---- IR metadata ----

TEST(OpDesc, IrMetadataKeepsDeclarationOrder) {
  OpDesc op("conv", "Conv2D");
  op.AppendIrInput("x", kIrInputRequired);
  op.AppendIrInput("bias", kIrInputOptional);
  op.AppendIrInput("extra", kIrInputDynamic);
  op.AppendIrOutput("y", kIrOutputRequired);
  op.AppendIrOutput("rest", kIrOutputDynamic);
  op.AppendIrAttrName("strides");
  op.AppendIrAttrName("pads");
  const std::vector<std::pair<std::string, IrInputType>> inputs = {
      {"x", kIrInputRequired}, {"bias", kIrInputOptional}, {"extra", kIrInputDynamic}};
  const std::vector<std::pair<std::string, IrOutputType>> outputs = {{"y", kIrOutputRequired},
                                                                     {"rest", kIrOutputDynamic}};
  EXPECT_EQ(op.GetIrInputs(), inputs);
  EXPECT_EQ(op.GetIrOutputs(), outputs);
  EXPECT_EQ(op.GetIrAttrNames(), (std::vector<std::string>{"strides", "pads"}));
}

// ---- subgraphs ----

TEST(OpDesc, SubgraphIrNamesGiveInstanceSlots) {
  OpDesc op("if", "If");
  ASSERT_TRUE(IsOk(op.AddSubgraphName("then_branch")));
  ASSERT_TRUE(IsOk(op.AddSubgraphName("else_branch", kStatic)));
  EXPECT_EQ(op.GetSubgraphInstanceNames(), (std::vector<std::string>{"", ""}));
  const std::map<std::string, SubgraphType> ir_names = {{"else_branch", kStatic},
                                                        {"then_branch", kStatic}};
  EXPECT_EQ(op.GetSubgraphIrNames(), ir_names);

  EXPECT_TRUE(HasError(op.AddSubgraphName("then_branch"), StatusCode::kParamInvalid,
                       {"'if'", "'then_branch'"}));
  EXPECT_EQ(op.GetSubgraphInstanceNames().size(), 2u);

  // A dynamic IR name gives no slot by itself: instances are appended.
  OpDesc case_op("case", "Case");
  ASSERT_TRUE(IsOk(case_op.AddSubgraphName("branches", kDynamic)));
  EXPECT_TRUE(case_op.GetSubgraphInstanceNames().empty());
  EXPECT_EQ(case_op.GetSubgraphIrNames().at("branches"), kDynamic);
}

TEST(OpDesc, SubgraphInstanceNames) {
  OpDesc op("if", "If");
  ASSERT_TRUE(IsOk(op.AddSubgraphName("then_branch")));
  ASSERT_TRUE(IsOk(op.AddSubgraphName("else_branch")));
  ASSERT_TRUE(IsOk(op.SetSubgraphInstanceName(1, "if_else")));
  ASSERT_TRUE(IsOk(op.SetSubgraphInstanceName(0, "if_then")));
  EXPECT_EQ(op.GetSubgraphInstanceNames(), (std::vector<std::string>{"if_then", "if_else"}));
  EXPECT_EQ(op.GetSubgraphInstanceName(1), "if_else");
  EXPECT_EQ(op.GetSubgraphInstanceName(2), "");

  op.AddSubgraphInstanceName("extra");
  EXPECT_EQ(op.GetSubgraphInstanceNames(),
            (std::vector<std::string>{"if_then", "if_else", "extra"}));
  op.RemoveSubgraphInstanceName("if_then");
  EXPECT_EQ(op.GetSubgraphInstanceNames(), (std::vector<std::string>{"", "if_else", "extra"}))
      << "removal empties the slot and keeps the indices";
  op.RemoveSubgraphInstanceName("not_there");
  EXPECT_EQ(op.GetSubgraphInstanceNames().size(), 3u);
}

TEST(OpDesc, SetSubgraphInstanceNameOutOfRangeFails) {
  OpDesc op("if", "If");
  ASSERT_TRUE(IsOk(op.AddSubgraphName("then_branch")));
  EXPECT_TRUE(HasError(op.SetSubgraphInstanceName(1, "x"), StatusCode::kParamInvalid,
                       {"'if'", "slot 1", "1)"}));
  EXPECT_TRUE(HasError(OpDesc("n", "NoOp").SetSubgraphInstanceName(0, "x"),
                       StatusCode::kParamInvalid, {"'n'", "0"}));
  EXPECT_EQ(op.GetSubgraphInstanceNames(), std::vector<std::string>{""});
}

// ---- functions ----

TEST(OpDesc, InferShapeWithoutAFunctionFailsNamingNodeAndType) {
  OpDesc op("relu1", "Relu");
  EXPECT_FALSE(static_cast<bool>(op.GetInferShapeFunc()));
  EXPECT_TRUE(HasError(op.InferShapeAndType(), StatusCode::kFailed, {"relu1", "Relu"}));
}

TEST(OpDesc, InferShapeRunsTheFunctionOnTheOp) {
  OpDesc op("relu1", "Relu");
  ASSERT_TRUE(IsOk(op.AddInputDesc("x", GeTensorDesc(GeShape({4, 5}), FORMAT_ND, DT_FLOAT))));
  ASSERT_TRUE(IsOk(op.AddOutputDesc("y", GeTensorDesc())));
  int calls = 0;
  op.SetInferShapeFunc([&calls](OpDesc& self, const InferInputs&) {
    ++calls;
    return self.UpdateOutputDesc(0, self.GetInputDesc(0u));
  });
  ASSERT_TRUE(IsOk(op.InferShapeAndType()));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(op.GetOutputDesc(0u).GetShape(), GeShape({4, 5}));
}

TEST(OpDesc, InferShapeErrorsAreTaggedWithTheNode) {
  OpDesc op("add7", "Add");
  op.SetInferShapeFunc(
      [](OpDesc&, const InferInputs&) { return ParamInvalid("shapes [2] and [3] differ"); });
  EXPECT_TRUE(HasError(op.InferShapeAndType(), StatusCode::kParamInvalid,
                       {"add7", "Add", "shapes [2] and [3] differ"}));
}

TEST(OpDesc, VerifyRunsTheFunctionIfAny) {
  OpDesc op("pool", "MaxPool");
  EXPECT_TRUE(IsOk(op.Verify())) << "no function: nothing to check";
  op.SetVerifyFunc([](const OpDesc& self, const InferInputs&) {
    return self.HasAttr("ksize") ? Status::Ok() : ParamInvalid("attr ksize is required");
  });
  EXPECT_TRUE(HasError(op.Verify(), StatusCode::kParamInvalid, {"pool", "MaxPool", "ksize"}));
  ASSERT_TRUE(AttrUtils::SetListInt(&op, "ksize", std::vector<int64_t>{2, 2}));
  EXPECT_TRUE(IsOk(op.Verify()));
  EXPECT_TRUE(static_cast<bool>(op.GetVerifyFunc()));
}

TEST(OpDesc, InferFormatFunctionSlot) {
  OpDesc op("t", "Transpose");
  EXPECT_FALSE(static_cast<bool>(op.GetInferFormatFunc()));
  op.SetInferFormatFunc([](OpDesc&, const InferInputs&) { return Status::Ok(); });
  ASSERT_TRUE(static_cast<bool>(op.GetInferFormatFunc()));
  EXPECT_TRUE(IsOk(op.InferFormat()));
}

// ---- compile state ----

TEST(OpDesc, CompileStateFieldsRoundTrip) {
  OpDesc op("n", "Add");
  EXPECT_EQ(op.GetId(), 0);
  EXPECT_EQ(op.GetStreamId(), 0);
  EXPECT_TRUE(op.GetInputOffset().empty());
  op.SetId(12);
  op.SetStreamId(3);
  op.SetInputOffset({0, 64});
  op.SetOutputOffset({128});
  op.SetWorkspace({256, 512});
  op.SetWorkspaceBytes({32, 32});
  op.SetIsInputConst({false, true});
  op.SetInputName({"a", "b"});
  op.SetSrcName({"src"});
  op.SetSrcIndex({1});
  op.SetDstName({"dst"});
  op.SetDstIndex({2});
  op.SetOpEngineName("DNN_VM_GE_LOCAL");
  op.SetOpKernelLibName("DNN_VM_GE_LOCAL_OP_STORE");
  EXPECT_EQ(op.GetId(), 12);
  EXPECT_EQ(op.GetStreamId(), 3);
  EXPECT_EQ(op.GetInputOffset(), (std::vector<int64_t>{0, 64}));
  EXPECT_EQ(op.GetOutputOffset(), (std::vector<int64_t>{128}));
  EXPECT_EQ(op.GetWorkspace(), (std::vector<int64_t>{256, 512}));
  EXPECT_EQ(op.GetWorkspaceBytes(), (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(op.GetIsInputConst(), (std::vector<bool>{false, true}));
  EXPECT_EQ(op.GetInputName(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(op.GetSrcName(), (std::vector<std::string>{"src"}));
  EXPECT_EQ(op.GetSrcIndex(), (std::vector<int64_t>{1}));
  EXPECT_EQ(op.GetDstName(), (std::vector<std::string>{"dst"}));
  EXPECT_EQ(op.GetDstIndex(), (std::vector<int64_t>{2}));
  EXPECT_EQ(op.GetOpEngineName(), "DNN_VM_GE_LOCAL");
  EXPECT_EQ(op.GetOpKernelLibName(), "DNN_VM_GE_LOCAL_OP_STORE");
}

// ---- copies and equality ----

OpDescPtr FullOp() {
  auto op = std::make_shared<OpDesc>("conv", "Conv2D");
  EXPECT_TRUE(IsOk(op->AddInputDesc("x", NamedDesc("x"))));
  EXPECT_TRUE(IsOk(op->AddOptionalInputDesc("bias", NamedDesc("bias"))));
  EXPECT_TRUE(IsOk(op->AddOutputDesc("y", NamedDesc("y"))));
  EXPECT_TRUE(AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(AttrUtils::SetInt(op->MutableInputDesc(0u), "tensor_attr", 1));
  op->AppendIrInput("x", kIrInputRequired);
  op->AppendIrOutput("y", kIrOutputRequired);
  op->AppendIrAttrName("strides");
  EXPECT_TRUE(IsOk(op->AddSubgraphName("body")));
  EXPECT_TRUE(IsOk(op->SetSubgraphInstanceName(0, "conv_body")));
  op->SetId(4);
  op->SetStreamId(1);
  op->SetWorkspaceBytes({64});
  op->SetOpEngineName("engine");
  op->SetInferShapeFunc([](OpDesc&, const InferInputs&) { return Status::Ok(); });
  return op;
}

TEST(OpDesc, CopyIsDeep) {
  const OpDescPtr original = FullOp();
  OpDesc copy(*original);
  EXPECT_EQ(copy, *original);
  EXPECT_NE(copy.MutableInputDesc(0u), original->MutableInputDesc(0u)) << "descs are not shared";
  EXPECT_NE(copy.MutableOutputDesc(0u), original->MutableOutputDesc(0u));

  copy.MutableInputDesc("x")->SetDataType(DT_INT8);
  ASSERT_TRUE(AttrUtils::SetInt(copy.MutableInputDesc(0u), "tensor_attr", 2));
  copy.MutableOutputDesc(0u)->MutableShape().MutableDims().push_back(7);
  ASSERT_TRUE(AttrUtils::SetListInt(&copy, "strides", std::vector<int64_t>{2, 2}));
  ASSERT_TRUE(IsOk(copy.AddInputDesc("extra", NamedDesc("extra"))));
  ASSERT_TRUE(IsOk(copy.UpdateInputName({{"x", "renamed"}})));

  EXPECT_EQ(original->GetInputDesc("x").GetDataType(), DT_FLOAT);
  int64_t tensor_attr = 0;
  EXPECT_TRUE(AttrUtils::GetInt(original->GetInputDesc(0u), "tensor_attr", tensor_attr));
  EXPECT_EQ(tensor_attr, 1);
  EXPECT_EQ(original->GetOutputDesc(0u).GetShape(), GeShape({1, 2}));
  std::vector<int64_t> strides;
  EXPECT_TRUE(AttrUtils::GetListInt(original, "strides", strides));
  EXPECT_EQ(strides, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(original->GetAllInputNames(), (std::vector<std::string>{"x", "bias"}));
  EXPECT_EQ(original->GetInputIndexByName("x"), 0);
  EXPECT_NE(copy, *original);
}

TEST(OpDesc, CopySharesTheFunctionsAndKeepsEverythingElse) {
  const OpDescPtr original = FullOp();
  OpDesc copy(*original);
  EXPECT_TRUE(static_cast<bool>(copy.GetInferShapeFunc()));
  EXPECT_TRUE(IsOk(copy.InferShapeAndType()));
  EXPECT_TRUE(copy.IsOptionalInput("bias"));
  EXPECT_EQ(copy.GetSubgraphInstanceNames(), std::vector<std::string>{"conv_body"});
  EXPECT_EQ(copy.GetIrAttrNames(), std::vector<std::string>{"strides"});
  EXPECT_EQ(copy.GetId(), 4);
  EXPECT_EQ(copy.GetOpEngineName(), "engine");
}

TEST(OpDesc, EqualityCoversEveryPart) {
  const OpDescPtr base = FullOp();
  const std::vector<std::pair<std::string, std::function<void(OpDesc&)>>> mutations = {
      {"name", [](OpDesc& op) { op.SetName("other"); }},
      {"type", [](OpDesc& op) { op.SetType("Other"); }},
      {"input desc", [](OpDesc& op) { op.MutableInputDesc(0u)->SetDataType(DT_INT8); }},
      {"input desc attr",
       [](OpDesc& op) { EXPECT_TRUE(AttrUtils::SetInt(op.MutableInputDesc(0u), "t", 9)); }},
      {"input name",
       [](OpDesc& op) {
         EXPECT_TRUE(IsOk(op.UpdateInputName({{"x", "x2"}})));
       }},
      {"extra input", [](OpDesc& op) { EXPECT_TRUE(IsOk(op.AddInputDesc(NamedDesc("e")))); }},
      {"output desc", [](OpDesc& op) { op.MutableOutputDesc(0u)->SetFormat(FORMAT_NCHW); }},
      {"output name",
       [](OpDesc& op) {
         EXPECT_TRUE(IsOk(op.UpdateOutputName({{"y", "y2"}})));
       }},
      {"optional", [](OpDesc& op) { EXPECT_TRUE(IsOk(op.AddOptionalInputDesc("x", {}))); }},
      {"attr", [](OpDesc& op) { EXPECT_TRUE(AttrUtils::SetBool(&op, "new", true)); }},
      {"ir input", [](OpDesc& op) { op.AppendIrInput("z", kIrInputDynamic); }},
      {"ir output", [](OpDesc& op) { op.AppendIrOutput("z", kIrOutputDynamic); }},
      {"ir attr", [](OpDesc& op) { op.AppendIrAttrName("z"); }},
      {"subgraph ir name",
       [](OpDesc& op) { EXPECT_TRUE(IsOk(op.AddSubgraphName("c", kDynamic))); }},
      {"subgraph instance", [](OpDesc& op) { op.AddSubgraphInstanceName("more"); }},
      {"id", [](OpDesc& op) { op.SetId(99); }},
      {"stream id", [](OpDesc& op) { op.SetStreamId(99); }},
      {"input offset", [](OpDesc& op) { op.SetInputOffset({1}); }},
      {"output offset", [](OpDesc& op) { op.SetOutputOffset({1}); }},
      {"workspace", [](OpDesc& op) { op.SetWorkspace({1}); }},
      {"workspace bytes", [](OpDesc& op) { op.SetWorkspaceBytes({1}); }},
      {"is input const", [](OpDesc& op) { op.SetIsInputConst({true}); }},
      {"input_name", [](OpDesc& op) { op.SetInputName({"p"}); }},
      {"src name", [](OpDesc& op) { op.SetSrcName({"p"}); }},
      {"src index", [](OpDesc& op) { op.SetSrcIndex({1}); }},
      {"dst name", [](OpDesc& op) { op.SetDstName({"p"}); }},
      {"dst index", [](OpDesc& op) { op.SetDstIndex({1}); }},
      {"engine", [](OpDesc& op) { op.SetOpEngineName("e2"); }},
      {"kernel lib", [](OpDesc& op) { op.SetOpKernelLibName("k2"); }},
  };
  for (const auto& [part, mutate] : mutations) {
    OpDesc changed(*base);
    ASSERT_EQ(changed, *base) << part;
    mutate(changed);
    EXPECT_NE(changed, *base) << part;
    EXPECT_FALSE(changed == *base) << part;
  }
}

TEST(OpDesc, EqualityIgnoresFunctions) {
  const OpDescPtr base = FullOp();
  OpDesc changed(*base);
  changed.SetInferShapeFunc(nullptr);
  changed.SetVerifyFunc([](const OpDesc&, const InferInputs&) { return Status::Ok(); });
  EXPECT_EQ(changed, *base);
}

}  // namespace
}  // namespace ge

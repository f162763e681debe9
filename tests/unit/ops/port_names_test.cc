// Tests of OpRegistry::NameUnnamedPorts (ports with default names bound to the prototype's by
// position) and of inference refusing to leave an output without the dtype its inputs give it.
#include <gtest/gtest.h>

#include "ge/graph/graph_builder.h"
#include "ge/ops/infer_context.h"
#include "ge/ops/op_registry.h"
#include "ops_test_util.h"

namespace ge {
namespace {

using testing::Builtins;
using testing::ExpectError;

Status Keep(InferContext&) { return Status::Ok(); }

// An OpDesc as a graph file without port names gives it: `inputs` ports "__input<i>", `outputs`
// ports "__output<i>", all with no dtype yet.
OpDescPtr Unnamed(const std::string& type, size_t inputs, size_t outputs = 0) {
  auto op = std::make_shared<OpDesc>("n", type);
  GeTensorDesc undefined;
  undefined.SetDataType(DT_UNDEFINED);
  for (size_t i = 0; i < inputs; ++i) EXPECT_TRUE(op->AddInputDesc(undefined).ok());
  for (size_t i = 0; i < outputs; ++i) EXPECT_TRUE(op->AddOutputDesc(undefined).ok());
  return op;
}

class NameUnnamedPorts : public ::testing::Test {
 protected:
  void SetUp() override {
    const TensorType all = TensorType::ALL();
    Add(OpProtoBuilder("Fixed").Input("a", all).Input("b", all).OptionalInput("c", all));
    Add(OpProtoBuilder("Mixed").Input("a", all).DynamicInput("x", all).Input("b", all));
    Add(OpProtoBuilder("TwoDynamic").DynamicInput("x", all).DynamicInput("y", all));
    Add(OpProtoBuilder("DynamicThenOptional").DynamicInput("x", all).OptionalInput("c", all));
    Add(OpProtoBuilder("Outs").Input("a", all).Output("y", all).DynamicOutput("z", all));
  }
  void Add(OpProtoBuilder& builder) {
    Result<OpProto> proto = builder.InferShape(Keep).Build();
    ASSERT_TRUE(proto.ok()) << proto.status().ToString();
    ASSERT_TRUE(registry_.Register(std::move(proto).value(), "test").ok());
  }
  OpRegistry registry_;
};

TEST_F(NameUnnamedPorts, ExpandsTheDynamicInputOverThePortsTheOthersLeave) {
  OpDescPtr op = Unnamed("Mixed", 4);
  Result<bool> renamed = registry_.NameUnnamedPorts(*op);
  ASSERT_TRUE(renamed.ok()) << renamed.status().ToString();
  EXPECT_TRUE(renamed.value());
  EXPECT_EQ(op->GetAllInputNames(), (std::vector<std::string>{"a", "x0", "x1", "b"}));
}

TEST_F(NameUnnamedPorts, LeavesTrailingOptionalInputsAbsent) {
  OpDescPtr two = Unnamed("Fixed", 2);
  ASSERT_TRUE(registry_.NameUnnamedPorts(*two).ok());
  EXPECT_EQ(two->GetAllInputNames(), (std::vector<std::string>{"a", "b"}));
  OpDescPtr three = Unnamed("Fixed", 3);
  ASSERT_TRUE(registry_.NameUnnamedPorts(*three).ok());
  EXPECT_EQ(three->GetAllInputNames(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(three->IsOptionalInput("c"));
}

TEST_F(NameUnnamedPorts, NamesOutputsTooAndLeavesNamedPortsAlone) {
  OpDescPtr op = Unnamed("Outs", 1, 3);
  ASSERT_TRUE(registry_.NameUnnamedPorts(*op).ok());
  EXPECT_EQ(op->GetAllOutputNames(), (std::vector<std::string>{"y", "z0", "z1"}));
  Result<bool> again = registry_.NameUnnamedPorts(*op);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again.value());
}

TEST_F(NameUnnamedPorts, RefusesPortsThatFitThePrototypeInNoWayOrInMany) {
  OpDescPtr few = Unnamed("Fixed", 1);
  ExpectError(registry_.NameUnnamedPorts(*few).status(),
              {"node 'n' (Fixed): cannot name its 1 unnamed inputs", "(a, b, c?)",
               "needs at least 2", "_input_name_key"});
  EXPECT_EQ(few->GetAllInputNames(), (std::vector<std::string>{"__input0"}));
  ExpectError(registry_.NameUnnamedPorts(*Unnamed("Fixed", 4)).status(),
              {"node 'n' (Fixed)", "takes at most 3"});
  ExpectError(registry_.NameUnnamedPorts(*Unnamed("Mixed", 1)).status(),
              {"node 'n' (Mixed)", "needs at least 2"});
  ExpectError(registry_.NameUnnamedPorts(*Unnamed("TwoDynamic", 3)).status(),
              {"node 'n' (TwoDynamic)", "more than one dynamic input could take the ports"});
  ExpectError(registry_.NameUnnamedPorts(*Unnamed("DynamicThenOptional", 2)).status(),
              {"node 'n' (DynamicThenOptional)", "more than one way (x0, c or x0, x1)"});
  ExpectError(registry_.NameUnnamedPorts(*Unnamed("Unknown", 1)).status(),
              {"node 'n' has operator type 'Unknown'"});
}

// A ConcatV2 as a graph file without port names has it: inputs __input0 and __input1.
struct UnnamedConcat {
  UnnamedConcat() : builder("g") {
    op = Unnamed("ConcatV2", 2, 1);
    op->SetName("cat");
    AttrUtils::SetInt(op, "axis", 1);
    NodePtr a = testing::Must(builder.AddData("a", GeTensorDesc(GeShape({2, 3}))));
    NodePtr b = testing::Must(builder.AddData("b", GeTensorDesc(GeShape({2, 5}))));
    node = testing::Must(builder.AddNode(op, {a, b}));
  }
  GraphBuilder builder;
  OpDescPtr op;
  NodePtr node;
};

TEST(InferShape, RefusesAnOutputWithoutTheDtypeOfItsUnnamedInputs) {
  UnnamedConcat g;
  ExpectError(Builtins().InferShape(g.node),
              {"node 'cat' (ConcatV2): output 'y' has no dtype: input 'x' has no dtype: its ports "
               "(__input0, __input1) are not named after the operator's inputs"});
}

TEST(InferShape, GivesTheConcatOfPortsNamedByPositionItsInputsDtype) {
  UnnamedConcat g;
  ASSERT_TRUE(Builtins().NameUnnamedPorts(*g.op).ok());
  EXPECT_EQ(g.op->GetAllInputNames(), (std::vector<std::string>{"x0", "x1"}));
  Status status = Builtins().InferShape(g.node);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(g.op->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(g.op->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 8}));
}

}  // namespace
}  // namespace ge

// Tests of the prototype builder, the registry (duplicates, override, atomic registration), the
// factory (IR metadata, defaults, dynamic ports) and the generic verification.
#include "ge/ops/op_registry.h"

#include <gtest/gtest.h>

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/ops/infer_context.h"
#include "ops_test_util.h"

namespace ge {
namespace {

using testing::ExpectError;

Status SameShape(InferContext& ctx) { return ctx.SetOutputShape(0, ctx.InputShape(0)); }

OpProto ScaleProto(const std::string& type = "Scale") {
  return OpProtoBuilder(type)
      .TypeConstraint("T", TensorType::FloatingDataType())
      .Input("x", "T")
      .OptionalInput("bias", "T")
      .DynamicInput("extra", TensorType::ALL())
      .Output("y", "T")
      .DynamicOutput("aux", {DT_BOOL})
      .RequiredAttr("mode", AttrValue::Type::kString)
      .Attr("alpha", 1.5F)
      .Attr("axes", std::vector<int64_t>{0, 1})
      .Graph("body")
      .DynamicGraph("branches")
      .InferShape(SameShape)
      .Build()
      .value();
}

TEST(OpProtoBuilder, RecordsPortsAttrsSubgraphsAndTypes) {
  OpProto p = ScaleProto();
  EXPECT_EQ(p.type(), "Scale");
  ASSERT_EQ(p.inputs().size(), 3u);
  EXPECT_EQ(p.inputs()[1].kind, kIrInputOptional);
  EXPECT_EQ(p.inputs()[2].kind, kIrInputDynamic);
  EXPECT_EQ(p.inputs()[0].type_symbol, "T");
  EXPECT_EQ(p.inputs()[1].type_symbol, "T");
  EXPECT_TRUE(p.AllowedTypes(p.inputs()[2].type_symbol).Contains(DT_STRING));
  ASSERT_EQ(p.outputs().size(), 2u);
  EXPECT_EQ(p.outputs()[1].kind, kIrOutputDynamic);
  ASSERT_NE(p.FindAttr("mode"), nullptr);
  EXPECT_TRUE(p.FindAttr("mode")->required);
  EXPECT_EQ(p.FindAttr("alpha")->type, AttrValue::Type::kFloat);
  EXPECT_EQ(p.FindAttr("axes")->type, AttrValue::Type::kListInt);
  ASSERT_EQ(p.subgraphs().size(), 2u);
  EXPECT_EQ(p.subgraphs()[1].kind, kDynamic);
  EXPECT_TRUE(p.infer_shape());
  EXPECT_FALSE(p.verify());
}

TEST(OpProtoBuilder, ReportsEveryMistakeOfADeclaration) {
  auto r = OpProtoBuilder("Bad")
               .Input("x", "T")                // undeclared symbol
               .Input("x", TensorType::ALL())  // duplicate name
               .Output("y", TensorType())      // no dtype
               .Build();                       // and no infer function
  ExpectError(r.status(), {"'Bad'", "undeclared type symbol 'T'", "'x' is declared twice",
                           "'y' allows no dtype", "no infer-shape function"});
}

TEST(TensorType, SetsAndNames) {
  EXPECT_TRUE(TensorType::RealNumberType().Contains(DT_INT8));
  EXPECT_FALSE(TensorType::RealNumberType().Contains(DT_BOOL));
  EXPECT_TRUE(TensorType::BasicType().Contains(DT_BOOL));
  EXPECT_FALSE(TensorType::ALL().Contains(DT_UNDEFINED));
  EXPECT_EQ((TensorType{DT_FLOAT, DT_INT32}).ToString(), "{DT_FLOAT, DT_INT32}");
}

TEST(OpRegistry, RefusesASecondRegistrationNamingBothSources) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "/libs/a.so").ok());
  Status s = reg.Register(ScaleProto(), "/libs/b.so");
  ExpectError(s, {"'Scale'", "/libs/a.so", "/libs/b.so", "overriding"});
  EXPECT_EQ(reg.SourceOf("Scale"), "/libs/a.so");
}

TEST(OpRegistry, OverrideReplacesThePrototype) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "a").ok());
  auto other = OpProtoBuilder("Scale")
                   .Input("x", TensorType::ALL())
                   .Output("y", TensorType::ALL())
                   .InferShape(SameShape)
                   .Build()
                   .value();
  ASSERT_TRUE(reg.Register(other, "b", /*allow_override=*/true).ok());
  EXPECT_EQ(reg.SourceOf("Scale"), "b");
  EXPECT_EQ(reg.Find("Scale")->inputs().size(), 1u);
}

TEST(OpRegistry, RegisterAllIsAllOrNothing) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto("A"), "first").ok());
  std::vector<OpProto> batch;
  batch.push_back(ScaleProto("B"));
  batch.push_back(ScaleProto("A"));
  batch.push_back(ScaleProto("B"));
  Status s = reg.RegisterAll(std::move(batch), "second", false);
  ExpectError(s, {"'A'", "first", "'B' is registered twice"});
  EXPECT_FALSE(reg.Has("B"));
  EXPECT_EQ(reg.GetAllTypes(), std::vector<std::string>{"A"});
}

TEST(OpRegistry, FactoryCreatesOpDescWithIrMetadataDefaultsAndDynamicPorts) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  auto op = reg.CreateOpDesc("Scale", "s1", {{"extra", 3}, {"aux", 2}, {"branches", 2}});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  const OpDesc& d = **op;
  EXPECT_EQ(d.GetName(), "s1");
  EXPECT_EQ(d.GetAllInputNames(),
            (std::vector<std::string>{"x", "bias", "extra0", "extra1", "extra2"}));
  EXPECT_TRUE(d.IsOptionalInput("bias"));
  EXPECT_EQ(d.GetInputDesc("bias").GetDataType(), DT_UNDEFINED);
  EXPECT_EQ(d.GetAllOutputNames(), (std::vector<std::string>{"y", "aux0", "aux1"}));
  ASSERT_EQ(d.GetIrInputs().size(), 3u);
  EXPECT_EQ(d.GetIrInputs()[2], (std::pair<std::string, IrInputType>{"extra", kIrInputDynamic}));
  EXPECT_EQ(d.GetIrAttrNames(), (std::vector<std::string>{"mode", "alpha", "axes"}));
  float alpha = 0;
  EXPECT_TRUE(AttrUtils::GetFloat(*op, "alpha", alpha));
  EXPECT_FLOAT_EQ(alpha, 1.5F);
  EXPECT_FALSE(AttrUtils::HasAttr(*op, "mode"));  // required: no default
  EXPECT_EQ(d.GetSubgraphIrNames().size(), 2u);
  EXPECT_EQ(d.GetSubgraphInstanceNames().size(), 3u);  // body + 2 branches
  EXPECT_TRUE(d.GetInferShapeFunc());
  EXPECT_TRUE(d.GetVerifyFunc());
}

TEST(OpRegistry, FactoryRejectsUnknownTypesAndPorts) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  ExpectError(reg.CreateOpDesc("Nope", "n").status(), {"'Nope'", "node 'n'"});
  ExpectError(reg.CreateOpDesc("Scale", "n", {{"x", 2}}).status(),
              {"no dynamic input, output or subgraph named 'x'"});
}

TEST(OpRegistry, InstalledFunctionsInferAndVerifyThroughOpDesc) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  OpDescPtr op = reg.CreateOpDesc("Scale", "s").value();
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT16)).ok());
  ASSERT_TRUE(op->InferShapeAndType().ok());
  EXPECT_EQ(op->GetOutputDesc(0).GetShape(), GeShape({2, 3}));
  EXPECT_EQ(op->GetOutputDesc(0).GetDataType(), DT_FLOAT16);  // from type symbol T
  ExpectError(op->Verify(), {"required attribute 'mode' is missing"});
  AttrUtils::SetStr(op, "mode", "fast");
  EXPECT_TRUE(op->Verify().ok()) << op->Verify().ToString();
}

// The optional infer-format function: installed on OpDescs of its type only, and run by
// OpRegistry::InferFormat on a graph node with the producer's desc copied in.
TEST(OpRegistry, InferFormatFunctionIsInstalledAndRunsOnGraphNodes) {
  OpRegistry reg;
  auto keeper = OpProtoBuilder("Keeper")
                    .Input("x", TensorType::ALL())
                    .Output("y", TensorType::ALL())
                    .InferShape([](InferContext& ctx) {
                      return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
                    })
                    .InferFormat([](InferContext& ctx) {
                      ctx.MutableOutputDesc(0)->SetFormat(ctx.InputDesc(0).GetFormat());
                      return Status::Ok();
                    })
                    .Build();
  ASSERT_TRUE(keeper.ok()) << keeper.status().message();
  ASSERT_TRUE(reg.Register(std::move(keeper).value(), "t").ok());
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  EXPECT_TRUE(reg.Find("Keeper")->infer_format());
  EXPECT_FALSE(reg.Find("Scale")->infer_format());
  OpDescPtr lone = reg.CreateOpDesc("Keeper", "lone").value();
  ASSERT_TRUE(lone->GetInferFormatFunc());
  EXPECT_FALSE(reg.CreateOpDesc("Scale", "s").value()->GetInferFormatFunc());
  ASSERT_TRUE(
      lone->UpdateInputDesc(0, GeTensorDesc(GeShape({1, 2, 2, 3}), FORMAT_NHWC, DT_FLOAT)).ok());
  ASSERT_TRUE(lone->InferFormat().ok());
  EXPECT_EQ(lone->GetOutputDesc(0).GetFormat(), FORMAT_NHWC);

  auto graph = std::make_shared<ComputeGraph>("g");
  auto src = std::make_shared<OpDesc>("src", "Source");
  ASSERT_TRUE(
      src->AddOutputDesc("y", GeTensorDesc(GeShape({1, 3, 2, 2}), FORMAT_NCHW, DT_FLOAT)).ok());
  NodePtr src_node = graph->AddNode(src).value();
  NodePtr keep_node = graph->AddNode(reg.CreateOpDesc("Keeper", "keep").value()).value();
  ASSERT_TRUE(
      GraphUtils::AddEdge(src_node->GetOutDataAnchor(0), keep_node->GetInDataAnchor(0)).ok());
  ASSERT_TRUE(reg.InferFormat(keep_node).ok());
  EXPECT_EQ(keep_node->GetOpDesc()->GetInputDesc(0).GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(keep_node->GetOpDesc()->GetOutputDesc(0).GetFormat(), FORMAT_NCHW);
  // Without a function nothing changes; an unknown type is an error naming it.
  NodePtr scale_node = graph->AddNode(reg.CreateOpDesc("Scale", "scale").value()).value();
  ASSERT_TRUE(
      GraphUtils::AddEdge(keep_node->GetOutDataAnchor(0), scale_node->GetInDataAnchor(0)).ok());
  const Format before = scale_node->GetOpDesc()->GetOutputDesc(0).GetFormat();
  ASSERT_TRUE(reg.InferFormat(scale_node).ok());
  EXPECT_EQ(scale_node->GetOpDesc()->GetOutputDesc(0).GetFormat(), before);
  ExpectError(reg.InferFormat(src_node), {"'Source'"});
}

TEST(OpRegistry, AGraphNodeIsInferredByItsOwnOpDescFunctions) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  auto graph = std::make_shared<ComputeGraph>("g");
  auto src = std::make_shared<OpDesc>("src", "Source");
  ASSERT_TRUE(src->AddOutputDesc("y", GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT)).ok());
  NodePtr src_node = graph->AddNode(src).value();

  // Made by the factory: the prototype's function infers, with the producer's desc.
  OpDescPtr made = reg.CreateOpDesc("Scale", "made").value();
  AttrUtils::SetStr(made, "mode", "m");
  NodePtr made_node = graph->AddNode(made).value();
  ASSERT_TRUE(
      GraphUtils::AddEdge(src_node->GetOutDataAnchor(0), made_node->GetInDataAnchor(0)).ok());
  ASSERT_TRUE(reg.InferShape(made_node).ok());
  EXPECT_EQ(made->GetOutputDesc(0).GetShape(), GeShape({2, 3}));

  // A function the caller set on the OpDesc is the one inference calls, and it sees which
  // inputs are linked.
  std::vector<bool> absent_seen;
  made->SetInferShapeFunc([&absent_seen](OpDesc& op, const InferInputs& inputs) {
    absent_seen = inputs.absent;
    return op.UpdateOutputDesc(0, GeTensorDesc(GeShape({7}), FORMAT_ND, DT_FLOAT));
  });
  ASSERT_TRUE(reg.InferShape(made_node).ok());
  EXPECT_EQ(made->GetOutputDesc(0).GetShape(), GeShape({7}));
  ASSERT_GE(absent_seen.size(), 2u);
  EXPECT_FALSE(absent_seen[0]);
  EXPECT_TRUE(absent_seen[1]) << "the optional bias is unlinked";

  // Made by hand (as a file reader does): the prototype's functions are installed first.
  auto bare = std::make_shared<OpDesc>("bare", "Scale");
  ASSERT_TRUE(bare->AddInputDesc("x", GeTensorDesc()).ok());
  ASSERT_TRUE(bare->AddOutputDesc("y", GeTensorDesc()).ok());
  AttrUtils::SetStr(bare, "mode", "m");
  NodePtr bare_node = graph->AddNode(bare).value();
  ASSERT_TRUE(
      GraphUtils::AddEdge(src_node->GetOutDataAnchor(0), bare_node->GetInDataAnchor(0)).ok());
  ASSERT_FALSE(bare->GetInferShapeFunc());
  ASSERT_TRUE(reg.InferShape(bare_node).ok());
  EXPECT_TRUE(bare->GetInferShapeFunc());
  EXPECT_EQ(bare->GetOutputDesc(0).GetShape(), GeShape({2, 3}));

  // A new type drops the old type's functions.
  made->SetType("Other");
  EXPECT_FALSE(made->GetInferShapeFunc());
  ExpectError(reg.InferShape(made_node), {"'Other'"});
}

TEST(OpRegistry, GenericVerifyChecksDtypesSymbolsAndAttrKinds) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  OpDescPtr op = reg.CreateOpDesc("Scale", "s").value();
  AttrUtils::SetStr(op, "mode", "m");
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT32)).ok());
  ExpectError(reg.Verify(*op), {"node 's' (Scale)", "input x has dtype DT_INT32", "DT_FLOAT"});
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE(op->UpdateInputDesc(1, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_FLOAT16)).ok());
  ExpectError(reg.Verify(*op), {"input bias has dtype DT_FLOAT16 but input x has DT_FLOAT", "T"});
  ASSERT_TRUE(op->UpdateInputDesc(1, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_FLOAT)).ok());
  EXPECT_TRUE(reg.Verify(*op).ok());
  AttrUtils::SetInt(op, "alpha", 3);
  ExpectError(reg.Verify(*op), {"attribute 'alpha' is VT_INT, expected VT_FLOAT"});
}

TEST(OpRegistry, MissingRequiredInputIsAnError) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  OpDescPtr op = reg.CreateOpDesc("Scale", "s").value();
  GeTensorDesc undefined;
  undefined.SetDataType(DT_UNDEFINED);
  ASSERT_TRUE(op->UpdateInputDesc(0, undefined).ok());
  ExpectError(reg.InferShape(*op), {"required input 'x' is missing"});
}

TEST(OpRegistry, AttachProtoInstallsFunctionsOnAForeignOpDesc) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  OpDesc op("loaded", "Scale");
  ASSERT_TRUE(op.AddInputDesc("x", GeTensorDesc(GeShape({4}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE(op.AddOutputDesc("y", GeTensorDesc()).ok());
  ASSERT_TRUE(reg.AttachProto(op).ok());
  EXPECT_EQ(op.GetIrInputs().size(), 3u);
  ASSERT_TRUE(op.InferShapeAndType().ok());
  EXPECT_EQ(op.GetOutputDesc(0).GetShape(), GeShape({4}));
}

TEST(OpRegistry, UnnamedPortsOfAHandMadeOpDescMatchByPosition) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  OpDesc op("hand", "Scale");
  ASSERT_TRUE(op.AddInputDesc(GeTensorDesc(GeShape({7}), FORMAT_ND, DT_DOUBLE)).ok());
  ASSERT_TRUE(op.AddOutputDesc(GeTensorDesc()).ok());
  ASSERT_TRUE(reg.InferShape(op).ok());
  EXPECT_EQ(op.GetOutputDesc(0).GetShape(), GeShape({7}));
  EXPECT_EQ(op.GetOutputDesc(0).GetDataType(), DT_DOUBLE);
}

TEST(OperatorFactory, UsesTheProcessRegistry) {
  ASSERT_TRUE(OpRegistry::Instance().Register(ScaleProto("FactoryScale"), "test", true).ok());
  EXPECT_TRUE(OperatorFactory::IsExistOp("FactoryScale"));
  auto op = OperatorFactory::CreateOperator("f", "FactoryScale", {{"extra", 1}});
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->GetAllInputsSize(), 3u);
  const auto types = OperatorFactory::GetOpsTypeList();
  EXPECT_NE(std::find(types.begin(), types.end(), "FactoryScale"), types.end());
}

TEST(InferContext, ReadsAttrsWithDefaultsAndConstValues) {
  OpRegistry reg;
  ASSERT_TRUE(reg.Register(ScaleProto(), "t").ok());
  auto proto = reg.Find("Scale");
  OpDesc op("s", "Scale");
  ASSERT_TRUE(op.AddInputDesc("x", GeTensorDesc(GeShape({3}), FORMAT_ND, DT_FLOAT)).ok());
  InferContext ctx(op, proto.get());
  EXPECT_FLOAT_EQ(ctx.AttrFloat("alpha"), 1.5F);  // prototype default: not on the OpDesc
  EXPECT_EQ(ctx.AttrInts("axes"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ctx.AttrInt("missing", 7), 7);
  EXPECT_EQ(ctx.GetConstInput(0), nullptr);
  GeTensor t = testing::MakeTensor<int32_t>({4, -5, 6}, DT_INT32, {3});
  ctx.SetConstInput(0, &t);
  EXPECT_EQ(ctx.GetConstInts(0), (std::vector<int64_t>{4, -5, 6}));
  GeTensor h = testing::MakeTensor<uint16_t>({0x3C00, 0xC000}, DT_FLOAT16, {2});  // 1.0, -2.0
  ctx.SetConstInput(0, &h);
  EXPECT_EQ(ctx.GetConstFloats(0), (std::vector<double>{1.0, -2.0}));
  ExpectError(ctx.Error("boom"), {"node 's' (Scale): boom"});
}

TEST(InferContext, NamesAnInputOrOutputWithoutANameByItsIndex) {
  OpDesc op("s", "Scale");
  ASSERT_TRUE(op.AddInputDesc("x", GeTensorDesc(GeShape({3}), FORMAT_ND, DT_FLOAT)).ok());
  InferContext ctx(op, nullptr);
  EXPECT_EQ(ctx.InputName(0), "x");
  EXPECT_EQ(ctx.InputName(12), "#12");
  EXPECT_EQ(ctx.OutputName(0), "#0");
}

}  // namespace
}  // namespace ge

// Each pass where it fires and where it must not.
#include "ge/compiler/passes.h"

#include <gtest/gtest.h>

#include "compiler_test_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/ops/infer_context.h"
#include "ge/ops/op_proto.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

using testing::ConstInput;
using testing::CountType;
using testing::ProtoGraph;
using testing::RunPass;
using testing::TensorValues;

class PassesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  // Prepare + the optimize passes the test names, then DCE.
  static void Optimize(ComputeGraph& graph, std::unique_ptr<GraphPass> pass,
                       const std::map<std::string, std::string>& options = {}) {
    auto infer = CreateInferShapePass();
    RunPass(*infer, graph, options);
    RunPass(*pass, graph, options);
    auto dce = CreateDeadCodeEliminationPass();
    RunPass(*dce, graph, options);
  }

  static NodePtr OutputProducer(const ComputeGraph& graph, int index = 0) {
    NodePtr out = graph.FindNode("output");
    auto peer = out->GetInDataAnchor(index)->GetPeerOutAnchor();
    return peer == nullptr ? nullptr : peer->GetOwnerNode();
  }
};

// ---------------- InferShape ----------------

// A prototype's optional infer-format function runs in the InferShape pass: this test-only op
// keeps its input's layout on its output (as an NHWC-preserving elementwise op would), and fails
// on NC1HWC0 with a message the pass passes on.
TEST_F(PassesTest, InferShapeRunsThePrototypesInferFormatFunction) {
  const std::string type = "TestLayoutKeeper";
  if (!OpRegistry::Instance().Has(type)) {
    auto proto = OpProtoBuilder(type)
                     .Input("x", TensorType::FloatingDataType())
                     .Output("y", TensorType::FloatingDataType())
                     .InferShape([](InferContext& ctx) {
                       return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
                     })
                     .InferFormat([](InferContext& ctx) {
                       const Format format = ctx.InputDesc(0).GetFormat();
                       if (format == FORMAT_NC1HWC0) return ctx.Error("cannot keep NC1HWC0");
                       ctx.MutableOutputDesc(0)->SetFormat(format);
                       ctx.MutableOutputDesc(0)->SetOriginFormat(format);
                       return Status::Ok();
                     })
                     .Build();
    ASSERT_TRUE(proto.ok()) << proto.status().message();
    ASSERT_TRUE(OpRegistry::Instance().Register(std::move(proto).value(), "passes_test").ok());
  }
  for (Format format : {FORMAT_NHWC, FORMAT_NCHW}) {
    ProtoGraph b;
    NodePtr x = b.Data("x", {1, 4, 4, 8});
    x->GetOpDesc()->MutableOutputDesc(0)->SetFormat(format);
    NodePtr keep = b.Op(type, "keep", {{x, 0}});
    NodePtr relu = b.Op("Relu", "relu", {{keep, 0}});
    b.Output({{relu, 0}});
    RunPass(*CreateInferShapePass(), *b.graph());
    EXPECT_EQ(keep->GetOpDesc()->GetOutputDesc(0).GetFormat(), format);
    EXPECT_EQ(keep->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
              (std::vector<int64_t>{1, 4, 4, 8}));
    // Relu's prototype has no infer-format function: its output keeps the format it had.
    EXPECT_EQ(relu->GetOpDesc()->GetOutputDesc(0).GetFormat(), FORMAT_ND);
  }
  ProtoGraph bad;
  NodePtr x = bad.Data("x", {1, 1, 4, 4, 16});
  x->GetOpDesc()->MutableOutputDesc(0)->SetFormat(FORMAT_NC1HWC0);
  bad.Output({{bad.Op(type, "keep", {{x, 0}}), 0}});
  Status s = testing::RunPassStatus(*CreateInferShapePass(), *bad.graph());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("format inference of node 'keep'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("cannot keep NC1HWC0"), std::string::npos) << s.message();
}

TEST_F(PassesTest, InferShapeBroadcastsAndReportsMismatchWithBothShapes) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2, 3});
  NodePtr y = b.Data("y", {3});
  NodePtr add = b.Op("Add", "add", {{x, 0}, {y, 0}});
  b.Output({{add, 0}});
  RunPass(*CreateInferShapePass(), *b.graph());
  EXPECT_EQ(add->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));

  ProtoGraph bad;
  NodePtr p = bad.Data("p", {2, 3});
  NodePtr q = bad.Data("q", {4});
  NodePtr bad_add = bad.Op("Add", "bad_add", {{p, 0}, {q, 0}});
  bad.Output({{bad_add, 0}});
  Status s = testing::RunPassStatus(*CreateInferShapePass(), *bad.graph());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bad_add"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[2,3]"), std::string::npos) << s.message();
}

TEST_F(PassesTest, InferShapeRejectsACycle) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2});
  NodePtr a = b.Op("Add", "a", {{x, 0}, {nullptr, 0}});
  NodePtr r = b.Op("Relu", "r", {{a, 0}});
  ASSERT_TRUE(GraphUtils::AddEdge(r->GetOutDataAnchor(0), a->GetInDataAnchor(1)).ok());
  b.Output({{r, 0}});
  Status s = testing::RunPassStatus(*CreateInferShapePass(), *b.graph());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cycle"), std::string::npos) << s.message();
}

TEST_F(PassesTest, InferShapeGoesThroughIfBranchesAndMergesThem) {
  ProtoGraph b;
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr x = b.Data("x", {2, 3});
  NodePtr if_node = b.Op("If", "if", {{cond, 0}, {x, 0}}, {}, {{"input", 1}, {"output", 1}});
  b.Output({{if_node, 0}});
  auto branch = [](const std::string& name, bool transpose) {
    ProtoGraph sub(name);
    NodePtr in = sub.SubgraphData("in", 1, {});
    NodePtr body = transpose
                       ? sub.Op("Transpose", "t", {{in, 0}}, {{"perm", std::vector<int64_t>{1, 0}}})
                       : sub.Op("Relu", "r", {{in, 0}});
    sub.Output({{body, 0}});
    return sub.graph();
  };
  ASSERT_TRUE(NodeUtils::SetSubgraph(if_node, 0, branch("then", false)).ok());
  ASSERT_TRUE(NodeUtils::SetSubgraph(if_node, 1, branch("else", true)).ok());
  RunPass(*CreateInferShapePass(), *b.graph());
  // then gives [2,3], else [3,2]: both dims differ, the rank agrees.
  EXPECT_EQ(if_node->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{-1, -1}));
  NodePtr t = b.graph()->FindNodeInAllGraphs("t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{3, 2}));
}

// ONNX Scan: the body sees one slice of the scan input (its scan axis removed); the outputs are
// the final state and the body's slices stacked along a new axis of unknown length.
TEST_F(PassesTest, InferShapeGivesScanBodiesSlicesAndStacksTheirOutputs) {
  ProtoGraph b;
  NodePtr state = b.Data("state", {4});
  NodePtr x = b.Data("x", {4, 7});
  NodePtr scan = b.Op("Scan", "scan", {{state, 0}, {x, 0}},
                      {{"num_scan_inputs", AttrValue(int64_t{1})},
                       {"scan_input_axes", AttrValue(std::vector<int64_t>{-1})},
                       {"scan_output_axes", AttrValue(std::vector<int64_t>{1})}},
                      {{"initial_state_and_scan_inputs", 2}, {"implicit_input", 0}, {"output", 2}});
  b.Output({{scan, 0}, {scan, 1}});
  ProtoGraph body("body");
  NodePtr s = body.SubgraphData("s", 0, {});
  NodePtr slice = body.SubgraphData("slice", 1, {});
  NodePtr sum = body.Op("Add", "sum", {{s, 0}, {slice, 0}});
  body.Output({{sum, 0}, {sum, 0}});
  ASSERT_TRUE(NodeUtils::SetSubgraph(scan, 0, body.graph()).ok());
  RunPass(*CreateInferShapePass(), *b.graph());
  EXPECT_EQ(slice->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{4}));
  EXPECT_EQ(scan->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{4}));
  EXPECT_EQ(scan->GetOpDesc()->GetOutputDesc(1).GetShape().GetDims(),
            (std::vector<int64_t>{4, -1}));
  EXPECT_EQ(scan->GetOpDesc()->GetOutputDesc(1).GetDataType(), DT_FLOAT);

  // A num_scan_inputs that does not fit the inputs is an error naming the node.
  AttrUtils::SetInt(*scan->GetOpDesc(), "num_scan_inputs", 3);
  Status bad = testing::RunPassStatus(*CreateInferShapePass(), *b.graph());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("'scan' (Scan)"), std::string::npos) << bad.message();
  EXPECT_NE(bad.message().find("num_scan_inputs is 3"), std::string::npos) << bad.message();
}

TEST_F(PassesTest, ApplyInputShapesSetsDataAndRefusesConflicts) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {-1, 16});
  NodePtr r = b.Op("Relu", "r", {{x, 0}});
  b.Output({{r, 0}});
  RunPass(*CreateApplyInputShapesPass(), *b.graph(), {{"ge.inputShape", "x:4,16"}});
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{4, 16}));

  Status wrong_dim = testing::RunPassStatus(*CreateApplyInputShapesPass(), *b.graph(),
                                            {{"ge.inputShape", "x:4,8"}});
  ASSERT_FALSE(wrong_dim.ok());
  EXPECT_NE(wrong_dim.message().find("fixes it at 16"), std::string::npos) << wrong_dim.message();
  Status wrong_name = testing::RunPassStatus(*CreateApplyInputShapesPass(), *b.graph(),
                                             {{"ge.inputShape", "y:4,16"}});
  ASSERT_FALSE(wrong_name.ok());
  EXPECT_NE(wrong_name.message().find("inputs are: x"), std::string::npos) << wrong_name.message();
  Status wrong_rank =
      testing::RunPassStatus(*CreateApplyInputShapesPass(), *b.graph(), {{"ge.inputShape", "x:4"}});
  ASSERT_FALSE(wrong_rank.ok());
  EXPECT_NE(wrong_rank.message().find("rank 1"), std::string::npos) << wrong_rank.message();
}

TEST_F(PassesTest, NodesAreVerifiedAgainstTheirPrototypes) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2});
  NodePtr a = b.Op("Add", "half_add", {{x, 0}});  // second input missing
  b.Output({{a, 0}});
  Status s = testing::RunPassStatus(*CreateInferShapePass(), *b.graph());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("half_add"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("required input"), std::string::npos) << s.message();
  // Unknown types are all named at once.
  ProtoGraph u;
  NodePtr ux = u.Data("ux", {2});
  for (const char* name : {"m1", "m2"}) {
    OpDescPtr op = std::make_shared<OpDesc>(name, "Mystery");
    ASSERT_TRUE(op->AddInputDesc("x", GeTensorDesc()).ok());
    NodePtr n = *u.graph()->AddNode(op);
    ASSERT_TRUE(GraphUtils::AddEdge(ux->GetOutDataAnchor(0), n->GetInDataAnchor(0)).ok());
  }
  Status unknown = testing::RunPassStatus(*CreateVerifyNodesPass(), *u.graph());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("2 node(s)"), std::string::npos) << unknown.message();
  EXPECT_NE(unknown.message().find("'m2' has type Mystery"), std::string::npos)
      << unknown.message();
}

// ---------------- ConstantFolding ----------------

TEST_F(PassesTest, FoldsArithmeticOnConstants) {
  ProtoGraph b;
  NodePtr a = b.Const<float>("a", DT_FLOAT, {2}, {1.5F, 2.0F});
  NodePtr c = b.Const<float>("c", DT_FLOAT, {2, 1}, {10.0F, 20.0F});
  NodePtr add = b.Op("Add", "add", {{a, 0}, {c, 0}});
  NodePtr neg = b.Op("Neg", "neg", {{add, 0}});
  b.Output({{neg, 0}});
  Optimize(*b.graph(), CreateConstantFoldingPass());
  NodePtr folded = OutputProducer(*b.graph());
  ASSERT_EQ(folded->GetType(), "Const");
  auto value = OpDescUtils::GetConstValue(*folded);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(TensorValues<float>(*value), (std::vector<float>{-11.5F, -12.0F, -21.5F, -22.0F}));
  EXPECT_EQ(b.graph()->GetAllNodesSize(), 2u);  // the Const and NetOutput
}

TEST_F(PassesTest, FoldsTheShapeSubgraphOfADynamicReshape) {
  // x -> Shape -> Gather(1) -> Unsqueeze -> Concat([-1], .) -> Reshape(x, .), as exporters write.
  ProtoGraph b;
  NodePtr x = b.Data("x", {2, 16});
  NodePtr shape = b.Op("Shape", "shape", {{x, 0}});
  NodePtr one = b.Const<int64_t>("one", DT_INT64, {}, {1});
  NodePtr gather = b.Op("GatherV2", "gather", {{shape, 0}, {one, 0}});
  NodePtr axes = b.Const<int64_t>("axes", DT_INT64, {1}, {0});
  NodePtr unsq = b.Op("Unsqueeze", "unsqueeze", {{gather, 0}, {axes, 0}});
  NodePtr minus = b.Const<int64_t>("minus", DT_INT64, {1}, {-1});
  NodePtr concat = b.Op("ConcatV2", "concat", {{minus, 0}, {unsq, 0}},
                        {{"axis", int64_t{0}}, {"N", int64_t{2}}}, {{"x", 2}});
  NodePtr reshape = b.Op("Reshape", "reshape", {{x, 0}, {concat, 0}});
  b.Output({{reshape, 0}});
  PassReport report;
  {
    RunPass(*CreateInferShapePass(), *b.graph());
    EXPECT_EQ(reshape->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
              (std::vector<int64_t>{-1, -1}));  // the shape input is not a constant yet
    auto fold = CreateConstantFoldingPass();
    report = RunPass(*fold, *b.graph());
    RunPass(*CreateDeadCodeEliminationPass(), *b.graph());
  }
  EXPECT_EQ(report.rewrites, 4);
  EXPECT_EQ(report.counters["folded Shape"], 1);
  for (const char* type : {"Shape", "GatherV2", "Unsqueeze", "ConcatV2"}) {
    EXPECT_EQ(CountType(*b.graph(), type), 0u) << type;
  }
  NodePtr shape_const = ConstInput(reshape, 1);
  ASSERT_NE(shape_const, nullptr);
  EXPECT_EQ(TensorValues<int64_t>(*OpDescUtils::GetConstValue(*shape_const)),
            (std::vector<int64_t>{-1, 16}));
  EXPECT_EQ(reshape->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{2, 16}));
}

TEST_F(PassesTest, DoesNotFoldShapeOfAnUnknownDimension) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {-1, 16});
  NodePtr shape = b.Op("Shape", "shape", {{x, 0}});
  b.Output({{shape, 0}});
  Optimize(*b.graph(), CreateConstantFoldingPass());
  EXPECT_EQ(CountType(*b.graph(), "Shape"), 1u);
}

TEST_F(PassesTest, FoldingRespectsTheSizeCapTheSwitchAndBadValues) {
  auto build = [](ProtoGraph& b) {
    NodePtr big = b.Const<float>("big", DT_FLOAT, {100}, std::vector<float>(100, 1.0F));
    NodePtr neg = b.Op("Neg", "neg", {{big, 0}});
    b.Output({{neg, 0}});
  };
  ProtoGraph capped;
  build(capped);
  RunPass(*CreateInferShapePass(), *capped.graph());
  PassReport report = RunPass(*CreateConstantFoldingPass(), *capped.graph(),
                              {{"openge.constantFoldingMaxBytes", "100"}});
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(CountType(*capped.graph(), "Neg"), 1u);
  EXPECT_EQ(report.counters["not folded: larger than openge.constantFoldingMaxBytes"], 1);

  ProtoGraph off;
  build(off);
  RunPass(*CreateInferShapePass(), *off.graph());
  report = RunPass(*CreateConstantFoldingPass(), *off.graph(), {{"ge.oo.constantFolding", "0"}});
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(CountType(*off.graph(), "Neg"), 1u);

  // A kernel that refuses its inputs (an index out of range) leaves the node, and says why: the
  // model then fails where it runs, with the kernel's own message.
  ProtoGraph gather;
  NodePtr data = gather.Const<float>("data", DT_FLOAT, {2}, {1.0F, 2.0F});
  NodePtr index = gather.Const<int64_t>("index", DT_INT64, {1}, {5});
  NodePtr g = gather.Op("GatherV2", "gather", {{data, 0}, {index, 0}}, {{"axis", int64_t{0}}});
  gather.Output({{g, 0}});
  RunPass(*CreateInferShapePass(), *gather.graph());
  report = RunPass(*CreateConstantFoldingPass(), *gather.graph());
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(CountType(*gather.graph(), "GatherV2"), 1u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("node 'gather' (GatherV2) not folded"), std::string::npos)
      << report.notes[0];
}

// Folding runs the engine's kernel, so a folded value is what the model computes when it runs:
// integer division by zero gives the CPU engine's 0, at compile time as at run time.
TEST_F(PassesTest, AFoldedValueIsTheEnginesValue) {
  ProtoGraph div;
  NodePtr one = div.Const<int64_t>("one", DT_INT64, {2}, {7, -7});
  NodePtr zero = div.Const<int64_t>("zero", DT_INT64, {2}, {0, 2});
  NodePtr q = div.Op("RealDiv", "div", {{one, 0}, {zero, 0}});
  div.Output({{q, 0}});
  RunPass(*CreateInferShapePass(), *div.graph());
  PassReport report = RunPass(*CreateConstantFoldingPass(), *div.graph());
  EXPECT_EQ(report.counters["folded on an engine"], 1);
  EXPECT_EQ(CountType(*div.graph(), "RealDiv"), 0u);
  NodePtr folded = OutputProducer(*div.graph());
  ASSERT_EQ(folded->GetType(), "Const");
  EXPECT_EQ(TensorValues<int64_t>(*OpDescUtils::GetConstValue(*folded)),
            (std::vector<int64_t>{0, -3}));
}

TEST_F(PassesTest, FoldsCastSliceTransposeAndGatherValues) {
  ProtoGraph b;
  NodePtr f = b.Const<float>("f", DT_FLOAT, {3}, {1.7F, -2.5F, 3.0F});
  NodePtr cast = b.Op("Cast", "cast", {{f, 0}}, {{"to", DT_INT32}});
  NodePtr seq = b.Const<int64_t>("seq", DT_INT64, {5}, {0, 1, 2, 3, 4});
  NodePtr s1 = b.Const<int64_t>("s1", DT_INT64, {1}, {-1});
  NodePtr e1 = b.Const<int64_t>("e1", DT_INT64, {1}, {-100});
  NodePtr st = b.Const<int64_t>("st", DT_INT64, {1}, {-2});
  NodePtr reversed = b.Op("Slice", "slice", {{seq, 0}, {s1, 0}, {e1, 0}, {nullptr, 0}, {st, 0}});
  NodePtr m = b.Const<float>("m", DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  NodePtr t = b.Op("Transpose", "transpose", {{m, 0}}, {{"perm", std::vector<int64_t>{1, 0}}});
  NodePtr idx = b.Const<int64_t>("idx", DT_INT64, {2}, {-1, 0});
  NodePtr g = b.Op("GatherV2", "gather", {{m, 0}, {idx, 0}}, {{"axis", int64_t{1}}});
  b.Output({{cast, 0}, {reversed, 0}, {t, 0}, {g, 0}});
  Optimize(*b.graph(), CreateConstantFoldingPass());
  auto value = [&](int i) { return *OpDescUtils::GetConstValue(*OutputProducer(*b.graph(), i)); };
  EXPECT_EQ(TensorValues<int32_t>(value(0)), (std::vector<int32_t>{1, -2, 3}));
  EXPECT_EQ(TensorValues<int64_t>(value(1)), (std::vector<int64_t>{4, 2, 0}));
  EXPECT_EQ(value(2).GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(TensorValues<float>(value(2)), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(TensorValues<float>(value(3)), (std::vector<float>{3, 1, 6, 4}));
}

// ---------------- RemoveIdentity ----------------

TEST_F(PassesTest, RemovesIdentitiesAndKeepsOneWithoutInput) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {4});
  NodePtr id1 = b.Op("Identity", "id1", {{x, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{id1, 0}});
  NodePtr id2 = b.Op("Identity", "id2", {{relu, 0}});
  NodePtr lonely = b.Op("Identity", "lonely", {});
  NodePtr relu2 = b.Op("Relu", "relu2", {{lonely, 0}});
  b.Output({{id2, 0}, {relu2, 0}});
  PassReport report = RunPass(*CreateRemoveIdentityPass(), *b.graph());
  EXPECT_EQ(report.rewrites, 2);
  EXPECT_EQ(CountType(*b.graph(), "Identity"), 1u);
  EXPECT_EQ(relu->GetInDataAnchor(0)->GetPeerOutAnchor()->GetOwnerNode(), x);
  EXPECT_EQ(OutputProducer(*b.graph()), relu);
  EXPECT_NE(b.graph()->FindNode("lonely"), nullptr);
}

// ---------------- SimplifyChains ----------------

TEST_F(PassesTest, TransposePairsCancelOrCombine) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2, 3, 4});
  NodePtr t1 = b.Op("Transpose", "t1", {{x, 0}}, {{"perm", std::vector<int64_t>{1, 0, 2}}});
  NodePtr t2 = b.Op("Transpose", "t2", {{t1, 0}}, {{"perm", std::vector<int64_t>{1, 0, 2}}});
  NodePtr t3 = b.Op("Transpose", "t3", {{x, 0}}, {{"perm", std::vector<int64_t>{0, 2, 1}}});
  NodePtr t4 = b.Op("Transpose", "t4", {{t3, 0}}, {{"perm", std::vector<int64_t>{1, 0, 2}}});
  b.Output({{t2, 0}, {t4, 0}});
  Optimize(*b.graph(), CreateSimplifyChainsPass());
  EXPECT_EQ(OutputProducer(*b.graph(), 0), x);
  ASSERT_EQ(CountType(*b.graph(), "Transpose"), 1u);
  NodePtr left = OutputProducer(*b.graph(), 1);
  EXPECT_EQ(left, t4);
  std::vector<int64_t> perm;
  AttrUtils::GetListInt(*left->GetOpDesc(), "perm", perm);
  EXPECT_EQ(perm, (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(left->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{4, 2, 3}));
}

TEST_F(PassesTest, ReshapeChainsBecomeOneReshape) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2, 3, 4});
  NodePtr shape = b.Const<int64_t>("shape", DT_INT64, {2}, {6, 4});
  NodePtr r = b.Op("Reshape", "r", {{x, 0}, {shape, 0}});
  NodePtr axes = b.Const<int64_t>("axes", DT_INT64, {1}, {0});
  NodePtr u = b.Op("Unsqueeze", "u", {{r, 0}, {axes, 0}});
  NodePtr same = b.Const<int64_t>("same", DT_INT64, {3}, {2, 3, 4});
  NodePtr noop = b.Op("Reshape", "noop", {{x, 0}, {same, 0}});
  b.Output({{u, 0}, {noop, 0}});
  Optimize(*b.graph(), CreateSimplifyChainsPass());
  EXPECT_EQ(OutputProducer(*b.graph(), 1), x);
  NodePtr merged = OutputProducer(*b.graph(), 0);
  ASSERT_EQ(merged->GetType(), "Reshape");
  EXPECT_EQ(merged->GetInDataAnchor(0)->GetPeerOutAnchor()->GetOwnerNode(), x);
  EXPECT_EQ(merged->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{1, 6, 4}));
  EXPECT_EQ(CountType(*b.graph(), "Reshape"), 1u);
  EXPECT_EQ(CountType(*b.graph(), "Unsqueeze"), 0u);
}

TEST_F(PassesTest, OnlyLosslessCastPairsGo) {
  ProtoGraph b;
  NodePtr i = b.Data("i", {4}, DT_INT32);
  NodePtr up = b.Op("Cast", "up", {{i, 0}}, {{"to", DT_INT64}});
  NodePtr down = b.Op("Cast", "down", {{up, 0}}, {{"to", DT_INT32}});
  NodePtr f = b.Data("f", {4}, DT_FLOAT);
  NodePtr trunc = b.Op("Cast", "trunc", {{f, 0}}, {{"to", DT_INT32}});
  NodePtr back = b.Op("Cast", "back", {{trunc, 0}}, {{"to", DT_FLOAT}});
  b.Output({{down, 0}, {back, 0}});
  Optimize(*b.graph(), CreateSimplifyChainsPass());
  EXPECT_EQ(OutputProducer(*b.graph(), 0), i);
  EXPECT_EQ(OutputProducer(*b.graph(), 1), back);
  EXPECT_EQ(back->GetInDataAnchor(0)->GetPeerOutAnchor()->GetOwnerNode(), trunc);
  EXPECT_EQ(CountType(*b.graph(), "Cast"), 2u);
}

TEST_F(PassesTest, APadOfZerosGoesAndARealPadStays) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {1, 2, 4, 4});
  NodePtr zeros = b.Const<int64_t>("zeros", DT_INT64, {8}, {0, 0, 0, 0, 0, 0, 0, 0});
  NodePtr ones = b.Const<int64_t>("ones", DT_INT64, {8}, {0, 0, 1, 1, 0, 0, 1, 1});
  NodePtr noop = b.Op("PadV3", "noop", {{x, 0}, {zeros, 0}});
  NodePtr real = b.Op("PadV3", "real", {{x, 0}, {ones, 0}});
  b.Output({{noop, 0}, {real, 0}});
  Optimize(*b.graph(), CreateSimplifyChainsPass());
  EXPECT_EQ(OutputProducer(*b.graph(), 0), x);
  EXPECT_EQ(OutputProducer(*b.graph(), 1), real);
  EXPECT_EQ(CountType(*b.graph(), "PadV3"), 1u);
}

// ---------------- CSE ----------------

TEST_F(PassesTest, CseMergesEqualNodesAndConstsOnly) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {4});
  NodePtr r1 = b.Op("Relu", "r1", {{x, 0}});
  NodePtr r2 = b.Op("Relu", "r2", {{x, 0}});
  NodePtr l1 = b.Op("LeakyRelu", "l1", {{x, 0}}, {{"alpha", 0.1F}});
  NodePtr l2 = b.Op("LeakyRelu", "l2", {{x, 0}}, {{"alpha", 0.2F}});
  NodePtr c1 = b.Const<float>("c1", DT_FLOAT, {1}, {2.0F});
  NodePtr c2 = b.Const<float>("c2", DT_FLOAT, {1}, {2.0F});
  NodePtr c3 = b.Const<float>("c3", DT_FLOAT, {1}, {3.0F});
  NodePtr m1 = b.Op("Mul", "m1", {{r1, 0}, {c1, 0}});
  NodePtr m2 = b.Op("Mul", "m2", {{r2, 0}, {c2, 0}});
  NodePtr m3 = b.Op("Mul", "m3", {{r2, 0}, {c3, 0}});
  b.Output({{m1, 0}, {m2, 0}, {m3, 0}, {l1, 0}, {l2, 0}});
  RunPass(*CreateInferShapePass(), *b.graph());
  PassReport report = RunPass(*CreateCsePass(), *b.graph());
  EXPECT_EQ(report.counters["merged Relu"], 1);
  EXPECT_EQ(report.counters["merged Const"], 1);
  EXPECT_EQ(report.counters["merged Mul"], 1);  // m2 equals m1 once r2 and c2 merged
  EXPECT_EQ(CountType(*b.graph(), "Relu"), 1u);
  EXPECT_EQ(CountType(*b.graph(), "LeakyRelu"), 2u);
  EXPECT_EQ(CountType(*b.graph(), "Mul"), 2u);
  EXPECT_EQ(OutputProducer(*b.graph(), 0), OutputProducer(*b.graph(), 1));
  EXPECT_NE(OutputProducer(*b.graph(), 0), OutputProducer(*b.graph(), 2));
}

// Consts are bucketed by their first and last bytes; ones that agree there and differ in the
// middle stay apart, equal ones merge.
TEST_F(PassesTest, CseTellsLargeConstsApartByEveryByte) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2000});
  std::vector<float> values(2000, 1.0F);
  NodePtr c1 = b.Const<float>("c1", DT_FLOAT, {2000}, values);
  NodePtr c2 = b.Const<float>("c2", DT_FLOAT, {2000}, values);
  values[1000] = 5.0F;  // past the sampled head and before the sampled tail
  NodePtr c3 = b.Const<float>("c3", DT_FLOAT, {2000}, values);
  NodePtr m1 = b.Op("Mul", "m1", {{x, 0}, {c1, 0}});
  NodePtr m2 = b.Op("Mul", "m2", {{x, 0}, {c2, 0}});
  NodePtr m3 = b.Op("Mul", "m3", {{x, 0}, {c3, 0}});
  b.Output({{m1, 0}, {m2, 0}, {m3, 0}});
  RunPass(*CreateInferShapePass(), *b.graph());
  PassReport report = RunPass(*CreateCsePass(), *b.graph());
  EXPECT_EQ(report.counters["merged Const"], 1);
  EXPECT_EQ(CountType(*b.graph(), "Const"), 2u);
  EXPECT_EQ(OutputProducer(*b.graph(), 0), OutputProducer(*b.graph(), 1));
  EXPECT_NE(OutputProducer(*b.graph(), 0), OutputProducer(*b.graph(), 2));
}

// ---------------- DCE ----------------

TEST_F(PassesTest, DceRemovesWhatReachesNoOutputButKeepsInputs) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {4});
  NodePtr unused = b.Data("unused", {4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr dead = b.Op("Sigmoid", "dead", {{x, 0}});
  b.Op("Tanh", "dead2", {{dead, 0}});
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr if_node = b.Op("If", "dead_if", {{cond, 0}, {x, 0}}, {}, {{"input", 1}, {"output", 1}});
  for (uint32_t i = 0; i < 2; ++i) {
    ProtoGraph sub(i == 0 ? "then" : "else");
    NodePtr in = sub.SubgraphData("in", 1, {});
    sub.Output({{in, 0}});
    ASSERT_TRUE(NodeUtils::SetSubgraph(if_node, i, sub.graph()).ok());
  }
  b.Output({{relu, 0}});
  ASSERT_EQ(b.graph()->GetAllSubgraphs().size(), 2u);
  PassReport report = RunPass(*CreateDeadCodeEliminationPass(), *b.graph());
  EXPECT_EQ(b.graph()->FindNode("dead"), nullptr);
  EXPECT_EQ(b.graph()->FindNode("dead2"), nullptr);
  EXPECT_EQ(b.graph()->FindNode("dead_if"), nullptr);
  EXPECT_NE(b.graph()->FindNode("unused"), nullptr);
  EXPECT_NE(b.graph()->FindNode("relu"), nullptr);
  EXPECT_TRUE(b.graph()->GetAllSubgraphs().empty());
  EXPECT_EQ(report.counters["removed subgraphs"], 2);
}

// ---------------- the pass machinery ----------------

class AlwaysRewrites final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "flip"; }
  std::vector<std::string> StartTypes() const override { return {"Relu"}; }
  bool Match(const Node&, PassContext&) const override { return true; }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph&, PassContext&) const override {
    AttrUtils::SetInt(*node->GetOpDesc(), "_flips", 1);
    return true;
  }
};

TEST_F(PassesTest, RewriteDriverStopsAtItsBoundAndSaysSo) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{relu, 0}});
  std::vector<std::unique_ptr<NodeRewrite>> rewrites;
  rewrites.push_back(std::make_unique<AlwaysRewrites>());
  RewritePass pass("Flip", std::move(rewrites));
  PassReport report = RunPass(pass, *b.graph(), {{"openge.rewriteIterationLimit", "5"}});
  EXPECT_EQ(report.rewrites, 5);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("stopped after 5 sweeps"), std::string::npos);
}

class BreaksTheGraph final : public GraphPass {
 public:
  std::string_view Name() const override { return "Breaker"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    NodePtr relu = graph.FindNode("relu");
    NodePtr x = graph.FindNode("x");
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(relu->GetOutControlAnchor(), x->GetInControlAnchor()));
    return true;
  }
};

class AddsAStrayInput final : public GraphPass {
 public:
  std::string_view Name() const override { return "Stray"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    GE_RETURN_IF_ERROR(graph.FindNode("relu")->GetOpDesc()->AddInputDesc("stray", GeTensorDesc()));
    return true;
  }
};

TEST_F(PassesTest, VerifierAfterAPassNamesThePass) {
  for (int which = 0; which < 2; ++which) {
    ProtoGraph b;
    NodePtr x = b.Data("x", {4});
    NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
    b.Output({{relu, 0}});
    BreaksTheGraph cycle;
    AddsAStrayInput stray;
    GraphPass& pass = which == 0 ? static_cast<GraphPass&>(cycle) : stray;
    Status s = testing::RunPassStatus(pass, *b.graph());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("invalid after pass " + std::string(pass.Name())), std::string::npos)
        << s.message();
    if (which == 0) {
      EXPECT_NE(s.message().find("cycle"), std::string::npos) << s.message();
    }
    // Off, the same pass goes through.
    ProtoGraph c;
    NodePtr cx = c.Data("x", {4});
    c.Output({{c.Op("Relu", "relu", {{cx, 0}}), 0}});
    EXPECT_TRUE(
        testing::RunPassStatus(pass, *c.graph(), {{"openge.verifyAfterEachPass", "0"}}).ok());
  }
}

}  // namespace
}  // namespace ge

// Tests of GraphBuilder: the graphs it builds (inputs, weights, operators, the output node and
// the graph's output info, control edges, subgraphs) and the errors it refuses, each naming the
// node and leaving the graph unchanged.
#include "ge/graph/graph_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "status_test_util.h"

namespace ge {
namespace {

using testing::HasError;
using testing::IsOk;
using testing::Must;

/// "producer:index" of input `index` of `node`, or "" when it is unlinked.
std::string ProducerOf(const NodePtr& node, int index) {
  const auto in = node->GetInDataAnchor(index);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return "";
  const auto out = in->GetPeerOutAnchor();
  return out->GetOwnerNode()->GetName() + ":" + std::to_string(out->GetIdx());
}

int64_t IntAttr(const NodePtr& node, const std::string& name) {
  int64_t value = -1;
  (void)AttrUtils::GetInt(node->GetOpDesc(), name, value);
  return value;
}

// x → conv(w, b) → relu → pool → flatten → matmul(fc_w) → NetOutput, and a second input that
// scales the result: the shape of a small CNN's inference graph.
TEST(GraphBuilder, BuildsASmallCnn) {
  GraphBuilder b("cnn");
  const NodePtr x = Must(b.AddData("x", {1, 3, 8, 8}));
  const NodePtr scale = Must(b.AddData("scale", {1}, DT_FLOAT));
  const NodePtr w =
      Must(b.AddConst<float>("w", DT_FLOAT, {4, 3, 1, 1}, std::vector<float>(12, 0.5F)));
  const NodePtr bias = Must(b.AddConst<float>("bias", DT_FLOAT, {4}, {1, 2, 3, 4}));
  const NodeAttrs conv_attrs = {{"strides", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
                                {"pads", AttrValue(std::vector<int64_t>{0, 0, 0, 0})}};
  const NodePtr conv =
      Must(b.AddOp("conv", "Conv2D", {x, w, bias}, {GraphBuilder::Desc({1, 4, 8, 8})}, conv_attrs));
  const NodePtr relu = Must(b.AddOp("relu", "Relu", {conv}, {GraphBuilder::Desc({1, 4, 8, 8})}));
  const NodePtr pool = Must(b.AddOp("pool", "MaxPool", {relu}, {GraphBuilder::Desc({1, 4, 4, 4})},
                                    {{"ksize", AttrValue(std::vector<int64_t>{1, 1, 2, 2})}}));
  const NodePtr flat = Must(b.AddOp("flat", "Flatten", {pool}, {GraphBuilder::Desc({1, 64})}));
  const NodePtr fc_w =
      Must(b.AddConst<float>("fc_w", DT_FLOAT, {64, 10}, std::vector<float>(640, 0.25F)));
  const NodePtr fc = Must(b.AddOp("fc", "MatMulV2", {flat, fc_w}, {GraphBuilder::Desc({1, 10})}));
  const NodePtr scaled = Must(b.AddOp("scaled", "Mul", {fc, scale}, {GraphBuilder::Desc({1, 10})}));
  const NodePtr out = Must(b.AddNetOutput({scaled}));
  const ComputeGraphPtr& graph = b.GetGraph();
  ASSERT_NE(out, nullptr);

  EXPECT_EQ(graph->GetName(), "cnn");
  EXPECT_EQ(graph->GetDirectNodesSize(), 12U);
  EXPECT_TRUE(IsOk(GraphVerifier::Verify(*graph)));
  EXPECT_TRUE(IsOk(graph->TopologicalSorting()));

  // The inputs, in order, with their index and their desc on both sides of the Data node.
  ASSERT_EQ(graph->GetInputNodes().size(), 2U);
  EXPECT_EQ(graph->GetInputNodes()[0], x);
  EXPECT_EQ(graph->GetInputNodes()[1], scale);
  EXPECT_EQ(IntAttr(x, "index"), 0);
  EXPECT_EQ(IntAttr(scale, "index"), 1);
  EXPECT_EQ(x->GetType(), "Data");
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetOriginShape().GetDims(),
            (std::vector<int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(x->GetOpDesc()->GetInputDesc(0), x->GetOpDesc()->GetOutputDesc(0));
  EXPECT_EQ(x->GetOpDesc()->GetOutputNameByIndex(0), "y");

  // Weights hold their values under their shape.
  EXPECT_EQ(w->GetType(), "Const");
  Result<GeTensor> bias_value = OpDescUtils::GetCheckedConstValue(*bias);
  ASSERT_TRUE(IsOk(bias_value));
  EXPECT_EQ(bias_value->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4}));
  const auto* bias_floats = reinterpret_cast<const float*>(bias_value->GetData().data());
  EXPECT_EQ(std::vector<float>(bias_floats, bias_floats + 4), (std::vector<float>{1, 2, 3, 4}));

  // Operators: inputs in order, input descs copied from their producers, attributes set.
  EXPECT_EQ(ProducerOf(conv, 0), "x:0");
  EXPECT_EQ(ProducerOf(conv, 1), "w:0");
  EXPECT_EQ(ProducerOf(conv, 2), "bias:0");
  EXPECT_EQ(conv->GetOpDesc()->GetInputDesc(1).GetShape().GetDims(),
            (std::vector<int64_t>{4, 3, 1, 1}));
  EXPECT_EQ(ProducerOf(scaled, 0), "fc:0");
  EXPECT_EQ(ProducerOf(scaled, 1), "scale:0");
  std::vector<int64_t> strides;
  ASSERT_TRUE(AttrUtils::GetListInt(conv->GetOpDesc(), "strides", strides));
  EXPECT_EQ(strides, (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(flat->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{1, 64}));

  // The output node and the graph's output info.
  EXPECT_EQ(out->GetName(), "NetOutput");
  EXPECT_EQ(out->GetType(), "NetOutput");
  EXPECT_EQ(ProducerOf(out, 0), "scaled:0");
  EXPECT_EQ(out->GetOpDesc()->GetInputNameByIndex(0), "x0");
  ASSERT_EQ(graph->GetGraphOutNodesInfo().size(), 1U);
  EXPECT_EQ(graph->GetGraphOutNodesInfo()[0].first, scaled);
  EXPECT_EQ(graph->GetGraphOutNodesInfo()[0].second, 0);
}

// A node with two outputs, a control edge, and a NetOutput over chosen outputs in chosen order.
TEST(GraphBuilder, AddsControlEdgesAndANetOutputOverChosenOutputs) {
  GraphBuilder b("ctrl");
  const NodePtr x = Must(b.AddData("x", {4, 2}, DT_INT32));
  const NodePtr split =
      Must(b.AddOp("split", "Split", {x},
                   {GraphBuilder::Desc({2, 2}, DT_INT32), GraphBuilder::Desc({2, 2}, DT_INT32)}));
  const NodePtr a = Must(b.AddOp("a", "Abs", {{split, 0}}, {GraphBuilder::Desc({2, 2}, DT_INT32)}));
  const NodePtr later =
      Must(b.AddOp("later", "Neg", {{split, 1}}, {GraphBuilder::Desc({2, 2}, DT_INT32)}));
  ASSERT_TRUE(IsOk(b.AddControlEdge(a, later)));
  const NodePtr out = Must(b.AddNetOutput({{later, 0}, {split, 1}, a}, "out"));
  const ComputeGraphPtr& graph = b.GetGraph();
  ASSERT_NE(out, nullptr);

  EXPECT_TRUE(IsOk(GraphVerifier::Verify(*graph)));
  ASSERT_EQ(later->GetInControlNodes().size(), 1U);
  EXPECT_EQ(later->GetInControlNodes()[0], a);
  EXPECT_TRUE(a->GetInControlNodes().empty());
  // Output 1 of split feeds both later and the NetOutput.
  EXPECT_EQ(split->GetOutDataAnchor(1)->GetPeerInDataAnchors().size(), 2U);
  EXPECT_EQ(ProducerOf(out, 0), "later:0");
  EXPECT_EQ(ProducerOf(out, 1), "split:1");
  EXPECT_EQ(ProducerOf(out, 2), "a:0");
  EXPECT_EQ(out->GetOpDesc()->GetAllInputNames(), (std::vector<std::string>{"x0", "x1", "x2"}));
  EXPECT_EQ(out->GetOpDesc()->GetInputDesc(1).GetDataType(), DT_INT32);
  EXPECT_EQ(out->GetAllOutDataAnchorsSize(), 0U);
  const std::vector<std::pair<NodePtr, int32_t>> expected = {{later, 0}, {split, 1}, {a, 0}};
  EXPECT_EQ(graph->GetGraphOutNodesInfo(), expected);

  // Sorting respects the control edge: a before later.
  ASSERT_TRUE(IsOk(graph->TopologicalSorting()));
  EXPECT_LT(a->GetOpDesc()->GetId(), later->GetOpDesc()->GetId());
}

TEST(GraphBuilder, RefusesAnInputFromANodeOfAnotherGraph) {
  GraphBuilder other("other");
  const NodePtr foreign = Must(other.AddData("foreign", {2}));
  GraphBuilder b("main");
  const NodePtr x = Must(b.AddData("x", {2}));

  EXPECT_TRUE(HasError(b.AddOp("add", "Add", {x, foreign}, {GraphBuilder::Desc({2})}),
                       StatusCode::kParamInvalid,
                       {"graph 'main'", "'add' (Add)", "input 1", "'foreign'", "graph 'other'"}));
  EXPECT_TRUE(HasError(b.AddNetOutput({foreign}), StatusCode::kParamInvalid,
                       {"'NetOutput' (NetOutput)", "input 0", "graph 'other'"}));
  const NodePtr relu = Must(b.AddNode("relu", "Relu", 1, 1, GraphBuilder::Desc({2})));
  EXPECT_TRUE(HasError(b.AddDataEdge(foreign, relu, 0), StatusCode::kParamInvalid,
                       {"'relu' (Relu): input 0", "'foreign'", "graph 'other'"}));
  EXPECT_TRUE(HasError(b.AddControlEdge(foreign, relu), StatusCode::kParamInvalid,
                       {"control edge from 'foreign'", "not a node of this graph"}));
  EXPECT_TRUE(HasError(b.AddDataEdge(x, Must(other.AddNode("far", "Relu", 1, 1, {})), 0),
                       StatusCode::kParamInvalid, {"'far'", "not a node of this graph"}));

  // Nothing was added or linked by the refused calls.
  EXPECT_EQ(b.GetGraph()->GetDirectNodesSize(), 2U);
  EXPECT_EQ(b.GetGraph()->FindNode("add"), nullptr);
  EXPECT_EQ(b.GetGraph()->FindNode("NetOutput"), nullptr);
  EXPECT_TRUE(b.GetGraph()->GetGraphOutNodesInfo().empty());
  EXPECT_TRUE(x->GetOutDataNodes().empty());
  EXPECT_TRUE(foreign->GetOutDataNodes().empty());
  EXPECT_TRUE(foreign->GetOutControlNodes().empty());
}

TEST(GraphBuilder, RefusesAnOutputIndexOutOfRange) {
  GraphBuilder b("g");
  const NodePtr x = Must(b.AddData("x", {2}));
  EXPECT_TRUE(HasError(b.AddOp("relu", "Relu", {{x, 1}}, {GraphBuilder::Desc({2})}),
                       StatusCode::kParamInvalid,
                       {"'relu' (Relu): input 0", "reads output 1 of 'x' (Data)", "1 output(s)"}));
  EXPECT_TRUE(HasError(b.AddOp("relu", "Relu", {{x, -1}}, {GraphBuilder::Desc({2})}),
                       StatusCode::kParamInvalid, {"reads output -1 of 'x'"}));
  EXPECT_TRUE(HasError(b.AddNetOutput({{x, 0}, {x, 3}}), StatusCode::kParamInvalid,
                       {"'NetOutput' (NetOutput): input 1", "reads output 3 of 'x'"}));
  const NodePtr add = Must(b.AddNode("add", "Add", 2, 1, GraphBuilder::Desc({2})));
  EXPECT_TRUE(HasError(b.AddDataEdge(x, add, 2), StatusCode::kParamInvalid,
                       {"'add' (Add) has no input 2 (it has 2)"}));
  EXPECT_TRUE(HasError(b.AddDataEdge({x, 5}, add, 0), StatusCode::kParamInvalid,
                       {"'add' (Add): input 0 reads output 5 of 'x'"}));
  // A prototype-made OpDesc takes no more inputs than it has.
  OpDescPtr neg =
      GraphBuilder::MakeOpDesc("neg", "Neg", {GraphBuilder::Desc({2})}, {GraphBuilder::Desc({2})});
  EXPECT_TRUE(HasError(b.AddNode(neg, {x, x}), StatusCode::kParamInvalid,
                       {"'neg' (Neg)", "2 inputs given, it has 1"}));

  EXPECT_EQ(b.GetGraph()->GetDirectNodesSize(), 2U);
  EXPECT_TRUE(x->GetOutDataNodes().empty());
}

TEST(GraphBuilder, RefusesADuplicateNodeName) {
  GraphBuilder b("g");
  const NodePtr x = Must(b.AddData("x", {2}));
  EXPECT_TRUE(HasError(b.AddData("x", {3}), StatusCode::kParamInvalid,
                       {"graph 'g' already has a node named 'x'"}));
  EXPECT_TRUE(HasError(b.AddOp("x", "Relu", {x}, {GraphBuilder::Desc({2})}),
                       StatusCode::kParamInvalid, {"already has a node named 'x'"}));
  EXPECT_TRUE(HasError(b.AddConst<float>("x", DT_FLOAT, {1}, {1.0F}), StatusCode::kParamInvalid,
                       {"already has a node named 'x'"}));
  // A refused OpDesc of the caller's is left without the attributes of the call.
  OpDescPtr again =
      GraphBuilder::MakeOpDesc("x", "Relu", {GraphBuilder::Desc({2})}, {GraphBuilder::Desc({2})});
  EXPECT_TRUE(HasError(b.AddNode(again, {x}, {{"alpha", AttrValue(1.0F)}}),
                       StatusCode::kParamInvalid, {"already has a node named 'x' (Data)"}));
  EXPECT_FALSE(again->HasAttr("alpha"));

  EXPECT_EQ(b.GetGraph()->GetDirectNodesSize(), 1U);
  EXPECT_EQ(b.GetGraph()->GetInputNodes().size(), 1U);
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2}));
  EXPECT_TRUE(x->GetOutDataNodes().empty());
}

TEST(GraphBuilder, RefusesConstValuesThatDoNotFitTheShapeOrType) {
  GraphBuilder b("g");
  EXPECT_TRUE(HasError(b.AddConst<float>("w", DT_FLOAT, {2, 2}, {1, 2, 3}),
                       StatusCode::kParamInvalid,
                       {"'w' (Const)", "3 value(s) for shape [2,2] (4 elements)"}));
  EXPECT_TRUE(HasError(b.AddConst<int32_t>("w", DT_INT64, {2}, {1, 2}), StatusCode::kParamInvalid,
                       {"'w' (Const)", "values of 4 byte(s) cannot hold DT_INT64"}));
  EXPECT_TRUE(HasError(b.AddConst<float>("w", DT_FLOAT, {-1}, {1}), StatusCode::kParamInvalid,
                       {"'w' (Const)", "not a known shape"}));
  EXPECT_EQ(b.GetGraph()->GetDirectNodesSize(), 0U);
  // A scalar has one element; booleans are bytes.
  EXPECT_TRUE(IsOk(b.AddConst<float>("scalar", DT_FLOAT, {}, {2.5F})));
  EXPECT_TRUE(IsOk(b.AddConst<uint8_t>("flags", DT_BOOL, {3}, {1, 0, 1})));
  EXPECT_TRUE(IsOk(b.AddConst<int64_t>("empty", DT_INT64, {0, 4}, {})));
}

TEST(GraphBuilder, RefusesASecondNetOutput) {
  GraphBuilder b("g");
  const NodePtr x = Must(b.AddData("x", {2}));
  ASSERT_TRUE(IsOk(b.AddNetOutput({x})));
  EXPECT_TRUE(HasError(b.AddNetOutput({x}, "second"), StatusCode::kParamInvalid,
                       {"'second' (NetOutput)", "already has a NetOutput, 'NetOutput'"}));
  EXPECT_EQ(b.GetGraph()->GetDirectNodesSize(), 2U);
  EXPECT_EQ(b.GetGraph()->GetGraphOutNodesInfo().size(), 1U);
}

// An OpDesc made elsewhere keeps its descs: a null input stays unlinked (an optional input), and
// the call's attributes are set.
TEST(GraphBuilder, AddsACallersOpDescWithOptionalInputsUnlinked) {
  GraphBuilder b("g");
  const NodePtr x = Must(b.AddData("x", {2}));
  const NodePtr y = Must(b.AddData("y", {2}));
  OpDescPtr op = GraphBuilder::MakeOpDesc(
      "clip", "ClipByValue", std::vector<GeTensorDesc>(3, GraphBuilder::Desc({7}, DT_INT8)),
      {GraphBuilder::Desc({2})});
  const NodePtr clip = Must(b.AddNode(op, {x, nullptr, y}, {{"mode", AttrValue(int64_t{2})}}));
  ASSERT_NE(clip, nullptr);
  EXPECT_EQ(clip->GetOpDesc(), op);
  EXPECT_EQ(ProducerOf(clip, 0), "x:0");
  EXPECT_EQ(ProducerOf(clip, 1), "");
  EXPECT_EQ(ProducerOf(clip, 2), "y:0");
  EXPECT_EQ(op->GetInputDesc(0).GetDataType(), DT_INT8);  // the caller's desc, not the producer's
  EXPECT_EQ(IntAttr(clip, "mode"), 2);
  // Nodes added unlinked get their edges later.
  const NodePtr sink = Must(b.AddNode("sink", "Sink", 2, 0, GraphBuilder::Desc({2})));
  ASSERT_TRUE(IsOk(b.AddDataEdge(clip, sink, 1)));
  EXPECT_EQ(ProducerOf(sink, 0), "");
  EXPECT_EQ(ProducerOf(sink, 1), "clip:0");
  EXPECT_TRUE(HasError(b.AddDataEdge(x, sink, 1), StatusCode::kParamInvalid,
                       {"'sink' (Sink): input 1", "already has a producer"}));
}

// If with two branches, each built by a builder of its own.
TEST(GraphBuilder, AttachesSubgraphsWhoseInputsStandForTheParentsInputs) {
  GraphBuilder b("root");
  const NodePtr cond = Must(b.AddData("cond", {}, DT_BOOL));
  const NodePtr x = Must(b.AddData("x", {2, 3}));
  const NodePtr if_node = Must(b.AddOp("if", "If", {cond, x}, {GraphBuilder::Desc({2, 3})}));
  ASSERT_TRUE(IsOk(b.AddNetOutput({if_node})));
  for (const std::string& name : {std::string("then"), std::string("else")}) {
    GraphBuilder branch(name);
    const NodePtr in = Must(branch.AddSubgraphData(name + "_x", 1, GraphBuilder::Desc({2, 3})));
    const NodePtr body = Must(branch.AddOp(name + "_op", name == "then" ? "Relu" : "Neg", {in},
                                           {GraphBuilder::Desc({2, 3})}));
    ASSERT_TRUE(IsOk(branch.AddNetOutput({body}, name + "_out")));
    EXPECT_EQ(IntAttr(in, kAttrParentNodeIndex), 1);
    EXPECT_EQ(IntAttr(in, "index"), 0);
    ASSERT_TRUE(IsOk(b.AddSubgraph(if_node, name == "then" ? 0 : 1, branch.GetGraph())));
  }
  const ComputeGraphPtr& graph = b.GetGraph();
  EXPECT_TRUE(IsOk(GraphVerifier::Verify(*graph)));
  EXPECT_EQ(if_node->GetOpDesc()->GetSubgraphInstanceNames(),
            (std::vector<std::string>{"then", "else"}));
  const ComputeGraphPtr then_graph = NodeUtils::GetSubgraph(*if_node, 0);
  ASSERT_NE(then_graph, nullptr);
  EXPECT_EQ(then_graph->GetParentNode(), if_node);
  EXPECT_EQ(then_graph->GetParentGraph(), graph);
  EXPECT_EQ(graph->GetAllSubgraphs().size(), 2U);
  EXPECT_EQ(graph->GetAllNodesSize(), 4U + 2 * 3U);
  EXPECT_EQ(NodeUtils::GetParentInput(*then_graph->FindNode("then_x")), x);

  // A second subgraph of the same name, a parent of another graph and the graph itself are
  // refused.
  GraphBuilder twin("then");
  EXPECT_TRUE(HasError(b.AddSubgraph(if_node, 2, twin.GetGraph()), StatusCode::kParamInvalid,
                       {"'if' (If): subgraph 2", "already has a subgraph named 'then'"}));
  GraphBuilder lone("lone");
  EXPECT_TRUE(HasError(twin.AddSubgraph(if_node, 0, lone.GetGraph()), StatusCode::kParamInvalid,
                       {"graph 'then'", "parent must be a node of this graph, not 'if'"}));
  EXPECT_TRUE(HasError(b.AddSubgraph(if_node, 2, graph), StatusCode::kParamInvalid,
                       {"'if' (If): subgraph 2 must be another graph"}));
  EXPECT_TRUE(HasError(b.AddSubgraphData("bad", -1, GraphBuilder::Desc({1})),
                       StatusCode::kParamInvalid, {"'bad' (Data)", "parent input index"}));
  EXPECT_EQ(graph->GetAllSubgraphs().size(), 2U);
  EXPECT_EQ(if_node->GetOpDesc()->GetSubgraphInstanceNames().size(), 2U);
}

// A builder over a graph made elsewhere continues its input indices.
TEST(GraphBuilder, AddsToAnExistingGraph) {
  auto graph = std::make_shared<ComputeGraph>("existing");
  ASSERT_TRUE(IsOk(GraphBuilder(graph).AddData("a", {1})));
  GraphBuilder b(graph);
  const NodePtr second = Must(b.AddData("b", GraphBuilder::Desc({2, 2}, DT_FLOAT16, FORMAT_NCHW)));
  EXPECT_EQ(b.GetGraph(), graph);
  EXPECT_EQ(IntAttr(second, "index"), 1);
  EXPECT_EQ(graph->GetInputNodes().size(), 2U);
  EXPECT_EQ(second->GetOpDesc()->GetOutputDesc(0).GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(second->GetOpDesc()->GetOutputDesc(0).GetOriginFormat(), FORMAT_NCHW);
  EXPECT_EQ(second->GetOpDesc()->GetOutputDesc(0).GetOriginDataType(), DT_FLOAT16);
}

}  // namespace
}  // namespace ge

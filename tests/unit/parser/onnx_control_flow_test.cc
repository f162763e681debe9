// ONNX parser: If / Loop / Scan bodies become subgraphs with explicit inputs for outer values.
#include <gtest/gtest.h>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddGraphAttr;
using testing::AddInput;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;

Result<ComputeGraphPtr> Parse(const onnx::ModelProto& model) {
  return ParseOnnxBytes(model.SerializeAsString(), ".", "cf.onnx");
}

int64_t ParentIndex(const NodePtr& data) {
  int64_t index = -1;
  (void)AttrUtils::GetInt(data->GetOpDesc(), kAttrParentNodeIndex, index);
  return index;
}

TEST(OnnxControlFlow, IfBranchesBecomeSubgraphsWithOuterValuesAsInputs) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "cond", {}, {}, onnx::TensorProto::BOOL);
  AddInput(g, "a", {2});
  AddInput(g, "b", {2});
  auto* if_node = AddNode(g, "If", "if", {"cond"}, {"y"});
  auto* then_g = AddGraphAttr(if_node, "then_branch");
  AddNode(then_g, "Relu", "then_relu", {"a"}, {"t"});
  AddOutput(then_g, "t", {2});
  auto* else_g = AddGraphAttr(if_node, "else_branch");
  AddNode(else_g, "Add", "else_add", {"a", "b"}, {"e"});
  AddOutput(else_g, "e", {2});
  AddOutput(g, "y", {2});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ComputeGraphPtr graph = *result;
  ASSERT_TRUE(GraphVerifier::Verify(*graph).ok()) << GraphVerifier::Verify(*graph).message();
  NodePtr node = graph->FindNode("if");
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->GetOpDesc()->GetAllInputNames(),
            (std::vector<std::string>{"cond", "input0", "input1"}));
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*node, 1)->GetName(), "a");
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*node, 2)->GetName(), "b");
  auto subgraphs = NodeUtils::GetSubgraphs(*node);
  ASSERT_EQ(subgraphs.size(), 2U);
  EXPECT_EQ(graph->GetAllSubgraphs().size(), 2U);
  EXPECT_EQ(node->GetOpDesc()->GetSubgraphInstanceNames(),
            (std::vector<std::string>{"if_then_branch", "if_else_branch"}));
  // then: only a (parent input 1); else: a and b (parent inputs 1 and 2).
  const auto& then_inputs = subgraphs[0]->GetInputNodes();
  ASSERT_EQ(then_inputs.size(), 1U);
  EXPECT_EQ(ParentIndex(then_inputs[0]), 1);
  EXPECT_EQ(NodeUtils::GetParentInput(*then_inputs[0])->GetName(), "a");
  const auto& else_inputs = subgraphs[1]->GetInputNodes();
  ASSERT_EQ(else_inputs.size(), 2U);
  EXPECT_EQ(ParentIndex(else_inputs[0]), 1);
  EXPECT_EQ(ParentIndex(else_inputs[1]), 2);
  for (const auto& sub : subgraphs) {
    int netoutputs = 0;
    for (const auto& n : sub->GetDirectNode()) netoutputs += n->GetType() == "NetOutput";
    EXPECT_EQ(netoutputs, 1) << sub->GetName();
  }
  NodePtr then_out = subgraphs[0]->FindNode("if_then_branch_NetOutput");
  ASSERT_NE(then_out, nullptr);
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*then_out, 0)->GetName(), "then_relu");
}

TEST(OnnxControlFlow, LoopBodyCapturesThroughNestedScopes) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "n", {}, {}, onnx::TensorProto::INT64);
  AddInput(g, "c0", {}, {}, onnx::TensorProto::BOOL);
  AddInput(g, "v0", {2});
  AddInput(g, "w", {2});
  AddInput(g, "z", {2});
  auto* loop = AddNode(g, "Loop", "loop", {"n", "c0", "v0"}, {"v_final"});
  auto* body = AddGraphAttr(loop, "body");
  AddInput(body, "iter", {}, {}, onnx::TensorProto::INT64);
  AddInput(body, "c_in", {}, {}, onnx::TensorProto::BOOL);
  AddInput(body, "v_in", {2});
  AddNode(body, "Add", "body_add", {"v_in", "w"}, {"v1"});
  auto* inner_if = AddNode(body, "If", "inner_if", {"c_in"}, {"v_out"});
  auto* then_g = AddGraphAttr(inner_if, "then_branch");
  AddNode(then_g, "Mul", "then_mul", {"v1", "z"}, {"t"});  // z from two scopes up
  AddOutput(then_g, "t", {2});
  auto* else_g = AddGraphAttr(inner_if, "else_branch");
  AddOutput(else_g, "v1", {2});  // an outer value as a body output
  AddNode(body, "Identity", "cond_out", {"c_in"}, {"c_out"});
  AddOutput(body, "c_out", {}, onnx::TensorProto::BOOL);
  AddOutput(body, "v_out", {2});
  AddOutput(g, "v_final", {2});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ComputeGraphPtr graph = *result;
  ASSERT_TRUE(GraphVerifier::Verify(*graph).ok()) << GraphVerifier::Verify(*graph).message();
  NodePtr node = graph->FindNode("loop");
  EXPECT_EQ(node->GetOpDesc()->GetAllInputNames(),
            (std::vector<std::string>{"max_trip_count", "cond", "v_initial0", "implicit_input0",
                                      "implicit_input1"}));
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*node, 3)->GetName(), "w");
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*node, 4)->GetName(), "z");
  ComputeGraphPtr body_graph = NodeUtils::GetSubgraph(*node, 0);
  ASSERT_NE(body_graph, nullptr);
  // Formal inputs iter, c_in, v_in stand for parent inputs 0, 1, 2; w and z for 3 and 4.
  std::vector<int64_t> parents;
  for (const auto& data : body_graph->GetInputNodes()) parents.push_back(ParentIndex(data));
  EXPECT_EQ(parents, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  NodePtr nested = body_graph->FindNode("inner_if");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->GetOpDesc()->GetAllInputNames(),
            (std::vector<std::string>{"cond", "input0", "input1"}));
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*nested, 1)->GetName(), "body_add");
  EXPECT_EQ(NodeUtils::GetInDataNodeByIndex(*nested, 2)->GetType(), "Data");  // z, captured
  EXPECT_EQ(graph->GetAllSubgraphs().size(), 3U);
  ComputeGraphPtr else_graph = NodeUtils::GetSubgraph(*nested, 1);
  ASSERT_NE(else_graph, nullptr);
  ASSERT_EQ(else_graph->GetInputNodes().size(), 1U);
  EXPECT_EQ(ParentIndex(else_graph->GetInputNodes()[0]), 1);
}

TEST(OnnxControlFlow, ScanBodyIsASubgraph) {
  auto model = MakeModel(11);
  auto* g = model.mutable_graph();
  AddInput(g, "init", {2});
  AddInput(g, "xs", {3, 2});
  auto* scan = AddNode(g, "Scan", "scan", {"init", "xs"}, {"final", "ys"});
  testing::AddIntAttr(scan, "num_scan_inputs", 1);
  auto* body = AddGraphAttr(scan, "body");
  AddInput(body, "acc", {2});
  AddInput(body, "x", {2});
  AddNode(body, "Add", "acc_add", {"acc", "x"}, {"acc_out"});
  AddNode(body, "Identity", "y_id", {"acc_out"}, {"y"});
  AddOutput(body, "acc_out", {2});
  AddOutput(body, "y", {2});
  AddOutput(g, "final", {2});
  AddOutput(g, "ys", {3, 2});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  NodePtr node = (*result)->FindNode("scan");
  EXPECT_EQ(node->GetOpDesc()->GetOutputsSize(), 2U);
  ComputeGraphPtr body_graph = NodeUtils::GetSubgraph(*node, 0);
  ASSERT_NE(body_graph, nullptr);
  std::vector<int64_t> parents;
  for (const auto& data : body_graph->GetInputNodes()) parents.push_back(ParentIndex(data));
  EXPECT_EQ(parents, (std::vector<int64_t>{0, 1}));
}

TEST(OnnxControlFlow, UndefinedValueInsideABodyIsReported) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "cond", {}, {}, onnx::TensorProto::BOOL);
  auto* if_node = AddNode(g, "If", "if", {"cond"}, {"y"});
  auto* then_g = AddGraphAttr(if_node, "then_branch");
  AddNode(then_g, "Relu", "then_relu", {"nowhere"}, {"t"});
  AddOutput(then_g, "t", {2});
  auto* else_g = AddGraphAttr(if_node, "else_branch");
  AddNode(else_g, "Neg", "else_neg", {"cond"}, {"e"});
  AddOutput(else_g, "e", {2});
  AddOutput(g, "y", {2});
  auto result = Parse(model);
  ASSERT_FALSE(result.ok());
  // The outer graph sees the body's free value as an input of the If node.
  EXPECT_NE(result.status().message().find("node 'if' (If, opset 13): input 'nowhere' is not "
                                           "produced"),
            std::string::npos)
      << result.status().message();
}

/// Ifs nested `levels` deep: node "if<k>" is in the graph at level k-1 (the main graph is level
/// 0), its then_branch holds "if<k+1>" (or, at the bottom, a Relu) and its else_branch a Relu;
/// every branch reads the outer values "cond" and "a".
onnx::ModelProto NestedIfs(int levels) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "cond", {}, {}, onnx::TensorProto::BOOL);
  AddInput(g, "a", {2});
  onnx::GraphProto* graph = g;
  std::string out = "y";
  for (int k = 1; k <= levels; ++k) {
    const std::string name = "if" + std::to_string(k);
    auto* if_node = AddNode(graph, "If", name, {"cond"}, {out});
    AddOutput(graph, out, {2});
    auto* else_g = AddGraphAttr(if_node, "else_branch");
    AddNode(else_g, "Relu", name + "_else", {"a"}, {name + "_e"});
    AddOutput(else_g, name + "_e", {2});
    graph = AddGraphAttr(if_node, "then_branch");
    out = name + "_t";
  }
  AddNode(graph, "Relu", "bottom", {"a"}, {out});
  AddOutput(graph, out, {2});
  return model;
}

TEST(OnnxControlFlow, BodiesNestedToTheLimitParse) {
  // The innermost bodies' typed outputs lie deeper than protobuf's default of 100 messages.
  auto result = Parse(NestedIfs(kMaxSubgraphDepth));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ((*result)->GetAllSubgraphs().size(), static_cast<size_t>(2 * kMaxSubgraphDepth));
  Status valid = GraphVerifier::Verify(**result);
  EXPECT_TRUE(valid.ok()) << valid.message();
}

TEST(OnnxControlFlow, BodiesNestedDeeperThanTheLimitAreRefused) {
  for (int levels : {kMaxSubgraphDepth + 1, 200}) {
    auto result = Parse(NestedIfs(levels));
    ASSERT_FALSE(result.ok()) << levels << " levels";
    const std::string& message = result.status().message();
    EXPECT_NE(message.find("cf.onnx: node 'if33' (If), graph attribute 'else_branch' at byte "),
              std::string::npos)
        << message;
    EXPECT_NE(
        message.find(": the graph is nested 33 levels deep; subgraphs may nest at most 32 levels"),
        std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace ge

// ge::Graph: from operators to a ComputeGraph (inputs, outputs, targets, subgraphs), lookups,
// files, and the errors that name the operator at fault.
#include "ge/api/graph.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"

namespace ge {
namespace {

op::Data MakeData(const char* name, std::vector<int64_t> dims) {
  op::Data data(name);
  (void)data.update_output_desc_y(TensorDesc(Shape(dims), FORMAT_ND, DT_FLOAT));
  return data;
}

NodePtr NodeNamed(const ComputeGraphPtr& graph, const std::string& name) {
  NodePtr node = graph->FindNode(name);
  EXPECT_NE(node, nullptr) << name;
  return node;
}

TEST(Graph, BecomesAComputeGraphWithEdgesInputsAndAnOutputNode) {
  op::Data a = MakeData("a", {2, 3});
  op::Data b = MakeData("b", {2, 3});
  op::Add add("add");
  add.set_input_x1(a).set_input_x2(b);
  op::Relu relu("relu");
  relu.set_input_x(add);
  Graph graph("g");
  graph.SetInputs({b, a}).SetOutputs({relu});
  ASSERT_TRUE(graph.IsValid());
  Result<ComputeGraphPtr> made = graph.ToComputeGraph();
  ASSERT_TRUE(made.ok()) << made.status().message();
  const ComputeGraphPtr& cg = *made;
  EXPECT_EQ(cg->GetName(), "g");
  EXPECT_EQ(cg->GetDirectNode().size(), 5u);  // a, b, add, relu, NetOutput
  NodePtr add_node = NodeNamed(cg, "add");
  ASSERT_NE(add_node, nullptr);
  EXPECT_EQ(add_node->GetInDataAnchor(0)->GetPeerOutAnchor()->GetOwnerNode()->GetName(), "a");
  EXPECT_EQ(add_node->GetInDataAnchor(1)->GetPeerOutAnchor()->GetOwnerNode()->GetName(), "b");
  // SetInputs' order is the inputs' order: b first.
  int64_t index = -1;
  ASSERT_TRUE(AttrUtils::GetInt(NodeNamed(cg, "b")->GetOpDesc(), kAttrDataIndex, index));
  EXPECT_EQ(index, 0);
  ASSERT_TRUE(AttrUtils::GetInt(NodeNamed(cg, "a")->GetOpDesc(), kAttrDataIndex, index));
  EXPECT_EQ(index, 1);
  // The Data's input desc follows the output desc it was given.
  EXPECT_EQ(NodeNamed(cg, "a")->GetOpDesc()->GetInputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(cg->GetGraphOutNodesInfo().size(), 1u);
  EXPECT_EQ(cg->GetGraphOutNodesInfo()[0].first->GetName(), "relu");
}

TEST(Graph, EachConversionIsANewGraphThatLeavesTheOperatorsAlone) {
  op::Data a = MakeData("a", {4});
  op::Relu relu("relu");
  relu.set_input_x(a);
  Graph graph("g");
  graph.SetInputs({a}).SetOutputs({relu});
  auto first = graph.ToComputeGraph();
  auto second = graph.ToComputeGraph();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->get(), second->get());
  NodeNamed(*first, "relu")->GetOpDesc()->SetName("renamed");
  EXPECT_EQ(relu.GetName(), "relu");
}

TEST(Graph, OutputsByIndexAndByName) {
  op::Data x = MakeData("x", {4, 6});
  op::Split split("split");
  split.create_dynamic_output_y(2);
  split.set_input_x(x);
  Graph by_index("by_index");
  by_index.SetInputs({x}).SetOutputs(
      std::vector<std::pair<Operator, std::vector<size_t>>>{{split, {1, 0}}});
  auto cg = by_index.ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  ASSERT_EQ((*cg)->GetGraphOutNodesInfo().size(), 2u);
  EXPECT_EQ((*cg)->GetGraphOutNodesInfo()[0].second, 1);
  EXPECT_EQ((*cg)->GetGraphOutNodesInfo()[1].second, 0);

  Graph by_name("by_name");
  by_name.SetInputs({x}).SetOutputs(
      std::vector<std::pair<Operator, AscendString>>{{split, AscendString("y1")}});
  cg = by_name.ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  EXPECT_EQ((*cg)->GetGraphOutNodesInfo()[0].second, 1);

  Graph bad("bad");
  bad.SetInputs({x}).SetOutputs(
      std::vector<std::pair<Operator, AscendString>>{{split, AscendString("y7")}});
  cg = bad.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("graph 'bad': output 0 is an output named 'y7' of "
                                       "operator 'split' (Split), which has 2 outputs"),
            std::string::npos)
      << cg.status().message();
}

TEST(Graph, TargetsRunBeforeTheOutputWithoutBeingOutputs) {
  op::Data x = MakeData("x", {4});
  op::Relu relu("relu");
  relu.set_input_x(x);
  op::Abs side("side");
  side.set_input_x(x);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({relu}).SetTargets({side});
  auto cg = graph.ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  NodePtr net_output = NodeNamed(*cg, "NetOutput");
  ASSERT_NE(net_output, nullptr);
  bool linked = false;
  for (const auto& peer : net_output->GetInControlAnchor()->GetPeerOutControlAnchors()) {
    linked = linked || peer->GetOwnerNode()->GetName() == "side";
  }
  EXPECT_TRUE(linked);
  EXPECT_EQ((*cg)->GetGraphOutNodesInfo().size(), 1u);
}

TEST(Graph, ControlInputsBecomeControlEdges) {
  op::Data x = MakeData("x", {4});
  op::Relu first("first");
  first.set_input_x(x);
  op::Abs second("second");
  second.set_input_x(x).AddControlInput(first);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({second, first});
  auto cg = graph.ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  auto peers = NodeNamed(*cg, "second")->GetInControlAnchor()->GetPeerOutControlAnchors();
  ASSERT_EQ(peers.size(), 1u);
  EXPECT_EQ(peers[0]->GetOwnerNode()->GetName(), "first");
}

TEST(Graph, ReportsTheOperatorAtFault) {
  op::Data x = MakeData("x", {4});
  op::Relu relu("relu");
  relu.SetInput("nope", x);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({relu});
  auto cg = graph.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_EQ(cg.status().message(),
            "graph 'g': operator 'relu' (Relu): has no input named 'nope' (its inputs: x)");
  EXPECT_EQ(GraphUtilsEx::GetComputeGraph(graph), nullptr);
  EXPECT_EQ(GEGetErrorMsg(), cg.status().message());
}

TEST(Graph, RefusesTwoOperatorsOfOneName) {
  op::Data x = MakeData("x", {4});
  op::Relu a("same");
  a.set_input_x(x);
  op::Abs b("same");
  b.set_input_x(a);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({b});
  auto cg = graph.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("two operators are named 'same' (a Relu and a Abs)"),
            std::string::npos)
      << cg.status().message();
}

TEST(Graph, RefusesACycleNamingItsOperators) {
  op::Data x = MakeData("x", {4});
  op::Add a("a");
  op::Add b("b");
  a.set_input_x1(x).set_input_x2(b);
  b.set_input_x1(a).set_input_x2(x);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({a});
  auto cg = graph.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("form a cycle"), std::string::npos) << cg.status().message();
  EXPECT_NE(cg.status().message().find("'a' -> 'b' -> 'a'"), std::string::npos)
      << cg.status().message();
  a.BreakConnect();  // the cycle holds both operators alive otherwise
}

TEST(Graph, RefusesAGraphWithoutOutputsOrWithANonDataInput) {
  op::Data x = MakeData("x", {4});
  Graph empty_outputs("g");
  empty_outputs.SetInputs({x});
  EXPECT_FALSE(empty_outputs.IsValid());
  auto cg = empty_outputs.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("graph 'g' has no outputs"), std::string::npos);

  op::Relu relu("relu");
  relu.set_input_x(x);
  Graph relu_input("h");
  relu_input.SetInputs({relu}).SetOutputs({relu});
  cg = relu_input.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("input 0 is operator 'relu' (Relu), not a Data"),
            std::string::npos)
      << cg.status().message();

  Graph nothing;
  EXPECT_FALSE(nothing.IsValid());
  EXPECT_FALSE(nothing.ToComputeGraph().ok());
}

TEST(Graph, ADataWithoutADescIsRefused) {
  op::Data x("x");
  op::Relu relu("relu");
  relu.set_input_x(x);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({relu});
  auto cg = graph.ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(
      cg.status().message().find("operator 'x' (Data) has no tensor desc: give its shape and "
                                 "data type with update_output_desc_y or update_input_desc_x"),
      std::string::npos)
      << cg.status().message();
}

TEST(Graph, FindsOperatorsByNameAndType) {
  op::Data x = MakeData("x", {4});
  op::Relu r1("r1");
  r1.set_input_x(x);
  op::Relu r2("r2");
  r2.set_input_x(r1);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({r2});
  Operator found;
  ASSERT_EQ(graph.FindOpByName("r1", found), GRAPH_SUCCESS);
  EXPECT_EQ(found.GetOpType(), "Relu");
  found.SetAttr("_mark", int64_t{7});  // the graph's own operator, not a copy
  int64_t mark = 0;
  EXPECT_EQ(r1.GetAttr("_mark", mark), GRAPH_SUCCESS);
  EXPECT_EQ(mark, 7);
  EXPECT_NE(graph.FindOpByName("zz", found), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("graph 'g' has no operator named 'zz'"), std::string::npos);
  std::vector<Operator> relus;
  ASSERT_EQ(graph.FindOpByType("Relu", relus), GRAPH_SUCCESS);
  EXPECT_EQ(relus.size(), 2u);
  std::vector<std::string> names;
  ASSERT_EQ(graph.GetAllOpName(names), GRAPH_SUCCESS);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "r1", "r2"}));
}

TEST(Graph, SavesAndLoadsAsAGeGraphFile) {
  op::Data x = MakeData("x", {2, 2});
  op::Relu relu("relu");
  relu.set_input_x(x);
  Graph graph("saved");
  graph.SetInputs({x}).SetOutputs({relu});
  const std::string path = ::testing::TempDir() + "/api_graph.pbtxt";
  ASSERT_EQ(graph.SaveToFile(path), GRAPH_SUCCESS) << GEGetErrorMsg();
  Graph loaded;
  ASSERT_EQ(loaded.LoadFromFile(path), GRAPH_SUCCESS) << GEGetErrorMsg();
  EXPECT_EQ(loaded.GetName(), "saved");
  std::vector<std::string> names;
  ASSERT_EQ(loaded.GetAllOpName(names), GRAPH_SUCCESS);
  EXPECT_EQ(names.size(), 3u);
  Operator found;
  EXPECT_EQ(loaded.FindOpByName("relu", found), GRAPH_SUCCESS);
  EXPECT_NE(loaded.LoadFromFile(::testing::TempDir() + "/no_such_graph.pb"), GRAPH_SUCCESS);
  std::remove(path.c_str());
}

TEST(Graph, ComputeGraphsConvertBothWays) {
  op::Data x = MakeData("x", {3});
  op::Relu relu("relu");
  relu.set_input_x(x);
  Graph graph("g");
  graph.SetInputs({x}).SetOutputs({relu});
  ComputeGraphPtr cg = GraphUtilsEx::GetComputeGraph(graph);
  ASSERT_NE(cg, nullptr);
  Graph back = GraphUtilsEx::CreateGraphFromComputeGraph(cg);
  EXPECT_TRUE(back.IsValid());
  EXPECT_EQ(GraphUtilsEx::GetComputeGraph(back), cg);  // the same graph, not a copy
  GraphPtr ptr = GraphUtilsEx::CreateGraphPtrFromComputeGraph(cg);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(ptr->GetName(), "g");
}

TEST(Graph, SubgraphBuildersBecomeSubgraphsOfTheNode) {
  op::Data cond("cond");
  (void)cond.update_output_desc_y(TensorDesc(Shape(std::vector<int64_t>{}), FORMAT_ND, DT_BOOL));
  op::Data x = MakeData("x", {4});
  auto branch = [](const char* name, bool negate) {
    return [name, negate]() {
      op::Data in = MakeData((std::string(name) + "_in").c_str(), {4});
      Operator out = negate ? Operator(op::Neg((std::string(name) + "_neg").c_str()))
                            : Operator(op::Abs((std::string(name) + "_abs").c_str()));
      out.SetInput("x", in);
      Graph g(name);
      g.SetInputs({in}).SetOutputs({out});
      return g;
    };
  };
  op::If if_op("if");
  if_op.create_dynamic_input_input(1).create_dynamic_output_output(1);
  if_op.set_input_cond(cond).set_dynamic_input_input(0, x);
  if_op.set_subgraph_builder_then_branch(branch("then", false));
  if_op.set_subgraph_builder_else_branch(branch("else", true));
  Graph graph("g");
  graph.SetInputs({cond, x}).SetOutputs({if_op});
  auto cg = graph.ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  ASSERT_EQ((*cg)->GetAllSubgraphs().size(), 2u);
  ComputeGraphPtr then_graph = (*cg)->GetSubgraph("then");
  ASSERT_NE(then_graph, nullptr);
  EXPECT_EQ(then_graph->GetParentNode()->GetName(), "if");
  NodePtr then_in = then_graph->FindNode("then_in");
  ASSERT_NE(then_in, nullptr);
  int64_t parent_index = -1;
  ASSERT_TRUE(AttrUtils::GetInt(then_in->GetOpDesc(), kAttrParentNodeIndex, parent_index));
  EXPECT_EQ(parent_index, 1);  // If's input 0 is the condition
  EXPECT_EQ(NodeNamed(*cg, "if")->GetOpDesc()->GetSubgraphInstanceNames(),
            (std::vector<std::string>{"then", "else"}));

  op::If missing("missing");
  missing.create_dynamic_output_output(1).set_input_cond(cond);
  missing.set_subgraph_builder_then_branch(branch("t2", false));
  Graph incomplete("h");
  incomplete.SetInputs({cond}).SetOutputs({missing});
  auto bad = incomplete.ToComputeGraph();
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("subgraph 'else_branch' has no builder"), std::string::npos)
      << bad.status().message();
}

// Graph "g<level>": a PartitionedCall whose builder makes "g<level+1>", down to "g<levels>",
// which applies Abs.
Graph NestedCalls(int level, int levels) {
  const std::string name = "g" + std::to_string(level);
  op::Data in = MakeData((name + "_in").c_str(), {4});
  Graph graph(name);
  if (level == levels) {
    op::Abs abs((name + "_abs").c_str());
    abs.set_input_x(in);
    graph.SetInputs({in}).SetOutputs({abs});
    return graph;
  }
  op::PartitionedCall call((name + "_call").c_str());
  call.create_dynamic_input_args(1).create_dynamic_output_output(1);
  call.set_dynamic_input_args(0, in);
  call.set_subgraph_builder_f([level, levels] { return NestedCalls(level + 1, levels); });
  graph.SetInputs({in}).SetOutputs({call});
  return graph;
}

TEST(Graph, SubgraphBuildersNestedToTheLimit) {
  auto cg = NestedCalls(0, kMaxSubgraphDepth).ToComputeGraph();
  ASSERT_TRUE(cg.ok()) << cg.status().message();
  EXPECT_EQ((*cg)->GetAllSubgraphs().size(), static_cast<size_t>(kMaxSubgraphDepth));
}

TEST(Graph, SubgraphBuildersNestedDeeperThanTheLimitAreRefused) {
  auto cg = NestedCalls(0, kMaxSubgraphDepth + 1).ToComputeGraph();
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.status().message().find("subgraph 'g33' of node 'g32_call' (PartitionedCall) in "
                                       "graph 'g32' is nested 33 levels deep; subgraphs may nest "
                                       "at most 32 levels"),
            std::string::npos)
      << cg.status().message();
}

}  // namespace
}  // namespace ge

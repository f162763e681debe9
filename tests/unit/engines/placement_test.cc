// Tests of placement: which engine gets each node of mixed graphs, and unsupported nodes.
#include <gtest/gtest.h>

#include "engine_test_util.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class Placement : public ::testing::Test {
 protected:
  // Data -> Add -> Reshape -> Relu -> Identity, plus a Const feeding Add.
  void SetUp() override {
    const GeTensorDesc t = GraphBuilder::Desc({2, 8});
    data_ = Must(graph_builder_.AddNode("data", "Data", {}, {t}));
    const_ = Must(graph_builder_.AddNode("const", "Const", {}, {t}));
    add_ = Must(graph_builder_.AddNode("add", "Add", {t, t}, {t}));
    reshape_ = Must(graph_builder_.AddNode("reshape", "Reshape", {t}, {GraphBuilder::Desc({16})}));
    relu_ = Must(graph_builder_.AddNode("relu", "Relu", {GraphBuilder::Desc({16})},
                                        {GraphBuilder::Desc({16})}));
    identity_ = Must(graph_builder_.AddNode("identity", "Identity", {GraphBuilder::Desc({16})},
                                            {GraphBuilder::Desc({16})}));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(data_, add_, 0)));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(const_, add_, 1)));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(add_, reshape_, 0)));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(reshape_, relu_, 0)));
    ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(relu_, identity_, 0)));
  }

  Status Init(EngineManager& manager, const std::vector<std::string>& entries) {
    return manager.Initialize(OptionsFor(dir_.Write("conf.json", Config(entries))));
  }

  static std::string EngineOf(const NodePtr& node) { return node->GetOpDesc()->GetOpEngineName(); }
  static std::string LibOf(const NodePtr& node) { return node->GetOpDesc()->GetOpKernelLibName(); }

  TempDir dir_;
  GraphBuilder graph_builder_{"mixed"};
  ComputeGraphPtr graph_ = graph_builder_.GetGraph();
  NodePtr data_, const_, add_, reshape_, relu_, identity_;
};

TEST_F(Placement, EachNodeGetsTheFirstEngineThatSupportsIt) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {GeLocalEntry(), TestEngineEntry()}).ok());
  Status status = manager.PlaceNodes(*graph_);
  ASSERT_TRUE(status.ok()) << status.ToString();
  for (const NodePtr& node : {data_, const_, reshape_, identity_}) {
    EXPECT_EQ(EngineOf(node), "DNN_VM_GE_LOCAL") << node->GetName();
    EXPECT_EQ(LibOf(node), "DNN_VM_GE_LOCAL_OP_STORE") << node->GetName();
  }
  for (const NodePtr& node : {add_, relu_}) {
    EXPECT_EQ(EngineOf(node), "TEST_ENGINE") << node->GetName();
    EXPECT_EQ(LibOf(node), "TEST_ENGINE_OP_STORE") << node->GetName();
  }
}

TEST_F(Placement, PriorityFollowsTheConfigOrder) {
  // Both engines support Reshape: whichever comes first in the config gets it.
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {TestEngineEntry(), GeLocalEntry()}).ok());
  ASSERT_TRUE(manager.PlaceNodes(*graph_).ok());
  EXPECT_EQ(EngineOf(reshape_), "TEST_ENGINE");
  EXPECT_EQ(EngineOf(data_), "DNN_VM_GE_LOCAL");
}

TEST_F(Placement, NodesOfSubgraphsArePlacedToo) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {GeLocalEntry(), TestEngineEntry()}).ok());
  const GeTensorDesc t = GraphBuilder::Desc({4});
  NodePtr call = Must(graph_builder_.AddNode("call", "PartitionedCall", {t}, {t}));
  GraphBuilder body("body");
  NodePtr body_data = Must(body.AddNode("body_data", "Data", {}, {t}));
  NodePtr body_relu = Must(body.AddNode("body_relu", "Relu", {t}, {t}));
  ASSERT_TRUE(IsOk(body.AddDataEdge(body_data, body_relu, 0)));
  ASSERT_TRUE(IsOk(graph_builder_.AddSubgraph(call, 0, body.GetGraph())));
  ASSERT_TRUE(manager.PlaceNodes(*graph_).ok());
  EXPECT_EQ(EngineOf(call), "DNN_VM_GE_LOCAL");
  EXPECT_EQ(EngineOf(body_data), "DNN_VM_GE_LOCAL");
  EXPECT_EQ(EngineOf(body_relu), "TEST_ENGINE");
}

TEST_F(Placement, AnUnsupportedNodeIsAnErrorNamingItAndEveryEngineAskedWithItsReason) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {GeLocalEntry(), TestEngineEntry()}).ok());
  NodePtr conv = Must(graph_builder_.AddNode("conv", "Conv2D", {GraphBuilder::Desc({1, 3, 8, 8})},
                                             {GraphBuilder::Desc({1, 3, 8, 8})}));
  Status status = manager.PlaceNodes(*graph_);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kParamInvalid);
  const std::string& message = status.message();
  EXPECT_TRUE(Contains(message, "1 node(s) of graph 'mixed' are supported by no engine"))
      << message;
  EXPECT_TRUE(Contains(message, "node 'conv' (type Conv2D)")) << message;
  EXPECT_TRUE(Contains(message,
                       "DNN_VM_GE_LOCAL (DNN_VM_GE_LOCAL_OP_STORE): op type 'Conv2D' is "
                       "not registered in the GE Local op factory"))
      << message;
  EXPECT_TRUE(Contains(message,
                       "TEST_ENGINE (TEST_ENGINE_OP_STORE): the test engine has no "
                       "kernel for 'Conv2D'"))
      << message;
  // Nothing was placed: the graph is left as it was.
  EXPECT_EQ(EngineOf(data_), "");
  EXPECT_EQ(EngineOf(add_), "");
}

TEST_F(Placement, EveryUnsupportedNodeIsListed) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {GeLocalEntry()}).ok());  // nobody supports Add or Relu
  Status status = manager.PlaceNodes(*graph_);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "2 node(s)")) << status.message();
  EXPECT_TRUE(Contains(status.message(), "node 'add' (type Add)")) << status.message();
  EXPECT_TRUE(Contains(status.message(), "node 'relu' (type Relu)")) << status.message();
  EXPECT_FALSE(Contains(status.message(), "node 'data'")) << status.message();
}

TEST_F(Placement, WithNoEngineLoadedTheErrorSaysSo) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {}).ok());
  Status status = manager.PlaceNodes(*graph_);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "node 'data' (type Data): no engine is loaded"))
      << status.message();
}

TEST_F(Placement, ThePlacedNodesBuilderIsFoundByItsKernelLibrary) {
  EngineManager manager;
  ASSERT_TRUE(Init(manager, {GeLocalEntry(), TestEngineEntry()}).ok());
  auto unplaced = manager.GetOpsKernelBuilderFor(*add_->GetOpDesc());
  ASSERT_FALSE(unplaced.ok());
  EXPECT_TRUE(Contains(unplaced.status().message(), "node 'add' (type Add) has no kernel library"))
      << unplaced.status().message();
  ASSERT_TRUE(manager.PlaceNodes(*graph_).ok());
  auto builder = manager.GetOpsKernelBuilderFor(*add_->GetOpDesc());
  ASSERT_TRUE(builder.ok());
  EXPECT_EQ(*builder, manager.GetOpsKernelBuilder("TEST_ENGINE_OP_STORE"));
  // The test engine's builder emits one task naming its engine.
  RunContext context;
  context.stream_id = 3;
  std::vector<TaskDef> tasks;
  ASSERT_TRUE((*builder)->GenerateTask(*add_, context, tasks).ok());
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].kernel_name, "Add");
  EXPECT_EQ(tasks[0].engine, "TEST_ENGINE");
  EXPECT_EQ(tasks[0].op_name, "add");
  EXPECT_EQ(tasks[0].stream_id, 3);
}

}  // namespace
}  // namespace ge

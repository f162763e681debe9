// Tests of GE Local's GenerateTask (NoOp, GeDeletedOp in each message case, StackPop, unknown
// shapes), its store's CheckSupported, and its graph optimizer.
#include <gtest/gtest.h>

#include "engine_test_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge_local_type_lists.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using ge_local_types::kConstantFoldedTypes;
using ge_local_types::kFrameworkDeletedTypes;
using ge_local_types::kIdentityTypes;

// Every type GE Local runs as a no-op: GE's list and ONNX's functional ops.
const std::vector<std::string> kNoOpTypes = [] {
  std::vector<std::string> types = ge_local_types::kGeNoOpTypes;
  types.insert(types.end(), ge_local_types::kOnnxFunctionalTypes.begin(),
               ge_local_types::kOnnxFunctionalTypes.end());
  return types;
}();

class GenerateTask : public GeLocalTest {
 protected:
  NodePtr Node(const std::string& type, GeTensorDesc desc = GraphBuilder::Desc({2, 2})) {
    return Must(graph_builder_.AddNode("node_" + std::to_string(count_++), type, {desc}, {desc}));
  }
  Status Generate(const NodePtr& node) { return builder()->GenerateTask(*node, context_, tasks_); }

  RunContext context_;
  std::vector<TaskDef> tasks_;
  int count_ = 0;
};

// The NoOp types GE Local still runs: Merge forwards data, the stack operators keep stacks.
bool IsRunTimeType(const std::string& type) {
  return type == "Merge" || type == "Stack" || type == "StackPush" || type == "StackPop" ||
         type == "StackClose";
}

TEST_F(GenerateTask, NoOpTypesSucceedWithoutTasks) {
  for (const std::string& type : kNoOpTypes) {
    if (IsRunTimeType(type)) continue;
    Status status = Generate(Node(type));
    EXPECT_TRUE(status.ok()) << type << ": " << status.ToString();
  }
  EXPECT_TRUE(tasks_.empty());
}

// Merge and the stack operators work at run time: one GE Local task each.
TEST_F(GenerateTask, MergeAndTheStackOperatorsGetAGeLocalTask) {
  const std::vector<std::string> types = {"Merge", "Stack", "StackPush", "StackPop", "StackClose"};
  for (const std::string& type : types) {
    ASSERT_TRUE(Generate(Node(type)).ok()) << type;
  }
  ASSERT_EQ(tasks_.size(), types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(tasks_[i].kernel_name, types[i]);
    EXPECT_EQ(tasks_[i].engine, "DNN_VM_GE_LOCAL");
  }
}

TEST_F(GenerateTask, AFrameworkDeletedOpSaysWhatShouldHaveConvertedIt) {
  for (const std::string& type : kFrameworkDeletedTypes) {
    NodePtr node = Node(type);
    Status status = Generate(node);
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(), "node '" + node->GetName() + "' (type " + type +
                                               ") must not reach the compiler: no pass of "
                                               "OpenGE removes " +
                                               type + " nodes"))
        << status.message();
    // It names the conversion that should have happened and what to give the graph instead.
    EXPECT_TRUE(Contains(status.message(), "give the graph") ||
                Contains(status.message(), "convert the graph"))
        << status.message();
    EXPECT_FALSE(Contains(status.message(), "ge.oo.constantFolding")) << status.message();
  }
}

TEST_F(GenerateTask, EveryDeletedOpTypeNamesThePassOrTheConversionThatRemovesIt) {
  size_t types = 0;
  for (const auto& list : {kFrameworkDeletedTypes, kConstantFoldedTypes, kIdentityTypes}) {
    for (const std::string& type : list) {
      Status status = Generate(Node(type));
      ASSERT_FALSE(status.ok()) << type;
      EXPECT_FALSE(Contains(status.message(), "should have been removed by graph optimization"))
          << type << ": a generic message: " << status.message();
      ++types;
    }
  }
  EXPECT_EQ(types, 29u);  // GE Local's GeDeletedOp list
}

TEST_F(GenerateTask, ADeletedOpWhoseOptionIsNotSetSaysTheOptionCouldNotBeRead) {
  for (const std::string& type : kConstantFoldedTypes) {
    Status status = Generate(Node(type));
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(), "(type " + type +
                                               ") should have been removed by "
                                               "constant folding, but the option "
                                               "ge.oo.constantFolding could not be read (it is not "
                                               "set)"))
        << status.message();
  }
}

TEST_F(GenerateTask, ADeletedOpWhoseOptionIsUnreadableSaysSoWithTheValue) {
  context_.options["ge.oo.constantFolding"] = "maybe";
  Status status = Generate(Node("Shape"));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(),
                       "ge.oo.constantFolding could not be read (its value "
                       "'maybe' is neither 1/true nor 0/false)"))
      << status.message();
}

TEST_F(GenerateTask, ADeletedOpWhoseOptionIsOffSaysItMustBeOn) {
  context_.options["ge.oo.constantFolding"] = "0";
  for (const std::string& type : kConstantFoldedTypes) {
    NodePtr node = Node(type);
    Status status = Generate(node);
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(), "node '" + node->GetName() + "' (type " + type +
                                               ") was not removed because constant folding is "
                                               "disabled (ge.oo.constantFolding=0)"))
        << status.message();
    EXPECT_TRUE(Contains(status.message(), "must be on")) << status.message();
  }
}

TEST_F(GenerateTask, ADeletedOpWhoseOptionIsOnSaysThePassIsNotWorking) {
  context_.options["ge.oo.constantFolding"] = "1";
  for (const std::string& type : kConstantFoldedTypes) {
    Status status = Generate(Node(type));
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(), "(type " + type +
                                               ") survived although constant "
                                               "folding is enabled (ge.oo.constantFolding=1)"))
        << status.message();
    EXPECT_TRUE(Contains(status.message(), "is not working")) << status.message();
  }
}

// A deleted op whose pass the compile switched off (openge.disablePasses) says so, naming the
// pass, whatever GE's option says; the identity family, which has no GE option, names its pass.
TEST_F(GenerateTask, ADeletedOpWhosePassIsSwitchedOffNamesThePass) {
  context_.options["ge.oo.constantFolding"] = "1";
  context_.options["openge.disablePasses"] = "Fusion, ConstantFolding,RemoveIdentity";
  for (const std::string& type : kConstantFoldedTypes) {
    Status status = Generate(Node(type));
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(),
                         "was not removed because constant folding is switched "
                         "off (the pass ConstantFolding is in "
                         "openge.disablePasses=Fusion, "
                         "ConstantFolding,RemoveIdentity)"))
        << status.message();
  }
  for (const std::string& type : kIdentityTypes) {
    Status status = Generate(Node(type));
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(),
                         "identity removal is switched off (the pass "
                         "RemoveIdentity is in openge.disablePasses"))
        << status.message();
  }
  context_.options.erase("openge.disablePasses");
  for (const std::string& type : kIdentityTypes) {
    Status status = Generate(Node(type));
    ASSERT_FALSE(status.ok()) << type;
    EXPECT_TRUE(Contains(status.message(),
                         "survived although identity removal (the pass "
                         "RemoveIdentity) is enabled"))
        << status.message();
  }
}

TEST_F(GenerateTask, StackPopDependsOnCompute) {
  NodePtr node = Node("StackPop");
  ASSERT_TRUE(Generate(node).ok());
  int64_t type = 0;
  ASSERT_TRUE(AttrUtils::GetInt(node->GetOpDesc(), "_unknown_shape_type", type));
  EXPECT_EQ(type, 4);
  EXPECT_FALSE(AttrUtils::HasAttr(node->GetOpDesc(), "_no_task"));
}

TEST_F(GenerateTask, UnknownShapeNodesGetNoTask) {
  // Even a GeDeletedOp: with an unknown shape it is left to run time.
  for (const std::string& type : {std::string("Reshape"), std::string("Squeeze")}) {
    NodePtr node = Node(type, GraphBuilder::Desc({-1, 2}));
    Status status = Generate(node);
    ASSERT_TRUE(status.ok()) << type << ": " << status.ToString();
    bool no_task = false;
    EXPECT_TRUE(AttrUtils::GetBool(node->GetOpDesc(), "_no_task", no_task) && no_task) << type;
  }
  EXPECT_TRUE(tasks_.empty());
}

// A shape query whose input shape is known only at run time is answered then, by GE Local's own
// task executor.
TEST_F(GenerateTask, UnknownShapeQueriesGetAGeLocalTask) {
  for (const char* type : {"Shape", "ShapeN", "Size", "Rank"}) {
    tasks_.clear();
    NodePtr node = Node(type, GraphBuilder::Desc({-1, 2}));
    ASSERT_TRUE(Generate(node).ok()) << type;
    ASSERT_EQ(tasks_.size(), 1U) << type;
    EXPECT_EQ(tasks_[0].kernel_name, type);
    EXPECT_EQ(tasks_[0].engine, "DNN_VM_GE_LOCAL");
    EXPECT_EQ(tasks_[0].op_name, node->GetName());
    EXPECT_FALSE(AttrUtils::HasAttr(node->GetOpDesc(), "_no_task")) << type;
  }
}

TEST_F(GenerateTask, KnownShapeNodesAreNotMarkedNoTask) {
  NodePtr node = Node("Reshape");
  ASSERT_TRUE(Generate(node).ok());
  EXPECT_FALSE(AttrUtils::HasAttr(node->GetOpDesc(), "_no_task"));
}

TEST_F(GenerateTask, AnUnregisteredTypeIsRefused) {
  Status status = Generate(Node("Conv2D"));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(),
                       "(type Conv2D) is not an operator of the DNN_VM_GE_LOCAL "
                       "engine"))
      << status.message();
}

TEST_F(GenerateTask, CheckSupportedIsTheRegisteredTypes) {
  std::string reason;
  for (const std::string& type : kNoOpTypes) {
    EXPECT_TRUE(store()->CheckSupported(std::make_shared<OpDesc>("n", type), reason)) << type;
  }
  for (const std::string& type : kFrameworkDeletedTypes) {
    EXPECT_TRUE(store()->CheckSupported(std::make_shared<OpDesc>("n", type), reason)) << type;
  }
  EXPECT_FALSE(store()->CheckSupported(std::make_shared<OpDesc>("n", "NetOutput"), reason));
  EXPECT_EQ(reason, "op type 'NetOutput' is not registered in the GE Local op factory");
}

TEST_F(GenerateTask, TheOptimizerMarksPhonyConcatAndPhonySplitOnly) {
  NodePtr concat = Node("PhonyConcat");
  NodePtr split = Node("PhonySplit");
  NodePtr reshape = Node("Reshape");
  Status status = manager().RunGraphOptimizers(OptimizeStage::kOriginalGraphJudgeInsert, *graph_);
  ASSERT_TRUE(status.ok()) << status.ToString();
  for (const NodePtr& node : {concat, split}) {
    bool flag = false;
    int64_t dim_index = -1;
    EXPECT_TRUE(AttrUtils::GetBool(node->GetOpDesc(), "_no_task", flag) && flag);
    EXPECT_TRUE(AttrUtils::GetBool(node->GetOpDesc(), "_output_reuse_input", flag) && flag);
    EXPECT_TRUE(AttrUtils::GetInt(node->GetOpDesc(), "_reuse_input_on_dim_index", dim_index));
    EXPECT_EQ(dim_index, 0);
  }
  bool flag = false;
  EXPECT_TRUE(AttrUtils::GetBool(concat->GetOpDesc(), "_no_padding_continuous_input", flag) &&
              flag);
  EXPECT_FALSE(AttrUtils::HasAttr(concat->GetOpDesc(), "_no_padding_continuous_output"));
  EXPECT_TRUE(AttrUtils::GetBool(split->GetOpDesc(), "_no_padding_continuous_output", flag) &&
              flag);
  EXPECT_FALSE(AttrUtils::HasAttr(split->GetOpDesc(), "_no_padding_continuous_input"));
  EXPECT_TRUE(reshape->GetOpDesc()->GetAttrMap().GetAllNames().empty());
}

TEST_F(GenerateTask, TheOptimizerDoesNothingAtOtherStages) {
  NodePtr concat = Node("PhonyConcat");
  for (OptimizeStage stage :
       {OptimizeStage::kOriginalGraph, OptimizeStage::kFusedGraph, OptimizeStage::kWholeGraph}) {
    ASSERT_TRUE(manager().RunGraphOptimizers(stage, *graph_).ok());
  }
  EXPECT_FALSE(AttrUtils::HasAttr(concat->GetOpDesc(), "_no_task"));
}

}  // namespace
}  // namespace ge

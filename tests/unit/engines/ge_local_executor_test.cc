// GE Local's task executor: the shape queries of nodes whose shapes are known only at run time.
#include <gtest/gtest.h>

#include <cstdint>

#include "engine_test_util.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using namespace engine_test;

class GeLocalExecutor : public GeLocalTest {
 protected:
  TaskExecutor& executor() {
    const EngineInfo* engine = manager().GetEngine("DNN_VM_GE_LOCAL");
    EXPECT_NE(engine, nullptr);
    EXPECT_NE(engine->executor, nullptr);
    return *engine->executor;
  }

  /// Runs `type` on inputs of `dims`; each output holds `out_elements[i]` elements of `dtype`.
  Result<std::vector<std::vector<int64_t>>> Run(const std::string& type,
                                                const std::vector<std::vector<int64_t>>& dims,
                                                const std::vector<size_t>& out_elements,
                                                DataType dtype = DT_INT64,
                                                const std::map<std::string, int64_t>& attrs = {}) {
    std::vector<GeTensorDesc> in_descs(dims.size(), GraphBuilder::Desc({-1}));
    std::vector<GeTensorDesc> out_descs(out_elements.size(), GraphBuilder::Desc({-1}));
    NodePtr node =
        Must(graph_builder_.AddNode("q" + std::to_string(count_++), type, in_descs, out_descs));
    for (const auto& [name, value] : attrs) AttrUtils::SetInt(node->GetOpDesc(), name, value);
    TaskDef task;
    task.kernel_name = type;
    task.engine = "DNN_VM_GE_LOCAL";
    task.op_name = node->GetName();
    GE_ASSIGN_OR_RETURN(std::unique_ptr<TaskKernel> kernel,
                        executor().LoadTask(task, *node, TaskLoadContext{}));
    float dummy = 0;
    std::vector<RuntimeTensor> inputs;
    for (const auto& d : dims) inputs.push_back({&dummy, DT_FLOAT, d});
    std::vector<std::vector<int64_t>> wide(out_elements.size());
    std::vector<std::vector<int32_t>> narrow(out_elements.size());
    std::vector<RuntimeTensor> outputs;
    for (size_t i = 0; i < out_elements.size(); ++i) {
      wide[i].assign(out_elements[i], -7);
      narrow[i].assign(out_elements[i], -7);
      void* data = dtype == DT_INT64 ? static_cast<void*>(wide[i].data()) : narrow[i].data();
      const std::vector<int64_t> shape = type == "Size" || type == "Rank"
                                             ? std::vector<int64_t>{}
                                             : std::vector<int64_t>{int64_t(out_elements[i])};
      outputs.push_back({data, dtype, shape});
    }
    GE_RETURN_IF_ERROR(kernel->Run(inputs, outputs, nullptr));
    if (dtype == DT_INT32) {
      for (size_t i = 0; i < narrow.size(); ++i) wide[i].assign(narrow[i].begin(), narrow[i].end());
    }
    return wide;
  }

  int count_ = 0;
};

TEST_F(GeLocalExecutor, ShapeSizeAndRankReadTheDimsTheRuntimeGives) {
  auto shape = Run("Shape", {{2, 3, 5}}, {3});
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ((*shape)[0], (std::vector<int64_t>{2, 3, 5}));
  auto size = Run("Size", {{2, 3, 5}}, {1});
  ASSERT_TRUE(size.ok()) << size.status().message();
  EXPECT_EQ((*size)[0], std::vector<int64_t>{30});
  auto rank = Run("Rank", {{2, 3, 5}}, {1}, DT_INT32);
  ASSERT_TRUE(rank.ok()) << rank.status().message();
  EXPECT_EQ((*rank)[0], std::vector<int64_t>{3});
  auto shapes = Run("ShapeN", {{4, 1}, {7}}, {2, 1}, DT_INT32);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ((*shapes)[0], (std::vector<int64_t>{4, 1}));
  EXPECT_EQ((*shapes)[1], (std::vector<int64_t>{7}));
}

TEST_F(GeLocalExecutor, ShapeTakesOnnxStartAndEnd) {
  auto tail = Run("Shape", {{2, 3, 5, 7}}, {2}, DT_INT64, {{"start", -2}});
  ASSERT_TRUE(tail.ok()) << tail.status().message();
  EXPECT_EQ((*tail)[0], (std::vector<int64_t>{5, 7}));
  auto middle = Run("Shape", {{2, 3, 5, 7}}, {2}, DT_INT64, {{"start", 1}, {"end", -1}});
  ASSERT_TRUE(middle.ok()) << middle.status().message();
  EXPECT_EQ((*middle)[0], (std::vector<int64_t>{3, 5}));
}

TEST_F(GeLocalExecutor, AnOutputThatDoesNotFitTheAnswerIsAnError) {
  auto wrong = Run("Shape", {{2, 3, 5}}, {2});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("holds 2 elements"), std::string::npos)
      << wrong.status().message();
  auto big = Run("Size", {{int64_t{1} << 20, int64_t{1} << 12}}, {1}, DT_INT32);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("does not fit its int32 output"), std::string::npos)
      << big.status().message();
}

TEST_F(GeLocalExecutor, OnlyShapeQueriesHaveKernels) {
  EXPECT_TRUE(executor().Runs("Shape"));
  EXPECT_FALSE(executor().Runs("Reshape"));
  EXPECT_FALSE(executor().Runs("NoOp"));
  auto refused = Run("Reshape", {{2, 3}}, {6});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("GE Local has no kernel Reshape"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace ge

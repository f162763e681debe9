// The runtime on graphs whose shapes are known only at run time: unknown input dims, shapes that
// come from input values (Reshape's shape, Unsqueeze's axes, Shape), outputs whose size depends
// on the data (NonZero), and the errors of each.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using testing::EngineOptions;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

std::vector<float> Ramp(size_t n, float start = -3.0F, float step = 0.5F) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

class DynamicRuntimeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static Result<std::unique_ptr<LoadedModel>> CompileAndLoad(ComputeGraphPtr graph) {
    auto compiler = Compiler::Create(testing::TestOptions());
    if (!compiler.ok()) return compiler.status();
    GE_ASSIGN_OR_RETURN(CompiledModel compiled, (*compiler)->Compile(graph));
    return LoadedModel::Load(std::move(compiled), EngineOptions());
  }
};

// y = relu(x) * 2 + 1 with x [-1, 4]: one compiled model serves every batch size.
TEST_F(DynamicRuntimeTest, UnknownBatchRunsAtEverySize) {
  ProtoGraph b("dyn_batch");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr two = b.Const<float>("two", DT_FLOAT, {1}, {2.0F});
  NodePtr one = b.Const<float>("one", DT_FLOAT, {4}, {1.0F, 1.0F, 1.0F, 1.0F});
  NodePtr mul = b.Op("Mul", "mul", {{relu, 0}, {two, 0}});
  NodePtr add = b.Op("Add", "add", {{mul, 0}, {one, 0}});
  b.Output({{add, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ((*model)->inputs().size(), 1U);
  EXPECT_EQ((*model)->inputs()[0].dims, (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ((*model)->outputs()[0].dims, (std::vector<int64_t>{-1, 4}));

  for (int64_t batch : {2, 5, 2, 0}) {
    const std::vector<float> in = Ramp(static_cast<size_t>(batch * 4));
    auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {batch, 4}, in)});
    ASSERT_TRUE(out.ok()) << "batch " << batch << ": " << out.status().message();
    ASSERT_EQ(out->size(), 1U);
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{batch, 4}));
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), in.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], std::max(in[i], 0.0F) * 2 + 1) << i;
  }
}

// Each node keeps the kernels prepared for the last 4 input shapes: shapes that come back run
// without preparing again (a convolution keeps its primitive and packed weights), with the same
// numbers; a fifth shape evicts the least recently used.
TEST_F(DynamicRuntimeTest, KernelsPreparedForAShapeAreKeptForItsReturn) {
  ProtoGraph b("dyn_conv");
  NodePtr x = b.Data("x", {-1, 4, 6, 6});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {8, 4, 3, 3}, Ramp(288));
  NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}},
                      {{"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
                       {"strides", AttrValue(std::vector<int64_t>{1, 1})}});
  NodePtr relu = b.Op("Relu", "relu", {{conv, 0}});
  b.Output({{relu, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  std::map<int64_t, std::vector<float>> first;
  auto run = [&](int64_t batch) {
    const std::vector<float> in = Ramp(static_cast<size_t>(batch * 144));
    auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {batch, 4, 6, 6}, in)});
    ASSERT_TRUE(out.ok()) << "batch " << batch << ": " << out.status().message();
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(batch * 288));
    auto [it, inserted] = first.emplace(batch, y);
    if (!inserted) {
      EXPECT_EQ(y, it->second) << "batch " << batch;
    }
  };
  run(2);
  run(3);
  const KernelCacheStats two = (*model)->kernel_cache();
  EXPECT_GT(two.prepared, 0);
  EXPECT_EQ(two.reused, 0);
  run(2);
  run(3);
  const KernelCacheStats again = (*model)->kernel_cache();
  EXPECT_EQ(again.prepared, two.prepared);
  EXPECT_EQ(again.reused, two.prepared);
  for (int64_t batch : {4, 5, 1}) run(batch);  // batch 2 is now the least recently used
  const int64_t per_shape = two.prepared / 2;
  EXPECT_EQ((*model)->kernel_cache().prepared, 5 * per_shape);
  run(2);
  EXPECT_EQ((*model)->kernel_cache().prepared, 6 * per_shape);
}

// Reshape's target shape and Unsqueeze's axes arrive as inputs: the output shapes follow the
// values, and the views share the input's bytes.
TEST_F(DynamicRuntimeTest, ShapesFromInputValues) {
  ProtoGraph b("dyn_values");
  NodePtr x = b.Data("x", {2, 6});
  NodePtr shape = b.Data("shape", {2}, DT_INT64);
  NodePtr axes = b.Data("axes", {1}, DT_INT64);
  NodePtr reshaped = b.Op("Reshape", "reshape", {{x, 0}, {shape, 0}});
  NodePtr neg = b.Op("Neg", "neg", {{reshaped, 0}});
  NodePtr unsqueezed = b.Op("Unsqueeze", "unsqueeze", {{neg, 0}, {axes, 0}});
  b.Output({{unsqueezed, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();

  const std::vector<float> in = Ramp(12);
  struct Case {
    std::vector<int64_t> shape;
    int64_t axis;
    std::vector<int64_t> want;
  };
  for (const Case& c :
       {Case{{3, 4}, 0, {1, 3, 4}}, Case{{4, -1}, 2, {4, 3, 1}}, Case{{12, 1}, -1, {12, 1, 1}}}) {
    auto out = (*model)->Run(
        std::vector<GeTensor>{MakeTensor(DT_FLOAT, {2, 6}, in), MakeTensor(DT_INT64, {2}, c.shape),
                              MakeTensor(DT_INT64, {1}, std::vector<int64_t>{c.axis})});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), c.want);
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), in.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], -in[i]);
  }

  // A shape that does not hold the input's 12 elements is an error naming the node.
  auto bad = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_FLOAT, {2, 6}, in), MakeTensor(DT_INT64, {2}, std::vector<int64_t>{5, 3}),
      MakeTensor(DT_INT64, {1}, std::vector<int64_t>{0})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'reshape' (Reshape)"), std::string::npos)
      << bad.status().message();
  // The model still runs after a failed run.
  auto again = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_FLOAT, {2, 6}, in), MakeTensor(DT_INT64, {2}, std::vector<int64_t>{6, 2}),
      MakeTensor(DT_INT64, {1}, std::vector<int64_t>{1})});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ((*again)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{6, 1, 2}));
}

// Shape of an unknown-shaped tensor is computed at run time, by GE Local's task executor.
TEST_F(DynamicRuntimeTest, ShapeOfAnUnknownTensor) {
  ProtoGraph b("dyn_shape");
  NodePtr x = b.Data("x", {-1, -1, 3});
  NodePtr shape = b.Op("Shape", "shape", {{x, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{shape, 0}, {relu, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {4, 1, 3}, Ramp(12))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(TensorValues<int64_t>((*out)[0]), (std::vector<int64_t>{4, 1, 3}));
  EXPECT_EQ((*out)[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 1, 3}));
}

// NonZero's output size depends on the data: the runtime allocates the kernel's bound and keeps
// the dims the kernel reports; a consumer then sees the actual shape.
TEST_F(DynamicRuntimeTest, OutputSizedByTheData) {
  ProtoGraph b("dyn_nonzero");
  NodePtr x = b.Data("x", {2, 3});
  NodePtr nz = b.Op("NonZero", "nonzero", {{x, 0}});
  NodePtr shape = b.Op("Shape", "shape", {{nz, 0}});
  b.Output({{nz, 0}, {shape, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run(
      std::vector<GeTensor>{MakeTensor(DT_FLOAT, {2, 3}, std::vector<float>{0, 1, 0, 2, 0, 3})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(TensorValues<int64_t>((*out)[0]), (std::vector<int64_t>{0, 1, 1, 1, 0, 2}));
  EXPECT_EQ(TensorValues<int64_t>((*out)[1]), (std::vector<int64_t>{2, 3}));

  auto none = (*model)->Run(
      std::vector<GeTensor>{MakeTensor(DT_FLOAT, {2, 3}, std::vector<float>(6, 0.0F))});
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_EQ((*none)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(TensorValues<int64_t>((*none)[1]), (std::vector<int64_t>{2, 0}));
}

// Inputs that do not fit the compiled dims are refused with both shapes named.
TEST_F(DynamicRuntimeTest, InputsThatDoNotFitAreRefused) {
  ProtoGraph b("dyn_errors");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{relu, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();

  auto rank = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {8}, Ramp(8))});
  ASSERT_FALSE(rank.ok());
  EXPECT_NE(rank.status().message().find("input 'x' must be DT_FLOAT [-1,4]"), std::string::npos)
      << rank.status().message();
  EXPECT_NE(rank.status().message().find("given DT_FLOAT [8]"), std::string::npos);

  auto dim = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {2, 3}, Ramp(6))});
  ASSERT_FALSE(dim.ok());
  EXPECT_NE(dim.status().message().find("given DT_FLOAT [2,3]"), std::string::npos);

  auto dtype = (*model)->Run(
      std::vector<GeTensor>{MakeTensor(DT_INT64, {1, 4}, std::vector<int64_t>{1, 2, 3, 4})});
  ASSERT_FALSE(dtype.ok());
  EXPECT_NE(dtype.status().message().find("given DT_INT64"), std::string::npos);

  auto count = (*model)->Run(std::vector<GeTensor>{});
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("takes 1 input(s), 0 given"), std::string::npos);
}

// A dynamic model saved to a file loads and runs the same, and profiling records its tasks.
TEST_F(DynamicRuntimeTest, SavedModelRunsAndProfiles) {
  ProtoGraph b("dyn_file");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr sig = b.Op("Sigmoid", "sigmoid", {{x, 0}});
  b.Output({{sig, 0}});
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(b.graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const std::string path = ::testing::TempDir() + "dyn_file_" + std::to_string(::getpid()) + ".om";
  ASSERT_TRUE(compiled->SaveToFile(path).ok());
  auto model = LoadedModel::LoadFromFile(path, EngineOptions());
  std::remove(path.c_str());
  ASSERT_TRUE(model.ok()) << model.status().message();
  (*model)->EnableProfiling(true);
  auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_FLOAT, {3, 4}, Ramp(12))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const std::vector<float> y = TensorValues<float>((*out)[0]);
  const std::vector<float> in = Ramp(12);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], 1.0F / (1.0F + std::exp(-in[i])), 1e-6F);
  ASSERT_EQ((*model)->LastProfile().size(), 1U);
  EXPECT_EQ((*model)->LastProfile()[0].name, "sigmoid");
  EXPECT_GE((*model)->LastProfile()[0].duration_us, 0.0);
}

// A subgraph whose Data nodes stand for the parent's inputs `parents` (by _parent_node_index)
// and whose outputs `body` makes from them.
ComputeGraphPtr Subgraph(
    const std::string& name, const std::vector<std::pair<int64_t, std::vector<int64_t>>>& parents,
    const std::vector<DataType>& dtypes,
    const std::function<std::vector<NodeOutput>(ProtoGraph&, const std::vector<NodePtr>&)>& body) {
  ProtoGraph sub(name);
  std::vector<NodePtr> ins;
  for (size_t i = 0; i < parents.size(); ++i) {
    NodePtr in = sub.SubgraphData(name + "_in" + std::to_string(i), parents[i].first,
                                  parents[i].second, dtypes[i]);
    ins.push_back(in);
  }
  sub.Output(body(sub, ins));
  return sub.graph();
}

// If: the branch runs on the captured input, and the branches may give different shapes.
TEST_F(DynamicRuntimeTest, IfRunsTheChosenBranch) {
  ProtoGraph b("if_model");
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr x = b.Data("x", {2, 3});
  NodePtr if_node = b.Op("If", "if", {{cond, 0}, {x, 0}}, {}, {{"input", 1}, {"output", 1}});
  b.Output({{if_node, 0}});
  ASSERT_TRUE(
      NodeUtils::SetSubgraph(
          if_node, 0,
          Subgraph("then", {{1, {2, 3}}}, {DT_FLOAT},
                   [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                     return std::vector<NodeOutput>{{g.Op("Relu", "relu", {{in[0], 0}}), 0}};
                   }))
          .ok());
  ASSERT_TRUE(NodeUtils::SetSubgraph(
                  if_node, 1,
                  Subgraph("else", {{1, {2, 3}}}, {DT_FLOAT},
                           [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                             NodePtr t = g.Op("Transpose", "t", {{in[0], 0}},
                                              {{"perm", std::vector<int64_t>{1, 0}}});
                             return std::vector<NodeOutput>{{g.Op("Neg", "neg", {{t, 0}}), 0}};
                           }))
                  .ok());
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<float> in = Ramp(6);
  auto then_out = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{1}), MakeTensor(DT_FLOAT, {2, 3}, in)});
  ASSERT_TRUE(then_out.ok()) << then_out.status().message();
  EXPECT_EQ((*then_out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  const std::vector<float> relu = TensorValues<float>((*then_out)[0]);
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(relu[i], std::max(in[i], 0.0F));
  auto else_out = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{0}), MakeTensor(DT_FLOAT, {2, 3}, in)});
  ASSERT_TRUE(else_out.ok()) << else_out.status().message();
  EXPECT_EQ((*else_out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3, 2}));
  const std::vector<float> neg = TensorValues<float>((*else_out)[0]);
  for (size_t r = 0; r < 3; ++r) {
    for (size_t c = 0; c < 2; ++c) EXPECT_FLOAT_EQ(neg[r * 2 + c], -in[c * 3 + r]);
  }
}

// Case picks a branch by index; an index out of range takes the last branch (GE's default).
TEST_F(DynamicRuntimeTest, CaseRunsTheIndexedBranch) {
  ProtoGraph b("case_model");
  NodePtr index = b.Data("index", {}, DT_INT32);
  NodePtr x = b.Data("x", {4});
  NodePtr case_node = b.Op("Case", "case", {{index, 0}, {x, 0}}, {},
                           {{"input", 1}, {"output", 1}, {"branches", 3}});
  b.Output({{case_node, 0}});
  const char* types[] = {"Relu", "Neg", "Abs"};
  for (uint32_t k = 0; k < 3; ++k) {
    const std::string type = types[k];
    ASSERT_TRUE(NodeUtils::SetSubgraph(
                    case_node, k,
                    Subgraph("branch" + std::to_string(k), {{1, {4}}}, {DT_FLOAT},
                             [type](ProtoGraph& g, const std::vector<NodePtr>& in) {
                               return std::vector<NodeOutput>{{g.Op(type, "op", {{in[0], 0}}), 0}};
                             }))
                    .ok());
  }
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<float> in = {-2, -1, 1, 2};
  const std::vector<std::pair<int32_t, std::vector<float>>> cases = {{0, {0, 0, 1, 2}},
                                                                     {1, {2, 1, -1, -2}},
                                                                     {2, {2, 1, 1, 2}},
                                                                     {7, {2, 1, 1, 2}},
                                                                     {-1, {2, 1, 1, 2}}};
  for (const auto& [k, want] : cases) {
    auto out = (*model)->Run(std::vector<GeTensor>{
        MakeTensor(DT_INT32, {}, std::vector<int32_t>{k}), MakeTensor(DT_FLOAT, {4}, in)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(TensorValues<float>((*out)[0]), want) << "branch index " << k;
  }
}

// While: cond and body see the loop variables; the outputs are their final values.
//   while (i < n) { i = i + 1; x = x * 2; }
TEST_F(DynamicRuntimeTest, WhileCarriesLoopVariables) {
  ProtoGraph b("while_model");
  NodePtr i = b.Data("i", {}, DT_INT64);
  NodePtr n = b.Data("n", {}, DT_INT64);
  NodePtr x = b.Data("x", {3});
  NodePtr loop = b.Op("While", "loop", {{i, 0}, {n, 0}, {x, 0}}, {}, {{"input", 3}, {"output", 3}});
  b.Output({{loop, 0}, {loop, 2}});
  const std::vector<std::pair<int64_t, std::vector<int64_t>>> vars = {{0, {}}, {1, {}}, {2, {3}}};
  const std::vector<DataType> dtypes = {DT_INT64, DT_INT64, DT_FLOAT};
  ASSERT_TRUE(
      NodeUtils::SetSubgraph(
          loop, 0,
          Subgraph(
              "cond", vars, dtypes,
              [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                return std::vector<NodeOutput>{{g.Op("Less", "less", {{in[0], 0}, {in[1], 0}}), 0}};
              }))
          .ok());
  ASSERT_TRUE(NodeUtils::SetSubgraph(
                  loop, 1,
                  Subgraph("body", vars, dtypes,
                           [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                             NodePtr one = g.Const<int64_t>("one", DT_INT64, {}, {1});
                             NodePtr two = g.Const<float>("two", DT_FLOAT, {}, {2.0F});
                             NodePtr next_i = g.Op("Add", "next_i", {{in[0], 0}, {one, 0}});
                             NodePtr next_x = g.Op("Mul", "next_x", {{in[2], 0}, {two, 0}});
                             return std::vector<NodeOutput>{{next_i, 0}, {in[1], 0}, {next_x, 0}};
                           }))
                  .ok());
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  for (int64_t limit : {3, 0, 5}) {
    auto out = (*model)->Run(
        std::vector<GeTensor>{MakeTensor(DT_INT64, {}, std::vector<int64_t>{0}),
                              MakeTensor(DT_INT64, {}, std::vector<int64_t>{limit}),
                              MakeTensor(DT_FLOAT, {3}, std::vector<float>{1, -2, 0.5F})});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(TensorValues<int64_t>((*out)[0]), (std::vector<int64_t>{limit}));
    const auto scale = static_cast<float>(1 << limit);
    EXPECT_EQ(TensorValues<float>((*out)[1]),
              (std::vector<float>{scale, -2 * scale, 0.5F * scale}));
  }
}

// ONNX Loop: body(i, cond, v) -> (cond', v + 1, v * 2); scan outputs stack per iteration.
ComputeGraphPtr LoopModel(bool with_trip_count, bool with_cond) {
  ProtoGraph b("loop_model");
  NodePtr m = with_trip_count ? b.Data("m", {}, DT_INT64) : nullptr;
  NodePtr cond = with_cond ? b.Data("cond", {}, DT_BOOL) : nullptr;
  NodePtr v = b.Data("v", {2});
  NodePtr loop = b.Op("Loop", "loop", {{m, 0}, {cond, 0}, {v, 0}}, {},
                      {{"v_initial", 1}, {"implicit_input", 0}, {"output", 2}});
  b.Output({{loop, 0}, {loop, 1}});
  // The body's condition: i < 2 (so without a trip count it runs 3 times).
  EXPECT_TRUE(
      NodeUtils::SetSubgraph(
          loop, 0,
          Subgraph("body", {{0, {}}, {1, {}}, {2, {2}}}, {DT_INT64, DT_BOOL, DT_FLOAT},
                   [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                     NodePtr two = g.Const<int64_t>("two", DT_INT64, {}, {2});
                     NodePtr one = g.Const<float>("one", DT_FLOAT, {}, {1.0F});
                     NodePtr twice = g.Const<float>("twice", DT_FLOAT, {}, {2.0F});
                     NodePtr keep_going = g.Op("Less", "keep_going", {{in[0], 0}, {two, 0}});
                     NodePtr next = g.Op("Add", "next", {{in[2], 0}, {one, 0}});
                     NodePtr scan = g.Op("Mul", "scan", {{in[2], 0}, {twice, 0}});
                     return std::vector<NodeOutput>{{keep_going, 0}, {next, 0}, {scan, 0}};
                   }))
          .ok());
  return b.graph();
}

TEST_F(DynamicRuntimeTest, LoopRunsToItsTripCountOrCondition) {
  const std::vector<float> v0 = {1.0F, -3.0F};
  auto expect = [&](const std::vector<GeTensor>& out, int iterations) {
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(TensorValues<float>(out[0]),
              (std::vector<float>{v0[0] + static_cast<float>(iterations),
                                  v0[1] + static_cast<float>(iterations)}));
    EXPECT_EQ(out[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{iterations, 2}));
    const std::vector<float> scan = TensorValues<float>(out[1]);
    for (int i = 0; i < iterations; ++i) {
      EXPECT_FLOAT_EQ(scan[static_cast<size_t>(i * 2)], 2 * (v0[0] + static_cast<float>(i)));
      EXPECT_FLOAT_EQ(scan[static_cast<size_t>(i * 2 + 1)], 2 * (v0[1] + static_cast<float>(i)));
    }
  };
  {
    // Trip count and condition: the first to stop wins.
    auto model = CompileAndLoad(LoopModel(true, true));
    ASSERT_TRUE(model.ok()) << model.status().message();
    for (const auto& [m, want] : std::vector<std::pair<int64_t, int>>{{2, 2}, {10, 3}, {0, 0}}) {
      auto out = (*model)->Run(std::vector<GeTensor>{
          MakeTensor(DT_INT64, {}, std::vector<int64_t>{m}),
          MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{1}), MakeTensor(DT_FLOAT, {2}, v0)});
      ASSERT_TRUE(out.ok()) << out.status().message();
      expect(*out, want);
    }
    auto never = (*model)->Run(std::vector<GeTensor>{
        MakeTensor(DT_INT64, {}, std::vector<int64_t>{5}),
        MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{0}), MakeTensor(DT_FLOAT, {2}, v0)});
    ASSERT_TRUE(never.ok()) << never.status().message();
    expect(*never, 0);
  }
  {
    // No condition input: a for loop, the body's condition is ignored.
    auto model = CompileAndLoad(LoopModel(true, false));
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto out = (*model)->Run(std::vector<GeTensor>{
        MakeTensor(DT_INT64, {}, std::vector<int64_t>{5}), MakeTensor(DT_FLOAT, {2}, v0)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    expect(*out, 5);
  }
  {
    // No trip count: a while loop on the body's condition.
    auto model = CompileAndLoad(LoopModel(false, true));
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto out = (*model)->Run(std::vector<GeTensor>{MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{1}),
                                                   MakeTensor(DT_FLOAT, {2}, v0)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    expect(*out, 3);
  }
}

// Scan outputs are kept until the loop ends: their running total counts against the memory
// limit, so a trip count of 10^12 fails after the iterations that fit instead of growing without
// end, and a loop within the limit still runs.
TEST_F(DynamicRuntimeTest, LoopScanOutputsCountAgainstTheMemoryLimit) {
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  auto compiled = (*compiler)->Compile(LoopModel(true, false));
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  RuntimeOptions options = EngineOptions();
  options.max_memory_bytes = 4096;  // 512 slices of [2] floats
  auto model = LoadedModel::Load(std::move(compiled).value(), options);
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<float> v0 = {1.0F, -3.0F};
  auto fits = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_INT64, {}, std::vector<int64_t>{100}), MakeTensor(DT_FLOAT, {2}, v0)});
  ASSERT_TRUE(fits.ok()) << fits.status().message();
  EXPECT_EQ((*fits)[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{100, 2}));
  auto endless = (*model)->Run(
      std::vector<GeTensor>{MakeTensor(DT_INT64, {}, std::vector<int64_t>{1'000'000'000'000}),
                            MakeTensor(DT_FLOAT, {2}, v0)});
  ASSERT_FALSE(endless.ok());
  EXPECT_NE(endless.status().message().find("'loop'"), std::string::npos)
      << endless.status().message();
  EXPECT_NE(endless.status().message().find("scan outputs take more than 4096 bytes after 513 "
                                            "iterations"),
            std::string::npos)
      << endless.status().message();
}

// ONNX Scan: a running sum over slices of x along the scan axis, forward or reversed.
TEST_F(DynamicRuntimeTest, ScanSlicesAndStacks) {
  for (const auto& [axis, reverse] :
       std::vector<std::pair<int64_t, bool>>{{0, false}, {0, true}, {1, false}}) {
    ProtoGraph b("scan_model");
    NodePtr s0 = b.Data("s0", {2});
    const std::vector<int64_t> x_dims =
        axis == 0 ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{2, 3};
    NodePtr x = b.Data("x", x_dims);
    std::map<std::string, AttrValue> attrs = {
        {"num_scan_inputs", AttrValue(int64_t{1})},
        {"scan_input_axes", AttrValue(std::vector<int64_t>{axis})},
        {"scan_input_directions", AttrValue(std::vector<int64_t>{reverse ? 1 : 0})}};
    NodePtr scan =
        b.Op("Scan", "scan", {{s0, 0}, {x, 0}}, attrs,
             {{"initial_state_and_scan_inputs", 2}, {"implicit_input", 0}, {"output", 2}});
    b.Output({{scan, 0}, {scan, 1}});
    ASSERT_TRUE(NodeUtils::SetSubgraph(
                    scan, 0,
                    Subgraph("body", {{0, {2}}, {1, {2}}}, {DT_FLOAT, DT_FLOAT},
                             [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                               NodePtr sum = g.Op("Add", "sum", {{in[0], 0}, {in[1], 0}});
                               NodePtr copy = g.Op("Relu", "copy", {{sum, 0}});
                               return std::vector<NodeOutput>{{sum, 0}, {copy, 0}};
                             }))
                    .ok());
    auto model = CompileAndLoad(b.graph());
    ASSERT_TRUE(model.ok()) << model.status().message();
    // Slices t = 0, 1, 2 are {1, 2}, {3, 4}, {5, 6} in both layouts.
    const std::vector<float> xs =
        axis == 0 ? std::vector<float>{1, 2, 3, 4, 5, 6} : std::vector<float>{1, 3, 5, 2, 4, 6};
    auto out = (*model)->Run(std::vector<GeTensor>{
        MakeTensor(DT_FLOAT, {2}, std::vector<float>{10, 20}), MakeTensor(DT_FLOAT, x_dims, xs)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(TensorValues<float>((*out)[0]), (std::vector<float>{19, 32}));
    EXPECT_EQ((*out)[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3, 2}));
    const std::vector<float> want = reverse ? std::vector<float>{15, 26, 18, 30, 19, 32}
                                            : std::vector<float>{11, 22, 14, 26, 19, 32};
    EXPECT_EQ(TensorValues<float>((*out)[1]), want) << "axis " << axis << " reverse " << reverse;
  }
}

// An error inside a branch names the subgraph and the node.
TEST_F(DynamicRuntimeTest, ErrorsInASubgraphNameIt) {
  ProtoGraph b("if_error");
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr x = b.Data("x", {2, 3});
  NodePtr shape = b.Data("shape", {2}, DT_INT64);
  NodePtr if_node =
      b.Op("If", "if", {{cond, 0}, {x, 0}, {shape, 0}}, {}, {{"input", 2}, {"output", 1}});
  b.Output({{if_node, 0}});
  ASSERT_TRUE(NodeUtils::SetSubgraph(
                  if_node, 0,
                  Subgraph("reshaping", {{1, {2, 3}}, {2, {2}}}, {DT_FLOAT, DT_INT64},
                           [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                             return std::vector<NodeOutput>{
                                 {g.Op("Reshape", "reshape", {{in[0], 0}, {in[1], 0}}), 0}};
                           }))
                  .ok());
  ASSERT_TRUE(
      NodeUtils::SetSubgraph(
          if_node, 1,
          Subgraph("passing", {{1, {2, 3}}}, {DT_FLOAT},
                   [](ProtoGraph& g, const std::vector<NodePtr>& in) {
                     return std::vector<NodeOutput>{{g.Op("Relu", "relu", {{in[0], 0}}), 0}};
                   }))
          .ok());
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto good = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{1}), MakeTensor(DT_FLOAT, {2, 3}, Ramp(6)),
      MakeTensor(DT_INT64, {2}, std::vector<int64_t>{3, 2})});
  ASSERT_TRUE(good.ok()) << good.status().message();
  EXPECT_EQ((*good)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3, 2}));
  auto bad = (*model)->Run(std::vector<GeTensor>{
      MakeTensor(DT_BOOL, {}, std::vector<uint8_t>{1}), MakeTensor(DT_FLOAT, {2, 3}, Ramp(6)),
      MakeTensor(DT_INT64, {2}, std::vector<int64_t>{4, 2})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("subgraph 'reshaping'"), std::string::npos)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("'reshape' (Reshape)"), std::string::npos)
      << bad.status().message();
}

// The dynamic GPT-2-like decoder compiled without shapes: with its dims as expressions, the
// shape arithmetic folds (its Reshapes get constant targets) and the matrix products take their
// bias and residual Adds, whose shapes only the expressions prove equal. The dynamic executor
// then runs fewer nodes with the numbers of a static compile, at every shape.
TEST_F(DynamicRuntimeTest, SymbolicShapesFoldAndFuseADecoderWithTheSameNumbers) {
  ASSERT_EQ(testing::ExportStatus(GE_TEST_MODELS_DIR), "ok");
  const std::string path =
      std::string(GE_TEST_MODELS_DIR) + "/gpt2_tiny_dynamic_opset17/model.onnx";
  auto compile = [&](std::map<std::string, std::string> extra) -> CompiledModel {
    auto graph = ParseOnnxFile(path);
    EXPECT_TRUE(graph.ok()) << graph.status().message();
    auto compiler = Compiler::Create(testing::TestOptions(std::move(extra)));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    if (!graph.ok() || !compiler.ok()) return {};
    auto compiled = (*compiler)->Compile(*graph);
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    return compiled.ok() ? std::move(*compiled) : CompiledModel{};
  };
  auto counter = [](const CompiledModel& m, const char* stage, const char* pass,
                    const std::string& name) -> int64_t {
    const PassReport* report = m.report.FindPass(stage, pass);
    if (report == nullptr) return -1;
    auto it = report->counters.find(name);
    return it == report->counters.end() ? 0 : it->second;
  };
  CompiledModel symbolic = compile({});
  CompiledModel plain = compile({{"openge.disablePasses", "SymbolicShapes,SymbolicShapesFinal"}});
  ASSERT_NE(symbolic.graph, nullptr);
  ASSERT_NE(plain.graph, nullptr);
  EXPECT_GT(counter(symbolic, "prepare", "SymbolicShapes", "Reshape targets made constant"), 0);
  EXPECT_GT(counter(symbolic, "optimize", "Fusion", "fused BatchMatMulV2+Bias+Add"), 0);
  EXPECT_EQ(counter(plain, "optimize", "Fusion", "fused BatchMatMulV2+Bias+Add"), 0);
  EXPECT_LT(symbolic.graph->GetAllNodesSize() + 40, plain.graph->GetAllNodesSize());
  auto symbolic_model = LoadedModel::Load(std::move(symbolic), EngineOptions());
  auto plain_model = LoadedModel::Load(std::move(plain), EngineOptions());
  ASSERT_TRUE(symbolic_model.ok()) << symbolic_model.status().message();
  ASSERT_TRUE(plain_model.ok()) << plain_model.status().message();
  EXPECT_TRUE((*symbolic_model)->runs_dynamically());
  for (const auto& [batch, seq] :
       std::vector<std::pair<int64_t, int64_t>>{{1, 16}, {2, 9}, {1, 1}}) {
    std::vector<int64_t> ids(static_cast<size_t>(batch * seq));
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>((i * 37 + 11) % 1000);
    const std::vector<GeTensor> in = {MakeTensor(DT_INT64, {batch, seq}, ids)};
    auto want = (*plain_model)->Run(in);
    auto got = (*symbolic_model)->Run(in);
    ASSERT_TRUE(want.ok()) << want.status().message();
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_EQ((*got)[0].GetTensorDesc().GetShape().GetDims(),
              (std::vector<int64_t>{batch, seq, 1000}));
    const std::vector<float> a = TensorValues<float>((*got)[0]);
    const std::vector<float> b = TensorValues<float>((*want)[0]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(a[i], b[i], 1e-4F * std::max(1.0F, std::fabs(b[i])))
          << batch << "x" << seq << " element " << i;
    }
  }
}

// A model run again and again takes its tensors from the buffers its earlier runs let go of, so
// after the first run it asks the system for none; an output a caller keeps stays its own, even
// after the model is gone.
TEST_F(DynamicRuntimeTest, RunsReuseTheBuffersOfEarlierRuns) {
  ProtoGraph b("reuse");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  NodePtr two = b.Const<float>("two", DT_FLOAT, {1}, {2.0F});
  NodePtr mul = b.Op("Mul", "mul", {{relu, 0}, {two, 0}});
  NodePtr add = b.Op("Add", "add", {{mul, 0}, {x, 0}});
  b.Output({{add, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_TRUE((*model)->runs_dynamically());
  const std::vector<float> in = Ramp(8);
  std::vector<float> want(in.size());
  for (size_t i = 0; i < in.size(); ++i) want[i] = std::max(in[i], 0.0F) * 2.0F + in[i];
  Result<std::vector<GeTensor>> kept = (*model)->Run({MakeTensor<float>(DT_FLOAT, {2, 4}, in)});
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  const RunBufferStats first = (*model)->run_buffers();
  EXPECT_GT(first.allocated, 0);
  for (int run = 0; run < 5; ++run) {
    Result<std::vector<GeTensor>> out = (*model)->Run({MakeTensor<float>(DT_FLOAT, {2, 4}, in)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(TensorValues<float>((*out)[0]), want);
  }
  const RunBufferStats later = (*model)->run_buffers();
  // The kept output holds one buffer; every other run reuses what the one before let go of.
  EXPECT_LE(later.allocated, first.allocated + 1);
  EXPECT_GT(later.reused, 0);
  EXPECT_GT(later.cached_bytes, 0);
  model->reset();
  EXPECT_EQ(TensorValues<float>((*kept)[0]), want);
}

}  // namespace
}  // namespace ge

// The runtime on graphs whose shapes are known only at run time: unknown input dims, shapes that
// come from input values (Reshape's shape, Unsqueeze's axes, Shape), outputs whose size depends
// on the data (NonZero), and the errors of each.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <unistd.h>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/runtime/model.h"

namespace ge {
namespace {

using testing::GraphBuilder;
using testing::MakeTensor;
using testing::TensorValues;

RuntimeOptions EngineOptions() {
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  return options;
}

std::vector<float> Ramp(size_t n, float start = -3.0F, float step = 0.5F) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

class DynamicRuntimeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static Result<std::unique_ptr<Model>> CompileAndLoad(ComputeGraphPtr graph) {
    auto compiler = Compiler::Create(testing::TestOptions());
    if (!compiler.ok()) return compiler.status();
    GE_ASSIGN_OR_RETURN(CompiledModel compiled, (*compiler)->Compile(graph));
    return Model::Load(std::move(compiled), EngineOptions());
  }
};

// y = relu(x) * 2 + 1 with x [-1, 4]: one compiled model serves every batch size, and the kernels
// prepared for one batch are prepared again when the batch changes.
TEST_F(DynamicRuntimeTest, UnknownBatchRunsAtEverySize) {
  GraphBuilder b("dyn_batch");
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
    auto out = (*model)->Run({MakeTensor(DT_FLOAT, {batch, 4}, in)});
    ASSERT_TRUE(out.ok()) << "batch " << batch << ": " << out.status().message();
    ASSERT_EQ(out->size(), 1U);
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{batch, 4}));
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), in.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], std::max(in[i], 0.0F) * 2 + 1) << i;
  }
}

// Reshape's target shape and Unsqueeze's axes arrive as inputs: the output shapes follow the
// values, and the views share the input's bytes.
TEST_F(DynamicRuntimeTest, ShapesFromInputValues) {
  GraphBuilder b("dyn_values");
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
  for (const Case& c : {Case{{3, 4}, 0, {1, 3, 4}}, Case{{4, -1}, 2, {4, 3, 1}},
                        Case{{12, 1}, -1, {12, 1, 1}}}) {
    auto out = (*model)->Run({MakeTensor(DT_FLOAT, {2, 6}, in),
                              MakeTensor(DT_INT64, {2}, c.shape),
                              MakeTensor(DT_INT64, {1}, std::vector<int64_t>{c.axis})});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), c.want);
    const std::vector<float> y = TensorValues<float>((*out)[0]);
    ASSERT_EQ(y.size(), in.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], -in[i]);
  }

  // A shape that does not hold the input's 12 elements is an error naming the node.
  auto bad = (*model)->Run({MakeTensor(DT_FLOAT, {2, 6}, in),
                            MakeTensor(DT_INT64, {2}, std::vector<int64_t>{5, 3}),
                            MakeTensor(DT_INT64, {1}, std::vector<int64_t>{0})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'reshape' (Reshape)"), std::string::npos)
      << bad.status().message();
  // The model still runs after a failed run.
  auto again = (*model)->Run({MakeTensor(DT_FLOAT, {2, 6}, in),
                              MakeTensor(DT_INT64, {2}, std::vector<int64_t>{6, 2}),
                              MakeTensor(DT_INT64, {1}, std::vector<int64_t>{1})});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ((*again)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{6, 1, 2}));
}

// Shape of an unknown-shaped tensor is computed at run time (GE Local has no task for it).
TEST_F(DynamicRuntimeTest, ShapeOfAnUnknownTensor) {
  GraphBuilder b("dyn_shape");
  NodePtr x = b.Data("x", {-1, -1, 3});
  NodePtr shape = b.Op("Shape", "shape", {{x, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{shape, 0}, {relu, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run({MakeTensor(DT_FLOAT, {4, 1, 3}, Ramp(12))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(TensorValues<int64_t>((*out)[0]), (std::vector<int64_t>{4, 1, 3}));
  EXPECT_EQ((*out)[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 1, 3}));
}

// NonZero's output size depends on the data: the runtime allocates the kernel's bound and keeps
// the dims the kernel reports; a consumer then sees the actual shape.
TEST_F(DynamicRuntimeTest, OutputSizedByTheData) {
  GraphBuilder b("dyn_nonzero");
  NodePtr x = b.Data("x", {2, 3});
  NodePtr nz = b.Op("NonZero", "nonzero", {{x, 0}});
  NodePtr shape = b.Op("Shape", "shape", {{nz, 0}});
  b.Output({{nz, 0}, {shape, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run({MakeTensor(DT_FLOAT, {2, 3}, std::vector<float>{0, 1, 0, 2, 0, 3})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(TensorValues<int64_t>((*out)[0]), (std::vector<int64_t>{0, 1, 1, 1, 0, 2}));
  EXPECT_EQ(TensorValues<int64_t>((*out)[1]), (std::vector<int64_t>{2, 3}));

  auto none = (*model)->Run({MakeTensor(DT_FLOAT, {2, 3}, std::vector<float>(6, 0.0F))});
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_EQ((*none)[0].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(TensorValues<int64_t>((*none)[1]), (std::vector<int64_t>{2, 0}));
}

// Inputs that do not fit the compiled dims are refused with both shapes named.
TEST_F(DynamicRuntimeTest, InputsThatDoNotFitAreRefused) {
  GraphBuilder b("dyn_errors");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{relu, 0}});
  auto model = CompileAndLoad(b.graph());
  ASSERT_TRUE(model.ok()) << model.status().message();

  auto rank = (*model)->Run({MakeTensor(DT_FLOAT, {8}, Ramp(8))});
  ASSERT_FALSE(rank.ok());
  EXPECT_NE(rank.status().message().find("input 'x' must be DT_FLOAT [-1,4]"), std::string::npos)
      << rank.status().message();
  EXPECT_NE(rank.status().message().find("given DT_FLOAT [8]"), std::string::npos);

  auto dim = (*model)->Run({MakeTensor(DT_FLOAT, {2, 3}, Ramp(6))});
  ASSERT_FALSE(dim.ok());
  EXPECT_NE(dim.status().message().find("given DT_FLOAT [2,3]"), std::string::npos);

  auto dtype = (*model)->Run({MakeTensor(DT_INT64, {1, 4}, std::vector<int64_t>{1, 2, 3, 4})});
  ASSERT_FALSE(dtype.ok());
  EXPECT_NE(dtype.status().message().find("given DT_INT64"), std::string::npos);

  auto count = (*model)->Run(std::vector<GeTensor>{});
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("takes 1 input(s), 0 given"), std::string::npos);
}

// A dynamic model saved to a file loads and runs the same, and profiling records its tasks.
TEST_F(DynamicRuntimeTest, SavedModelRunsAndProfiles) {
  GraphBuilder b("dyn_file");
  NodePtr x = b.Data("x", {-1, 4});
  NodePtr sig = b.Op("Sigmoid", "sigmoid", {{x, 0}});
  b.Output({{sig, 0}});
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok());
  auto compiled = (*compiler)->Compile(b.graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const std::string path = ::testing::TempDir() + "dyn_file_" + std::to_string(::getpid()) + ".om";
  ASSERT_TRUE(compiled->SaveToFile(path).ok());
  auto model = Model::LoadFromFile(path, EngineOptions());
  std::remove(path.c_str());
  ASSERT_TRUE(model.ok()) << model.status().message();
  (*model)->EnableProfiling(true);
  auto out = (*model)->Run({MakeTensor(DT_FLOAT, {3, 4}, Ramp(12))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const std::vector<float> y = TensorValues<float>((*out)[0]);
  const std::vector<float> in = Ramp(12);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], 1.0F / (1.0F + std::exp(-in[i])), 1e-6F);
  ASSERT_EQ((*model)->LastProfile().size(), 1U);
  EXPECT_EQ((*model)->LastProfile()[0].name, "sigmoid");
  EXPECT_GE((*model)->LastProfile()[0].duration_us, 0.0);
}

}  // namespace
}  // namespace ge

// The kernel table: lookups by IR type and the sorted list.
#include <algorithm>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

TEST(CpuKernelRegistry, FindsTheOpsOfTheTestModels) {
  for (const char* type : {"Conv2D",    "MaxPool",   "AvgPool",       "GlobalAveragePool",
                           "Gemm",      "MatMulV2",  "BatchMatMulV2", "Relu",
                           "Clip",      "Add",       "Sub",           "Mul",
                           "RealDiv",   "LayerNorm", "SoftmaxV2",     "Erf",
                           "Sqrt",      "Pow",       "GatherV2",      "Split",
                           "Transpose", "Cast",      "ConcatV2",      "Slice"}) {
    EXPECT_NE(FindCpuKernel(type), nullptr) << type;
  }
}

TEST(CpuKernelRegistry, UnknownTypeHasNoKernel) {
  EXPECT_EQ(FindCpuKernel("Reshape"), nullptr);  // a view, not a kernel
  EXPECT_EQ(FindCpuKernel(""), nullptr);
}

TEST(CpuKernelRegistry, TypesAreSortedAndUnique) {
  const std::vector<std::string> types = CpuKernelTypes();
  EXPECT_TRUE(std::is_sorted(types.begin(), types.end()));
  EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());
  for (const std::string& t : types) EXPECT_NE(FindCpuKernel(t), nullptr) << t;
}

// What the fusion pass may put on a node: convolutions take activation post-ops; anything else,
// or a malformed entry, is refused with the reason placement will show.
TEST(CpuKernelRegistry, FusedPostOpsAreCheckedPerTypeAndEntry) {
  std::string reason;
  EXPECT_TRUE(
      SupportsFusedPostOps("Conv2D", {"Relu", "Clip:0:6", "LeakyRelu:0.1", "GeluTanh"}, reason))
      << reason;
  EXPECT_TRUE(SupportsFusedPostOps("DepthwiseConv2D", {"HardSwish"}, reason)) << reason;
  EXPECT_TRUE(SupportsFusedPostOps("MatMulV2", {"Sum", "Gelu"}, reason)) << reason;
  EXPECT_TRUE(SupportsFusedPostOps("Gemm", {"Relu"}, reason)) << reason;
  EXPECT_FALSE(SupportsFusedPostOps("MaxPool", {"Relu"}, reason));
  EXPECT_NE(reason.find("MaxPool takes no fused post-ops"), std::string::npos) << reason;
  EXPECT_FALSE(SupportsFusedPostOps("Conv2D", {"Sum:1"}, reason));
  EXPECT_NE(reason.find("takes 0 argument(s)"), std::string::npos) << reason;
  EXPECT_FALSE(SupportsFusedPostOps("Conv2D", {"Softmax"}, reason));
  EXPECT_NE(reason.find("'Softmax' is not one the CPU engine can apply"), std::string::npos)
      << reason;
  EXPECT_FALSE(SupportsFusedPostOps("Conv2D", {"Clip:0"}, reason));
  EXPECT_NE(reason.find("takes 2 argument(s)"), std::string::npos) << reason;
  EXPECT_FALSE(SupportsFusedPostOps("Conv2D", {"LeakyRelu:x"}, reason));
  EXPECT_NE(reason.find("'x' is not a number"), std::string::npos) << reason;
}

// The layout planner gives NC1HWC0 tensors only to kernels that read them.
TEST(CpuKernelRegistry, BlockedLayoutsAreReadByConvolutionsPoolingNormsAndTransDataOnly) {
  for (const char* type : {"Conv2D", "DepthwiseConv2D", "TransData", "MaxPool", "AvgPool",
                           "GlobalAveragePool", "GlobalMaxPool", "BatchNorm"}) {
    EXPECT_TRUE(ReadsBlockedLayout(type)) << type;
  }
  EXPECT_FALSE(ReadsBlockedLayout("Relu"));
  EXPECT_FALSE(ReadsBlockedLayout("Conv3D"));
  EXPECT_FALSE(ReadsBlockedLayout("MatMulV2"));
}

}  // namespace
}  // namespace ge::host_cpu

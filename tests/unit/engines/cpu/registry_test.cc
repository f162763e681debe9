// The kernel table: lookups by IR type and the sorted list.
#include <algorithm>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

TEST(CpuKernelRegistry, FindsTheOpsOfTheTestModels) {
  for (const char* type : {"Conv2D", "MaxPool", "AvgPool", "GlobalAveragePool", "Gemm", "MatMulV2",
                           "BatchMatMulV2", "Relu", "Clip", "Add", "Sub", "Mul", "RealDiv",
                           "LayerNorm", "SoftmaxV2", "Erf", "Sqrt", "Pow", "GatherV2", "Split",
                           "Transpose", "Cast", "ConcatV2", "Slice"}) {
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

}  // namespace
}  // namespace ge::host_cpu

// GatherElements, ScatterElements, GatherNd, ScatterNd, TensorScatter, OneHot, TopKV2 and NonZero
// on small tensors with results worked out by hand (ONNX's documented examples where they exist).
#include <numeric>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::RunKernel;

TEST(GatherElementsKernel, OnnxExample) {
  auto op = Op("GatherElements");
  AttrUtils::SetInt(op, "axis", 1);
  auto r = RunKernel(op, {Make<float>({2, 2}, {1, 2, 3, 4}), Make<int64_t>({2, 2}, {0, 0, 1, -2})},
                     {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 1, 4, 3}));
  r = RunKernel(op, {Make<float>({2, 2}, {1, 2, 3, 4}), Make<int64_t>({2, 1}, {2, 0})},
                {{DT_FLOAT, {2, 1}}});
  ExpectError(r.status, "out of range");
}

TEST(ScatterElementsKernel, NoneAndAdd) {
  auto op = Op("ScatterElements");
  AttrUtils::SetInt(op, "axis", 1);
  const auto data = Make<float>({1, 5}, {1, 2, 3, 4, 5});
  const auto idx = Make<int64_t>({1, 2}, {1, 3});
  const auto upd = Make<float>({1, 2}, {1.1F, 2.1F});
  auto r = RunKernel(op, {data, idx, upd}, {{DT_FLOAT, {1, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 1.1F, 3, 2.1F, 5}));
  AttrUtils::SetStr(op, "reduction", "add");
  r = RunKernel(op, {data, Make<int64_t>({1, 2}, {1, 1}), upd}, {{DT_FLOAT, {1, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_FLOAT_EQ(r.outputs[0].Values<float>()[1], 2 + 1.1F + 2.1F);
  AttrUtils::SetStr(op, "reduction", "avg");
  ExpectError(RunKernel(op, {data, idx, upd}, {{DT_FLOAT, {1, 5}}}).status, "reduction");
}

TEST(GatherNdKernel, SlicesAndBatchDims) {
  auto r = RunKernel(Op("GatherNd"),
                     {Make<int32_t>({2, 2}, {0, 1, 2, 3}), Make<int64_t>({2, 1}, {1, 0})},
                     {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{2, 3, 0, 1}));
  auto op = Op("GatherNd");
  AttrUtils::SetInt(op, "batch_dims", 1);
  r = RunKernel(op,
                {Make<int32_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), Make<int64_t>({2, 1}, {1, 0})},
                {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{2, 3, 4, 5}));
}

TEST(ScatterNdKernel, OnnxExample) {
  std::vector<float> data(8);
  for (int i = 0; i < 8; ++i) data[i] = static_cast<float>(i + 1);
  auto r = RunKernel(
      Op("ScatterNd"),
      {Make({8}, data), Make<int64_t>({4, 1}, {4, 3, 1, 7}), Make<float>({4}, {9, 10, 11, 12})},
      {{DT_FLOAT, {8}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
}

TEST(OneHotKernel, AxisAndNegativeIndices) {
  auto r =
      RunKernel(Op("OneHot"),
                {Make<int64_t>({3}, {0, -1, 5}), Make<int64_t>({}, {3}), Make<float>({2}, {0, 1})},
                {{DT_FLOAT, {3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0}));
  auto op = Op("OneHot");
  AttrUtils::SetInt(op, "axis", 0);
  r = RunKernel(op, {Make<float>({2}, {1, 0}), Make<float>({}, {2}), Make<int32_t>({2}, {5, 7})},
                {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{5, 7, 7, 5}));
}

// TensorScatter writes update's rows along the sequence axis from each batch's write index,
// wrapping in circular mode; linear mode refuses rows past the cache.
TEST(TensorScatterKernel, WritesRowsFromEachBatchsIndex) {
  // past [2, 1, 4, 2] (batch, heads, max_len 4, dim 2), update [2, 1, 3, 2].
  std::vector<float> past(16);
  std::iota(past.begin(), past.end(), 0.0F);
  std::vector<float> update(12);
  std::iota(update.begin(), update.end(), 100.0F);
  auto op = Op("TensorScatter");
  auto run = [&](const std::vector<int64_t>& at) {
    return RunKernel(op,
                     {Make<float>({2, 1, 4, 2}, past), Make<float>({2, 1, 3, 2}, update),
                      Make<int64_t>({2}, at)},
                     {{DT_FLOAT, {2, 1, 4, 2}}});
  };
  auto r = run({1, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(),
            (std::vector<float>{0, 1, 100, 101, 102, 103, 104, 105,       // batch 0 from row 1
                                106, 107, 108, 109, 110, 111, 14, 15}));  // batch 1 from row 0
  ExpectError(run({2, 0}).status, "outside 4 (linear mode)");
  AttrUtils::SetStr(op, "mode", "circular");
  r = run({2, 3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(),
            (std::vector<float>{104, 105, 2, 3, 100, 101, 102, 103,       // rows 2, 3, then 0
                                108, 109, 110, 111, 12, 13, 106, 107}));  // rows 3, 0, 1
  ExpectError(run({-1, 0}).status, "write index -1");
}

// uint64 values past int64's range sort as unsigned.
TEST(TopKKernel, Uint64) {
  const uint64_t big = (uint64_t{1} << 63) + 5;
  auto r = RunKernel(Op("TopKV2"), {Make<uint64_t>({4}, {3, big, 7, 1}), Make<int64_t>({1}, {2})},
                     {{DT_UINT64, {2}}, {DT_INT64, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint64_t>(), (std::vector<uint64_t>{big, 7}));
  EXPECT_EQ(r.outputs[1].Values<int64_t>(), (std::vector<int64_t>{1, 2}));
}

TEST(TopKKernel, LargestSmallestAndAxis) {
  const auto x = Make<float>({2, 4}, {1, 4, 3, 4, 9, 0, 5, 2});
  auto r = RunKernel(Op("TopKV2"), {x, Make<int64_t>({1}, {2})},
                     {{DT_FLOAT, {2, 2}}, {DT_INT64, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{4, 4, 9, 5}));
  EXPECT_EQ(r.outputs[1].Values<int64_t>(),
            (std::vector<int64_t>{1, 3, 0, 2}));  // ties: lower index
  auto op = Op("TopKV2");
  AttrUtils::SetInt(op, "largest", 0);
  AttrUtils::SetInt(op, "axis", 0);
  r = RunKernel(op, {x, Make<int64_t>({1}, {1})}, {{DT_FLOAT, {1, 4}}, {DT_INT64, {1, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 0, 3, 2}));
  EXPECT_EQ(r.outputs[1].Values<int64_t>(), (std::vector<int64_t>{0, 1, 0, 1}));
  ExpectError(RunKernel(Op("TopKV2"), {x, Make<int64_t>({1}, {5})},
                        {{DT_FLOAT, {2, 5}}, {DT_INT64, {2, 5}}})
                  .status,
              "out of range");
}

TEST(NonZeroKernel, WritesActualCountDensely) {
  auto kernel = FindCpuKernel("NonZero")();
  auto op = Op("NonZero");
  KernelSpec spec;
  spec.op = op.get();
  spec.inputs = {testing::SpecOf(DT_FLOAT, {2, 3}, true)};
  spec.outputs = {testing::SpecOf(DT_INT64, {2, -1}, true)};
  ASSERT_TRUE(kernel->Prepare(spec).ok());
  ASSERT_TRUE(kernel->OutputDimsDependOnData(0));
  const std::vector<int64_t> max_dims = kernel->MaxOutputDims(0, spec.inputs);
  EXPECT_EQ(max_dims, (std::vector<int64_t>{2, 6}));
  const std::vector<float> x = {0, 1, 0, 2, 0, 3};
  std::vector<int64_t> y(12, -9);
  KernelArgs args;
  args.inputs = {{x.data(), testing::SpecOf(DT_FLOAT, {2, 3}, true)}};
  args.outputs = {{y.data(), testing::SpecOf(DT_INT64, max_dims, true)}};
  ASSERT_TRUE(kernel->Run(args).ok());
  EXPECT_EQ(kernel->ActualOutputDims(0), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(std::vector<int64_t>(y.begin(), y.begin() + 6),
            (std::vector<int64_t>{0, 1, 1, 1, 0, 2}));
}

}  // namespace
}  // namespace ge::host_cpu

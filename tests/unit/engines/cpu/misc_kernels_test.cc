// Hardmax, EyeLike, Compress and Dropout against naive references.
#include <optional>
#include <random>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::TestTensor;

std::vector<float> RefHardmax(const std::vector<float>& x, int64_t outer, int64_t len,
                              int64_t inner) {
  std::vector<float> y(x.size(), 0.0F);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      for (int64_t k = 0; k < len; ++k) {
        if (x[(o * len + k) * inner + i] > x[(o * len + best) * inner + i]) best = k;
      }
      y[(o * len + best) * inner + i] = 1.0F;
    }
  }
  return y;
}

TEST(HardmaxKernel, EveryAxisOfA3dTensor) {
  const auto x = Random(2 * 3 * 4, 5);
  const std::vector<std::vector<int64_t>> split = {{1, 2, 12}, {2, 3, 4}, {6, 4, 1}};
  for (int64_t axis = -3; axis < 3; ++axis) {
    auto op = Op("Hardmax");
    AttrUtils::SetInt(op, "axis", axis);
    auto r = RunKernel(op, {Make({2, 3, 4}, x)}, {{DT_FLOAT, {2, 3, 4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto& s = split[static_cast<size_t>((axis + 3) % 3)];
    ExpectNear(r.outputs[0].Values<float>(), RefHardmax(x, s[0], s[1], s[2]), 0, 0);
  }
}

TEST(HardmaxKernel, FirstMaximumWins) {
  auto r = RunKernel(Op("Hardmax"), {Make<float>({2, 4}, {3, 7, 7, 1, 2, 2, 2, 2})},
                     {{DT_FLOAT, {2, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 1, 0, 0, 1, 0, 0, 0}));
}

TEST(HardmaxKernel, RejectsAxisOutOfRange) {
  auto op = Op("Hardmax", "hm");
  AttrUtils::SetInt(op, "axis", 2);
  auto r = RunKernel(op, {Make({2, 3}, Random(6))}, {{DT_FLOAT, {2, 3}}});
  ExpectError(r.status, "axis", "hm");
}

TEST(EyeLikeKernel, DiagonalsAboveAndBelowInTheOutputDtype) {
  for (int64_t k : {int64_t{-2}, int64_t{0}, int64_t{1}, int64_t{5}}) {
    auto op = Op("EyeLike");
    AttrUtils::SetInt(op, "k", k);
    auto r =
        RunKernel(op, {Make<int32_t>({3, 4}, std::vector<int32_t>(12, 7))}, {{DT_DOUBLE, {3, 4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto y = r.outputs[0].Values<double>();
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 4; ++j)
        EXPECT_EQ(y[i * 4 + j], j == i + k ? 1.0 : 0.0) << i << "," << j;
    }
  }
  auto r = RunKernel(Op("EyeLike"), {Make<float>({2, 2}, {5, 5, 5, 5})}, {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{1, 0, 0, 1}));
}

TEST(EyeLikeKernel, RejectsNon2dInput) {
  auto r = RunKernel(Op("EyeLike", "eye"), {Make({2, 2, 2}, Random(8))}, {{DT_FLOAT, {2, 2, 2}}});
  ExpectError(r.status, "rank 2", "eye");
}

// Compress runs through the data-dependent protocol: the output buffer has the bound's size.
struct CompressRun {
  Status status;
  std::vector<int64_t> dims;
  TestTensor out;
};
CompressRun RunCompress(std::optional<int64_t> axis, const TestTensor& x, const TestTensor& cond) {
  auto op = Op("Compress", "cmp");
  if (axis) AttrUtils::SetInt(op, "axis", *axis);
  auto kernel = FindCpuKernel("Compress")();
  KernelSpec spec;
  spec.op = op.get();
  spec.inputs = {testing::SpecOf(x.dtype, x.dims, true),
                 testing::SpecOf(cond.dtype, cond.dims, true)};
  spec.outputs = {testing::SpecOf(x.dtype, {-1}, true)};
  CompressRun run;
  run.status = kernel->Prepare(spec);
  if (!run.status.ok()) return run;
  EXPECT_TRUE(kernel->OutputDimsDependOnData(0));
  const std::vector<int64_t> bound = kernel->MaxOutputDims(0, spec.inputs);
  run.out.dtype = x.dtype;
  run.out.dims = bound;
  run.out.bytes.assign(x.bytes.size(), 0);
  KernelArgs args;
  args.inputs = {{x.bytes.data(), spec.inputs[0]}, {cond.bytes.data(), spec.inputs[1]}};
  args.outputs = {{run.out.bytes.data(), testing::SpecOf(x.dtype, bound, true)}};
  run.status = kernel->Run(args);
  run.dims = kernel->ActualOutputDims(0);
  return run;
}

TEST(CompressKernel, AlongEachAxisAndFlattened) {
  std::vector<float> x(3 * 2 * 2);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto r = RunCompress(0, Make({3, 2, 2}, x), Make<bool>({3}, {false, true, true}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{2, 2, 2}));
  auto v = r.out.Values<float>();
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 8),
            (std::vector<float>{4, 5, 6, 7, 8, 9, 10, 11}));
  // Axis -1; a condition shorter than the axis selects nothing past its end.
  r = RunCompress(-1, Make({3, 2, 2}, x), Make<bool>({1}, {true}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{3, 2, 1}));
  v = r.out.Values<float>();
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 6), (std::vector<float>{0, 2, 4, 6, 8, 10}));
  // No axis: the flattened input.
  r = RunCompress(std::nullopt, Make({3, 2, 2}, x),
                  Make<bool>({6}, {false, true, false, false, true, true}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{3}));
  v = r.out.Values<float>();
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 3), (std::vector<float>{1, 4, 5}));
  // Nothing selected.
  r = RunCompress(1, Make({3, 2, 2}, x), Make<bool>({2}, {false, false}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{3, 0, 2}));
}

TEST(CompressKernel, Int64Input) {
  auto r = RunCompress(0, Make<int64_t>({4}, {10, 20, 30, 40}),
                       Make<bool>({4}, {true, false, false, true}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{2}));
  EXPECT_EQ(r.out.Values<int64_t>()[0], 10);
  EXPECT_EQ(r.out.Values<int64_t>()[1], 40);
}

TEST(CompressKernel, RejectsLongConditionBadAxisAndNonBoolCondition) {
  auto r = RunCompress(0, Make({2, 2}, Random(4)), Make<bool>({3}, {true, true, true}));
  ExpectError(r.status, "more than the 2 slices", "cmp");
  r = RunCompress(2, Make({2, 2}, Random(4)), Make<bool>({1}, {true}));
  ExpectError(r.status, "axis", "cmp");
  r = RunCompress(0, Make({2, 2}, Random(4)), Make<int64_t>({2}, {1, 0}));
  ExpectError(r.status, "condition must be 1-D bool", "cmp");
}

TEST(DropoutKernel, InferenceIsIdentityWithAllTrueMask) {
  const auto x = Random(3 * 4, 11);
  for (bool with_ratio : {false, true}) {
    auto r = RunKernel(Op("Dropout"),
                       {Make({3, 4}, x), with_ratio ? Make<float>({}, {0.3F}) : Absent(), Absent()},
                       {{DT_FLOAT, {3, 4}}, {DT_BOOL, {3, 4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].Values<float>(), x);
    EXPECT_EQ(r.outputs[1].bytes, std::vector<uint8_t>(12, 1));
  }
  // Training with ratio 0 keeps everything too.
  auto r =
      RunKernel(Op("Dropout"), {Make({3, 4}, x), Make<float>({}, {0.0F}), Make<bool>({}, {true})},
                {{DT_FLOAT, {3, 4}}, {DT_BOOL, {3, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), x);
  EXPECT_EQ(r.outputs[1].bytes, std::vector<uint8_t>(12, 1));
}

TEST(DropoutKernel, TrainingMaskFollowsNumpyRandomStateOfTheSeed) {
  const int64_t n = 200;
  const auto x = Random(n, 12, 1.0F, 2.0F);
  const float ratio = 0.75F;
  auto op = Op("Dropout");
  AttrUtils::SetInt(op, "seed", 3);
  auto r = RunKernel(op, {Make({n}, x), Make<float>({}, {ratio}), Make<bool>({}, {true})},
                     {{DT_FLOAT, {n}}, {DT_BOOL, {n}}}, {.runs = 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // numpy: RandomState(seed).uniform(0, 1, n) >= ratio; y = x * mask / (1 - ratio).
  std::mt19937 gen(3);
  const auto y = r.outputs[0].Values<float>();
  int kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t a = gen() >> 5, b = gen() >> 6;
    const bool keep = (a * 67108864.0 + b) / 9007199254740992.0 >= ratio;
    kept += keep ? 1 : 0;
    EXPECT_EQ(r.outputs[1].bytes[i], keep ? 1 : 0) << i;
    EXPECT_FLOAT_EQ(y[i], keep ? x[i] * (1.0F / (1.0F - ratio)) : 0.0F) << i;
  }
  EXPECT_GT(kept, 20);  // about a quarter of 200
  EXPECT_LT(kept, 80);
}

TEST(DropoutKernel, RejectsRatioOutsideUnitInterval) {
  auto r = RunKernel(Op("Dropout", "drop"),
                     {Make({2}, Random(2)), Make<float>({}, {1.0F}), Make<bool>({}, {true})},
                     {{DT_FLOAT, {2}}});
  ExpectError(r.status, "outside [0, 1)", "drop");
}

}  // namespace
}  // namespace ge::host_cpu

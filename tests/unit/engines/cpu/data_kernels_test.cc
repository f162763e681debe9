// Transpose, ConcatV2, Split, Slice, GatherV2 and Cast (the narrow types included) on small
// tensors with known results.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernel_test_util.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

using testing::Codes;
using testing::ExpectError;
using testing::Make;
using testing::MakeCodes;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(TransposeKernel, PermutesAndDefaultsToReverse) {
  auto op = Op("Transpose");
  AttrUtils::SetListInt(op, "perm", std::vector<int64_t>{1, 2, 0});
  auto r = RunKernel(op, {Make({2, 3, 2}, Iota(12))}, {{DT_FLOAT, {3, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // y[i][j][k] = x[k][i][j]
  EXPECT_EQ(r.outputs[0].Values<float>(),
            (std::vector<float>{0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11}));
  r = RunKernel(Op("Transpose"), {Make<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6})}, {{DT_INT64, {3, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  AttrUtils::SetListInt(op, "perm", std::vector<int64_t>{0, 0, 1});
  ExpectError(RunKernel(op, {Make({2, 3, 2}, Iota(12))}, {{DT_FLOAT, {2, 2, 3}}}).status,
              "permutation");
}

// Transposes that move the source's contiguous dim inward run in tiles (k^T of attention,
// channel shuffles); against an index-by-index reference, with extents that leave partial
// tiles, on one and two threads.
TEST(TransposeKernel, TiledTransposesMatchTheReference) {
  const std::vector<int64_t> dims = {3, 17, 5, 33};
  const std::vector<std::vector<int64_t>> perms = {
      {0, 2, 3, 1}, {0, 3, 1, 2}, {3, 2, 1, 0}, {1, 0, 3, 2}, {0, 1, 3, 2}};
  const std::vector<float> x = Iota(3 * 17 * 5 * 33);
  for (const auto& perm : perms) {
    std::vector<int64_t> out(4);
    for (size_t i = 0; i < 4; ++i) out[i] = dims[static_cast<size_t>(perm[i])];
    std::vector<float> want(x.size());
    const std::vector<int64_t> xs = {17 * 5 * 33, 5 * 33, 33, 1};
    size_t at = 0;
    for (int64_t a = 0; a < out[0]; ++a)
      for (int64_t b = 0; b < out[1]; ++b)
        for (int64_t c = 0; c < out[2]; ++c)
          for (int64_t d = 0; d < out[3]; ++d) {
            const int64_t idx[4] = {a, b, c, d};
            int64_t src = 0;
            for (size_t i = 0; i < 4; ++i) src += idx[i] * xs[static_cast<size_t>(perm[i])];
            want[at++] = x[static_cast<size_t>(src)];
          }
    for (int threads : {1, 2}) {
      auto op = Op("Transpose");
      AttrUtils::SetListInt(op, "perm", perm);
      testing::RunOptions options;
      options.threads = threads;
      auto r = RunKernel(op, {Make(dims, x)}, {{DT_FLOAT, out}}, options);
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      EXPECT_EQ(r.outputs[0].Values<float>(), want)
          << perm[0] << perm[1] << perm[2] << perm[3] << ", " << threads;
    }
  }
}

TEST(ConcatKernel, NegativeAxis) {
  auto op = Op("ConcatV2");
  AttrUtils::SetInt(op, "axis", -1);
  auto r = RunKernel(
      op, {Make({2, 1}, std::vector<float>{1, 2}), Make({2, 2}, std::vector<float>{3, 4, 5, 6})},
      {{DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  ExpectError(RunKernel(op, {Make({2, 1}, std::vector<float>{1, 2}), Make({3, 2}, Iota(6))},
                        {{DT_FLOAT, {2, 3}}})
                  .status,
              "does not fit");
  ExpectError(RunKernel(Op("ConcatV2"), {Make({1}, Iota(1))}, {{DT_FLOAT, {1}}}).status, "axis");
}

TEST(SplitKernel, UnevenPartsFromOutputDims) {
  auto op = Op("Split");
  AttrUtils::SetInt(op, "axis", 1);
  auto r = RunKernel(op, {Make({2, 3}, Iota(6))}, {{DT_FLOAT, {2, 1}}, {DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 3}));
  EXPECT_EQ(r.outputs[1].Values<float>(), (std::vector<float>{1, 2, 4, 5}));
  ExpectError(
      RunKernel(op, {Make({2, 3}, Iota(6))}, {{DT_FLOAT, {2, 1}}, {DT_FLOAT, {2, 1}}}).status,
      "sum to");
}

TEST(SliceKernel, StepsNegativeIndicesAndClamping) {
  // x = 0..11 as [3, 4]; rows 0:3:2, cols -1:-5:-2 → rows {0, 2}, cols {3, 1}.
  auto r =
      RunKernel(Op("Slice"),
                {Make({3, 4}, Iota(12)), Make<int64_t>({2}, {0, -1}), Make<int64_t>({2}, {100, -5}),
                 Make<int64_t>({2}, {0, 1}), Make<int64_t>({2}, {2, -2})},
                {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{3, 1, 11, 9}));
  r = RunKernel(Op("Slice"),
                {Make({3, 4}, Iota(12)), Make<int32_t>({1}, {1}), Make<int32_t>({1}, {3}),
                 Make<int32_t>({1}, {-1})},
                {{DT_FLOAT, {3, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 2, 5, 6, 9, 10}));
  ExpectError(RunKernel(Op("Slice"),
                        {Make({3}, Iota(3)), Make<int64_t>({1}, {0}), Make<int64_t>({1}, {2}),
                         Make<int64_t>({1}, {0}), Make<int64_t>({1}, {0})},
                        {{DT_FLOAT, {2}}})
                  .status,
              "steps");
}

// Steps of +-2^63 take one element (the raw length formula wraps to an empty slice).
TEST(SliceKernel, StepsAtTheInt64LimitsTakeOneElement) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  auto r = RunKernel(
      Op("Slice"),
      {Make({3, 4}, Iota(12)), Make<int64_t>({2}, {1, -1}), Make<int64_t>({2}, {kMax, kMin}),
       Make<int64_t>({2}, {0, 1}), Make<int64_t>({2}, {kMax, kMin})},
      {{DT_FLOAT, {1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{7}));  // row 1, col 3
}

TEST(GatherKernel, AxisAndNegativeIndices) {
  auto op = Op("GatherV2");
  AttrUtils::SetInt(op, "axis", 1);
  auto r = RunKernel(op, {Make({2, 3}, Iota(6)), Make<int64_t>({2, 2}, {0, -1, 2, 1})},
                     {{DT_FLOAT, {2, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 2, 2, 1, 3, 5, 5, 4}));
  // Embedding lookup: axis 0, int32 indices.
  r = RunKernel(Op("GatherV2"), {Make({3, 2}, Iota(6)), Make<int32_t>({2}, {2, 0})},
                {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{4, 5, 0, 1}));
  ExpectError(RunKernel(Op("GatherV2", "emb"), {Make({3, 2}, Iota(6)), Make<int64_t>({1}, {3})},
                        {{DT_FLOAT, {1, 2}}})
                  .status,
              "out of range", "emb");
}

TEST(CastKernel, ConvertsBetweenDtypes) {
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_INT64);
  auto r = RunKernel(op, {Make<float>({3}, {1.7F, -2.5F, 3.0F})}, {{DT_INT64, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{1, -2, 3}));
  AttrUtils::SetDataType(op, "to", DT_BOOL);
  r = RunKernel(op, {Make<int32_t>({3}, {0, 5, -1})}, {{DT_BOOL, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));
  AttrUtils::SetDataType(op, "to", DT_FLOAT);
  r = RunKernel(op, {Make<bool>({2}, {true, false})}, {{DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 0}));
  ExpectError(RunKernel(op, {Make<bool>({2}, {true, false})}, {{DT_INT32, {2}}}).status, "'to'");
}

// The 4- and 2-bit integers keep the low bits of the value (a float is truncated first), and
// read back sign-extended; a packed output of an odd count stays inside its bytes.
TEST(CastKernel, NarrowIntegersWrapAndPack) {
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_INT4);
  auto r = RunKernel(op, {Make<float>({5}, {-9.0F, -8.0F, 7.0F, 8.0F, 15.9F})}, {{DT_INT4, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.outputs[0].bytes.size(), 3U);
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0x7, 0x8, 0x7, 0x8, 0xF}));
  AttrUtils::SetDataType(op, "to", DT_INT8);
  r = RunKernel(op, {MakeCodes(DT_INT4, {3}, {0x7, 0x8, 0xF})}, {{DT_INT8, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int8_t>(), (std::vector<int8_t>{7, -8, -1}));
  // An int64 beyond 2^53 keeps its low bits (a double would have lost them).
  AttrUtils::SetDataType(op, "to", DT_UINT4);
  r = RunKernel(op, {Make<int64_t>({2}, {(int64_t{1} << 60) + 5, -1})}, {{DT_UINT4, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0x5, 0xF}));
  AttrUtils::SetDataType(op, "to", DT_UINT2);
  r = RunKernel(op, {MakeCodes(DT_INT4, {5}, {0x1, 0x2, 0x3, 0x4, 0xF})}, {{DT_UINT2, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.outputs[0].bytes.size(), 2U);
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{1, 2, 3, 0, 3}));
}

// Float8 casts round to nearest even and saturate unless saturate = 0; FNUZ types have one zero.
TEST(CastKernel, Float8SaturatesAsAsked) {
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_FLOAT8_E4M3FN);
  const TestTensor x = Make<float>({4}, {1e6F, -1e-7F, 0.5F, 17.0F});
  auto r = RunKernel(op, {x}, {{DT_FLOAT8_E4M3FN, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // 17 lies halfway between 16 (0x58) and 18 (0x59): the even code.
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0x7E, 0x80, 0x30, 0x58}));
  AttrUtils::SetInt(op, "saturate", 0);
  r = RunKernel(op, {x}, {{DT_FLOAT8_E4M3FN, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0])[0], 0x7FU) << "NaN: E4M3FN has no infinity";
  AttrUtils::SetDataType(op, "to", DT_FLOAT8_E4M3FNUZ);
  r = RunKernel(op, {x}, {{DT_FLOAT8_E4M3FNUZ, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0])[0], 0x80U) << "NaN is FNUZ's negative zero";
  EXPECT_EQ(Codes(r.outputs[0])[1], 0x00U) << "no negative zero";
  // Back to float: exact.
  auto back = Op("Cast");
  AttrUtils::SetDataType(back, "to", DT_FLOAT);
  r = RunKernel(back, {MakeCodes(DT_FLOAT8_E5M2, {3}, {0x7B, 0x7C, 0x01})}, {{DT_FLOAT, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(),
            (std::vector<float>{57344.0F, std::numeric_limits<float>::infinity(),
                                std::ldexp(1.0F, -16)}));
}

TEST(CastKernel, E8M0TakesItsRoundingMode) {
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_FLOAT8_E8M0);
  const TestTensor x = Make<float>({2}, {1.5F, 1.25F});
  auto r = RunKernel(op, {x}, {{DT_FLOAT8_E8M0, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{128, 128})) << "up by default";
  AttrUtils::SetStr(op, "round_mode", "down");
  r = RunKernel(op, {x}, {{DT_FLOAT8_E8M0, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{127, 127}));
  AttrUtils::SetStr(op, "round_mode", "nearest");
  r = RunKernel(op, {x}, {{DT_FLOAT8_E8M0, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{128, 127}));
  AttrUtils::SetStr(op, "round_mode", "sideways");
  ExpectError(RunKernel(op, {x}, {{DT_FLOAT8_E8M0, {2}}}).status, "round_mode");
}

// CastLike takes the narrow type from its output.
TEST(CastKernel, CastLikeToANarrowType) {
  auto r =
      RunKernel(Op("CastLike"),
                {Make<float>({3}, {0.25F, 3.5F, -100.0F}), MakeCodes(DT_FLOAT4_E2M1, {1}, {0})},
                {{DT_FLOAT4_E2M1, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0x0, 0x6, 0xF}));
}

// A strided copy moves whole elements of any size: a string's 16-byte head, and sizes no typed
// path has (12 bytes), element by element.
TEST(StridedCopy, MovesElementsOfEverySize) {
  for (const int64_t eb : {int64_t{16}, int64_t{12}}) {
    // A [3, 2] tensor read transposed from [2, 3]: element (i, j) of the output is input (j, i).
    std::vector<uint8_t> in(static_cast<size_t>(6 * eb));
    for (size_t b = 0; b < in.size(); ++b) in[b] = static_cast<uint8_t>(b);
    std::vector<uint8_t> out(in.size(), 0xff);
    StridedCopy(in.data(), out.data(), {3, 2}, {1, 3}, eb, 1);
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 2; ++j) {
        const int64_t src = j * 3 + i;
        const int64_t dst = i * 2 + j;
        EXPECT_EQ(0,
                  std::memcmp(out.data() + dst * eb, in.data() + src * eb, static_cast<size_t>(eb)))
            << eb << "-byte element (" << i << ", " << j << ")";
      }
    }
  }
}

}  // namespace
}  // namespace ge::host_cpu

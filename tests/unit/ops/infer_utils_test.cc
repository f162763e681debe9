// Tests of the shape arithmetic shared by the prototypes.
#include "ge/ops/infer_utils.h"

#include <gtest/gtest.h>

#include <limits>

namespace ge::infer {
namespace {

using Dims = std::vector<int64_t>;

GeShape S(Dims d) { return GeShape(std::move(d)); }

TEST(Broadcast, NumpyRulesWithKnownDims) {
  EXPECT_EQ(BroadcastShapes(S({2, 3}), S({3})).value(), S({2, 3}));
  EXPECT_EQ(BroadcastShapes(S({4, 1, 5}), S({3, 1})).value(), S({4, 3, 5}));
  EXPECT_EQ(BroadcastShapes(S({}), S({7})).value(), S({7}));
  EXPECT_EQ(BroadcastShapes(S({0, 1}), S({1, 4})).value(), S({0, 4}));
}

TEST(Broadcast, UnknownDimsAndRank) {
  EXPECT_EQ(BroadcastShapes(S({-1, 3}), S({5, 3})).value(), S({5, 3}));
  EXPECT_EQ(BroadcastShapes(S({-1, 3}), S({1, 3})).value(), S({-1, 3}));
  EXPECT_EQ(BroadcastShapes(S({-1}), S({-1})).value(), S({-1}));
  EXPECT_EQ(BroadcastShapes(S({-2}), S({5, 3})).value(), UnknownRankShape());
}

TEST(Broadcast, MismatchNamesTheDims) {
  auto r = BroadcastShapes(S({2, 3}), S({4, 3}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("[2,3] and [4,3] do not broadcast (dim -2: 2 vs 4)"),
            std::string::npos)
      << r.status().message();
}

TEST(Broadcast, Unidirectional) {
  EXPECT_TRUE(CanBroadcastTo(S({3, 1}), S({2, 3, 4})));
  EXPECT_FALSE(CanBroadcastTo(S({2, 3, 4}), S({3, 4})));
  EXPECT_FALSE(CanBroadcastTo(S({5}), S({3, 4})));
  EXPECT_TRUE(CanBroadcastTo(S({-1}), S({3, 4})));
}

TEST(Axes, NormalizeRangeAndDuplicates) {
  EXPECT_EQ(NormalizeAxis(-1, 3).value(), 2);
  EXPECT_EQ(NormalizeAxis(0, 3).value(), 0);
  EXPECT_FALSE(NormalizeAxis(3, 3).ok());
  EXPECT_FALSE(NormalizeAxis(-4, 3).ok());
  EXPECT_NE(NormalizeAxis(5, 2).status().message().find("axis 5 is out of range for rank 2"),
            std::string::npos);
  EXPECT_EQ(NormalizeAxes({-1, 0}, 3).value(), (Dims{0, 2}));
  EXPECT_FALSE(NormalizeAxes({1, -2}, 3).ok());  // both are axis 1
}

TEST(Dims, ProductsAndArithmetic) {
  EXPECT_EQ(DimProduct({2, 3, 4}), 24);
  EXPECT_EQ(DimProduct({2, -1, 4}), -1);
  EXPECT_EQ(DimProduct({2, -1, 0}), 0);
  EXPECT_EQ(DimProduct({2, 3, 4}, 1), 12);
  EXPECT_EQ(DimProduct({}), 1);
  EXPECT_EQ(MulDim(-1, 3), -1);
  EXPECT_EQ(MulDim(0, -1), 0);
  EXPECT_EQ(AddDim(2, -1), -1);
  EXPECT_EQ(MulDim(INT64_MAX, 2), -1);  // overflow becomes unknown, never wraps
}

TEST(Window, ConvOutputDim) {
  EXPECT_EQ(ConvOutputDim(224, 7, 2, 1, 3, 3).value(), 112);
  EXPECT_EQ(ConvOutputDim(5, 3, 1, 2, 0, 0).value(), 1);        // dilation 2: effective kernel 5
  EXPECT_EQ(ConvOutputDim(6, 3, 2, 1, 0, 0).value(), 2);        // floor
  EXPECT_EQ(ConvOutputDim(6, 3, 2, 1, 0, 0, true).value(), 3);  // ceil
  EXPECT_EQ(ConvOutputDim(5, 2, 2, 1, 0, 0, true).value(), 3);  // last window starts at 4 < 5
  EXPECT_EQ(ConvOutputDim(4, 2, 2, 1, 0, 1, true).value(),
            2);  // a window starting in the end pad drops
  EXPECT_EQ(ConvOutputDim(-1, 3, 1, 1, 1, 1).value(), -1);
  EXPECT_EQ(ConvOutputDim(2, 5, 1, 1, 0, 0).value(), 0);
}

// Extents from a file's attributes at the int64 limits: an error, never a wrapped size.
TEST(Window, ExtentsThatOverflowAreErrors) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // dilation 2^62 + 1 over a kernel of 3 wraps to an extent of 3 when computed raw.
  auto wrapped = ConvOutputDim(8, 3, 1, (int64_t{1} << 62) + 1, 0, 0);
  ASSERT_FALSE(wrapped.ok());
  EXPECT_NE(wrapped.status().message().find("dilations 4611686018427387905 overflows int64"),
            std::string::npos)
      << wrapped.status().message();
  EXPECT_FALSE(ConvOutputDim(kMax, 3, 1, 1, kMax, 0).ok());     // padded input
  EXPECT_EQ(ConvOutputDim(kMax, 1, kMax, 1, 0, 0).value(), 1);  // one window, no overflow
  EXPECT_EQ(ConvOutputDim(kMax - 1, 2, kMax, 1, 0, 0, true).value(), 1);
  WindowParams p;
  p.kernel = {3};
  p.dilations = {(int64_t{1} << 62) + 1};
  EXPECT_FALSE(CompleteWindowParams(1, p).ok());
  // SAME with the largest stride: ceil(8 / stride) is 1, not (8 + stride - 1) / stride.
  WindowParams same;
  same.kernel = {1};
  same.strides = {kMax};
  same.auto_pad = "SAME_UPPER";
  ASSERT_TRUE(CompleteWindowParams(1, same).ok());
  EXPECT_EQ(WindowOutputDims({8}, same).value(), (Dims{1}));
}

TEST(Window, AutoPadAndDefaults) {
  WindowParams p;
  p.kernel = {3, 3};
  ASSERT_TRUE(CompleteWindowParams(2, p).ok());
  EXPECT_EQ(p.strides, (Dims{1, 1}));
  EXPECT_EQ(p.pads, (Dims{0, 0, 0, 0}));
  EXPECT_EQ(WindowOutputDims({8, 9}, p).value(), (Dims{6, 7}));
  p.auto_pad = "SAME_UPPER";
  p.strides = {2, 2};
  EXPECT_EQ(WindowOutputDims({8, 9}, p).value(), (Dims{4, 5}));
  p.auto_pad = "VALID";
  EXPECT_EQ(WindowOutputDims({8, -1}, p).value(), (Dims{3, -1}));
  p.auto_pad = "BOGUS";
  EXPECT_FALSE(CompleteWindowParams(2, p).ok());
  WindowParams q;
  q.kernel = {3};
  q.pads = {1, 1, 1};
  EXPECT_NE(CompleteWindowParams(1, q).message().find("'pads' has 3 values, expected 2"),
            std::string::npos);
}

// Slice steps at the int64 limits take one element; the raw length formula wraps to 0.
TEST(Slice, StepsAtTheLimitsTakeOneElement) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(SliceAlong(10, 0, 10, kMax).length, 1);
  EXPECT_EQ(SliceAlong(10, 3, kMax, kMax).begin, 3);
  EXPECT_EQ(SliceAlong(10, -1, kMin, kMin).length, 1);
  EXPECT_EQ(SliceAlong(10, -1, kMin, kMin).begin, 9);
  EXPECT_EQ(SliceAlong(10, kMax, kMin, -kMax).length, 1);
  EXPECT_EQ(SliceAlong(10, 0, 10, 3).length, 4);
  EXPECT_EQ(SliceAlong(10, 9, -11, -4).length, 3);  // 9, 5, 1
  EXPECT_EQ(SliceAlong(0, 0, 1, 1).length, 0);
  EXPECT_EQ(SliceAlong(0, -1, kMin, -1).length, 0);
  EXPECT_EQ(SliceAlong(10, kMin, kMax, 1).length, 10);
}

TEST(Reduce, ShapesWithAndWithoutKeepdims) {
  EXPECT_EQ(ReduceShape(S({2, 3, 4}), {1}, true), S({2, 1, 4}));
  EXPECT_EQ(ReduceShape(S({2, 3, 4}), {0, 2}, false), S({3}));
  EXPECT_EQ(ReduceShape(S({2, 3, 4}), {}, false), S({}));
  EXPECT_EQ(ReduceShape(S({-2}), {0}, true), UnknownRankShape());
}

TEST(MatMul, NumpySemantics) {
  EXPECT_EQ(MatMulShape(S({2, 3}), S({3, 4})).value(), S({2, 4}));
  EXPECT_EQ(MatMulShape(S({5, 1, 2, 3}), S({7, 3, 4})).value(), S({5, 7, 2, 4}));
  EXPECT_EQ(MatMulShape(S({3}), S({3, 4})).value(), S({4}));
  EXPECT_EQ(MatMulShape(S({2, 3}), S({3})).value(), S({2}));
  EXPECT_EQ(MatMulShape(S({3}), S({3})).value(), S({}));
  EXPECT_EQ(MatMulShape(S({3, 2}), S({4, 3}), true, true).value(), S({2, 4}));
  EXPECT_EQ(MatMulShape(S({-1, 3}), S({-1, 4})).value(), S({-1, 4}));
  auto r = MatMulShape(S({2, 3}), S({4, 5}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("(3 vs 4)"), std::string::npos);
  EXPECT_FALSE(MatMulShape(S({}), S({3})).ok());
}

}  // namespace
}  // namespace ge::infer

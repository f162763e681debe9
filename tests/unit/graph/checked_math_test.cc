// Checked int64 arithmetic at the limits: every helper refuses what would wrap and computes what
// fits exactly.
#include "ge/graph/checked_math.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace ge {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(CheckedMath, MulAtTheLimits) {
  int64_t out = 0;
  EXPECT_TRUE(checked::Mul(kMax, 1, &out));
  EXPECT_EQ(out, kMax);
  EXPECT_TRUE(checked::Mul(int64_t{1} << 31, int64_t{1} << 31, &out));
  EXPECT_EQ(out, int64_t{1} << 62);
  EXPECT_FALSE(checked::Mul(int64_t{1} << 32, int64_t{1} << 31, &out));
  EXPECT_FALSE(checked::Mul(kMin, -1, &out));
  EXPECT_TRUE(checked::Mul(kMin, 1, &out));
  auto error = checked::Mul(kMax, 2, "the byte count of x");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().message(), "the byte count of x overflows int64");
  EXPECT_EQ(checked::Mul(3, 4, "a").value(), 12);
}

TEST(CheckedMath, AddAndSubAtTheLimits) {
  int64_t out = 0;
  EXPECT_TRUE(checked::Add(kMax - 1, 1, &out));
  EXPECT_EQ(out, kMax);
  EXPECT_FALSE(checked::Add(kMax, 1, &out));
  EXPECT_FALSE(checked::Add(kMin, -1, &out));
  EXPECT_TRUE(checked::Sub(kMin + 1, 1, &out));
  EXPECT_EQ(out, kMin);
  EXPECT_FALSE(checked::Sub(kMin, 1, &out));
  EXPECT_FALSE(checked::Sub(0, kMin, &out));
  EXPECT_FALSE(checked::Add(kMax, kMax, "pads").ok());
  EXPECT_FALSE(checked::Sub(-2, kMax, "span").ok());
  EXPECT_EQ(checked::Sub(-1, kMax, "span").value(), kMin);
}

TEST(CheckedMath, ProductOfDims) {
  EXPECT_EQ(checked::Product(std::vector<int64_t>{}, "n").value(), 1);
  EXPECT_EQ(checked::Product(std::vector<int64_t>{2, 3, 4}, "n").value(), 24);
  EXPECT_EQ(checked::Product(std::vector<int64_t>{0, kMax, kMax}, "n").value(), 0);
  // 2^32 * 2^32 wraps to 0 when computed raw: the zero that hides an overflow.
  EXPECT_FALSE(
      checked::Product(std::vector<int64_t>{int64_t{1} << 32, int64_t{1} << 32}, "n").ok());
}

TEST(CheckedMath, WindowExtent) {
  int64_t out = 0;
  EXPECT_TRUE(checked::WindowExtent(3, 2, &out));
  EXPECT_EQ(out, 5);
  EXPECT_TRUE(checked::WindowExtent(1, kMax, &out));  // one tap: the dilation is never applied
  EXPECT_EQ(out, 1);
  EXPECT_TRUE(checked::WindowExtent(2, kMax - 1, &out));
  EXPECT_EQ(out, kMax);
  EXPECT_FALSE(checked::WindowExtent(2, kMax, &out));
  // dilation 2^62 + 1 over 3 taps: computed raw, 2 * (2^62 + 1) + 1 wraps to 3.
  EXPECT_FALSE(checked::WindowExtent(3, (int64_t{1} << 62) + 1, &out));
  EXPECT_FALSE(checked::WindowExtent(0, 1, &out));
  EXPECT_FALSE(checked::WindowExtent(3, -1, &out));
  auto error = checked::WindowExtent(3, (int64_t{1} << 62) + 1);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().message(),
            "kernel_shape 3 with dilations 4611686018427387905 overflows int64");
  EXPECT_NE(checked::WindowExtent(0, 1).status().message().find("must be positive"),
            std::string::npos);
}

TEST(CheckedMath, CeilDivNeverFormsTheWrappingSum) {
  EXPECT_EQ(checked::CeilDiv(8, kMax), 1);  // (8 + kMax - 1) / kMax would wrap negative
  EXPECT_EQ(checked::CeilDiv(kMax, kMax), 1);
  EXPECT_EQ(checked::CeilDiv(kMax, 2), (kMax / 2) + 1);
  EXPECT_EQ(checked::CeilDiv(0, 5), 0);
  EXPECT_EQ(checked::CeilDiv(10, 5), 2);
  EXPECT_EQ(checked::CeilDiv(11, 5), 3);
}

}  // namespace
}  // namespace ge

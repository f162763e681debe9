// float16 / bfloat16: the conversions against a brute-force nearest-value reference, and Cast /
// CastLike between them and the other dtypes.
#include "half_float.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

// The non-negative finite values of a 16-bit float format, indexed by their bits (increasing).
struct Format {
  std::vector<double> values;  // values[bits] for bits in [0, max_finite]
  double overflow;             // |d| at or above this rounds to Inf (max + half an ulp)
  uint16_t inf;
};

Format HalfFormat() {
  Format f{{}, 0, 0x7C00};
  for (uint32_t b = 0; b < 0x7C00; ++b) {
    const int exp = static_cast<int>(b >> 10);
    const int mant = static_cast<int>(b & 0x3FF);
    f.values.push_back(exp == 0 ? std::ldexp(mant, -24) : std::ldexp(mant + 1024, exp - 25));
  }
  f.overflow = 65504.0 + 16.0;
  return f;
}

Format Bf16Format() {
  Format f{{}, 0, 0x7F80};
  for (uint32_t b = 0; b < 0x7F80; ++b) {
    f.values.push_back(static_cast<double>(std::bit_cast<float>(b << 16)));
  }
  f.overflow = f.values.back() + std::ldexp(1.0, 127 - 8);
  return f;
}

// The nearest value's bits, ties to the even bit pattern; NaN is not handled here.
uint16_t Nearest(const Format& f, double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  const double a = std::fabs(d);
  if (a >= f.overflow) return sign | f.inf;
  auto it = std::lower_bound(f.values.begin(), f.values.end(), a);
  if (it == f.values.end()) return static_cast<uint16_t>(sign | (f.values.size() - 1));
  auto hi = static_cast<uint16_t>(it - f.values.begin());
  if (*it == a || hi == 0) return sign | hi;
  const uint16_t lo = hi - 1;
  const double dlo = a - f.values[lo], dhi = f.values[hi] - a;
  if (dlo < dhi) return sign | lo;
  if (dhi < dlo) return sign | hi;
  return sign | ((lo & 1) == 0 ? lo : hi);
}

// Values that exercise rounding: random magnitudes over the whole range, every midpoint between
// neighbours (exact ties) and values a hair off them.
std::vector<double> Probes(const Format& f) {
  std::vector<double> probes = {
      0.0,   -0.0,  1.0,   -2.5, f.overflow, -f.overflow, std::nextafter(f.overflow, 0.0),
      1e-30, 1e300, -1e300};
  for (size_t i = 0; i + 1 < f.values.size(); i += 7) {
    const double mid = (f.values[i] + f.values[i + 1]) / 2;
    probes.push_back(mid);
    probes.push_back(-mid);
    probes.push_back(std::nextafter(mid, 0.0));
    probes.push_back(std::nextafter(mid, 1e9));
  }
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> exp(-140, 130);
  for (int i = 0; i < 100000; ++i) probes.push_back(std::ldexp(mant(gen), exp(gen)));
  return probes;
}

TEST(HalfFloat, Float16RoundsToNearestEvenFromDoubleAndFloat) {
  const Format f = HalfFormat();
  for (double d : Probes(f)) {
    EXPECT_EQ(ToFloat16(d).bits, Nearest(f, d)) << d;
    const auto single = static_cast<float>(d);
    EXPECT_EQ(ToFloat16(single).bits, Nearest(f, single)) << single;
  }
}

TEST(HalfFloat, BFloat16RoundsToNearestEven) {
  const Format f = Bf16Format();
  for (double d : Probes(f)) {
    const auto single = static_cast<float>(d);
    EXPECT_EQ(ToBFloat16(single).bits, Nearest(f, single)) << single;
  }
  EXPECT_EQ(ToBFloat16(std::bit_cast<float>(0x3EF5EEB0U)).bits, 0x3EF6);  // above the tie
  EXPECT_EQ(ToBFloat16(std::bit_cast<float>(0x3EF58000U)).bits, 0x3EF6);  // tie, odd → even
  EXPECT_EQ(ToBFloat16(std::bit_cast<float>(0x3EF48000U)).bits, 0x3EF4);  // tie, even stays
}

TEST(HalfFloat, EveryValueRoundTripsAndNanInfSurvive) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const Float16 h{static_cast<uint16_t>(b)};
    const BFloat16 bf{static_cast<uint16_t>(b)};
    if (std::isnan(ToFloat(h))) {
      EXPECT_TRUE(std::isnan(ToFloat(ToFloat16(ToFloat(h))))) << b;
    } else {
      EXPECT_EQ(ToFloat16(ToFloat(h)).bits, b);
    }
    if (std::isnan(ToFloat(bf))) {
      EXPECT_TRUE(std::isnan(ToFloat(ToBFloat16(ToFloat(bf))))) << b;
    } else {
      EXPECT_EQ(ToBFloat16(ToFloat(bf)).bits, b);
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ToFloat16(nan).bits, 0x7E00);
  EXPECT_EQ(ToBFloat16(nan).bits, 0x7FC0);
  EXPECT_EQ(ToFloat16(-inf).bits, 0xFC00);
  EXPECT_EQ(ToBFloat16(inf).bits, 0x7F80);
  EXPECT_EQ(ToFloat(Float16{0x0001}), std::ldexp(1.0F, -24));  // smallest subnormal
}

TestTensor Make16(DataType dtype, std::vector<int64_t> dims, const std::vector<uint16_t>& bits) {
  TestTensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.bytes.resize(bits.size() * 2);
  std::memcpy(t.bytes.data(), bits.data(), t.bytes.size());
  return t;
}

TEST(CastKernel, ConvertsToAndFromFloat16AndBFloat16) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.0F, -0.0F, 65504.0F, 65520.0F, 1e-8F, 0.1F, inf, nan};
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_FLOAT16);
  auto r = RunKernel(op, {Make<float>({8}, x)}, {{DT_FLOAT16, {8}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.outputs[0].Values<uint16_t>(),
      (std::vector<uint16_t>{0x3C00, 0x8000, 0x7BFF, 0x7C00, 0x0000, 0x2E66, 0x7C00, 0x7E00}));
  r = RunKernel(op, {Make<double>({2}, {0.1, 1.0 + std::ldexp(1.0, -11) + 1e-12})},
                {{DT_FLOAT16, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // Just above a tie in double, which rounding through float would turn into the tie (→ even).
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), (std::vector<uint16_t>{0x2E66, 0x3C01}));

  AttrUtils::SetDataType(op, "to", DT_BF16);
  r = RunKernel(op, {Make<float>({3}, {std::bit_cast<float>(0x3EF5EEB0U), -inf, nan})},
                {{DT_BF16, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), (std::vector<uint16_t>{0x3EF6, 0xFF80, 0x7FC0}));

  AttrUtils::SetDataType(op, "to", DT_FLOAT);
  r = RunKernel(op, {Make16(DT_BF16, {2}, {0x3EF6, 0xFF80})}, {{DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0.48046875F, -inf}));
  AttrUtils::SetDataType(op, "to", DT_DOUBLE);
  r = RunKernel(op, {Make16(DT_FLOAT16, {3}, {0x3555, 0x0001, 0x7C00})}, {{DT_DOUBLE, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<double>(),
            (std::vector<double>{0.333251953125, std::ldexp(1.0, -24), HUGE_VAL}));
  AttrUtils::SetDataType(op, "to", DT_INT32);
  r = RunKernel(op, {Make16(DT_FLOAT16, {2}, {0xC500, 0x7E00})}, {{DT_INT32, {2}}});  // -5, NaN
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{-5, 0}));
  AttrUtils::SetDataType(op, "to", DT_BF16);
  r = RunKernel(op, {Make16(DT_FLOAT16, {1}, {0x3C01})}, {{DT_BF16, {1}}});  // 1 + 2^-10
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), (std::vector<uint16_t>{0x3F80}));
}

TEST(CastLikeKernel, CastsToTheDtypeOfTheSecondInput) {
  auto r = RunKernel(Op("CastLike"),
                     {Make<float>({2}, {0.1F, -2.0F}), Make16(DT_FLOAT16, {1}, {0x3C00})},
                     {{DT_FLOAT16, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), (std::vector<uint16_t>{0x2E66, 0xC000}));
  r = RunKernel(Op("CastLike"), {Make<float>({2}, {1.5F, -2.0F}), Make<int64_t>({1}, {0})},
                {{DT_INT64, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{1, -2}));
}

TEST(CastKernel, RefusesAnOutputOfAnotherDtypeThanTo) {
  auto op = Op("Cast");
  AttrUtils::SetDataType(op, "to", DT_FLOAT16);
  ExpectError(RunKernel(op, {Make<float>({1}, {1.0F})}, {{DT_BF16, {1}}}).status, "'to'");
}

}  // namespace
}  // namespace ge::host_cpu

// Tests of the narrow element types' codes: every float8 code decodes to its value and encodes
// back, ties round to even, overflow saturates or not, and the integers wrap and pack.
#include "ge/graph/narrow_types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace ge {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

const std::vector<DataType> kFloat8 = {DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E5M2,
                                       DT_FLOAT8_E5M2FNUZ};

TEST(NarrowTypes, KnownCodesDecode) {
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0x38), 1.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0x7E), 448.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0x01), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0x7F)));
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0xFF)));
  EXPECT_TRUE(std::signbit(NarrowFloatValue(DT_FLOAT8_E4M3FN, 0x80)));

  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, 0x40), 1.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, 0x7F), 240.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, 0x01), std::ldexp(1.0, -10));
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, 0x80)));
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, 0xFF), -240.0);

  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2, 0x3C), 1.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2, 0x7B), 57344.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2, 0x7C), kInf);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2, 0xFC), -kInf);
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E5M2, 0x7D)));
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2, 0x01), std::ldexp(1.0, -16));

  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2FNUZ, 0x40), 1.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2FNUZ, 0x7F), 57344.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E5M2FNUZ, 0x01), std::ldexp(1.0, -17));
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E5M2FNUZ, 0x80)));

  const std::vector<double> e2m1 = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_EQ(NarrowFloatValue(DT_FLOAT4_E2M1, c), e2m1[c]) << c;
    EXPECT_EQ(NarrowFloatValue(DT_FLOAT4_E2M1, c | 8U), -e2m1[c]) << c;
  }

  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E8M0, 127), 1.0);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E8M0, 0), std::ldexp(1.0, -127));
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E8M0, 254), std::ldexp(1.0, 127));
  EXPECT_TRUE(std::isnan(NarrowFloatValue(DT_FLOAT8_E8M0, 255)));
}

// Every code that is a number encodes back to itself; infinities need saturate off, and E8M0's
// smallest, 2^-127, is a float subnormal that only rounding down keeps.
TEST(NarrowTypes, EveryFloatCodeRoundTrips) {
  const NarrowConversion exact{.saturate = false, .e8m0 = E8M0Rounding::kDown};
  for (const DataType type : {DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E5M2,
                              DT_FLOAT8_E5M2FNUZ, DT_FLOAT4_E2M1, DT_FLOAT8_E8M0}) {
    const uint32_t codes = 1U << NarrowBits(type);
    for (uint32_t c = 0; c < codes; ++c) {
      const double v = NarrowFloatValue(type, c);
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(NarrowFloatValue(type, NarrowCodeFromDouble(type, v, exact))));
        continue;
      }
      EXPECT_EQ(NarrowCodeFromDouble(type, v, exact), c)
          << TypeUtils::DataTypeToSerialString(type) << " code " << c << " = " << v;
    }
  }
}

// Between two neighbouring codes: below the midpoint gives the lower, above it the upper, and the
// midpoint itself the even one.
TEST(NarrowTypes, RoundsToNearestWithTiesToEven) {
  for (const DataType type :
       {DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E5M2, DT_FLOAT8_E5M2FNUZ, DT_FLOAT4_E2M1}) {
    const uint32_t half = 1U << (NarrowBits(type) - 1);  // the positive codes
    for (uint32_t c = 0; c + 1 < half; ++c) {
      const double lo = NarrowFloatValue(type, c), hi = NarrowFloatValue(type, c + 1);
      if (!std::isfinite(lo) || !std::isfinite(hi)) continue;
      const double mid = (lo + hi) / 2;
      const double eps = (hi - lo) / 64;
      const std::string what =
          TypeUtils::DataTypeToSerialString(type) + " code " + std::to_string(c);
      EXPECT_EQ(NarrowCodeFromDouble(type, mid - eps), c) << what;
      EXPECT_EQ(NarrowCodeFromDouble(type, mid + eps), c + 1) << what;
      EXPECT_EQ(NarrowCodeFromDouble(type, mid), c % 2 == 0 ? c : c + 1) << what;
    }
  }
}

TEST(NarrowTypes, OverflowSaturatesOrBecomesInfinityOrNan) {
  const NarrowConversion wrap{.saturate = false};
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, 1e6), 0x7EU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, -kInf), 0xFEU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, 1e6, wrap), 0x7FU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, 1e300, wrap), 0x7FU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E5M2, 1e6), 0x7BU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E5M2, -1e6, wrap), 0xFCU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FNUZ, 1e6), 0x7FU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FNUZ, 1e6, wrap), 0x80U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E5M2FNUZ, -kInf, wrap), 0x80U);
  // Just above the largest value, but rounding down to it, is no overflow.
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, 460.0, wrap), 0x7EU);
  // FLOAT4_E2M1 has neither infinity nor NaN: it always saturates, and NaN becomes -0.
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT4_E2M1, kInf, wrap), 0x7U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT4_E2M1, -8.0, wrap), 0xFU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT4_E2M1, kNan), 0x8U);
}

TEST(NarrowTypes, ZerosAndNans) {
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, -1e-7), 0x80U);    // negative zero kept
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FNUZ, -1e-7), 0x00U);  // one zero only
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E5M2FNUZ, -0.0), 0x00U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FN, kNan), 0x7FU);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E4M3FNUZ, kNan), 0x80U);
  for (const DataType type : kFloat8) {
    EXPECT_TRUE(std::isnan(NarrowFloatValue(type, NarrowCodeFromDouble(type, -kNan))));
  }
}

TEST(NarrowTypes, E8M0RoundsAsItsModeSays) {
  const NarrowConversion up{}, down{.e8m0 = E8M0Rounding::kDown},
      nearest{.e8m0 = E8M0Rounding::kNearest};
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 1.5, up), 128U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 1.5, down), 127U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 1.5, nearest), 128U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 1.25, nearest), 127U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 1.25, up), 128U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, 4.0, up), 129U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, -4.0, down), 129U);  // the sign is dropped
  const double big = std::ldexp(1.5, 127);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, big, up), 254U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, big, {.saturate = false}), 255U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, kNan), 255U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_FLOAT8_E8M0, kInf), 255U);
}

TEST(NarrowTypes, IntegersTruncateAndWrap) {
  EXPECT_EQ(NarrowIntegerValue(DT_INT4, 0x8), -8);
  EXPECT_EQ(NarrowIntegerValue(DT_INT4, 0x7), 7);
  EXPECT_EQ(NarrowIntegerValue(DT_UINT4, 0xF), 15);
  EXPECT_EQ(NarrowIntegerValue(DT_INT2, 0x2), -2);
  EXPECT_EQ(NarrowIntegerValue(DT_UINT2, 0x3), 3);
  EXPECT_EQ(NarrowCodeFromInteger(DT_INT4, 9), 0x9U);  // -7
  EXPECT_EQ(NarrowIntegerValue(DT_INT4, NarrowCodeFromInteger(DT_INT4, 9)), -7);
  EXPECT_EQ(NarrowCodeFromInteger(DT_UINT2, 5), 0x1U);
  EXPECT_EQ(NarrowCodeFromInteger(DT_INT4, std::numeric_limits<int64_t>::min()), 0x0U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_INT4, -9.7), 0x7U);  // -9, wrapped
  EXPECT_EQ(NarrowCodeFromDouble(DT_UINT4, 2.9), 0x2U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_INT4, kNan), 0x0U);
  EXPECT_EQ(NarrowCodeFromDouble(DT_INT4, 1e300), 0xFU);  // int64's largest, wrapped
  EXPECT_EQ(NarrowCodeFromDouble(DT_INT2, -1e300), 0x0U);
  // A narrow integer read as a float is its value.
  EXPECT_EQ(NarrowFloatValue(DT_INT4, 0x9), -7.0);
}

TEST(NarrowTypes, CodesPackFromTheLowBitsUp) {
  std::vector<uint8_t> bytes(3, 0xFF);
  for (uint32_t i = 0; i < 5; ++i) WritePackedCode(bytes.data(), i, 4, i + 1);
  EXPECT_EQ(bytes[0], 0x21);
  EXPECT_EQ(bytes[1], 0x43);
  EXPECT_EQ(bytes[2], 0xF5) << "the last byte's unused half is kept";
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(ReadPackedCode(bytes.data(), i, 4), i + 1);
  std::vector<uint8_t> two(2, 0);
  for (uint32_t i = 0; i < 6; ++i) WritePackedCode(two.data(), i, 2, i % 4);
  EXPECT_EQ(two[0], 0xE4);  // 0, 1, 2, 3 from bit 0 up
  EXPECT_EQ(two[1], 0x04);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(ReadPackedCode(two.data(), i, 2), i % 4);
  std::vector<uint8_t> eight(2, 0);
  WritePackedCode(eight.data(), 1, 8, 0xAB);
  EXPECT_EQ(eight[1], 0xAB);
  EXPECT_EQ(ReadPackedCode(eight.data(), 1, 8), 0xABU);
}

TEST(NarrowTypes, WhichTypesAreNarrow) {
  EXPECT_EQ(NarrowBits(DT_FLOAT8_E8M0), 8);
  EXPECT_EQ(NarrowBits(DT_UINT4), 4);
  EXPECT_EQ(NarrowBits(DT_INT2), 2);
  EXPECT_EQ(NarrowBits(DT_FLOAT), 0);
  EXPECT_EQ(NarrowBits(DT_UINT1), 0) << "no ONNX type; nothing converts it";
  EXPECT_TRUE(IsNarrowIntegerType(DT_UINT2));
  EXPECT_FALSE(IsNarrowIntegerType(DT_FLOAT4_E2M1));
  EXPECT_FALSE(IsNarrowType(DT_INT8));
}

}  // namespace
}  // namespace ge

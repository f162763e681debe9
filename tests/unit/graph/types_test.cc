// Tests of TypeUtils: data type names, sizes and proto numbers; format names and packing.
#include "ge/graph/types.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace ge {
namespace {

/// Every DataType value that names a type (all of 0..DT_MAX-1 but the unused 5).
std::vector<DataType> AllDataTypes() {
  std::vector<DataType> types;
  for (int32_t i = 0; i < DT_MAX; ++i) {
    if (i != 5) types.push_back(static_cast<DataType>(i));
  }
  return types;
}

TEST(TypeUtils, DataTypeNamesRoundTrip) {
  for (const DataType data_type : AllDataTypes()) {
    const std::string name = TypeUtils::DataTypeToSerialString(data_type);
    ASSERT_EQ(name.rfind("DT_", 0), 0u) << name;
    DataType parsed = DT_MAX;
    ASSERT_TRUE(TypeUtils::TryParseDataType(name, &parsed)) << name;
    EXPECT_EQ(parsed, data_type) << name;
    EXPECT_EQ(TypeUtils::SerialStringToDataType(name), data_type) << name;
  }
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_FLOAT), "DT_FLOAT");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_FLOAT8_E4M3FN), "DT_FLOAT8_E4M3FN");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_HIFLOAT4), "DT_HIFLOAT4");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_UINT4), "DT_UINT4");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_FLOAT8_E5M2FNUZ), "DT_FLOAT8_E5M2FNUZ");
}

TEST(TypeUtils, InvalidDataTypesPrintAsUndefined) {
  for (const int32_t value : {5, static_cast<int32_t>(DT_MAX), -1, 1000}) {
    EXPECT_EQ(TypeUtils::DataTypeToSerialString(static_cast<DataType>(value)), "DT_UNDEFINED")
        << value;
  }
}

TEST(TypeUtils, UnknownDataTypeNamesAreTold) {
  for (const std::string_view name : {"", "DT_", "FLOAT", "dt_float", "DT_FLOAT ", "DT_MAX"}) {
    DataType parsed = DT_INT8;
    EXPECT_FALSE(TypeUtils::TryParseDataType(name, &parsed)) << name;
    EXPECT_EQ(parsed, DT_INT8) << "left untouched";
    EXPECT_EQ(TypeUtils::SerialStringToDataType(name), DT_UNDEFINED) << name;
  }
  DataType parsed = DT_INT8;
  EXPECT_TRUE(TypeUtils::TryParseDataType("DT_UNDEFINED", &parsed));
  EXPECT_EQ(parsed, DT_UNDEFINED);
}

TEST(TypeUtils, ProtoNumbersMatchTheReference) {
  const std::vector<std::pair<DataType, int32_t>> pairs = {
      {DT_UNDEFINED, 0},
      {DT_FLOAT, 1},
      {DT_FLOAT16, 2},
      {DT_INT8, 3},
      {DT_UINT8, 4},
      {DT_INT16, 5},
      {DT_UINT16, 6},
      {DT_INT32, 7},
      {DT_INT64, 8},
      {DT_UINT32, 9},
      {DT_UINT64, 10},
      {DT_BOOL, 11},
      {DT_DOUBLE, 12},
      {DT_STRING, 13},
      {DT_DUAL, 25},
      {DT_BF16, 27},
      {DT_INT4, 28},
      {DT_UINT1, 29},
      {DT_COMPLEX32, 32},
      {DT_HIFLOAT8, 33},
      {DT_FLOAT8_E8M0, 36},
      {DT_FLOAT4_E1M2, 40},
      {DT_HIFLOAT4, 41},
      // OpenGE's additions, far from GE's numbers.
      {DT_UINT4, 1001},
      {DT_FLOAT8_E4M3FNUZ, 1002},
      {DT_FLOAT8_E5M2FNUZ, 1003},
  };
  for (const auto& [data_type, proto] : pairs) {
    EXPECT_EQ(TypeUtils::DataTypeToProto(data_type), proto)
        << TypeUtils::DataTypeToSerialString(data_type);
    EXPECT_EQ(TypeUtils::DataTypeFromProto(proto), data_type) << proto;
  }
}

TEST(TypeUtils, ProtoNumbersRoundTripAndAreDistinct) {
  std::set<int32_t> seen;
  for (const DataType data_type : AllDataTypes()) {
    const int32_t proto = TypeUtils::DataTypeToProto(data_type);
    ASSERT_GE(proto, 0);
    // GE's numbers, or OpenGE's additions from 1001 on.
    ASSERT_TRUE(proto < 42 || (proto > 1000 && proto < 1004)) << proto;
    EXPECT_TRUE(seen.insert(proto).second) << "proto " << proto << " used twice";
    DataType back = DT_MAX;
    ASSERT_TRUE(TypeUtils::TryDataTypeFromProto(proto, &back)) << proto;
    EXPECT_EQ(back, data_type) << proto;
  }
}

TEST(TypeUtils, UnknownProtoNumbersAndTypes) {
  for (const int32_t proto : {-1, 42, 43, 100, 1000, 1004, std::numeric_limits<int32_t>::max()}) {
    DataType out = DT_INT8;
    EXPECT_FALSE(TypeUtils::TryDataTypeFromProto(proto, &out)) << proto;
    EXPECT_EQ(out, DT_INT8);
    EXPECT_EQ(TypeUtils::DataTypeFromProto(proto), DT_UNDEFINED) << proto;
  }
  for (const int32_t value : {5, static_cast<int32_t>(DT_MAX), -7, 99}) {
    EXPECT_EQ(TypeUtils::DataTypeToProto(static_cast<DataType>(value)), 0) << value;
  }
}

TEST(TypeUtils, SizeOfEveryDataType) {
  const std::vector<std::pair<DataType, int32_t>> sizes = {
      {DT_FLOAT, 4},          {DT_FLOAT16, 2},         {DT_INT8, 1},
      {DT_INT32, 4},          {DT_UINT8, 1},           {DT_INT16, 2},
      {DT_UINT16, 2},         {DT_UINT32, 4},          {DT_INT64, 8},
      {DT_UINT64, 8},         {DT_DOUBLE, 8},          {DT_BOOL, 1},
      {DT_STRING, 16},        {DT_DUAL_SUB_INT8, 1},   {DT_DUAL_SUB_UINT8, 1},
      {DT_COMPLEX64, 8},      {DT_COMPLEX128, 16},     {DT_QINT8, 1},
      {DT_QINT16, 2},         {DT_QINT32, 4},          {DT_QUINT8, 1},
      {DT_QUINT16, 2},        {DT_RESOURCE, 8},        {DT_STRING_REF, 16},
      {DT_DUAL, 5},           {DT_VARIANT, 8},         {DT_BF16, 2},
      {DT_UNDEFINED, -1},     {DT_INT4, 1004},         {DT_UINT1, 1001},
      {DT_INT2, 1002},        {DT_UINT2, 1002},        {DT_COMPLEX32, 4},
      {DT_HIFLOAT8, 1},       {DT_FLOAT8_E5M2, 1},     {DT_FLOAT8_E4M3FN, 1},
      {DT_FLOAT8_E8M0, 1},    {DT_FLOAT6_E3M2, 1006},  {DT_FLOAT6_E2M3, 1006},
      {DT_FLOAT4_E2M1, 1004}, {DT_FLOAT4_E1M2, 1004},  {DT_HIFLOAT4, 1004},
      {DT_UINT4, 1004},       {DT_FLOAT8_E4M3FNUZ, 1}, {DT_FLOAT8_E5M2FNUZ, 1},
  };
  ASSERT_EQ(sizes.size(), AllDataTypes().size()) << "one row per data type";
  for (const auto& [data_type, size] : sizes) {
    const std::string name = TypeUtils::DataTypeToSerialString(data_type);
    EXPECT_EQ(TypeUtils::GetSizeByDataType(data_type), size) << name;
    EXPECT_EQ(TypeUtils::IsSubByteType(data_type), size > kDataTypeSizeBitOffset) << name;
    EXPECT_EQ(TypeUtils::IsValidDataType(data_type), size > 0) << name;
    uint32_t length = 0;
    const bool whole_bytes = size > 0 && size < kDataTypeSizeBitOffset;
    EXPECT_EQ(TypeUtils::GetDataTypeLength(data_type, length), whole_bytes) << name;
    EXPECT_EQ(length, whole_bytes ? static_cast<uint32_t>(size) : 0u) << name;
  }
  for (const int32_t value : {5, static_cast<int32_t>(DT_MAX), -1, 1000}) {
    const auto data_type = static_cast<DataType>(value);
    EXPECT_EQ(TypeUtils::GetSizeByDataType(data_type), -1) << value;
    EXPECT_FALSE(TypeUtils::IsValidDataType(data_type)) << value;
    EXPECT_FALSE(TypeUtils::IsSubByteType(data_type)) << value;
  }
}

TEST(TypeUtils, SizeInBytesRoundsSubByteTypesUp) {
  EXPECT_EQ(TypeUtils::GetSizeInBytes(3, DT_INT4), 2);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(4, DT_INT4), 2);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(9, DT_UINT1), 2);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(8, DT_UINT1), 1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(5, DT_INT2), 2);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(3, DT_FLOAT6_E3M2), 3);  // 18 bits
  EXPECT_EQ(TypeUtils::GetSizeInBytes(1, DT_HIFLOAT4), 1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(0, DT_INT4), 0);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(6, DT_FLOAT), 24);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(3, DT_STRING), 48);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(0, DT_DOUBLE), 0);
}

TEST(TypeUtils, SizeInBytesRejectsBadInputAndOverflow) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(TypeUtils::GetSizeInBytes(-1, DT_FLOAT), -1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(4, DT_UNDEFINED), -1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(4, static_cast<DataType>(5)), -1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(4, DT_MAX), -1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax / 4 + 1, DT_FLOAT), -1);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax / 4, DT_FLOAT), kMax / 4 * 4);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax, DT_INT8), kMax);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax, DT_COMPLEX128), -1);
  // Sub-byte sizes are below the element count, so they never overflow; they stay exact.
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax, DT_INT4), int64_t{1} << 62);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax, DT_FLOAT6_E2M3), 6917529027641081856);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(kMax, DT_UINT1), int64_t{1} << 60);
}

TEST(TypeUtils, FormatNamesRoundTrip) {
  for (int32_t i = 0; i <= FORMAT_END; ++i) {
    const auto format = static_cast<Format>(i);
    const std::string name = TypeUtils::FormatToSerialString(format);
    ASSERT_FALSE(name.empty()) << i;
    Format parsed = FORMAT_MD;
    ASSERT_TRUE(TypeUtils::TryParseFormat(name, &parsed)) << name;
    EXPECT_EQ(parsed, format) << name;
    EXPECT_EQ(TypeUtils::SerialStringToFormat(name), format) << name;
    EXPECT_EQ(TypeUtils::IsValidFormat(format), i < FORMAT_END) << name;
  }
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_NCHW), "NCHW");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_NC1HWC0), "NC1HWC0");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_C1HWNCoC0), "C1HWNCoC0");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_HASHTABLE_LOOKUP_HITS), "HASHTABLE_LOOKUP_HITS");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_FRACTAL_NZ_C0_8), "FRACTAL_NZ_C0_8");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_NULL), "NULL");
}

TEST(TypeUtils, InvalidPrimaryFormatPrintsReserved) {
  for (const int32_t value : {56, 200, 255, -1}) {
    const auto format = static_cast<Format>(value);
    EXPECT_EQ(TypeUtils::FormatToSerialString(format), "RESERVED") << value;
    EXPECT_FALSE(TypeUtils::IsValidFormat(format)) << value;
  }
}

TEST(TypeUtils, SubFormatParsesAndPrints) {
  Format parsed = FORMAT_NCHW;
  ASSERT_TRUE(TypeUtils::TryParseFormat("FRACTAL_Z:16", &parsed));
  EXPECT_EQ(TypeUtils::GetPrimaryFormat(parsed), FORMAT_FRACTAL_Z);
  EXPECT_EQ(TypeUtils::GetSubFormat(parsed), 16);
  EXPECT_TRUE(TypeUtils::IsValidFormat(parsed));
  EXPECT_EQ(TypeUtils::FormatToSerialString(parsed), "FRACTAL_Z:16");
  EXPECT_EQ(TypeUtils::SerialStringToFormat("NC1HWC0:65535"),
            TypeUtils::GetFormatFromSub(FORMAT_NC1HWC0, 65535));
  // A C0 format is not part of the name.
  const auto with_c0 =
      static_cast<Format>(TypeUtils::GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 4, 5));
  EXPECT_EQ(TypeUtils::FormatToSerialString(with_c0), "FRACTAL_Z:4");
}

TEST(TypeUtils, MalformedFormatStringsAreRejected) {
  for (const std::string_view text :
       {"", "NCHWX", "NCHW:", "NCHW:abc", "NCHW:70000", "NCHW:65536", "NCHW:-1", "NCHW:+1",
        "NCHW:1:2", "NCHW: 1", "nchw", "FORMAT_NCHW", ":16", "NCHW:99999999999999999999"}) {
    Format parsed = FORMAT_MD;
    EXPECT_FALSE(TypeUtils::TryParseFormat(text, &parsed)) << '"' << text << '"';
    EXPECT_EQ(parsed, FORMAT_MD) << "left untouched";
    EXPECT_EQ(TypeUtils::SerialStringToFormat(text), FORMAT_RESERVED) << text;
  }
}

TEST(TypeUtils, FormatPackingAndUnpacking) {
  const int32_t packed = TypeUtils::GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 0x1234, 5);
  EXPECT_EQ(packed, FORMAT_FRACTAL_Z | (0x1234 << 8) | (5 << 24));
  EXPECT_EQ(TypeUtils::GetPrimaryFormat(packed), FORMAT_FRACTAL_Z);
  EXPECT_EQ(TypeUtils::GetSubFormat(packed), 0x1234);
  EXPECT_EQ(TypeUtils::GetC0Format(packed), 5);
  EXPECT_EQ(TypeUtils::GetC0Value(packed), 16);
  EXPECT_TRUE(TypeUtils::HasSubFormat(packed));
  EXPECT_TRUE(TypeUtils::HasC0Format(packed));

  const int32_t plain = FORMAT_NHWC;
  EXPECT_FALSE(TypeUtils::HasSubFormat(plain));
  EXPECT_FALSE(TypeUtils::HasC0Format(plain));
  EXPECT_EQ(TypeUtils::GetC0Value(plain), -1);
  EXPECT_EQ(TypeUtils::GetFormatFromSub(FORMAT_NHWC, 0), plain);

  // Replacing the C0 format keeps the primary and sub-format.
  const int32_t c0_32 = TypeUtils::GetFormatFromC0(packed, 6);
  EXPECT_EQ(TypeUtils::GetPrimaryFormat(c0_32), FORMAT_FRACTAL_Z);
  EXPECT_EQ(TypeUtils::GetSubFormat(c0_32), 0x1234);
  EXPECT_EQ(TypeUtils::GetC0Value(c0_32), 32);
  EXPECT_EQ(TypeUtils::GetFormatFromC0(c0_32, 0),
            TypeUtils::GetFormatFromSub(FORMAT_FRACTAL_Z, 0x1234));
  EXPECT_EQ(TypeUtils::GetC0Value(TypeUtils::GetFormatFromC0(plain, 1)), 1);
  EXPECT_EQ(TypeUtils::GetC0Value(TypeUtils::GetFormatFromC0(plain, 15)), int64_t{1} << 14);

  // Each field is masked to its bits.
  const int32_t masked = TypeUtils::GetFormatFromSubAndC0(0x1ff, 0x1ffff, 0x1f);
  EXPECT_EQ(TypeUtils::GetPrimaryFormat(masked), 0xff);
  EXPECT_EQ(TypeUtils::GetSubFormat(masked), 0xffff);
  EXPECT_EQ(TypeUtils::GetC0Format(masked), 0xf);
  EXPECT_EQ(static_cast<uint32_t>(masked) >> 28, 0u);
}

TEST(TypeUtils, ShapeConstants) {
  EXPECT_EQ(UNKNOWN_DIM, -1);
  EXPECT_EQ(UNKNOWN_DIM_NUM, -2);
  EXPECT_EQ(DUMMY_SHAPE_DIM, -3);
  EXPECT_EQ(kStringElementBytes, 16);
}

}  // namespace
}  // namespace ge

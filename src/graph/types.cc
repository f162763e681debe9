// TypeUtils: tables of GE's data type names, sizes and proto numbers, format names and packing.
#include "ge/graph/types.h"

#include <array>
#include <limits>

namespace ge {
namespace {

constexpr int32_t kNoProto = -1;

/// One row per C++ DataType value; `size` follows GetSizeByDataType.
struct DataTypeInfo {
  std::string_view name;
  int32_t size;
  int32_t proto;
};

constexpr int32_t Bits(int32_t bits) { return kDataTypeSizeBitOffset + bits; }

constexpr std::array<DataTypeInfo, DT_MAX> kDataTypes = {{
    {"DT_FLOAT", 4, 1},
    {"DT_FLOAT16", 2, 2},
    {"DT_INT8", 1, 3},
    {"DT_INT32", 4, 7},
    {"DT_UINT8", 1, 4},
    {"", -1, kNoProto},  // 5 is unused.
    {"DT_INT16", 2, 5},
    {"DT_UINT16", 2, 6},
    {"DT_UINT32", 4, 9},
    {"DT_INT64", 8, 8},
    {"DT_UINT64", 8, 10},
    {"DT_DOUBLE", 8, 12},
    {"DT_BOOL", 1, 11},
    {"DT_STRING", kStringElementBytes, 13},
    {"DT_DUAL_SUB_INT8", 1, 14},
    {"DT_DUAL_SUB_UINT8", 1, 15},
    {"DT_COMPLEX64", 8, 16},
    {"DT_COMPLEX128", 16, 17},
    {"DT_QINT8", 1, 18},
    {"DT_QINT16", 2, 19},
    {"DT_QINT32", 4, 20},
    {"DT_QUINT8", 1, 21},
    {"DT_QUINT16", 2, 22},
    {"DT_RESOURCE", 8, 23},
    {"DT_STRING_REF", kStringElementBytes, 24},
    {"DT_DUAL", 5, 25},
    {"DT_VARIANT", 8, 26},
    {"DT_BF16", 2, 27},
    {"DT_UNDEFINED", -1, 0},
    {"DT_INT4", Bits(4), 28},
    {"DT_UINT1", Bits(1), 29},
    {"DT_INT2", Bits(2), 30},
    {"DT_UINT2", Bits(2), 31},
    {"DT_COMPLEX32", 4, 32},
    {"DT_HIFLOAT8", 1, 33},
    {"DT_FLOAT8_E5M2", 1, 34},
    {"DT_FLOAT8_E4M3FN", 1, 35},
    {"DT_FLOAT8_E8M0", 1, 36},
    {"DT_FLOAT6_E3M2", Bits(6), 37},
    {"DT_FLOAT6_E2M3", Bits(6), 38},
    {"DT_FLOAT4_E2M1", Bits(4), 39},
    {"DT_FLOAT4_E1M2", Bits(4), 40},
    {"DT_HIFLOAT4", Bits(4), 41},
    {"DT_UINT4", Bits(4), 1001},
    {"DT_FLOAT8_E4M3FNUZ", 1, 1002},
    {"DT_FLOAT8_E5M2FNUZ", 1, 1003},
}};

/// GE's proto numbers run 0..41 without gaps and OpenGE's additions from kFirstExtraProto on;
/// this inverts kDataTypes' proto column for both ranges.
constexpr int32_t kProtoCount = 42;
constexpr int32_t kFirstExtraProto = 1001;
constexpr int32_t kExtraProtoCount = DT_MAX - DT_UINT4;
constexpr std::array<DataType, kProtoCount> MakeProtoToDataType() {
  std::array<DataType, kProtoCount> table{};
  for (auto& entry : table) entry = DT_MAX;
  for (int32_t i = 0; i < DT_MAX; ++i) {
    const int32_t proto = kDataTypes[static_cast<size_t>(i)].proto;
    if (proto >= 0 && proto < kProtoCount)
      table[static_cast<size_t>(proto)] = static_cast<DataType>(i);
  }
  return table;
}
constexpr std::array<DataType, kProtoCount> kProtoToDataType = MakeProtoToDataType();
static_assert(kDataTypes[DT_UINT4].proto == kFirstExtraProto &&
                  kDataTypes[DT_MAX - 1].proto == kFirstExtraProto + kExtraProtoCount - 1,
              "OpenGE's additions take consecutive proto numbers in C++ order");

/// Names of the primary formats 0..FORMAT_END, without the FORMAT_ prefix.
constexpr std::array<std::string_view, FORMAT_END + 1> kFormatNames = {
    "NCHW",
    "NHWC",
    "ND",
    "NC1HWC0",
    "FRACTAL_Z",
    "NC1C0HWPAD",
    "NHWC1C0",
    "FSR_NCHW",
    "FRACTAL_DECONV",
    "C1HWNC0",
    "FRACTAL_DECONV_TRANSPOSE",
    "FRACTAL_DECONV_SP_STRIDE_TRANS",
    "NC1HWC0_C04",
    "FRACTAL_Z_C04",
    "CHWN",
    "FRACTAL_DECONV_SP_STRIDE8_TRANS",
    "HWCN",
    "NC1KHKWHWC0",
    "BN_WEIGHT",
    "FILTER_HWCK",
    "HASHTABLE_LOOKUP_LOOKUPS",
    "HASHTABLE_LOOKUP_KEYS",
    "HASHTABLE_LOOKUP_VALUE",
    "HASHTABLE_LOOKUP_OUTPUT",
    "HASHTABLE_LOOKUP_HITS",
    "C1HWNCoC0",
    "MD",
    "NDHWC",
    "FRACTAL_ZZ",
    "FRACTAL_NZ",
    "NCDHW",
    "DHWCN",
    "NDC1HWC0",
    "FRACTAL_Z_3D",
    "CN",
    "NC",
    "DHWNC",
    "FRACTAL_Z_3D_TRANSPOSE",
    "FRACTAL_ZN_LSTM",
    "FRACTAL_Z_G",
    "RESERVED",
    "ALL",
    "NULL",
    "ND_RNN_BIAS",
    "FRACTAL_ZN_RNN",
    "NYUV",
    "NYUV_A",
    "NCL",
    "FRACTAL_Z_WINO",
    "C1HWC0",
    "FRACTAL_NZ_C0_16",
    "FRACTAL_NZ_C0_32",
    "FRACTAL_NZ_C0_2",
    "FRACTAL_NZ_C0_4",
    "FRACTAL_NZ_C0_8",
    "END",
};

constexpr uint32_t kPrimaryMask = 0xffU;
constexpr uint32_t kSubMask = 0xffffU;
constexpr uint32_t kC0Mask = 0xfU;
constexpr uint32_t kSubShift = 8;
constexpr uint32_t kC0Shift = 24;

/// The table row of `data_type`, or nullptr for 5, DT_MAX and values out of range.
const DataTypeInfo* FindDataType(DataType data_type) {
  const int32_t value = data_type;
  if (value < 0 || value >= DT_MAX || kDataTypes[static_cast<size_t>(value)].name.empty()) {
    return nullptr;
  }
  return &kDataTypes[static_cast<size_t>(value)];
}

/// Parses a decimal sub-format: digits only, at least one, below 2^16.
bool ParseSubFormat(std::string_view text, int32_t* sub) {
  if (text.empty()) return false;
  int32_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
    if (value > static_cast<int32_t>(kSubMask)) return false;
  }
  *sub = value;
  return true;
}

}  // namespace

std::string TypeUtils::DataTypeToSerialString(DataType data_type) {
  const DataTypeInfo* info = FindDataType(data_type);
  return std::string(info != nullptr ? info->name : kDataTypes[DT_UNDEFINED].name);
}

DataType TypeUtils::SerialStringToDataType(std::string_view name) {
  DataType data_type = DT_UNDEFINED;
  return TryParseDataType(name, &data_type) ? data_type : DT_UNDEFINED;
}

bool TypeUtils::TryParseDataType(std::string_view name, DataType* out) {
  if (name.empty()) return false;
  for (int32_t i = 0; i < DT_MAX; ++i) {
    if (kDataTypes[static_cast<size_t>(i)].name == name) {
      *out = static_cast<DataType>(i);
      return true;
    }
  }
  return false;
}

std::string TypeUtils::FormatToSerialString(Format format) {
  const int32_t primary = GetPrimaryFormat(format);
  if (primary > FORMAT_END) return std::string(kFormatNames[FORMAT_RESERVED]);
  std::string text(kFormatNames[static_cast<size_t>(primary)]);
  if (HasSubFormat(format)) {
    text += ':';
    text += std::to_string(GetSubFormat(format));
  }
  return text;
}

Format TypeUtils::SerialStringToFormat(std::string_view text) {
  Format format = FORMAT_RESERVED;
  return TryParseFormat(text, &format) ? format : FORMAT_RESERVED;
}

bool TypeUtils::TryParseFormat(std::string_view text, Format* out) {
  const size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  int32_t sub = 0;
  if (colon != std::string_view::npos && !ParseSubFormat(text.substr(colon + 1), &sub)) {
    return false;
  }
  for (size_t i = 0; i < kFormatNames.size(); ++i) {
    if (kFormatNames[i] == name) {
      *out = static_cast<Format>(GetFormatFromSub(static_cast<int32_t>(i), sub));
      return true;
    }
  }
  return false;
}

int32_t TypeUtils::GetSizeByDataType(DataType data_type) {
  const DataTypeInfo* info = FindDataType(data_type);
  return info != nullptr ? info->size : -1;
}

bool TypeUtils::GetDataTypeLength(DataType data_type, uint32_t& length) {
  const int32_t size = GetSizeByDataType(data_type);
  if (size <= 0 || size > kDataTypeSizeBitOffset) return false;
  length = static_cast<uint32_t>(size);
  return true;
}

int64_t TypeUtils::GetSizeInBytes(int64_t element_count, DataType data_type) {
  const int32_t size = GetSizeByDataType(data_type);
  if (element_count < 0 || size <= 0) return -1;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (size > kDataTypeSizeBitOffset) {
    // Whole groups of 8 elements take `bits` bytes; bits < 8, so this cannot overflow.
    const int64_t bits = size - kDataTypeSizeBitOffset;
    return element_count / 8 * bits + (element_count % 8 * bits + 7) / 8;
  }
  if (element_count > kMax / size) return -1;
  return element_count * size;
}

bool TypeUtils::IsSubByteType(DataType data_type) {
  return GetSizeByDataType(data_type) > kDataTypeSizeBitOffset;
}

bool TypeUtils::IsValidDataType(DataType data_type) { return GetSizeByDataType(data_type) > 0; }

bool TypeUtils::IsValidFormat(Format format) { return GetPrimaryFormat(format) < FORMAT_END; }

int32_t TypeUtils::DataTypeToProto(DataType data_type) {
  const DataTypeInfo* info = FindDataType(data_type);
  return info != nullptr ? info->proto : 0;
}

DataType TypeUtils::DataTypeFromProto(int32_t proto_value) {
  DataType data_type = DT_UNDEFINED;
  return TryDataTypeFromProto(proto_value, &data_type) ? data_type : DT_UNDEFINED;
}

bool TypeUtils::TryDataTypeFromProto(int32_t proto_value, DataType* out) {
  if (proto_value >= kFirstExtraProto && proto_value < kFirstExtraProto + kExtraProtoCount) {
    *out = static_cast<DataType>(DT_UINT4 + (proto_value - kFirstExtraProto));
    return true;
  }
  if (proto_value < 0 || proto_value >= kProtoCount) return false;
  const DataType data_type = kProtoToDataType[static_cast<size_t>(proto_value)];
  if (data_type == DT_MAX) return false;
  *out = data_type;
  return true;
}

int32_t TypeUtils::GetPrimaryFormat(int32_t format) {
  return static_cast<int32_t>(static_cast<uint32_t>(format) & kPrimaryMask);
}

int32_t TypeUtils::GetSubFormat(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) >> kSubShift) & kSubMask);
}

int32_t TypeUtils::GetC0Format(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) >> kC0Shift) & kC0Mask);
}

int64_t TypeUtils::GetC0Value(int32_t format) {
  const int32_t c0_format = GetC0Format(format);
  return c0_format == 0 ? -1 : int64_t{1} << (c0_format - 1);
}

bool TypeUtils::HasSubFormat(int32_t format) { return GetSubFormat(format) != 0; }

bool TypeUtils::HasC0Format(int32_t format) { return GetC0Format(format) != 0; }

int32_t TypeUtils::GetFormatFromSub(int32_t primary_format, int32_t sub_format) {
  return GetFormatFromSubAndC0(primary_format, sub_format, /*c0_format=*/0);
}

int32_t TypeUtils::GetFormatFromSubAndC0(int32_t primary_format, int32_t sub_format,
                                         int32_t c0_format) {
  const uint32_t packed = (static_cast<uint32_t>(primary_format) & kPrimaryMask) |
                          ((static_cast<uint32_t>(sub_format) & kSubMask) << kSubShift) |
                          ((static_cast<uint32_t>(c0_format) & kC0Mask) << kC0Shift);
  return static_cast<int32_t>(packed);
}

int32_t TypeUtils::GetFormatFromC0(int32_t format, int32_t c0_format) {
  const uint32_t cleared = static_cast<uint32_t>(format) & ~(kC0Mask << kC0Shift);
  return static_cast<int32_t>(cleared | ((static_cast<uint32_t>(c0_format) & kC0Mask) << kC0Shift));
}

}  // namespace ge

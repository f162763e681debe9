// GE's element types (DataType), tensor layouts (Format), shape constants and TypeUtils.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ge/graph/visibility.h"

namespace ge {

/// GE's C++ data type numbering (docs/ge_compatibility.md, "Data types"). Serialized files use
/// another numbering: see TypeUtils::DataTypeToProto.
enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  // 5 is unused.
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_COMPLEX32 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E5M2 = 35,
  DT_FLOAT8_E4M3FN = 36,
  DT_FLOAT8_E8M0 = 37,
  DT_FLOAT6_E3M2 = 38,
  DT_FLOAT6_E2M3 = 39,
  DT_FLOAT4_E2M1 = 40,
  DT_FLOAT4_E1M2 = 41,
  DT_HIFLOAT4 = 42,
  // OpenGE's additions: ONNX element types that GE has no number for. GE's own numbers end at
  // DT_HIFLOAT4; these follow it and are serialized far above GE's proto numbers (1001-1003).
  DT_UINT4 = 43,
  DT_FLOAT8_E4M3FNUZ = 44,
  DT_FLOAT8_E5M2FNUZ = 45,
  DT_MAX = 46,
};

/// GE's tensor layouts (docs/ge_compatibility.md, "Formats"). A Format value may be packed:
/// bits 0-7 hold the primary format, bits 8-23 a sub-format (e.g. the group count of
/// FRACTAL_Z) and bits 24-27 a C0 format; see the packing functions of TypeUtils.
enum Format : int32_t {
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
  FORMAT_FRACTAL_Z = 4,
  FORMAT_NC1C0HWPAD = 5,
  FORMAT_NHWC1C0 = 6,
  FORMAT_FSR_NCHW = 7,
  FORMAT_FRACTAL_DECONV = 8,
  FORMAT_C1HWNC0 = 9,
  FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
  FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
  FORMAT_NC1HWC0_C04 = 12,
  FORMAT_FRACTAL_Z_C04 = 13,
  FORMAT_CHWN = 14,
  FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
  FORMAT_HWCN = 16,
  FORMAT_NC1KHKWHWC0 = 17,
  FORMAT_BN_WEIGHT = 18,
  FORMAT_FILTER_HWCK = 19,
  FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
  FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
  FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
  FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
  FORMAT_HASHTABLE_LOOKUP_HITS = 24,
  FORMAT_C1HWNCoC0 = 25,
  FORMAT_MD = 26,
  FORMAT_NDHWC = 27,
  FORMAT_FRACTAL_ZZ = 28,
  FORMAT_FRACTAL_NZ = 29,
  FORMAT_NCDHW = 30,
  FORMAT_DHWCN = 31,
  FORMAT_NDC1HWC0 = 32,
  FORMAT_FRACTAL_Z_3D = 33,
  FORMAT_CN = 34,
  FORMAT_NC = 35,
  FORMAT_DHWNC = 36,
  FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
  FORMAT_FRACTAL_ZN_LSTM = 38,
  FORMAT_FRACTAL_Z_G = 39,
  FORMAT_RESERVED = 40,
  FORMAT_ALL = 41,
  FORMAT_NULL = 42,
  FORMAT_ND_RNN_BIAS = 43,
  FORMAT_FRACTAL_ZN_RNN = 44,
  FORMAT_NYUV = 45,
  FORMAT_NYUV_A = 46,
  FORMAT_NCL = 47,
  FORMAT_FRACTAL_Z_WINO = 48,
  FORMAT_C1HWC0 = 49,
  FORMAT_FRACTAL_NZ_C0_16 = 50,
  FORMAT_FRACTAL_NZ_C0_32 = 51,
  FORMAT_FRACTAL_NZ_C0_2 = 52,
  FORMAT_FRACTAL_NZ_C0_4 = 53,
  FORMAT_FRACTAL_NZ_C0_8 = 54,
  FORMAT_END = 55,
};

/// A dimension whose extent is not known until run time.
inline constexpr int64_t UNKNOWN_DIM = -1;
/// The single dim of a shape whose rank is unknown: shape {-2}.
inline constexpr int64_t UNKNOWN_DIM_NUM = -2;
/// The single dim of GE's placeholder shape {-3}.
inline constexpr int64_t DUMMY_SHAPE_DIM = -3;
/// Bytes that one DT_STRING / DT_STRING_REF element counts for in size computations.
inline constexpr int32_t kStringElementBytes = 16;
/// GetSizeByDataType returns kDataTypeSizeBitOffset + bits for types narrower than a byte.
inline constexpr int32_t kDataTypeSizeBitOffset = 1000;

/// Names, sizes, serialized numbers and format packing of GE's types. Stateless.
class GE_API TypeUtils {
 public:
  TypeUtils() = delete;

  /// "DT_FLOAT", …; a value that is not a DataType (5, DT_MAX, out of range) → "DT_UNDEFINED".
  static std::string DataTypeToSerialString(DataType data_type);
  /// The DataType named `name` ("DT_FLOAT", …), or DT_UNDEFINED when the name is unknown.
  static DataType SerialStringToDataType(std::string_view name);
  /// Like SerialStringToDataType, but tells an unknown name (false, *out untouched) apart
  /// from "DT_UNDEFINED" (true).
  static bool TryParseDataType(std::string_view name, DataType* out);

  /// The name without the FORMAT_ prefix ("NCHW", "FRACTAL_Z", …) followed by ":<sub>"
  /// when a sub-format is packed in ("FRACTAL_Z:16"). The C0 format is not part of the
  /// name (as in GE). An unknown primary format → "RESERVED".
  static std::string FormatToSerialString(Format format);
  /// The Format named by "NAME" or "NAME:sub"; FORMAT_RESERVED for anything else.
  static Format SerialStringToFormat(std::string_view text);
  /// Parses "NAME" or "NAME:sub" (sub: decimal digits only, < 2^16). False, with *out
  /// untouched, for an unknown name or a malformed sub-format.
  static bool TryParseFormat(std::string_view text, Format* out);

  /// Bytes per element; kDataTypeSizeBitOffset + bits for sub-byte types (DT_INT4 → 1004);
  /// kStringElementBytes for DT_STRING / DT_STRING_REF; -1 for DT_UNDEFINED, DT_MAX, 5
  /// and values out of range.
  static int32_t GetSizeByDataType(DataType data_type);
  /// GE's name: bytes per element in `length`; false (length untouched) for sub-byte
  /// and invalid types.
  static bool GetDataTypeLength(DataType data_type, uint32_t& length);
  /// Bytes taken by `element_count` elements: sub-byte types are rounded up to whole
  /// bytes (3 x DT_INT4 → 2). -1 for a negative count, an invalid type or int64 overflow.
  static int64_t GetSizeInBytes(int64_t element_count, DataType data_type);
  /// True for the types narrower than a byte (INT4, UINT4, UINT1, INT2, UINT2, FP6, FP4,
  /// HIFLOAT4).
  static bool IsSubByteType(DataType data_type);
  /// True for a concrete element type: one with a size (not DT_UNDEFINED, DT_MAX or 5).
  static bool IsValidDataType(DataType data_type);
  /// True when the primary part of `format` names a layout (FORMAT_NCHW … below FORMAT_END).
  static bool IsValidFormat(Format format);

  /// The number of `data_type` in ge_ir.proto; 0 (proto DT_UNDEFINED) for an unknown type.
  static int32_t DataTypeToProto(DataType data_type);
  /// The DataType of a ge_ir.proto number; DT_UNDEFINED for an unknown number.
  static DataType DataTypeFromProto(int32_t proto_value);
  /// Like DataTypeFromProto, but false (*out untouched) for an unknown number.
  static bool TryDataTypeFromProto(int32_t proto_value, DataType* out);

  /// Bits 0-7 of a packed format.
  static int32_t GetPrimaryFormat(int32_t format);
  /// Bits 8-23 of a packed format; 0 means none.
  static int32_t GetSubFormat(int32_t format);
  /// Bits 24-27 of a packed format; 0 means none.
  static int32_t GetC0Format(int32_t format);
  /// C0 = 1 << (c0_format - 1); -1 (as for an unknown dim) when no C0 format is set.
  static int64_t GetC0Value(int32_t format);
  static bool HasSubFormat(int32_t format);
  static bool HasC0Format(int32_t format);
  /// Packs a primary format and a sub-format (each masked to its bits); no C0 format.
  static int32_t GetFormatFromSub(int32_t primary_format, int32_t sub_format);
  /// Packs a primary format, a sub-format and a C0 format (each masked to its bits).
  static int32_t GetFormatFromSubAndC0(int32_t primary_format, int32_t sub_format,
                                       int32_t c0_format);
  /// `format` with its C0 format replaced by `c0_format`; other bits are kept.
  static int32_t GetFormatFromC0(int32_t format, int32_t c0_format);
};

}  // namespace ge

// Codes of the 8-, 4- and 2-bit element types (see narrow_types.h).
#include "ge/graph/narrow_types.h"

#include <bit>
#include <cmath>
#include <limits>

namespace ge {
namespace {

/// A small binary float: a sign bit, `exp_bits` exponent and `mant_bits` mantissa bits.
struct FloatFormat {
  int exp_bits;
  int mant_bits;
  int bias;
  uint32_t max_code;       // the largest finite magnitude (sign bit clear)
  bool has_inf;            // the magnitude after max_code is infinity (E5M2)
  bool unsigned_zero_nan;  // FNUZ: one zero, and NaN is the code of negative zero
  bool has_nan;            // FLOAT4_E2M1 has none: NaN becomes negative zero, as ml_dtypes does
};

constexpr FloatFormat kE4M3FN{4, 3, 7, 0x7E, false, false, true};
constexpr FloatFormat kE4M3FNUZ{4, 3, 8, 0x7F, false, true, true};
constexpr FloatFormat kE5M2{5, 2, 15, 0x7B, true, false, true};
constexpr FloatFormat kE5M2FNUZ{5, 2, 16, 0x7F, false, true, true};
constexpr FloatFormat kE2M1{2, 1, 1, 0x7, false, false, false};

const FloatFormat* FormatOf(DataType type) {
  switch (type) {
    case DT_FLOAT8_E4M3FN:
      return &kE4M3FN;
    case DT_FLOAT8_E4M3FNUZ:
      return &kE4M3FNUZ;
    case DT_FLOAT8_E5M2:
      return &kE5M2;
    case DT_FLOAT8_E5M2FNUZ:
      return &kE5M2FNUZ;
    case DT_FLOAT4_E2M1:
      return &kE2M1;
    default:
      return nullptr;
  }
}

constexpr uint32_t kE8M0Nan = 0xFF;
constexpr int kE8M0Bias = 127;

double FormatValue(const FloatFormat& f, uint32_t code) {
  const int width = 1 + f.exp_bits + f.mant_bits;
  const uint32_t sign_bit = 1U << (width - 1);
  if (f.unsigned_zero_nan && code == sign_bit) return std::numeric_limits<double>::quiet_NaN();
  const uint32_t mag = code & (sign_bit - 1);
  const double sign = (code & sign_bit) != 0 ? -1.0 : 1.0;
  if (mag > f.max_code) {
    if (f.has_inf && mag == f.max_code + 1) return sign * std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  const auto exp = static_cast<int>(mag >> f.mant_bits);
  const auto mant = static_cast<int>(mag & ((1U << f.mant_bits) - 1U));
  if (exp == 0) return sign * std::ldexp(mant, 1 - f.bias - f.mant_bits);
  return sign * std::ldexp(mant + (1 << f.mant_bits), exp - f.bias - f.mant_bits);
}

/// `q` rounded to an integer, ties to even.
double RoundHalfEven(double q) { return std::nearbyint(q); }

uint32_t FormatCode(const FloatFormat& f, double value, bool saturate) {
  const int width = 1 + f.exp_bits + f.mant_bits;
  const uint32_t sign_bit = 1U << (width - 1);
  const uint32_t sign = std::signbit(value) ? sign_bit : 0U;
  const uint32_t nan_code = f.unsigned_zero_nan ? sign_bit
                            : f.has_nan         ? (sign | (sign_bit - 1U))
                                                : sign_bit;
  if (std::isnan(value)) return nan_code;
  const uint32_t overflow = saturate || !f.has_nan ? (sign | f.max_code)
                            : f.has_inf            ? (sign | (f.max_code + 1))
                                                   : nan_code;
  const double abs = std::fabs(value);
  if (std::isinf(abs)) return overflow;
  const int min_exp = 1 - f.bias;  // exponent of the smallest normal
  int e = std::ilogb(abs);
  if (abs == 0.0 || e < min_exp) e = min_exp;  // zero and subnormals share the normal spacing
  if (e > f.bias + 2) return overflow;         // far beyond the largest finite value
  // In units of the last mantissa place at exponent e; a carry past 2^(m+1) adds one to the
  // exponent field, which the code's arithmetic does by itself.
  const double q = RoundHalfEven(std::ldexp(abs, f.mant_bits - e));
  const auto units = static_cast<uint32_t>(q);
  const uint32_t lead = 1U << f.mant_bits;
  uint32_t mag = units < lead ? units  // a subnormal (exponent field 0)
                              : (static_cast<uint32_t>(e - min_exp) << f.mant_bits) + units;
  if (mag > f.max_code) return overflow;
  if (mag == 0 && f.unsigned_zero_nan) return 0;
  return sign | mag;
}

uint32_t E8M0Code(double value, const NarrowConversion& how) {
  // The reference rounds the float32 value's exponent field, ignoring its sign.
  const auto bits = std::bit_cast<uint32_t>(static_cast<float>(value));
  uint32_t exponent = (bits >> 23) & 0xFFU;
  if (exponent == 0xFFU) return kE8M0Nan;
  bool round_up = false;
  switch (how.e8m0) {
    case E8M0Rounding::kUp:
      round_up = (bits & 0x7FFFFFU) != 0;
      break;
    case E8M0Rounding::kNearest: {
      const bool guard = (bits & 0x400000U) != 0;
      const bool round = (bits & 0x200000U) != 0;
      const bool sticky = (bits & 0x1FFFFFU) != 0;
      round_up = guard && (round || sticky || exponent > 0);
      break;
    }
    case E8M0Rounding::kDown:
      break;
  }
  if (round_up && !(how.saturate && exponent == 0xFEU)) ++exponent;
  return exponent & 0xFFU;
}

}  // namespace

bool IsNarrowType(DataType type) { return NarrowBits(type) != 0; }

bool IsNarrowIntegerType(DataType type) {
  return type == DT_INT4 || type == DT_UINT4 || type == DT_INT2 || type == DT_UINT2;
}

int NarrowBits(DataType type) {
  switch (type) {
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E4M3FNUZ:
    case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E5M2FNUZ:
    case DT_FLOAT8_E8M0:
      return 8;
    case DT_FLOAT4_E2M1:
    case DT_INT4:
    case DT_UINT4:
      return 4;
    case DT_INT2:
    case DT_UINT2:
      return 2;
    default:
      return 0;
  }
}

double NarrowFloatValue(DataType type, uint32_t code) {
  if (type == DT_FLOAT8_E8M0) {
    code &= 0xFFU;
    if (code == kE8M0Nan) return std::numeric_limits<double>::quiet_NaN();
    return std::ldexp(1.0, static_cast<int>(code) - kE8M0Bias);
  }
  const FloatFormat* f = FormatOf(type);
  if (f == nullptr) return static_cast<double>(NarrowIntegerValue(type, code));
  return FormatValue(*f, code & ((1U << (1 + f->exp_bits + f->mant_bits)) - 1U));
}

int64_t NarrowIntegerValue(DataType type, uint32_t code) {
  const int bits = NarrowBits(type);
  if (bits == 0) return 0;
  const uint32_t mask = bits >= 32 ? ~0U : (1U << bits) - 1U;
  const int64_t value = code & mask;
  const bool is_signed = type == DT_INT4 || type == DT_INT2;
  if (is_signed && value >= (int64_t{1} << (bits - 1))) return value - (int64_t{1} << bits);
  return value;
}

uint32_t NarrowCodeFromDouble(DataType type, double value, const NarrowConversion& how) {
  if (type == DT_FLOAT8_E8M0) return E8M0Code(value, how);
  if (const FloatFormat* f = FormatOf(type)) {
    // FLOAT4_E2M1 has neither infinity nor NaN: ONNX's Cast always saturates it.
    return FormatCode(*f, value, how.saturate || type == DT_FLOAT4_E2M1);
  }
  if (std::isnan(value)) return 0;
  constexpr double kLimit = 9223372036854775807.0;  // 2^63, the first double past int64
  int64_t whole = std::numeric_limits<int64_t>::max();
  if (value < -kLimit) {
    whole = std::numeric_limits<int64_t>::min();
  } else if (value < kLimit) {
    whole = static_cast<int64_t>(value);  // truncates towards zero
  }
  return NarrowCodeFromInteger(type, whole);
}

uint32_t NarrowCodeFromInteger(DataType type, int64_t value) {
  const int bits = NarrowBits(type);
  if (bits == 0) return 0;
  return static_cast<uint32_t>(static_cast<uint64_t>(value) & ((uint64_t{1} << bits) - 1U));
}

}  // namespace ge

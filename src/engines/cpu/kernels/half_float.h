// IEEE binary16 (DT_FLOAT16) and bfloat16 (DT_BF16) element types for the CPU kernels: storage
// structs and their conversions to and from float/double (round to nearest even, NaN and Inf
// kept). Kernels compute on these in float, as numpy does for float16.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ge::host_cpu {

/// An IEEE binary16 value (1 sign, 5 exponent, 10 mantissa bits), as stored.
struct Float16 {
  uint16_t bits = 0;
};
/// A bfloat16 value (the upper half of a float: 1 sign, 8 exponent, 7 mantissa bits), as stored.
struct BFloat16 {
  uint16_t bits = 0;
};

/// Rounds `d` to the nearest value of a binary format with `kExpBits` exponent and `kMantBits`
/// mantissa bits (ties to even; overflow to ±Inf; NaN to a quiet NaN) and returns its bits.
/// Rounding once from double keeps double → float16 free of double rounding.
template <int kExpBits, int kMantBits>
uint16_t NarrowFloatBits(double d) {
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr int kMinExp = 1 - kBias;  // exponent of the smallest normal
  constexpr uint32_t kInf = ((1U << kExpBits) - 1) << kMantBits;
  constexpr uint64_t kDoubleMant = (uint64_t{1} << 52) - 1;
  const auto b = std::bit_cast<uint64_t>(d);
  const auto sign = static_cast<uint16_t>((b >> 63) << (kExpBits + kMantBits));
  const uint64_t abs = b & ~(uint64_t{1} << 63);
  const int exp_field = static_cast<int>(abs >> 52);
  if (exp_field == 0x7FF) {
    const uint32_t nan_bit = (abs & kDoubleMant) != 0 ? 1U << (kMantBits - 1) : 0U;
    return static_cast<uint16_t>(sign | kInf | nan_bit);
  }
  if (exp_field == 0) return sign;  // zero, or a double subnormal far below the narrow range
  const int e = exp_field - 1023;
  if (e > kBias) return static_cast<uint16_t>(sign | kInf);
  const uint64_t m = (abs & kDoubleMant) | (uint64_t{1} << 52);
  int shift = 52 - kMantBits;
  if (e < kMinExp) shift += kMinExp - e;  // a subnormal result keeps fewer bits
  if (shift > 54) return sign;            // below half the smallest subnormal
  uint64_t q = m >> shift;
  const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rem > half || (rem == half && (q & 1) != 0)) ++q;
  // A normal result adds the biased exponent; a carry out of the mantissa moves it up by one.
  uint64_t bits = e < kMinExp ? q
                              : (static_cast<uint64_t>(e + kBias) << kMantBits) + q -
                                    (uint64_t{1} << kMantBits);
  if (bits >= kInf) bits = kInf;
  return static_cast<uint16_t>(sign | bits);
}

inline Float16 ToFloat16(double d) { return Float16{NarrowFloatBits<5, 10>(d)}; }
inline BFloat16 ToBFloat16(double d) { return BFloat16{NarrowFloatBits<8, 7>(d)}; }

inline float ToFloat(Float16 h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000U) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1FU;
  const uint32_t mant = h.bits & 0x3FFU;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24, exact in float
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign != 0 ? -v : v;
  }
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000U | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}
inline float ToFloat(BFloat16 b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b.bits) << 16);
}

/// True for the 16-bit float storage types.
template <typename T>
inline constexpr bool kIsHalfFloat = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

/// T from a double: the 16-bit floats round to nearest even, other types static_cast.
template <typename T>
T FromDouble(double d) {
  if constexpr (std::is_same_v<T, Float16>) {
    return ToFloat16(d);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return ToBFloat16(d);
  } else {
    return static_cast<T>(d);
  }
}

}  // namespace ge::host_cpu

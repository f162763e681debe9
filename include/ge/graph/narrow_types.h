// Values of the element types that have no C++ type: the 8-bit floats (FLOAT8_E4M3FN,
// FLOAT8_E4M3FNUZ, FLOAT8_E5M2, FLOAT8_E5M2FNUZ, FLOAT8_E8M0), FLOAT4_E2M1, and the 4- and 2-bit
// integers (INT4, UINT4, INT2, UINT2). An element is held as its code, the bits the format
// defines; a tensor of a sub-byte type packs its codes into bytes from the lowest bits up
// (element 0 in bits 0-3 of byte 0 for a 4-bit type), as ONNX and GE store them.
#pragma once

#include <cstdint>

#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// How a value becomes a FLOAT8_E8M0 (a power of two) when it lies between two: ONNX Cast's
/// round_mode "up" (away from zero), "down" (towards zero) or "nearest" (ties up).
enum class E8M0Rounding { kUp, kDown, kNearest };

/// How a value that does not fit becomes a narrow float. With `saturate`, a finite value beyond
/// the largest and an infinity become the largest finite value of that sign; without it they
/// become infinity where the type has one and NaN where it has not. The integer types wrap
/// (their low bits are kept), as ONNX's Cast does.
struct NarrowConversion {
  bool saturate = true;
  E8M0Rounding e8m0 = E8M0Rounding::kUp;
};

/// True for the types this header converts: FLOAT8_*, FLOAT4_E2M1, INT4, UINT4, INT2, UINT2.
GE_API bool IsNarrowType(DataType type);
/// True for the narrow integer types (INT4, UINT4, INT2, UINT2).
GE_API bool IsNarrowIntegerType(DataType type);
/// The width of one code: 8, 4 or 2 bits; 0 for a type that is not narrow.
GE_API int NarrowBits(DataType type);

/// The value of the code of a narrow float, exactly (NaN for its NaN codes).
GE_API double NarrowFloatValue(DataType type, uint32_t code);
/// The value of the code of a narrow integer, sign-extended for INT4 and INT2.
GE_API int64_t NarrowIntegerValue(DataType type, uint32_t code);
/// The code nearest to `value` in a narrow float type (ties to even; E8M0 as `how` says).
/// A narrow integer type takes `value` truncated towards zero, then wrapped (NaN gives 0).
GE_API uint32_t NarrowCodeFromDouble(DataType type, double value, const NarrowConversion& how = {});
/// The code of an integer in a narrow integer type: its low bits.
GE_API uint32_t NarrowCodeFromInteger(DataType type, int64_t value);

/// Code `index` of a packed tensor of `bits`-wide codes.
inline uint32_t ReadPackedCode(const uint8_t* data, int64_t index, int bits) {
  if (bits == 8) return data[index];
  const int per_byte = 8 / bits;
  const int shift = static_cast<int>(index % per_byte) * bits;
  return (static_cast<uint32_t>(data[index / per_byte]) >> shift) & ((1U << bits) - 1U);
}
/// Stores code `index` of a packed tensor of `bits`-wide codes, keeping the byte's other codes.
inline void WritePackedCode(uint8_t* data, int64_t index, int bits, uint32_t code) {
  if (bits == 8) {
    data[index] = static_cast<uint8_t>(code);
    return;
  }
  const int per_byte = 8 / bits;
  const int shift = static_cast<int>(index % per_byte) * bits;
  const uint32_t mask = ((1U << bits) - 1U) << shift;
  uint8_t& byte = data[index / per_byte];
  byte = static_cast<uint8_t>((byte & ~mask) | ((code << shift) & mask));
}

}  // namespace ge

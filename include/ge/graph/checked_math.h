// Checked int64 arithmetic for every size, index and window computed from a file or an option:
// dims, attributes and counts come from models nobody checked, so a product, a sum or a window
// extent that leaves int64 is an error, never a wrapped value. Shape inference and the kernels
// use the same helpers, so both refuse the same inputs. The bool forms return false on overflow
// and leave `*out` unspecified; the Result forms name what was being computed in their error
// ("kernel_shape 3 with dilations 4611686018427387905 overflows int64"), and callers prefix the
// node.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ge/graph/status.h"

namespace ge::checked {

/// a * b.
inline bool Mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
/// a + b.
inline bool Add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
/// a - b.
inline bool Sub(int64_t a, int64_t b, int64_t* out) { return !__builtin_sub_overflow(a, b, out); }

/// The extent a window of `kernel` taps spaced `dilation` apart covers: dilation * (kernel - 1)
/// + 1. Both must be positive.
inline bool WindowExtent(int64_t kernel, int64_t dilation, int64_t* out) {
  if (kernel <= 0 || dilation <= 0) return false;
  int64_t span = 0;
  return Mul(dilation, kernel - 1, &span) && Add(span, 1, out);
}

/// ceil(a / b) for a >= 0 and b > 0, without forming a + b - 1 (which wraps for large b).
inline int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

namespace detail {
inline Status Overflow(std::string_view what) {
  return ParamInvalid(std::string(what) + " overflows int64");
}
}  // namespace detail

/// a * b, or an error "`what` overflows int64".
inline Result<int64_t> Mul(int64_t a, int64_t b, std::string_view what) {
  int64_t out = 0;
  if (!Mul(a, b, &out)) return detail::Overflow(what);
  return out;
}
/// a + b, or an error "`what` overflows int64".
inline Result<int64_t> Add(int64_t a, int64_t b, std::string_view what) {
  int64_t out = 0;
  if (!Add(a, b, &out)) return detail::Overflow(what);
  return out;
}
/// a - b, or an error "`what` overflows int64".
inline Result<int64_t> Sub(int64_t a, int64_t b, std::string_view what) {
  int64_t out = 0;
  if (!Sub(a, b, &out)) return detail::Overflow(what);
  return out;
}
/// The product of `dims` (all >= 0), or an error "`what` overflows int64". 1 for no dims.
template <typename Dims>
inline Result<int64_t> Product(const Dims& dims, std::string_view what) {
  int64_t out = 1;
  for (const auto d : dims) {
    if (!Mul(out, static_cast<int64_t>(d), &out)) return detail::Overflow(what);
  }
  return out;
}
/// The window extent, or an error naming both attributes: "kernel_shape 3 with dilations
/// 4611686018427387905 overflows int64" (or "... must be positive").
inline Result<int64_t> WindowExtent(int64_t kernel, int64_t dilation) {
  if (kernel <= 0 || dilation <= 0) {
    return ParamInvalid("kernel_shape " + std::to_string(kernel) + " and dilations " +
                        std::to_string(dilation) + " must be positive");
  }
  int64_t out = 0;
  if (!WindowExtent(kernel, dilation, &out)) {
    return detail::Overflow("kernel_shape " + std::to_string(kernel) + " with dilations " +
                            std::to_string(dilation));
  }
  return out;
}

}  // namespace ge::checked

// Strings read from untrusted files: whether they are UTF-8, how to show them in a message, and
// how to put them in a page.
#pragma once

#include <string>
#include <string_view>

#include "ge/graph/visibility.h"

namespace ge {

/// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF),
/// as protobuf requires of `string` fields and JSON of its strings.
GE_API bool IsValidUtf8(std::string_view text);

/// `text` with control and non-ASCII bytes escaped and long text shortened, for messages about
/// names read from untrusted files.
GE_API std::string Sanitize(std::string_view text);
/// Sanitize(text) in single quotes. Appended into one reserved string: GCC 12 at -O3 warns
/// (-Wrestrict, falsely) on the `"'" + Sanitize(text)` it would otherwise inline into every caller.
inline std::string Quote(std::string_view text) {
  const std::string sanitized = Sanitize(text);
  std::string quoted;
  quoted.reserve(sanitized.size() + 2);
  quoted += '\'';
  quoted += sanitized;
  quoted += '\'';
  return quoted;
}

/// `text` as HTML or XML text or attribute value: & < > " ' as entities.
GE_API std::string EscapeMarkup(std::string_view text);

}  // namespace ge

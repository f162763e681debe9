// Untrusted strings: UTF-8 validation and escaping for messages.
#include "ge/graph/utils/string_utils.h"

#include <cstdint>
#include <cstdio>

namespace ge {

std::string Sanitize(std::string_view text) {
  constexpr size_t kMaxShown = 120;
  std::string out;
  out.reserve(text.size() < kMaxShown ? text.size() : kMaxShown + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= kMaxShown) {
      out += "...(" + std::to_string(text.size()) + " bytes)";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int length = 0;
    uint32_t code = 0;
    uint32_t min = 0;
    if ((c & 0xe0) == 0xc0) {
      length = 2, code = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
      length = 3, code = c & 0x0f, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
      length = 4, code = c & 0x07, min = 0x10000;
    } else {
      return false;
    }
    if (end - p < length) return false;
    for (int i = 1; i < length; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      code = (code << 6) | (p[i] & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    p += length;
  }
  return true;
}

std::string EscapeMarkup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace ge

// AscendString: GE's string type at API boundaries (a std::string underneath).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace ge {

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* name)  // NOLINT(google-explicit-constructor): GE converts implicitly
      : value_(name == nullptr ? "" : name) {}
  AscendString(const char* name, size_t length) : value_(name == nullptr ? "" : name, length) {}

  /// The characters, NUL-terminated; never null.
  const char* GetString() const { return value_.c_str(); }
  size_t GetLength() const { return value_.size(); }
  size_t Hash() const { return std::hash<std::string>()(value_); }

  bool operator<(const AscendString& d) const { return value_ < d.value_; }
  bool operator>(const AscendString& d) const { return value_ > d.value_; }
  bool operator<=(const AscendString& d) const { return value_ <= d.value_; }
  bool operator>=(const AscendString& d) const { return value_ >= d.value_; }
  bool operator==(const AscendString& d) const { return value_ == d.value_; }
  bool operator!=(const AscendString& d) const { return value_ != d.value_; }

 private:
  std::string value_;
};

}  // namespace ge

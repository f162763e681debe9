// Errors as values: Status (a code and a message) and Result<T> (a value or a Status).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "ge/graph/visibility.h"

namespace ge {

/// GE's status codes (docs/ge_compatibility.md, "Status codes and options"), so numbers read the
/// same in logs.
enum class StatusCode : uint32_t {
  kSuccess = 0,
  kFailed = 0xFFFFFFFFu,
  kParamInvalid = 1343225857u,
  kInternalError = 1343225860u,
  kNotChanged = 1343242304u,
  kGraphParamInvalid = 50331649u,
};

/// The result of an operation that can fail. A default Status is success.
class [[nodiscard]] GE_API Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::kSuccess; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// "message" for a failure (with the GE code name in front), "OK" for success.
  std::string ToString() const;

  /// Adds context in front of the message: "context: message".
  Status& Prefix(const std::string& context) &;
  Status&& Prefix(const std::string& context) &&;

 private:
  StatusCode code_ = StatusCode::kSuccess;
  std::string message_;
};

inline Status MakeError(StatusCode code, std::string message) { return {code, std::move(message)}; }
inline Status Failed(std::string message) { return {StatusCode::kFailed, std::move(message)}; }
inline Status ParamInvalid(std::string message) {
  return {StatusCode::kParamInvalid, std::move(message)};
}
inline Status InternalError(std::string message) {
  return {StatusCode::kInternalError, std::move(message)};
}

/// A value of type T, or the Status that says why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : data_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(data_);
  }
  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

/// The Status for the exception being handled (call inside a catch block): out of memory, or an
/// internal error with the exception's message, each naming `where`.
GE_API Status StatusOfCurrentException(const char* where) noexcept;

/// Runs `f`, which returns a Status or a Result, and returns what it returns; an exception it
/// throws becomes a Status naming `where`. The public entry points run their work through it, so
/// no exception reaches a caller of the API.
template <typename F>
auto CatchExceptions(const char* where, F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (...) {
    return StatusOfCurrentException(where);
  }
}

}  // namespace ge

#define GE_STATUS_CONCAT_INNER_(a, b) a##b
#define GE_STATUS_CONCAT_(a, b) GE_STATUS_CONCAT_INNER_(a, b)

/// Returns the Status of `expr` from the enclosing function when it is not OK.
#define GE_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::ge::Status ge_status_ = (expr);        \
    if (!ge_status_.ok()) return ge_status_; \
  } while (false)

/// Evaluates a Result<T> expression; on failure returns its Status, else binds the value.
#define GE_ASSIGN_OR_RETURN(lhs, expr) \
  GE_ASSIGN_OR_RETURN_IMPL_(GE_STATUS_CONCAT_(ge_result_, __LINE__), lhs, expr)
// `lhs` is a declaration (`auto graph`), which parentheses would break, and `tmp` a name.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define GE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

/// Returns a Status with `code` and the streamed-together message when `cond` is false.
#define GE_CHECK_OR_RETURN(cond, code, message)          \
  do {                                                   \
    if (!(cond)) return ::ge::Status((code), (message)); \
  } while (false)

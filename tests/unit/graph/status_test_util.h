// GoogleTest glue for Status and Result: IsOk and HasError show the Status when they fail, and
// Must takes a Result's value where the test expects one (as a graph under construction does).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "ge/graph/status.h"

namespace ge::testing {

/// Success, or a failure that shows the Status.
inline ::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected OK, got " << status.ToString();
}
template <typename T>
::testing::AssertionResult IsOk(const Result<T>& result) {
  return IsOk(result.status());
}

/// Success when `status` failed with `code` and its message contains every one of `needles`.
inline ::testing::AssertionResult HasError(const Status& status, StatusCode code,
                                           std::initializer_list<std::string_view> needles) {
  if (status.ok()) return ::testing::AssertionFailure() << "expected an error, got OK";
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected code " << static_cast<uint32_t>(code) << ", got " << status.ToString();
  }
  for (std::string_view needle : needles) {
    if (status.message().find(needle) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message '" << status.message() << "' does not mention '" << needle << "'";
    }
  }
  return ::testing::AssertionSuccess();
}
template <typename T>
::testing::AssertionResult HasError(const Result<T>& result, StatusCode code,
                                    std::initializer_list<std::string_view> needles) {
  if (result.ok()) return ::testing::AssertionFailure() << "expected an error, got a value";
  return HasError(result.status(), code, needles);
}

/// The value of `result`; a test failure showing the Status (which names the node), and T{},
/// when it holds an error.
template <typename T>
T Must(Result<T> result) {
  if (result.ok()) return std::move(result).value();
  ADD_FAILURE() << result.status().ToString();
  return T{};
}

}  // namespace ge::testing

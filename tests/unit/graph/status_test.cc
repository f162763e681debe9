// Status and Result: an exception thrown under CatchExceptions comes back as a Status naming the
// entry point, so none escapes the API.
#include "ge/graph/status.h"

#include <gtest/gtest.h>

#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

namespace ge {
namespace {

TEST(Status, AnExceptionBecomesAStatusNamingTheEntryPoint) {
  Result<int> from_error = CatchExceptions(
      "Api::Parse", []() -> Result<int> { throw std::out_of_range("vector index 7 of 3"); });
  ASSERT_FALSE(from_error.ok());
  EXPECT_EQ(from_error.status().code(), StatusCode::kInternalError);
  EXPECT_EQ(from_error.status().message(), "Api::Parse: unexpected error: vector index 7 of 3");

  Status from_alloc = CatchExceptions("Api::Load", []() -> Status { throw std::bad_alloc(); });
  EXPECT_EQ(from_alloc.code(), StatusCode::kFailed);
  EXPECT_EQ(from_alloc.message(), "Api::Load: out of memory");

  Status from_other = CatchExceptions("Api::Run", []() -> Status { throw 42; });
  EXPECT_EQ(from_other.message(), "Api::Run: unexpected error of an unknown kind");

  // What a size from a hostile file once caused: a vector longer than max_size().
  Result<size_t> huge = CatchExceptions("Api::Make", []() -> Result<size_t> {
    std::vector<int64_t> v(std::numeric_limits<size_t>::max() / 4);
    return v.size();
  });
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("Api::Make: unexpected error: "), std::string::npos)
      << huge.status().message();

  Result<int> fine = CatchExceptions("Api::Ok", []() -> Result<int> { return 5; });
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ(*fine, 5);
}

}  // namespace
}  // namespace ge

// Status formatting and context.
#include "ge/graph/status.h"

#include <exception>
#include <new>

namespace ge {

namespace {
const char* CodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kSuccess:
      return "SUCCESS";
    case StatusCode::kFailed:
      return "FAILED";
    case StatusCode::kParamInvalid:
      return "PARAM_INVALID";
    case StatusCode::kInternalError:
      return "INTERNAL_ERROR";
    case StatusCode::kNotChanged:
      return "NOT_CHANGED";
    case StatusCode::kGraphParamInvalid:
      return "GRAPH_PARAM_INVALID";
  }
  return "UNKNOWN";
}
}  // namespace

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

Status& Status::Prefix(const std::string& context) & {
  if (!ok()) message_ = context + ": " + message_;
  return *this;
}

Status&& Status::Prefix(const std::string& context) && {
  if (!ok()) message_ = context + ": " + message_;
  return std::move(*this);
}

Status StatusOfCurrentException(const char* where) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Failed(std::string(where) + ": out of memory");
  } catch (const std::exception& e) {
    return InternalError(std::string(where) + ": unexpected error: " + e.what());
  } catch (...) {
    return InternalError(std::string(where) + ": unexpected error of an unknown kind");
  }
}

}  // namespace ge

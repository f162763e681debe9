// The last failure of each thread, for GEGetErrorMsg.
#include <string>

#include "ge/api/ge_error_codes.h"

namespace ge {
namespace {

std::string& LastError() {
  thread_local std::string message;
  return message;
}

}  // namespace

std::string GEGetErrorMsg() { return LastError(); }

AscendString GEGetErrorMsgV2() { return {LastError().c_str()}; }

graphStatus ReportStatus(const Status& status) {
  if (status.ok()) return GRAPH_SUCCESS;
  LastError() = status.message();
  // A bad argument or graph is GE's graph-layer code for it; the others keep their number.
  if (status.code() == StatusCode::kParamInvalid) return GRAPH_PARAM_INVALID;
  return static_cast<graphStatus>(status.code());
}

}  // namespace ge

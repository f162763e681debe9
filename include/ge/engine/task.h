// RunContext: what an engine's builder is given when it generates tasks (TaskDef, what it
// makes, is part of the compiled model).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ge/model/task_def.h"

namespace ge {

/// What task generation knows about the compilation (GE's RunContext, trimmed): the session's
/// options (GE reads them from its thread context; here they are passed in) and the stream.
struct RunContext {
  std::map<std::string, std::string> options;
  int64_t stream_id = 0;
};

}  // namespace ge

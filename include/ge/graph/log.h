// One logger for every layer, the engine plugins and the tools, with GE's levels in GE's order:
// the threshold comes from ASCEND_GLOBAL_LOG_LEVEL, the variable GE's own programs set (0 debug,
// 1 info, 2 warning, 3 error, 4 none; the names DEBUG, INFO, WARNING, ERROR and NONE in any case
// too), and is errors only when it is unset. A tool's flag (gec --log-level) sets the variable as
// well, so that plugins loaded afterwards, which hold their own copy of this code, see it too.
// Failures are Statuses, never log lines: the log says what the library did (an engine loaded,
// a kernel chosen), for a person watching.
#pragma once

#include <string>
#include <string_view>

#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNone = 4 };

/// "debug", "info", "warning", "error", "none" (any case) or "0"-"4".
GE_API Result<LogLevel> ParseLogLevel(std::string_view text);
/// Sets the threshold of this process, and ASCEND_GLOBAL_LOG_LEVEL for plugins loaded later.
GE_API void SetLogThreshold(LogLevel level);
/// True when a line at `level` would be written.
GE_API bool LogEnabled(LogLevel level);
/// Writes "[GE][LEVEL] message" to stderr in one write when `level` is at or above the
/// threshold.
GE_API void Log(LogLevel level, const std::string& message);

}  // namespace ge

// A minimal leveled logger for the engine layer: quiet unless GE_LOG_LEVEL asks for more.
#pragma once

#include <string>

namespace ge::engine_log {

enum class Level : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNone = 4 };

/// Writes "[Verb][Object] message" to stderr when `level` is at or above GE_LOG_LEVEL
/// (DEBUG/INFO/WARNING/ERROR or 0-3; unset → nothing is written).
void Log(Level level, const std::string& message);

}  // namespace ge::engine_log

// The engine layer's logger: GE_LOG_LEVEL read once, lines to stderr.
#include "engine_log.h"

#include <cstdlib>
#include <iostream>
#include <string_view>

namespace ge::engine_log {
namespace {

Level ThresholdFromEnvironment() {
  const char* value = std::getenv("GE_LOG_LEVEL");
  if (value == nullptr) return Level::kNone;
  const std::string_view text(value);
  if (text == "DEBUG" || text == "0") return Level::kDebug;
  if (text == "INFO" || text == "1") return Level::kInfo;
  if (text == "WARNING" || text == "2") return Level::kWarning;
  if (text == "ERROR" || text == "3") return Level::kError;
  return Level::kNone;
}

}  // namespace

void Log(Level level, const std::string& message) {
  static const Level threshold = ThresholdFromEnvironment();
  if (static_cast<int>(level) < static_cast<int>(threshold)) return;
  static constexpr const char* kNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  std::cerr << "[GE][" << kNames[static_cast<int>(level)] << "] " << message << '\n';
}

}  // namespace ge::engine_log

// The logger: see ge/graph/log.h.
#include "ge/graph/log.h"

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace ge {
namespace {

constexpr char kVariable[] = "ASCEND_GLOBAL_LOG_LEVEL";
constexpr const char* kNames[] = {"DEBUG", "INFO", "WARNING", "ERROR", "NONE"};

LogLevel FromEnvironment() {
  const char* value = std::getenv(kVariable);
  if (value == nullptr) return LogLevel::kError;
  Result<LogLevel> level = ParseLogLevel(value);
  return level.ok() ? *level : LogLevel::kError;
}

std::atomic<int>& Threshold() {
  static std::atomic<int> threshold{static_cast<int>(FromEnvironment())};
  return threshold;
}

}  // namespace

Result<LogLevel> ParseLogLevel(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int i = 0; i <= static_cast<int>(LogLevel::kNone); ++i) {
    if (upper == kNames[i] || upper == std::to_string(i)) return static_cast<LogLevel>(i);
  }
  return ParamInvalid("log level '" + std::string(text) +
                      "': expected debug, info, warning, error or none (or 0 to 4)");
}

void SetLogThreshold(LogLevel level) {
  Threshold() = static_cast<int>(level);
  setenv(kVariable, std::to_string(static_cast<int>(level)).c_str(), 1);
}

bool LogEnabled(LogLevel level) {
  return level != LogLevel::kNone && static_cast<int>(level) >= Threshold().load();
}

void Log(LogLevel level, const std::string& message) {
  if (!LogEnabled(level)) return;
  const std::string line =
      std::string("[GE][") + kNames[static_cast<int>(level)] + "] " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace ge

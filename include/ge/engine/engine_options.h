// Options an engine declares: the host lists them (`gec options`), checks given values against
// them before the engine starts, and fills in their defaults, so an engine reads only values
// that fit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

struct EngineOptionDef {
  enum class Type { kBool, kInt, kChoice };
  std::string key;  ///< "openge.<engine-specific name>"
  Type type = Type::kChoice;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  ///< kChoice: the values allowed
  int64_t min = 0;                   ///< kInt: the range allowed
  int64_t max = 0;
};

/// Ok when `value` fits `def`; otherwise an error naming the option, the engine and what the
/// option accepts.
GE_API Status CheckEngineOption(const EngineOptionDef& def, const std::string& value,
                                const std::string& engine);

/// The value of `def` in `options`, or its default when it is not given.
inline std::string EngineOptionValue(const EngineOptionDef& def,
                                     const std::map<std::string, std::string>& options) {
  const auto it = options.find(def.key);
  return it != options.end() ? it->second : def.default_value;
}

}  // namespace ge

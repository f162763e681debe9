// CheckEngineOption: a given value against what the engine declared.
#include "ge/engine/engine_options.h"

#include <charconv>

namespace ge {

Status CheckEngineOption(const EngineOptionDef& def, const std::string& value,
                         const std::string& engine) {
  const std::string who =
      "option " + def.key + "='" + value + "' (an option of engine " + engine + ")";
  switch (def.type) {
    case EngineOptionDef::Type::kBool:
      if (value == "1" || value == "true" || value == "True" || value == "0" || value == "false" ||
          value == "False") {
        return Status::Ok();
      }
      return ParamInvalid(who + ": expected 1/true or 0/false");
    case EngineOptionDef::Type::kInt: {
      int64_t parsed = 0;
      const char* end = value.data() + value.size();
      const auto [ptr, ec] = std::from_chars(value.data(), end, parsed);
      if (!value.empty() && ec == std::errc() && ptr == end && parsed >= def.min &&
          parsed <= def.max) {
        return Status::Ok();
      }
      return ParamInvalid(who + ": expected an integer in [" + std::to_string(def.min) + ", " +
                          std::to_string(def.max) + "]");
    }
    case EngineOptionDef::Type::kChoice: {
      std::string allowed;
      for (size_t i = 0; i < def.choices.size(); ++i) {
        if (def.choices[i] == value) return Status::Ok();
        const char* sep = i == 0 ? "" : (i + 1 == def.choices.size() ? " or " : ", ");
        allowed += sep + ("'" + def.choices[i] + "'");
      }
      return ParamInvalid(who + ": expected " + allowed);
    }
  }
  return InternalError(who + ": the option has no known type");
}

}  // namespace ge

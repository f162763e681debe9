// Parsing of engine_conf.json into EngineConfig entries (see ge/engine/engine_config.h).
#include "ge/engine/engine_config.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ge {
namespace {

using Json = nlohmann::json;

constexpr char kEnginesKey[] = "engines";
constexpr const char* kStringFields[] = {"name", "kernel_lib", "library"};
constexpr const char* kFlagFields[] = {"independent", "attach", "skip_assign_stream", "required"};

Status ConfigError(const std::string& source, const std::string& where, const std::string& what) {
  return ParamInvalid("engine config '" + source + "': " + where + ": " + what);
}

bool* FlagField(EngineConfig& config, const std::string& key) {
  if (key == "independent") return &config.independent;
  if (key == "attach") return &config.attach;
  if (key == "skip_assign_stream") return &config.skip_assign_stream;
  if (key == "required") return &config.required;
  return nullptr;
}

std::string* StringField(EngineConfig& config, const std::string& key) {
  if (key == "name") return &config.name;
  if (key == "kernel_lib") return &config.kernel_lib;
  if (key == "library") return &config.library;
  return nullptr;
}

std::string KnownKeys() {
  std::string keys;
  for (const char* key : kStringFields) keys += std::string(keys.empty() ? "" : ", ") + key;
  for (const char* key : kFlagFields) keys += std::string(", ") + key;
  return keys;
}

Result<EngineConfig> ParseEntry(const Json& entry, size_t index, const std::string& source) {
  std::string where = "engines[" + std::to_string(index) + "]";
  if (!entry.is_object()) return ConfigError(source, where, "must be an object");
  if (const auto it = entry.find("name"); it != entry.end() && it->is_string()) {
    where += " ('" + it->get<std::string>() + "')";
  }
  EngineConfig config;
  for (const auto& [key, value] : entry.items()) {
    if (std::string* text = StringField(config, key)) {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return ConfigError(source, where, "field '" + key + "' must be a non-empty string");
      }
      *text = value.get<std::string>();
    } else if (bool* flag = FlagField(config, key)) {
      if (!value.is_boolean()) {
        return ConfigError(source, where, "flag '" + key + "' must be true or false");
      }
      *flag = value.get<bool>();
    } else {
      return ConfigError(source, where,
                         "unknown field '" + key + "' (known fields: " + KnownKeys() + ")");
    }
  }
  for (const char* key : kStringFields) {
    if (StringField(config, key)->empty()) {
      return ConfigError(source, where, std::string("missing required field '") + key + "'");
    }
  }
  return config;
}

}  // namespace

Result<std::vector<EngineConfig>> ParseEngineConfig(std::string_view text,
                                                    const std::string& source) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    return ConfigError(source, "not valid JSON", e.what());
  }
  if (!root.is_object()) return ConfigError(source, "top level", "must be a JSON object");
  for (const auto& [key, value] : root.items()) {
    if (key != kEnginesKey) {
      return ConfigError(source, "top level",
                         "unknown field '" + key + "' (expected only '" + kEnginesKey + "')");
    }
  }
  const auto engines = root.find(kEnginesKey);
  if (engines == root.end()) {
    return ConfigError(source, "top level", std::string("missing field '") + kEnginesKey + "'");
  }
  if (!engines->is_array()) {
    return ConfigError(source, kEnginesKey, "must be an array of engine objects");
  }
  std::vector<EngineConfig> configs;
  std::set<std::string> names;
  std::set<std::string> kernel_libs;
  for (size_t i = 0; i < engines->size(); ++i) {
    GE_ASSIGN_OR_RETURN(EngineConfig config, ParseEntry((*engines)[i], i, source));
    const std::string where = "engines[" + std::to_string(i) + "] ('" + config.name + "')";
    if (!names.insert(config.name).second) {
      return ConfigError(source, where, "field 'name': duplicate engine '" + config.name + "'");
    }
    if (!kernel_libs.insert(config.kernel_lib).second) {
      return ConfigError(source, where,
                         "field 'kernel_lib': kernel library '" + config.kernel_lib +
                             "' is already used by another engine");
    }
    configs.push_back(std::move(config));
  }
  return configs;
}

Result<std::vector<EngineConfig>> LoadEngineConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return ParamInvalid("engine config '" + path +
                        "': cannot open the file (set the option ge.engineConfPath or "
                        "ge.enginePluginPath to where engine_conf.json is)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseEngineConfig(text.str(), path);
}

}  // namespace ge

#include "build_options.h"

#include <set>

#include "ge/compiler/compile_options.h"

namespace ge::session {

Options FromAscend(const std::map<AscendString, AscendString>& options) {
  Options out;
  for (const auto& [key, value] : options) out[key.GetString()] = value.GetString();
  return out;
}

Options CompilerOptions(const Options& base, const Options& over) {
  static const std::map<std::string, std::string> kRenamed = {{"input_shape", kOptInputShape}};
  static const std::set<std::string> kNoEffect = {"soc_version", "log"};
  Options merged = base;
  for (const auto& [key, value] : over) merged[key] = value;
  Options out;
  for (const auto& [key, value] : merged) {
    if (kNoEffect.count(key) != 0) continue;
    auto renamed = kRenamed.find(key);
    out[renamed == kRenamed.end() ? key : renamed->second] = value;
  }
  return out;
}

Options RuntimeOptionsOf(const Options& options) {
  Options out;
  for (const char* key : {kOptEnginePluginPath, kOptEngineConfPath, kOptOpsProtoLibPath}) {
    if (auto it = options.find(key); it != options.end()) out[key] = it->second;
  }
  return out;
}

}  // namespace ge::session

// GraphDumper: the DUMP_GE_GRAPH / DUMP_GRAPH_PATH switch that dumps a graph after a stage.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge {

namespace {

constexpr char kDumpLevelEnv[] = "DUMP_GE_GRAPH";
constexpr char kDumpPathEnv[] = "DUMP_GRAPH_PATH";

std::atomic<uint32_t> g_dump_count{0};

std::string FileStem(uint32_t number, std::string_view stage) {
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%04u_", number);
  std::string stem = prefix;
  for (char c : stage) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '.' || c == '-';
    stem += keep ? c : '_';
  }
  if (stage.empty()) stem += "stage";
  return stem;
}

}  // namespace

Result<DumpConfig> GraphDumper::ConfigFromEnv() {
  DumpConfig config;
  const char* level = std::getenv(kDumpLevelEnv);
  const std::string value = level == nullptr ? "" : level;
  if (value.empty() || value == "0") {
    config.level = DumpLevel::kOff;
  } else if (value == "1") {
    config.level = DumpLevel::kFull;
  } else if (value == "2") {
    config.level = DumpLevel::kNoWeights;
  } else if (value == "3") {
    config.level = DumpLevel::kStructure;
  } else {
    return ParamInvalid(std::string(kDumpLevelEnv) + "='" + value +
                        "' is not a dump level: use 1 (full), 2 (without weight bytes) or 3 (no "
                        "attributes), or unset it (or 0) to turn dumping off");
  }
  const char* path = std::getenv(kDumpPathEnv);
  if (path != nullptr && *path != '\0') config.directory = path;
  return config;
}

Result<std::vector<std::string>> GraphDumper::Dump(const ComputeGraph& graph,
                                                   std::string_view stage_name,
                                                   const DumpConfig& config) {
  std::vector<std::string> written;
  if (config.level == DumpLevel::kOff) return written;
  const std::string where =
      "dump graph '" + graph.GetName() + "' after stage '" + std::string(stage_name) + "'";
  std::error_code error;
  std::filesystem::create_directories(config.directory, error);
  if (error) {
    return Failed(where + ": cannot create directory '" + config.directory + "' (set " +
                  kDumpPathEnv + " to a writable directory): " + error.message());
  }
  SerializeOptions options;
  options.with_weight_data = config.level == DumpLevel::kFull;
  options.with_attributes = config.level != DumpLevel::kStructure;
  Result<std::string> text = ModelSerialize::Serialize(graph, SerializeFormat::kText, options);
  if (!text.ok()) return Status(text.status()).Prefix(where);

  const std::filesystem::path base =
      std::filesystem::path(config.directory) / FileStem(g_dump_count++, stage_name);
  for (const auto& [extension, content] :
       {std::pair<std::string, std::string>{".pbtxt", std::move(text).value()},
        std::pair<std::string, std::string>{".dot", GraphDump::ToDot(graph)}}) {
    const std::string path = base.string() + extension;
    Status status = GraphDump::WriteFile(path, content);
    if (!status.ok()) return std::move(status).Prefix(where);
    written.push_back(path);
  }
  return written;
}

Status GraphDumper::MaybeDump(const ComputeGraph& graph, std::string_view stage_name) {
  Result<DumpConfig> config = ConfigFromEnv();
  if (!config.ok()) return config.status();
  return Dump(graph, stage_name, config.value()).status();
}

void GraphUtils::DumpGEGraph(const ComputeGraphPtr& graph, const std::string& suffix,
                             bool is_always_dump, const std::string& user_graph_name) {
  if (graph == nullptr) return;
  Result<DumpConfig> config = GraphDumper::ConfigFromEnv();
  Status status = config.status();
  if (status.ok()) {
    if (config->level == DumpLevel::kOff && is_always_dump) config->level = DumpLevel::kFull;
    if (config->level == DumpLevel::kOff) return;
    if (user_graph_name.empty()) {
      status = GraphDumper::Dump(*graph, suffix, *config).status();
    } else {
      SerializeOptions options;
      options.with_weight_data = config->level == DumpLevel::kFull;
      options.with_attributes = config->level != DumpLevel::kStructure;
      status = ModelSerialize::SaveToFile(*graph, user_graph_name, SerializeFormat::kText, options);
    }
  }
  if (!status.ok()) std::fprintf(stderr, "DumpGEGraph: %s\n", status.message().c_str());
}

}  // namespace ge

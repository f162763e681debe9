// Building a ge::Graph into an offline model in GE's spelling: aclgrphBuildInitialize, then
// aclgrphBuildModel (the compiler's whole pipeline, to a .om in memory) and aclgrphSaveModel,
// then aclgrphBuildFinalize. Options are GE's: "input_shape" and the compile options of
// ge/compiler/compile_options.h ("ge.topoSortingMode", "openge.disablePasses", …); "soc_version"
// and "log" are accepted and have no effect (the target is the host CPU, the log level comes from
// ASCEND_GLOBAL_LOG_LEVEL, ge/graph/log.h). Any other key is refused with the name of the closest
// known option.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ge/api/ascend_string.h"
#include "ge/api/ge_error_codes.h"
#include "ge/api/graph.h"
#include "ge/graph/visibility.h"

namespace ge {

/// A compiled model (the bytes of a .om file).
struct ModelBufferData {
  std::shared_ptr<uint8_t> data = nullptr;
  uint64_t length = 0;
};

/// Options every following aclgrphBuildModel starts from (its own options win).
GE_API graphStatus
aclgrphBuildInitialize(const std::map<AscendString, AscendString>& global_options);
GE_API graphStatus aclgrphBuildInitialize(const std::map<std::string, std::string>& global_options);
GE_API void aclgrphBuildFinalize();

/// Compiles `graph` (verification, shape inference, the pass pipeline, placement, memory plan,
/// tasks) and serializes the result into `model`. A failure names the stage, pass and operator.
GE_API graphStatus aclgrphBuildModel(const Graph& graph,
                                     const std::map<AscendString, AscendString>& build_options,
                                     ModelBufferData& model);
GE_API graphStatus aclgrphBuildModel(const Graph& graph,
                                     const std::map<std::string, std::string>& build_options,
                                     ModelBufferData& model);

/// Writes `model` to `output_file`, with ".om" added when the name does not end in it (as GE
/// does). The file runs with `gec run` and ge::LoadedModel::LoadFromFile.
GE_API graphStatus aclgrphSaveModel(const char* output_file, const ModelBufferData& model);
GE_API graphStatus aclgrphSaveModel(const std::string& output_file, const ModelBufferData& model);

}  // namespace ge

// EngineConfig: the engines to load, in priority order, and their placement flags, read from an
// engine_conf.json file in the shape of GE's.
//
// The file is a JSON object with one key, "engines": an array in priority order (the first
// engine whose store supports a node gets it). Each entry:
//
//   {
//     "name": "DNN_VM_GE_LOCAL",                 // engine name (required, unique)
//     "kernel_lib": "DNN_VM_GE_LOCAL_OP_STORE",  // store / builder name (required, unique)
//     "library": "libge_local_engine.so",        // file name in the plugin directory, or an
//                                                // absolute path (required)
//     "independent": false,         // gets streams of its own (GE's "independent")
//     "attach": true,               // attaches to its neighbours' subgraphs (GE's "attach")
//     "skip_assign_stream": true,   // takes its neighbours' stream (GE's "skip_assign_stream")
//     "required": true              // a missing library is an error; when false (the default)
//                                   // the engine is skipped with a logged note
//   }
//
// Flags are optional booleans (default false). Any other key is an error, so a typo never
// silently changes placement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/status.h"

namespace ge {

struct EngineConfig {
  std::string name;
  std::string kernel_lib;
  std::string library;
  bool independent = false;
  bool attach = false;
  bool skip_assign_stream = false;
  bool required = false;

  bool operator==(const EngineConfig&) const = default;
};

/// Parses engine_conf.json text. `source` names the file in error messages. Errors (not JSON,
/// a missing or mistyped field, an unknown key, a duplicate engine or kernel library) name the
/// source, the engine entry and the field.
Result<std::vector<EngineConfig>> ParseEngineConfig(std::string_view text,
                                                    const std::string& source);

/// Reads and parses the file at `path`.
Result<std::vector<EngineConfig>> LoadEngineConfigFile(const std::string& path);

}  // namespace ge

// What the runtime tests share: the options that load the build tree's engine plugins.
#pragma once

#include "ge/runtime/model.h"

namespace ge::testing {

/// Runtime options that find the engines built beside the tests (GE_TEST_ENGINE_DIR).
inline RuntimeOptions EngineOptions() {
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  return options;
}

}  // namespace ge::testing

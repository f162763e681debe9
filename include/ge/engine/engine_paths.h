// Where engine plugins are found.
#pragma once

#include <string>

#include "ge/graph/visibility.h"

namespace ge {

/// The directory the engine plugins and engine_conf.json are read from when the option
/// ge.enginePluginPath is not given: the install next to the OpenGE library (so a prefix works
/// wherever it is put), else the install directory chosen at build time, else the build tree's.
GE_API std::string DefaultEnginePluginDir();

}  // namespace ge

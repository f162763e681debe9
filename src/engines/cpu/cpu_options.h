// The options the CPU engine declares (GetEngineOptions): the host lists them, checks given
// values against them and the engine reads them with EngineOptionValue.
#pragma once

#include <vector>

#include "ge/engine/engine_options.h"

namespace ge::host_cpu {

/// "blocked" (convolution chains in NC1HWC0) or "plain" (every tensor stays NCHW).
const EngineOptionDef& CpuLayoutOption();
/// "packed" (weights in the layout oneDNN reads) or "plain" (the framework's layout).
const EngineOptionDef& CpuWeightLayoutOption();
/// "auto" (Winograd where it applies) or "direct".
const EngineOptionDef& CpuConvAlgorithmOption();

/// All of them, in the order `gec options` lists them.
std::vector<EngineOptionDef> CpuEngineOptions();

}  // namespace ge::host_cpu

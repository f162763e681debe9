// The host's operator traits, as the CPU engine plugin sees them: the plugin has no registry of
// its own, so the host hands it a lookup at load (SetOpTraitsLookup) and every part of the
// engine (placement, layout planner, cost model) reads the prototypes' traits through it.
#pragma once

#include <string>

#include "ge/ops/op_traits.h"

namespace ge::host_cpu {

/// The traits of `type` (default traits before the host gave a lookup).
OpTraits TraitsOf(const std::string& type);

/// Sets the lookup TraitsOf asks.
void SetTraitsLookup(OpTraitsLookup lookup);

}  // namespace ge::host_cpu

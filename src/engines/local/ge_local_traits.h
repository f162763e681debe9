// The host's operator traits, as GE Local reads them (views, pass-throughs, which pass removes a
// type). The plugin carries its own copy of the IR and no registry: the host hands it a lookup
// before Initialize.
#pragma once

#include <string>

#include "ge/ops/op_traits.h"

namespace ge::ge_local {

void SetTraitsLookup(OpTraitsLookup lookup);
/// The traits of `type`; none (a plain operator) when the host gave no lookup.
OpTraits TraitsOf(const std::string& type);

}  // namespace ge::ge_local

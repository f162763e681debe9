// The host's operator traits for the CPU engine: see cpu_traits.h.
#include "cpu_traits.h"

#include <utility>

namespace ge::host_cpu {
namespace {

OpTraitsLookup& Lookup() {
  static OpTraitsLookup lookup;
  return lookup;
}

}  // namespace

OpTraits TraitsOf(const std::string& type) {
  const OpTraitsLookup& lookup = Lookup();
  return lookup ? lookup(type) : OpTraits{};
}

void SetTraitsLookup(OpTraitsLookup lookup) { Lookup() = std::move(lookup); }

}  // namespace ge::host_cpu

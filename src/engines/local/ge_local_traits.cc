#include "ge_local_traits.h"

#include <utility>

namespace ge::ge_local {
namespace {

OpTraitsLookup& Lookup() {
  static OpTraitsLookup lookup;
  return lookup;
}

}  // namespace

void SetTraitsLookup(OpTraitsLookup lookup) { Lookup() = std::move(lookup); }

OpTraits TraitsOf(const std::string& type) {
  const OpTraitsLookup& lookup = Lookup();
  return lookup ? lookup(type) : OpTraits{};
}

}  // namespace ge::ge_local

// A libFuzzer executable: OPENGE_FUZZ_TARGET names its target in fuzz_targets.h.
#include <cstddef>
#include <cstdint>

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ge::fuzz::Target target = ge::fuzz::FindTarget(OPENGE_FUZZ_TARGET);
  (void)target({reinterpret_cast<const char*>(data), size});
  return 0;
}

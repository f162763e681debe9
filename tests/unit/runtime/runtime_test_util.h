// What the runtime tests share: the options that load the build tree's engine plugins.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "ge/runtime/loaded_model.h"

namespace ge::testing {

/// Runtime options that find the engines built beside the tests (GE_TEST_ENGINE_DIR).
inline RuntimeOptions EngineOptions() {
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  return options;
}

/// True when oneDNN runs its AVX-512 kernels on this machine. Its convolutions blocked by 16
/// channels (NC1HWC0 with C0 = 16), Winograd and packed deconvolution filters exist only there;
/// on an AVX2 machine the CPU engine's cost-driven layout choices keep those tensors plain, and
/// the layout tests check that instead.
inline bool HostHasAvx512() {
  return static_cast<int>(dnnl::get_effective_cpu_isa()) >=
         static_cast<int>(dnnl::cpu_isa::avx512_core);
}

}  // namespace ge::testing

// Kernels of ops the fusion pass creates (filled in by issue 11's work).
#include "kernel_util.h"

namespace ge::host_cpu {

void RegisterAttentionKernels(KernelTable& t) { (void)t; }

}  // namespace ge::host_cpu

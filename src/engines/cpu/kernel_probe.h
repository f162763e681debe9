// Compile-time questions to the CPU engine's kernels: the engine's graph optimizers prepare a
// node's kernel as the runtime will load it, to learn what oneDNN chooses for it.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "kernels/cpu_kernel.h"

namespace ge::host_cpu {

/// True when every tensor of the graph has a static shape and it has no subgraphs. Only such
/// graphs may get engine-private layouts: the dynamic executor infers shapes again at run time,
/// through the prototypes, in the framework's layouts.
bool AllShapesStatic(const ComputeGraph& graph);

/// A kernel prepared at compile time, with the Const values it may read in place.
struct ProbedKernel {
  std::vector<std::unique_ptr<GeTensor>> consts;  // declared first: outlives the kernel
  std::unique_ptr<CpuKernel> kernel;
};

/// Prepares `node`'s kernel as the runtime would (every Const input's value, the threads of
/// kAttrTaskThreads when the compiler wrote them, else one) but
/// without log lines (KernelSpec::probe). `inputs` and `outputs` replace the node's descs at
/// those indices (a layout being considered). An error when the engine has no kernel for the
/// node or Prepare refuses it.
/// With `pack_weights` false the kernel only answers (its implementation, its layouts) and its
/// Const weights are not packed (KernelSpec::pack_weights): it must not run. With
/// `released` set, the caller is the last reader of the Const weights: the kernel may release
/// their pages as it packs them (KernelSpec::weights_released), and `*released` tells whether it
/// did, on failure too.
Result<ProbedKernel> ProbeKernel(const Node& node,
                                 const std::map<size_t, GeTensorDesc>& inputs = {},
                                 const std::map<size_t, GeTensorDesc>& outputs = {},
                                 bool pack_weights = true, bool* released = nullptr);

}  // namespace ge::host_cpu

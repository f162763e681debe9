// Running a float kernel on float16 / bfloat16 tensors: the kernel computes in float on widened
// copies and its results are rounded back, decided per kernel when the model loads.
#pragma once

#include <memory>
#include <string>

#include "cpu_kernel.h"

namespace ge::host_cpu {

/// True when a kernel of `type` reads and writes float16 / bfloat16 tensors as they are: it
/// computes on them itself (the elementwise kernels, which widen internally) or its dtype is part
/// of its meaning (Cast). Every other kernel meeting a 16-bit float tensor runs widened.
bool HandlesHalfFloats(const std::string& type);

/// True when the spec has a float16 / bfloat16 input or output.
bool HasHalfFloatTensor(const KernelSpec& spec);

/// `inner` behind a kernel that presents it every float16 / bfloat16 input, output and Const
/// weight as float (weights widened once, at Prepare; activations at every run, into the
/// workspace when the shapes are static) and rounds its float results back to the 16-bit type
/// (nearest even), as a framework computing those types in float does.
std::unique_ptr<CpuKernel> MakeWidenedKernel(std::unique_ptr<CpuKernel> inner);

}  // namespace ge::host_cpu

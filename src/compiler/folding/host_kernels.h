// Host kernels: the folds constant folding does without an engine, because they compute nothing:
// the Shape family reads the input descs, views and pass-throughs copy input 0's bytes. Every
// other operator folds by running its engine's kernel. A kernel sees the node's OpDesc
// (attributes, inferred input and output descs) and the constant value of each input (nullptr
// where the input is not a constant).
#pragma once

#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"

namespace ge::folding {

using HostKernelFn = Result<std::vector<GeTensor>> (*)(const OpDesc& op,
                                                       const std::vector<const GeTensor*>& inputs);

struct HostKernel {
  HostKernelFn fn = nullptr;
  /// True for the Shape family: they fold from the input descs, so their inputs need not be
  /// constants (only their shapes known).
  bool from_shapes = false;
};

/// Views and pass-throughs (the prototype's traits): output 0 is input 0's bytes under the output
/// desc.
Result<std::vector<GeTensor>> ViewKernel(const OpDesc& op,
                                         const std::vector<const GeTensor*>& inputs);

/// The kernel of `type` (views and pass-throughs get ViewKernel), or nullptr.
const HostKernel* FindHostKernel(const std::string& type);
/// Every op type with a host kernel (for reports and `gec`).
std::vector<std::string> HostKernelTypes();

// Registration (host_kernels_shape.cc).
void AddShapeKernels(std::vector<std::pair<std::string, HostKernel>>& out);

}  // namespace ge::folding

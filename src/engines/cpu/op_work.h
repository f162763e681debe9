// What a CPU engine task does, for the compiler's cost model (OpsKernelInfoStore::WorkOf).
#pragma once

#include <optional>

#include "ge/engine/ops_kernel_info_store.h"
#include "ge/graph/op_desc.h"

namespace ge::host_cpu {

/// The work of a node the CPU engine runs, from its descs (the arithmetic of its kernel, the
/// bytes it moves); nullopt when a shape is known only at run time.
std::optional<OpWork> WorkOfNode(const OpDesc& op);

}  // namespace ge::host_cpu

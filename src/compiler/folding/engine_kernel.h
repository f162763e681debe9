// Running one node's kernel on an engine at compile time, as the runtime would run it: how
// constant folding computes what no host kernel does, and how symbolic shape inference computes
// the values of shape arithmetic at its sample points.
#pragma once

#include <vector>

#include "ge/engine/engine_manager.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"

namespace ge::folding {

/// Runs `node` once through the first engine (in priority order) whose store supports it and
/// whose task executor runs its type, with `inputs[i]` the value of input i (nullptr where
/// absent). The output descs must be known. CannotFold when no engine can, or the node is not a
/// pure function.
Result<std::vector<GeTensor>> RunOnEngine(const EngineManager& engines, const Node& node,
                                          const std::vector<const GeTensor*>& inputs);

}  // namespace ge::folding

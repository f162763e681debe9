// What the model layer's files share inside it: a CompiledModel read from .om bytes, used by
// CompiledModel's loaders and by PipelineModel for each stage (a range of the pipeline's file).
#pragma once

#include <functional>
#include <vector>

#include "ge/model/compiled_model.h"
#include "om_file.h"

namespace ge {

/// The model held by `bytes` (a whole .om); the error names the part at fault.
Result<CompiledModel> CompiledModelFromFileBytes(om::FileBytes bytes);

/// Hands `write` the partitions of `model`'s .om, its weights where they lie (nothing gathered):
/// to measure the file (om::FileSize) or write it into a larger one.
Status WithCompiledModelPartitions(
    const CompiledModel& model,
    const std::function<Status(const std::vector<om::Partition>&)>& write);

}  // namespace ge

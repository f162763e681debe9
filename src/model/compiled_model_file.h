// What the model layer's files share inside it: a CompiledModel read from .om bytes, used by
// CompiledModel's loaders and by PipelineModel for each stage (a range of the pipeline's file).
#pragma once

#include "ge/model/compiled_model.h"
#include "om_file.h"

namespace ge {

/// The model held by `bytes` (a whole .om); the error names the part at fault.
Result<CompiledModel> CompiledModelFromFileBytes(om::FileBytes bytes);

}  // namespace ge

// Running a pipeline's stages (ge/model/pipeline_model.h). A stage turns what it receives into
// what it sends; PipelineStages runs them all one after another in this process (the model's
// numbers without a process per stage: `gec run` on a pipeline .om), and the MPI runner
// (ge/pipeline/mpi_pipeline.h) runs one per process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/pipeline_model.h"
#include "ge/runtime/model.h"

namespace ge {

/// Runs stage `s` of `pipeline` on `model` (that stage's model, loaded): `received` holds the
/// tensors of pipeline.Receives(s), in that order; the result holds stage s's sends, in order
/// (tensors it received and passes on are shared, not copied). Sizes and dtypes are checked
/// against the manifest; an error names the stage and the tensor.
GE_API Result<std::vector<GeTensor>> RunPipelineStage(Model& model, const PipelineModel& pipeline,
                                                      size_t s,
                                                      const std::vector<GeTensor>& received);

/// Every stage of a pipeline loaded in this process.
class GE_API PipelineStages {
 public:
  /// Loads each stage's model (the pipeline's stages must all be loaded: LoadFromFile with no
  /// stage named).
  static Result<std::unique_ptr<PipelineStages>> Load(PipelineModel pipeline,
                                                      const RuntimeOptions& options = {});
  /// The model's inputs (pipeline.inputs, in order) to its outputs (pipeline.outputs).
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);

  const PipelineModel& pipeline() const { return pipeline_; }
  Model& stage(size_t s) { return *models_[s]; }

 private:
  PipelineModel pipeline_;
  std::vector<std::unique_ptr<Model>> models_;
};

}  // namespace ge

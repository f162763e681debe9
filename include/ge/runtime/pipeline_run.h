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
#include "ge/runtime/loaded_model.h"

namespace ge {

/// Runs stage `s` of `pipeline` on `model` (that stage's model, loaded): `received` holds the
/// tensors of pipeline.Receives(s), in that order; the result holds stage s's sends, in order
/// (tensors it received and passes on are shared, not copied). What it receives and what its
/// model makes are checked against the manifest (dtype, shape, bytes); an error names the stage
/// and the tensor.
GE_API Result<std::vector<GeTensor>> RunPipelineStage(LoadedModel& model,
                                                      const PipelineModel& pipeline, size_t s,
                                                      const std::vector<GeTensor>& received);

/// The bytes of the tensors `names` of the pipeline together, each tensor's and the sum checked
/// for overflow (a product that wraps would size a buffer too small); the error names `where`
/// and the tensor.
GE_API Result<int64_t> PipelineBytes(const PipelineModel& pipeline,
                                     const std::vector<std::string>& names,
                                     const std::string& where);

/// Checks stage `s`'s model (pipeline.stages[s].model, not yet loaded for running) against the
/// manifest: its inputs are the manifest's stage inputs and its outputs the stage's outputs, in
/// count, order, dtype and shape. Run before anything is allocated for the stage, so a manifest
/// that disagrees with its stages never sizes a buffer; the error names the stage, the tensor and
/// both descriptions.
GE_API Status CheckPipelineStage(const PipelineModel& pipeline, size_t s);

/// Checks the byte counts a message to stage `s` announces (one per tensor of
/// pipeline.Receives(s), in that order) against the manifest, before any of it is received; the
/// error names the stage, `from` (the sender), the tensor and both counts.
GE_API Status CheckPipelineReceive(const PipelineModel& pipeline, size_t s,
                                   const std::vector<int64_t>& bytes, const std::string& from);

/// Every stage of a pipeline loaded in this process.
class GE_API PipelineStages {
 public:
  /// Loads each stage's model (the pipeline's stages must all be loaded: LoadFromFile with no
  /// stage named), once the manifest is checked (PipelineModel::Check) and every stage's model
  /// agrees with it (CheckPipelineStage). RuntimeOptions::max_memory_bytes bounds the whole
  /// pipeline: the tensors that cross stages (the model's inputs and outputs among them) and the
  /// stages' arenas and kernel scratch together; each stage is loaded with what is left.
  static Result<std::unique_ptr<PipelineStages>> Load(PipelineModel pipeline,
                                                      const RuntimeOptions& options = {});
  /// The model's inputs (pipeline.inputs, in order) to its outputs (pipeline.outputs).
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);

  const PipelineModel& pipeline() const { return pipeline_; }
  LoadedModel& stage(size_t s) { return *models_[s]; }

 private:
  PipelineModel pipeline_;
  std::vector<std::unique_ptr<LoadedModel>> models_;
};

}  // namespace ge

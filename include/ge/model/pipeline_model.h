// PipelineModel: a model cut into stages that run one after another, each on its own process
// (`gec compile --pipeline-stages N`, `mpirun -n N gec run --pipeline`). Each stage is a
// CompiledModel of its own (its own arena, only its own weights); the manifest names the tensors
// that cross from one stage to the next. One .om holds them all: a manifest partition and the
// stages' .om files, each aligned so that a process maps only its stage's weights.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"
#include "ge/model/compiled_model.h"

namespace ge {

/// On a stage model's Data node: the name of the pipeline tensor it receives. On its NetOutput:
/// the names of the tensors it makes, in output order. A stage's inputs and outputs are checked
/// against the manifest by these names, not only by position, dtype and dims.
inline constexpr char kAttrPipelineTensor[] = "_pipeline_tensor";
inline constexpr char kAttrPipelineTensors[] = "_pipeline_tensors";

/// A tensor that enters or leaves a stage: a model input, a model output, or a value one stage
/// computes and a later one reads. Its shape is known (stages are compiled for fixed shapes).
struct GE_API PipelineTensor {
  std::string name;  ///< a model input's name, or "<producer node>:<output index>"
  DataType dtype = DT_FLOAT;
  std::vector<int64_t> dims;
  /// Its bytes; -1 for a dtype without a fixed element size, or a byte count over int64.
  int64_t Bytes() const;
};

struct GE_API PipelineStage {
  CompiledModel model;  ///< empty (no graph) when the stage was not asked for at load
  /// The stage model's inputs and outputs, in order, as names of PipelineModel::tensors.
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  /// What this stage hands the next, in message order: tensors it computes or received that a
  /// later stage reads, and the model's outputs already made. The last stage's are the model's
  /// outputs.
  std::vector<std::string> sends;
  /// The cost model's predicted time of the stage (µs), its weight bytes, and its sends' bytes.
  double predicted_us = 0;
  int64_t weight_bytes = 0;
  int64_t send_bytes = 0;
};

struct GE_API PipelineModel {
  std::vector<PipelineTensor> tensors;
  std::vector<std::string> inputs;   ///< the model's inputs, in order
  std::vector<std::string> outputs;  ///< the model's outputs, in order
  /// What the whole model calls its outputs (LoadedModel::outputs()' names), beside `outputs`.
  std::vector<std::string> output_names;
  std::vector<PipelineStage> stages;

  /// The tensor named `name`, or nullptr.
  const PipelineTensor* Tensor(const std::string& name) const;
  /// What stage `s` receives, in message order: the model's inputs for stage 0, else the sends
  /// of stage s - 1.
  const std::vector<std::string>& Receives(size_t s) const;
  /// Checks that every name is a tensor, every stage input is received, every send is made or
  /// received, and the last stage sends the model's outputs; the error names the stage.
  Status Check() const;

  Status SaveToFile(const std::string& path) const;
  /// Maps the file; `only_stage` >= 0 loads that stage's model alone (the others keep their
  /// manifest entries, with no graph), so a process holds its stage's weights only. Damaged,
  /// truncated or hostile files give an error naming the part and the cause.
  static Result<PipelineModel> LoadFromFile(const std::string& path, int only_stage = -1);
  /// The pipeline in `bytes` (a whole file, copied once), every stage loaded; the same checks.
  static Result<PipelineModel> Deserialize(std::string_view bytes);
  /// True when the file at `path` is a .om holding a pipeline.
  static bool IsPipelineFile(const std::string& path);
  /// True when `bytes` are a .om holding a pipeline (its partition table is read, no more).
  static bool IsPipelineBytes(std::string_view bytes);
};

}  // namespace ge

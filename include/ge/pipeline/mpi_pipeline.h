// A pipeline .om (ge/model/pipeline_model.h) run one stage per process under Open MPI: rank r
// runs stage r; rank 0 takes the inputs, each rank sends what later stages need to the next with
// MPI point-to-point messages, and the last rank has the outputs. A stream of inputs is
// pipelined: stage r works on input i while stage r + 1 works on input i - 1.
//
// Started by mpirun (`mpirun -n N gec run model.om --pipeline ...`); N must be the number of
// stages. Every wait for another rank is bounded; a rank that fails tells the others, and each
// stops with an error naming the rank and stage that failed (a message of another size than the
// manifest says is the receiving rank's error, naming the tensor and both sizes). A rank that
// dies is mpirun's to report: it ends the job.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/runtime/loaded_model.h"

namespace ge {

struct MpiPipelineOptions {
  /// For this rank's stage (threads: this rank's cores). max_memory_bytes bounds the rank as a
  /// whole: its messages (one batch received, its sends until the next rank takes them) are
  /// counted first, the stage is loaded with what is left, and rank 0's input sets get what the
  /// stage and its sends leave.
  RuntimeOptions runtime;
  int batches = 1;  ///< inputs run through the pipeline
  /// The longest any rank waits for another (a message, the start, the end) before it stops
  /// the job with an error naming both: positive; a year or more (or infinity) waits without
  /// limit.
  double timeout_seconds = 300;
  /// Called on each rank once every rank has loaded its stage, just before its first input
  /// (with its rank): where a tool says the job is running.
  std::function<void(int rank)> on_start;
};

/// What one rank did, and on the last rank what every rank did.
struct MpiPipelineResult {
  int rank = 0;
  int ranks = 1;
  /// The last rank's: the model's outputs of the last batch (PipelineModel::outputs order) and
  /// their names (PipelineModel::output_names).
  std::vector<GeTensor> outputs;
  std::vector<std::string> output_names;
  /// From the start (every rank loaded) to this rank's last batch.
  double millis = 0;
  /// On the last rank, per rank: the time its stage ran, the time it waited for messages, its
  /// peak resident set (KiB), its weights and arena (bytes).
  std::vector<double> busy_millis;
  std::vector<double> wait_millis;
  std::vector<int64_t> peak_kib;
  std::vector<int64_t> weight_bytes;
  std::vector<int64_t> arena_bytes;
};

/// The inputs of each batch, asked of rank 0 once its stage is loaded: a list of input sets
/// (each in the model's input order; batch i runs set i % sets), given the model's inputs and
/// the bytes the sets may take together (0: no limit).
using MpiPipelineInputs = std::function<Result<std::vector<std::vector<GeTensor>>>(
    const std::vector<IoInfo>& inputs, int64_t max_bytes)>;

/// True when this process was started by mpirun (Open MPI's environment is set).
GE_API bool UnderMpirun();

/// Runs this rank's stage of the pipeline in `path` (initialising MPI; finalising it when
/// every rank succeeded). An error names this rank and stage; when another rank failed, it
/// names that one too. After an error the job must end: StopMpiJob.
GE_API Result<MpiPipelineResult> RunMpiPipeline(const std::string& path,
                                                const MpiPipelineInputs& inputs,
                                                const MpiPipelineOptions& options);

/// Ends every rank of the job with `code` (MPI_Abort), after an error was reported.
[[noreturn]] GE_API void StopMpiJob(int code);

}  // namespace ge

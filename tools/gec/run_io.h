// gec run's inputs and outputs: the input sets of --input (or random ones), the one-line summary
// of an output, and outputs written as .npy files.
#pragma once

#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/runtime/loaded_model.h"

namespace gec {

/// What gec run does after the model is ready, from its flags.
struct RunFlags {
  std::vector<std::string> input_files;  ///< --input NAME=FILE.npy, in the order given
  std::string output_dir;
  int iterations = 10;
  int warmup = 1;
  std::string profile;
  std::string report_path;
  int64_t max_input_bytes = 0;  ///< --max-memory-mb in bytes, for the inputs read (0: no limit)
};

/// The input sets of --input: the k-th file given for a name is in set k; a name given once is
/// in every set. Inputs not given take their default value (an initializer), or deterministic
/// random values when their shape is known. The tensors read or made take at most `max_bytes`
/// together (0: no limit), each checked before it is read or made.
ge::Result<std::vector<std::vector<ge::GeTensor>>> InputSets(const std::vector<ge::IoInfo>& inputs,
                                                             const std::vector<std::string>& items,
                                                             int64_t max_bytes);

/// dtype, shape and, for floats, min, max, mean and argmax.
std::string Summary(const ge::GeTensor& t);

/// Each output as DIR/NAME{suffix}.npy (NAME with path separators replaced).
ge::Status WriteOutputs(const std::string& dir, const std::string& suffix,
                        const std::vector<std::string>& names,
                        const std::vector<ge::GeTensor>& outputs);

/// gec run --pipeline under mpirun: this rank's stage of the pipeline .om at `path`.
ge::Status RunPipelineRank(const std::string& path, const RunFlags& run,
                           const ge::RuntimeOptions& runtime, int batches, double timeout);

}  // namespace gec

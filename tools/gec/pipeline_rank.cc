// gec run --pipeline: one stage of a pipeline .om per process under mpirun.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ge/graph/log.h"
#include "ge/pipeline/mpi_pipeline.h"
#include "gec.h"
#include "run_io.h"

namespace gec {
namespace {

constexpr double kMiBf = 1024.0 * 1024.0;

}  // namespace

// This rank's stage. The last rank prints the outputs and every
// rank's figures. An error is this rank's one line, then the job ends.
ge::Status RunPipelineRank(const std::string& path, const RunFlags& run,
                           const ge::RuntimeOptions& runtime, int batches, double timeout) {
  if (!ge::UnderMpirun()) {
    return ge::ParamInvalid(
        "--pipeline runs one stage per process: start it with mpirun -n STAGES gec run " + path +
        " --pipeline (without --pipeline, gec run runs every stage in this process)");
  }
  ge::MpiPipelineOptions options;
  options.runtime = runtime;
  options.batches = batches;
  options.timeout_seconds = timeout;
  if (ge::LogEnabled(ge::LogLevel::kInfo)) {
    options.on_start = [batches](int rank) {
      std::cerr << ("gec: info: pipeline rank " + std::to_string(rank) + " (stage " +
                    std::to_string(rank) + "): every rank loaded its stage; running " +
                    std::to_string(batches) + " input(s)\n");
    };
  }
  ge::Result<ge::MpiPipelineResult> result = ge::RunMpiPipeline(
      path,
      [&run](const std::vector<ge::IoInfo>& inputs, int64_t max_bytes) {
        return InputSets(inputs, run.input_files, max_bytes);
      },
      options);
  if (!result.ok()) {
    std::string message = result.status().message();
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    std::cerr << ("gec: error: pipeline " + message + "\n");  // one write: ranks share stderr
    ge::StopMpiJob(1);
  }
  const ge::MpiPipelineResult& r = *result;
  if (r.rank != r.ranks - 1) return ge::Status::Ok();
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    std::cout << "output " << r.output_names[i] << ": " << Summary(r.outputs[i]) << "\n";
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "pipeline: %d input(s) through %d stages in %.1f ms: %.2f inputs/s\n", batches,
                r.ranks, r.millis, batches / (r.millis / 1e3));
  std::cout << line;
  nlohmann::json ranks = nlohmann::json::array();
  for (int k = 0; k < r.ranks; ++k) {
    const auto s = static_cast<size_t>(k);
    std::snprintf(line, sizeof(line),
                  "  rank %d (stage %d): ran %.1f ms, waited %.1f ms, peak resident %.1f MiB "
                  "(weights %.1f, arena %.1f)\n",
                  k, k, r.busy_millis[s], r.wait_millis[s],
                  static_cast<double>(r.peak_kib[s]) / 1024.0,
                  static_cast<double>(r.weight_bytes[s]) / kMiBf,
                  static_cast<double>(r.arena_bytes[s]) / kMiBf);
    std::cout << line;
    ranks.push_back({{"rank", k},
                     {"busy_ms", r.busy_millis[s]},
                     {"wait_ms", r.wait_millis[s]},
                     {"peak_resident_kib", r.peak_kib[s]},
                     {"weight_bytes", r.weight_bytes[s]},
                     {"arena_bytes", r.arena_bytes[s]}});
  }
  if (!run.output_dir.empty()) {
    GE_RETURN_IF_ERROR(WriteOutputs(run.output_dir, "", r.output_names, r.outputs));
  }
  if (!run.report_path.empty()) {
    nlohmann::json j = nlohmann::json::object();
    j["batches"] = batches;
    j["millis"] = r.millis;
    j["inputs_per_second"] = batches / (r.millis / 1e3);
    j["ranks"] = std::move(ranks);
    GE_RETURN_IF_ERROR(WriteText(run.report_path, j.dump(2) + "\n"));
  }
  return ge::Status::Ok();
}

}  // namespace gec

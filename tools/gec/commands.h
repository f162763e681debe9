// The gec subcommands: each registers its flags and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "gec.h"

namespace gec {

void AddCompileFlags(CLI::App* cmd, CompileFlags& flags);

/// gec run's pipeline flags.
struct PipelineFlags {
  bool mpi = false;      ///< --pipeline: this process runs its rank's stage under mpirun
  int batches = 1;       ///< --batches
  double timeout = 300;  ///< --timeout, seconds
};

class Commands {
 public:
  void Register(CLI::App& app);
  /// Runs the chosen subcommand.
  ge::Status Run();

 private:
  std::function<ge::Status()> chosen_;
  // compile / dump / plan / run share these.
  std::string model_;
  CompileFlags flags_;
  std::string output_;
  std::string report_;
  std::string stage_ = "built";
  std::string format_ = "txt";
  bool json_ = false;
  std::string svg_;
  std::string engine_;
  // run / onnx-test
  std::vector<std::string> inputs_;
  std::string output_dir_;
  int iterations_ = 10;
  int warmup_ = 1;
  int threads_ = 0;            // every core
  int64_t max_memory_mb_ = 0;  // the machine's memory
  std::string profile_;
  PipelineFlags pipeline_;
  int pipeline_stages_ = 0;  // compile --pipeline-stages
  // the compile explorer: compile --html, run --html, report -o
  std::string html_;
  size_t max_view_nodes_ = 20000;
  void AddExplorerFlags(CLI::App* cmd);
  std::vector<std::string> case_dirs_;
  int min_passed_ = -1;
  // opt
  std::vector<std::string> passes_;
  std::string dump_after_;
  void RegisterRun(CLI::App& app);
  void RegisterOnnxTest(CLI::App& app);
  void RegisterOpt(CLI::App& app);
  // calibrate
  bool quick_ = false;
  void RegisterCalibrate(CLI::App& app);
};

}  // namespace gec

// The compiler's cost model: a task's predicted time from the work its engine says it does
// (OpsKernelInfoStore::WorkOf) and the rates of the machine (a MachineProfile, measured by
// `gec calibrate` or built in). A roofline: the arithmetic at the machine's rates on the threads
// given, or the bytes at its memory bandwidth on them, whichever takes longer, plus what a task
// and each thread beyond the first cost to start.
#pragma once

#include <string>

#include "ge/engine/ops_kernel_info_store.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// What one machine does per second, per thread where it scales. The built-in figures are
/// `gec calibrate`'s on a 2-core AMD EPYC (Zen 4, AVX-512).
struct GE_API MachineProfile {
  int cores = 2;                    ///< the cores the rates were measured on (at most)
  double dense_gflops = 110.0;      ///< matrix-product arithmetic, per thread
  double elementwise_gops = 19.0;   ///< elementwise arithmetic (weighted ops), per thread
  double bandwidth_gbs = 33.0;      ///< bandwidth to a tensor of a few MiB, on one thread
  double bandwidth_all_gbs = 35.0;  ///< the same on every core
  double task_us = 0.05;            ///< the fixed cost of running one task
  double library_us = 0.4;          ///< what a call into a compute library adds to a task
  double thread_us = 2.0;           ///< what each thread beyond the first adds (waking, joining)
  /// Where the figures come from: "built-in" or the file they were read from.
  std::string source = "built-in";

  /// The built-in figures, for `cores` cores (this machine's when 0).
  static MachineProfile BuiltIn(int cores = 0);
  /// Reads a profile `ToJson` wrote; an error names the file and what is wrong.
  static Result<MachineProfile> Load(const std::string& path);
  /// Where `gec calibrate` keeps this machine's profile and the compiler looks for it:
  /// $XDG_CACHE_HOME/openge/machine.json, else ~/.cache/openge/machine.json ("" without a home).
  static std::string DefaultPath();
  /// The profile of openge.machineProfile when given (`path`), else of DefaultPath() when the
  /// file is there, else the built-in one.
  static Result<MachineProfile> ForCompile(const std::string& path);
  std::string ToJson() const;
  /// Writes ToJson() to `path`, making its directory.
  Status Save(const std::string& path) const;
  /// Memory bandwidth on `threads` threads, in bytes per microsecond.
  double BytesPerMicro(int threads) const;
};

/// The predicted time of work `w` on `threads` threads, in microseconds.
GE_API double PredictMicros(const OpWork& w, int threads, const MachineProfile& m);
/// The threads, up to `budget`, worth giving `w`: all of them unless fewer are predicted to run
/// it at least a tenth faster, then the fastest count (a task of a few microseconds loses more
/// to waking a thread than it gains).
GE_API int WorthThreads(const OpWork& w, int budget, const MachineProfile& m);

}  // namespace ge

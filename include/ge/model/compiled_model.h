// CompiledModel: what the compiler hands the runtime, and what `gec compile` writes to a .om
// file: the graph (GE's ge_ir.proto), the task model (tasks, memory plans, streams; this layer's
// own schema, src/model/om_model.proto) and the weights, as partitions of one container
// (src/model/om_file.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compile_report.h"
#include "ge/model/memory_plan.h"
#include "ge/model/task_def.h"

namespace ge {

struct GE_API CompiledModel {
  /// The compiled graph: nodes carry their engine, stream, offsets and sizes; Consts their weights.
  ComputeGraphPtr graph;
  /// Tasks of each graph (the root and every subgraph, by name) in execution order; each task
  /// names its stream. Event tasks ("EventRecord"/"EventWait", engine "") order streams.
  std::map<std::string, std::vector<TaskDef>> tasks;
  int64_t stream_count = 1;
  /// The memory plan of each graph (each graph has its own arena).
  std::map<std::string, memory::MemoryPlan> plans;
  CompileReport report;
  /// The mapping LoadFromFile read the weights from (null for a model from bytes or a
  /// compiler): a run checks after it ends that the file was not truncated under it.
  std::shared_ptr<const uint8_t> mapped_file;

  /// The tasks of `graph_name` that run on `stream`, in order.
  std::vector<TaskDef> TasksOfStream(const std::string& graph_name, int64_t stream) const;
  int64_t TaskCount() const;

  /// The .om bytes. Every Const's value goes to the weights partition (each at a multiple of 64
  /// bytes, the partition at a multiple of 4 KiB); the graph keeps its descs.
  Result<std::string> Serialize() const;
  /// Reads .om bytes (copied once; the weights are shared with that copy). Every damaged,
  /// truncated or hostile file gives an error naming the part and the cause.
  static Result<CompiledModel> Deserialize(std::string_view bytes);
  Status SaveToFile(const std::string& path) const;
  /// Maps the file read-only: the weights are used where they lie in the mapping, so loading
  /// costs what the graph and tasks take to parse, and processes running one model share its
  /// weight pages. A file truncated while its model runs makes that run and the next ones fail
  /// naming it (the weights read past its new end read as zeros); a file replaced by renaming
  /// another over it keeps running on the old file's bytes.
  static Result<CompiledModel> LoadFromFile(const std::string& path);
  /// True when the file at `path` starts as a .om does (whatever its name).
  static bool IsCompiledModelFile(const std::string& path);
  /// True when `bytes` start as a .om does.
  static bool IsCompiledModelBytes(std::string_view bytes);
};

}  // namespace ge

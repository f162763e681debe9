// CompiledModel: what the compiler hands the runtime, and what `gec compile` writes to a file.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ge/compiler/compile_report.h"
#include "ge/compiler/memory/memory_plan.h"
#include "ge/engine/task.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"

namespace ge {

/// Graph attributes that carry the compile results in a serialized model (a GE ModelDef whose
/// graph holds them as string attributes, so any ge_ir.proto reader can still load the graph).
inline constexpr char kAttrCompiledFormat[] = "_openge_compiled_model";  ///< int: format version
inline constexpr char kAttrCompiledTasks[] = "_openge_tasks";            ///< JSON
inline constexpr char kAttrCompiledPlans[] = "_openge_memory_plans";     ///< JSON
inline constexpr char kAttrCompiledStreams[] = "_openge_stream_count";   ///< int
inline constexpr char kAttrCompiledReport[] = "_openge_compile_report";  ///< JSON, informative
inline constexpr int64_t kCompiledModelFormat = 1;

struct CompiledModel {
  /// The compiled graph: nodes carry their engine, stream, offsets and sizes; Consts their weights.
  ComputeGraphPtr graph;
  /// Tasks of each graph (the root and every subgraph, by name) in execution order; each task
  /// names its stream. Event tasks ("EventRecord"/"EventWait", engine "") order streams.
  std::map<std::string, std::vector<TaskDef>> tasks;
  int64_t stream_count = 1;
  /// The memory plan of each graph (each graph has its own arena).
  std::map<std::string, memory::MemoryPlan> plans;
  CompileReport report;

  /// The tasks of `graph_name` that run on `stream`, in order.
  std::vector<TaskDef> TasksOfStream(const std::string& graph_name, int64_t stream) const;
  int64_t TaskCount() const;

  /// One ModelDef holding the graph (with weights) and the tasks, plans and report as attributes.
  Result<std::string> Serialize() const;
  static Result<CompiledModel> Deserialize(std::string_view bytes);
  Status SaveToFile(const std::string& path) const;
  static Result<CompiledModel> LoadFromFile(const std::string& path);
  /// The compiled model a graph read from a Serialize'd ModelDef holds (its tasks, plans and
  /// streams are taken out of the graph's attributes).
  static Result<CompiledModel> FromGraph(ComputeGraphPtr graph);
  /// True when `bytes` is a ModelDef written by Serialize (a plain graph dump is not).
  static bool IsCompiledModel(const ComputeGraph& graph);
};

}  // namespace ge

// CompileReport: what the compiler did, per stage and per pass, as data the CLI prints or writes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/graph/visibility.h"

namespace ge {

/// One run of one pass.
struct PassReport {
  std::string name;
  double millis = 0;
  bool changed = false;
  int64_t rewrites = 0;  ///< what the pass counted (nodes folded, removed, merged, ...)
  size_t nodes_before = 0;
  size_t nodes_after = 0;
  bool skipped = false;  ///< disabled by an option
  /// What the pass wants a reader to know (e.g. "Shape: 7" folded by type, or why a fold was
  /// skipped).
  std::map<std::string, int64_t> counters;
  std::vector<std::string> notes;
};

/// One stage of the pipeline (prepare, optimize, place, build).
struct StageReport {
  std::string name;
  double millis = 0;
  size_t nodes_before = 0;
  size_t nodes_after = 0;
  std::vector<PassReport> passes;
};

/// The memory figures of the build stage.
struct MemoryReport {
  int64_t arena_bytes = 0;
  int64_t lower_bound = 0;
  int64_t weight_bytes = 0;
  int64_t output_bytes = 0;
  std::string strategy;
  std::string topo_order;                         ///< the order the plan was made for
  std::map<std::string, int64_t> strategy_bytes;  ///< arena per strategy
  std::map<std::string, int64_t> order_bytes;     ///< best arena per topological order tried
  /// When an order's plan needs only what one node holds at once when it runs (its inputs,
  /// outputs and workspaces: every order's floor), that node; no further order was tried.
  std::string floor_node;
  /// The cost model's predicted run time (µs) of each order whose arena tied for the smallest,
  /// which chose among them (empty when none tied or the cost model is off).
  std::map<std::string, double> order_predicted_us;
};

/// The cost model's decisions (ge/compiler/cost_model.h).
struct ScheduleReport {
  bool on = false;           ///< openge.costModel
  std::string machine;       ///< the machine profile's source: "built-in" or its file
  int64_t threads = 0;       ///< the thread budget planned for
  double predicted_us = 0;   ///< the predicted run in the final order and streams
  double one_thread_us = 0;  ///< every task on one thread, one after another
  std::map<int64_t, int64_t> tasks_by_threads;  ///< threads a task is worth -> tasks
  int64_t unsized_tasks = 0;                    ///< tasks whose engine could not size them
  /// With ge.enableSingleStream false: the predicted run for each stream count tried, which
  /// chose the count (the fewest within 5% of the best).
  std::map<int64_t, double> streams_predicted_us;
};

struct GE_API CompileReport {
  std::string graph_name;
  double total_millis = 0;
  /// Reading the model into a graph before compilation (set by whoever parsed it: gec, an
  /// embedding application); 0 when not measured.
  double parse_millis = 0;
  size_t nodes_parsed = 0;    ///< all nodes (subgraphs included) when compilation started
  size_t nodes_compiled = 0;  ///< all nodes at the end
  std::map<std::string, int64_t> op_types_before;
  std::map<std::string, int64_t> op_types_after;
  std::vector<StageReport> stages;
  MemoryReport memory;
  ScheduleReport schedule;
  int64_t streams = 0;
  int64_t tasks = 0;
  std::map<std::string, int64_t> nodes_per_engine;
  /// Nodes per kernel implementation the engines chose (kAttrKernelImpl, without its
  /// parenthesised details), and the nodes left on a reference implementation.
  std::map<std::string, int64_t> kernel_impls;
  std::vector<std::string> reference_kernels;
  /// Layout conversions (TransData nodes) in the compiled graph.
  int64_t layout_conversions = 0;

  /// The pass report of `name` in `stage` (the last run), or nullptr.
  const PassReport* FindPass(const std::string& stage, const std::string& name) const;
  std::string ToJson() const;  ///< pretty-printed JSON
  std::string ToText() const;  ///< a table for the terminal
};

}  // namespace ge

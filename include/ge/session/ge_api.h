// GE's session API: GEInitialize / GEFinalize and ge::Session, which holds graphs by id, compiles
// each on its first BuildGraph or RunGraph, and runs it on the runtime. A graph whose input dims
// are known only at run time is compiled for each set of input shapes it runs with, on first
// sight, and the plans are kept (ShapePlanCache, ge/session/shape_plan_cache.h). Calls that return
// GE's Status (a number in GE) return a graphStatus here: GRAPH_SUCCESS (ge::SUCCESS) or a failure,
// whose message GEGetErrorMsg gives.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/api/ascend_string.h"
#include "ge/api/ge_error_codes.h"
#include "ge/api/graph.h"
#include "ge/api/tensor.h"
#include "ge/graph/visibility.h"
#include "ge/session/shape_plan_cache.h"

namespace ge {

/// Options every Session created after starts from (compile options, as aclgrphBuildModel's).
GE_API graphStatus GEInitialize(const std::map<AscendString, AscendString>& options);
GE_API graphStatus GEInitialize(const std::map<std::string, std::string>& options);
GE_API graphStatus GEFinalize();

class GE_API Session {
 public:
  explicit Session(const std::map<AscendString, AscendString>& options = {});
  explicit Session(const std::map<std::string, std::string>& options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Adds `graph` under `graph_id` (with options of its own, which win over the session's). The
  /// graph is turned into IR now, so mistakes in its operators are reported here.
  graphStatus AddGraph(uint32_t graph_id, const Graph& graph);
  graphStatus AddGraph(uint32_t graph_id, const Graph& graph,
                       const std::map<AscendString, AscendString>& options);
  graphStatus AddGraph(uint32_t graph_id, const Graph& graph,
                       const std::map<std::string, std::string>& options);
  graphStatus RemoveGraph(uint32_t graph_id);
  /// Compiles the graph now (RunGraph does it on first use otherwise). A graph whose input dims
  /// are known only at run time compiles for the shapes of `inputs`; without them, for each set
  /// of shapes as runs bring it.
  graphStatus BuildGraph(uint32_t graph_id, const std::vector<Tensor>& inputs = {});
  /// Runs the graph on `inputs` (in the order of its SetInputs) and replaces `outputs` with its
  /// outputs (in the order of its SetOutputs). Runs of one session may overlap on several threads.
  graphStatus RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs,
                       std::vector<Tensor>& outputs);
  /// False once the graph is compiled (for some shapes, when they are known only at run time).
  bool IsGraphNeedRebuild(uint32_t graph_id);
  /// The graph's plans when its input dims are known only at run time: one per set of input
  /// shapes seen, with hits, misses and compile times (none for a graph compiled once).
  graphStatus GetShapePlanStats(uint32_t graph_id, ShapePlanStats& stats);

 private:
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

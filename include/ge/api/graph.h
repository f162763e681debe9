// ge::Graph: a graph of ge::Operators, in the spelling of GE's graph construction API. A Graph
// names its inputs (Data operators, in order), its outputs (operators, or an operator and
// output indexes or names) and its targets (operators that must run though nothing reads them);
// the operators in between are found by following inputs back from the outputs and targets.
// GraphUtilsEx turns it into the IR's ComputeGraph (and back) for the compiler.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/api/ascend_string.h"
#include "ge/api/ge_error_codes.h"
#include "ge/api/operator.h"
#include "ge/graph/fwd.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GraphImpl;
class Graph;
using GraphPtr = std::shared_ptr<Graph>;

class GE_API Graph {
 public:
  Graph() = default;
  explicit Graph(const char* name);
  explicit Graph(const std::string& name) : Graph(name.c_str()) {}

  /// The graph's inputs, in order: Data operators, whose "index" attribute becomes their place.
  Graph& SetInputs(const std::vector<Operator>& inputs);
  /// The outputs: output 0 of each operator, in order.
  Graph& SetOutputs(const std::vector<Operator>& outputs);
  /// The outputs: the listed output indexes of each operator, in order.
  Graph& SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>>& output_indexs);
  /// The outputs: the named output of each operator, in order.
  Graph& SetOutputs(const std::vector<std::pair<Operator, AscendString>>& outputs);
  Graph& SetOutputs(const std::vector<std::pair<Operator, std::string>>& outputs);
  /// Operators that run though no output depends on them.
  Graph& SetTargets(const std::vector<Operator>& targets);

  /// True once the graph has a name and outputs (or was made from a ComputeGraph).
  bool IsValid() const;
  /// Makes `op` part of the graph though no output or target reaches it.
  graphStatus AddOp(const Operator& op);
  graphStatus FindOpByName(const char* name, Operator& op) const;
  graphStatus FindOpByName(const std::string& name, Operator& op) const {
    return FindOpByName(name.c_str(), op);
  }
  graphStatus FindOpByType(const char* type, std::vector<Operator>& ops) const;
  graphStatus GetAllOpName(std::vector<AscendString>& names) const;
  graphStatus GetAllOpName(std::vector<std::string>& names) const;

  /// Writes the graph as GE's ge_ir ModelDef (binary; ".pbtxt" text, ".json" JSON).
  graphStatus SaveToFile(const char* file_name) const;
  graphStatus SaveToFile(const std::string& file_name) const {
    return SaveToFile(file_name.c_str());
  }
  /// Reads a graph SaveToFile (or GE) wrote; the graph then is that ComputeGraph.
  graphStatus LoadFromFile(const char* file_name);
  graphStatus LoadFromFile(const std::string& file_name) { return LoadFromFile(file_name.c_str()); }

  const std::string& GetName() const;
  graphStatus GetName(AscendString& name) const;

  /// The ComputeGraph of this graph: made from the operators on every call (a new graph each
  /// time, so compiling it leaves the operators as they were), or the ComputeGraph this graph was
  /// made from. The Status names the operator at fault: an input or output name its prototype
  /// does not have, an unregistered type, two operators of one name, a cycle, no outputs.
  Result<ComputeGraphPtr> ToComputeGraph() const;
  /// A graph that is `graph` (shared, not copied).
  static Graph FromComputeGraph(const ComputeGraphPtr& graph);

 private:
  std::shared_ptr<GraphImpl> impl_;
};

/// GE's helpers between ge::Graph and the IR.
class GE_API GraphUtilsEx {
 public:
  /// The graph's ComputeGraph (Graph::ToComputeGraph), or null with the reason as this thread's
  /// last error (GEGetErrorMsg).
  static ComputeGraphPtr GetComputeGraph(const Graph& graph);
  static Graph CreateGraphFromComputeGraph(const ComputeGraphPtr& compute_graph);
  static GraphPtr CreateGraphPtrFromComputeGraph(const ComputeGraphPtr& compute_graph);
};

}  // namespace ge

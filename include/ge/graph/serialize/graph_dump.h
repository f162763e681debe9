// Graph dumps for people: Graphviz DOT (rendered to PNG/SVG by `dot` when installed), a JSON
// summary, and GraphDumper, the DUMP_GE_GRAPH switch that dumps the graph after compiler stages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API GraphDump {
 public:
  GraphDump() = delete;

  /// Graphviz DOT of the graph: one box per node (name, type, and engine / stream when known),
  /// data edges labelled with the producer's dtype and shape ("DT_FLOAT[1,3]"), control edges
  /// dashed, each subgraph a cluster joined to its parent node by a dotted edge, recursively.
  static std::string ToDot(const ComputeGraph& graph);

  /// A JSON summary: node count by type (over all nodes), graph inputs and outputs with their
  /// dtype and shape, subgraphs with parent node and node count, and weights (Const tensors:
  /// count and bytes).
  static std::string ToJson(const ComputeGraph& graph);

  /// Writes `text` to `path`.
  static Status WriteFile(const std::string& path, std::string_view text);

  /// Renders a DOT file with Graphviz: `dot -T<format> -o <output> <dot_path>`, run without a
  /// shell. `format` is what dot takes after -T ("png", "svg"). A missing `dot` is an error that
  /// names the Debian package to install (graphviz); a `dot` still running after
  /// `timeout_seconds` is killed.
  static Status RenderDot(const std::string& dot_path, const std::string& output_path,
                          const std::string& format = "png", int timeout_seconds = 120,
                          const std::string& dot_program = "dot");
};

/// What DUMP_GE_GRAPH asks for (GE's values).
enum class DumpLevel : int32_t {
  kOff = 0,
  kFull = 1,       ///< "1": everything, weights included
  kNoWeights = 2,  ///< "2": everything but the bytes of tensor attributes (Const weights)
  kStructure = 3,  ///< "3": nodes, descs and edges only, no attributes
};

struct DumpConfig {
  DumpLevel level = DumpLevel::kOff;
  std::string directory = ".";
};

/// Dumps graphs after named stages when the environment asks for it, like GE:
///   DUMP_GE_GRAPH    unset, empty or 0: off; 1: full; 2: without weight bytes; 3: no attributes.
///   DUMP_GRAPH_PATH  the directory to write into (created if needed); the current directory
///                    when unset.
/// Each dump writes `NNNN_<stage>.pbtxt` (protobuf text of ge_ir.proto's ModelDef, loadable with
/// ModelSerialize) and `NNNN_<stage>.dot`, where NNNN counts dumps in this process from 0000 so
/// files sort in stage order, and <stage> keeps [A-Za-z0-9_.-] (other characters become '_').
class GE_API GraphDumper {
 public:
  GraphDumper() = delete;

  /// Reads DUMP_GE_GRAPH and DUMP_GRAPH_PATH. A DUMP_GE_GRAPH value other than the ones above
  /// is an error naming the variable.
  static Result<DumpConfig> ConfigFromEnv();

  /// Dumps `graph` when DUMP_GE_GRAPH is set; does nothing (and succeeds) when it is not.
  static Status MaybeDump(const ComputeGraph& graph, std::string_view stage_name);

  /// Dumps `graph` with `config` (nothing when the level is kOff) and returns the paths written.
  static Result<std::vector<std::string>> Dump(const ComputeGraph& graph,
                                               std::string_view stage_name,
                                               const DumpConfig& config);
};

}  // namespace ge

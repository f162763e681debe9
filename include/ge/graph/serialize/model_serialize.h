// ModelSerialize: a ComputeGraph (with its subgraphs) to and from GE's ge_ir.proto ModelDef,
// as binary protobuf or protobuf text, wire-compatible with GE's own files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// How a model is written: binary protobuf (`.pb`, `.om`-style) or protobuf text (`.pbtxt`).
enum class SerializeFormat : int32_t { kBinary = 0, kText = 1 };

/// What to leave out of a file. The defaults write everything, so that loading the file gives
/// back an equal graph; the other settings are for dumps that people read.
struct SerializeOptions {
  /// False: tensor attributes (Const weights) keep their desc but lose their bytes.
  bool with_weight_data = true;
  /// False: node, graph and tensor-desc attributes are left out (names, types, descs, edges,
  /// ids, streams and subgraphs remain, so the file still loads).
  bool with_attributes = true;
};

/// The IR version written to ModelDef.version.
inline constexpr uint32_t kGeIrVersion = 1;

class GE_API ModelSerialize {
 public:
  ModelSerialize() = delete;

  /// Writes `graph` as a ModelDef: graph[0] is `graph`, then every subgraph reachable from it
  /// through subgraph instance names, in the root graph's registration order (subgraphs that no
  /// node names are not written). ModelDef.name is the graph's name, version kGeIrVersion.
  /// Maps are written in key order, so a graph always gives the same bytes. Fails (naming graph,
  /// node and field) for what the format cannot hold: a null graph attribute, an attribute using
  /// a name the serializer reserves (src/graph/serialize/reserved_attrs.h), an invalid data type
  /// or format, a name that is not UTF-8, an edge that leaves its graph, a subgraph name that is
  /// not registered or used by two nodes, or a model over protobuf's 2 GB limit.
  static Result<std::string> Serialize(const ComputeGraph& graph,
                                       SerializeFormat format = SerializeFormat::kBinary,
                                       const SerializeOptions& options = {});

  /// Reads a ModelDef and rebuilds the graph: all nodes first, then their edges, then subgraph
  /// links. Never trusts the input: every malformed, inconsistent or hostile file (truncated
  /// bytes, unknown node or subgraph names, indices out of range, duplicate names, a second
  /// producer for an input, a cycle, unknown dtype or format names, attributes nesting deeper
  /// than kMaxNestingDepth, subgraphs nesting deeper than kMaxSubgraphDepth) gives a Status
  /// naming the graph, the node and the field. ModelDef's
  /// version, custom_version and attr are not used; GE's `expression` attributes read as strings.
  static Result<ComputeGraphPtr> Deserialize(std::string_view data,
                                             SerializeFormat format = SerializeFormat::kBinary);

  /// Writes to `path` (the directory must exist).
  static Status SaveToFile(const ComputeGraph& graph, const std::string& path,
                           SerializeFormat format = SerializeFormat::kBinary,
                           const SerializeOptions& options = {});
  /// Reads `path`; `.pbtxt`, `.txt` and `.prototxt` files are read as text, others as binary.
  static Result<ComputeGraphPtr> LoadFromFile(const std::string& path);
  /// Reads `path` in `format`. A binary file is parsed as it is read, so its weights are in
  /// memory once, not also as the file's bytes.
  static Result<ComputeGraphPtr> LoadFromFile(const std::string& path, SerializeFormat format);
  /// The format LoadFromFile picks for `path`.
  static SerializeFormat FormatForPath(std::string_view path);

  /// How deeply graphs, named attributes and tensor descs may nest inside attributes.
  static constexpr int kMaxNestingDepth = 48;
};

}  // namespace ge

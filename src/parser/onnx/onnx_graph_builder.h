// Builds ComputeGraphs from checked ONNX graphs: Data / Const / NetOutput, one node per ONNX node
// through the mapping table, and control-flow bodies as subgraphs with explicit outer inputs.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/parser/onnx_parser.h"
#include "onnx/onnx_pb.h"
#include "onnx_graph_check.h"

namespace ge::onnx_parser {

/// How a body's inputs relate to its parent node: formal input j stands for parent input
/// `formal_offset + j`; each captured outer value for the parent input given.
struct BodyBinding {
  uint32_t formal_offset = 0;
  std::vector<std::pair<std::string, uint32_t>> captures;  // value → parent input index
};

class OnnxGraphBuilder {
 public:
  OnnxGraphBuilder(const ModelInfo& info, const OnnxParseOptions& options)
      : info_(info), options_(options) {}

  /// Builds the main graph.
  Result<ComputeGraphPtr> BuildMain(const onnx::GraphProto& proto);

 private:
  struct ValueRef {
    NodePtr node;
    int index = 0;
  };
  struct Level {
    const onnx::GraphProto* proto = nullptr;
    ComputeGraphPtr graph;
    std::unordered_map<std::string, ValueRef> values;     // ONNX value → producing output
    std::unordered_map<std::string, GeTensorDesc> descs;  // known types of values
  };

  /// Fills `graph` from `proto`; `binding` is null for the main graph.
  Status BuildGraph(const onnx::GraphProto& proto, const ComputeGraphPtr& graph,
                    const BodyBinding* binding, const std::set<std::string>& outer);
  Status AddInputs(Level& level, const BodyBinding* binding);
  Status AddInitializers(Level& level);
  Status AddNode(Level& level, const onnx::NodeProto& node, const std::set<std::string>& outer);
  Status AddNetOutput(Level& level);
  Status Link(Level& level, const std::string& value, const NodePtr& dst, int dst_index,
              const std::string& who);
  const GeTensorDesc* FindDesc(const std::string& value) const;
  /// A node name not used anywhere in the model yet (`base`, then base_1, base_2, …).
  std::string UniqueName(const std::string& base);

  const ModelInfo& info_;
  const OnnxParseOptions& options_;
  std::vector<Level*> levels_;  // innermost last
  std::unordered_set<std::string> used_names_;
  /// Per base name, the suffix UniqueName tries next: many nodes of one name stay linear.
  std::unordered_map<std::string, int64_t> next_suffix_;
  std::set<std::string> overrides_used_;
};

}  // namespace ge::onnx_parser

// Checks and analyses of ONNX graphs before they are built: opsets, unsupported operators
// (all at once), values produced twice or by nobody, cycles, and outer-scope values of bodies.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"
#include "onnx_tensor.h"

namespace ge::onnx_parser {

/// What every stage needs to know about the model being parsed.
struct ModelInfo {
  std::string model_name;                 ///< the file (or given name) for messages
  const TensorSource* tensors = nullptr;  ///< where tensors' bytes lie (file, external data)
  std::map<std::string, int64_t> opsets;  ///< domain ("" = default ONNX) → version
  int64_t default_opset = 0;

  int64_t OpsetOf(const std::string& domain) const;  ///< -1 when the domain is not imported
  /// "node 'name' (OpType, opset N)".
  std::string Where(const onnx::NodeProto& node) const;
};

/// Reads the opset imports; the default domain must be imported at an opset in 7..17.
Status ReadOpsets(const onnx::ModelProto& model, ModelInfo& info);

/// Every name the graph and its bodies hold (graph, nodes, values, initializers) is UTF-8, as
/// ONNX's strings are and as the compiled model's protobuf and JSON parts need; the error names
/// the first that is not, escaped.
Status CheckNames(const onnx::GraphProto& graph, const ModelInfo& info);

/// Looks up every node of the graph and its bodies in the mapping table; one error lists every
/// unsupported op type with its node names and opset.
Status CheckAllSupported(const onnx::GraphProto& graph, const ModelInfo& info);

/// Names a graph (or body) uses but does not define, in order of first use: what a body takes
/// from enclosing scopes. Graph outputs count as uses.
std::vector<std::string> FreeValues(const onnx::GraphProto& graph);

/// The implicit inputs of a node: the free values of its bodies (deduplicated, in order).
std::vector<std::string> ImplicitInputs(const onnx::NodeProto& node);

/// Checks one graph level (not its bodies): every value defined once, every used name defined
/// here or in `outer` (the names visible from enclosing scopes), no cycle. Returns the node
/// indices in a topological order (the file's order where it allows).
Result<std::vector<int>> CheckAndSortGraph(const onnx::GraphProto& graph,
                                           const std::set<std::string>& outer,
                                           const ModelInfo& info);

}  // namespace ge::onnx_parser

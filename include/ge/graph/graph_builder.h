// GraphBuilder: builds a ComputeGraph one node or edge a call (inputs, weights, operators, the
// output node, control edges, subgraphs), each call returning the node or a Status naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Output `index` of `node`: where a data edge starts. A node alone stands for its output 0, so
/// inputs read `{x, {split, 1}}`; `nullptr` stands for no producer (GraphBuilder::AddNode leaves
/// such an input unlinked).
struct NodeOutput {
  NodeOutput(NodePtr node, int32_t index = 0)  // NOLINT(google-explicit-constructor)
      : node(std::move(node)), index(index) {}
  NodeOutput(std::nullptr_t) : index(0) {}  // NOLINT(google-explicit-constructor)
  NodePtr node;
  int32_t index;
};

/// Attributes a builder call sets on the node it makes, by name.
using NodeAttrs = std::map<std::string, AttrValue>;

/// Builds into one ComputeGraph. The builder holds nothing but the graph, so several builders (or
/// a builder and direct IR calls) may work on the same graph. Every call checks its arguments
/// first: on an error (a name already used, an input from a node of another graph, an index out
/// of range) it returns a Status that names the graph and the node, and leaves the graph as it
/// was.
///
///   GraphBuilder b("net");
///   GE_ASSIGN_OR_RETURN(NodePtr x, b.AddData("x", {1, 3, 8, 8}));
///   GE_ASSIGN_OR_RETURN(NodePtr w, b.AddConst<float>("w", DT_FLOAT, {4, 3, 1, 1}, weights));
///   GE_ASSIGN_OR_RETURN(NodePtr conv, b.AddOp("conv", "Conv2D", {x, w},
///                                             {GraphBuilder::Desc({1, 4, 8, 8})}, conv_attrs));
///   GE_RETURN_IF_ERROR(b.AddNetOutput({conv}).status());
class GE_API GraphBuilder {
 public:
  /// Builds a new root graph called `name`.
  explicit GraphBuilder(const std::string& name);
  /// Adds to `graph`, which must not be null (a graph made elsewhere, or a subgraph).
  explicit GraphBuilder(ComputeGraphPtr graph);

  const ComputeGraphPtr& GetGraph() const { return graph_; }

  /// A desc of shape `dims`, whose origin shape, format and data type are the same.
  static GeTensorDesc Desc(std::vector<int64_t> dims, DataType dtype = DT_FLOAT,
                           Format format = FORMAT_ND);
  /// An OpDesc named `name` of type `type` with these input and output descs (named __input<i>
  /// and __output<i>, as OpDesc::AddInputDesc names them) and attributes, for callers that need
  /// one before it joins a graph.
  static OpDescPtr MakeOpDesc(const std::string& name, const std::string& type,
                              const std::vector<GeTensorDesc>& inputs,
                              const std::vector<GeTensorDesc>& outputs,
                              const NodeAttrs& attrs = {});

  // ---- graph inputs and weights ----

  /// A Data node (GE's layout: input "x" and output "y", both `desc`) whose "index" attribute is
  /// its position among the graph's inputs: the number of inputs the graph had before it.
  Result<NodePtr> AddData(const std::string& name, const GeTensorDesc& desc);
  Result<NodePtr> AddData(const std::string& name, std::vector<int64_t> dims,
                          DataType dtype = DT_FLOAT);
  /// A Data node of a subgraph that stands for input `parent_index` of the parent node (the
  /// "_parent_node_index" attribute), indexed among the subgraph's inputs like AddData.
  Result<NodePtr> AddSubgraphData(const std::string& name, int64_t parent_index,
                                  const GeTensorDesc& desc);
  /// A Const node holding `value` (its output desc is the tensor's desc).
  Result<NodePtr> AddConst(const std::string& name, const GeTensor& value);
  /// A Const node holding `values`, one T per element of `dims` in row-major order; T must have
  /// the size of `dtype` (use uint8_t for DT_BOOL).
  template <typename T>
  Result<NodePtr> AddConst(const std::string& name, DataType dtype, std::vector<int64_t> dims,
                           const std::vector<T>& values);

  // ---- operators ----

  /// A node of `type` whose input i reads `inputs[i]` (its desc a copy of that output's desc),
  /// with `outputs` as its output descs and `attrs` set.
  Result<NodePtr> AddOp(const std::string& name, const std::string& type,
                        const std::vector<NodeOutput>& inputs,
                        const std::vector<GeTensorDesc>& outputs, const NodeAttrs& attrs = {});
  /// A node for an OpDesc made by the caller (say from an operator prototype, whose descs and
  /// IR metadata it keeps): `attrs` are set on it and input i is fed from `inputs[i]`. A null
  /// node in `inputs` leaves that input unlinked (an optional input); inputs past the end of the
  /// list stay unlinked too.
  Result<NodePtr> AddNode(const OpDescPtr& op_desc, const std::vector<NodeOutput>& inputs = {},
                          const NodeAttrs& attrs = {});
  /// A node with unlinked inputs and outputs of these descs, for edges added later.
  Result<NodePtr> AddNode(const std::string& name, const std::string& type,
                          const std::vector<GeTensorDesc>& inputs,
                          const std::vector<GeTensorDesc>& outputs);
  /// The same with `input_count` inputs and `output_count` outputs, all of `desc`.
  Result<NodePtr> AddNode(const std::string& name, const std::string& type, uint32_t input_count,
                          uint32_t output_count, const GeTensorDesc& desc);

  // ---- the graph's output ----

  /// The NetOutput node: input i (named x<i>, its desc a copy of the output's desc) reads
  /// `outputs[i]`. The graph's output info becomes `outputs`, in order. A graph has one NetOutput;
  /// a second is refused.
  Result<NodePtr> AddNetOutput(const std::vector<NodeOutput>& outputs,
                               const std::string& name = "NetOutput");

  // ---- edges ----

  /// A data edge from `src` to input `dst_index` of `dst`, both nodes of this graph.
  Status AddDataEdge(const NodeOutput& src, const NodePtr& dst, int32_t dst_index);
  /// A control edge: `dst` runs after `src`, both nodes of this graph.
  Status AddControlEdge(const NodePtr& src, const NodePtr& dst);

  // ---- subgraphs ----

  /// Attaches `subgraph` (built with a GraphBuilder of its own) as subgraph `index` of `parent`,
  /// a node of this graph: the parent's subgraph instance name becomes the subgraph's name and
  /// the subgraph is registered on the root graph, whose subgraph names must stay unique.
  Status AddSubgraph(const NodePtr& parent, uint32_t index, const ComputeGraphPtr& subgraph);

 private:
  Result<NodePtr> AddConstOfBytes(const std::string& name, DataType dtype,
                                  std::vector<int64_t> dims, std::vector<uint8_t> bytes,
                                  size_t element_size, size_t element_count);
  Result<NodePtr> AddDataNode(const std::string& name, const GeTensorDesc& desc,
                              int64_t parent_index);
  /// Checks that `src` is an output of a node of this graph; `who` names the input it feeds at
  /// the start of the message ("graph 'g': node 'relu' (Relu): input 0").
  Status CheckSource(const NodeOutput& src, const std::string& who) const;
  /// Adds `op_desc` and links input i from `inputs[i]`; removes the node again if a link fails.
  Result<NodePtr> AddAndLink(const OpDescPtr& op_desc, const std::vector<NodeOutput>& inputs);
  /// "graph 'g': node 'n' (Type)", the start of every message about a node.
  std::string Where(const std::string& name, const std::string& type) const;

  ComputeGraphPtr graph_;
};

template <typename T>
Result<NodePtr> GraphBuilder::AddConst(const std::string& name, DataType dtype,
                                       std::vector<int64_t> dims, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool>,
                "Const values are copied as bytes: use uint8_t for DT_BOOL");
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return AddConstOfBytes(name, dtype, std::move(dims), std::move(bytes), sizeof(T), values.size());
}

}  // namespace ge

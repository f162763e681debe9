// What a mapping-table converter sees (NodeContext) and the converters the table names.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"
#include "onnx_tensor.h"
#include "op_mapping_table.h"

namespace ge::onnx_parser {

/// Where an IR input's data comes from: an ONNX value (by name; "" leaves it unlinked) or a
/// constant the parser makes (a Const node named after the node and the input).
struct InputSource {
  std::string value;
  std::optional<GeTensor> constant;
};

/// One ONNX node being converted: the proto, its opset, the OpDesc under construction and the
/// sources of its IR inputs (index-aligned with the OpDesc's inputs).
class NodeContext {
 public:
  NodeContext(const onnx::NodeProto& node, int64_t opset, OpDesc& op, const TensorSource& tensors,
              std::string where)
      : node_(node), opset_(opset), op_(op), tensors_(tensors), where_(std::move(where)) {}

  const onnx::NodeProto& node() const { return node_; }
  int64_t opset() const { return opset_; }
  OpDesc& op() { return op_; }
  /// Where the bytes of the node's tensor attributes lie.
  const TensorSource& tensors() const { return tensors_; }
  /// "node 'name' (OpType, opset N)" for messages.
  const std::string& where() const { return where_; }
  std::vector<InputSource>& sources() { return sources_; }
  /// The ONNX output each IR output carries ("" for an unused one), index-aligned.
  std::vector<std::string>& output_values() { return output_values_; }

  /// The desc known for an ONNX value (graph input, initializer or value_info), or nullptr.
  using DescLookup = std::function<const GeTensorDesc*(const std::string&)>;
  void set_desc_lookup(DescLookup lookup) { desc_lookup_ = std::move(lookup); }
  const GeTensorDesc* ValueDesc(const std::string& value) const {
    return desc_lookup_ && !value.empty() ? desc_lookup_(value) : nullptr;
  }

  /// An error about this node: "<where>: <message>".
  Status Error(const std::string& message) const { return ParamInvalid(where_ + ": " + message); }
  const onnx::AttributeProto* FindAttr(const std::string& name) const;

  /// Inserts IR input `name` at `index` (appends when index ≥ count), fed by a Const of `value`.
  Status InsertConstInput(uint32_t index, const std::string& name, GeTensor value);
  /// Inserts IR input `name` at `index`, fed by ONNX value `value` ("" = unlinked, optional).
  Status InsertValueInput(uint32_t index, const std::string& name, const std::string& value);

 private:
  const onnx::NodeProto& node_;
  int64_t opset_;
  OpDesc& op_;
  const TensorSource& tensors_;
  std::string where_;
  std::vector<InputSource> sources_;
  std::vector<std::string> output_values_;
  DescLookup desc_lookup_;
};

/// A 1-D int64 (or float) tensor.
GeTensor MakeInt64Tensor(const std::vector<int64_t>& values, bool scalar = false);
GeTensor MakeFloatTensor(const std::vector<float>& values, bool scalar = false);

/// Applies one row to a node: inputs and outputs from the specs, attributes (renames and value
/// conversions), attributes that became inputs, defaults, then the row's converter.
Status ApplyRow(const OpMappingRow& row, NodeContext& ctx);

/// Converts an ONNX attribute value to an AttrValue (graph attributes are left to the builder:
/// returns a none value for them).
Result<AttrValue> ConvertAttrValue(const onnx::AttributeProto& attr, const NodeContext& ctx);

// Converters named by rows.
Status ConvertConstant(NodeContext& ctx);
Status ConvertConv(NodeContext& ctx);
Status ConvertConvTranspose(NodeContext& ctx);
Status ConvertMatMul(NodeContext& ctx);
Status ConvertLegacySoftmax(NodeContext& ctx);
Status ConvertVariadicN(NodeContext& ctx);
Status ConvertMlModel(NodeContext& ctx);
Status ConvertLabelEncoderV1(NodeContext& ctx);

}  // namespace ge::onnx_parser

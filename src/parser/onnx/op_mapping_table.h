// The ONNX → IR operator mapping table: the row type and lookups. The rows themselves, and the
// description of the format, are in op_mapping_table.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/status.h"

namespace ge::onnx_parser {

class NodeContext;

/// How one ONNX attribute's value becomes the IR attribute's value.
/// How one ONNX attribute's value becomes the IR attribute's value. The IR keeps ONNX's
/// attribute forms (pads [b1.., e1..], spatial-only strides, int flags), so few are needed.
enum class AttrConv : uint8_t {
  kCopy,       ///< unchanged (a rename when the names differ)
  kOnnxDtype,  ///< an ONNX TensorProto.DataType number → the IR DataType
  kDrop,       ///< removed (attributes of old opsets that have no meaning any more)
};

struct AttrRule {
  std::string_view onnx_name;
  std::string_view ir_name;
  AttrConv conv = AttrConv::kCopy;
};

/// An ONNX attribute that later opsets turned into an input: its value (ints or floats) becomes a
/// Const node feeding IR input `input_name` at `input_index`.
enum class InputKind : uint8_t {
  kInt64List,    ///< ints → 1-D int64
  kInt64Scalar,  ///< int → 0-D int64
  kFloatList,    ///< floats → 1-D float (e.g. Upsample's scales)
  kFloatScalar,  ///< float → 0-D float (e.g. Clip's min before opset 11)
};
/// `input_index` past the end appends the input.
struct AttrToInput {
  std::string_view attr;
  uint32_t input_index;
  std::string_view input_name;
  InputKind kind = InputKind::kInt64List;
  bool has_default = false;  ///< make the input from `default_value` when the attr is absent
  double default_value = 0;
};

/// Extra work for operators a row cannot describe (runs after the generic steps).
using NodeConverter = Status (*)(NodeContext& ctx);

struct OpMappingRow {
  std::string_view onnx_op;
  int64_t opset_min;
  int64_t opset_max;
  std::string_view ir_type;
  std::string_view inputs;   ///< input spec, see op_mapping_table.cc; "" = positional
  std::string_view outputs;  ///< output spec; "" = positional
  std::vector<AttrRule> attrs = {};
  std::vector<AttrToInput> attr_inputs = {};
  std::vector<std::pair<std::string, AttrValue>> fixed_attrs = {};
  NodeConverter converter = nullptr;
  std::string_view domain = "";
  /// Control flow: subgraph attributes in subgraph-index order, the dynamic input name that
  /// outer-scope values get, and which parent input the body's first formal input stands for.
  std::vector<std::string_view> subgraphs = {};
  std::string_view capture_input = "";
  uint32_t body_input_offset = 0;
};

/// The row for an operator at an opset, or nullptr. Domains "" and "ai.onnx" are the same.
const OpMappingRow* FindOpMapping(std::string_view domain, std::string_view op_type, int64_t opset);
/// The lowest and highest opset at which some row maps the operator, or nullopt when no row
/// names it (for messages about an operator version that is not supported).
std::optional<std::pair<int64_t, int64_t>> MappedOpsetRange(std::string_view domain,
                                                            std::string_view op_type);
/// Every row (for documentation and tests).
const std::vector<OpMappingRow>& AllOpMappings();

}  // namespace ge::onnx_parser

// Attribute names the serializer reserves, and typed access to them in a proto attr map.
//
// ge_ir.proto has no field for some of what an OpenGE graph holds. So that a round trip is
// exact, those parts travel as attributes with the names below; the loader takes them out again,
// and saving a graph whose own attributes use one of these names fails. Names GE itself uses
// (the `_input_name_*`, `_output_name_*`, `_opt_input` and origin attributes) keep GE's meaning.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serialize_internal.h"

namespace ge::serialize {

// ---- on OpDef.attr ----
/// Port names of inputs, when any differs from "__input<i>": names and their indices (GE's).
inline constexpr char kAttrInputNameKey[] = "_input_name_key";        // list string
inline constexpr char kAttrInputNameValue[] = "_input_name_value";    // list int
inline constexpr char kAttrOutputNameKey[] = "_output_name_key";      // list string
inline constexpr char kAttrOutputNameValue[] = "_output_name_value";  // list int
/// Names of the inputs declared optional (GE's).
inline constexpr char kAttrOptionalInputs[] = "_opt_input";  // list string
/// IR metadata from the operator prototype: names and IrInputType / IrOutputType values.
inline constexpr char kAttrIrInputNames[] = "_ir_input_names";    // list string
inline constexpr char kAttrIrInputTypes[] = "_ir_input_types";    // list int
inline constexpr char kAttrIrOutputNames[] = "_ir_output_names";  // list string
inline constexpr char kAttrIrOutputTypes[] = "_ir_output_types";  // list int
inline constexpr char kAttrIrAttrNames[] = "_ir_attr_names";      // list string
/// Declared subgraph IR names and their SubgraphType values (instance names are subgraph_name).
inline constexpr char kAttrSubgraphIrNames[] = "_subgraph_ir_names";  // list string
inline constexpr char kAttrSubgraphIrTypes[] = "_subgraph_ir_types";  // list int
/// The engine and kernel library chosen for the node.
inline constexpr char kAttrEngineName[] = "_op_engine_name";         // string
inline constexpr char kAttrKernelLibName[] = "_op_kernel_lib_name";  // string
/// Rare edge kinds that OpDef.input cannot express: producers' out-data anchors linked to this
/// node's in-control anchor ("src:idx"), and out-control anchors feeding a data input (the
/// producer names, with the input indices in the parallel int list).
inline constexpr char kAttrCtrlInFromData[] = "_in_ctrl_from_data";             // list string
inline constexpr char kAttrDataInFromCtrl[] = "_in_data_from_ctrl";             // list string
inline constexpr char kAttrDataInFromCtrlIndex[] = "_in_data_from_ctrl_index";  // list int

// ---- on GraphDef.attr ----
/// The graph's own name when it differs from GraphDef.name (the name its parent node uses).
inline constexpr char kAttrGraphName[] = "_graph_name";  // string
/// ComputeGraph::IsTrainingGraph, written only when true.
inline constexpr char kAttrTrainingGraph[] = "_is_training_graph";  // bool
/// On a graph held by an attribute (AttrDef.g): its subgraphs, as ModelDef.graph[1..] would be.
inline constexpr char kAttrSubgraphs[] = "_subgraphs";  // list graph

// ---- on TensorDescriptor.attr (GE's origin attributes, then OpenGE's C0 formats) ----
inline constexpr char kAttrOriginFormat[] = "origin_format";                       // string
inline constexpr char kAttrOriginShape[] = "origin_shape";                         // list int
inline constexpr char kAttrOriginDataType[] = "origin_data_type";                  // string
inline constexpr char kAttrOriginShapeInitialized[] = "origin_shape_initialized";  // bool
/// The C0 part of a packed format (bits 24-27), which the format name does not carry.
inline constexpr char kAttrC0Format[] = "_c0_format";               // int
inline constexpr char kAttrOriginC0Format[] = "_origin_c0_format";  // int

/// Which holder an attribute map belongs to.
enum class HolderKind { kOp, kGraph, kTensorDesc, kNamedAttrs };

/// Whether `name` is reserved on that kind of holder.
bool IsReservedAttr(HolderKind kind, std::string_view name);

// Writers (they overwrite an entry of the same name).
void PutString(AttrMap& attrs, const std::string& name, const std::string& value);
void PutInt(AttrMap& attrs, const std::string& name, int64_t value);
void PutBool(AttrMap& attrs, const std::string& name, bool value);
void PutListString(AttrMap& attrs, const std::string& name, const std::vector<std::string>& v);
void PutListInt(AttrMap& attrs, const std::string& name, const std::vector<int64_t>& v);

/// The reserved entries of one attr map, found in a single pass over it (nothing is copied or
/// removed; LoadAttrs skips reserved names). Readers return nullopt when the entry is absent and
/// an error naming the attribute when it holds another type. Valid while the map is unchanged.
class ReservedView {
 public:
  ReservedView(AttrMap& attrs, HolderKind kind);

  bool Has(std::string_view name) const { return Find(name) != nullptr; }
  proto::AttrDef* Find(std::string_view name) const;
  Result<std::optional<std::string>> String(std::string_view name) const;
  Result<std::optional<int64_t>> Int(std::string_view name) const;
  Result<std::optional<bool>> Bool(std::string_view name) const;
  Result<std::optional<std::vector<std::string>>> ListString(std::string_view name) const;
  Result<std::optional<std::vector<int64_t>>> ListInt(std::string_view name) const;

 private:
  std::vector<std::pair<std::string_view, proto::AttrDef*>> entries_;
};

}  // namespace ge::serialize

// OpDesc <-> OpDef. Compile state maps to GE's OpDef fields 21-35; what GE has no field for
// (port names, optional inputs, IR metadata, engine names) travels as reserved attributes.
#include "op_serialize.h"

#include "attr_serialize.h"
#include "reserved_attrs.h"
#include "tensor_serialize.h"

namespace ge::serialize {

namespace {

std::string DefaultPortName(const char* prefix, size_t index) {
  return prefix + std::to_string(index);
}

/// Writes port names as GE's key/value lists when any differs from the default name.
void SavePortNames(const std::vector<std::string>& names, const char* default_prefix,
                   const char* key_attr, const char* value_attr, AttrMap& attrs) {
  bool all_default = true;
  for (size_t i = 0; i < names.size() && all_default; ++i) {
    all_default = names[i] == DefaultPortName(default_prefix, i);
  }
  if (all_default) return;
  std::vector<int64_t> indices(names.size());
  for (size_t i = 0; i < names.size(); ++i) indices[i] = static_cast<int64_t>(i);
  PutListString(attrs, key_attr, names);
  PutListInt(attrs, value_attr, indices);
}

/// The port names for `count` ports: the default names, replaced where the key/value lists
/// (GE's `_input_name_key` / `_input_name_value`) say otherwise.
Result<std::vector<std::string>> LoadPortNames(const ReservedView& reserved, size_t count,
                                               const char* default_prefix, const char* key_attr,
                                               const char* value_attr) {
  std::vector<std::string> names(count);
  for (size_t i = 0; i < count; ++i) names[i] = DefaultPortName(default_prefix, i);
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> keys, reserved.ListString(key_attr));
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> values, reserved.ListInt(value_attr));
  if (!keys.has_value()) {
    if (values.has_value()) {
      return ParamInvalid("attr " + Quote(value_attr) + " is given without " + Quote(key_attr));
    }
    return names;
  }
  if (values.has_value() && values->size() != keys->size()) {
    return ParamInvalid("attr " + Quote(key_attr) + " has " + std::to_string(keys->size()) +
                        " names but " + Quote(value_attr) + " has " +
                        std::to_string(values->size()) + " indices");
  }
  std::vector<bool> seen(count, false);
  for (size_t i = 0; i < keys->size(); ++i) {
    const int64_t index = values.has_value() ? (*values)[i] : static_cast<int64_t>(i);
    if (index < 0 || static_cast<uint64_t>(index) >= count || seen[static_cast<size_t>(index)]) {
      return ParamInvalid("attr " + Quote(key_attr) + ": name " + Quote((*keys)[i]) +
                          " has index " + std::to_string(index) +
                          (index >= 0 && static_cast<uint64_t>(index) < count
                               ? ", which another name already has"
                               : ", but the node has " + std::to_string(count) + " of these"));
    }
    seen[static_cast<size_t>(index)] = true;
    names[static_cast<size_t>(index)] = std::move((*keys)[i]);
  }
  return names;
}

template <typename Enum>
Result<std::vector<std::pair<std::string, Enum>>> LoadIrPorts(const ReservedView& reserved,
                                                              const char* names_attr,
                                                              const char* types_attr,
                                                              int64_t max_type) {
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> names,
                      reserved.ListString(names_attr));
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> types, reserved.ListInt(types_attr));
  const size_t count = names.has_value() ? names->size() : 0;
  const size_t type_count = types.has_value() ? types->size() : 0;
  if (count != type_count) {
    return ParamInvalid("attr " + Quote(names_attr) + " has " + std::to_string(count) +
                        " entries but " + Quote(types_attr) + " has " + std::to_string(type_count));
  }
  std::vector<std::pair<std::string, Enum>> ports;
  ports.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const int64_t type = (*types)[i];
    if (type < 0 || type > max_type) {
      return ParamInvalid("attr " + Quote(types_attr) + "[" + std::to_string(i) +
                          "]: " + std::to_string(type) + " is not a valid kind (0.." +
                          std::to_string(max_type) + ")");
    }
    ports.emplace_back(std::move((*names)[i]), static_cast<Enum>(type));
  }
  return ports;
}

template <typename Enum>
void SaveIrPorts(const std::vector<std::pair<std::string, Enum>>& ports, const char* names_attr,
                 const char* types_attr, AttrMap& attrs) {
  if (ports.empty()) return;
  std::vector<std::string> names;
  std::vector<int64_t> types;
  for (const auto& [name, type] : ports) {
    names.push_back(name);
    types.push_back(static_cast<int64_t>(type));
  }
  PutListString(attrs, names_attr, names);
  PutListInt(attrs, types_attr, types);
}

void SaveMetadata(const OpDesc& op, AttrMap& attrs) {
  SavePortNames(op.GetAllInputNames(), "__input", kAttrInputNameKey, kAttrInputNameValue, attrs);
  SavePortNames(op.GetAllOutputNames(), "__output", kAttrOutputNameKey, kAttrOutputNameValue,
                attrs);
  std::vector<std::string> optional;
  for (const auto& name : op.GetAllInputNames()) {
    if (op.IsOptionalInput(name)) optional.push_back(name);
  }
  if (!optional.empty()) PutListString(attrs, kAttrOptionalInputs, optional);
  SaveIrPorts(op.GetIrInputs(), kAttrIrInputNames, kAttrIrInputTypes, attrs);
  SaveIrPorts(op.GetIrOutputs(), kAttrIrOutputNames, kAttrIrOutputTypes, attrs);
  if (!op.GetIrAttrNames().empty()) PutListString(attrs, kAttrIrAttrNames, op.GetIrAttrNames());
  const auto& subgraph_ir = op.GetSubgraphIrNames();
  SaveIrPorts(
      std::vector<std::pair<std::string, SubgraphType>>(subgraph_ir.begin(), subgraph_ir.end()),
      kAttrSubgraphIrNames, kAttrSubgraphIrTypes, attrs);
  if (!op.GetOpEngineName().empty()) PutString(attrs, kAttrEngineName, op.GetOpEngineName());
  if (!op.GetOpKernelLibName().empty()) {
    PutString(attrs, kAttrKernelLibName, op.GetOpKernelLibName());
  }
}

Status LoadDescs(google::protobuf::RepeatedPtrField<proto::TensorDescriptor>& defs,
                 const std::vector<std::string>& names, const char* field, OpDesc& op, bool inputs,
                 LoadContext& ctx) {
  for (int i = 0; i < defs.size(); ++i) {
    GeTensorDesc desc;
    Status status = LoadTensorDesc(*defs.Mutable(i), desc, ctx);
    if (status.ok()) {
      const auto& name = names[static_cast<size_t>(i)];
      status = inputs ? op.AddInputDesc(name, desc) : op.AddOutputDesc(name, desc);
    }
    if (!status.ok()) {
      return std::move(status).Prefix(std::string(field) + "[" + std::to_string(i) + "]");
    }
  }
  return Status::Ok();
}

Status LoadMetadata(const ReservedView& reserved, OpDesc& op) {
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> optional,
                      reserved.ListString(kAttrOptionalInputs));
  for (const auto& name : optional.value_or(std::vector<std::string>())) {
    if (op.GetInputIndexByName(name) < 0) {
      return ParamInvalid("attr " + Quote(kAttrOptionalInputs) + " names " + Quote(name) +
                          ", which is not an input of the node");
    }
    GE_RETURN_IF_ERROR(op.AddOptionalInputDesc(name, GeTensorDesc()));
  }
  GE_ASSIGN_OR_RETURN(auto ir_inputs, LoadIrPorts<IrInputType>(reserved, kAttrIrInputNames,
                                                               kAttrIrInputTypes, kIrInputDynamic));
  for (auto& [name, type] : ir_inputs) op.AppendIrInput(std::move(name), type);
  GE_ASSIGN_OR_RETURN(auto ir_outputs,
                      LoadIrPorts<IrOutputType>(reserved, kAttrIrOutputNames, kAttrIrOutputTypes,
                                                kIrOutputDynamic));
  for (auto& [name, type] : ir_outputs) op.AppendIrOutput(std::move(name), type);
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> ir_attrs,
                      reserved.ListString(kAttrIrAttrNames));
  for (auto& name : ir_attrs.value_or(std::vector<std::string>())) {
    op.AppendIrAttrName(std::move(name));
  }
  GE_ASSIGN_OR_RETURN(auto subgraphs, LoadIrPorts<SubgraphType>(reserved, kAttrSubgraphIrNames,
                                                                kAttrSubgraphIrTypes, kDynamic));
  for (const auto& [name, type] : subgraphs) {
    Status status = op.AddSubgraphName(name, type);
    if (!status.ok()) return std::move(status).Prefix("attr " + Quote(kAttrSubgraphIrNames));
  }
  GE_ASSIGN_OR_RETURN(std::optional<std::string> engine, reserved.String(kAttrEngineName));
  if (engine.has_value()) op.SetOpEngineName(std::move(*engine));
  GE_ASSIGN_OR_RETURN(std::optional<std::string> kernel, reserved.String(kAttrKernelLibName));
  if (kernel.has_value()) op.SetOpKernelLibName(std::move(*kernel));
  return Status::Ok();
}

template <typename T, typename Field>
std::vector<T> ToVector(const Field& field) {
  return std::vector<T>(field.begin(), field.end());
}

/// Protobuf `string` fields must hold UTF-8; check the OpDef's before writing them.
Status CheckStrings(const OpDesc& op) {
  GE_RETURN_IF_ERROR(CheckUtf8(op.GetName(), "name"));
  GE_RETURN_IF_ERROR(CheckUtf8(op.GetType(), "type"));
  for (const auto& name : op.GetSubgraphInstanceNames()) {
    GE_RETURN_IF_ERROR(CheckUtf8(name, "subgraph_name"));
  }
  for (const auto* names : {&op.GetInputName(), &op.GetSrcName(), &op.GetDstName()}) {
    for (const auto& name : *names) GE_RETURN_IF_ERROR(CheckUtf8(name, "input/src/dst name"));
  }
  return Status::Ok();
}

}  // namespace

Status SaveOpDesc(const OpDesc& op, proto::OpDef& out, SaveContext& ctx) {
  GE_RETURN_IF_ERROR(CheckStrings(op));
  out.set_name(op.GetName());
  out.set_type(op.GetType());
  out.mutable_input_desc()->Reserve(static_cast<int>(op.GetAllInputsSize()));
  for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
    Status status = SaveTensorDesc(op.GetInputDesc(i), *out.add_input_desc(), ctx);
    if (!status.ok()) return std::move(status).Prefix("input_desc[" + std::to_string(i) + "]");
  }
  out.mutable_output_desc()->Reserve(static_cast<int>(op.GetOutputsSize()));
  for (uint32_t i = 0; i < op.GetOutputsSize(); ++i) {
    Status status = SaveTensorDesc(op.GetOutputDesc(i), *out.add_output_desc(), ctx);
    if (!status.ok()) return std::move(status).Prefix("output_desc[" + std::to_string(i) + "]");
  }
  for (const auto& name : op.GetSubgraphInstanceNames()) out.add_subgraph_name(name);

  out.set_has_out_attr(true);
  out.set_id(op.GetId());
  out.set_stream_id(op.GetStreamId());
  for (const auto& name : op.GetInputName()) out.add_input_name(name);
  for (const auto& name : op.GetSrcName()) out.add_src_name(name);
  out.mutable_src_index()->Add(op.GetSrcIndex().begin(), op.GetSrcIndex().end());
  for (const auto& name : op.GetDstName()) out.add_dst_name(name);
  out.mutable_dst_index()->Add(op.GetDstIndex().begin(), op.GetDstIndex().end());
  out.mutable_input_i()->Add(op.GetInputOffset().begin(), op.GetInputOffset().end());
  out.mutable_output_i()->Add(op.GetOutputOffset().begin(), op.GetOutputOffset().end());
  out.mutable_workspace()->Add(op.GetWorkspace().begin(), op.GetWorkspace().end());
  out.mutable_workspace_bytes()->Add(op.GetWorkspaceBytes().begin(), op.GetWorkspaceBytes().end());
  for (bool is_const : op.GetIsInputConst()) out.add_is_input_const(is_const);

  if (!ctx.options.with_attributes) return Status::Ok();
  AttrMap& attrs = *out.mutable_attr();
  GE_RETURN_IF_ERROR(SaveAttrs(op.GetAttrMap(), attrs, HolderKind::kOp, ctx));
  SaveMetadata(op, attrs);
  return Status::Ok();
}

Result<OpDescPtr> LoadOpDesc(proto::OpDef& in, const ReservedView& reserved, LoadContext& ctx) {
  auto op = std::make_shared<OpDesc>(in.name(), in.type());
  GE_ASSIGN_OR_RETURN(std::vector<std::string> input_names,
                      LoadPortNames(reserved, static_cast<size_t>(in.input_desc_size()), "__input",
                                    kAttrInputNameKey, kAttrInputNameValue));
  GE_ASSIGN_OR_RETURN(std::vector<std::string> output_names,
                      LoadPortNames(reserved, static_cast<size_t>(in.output_desc_size()),
                                    "__output", kAttrOutputNameKey, kAttrOutputNameValue));
  GE_RETURN_IF_ERROR(LoadDescs(*in.mutable_input_desc(), input_names, "input_desc", *op,
                               /*inputs=*/true, ctx));
  GE_RETURN_IF_ERROR(LoadDescs(*in.mutable_output_desc(), output_names, "output_desc", *op,
                               /*inputs=*/false, ctx));
  GE_RETURN_IF_ERROR(LoadMetadata(reserved, *op));

  // AddSubgraphName made one empty slot per static subgraph; the file's list is the truth.
  const auto& slots = op->GetSubgraphInstanceNames();
  for (int i = 0; i < in.subgraph_name_size(); ++i) {
    const std::string& name = in.subgraph_name(i);
    if (static_cast<size_t>(i) < slots.size()) {
      GE_RETURN_IF_ERROR(op->SetSubgraphInstanceName(static_cast<uint32_t>(i), name));
    } else {
      op->AddSubgraphInstanceName(name);
    }
  }

  op->SetId(in.id());
  op->SetStreamId(in.stream_id());
  op->SetInputName(ToVector<std::string>(in.input_name()));
  op->SetSrcName(ToVector<std::string>(in.src_name()));
  op->SetSrcIndex(ToVector<int64_t>(in.src_index()));
  op->SetDstName(ToVector<std::string>(in.dst_name()));
  op->SetDstIndex(ToVector<int64_t>(in.dst_index()));
  op->SetInputOffset(ToVector<int64_t>(in.input_i()));
  op->SetOutputOffset(ToVector<int64_t>(in.output_i()));
  op->SetWorkspace(ToVector<int64_t>(in.workspace()));
  op->SetWorkspaceBytes(ToVector<int64_t>(in.workspace_bytes()));
  op->SetIsInputConst(ToVector<bool>(in.is_input_const()));

  GE_RETURN_IF_ERROR(LoadAttrs(*in.mutable_attr(), op->MutableAttrMap(), HolderKind::kOp, ctx));
  return op;
}

}  // namespace ge::serialize

// OpDesc: tensor descs by index and by name, IR metadata, subgraph names and compile state.
#include "ge/graph/op_desc.h"

#include <set>
#include <unordered_map>
#include <utility>

#include "ge/graph/compute_graph.h"

namespace ge {

namespace {
const GeTensorDesc& EmptyDesc() {
  static const GeTensorDesc kEmpty;
  return kEmpty;
}

// An ordered list of named tensor descs with an index by name.
struct PortList {
  std::vector<GeTensorDescPtr> descs;
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> index;

  void Reindex(size_t from) {
    for (size_t i = from; i < names.size(); ++i) index[names[i]] = static_cast<uint32_t>(i);
  }
  bool Has(const std::string& name) const { return index.count(name) != 0; }
  int32_t Find(const std::string& name) const {
    auto it = index.find(name);
    return it == index.end() ? -1 : static_cast<int32_t>(it->second);
  }
  Status Insert(size_t pos, const std::string& name, const GeTensorDesc& desc,
                const std::string& op_name, const char* what) {
    if (pos > descs.size()) {
      return ParamInvalid("op '" + op_name + "': cannot insert " + what + " '" + name +
                          "' at index " + std::to_string(pos) + " of " +
                          std::to_string(descs.size()));
    }
    if (Has(name)) {
      return ParamInvalid("op '" + op_name + "' already has an " + what + " named '" + name + "'");
    }
    descs.insert(descs.begin() + static_cast<std::ptrdiff_t>(pos),
                 std::make_shared<GeTensorDesc>(desc));
    names.insert(names.begin() + static_cast<std::ptrdiff_t>(pos), name);
    Reindex(pos);
    return Status::Ok();
  }
  Status Remove(size_t pos, const std::string& op_name, const char* what) {
    if (pos >= descs.size()) {
      return ParamInvalid("op '" + op_name + "' has no " + what + " " + std::to_string(pos));
    }
    index.erase(names[pos]);
    descs.erase(descs.begin() + static_cast<std::ptrdiff_t>(pos));
    names.erase(names.begin() + static_cast<std::ptrdiff_t>(pos));
    Reindex(pos);
    return Status::Ok();
  }
  Status Rename(const std::map<std::string, std::string>& renames, const std::string& op_name,
                const char* what) {
    std::vector<std::string> next = names;
    for (const auto& [from, to] : renames) {
      const int32_t idx = Find(from);
      if (idx < 0) {
        return ParamInvalid("op '" + op_name + "' has no " + what + " named '" + from + "'");
      }
      next[static_cast<size_t>(idx)] = to;
    }
    std::set<std::string> seen(next.begin(), next.end());
    if (seen.size() != next.size()) {
      return ParamInvalid("op '" + op_name + "': renaming " + what +
                          "s would give two of them the same name");
    }
    names = std::move(next);
    index.clear();
    Reindex(0);
    return Status::Ok();
  }
  bool operator==(const PortList& other) const {
    if (names != other.names || descs.size() != other.descs.size()) return false;
    for (size_t i = 0; i < descs.size(); ++i) {
      if (*descs[i] != *other.descs[i]) return false;
    }
    return true;
  }
};
}  // namespace

struct OpDesc::Impl {
  std::string name;
  std::string type;
  PortList inputs;
  PortList outputs;
  std::set<std::string> optional_inputs;
  std::vector<std::pair<std::string, IrInputType>> ir_inputs;
  std::vector<std::pair<std::string, IrOutputType>> ir_outputs;
  std::vector<std::string> ir_attr_names;
  std::map<std::string, SubgraphType> subgraph_ir_names;
  std::map<std::string, uint32_t> subgraph_name_indexes;
  std::vector<std::string> subgraph_instance_names;
  InferShapeFunc infer_shape;
  InferFormatFunc infer_format;
  VerifyFunc verify;
  int64_t id = 0;
  int64_t stream_id = 0;
  std::vector<int64_t> input_offset;
  std::vector<int64_t> output_offset;
  std::vector<int64_t> workspace;
  std::vector<int64_t> workspace_bytes;
  std::vector<bool> is_input_const;
  std::vector<std::string> input_name;
  std::vector<std::string> src_name;
  std::vector<int64_t> src_index;
  std::vector<std::string> dst_name;
  std::vector<int64_t> dst_index;
  std::string engine_name;
  std::string kernel_lib_name;
  Node* owner_node = nullptr;  // set by Node::Init; never copied
};

OpDesc::OpDesc() : impl_(std::make_unique<Impl>()) {}
OpDesc::OpDesc(std::string name, std::string type) : impl_(std::make_unique<Impl>()) {
  impl_->name = std::move(name);
  impl_->type = std::move(type);
}
OpDesc::~OpDesc() = default;

OpDesc::OpDesc(const OpDesc& other)
    : AttrHolder(other),
      std::enable_shared_from_this<OpDesc>(other),
      impl_(std::make_unique<Impl>(*other.impl_)) {
  impl_->owner_node = nullptr;
  // Deep-copy the descs: Impl's copy shares the pointers.
  for (auto& desc : impl_->inputs.descs) desc = std::make_shared<GeTensorDesc>(*desc);
  for (auto& desc : impl_->outputs.descs) desc = std::make_shared<GeTensorDesc>(*desc);
}

const std::string& OpDesc::GetName() const { return impl_->name; }
void OpDesc::SetName(std::string name) {
  std::string old_name = std::exchange(impl_->name, std::move(name));
  Node* node = impl_->owner_node;
  ComputeGraph* graph = node == nullptr ? nullptr : node->GetOwnerComputeGraphBarePtr();
  if (graph != nullptr) graph->OnNodeRenamed(*node, old_name);
}
void OpDesc::SetOwnerNode(Node* node) { impl_->owner_node = node; }
Node* OpDesc::GetOwnerNode() const { return impl_->owner_node; }

const std::string& OpDesc::GetType() const { return impl_->type; }
// The functions belong to the type's prototype: a new type drops them, and the registry gives the
// node its new type's when it next infers or verifies it.
void OpDesc::SetType(std::string type) {
  if (type != impl_->type) {
    impl_->infer_shape = nullptr;
    impl_->infer_format = nullptr;
    impl_->verify = nullptr;
  }
  impl_->type = std::move(type);
}

// ---- inputs ----

namespace {
// The first free "<prefix><k>" with k >= the port count (a removal may have freed a lower k).
std::string FreeDefaultName(const PortList& ports, const char* prefix) {
  for (size_t k = ports.descs.size();; ++k) {
    std::string name = prefix + std::to_string(k);
    if (!ports.Has(name)) return name;
  }
}
}  // namespace

Status OpDesc::AddInputDesc(const GeTensorDesc& desc) {
  return AddInputDesc(FreeDefaultName(impl_->inputs, "__input"), desc);
}

Status OpDesc::AddInputDesc(const std::string& name, const GeTensorDesc& desc) {
  return impl_->inputs.Insert(impl_->inputs.descs.size(), name, desc, impl_->name, "input");
}

Status OpDesc::AddInputDesc(uint32_t index, const std::string& name, const GeTensorDesc& desc) {
  return impl_->inputs.Insert(index, name, desc, impl_->name, "input");
}

Status OpDesc::AddDynamicInputDesc(const std::string& name, uint32_t num, bool is_push_back) {
  return is_push_back ? AddDynamicInputDescByIndex(name, num, impl_->inputs.descs.size())
                      : AddInputDescForward(name, num);
}

Status OpDesc::AddDynamicInputDescByIndex(const std::string& name, uint32_t num, size_t index) {
  // All or nothing: check every new name (and the index) before inserting any.
  if (index > impl_->inputs.descs.size()) {
    return ParamInvalid("op '" + impl_->name + "': cannot insert dynamic input '" + name +
                        "0' at index " + std::to_string(index) + " of " +
                        std::to_string(impl_->inputs.descs.size()));
  }
  for (uint32_t i = 0; i < num; ++i) {
    if (impl_->inputs.Has(name + std::to_string(i))) {
      return ParamInvalid("op '" + impl_->name + "' already has an input named '" + name +
                          std::to_string(i) + "'");
    }
  }
  for (uint32_t i = 0; i < num; ++i) {
    GE_RETURN_IF_ERROR(impl_->inputs.Insert(index + i, name + std::to_string(i), GeTensorDesc(),
                                            impl_->name, "input"));
  }
  return Status::Ok();
}

Status OpDesc::AddInputDescForward(const std::string& name, uint32_t num) {
  return AddDynamicInputDescByIndex(name, num, 0);
}

Status OpDesc::AddOptionalInputDesc(const std::string& name, const GeTensorDesc& desc) {
  if (!impl_->inputs.Has(name)) GE_RETURN_IF_ERROR(AddInputDesc(name, desc));
  impl_->optional_inputs.insert(name);
  return Status::Ok();
}

bool OpDesc::IsOptionalInput(const std::string& name) const {
  return impl_->optional_inputs.count(name) != 0;
}

bool OpDesc::IsOptionalInput(uint32_t index) const {
  return IsOptionalInput(GetInputNameByIndex(index));
}

Status OpDesc::UpdateInputDesc(uint32_t index, const GeTensorDesc& desc) {
  if (index >= impl_->inputs.descs.size()) {
    return ParamInvalid("op '" + impl_->name + "' (" + impl_->type + ") has no input " +
                        std::to_string(index) + " (it has " +
                        std::to_string(impl_->inputs.descs.size()) + ")");
  }
  *impl_->inputs.descs[index] = desc;
  return Status::Ok();
}

Status OpDesc::UpdateInputDesc(const std::string& name, const GeTensorDesc& desc) {
  const int32_t idx = impl_->inputs.Find(name);
  if (idx < 0) return ParamInvalid("op '" + impl_->name + "' has no input named '" + name + "'");
  return UpdateInputDesc(static_cast<uint32_t>(idx), desc);
}

Status OpDesc::UpdateInputName(const std::map<std::string, std::string>& renames) {
  GE_RETURN_IF_ERROR(impl_->inputs.Rename(renames, impl_->name, "input"));
  std::set<std::string> optional;
  for (const auto& name : impl_->optional_inputs) {
    auto it = renames.find(name);
    optional.insert(it == renames.end() ? name : it->second);
  }
  impl_->optional_inputs = std::move(optional);
  return Status::Ok();
}

Status OpDesc::RemoveInputDesc(uint32_t index) {
  return impl_->inputs.Remove(index, impl_->name, "input");
}

bool OpDesc::InputIsSet(const std::string& name) const {
  const int32_t idx = impl_->inputs.Find(name);
  return idx >= 0 && impl_->inputs.descs[static_cast<size_t>(idx)]->IsValid();
}

size_t OpDesc::GetInputsSize() const {
  size_t count = 0;
  for (const auto& desc : impl_->inputs.descs) count += desc->IsValid() ? 1 : 0;
  return count;
}

size_t OpDesc::GetAllInputsSize() const { return impl_->inputs.descs.size(); }

const GeTensorDesc& OpDesc::GetInputDesc(uint32_t index) const {
  return index < impl_->inputs.descs.size() ? *impl_->inputs.descs[index] : EmptyDesc();
}

const GeTensorDesc& OpDesc::GetInputDesc(const std::string& name) const {
  const int32_t idx = impl_->inputs.Find(name);
  return idx < 0 ? EmptyDesc() : *impl_->inputs.descs[static_cast<size_t>(idx)];
}

GeTensorDescPtr OpDesc::MutableInputDesc(uint32_t index) const {
  return index < impl_->inputs.descs.size() ? impl_->inputs.descs[index] : nullptr;
}

GeTensorDescPtr OpDesc::MutableInputDesc(const std::string& name) const {
  const int32_t idx = impl_->inputs.Find(name);
  return idx < 0 ? nullptr : impl_->inputs.descs[static_cast<size_t>(idx)];
}

const GeTensorDesc* OpDesc::GetInputDescPtr(uint32_t index) const {
  return index < impl_->inputs.descs.size() ? impl_->inputs.descs[index].get() : nullptr;
}

std::vector<GeTensorDescPtr> OpDesc::GetAllInputsDescPtr() const { return impl_->inputs.descs; }

std::string OpDesc::GetInputNameByIndex(uint32_t index) const {
  return index < impl_->inputs.names.size() ? impl_->inputs.names[index] : std::string();
}

int32_t OpDesc::GetInputIndexByName(const std::string& name) const {
  return impl_->inputs.Find(name);
}

std::vector<std::string> OpDesc::GetAllInputNames() const { return impl_->inputs.names; }

// ---- outputs ----

Status OpDesc::AddOutputDesc(const GeTensorDesc& desc) {
  return AddOutputDesc(FreeDefaultName(impl_->outputs, "__output"), desc);
}

Status OpDesc::AddOutputDesc(const std::string& name, const GeTensorDesc& desc) {
  return impl_->outputs.Insert(impl_->outputs.descs.size(), name, desc, impl_->name, "output");
}

Status OpDesc::AddDynamicOutputDesc(const std::string& name, uint32_t num, bool is_push_back) {
  const size_t base = is_push_back ? impl_->outputs.descs.size() : 0;
  for (uint32_t i = 0; i < num; ++i) {
    if (impl_->outputs.Has(name + std::to_string(i))) {
      return ParamInvalid("op '" + impl_->name + "' already has an output named '" + name +
                          std::to_string(i) + "'");
    }
  }
  for (uint32_t i = 0; i < num; ++i) {
    GE_RETURN_IF_ERROR(impl_->outputs.Insert(base + i, name + std::to_string(i), GeTensorDesc(),
                                             impl_->name, "output"));
  }
  return Status::Ok();
}

Status OpDesc::UpdateOutputDesc(uint32_t index, const GeTensorDesc& desc) {
  if (index >= impl_->outputs.descs.size()) {
    return ParamInvalid("op '" + impl_->name + "' (" + impl_->type + ") has no output " +
                        std::to_string(index) + " (it has " +
                        std::to_string(impl_->outputs.descs.size()) + ")");
  }
  *impl_->outputs.descs[index] = desc;
  return Status::Ok();
}

Status OpDesc::UpdateOutputDesc(const std::string& name, const GeTensorDesc& desc) {
  const int32_t idx = impl_->outputs.Find(name);
  if (idx < 0) return ParamInvalid("op '" + impl_->name + "' has no output named '" + name + "'");
  return UpdateOutputDesc(static_cast<uint32_t>(idx), desc);
}

Status OpDesc::UpdateOutputName(const std::map<std::string, std::string>& renames) {
  return impl_->outputs.Rename(renames, impl_->name, "output");
}

Status OpDesc::RemoveOutputDesc(uint32_t index) {
  return impl_->outputs.Remove(index, impl_->name, "output");
}

size_t OpDesc::GetOutputsSize() const { return impl_->outputs.descs.size(); }

const GeTensorDesc& OpDesc::GetOutputDesc(uint32_t index) const {
  return index < impl_->outputs.descs.size() ? *impl_->outputs.descs[index] : EmptyDesc();
}

const GeTensorDesc& OpDesc::GetOutputDesc(const std::string& name) const {
  const int32_t idx = impl_->outputs.Find(name);
  return idx < 0 ? EmptyDesc() : *impl_->outputs.descs[static_cast<size_t>(idx)];
}

GeTensorDescPtr OpDesc::MutableOutputDesc(uint32_t index) const {
  return index < impl_->outputs.descs.size() ? impl_->outputs.descs[index] : nullptr;
}

GeTensorDescPtr OpDesc::MutableOutputDesc(const std::string& name) const {
  const int32_t idx = impl_->outputs.Find(name);
  return idx < 0 ? nullptr : impl_->outputs.descs[static_cast<size_t>(idx)];
}

const GeTensorDesc* OpDesc::GetOutputDescPtr(uint32_t index) const {
  return index < impl_->outputs.descs.size() ? impl_->outputs.descs[index].get() : nullptr;
}

std::vector<GeTensorDescPtr> OpDesc::GetAllOutputsDescPtr() const { return impl_->outputs.descs; }

std::string OpDesc::GetOutputNameByIndex(uint32_t index) const {
  return index < impl_->outputs.names.size() ? impl_->outputs.names[index] : std::string();
}

int32_t OpDesc::GetOutputIndexByName(const std::string& name) const {
  return impl_->outputs.Find(name);
}

std::vector<std::string> OpDesc::GetAllOutputNames() const { return impl_->outputs.names; }

// ---- IR metadata ----

void OpDesc::AppendIrInput(std::string name, IrInputType type) {
  impl_->ir_inputs.emplace_back(std::move(name), type);
}
const std::vector<std::pair<std::string, IrInputType>>& OpDesc::GetIrInputs() const {
  return impl_->ir_inputs;
}
void OpDesc::AppendIrOutput(std::string name, IrOutputType type) {
  impl_->ir_outputs.emplace_back(std::move(name), type);
}
const std::vector<std::pair<std::string, IrOutputType>>& OpDesc::GetIrOutputs() const {
  return impl_->ir_outputs;
}
void OpDesc::AppendIrAttrName(std::string name) { impl_->ir_attr_names.push_back(std::move(name)); }
const std::vector<std::string>& OpDesc::GetIrAttrNames() const { return impl_->ir_attr_names; }

// ---- subgraphs ----

Status OpDesc::AddSubgraphName(const std::string& ir_name, SubgraphType type) {
  if (!impl_->subgraph_ir_names.emplace(ir_name, type).second) {
    return ParamInvalid("op '" + impl_->name + "' already declares subgraph '" + ir_name + "'");
  }
  impl_->subgraph_name_indexes[ir_name] =
      static_cast<uint32_t>(impl_->subgraph_instance_names.size());
  if (type == kStatic) impl_->subgraph_instance_names.emplace_back();
  return Status::Ok();
}

const std::map<std::string, uint32_t>& OpDesc::GetSubgraphNameIndexes() const {
  return impl_->subgraph_name_indexes;
}

const std::map<std::string, SubgraphType>& OpDesc::GetSubgraphIrNames() const {
  return impl_->subgraph_ir_names;
}

const std::vector<std::string>& OpDesc::GetSubgraphInstanceNames() const {
  return impl_->subgraph_instance_names;
}

Status OpDesc::SetSubgraphInstanceName(uint32_t index, const std::string& instance_name) {
  if (index >= impl_->subgraph_instance_names.size()) {
    return ParamInvalid("op '" + impl_->name + "' has no subgraph slot " + std::to_string(index) +
                        " (it has " + std::to_string(impl_->subgraph_instance_names.size()) + ")");
  }
  impl_->subgraph_instance_names[index] = instance_name;
  return Status::Ok();
}

void OpDesc::AddSubgraphInstanceName(const std::string& instance_name) {
  impl_->subgraph_instance_names.push_back(instance_name);
}

void OpDesc::RemoveSubgraphInstanceName(const std::string& instance_name) {
  for (auto& name : impl_->subgraph_instance_names) {
    if (name == instance_name) name.clear();
  }
}

std::string OpDesc::GetSubgraphInstanceName(uint32_t index) const {
  return index < impl_->subgraph_instance_names.size() ? impl_->subgraph_instance_names[index]
                                                       : std::string();
}

// ---- functions ----

void OpDesc::SetInferShapeFunc(InferShapeFunc func) { impl_->infer_shape = std::move(func); }
const InferShapeFunc& OpDesc::GetInferShapeFunc() const { return impl_->infer_shape; }
void OpDesc::SetInferFormatFunc(InferFormatFunc func) { impl_->infer_format = std::move(func); }
const InferFormatFunc& OpDesc::GetInferFormatFunc() const { return impl_->infer_format; }
void OpDesc::SetVerifyFunc(VerifyFunc func) { impl_->verify = std::move(func); }
const VerifyFunc& OpDesc::GetVerifyFunc() const { return impl_->verify; }

Status OpDesc::InferShapeAndType(const InferInputs& inputs) {
  if (!impl_->infer_shape) {
    return Failed("node '" + impl_->name + "' (" + impl_->type +
                  ") has no infer-shape function: is its operator prototype registered?");
  }
  return TagWithNode(impl_->infer_shape(*this, inputs), "infer shape of");
}

Status OpDesc::InferFormat(const InferInputs& inputs) {
  if (!impl_->infer_format) return Status::Ok();
  return TagWithNode(impl_->infer_format(*this, inputs), "infer format of");
}

Status OpDesc::Verify(const InferInputs& inputs) const {
  if (!impl_->verify) return Status::Ok();
  return TagWithNode(impl_->verify(*this, inputs), "verify");
}

// A function's error names the node: the prototype's already do ("node 'x' (Type): ..."); a
// hand-set function's gets the node prefixed.
Status OpDesc::TagWithNode(Status status, const char* what) const {
  const std::string who = "node '" + impl_->name + "' (" + impl_->type + ")";
  if (status.ok() || status.message().rfind(who, 0) == 0) return status;
  return std::move(status).Prefix(std::string(what) + " " + who);
}

// ---- compile state ----

int64_t OpDesc::GetId() const { return impl_->id; }
void OpDesc::SetId(int64_t id) { impl_->id = id; }
int64_t OpDesc::GetStreamId() const { return impl_->stream_id; }
void OpDesc::SetStreamId(int64_t stream_id) { impl_->stream_id = stream_id; }
const std::vector<int64_t>& OpDesc::GetInputOffset() const { return impl_->input_offset; }
void OpDesc::SetInputOffset(std::vector<int64_t> v) { impl_->input_offset = std::move(v); }
const std::vector<int64_t>& OpDesc::GetOutputOffset() const { return impl_->output_offset; }
void OpDesc::SetOutputOffset(std::vector<int64_t> v) { impl_->output_offset = std::move(v); }
const std::vector<int64_t>& OpDesc::GetWorkspace() const { return impl_->workspace; }
void OpDesc::SetWorkspace(std::vector<int64_t> v) { impl_->workspace = std::move(v); }
const std::vector<int64_t>& OpDesc::GetWorkspaceBytes() const { return impl_->workspace_bytes; }
void OpDesc::SetWorkspaceBytes(std::vector<int64_t> v) { impl_->workspace_bytes = std::move(v); }
const std::vector<bool>& OpDesc::GetIsInputConst() const { return impl_->is_input_const; }
void OpDesc::SetIsInputConst(std::vector<bool> v) { impl_->is_input_const = std::move(v); }
const std::vector<std::string>& OpDesc::GetInputName() const { return impl_->input_name; }
void OpDesc::SetInputName(std::vector<std::string> v) { impl_->input_name = std::move(v); }
const std::vector<std::string>& OpDesc::GetSrcName() const { return impl_->src_name; }
void OpDesc::SetSrcName(std::vector<std::string> v) { impl_->src_name = std::move(v); }
const std::vector<int64_t>& OpDesc::GetSrcIndex() const { return impl_->src_index; }
void OpDesc::SetSrcIndex(std::vector<int64_t> v) { impl_->src_index = std::move(v); }
const std::vector<std::string>& OpDesc::GetDstName() const { return impl_->dst_name; }
void OpDesc::SetDstName(std::vector<std::string> v) { impl_->dst_name = std::move(v); }
const std::vector<int64_t>& OpDesc::GetDstIndex() const { return impl_->dst_index; }
void OpDesc::SetDstIndex(std::vector<int64_t> v) { impl_->dst_index = std::move(v); }
const std::string& OpDesc::GetOpEngineName() const { return impl_->engine_name; }
void OpDesc::SetOpEngineName(std::string name) { impl_->engine_name = std::move(name); }
const std::string& OpDesc::GetOpKernelLibName() const { return impl_->kernel_lib_name; }
void OpDesc::SetOpKernelLibName(std::string name) { impl_->kernel_lib_name = std::move(name); }

bool OpDesc::operator==(const OpDesc& other) const {
  const Impl& a = *impl_;
  const Impl& b = *other.impl_;
  return a.name == b.name && a.type == b.type && a.inputs == b.inputs && a.outputs == b.outputs &&
         a.optional_inputs == b.optional_inputs && a.ir_inputs == b.ir_inputs &&
         a.ir_outputs == b.ir_outputs && a.ir_attr_names == b.ir_attr_names &&
         a.subgraph_ir_names == b.subgraph_ir_names &&
         a.subgraph_instance_names == b.subgraph_instance_names && a.id == b.id &&
         a.stream_id == b.stream_id && a.input_offset == b.input_offset &&
         a.output_offset == b.output_offset && a.workspace == b.workspace &&
         a.workspace_bytes == b.workspace_bytes && a.is_input_const == b.is_input_const &&
         a.input_name == b.input_name && a.src_name == b.src_name && a.src_index == b.src_index &&
         a.dst_name == b.dst_name && a.dst_index == b.dst_index && a.engine_name == b.engine_name &&
         a.kernel_lib_name == b.kernel_lib_name && attrs_ == other.attrs_;
}

}  // namespace ge

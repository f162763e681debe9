// OpRegistry (type → prototype), OpDesc creation from prototypes, and OperatorFactory.
#include "ge/ops/op_registry.h"

#include <set>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_context.h"
#include "infer_runner.h"

namespace ge {

OpRegistry::OpRegistry() = default;
OpRegistry::~OpRegistry() = default;

OpRegistry& OpRegistry::Instance() {
  static auto* registry = new OpRegistry();  // never destroyed: plugins hold no exit-time state
  return *registry;
}

namespace {
std::string DuplicateMessage(const std::string& type, const std::string& source,
                             const std::string& previous) {
  return "operator type '" + type + "' from library '" + source +
         "' is already registered by library '" + previous +
         "'; load the library with overriding on (option ge.opsProtoLibOverride) to replace it";
}
}  // namespace

Status OpRegistry::Register(OpProto proto, const std::string& source, bool allow_override) {
  std::vector<OpProto> one;
  one.push_back(std::move(proto));
  return RegisterAll(std::move(one), source, allow_override);
}

Status OpRegistry::RegisterAll(std::vector<OpProto> protos, const std::string& source,
                               bool allow_override) {
  std::unique_lock lock(mutex_);
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const auto& proto : protos) {
    if (!seen.insert(proto.type()).second) {
      problems.push_back("operator type '" + proto.type() + "' is registered twice by library '" +
                         source + "'");
      continue;
    }
    auto it = entries_.find(proto.type());
    if (it != entries_.end() && !allow_override) {
      problems.push_back(DuplicateMessage(proto.type(), source, it->second.source));
    }
  }
  if (!problems.empty()) {
    std::string message;
    for (const auto& p : problems) message += (message.empty() ? "" : "; ") + p;
    return ParamInvalid(message);
  }
  for (auto& proto : protos) {
    std::string type = proto.type();
    entries_[type] = Entry{std::make_shared<const OpProto>(std::move(proto)), source};
  }
  return Status::Ok();
}

std::shared_ptr<const OpProto> OpRegistry::Find(const std::string& type) const {
  std::shared_lock lock(mutex_);
  auto it = entries_.find(type);
  return it == entries_.end() ? nullptr : it->second.proto;
}

bool OpRegistry::Has(const std::string& type) const { return Find(type) != nullptr; }

OpTraits OpRegistry::TraitsOf(const std::string& type) const {
  std::shared_ptr<const OpProto> proto = Find(type);
  return proto != nullptr ? proto->traits() : OpTraits{};
}

std::string OpRegistry::SourceOf(const std::string& type) const {
  std::shared_lock lock(mutex_);
  auto it = entries_.find(type);
  return it == entries_.end() ? std::string() : it->second.source;
}

std::vector<std::string> OpRegistry::GetAllTypes() const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& [type, entry] : entries_) out.push_back(type);
  return out;
}

size_t OpRegistry::size() const {
  std::shared_lock lock(mutex_);
  return entries_.size();
}

void OpRegistry::Clear() {
  std::unique_lock lock(mutex_);
  entries_.clear();
}

namespace {

Status NotRegistered(const std::string& type, const std::string& name) {
  return ParamInvalid("node '" + name + "' has operator type '" + type +
                      "', which no loaded prototype library registers");
}

void InstallFunctions(const std::shared_ptr<const OpProto>& proto, OpDesc& op) {
  op.SetInferShapeFunc([proto](OpDesc& desc, const InferInputs& inputs) {
    InferContext ctx(desc, proto.get());
    BindInputs(inputs, ctx);
    return RunInferShape(*proto, ctx);
  });
  op.SetVerifyFunc([proto](const OpDesc& desc, const InferInputs& inputs) {
    // Verify functions only read; InferContext's mutable view is not used for writing here.
    InferContext ctx(const_cast<OpDesc&>(desc), proto.get());
    BindInputs(inputs, ctx);
    return RunVerify(*proto, ctx);
  });
  if (proto->infer_format()) {
    op.SetInferFormatFunc([proto](OpDesc& desc, const InferInputs& inputs) {
      InferContext ctx(desc, proto.get());
      BindInputs(inputs, ctx);
      return proto->infer_format()(ctx);
    });
  }
}

}  // namespace

Result<OpDescPtr> OpRegistry::CreateOpDesc(const std::string& type, const std::string& name,
                                           const DynamicPortCounts& counts) const {
  auto proto = Find(type);
  if (proto == nullptr) return NotRegistered(type, name);
  std::set<std::string> used;
  auto count_of = [&](const std::string& port) -> uint32_t {
    auto it = counts.find(port);
    if (it == counts.end()) return 0;
    used.insert(port);
    return it->second;
  };
  auto op = std::make_shared<OpDesc>(name, type);
  GeTensorDesc undefined;
  undefined.SetDataType(DT_UNDEFINED);
  for (const auto& in : proto->inputs()) {
    op->AppendIrInput(in.name, in.kind);
    switch (in.kind) {
      case kIrInputRequired:
        GE_RETURN_IF_ERROR(op->AddInputDesc(in.name, GeTensorDesc()));
        break;
      case kIrInputOptional:
        GE_RETURN_IF_ERROR(op->AddOptionalInputDesc(in.name, undefined));
        break;
      case kIrInputDynamic:
        GE_RETURN_IF_ERROR(op->AddDynamicInputDesc(in.name, count_of(in.name)));
        break;
    }
  }
  for (const auto& out : proto->outputs()) {
    op->AppendIrOutput(out.name, out.kind);
    if (out.kind == kIrOutputDynamic) {
      GE_RETURN_IF_ERROR(op->AddDynamicOutputDesc(out.name, count_of(out.name)));
    } else {
      GE_RETURN_IF_ERROR(op->AddOutputDesc(out.name, GeTensorDesc()));
    }
  }
  for (const auto& attr : proto->attrs()) {
    op->AppendIrAttrName(attr.name);
    if (!attr.default_value.IsNone()) AttrUtils::SetAttr(op, attr.name, attr.default_value);
  }
  for (const auto& sg : proto->subgraphs()) {
    GE_RETURN_IF_ERROR(op->AddSubgraphName(sg.name, sg.kind));
    if (sg.kind == kDynamic) {
      const uint32_t n = count_of(sg.name);
      for (uint32_t i = 0; i < n; ++i) op->AddSubgraphInstanceName("");
    }
  }
  for (const auto& [port, n] : counts) {
    if (used.count(port) == 0) {
      return ParamInvalid("cannot create node '" + name + "': operator type '" + type +
                          "' has no dynamic input, output or subgraph named '" + port + "'");
    }
  }
  InstallFunctions(proto, *op);
  return op;
}

Status OpRegistry::AttachProto(OpDesc& op) const {
  auto proto = Find(op.GetType());
  if (proto == nullptr) return NotRegistered(op.GetType(), op.GetName());
  if (op.GetIrInputs().empty() && op.GetIrOutputs().empty() && op.GetIrAttrNames().empty()) {
    for (const auto& in : proto->inputs()) op.AppendIrInput(in.name, in.kind);
    for (const auto& out : proto->outputs()) op.AppendIrOutput(out.name, out.kind);
    for (const auto& attr : proto->attrs()) op.AppendIrAttrName(attr.name);
  }
  InstallFunctions(proto, op);
  return Status::Ok();
}

Status OpRegistry::InferShape(OpDesc& op) const {
  auto proto = Find(op.GetType());
  if (proto == nullptr) return NotRegistered(op.GetType(), op.GetName());
  InferContext ctx(op, proto.get());
  return RunInferShape(*proto, ctx);
}

Status OpRegistry::InferShape(OpDesc& op, const std::vector<const GeTensor*>& input_values,
                              const std::vector<bool>& input_absent) const {
  auto proto = Find(op.GetType());
  if (proto == nullptr) return NotRegistered(op.GetType(), op.GetName());
  InferContext ctx(op, proto.get());
  for (size_t i = 0; i < input_absent.size(); ++i) {
    if (input_absent[i]) ctx.SetInputAbsent(i);
  }
  for (size_t i = 0; i < input_values.size(); ++i) {
    if (input_values[i] != nullptr) ctx.SetConstInput(i, input_values[i]);
  }
  return RunInferShape(*proto, ctx);
}

// A graph node runs its OpDesc's own functions, the ones the prototype installed when the node
// was created (CreateOpDesc) or a caller set; a node made without them (read from a file, built
// by hand) gets its prototype's first.
Status OpRegistry::FunctionsFor(const NodePtr& node, const char* what) const {
  if (node == nullptr) return ParamInvalid(std::string(what) + ": null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  if (!op.GetInferShapeFunc() || !op.GetVerifyFunc()) {
    if (Find(op.GetType()) == nullptr) return NotRegistered(op.GetType(), op.GetName());
    GE_RETURN_IF_ERROR(AttachProto(op));
  }
  UpdateInputsFromPeers(*node);
  return Status::Ok();
}

Status OpRegistry::InferShape(const NodePtr& node) const {
  GE_RETURN_IF_ERROR(FunctionsFor(node, "InferShape"));
  return node->GetOpDescBarePtr()->InferShapeAndType(GraphInputsOf(*node));
}

Status OpRegistry::InferFormat(const NodePtr& node) const {
  GE_RETURN_IF_ERROR(FunctionsFor(node, "InferFormat"));
  Status status = node->GetOpDescBarePtr()->InferFormat(GraphInputsOf(*node));
  if (!status.ok())
    return std::move(status).Prefix("format inference of node '" + node->GetName() + "'");
  return status;
}

Status OpRegistry::Verify(const OpDesc& op) const {
  auto proto = Find(op.GetType());
  if (proto == nullptr) return NotRegistered(op.GetType(), op.GetName());
  InferContext ctx(const_cast<OpDesc&>(op), proto.get());
  return RunVerify(*proto, ctx);
}

Status OpRegistry::Verify(const NodePtr& node) const {
  GE_RETURN_IF_ERROR(FunctionsFor(node, "Verify"));
  return node->GetOpDescBarePtr()->Verify(GraphInputsOf(*node));
}

Result<OpDescPtr> OperatorFactory::CreateOperator(const std::string& name, const std::string& type,
                                                  const DynamicPortCounts& counts) {
  return OpRegistry::Instance().CreateOpDesc(type, name, counts);
}

bool OperatorFactory::IsExistOp(const std::string& type) {
  return OpRegistry::Instance().Has(type);
}

std::vector<std::string> OperatorFactory::GetOpsTypeList() {
  return OpRegistry::Instance().GetAllTypes();
}

}  // namespace ge

// The generic parts of inference and verification that every prototype gets.
#include "infer_runner.h"

#include <map>

#include "ge/graph/anchor.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {

namespace {

Status CheckRequiredInputs(const OpProto& proto, InferContext& ctx) {
  for (const auto& in : proto.inputs()) {
    if (in.kind != kIrInputRequired) continue;
    const auto idx = ctx.InputIndices(in.name);
    if (idx.empty() || !ctx.HasInput(idx[0])) {
      return ctx.Error("required input '" + in.name + "' is missing or has no valid desc");
    }
  }
  return Status::Ok();
}

// Dtype of the first present input using `symbol`, or DT_UNDEFINED.
DataType SymbolDataType(const OpProto& proto, const InferContext& ctx, const std::string& symbol) {
  for (const auto& in : proto.inputs()) {
    if (in.type_symbol != symbol) continue;
    for (size_t i : ctx.InputIndices(in.name)) {
      if (ctx.HasInput(i)) return ctx.InputDataType(i);
    }
  }
  return DT_UNDEFINED;
}

// Output indices of IR output `def` (by name, or by position for unnamed outputs).
std::vector<size_t> OutputIndices(const OpProto& proto, const InferContext& ctx,
                                  const OpOutputDef& def) {
  std::vector<size_t> out;
  const std::string& name = def.name;
  for (size_t i = 0; i < ctx.NumOutputs(); ++i) {
    const std::string actual = ctx.op().GetOutputNameByIndex(static_cast<uint32_t>(i));
    const bool mine =
        def.kind == kIrOutputDynamic
            ? actual.size() > name.size() && actual.compare(0, name.size(), name) == 0 &&
                  actual.find_first_not_of("0123456789", name.size()) == std::string::npos
            : actual == name;
    if (mine) out.push_back(i);
  }
  if (!out.empty() || def.kind == kIrOutputDynamic) return out;
  size_t position = 0;
  for (const auto& o : proto.outputs()) {
    if (o.name == name) break;
    if (o.kind == kIrOutputDynamic) return out;
    ++position;
  }
  if (position < ctx.NumOutputs() &&
      ctx.op().GetOutputNameByIndex(static_cast<uint32_t>(position)).rfind("__output", 0) == 0) {
    out.push_back(position);
  }
  return out;
}

void PropagateDataTypes(const OpProto& proto, InferContext& ctx) {
  for (const auto& out : proto.outputs()) {
    const auto allowed = proto.AllowedTypes(out.type_symbol).Types();
    const DataType dt =
        allowed.size() == 1 ? allowed[0] : SymbolDataType(proto, ctx, out.type_symbol);
    if (dt == DT_UNDEFINED) continue;
    for (size_t i : OutputIndices(proto, ctx, out)) ctx.MutableOutputDesc(i)->SetDataType(dt);
  }
}

// The node's input ports whose names bind to no input of the prototype ("__input0" of a graph
// file without port names).
std::vector<std::string> StrayInputs(const OpProto& proto, const InferContext& ctx) {
  std::vector<bool> bound(ctx.NumInputs(), false);
  for (const auto& in : proto.inputs()) {
    for (size_t i : ctx.InputIndices(in.name)) bound[i] = true;
  }
  std::vector<std::string> stray;
  for (size_t i = 0; i < bound.size(); ++i) {
    if (!bound[i]) stray.push_back(ctx.InputName(i));
  }
  return stray;
}

// An output whose dtype is its inputs' (a type symbol it shares with them) is read by the
// consumers' kernels: once inference has run it must have one. Says why it has none, naming the
// input that should have given it.
Status CheckOutputDataTypes(const OpProto& proto, InferContext& ctx) {
  for (const auto& out : proto.outputs()) {
    for (size_t o : OutputIndices(proto, ctx, out)) {
      if (ctx.OutputDataType(o) != DT_UNDEFINED) continue;
      const std::string output = out.kind == kIrOutputDynamic ? ctx.OutputName(o) : out.name;
      const std::string head = "output '" + output + "' has no dtype: ";
      for (const auto& in : proto.inputs()) {
        if (in.type_symbol != out.type_symbol) continue;
        const std::vector<size_t> indices = ctx.InputIndices(in.name);
        for (size_t i : indices) {
          if (ctx.HasInput(i) && ctx.InputDataType(i) == DT_UNDEFINED) {
            return ctx.Error(head + "input '" + ctx.InputName(i) + "' has none (its producer " +
                             "gives none)");
          }
        }
        const std::vector<std::string> stray = StrayInputs(proto, ctx);
        if (indices.empty() && !stray.empty()) {
          std::string names;
          for (const std::string& n : stray) names += (names.empty() ? "" : ", ") + n;
          return ctx.Error(head + "input '" + in.name + "' has no dtype: its ports (" + names +
                           ") are not named after the operator's inputs (name them with " +
                           "_input_name_key, or let VerifyNodes name them by position)");
        }
      }
    }
  }
  return Status::Ok();
}

Status CheckAttributes(const OpProto& proto, InferContext& ctx) {
  for (const auto& def : proto.attrs()) {
    const AttrValue* v = AttrUtils::GetAttr(ctx.op(), def.name);
    if (v == nullptr) {
      if (def.required) return ctx.Error("required attribute '" + def.name + "' is missing");
      continue;
    }
    if (v->GetType() != def.type) {
      return ctx.Error("attribute '" + def.name + "' is " + AttrValue::TypeName(v->GetType()) +
                       ", expected " + AttrValue::TypeName(def.type));
    }
  }
  return Status::Ok();
}

Status CheckDataTypes(const OpProto& proto, InferContext& ctx) {
  std::map<std::string, size_t> first_of_symbol;  // symbol → index of the first input using it
  for (const auto& in : proto.inputs()) {
    const TensorType& allowed = proto.AllowedTypes(in.type_symbol);
    for (size_t i : ctx.InputIndices(in.name)) {
      if (!ctx.HasInput(i)) continue;
      const DataType dt = ctx.InputDataType(i);
      if (!allowed.Contains(dt)) {
        return ctx.Error("input " + ctx.InputName(i) + " has dtype " +
                         TypeUtils::DataTypeToSerialString(dt) + ", expected one of " +
                         allowed.ToString());
      }
      // A private symbol ("__port", from a port declared with a TensorType) makes each instance
      // of the port independent: NetOutput's or IdentityN's inputs may all differ.
      if (in.type_symbol.rfind("__", 0) == 0) continue;
      auto [it, inserted] = first_of_symbol.emplace(in.type_symbol, i);
      if (!inserted && ctx.InputDataType(it->second) != dt) {
        return ctx.Error("input " + ctx.InputName(i) + " has dtype " +
                         TypeUtils::DataTypeToSerialString(dt) + " but input " +
                         ctx.InputName(it->second) + " has " +
                         TypeUtils::DataTypeToSerialString(ctx.InputDataType(it->second)) +
                         " (both must have the same type " + in.type_symbol + ")");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status RunInferShape(const OpProto& proto, InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckRequiredInputs(proto, ctx));
  PropagateDataTypes(proto, ctx);
  GE_RETURN_IF_ERROR(proto.infer_shape()(ctx));
  return CheckOutputDataTypes(proto, ctx);
}

Status RunVerify(const OpProto& proto, InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckRequiredInputs(proto, ctx));
  GE_RETURN_IF_ERROR(CheckAttributes(proto, ctx));
  GE_RETURN_IF_ERROR(CheckDataTypes(proto, ctx));
  if (proto.verify()) return proto.verify()(ctx);
  return Status::Ok();
}

void UpdateInputsFromPeers(const Node& node) {
  OpDesc& op = *node.GetOpDescBarePtr();
  for (const auto& in : node.GetAllInDataAnchors()) {
    const OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
    if (peer == nullptr) continue;
    NodePtr producer = peer->GetOwnerNode();
    if (producer == nullptr) continue;
    const GeTensorDesc* src =
        producer->GetOpDescBarePtr()->GetOutputDescPtr(static_cast<uint32_t>(peer->GetIdx()));
    GeTensorDescPtr dst = op.MutableInputDesc(static_cast<uint32_t>(in->GetIdx()));
    if (src == nullptr || dst == nullptr) continue;
    dst->SetShape(src->GetShape());
    dst->SetOriginShape(src->GetOriginShape());
    dst->SetDataType(src->GetDataType());
    dst->SetOriginDataType(src->GetOriginDataType());
    dst->SetFormat(src->GetFormat());
    dst->SetOriginFormat(src->GetOriginFormat());
    // The expressions of dims known only at run time travel with them (symbolic shapes).
    std::vector<std::string> symbolic;
    if (AttrUtils::GetListStr(*src, kAttrSymbolicDims, symbolic)) {
      (void)AttrUtils::SetListStr(*dst, kAttrSymbolicDims, symbolic);
    }
    // So do what a sequence or optional holds (composite_value.h).
    std::string value_type;
    if (AttrUtils::GetStr(*src, kAttrValueType, value_type)) {
      (void)AttrUtils::SetStr(*dst, kAttrValueType, value_type);
    }
  }
}

InferInputs GraphInputsOf(const Node& node) {
  InferInputs inputs;
  const size_t count = node.GetAllInDataAnchorsSize();
  inputs.values.assign(count, nullptr);
  inputs.absent.assign(count, false);
  for (const auto& in : node.GetAllInDataAnchors()) {
    const auto idx = static_cast<size_t>(in->GetIdx());
    if (idx >= count) continue;
    const OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
    if (peer == nullptr) {
      inputs.absent[idx] = true;
      continue;
    }
    const Node* producer = peer->GetOwnerNodeBarePtr();
    if (producer != nullptr && NodeUtils::IsConst(*producer)) {
      inputs.values[idx] =
          AttrUtils::GetPtr<GeTensor>(producer->GetOpDescBarePtr(), kAttrConstValue);
    }
  }
  return inputs;
}

void BindInputs(const InferInputs& inputs, InferContext& ctx) {
  for (size_t i = 0; i < inputs.absent.size(); ++i) {
    if (inputs.absent[i]) ctx.SetInputAbsent(i);
  }
  for (size_t i = 0; i < inputs.values.size(); ++i) {
    if (inputs.values[i] != nullptr) ctx.SetConstInput(i, inputs.values[i]);
  }
}

}  // namespace ge

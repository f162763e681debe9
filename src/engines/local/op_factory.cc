// OpFactory: registration and creation of GE Local operators.
#include "op_factory.h"

#include "ge_local_constants.h"

namespace ge::ge_local {

Op::Op(const Node& node, RunContext& context)
    : node_(node), context_(context), name_(node.GetName()), type_(node.GetType()) {}

Status OpFactory::RegisterCreator(const std::string& type, OpCreator creator) {
  if (type.empty()) return ParamInvalid("GE Local op factory: cannot register an empty op type");
  if (!creator) {
    return ParamInvalid("GE Local op factory: null creator for op type '" + type + "'");
  }
  if (!creators_.emplace(type, std::move(creator)).second) {
    return ParamInvalid("GE Local op factory: op type '" + type + "' is already registered");
  }
  return Status::Ok();
}

std::vector<std::string> OpFactory::GetAllOps() const {
  std::vector<std::string> types;
  types.reserve(creators_.size());
  for (const auto& [type, creator] : creators_) types.push_back(type);
  return types;
}

Result<std::unique_ptr<Op>> OpFactory::CreateOp(const Node& node, RunContext& context) const {
  const auto it = creators_.find(node.GetType());
  if (it == creators_.end()) {
    return ParamInvalid("node '" + node.GetName() + "' (type " + node.GetType() +
                        ") is not an operator of the " + kEngineName +
                        " engine (its type is not registered in the GE Local op factory); "
                        "place it on an engine that supports it");
  }
  std::unique_ptr<Op> op = it->second(node, context);
  if (op == nullptr) {
    return InternalError("GE Local op factory: creating the op of node '" + node.GetName() +
                         "' (type " + node.GetType() + ") failed");
  }
  return op;
}

}  // namespace ge::ge_local

// NoOp and GeDeletedOp, the GE Local type lists, and their registration.
#include "ge_local_ops.h"

#include <array>
#include <map>
#include <string>

#include "ge_local_constants.h"
#include "ge_local_traits.h"

namespace ge::ge_local {
namespace {

constexpr std::array<std::string_view, 59> kNoOpTypes = {
    "Data", "RefData", "QueueData", "AippData", "NoOp", "Variable", "Constant", "Const",
    "ControlTrigger", "Merge", "FileConstant", "ConstPlaceHolder",
    // Functional ops.
    "If", "_If", "StatelessIf", "Case", "StatelessCase", "While", "_While", "StatelessWhile", "For",
    "PartitionedCall", "StatefulPartitionedCall", "OpTiling", "ConditionCalc", "UnfedData",
    // ONNX's functional ops, which GE lowers to While before placement: here the runtime runs
    // them directly, so they are placed like GE's own functional ops.
    "Loop", "Scan", "SequenceMap",
    // Data-flow ops.
    "Stack", "StackPush", "StackPop", "StackClose",
    // Views and continuous-memory ops.
    "Reshape", "Bitcast", "PhonyConcat", "PhonySplit", "Flatten", "FlattenV2", "ExpandDims",
    "ReFormat", "Squeeze", "Unsqueeze", "SqueezeV2", "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3",
    // ONNX's sequences and optionals: the runtime keeps them as the tensors they hold and runs
    // these itself.
    "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase", "SequenceAt",
    "SequenceLength", "SplitToSequence", "ConcatFromSequence", "Optional", "OptionalHasElement",
    "OptionalGetElement", "ZipMap"};

constexpr std::array<std::string_view, 29> kGeDeletedOpTypes = {"TemporaryVariable",
                                                                "DestroyTemporaryVariable",
                                                                "GuaranteeConst",
                                                                "PreventGradient",
                                                                "StopGradient",
                                                                "Size",
                                                                "Shape",
                                                                "ShapeN",
                                                                "Rank",
                                                                "_Retval",
                                                                "ReadVariableOp",
                                                                "VarHandleOp",
                                                                "VarIsInitializedOp",
                                                                "Snapshot",
                                                                "RefIdentity",
                                                                "Identity",
                                                                "IdentityN",
                                                                "VariableV2",
                                                                "Empty",
                                                                "PlaceholderWithDefault",
                                                                "IsVariableInitialized",
                                                                "PlaceholderV2",
                                                                "Placeholder",
                                                                "End",
                                                                "Switch",
                                                                "RefMerge",
                                                                "RefSwitch",
                                                                "TransShape",
                                                                "GatherShapes"};

/// How the error messages call the passes that remove GeDeletedOps (the prototype's traits say
/// which pass removes which type, and under which option).
std::string DescribePass(const std::string& pass_name) {
  if (pass_name == "ConstantFolding") return "constant folding";
  if (pass_name == "RemoveIdentity") return "identity removal";
  return "the pass " + pass_name;
}

/// True when the comma-separated openge.disablePasses of `options` names `pass`.
bool PassDisabled(const std::map<std::string, std::string>& options, const std::string& pass,
                  std::string* list) {
  const auto it = options.find("openge.disablePasses");
  if (it == options.end()) return false;
  *list = it->second;
  size_t start = 0;
  while (start <= list->size()) {
    size_t end = list->find(',', start);
    if (end == std::string::npos) end = list->size();
    std::string name = list->substr(start, end - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (name == pass) return true;
    start = end + 1;
  }
  return false;
}

// "1"/"true" → on, "0"/"false" → off, anything else → unreadable.
enum class Switch { kOn, kOff, kUnreadable };
Switch ParseSwitch(const std::string& value) {
  if (value == "1" || value == "true" || value == "True") return Switch::kOn;
  if (value == "0" || value == "false" || value == "False") return Switch::kOff;
  return Switch::kUnreadable;
}

template <typename T>
std::unique_ptr<Op> Create(const Node& node, RunContext& context) {
  return std::make_unique<T>(node, context);
}

}  // namespace

std::span<const std::string_view> NoOpTypes() { return kNoOpTypes; }
std::span<const std::string_view> GeDeletedOpTypes() { return kGeDeletedOpTypes; }

Status GeDeletedOp::Run() {
  const std::string who = "node '" + name_ + "' (type " + type_ + ")";
  const OpTraits traits = TraitsOf(type_);
  if (traits.deleted_by_pass.empty() && !traits.deleted_before.empty()) {
    return Failed(who + " must not reach the compiler: no pass of OpenGE removes " + type_ +
                  " nodes (GE Local has no kernel for them, a GeDeletedOp). " +
                  traits.deleted_before + ".");
  }
  if (traits.deleted_by_pass.empty()) {
    return Failed(who +
                  " should have been removed by graph optimization before task "
                  "generation; GE Local has no kernel for " +
                  type_ + " (a GeDeletedOp). Check that the passes that delete " + type_ +
                  " nodes ran on this graph.");
  }
  const std::string& pass_name = traits.deleted_by_pass;
  const std::string pass = DescribePass(pass_name);
  std::string disabled;
  if (PassDisabled(context_.options, pass_name, &disabled)) {
    return Failed(who + " was not removed because " + pass + " is switched off (the pass " +
                  pass_name + " is in openge.disablePasses=" + disabled + "); leave " + pass_name +
                  " on for this node to be removed.");
  }
  if (traits.deleted_by_option.empty()) {
    return Failed(who + " survived although " + pass + " (the pass " + pass_name +
                  ") is enabled: the pass that should have removed it is not working; please "
                  "report this with the graph.");
  }
  const std::string& option = traits.deleted_by_option;
  const auto value = context_.options.find(option);
  if (value == context_.options.end()) {
    return Failed(who + " should have been removed by " + pass + ", but the option " + option +
                  " could not be read (it is not set); set " + option + "=1 so that " + pass +
                  " removes it.");
  }
  switch (ParseSwitch(value->second)) {
    case Switch::kUnreadable:
      return Failed(who + " should have been removed by " + pass + ", but the option " + option +
                    " could not be read (its value '" + value->second +
                    "' is neither 1/true nor 0/false); set " + option + "=1 so that " + pass +
                    " removes it.");
    case Switch::kOff:
      return Failed(who + " was not removed because " + pass + " is disabled (" + option + "=" +
                    value->second + "); " + option + " must be on (set " + option +
                    "=1) for this node to be removed.");
    case Switch::kOn:
      break;
  }
  return Failed(who + " survived although " + pass + " is enabled (" + option + "=" +
                value->second +
                "): the pass that should have removed it is not working; "
                "please report this with the graph.");
}

Status RegisterGeLocalOps(OpFactory& factory) {
  for (std::string_view type : kNoOpTypes) {
    GE_RETURN_IF_ERROR(factory.RegisterCreator(std::string(type), Create<NoOp>));
  }
  for (std::string_view type : kGeDeletedOpTypes) {
    GE_RETURN_IF_ERROR(factory.RegisterCreator(std::string(type), Create<GeDeletedOp>));
  }
  return Status::Ok();
}

}  // namespace ge::ge_local

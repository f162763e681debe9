// Naming the ports of an OpDesc that came without port names after its prototype.
//
// A graph file whose op carries no `_input_name_key` / `_input_name_value` gives its ports the
// default names "__input<i>" / "__output<i>", which name no IR port: inference would find none of
// a dynamic input's instances and give the outputs no dtype. Here the ports are bound to the IR
// ports by position, as CreateOpDesc names them: a fixed port by its IR name, a dynamic input `x`
// as x0, x1, ... over the ports the others leave. Trailing optional inputs (and trailing dynamic
// ones, with no instances) may be absent. Every candidate binding is tried (0, 1, ... trailing
// ports absent); the ports are renamed only when exactly one distinct binding fits.
#include <algorithm>
#include <limits>
#include <map>

#include "ge/ops/op_registry.h"

namespace ge {
namespace {

struct IrPort {
  std::string name;
  bool optional = false;
  bool dynamic = false;
};

bool AllDefaultNames(const std::vector<std::string>& names, const std::string& prefix) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] != prefix + std::to_string(i)) return false;
  }
  return true;
}

std::string Describe(const std::vector<IrPort>& ports) {
  std::string out;
  for (const IrPort& p : ports) {
    out += (out.empty() ? "" : ", ") + p.name + (p.dynamic ? "..." : p.optional ? "?" : "");
  }
  return out.empty() ? "none" : out;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The names of `count` ports bound to `ports` by position, or an error saying why they cannot
// be (`what` is "input" or "output").
Result<std::vector<std::string>> BindByPosition(const OpDesc& op, const std::vector<IrPort>& ports,
                                                size_t count, const std::string& what) {
  size_t trailing = 0;  // ports at the end that may be absent
  while (trailing < ports.size() && (ports[ports.size() - 1 - trailing].optional ||
                                     ports[ports.size() - 1 - trailing].dynamic))
    ++trailing;
  std::vector<std::vector<std::string>> bindings;
  size_t fewest = std::numeric_limits<size_t>::max();
  bool split_unknown = false;  // two dynamic ports would share the extra ports
  for (size_t absent = 0; absent <= trailing; ++absent) {
    const size_t kept = ports.size() - absent;
    size_t fixed = 0;
    size_t dynamic = 0;
    for (size_t i = 0; i < kept; ++i) (ports[i].dynamic ? dynamic : fixed) += 1;
    fewest = std::min(fewest, fixed);
    if (count < fixed || (dynamic == 0 && count != fixed)) continue;
    const size_t extra = count - fixed;
    if (dynamic > 1 && extra > 0) {
      split_unknown = true;
      continue;
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < kept; ++i) {
      if (!ports[i].dynamic) {
        names.push_back(ports[i].name);
        continue;
      }
      for (size_t k = 0; k < extra; ++k) names.push_back(ports[i].name + std::to_string(k));
    }
    if (std::find(bindings.begin(), bindings.end(), names) == bindings.end()) {
      bindings.push_back(std::move(names));
    }
  }
  if (bindings.size() == 1 && !split_unknown) return bindings[0];
  std::string cause;
  if (split_unknown) {
    cause = "more than one dynamic " + what + " could take the ports past the fixed ones";
  } else if (bindings.size() > 1) {
    cause =
        "they fit in more than one way (" + Join(bindings[0]) + " or " + Join(bindings[1]) + ")";
  } else if (count < fewest) {
    cause = "the operator needs at least " + std::to_string(fewest);
  } else {
    cause = "the operator takes at most " + std::to_string(ports.size());
  }
  return ParamInvalid("node '" + op.GetName() + "' (" + op.GetType() + "): cannot name its " +
                      std::to_string(count) + " unnamed " + what + "s after the operator's " +
                      what + "s (" + Describe(ports) + "): " + cause + "; name them with _" + what +
                      "_name_key and _" + what + "_name_value");
}

std::map<std::string, std::string> Renames(const std::vector<std::string>& from,
                                           const std::vector<std::string>& to) {
  std::map<std::string, std::string> renames;
  for (size_t i = 0; i < from.size(); ++i) renames[from[i]] = to[i];
  return renames;
}

}  // namespace

Result<bool> OpRegistry::NameUnnamedPorts(OpDesc& op) const {
  auto proto = Find(op.GetType());
  if (proto == nullptr) {
    return ParamInvalid("node '" + op.GetName() + "' has operator type '" + op.GetType() +
                        "', which no loaded prototype library registers");
  }
  bool changed = false;
  const std::vector<std::string> inputs = op.GetAllInputNames();
  if (!inputs.empty() && AllDefaultNames(inputs, "__input")) {
    std::vector<IrPort> ports;
    for (const auto& in : proto->inputs()) {
      ports.push_back({in.name, in.kind == kIrInputOptional, in.kind == kIrInputDynamic});
    }
    GE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                        BindByPosition(op, ports, inputs.size(), "input"));
    GE_RETURN_IF_ERROR(op.UpdateInputName(Renames(inputs, names)));
    for (const auto& in : proto->inputs()) {
      if (in.kind == kIrInputOptional && op.GetInputIndexByName(in.name) >= 0) {
        GE_RETURN_IF_ERROR(op.AddOptionalInputDesc(in.name, GeTensorDesc()));
      }
    }
    changed = true;
  }
  const std::vector<std::string> outputs = op.GetAllOutputNames();
  if (!outputs.empty() && AllDefaultNames(outputs, "__output")) {
    std::vector<IrPort> ports;
    for (const auto& out : proto->outputs()) {
      ports.push_back({out.name, false, out.kind == kIrOutputDynamic});
    }
    GE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                        BindByPosition(op, ports, outputs.size(), "output"));
    GE_RETURN_IF_ERROR(op.UpdateOutputName(Renames(outputs, names)));
    changed = true;
  }
  return changed;
}

}  // namespace ge

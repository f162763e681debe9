// Elementwise fusion: which nodes can join a FusedElementwise and the instructions each becomes.
#include "elementwise_program.h"

#include <algorithm>
#include <cfloat>
#include <string_view>

#include "ge/compiler/graph_edit.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_elementwise.h"
#include "ge/ops/op_registry.h"

namespace ge::fusion {
namespace {

using Kind = ElementwiseKind;

/// A type that can join a FusedElementwise: elementwise (its prototype's trait) and with an
/// instruction of the program (its own name, or the one it is spelled as).
struct EwType {
  std::string_view op;  ///< the instruction
  Kind kind;
};

/// Types spelled as another instruction: ONNX's and GE's names for the program's Div, Max, Min,
/// and the variadic sums (Mean divides after).
constexpr std::pair<std::string_view, std::string_view> kSpelledAs[] = {
    {"RealDiv", "Div"}, {"Maximum", "Max"}, {"Minimum", "Min"},
    {"AddN", "Add"},    {"Mean", "Add"},    {"Relu6", "Clip"}};

/// Unary instructions with parameters, each read from its node below (DescribeEwNode).
constexpr std::string_view kParameterReaders[] = {"Clip", "Relu6", "LeakyRelu", "Elu",
                                                  "HardSigmoid"};

std::optional<EwType> FindType(const std::string& type) {
  const Kind kind = OpRegistry::Instance().TraitsOf(type).elementwise;
  if (kind == Kind::kNone) return std::nullopt;
  std::string_view op = type;
  for (const auto& [spelled, as] : kSpelledAs) {
    if (spelled == type) op = as;
  }
  const fused::EwOpInfo* info = fused::FindEwOp(op);
  if (info == nullptr) return std::nullopt;
  // An instruction with parameters fuses only where its node's are read.
  if (kind == Kind::kUnary && info->params > 0 &&
      std::find(std::begin(kParameterReaders), std::end(kParameterReaders), type) ==
          std::end(kParameterReaders)) {
    return std::nullopt;
  }
  return EwType{info->name, kind};
}

bool IsFloatWithRank(const GeTensorDesc& desc) {
  return desc.GetDataType() == DT_FLOAT && !desc.GetShape().IsUnknownDimNum();
}

float AttrOr(const OpDesc& op, const char* name, float fallback) {
  float v = fallback;
  AttrUtils::GetFloat(op, name, v);
  return v;
}

/// Clip's bounds (inputs 1 and 2) as parameters: Const scalars, or absent for no bound.
bool ClipBounds(const Node& node, std::vector<float>& params) {
  params = {-FLT_MAX, FLT_MAX};
  for (int i : {1, 2}) {
    if (Producer(node, i) == nullptr) continue;
    const std::optional<float> v = ConstScalar(node, i);
    if (!v) return false;
    params[static_cast<size_t>(i - 1)] = *v;
  }
  return true;
}

// "r<reg>", how an instruction names a register.
std::string RegisterName(int64_t reg) {
  std::string name = "r";
  name += std::to_string(reg);
  return name;
}

}  // namespace

std::optional<EwNode> DescribeEwNode(const Node& node) {
  const std::optional<EwType> type = FindType(node.GetType());
  if (!type || passes::IsGraphBoundary(node)) return std::nullopt;
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOutputsSize() != 1 || !IsFloatWithRank(op.GetOutputDesc(0)) ||
      ReaderCount(node, 0) == 0) {
    return std::nullopt;
  }
  if (!op.GetSubgraphInstanceNames().empty()) return std::nullopt;
  EwNode ew;
  ew.op = type->op;
  // The inputs that carry values: 0 and 1, every one of a variadic, 0 of a unary.
  std::vector<int> inputs;
  const int connected = static_cast<int>(node.GetAllInDataAnchors().size());
  if (type->kind == Kind::kBinary) {
    inputs = {0, 1};
  } else if (type->kind == Kind::kVariadic) {
    if (connected < 2) return std::nullopt;
    for (int i = 0; i < connected; ++i) inputs.push_back(i);
    if (node.GetType() == "Mean") ew.mean_divisor = static_cast<float>(connected);
  } else {
    inputs = {0};
  }
  for (int i : inputs) {
    if (Producer(node, i) == nullptr ||
        !IsFloatWithRank(op.GetInputDesc(static_cast<uint32_t>(i)))) {
      return std::nullopt;
    }
  }
  if (type->kind == Kind::kUnary) {
    if (node.GetType() == "Clip") {
      if (!ClipBounds(node, ew.params)) return std::nullopt;
    } else if (node.GetType() == "Relu6") {
      ew.params = {0.0F, 6.0F};
    } else if (node.GetType() == "LeakyRelu") {
      ew.params = {AttrOr(op, "alpha", 0.01F)};
    } else if (node.GetType() == "Elu") {
      ew.params = {AttrOr(op, "alpha", 1.0F)};
    } else if (node.GetType() == "HardSigmoid") {
      ew.params = {AttrOr(op, "alpha", 0.2F), AttrOr(op, "beta", 0.5F)};
    } else if (node.GetType() == "Gelu") {
      std::string approximate = "none";
      AttrUtils::GetStr(op, "approximate", approximate);
      if (approximate != "none" && approximate != "tanh") return std::nullopt;
      if (approximate == "tanh") ew.op = "GeluTanh";
    } else {
      for (int i = 1; i < connected; ++i) {
        if (Producer(node, i) != nullptr) return std::nullopt;  // an input this op does not have
      }
    }
    ew.value_inputs = {0};
    ew.operands = {{0, 0.0F}};
    return ew;
  }
  // A Const scalar operand becomes an immediate when it cannot raise the rank of the result: its
  // rank is at most that of an operand that stays a value. Immediates do not count as inputs of
  // the fused node, whose outputs are the broadcast of its inputs.
  int64_t value_rank = -1;
  std::vector<std::optional<float>> scalar(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    scalar[k] = ConstScalar(node, inputs[k]);
    if (!scalar[k]) {
      value_rank = std::max<int64_t>(
          value_rank,
          static_cast<int64_t>(
              op.GetInputDesc(static_cast<uint32_t>(inputs[k])).GetShape().GetDimNum()));
    }
  }
  std::vector<EwNode::Operand> values, immediates;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const auto rank = static_cast<int64_t>(
        op.GetInputDesc(static_cast<uint32_t>(inputs[k])).GetShape().GetDimNum());
    EwNode::Operand operand;
    if (scalar[k] && rank <= value_rank) {
      operand.imm = *scalar[k];
      immediates.push_back(operand);
    } else {
      operand.value = static_cast<int>(ew.value_inputs.size());
      ew.value_inputs.push_back(inputs[k]);
      values.push_back(operand);
    }
    if (type->kind == Kind::kBinary) ew.operands.push_back(operand);  // order matters (Sub, Div)
  }
  if (type->kind == Kind::kVariadic) {
    // Commutative: values first, so that every instruction of the chain reads a register.
    ew.operands = values;
    ew.operands.insert(ew.operands.end(), immediates.begin(), immediates.end());
  }
  return ew;
}

int64_t EmitEwNode(const EwNode& node, const std::vector<int64_t>& operand_registers,
                   int64_t num_inputs, std::vector<std::string>& program) {
  auto text = [&](const EwNode::Operand& o) {
    return o.value >= 0 ? RegisterName(operand_registers[static_cast<size_t>(o.value)])
                        : FormatFloat(o.imm);
  };
  auto push = [&](std::string instruction) {
    program.push_back(std::move(instruction));
    return num_inputs + static_cast<int64_t>(program.size()) - 1;
  };
  if (node.operands.size() == 1) {
    std::string ins = node.op + " " + text(node.operands[0]);
    for (float p : node.params) {
      ins += ' ';
      ins += FormatFloat(p);
    }
    return push(std::move(ins));
  }
  // Binary, or a variadic as a chain.
  std::string acc = text(node.operands[0]);
  int64_t reg = -1;
  for (size_t i = 1; i < node.operands.size(); ++i) {
    reg = push(node.op + " " + acc + " " + text(node.operands[i]));
    acc = RegisterName(reg);
  }
  if (node.mean_divisor > 0.0F) reg = push("Div " + acc + " " + FormatFloat(node.mean_divisor));
  return reg;
}

}  // namespace ge::fusion

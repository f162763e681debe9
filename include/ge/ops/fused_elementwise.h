// The expression program of a FusedElementwise node (the encoding is in fused_ops.h): its
// instruction set, and the one parser the prototype's verify, the fusion pattern's tests and the
// CPU kernel share, so that what verify accepts is what the kernel runs.
#pragma once

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/status.h"

namespace ge::fused {

/// Each operation computes what the IR op of the same name computes (Div is RealDiv, Max / Min
/// are Maximum / Minimum, Gelu / GeluTanh are Gelu with approximate none / tanh).
// clang-format off
enum class EwOp : uint8_t {
  // binary
  kAdd, kSub, kMul, kDiv, kMax, kMin, kPow,
  // unary
  kRelu, kSigmoid, kTanh, kExp, kLog, kSqrt, kRsqrt, kNeg, kAbs, kErf, kReciprocal, kFloor,
  kCeil, kHardSwish, kGelu, kGeluTanh, kSoftplus,
  // unary with literal parameters
  kLeakyRelu, kElu, kClip, kHardSigmoid,
};
// clang-format on

struct EwOpInfo {
  std::string_view name;
  EwOp op;
  int operands;  ///< registers or immediates
  int params;    ///< literals after the operands
};

inline constexpr std::array<EwOpInfo, 28> kEwOps = {{
    {"Add", EwOp::kAdd, 2, 0},
    {"Sub", EwOp::kSub, 2, 0},
    {"Mul", EwOp::kMul, 2, 0},
    {"Div", EwOp::kDiv, 2, 0},
    {"Max", EwOp::kMax, 2, 0},
    {"Min", EwOp::kMin, 2, 0},
    {"Pow", EwOp::kPow, 2, 0},
    {"Relu", EwOp::kRelu, 1, 0},
    {"Sigmoid", EwOp::kSigmoid, 1, 0},
    {"Tanh", EwOp::kTanh, 1, 0},
    {"Exp", EwOp::kExp, 1, 0},
    {"Log", EwOp::kLog, 1, 0},
    {"Sqrt", EwOp::kSqrt, 1, 0},
    {"Rsqrt", EwOp::kRsqrt, 1, 0},
    {"Neg", EwOp::kNeg, 1, 0},
    {"Abs", EwOp::kAbs, 1, 0},
    {"Erf", EwOp::kErf, 1, 0},
    {"Reciprocal", EwOp::kReciprocal, 1, 0},
    {"Floor", EwOp::kFloor, 1, 0},
    {"Ceil", EwOp::kCeil, 1, 0},
    {"HardSwish", EwOp::kHardSwish, 1, 0},
    {"Gelu", EwOp::kGelu, 1, 0},
    {"GeluTanh", EwOp::kGeluTanh, 1, 0},
    {"Softplus", EwOp::kSoftplus, 1, 0},
    {"LeakyRelu", EwOp::kLeakyRelu, 1, 1},
    {"Elu", EwOp::kElu, 1, 1},
    {"Clip", EwOp::kClip, 1, 2},
    {"HardSigmoid", EwOp::kHardSigmoid, 1, 2},
}};

constexpr bool EwOpsInEnumOrder() {
  for (size_t i = 0; i < kEwOps.size(); ++i) {
    if (static_cast<size_t>(kEwOps[i].op) != i) return false;
  }
  return true;
}
static_assert(EwOpsInEnumOrder(), "kEwOps must list the operations in EwOp's order");

inline const EwOpInfo* FindEwOp(std::string_view name) {
  for (const EwOpInfo& info : kEwOps) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

inline const EwOpInfo& EwOpInfoOf(EwOp op) { return kEwOps[static_cast<size_t>(op)]; }

/// One decoded instruction. Operand k is register `reg[k]`, or the immediate `imm[k]` when
/// reg[k] < 0.
struct EwInstruction {
  EwOp op = EwOp::kAdd;
  std::array<int32_t, 2> reg = {-1, -1};
  std::array<float, 2> imm = {0.0F, 0.0F};
  std::array<float, 2> param = {0.0F, 0.0F};
};

struct EwProgram {
  int32_t num_inputs = 0;
  std::vector<EwInstruction> code;  ///< instruction k writes register num_inputs + k
  std::vector<int32_t> outputs;     ///< output k is register outputs[k]
  int32_t NumRegisters() const { return num_inputs + static_cast<int32_t>(code.size()); }
};

namespace ew_internal {

inline bool ParseFloat(const std::string& token, float* out) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const float v = std::strtof(token.c_str(), &end);
  if (end != token.c_str() + token.size() || errno == ERANGE) return false;
  *out = v;
  return true;
}

inline std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> tokens;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find(' ', pos), text.size());
    tokens.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  if (!text.empty() && text.back() == ' ') tokens.emplace_back();
  return tokens;
}

}  // namespace ew_internal

/// Decodes and checks a program: known operations, their arity, registers defined before use,
/// at least one register operand per instruction, output registers in range. The error says
/// which instruction (index and text) and why; the caller adds the node.
inline Result<EwProgram> ParseEwProgram(const std::vector<std::string>& program,
                                        const std::vector<int64_t>& output_registers,
                                        int64_t num_inputs) {
  if (num_inputs < 1) return ParamInvalid("a FusedElementwise needs at least one input");
  EwProgram p;
  p.num_inputs = static_cast<int32_t>(num_inputs);
  p.code.reserve(program.size());
  for (size_t k = 0; k < program.size(); ++k) {
    const std::string& text = program[k];
    const int64_t defined = num_inputs + static_cast<int64_t>(k);  // registers readable here
    auto fail = [&](const std::string& cause) {
      return ParamInvalid("instruction " + std::to_string(k) + " '" + text + "' (register r" +
                          std::to_string(defined) + "): " + cause);
    };
    const std::vector<std::string> tokens = ew_internal::Split(text);
    if (tokens.empty() || tokens[0].empty()) return fail("empty instruction");
    const EwOpInfo* info = FindEwOp(tokens[0]);
    if (info == nullptr) return fail("unknown operation '" + tokens[0] + "'");
    const size_t want = 1 + static_cast<size_t>(info->operands + info->params);
    if (tokens.size() != want) {
      return fail(std::string(info->name) + " takes " + std::to_string(info->operands) +
                  " operand(s) and " + std::to_string(info->params) + " parameter(s), got " +
                  std::to_string(tokens.size() - 1) + " token(s)");
    }
    EwInstruction ins;
    ins.op = info->op;
    bool any_register = false;
    for (int i = 0; i < info->operands; ++i) {
      const std::string& t = tokens[1 + static_cast<size_t>(i)];
      if (!t.empty() && t[0] == 'r') {
        char* end = nullptr;
        errno = 0;
        const long long r = std::strtoll(t.c_str() + 1, &end, 10);
        if (t.size() < 2 || end != t.c_str() + t.size() || errno == ERANGE || t[1] == '-' ||
            t[1] == '+') {
          return fail("operand '" + t + "' is not a register r<k>");
        }
        if (r >= defined) {
          return fail("register " + t + " is not defined before this instruction (r0..r" +
                      std::to_string(defined - 1) + " are)");
        }
        ins.reg[static_cast<size_t>(i)] = static_cast<int32_t>(r);
        any_register = true;
      } else if (!ew_internal::ParseFloat(t, &ins.imm[static_cast<size_t>(i)])) {
        return fail("operand '" + t + "' is neither a register r<k> nor a float");
      }
    }
    if (!any_register) return fail("needs at least one register operand");
    for (int i = 0; i < info->params; ++i) {
      const std::string& t = tokens[1 + static_cast<size_t>(info->operands + i)];
      if (!ew_internal::ParseFloat(t, &ins.param[static_cast<size_t>(i)])) {
        return fail("parameter '" + t + "' is not a float");
      }
    }
    p.code.push_back(ins);
  }
  if (output_registers.empty()) return ParamInvalid("a FusedElementwise needs at least one output");
  for (size_t k = 0; k < output_registers.size(); ++k) {
    const int64_t r = output_registers[k];
    if (r < 0 || r >= p.NumRegisters()) {
      return ParamInvalid("output " + std::to_string(k) + " names register r" + std::to_string(r) +
                          ", not one of r0..r" + std::to_string(p.NumRegisters() - 1));
    }
    p.outputs.push_back(static_cast<int32_t>(r));
  }
  return p;
}

}  // namespace ge::fused

// Elementwise fusion's view of a node: whether it can join a FusedElementwise, which of its
// inputs are values and which are immediates, and the instructions it becomes
// (elementwise_program.cc; the encoding is in ge/ops/fused_ops.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fusion_pattern.h"

namespace ge::fusion {

/// How one elementwise node enters a program.
struct EwNode {
  /// The data inputs whose values the node reads, by input index, in operand order. An input
  /// that is an immediate (a Const scalar) or a parameter (Clip's bounds) is not listed.
  std::vector<int> value_inputs;
  /// Per operand position of the node's operation(s): a value input (index into value_inputs)
  /// or an immediate. Filled by Describe; consumed by Emit.
  struct Operand {
    int value = -1;  ///< index into value_inputs, or -1 for the immediate
    float imm = 0.0F;
  };
  std::vector<Operand> operands;
  std::string op;             ///< the instruction (Add, Sigmoid, ...), or a variadic's
  std::vector<float> params;  ///< literal parameters of op
  float mean_divisor = 0.0F;  ///< Mean: the sum is divided by this afterwards
};

/// The node as an elementwise instruction source, or nullopt when it cannot join a group: not an
/// elementwise type, not float32, an unknown rank, a parameter that is not a Const scalar, or no
/// reader of its output.
std::optional<EwNode> DescribeEwNode(const Node& node);

/// Appends the instructions of `node` to `program`; `operand_registers[i]` is the register of
/// value_inputs[i]. Returns the register holding the node's output.
int64_t EmitEwNode(const EwNode& node, const std::vector<int64_t>& operand_registers,
                   int64_t num_inputs, std::vector<std::string>& program);

}  // namespace ge::fusion

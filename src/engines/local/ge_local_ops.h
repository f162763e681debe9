// The GE Local operators: NoOp-class types (nothing to run) and GeDeletedOp-class types (must
// have been removed before task generation), and their explicit registration.
#pragma once

#include <span>
#include <string_view>

#include "op_factory.h"

namespace ge::ge_local {

/// Produces no work: the node exists only for the compiler (data, constants, control flow,
/// reshape-like views, phony concat/split).
class NoOp final : public Op {
 public:
  using Op::Op;
  Status Run() override { return Status::Ok(); }
};

/// Always fails: a node of this type should have been removed by graph optimization. The message
/// names the node, the type and, for types that a specific option removes, the option and its
/// value (not set / off / on-but-the-pass-failed).
class GeDeletedOp final : public Op {
 public:
  using Op::Op;
  Status Run() override;
};

/// The NoOp-class types, as GE registers them.
std::span<const std::string_view> NoOpTypes();
/// The GeDeletedOp-class types, as GE registers them.
std::span<const std::string_view> GeDeletedOpTypes();

/// Registers every NoOp-class and GeDeletedOp-class type in `factory`.
Status RegisterGeLocalOps(OpFactory& factory);

}  // namespace ge::ge_local

// Operator traits: what passes, engines and executors may assume about an operator type beyond
// its signature. Declared on the prototype (OpProtoBuilder), read through the registry; engine
// plugins, which carry their own copy of the IR, read the host's through an OpTraitsLookup.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ge {

/// Which control-flow operator a type is, whatever its spelling (GE's If, _If and StatelessIf are
/// all kIf): what executors, engines and passes dispatch on.
enum class ControlFlowKind : uint8_t {
  kNone,
  kIf,           ///< cond, inputs...; then_branch, else_branch
  kCase,         ///< branch_index, inputs...; branches (dynamic)
  kWhile,        ///< inputs...; cond, body
  kFor,          ///< start, limit, delta, inputs...; body(i, inputs...)
  kCall,         ///< args...; f
  kLoop,         ///< ONNX Loop
  kScan,         ///< ONNX Scan
  kSequenceMap,  ///< ONNX SequenceMap: body once per element of its sequence inputs
};

/// An elementwise operator: output 0's element at each position depends only on the data inputs'
/// elements at that position (numpy broadcasting aligns them), so it computes on any dims and
/// on any layout of them. Declared once on the prototype, it is what the CPU engine's layout
/// planner lets run on blocked (NC1HWC0) tensors, what elementwise fusion takes where its program
/// has an instruction for the type, and what the cost model prices per element.
enum class ElementwiseKind : uint8_t {
  kNone,
  kUnary,     ///< data input 0; any other input is a parameter (Clip's bounds)
  kBinary,    ///< data inputs 0 and 1, broadcast
  kVariadic,  ///< every input of its dynamic input 0, broadcast
};

/// What passes, engines and executors may assume about an operator beyond its signature. Every
/// layer reads these from the prototype instead of keeping its own list of types.
struct OpTraits {
  /// Output 0 is the bytes of this input under another shape (a view: no copy, no memory of its
  /// own); -1 when it is not a view.
  int view_of_input = -1;
  /// Output 0 is this input's memory, which the op writes (Assign: the input is a variable's
  /// or a RefData's, and the op changes it); -1 for every other op.
  int updates_input = -1;
  /// Output i is input i, unchanged (an identity: consumers may read the producer instead).
  bool pass_through = false;
  /// Has state or randomness: never folded, merged with a twin, or dropped for being unused.
  bool impure = false;
  /// The compiler pass that removes every node of this type before tasks are generated (GE's
  /// GeDeletedOp); empty when nodes of the type are kept.
  std::string deleted_by_pass;
  /// The GE option that switches that pass on; empty when the pass always runs.
  std::string deleted_by_option;
  /// For a GeDeletedOp no pass here removes: what should have removed it before compilation
  /// (say, a frontend's conversion), for the message when one reaches task generation.
  std::string deleted_before;
  /// The control-flow operator the type is (kNone for every other type).
  ControlFlowKind control_flow = ControlFlowKind::kNone;
  /// Elementwise, and over which inputs (kNone for every other type).
  ElementwiseKind elementwise = ElementwiseKind::kNone;
};

/// The traits of an operator type, from the registry of the process that answers.
using OpTraitsLookup = std::function<OpTraits(const std::string& type)>;

}  // namespace ge

// The fusion pass's contract with its patterns.
//
// A pattern looks at a graph and proposes candidates: the nodes one fused node would stand for,
// the bytes they move through memory now and the bytes the fused form would move, the fused
// OpDesc the engine will be asked about, and the rewrite that makes it. The pass (fusion_pass.cc)
// decides: cost model, overlaps by gain, cycle check, engine support, then the rewrite.
//
// Patterns run in phases, each phase seeing the graph the one before left:
//   1. structure: transformer pieces found structurally become one op (LayerNorm, Gelu, Softmax,
//      attention, residual + LayerNorm);
//   2. epilogue: a producer (convolution, matmul) absorbs bias, activations and a residual add
//      as post-ops;
//   3. elementwise: what is left of connected elementwise nodes becomes one FusedElementwise.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ge/compiler/graph_pass.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"

namespace ge::fusion {

struct Candidate {
  std::string pattern;         ///< "Conv2D+Relu", "LayerNorm", ... (counted in the report)
  std::vector<NodePtr> nodes;  ///< every node the fused form replaces; front() is the anchor
  int64_t bytes_before = 0;    ///< what the nodes move now
  int64_t bytes_after = 0;     ///< what the fused form would move
  /// The fused op as the engine will see it. The engine that takes the anchor unfused must take
  /// this; nullptr skips the question (the rewrite keeps supported ops only).
  OpDescPtr fused;
  /// Makes the change. On failure it leaves a valid graph that computes the same.
  std::function<Status(ComputeGraph&)> rewrite;
  /// Post-ops run inside the producer's primitive at no cost of their own: such a candidate is
  /// worth taking whenever it moves no more bytes, whatever openge.fusionCostRatio says (a
  /// 1x1 convolution reading 1024 channels and writing 128 saves little in proportion, but its
  /// Relu's whole pass over memory).
  bool free_when_no_worse = false;
  int64_t Gain() const { return bytes_before - bytes_after; }
};

/// What a pattern may use while collecting.
class Env {
 public:
  explicit Env(PassContext& context) : context_(context) {}
  PassContext& context() { return context_; }
  int64_t max_group_nodes() const { return context_.options().fusion_max_nodes; }
  void Count(const std::string& counter) { context_.Count(counter); }
  void Note(std::string note) { context_.Note(std::move(note)); }
  /// True when some loaded engine supports `op` (used for types a pattern creates).
  bool EngineSupports(const OpDescPtr& op) const;

 private:
  PassContext& context_;
};

using Collector = std::function<std::vector<Candidate>(ComputeGraph&, Env&)>;

struct Phase {
  std::string name;
  std::vector<Collector> collectors;
};

// ---- The patterns (one file each) ----
/// Phase 1: transformer structures (transformer_patterns.cc).
std::vector<Collector> StructurePatterns();
/// Phase 2: operands moved where they cost less (a squeeze-and-excite scale onto the filter of
/// the 1x1 convolution after it; epilogue_patterns.cc), before the producers take their chains.
std::vector<Collector> OperandPatterns();
/// Phase 3: producer + post-ops (epilogue_patterns.cc).
std::vector<Collector> EpiloguePatterns();
/// Phase 4: elementwise groups (elementwise_pattern.cc).
std::vector<Collector> ElementwisePatterns();

// ---- Helpers the patterns share (fusion_util.cc) ----

/// The size the cost model gives a dim known only at run time, and each symbol of its expression
/// (SymbolicShapes) when it has one: a sequence of 64 tokens, a batch of 64.
inline constexpr int64_t kSymbolSize = 64;
/// A tensor's bytes; a dim known only at run time counts as its expression at kSymbolSize per
/// symbol, or as kSymbolSize without one, the same on both sides of the comparison.
int64_t Bytes(const GeTensorDesc& desc);
/// Bytes a node reads (connected inputs) and writes (all outputs).
int64_t NodeTraffic(const Node& node);
/// Sum of NodeTraffic over `nodes`.
int64_t GroupTraffic(const std::vector<NodePtr>& nodes);
/// Bytes of the Consts (weights) `nodes` read from outside the group: read once whether or not
/// the group fuses, so the cost model leaves them out of both sides.
int64_t WeightBytes(const std::vector<NodePtr>& nodes);
/// The only data reader of output 0 of `node` (and no reader of its other outputs), or nullptr.
NodePtr SoleReader(const Node& node);
/// The producer of input `index` of `node`, or nullptr.
NodePtr Producer(const Node& node, int index);
/// The single float value of a Const (or a Const input of `node`), if it is one. Any element
/// count of 1 (shape [], [1], [1,1]) counts.
std::optional<float> ConstScalar(const Node& node, int index);
std::optional<float> ConstScalarOf(const Node& const_node);
/// "%.9g" of a float: round-trips exactly.
std::string FormatFloat(float v);
/// Number of data readers of output `index` of `node`.
size_t ReaderCount(const Node& node, int index = 0);

/// Where a fused node's input comes from / where its output goes.
struct Port {
  NodePtr node;
  int index = 0;
};

/// Replaces `group` by one new node made from `op`: input i of the new node is fed by
/// `inputs[i]` (an output outside the group), and every reader outside the group of
/// `outputs[k]` (an output of a group node) reads output k of the new node instead; control
/// edges into and out of the group move to it, and the graph's output list follows. Checks
/// first that every output of the group read outside it is in `outputs`; then it changes the
/// graph. Returns the new node.
Result<NodePtr> ReplaceGroup(ComputeGraph& graph, const std::vector<NodePtr>& group,
                             const OpDescPtr& op, const std::vector<Port>& inputs,
                             const std::vector<Port>& outputs);

/// Records on `op` which original nodes it stands for and the pattern (fused_ops.h).
void RecordFusion(const OpDescPtr& op, const std::vector<NodePtr>& group,
                  const std::string& pattern);

}  // namespace ge::fusion

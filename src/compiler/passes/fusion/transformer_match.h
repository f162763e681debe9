// Structural matching helpers the transformer patterns share (transformer_patterns.cc,
// gelu_pattern.cc): ports, commutative operands, constants within a tolerance, reduction axes,
// closed groups and the fused node's traffic.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "fusion_pattern.h"

namespace ge::fusion {

/// The output feeding input `index` of `node`, or nullopt when it is not connected.
std::optional<Port> InputPort(const Node& node, int index);
bool SamePort(const Port& a, const Port& b);
/// True when `node` has one of `types`.
bool IsAnyOf(const Node& node, std::initializer_list<const char*> types);
/// The index (0 or 1) of the input of binary `node` fed by output 0 of `from`, or -1.
int InputFedBy(const Node& node, const Node& from);
/// True when input `index` of `node` is a Const scalar within a relative 1e-4 of `want`.
bool IsConstNear(const Node& node, int index, double want);
/// For a binary op with one Const scalar operand: the index of the other operand, and the value.
struct ScalarOperand {
  int other = -1;
  float value = 0;
};
std::optional<ScalarOperand> ScalarOperandOf(const Node& node);
/// The first normalized axis of a keepdims reduction over the trailing axes of its input (the
/// axes attribute or the Const axes input), or nullopt.
std::optional<int64_t> TrailingReduceAxis(const Node& reduce);
/// Output `index`'s tensor desc of `port`'s node.
const GeTensorDesc& PortDesc(const Port& port);
/// Known dims, or nullopt when unknown rank or any dim unknown.
std::optional<std::vector<int64_t>> KnownDims(const GeTensorDesc& desc);
/// The rank, or -1 when unknown.
int64_t RankOf(const GeTensorDesc& desc);
/// The dims from `axis` on, when the rank and those dims are known.
std::optional<std::vector<int64_t>> TrailingDims(const GeTensorDesc& desc, int64_t axis);
/// Every node of `group` other than `last` has readers inside `group` only, `last` has readers
/// of output 0 only, and every node computes float32.
bool ClosedGroup(const std::vector<NodePtr>& group, const NodePtr& last);
/// An input of the fused node, named by the group node that reads it: it is resolved to its
/// producer when rewriting, since an earlier rewrite may have replaced that producer.
struct Use {
  NodePtr reader;
  int index = 0;
};
using Uses = std::vector<std::optional<Use>>;  ///< nullopt: an absent optional input
/// The producers of `uses` now (nullopt where absent or unconnected).
std::vector<std::optional<Port>> Resolve(const Uses& uses);
/// The fused op `type` named after `last`, its inputs' descs from `inputs` (nullopt: absent),
/// its output 0 desc from `last`'s output 0; nullptr when the registry cannot make it.
OpDescPtr MakeFusedOp(ComputeGraph& graph, Env& env, const std::string& type, const NodePtr& last,
                      const Uses& inputs);
/// Bytes the fused node moves: its connected inputs and output 0 of `last`.
int64_t FusedTraffic(const Uses& inputs, const NodePtr& last);
/// Replaces `group` by a node made from `op` whose inputs are `inputs` (absent ones skipped) and
/// whose output 0 stands for `last`'s output 0 (its other outputs are unread); records the
/// originals on it first.
Status ReplaceWithFused(ComputeGraph& graph, const std::vector<NodePtr>& group, const NodePtr& last,
                        const OpDescPtr& op, const std::vector<std::optional<Port>>& inputs,
                        const std::string& pattern);

/// Phase 1 collectors defined outside transformer_patterns.cc.
std::vector<Candidate> GeluPatterns(ComputeGraph& graph, Env& env);       // gelu_pattern.cc
std::vector<Candidate> SoftmaxPatterns(ComputeGraph& graph, Env& env);    // attention_pattern.cc
std::vector<Candidate> AttentionPatterns(ComputeGraph& graph, Env& env);  // attention_pattern.cc

}  // namespace ge::fusion

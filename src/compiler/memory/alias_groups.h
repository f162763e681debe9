// Internal: which tensors share memory (reuse-input, PhonyConcat/PhonySplit, in-place), and where
// each sits inside its shared block.
#pragma once

#include <cstdint>
#include <vector>

#include "graph_tensors.h"

namespace ge::memory::internal {

/// A set of tensors placed as one block: member i lives at block offset + rel[i].
struct AliasGroups {
  std::vector<int32_t> root;   ///< tensor → its group's representative
  std::vector<int64_t> rel;    ///< tensor → offset inside the group's block (>= 0)
  std::vector<int64_t> span;   ///< representative → block bytes (unaligned)
  std::vector<int64_t> first;  ///< representative → the group's live range
  std::vector<int64_t> last;
};

/// Builds the groups: outputs marked reuse-input join their input's producer; PhonyConcat's
/// input producers join its output at the offsets the GE Local engine recorded; PhonySplit's
/// outputs join its input; then, step by step, an output marked "_inplace_output_input" joins the
/// input it may overwrite when that input's block dies at the node, lives in the arena and has the
/// same aligned size. An error names the node whose constraints conflict.
Result<AliasGroups> BuildAliasGroups(const GraphTensors& graph, int64_t alignment);

}  // namespace ge::memory::internal

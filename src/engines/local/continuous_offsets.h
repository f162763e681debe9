// Offsets of the pieces of a PhonyConcat / PhonySplit inside their one continuous buffer.
//
// The pieces (inputs of a PhonyConcat, outputs of a PhonySplit) all have the same shape and are
// laid out as if concatenated along several axes at once: `dims` (concat_dim / split_dim) and
// `counts` (N / num_split) say how many pieces go along which axis. Piece k decomposes into one
// slice index per axis (k mod N[i], then k /= N[i]), and its offset is the sum over the axes of
// slice × bytes of one slab at that axis (the product of the dims from that axis on), where the
// slab grows by N[i] along axis i once that axis is done. PhonyConcat walks the axes first to
// last, PhonySplit last to first. Example: pieces [1,2,2,4,8] float16, concat_dim {3,1}, N {2,2}
// → offsets 0, 64, 512, 576.
#pragma once

#include <cstdint>
#include <vector>

#include "ge/graph/node.h"
#include "ge/graph/status.h"

namespace ge::ge_local {

/// Computes the offsets of a PhonyConcat's inputs and writes each into its producer's
/// _output_offset_list_for_continuous at the producer's output index.
Status CalcPhonyConcatOffsets(const Node& node);

/// Computes the offsets of a PhonySplit's outputs and writes each into every consumer's
/// _input_offset_list_for_continuous at the consumer's input index.
Status CalcPhonySplitOffsets(const Node& node);

}  // namespace ge::ge_local

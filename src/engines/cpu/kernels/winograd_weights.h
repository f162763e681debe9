// A 3x3 filter put into oneDNN's Winograd weight layouts by the engine itself. oneDNN's own
// reorder into them is a scalar loop that scatters each transformed value over the whole
// weight: it packs a 256x256x3x3 filter in about 15 ms, which made it most of ResNet-50's
// compile when filters were stored transformed (they are now transformed when the model loads).
// This one gathers a block of output channels, transforms it with vector arithmetic
// and writes each tile position as one run, in a fraction of that time.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

namespace ge::host_cpu {

/// Writes the f32 filter at `src` (any alignment), laid out by `plain` (dense [oc, ic, 3, 3],
/// OIHW), into `dst` in the Winograd layout `wino` (format kind wino, f32): each (oc, ic) 3x3
/// kernel g becomes the alpha x alpha tile G g G^T of the layout's tile size, channels padded to
/// the layout's blocks read as zero. Every element of `dst` (wino.get_size() bytes) is written.
///
/// False, with nothing written, when the filter or the layout is one it does not handle (another
/// rank, dtype, kernel size or Winograd layout), or when this transform disagrees with oneDNN's
/// own reorder on a small filter of the same layout: that check runs once per layout kind and
/// process, so a oneDNN that changed its layouts or transform matrices gets its own reorder. The
/// caller then reorders with oneDNN.
bool TransformWinogradWeights(const dnnl::memory::desc& plain, const dnnl::memory::desc& wino,
                              const void* src, float* dst);

}  // namespace ge::host_cpu

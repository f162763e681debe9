// The CPU engine's weight packer: Const weights are stored in the compiled model in the
// layout oneDNN reads, so loading a model reorders nothing and keeps no second copy.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ge/engine/graph_optimizer.h"
#include "ge/engine/ops_kernel_builder.h"
#include "kernel_probe.h"

namespace ge::host_cpu {

/// At OptimizeWholeGraph (after the layout planner has fixed every convolution's layout), on
/// graphs whose shapes are all static: each node of this engine whose kernel reorders its Const
/// input 1 (a convolution's filter, a matrix product's right operand; PacksWeights) is prepared as
/// the runtime will prepare it, and the weight it packed replaces the framework's:
///
///   Const w [64,64,3,3] NCHW ──► Conv2D        becomes
///   Const w/ABcd16b16a [36864] ND (origin [64,64,3,3]) ──► Conv2D {_cpu_weight_layout: ABcd16b16a}
///
/// The new Const is named after the old one and the layout, shared by every reader that wants
/// the same layout; the old Const goes when nothing reads it any more. At load the kernel checks
/// that oneDNN still wants that layout and reads the bytes in place; on a machine where it wants
/// another (a different instruction set), it reorders from the stored layout, so the model stays
/// portable.
///
/// Before that, on any graph, a Const that only this engine's kernels read as bytes
/// (ReadsAnyAlignment: a GatherV2's table) is marked kAttrWeightAnyAlignment, so a weight left
/// unaligned in the model file is read where it lies.
class WeightPacker final : public GraphOptimizer {
 public:
  Status Initialize(const std::map<std::string, std::string>& options) override;
  Status OptimizeWholeGraph(ComputeGraph& graph) override;
  Status GetAttributes(GraphOptimizerAttribute& attrs) const override;

 private:
  /// A node whose Const input 1 may be packed, and what probing its kernel gave.
  struct Job {
    NodePtr node;
    NodePtr source;          // the Const read as input 1
    bool releasing = false;  // the kernel may release the Const's pages as it packs them
    bool released = false;   // it did
    bool file_mapped = false;
    size_t size = 0;  // the weight's bytes
    Result<ProbedKernel> probed = ParamInvalid("not probed");
  };
  static std::vector<Job> FindJobs(const ComputeGraph& graph);
  /// Puts each job's packed weight into the graph, in order; `wait_for(i)` returns once job i
  /// is probed.
  static Status Apply(ComputeGraph& graph, std::vector<Job>& jobs,
                      const std::function<void(size_t)>& wait_for);

  bool enabled_ = true;
};

}  // namespace ge::host_cpu

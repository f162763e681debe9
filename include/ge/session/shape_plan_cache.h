// A graph whose inputs have dims known only at run time, run at the speed of a static compile:
// the first run with a set of input shapes compiles the graph for exactly those shapes (shape
// inference to the end, fusion, layouts, packed kernels and a static memory plan, the stages of
// any static compile) and loads it; later runs with the same shapes reuse that plan. Plans are
// kept most recently used first, bounded by a count and a byte cap.
//
// openge.shapeBuckets rounds named dims up before the lookup ("sequence:32": 5 and 17 tokens run
// on the plans for 32), so a stream of varied lengths compiles a few plans: inputs are padded with
// zeros to the bucket and outputs cut back to the real sizes. It is right only for a model whose
// padded positions do not reach the real ones: a causal decoder along its sequence, an encoder
// whose attention mask is an input (the mask's zero padding hides the padded tokens), any model
// along its batch.
//
// Plans share the graph's weights. A weight that is a private copy of bytes in the model's file
// (an ONNX initializer off a 64-byte boundary) and that the cache alone holds leaves the graph
// instead: the first plan takes the parser's copy, later ones copy it again from the file, and
// plans alive share that copy, so a plan that packs the weight holds only its packed form, as
// the static model does. The CPU engine packs such a weight once per layout while anything holds
// the packed form, so plans for several shapes share it too.
//
// A graph with nothing to specialise (its inputs' shapes are all known, or fixed by
// ge.inputShape) has one plan. So has a graph that keeps state across runs (Variables, stacks),
// since every plan would hold state of its own: it runs on the dynamic executor, which infers
// shapes per run. A plan whose shapes still depend on values (NonZero, Unique) runs those parts
// on the dynamic executor too.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compiled_model.h"
#include "ge/runtime/loaded_model.h"

namespace ge {

/// One plan the cache holds.
struct ShapePlanInfo {
  std::string shapes;  ///< the input shapes it was compiled for, "name:d0,d1;name2:d0"
  int64_t runs = 0;    ///< runs it served, its first included
  double compile_millis = 0.0;
  double load_millis = 0.0;
  /// What dropping it would free: its activation arena and kernel scratch, and the weights it
  /// made (folded, packed) that no other plan kept holds. The graph's weights, and the copies out
  /// of the model's file the plans alive read as they are, are every plan's.
  int64_t bytes = 0;
  bool dynamic = false;  ///< some shapes are still found per run (dynamic executor)
  std::string error;     ///< why compiling for these shapes failed (then it has no model)
};

struct ShapePlanStats {
  int64_t hits = 0;                  ///< lookups whose shapes had a plan (or one being compiled)
  int64_t misses = 0;                ///< lookups that compiled a plan
  int64_t padded = 0;                ///< lookups whose inputs openge.shapeBuckets padded
  int64_t evictions = 0;             ///< plans dropped to stay within the bounds
  double specialize_millis = 0.0;    ///< compile and load time of every plan made so far
  int64_t bytes = 0;                 ///< held by the plans kept now, shared weights once
  std::vector<ShapePlanInfo> plans;  ///< kept now, most recently used first
};

/// The plan of one set of input shapes: runs inputs of those shapes, padding them to the plan's
/// bucket and cutting the outputs back when openge.shapeBuckets rounded them up.
class GE_API ShapePlan {
 public:
  ShapePlan() = default;
  /// The model the plan runs: compiled for shapes(), which are the padded ones.
  const std::shared_ptr<LoadedModel>& model() const { return model_; }
  /// The input shapes its model takes, "name:d0,d1;name2:d0" ("" without specialization).
  const std::string& shapes() const { return shapes_; }
  /// True when the inputs it was looked up for are padded to reach shapes().
  bool padded() const { return !pads_.empty(); }
  /// Runs `inputs`, which must have the shapes the plan was looked up for. Thread-safe.
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs) const;

 private:
  friend class ShapePlanCache;
  struct Pad {
    size_t input;
    std::vector<int64_t> real;
    std::vector<int64_t> padded;
  };
  struct Cut {
    size_t output;
    size_t dim;
    int64_t padded;
    int64_t real;
  };
  std::shared_ptr<LoadedModel> model_;
  std::string shapes_;
  std::vector<Pad> pads_;  // the inputs that grow, in run order
  std::vector<Cut> cuts_;  // the output dims that shrink back
};

class GE_API ShapePlanCache {
 public:
  /// `graph` is the cache's own from now on (compiled per shape from copies). Handed over with
  /// no other holder, it loses the bytes of weights the plans copy again from the model's file;
  /// a graph the caller still holds is never changed.
  /// `compile_options` are the compiler's; openge.shapePlanCacheEntries (default 8; 0: one plan
  /// on the dynamic executor) and openge.shapePlanCacheBytes (default 0: no cap) bound it. A plan
  /// larger than the byte cap on its own is still kept while it is the most recent one. Every
  /// node's type must have a prototype (the compiler's VerifyNodes): a model with an unknown
  /// operator fails here, not at its first run.
  static Result<std::unique_ptr<ShapePlanCache>> Create(
      ComputeGraphPtr graph, const std::map<std::string, std::string>& compile_options,
      const RuntimeOptions& runtime = {});
  ~ShapePlanCache();
  ShapePlanCache(const ShapePlanCache&) = delete;
  ShapePlanCache& operator=(const ShapePlanCache&) = delete;

  /// The graph's inputs in run order, dims known only at run time as -1.
  const std::vector<IoInfo>& inputs() const;
  /// The graph's outputs in run order (GraphOutputs), as the graph handed over describes them.
  const std::vector<IoInfo>& outputs() const;
  /// The graph compiled for any shape, its dims left as the model gives them: what Compile makes
  /// of the graph handed over (its weights copied again where the cache dropped them), to look
  /// at or to save. Thread-safe.
  Result<CompiledModel> CompileForAnyShape() const;
  /// True when plans are made per set of input shapes (some input dim is known only at run time
  /// and the graph keeps no state across runs).
  bool specializes() const;

  /// The plan for the shapes of `inputs` (given in run order), rounded up to their buckets,
  /// compiled now when there is none. Callers asking for the same new shapes at once wait for one
  /// compile. A failed compile is kept as the plan's outcome, so those shapes fail at once the
  /// next time. Without specialization there is one plan, whatever `inputs` are (its model checks
  /// them). Thread-safe.
  Result<ShapePlan> PlanFor(const std::vector<GeTensor>& inputs);
  /// PlanFor's model: the one `inputs` run on (with buckets, it takes the padded shapes).
  Result<std::shared_ptr<LoadedModel>> ModelFor(const std::vector<GeTensor>& inputs);
  /// Runs `inputs` on their plan. Thread-safe; runs may overlap.
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
  ShapePlanStats Stats() const;

 private:
  ShapePlanCache();
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

// ShapePlanCache: plans by input shapes, most recently used first, each compiled once.
#include "ge/session/shape_plan_cache.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <future>
#include <list>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Result<int64_t> LimitOption(const std::map<std::string, std::string>& options, const char* key,
                            int64_t fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  const std::string& text = it->second;
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
    return ParamInvalid("option " + std::string(key) + "='" + text +
                        "': expected a whole number, 0 or more");
  }
  return value;
}

// Operators whose state outlives a run: every plan would hold a copy of its own.
bool KeepsState(const std::string& type) {
  return type == kTypeVariable || type == "Stack" || type == "StackPush" || type == "StackPop" ||
         type == "StackClose";
}

bool HasState(const ComputeGraph& graph) {
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (KeepsState(node->GetType())) return true;
  }
  return false;
}

bool IsKnown(const std::vector<int64_t>& dims) {
  return std::none_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text;
}

// The byte buffers of the graph's weights (Const values, subgraphs' too).
std::unordered_set<const uint8_t*> WeightBuffers(const ComputeGraph& graph) {
  std::unordered_set<const uint8_t*> buffers;
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (!IsConstType(node->GetType())) continue;
    auto value = OpDescUtils::GetConstValue(*node);
    if (value.ok() && value->GetSize() > 0) buffers.insert(value->GetData().data());
  }
  return buffers;
}

// The bytes of the weights of `graph` that are not in `shared`, each buffer once: what a plan
// compiled from a copy adds to the graph it was copied from (folded and packed weights).
int64_t WeightBytesBeyond(const ComputeGraph& graph,
                          const std::unordered_set<const uint8_t*>& shared) {
  std::unordered_set<const uint8_t*> seen;
  int64_t bytes = 0;
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (!IsConstType(node->GetType())) continue;
    auto value = OpDescUtils::GetConstValue(*node);
    if (!value.ok() || value->GetSize() == 0) continue;
    const uint8_t* data = value->GetData().data();
    if (shared.count(data) == 0 && seen.insert(data).second) {
      bytes += static_cast<int64_t>(value->GetSize());
    }
  }
  return bytes;
}

}  // namespace

struct ShapePlanCache::Impl {
  // One set of input shapes: compiled by the first run that asked for it; the others wait on
  // `ready`. Fields below `ready` are written before it is set and only read after.
  struct Plan {
    std::string key;
    std::shared_future<void> ready;
    Status status;
    std::shared_ptr<Model> model;
    ShapePlanInfo info;
  };
  using PlanPtr = std::shared_ptr<Plan>;

  ComputeGraphPtr graph;
  std::unordered_set<const uint8_t*> graph_weights;  // WeightBuffers(*graph)
  std::map<std::string, std::string> compile_options;
  RuntimeOptions runtime;
  std::vector<IoInfo> inputs;
  bool specializes = false;
  size_t max_entries = 8;
  int64_t max_bytes = 0;

  mutable std::mutex mutex;  // guards everything below
  std::list<PlanPtr> order;  // most recently used first
  std::unordered_map<std::string, std::list<PlanPtr>::iterator> by_key;
  ShapePlanStats totals;  // `plans` left empty: Stats() fills it from `order`

  // "name:d0,d1;..." for the inputs whose dims the graph leaves to run time, checked against
  // the graph (count, rank and every known dim), so a misfit is refused before any compile.
  Result<std::string> KeyOf(const std::vector<GeTensor>& given) const {
    if (!specializes) return std::string();  // one plan; its model checks the inputs
    if (given.size() != inputs.size()) {
      return ParamInvalid("the graph has " + std::to_string(inputs.size()) + " input(s), " +
                          std::to_string(given.size()) + " given");
    }
    std::string key;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const IoInfo& want = inputs[i];
      if (IsKnown(want.dims)) continue;
      const GeShape& shape = given[i].GetTensorDesc().GetShape();
      const std::vector<int64_t>& dims = shape.GetDims();
      const bool any_rank = want.dims.size() == 1 && want.dims[0] == UNKNOWN_DIM_NUM;
      bool fits = IsKnown(dims) && !shape.IsUnknownDimNum() &&
                  (any_rank || dims.size() == want.dims.size());
      for (size_t d = 0; fits && !any_rank && d < dims.size(); ++d) {
        fits = want.dims[d] < 0 || want.dims[d] == dims[d];
      }
      if (!fits) {
        return ParamInvalid("input '" + want.name + "' (index " + std::to_string(i) + ") is " +
                            shape.ToString() + "; the graph wants " +
                            GeShape(want.dims).ToString() + " (-1: any size)");
      }
      key += (key.empty() ? "" : ";") + want.name + ":" + DimsText(dims);
    }
    return key;
  }

  // Compiles a copy of the graph for the shapes `key` names and loads it. One plan at a time in
  // the process: making a compiler or loading a model initializes the engine plugins, whose
  // state is the process's. Runs of plans made already go on meanwhile.
  void Specialize(Plan& plan) const {
    static std::mutex compiling;
    std::lock_guard<std::mutex> one_at_a_time(compiling);
    plan.status = CatchExceptions("ShapePlanCache", [&]() -> Status {
      std::map<std::string, std::string> options = compile_options;
      if (!plan.key.empty()) options[kOptInputShape] = plan.key;
      auto start = std::chrono::steady_clock::now();
      GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(graph));
      GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(options));
      GE_ASSIGN_OR_RETURN(CompiledModel compiled, compiler->Compile(copy));
      plan.info.compile_millis = MillisSince(start);
      // The copy shares the weights it did not change with the graph, and so with every plan.
      const int64_t own_weights = WeightBytesBeyond(*compiled.graph, graph_weights);
      start = std::chrono::steady_clock::now();
      GE_ASSIGN_OR_RETURN(std::unique_ptr<Model> model, Model::Load(std::move(compiled), runtime));
      plan.info.load_millis = MillisSince(start);
      plan.info.bytes = own_weights + model->arena_bytes() + model->workspace_bytes();
      plan.info.dynamic = model->runs_dynamically();
      plan.model = std::move(model);
      return Status::Ok();
    });
    if (!plan.status.ok()) {
      if (!plan.key.empty()) plan.status.Prefix("compiling for the input shapes " + plan.key);
      plan.info.error = plan.status.message();
    }
  }

  // Drops least recently used plans beyond the bounds; never `keep` nor one being compiled.
  void EvictLocked(const Plan* keep) {
    auto over = [&] {
      return order.size() > max_entries || (max_bytes > 0 && totals.bytes > max_bytes);
    };
    for (auto it = order.end(); over() && it != order.begin();) {
      --it;
      Plan& plan = **it;
      const bool done = plan.ready.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
      if (&plan == keep || !done) continue;
      totals.bytes -= plan.info.bytes;
      ++totals.evictions;
      by_key.erase(plan.key);
      it = order.erase(it);
    }
  }

  Result<std::shared_ptr<Model>> Outcome(const Plan& plan) const {
    if (!plan.status.ok()) return plan.status;
    return plan.model;
  }
};

ShapePlanCache::ShapePlanCache() : impl_(std::make_unique<Impl>()) {}
ShapePlanCache::~ShapePlanCache() = default;

Result<std::unique_ptr<ShapePlanCache>> ShapePlanCache::Create(
    ComputeGraphPtr graph, const std::map<std::string, std::string>& compile_options,
    const RuntimeOptions& runtime) {
  if (graph == nullptr) return ParamInvalid("ShapePlanCache: null graph");
  GE_ASSIGN_OR_RETURN(int64_t entries, LimitOption(compile_options, kOptShapePlanEntries, 8));
  GE_ASSIGN_OR_RETURN(int64_t bytes, LimitOption(compile_options, kOptShapePlanBytes, 0));
  std::unique_ptr<ShapePlanCache> cache(new ShapePlanCache());
  Impl& impl = *cache->impl_;
  GE_ASSIGN_OR_RETURN(impl.inputs, GraphInputs(*graph));
  const bool run_time_shapes = std::any_of(impl.inputs.begin(), impl.inputs.end(),
                                           [](const IoInfo& i) { return !IsKnown(i.dims); });
  impl.specializes = run_time_shapes && entries > 0 && compile_options.count(kOptInputShape) == 0 &&
                     !HasState(*graph);
  impl.max_entries = impl.specializes ? static_cast<size_t>(entries) : 1;
  impl.max_bytes = bytes;
  impl.graph_weights = WeightBuffers(*graph);
  impl.graph = std::move(graph);
  impl.compile_options = compile_options;
  impl.runtime = runtime;
  return cache;
}

const std::vector<IoInfo>& ShapePlanCache::inputs() const { return impl_->inputs; }

bool ShapePlanCache::specializes() const { return impl_->specializes; }

Result<std::shared_ptr<Model>> ShapePlanCache::ModelFor(const std::vector<GeTensor>& inputs) {
  Impl& impl = *impl_;
  GE_ASSIGN_OR_RETURN(std::string key, impl.KeyOf(inputs));
  std::unique_lock<std::mutex> lock(impl.mutex);
  if (auto it = impl.by_key.find(key); it != impl.by_key.end()) {
    impl.order.splice(impl.order.begin(), impl.order, it->second);
    Impl::PlanPtr plan = *it->second;
    ++impl.totals.hits;
    ++plan->info.runs;
    lock.unlock();
    plan->ready.wait();
    return impl.Outcome(*plan);
  }
  auto plan = std::make_shared<Impl::Plan>();
  std::promise<void> compiled;
  plan->key = key;
  plan->ready = compiled.get_future().share();
  plan->info.shapes = key;
  plan->info.runs = 1;
  impl.order.push_front(plan);
  impl.by_key.emplace(key, impl.order.begin());
  ++impl.totals.misses;
  lock.unlock();

  impl.Specialize(*plan);
  compiled.set_value();

  lock.lock();
  impl.totals.specialize_millis += plan->info.compile_millis + plan->info.load_millis;
  if (impl.by_key.count(key) != 0) {  // still kept (Stats counts only what is kept)
    impl.totals.bytes += plan->info.bytes;
    impl.EvictLocked(plan.get());
  }
  return impl.Outcome(*plan);
}

Result<std::vector<GeTensor>> ShapePlanCache::Run(const std::vector<GeTensor>& inputs) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<Model> model, ModelFor(inputs));
  return model->Run(inputs);
}

ShapePlanStats ShapePlanCache::Stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  ShapePlanStats stats = impl_->totals;
  for (const Impl::PlanPtr& plan : impl_->order) {
    if (plan->ready.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
    stats.plans.push_back(plan->info);
  }
  return stats;
}

}  // namespace ge

// ge::Session: graphs by id, each compiled on first use (per set of input shapes, when they are
// known only at run time) and run on the runtime.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "build_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/runtime/model.h"
#include "ge/session/ge_api.h"
#include "ge/session/shape_plan_cache.h"

namespace ge {
namespace {

std::mutex& GlobalMutex() {
  static std::mutex mutex;
  return mutex;
}

session::Options& GlobalOptions() {
  static session::Options options;
  return options;
}

std::string GraphWhere(uint32_t graph_id) { return "graph " + std::to_string(graph_id); }

std::vector<GeTensor> AsGeTensors(const std::vector<Tensor>& tensors) {
  std::vector<GeTensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(TensorAdapter::AsGeTensor(t));
  return out;
}

}  // namespace

graphStatus GEInitialize(const std::map<AscendString, AscendString>& options) {
  return GEInitialize(session::FromAscend(options));
}

graphStatus GEInitialize(const std::map<std::string, std::string>& options) {
  std::lock_guard<std::mutex> lock(GlobalMutex());
  GlobalOptions() = options;
  return GRAPH_SUCCESS;
}

graphStatus GEFinalize() {
  std::lock_guard<std::mutex> lock(GlobalMutex());
  GlobalOptions().clear();
  return GRAPH_SUCCESS;
}

struct Session::Impl {
  // A graph and its plans: one for a graph of static shapes, one per set of input shapes seen
  // for a graph whose input dims are known only at run time (ShapePlanCache).
  struct Entry {
    ComputeGraphPtr graph;  ///< until the cache takes it
    session::Options options;
    std::unique_ptr<ShapePlanCache> plans;
    std::once_flag made;
    Status make_status;
  };

  session::Options options;
  std::mutex mutex;  // guards `graphs`; a build holds only its entry's once_flag
  std::map<uint32_t, std::shared_ptr<Entry>> graphs;

  Result<std::shared_ptr<Entry>> Find(uint32_t graph_id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = graphs.find(graph_id);
    if (it == graphs.end()) {
      return ParamInvalid(GraphWhere(graph_id) + " is not in this session (add it with AddGraph)");
    }
    return it->second;
  }

  // Makes the entry's plan cache once; every caller gets the outcome of that one attempt.
  Status MakePlans(uint32_t graph_id, Entry& entry) {
    std::call_once(entry.made, [&] {
      entry.make_status = CatchExceptions("Session::BuildGraph", [&]() -> Status {
        const session::Options compile = session::CompilerOptions(options, entry.options);
        RuntimeOptions runtime;
        runtime.options = session::RuntimeOptionsOf(compile);
        GE_ASSIGN_OR_RETURN(entry.plans,
                            ShapePlanCache::Create(std::move(entry.graph), compile, runtime));
        return Status::Ok();
      });
      if (!entry.make_status.ok()) entry.make_status.Prefix(GraphWhere(graph_id));
    });
    return entry.make_status;
  }

  // The plan for `inputs`' shapes (any, for a graph with one plan), compiled on first sight.
  Result<ShapePlan> PlanFor(uint32_t graph_id, Entry& entry, const std::vector<GeTensor>& inputs) {
    GE_RETURN_IF_ERROR(MakePlans(graph_id, entry));
    Result<ShapePlan> plan = entry.plans->PlanFor(inputs);
    if (!plan.ok()) return Status(plan.status()).Prefix(GraphWhere(graph_id));
    return plan;
  }
};

Session::Session(const std::map<AscendString, AscendString>& options)
    : Session(session::FromAscend(options)) {}

Session::Session(const std::map<std::string, std::string>& options)
    : impl_(std::make_unique<Impl>()) {
  std::lock_guard<std::mutex> lock(GlobalMutex());
  impl_->options = session::CompilerOptions(GlobalOptions(), options);
}

Session::~Session() = default;

graphStatus Session::AddGraph(uint32_t graph_id, const Graph& graph) {
  return AddGraph(graph_id, graph, std::map<std::string, std::string>());
}

graphStatus Session::AddGraph(uint32_t graph_id, const Graph& graph,
                              const std::map<AscendString, AscendString>& options) {
  return AddGraph(graph_id, graph, session::FromAscend(options));
}

graphStatus Session::AddGraph(uint32_t graph_id, const Graph& graph,
                              const std::map<std::string, std::string>& options) {
  Result<ComputeGraphPtr> compute_graph = graph.ToComputeGraph();
  if (!compute_graph.ok()) {
    return ReportStatus(
        Status(compute_graph.status()).Prefix("AddGraph " + std::to_string(graph_id)));
  }
  auto entry = std::make_shared<Impl::Entry>();
  entry->graph = *compute_graph;
  entry->options = options;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->graphs.emplace(graph_id, std::move(entry)).second) {
    return ReportStatus(ParamInvalid("AddGraph: " + GraphWhere(graph_id) +
                                     " is already in this session (RemoveGraph it first)"));
  }
  return GRAPH_SUCCESS;
}

graphStatus Session::RemoveGraph(uint32_t graph_id) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->graphs.erase(graph_id) == 0) {
    return ReportStatus(
        ParamInvalid("RemoveGraph: " + GraphWhere(graph_id) + " is not in this session"));
  }
  return GRAPH_SUCCESS;
}

graphStatus Session::BuildGraph(uint32_t graph_id, const std::vector<Tensor>& inputs) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  Status made = impl_->MakePlans(graph_id, **entry);
  if (!made.ok()) return ReportStatus(made);
  // A graph whose input dims are known only at run time compiles for inputs' shapes, when
  // given; without them its plans are made as runs bring shapes.
  if ((*entry)->plans->specializes() && inputs.empty()) return GRAPH_SUCCESS;
  Result<ShapePlan> plan = impl_->PlanFor(graph_id, **entry, AsGeTensors(inputs));
  return ReportStatus(plan.ok() ? Status::Ok() : plan.status());
}

graphStatus Session::RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs,
                              std::vector<Tensor>& outputs) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  const std::vector<GeTensor> ge_inputs = AsGeTensors(inputs);
  Result<ShapePlan> plan = impl_->PlanFor(graph_id, **entry, ge_inputs);
  if (!plan.ok()) return ReportStatus(plan.status());
  Result<std::vector<GeTensor>> ran = plan->Run(ge_inputs);
  if (!ran.ok()) {
    return ReportStatus(Status(ran.status()).Prefix("RunGraph of " + GraphWhere(graph_id)));
  }
  outputs.clear();
  outputs.reserve(ran->size());
  for (GeTensor& t : *ran) outputs.push_back(TensorAdapter::AsTensor(std::move(t)));
  return GRAPH_SUCCESS;
}

bool Session::IsGraphNeedRebuild(uint32_t graph_id) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok() || !impl_->MakePlans(graph_id, **entry).ok()) return true;
  return (*entry)->plans->Stats().plans.empty();
}

graphStatus Session::GetShapePlanStats(uint32_t graph_id, ShapePlanStats& stats) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  Status made = impl_->MakePlans(graph_id, **entry);
  if (!made.ok()) return ReportStatus(made);
  stats = (*entry)->plans->Stats();
  return GRAPH_SUCCESS;
}

}  // namespace ge

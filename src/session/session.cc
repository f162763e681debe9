// ge::Session: graphs by id, each compiled on first use (per set of input shapes, when they are
// known only at run time) and run on the runtime.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "build_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"
#include "ge/session/inference_session.h"

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
  // A graph and the InferenceSession made of it on its first build or run: compiled once for
  // static shapes, or a static plan per set of input shapes when its input dims are known only
  // at run time.
  struct Entry {
    ComputeGraphPtr graph;  ///< until the session takes it
    session::Options options;
    std::unique_ptr<InferenceSession> session;
    std::once_flag made;
    Status make_status;
    std::atomic<bool> built{false};  ///< `session` is made
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

  // Makes the entry's session once; every caller gets the outcome of that one attempt.
  Status Make(uint32_t graph_id, Entry& entry) {
    std::call_once(entry.made, [&] {
      entry.make_status = CatchExceptions("Session::BuildGraph", [&]() -> Status {
        InferenceOptions inference;
        inference.compile = session::CompilerOptions(options, entry.options);
        inference.runtime.options = session::RuntimeOptionsOf(inference.compile);
        GE_ASSIGN_OR_RETURN(entry.session,
                            InferenceSession::FromGraph(std::move(entry.graph), inference));
        entry.built = true;
        return Status::Ok();
      });
      if (!entry.make_status.ok()) entry.make_status.Prefix(GraphWhere(graph_id));
    });
    return entry.make_status;
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
  Status made = impl_->Make(graph_id, **entry);
  if (!made.ok()) return ReportStatus(made);
  // A graph whose input dims are known only at run time compiles for inputs' shapes, when
  // given; without them its plans are made as runs bring shapes.
  Status prepared = (*entry)->session->Prepare(AsGeTensors(inputs));
  return ReportStatus(prepared.ok() ? prepared : prepared.Prefix(GraphWhere(graph_id)));
}

graphStatus Session::RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs,
                              std::vector<Tensor>& outputs) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  Status made = impl_->Make(graph_id, **entry);
  if (!made.ok()) return ReportStatus(made);
  Result<std::vector<GeTensor>> ran = (*entry)->session->Run(AsGeTensors(inputs));
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
  if (!entry.ok() || !(*entry)->built) return true;
  const InferenceSession& session = *(*entry)->session;
  return session.strategy() == RunStrategy::kShapePlans && session.PlanStats().plans.empty();
}

graphStatus Session::GetShapePlanStats(uint32_t graph_id, ShapePlanStats& stats) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  Status made = impl_->Make(graph_id, **entry);
  if (!made.ok()) return ReportStatus(made);
  stats = (*entry)->session->PlanStats();
  return GRAPH_SUCCESS;
}

}  // namespace ge

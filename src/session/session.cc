// ge::Session: graphs by id, each compiled on first use and run on the runtime.
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
  struct Entry {
    ComputeGraphPtr graph;  ///< until compiled
    session::Options options;
    std::shared_ptr<Model> model;
    std::once_flag built;
    Status build_status;
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

  // Compiles the entry once; every caller gets the outcome of that one build.
  Status Build(uint32_t graph_id, Entry& entry) {
    std::call_once(entry.built, [&] {
      entry.build_status = CatchExceptions("Session::BuildGraph", [&]() -> Status {
        const session::Options compile = session::CompilerOptions(options, entry.options);
        GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(compile));
        GE_ASSIGN_OR_RETURN(CompiledModel compiled, compiler->Compile(entry.graph));
        RuntimeOptions runtime;
        runtime.options = session::RuntimeOptionsOf(compile);
        GE_ASSIGN_OR_RETURN(std::unique_ptr<Model> model,
                            Model::Load(std::move(compiled), runtime));
        entry.model = std::move(model);
        entry.graph.reset();
        return Status::Ok();
      });
      if (!entry.build_status.ok()) entry.build_status.Prefix(GraphWhere(graph_id));
    });
    return entry.build_status;
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
  (void)inputs;  // the graph's Data descs give the shapes; unknown dims are inferred per run
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  return ReportStatus(impl_->Build(graph_id, **entry));
}

graphStatus Session::RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs,
                              std::vector<Tensor>& outputs) {
  Result<std::shared_ptr<Impl::Entry>> entry = impl_->Find(graph_id);
  if (!entry.ok()) return ReportStatus(entry.status());
  Status built = impl_->Build(graph_id, **entry);
  if (!built.ok()) return ReportStatus(built);
  std::vector<GeTensor> ge_inputs;
  ge_inputs.reserve(inputs.size());
  for (const Tensor& t : inputs) ge_inputs.push_back(TensorAdapter::AsGeTensor(t));
  Result<std::vector<GeTensor>> ran = (*entry)->model->Run(ge_inputs);
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
  return !entry.ok() || (*entry)->model == nullptr;
}

}  // namespace ge

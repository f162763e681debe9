// ExplorerPage: gec compile --html, gec run --html and gec report.
#include "explorer_page.h"

#include <iostream>

#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"

namespace gec {
namespace {

/// The compiler's stage names as the page names the graph after them.
std::string ViewName(const std::string& stage) {
  if (stage == "prepare") return "parsed";
  if (stage == "optimize") return "optimized";
  if (stage == "place") return "placed";
  if (stage == "build") return "built";
  return stage;
}

}  // namespace

void ExplorerPage::Attach(CompileFlags& flags) {
  flags.stage_done = [this](const std::string& stage, const ge::ComputeGraph& graph) {
    for (auto& view : ge::explorer::SnapshotAll(graph, ViewName(stage))) {
      stages_.push_back(std::move(view));
    }
  };
  flags.compiled = [this](const ge::Compiler& compiler, const ge::CompiledModel& model) {
    for (const ge::NodePtr& node : model.graph->GetDirectNode()) {
      const ge::OpDesc& op = *node->GetOpDescBarePtr();
      const ge::EngineInfo* engine = compiler.engines().GetEngine(op.GetOpEngineName());
      if (engine == nullptr || engine->store == nullptr) continue;
      if (const auto work = engine->store->WorkOf(op)) {
        flops_[node->GetName()] = work->dense_flops + work->elementwise_ops;
      }
    }
  };
}

void ExplorerPage::Keep(const ge::CompiledModel& compiled) {
  report_ = compiled.report;
  has_report_ = true;
  if (compiled.graph != nullptr) {
    if (stages_.empty()) stages_ = ge::explorer::SnapshotAll(*compiled.graph, "built");
    const auto plan = compiled.plans.find(compiled.graph->GetName());
    if (plan != compiled.plans.end()) {
      plan_ = plan->second;
      has_plan_ = true;
    }
  }
}

ge::Status ExplorerPage::Write(const std::string& model_path,
                               const std::vector<ge::TaskTiming>& profile) {
  ge::explorer::ExplorerInput input;
  input.title = model_path;
  input.max_view_nodes = max_view_nodes_;
  for (ge::explorer::GraphView& view : stages_) {
    if (view.nodes.size() <= max_view_nodes_) ge::explorer::Layout(view);
  }
  input.stages = stages_;
  input.report = has_report_ ? &report_ : nullptr;
  input.plan = has_plan_ ? &plan_ : nullptr;
  // A node's time is the sum of its tasks' (a node may have more than one).
  std::map<std::string, size_t> at;
  for (const ge::TaskTiming& task : profile) {
    auto [it, added] = at.emplace(task.name, input.profile.size());
    if (added) {
      const auto flops = flops_.find(task.name);
      input.profile.push_back(
          {task.name, task.type, 0, flops == flops_.end() ? -1.0 : flops->second});
    }
    input.profile[it->second].micros += task.duration_us;
  }
  GE_RETURN_IF_ERROR(ge::explorer::WriteHtml(input, path_));
  std::string drawn;
  size_t subgraphs = 0;
  for (const auto& view : stages_) {
    if (!view.parent.empty()) {
      ++subgraphs;
      continue;
    }
    drawn += (drawn.empty() ? "" : ", ") + view.stage + " " + std::to_string(view.nodes.size());
  }
  std::cout << "wrote " << path_ << " (nodes drawn: " << drawn;
  if (subgraphs > 0) std::cout << "; " << subgraphs << " subgraph views";
  std::cout << ")\n";
  return ge::Status::Ok();
}

}  // namespace gec

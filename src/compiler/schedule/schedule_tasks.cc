// ScheduleTasks: the threads each task is worth, by the cost model (ge/compiler/cost_model.h).
//
// A task that moves a few kilobytes loses more to waking a second thread than it gains from it;
// a large matrix product gains nearly twice. For every node whose engine sizes its work, the
// step predicts its time on 1..budget threads and writes down the threads it is worth
// (WorthThreads), with the predictions; the runtime gives the task no more than that (and no
// more than its stream has). A node its engine cannot size keeps the stream's threads.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "../build/build_stage.h"
#include "ge/compiler/cost_model.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/model/task_def.h"

namespace ge::build {
namespace {

std::string Millis(double micros) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f ms", micros / 1e3);
  return text;
}

}  // namespace

Status EstimateTaskThreads(ComputeGraph& root, const CompileOptions& options,
                           const EngineManager& engines, BuildState& state) {
  if (!options.cost_model) return Status::Ok();
  GE_ASSIGN_OR_RETURN(const ScheduleBudget plan, BudgetOf(options, state));
  for (const NodePtr& node : root.GetDirectNode()) {
    OpDesc& op = *node->GetOpDescBarePtr();
    const EngineInfo* engine = engines.GetEngine(op.GetOpEngineName());
    if (engine == nullptr || engine->store == nullptr) continue;
    const std::optional<OpWork> work = engine->store->WorkOf(op);
    if (work)
      (void)AttrUtils::SetInt(op, kAttrTaskThreads,
                              WorthThreads(*work, plan.threads, plan.machine));
  }
  return Status::Ok();
}

Status ScheduleTasks(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state, PassContext& context) {
  ScheduleReport& report = state.schedule;
  report = ScheduleReport{};
  if (!options.cost_model) {
    context.Note(std::string(kOptCostModel) + " is off: every task takes its stream's threads");
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(const ScheduleBudget plan, BudgetOf(options, state));
  const MachineProfile& machine = plan.machine;
  const int budget = plan.threads;
  report.on = true;
  report.machine = machine.source;
  report.threads = budget;
  for (const NodePtr& node : root.GetDirectNode()) {
    OpDesc& op = *node->GetOpDescBarePtr();
    const EngineInfo* engine = engines.GetEngine(op.GetOpEngineName());
    if (engine == nullptr || engine->store == nullptr) continue;
    const std::optional<OpWork> work = engine->store->WorkOf(op);
    if (!work) {
      ++report.unsized_tasks;
      context.Count("tasks the cost model cannot size");
      continue;
    }
    const int worth = WorthThreads(*work, budget, machine);
    std::vector<float> predicted;
    for (int t = 1; t <= worth; ++t) {
      predicted.push_back(static_cast<float>(PredictMicros(*work, t, machine)));
    }
    (void)AttrUtils::SetInt(op, kAttrTaskThreads, worth);
    (void)AttrUtils::SetListFloat(op, kAttrPredictedMicros, predicted);
    report.one_thread_us += predicted.front();
    if (work->dense_flops + work->elementwise_ops + work->bytes <= 0) continue;  // no compute
    ++report.tasks_by_threads[worth];
    context.Count("tasks worth " + std::to_string(worth) + " thread" + (worth == 1 ? "" : "s"));
  }
  report.predicted_us = PredictedMakespan(root, budget, machine);
  context.Note("machine profile: " + machine.source + " (" + std::to_string(machine.cores) +
               " cores); planned for " + std::to_string(budget) + " thread(s)");
  context.Note("predicted run: " + Millis(report.predicted_us) + " on " + std::to_string(budget) +
               " thread(s), " + Millis(report.one_thread_us) + " on one");
  return Status::Ok();
}

Status ChooseStreams(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state, PassContext* context) {
  CompileOptions chosen = options;
  if (!options.single_stream && options.cost_model && options.max_streams > 1) {
    GE_ASSIGN_OR_RETURN(const ScheduleBudget plan, BudgetOf(options, state));
    int64_t best_count = 1;
    double best_us = -1;
    std::map<int64_t, double>& tried = state.schedule.streams_predicted_us;
    tried.clear();
    for (int64_t count = 1; count <= options.max_streams; ++count) {
      chosen.max_streams = count;
      GE_ASSIGN_OR_RETURN(const int64_t made, AssignStreams(root, chosen, engines));
      if (made < count) break;  // no more branches to spread
      const double us = PredictedMakespan(root, plan.threads, plan.machine);
      tried[count] = us;
      // A stream more must pay for itself: the split of the threads and the events between
      // streams are real costs the model knows only roughly.
      if (best_us < 0 || us < best_us * 0.95) {
        best_count = count;
        best_us = us;
      }
    }
    chosen.max_streams = best_count;
    if (context != nullptr) {
      context->Note("streams: " + std::to_string(best_count) + " (predicted " + Millis(best_us) +
                    (tried.size() > 1 ? "; " + Millis(tried.begin()->second) + " on one" : "") +
                    ")");
    }
  }
  GE_ASSIGN_OR_RETURN(state.stream_count, AssignStreams(root, chosen, engines));
  if (state.schedule.on) {
    GE_ASSIGN_OR_RETURN(const ScheduleBudget plan, BudgetOf(options, state));
    state.schedule.predicted_us = PredictedMakespan(root, plan.threads, plan.machine);
  }
  return Status::Ok();
}

}  // namespace ge::build

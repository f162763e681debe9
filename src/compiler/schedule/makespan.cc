// The predicted run time of a graph in its order and streams (build_stage.h): the simulation the
// stream count and the choice between tied topological orders are made with.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "../build/build_stage.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/model/task_def.h"

namespace ge::build {

Result<ScheduleBudget> BudgetOf(const CompileOptions& options, BuildState& state) {
  if (state.budget) return *state.budget;
  ScheduleBudget budget;
  GE_ASSIGN_OR_RETURN(budget.machine, MachineProfile::ForCompile(options.machine_profile));
  budget.threads = options.schedule_threads > 0 ? static_cast<int>(options.schedule_threads)
                                                : budget.machine.cores;
  state.budget = budget;
  return budget;
}

double PredictedMakespan(const ComputeGraph& root, int threads, const MachineProfile& machine) {
  const std::vector<NodePtr> order = root.GetDirectNode();
  // Lanes as the runtime makes them: the streams that have a node, each with an even share of
  // the threads (at least one).
  std::map<int64_t, int> lane_of;
  for (const NodePtr& node : order) lane_of.emplace(node->GetOpDescBarePtr()->GetStreamId(), 0);
  const int lanes = static_cast<int>(lane_of.size());
  int k = 0;
  for (auto& entry : lane_of) entry.second = k++;
  std::vector<int> lane_threads(static_cast<size_t>(lanes));
  for (int i = 0; i < lanes; ++i) {
    lane_threads[static_cast<size_t>(i)] =
        std::max(1, threads / lanes + (i < threads % lanes ? 1 : 0));
  }
  std::vector<double> lane_free(static_cast<size_t>(lanes), 0.0);
  std::unordered_map<const Node*, double> finish;
  double makespan = 0;
  for (const NodePtr& node : order) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    const int64_t stream = op.GetStreamId();
    const auto lane = static_cast<size_t>(lane_of[stream]);
    double start = lane_free[lane];
    for (const NodePtr& producer : node->GetInNodes()) {
      auto done = finish.find(producer.get());
      if (done == finish.end()) continue;
      const bool crosses = producer->GetOpDescBarePtr()->GetStreamId() != stream;
      start = std::max(start, done->second + (crosses ? machine.thread_us : 0.0));
    }
    std::vector<float> predicted;
    (void)AttrUtils::GetListFloat(op, kAttrPredictedMicros, predicted);
    const size_t t = std::min(predicted.size(), static_cast<size_t>(lane_threads[lane]));
    const double end = start + (t > 0 ? predicted[t - 1] : 0.0);
    finish[node.get()] = end;
    lane_free[lane] = end;
    makespan = std::max(makespan, end);
  }
  return makespan;
}

}  // namespace ge::build

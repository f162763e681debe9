// Memory assignment: a plan per graph through the memory planner, trying several topological
// orders for the root graph when the user did not fix one.
#include <algorithm>
#include <optional>
#include <set>

#include "build_stage.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::build {
namespace {

struct Candidate {
  std::string name;
  TopoSortOptions topo;
};

std::vector<Candidate> Candidates(const CompileOptions& options) {
  if (options.topo_mode_given || !options.try_topo_orders) {
    std::string name = TopoSortingModeName(options.topo.mode);
    if (options.topo.memory_priority) {
      name += '+';
      name += MemoryPriorityName(options.topo.memory_key);
    }
    return {{std::move(name), options.topo}};
  }
  std::vector<Candidate> out;
  for (TopoSortingMode mode : {TopoSortingMode::kDFS, TopoSortingMode::kBFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    TopoSortOptions topo;
    topo.mode = mode;
    out.push_back({TopoSortingModeName(mode), topo});
    if (mode == TopoSortingMode::kDFS || mode == TopoSortingMode::kBFS) {
      topo.memory_priority = true;
      for (MemoryPriorityKey key :
           {MemoryPriorityKey::kFewerConsumers, MemoryPriorityKey::kLargerOutputs}) {
        topo.memory_key = key;
        out.push_back(
            {std::string(TopoSortingModeName(mode)) + "+" + MemoryPriorityName(key), topo});
      }
    }
  }
  return out;
}

memory::PlanOptions PlanOptionsOf(const CompileOptions& options) {
  memory::PlanOptions plan;
  plan.alignment = options.memory_alignment;
  plan.disable_reuse = options.disable_reuse_memory;
  plan.separate_outputs = options.separate_outputs;
#ifdef NDEBUG
  plan.check = options.verify_after_pass;
#else
  plan.check = true;
#endif
  return plan;
}

Result<memory::MemoryPlan> PlanOne(const ComputeGraph& graph, const memory::PlanOptions& options) {
  Result<memory::MemoryPlan> plan = memory::PlanGraphMemory(graph, graph.GetDirectNode(), options);
  if (!plan.ok())
    return Status(plan.status()).Prefix("memory plan of graph '" + graph.GetName() + "'");
  return plan;
}

// The node whose working set `plan`'s arena is, when it is one: at the plan's peak step every
// live block holds an input, output or workspace of the node running then, which may overwrite
// none of its inputs. Any order must hold those blocks at once when that node runs, so no order
// needs a smaller arena. Empty otherwise.
std::string FloorNode(const memory::MemoryPlan& plan, const std::vector<const Node*>& order) {
  if (plan.arena_bytes != plan.lower_bound || plan.peak_step < 0 ||
      static_cast<size_t>(plan.peak_step) >= order.size()) {
    return "";
  }
  const Node& peak = *order[static_cast<size_t>(plan.peak_step)];
  if (peak.GetOpDescBarePtr()->HasAttr(memory::kAttrInplaceOutputInput)) return "";
  std::set<std::pair<std::string, int32_t>> reads;  // (producer, output) the node reads
  for (const InDataAnchorPtr& in : peak.GetAllInDataAnchors()) {
    const OutDataAnchor* out = in->GetPeerOutAnchorBarePtr();
    if (out != nullptr) reads.emplace(out->GetOwnerNodeBarePtr()->GetName(), out->GetIdx());
  }
  auto its = [&](const memory::TensorPlan& t) {
    return t.node == peak.GetName() ||
           (t.output_index >= 0 && reads.count({t.node, t.output_index}));
  };
  std::vector<bool> held(plan.tensors.size(), false);  // by block owner: a member is the node's
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const memory::TensorPlan& t = plan.tensors[i];
    const size_t owner = t.alias_of >= 0 ? static_cast<size_t>(t.alias_of) : i;
    if (owner < held.size() && its(t)) held[owner] = true;
  }
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const memory::TensorPlan& t = plan.tensors[i];
    const bool live = t.region == memory::Region::kArena && t.alias_of < 0 &&
                      t.first_step <= plan.peak_step && plan.peak_step <= t.last_step;
    if (live && !held[i]) return "";
  }
  return peak.GetName();
}

// The graph's direct nodes in their current order.
std::vector<const Node*> NodeOrder(const ComputeGraph& graph) {
  const std::vector<Node*> nodes = graph.GetDirectNodePtr();
  return {nodes.begin(), nodes.end()};
}

// The check PlanGraphMemory makes of a plan made without it, when `options` asks for it.
Status CheckedPlan(const ComputeGraph& graph, const memory::PlanOptions& options,
                   const memory::MemoryPlan& plan) {
  if (!options.check) return Status::Ok();
  Status status = memory::CheckMemoryPlan(plan);
  if (status.ok()) return status;
  return InternalError("memory planner: the plan for graph '" + graph.GetName() +
                       "' failed its check: " + status.message());
}

}  // namespace

Status PlanMemory(ComputeGraph& root, const CompileOptions& options, BuildState& state,
                  const std::function<Result<double>()>& predict) {
  const memory::PlanOptions plan_options = PlanOptionsOf(options);
  std::vector<Candidate> candidates = Candidates(options);
  // Orders are compared without the local search (it would cost its budget per order); the
  // chosen order is planned again with it.
  memory::PlanOptions quick = plan_options;
  quick.search_budget_ms = 0;
  quick.check = false;
  size_t best = 0;
  int64_t best_bytes = -1;
  std::vector<int64_t> bytes(candidates.size(), -1);
  // Each mode sorts from the order the graph came in with: a mode breaks ties by the order it
  // starts from, and the chosen one is sorted again at the end to give the order it was judged by.
  const std::vector<NodePtr> given = root.GetDirectNode();
  auto sort = [&](size_t i) -> Status {
    GE_RETURN_IF_ERROR(root.ReorderNodes(given));
    return root.TopologicalSorting(candidates[i].topo);
  };
  // Several modes often give one order (a chain has only one): each order is planned once.
  std::vector<std::vector<const Node*>> orders;
  std::vector<std::optional<memory::MemoryPlan>> plans(candidates.size());
  std::vector<size_t> planned_as(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    GE_RETURN_IF_ERROR(sort(i));
    if (candidates.size() == 1) break;
    std::vector<const Node*> order = NodeOrder(root);
    planned_as[i] =
        static_cast<size_t>(std::find(orders.begin(), orders.end(), order) - orders.begin());
    orders.push_back(std::move(order));
    if (planned_as[i] == i) {
      GE_ASSIGN_OR_RETURN(plans[i], PlanOne(root, quick));
    }
    bytes[i] = plans[planned_as[i]]->arena_bytes;
    state.memory.order_bytes[candidates[i].name] = bytes[i];
    if (best_bytes < 0 || bytes[i] < best_bytes) {
      best = i;
      best_bytes = bytes[i];
    }
    // No order can do better: the rest are not tried (the first of several tied orders is kept
    // unless the cost model tells them apart, so it is the one kept then too).
    if (best == i && !predict) {
      state.memory.floor_node = FloorNode(*plans[planned_as[i]], orders.back());
      if (!state.memory.floor_node.empty()) break;
    }
  }
  // Orders whose arenas tie: the cost model's predicted time decides (the first order wins a
  // second tie).
  if (predict && candidates.size() > 1 && std::count(bytes.begin(), bytes.end(), best_bytes) > 1) {
    double best_micros = -1;
    std::vector<double> predicted(candidates.size(), -1);
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (bytes[i] != best_bytes) continue;
      if (planned_as[i] == i) {
        GE_RETURN_IF_ERROR(sort(i));
        GE_ASSIGN_OR_RETURN(predicted[i], predict());
      }
      const double micros = predicted[planned_as[i]];
      state.memory.order_predicted_us[candidates[i].name] = micros;
      if (best_micros < 0 || micros < best_micros) {
        best = i;
        best_micros = micros;
      }
    }
  }
  GE_RETURN_IF_ERROR(sort(best));
  // The chosen order's plan, when it is at its lower bound, is the one the search would keep.
  std::optional<memory::MemoryPlan>& chosen = plans[planned_as[best]];
  if (chosen.has_value()) {
    if (chosen->arena_bytes > chosen->lower_bound || NodeOrder(root) != orders[planned_as[best]]) {
      chosen.reset();
    }
  }
  state.plans.clear();
  std::vector<ComputeGraph*> graphs = {&root};
  for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) graphs.push_back(sub.get());
  for (ComputeGraph* graph : graphs) {
    memory::MemoryPlan plan;
    if (graph == &root && chosen.has_value()) {
      GE_RETURN_IF_ERROR(CheckedPlan(root, plan_options, *chosen));
      plan = std::move(*chosen);
    } else {
      GE_ASSIGN_OR_RETURN(plan, PlanOne(*graph, plan_options));
    }
    Status applied = memory::ApplyMemoryPlan(*graph, plan);
    if (!applied.ok()) return std::move(applied).Prefix("graph '" + graph->GetName() + "'");
    state.plans[graph->GetName()] = std::move(plan);
  }
  const memory::MemoryPlan& main = state.plans[root.GetName()];
  state.memory.arena_bytes = main.arena_bytes;
  state.memory.lower_bound = main.lower_bound;
  state.memory.weight_bytes = main.weight_bytes;
  state.memory.output_bytes = main.output_bytes;
  state.memory.strategy = main.strategy;
  state.memory.topo_order = candidates[best].name;
  for (const memory::StrategyResult& s : main.strategies) {
    state.memory.strategy_bytes[s.name] = s.arena_bytes;
  }
  for (size_t g = 1; g < graphs.size(); ++g) {
    const memory::MemoryPlan& sub = state.plans[graphs[g]->GetName()];
    state.memory.arena_bytes += sub.arena_bytes;
    state.memory.lower_bound += sub.lower_bound;
    state.memory.weight_bytes += sub.weight_bytes;
  }
  return Status::Ok();
}

Status PlanMemoryForStreams(ComputeGraph& root, const CompileOptions& options, int64_t streams,
                            BuildState& state) {
  if (streams <= 1) return Status::Ok();
  memory::PlanOptions plan_options = PlanOptionsOf(options);
  const std::vector<NodePtr> order = root.GetDirectNode();
  plan_options.last_concurrent_step = LastConcurrentSteps(order);
  Result<memory::MemoryPlan> planned = memory::PlanGraphMemory(root, order, plan_options);
  if (!planned.ok()) {
    return Status(planned.status())
        .Prefix("memory plan of graph '" + root.GetName() + "' for " + std::to_string(streams) +
                " parallel streams");
  }
  memory::MemoryPlan plan = std::move(planned).value();
  Status applied = memory::ApplyMemoryPlan(root, plan);
  if (!applied.ok()) return std::move(applied).Prefix("graph '" + root.GetName() + "'");
  AttrUtils::SetInt(root, memory::kAttrPlanStreams, streams);
  memory::MemoryPlan& old = state.plans[root.GetName()];
  state.memory.arena_bytes += plan.arena_bytes - old.arena_bytes;
  state.memory.lower_bound += plan.lower_bound - old.lower_bound;
  state.memory.strategy = plan.strategy;
  state.memory.strategy_bytes.clear();
  for (const memory::StrategyResult& s : plan.strategies) {
    state.memory.strategy_bytes[s.name] = s.arena_bytes;
  }
  old = std::move(plan);
  return Status::Ok();
}

}  // namespace ge::build

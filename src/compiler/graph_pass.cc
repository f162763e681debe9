// GraphPass::Run, the rewrite driver and PassManager.
#include "ge/compiler/graph_pass.h"

#include <chrono>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/node.h"
#include "ge/graph/serialize/model_serialize.h"

namespace ge {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Status DumpGraph(const ComputeGraph& graph, const std::string& dir, int index,
                 std::string_view pass) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Failed("cannot create the dump directory '" + dir + "': " + ec.message());
  }
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%03d_", index);
  const std::string path = dir + "/" + prefix + std::string(pass) + ".pbtxt";
  SerializeOptions options;
  options.with_weight_data = false;
  return ModelSerialize::SaveToFile(graph, path, SerializeFormat::kText, options);
}

// Kahn's algorithm over data and control edges; names a node left on a cycle.
Status CheckAcyclic(const ComputeGraph& graph) {
  std::vector<ComputeGraph*> graphs;
  std::vector<ComputeGraphPtr> subgraphs = graph.GetAllSubgraphs();
  std::vector<const ComputeGraph*> all = {&graph};
  for (const ComputeGraphPtr& sub : subgraphs) all.push_back(sub.get());
  for (const ComputeGraph* g : all) {
    std::unordered_map<const Node*, size_t> in_degree;
    std::vector<const Node*> ready;
    const std::vector<NodePtr> nodes = g->GetDirectNode();
    for (const NodePtr& node : nodes) {
      const size_t degree = node->GetInNodes().size();
      in_degree[node.get()] = degree;
      if (degree == 0) ready.push_back(node.get());
    }
    size_t seen = 0;
    while (!ready.empty()) {
      const Node* node = ready.back();
      ready.pop_back();
      ++seen;
      for (const NodePtr& out : node->GetOutNodes()) {
        if (--in_degree[out.get()] == 0) ready.push_back(out.get());
      }
    }
    if (seen == nodes.size()) continue;
    for (const auto& [node, degree] : in_degree) {
      if (degree > 0) {
        return Failed("graph '" + g->GetName() + "' has a cycle through node '" + node->GetName() +
                      "'");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

size_t CountAllNodes(const ComputeGraph& graph) { return graph.GetAllNodesSize(); }

Result<PassReport> GraphPass::Run(ComputeGraph& graph, PassContext& context) {
  context_ = &context;
  context.current_ = PassReport{};
  context.current_.name = std::string(Name());
  context.current_.nodes_before = CountAllNodes(graph);
  const auto start = std::chrono::steady_clock::now();
  Result<bool> changed = RunImpl(graph);
  context_ = nullptr;
  if (!changed.ok()) {
    return Status(changed.status()).Prefix("pass " + std::string(Name()));
  }
  PassReport report = std::move(context.current_);
  report.millis = MillisSince(start);
  report.changed = *changed;
  report.nodes_after = CountAllNodes(graph);
  if (context.options().verify_after_pass && report.changed) {
    Status verified = GraphVerifier::Verify(graph);
    if (verified.ok()) verified = CheckAcyclic(graph);
    if (!verified.ok()) {
      return std::move(verified).Prefix("the graph is invalid after pass " + std::string(Name()) +
                                        " (a bug in that pass; please report it with the model)");
    }
  }
  if (!context.options().dump_graph_dir.empty()) {
    GE_RETURN_IF_ERROR(
        DumpGraph(graph, context.options().dump_graph_dir, context.NextDumpIndex(), Name()));
  }
  return report;
}

RewritePass::RewritePass(std::string name, std::vector<std::unique_ptr<NodeRewrite>> rewrites)
    : name_(std::move(name)), rewrites_(std::move(rewrites)) {}

Result<bool> RewritePass::RunImpl(ComputeGraph& graph) {
  // Which rewrites each op type starts; rewrites with no start types are tried on every node.
  std::vector<std::pair<std::unordered_set<std::string>, const NodeRewrite*>> starts;
  for (const auto& rewrite : rewrites_) {
    const std::vector<std::string> types = rewrite->StartTypes();
    starts.emplace_back(std::unordered_set<std::string>(types.begin(), types.end()), rewrite.get());
  }
  bool changed_any = false;
  const int64_t limit = context().options().rewrite_limit;
  for (int64_t sweep = 0;; ++sweep) {
    if (sweep == limit) {
      context().Note("stopped after " + std::to_string(limit) +
                     " sweeps with rewrites still applying (" + kOptRewriteLimit + ")");
      break;
    }
    bool changed = false;
    for (const NodePtr& node : graph.GetAllNodes()) {
      for (const auto& [types, rewrite] : starts) {
        // An earlier rewrite of this sweep may have removed the node.
        ComputeGraph* owner = node->GetOwnerComputeGraphBarePtr();
        if (owner == nullptr || !owner->HasNode(node.get())) break;
        if (!types.empty() && types.count(node->GetType()) == 0) continue;
        if (!rewrite->Match(*node, context())) continue;
        Result<bool> done = rewrite->Rewrite(node, *owner, context());
        if (!done.ok()) {
          return Status(done.status())
              .Prefix("rewrite " + std::string(rewrite->Name()) + " at node '" + node->GetName() +
                      "' (type " + node->GetType() + ")");
        }
        if (*done) {
          changed = true;
          context().CountRewrite();
          context().Count(std::string(rewrite->Name()));
        }
      }
    }
    if (!changed) break;
    changed_any = true;
  }
  return changed_any;
}

std::vector<std::string> PassManager::PassNames() const {
  std::vector<std::string> names;
  for (const auto& pass : passes_) names.emplace_back(pass->Name());
  return names;
}

Status PassManager::Run(ComputeGraph& graph, PassContext& context, StageReport& report) {
  for (const auto& pass : passes_) {
    const std::string name(pass->Name());
    context.PassStarting(name);
    if (context.options().disabled_passes.count(name) != 0) {
      PassReport skipped;
      skipped.name = name;
      skipped.skipped = true;
      skipped.nodes_before = skipped.nodes_after = CountAllNodes(graph);
      report.passes.push_back(std::move(skipped));
      continue;
    }
    GE_ASSIGN_OR_RETURN(PassReport pass_report, pass->Run(graph, context));
    report.passes.push_back(std::move(pass_report));
  }
  return Status::Ok();
}

}  // namespace ge

// Stream assignment.
//
// One stream unless ge.enableSingleStream is false. Then, walking the root graph in order, a
// node continues the stream of its first data producer unless that producer already handed its
// stream to another consumer; branches that fork get new streams, up to openge.maxStreamNum,
// after which streams are reused round-robin. Nodes of engines marked skip_assign_stream (GE
// Local) take their first producer's stream, else their first consumer's, else stream 0.
// Subgraph nodes run on their parent node's stream. Edges between streams get events at
// task generation.
#include <unordered_map>
#include <unordered_set>

#include "build_stage.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/node_utils.h"

namespace ge::build {
namespace {

bool SkipsAssign(const Node& node, const EngineManager& engines) {
  const EngineInfo* engine = engines.GetEngine(node.GetOpDescBarePtr()->GetOpEngineName());
  return engine != nullptr && engine->config.skip_assign_stream;
}

void AssignSubgraphs(const Node& node, int64_t stream) {
  for (const ComputeGraphPtr& sub : NodeUtils::GetSubgraphs(node)) {
    if (sub == nullptr) continue;
    for (const NodePtr& inner : sub->GetDirectNode()) {
      inner->GetOpDescBarePtr()->SetStreamId(stream);
      AssignSubgraphs(*inner, stream);
    }
  }
}

}  // namespace

Result<int64_t> AssignStreams(ComputeGraph& root, const CompileOptions& options,
                              const EngineManager& engines) {
  const std::vector<NodePtr> order = root.GetDirectNode();
  if (options.single_stream) {
    for (const NodePtr& node : root.GetAllNodes()) node->GetOpDescBarePtr()->SetStreamId(0);
    return 1;
  }
  std::unordered_map<const Node*, int64_t> stream;
  std::unordered_set<const Node*> handed_on;  // producers whose stream a consumer continued
  int64_t streams = 1;
  int64_t next_reuse = 0;
  bool first_compute = true;
  for (const NodePtr& node : order) {
    if (SkipsAssign(*node, engines)) continue;
    int64_t chosen = -1;
    for (const NodePtr& producer : node->GetInDataNodes()) {
      auto it = stream.find(producer.get());
      if (it == stream.end()) continue;
      if (handed_on.insert(producer.get()).second) chosen = it->second;
      break;
    }
    if (chosen < 0) {
      if (first_compute) {
        chosen = 0;
      } else if (streams < options.max_streams) {
        chosen = streams++;
      } else {
        chosen = next_reuse;
        next_reuse = (next_reuse + 1) % streams;
      }
    }
    first_compute = false;
    stream[node.get()] = chosen;
  }
  // Skip-assign nodes: a neighbour's stream (producers first, in order, then consumers).
  for (const NodePtr& node : order) {
    if (stream.count(node.get()) != 0) continue;
    int64_t chosen = -1;
    for (const NodePtr& producer : node->GetInNodes()) {
      auto it = stream.find(producer.get());
      if (it != stream.end()) {
        chosen = it->second;
        break;
      }
    }
    stream[node.get()] = chosen;
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (stream[it->get()] >= 0) continue;
    int64_t chosen = 0;
    for (const NodePtr& consumer : (*it)->GetOutNodes()) {
      auto found = stream.find(consumer.get());
      if (found != stream.end() && found->second >= 0) {
        chosen = found->second;
        break;
      }
    }
    stream[it->get()] = chosen;
  }
  for (const NodePtr& node : order) {
    node->GetOpDescBarePtr()->SetStreamId(stream[node.get()]);
    AssignSubgraphs(*node, stream[node.get()]);
  }
  return streams;
}

}  // namespace ge::build

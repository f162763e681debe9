// Stream assignment.
//
// One stream unless ge.enableSingleStream is false. Then, walking the root graph in order, a
// node continues the stream of its first data producer unless that producer already handed its
// stream to another consumer; branches that fork get new streams, up to openge.maxStreamNum,
// after which streams are reused round-robin. Nodes of engines marked skip_assign_stream (GE
// Local) take their first producer's stream, else their first consumer's, else stream 0.
// Subgraph nodes run on their parent node's stream. Edges between streams get events at
// task generation.
#include <algorithm>
#include <bit>
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

// Happens-before by reachability, 64 source steps at a time: mask[q] holds the sources of the
// batch ordered before q; scanning back from the end, a source's last concurrent step is the
// first q whose mask lacks it. O(n / 64 * (n + edges)) time, O(n) memory.
std::vector<int64_t> LastConcurrentSteps(const std::vector<NodePtr>& order) {
  const size_t n = order.size();
  std::unordered_map<const Node*, uint32_t> step_of;
  step_of.reserve(n);
  for (size_t i = 0; i < n; ++i) step_of.emplace(order[i].get(), static_cast<uint32_t>(i));
  // Direct predecessors: producers (data and control) and the previous node of the same stream.
  std::vector<std::vector<uint32_t>> preds(n);
  std::unordered_map<int64_t, uint32_t> last_on_stream;
  for (size_t i = 0; i < n; ++i) {
    for (const NodePtr& producer : order[i]->GetInNodes()) {
      auto found = step_of.find(producer.get());
      if (found != step_of.end() && found->second < i) preds[i].push_back(found->second);
    }
    const int64_t stream = order[i]->GetOpDescBarePtr()->GetStreamId();
    auto previous = last_on_stream.find(stream);
    if (previous != last_on_stream.end()) preds[i].push_back(previous->second);
    last_on_stream[stream] = static_cast<uint32_t>(i);
  }
  std::vector<int64_t> last(n, 0);
  std::vector<uint64_t> mask(n, 0);
  for (size_t base = 0; base < n; base += 64) {
    const size_t width = std::min<size_t>(64, n - base);
    for (size_t q = base; q < n; ++q) {
      uint64_t m = 0;
      for (uint32_t p : preds[q]) {
        if (p < base) continue;
        m |= mask[p];
        if (p < base + width) m |= uint64_t{1} << (p - base);
      }
      mask[q] = m;
    }
    uint64_t remaining = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    for (size_t q = n; remaining != 0 && q-- > base;) {
      uint64_t found = remaining & ~mask[q];
      remaining &= mask[q];
      for (; found != 0; found &= found - 1) {
        last[base + static_cast<size_t>(std::countr_zero(found))] = static_cast<int64_t>(q);
      }
    }
  }
  return last;
}

}  // namespace ge::build

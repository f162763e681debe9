// GraphVerifier: checks the structural invariants of a graph hierarchy; tests and passes call it.
#pragma once

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API GraphVerifier {
 public:
  GraphVerifier() = delete;
  /// Checks, for the graph and every subgraph: each anchor's peers are linked back (symmetry),
  /// peer kinds are allowed, an in-data anchor has at most one producer, every anchor belongs to
  /// its node and has the right index, anchors match the OpDesc's input/output counts, every
  /// peer is in the same graph, node names and ids are unique within each graph,
  /// input/output lists name nodes of the graph, and subgraph parent links are consistent.
  /// The first violation is returned, naming the graph, the node and the anchor. On a root graph
  /// it checks the subgraph depth as well (VerifySubgraphDepth).
  static Status Verify(const ComputeGraph& graph);

  /// Checks that no subgraph reachable from `graph` through its nodes' subgraph instance names is
  /// nested more than kMaxSubgraphDepth levels deep, counting `graph` itself as `level` (0 for a
  /// root graph; a graph about to be attached as a subgraph is at level 1 or more). A deeper one
  /// is a ParamInvalid naming the subgraph, its parent node, its level and the limit. Walks the
  /// hierarchy without recursion, so it is safe on any depth.
  static Status VerifySubgraphDepth(const ComputeGraph& graph, int level = 0);
};

}  // namespace ge

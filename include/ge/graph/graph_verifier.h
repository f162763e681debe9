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
  /// The first violation is returned, naming the graph, the node and the anchor.
  static Status Verify(const ComputeGraph& graph);
};

}  // namespace ge

// ComputeGraph hierarchies <-> lists of GraphDef (the main graph first, then its subgraphs).
#pragma once

#include <functional>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "serialize_internal.h"

namespace ge::serialize {

/// Where SaveGraphTree writes: called once per graph, first for the main graph.
using GraphDefSink = std::function<proto::GraphDef*()>;

/// Writes `graph` and then every subgraph reachable from it through subgraph instance names
/// (in the root graph's registration order), each into a GraphDef that `next` provides. Each
/// GraphDef's name is the name the parent node uses for it.
Status SaveGraphTree(const ComputeGraph& graph, const GraphDefSink& next, SaveContext& ctx);

/// Rebuilds a hierarchy: defs[0] is the main graph, the others its subgraphs (plus those listed
/// in defs[0]'s reserved `_subgraphs` attribute). Every graph gets all its nodes, then its edges;
/// then subgraphs are attached to the nodes that name them. Bytes may be moved out of `defs`.
Result<ComputeGraphPtr> LoadGraphTree(const std::vector<proto::GraphDef*>& defs, LoadContext& ctx);

}  // namespace ge::serialize

// Node internals shared by node.cc and compute_graph.cc (not a public header).
#pragma once

#include <list>

#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"

namespace ge {

struct Node::Impl {
  OpDescPtr op_desc;
  std::weak_ptr<ComputeGraph> owner_graph;
  ComputeGraph* owner_graph_raw = nullptr;
  std::vector<InDataAnchorPtr> in_data;
  std::vector<OutDataAnchorPtr> out_data;
  InControlAnchorPtr in_control;
  OutControlAnchorPtr out_control;
  // Position in the owner's node list, for O(1) removal.
  std::list<NodePtr>::iterator position;
  bool in_list = false;
  // NodeUtils::SetAllAnchorStatus ran on this node.
  bool anchor_status_updated = false;
};

}  // namespace ge

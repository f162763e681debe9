// The canonical listing the golden pass tests compare: a graph as a few readable, deterministic
// lines (tests/golden/README.md describes the form).
#pragma once

#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"

namespace ge::golden {

/// One line per node of `graph` and of each subgraph, in a topological order that depends on
/// the edges and names only (ties go to the smaller name), so two graphs of the same structure
/// list the same whatever order their nodes were stored in.
std::string GraphListing(const ComputeGraph& graph);

/// A line diff of `expected` against `actual`: every line, prefixed "  " when both have it, "- "
/// when only `expected` does and "+ " when only `actual` does.
std::string LineDiff(const std::string& expected, const std::string& actual);

}  // namespace ge::golden

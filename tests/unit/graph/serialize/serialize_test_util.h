// Helpers for the serialization tests: graph comparison that sees through graph attributes, a
// graph that uses every feature the format has, and Status matchers.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge::serialize_test {

// ---- comparison ----

/// AttrValue compares graph attributes by pointer, so CheckEqual cannot see that a loaded graph
/// attribute equals the saved one. This walks `expected` and `actual` side by side; where both
/// hold a graph attribute that CheckEqual finds equal, `actual` is made to hold expected's
/// pointer. An unequal graph attribute is reported with CheckEqual's message.
Status CanonicalizeGraphAttrs(const ComputeGraph& expected, ComputeGraph& actual);

/// CanonicalizeGraphAttrs, then GraphUtils::CheckEqual.
::testing::AssertionResult SameGraph(const ComputeGraph& expected, ComputeGraph& actual);

// ---- graphs ----

/// A float desc of `dims` in `format`.
GeTensorDesc Desc(std::vector<int64_t> dims, Format format = FORMAT_ND, DataType dtype = DT_FLOAT);

/// One value of every AttrValue type, each list type also once empty, keyed by a name that says
/// what it is ("int", "list_graph_empty", ...). Covers AttrValue::Type exhaustively.
std::vector<std::pair<std::string, AttrValue>> EveryAttrValue();

/// A graph with every attribute type (on graph, nodes, descs and named attrs), every data type
/// and format (with sub-formats and C0), dynamic and optional inputs, IR metadata, compile state,
/// control edges (also the rare data->control kinds), a Const weight and nested subgraphs.
ComputeGraphPtr MakeRichGraph();

/// Data -> Relu x (n - 2) -> NetOutput chain with a Const weight every `const_every` nodes.
ComputeGraphPtr MakeChainGraph(const std::string& name, int n, int const_every = 0);

// ---- round trips and statuses ----

/// Serialize then Deserialize; a failure of either fails the test.
ComputeGraphPtr RoundTrip(const ComputeGraph& graph,
                          SerializeFormat format = SerializeFormat::kBinary);

/// The Status failed and its message contains every one of `parts`.
::testing::AssertionResult FailsWith(const Status& status, const std::vector<std::string>& parts);

/// Reads a file of tests/data.
std::string ReadTestData(const std::string& name);

}  // namespace ge::serialize_test

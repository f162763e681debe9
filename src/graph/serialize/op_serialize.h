// OpDesc <-> OpDef: descs, port names, IR metadata, subgraph names, compile state, attributes.
// Edges (OpDef.input) belong to graph_serialize.cc / graph_load.cc.
#pragma once

#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "reserved_attrs.h"
#include "serialize_internal.h"

namespace ge::serialize {

/// Fills every OpDef field except `input`; errors name the field ("input_desc[1].dtype", ...).
Status SaveOpDesc(const OpDesc& op, proto::OpDef& out, SaveContext& ctx);
/// Builds an OpDesc from every OpDef field except `input`; `reserved` is a view of in.attr
/// (the edge attributes in it are the graph loader's business).
Result<OpDescPtr> LoadOpDesc(proto::OpDef& in, const ReservedView& reserved, LoadContext& ctx);

}  // namespace ge::serialize

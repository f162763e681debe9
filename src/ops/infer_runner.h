// Internal: the generic steps around a prototype's functions (dtype propagation, input checks,
// generic verification) and binding a graph node's inputs to an InferContext.
#pragma once

#include "ge/graph/node.h"
#include "ge/graph/status.h"
#include "ge/ops/infer_context.h"
#include "ge/ops/op_proto.h"

namespace ge {

/// Checks required inputs, gives outputs their dtypes from shared type symbols and single-type
/// sets, then runs the prototype's infer-shape function; an output whose dtype should come from
/// its inputs but has none after that is an error saying why.
Status RunInferShape(const OpProto& proto, InferContext& ctx);
/// Generic checks (inputs, attributes, dtypes, type symbols), then the prototype's verify.
Status RunVerify(const OpProto& proto, InferContext& ctx);
/// Copies each linked producer's output desc (shape, dtype, format) into the node's input desc.
void UpdateInputsFromPeers(const Node& node);
/// What the node's graph says of its inputs: which are unlinked, and the values of its
/// Const/Constant producers (pointers into their attributes, valid while the graph is).
InferInputs GraphInputsOf(const Node& node);
/// Marks the absent inputs and shows the known values to the context.
void BindInputs(const InferInputs& inputs, InferContext& ctx);

}  // namespace ge

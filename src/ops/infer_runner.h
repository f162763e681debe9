// Internal: the generic steps around a prototype's functions (dtype propagation, input checks,
// generic verification) and binding a graph node's inputs to an InferContext.
#pragma once

#include "ge/graph/node.h"
#include "ge/graph/status.h"
#include "ge/ops/infer_context.h"
#include "ge/ops/op_proto.h"

namespace ge {

/// Checks required inputs, gives outputs their dtypes from shared type symbols and single-type
/// sets, then runs the prototype's infer-shape function.
Status RunInferShape(const OpProto& proto, InferContext& ctx);
/// Generic checks (inputs, attributes, dtypes, type symbols), then the prototype's verify.
Status RunVerify(const OpProto& proto, InferContext& ctx);
/// Copies each linked producer's output desc (shape, dtype, format) into the node's input desc.
void UpdateInputsFromPeers(const Node& node);
/// Marks unlinked inputs absent and makes the values of Const/Constant producers visible.
void BindGraphInputs(const Node& node, InferContext& ctx);

}  // namespace ge

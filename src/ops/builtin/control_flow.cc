// Control flow with subgraphs: If, Case, While, PartitionedCall (GE), Loop and Scan (ONNX). Their
// output descs come from the subgraphs (the compiler's subgraph-aware inference fills them); the
// prototypes only check the inputs and carry loop variables through.
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

// Outputs are defined by the subgraphs: leave the descs as the graph builder or frontend set them.
Status KeepOutputs(InferContext&) { return Status::Ok(); }

Status RequireScalarLike(InferContext& ctx, size_t i) {
  const GeShape& s = ctx.InputShape(i);
  if (!s.IsUnknownDimNum() && infer::DimProduct(s.GetDims()) > 1) {
    return ctx.Error(ctx.DescribeInput(i) + " must hold a single value");
  }
  return Status::Ok();
}

// While: loop-carried variables keep their dtype; a dim may change between iterations only if
// the body says so, which the subgraph pass checks. Here output k = input k.
Status InferWhile(InferContext& ctx) {
  const size_t n = std::min(ctx.NumInputs(), ctx.NumOutputs());
  for (size_t i = 0; i < n; ++i) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(i, ctx.InputShape(i), ctx.InputDataType(i)));
  }
  return Status::Ok();
}

// ONNX Loop: outputs are the N loop-carried values (their input descs here; the body may loosen
// them) then the scan outputs, whose descs come from the body.
Status InferLoop(InferContext& ctx) {
  for (size_t i : {size_t{0}, size_t{1}}) {
    if (ctx.HasInput(i)) GE_RETURN_IF_ERROR(RequireScalarLike(ctx, i));
  }
  const std::vector<size_t> carried = ctx.InputIndices("v_initial");
  if (carried.size() > ctx.NumOutputs()) {
    return ctx.Error("has " + std::to_string(carried.size()) + " loop-carried values but " +
                     std::to_string(ctx.NumOutputs()) +
                     " output(s); a Loop's first outputs are the final loop-carried values");
  }
  for (size_t k = 0; k < carried.size(); ++k) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(k, ctx.InputShape(carried[k]), ctx.InputDataType(carried[k])));
  }
  return Status::Ok();
}

// ONNX Scan (opset 9+): the first N = inputs - num_scan_inputs inputs are states, carried to the
// first N outputs; scan outputs come from the body.
Status InferScan(InferContext& ctx) {
  for (size_t i = 0; i < ctx.NumInputs(); ++i) {
    if (ctx.op().GetInputNameByIndex(static_cast<uint32_t>(i)) == "sequence_lens") {
      return ctx.Error(
          "Scan-8 (sequence_lens and a batch axis) is not supported; export the model "
          "with opset 9 or later");
    }
  }
  const std::vector<size_t> inputs = ctx.InputIndices("initial_state_and_scan_inputs");
  const int64_t scans = ctx.AttrInt("num_scan_inputs", 0);
  if (scans < 1 || static_cast<size_t>(scans) > inputs.size()) {
    return ctx.Error("num_scan_inputs is " + std::to_string(scans) + " but the node has " +
                     std::to_string(inputs.size()) + " state and scan inputs");
  }
  for (const char* attr : {"scan_input_axes", "scan_input_directions"}) {
    const size_t n = ctx.AttrInts(attr).size();
    if (n != 0 && n != static_cast<size_t>(scans)) {
      return ctx.Error(std::string(attr) + " has " + std::to_string(n) + " entries for " +
                       std::to_string(scans) + " scan inputs");
    }
  }
  const size_t states = inputs.size() - static_cast<size_t>(scans);
  if (states > ctx.NumOutputs()) {
    return ctx.Error("has " + std::to_string(states) + " state values but " +
                     std::to_string(ctx.NumOutputs()) +
                     " output(s); a Scan's first outputs are the final states");
  }
  for (size_t k = 0; k < states; ++k) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(k, ctx.InputShape(inputs[k]), ctx.InputDataType(inputs[k])));
  }
  return Status::Ok();
}

}  // namespace

void RegisterControlFlowOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  r.Register(OpProtoBuilder("If")
                 .Input("cond", all)
                 .DynamicInput("input", all)
                 .DynamicOutput("output", all)
                 .Graph("then_branch")
                 .Graph("else_branch")
                 .InferShape([](InferContext& ctx) {
                   GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                   return KeepOutputs(ctx);
                 })
                 .Build());
  r.Register(OpProtoBuilder("Case")
                 .Input("branch_index", TensorType::IndexNumberType())
                 .DynamicInput("input", all)
                 .DynamicOutput("output", all)
                 .DynamicGraph("branches")
                 .InferShape([](InferContext& ctx) {
                   GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                   return KeepOutputs(ctx);
                 })
                 .Build());
  r.Register(OpProtoBuilder("While")
                 .DynamicInput("input", all)
                 .DynamicOutput("output", all)
                 .Graph("cond")
                 .Graph("body")
                 .Attr("parallel_iterations", 10)
                 .InferShape(InferWhile)
                 .Build());
  r.Register(OpProtoBuilder("Loop")
                 .OptionalInput("max_trip_count", {DT_INT64})
                 .OptionalInput("cond", {DT_BOOL})
                 .DynamicInput("v_initial", all)
                 .DynamicInput("implicit_input", all)
                 .DynamicOutput("output", all)
                 .Graph("body")
                 .InferShape(InferLoop)
                 .Build());
  r.Register(OpProtoBuilder("Scan")
                 .DynamicInput("initial_state_and_scan_inputs", all)
                 .DynamicInput("implicit_input", all)
                 .DynamicOutput("output", all)
                 .Graph("body")
                 .RequiredAttr("num_scan_inputs", AttrValue::Type::kInt)
                 .Attr("scan_input_axes", std::vector<int64_t>{})
                 .Attr("scan_input_directions", std::vector<int64_t>{})
                 .Attr("scan_output_axes", std::vector<int64_t>{})
                 .Attr("scan_output_directions", std::vector<int64_t>{})
                 .InferShape(InferScan)
                 .Build());
  r.Register(OpProtoBuilder("PartitionedCall")
                 .DynamicInput("args", all)
                 .DynamicOutput("output", all)
                 .Graph("f")
                 .Attr("config", "")
                 .Attr("config_proto", "")
                 .Attr("executor_type", "")
                 .InferShape(KeepOutputs)
                 .Build());
}

}  // namespace ge::builtin

// Control flow: with subgraphs, If, Case, While, For, PartitionedCall and their GE spellings (GE),
// Loop and Scan (ONNX); without, GE's ControlTrigger and Merge, and TensorFlow's v1 Switch/Merge
// family, which GE converts before building. Output descs of the subgraph operators come from the
// subgraphs (the compiler's subgraph-aware inference fills them); the prototypes only check the
// inputs and carry loop variables through.
#include <algorithm>
#include <string>
#include <vector>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

// What removes TensorFlow's v1 control flow (Switch, RefSwitch, RefMerge, End) from a graph.
constexpr char kV1ControlFlow[] =
    "TensorFlow v1 control flow (Switch/Merge frames) is turned into If/While by the framework's "
    "functionalization before a graph reaches GE; convert the graph to functional control flow";

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
  // GE's stateless and internal spellings are the same operators.
  for (const char* type : {"If", "_If", "StatelessIf"}) {
    r.Register(OpProtoBuilder(type)
                   .Input("cond", all)
                   .DynamicInput("input", all)
                   .DynamicOutput("output", all)
                   .Graph("then_branch")
                   .Graph("else_branch")
                   .ControlFlow(ControlFlowKind::kIf)
                   .InferShape([](InferContext& ctx) {
                     GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                     return KeepOutputs(ctx);
                   })
                   .Build());
  }
  for (const char* type : {"Case", "StatelessCase"}) {
    r.Register(OpProtoBuilder(type)
                   .Input("branch_index", TensorType::IndexNumberType())
                   .DynamicInput("input", all)
                   .DynamicOutput("output", all)
                   .DynamicGraph("branches")
                   .ControlFlow(ControlFlowKind::kCase)
                   .InferShape([](InferContext& ctx) {
                     GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 0));
                     return KeepOutputs(ctx);
                   })
                   .Build());
  }
  for (const char* type : {"While", "_While", "StatelessWhile"}) {
    r.Register(OpProtoBuilder(type)
                   .DynamicInput("input", all)
                   .DynamicOutput("output", all)
                   .Graph("cond")
                   .Graph("body")
                   .Attr("parallel_iterations", 10)
                   .ControlFlow(ControlFlowKind::kWhile)
                   .InferShape(InferWhile)
                   .Build());
  }
  // GE's For: body(i, input...) -> input... for i = start, start + delta, ... while i < limit
  // (i > limit for a negative delta).
  r.Register(OpProtoBuilder("For")
                 .Input("start", {DT_INT32})
                 .Input("limit", {DT_INT32})
                 .Input("delta", {DT_INT32})
                 .DynamicInput("input", all)
                 .DynamicOutput("output", all)
                 .Graph("body")
                 .ControlFlow(ControlFlowKind::kFor)
                 .InferShape([](InferContext& ctx) {
                   for (size_t i = 0; i < 3; ++i) GE_RETURN_IF_ERROR(RequireScalarLike(ctx, i));
                   const std::vector<size_t> carried = ctx.InputIndices("input");
                   if (carried.size() != ctx.NumOutputs()) {
                     return ctx.Error("has " + std::to_string(carried.size()) + " inputs but " +
                                      std::to_string(ctx.NumOutputs()) +
                                      " outputs; a For's outputs are its inputs after the loop");
                   }
                   for (size_t k = 0; k < carried.size(); ++k) {
                     GE_RETURN_IF_ERROR(ctx.SetOutput(k, ctx.InputShape(carried[k]),
                                                      ctx.InputDataType(carried[k])));
                   }
                   return Status::Ok();
                 })
                 .Build());
  r.Register(OpProtoBuilder("Loop")
                 .OptionalInput("max_trip_count", {DT_INT64})
                 .OptionalInput("cond", {DT_BOOL})
                 .DynamicInput("v_initial", all)
                 .DynamicInput("implicit_input", all)
                 .DynamicOutput("output", all)
                 .Graph("body")
                 .ControlFlow(ControlFlowKind::kLoop)
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
                 .ControlFlow(ControlFlowKind::kScan)
                 .InferShape(InferScan)
                 .Build());
  for (const char* type : {"PartitionedCall", "StatefulPartitionedCall"}) {
    r.Register(OpProtoBuilder(type)
                   .DynamicInput("args", all)
                   .DynamicOutput("output", all)
                   .Graph("f")
                   .Attr("config", "")
                   .Attr("config_proto", "")
                   .Attr("executor_type", "")
                   .ControlFlow(ControlFlowKind::kCall)
                   .InferShape(KeepOutputs)
                   .Build());
  }

  // ---- GE's control operators without subgraphs ----
  // ControlTrigger: nothing but control edges in and out.
  r.Register(OpProtoBuilder("ControlTrigger").InferShape(KeepOutputs).Build());
  // Merge: the one input that is available, and its index.
  for (const char* type : {"Merge", "RefMerge"}) {
    OpProtoBuilder merge(type);
    merge.TypeConstraint("T", all)
        .DynamicInput("x", "T")
        .Output("y", "T")
        .Output("value_index", {DT_INT32})
        .InferShape([](InferContext& ctx) {
          const std::vector<size_t> inputs = ctx.InputIndices("x");
          if (inputs.empty()) return ctx.Error("has no inputs to merge");
          GE_RETURN_IF_ERROR(
              ctx.SetOutput(0, ctx.InputShape(inputs[0]), ctx.InputDataType(inputs[0])));
          return ctx.SetOutput(1, GeShape(), DT_INT32);
        });
    // RefMerge is TensorFlow's v1 control flow, which GE turns into Merge before building.
    if (std::string(type) == "RefMerge") merge.DeletedBefore(kV1ControlFlow);
    r.Register(merge.Build());
  }
  for (const char* type : {"Switch", "RefSwitch"}) {
    r.Register(OpProtoBuilder(type)
                   .TypeConstraint("T", all)
                   .Input("data", "T")
                   .Input("pred", {DT_BOOL})
                   .Output("output_false", "T")
                   .Output("output_true", "T")
                   .InferShape([](InferContext& ctx) {
                     GE_RETURN_IF_ERROR(RequireScalarLike(ctx, 1));
                     GE_RETURN_IF_ERROR(ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0)));
                     return ctx.SetOutput(1, ctx.InputShape(0), ctx.InputDataType(0));
                   })
                   .DeletedBefore(kV1ControlFlow)
                   .Build());
  }
  // End: the end of a v1 while loop's frame (GE's control-flow conversion removes it).
  r.Register(OpProtoBuilder("End")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("peerIndex", 0)
                 .Attr("parentOpType", "")
                 .InferShape(InferWhile)
                 .DeletedBefore(kV1ControlFlow)
                 .Build());
  // GE's helpers of dynamic-shape execution: the tiling of a node computed on the host, and the
  // branch a condition function picks from its inputs.
  r.Register(OpProtoBuilder("OpTiling")
                 .DynamicInput("x", all)
                 .Output("tiling_data", {DT_UINT8})
                 .Attr("tiling_node", "")
                 .InferShape([](InferContext& ctx) {
                   return ctx.SetOutput(0, GeShape({UNKNOWN_DIM}), DT_UINT8);
                 })
                 .Build());
  r.Register(
      OpProtoBuilder("ConditionCalc")
          .DynamicInput("x", all)
          .Output("cond", {DT_INT32})
          .RequiredAttr("cond_func", AttrValue::Type::kString)
          .RequiredAttr("x_dependency", AttrValue::Type::kListInt)
          .InferShape([](InferContext& ctx) { return ctx.SetOutput(0, GeShape(), DT_INT32); })
          .Build());
}

}  // namespace ge::builtin

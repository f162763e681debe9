// GE's operators that carry state or feed data from outside the graph: variables (Variable,
// RefData and TensorFlow's variable ops), file constants, queue-fed inputs, and the stacks of the
// data-flow family. The ones GE Local runs as no-ops keep their GE signature; TensorFlow's
// variable ops are GeDeletedOps in GE (a TensorFlow graph's variables become Variable/RefData
// before compilation), so their prototypes say that no pass here removes them.
#include <string>
#include <vector>

#include "builtin_ops.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::builtin {
namespace {

// Output 0 takes input 0's shape and type when input 0 is linked; otherwise the output desc is
// what the graph gave (a graph input, or a variable whose desc is its value's).
Status InferFromInputOrGiven(InferContext& ctx) {
  if (!ctx.HasInput(0)) return Status::Ok();
  return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
}

// A Variable without a linked input has the shape and type of its "value" when it has one.
Status InferVariable(InferContext& ctx) {
  if (ctx.HasInput(0)) return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
  const auto* value = AttrUtils::GetPtr<GeTensor>(ctx.op(), "value");
  if (value != nullptr && value->GetTensorDesc().GetDataType() != DT_UNDEFINED &&
      !value->GetData().empty()) {
    return ctx.SetOutput(0, value->GetTensorDesc().GetShape(),
                         value->GetTensorDesc().GetDataType());
  }
  return Status::Ok();
}

// Shape and dtype from the "shape" and "dtype" attributes.
Status InferFromShapeAttrs(InferContext& ctx) {
  const DataType dtype = ctx.AttrDataType("dtype");
  if (dtype == DT_UNDEFINED) return ctx.Error("attribute 'dtype' names no data type");
  return ctx.SetOutput(0, GeShape(ctx.AttrInts("shape")), dtype);
}

// A scalar resource handle.
Status InferHandle(InferContext& ctx) { return ctx.SetOutput(0, GeShape(), DT_RESOURCE); }

// A scalar bool (whether a variable is initialized).
Status InferScalarBool(InferContext& ctx) { return ctx.SetOutput(0, GeShape(), DT_BOOL); }

// QueueData: output 0 is the first of the queue's shapes and types.
Status InferQueueData(InferContext& ctx) {
  const AttrValue* types = ctx.FindAttr("output_types");
  const AttrValue* shapes = ctx.FindAttr("output_shapes");
  const auto* type_list = types == nullptr ? nullptr : types->Get<std::vector<DataType>>();
  const auto* shape_list =
      shapes == nullptr ? nullptr : shapes->Get<std::vector<std::vector<int64_t>>>();
  if (type_list == nullptr || shape_list == nullptr || type_list->empty() || shape_list->empty()) {
    return ctx.Error(
        "attributes 'output_types' and 'output_shapes' must each name at least one "
        "element of the queue");
  }
  return ctx.SetOutput(0, GeShape(shape_list->front()), type_list->front());
}

// StackPop: the element's type is known, its shape only when it is popped (GE's DEPEND_COMPUTE).
Status InferStackPop(InferContext& ctx) {
  const DataType dtype = ctx.AttrDataType("elem_type");
  if (dtype == DT_UNDEFINED) return ctx.Error("attribute 'elem_type' names no data type");
  return ctx.SetOutput(0, GeShape({UNKNOWN_DIM_NUM}), dtype);
}

// What removes TensorFlow's variable operators before a graph reaches GE.
constexpr char kTfVariables[] =
    "TensorFlow's variable operators are made Variable nodes (read and written with Assign) by "
    "the framework's graph conversion before GE builds; give the graph Variable nodes";

}  // namespace

void RegisterStateOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  // ---- variables: state that lives across runs of a model ----
  r.Register(OpProtoBuilder("Variable")
                 .TypeConstraint("T", all)
                 .OptionalInput("x", "T")
                 .Output("y", "T")
                 .Attr("index", 0)
                 .Attr("value", GeTensor())
                 .Attr("container", "")
                 .Attr("shared_name", "")
                 .InferShape(InferVariable)
                 .Impure()
                 .Build());
  // Writing a variable (GE's Assign, AssignAdd, AssignSub): output 0 is the variable itself,
  // after the write.
  for (const char* type : {"Assign", "AssignAdd", "AssignSub"}) {
    OpProtoBuilder assign(type);
    assign.TypeConstraint("T", std::string(type) == "Assign" ? all : TensorType::RealNumberType())
        .Input("ref", "T")
        .Input("value", "T")
        .Output("ref", "T")
        .Attr("use_locking", false)
        .UpdatesInput(0)
        .InferShape([](InferContext& ctx) {
          const GeShape& ref = ctx.InputShape(0);
          const GeShape& value = ctx.InputShape(1);
          if (!ref.IsUnknownShape() && !value.IsUnknownShape() &&
              ref.GetShapeSize() != value.GetShapeSize()) {
            return ctx.Error("value " + value.ToString() + " does not fit ref " + ref.ToString());
          }
          return ctx.SetOutput(0, ref, ctx.InputDataType(0));
        });
    if (std::string(type) == "Assign") assign.Attr("validate_shape", true);
    r.Register(assign.Build());
  }
  // A graph input whose memory the caller owns and the graph may write (GE's RefData).
  r.Register(OpProtoBuilder("RefData")
                 .TypeConstraint("T", all)
                 .OptionalInput("x", "T")
                 .Output("y", "T")
                 .Attr("index", 0)
                 .InferShape(InferFromInputOrGiven)
                 .Impure()
                 .Build());
  for (const char* type : {"VariableV2", "TemporaryVariable"}) {
    r.Register(OpProtoBuilder(type)
                   .Output("y", all)
                   .Attr("shape", std::vector<int64_t>{})
                   .Attr("dtype", DT_FLOAT)
                   .Attr("container", "")
                   .Attr("shared_name", "")
                   .Attr("var_name", "")
                   .InferShape(InferFromShapeAttrs)
                   .Impure()
                   .DeletedBefore(kTfVariables)
                   .Build());
  }
  r.Register(OpProtoBuilder("DestroyTemporaryVariable")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("var_name", "")
                 .InferShape(InferSameShape)
                 .Impure()
                 .DeletedBefore(kTfVariables)
                 .Build());
  r.Register(OpProtoBuilder("VarHandleOp")
                 .Output("y", {DT_RESOURCE})
                 .Attr("container", "")
                 .Attr("shared_name", "")
                 .Attr("dtype", DT_FLOAT)
                 .Attr("shape", std::vector<int64_t>{})
                 .InferShape(InferHandle)
                 .Impure()
                 .DeletedBefore(kTfVariables)
                 .Build());
  r.Register(OpProtoBuilder("ReadVariableOp")
                 .Input("x", {DT_RESOURCE})
                 .Output("y", all)
                 .Attr("dtype", DT_FLOAT)
                 .InferShape([](InferContext& ctx) {
                   return ctx.SetOutput(0, GeShape({UNKNOWN_DIM_NUM}),
                                        ctx.AttrDataType("dtype", DT_FLOAT));
                 })
                 .Impure()
                 .DeletedBefore(kTfVariables)
                 .Build());
  r.Register(OpProtoBuilder("VarIsInitializedOp")
                 .Input("x", {DT_RESOURCE})
                 .Output("y", {DT_BOOL})
                 .InferShape(InferScalarBool)
                 .Impure()
                 .DeletedBefore(kTfVariables)
                 .Build());
  r.Register(OpProtoBuilder("IsVariableInitialized")
                 .Input("ref", all)
                 .Output("is_initialized", {DT_BOOL})
                 .Attr("dtype", DT_FLOAT)
                 .InferShape(InferScalarBool)
                 .Impure()
                 .DeletedBefore(kTfVariables)
                 .Build());

  // ---- constants kept outside the graph ----
  // GE's FileConstant: `length` bytes at `offset` of the file `file_path` (or of the file the
  // option names for `file_id`), of `shape` and `dtype`; offset and length 0: the whole file.
  r.Register(OpProtoBuilder("FileConstant")
                 .Output("y", all)
                 .Attr("file_path", "")
                 .Attr("file_id", "")
                 .RequiredAttr("shape", AttrValue::Type::kListInt)
                 .RequiredAttr("dtype", AttrValue::Type::kDataType)
                 .Attr("offset", 0)
                 .Attr("length", 0)
                 .InferShape(InferFromShapeAttrs)
                 .Build());
  // GE's ConstPlaceHolder: a constant whose bytes are at a device address given at load time.
  r.Register(OpProtoBuilder("ConstPlaceHolder")
                 .Output("y", all)
                 .RequiredAttr("origin_shape", AttrValue::Type::kListInt)
                 .RequiredAttr("dtype", AttrValue::Type::kDataType)
                 .Attr("storage_shape", std::vector<int64_t>{})
                 .Attr("addr", 0)
                 .Attr("size", 0)
                 .InferShape([](InferContext& ctx) {
                   return ctx.SetOutput(0, GeShape(ctx.AttrInts("origin_shape")),
                                        ctx.AttrDataType("dtype"));
                 })
                 .Build());

  // ---- inputs fed from outside the graph's arguments ----
  r.Register(OpProtoBuilder("QueueData")
                 .Output("y", all)
                 .Attr("index", 0)
                 .RequiredAttr("queue_name", AttrValue::Type::kString)
                 .RequiredAttr("output_types", AttrValue::Type::kListDataType)
                 .RequiredAttr("output_shapes", AttrValue::Type::kListListInt)
                 .InferShape(InferQueueData)
                 .Impure()
                 .Build());
  // GE's AippData: the raw image input of an AIPP (image preprocessing) stage.
  r.Register(OpProtoBuilder("AippData")
                 .TypeConstraint("T", all)
                 .OptionalInput("data", "T")
                 .Output("out", "T")
                 .Attr("index", 0)
                 .InferShape(InferFromInputOrGiven)
                 .Build());
  // An input the caller leaves unfed: its desc is given, its value is the graph's to make.
  r.Register(OpProtoBuilder("UnfedData")
                 .TypeConstraint("T", all)
                 .OptionalInput("x", "T")
                 .Output("y", "T")
                 .Attr("index", 0)
                 .InferShape(InferFromInputOrGiven)
                 .Build());

  // ---- data flow: stacks by handle ----
  r.Register(OpProtoBuilder("Stack")
                 .OptionalInput("max_size", {DT_INT32})
                 .Output("handle", {DT_RESOURCE})
                 .Attr("stack_name", "")
                 .RequiredAttr("dtype", AttrValue::Type::kDataType)
                 .InferShape(InferHandle)
                 .Impure()
                 .Build());
  r.Register(OpProtoBuilder("StackPush")
                 .TypeConstraint("T", all)
                 .Input("handle", {DT_RESOURCE})
                 .Input("element", "T")
                 .Output("y", "T")
                 .Attr("swap_memory", false)
                 .InferShape([](InferContext& ctx) {
                   return ctx.SetOutput(0, ctx.InputShape(1), ctx.InputDataType(1));
                 })
                 .Impure()
                 .Build());
  r.Register(OpProtoBuilder("StackPop")
                 .Input("handle", {DT_RESOURCE})
                 .Output("element", all)
                 .RequiredAttr("elem_type", AttrValue::Type::kDataType)
                 .InferShape(InferStackPop)
                 .Impure()
                 .Build());
  r.Register(OpProtoBuilder("StackClose")
                 .Input("handle", {DT_RESOURCE})
                 .InferShape([](InferContext&) { return Status::Ok(); })
                 .Impure()
                 .Build());
}

}  // namespace ge::builtin

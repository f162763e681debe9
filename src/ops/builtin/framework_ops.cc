// Graph-structure operators of TensorFlow graphs that GE deletes before building (GeDeletedOps):
// graph inputs and function results, and shape helpers GE's own frontend or passes fold. No pass
// here removes them; their prototypes let such a graph verify, and the message a node of them
// gets at task generation says what should have converted it.
#include <string>
#include <vector>

#include "builtin_ops.h"

namespace ge::builtin {

void RegisterFrameworkOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  for (const char* type : {"Placeholder", "PlaceholderV2"}) {
    r.Register(OpProtoBuilder(type)
                   .Output("y", all)
                   .Attr("dtype", DT_FLOAT)
                   .Attr("shape", std::vector<int64_t>{})
                   .InferShape([](InferContext& ctx) {
                     return ctx.SetOutput(0, GeShape(ctx.AttrInts("shape")),
                                          ctx.AttrDataType("dtype", DT_FLOAT));
                   })
                   .DeletedBefore("A TensorFlow graph input: the framework's graph conversion "
                                  "makes it a Data; give the graph a Data node")
                   .Build());
  }
  r.Register(OpProtoBuilder("_Retval")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("index", 0)
                 .InferShape(InferSameShape)
                 .DeletedBefore("A TensorFlow function's result: the framework's graph conversion "
                                "makes it an input of the NetOutput; give the graph a NetOutput "
                                "(ge::Graph::SetOutputs)")
                 .Build());
  r.Register(OpProtoBuilder("Empty")
                 .Input("shape", {DT_INT32, DT_INT64})
                 .Output("y", all)
                 .Attr("dtype", DT_FLOAT)
                 .Attr("init", false)
                 .InferShape([](InferContext& ctx) {
                   const auto dims = ctx.GetConstInts(0);
                   return ctx.SetOutput(0, dims ? GeShape(*dims) : GeShape({UNKNOWN_DIM_NUM}),
                                        ctx.AttrDataType("dtype", DT_FLOAT));
                 })
                 .DeletedBefore("TensorFlow's Empty is made a constant by the framework's graph "
                                "conversion; give the graph a Const (or ONNX's ConstantOfShape)")
                 .Build());
  r.Register(OpProtoBuilder("TransShape")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .Output("y", "T")
                 .Attr("outShape", std::vector<int64_t>{})
                 .InferShape([](InferContext& ctx) {
                   return ctx.SetOutput(0, GeShape(ctx.AttrInts("outShape")), ctx.InputDataType(0));
                 })
                 .DeletedBefore("GE's format-transfer optimization replaces TransShape once "
                                "formats are chosen; give the graph a Reshape")
                 .Build());
  r.Register(OpProtoBuilder("GatherShapes")
                 .DynamicInput("x", all)
                 .Output("shape", TensorType::IndexNumberType())
                 .RequiredAttr("axes", AttrValue::Type::kListListInt)
                 .Attr("dtype", DT_INT64)
                 .InferShape([](InferContext& ctx) {
                   const AttrValue* axes = ctx.FindAttr("axes");
                   const auto* list =
                       axes == nullptr ? nullptr : axes->Get<std::vector<std::vector<int64_t>>>();
                   const int64_t n = list == nullptr ? 0 : static_cast<int64_t>(list->size());
                   return ctx.SetOutput(0, GeShape({n}), ctx.AttrDataType("dtype", DT_INT64));
                 })
                 .DeletedBefore("GE folds GatherShapes into a constant once input shapes are "
                                "known; give the graph Shape and Gather (which constant folding "
                                "removes) or a Const")
                 .Build());
}

}  // namespace ge::builtin

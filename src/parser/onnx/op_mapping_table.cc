// The ONNX → IR operator mapping table, as data.
//
// Format: one OpMappingRow per ONNX operator (domain, op type) and opset range
// [opset_min, opset_max]; a node uses the row whose range holds the model's opset of its domain.
//
//   onnx_op, opset_min, opset_max, ir_type
//   inputs    the IR inputs in IR order, comma-separated: `name[?|*][=src]`
//               name  the IR input name;  src  the ONNX input position (default: the item's
//               position);  `?` optional (an absent or "" ONNX input stays unlinked);  `*`
//               dynamic: ONNX inputs src, src+1, … become name0, name1, …
//             ONNX inputs no item takes are an error. "" = positional (__input<i>).
//   outputs   the same for outputs ("" = positional __output<i>).
//   attrs     {onnx_name, ir_name, conversion}: renames and value conversions (AttrConv);
//             attributes without a rule are copied under their ONNX name.
//   attr_inputs  attributes that later opsets made inputs: the value becomes a Const feeding
//             the named IR input (normalizing old opsets to the newest form).
//   fixed_attrs  IR attributes set when the conversion did not set them (IR defaults that differ
//             from ONNX's, and attributes ONNX does not have, such as data_format).
//   converter    a function for what a row cannot say (op_converters.cc), run last.
//   subgraphs, capture_input, body_input_offset: control flow (see onnx_graph_builder.cc).
//
// The IR vocabulary (src/ops/builtin/builtin_ops.h): GE's op names where GE has the operator,
// else ONNX's; inputs, attributes and semantics of the latest ONNX opset, so rows mostly map
// names. Older opsets are normalized to the newest form here (attributes that became inputs).
//
// Documented rewrites (the only changes to node counts by type): Constant becomes Const; Conv /
// ConvTranspose become Conv2D / Conv3D (Conv2DTranspose / Conv3DTranspose) by the kernel's
// spatial rank; MatMul becomes MatMulV2 (2-D operands) or BatchMatMulV2; Upsample becomes
// Resize; an attribute made into an input adds one Const node (attr _onnx_made_const);
// Softmax / LogSoftmax / Hardmax before opset 13 become SoftmaxV2 / LogSoftmaxV2 / Hardmax when
// the axis is known to be the last one, else *Legacy (ONNX's flatten-to-2-D semantics; once shapes
// are inferred, SimplifyChains makes a last-axis one the one-axis operator); LabelEncoder of
// ai.onnx.ml 1 becomes CategoryMapper (its classes are the strings of 0, 1, ...).
// Adding an operator = adding a row here (and its prototype in src/ops/builtin/).
#include "op_mapping_table.h"

#include <algorithm>
#include <tuple>

#include "ge/parser/onnx_parser.h"
#include "op_converters.h"

namespace ge::onnx_parser {
namespace {

constexpr int64_t kMax = kOnnxMaxOpset;

OpMappingRow Row(std::string_view op, std::string_view ir, std::string_view inputs,
                 std::string_view outputs, int64_t from = 1, int64_t to = kMax) {
  return OpMappingRow{.onnx_op = op,
                      .opset_min = from,
                      .opset_max = to,
                      .ir_type = ir,
                      .inputs = inputs,
                      .outputs = outputs};
}
// x → y, same name.
OpMappingRow Unary(std::string_view op, std::string_view ir = "", int64_t from = 1) {
  return Row(op, ir.empty() ? op : ir, "x", "y", from);
}
// x1, x2 → y.
OpMappingRow Binary(std::string_view op, std::string_view ir = "", int64_t from = 1) {
  return Row(op, ir.empty() ? op : ir, "x1,x2", "y", from);
}
// x0 … xN-1 → y, attribute N.
OpMappingRow Variadic(std::string_view op, std::string_view ir = "") {
  OpMappingRow row = Row(op, ir.empty() ? op : ir, "x*", "y");
  row.converter = ConvertVariadicN;
  return row;
}
// Version 1 of many operators had `consumed_inputs`, a legacy memory-reuse hint without effect
// on the result (removed in version 6): dropped.
OpMappingRow WithoutConsumedInputs(OpMappingRow row) {
  row.attrs.push_back({"consumed_inputs", "", AttrConv::kDrop});
  return row;
}
// No prototype yet: positional inputs and outputs under the ONNX name.
OpMappingRow Same(std::string_view op) { return Row(op, op, "", ""); }

std::vector<OpMappingRow> BuildTable() {
  std::vector<OpMappingRow> rows;
  // ---- Elementwise ----
  // Each operator from the first opset whose semantics the IR implements (ONNX's Changelog.md):
  // `since` is the version that introduced it, or the first version after one that differs.
  // clang-format off
  for (std::string_view op :
       {"Abs", "Ceil", "Exp", "Floor", "Log", "Neg", "Reciprocal", "Sqrt", "Tanh", "Relu",
        "Sigmoid", "Elu", "Selu", "HardSigmoid", "LeakyRelu"}) {
    // clang-format on
    rows.push_back(WithoutConsumedInputs(Unary(op)));
  }
  // Mish and the Bitwise* operators are opset-18 operators, mapped ahead of kOnnxMaxOpset.
  for (std::string_view op :
       {"Softplus", "Softsign", "Identity", "Flatten", "LRN", "LpNormalization", "DepthToSpace",
        "SpaceToDepth", "GlobalAveragePool", "GlobalMaxPool", "Shape", "Size", "Transpose",
        "ArgMin", "Mish", "BitwiseNot"}) {
    rows.push_back(Unary(op));
  }
  rows.push_back(Unary("Not", "LogicalNot"));
  rows.push_back(Unary("Gelu", "", 20));
  rows.push_back({.onnx_op = "Swish",
                  .opset_min = 24,
                  .opset_max = kMax,
                  .ir_type = "Swish",
                  .inputs = "x",
                  .outputs = "y",
                  .attrs = {{"alpha", "scale"}}});
  rows.push_back(Row("SwiGLU", "SwiGLU", "A,B", "Y", 28));
  rows.push_back(Unary("ArgMax", "ArgMaxV2"));
  // clang-format off
  for (auto [op, since] : std::initializer_list<std::pair<std::string_view, int64_t>>{
           {"GlobalLpPool", 2},  // GlobalLpPool-1's p was a float
           {"Acos", 7}, {"Asin", 7}, {"Atan", 7}, {"Cos", 7}, {"Sin", 7}, {"Tan", 7},
           {"Acosh", 9}, {"Asinh", 9}, {"Atanh", 9}, {"Cosh", 9}, {"Sinh", 9}, {"Erf", 9},
           {"Sign", 9}, {"IsNaN", 9}, {"Shrink", 9}, {"NonZero", 9},
           {"MeanVarianceNormalization", 9}, {"IsInf", 10}, {"ThresholdedRelu", 10},
           {"Round", 11}, {"Celu", 12}, {"HardSwish", 14}}) {
    // clang-format on
    rows.push_back(Unary(op, "", since));
  }
  // Before opset 7 these took `broadcast` / `axis` attributes (no NumPy broadcasting).
  for (std::string_view op : {"Add", "Sub", "Mul", "Pow", "Equal", "Greater", "Less"}) {
    rows.push_back(Binary(op, "", 7));
  }
  rows.push_back(Binary("Mod", "", 10));
  rows.push_back(Binary("BitShift", "", 11));
  for (std::string_view op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    rows.push_back(Binary(op));
  }
  rows.push_back(Binary("Div", "RealDiv", 7));
  rows.push_back(Binary("GreaterOrEqual", "GreaterEqual", 12));
  rows.push_back(Binary("LessOrEqual", "LessEqual", 12));
  rows.push_back(Binary("And", "LogicalAnd", 7));
  rows.push_back(Binary("Or", "LogicalOr", 7));
  rows.push_back(Binary("Xor", "LogicalXor", 7));
  rows.push_back(Row("PRelu", "PRelu", "x,slope", "y", 7));  // before 7: slope per channel
  // Before opset 8 the inputs had one shape; NumPy broadcasting accepts that too.
  rows.push_back(WithoutConsumedInputs(Variadic("Sum", "AddN")));
  for (std::string_view op : {"Max", "Min", "Mean"}) {
    rows.push_back(WithoutConsumedInputs(Variadic(op)));
  }
  rows.push_back(Row("Clip", "Clip", "x,min?,max?", "y", 11));
  rows.push_back({.onnx_op = "Clip",
                  .opset_min = 1,
                  .opset_max = 10,
                  .ir_type = "Clip",
                  .inputs = "x",
                  .outputs = "y",
                  .attrs = {{"consumed_inputs", "", AttrConv::kDrop}},
                  .attr_inputs = {{"min", 1, "min", InputKind::kFloatScalar},
                                  {"max", 2, "max", InputKind::kFloatScalar}}});
  // ---- Types and data movement ----
  rows.push_back({.onnx_op = "Cast",
                  .opset_min = 6,  // Cast-1's `to` was a string
                  .opset_max = kMax,
                  .ir_type = "Cast",
                  .inputs = "x",
                  .outputs = "y",
                  .attrs = {{"to", "to", AttrConv::kOnnxDtype}}});
  rows.push_back(Row("CastLike", "CastLike", "x,target_type", "y", 15));
  // ONNX BitCast keeps the element width (so the shape); GE's Bitcast, which reuses the input's
  // memory, is the same operator there.
  rows.push_back({.onnx_op = "BitCast",
                  .opset_min = 26,
                  .opset_max = kMax,
                  .ir_type = "Bitcast",
                  .inputs = "x",
                  .outputs = "y",
                  .attrs = {{"to", "type", AttrConv::kOnnxDtype}}});
  rows.push_back(Row("Where", "SelectV2", "condition,x1,x2", "y", 9));
  rows.push_back(Row("Range", "Range", "start,limit,delta", "y", 11));
  rows.push_back(Row("CumSum", "Cumsum", "x,axis", "y", 11));
  rows.push_back(Row("CumProd", "Cumprod", "x,axis", "y", 26));
  rows.push_back(Row("Trilu", "Trilu", "x,k?", "y", 14));
  rows.push_back(Variadic("Einsum"));
  rows.push_back(Row("ConstantOfShape", "ConstantOfShape", "shape", "y", 9));
  rows.push_back({.onnx_op = "EyeLike",
                  .opset_min = 9,
                  .opset_max = kMax,
                  .ir_type = "EyeLike",
                  .inputs = "x",
                  .outputs = "y",
                  .attrs = {{"dtype", "dtype", AttrConv::kOnnxDtype}}});
  rows.push_back(Row("Reshape", "Reshape", "x,shape", "y", 5));
  rows.push_back(Row("Tile", "Tile", "x,multiples", "y", 6));
  rows.push_back(Row("Expand", "Expand", "x,shape", "y", 8));
  OpMappingRow concat = Variadic("Concat", "ConcatV2");
  concat.opset_min = 4;  // Concat-1's axis was optional (default 1)
  rows.push_back(std::move(concat));
  rows.push_back(Row("Split", "Split", "x,split?", "y*", 13));
  rows.push_back({.onnx_op = "Split",
                  .opset_min = 1,
                  .opset_max = 12,
                  .ir_type = "Split",
                  .inputs = "x,split?",
                  .outputs = "y*",
                  .attr_inputs = {{"split", 1, "split"}}});
  for (std::string_view op : {"Squeeze", "Unsqueeze"}) {
    rows.push_back(Row(op, op, "x,axes?", "y", 13));
    rows.push_back({.onnx_op = op,
                    .opset_min = 1,
                    .opset_max = 12,
                    .ir_type = op,
                    .inputs = "x,axes?",
                    .outputs = "y",
                    .attr_inputs = {{"axes", 1, "axes"}}});
  }
  rows.push_back(Row("Slice", "Slice", "x,starts,ends,axes?,steps?", "y", 10));
  rows.push_back(
      {.onnx_op = "Slice",
       .opset_min = 1,
       .opset_max = 9,
       .ir_type = "Slice",
       .inputs = "x",
       .outputs = "y",
       .attr_inputs = {{"starts", 1, "starts"}, {"ends", 2, "ends"}, {"axes", 3, "axes"}}});
  rows.push_back(Row("Pad", "PadV3", "x,pads,constant_value?,axes?", "y", 11));
  rows.push_back({.onnx_op = "Pad",
                  .opset_min = 2,  // Pad-1 named its attribute `paddings`
                  .opset_max = 10,
                  .ir_type = "PadV3",
                  .inputs = "x",
                  .outputs = "y",
                  .attr_inputs = {{"pads", 1, "pads"},
                                  {"value", 2, "constant_value", InputKind::kFloatScalar}}});
  // Resize-10 and Upsample are Resize with asymmetric coordinates and floor rounding.
  const std::vector<std::pair<std::string, AttrValue>> legacy_resize = {
      {"coordinate_transformation_mode", AttrValue("asymmetric")},
      {"nearest_mode", AttrValue("floor")}};
  rows.push_back(Row("Resize", "Resize", "x,roi?,scales?,sizes?", "y", 11));
  rows.push_back({.onnx_op = "Resize",
                  .opset_min = 10,
                  .opset_max = 10,
                  .ir_type = "Resize",
                  .inputs = "x,roi?=9,scales=1",
                  .outputs = "y",
                  .fixed_attrs = legacy_resize});
  rows.push_back({.onnx_op = "Upsample",
                  .opset_min = 9,
                  .opset_max = kMax,
                  .ir_type = "Resize",
                  .inputs = "x,roi?=9,scales=1",
                  .outputs = "y",
                  .fixed_attrs = legacy_resize});
  rows.push_back({.onnx_op = "Upsample",
                  .opset_min = 7,  // Upsample-1 (experimental) had width_scale / height_scale
                  .opset_max = 8,
                  .ir_type = "Resize",
                  .inputs = "x,roi?=9",
                  .outputs = "y",
                  .attr_inputs = {{"scales", 2, "scales", InputKind::kFloatList}},
                  .fixed_attrs = legacy_resize});
  // ---- Indexing ----
  rows.push_back(Row("Compress", "Compress", "input,condition", "output", 9));
  rows.push_back(Row("Gather", "GatherV2", "x,indices", "y"));
  rows.push_back(Row("GatherElements", "GatherElements", "x,indices", "y", 11));
  rows.push_back(Row("GatherND", "GatherNd", "x,indices", "y", 11));
  rows.push_back(Row("ScatterND", "ScatterNd", "x,indices,updates", "y", 11));
  rows.push_back(Row("ScatterElements", "ScatterElements", "x,indices,updates", "y", 11));
  rows.push_back(Row("Scatter", "ScatterElements", "x,indices,updates", "y", 9));
  rows.push_back(Row("OneHot", "OneHot", "indices,depth,values", "y", 9));
  rows.push_back(Row("TopK", "TopKV2", "x,k", "values,indices", 10));
  rows.push_back({.onnx_op = "TopK",
                  .opset_min = 1,
                  .opset_max = 9,
                  .ir_type = "TopKV2",
                  .inputs = "x",
                  .outputs = "values,indices",
                  .attr_inputs = {{"k", 1, "k", InputKind::kInt64List}}});
  // ---- Matrix ----
  rows.push_back({.onnx_op = "MatMul",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "BatchMatMulV2",
                  .inputs = "x1,x2",
                  .outputs = "y",
                  .converter = ConvertMatMul});
  rows.push_back(Row("Gemm", "Gemm", "a,b,c?", "y", 7));  // before 7: a `broadcast` attribute
  rows.push_back(Row("MatMulInteger", "MatMulInteger", "a,b,a_zero_point?,b_zero_point?", "y", 10));
  rows.push_back(Row("QLinearMatMul", "QLinearMatMul",
                     "a,a_scale,a_zero_point,b,b_scale,b_zero_point,y_scale,y_zero_point", "y",
                     10));
  rows.push_back(Row("TensorScatter", "TensorScatter", "past_cache,update,write_indices?",
                     "present_cache", 24));
  // output_dtype (21 and 23) and precision (23) name ONNX element types.
  OpMappingRow quantize =
      Row("QuantizeLinear", "QuantizeLinear", "x,y_scale,y_zero_point?", "y", 10);
  quantize.attrs = {{"output_dtype", "output_dtype", AttrConv::kOnnxDtype},
                    {"precision", "precision", AttrConv::kOnnxDtype}};
  rows.push_back(quantize);
  OpMappingRow dequantize =
      Row("DequantizeLinear", "DequantizeLinear", "x,x_scale,x_zero_point?", "y", 10);
  dequantize.attrs = {{"output_dtype", "output_dtype", AttrConv::kOnnxDtype}};
  rows.push_back(dequantize);
  rows.push_back(
      Row("DynamicQuantizeLinear", "DynamicQuantizeLinear", "x", "y,y_scale,y_zero_point", 11));
  // ---- Convolution, pooling, normalization (NCHW; ONNX attribute forms) ----
  const std::vector<std::pair<std::string, AttrValue>> nchw = {{"data_format", AttrValue("NCHW")}};
  rows.push_back({.onnx_op = "Conv",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "Conv2D",
                  .inputs = "x,filter,bias?",
                  .outputs = "y",
                  .fixed_attrs = nchw,
                  .converter = ConvertConv});
  rows.push_back({.onnx_op = "ConvInteger",
                  .opset_min = 10,
                  .opset_max = kMax,
                  .ir_type = "ConvInteger",
                  .inputs = "x,filter,x_zero_point?,w_zero_point?",
                  .outputs = "y",
                  .fixed_attrs = nchw});
  rows.push_back(Row("DeformConv", "DeformConv", "x,filter,offset,bias?,mask?", "y", 19));
  rows.push_back({.onnx_op = "QLinearConv",
                  .opset_min = 10,
                  .opset_max = kMax,
                  .ir_type = "QLinearConv",
                  .inputs = "x,x_scale,x_zero_point,filter,w_scale,w_zero_point,y_scale,"
                            "y_zero_point,bias?",
                  .outputs = "y",
                  .fixed_attrs = nchw});
  rows.push_back({.onnx_op = "ConvTranspose",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "Conv2DTranspose",
                  .inputs = "x,filter,bias?",
                  .outputs = "y",
                  .fixed_attrs = nchw,
                  .converter = ConvertConvTranspose});
  rows.push_back({.onnx_op = "MaxPool",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "MaxPool",
                  .inputs = "x",
                  .outputs = "y,indices?",
                  .fixed_attrs = nchw});
  rows.push_back({.onnx_op = "AveragePool",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "AvgPool",
                  .inputs = "x",
                  .outputs = "y",
                  .fixed_attrs = nchw});
  rows.push_back({.onnx_op = "LpPool",
                  .opset_min = 2,  // LpPool-1's p was a float
                  .opset_max = kMax,
                  .ir_type = "LpPool",
                  .inputs = "x",
                  .outputs = "y",
                  .fixed_attrs = nchw});
  rows.push_back(Row("Dropout", "Dropout", "x,ratio?,training_mode?", "y,mask?", 12));
  // Before opset 12 the ratio was an attribute (and before 7 an is_test flag): an inference
  // Dropout passes its input through whatever they say.
  rows.push_back({.onnx_op = "Dropout",
                  .opset_min = 1,
                  .opset_max = 11,
                  .ir_type = "Dropout",
                  .inputs = "x",
                  .outputs = "y,mask?",
                  .attrs = {{"ratio", "", AttrConv::kDrop},
                            {"is_test", "", AttrConv::kDrop},
                            {"consumed_inputs", "", AttrConv::kDrop}}});
  rows.push_back({.onnx_op = "BatchNormalization",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "BatchNorm",
                  .inputs = "x,scale,offset,mean,variance",
                  .outputs = "y,running_mean?,running_var?,saved_mean?,saved_var?",
                  .attrs = {{"spatial", "", AttrConv::kDrop},
                            {"consumed_inputs", "", AttrConv::kDrop},
                            {"is_test", "", AttrConv::kDrop}},
                  .fixed_attrs = nchw});
  rows.push_back(
      Row("LayerNormalization", "LayerNorm", "x,scale,bias?", "y,mean?,inv_std_dev?", 17));
  // Opset 18 scaled per group, 21 per channel: the kernel tells them by the scale's length.
  rows.push_back({.onnx_op = "GroupNormalization",
                  .opset_min = 18,
                  .opset_max = kMax,
                  .ir_type = "GroupNorm",
                  .inputs = "x,scale,bias",
                  .outputs = "y",
                  .fixed_attrs = nchw});
  rows.push_back({.onnx_op = "InstanceNormalization",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "InstanceNorm",
                  .inputs = "x,scale,bias",
                  .outputs = "y",
                  .attrs = {{"consumed_inputs", "", AttrConv::kDrop}},
                  .fixed_attrs = nchw});
  rows.push_back(Row("RMSNormalization", "RMSNormalization", "X,scale", "Y", 23));
  for (std::string_view op : {"LSTM", "GRU", "RNN"}) {
    rows.push_back(Row(op, op,
                       op == "LSTM" ? "x,w,r,b?,sequence_lens?,initial_h?,initial_c?,p?"
                                    : "x,w,r,b?,sequence_lens?,initial_h?",
                       op == "LSTM" ? "y?,y_h?,y_c?" : "y?,y_h?",
                       7));  // before 7: an `output_sequence` attribute gated output Y
  }
  // ---- Transformer operators (ONNX names). Attention-24 added nonpad_kv_seqlen; its
  // softmax_precision names an element type ----
  for (auto [from, to] : {std::pair<int64_t, int64_t>{23, 23}, {24, kMax}}) {
    rows.push_back({.onnx_op = "Attention",
                    .opset_min = from,
                    .opset_max = to,
                    .ir_type = "Attention",
                    .inputs = from == 23
                                  ? "Q,K,V,attn_mask?,past_key?,past_value?"
                                  : "Q,K,V,attn_mask?,past_key?,past_value?,nonpad_kv_seqlen?",
                    .outputs = "Y,present_key?,present_value?,qk_matmul_output?",
                    .attrs = {{"softmax_precision", "softmax_precision", AttrConv::kOnnxDtype}}});
  }
  rows.push_back(
      Row("RotaryEmbedding", "RotaryEmbedding", "X,cos_cache,sin_cache,position_ids?", "Y", 23));
  // ---- Losses (opset 12 / 13 semantics are the same) ----
  rows.push_back(Row("NegativeLogLikelihoodLoss", "NegativeLogLikelihoodLoss",
                     "input,target,weight?", "loss", 12));
  rows.push_back(Row("SoftmaxCrossEntropyLoss", "SoftmaxCrossEntropyLoss", "scores,labels,weights?",
                     "output,log_prob?", 12));
  // ---- Vision and slice reorderings (ONNX names). GridSample-16's modes bilinear / bicubic;
  // RoiAlign before 16 had no coordinate_transformation_mode and behaved as output_half_pixel ----
  rows.push_back(Row("GridSample", "GridSample", "X,grid", "Y", 16));
  rows.push_back(Row("AffineGrid", "AffineGrid", "theta,size", "grid", 20));
  rows.push_back(Row("Col2Im", "Col2Im", "input,image_shape,block_shape", "output", 18));
  rows.push_back(Row("CenterCropPad", "CenterCropPad", "input_data,shape", "output_data", 18));
  rows.push_back(Row("RoiAlign", "RoiAlign", "X,rois,batch_indices", "Y", 16));
  rows.push_back(
      {.onnx_op = "RoiAlign",
       .opset_min = 10,
       .opset_max = 15,
       .ir_type = "RoiAlign",
       .inputs = "X,rois,batch_indices",
       .outputs = "Y",
       .fixed_attrs = {{"coordinate_transformation_mode", AttrValue("output_half_pixel")}}});
  rows.push_back(Row("NonMaxSuppression", "NonMaxSuppression",
                     "boxes,scores,max_output_boxes_per_class?,iou_threshold?,score_threshold?",
                     "selected_indices", 10));
  rows.push_back(Row("MaxUnpool", "MaxUnpool", "X,I,output_shape?", "output", 9));
  rows.push_back(Row("Unique", "Unique", "X", "Y,indices?,inverse_indices?,counts?", 11));
  rows.push_back(Row("ReverseSequence", "ReverseSequence", "input,sequence_lens", "Y", 10));
  // ---- Softmax family: opset 13 semantics (one axis). Earlier opsets flattened to 2-D at
  // `axis`, the same only when axis is the last dim (ConvertLegacySoftmax decides). ----
  rows.push_back(Row("Softmax", "SoftmaxV2", "x", "y", 13));
  rows.push_back(Row("LogSoftmax", "LogSoftmaxV2", "x", "y", 13));
  rows.push_back(Row("Hardmax", "Hardmax", "x", "y", 13));
  for (auto [op, ir] : {std::pair<std::string_view, std::string_view>{"Softmax", "SoftmaxLegacy"},
                        {"LogSoftmax", "LogSoftmaxLegacy"},
                        {"Hardmax", "HardmaxLegacy"}}) {
    OpMappingRow row = Row(op, ir, "x", "y", 1, 12);
    row.converter = ConvertLegacySoftmax;
    rows.push_back(std::move(row));
  }
  // ---- Reductions: ONNX attributes (axes, keepdims); ReduceSum's axes is an input from 13 ----
  for (std::string_view op :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    rows.push_back(Row(op, op, "x,axes?", "y"));
  }
  // ---- Constants and control flow ----
  rows.push_back({.onnx_op = "Constant",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "Const",
                  .inputs = "",
                  .outputs = "y",
                  .converter = ConvertConstant});
  rows.push_back({.onnx_op = "If",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "If",
                  .inputs = "cond",
                  .outputs = "output*",
                  .subgraphs = {"then_branch", "else_branch"},
                  .capture_input = "input"});
  rows.push_back({.onnx_op = "Loop",
                  .opset_min = 1,
                  .opset_max = kMax,
                  .ir_type = "Loop",
                  .inputs = "max_trip_count?,cond?,v_initial*=2",
                  .outputs = "output*",
                  .subgraphs = {"body"},
                  .capture_input = "implicit_input"});
  rows.push_back({.onnx_op = "Scan",
                  .opset_min = 1,
                  .opset_max = 8,
                  .ir_type = "Scan",
                  .inputs = "sequence_lens?,initial_state_and_scan_inputs*=1",
                  .outputs = "output*",
                  .subgraphs = {"body"},
                  .capture_input = "implicit_input",
                  .body_input_offset = 1});
  rows.push_back({.onnx_op = "Scan",
                  .opset_min = 9,
                  .opset_max = kMax,
                  .ir_type = "Scan",
                  .inputs = "initial_state_and_scan_inputs*",
                  .outputs = "output*",
                  .subgraphs = {"body"},
                  .capture_input = "implicit_input"});
  rows.push_back({.onnx_op = "SequenceMap",
                  .opset_min = 17,
                  .opset_max = kMax,
                  .ir_type = "SequenceMap",
                  .inputs = "input_sequence,additional_inputs*=1",
                  .outputs = "out_sequence*",
                  .subgraphs = {"body"},
                  .capture_input = "implicit_input"});
  // ---- Signal processing, Det, TfIdfVectorizer (ONNX names; output_datatype converted) ----
  for (std::string_view op : {"HannWindow", "HammingWindow", "BlackmanWindow"}) {
    rows.push_back({.onnx_op = op,
                    .opset_min = 17,
                    .opset_max = kMax,
                    .ir_type = op,
                    .inputs = "size",
                    .outputs = "output",
                    .attrs = {{"output_datatype", "output_datatype", AttrConv::kOnnxDtype}}});
  }
  rows.push_back({.onnx_op = "MelWeightMatrix",
                  .opset_min = 17,
                  .opset_max = kMax,
                  .ir_type = "MelWeightMatrix",
                  .inputs = "num_mel_bins,dft_length,sample_rate,lower_edge_hertz,upper_edge_hertz",
                  .outputs = "output",
                  .attrs = {{"output_datatype", "output_datatype", AttrConv::kOnnxDtype}}});
  rows.push_back(Row("DFT", "DFT", "input,dft_length?", "output", 17, 19));
  // DFT-20 takes the axis as an input, -2 when absent.
  rows.push_back({.onnx_op = "DFT",
                  .opset_min = 20,
                  .opset_max = kMax,
                  .ir_type = "DFT",
                  .inputs = "input,dft_length?,axis?",
                  .outputs = "output",
                  .fixed_attrs = {{"axis", AttrValue(int64_t{-2})}}});
  rows.push_back(Row("STFT", "STFT", "signal,frame_step,window?,frame_length?", "output", 17));
  rows.push_back(Row("Det", "Det", "x", "y", 11));
  rows.push_back(Row("TfIdfVectorizer", "TfIdfVectorizer", "X", "Y", 9));
  // ---- Strings (ONNX names) ----
  rows.push_back(Row("StringNormalizer", "StringNormalizer", "X", "Y", 10));
  rows.push_back(Row("StringConcat", "StringConcat", "X,Y", "Z", 20));
  rows.push_back(Row("StringSplit", "StringSplit", "X", "Y,Z", 20));
  rows.push_back(Row("RegexFullMatch", "RegexFullMatch", "X", "Y", 20));
  // ---- ai.onnx.ml: what scikit-learn and LightGBM exports use ----
  rows.push_back({.onnx_op = "Binarizer",
                  .opset_min = 1,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "Binarizer",
                  .inputs = "X",
                  .outputs = "Y",
                  .domain = "ai.onnx.ml"});
  rows.push_back({.onnx_op = "ArrayFeatureExtractor",
                  .opset_min = 1,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "ArrayFeatureExtractor",
                  .inputs = "X,Y",
                  .outputs = "Z",
                  .domain = "ai.onnx.ml"});
  for (std::string_view op : {"Scaler", "Normalizer", "LinearRegressor"}) {
    rows.push_back({.onnx_op = op,
                    .opset_min = 1,
                    .opset_max = kOnnxMlMaxOpset,
                    .ir_type = op,
                    .inputs = "X",
                    .outputs = "Y",
                    .domain = "ai.onnx.ml"});
  }
  rows.push_back({.onnx_op = "TreeEnsemble",
                  .opset_min = 5,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "TreeEnsemble",
                  .inputs = "X",
                  .outputs = "Y",
                  .domain = "ai.onnx.ml"});
  // The older tree ensembles (ai.onnx.ml 1 and 3) and the classifiers: ConvertMlModel refuses
  // labels in both forms or in neither, string categories and an unknown post_transform at parse.
  for (const auto& [op, outputs] :
       {std::pair<std::string_view, std::string_view>{"TreeEnsembleRegressor", "Y"},
        {"TreeEnsembleClassifier", "Y,Z"}}) {
    rows.push_back({.onnx_op = op,
                    .opset_min = 1,
                    .opset_max = kOnnxMlMaxOpset,
                    .ir_type = op,
                    .inputs = "X",
                    .outputs = outputs,
                    .converter = ConvertMlModel,
                    .domain = "ai.onnx.ml"});
  }
  for (const auto& [op, inputs, outputs] :
       {std::tuple<std::string_view, std::string_view, std::string_view>{"LinearClassifier", "X",
                                                                         "Y,Z"},
        {"SVMRegressor", "X", "Y"},
        {"SVMClassifier", "X", "Y,Z"},
        {"Imputer", "X", "Y"},
        {"OneHotEncoder", "X", "Y"},
        {"FeatureVectorizer", "X*", "Y"}}) {
    rows.push_back({.onnx_op = op,
                    .opset_min = 1,
                    .opset_max = kOnnxMlMaxOpset,
                    .ir_type = op,
                    .inputs = inputs,
                    .outputs = outputs,
                    .converter = ConvertMlModel,
                    .domain = "ai.onnx.ml"});
  }
  // LabelEncoder 1 maps strings to their index in classes_strings and back, as CategoryMapper
  // does with cats_int64s 0, 1, ...; from 2 on it maps keys_* to values_* (tensors from 4).
  rows.push_back({.onnx_op = "LabelEncoder",
                  .opset_min = 1,
                  .opset_max = 1,
                  .ir_type = "CategoryMapper",
                  .inputs = "X",
                  .outputs = "Y",
                  .attrs = {{"classes_strings", "cats_strings"}},
                  .converter = ConvertLabelEncoderV1,
                  .domain = "ai.onnx.ml"});
  rows.push_back({.onnx_op = "LabelEncoder",
                  .opset_min = 2,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "LabelEncoder",
                  .inputs = "X",
                  .outputs = "Y",
                  .domain = "ai.onnx.ml"});
  rows.push_back({.onnx_op = "CategoryMapper",
                  .opset_min = 1,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "CategoryMapper",
                  .inputs = "X",
                  .outputs = "Y",
                  .domain = "ai.onnx.ml"});
  // ---- Sequences (opset 11) and optionals (opset 15; 18 takes sequences too) ----
  rows.push_back({.onnx_op = "SequenceEmpty",
                  .opset_min = 11,
                  .opset_max = kMax,
                  .ir_type = "SequenceEmpty",
                  .inputs = "",
                  .outputs = "output",
                  .attrs = {{"dtype", "dtype", AttrConv::kOnnxDtype}}});
  rows.push_back(Row("SequenceConstruct", "SequenceConstruct", "inputs*", "output_sequence", 11));
  rows.push_back(Row("SequenceInsert", "SequenceInsert", "input_sequence,tensor,position?",
                     "output_sequence", 11));
  rows.push_back(
      Row("SequenceErase", "SequenceErase", "input_sequence,position?", "output_sequence", 11));
  rows.push_back(Row("SequenceAt", "SequenceAt", "input_sequence,position", "tensor", 11));
  rows.push_back(Row("SequenceLength", "SequenceLength", "input_sequence", "length", 11));
  rows.push_back(Row("SplitToSequence", "SplitToSequence", "input,split?", "output_sequence", 11));
  rows.push_back(
      Row("ConcatFromSequence", "ConcatFromSequence", "input_sequence", "concat_result", 11));
  rows.push_back({.onnx_op = "ZipMap",
                  .opset_min = 1,
                  .opset_max = kOnnxMlMaxOpset,
                  .ir_type = "ZipMap",
                  .inputs = "X",
                  .outputs = "Z",
                  .domain = "ai.onnx.ml"});
  rows.push_back(Row("Optional", "Optional", "input?", "output", 15));
  rows.push_back(Row("OptionalHasElement", "OptionalHasElement", "input?", "output", 15));
  rows.push_back(Row("OptionalGetElement", "OptionalGetElement", "input", "output", 15));
  // ---- ONNX operators without a prototype yet (positional inputs/outputs, ONNX names) ----
  // clang-format off
  for (std::string_view op :
       {"MaxRoiPool", "ConvInteger", "QLinearConv", "RandomNormal", "RandomUniform",
        "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"}) {
    // clang-format on
    rows.push_back(Same(op));
  }
  return rows;
}

}  // namespace

const std::vector<OpMappingRow>& AllOpMappings() {
  static const std::vector<OpMappingRow> kRows = BuildTable();
  return kRows;
}

const OpMappingRow* FindOpMapping(std::string_view domain, std::string_view op_type,
                                  int64_t opset) {
  if (domain == "ai.onnx") domain = "";
  for (const OpMappingRow& row : AllOpMappings()) {
    if (row.domain == domain && row.onnx_op == op_type && opset >= row.opset_min &&
        opset <= row.opset_max) {
      return &row;
    }
  }
  return nullptr;
}

std::optional<std::pair<int64_t, int64_t>> MappedOpsetRange(std::string_view domain,
                                                            std::string_view op_type) {
  if (domain == "ai.onnx") domain = "";
  std::optional<std::pair<int64_t, int64_t>> range;
  for (const OpMappingRow& row : AllOpMappings()) {
    if (row.domain != domain || row.onnx_op != op_type) continue;
    if (!range) range.emplace(row.opset_min, row.opset_max);
    range->first = std::min(range->first, row.opset_min);
    range->second = std::max(range->second, row.opset_max);
  }
  return range;
}

}  // namespace ge::onnx_parser

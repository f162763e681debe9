// Two networks written with GE's graph construction API (ge::op classes, ge::Graph): the small
// CNN of models/small_cnn.onnx and the attention block of models/attention_block.onnx, operator
// for operator, so that the graph built here and the graph parsed from the file are the same
// network. Weights are looked up by the ONNX file's initializer names; a missing one leaves its
// Const without a value, which compiling reports with the Const's name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/api/all_ops.h"
#include "ge/api/graph.h"
#include "ge/api/tensor.h"

namespace graph_api_example {

using Weights = std::map<std::string, ge::Tensor>;

inline ge::Tensor ScalarFloat(float value) {
  ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{}), ge::FORMAT_ND, ge::DT_FLOAT);
  return {desc, reinterpret_cast<const uint8_t*>(&value), sizeof(value)};
}

inline ge::Tensor Int64s(const std::vector<int64_t>& values) {
  ge::TensorDesc desc(ge::Shape({static_cast<int64_t>(values.size())}), ge::FORMAT_ND,
                      ge::DT_INT64);
  return {desc, reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(int64_t)};
}

inline ge::op::Const Constant(const std::string& name, const ge::Tensor& value) {
  ge::op::Const c(name);
  c.set_attr_value(value);
  return c;
}

inline ge::op::Const Weight(const Weights& weights, const std::string& name) {
  ge::op::Const c(name);
  if (auto it = weights.find(name); it != weights.end()) c.set_attr_value(it->second);
  return c;
}

inline ge::op::Data Input(const std::string& name, const std::vector<int64_t>& dims,
                          ge::Format format) {
  ge::op::Data data(name);
  data.update_output_desc_y(ge::TensorDesc(ge::Shape(dims), format, ge::DT_FLOAT));
  return data;
}

// A k×k convolution with bias, NCHW.
inline ge::op::Conv2D Conv(const std::string& name, const ge::Operator& x, const Weights& weights,
                           const std::string& filter, const std::string& bias, int64_t k,
                           int64_t stride, int64_t pad, int64_t group) {
  ge::op::Conv2D conv(name);
  conv.set_input_x(x)
      .set_input_filter(Weight(weights, filter))
      .set_input_bias(Weight(weights, bias))
      .set_attr_kernel_shape({k, k})
      .set_attr_strides({stride, stride})
      .set_attr_pads({pad, pad, pad, pad})
      .set_attr_dilations({1, 1})
      .set_attr_group(group)
      .set_attr_data_format("NCHW");
  return conv;
}

inline ge::op::Clip Relu6(const std::string& name, const ge::Operator& x) {
  ge::op::Clip clip(name);
  clip.set_input_x(x)
      .set_input_min(Constant(name + "/min", ScalarFloat(0.0f)))
      .set_input_max(Constant(name + "/max", ScalarFloat(6.0f)));
  return clip;
}

// Pointwise expand (16 → 64), depthwise 3×3, pointwise project (64 → 16), residual add.
inline ge::op::Add InvertedResidual(const std::string& name, const ge::Operator& x,
                                    const Weights& weights, int first_weight) {
  auto w = [&](int offset) { return "onnx::Conv_" + std::to_string(first_weight + offset); };
  auto expand =
      Relu6(name + "/expand_relu6", Conv(name + "/expand", x, weights, w(0), w(1), 1, 1, 0, 1));
  auto depthwise = Relu6(name + "/depthwise_relu6",
                         Conv(name + "/depthwise", expand, weights, w(3), w(4), 3, 1, 1, 64));
  auto project = Conv(name + "/project", depthwise, weights, w(6), w(7), 1, 1, 0, 1);
  ge::op::Add add(name + "/add");
  add.set_input_x1(x).set_input_x2(project);
  return add;
}

/// models/small_cnn.onnx: image [1, 3, 64, 64] → logits [1, 10].
inline ge::Graph SmallCnn(const Weights& weights) {
  auto image = Input("image", {1, 3, 64, 64}, ge::FORMAT_NCHW);
  auto stem = Relu6("stem/relu6", Conv("stem/conv", image, weights, "onnx::Conv_84",
                                       "onnx::Conv_85", 3, 2, 1, 1));
  auto block0 = InvertedResidual("block0", stem, weights, 87);
  auto block1 = InvertedResidual("block1", block0, weights, 96);
  auto head = Conv("head/conv", block1, weights, "head.0.weight", "head.0.bias", 1, 1, 0, 1);
  ge::op::Relu relu("head/relu");
  relu.set_input_x(head);
  ge::op::GlobalAveragePool pool("pool");
  pool.set_input_x(relu);
  ge::op::Flatten flatten("flatten");
  flatten.set_input_x(pool).set_attr_axis(1);
  ge::op::Gemm fc("fc");
  fc.set_input_a(flatten)
      .set_input_b(Weight(weights, "fc.weight"))
      .set_input_c(Weight(weights, "fc.bias"))
      .set_attr_alpha(1.0f)
      .set_attr_beta(1.0f)
      .set_attr_transB(1);
  ge::Graph graph("small_cnn");
  graph.SetInputs({image}).SetOutputs({fc});
  return graph;
}

/// models/attention_block.onnx: x [1, 16, 64] → y [1, 16, 64], 4 heads of 16.
inline ge::Graph AttentionBlock(const Weights& weights) {
  constexpr int64_t kSeq = 16, kHidden = 64, kHeads = 4, kHead = kHidden / kHeads;
  auto x = Input("x", {1, kSeq, kHidden}, ge::FORMAT_ND);
  auto split_shape = Constant("split_shape", Int64s({1, kSeq, kHeads, kHead}));
  // x · W + b, split into heads: [1, heads, seq, head] (k: [1, heads, head, seq]).
  auto heads = [&](const std::string& p, std::vector<int64_t> perm) {
    ge::op::BatchMatMulV2 proj(p + "_proj");
    proj.set_input_x1(x).set_input_x2(Weight(weights, "w" + p));
    ge::op::Add bias(p + "_bias");
    bias.set_input_x1(proj).set_input_x2(Weight(weights, "b" + p));
    ge::op::Reshape split(p + "_split");
    split.set_input_x(bias).set_input_shape(split_shape);
    ge::op::Transpose transpose(p + "_perm");
    transpose.set_input_x(split).set_attr_perm(perm);
    return transpose;
  };
  auto q = heads("q", {0, 2, 1, 3});
  auto k = heads("k", {0, 2, 3, 1});
  auto v = heads("v", {0, 2, 1, 3});
  ge::op::BatchMatMulV2 scores("scores");
  scores.set_input_x1(q).set_input_x2(k);
  ge::op::Mul scaled("scaled");
  scaled.set_input_x1(scores).set_input_x2(Constant("scale", ScalarFloat(0.25f)));
  ge::op::SoftmaxV2 softmax("softmax");
  softmax.set_input_x(scaled).set_attr_axis(-1);
  ge::op::BatchMatMulV2 context("context");
  context.set_input_x1(softmax).set_input_x2(v);
  ge::op::Transpose merge_perm("merge_perm");
  merge_perm.set_input_x(context).set_attr_perm({0, 2, 1, 3});
  ge::op::Reshape merge("merge");
  merge.set_input_x(merge_perm)
      .set_input_shape(Constant("merge_shape", Int64s({1, kSeq, kHidden})));
  ge::op::BatchMatMulV2 out("o_proj");
  out.set_input_x1(merge).set_input_x2(Weight(weights, "wo"));
  ge::op::Add out_bias("o_bias");
  out_bias.set_input_x1(out).set_input_x2(Weight(weights, "bo"));
  ge::op::Add residual("residual");
  residual.set_input_x1(out_bias).set_input_x2(x);
  ge::op::LayerNorm norm("norm");
  norm.set_input_x(residual)
      .set_input_scale(Weight(weights, "gamma"))
      .set_input_bias(Weight(weights, "beta"))
      .set_attr_axis(-1)
      .set_attr_epsilon(1e-5f);
  ge::Graph graph("attention_block");
  graph.SetInputs({x}).SetOutputs({norm});
  return graph;
}

}  // namespace graph_api_example

// Recurrent layers with ONNX semantics: LSTM, GRU, RNN (GE's DynamicRNN family uses other
// layouts; the ONNX forms are what the frontend produces).
// Shapes (layout 0): X [seq, batch, input], W [dirs, gates*hidden, input], R [dirs, gates*hidden,
// hidden] → Y [seq, dirs, batch, hidden], Y_h / Y_c [dirs, batch, hidden]. Layout 1 puts batch
// first: X [batch, seq, input], Y [batch, seq, dirs, hidden], Y_h [batch, dirs, hidden].
// hidden_size 0 means "take it from R"; clip 0 means no clipping.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

Status InferRecurrent(InferContext& ctx, int64_t gates) {
  const std::string direction = ctx.AttrStr("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    return ctx.Error("attribute 'direction' must be forward, reverse or bidirectional, not '" +
                     direction + "'");
  }
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  const bool batch_first = ctx.AttrInt("layout", 0) != 0;
  for (size_t i = 0; i < 3; ++i) GE_RETURN_IF_ERROR(RequireRank(ctx, i, 3));
  const GeShape& x = ctx.InputShape(0);
  const GeShape& w = ctx.InputShape(1);
  const GeShape& r = ctx.InputShape(2);
  int64_t hidden = ctx.AttrInt("hidden_size", 0);
  if (hidden <= 0) hidden = r.IsUnknownDimNum() ? UNKNOWN_DIM : r.GetDim(2);
  const int64_t seq = x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(batch_first ? 1 : 0);
  const int64_t batch = x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(batch_first ? 0 : 1);
  const int64_t input = x.IsUnknownDimNum() ? UNKNOWN_DIM : x.GetDim(2);
  const int64_t rows = infer::MulDim(gates, hidden);
  auto check = [&](size_t i, const std::vector<int64_t>& want) -> Status {
    const GeShape& s = ctx.InputShape(i);
    if (s.IsUnknownDimNum()) return Status::Ok();
    bool ok = s.GetDimNum() == want.size();
    for (size_t k = 0; ok && k < want.size(); ++k) ok = DimsCompatible(s.GetDim(k), want[k]);
    if (!ok) {
      return ctx.Error(ctx.DescribeInput(i) + " must be " + GeShape(want).ToString() + " for " +
                       ctx.DescribeInput(0) + ", hidden size " + std::to_string(hidden) + " and " +
                       std::to_string(dirs) + " direction(s)");
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(check(1, {dirs, rows, input}));
  GE_RETURN_IF_ERROR(check(2, {dirs, rows, hidden}));
  (void)w;
  if (ctx.HasInput(3)) GE_RETURN_IF_ERROR(check(3, {dirs, infer::MulDim(2, rows)}));
  if (ctx.HasInput(4)) GE_RETURN_IF_ERROR(check(4, {batch}));
  const std::vector<int64_t> state = batch_first ? std::vector<int64_t>{batch, dirs, hidden}
                                                 : std::vector<int64_t>{dirs, batch, hidden};
  for (size_t i = 5; i < ctx.NumInputs() && i <= 6; ++i) {
    if (ctx.HasInput(i)) GE_RETURN_IF_ERROR(check(i, state));
  }
  const std::vector<int64_t> y = batch_first ? std::vector<int64_t>{batch, seq, dirs, hidden}
                                             : std::vector<int64_t>{seq, dirs, batch, hidden};
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, GeShape(y)));
  for (size_t i = 1; i < ctx.NumOutputs(); ++i)
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, GeShape(state)));
  return Status::Ok();
}

OpProtoBuilder Recurrent(const char* type) {
  OpProtoBuilder b(type);
  b.TypeConstraint("T", TensorType::FloatingDataType())
      .Input("x", "T")
      .Input("w", "T")
      .Input("r", "T")
      .OptionalInput("b", "T")
      .OptionalInput("sequence_lens", {DT_INT32})
      .OptionalInput("initial_h", "T")
      .Attr("activation_alpha", std::vector<float>{})
      .Attr("activation_beta", std::vector<float>{})
      .Attr("activations", std::vector<std::string>{})
      .Attr("clip", 0.0F)
      .Attr("direction", "forward")
      .Attr("hidden_size", 0)
      .Attr("layout", 0);
  return b;
}

}  // namespace

void RegisterRnnOps(OpProtoRegistrar& r) {
  r.Register(Recurrent("LSTM")
                 .OptionalInput("initial_c", "T")
                 .OptionalInput("p", "T")
                 .Output("y", "T")
                 .Output("y_h", "T")
                 .Output("y_c", "T")
                 .Attr("input_forget", 0)
                 .InferShape([](InferContext& c) { return InferRecurrent(c, 4); })
                 .Build());
  r.Register(Recurrent("GRU")
                 .Output("y", "T")
                 .Output("y_h", "T")
                 .Attr("linear_before_reset", 0)
                 .InferShape([](InferContext& c) { return InferRecurrent(c, 3); })
                 .Build());
  r.Register(Recurrent("RNN")
                 .Output("y", "T")
                 .Output("y_h", "T")
                 .InferShape([](InferContext& c) { return InferRecurrent(c, 1); })
                 .Build());
}

}  // namespace ge::builtin

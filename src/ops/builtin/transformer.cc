// ONNX's transformer operators (opsets 23-24, ONNX names: GE has no such operators): Attention and
// RotaryEmbedding. RMSNormalization is with the other normalizations (norm.cc).
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

constexpr size_t kQ = 0, kK = 1, kV = 2, kMask = 3, kPastKey = 4, kPastValue = 5, kNonpad = 6;
constexpr size_t kY = 0, kPresentKey = 1, kPresentValue = 2, kQk = 3;

/// Q, K or V seen as heads: [batch, heads, seq, size], whether given so (4-D) or as
/// [batch, seq, heads * size] with the head count an attribute (3-D). -1 where unknown.
struct Heads {
  int64_t batch = UNKNOWN_DIM, heads = UNKNOWN_DIM, seq = UNKNOWN_DIM, size = UNKNOWN_DIM;
};

/// The head count of attribute `attr`, 0 when the node has none.
int64_t HeadsAttr(const InferContext& ctx, const std::string& attr) {
  return ctx.HasAttr(attr) ? ctx.AttrInt(attr) : 0;
}

Result<Heads> HeadsOf(const InferContext& ctx, size_t input, const std::string& attr) {
  const GeShape& s = ctx.InputShape(input);
  const int64_t attr_heads = HeadsAttr(ctx, attr);
  if (s.GetDimNum() == 4) {
    if (attr_heads > 0 && s.GetDim(1) >= 0 && s.GetDim(1) != attr_heads) {
      return ctx.Error(ctx.DescribeInput(input) + " has " + std::to_string(s.GetDim(1)) +
                       " heads but attribute '" + attr + "' says " + std::to_string(attr_heads));
    }
    return Heads{s.GetDim(0), s.GetDim(1), s.GetDim(2), s.GetDim(3)};
  }
  if (attr_heads <= 0) {
    return ctx.Error("3-D " + ctx.DescribeInput(input) + " needs a positive attribute '" + attr +
                     "'");
  }
  const int64_t hidden = s.GetDim(2);
  if (hidden >= 0 && hidden % attr_heads != 0) {
    return ctx.Error("the hidden size of " + ctx.DescribeInput(input) +
                     " is not a multiple of attribute '" + attr + "' " +
                     std::to_string(attr_heads));
  }
  return Heads{s.GetDim(0), attr_heads, s.GetDim(1), hidden >= 0 ? hidden / attr_heads : hidden};
}

/// The dim both of `a` and `b` say (-1 when neither knows it), or an error naming `what`.
Result<int64_t> SameDim(const InferContext& ctx, int64_t a, int64_t b, const std::string& what) {
  if (!DimsCompatible(a, b)) {
    return ctx.Error(what + " differ: " + std::to_string(a) + " and " + std::to_string(b));
  }
  return a >= 0 ? a : b;
}

/// The dims of a cache input [batch, kv_heads, past, size] checked against K's or V's heads.
Result<int64_t> PastLength(const InferContext& ctx, size_t input, const Heads& kv) {
  const GeShape& s = ctx.InputShape(input);
  if (s.IsUnknownDimNum()) return UNKNOWN_DIM;
  if (s.GetDimNum() != 4) {
    return ctx.Error(ctx.DescribeInput(input) + " must be 4-D [batch, kv_num_heads, past, size]");
  }
  if (!DimsCompatible(s.GetDim(0), kv.batch) || !DimsCompatible(s.GetDim(1), kv.heads) ||
      !DimsCompatible(s.GetDim(3), kv.size)) {
    return ctx.Error(ctx.DescribeInput(input) + " does not fit " + ctx.DescribeInput(input - 3) +
                     ": its batch, heads and head size must be theirs");
  }
  return s.GetDim(2);
}

// Q, K, V 3-D [B, S, H * D] (q_num_heads, kv_num_heads) or 4-D [B, H, S, D]; the caches
// [B, Hkv, P, D]; Y like Q with V's head size; the presents [B, Hkv, P + L, D]; the scores
// [B, Hq, S, P + L]. attn_mask broadcasts to the scores, its last dim at most P + L (the rest is
// masked).
Status InferAttention(InferContext& ctx) {
  const GeShape& q = ctx.InputShape(kQ);
  const GeShape& k = ctx.InputShape(kK);
  const GeShape& v = ctx.InputShape(kV);
  if (q.IsUnknownDimNum() || k.IsUnknownDimNum() || v.IsUnknownDimNum()) {
    GE_RETURN_IF_ERROR(ctx.SetOutputShape(kY, infer::UnknownRankShape()));
    for (size_t i = kPresentKey; i < ctx.NumOutputs(); ++i) {
      GE_RETURN_IF_ERROR(ctx.SetOutputShape(i, infer::UnknownDimsShape(4)));
    }
    return Status::Ok();
  }
  const size_t rank = q.GetDimNum();
  if ((rank != 3 && rank != 4) || k.GetDimNum() != rank || v.GetDimNum() != rank) {
    return ctx.Error("Q, K and V must be all 3-D or all 4-D, got " + ctx.DescribeInput(kQ) + ", " +
                     ctx.DescribeInput(kK) + " and " + ctx.DescribeInput(kV));
  }
  GE_ASSIGN_OR_RETURN(const Heads qh, HeadsOf(ctx, kQ, "q_num_heads"));
  GE_ASSIGN_OR_RETURN(const Heads kh, HeadsOf(ctx, kK, "kv_num_heads"));
  GE_ASSIGN_OR_RETURN(const Heads vh, HeadsOf(ctx, kV, "kv_num_heads"));
  GE_ASSIGN_OR_RETURN(int64_t batch,
                      SameDim(ctx, qh.batch, kh.batch, "the batch sizes of Q and K"));
  GE_ASSIGN_OR_RETURN(batch, SameDim(ctx, batch, vh.batch, "the batch sizes of Q, K and V"));
  GE_ASSIGN_OR_RETURN(const int64_t head_size,
                      SameDim(ctx, qh.size, kh.size, "the head sizes of Q and K"));
  GE_ASSIGN_OR_RETURN(const int64_t kv_heads,
                      SameDim(ctx, kh.heads, vh.heads, "the head counts of K and V"));
  GE_ASSIGN_OR_RETURN(const int64_t kv_len,
                      SameDim(ctx, kh.seq, vh.seq, "the sequence lengths of K and V"));
  if (kv_heads == 0 || (kv_heads > 0 && qh.heads >= 0 && qh.heads % kv_heads != 0)) {
    return ctx.Error("the " + std::to_string(qh.heads) + " query heads are not a multiple of the " +
                     std::to_string(kv_heads) + " key/value heads");
  }
  if (ctx.HasInput(kPastKey) != ctx.HasInput(kPastValue)) {
    return ctx.Error("past_key and past_value must be given together");
  }
  int64_t past = 0;
  if (ctx.HasInput(kPastKey)) {
    const Heads kv{batch, kv_heads, UNKNOWN_DIM, head_size};
    GE_ASSIGN_OR_RETURN(past, PastLength(ctx, kPastKey, kv));
    GE_ASSIGN_OR_RETURN(const int64_t past_v,
                        PastLength(ctx, kPastValue, Heads{batch, kv_heads, UNKNOWN_DIM, vh.size}));
    GE_ASSIGN_OR_RETURN(past, SameDim(ctx, past, past_v, "the lengths of past_key and past_value"));
  }
  const int64_t total = infer::AddDim(past, kv_len);
  if (ctx.HasInput(kMask)) {
    const GeShape& m = ctx.InputShape(kMask);
    if (!m.IsUnknownDimNum()) {
      const std::vector<int64_t>& md = m.GetDims();
      const std::vector<int64_t> rows = {batch, qh.heads, qh.seq};
      // All but the mask's last dim broadcast to the trailing dims of [B, Hq, S].
      const auto lead = static_cast<std::ptrdiff_t>(md.size()) - 1;
      const bool fits =
          !md.empty() && md.size() <= 4 &&
          infer::CanBroadcastTo(GeShape(std::vector<int64_t>(md.begin(), md.end() - 1)),
                                GeShape(std::vector<int64_t>(rows.end() - lead, rows.end()))) &&
          (md.back() < 0 || total < 0 || md.back() <= total);
      if (!fits) {
        return ctx.Error(ctx.DescribeInput(kMask) + " does not broadcast to the scores [" +
                         std::to_string(batch) + "," + std::to_string(qh.heads) + "," +
                         std::to_string(qh.seq) + "," + std::to_string(total) +
                         "] (its last dim may be shorter)");
      }
    }
  }
  if (ctx.HasInput(kNonpad)) {
    const GeShape& n = ctx.InputShape(kNonpad);
    if (!n.IsUnknownDimNum() && (n.GetDimNum() != 1 || !DimsCompatible(n.GetDim(0), batch))) {
      return ctx.Error(ctx.DescribeInput(kNonpad) + " must be [batch] = [" + std::to_string(batch) +
                       "]");
    }
  }
  const GeShape y = rank == 3 ? GeShape({batch, qh.seq, infer::MulDim(qh.heads, vh.size)})
                              : GeShape({batch, qh.heads, qh.seq, vh.size});
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(kY, y));
  const std::pair<size_t, GeShape> outs[] = {
      {kPresentKey, GeShape({batch, kv_heads, total, head_size})},
      {kPresentValue, GeShape({batch, kv_heads, total, vh.size})},
      {kQk, GeShape({batch, qh.heads, qh.seq, total})}};
  for (const auto& [index, shape] : outs) {
    if (index < ctx.NumOutputs()) GE_RETURN_IF_ERROR(ctx.SetOutputShape(index, shape));
  }
  return Status::Ok();
}

// Attributes a shape cannot check.
Status VerifyAttention(InferContext& ctx) {
  const int64_t mode = ctx.AttrInt("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3) {
    return ctx.Error("attribute 'qk_matmul_output_mode' must be 0 to 3, got " +
                     std::to_string(mode));
  }
  if (ctx.HasAttr("softmax_precision")) {
    const DataType p = ctx.AttrDataType("softmax_precision");
    if (p != DT_FLOAT && p != DT_DOUBLE && p != DT_FLOAT16 && p != DT_BF16) {
      return ctx.Error("attribute 'softmax_precision' must name a floating-point type");
    }
  }
  return Status::Ok();
}

// X 4-D [B, H, S, D] or 3-D [B, S, H * D] (num_heads); the caches [max_position + 1, R / 2]
// with position_ids [B, S], else [B, S, R / 2], where R is rotary_embedding_dim (0: D).
Status InferRotaryEmbedding(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  GE_RETURN_IF_ERROR(ctx.SetOutputShape(0, x));
  if (x.IsUnknownDimNum()) return Status::Ok();
  if (x.GetDimNum() != 3 && x.GetDimNum() != 4) {
    return ctx.Error(ctx.DescribeInput(0) + " must be 3-D or 4-D");
  }
  const int64_t heads_attr = ctx.AttrInt("num_heads", 0);
  int64_t head_size = x.GetDim(x.GetDimNum() - 1);
  if (x.GetDimNum() == 3) {
    if (heads_attr <= 0) {
      return ctx.Error("3-D " + ctx.DescribeInput(0) + " needs a positive attribute 'num_heads'");
    }
    if (head_size >= 0 && head_size % heads_attr != 0) {
      return ctx.Error("the hidden size of " + ctx.DescribeInput(0) +
                       " is not a multiple of attribute 'num_heads' " + std::to_string(heads_attr));
    }
    head_size = head_size >= 0 ? head_size / heads_attr : head_size;
  } else if (heads_attr > 0 && x.GetDim(1) >= 0 && x.GetDim(1) != heads_attr) {
    return ctx.Error(ctx.DescribeInput(0) + " has " + std::to_string(x.GetDim(1)) +
                     " heads but attribute 'num_heads' says " + std::to_string(heads_attr));
  }
  const int64_t attr_dim = ctx.AttrInt("rotary_embedding_dim", 0);
  const int64_t rotary = attr_dim > 0 ? attr_dim : head_size;
  if (attr_dim < 0 || (rotary >= 0 && rotary % 2 != 0) || (head_size >= 0 && rotary > head_size)) {
    return ctx.Error("the rotary dim " + std::to_string(rotary) +
                     " must be even and at most the head size " + std::to_string(head_size));
  }
  const bool ids = ctx.HasInput(3);
  const int64_t half = rotary >= 0 ? rotary / 2 : rotary;
  for (size_t i = 1; i <= 2; ++i) {
    const GeShape& c = ctx.InputShape(i);
    if (c.IsUnknownDimNum()) continue;
    const bool fits = ids ? c.GetDimNum() == 2 && DimsCompatible(c.GetDim(1), half)
                          : c.GetDimNum() == 3 && DimsCompatible(c.GetDim(0), x.GetDim(0)) &&
                                DimsCompatible(c.GetDim(2), half);
    if (!fits) {
      return ctx.Error(ctx.DescribeInput(i) + " must be " +
                       (ids ? "[max_position + 1, " : "[batch, seq, ") + std::to_string(half) +
                       "] " + (ids ? "with" : "without") + " position_ids");
    }
  }
  if (ids && !ctx.InputShape(3).IsUnknownDimNum()) {
    const GeShape& p = ctx.InputShape(3);
    if (p.GetDimNum() != 2 || !DimsCompatible(p.GetDim(0), x.GetDim(0))) {
      return ctx.Error(ctx.DescribeInput(3) + " must be [batch, seq]");
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterTransformerOps(OpProtoRegistrar& r) {
  const TensorType floats = TensorType::FloatingDataType();
  // ONNX Attention (opset 24; the opset-23 form lacks nonpad_kv_seqlen): softmax(softcap(Q K^T *
  // scale) + mask) V per head, query head h reading key/value head h / (q heads / kv heads).
  r.Register(OpProtoBuilder("Attention")
                 .TypeConstraint("T1", floats)
                 .TypeConstraint("T2", floats)
                 .TypeConstraint("U", TensorType::RealNumberType() | TensorType::BOOL())
                 .Input("Q", "T1")
                 .Input("K", "T1")
                 .Input("V", "T2")
                 .OptionalInput("attn_mask", "U")
                 .OptionalInput("past_key", "T1")
                 .OptionalInput("past_value", "T2")
                 .OptionalInput("nonpad_kv_seqlen", TensorType({DT_INT64}))
                 .Output("Y", "T1")
                 .Output("present_key", "T1")
                 .Output("present_value", "T2")
                 .Output("qk_matmul_output", "T1")
                 .Attr("is_causal", 0)
                 .OptionalAttr("kv_num_heads", AttrValue::Type::kInt)
                 .OptionalAttr("q_num_heads", AttrValue::Type::kInt)
                 .Attr("qk_matmul_output_mode", 0)
                 .OptionalAttr("scale", AttrValue::Type::kFloat)  // absent: 1 / sqrt(head size)
                 .Attr("softcap", 0.0F)
                 .OptionalAttr("softmax_precision", AttrValue::Type::kDataType)
                 .InferShape(InferAttention)
                 .Verify(VerifyAttention)
                 .Build());
  // ONNX RotaryEmbedding: rotates the first rotary_embedding_dim values of each head by the
  // angle of its position, as pairs (x[i], x[i + R/2]) or, interleaved, (x[2i], x[2i + 1]).
  r.Register(OpProtoBuilder("RotaryEmbedding")
                 .TypeConstraint("T", TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16}))
                 .Input("X", "T")
                 .Input("cos_cache", "T")
                 .Input("sin_cache", "T")
                 .OptionalInput("position_ids", TensorType({DT_INT64}))
                 .Output("Y", "T")
                 .Attr("interleaved", 0)
                 .OptionalAttr("num_heads", AttrValue::Type::kInt)
                 .Attr("rotary_embedding_dim", 0)
                 .InferShape(InferRotaryEmbedding)
                 .Build());
}

}  // namespace ge::builtin

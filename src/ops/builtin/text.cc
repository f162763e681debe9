// Text featurization (ONNX names): TfIdfVectorizer over integer token ids. String tokens
// (pool_strings) need string tensors, which the IR does not have: such nodes are refused.
#include <algorithm>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

Status VerifyTfIdf(InferContext& ctx) {
  const std::string mode = ctx.AttrStr("mode");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") {
    return ctx.Error("attribute 'mode' must be TF, IDF or TFIDF, not '" + mode + "'");
  }
  const AttrValue* strings = ctx.FindAttr("pool_strings");
  if (strings != nullptr && strings->Get<std::vector<std::string>>() != nullptr &&
      !strings->Get<std::vector<std::string>>()->empty()) {
    return ctx.Error("string n-gram pools (pool_strings) are not supported: no string tensors");
  }
  const int64_t min_len = ctx.AttrInt("min_gram_length");
  const int64_t max_len = ctx.AttrInt("max_gram_length");
  if (min_len < 1 || max_len < min_len) {
    return ctx.Error("need 1 <= min_gram_length <= max_gram_length, got " +
                     std::to_string(min_len) + " and " + std::to_string(max_len));
  }
  if (ctx.AttrInt("max_skip_count") < 0) return ctx.Error("max_skip_count must not be negative");
  const std::vector<int64_t> counts = ctx.AttrInts("ngram_counts");
  const std::vector<int64_t> indexes = ctx.AttrInts("ngram_indexes");
  const auto pool = static_cast<int64_t>(ctx.AttrInts("pool_int64s").size());
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0 || counts[i] > pool || (i > 0 && counts[i] < counts[i - 1])) {
      return ctx.Error("ngram_counts must be ascending offsets into pool_int64s");
    }
  }
  if (indexes.empty()) return ctx.Error("ngram_indexes must not be empty");
  if (*std::min_element(indexes.begin(), indexes.end()) < 0) {
    return ctx.Error("ngram_indexes must not be negative");
  }
  const std::vector<float> weights = ctx.AttrFloats("weights");
  if (!weights.empty() && weights.size() != indexes.size()) {
    return ctx.Error("weights must hold one value per n-gram (" + std::to_string(indexes.size()) +
                     "), got " + std::to_string(weights.size()));
  }
  return Status::Ok();
}

// X [C] → Y [S]; X [N, C] → Y [N, S]; S = max(ngram_indexes) + 1.
Status InferTfIdf(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  const std::vector<int64_t> indexes = ctx.AttrInts("ngram_indexes");
  const int64_t size =
      indexes.empty() ? UNKNOWN_DIM : *std::max_element(indexes.begin(), indexes.end()) + 1;
  if (x.IsUnknownDimNum()) return ctx.SetOutput(0, infer::UnknownRankShape(), DT_FLOAT);
  if (x.GetDimNum() == 1) return ctx.SetOutput(0, GeShape({size}), DT_FLOAT);
  if (x.GetDimNum() == 2) return ctx.SetOutput(0, GeShape({x.GetDim(0), size}), DT_FLOAT);
  return ctx.Error(ctx.DescribeInput(0) + " must be [C] or [N, C]");
}

}  // namespace

void RegisterTextOps(OpProtoRegistrar& r) {
  r.Register(OpProtoBuilder("TfIdfVectorizer")  // ONNX name; mode TF / IDF / TFIDF
                 .Input("X", {DT_INT32, DT_INT64})
                 .Output("Y", {DT_FLOAT})
                 .RequiredAttr("max_gram_length", AttrValue::Type::kInt)
                 .RequiredAttr("min_gram_length", AttrValue::Type::kInt)
                 .RequiredAttr("max_skip_count", AttrValue::Type::kInt)
                 .RequiredAttr("mode", AttrValue::Type::kString)
                 .RequiredAttr("ngram_counts", AttrValue::Type::kListInt)
                 .RequiredAttr("ngram_indexes", AttrValue::Type::kListInt)
                 .Attr("pool_int64s", std::vector<int64_t>{})
                 .Attr("pool_strings", std::vector<std::string>{})
                 .Attr("weights", std::vector<float>{})
                 .Verify(VerifyTfIdf)
                 .InferShape(InferTfIdf)
                 .Build());
}

}  // namespace ge::builtin

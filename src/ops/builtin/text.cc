// Text operators (ONNX names): TfIdfVectorizer over integer token ids, and the operators over
// DT_STRING tensors (ge/graph/string_tensor.h): StringConcat, StringSplit, RegexFullMatch and
// StringNormalizer. TfIdfVectorizer's string n-gram pools (pool_strings) are not implemented:
// such nodes are refused.
#include <algorithm>
#include <cctype>

#include "builtin_ops.h"

namespace ge::builtin {
namespace {

using infer::UnknownRankShape;

Status VerifyTfIdf(InferContext& ctx) {
  const std::string mode = ctx.AttrStr("mode");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") {
    return ctx.Error("attribute 'mode' must be TF, IDF or TFIDF, not '" + mode + "'");
  }
  const AttrValue* strings = ctx.FindAttr("pool_strings");
  if (strings != nullptr && strings->Get<std::vector<std::string>>() != nullptr &&
      !strings->Get<std::vector<std::string>>()->empty()) {
    return ctx.Error("string n-gram pools (pool_strings) are not supported, only pool_int64s");
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
  if (x.IsUnknownDimNum()) return ctx.SetOutput(0, UnknownRankShape(), DT_FLOAT);
  if (x.GetDimNum() == 1) return ctx.SetOutput(0, GeShape({size}), DT_FLOAT);
  if (x.GetDimNum() == 2) return ctx.SetOutput(0, GeShape({x.GetDim(0), size}), DT_FLOAT);
  return ctx.Error(ctx.DescribeInput(0) + " must be [C] or [N, C]");
}

Status VerifyStringSplit(InferContext& ctx) {
  if (ctx.HasAttr("maxsplit") && ctx.AttrInt("maxsplit") < 0) {
    return ctx.Error("attribute 'maxsplit' must not be negative, got " +
                     std::to_string(ctx.AttrInt("maxsplit")));
  }
  return Status::Ok();
}

// X [...] → Y [..., K] (K, the most substrings of an element, known only at run time; 0 when X
// has no elements), Z int64 [...].
Status InferStringSplit(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) {
    GE_RETURN_IF_ERROR(ctx.SetOutput(0, UnknownRankShape(), DT_STRING));
    return ctx.SetOutput(1, UnknownRankShape(), DT_INT64);
  }
  std::vector<int64_t> dims = x.GetDims();
  dims.push_back(x.GetElementCount() == 0 ? 0 : UNKNOWN_DIM);
  GE_RETURN_IF_ERROR(ctx.SetOutput(0, GeShape(dims), DT_STRING));
  return ctx.SetOutput(1, x, DT_INT64);
}

// StringNormalizer changes case by Unicode's one-to-one mapping, the same in every language: a
// locale whose language has rules of its own (Turkish and Azeri dotted and dotless i, Lithuanian
// accents) is refused rather than cased wrongly, and so is a codeset other than UTF-8.
Status VerifyLocale(InferContext& ctx) {
  const std::string locale = ctx.AttrStr("locale");
  if (locale.empty() || locale == "C" || locale == "POSIX") return Status::Ok();
  const std::string language = locale.substr(0, locale.find_first_of("_-.@"));
  const bool letters = std::all_of(language.begin(), language.end(),
                                   [](unsigned char c) { return std::isalpha(c) != 0; });
  if (language != "C" && (language.size() < 2 || language.size() > 3 || !letters)) {
    return ctx.Error("attribute 'locale' '" + locale +
                     "' is not a locale name (en_US, de_DE.UTF-8)");
  }
  if (language == "tr" || language == "az" || language == "lt") {
    return ctx.Error("attribute 'locale' '" + locale +
                     "': the case rules of its language are not implemented");
  }
  const size_t dot = locale.find('.');
  if (dot != std::string::npos) {
    std::string codeset;
    for (char c : locale.substr(dot + 1, locale.find('@', dot) - dot - 1)) {
      if (c != '-') codeset += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (codeset != "utf8") {
      return ctx.Error("attribute 'locale' '" + locale + "' names a codeset other than UTF-8");
    }
  }
  return Status::Ok();
}

Status VerifyStringNormalizer(InferContext& ctx) {
  const std::string action = ctx.AttrStr("case_change_action", "NONE");
  if (action != "LOWER" && action != "UPPER" && action != "NONE") {
    return ctx.Error("attribute 'case_change_action' must be LOWER, UPPER or NONE, not '" + action +
                     "'");
  }
  return VerifyLocale(ctx);
}

// X [C] → Y [C']; X [1, C] → Y [1, C']: C' is C less the stop words found, known only at run
// time when there are stop words; 1 (an empty string) when no word is left.
Status InferStringNormalizer(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutput(0, UnknownRankShape(), DT_STRING);
  const size_t rank = x.GetDimNum();
  if (rank != 1 && !(rank == 2 && DimsCompatible(x.GetDim(0), 1))) {
    return ctx.Error(ctx.DescribeInput(0) + " must be [C] or [1, C]");
  }
  const AttrValue* stopwords = ctx.FindAttr("stopwords");
  const auto* words = stopwords == nullptr ? nullptr : stopwords->Get<std::vector<std::string>>();
  const int64_t c = x.GetDim(rank - 1);
  int64_t kept = UNKNOWN_DIM;
  if (words == nullptr || words->empty()) kept = c == 0 ? 1 : c;
  return ctx.SetOutput(
      0, GeShape(rank == 1 ? std::vector<int64_t>{kept} : std::vector<int64_t>{1, kept}),
      DT_STRING);
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
  const TensorType strings{DT_STRING};
  r.Register(OpProtoBuilder("StringConcat")  // Z = X + Y per element, broadcast
                 .TypeConstraint("T", strings)
                 .Input("X", "T")
                 .Input("Y", "T")
                 .Output("Z", "T")
                 .InferShape(InferBroadcast)
                 .Build());
  // Each element split on `delimiter` (empty: on runs of whitespace, leading and trailing ones
  // dropped) at most `maxsplit` times (absent: no limit); Y padded with "", Z the counts.
  r.Register(OpProtoBuilder("StringSplit")
                 .Input("X", strings)
                 .Output("Y", strings)
                 .Output("Z", {DT_INT64})
                 .Attr("delimiter", std::string())
                 .OptionalAttr("maxsplit", AttrValue::Type::kInt)
                 .Verify(VerifyStringSplit)
                 .InferShape(InferStringSplit)
                 .Build());
  r.Register(OpProtoBuilder("RegexFullMatch")  // whether each element matches `pattern` whole
                 .Input("X", strings)
                 .Output("Y", {DT_BOOL})
                 .RequiredAttr("pattern", AttrValue::Type::kString)
                 .InferShape(
                     [](InferContext& ctx) { return ctx.SetOutput(0, ctx.InputShape(0), DT_BOOL); })
                 .Build());
  // The elements equal to a stop word removed (case-insensitively unless is_case_sensitive), the
  // rest lowercased, uppercased or kept (case_change_action).
  r.Register(OpProtoBuilder("StringNormalizer")
                 .Input("X", strings)
                 .Output("Y", strings)
                 .Attr("case_change_action", std::string("NONE"))
                 .Attr("is_case_sensitive", 0)
                 .Attr("locale", std::string())
                 .Attr("stopwords", std::vector<std::string>{})
                 .Verify(VerifyStringNormalizer)
                 .InferShape(InferStringNormalizer)
                 .Build());
}

}  // namespace ge::builtin

// The kernels over DT_STRING tensors (StringConcat, StringSplit, RegexFullMatch,
// StringNormalizer, LabelEncoder, CategoryMapper) on ONNX's examples, on what the examples leave
// out (broadcasting, UTF-8, NaN keys, RE2 forms) and on the attributes and inputs they refuse.
// Inputs are running heads (WriteString) over strings the test holds; outputs are read back with
// ReadString before the run's store is cleared.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ge/graph/string_tensor.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Op;

// An input: strings (DT_STRING) or the bytes of another dtype.
struct In {
  DataType dtype = DT_STRING;
  std::vector<int64_t> dims;
  std::vector<std::string> strings;
  std::vector<uint8_t> bytes;
};
In Strings(std::vector<int64_t> dims, std::vector<std::string> values) {
  return {DT_STRING, std::move(dims), std::move(values), {}};
}
template <typename T>
In Numbers(std::vector<int64_t> dims, const std::vector<T>& values) {
  In in{
      testing::DtypeOf<T>(), std::move(dims), {}, std::vector<uint8_t>(values.size() * sizeof(T))};
  if (!values.empty()) std::memcpy(in.bytes.data(), values.data(), in.bytes.size());
  return in;
}

// An output: its dtype and dims; no dims for one whose dims depend on the values (the kernel's
// MaxOutputDimsOfValues sizes it, as the runtime does).
struct Out {
  DataType dtype = DT_STRING;
  std::optional<std::vector<int64_t>> dims;
};

struct Outcome {
  Status status;
  std::vector<std::vector<int64_t>> dims;         ///< per output, as the kernel produced it
  std::vector<std::vector<std::string>> strings;  ///< per DT_STRING output
  std::vector<std::vector<uint8_t>> bytes;        ///< per other output
  template <typename T>
  std::vector<T> Values(size_t i) const {
    std::vector<T> v(bytes[i].size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes[i].data(), v.size() * sizeof(T));
    return v;
  }
};

// Prepares and runs the kernel of `op` as the runtime does, with `store` as the run's store.
Outcome RunOp(const std::shared_ptr<OpDesc>& op, const std::vector<In>& inputs,
              const std::vector<Out>& outputs, StringStore* store) {
  Outcome result;
  CpuKernelFactory factory = FindCpuKernel(op->GetType());
  if (factory == nullptr) {
    result.status = Failed("no kernel for " + op->GetType());
    return result;
  }
  std::unique_ptr<CpuKernel> kernel = factory();
  KernelSpec spec;
  spec.op = op.get();
  spec.strings = store;
  std::vector<std::vector<StringHead>> heads(inputs.size());
  std::vector<KernelTensor> tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const In& in = inputs[i];
    spec.inputs.push_back(testing::SpecOf(in.dtype, in.dims, true));
    const void* data = in.bytes.data();
    if (in.dtype == DT_STRING) {
      heads[i].resize(std::max<size_t>(in.strings.size(), 1));
      for (size_t k = 0; k < in.strings.size(); ++k) {
        WriteString(heads[i].data(), static_cast<int64_t>(k), in.strings[k]);
      }
      data = heads[i].data();
    }
    tensors.push_back({data, spec.inputs.back()});
  }
  for (const Out& o : outputs) {
    spec.outputs.push_back(
        testing::SpecOf(o.dtype, o.dims.value_or(std::vector<int64_t>{-1}), true));
  }
  result.status = kernel->Prepare(spec);
  if (!result.status.ok()) return result;
  std::vector<std::vector<uint8_t>> buffers(outputs.size());
  KernelArgs args;
  args.inputs = tensors;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<int64_t> dims = outputs[i].dims.value_or(std::vector<int64_t>{});
    if (!outputs[i].dims) dims = kernel->MaxOutputDimsOfValues(i, tensors);
    const int64_t count = testing::Count(dims);
    buffers[i].assign(static_cast<size_t>(std::max<int64_t>(count, 1) *
                                          TypeUtils::GetSizeByDataType(outputs[i].dtype)),
                      0xCD);
    args.outputs.push_back({buffers[i].data(), testing::SpecOf(outputs[i].dtype, dims, true)});
  }
  result.status = kernel->Run(args);
  if (!result.status.ok()) return result;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<int64_t> dims = args.outputs[i].spec.dims;
    if (kernel->OutputDimsDependOnData(i)) dims = kernel->ActualOutputDims(i);
    const int64_t count = testing::Count(dims);
    result.dims.push_back(dims);
    result.strings.emplace_back();
    result.bytes.emplace_back();
    if (outputs[i].dtype == DT_STRING) {
      for (int64_t k = 0; k < count; ++k) {
        result.strings.back().emplace_back(ReadString(buffers[i].data(), k));
      }
    } else {
      result.bytes.back().assign(
          buffers[i].begin(),
          buffers[i].begin() + count * TypeUtils::GetSizeByDataType(outputs[i].dtype));
    }
  }
  return result;
}

using StringList = std::vector<std::string>;
using Dims = std::vector<int64_t>;

// ---- StringConcat ----

TEST(StringConcatKernel, ConcatenatesWithBroadcasting) {
  StringStore store;
  auto op = Op("StringConcat");
  auto r = RunOp(op, {Strings({2}, {"abc", "def"}), Strings({2}, {".com", ".net"})},
                 {{DT_STRING, Dims{2}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"abc.com", "def.net"}));
  r = RunOp(op, {Strings({3}, {"cat", "dog", "snake"}), Strings({1}, {"s"})},
            {{DT_STRING, Dims{3}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"cats", "dogs", "snakes"}));
  r = RunOp(op, {Strings({}, {"cat"}), Strings({}, {"s"})}, {{DT_STRING, Dims{}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"cats"}));
  // [2, 1] with [3]: each row with each column.
  r = RunOp(op, {Strings({2, 1}, {"a", "b"}), Strings({3}, {"1", "2", "3"})},
            {{DT_STRING, Dims{2, 3}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"a1", "a2", "a3", "b1", "b2", "b3"}));
  r = RunOp(op, {Strings({2}, {"abc", ""}), Strings({2}, {"", "abc"})}, {{DT_STRING, Dims{2}}},
            &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"abc", "abc"}));
  r = RunOp(op, {Strings({1}, {"\xE4\xB8\xAD"}), Strings({1}, {"\xE6\x96\x87"})},
            {{DT_STRING, Dims{1}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"\xE4\xB8\xAD\xE6\x96\x87"}));
  EXPECT_GT(store.bytes(), 0);
}

TEST(StringConcatKernel, KeepsOnlyTheStringsItMakes) {
  // With one side empty, the other side's bytes serve as they are: nothing is kept.
  StringStore store;
  auto r = RunOp(Op("StringConcat"), {Strings({2}, {"abc", ""}), Strings({2}, {"", "xyz"})},
                 {{DT_STRING, Dims{2}}}, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"abc", "xyz"}));
  EXPECT_EQ(store.bytes(), 0);
}

TEST(StringConcatKernel, RefusesShapesThatDoNotBroadcast) {
  StringStore store;
  auto r = RunOp(Op("StringConcat"), {Strings({2}, {"a", "b"}), Strings({3}, {"x", "y", "z"})},
                 {{DT_STRING, Dims{3}}}, &store);
  ExpectError(r.status, "inputs X [2] and Y [3] do not broadcast");
}

TEST(StringConcatKernel, NeedsAStore) {
  auto r = RunOp(Op("StringConcat"), {Strings({1}, {"a"}), Strings({1}, {"b"})},
                 {{DT_STRING, Dims{1}}}, nullptr);
  ExpectError(r.status, "no string store");
}

TEST(StringConcatKernel, StopsAtTheStoresLimit) {
  StringStore store(/*limit=*/64);
  const std::string long_string(100, 'x');
  auto r = RunOp(Op("StringConcat"), {Strings({1}, {long_string}), Strings({1}, {"y"})},
                 {{DT_STRING, Dims{1}}}, &store);
  ExpectError(r.status, "memory limit");
}

TEST(StringConcatKernel, RefusesOtherDtypes) {
  StringStore store;
  auto r = RunOp(Op("StringConcat"), {Numbers<int64_t>({1}, {1}), Strings({1}, {"b"})},
                 {{DT_STRING, Dims{1}}}, &store);
  ExpectError(r.status, "input X is DT_INT64, not DT_STRING");
}

// ---- StringSplit ----

std::shared_ptr<OpDesc> SplitOp(std::optional<std::string> delimiter,
                                std::optional<int64_t> maxsplit) {
  auto op = Op("StringSplit");
  if (delimiter) AttrUtils::SetStr(op, "delimiter", *delimiter);
  if (maxsplit) AttrUtils::SetInt(op, "maxsplit", *maxsplit);
  return op;
}

Outcome Split(const std::shared_ptr<OpDesc>& op, const In& x) {
  return RunOp(op, {x}, {{DT_STRING, std::nullopt}, {DT_INT64, x.dims}}, nullptr);
}

TEST(StringSplitKernel, SplitsOnTheDelimiter) {
  auto r = Split(SplitOp(".", std::nullopt), Strings({2}, {"abc.com", "def.net"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{2, 2}));
  EXPECT_EQ(r.strings[0], (StringList{"abc", "com", "def", "net"}));
  EXPECT_EQ(r.Values<int64_t>(1), (std::vector<int64_t>{2, 2}));
  // Consecutive delimiters delimit empty strings; shorter rows are padded with "".
  r = Split(SplitOp("-", std::nullopt), Strings({2}, {"o-n-n--x-", "o-n----nx"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{2, 6}));
  EXPECT_EQ(r.strings[0], (StringList{"o", "n", "n", "", "x", "", "o", "n", "", "", "", "nx"}));
  // A delimiter of several bytes; an empty string is one empty substring.
  r = Split(SplitOp("::", std::nullopt), Strings({3}, {"a::b:c", "", "::"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"a", "b:c", "", "", "", ""}));
  EXPECT_EQ(r.Values<int64_t>(1), (std::vector<int64_t>{2, 1, 2}));
}

TEST(StringSplitKernel, SplitsOnRunsOfWhitespaceWithoutADelimiter) {
  const In x = Strings({3}, {"hello world !", "  hello   world !", " hello world   ! "});
  for (const auto& op : {SplitOp(std::nullopt, std::nullopt), SplitOp("", std::nullopt)}) {
    auto r = Split(op, x);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_EQ(r.dims[0], (Dims{3, 3}));
    EXPECT_EQ(r.strings[0],
              (StringList{"hello", "world", "!", "hello", "world", "!", "hello", "world", "!"}));
    EXPECT_EQ(r.Values<int64_t>(1), (std::vector<int64_t>{3, 3, 3}));
  }
  // Tabs, newlines and Unicode's spaces (U+00A0, U+3000) separate too; a blank string has none.
  auto r = Split(SplitOp(std::nullopt, std::nullopt), Strings({2}, {"a\tb\nc\xC2\xA0"
                                                                    "d\xE3\x80\x80"
                                                                    "e",
                                                                    " \t "}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"a", "b", "c", "d", "e", "", "", "", "", ""}));
  EXPECT_EQ(r.Values<int64_t>(1), (std::vector<int64_t>{5, 0}));
}

TEST(StringSplitKernel, StopsAfterMaxsplitSplits) {
  auto r = Split(SplitOp(std::nullopt, 2),
                 Strings({2, 2}, {"hello world", "def.net", "o n n x", "the quick brown fox"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{2, 2, 3}));
  EXPECT_EQ(r.strings[0], (StringList{"hello", "world", "", "def.net", "", "", "o", "n", "n x",
                                      "the", "quick", "brown fox"}));
  EXPECT_EQ(r.Values<int64_t>(1), (std::vector<int64_t>{2, 1, 3, 3}));
  // The rest after the last split keeps its trailing whitespace, as Python's split does.
  r = Split(SplitOp(std::nullopt, 1), Strings({1}, {"  a b  c "}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"a", "b  c "}));
  r = Split(SplitOp(",", 0), Strings({1}, {"a,b"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"a,b"}));
}

TEST(StringSplitKernel, EmptyInputGivesAnEmptyLastDim) {
  auto r = Split(SplitOp(std::nullopt, std::nullopt), Strings({0}, {}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{0, 0}));
  EXPECT_EQ(r.dims[1], (Dims{0}));
}

TEST(StringSplitKernel, RefusesANegativeMaxsplit) {
  auto r = Split(SplitOp(",", -1), Strings({1}, {"a,b"}));
  ExpectError(r.status, "attribute 'maxsplit' must not be negative, got -1");
}

TEST(StringSplitKernel, RefusesAnOutputWithoutRoom) {
  auto r = RunOp(SplitOp(",", std::nullopt), {Strings({2}, {"a,b,c", "d"})},
                 {{DT_STRING, Dims{2, 2}}, {DT_INT64, Dims{2}}}, nullptr);
  ExpectError(r.status, "output Y [2,2] has no room for 2 x 3 substrings");
}

// ---- RegexFullMatch ----

Outcome Match(const std::string& pattern, const In& x) {
  auto op = Op("RegexFullMatch");
  AttrUtils::SetStr(op, "pattern", pattern);
  return RunOp(op, {x}, {{DT_BOOL, x.dims}}, nullptr);
}

std::vector<uint8_t> Bools(std::initializer_list<int> v) { return {v.begin(), v.end()}; }

TEST(RegexFullMatchKernel, MatchesWholeStrings) {
  auto r = Match(R"(www\.[\w.-]+\.\bcom\b)",
                 Strings({3}, {"www.google.com", "www.facebook.com", "www.bbc.co.uk"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 1, 0}));
  r = Match(R"((\W|^)[\w.\-]{0,25}@(yahoo|gmail)\.com(\W|$))",
            Strings({2, 2}, {"account@gmail.com", "account@hotmail.com", "not email",
                             "account2@yahoo.com"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0, 0, 1}));
  // A prefix match is not a full match.
  r = Match("ab", Strings({2}, {"abc", "ab"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({0, 1}));
  r = Match("a+", Strings({2, 0}, {}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.bytes[0].empty());
}

TEST(RegexFullMatchKernel, TakesRe2Forms) {
  auto r = Match("(?i)hello", Strings({2}, {"HeLLo", "help"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0}));
  r = Match(R"((?P<year>\d{4})-(?<month>\d\d))", Strings({2}, {"2024-01", "24-01"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0}));
  r = Match(R"(\Aa[]b]*\z)", Strings({2}, {"a]b]", "a]c"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0}));
  r = Match("[^]x]+", Strings({2}, {"abc", "a]c"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0}));
  r = Match("[[:digit:]]+", Strings({2}, {"123", "12a"}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1, 0}));
}

TEST(RegexFullMatchKernel, MatchesLongStringsInLinearTime) {
  // A backtracking matcher recurses once per character and overflows the stack here.
  const std::string long_string(1 << 20, 'a');
  auto r = Match(".*a", Strings({1}, {long_string}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({1}));
  r = Match("(a|aa)*b", Strings({1}, {std::string(4096, 'a')}));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.bytes[0], Bools({0}));
}

TEST(RegexFullMatchKernel, RefusesPatternsItCannotMatchAsRe2Does) {
  const In x = Strings({1}, {"a"});
  ExpectError(Match("(a", x).status, "attribute 'pattern' '(a' is not a valid regular expression");
  ExpectError(Match(R"((a)\1)", x).status, "back-references are not RE2 syntax");
  ExpectError(Match("(?=a)a", x).status, "lookaround assertions are not RE2 syntax");
  ExpectError(Match(R"(\p{L}+)", x).status, "Unicode classes (\\p) are not supported");
  ExpectError(Match("a(?s).", x).status, "inline flags other than a leading (?i)");
}

// ---- StringNormalizer ----

std::shared_ptr<OpDesc> NormalizerOp(const std::string& action, int64_t case_sensitive,
                                     std::vector<std::string> stopwords) {
  auto op = Op("StringNormalizer");
  AttrUtils::SetStr(op, "case_change_action", action);
  AttrUtils::SetInt(op, "is_case_sensitive", case_sensitive);
  if (!stopwords.empty()) AttrUtils::SetListStr(op, "stopwords", std::move(stopwords));
  return op;
}

Outcome Normalize(const std::shared_ptr<OpDesc>& op, const In& x, StringStore* store) {
  return RunOp(op, {x}, {{DT_STRING, std::nullopt}}, store);
}

TEST(StringNormalizerKernel, RemovesStopwordsAndChangesCase) {
  StringStore store;
  const In days = Strings({4}, {"monday", "tuesday", "wednesday", "thursday"});
  auto r = Normalize(NormalizerOp("LOWER", 1, {"monday"}), days, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{3}));
  EXPECT_EQ(r.strings[0], (StringList{"tuesday", "wednesday", "thursday"}));
  r = Normalize(NormalizerOp("UPPER", 1, {"monday"}), days, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"TUESDAY", "WEDNESDAY", "THURSDAY"}));
  r = Normalize(NormalizerOp("NONE", 1, {"monday"}), days, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"tuesday", "wednesday", "thursday"}));
  // Case-insensitive stop words, [1, C].
  r = Normalize(
      NormalizerOp("UPPER", 0, {"monday"}),
      Strings({1, 6}, {"Monday", "tuesday", "wednesday", "Monday", "tuesday", "wednesday"}),
      &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{1, 4}));
  EXPECT_EQ(r.strings[0], (StringList{"TUESDAY", "WEDNESDAY", "TUESDAY", "WEDNESDAY"}));
  // Case-sensitive: "Monday" is not "monday".
  r = Normalize(NormalizerOp("NONE", 1, {"monday"}), Strings({2}, {"Monday", "monday"}), &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"Monday"}));
}

TEST(StringNormalizerKernel, NoWordLeftGivesOneEmptyString) {
  StringStore store;
  auto r =
      Normalize(NormalizerOp("LOWER", 1, {"monday"}), Strings({2}, {"monday", "monday"}), &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{1}));
  EXPECT_EQ(r.strings[0], (StringList{""}));
  r = Normalize(NormalizerOp("LOWER", 0, {"MONDAY"}), Strings({1, 1}, {"Monday"}), &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.dims[0], (Dims{1, 1}));
  EXPECT_EQ(r.strings[0], (StringList{""}));
}

TEST(StringNormalizerKernel, ChangesTheCaseOfLatinGreekAndCyrillicLetters) {
  StringStore store;
  const In words = Strings({3}, {"\xC3\x80\xC3\x89 Stra\xC3\x9F"
                                 "e",                                         // "ÀÉ Straße"
                                 "\xCE\xA9\xCE\xBC\xCE\xAD\xCE\xB3\xCE\xB1",  // "Ωμέγα"
                                 "\xD0\x9F\xD1\x80\xD0\xB8 \xE4\xB8\xAD"});   // "При 中"
  auto r = Normalize(NormalizerOp("LOWER", 1, {}), words, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"\xC3\xA0\xC3\xA9 stra\xC3\x9F"
                                      "e",                                         // "àé straße"
                                      "\xCF\x89\xCE\xBC\xCE\xAD\xCE\xB3\xCE\xB1",  // "ωμέγα"
                                      "\xD0\xBF\xD1\x80\xD0\xB8 \xE4\xB8\xAD"}));  // "при 中"
  r = Normalize(NormalizerOp("UPPER", 1, {}), words, &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"\xC3\x80\xC3\x89 STRA\xC3\x9F"
                                      "E",                                         // "ÀÉ STRAßE"
                                      "\xCE\xA9\xCE\x9C\xCE\x88\xCE\x93\xCE\x91",  // "ΩΜΈΓΑ"
                                      "\xD0\x9F\xD0\xA0\xD0\x98 \xE4\xB8\xAD"}));  // "ПРИ 中"
  // Stop words compare lowercased: "ÉTÉ" removes "été".
  r = Normalize(NormalizerOp("NONE", 0, {"\xC3\x89T\xC3\x89"}),
                Strings({2}, {"\xC3\xA9t\xC3\xA9", "hiver"}), &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"hiver"}));
}

TEST(StringNormalizerKernel, KeepsOnlyTheStringsItChanges) {
  StringStore store;
  auto r = Normalize(NormalizerOp("LOWER", 0, {}), Strings({2}, {"abc", "Abc"}), &store);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"abc", "abc"}));
  EXPECT_EQ(store.bytes(), 16);  // "abc" from "Abc", in one 16-byte slot
  // Without a case change it needs no store at all.
  r = Normalize(NormalizerOp("NONE", 0, {}), Strings({2}, {"monday", "tuesday"}), nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"monday", "tuesday"}));
}

TEST(StringNormalizerKernel, Errors) {
  StringStore store;
  ExpectError(Normalize(NormalizerOp("TITLE", 0, {}), Strings({1}, {"a"}), &store).status,
              "attribute 'case_change_action' must be LOWER, UPPER or NONE, not 'TITLE'");
  ExpectError(
      Normalize(NormalizerOp("NONE", 0, {}), Strings({2, 2}, {"a", "b", "c", "d"}), &store).status,
      "input X must be [C] or [1, C], not [2,2]");
  ExpectError(Normalize(NormalizerOp("LOWER", 0, {}), Strings({1}, {"a"}), nullptr).status,
              "no string store");
}

// ---- LabelEncoder ----

GeTensor StringTensor(std::vector<std::string> values) {
  return MakeStringTensor({static_cast<int64_t>(values.size())}, values);
}
template <typename T>
GeTensor NumberTensor(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return GeTensor(GeTensorDesc(GeShape({static_cast<int64_t>(values.size())}), FORMAT_ND,
                               testing::DtypeOf<T>()),
                  std::move(bytes));
}

TEST(LabelEncoderKernel, MapsStringsToIntegers) {
  auto op = Op("LabelEncoder");
  AttrUtils::SetListStr(op, "keys_strings", {"a", "b", "c"});
  AttrUtils::SetListInt(op, "values_int64s", std::vector<int64_t>{0, 1, 2});
  const In x = Strings({5}, {"a", "b", "d", "c", "g"});
  auto r = RunOp(op, {x}, {{DT_INT64, Dims{5}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.Values<int64_t>(0), (std::vector<int64_t>{0, 1, -1, 2, -1}));
  AttrUtils::SetInt(op, "default_int64", 42);
  r = RunOp(op, {x}, {{DT_INT64, Dims{5}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.Values<int64_t>(0), (std::vector<int64_t>{0, 1, 42, 2, 42}));
}

TEST(LabelEncoderKernel, TakesKeysAndValuesAsTensors) {
  const In x = Strings({5}, {"a", "b", "d", "c", "g"});
  for (bool keys_as_tensor : {true, false}) {
    auto op = Op("LabelEncoder");
    if (keys_as_tensor) {
      AttrUtils::SetTensor(op, "keys_tensor", StringTensor({"a", "b", "c"}));
    } else {
      AttrUtils::SetListStr(op, "keys_strings", {"a", "b", "c"});
    }
    AttrUtils::SetTensor(op, "values_tensor", NumberTensor<int16_t>({0, 1, 2}));
    AttrUtils::SetTensor(op, "default_tensor", NumberTensor<int16_t>({42}));
    auto r = RunOp(op, {x}, {{DT_INT16, Dims{5}}}, nullptr);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_EQ(r.Values<int16_t>(0), (std::vector<int16_t>{0, 1, 42, 2, 42}));
  }
  // int32 keys to doubles, with the integral default of -1 and the float one of -0.0.
  auto op = Op("LabelEncoder");
  AttrUtils::SetTensor(op, "keys_tensor", NumberTensor<int32_t>({7, 8}));
  AttrUtils::SetTensor(op, "values_tensor", NumberTensor<double>({0.5, 1.5}));
  auto r = RunOp(op, {Numbers<int32_t>({3}, {8, 9, 7})}, {{DT_DOUBLE, Dims{3}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const std::vector<double> got = r.Values<double>(0);
  EXPECT_EQ(got[0], 1.5);
  EXPECT_EQ(got[1], 0.0);
  EXPECT_TRUE(std::signbit(got[1]));
  EXPECT_EQ(got[2], 0.5);
}

TEST(LabelEncoderKernel, MapsIntegersToStringsItHolds) {
  auto op = Op("LabelEncoder");
  AttrUtils::SetListInt(op, "keys_int64s", std::vector<int64_t>{1, 2, 1});
  AttrUtils::SetListStr(op, "values_strings", {"one", "two", "uno"});
  AttrUtils::SetStr(op, "default_string", "");
  auto r = RunOp(op, {Numbers<int64_t>({2, 2}, {1, 2, 3, 1})}, {{DT_STRING, Dims{2, 2}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"uno", "two", "", "uno"}));  // the last of equal keys
  AttrUtils::SetListStr(op, "values_strings", {"one", "two", "three"});
  op->DelAttr("default_string");
  r = RunOp(op, {Numbers<int64_t>({1}, {5})}, {{DT_STRING, Dims{1}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"_Unused"}));
}

TEST(LabelEncoderKernel, NanKeysMatchEveryNan) {
  auto op = Op("LabelEncoder");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  AttrUtils::SetListFloat(op, "keys_floats", {1.5F, nan, 0.0F});
  AttrUtils::SetListInt(op, "values_int64s", std::vector<int64_t>{1, 2, 3});
  float other_nan = 0;
  const uint32_t bits = 0x7FC00123U;  // a NaN with another payload
  std::memcpy(&other_nan, &bits, sizeof(bits));
  auto r = RunOp(op, {Numbers<float>({5}, {other_nan, -0.0F, 1.5F, 7.0F, -nan})},
                 {{DT_INT64, Dims{5}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.Values<int64_t>(0), (std::vector<int64_t>{2, 3, 1, -1, 2}));
}

TEST(LabelEncoderKernel, Errors) {
  auto lengths = Op("LabelEncoder");
  AttrUtils::SetListStr(lengths, "keys_strings", {"a", "b", "c"});
  AttrUtils::SetListInt(lengths, "values_int64s", std::vector<int64_t>{0, 1});
  ExpectError(RunOp(lengths, {Strings({1}, {"a"})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "keys_strings holds 3 keys but values_int64s 2 values");
  auto both = Op("LabelEncoder");
  AttrUtils::SetListStr(both, "keys_strings", {"a"});
  AttrUtils::SetTensor(both, "keys_tensor", StringTensor({"a"}));
  AttrUtils::SetListInt(both, "values_int64s", std::vector<int64_t>{0});
  ExpectError(RunOp(both, {Strings({1}, {"a"})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "only one of keys_strings, keys_int64s, keys_floats or keys_tensor may be set, not "
              "both keys_strings and keys_tensor");
  auto none = Op("LabelEncoder");
  AttrUtils::SetListInt(none, "values_int64s", std::vector<int64_t>{0});
  ExpectError(RunOp(none, {Strings({1}, {"a"})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "one of keys_strings, keys_int64s, keys_floats or keys_tensor must be set");
  auto fine = Op("LabelEncoder");
  AttrUtils::SetListStr(fine, "keys_strings", {"a"});
  AttrUtils::SetListInt(fine, "values_int64s", std::vector<int64_t>{0});
  ExpectError(RunOp(fine, {Numbers<int64_t>({1}, {0})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "input X is DT_INT64 but the keys (keys_strings) are DT_STRING");
  AttrUtils::SetTensor(fine, "default_tensor", NumberTensor<int32_t>({7}));
  ExpectError(RunOp(fine, {Strings({1}, {"a"})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "attribute 'default_tensor' must be one DT_INT64 value");
  auto types = Op("LabelEncoder");
  AttrUtils::SetTensor(types, "keys_tensor", NumberTensor<uint8_t>({1}));
  AttrUtils::SetListInt(types, "values_int64s", std::vector<int64_t>{0});
  ExpectError(RunOp(types, {Numbers<uint8_t>({1}, {1})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "attribute 'keys_tensor' must be a tensor of string, int64, int32, int16, float");
}

// ---- CategoryMapper ----

std::shared_ptr<OpDesc> MapperOp() {
  auto op = Op("CategoryMapper");
  AttrUtils::SetListStr(op, "cats_strings", {"cat", "dog", "bird"});
  AttrUtils::SetListInt(op, "cats_int64s", std::vector<int64_t>{1, 2, 3});
  return op;
}

TEST(CategoryMapperKernel, MapsBothWays) {
  auto op = MapperOp();
  auto r = RunOp(op, {Strings({4}, {"dog", "cat", "cow", "bird"})}, {{DT_INT64, Dims{4}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.Values<int64_t>(0), (std::vector<int64_t>{2, 1, -1, 3}));
  AttrUtils::SetStr(op, "default_string", "unknown");
  r = RunOp(op, {Numbers<int64_t>({2, 2}, {3, 9, 1, 2})}, {{DT_STRING, Dims{2, 2}}}, nullptr);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.strings[0], (StringList{"bird", "unknown", "cat", "dog"}));
}

TEST(CategoryMapperKernel, Errors) {
  auto op = MapperOp();
  AttrUtils::SetListInt(op, "cats_int64s", std::vector<int64_t>{1, 2});
  ExpectError(RunOp(op, {Strings({1}, {"a"})}, {{DT_INT64, Dims{1}}}, nullptr).status,
              "cats_strings holds 3 strings but cats_int64s 2 integers");
  ExpectError(
      RunOp(MapperOp(), {Numbers<float>({1}, {1.0F})}, {{DT_STRING, Dims{1}}}, nullptr).status,
      "input dtype DT_FLOAT is not supported");
  ExpectError(RunOp(MapperOp(), {Strings({1}, {"a"})}, {{DT_STRING, Dims{1}}}, nullptr).status,
              "output Y is DT_STRING, not DT_INT64 for an input of DT_STRING");
}

}  // namespace
}  // namespace ge::host_cpu

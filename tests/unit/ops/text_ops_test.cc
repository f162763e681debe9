// Inference and verification of the operators over DT_STRING tensors (StringConcat, StringSplit,
// RegexFullMatch, StringNormalizer): output shapes and dtypes, -1 for what only the values give,
// and the attributes and shapes they refuse.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(StringConcatOps, BroadcastsItsInputs) {
  OpHarness h("StringConcat");
  h.In(0, {2, 1}, DT_STRING).In(1, {3}, DT_STRING);
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(), (Dims{2, 3}));
  EXPECT_EQ(h.OutType(), DT_STRING);
  OpHarness mismatch("StringConcat");
  mismatch.In(0, {2}, DT_STRING).In(1, {3}, DT_STRING);
  ExpectError(mismatch.Infer(), {"node 'op' (StringConcat)", "[2]", "[3]"});
  OpHarness numbers("StringConcat");
  numbers.In(0, {2}, DT_INT64).In(1, {2}, DT_STRING);
  ExpectError(numbers.Verify(), {"node 'op' (StringConcat)", "DT_INT64"});
}

TEST(StringSplitOps, AddsADimKnownOnlyAtRunTime) {
  OpHarness h("StringSplit");
  h.In(0, {2, 3}, DT_STRING).Attr("delimiter", ",").Attr("maxsplit", 2);
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(0), (Dims{2, 3, -1}));
  EXPECT_EQ(h.OutType(0), DT_STRING);
  EXPECT_EQ(h.Dims(1), (Dims{2, 3}));
  EXPECT_EQ(h.OutType(1), DT_INT64);
  OpHarness empty("StringSplit");
  empty.In(0, {0}, DT_STRING);
  ASSERT_TRUE(empty.Infer().ok()) << empty.Infer().ToString();
  EXPECT_EQ(empty.Dims(0), (Dims{0, 0}));
  OpHarness unknown("StringSplit");
  unknown.In(0, {-2}, DT_STRING);
  ASSERT_TRUE(unknown.Infer().ok()) << unknown.Infer().ToString();
  EXPECT_TRUE(unknown.Out(0).IsUnknownDimNum());
}

TEST(StringSplitOps, RefusesANegativeMaxsplit) {
  OpHarness h("StringSplit");
  h.In(0, {2}, DT_STRING).Attr("maxsplit", -1);
  ExpectError(h.Verify(),
              {"node 'op' (StringSplit)", "attribute 'maxsplit' must not be negative, got -1"});
}

TEST(RegexFullMatchOps, GivesABoolPerElement) {
  OpHarness h("RegexFullMatch");
  h.In(0, {2, 2}, DT_STRING).Attr("pattern", "a+");
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(), (Dims{2, 2}));
  EXPECT_EQ(h.OutType(), DT_BOOL);
  OpHarness missing("RegexFullMatch");
  missing.In(0, {2}, DT_STRING);
  ExpectError(missing.Verify(), {"node 'op' (RegexFullMatch)", "pattern"});
}

TEST(StringNormalizerOps, StopwordsMakeTheCountUnknown) {
  OpHarness h("StringNormalizer");
  h.In(0, {4}, DT_STRING).Attr("stopwords", std::vector<std::string>{"monday"});
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(), (Dims{-1}));
  EXPECT_EQ(h.OutType(), DT_STRING);
  OpHarness row("StringNormalizer");
  row.In(0, {1, 6}, DT_STRING).Attr("stopwords", std::vector<std::string>{"monday"});
  ASSERT_TRUE(row.Infer().ok()) << row.Infer().ToString();
  EXPECT_EQ(row.Dims(), (Dims{1, -1}));
  OpHarness none("StringNormalizer");
  none.In(0, {1, 6}, DT_STRING).Attr("case_change_action", "UPPER");
  ASSERT_TRUE(none.Infer().ok()) << none.Infer().ToString();
  EXPECT_EQ(none.Dims(), (Dims{1, 6}));
  OpHarness empty("StringNormalizer");  // no word left: one ""
  empty.In(0, {0}, DT_STRING);
  ASSERT_TRUE(empty.Infer().ok()) << empty.Infer().ToString();
  EXPECT_EQ(empty.Dims(), (Dims{1}));
}

TEST(StringNormalizerOps, Errors) {
  OpHarness matrix("StringNormalizer");
  matrix.In(0, {2, 3}, DT_STRING);
  ExpectError(matrix.Infer(), {"node 'op' (StringNormalizer)", "must be [C] or [1, C]"});
  OpHarness action("StringNormalizer");
  action.In(0, {2}, DT_STRING).Attr("case_change_action", "TITLE");
  ExpectError(action.Verify(), {"'case_change_action' must be LOWER, UPPER or NONE, not 'TITLE'"});
  for (const char* locale : {"en_US", "en_US.UTF-8", "de_DE.utf8", "C", "C.UTF-8", ""}) {
    OpHarness ok("StringNormalizer");
    ok.In(0, {2}, DT_STRING).Attr("locale", locale);
    EXPECT_TRUE(ok.Verify().ok()) << locale << ": " << ok.Verify().ToString();
  }
  OpHarness turkish("StringNormalizer");
  turkish.In(0, {2}, DT_STRING).Attr("locale", "tr_TR.UTF-8");
  ExpectError(turkish.Verify(), {"'tr_TR.UTF-8'", "case rules of its language"});
  OpHarness latin1("StringNormalizer");
  latin1.In(0, {2}, DT_STRING).Attr("locale", "de_DE.ISO-8859-1");
  ExpectError(latin1.Verify(), {"codeset other than UTF-8"});
  OpHarness junk("StringNormalizer");
  junk.In(0, {2}, DT_STRING).Attr("locale", "12345");
  ExpectError(junk.Verify(), {"'12345' is not a locale name"});
}

}  // namespace
}  // namespace ge::testing

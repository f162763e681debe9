// Tests of SymExpr (dim expressions, their text and their values) and the symbolic shapes of
// descs that kAttrSymbolicDims holds.
#include "ge/graph/sym_expr.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

SymExpr P(const std::string& text) {
  Result<SymExpr> e = SymExpr::Parse(text);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status().message();
  return e.ok() ? *e : SymExpr();
}

GeTensorDesc Desc(std::vector<int64_t> dims, std::vector<std::string> names = {}) {
  GeTensorDesc desc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT);
  if (!names.empty()) {
    EXPECT_TRUE(AttrUtils::SetListStr(desc, kAttrSymbolicDims, names));
  }
  return desc;
}

TEST(SymExpr, PrintsSymbolsFirstAndTheConstantLast) {
  EXPECT_EQ(SymExpr::Symbol("seq").ToString(), "seq");
  EXPECT_EQ(SymExpr::Constant(768).ToString(), "768");
  EXPECT_EQ(SymExpr().ToString(), "0");
  EXPECT_EQ(P("12*seq").ToString(), "seq*12");
  EXPECT_EQ(P("seq*batch").ToString(), "batch*seq");
  EXPECT_EQ(P("1+seq").ToString(), "seq+1");
  EXPECT_EQ(P("seq-1").ToString(), "seq-1");
  EXPECT_EQ(P("-seq+4").ToString(), "-seq+4");
  EXPECT_EQ(P("batch*seq*12 + seq + 1").ToString(), "batch*seq*12+seq+1");
  EXPECT_EQ(P("seq*seq").ToString(), "seq*seq");
}

TEST(SymExpr, EqualExpressionsCompareEqualHoweverTheyWereWritten) {
  EXPECT_EQ(P("batch*seq"), P("seq * batch"));
  EXPECT_EQ(P("2*(seq+1)"), P("seq+seq+2"));
  EXPECT_EQ(P("seq-seq"), SymExpr::Constant(0));
  EXPECT_NE(P("seq"), P("batch"));
  EXPECT_NE(P("seq*2"), P("seq+2"));
}

TEST(SymExpr, TextRoundTripsThroughParse) {
  for (const char* text : {"seq", "batch*seq*12", "seq+1", "-seq+4", "7", "0", "batch*batch-3"}) {
    EXPECT_EQ(P(P(text).ToString()), P(text)) << text;
  }
  // A name that is not an identifier is quoted, and reads back as one name.
  const SymExpr odd = SymExpr::Symbol("sequence length");
  EXPECT_EQ(odd.ToString(), "\"sequence length\"");
  EXPECT_EQ(P(odd.ToString()), odd);
  const SymExpr quote = SymExpr::Symbol("a\"b\\c");
  EXPECT_EQ(P(quote.ToString()), quote);
  const auto times = odd.Times(SymExpr::Constant(3));
  ASSERT_TRUE(times.has_value());
  EXPECT_EQ(P(times->ToString()), *times);
}

TEST(SymExpr, ParseErrorsSayWhereAndWhy) {
  for (const auto& [text, why] : std::map<std::string, std::string>{
           {"seq+", "an operand is missing"},
           {"(seq", "')' expected"},
           {"seq)", "unexpected ')'"},
           {"seq/2", "unexpected '/'"},
           {"\"open", "the quoted name is not closed"},
           {"99999999999999999999", "the number is too large"},
       }) {
    Result<SymExpr> e = SymExpr::Parse(text);
    ASSERT_FALSE(e.ok()) << text;
    EXPECT_NE(e.status().message().find(why), std::string::npos) << e.status().message();
    EXPECT_NE(e.status().message().find("'" + text + "'"), std::string::npos)
        << e.status().message();
  }
  const std::string deep = std::string(100, '(') + "seq" + std::string(100, ')');
  EXPECT_FALSE(SymExpr::Parse(deep).ok());
}

TEST(SymExpr, EvaluatesWithEverySymbolGivenAndRefusesOverflow) {
  const std::map<std::string, int64_t> values = {{"batch", 2}, {"seq", 128}};
  EXPECT_EQ(P("batch*seq*12+1").Evaluate(values), 2 * 128 * 12 + 1);
  EXPECT_EQ(P("seq-1").Evaluate(values), 127);
  EXPECT_EQ(P("heads*seq").Evaluate(values), std::nullopt);
  const int64_t big = std::numeric_limits<int64_t>::max() / 2 + 1;
  EXPECT_EQ(P("seq*2").Evaluate({{"seq", big}}), std::nullopt);
  EXPECT_EQ(P("seq+seq").Evaluate({{"seq", big}}), std::nullopt);
  EXPECT_FALSE(SymExpr::Constant(std::numeric_limits<int64_t>::max())
                   .Plus(SymExpr::Constant(1))
                   .has_value());
}

TEST(SymExpr, TellsConstantsAndLoneSymbolsApart) {
  EXPECT_EQ(P("3*4").ConstantValue(), 12);
  EXPECT_EQ(P("seq").ConstantValue(), std::nullopt);
  EXPECT_EQ(P("seq").SymbolName(), "seq");
  EXPECT_EQ(P("seq+1").SymbolName(), std::nullopt);
  EXPECT_EQ(P("seq*2").SymbolName(), std::nullopt);
  EXPECT_EQ(P("batch*seq+seq").Symbols(), (std::set<std::string>{"batch", "seq"}));
}

TEST(SymExpr, ADimNameIsOneNameUnlessItIsClearlyAnExpression) {
  EXPECT_EQ(SymExpr::FromDimName("batch_size"), SymExpr::Symbol("batch_size"));
  EXPECT_EQ(SymExpr::FromDimName("batch-size"), SymExpr::Symbol("batch-size"));
  EXPECT_EQ(SymExpr::FromDimName("sequence length"), SymExpr::Symbol("sequence length"));
  EXPECT_EQ(SymExpr::FromDimName("batch*seq"), P("batch*seq"));
  EXPECT_EQ(SymExpr::FromDimName("seq + 1"), P("seq+1"));
  EXPECT_EQ(SymExpr::FromDimName("seq-1"), P("seq-1"));
  EXPECT_EQ(SymExpr::FromDimName("64"), SymExpr::Constant(64));
  EXPECT_EQ(SymExpr::FromDimName("a*"), SymExpr::Symbol("a*"));  // not an expression after all
}

TEST(SymbolicShapes, KnownDimsAreConstantsAndUnknownOnesTheirExpressions) {
  const GeTensorDesc desc = Desc({-1, -1, 768, -1}, {"batch", "seq*12", "", ""});
  const auto dims = SymbolicDims(desc);
  ASSERT_TRUE(dims.has_value());
  ASSERT_EQ(dims->size(), 4u);
  EXPECT_EQ((*dims)[0], SymExpr::Symbol("batch"));
  EXPECT_EQ((*dims)[1], P("seq*12"));
  EXPECT_EQ((*dims)[2], SymExpr::Constant(768));
  EXPECT_EQ((*dims)[3], std::nullopt);
  EXPECT_EQ(SymbolicShapeString(desc), "[batch,seq*12,768,-1]");
  GeTensorDesc unknown_rank(GeShape({UNKNOWN_DIM_NUM}), FORMAT_ND, DT_FLOAT);
  EXPECT_FALSE(SymbolicDims(unknown_rank).has_value());
  EXPECT_EQ(SymbolicShapeString(unknown_rank), "[-2]");
}

TEST(SymbolicShapes, SetWritesOnlyTheDimsKnownAtRunTimeAndClearsWhenNoneHasOne) {
  GeTensorDesc desc = Desc({-1, 768, -1});
  SetSymbolicDims(desc, {P("batch*seq"), SymExpr::Constant(768), std::nullopt});
  std::vector<std::string> names;
  ASSERT_TRUE(AttrUtils::GetListStr(desc, kAttrSymbolicDims, names));
  EXPECT_EQ(names, (std::vector<std::string>{"batch*seq", "", ""}));
  EXPECT_EQ(SymbolicShapeString(desc), "[batch*seq,768,-1]");
  SetSymbolicDims(desc, {std::nullopt, std::nullopt, std::nullopt});
  EXPECT_FALSE(AttrUtils::GetListStr(desc, kAttrSymbolicDims, names));
}

TEST(SymbolicShapes, SameShapeNeedsEveryDimProvablyEqual) {
  EXPECT_TRUE(SameSymbolicShape(Desc({2, 3}), Desc({2, 3})));
  EXPECT_FALSE(SameSymbolicShape(Desc({2, 3}), Desc({2, 4})));
  EXPECT_FALSE(SameSymbolicShape(Desc({2, 3}), Desc({2, 3, 1})));
  EXPECT_TRUE(SameSymbolicShape(Desc({-1, -1, 8}, {"batch", "seq", ""}),
                                Desc({-1, -1, 8}, {"batch", "seq", ""})));
  EXPECT_TRUE(
      SameSymbolicShape(Desc({-1, 8}, {"seq*batch", ""}), Desc({-1, 8}, {"batch*seq", ""})));
  EXPECT_FALSE(SameSymbolicShape(Desc({-1, -1, 8}, {"batch", "seq", ""}),
                                 Desc({-1, -1, 8}, {"batch", "seq+1", ""})));
  // Unknown without an expression is equal to nothing, itself included.
  EXPECT_FALSE(SameSymbolicShape(Desc({-1, 8}), Desc({-1, 8})));
  EXPECT_FALSE(SameSymbolicShape(Desc({-1, 8}, {"seq", ""}), Desc({-1, 8})));
}

}  // namespace
}  // namespace ge

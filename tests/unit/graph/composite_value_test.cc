// Sequences and optionals: their type names, their stored form, and the errors of a stored value
// that is corrupt (truncated, a hostile count, nested too deep, an item whose bytes do not fit).
#include "ge/graph/composite_value.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

GeTensor Floats(std::vector<int64_t> dims, const std::vector<float>& values) {
  return GeTensor(GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT),
                  reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(float));
}

std::vector<float> FloatsOf(const GeTensor& t) {
  std::vector<float> v(t.GetSize() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), t.GetData().data(), t.GetSize());
  return v;
}

TEST(ValueType, NamesReadBackAndBadNamesAreRefused) {
  for (const char* name :
       {"tensor(float)", "seq(tensor(int64))", "opt(seq(tensor(string)))", "opt(tensor(bfloat16))",
        "seq(map(string,tensor(float)))", "map(int64,tensor(double))"}) {
    Result<ValueType> type = ParseValueType(name);
    ASSERT_TRUE(type.ok()) << name << ": " << type.status().message();
    EXPECT_EQ(ValueTypeName(*type), name);
  }
  EXPECT_EQ(ParseValueType("seq(tensor(int64))")->inner[0].dtype, DT_INT64);
  for (const char* bad : {"seq(tensor(int64)", "list(tensor(float))", "tensor(float)x",
                          "tensor(nonsense)", "map(float,tensor(float))", "map(string)",
                          "seq(seq(seq(seq(seq(seq(seq(seq(seq(tensor(float)"
                          ")))))))))"}) {
    EXPECT_FALSE(ParseValueType(bad).ok()) << bad;
  }
}

TEST(ValueType, DescsOfSequencesAreVariantScalarsNamingWhatTheyHold) {
  GeTensorDesc desc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT);
  ValueType element;
  element.dtype = DT_FLOAT;
  SetValueType(desc, SequenceOf(element));
  EXPECT_EQ(desc.GetDataType(), DT_VARIANT);
  EXPECT_TRUE(desc.GetShape().GetDims().empty());
  std::string name;
  ASSERT_TRUE(AttrUtils::GetStr(desc, kAttrValueType, name));
  EXPECT_EQ(name, "seq(tensor(float))");
  EXPECT_EQ(*ValueTypeOf(desc), SequenceOf(element));
  EXPECT_EQ(ValueTypeOf(GeTensorDesc(GeShape({1}), FORMAT_ND, DT_INT32))->dtype, DT_INT32);
  EXPECT_FALSE(ValueTypeOf(GeTensorDesc(GeShape(), FORMAT_ND, DT_VARIANT)).ok());
}

TEST(CompositeValue, StoredFormRoundTripsNestedValuesAndStrings) {
  CompositeValue inner{ValueType::Kind::kSequence,
                       {Floats({2}, {1.5F, -2.0F}), Floats({0, 3}, {}),
                        MakeStringTensor({2}, {"a", "\xc3\xa9t\xc3\xa9"})}};
  CompositeValue outer{ValueType::Kind::kOptional, {StoreComposite(inner)}};
  const GeTensor stored = StoreComposite(outer);
  EXPECT_EQ(stored.GetTensorDesc().GetDataType(), DT_VARIANT);
  Result<CompositeValue> back = LoadComposite(stored, "value");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->kind, ValueType::Kind::kOptional);
  ASSERT_EQ(back->items.size(), 1U);
  Result<CompositeValue> seq = LoadComposite(back->items[0], "inner");
  ASSERT_TRUE(seq.ok()) << seq.status().message();
  ASSERT_EQ(seq->items.size(), 3U);
  EXPECT_EQ(FloatsOf(seq->items[0]), (std::vector<float>{1.5F, -2.0F}));
  EXPECT_EQ(seq->items[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{0, 3}));
  Result<std::vector<std::string_view>> words = StringsOf(seq->items[2], "words");
  ASSERT_TRUE(words.ok()) << words.status().message();
  EXPECT_EQ((*words)[1], "\xc3\xa9t\xc3\xa9");
  // An empty optional holds nothing.
  Result<CompositeValue> none =
      LoadComposite(StoreComposite({ValueType::Kind::kOptional, {}}), "none");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->items.empty());
}

TEST(CompositeValue, CorruptStoredValuesAreRefusedNamingThePlace) {
  const GeTensor good = StoreComposite({ValueType::Kind::kSequence, {Floats({2}, {1, 2})}});
  const std::vector<uint8_t> bytes(good.GetData().begin(), good.GetData().end());
  auto load = [](std::vector<uint8_t> b) {
    return LoadComposite(
        GeTensor(GeTensorDesc(GeShape(std::vector<int64_t>{}), FORMAT_ND, DT_VARIANT), b.data(),
                 b.size()),
        "input 's'");
  };
  ASSERT_TRUE(load(bytes).ok());
  // Every truncation is an error, never a read past the end.
  for (size_t n = 0; n < bytes.size(); ++n) {
    Result<CompositeValue> r = load(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
    if (r.ok()) continue;  // only the padding after the last item may go
    EXPECT_NE(r.status().message().find("input 's'"), std::string::npos);
  }
  EXPECT_FALSE(load(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 40)).ok());
  std::vector<uint8_t> b = bytes;
  b[0] = 'X';  // not the header
  EXPECT_NE(load(b).status().message().find("GECV"), std::string::npos);
  b = bytes;
  const int64_t huge = int64_t{1} << 60;  // a count far beyond its bytes
  std::memcpy(b.data() + 16, &huge, sizeof(huge));
  EXPECT_NE(load(b).status().message().find("holds"), std::string::npos);
  b = bytes;
  const int64_t three = 3;  // bytes: 3 where the float32 [2] needs 8
  std::memcpy(b.data() + 48, &three, sizeof(three));
  EXPECT_FALSE(load(b).ok());
  b = bytes;
  const int64_t bad_dtype = 999;
  std::memcpy(b.data() + 24, &bad_dtype, sizeof(bad_dtype));
  EXPECT_NE(load(b).status().message().find("dtype"), std::string::npos);
  // A string item whose heads point outside its bytes.
  GeTensor words = MakeStringTensor({2}, {"ab", "c"});
  StringHead outside{1000, 2};
  std::memcpy(words.MutableData() + sizeof(StringHead), &outside, sizeof(outside));
  Result<CompositeValue> strings =
      LoadComposite(StoreComposite({ValueType::Kind::kSequence, {words}}), "input 's'");
  ASSERT_FALSE(strings.ok());
  EXPECT_NE(strings.status().message().find("string 1"), std::string::npos)
      << strings.status().message();
  // Values nested deeper than kMaxValueNesting.
  GeTensor nested = good;
  for (int i = 0; i <= kMaxValueNesting + 1; ++i) {
    nested = StoreComposite({ValueType::Kind::kSequence, {nested}});
  }
  Result<CompositeValue> deep = LoadComposite(nested, "deep");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nest"), std::string::npos) << deep.status().message();
}

TEST(CompositeValue, MapsHoldKeysAndValuesAsLongAsEachOther) {
  const std::vector<int64_t> keys = {3, 1};
  GeTensor key_tensor(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT64),
                      reinterpret_cast<const uint8_t*>(keys.data()), 16);
  Result<CompositeValue> map = LoadComposite(
      StoreComposite({ValueType::Kind::kMap, {key_tensor, Floats({2}, {0.25F, 0.75F})}}), "map");
  ASSERT_TRUE(map.ok()) << map.status().message();
  EXPECT_EQ(map->kind, ValueType::Kind::kMap);
  EXPECT_EQ(FloatsOf(map->items[1]), (std::vector<float>{0.25F, 0.75F}));
  // Three values for two keys, or one item only: refused.
  Result<CompositeValue> bad = LoadComposite(
      StoreComposite({ValueType::Kind::kMap, {key_tensor, Floats({3}, {1, 2, 3})}}), "map");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("as long"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(LoadComposite(StoreComposite({ValueType::Kind::kMap, {key_tensor}}), "map").ok());
}

}  // namespace
}  // namespace ge

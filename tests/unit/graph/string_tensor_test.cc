// DT_STRING values: GE's stored form, its checks against corrupt heads, the running heads and the
// run's store of string bytes.
#include "ge/graph/string_tensor.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

namespace ge {
namespace {

std::vector<std::string> Strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

void SetHead(std::vector<uint8_t>& bytes, size_t index, int64_t addr, int64_t len) {
  const StringHead head{addr, len};
  std::memcpy(bytes.data() + index * sizeof(StringHead), &head, sizeof(head));
}

TEST(StringTensor, StoredFormIsGesHeadsThenNulTerminatedBytes) {
  const std::vector<uint8_t> bytes = EncodeStrings({"ab", "", "xyz"});
  ASSERT_EQ(bytes.size(), 3 * 16 + 3 + 1 + 4);
  StringHead heads[3];
  std::memcpy(heads, bytes.data(), sizeof(heads));
  EXPECT_EQ(heads[0].addr, 48);
  EXPECT_EQ(heads[0].len, 2);
  EXPECT_EQ(heads[1].addr, 51);
  EXPECT_EQ(heads[1].len, 0);
  EXPECT_EQ(heads[2].addr, 52);
  EXPECT_EQ(heads[2].len, 3);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data() + 48)), "ab");
  EXPECT_EQ(bytes[50], 0);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data() + 52)), "xyz");
  EXPECT_EQ(bytes.back(), 0);
}

TEST(StringTensor, MakeAndReadBackKeepBytesExactly) {
  const std::string with_nul("a\0b", 3);
  const GeTensor t = MakeStringTensor({2, 2}, {"hello", "", with_nul, "\xc3\xa9t\xc3\xa9"});
  EXPECT_EQ(t.GetTensorDesc().GetDataType(), DT_STRING);
  Result<std::vector<std::string_view>> back = StringsOf(t, "t");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(Strings(*back), (std::vector<std::string>{"hello", "", with_nul, "\xc3\xa9t\xc3\xa9"}));
}

TEST(StringTensor, EmptyTensorHasNoBytes) {
  const GeTensor t = MakeStringTensor({0, 3}, {});
  EXPECT_EQ(t.GetSize(), 0U);
  Result<std::vector<std::string_view>> back = StringsOf(t, "t");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->empty());
}

TEST(StringTensor, CorruptHeadsAreRefusedNamingTheElement) {
  std::vector<uint8_t> bytes = EncodeStrings({"ab", "cd"});
  // Too short for its heads.
  Result<std::vector<std::string_view>> r = DecodeStrings(bytes.data(), 20, 2, "input 'x'");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("input 'x'"), std::string::npos);
  EXPECT_NE(r.status().message().find("heads"), std::string::npos);
  // Bytes past the end.
  SetHead(bytes, 1, 35, 100);
  r = DecodeStrings(bytes.data(), bytes.size(), 2, "input 'x'");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("string 1"), std::string::npos);
  EXPECT_NE(r.status().message().find("corrupt"), std::string::npos);
  // Bytes inside the heads, a negative length, an offset that overflows with its length.
  for (const auto& [addr, len] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 2}, {35, -1}, {std::numeric_limits<int64_t>::max(), 2}, {35, INT64_MAX}}) {
    SetHead(bytes, 1, addr, len);
    EXPECT_FALSE(DecodeStrings(bytes.data(), bytes.size(), 2, "x").ok()) << addr << " " << len;
  }
  // A count whose heads overflow int64.
  EXPECT_FALSE(DecodeStrings(bytes.data(), bytes.size(), INT64_MAX / 8, "x").ok());
  EXPECT_FALSE(DecodeStrings(bytes.data(), bytes.size(), -1, "x").ok());
}

TEST(StringTensor, StringsOfChecksTheType) {
  GeTensor t(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_FLOAT), std::vector<uint8_t>(8, 0));
  Result<std::vector<std::string_view>> r = StringsOf(t, "w");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("DT_FLOAT"), std::string::npos);
}

TEST(StringStore, BindGivesRunningHeadsIntoTheStoredBytes) {
  const GeTensor t = MakeStringTensor({3}, {"one", "two", "three"});
  StringStore store;
  Result<const StringHead*> heads = store.Bind(t.GetData().data(), t.GetSize(), 3, "x");
  ASSERT_TRUE(heads.ok()) << heads.status().message();
  EXPECT_EQ(ReadString(*heads, 0), "one");
  EXPECT_EQ(ReadString(*heads, 2), "three");
  // Running heads point into the stored bytes: no copy of the strings.
  EXPECT_EQ(ReadString(*heads, 1).data(), reinterpret_cast<const char*>(t.GetData().data()) + 52);
  // And back to the stored form, which owns its bytes.
  const GeTensor stored = StoreStrings(*heads, {3});
  EXPECT_EQ(Strings(*StringsOf(stored, "y")), (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_NE(stored.GetData().data(), t.GetData().data());
}

TEST(StringStore, KeepCopiesUntilClearAndHonoursItsLimit) {
  StringStore store(1000);
  std::string source = "temporary";
  Result<std::string_view> kept = store.Keep(source);
  ASSERT_TRUE(kept.ok());
  source.assign("overwritten");
  EXPECT_EQ(*kept, "temporary");
  EXPECT_GT(store.bytes(), 0);
  // Many small strings across blocks stay valid.
  std::vector<std::string_view> all;
  StringStore big;
  for (int i = 0; i < 20000; ++i) all.push_back(*big.Keep("value " + std::to_string(i)));
  EXPECT_EQ(all[0], "value 0");
  EXPECT_EQ(all[19999], "value 19999");
  // Over the limit: an error naming it.
  Result<std::string_view> over = store.Keep(std::string(2000, 'x'));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("memory limit of 1000"), std::string::npos);
  store.Clear();
  EXPECT_EQ(store.bytes(), 0);
  EXPECT_TRUE(store.Keep(std::string(900, 'y')).ok());
}

}  // namespace
}  // namespace ge

// Tests of the attribute layer: AttrStore, AttrValue for every value kind, and AttrUtils' typed
// access on OpDesc, ComputeGraph and GeTensorDesc.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using Type = AttrValue::Type;

// ---- sample values: two different values of every attribute type ----

GeTensorDesc SampleDesc(DataType dtype) {
  return GeTensorDesc(GeShape({1, 2}), FORMAT_NCHW, dtype);
}
GeTensor SampleTensor(uint8_t last) {
  return GeTensor(SampleDesc(DT_UINT8), std::vector<uint8_t>{1, 2, last});
}
const ComputeGraphPtr& GraphA() {
  static const ComputeGraphPtr kGraph = std::make_shared<ComputeGraph>("graph_a");
  return kGraph;
}
const ComputeGraphPtr& GraphB() {
  static const ComputeGraphPtr kGraph = std::make_shared<ComputeGraph>("graph_b");
  return kGraph;
}
NamedAttrs SampleNamed(int64_t k) {
  NamedAttrs named("func");
  named.MutableAttrMap().Set("k", AttrValue(k));
  return named;
}

template <typename T>
struct Sample;
template <>
struct Sample<int64_t> {
  static int64_t A() { return 42; }
  static int64_t B() { return -7; }
};
template <>
struct Sample<float> {
  static float A() { return 1.5F; }
  static float B() { return -2.25F; }
};
template <>
struct Sample<bool> {
  static bool A() { return true; }
  static bool B() { return false; }
};
template <>
struct Sample<std::string> {
  static std::string A() { return "hello"; }
  static std::string B() { return "world"; }
};
template <>
struct Sample<Buffer> {
  static Buffer A() { return Buffer{{1, 2, 3}}; }
  static Buffer B() { return Buffer{{1, 2}}; }
};
template <>
struct Sample<DataType> {
  static DataType A() { return DT_FLOAT16; }
  static DataType B() { return DT_INT4; }
};
template <>
struct Sample<GeTensor> {
  static GeTensor A() { return SampleTensor(3); }
  static GeTensor B() { return SampleTensor(4); }
};
template <>
struct Sample<GeTensorDesc> {
  static GeTensorDesc A() { return SampleDesc(DT_FLOAT); }
  static GeTensorDesc B() { return SampleDesc(DT_INT32); }
};
template <>
struct Sample<ComputeGraphPtr> {
  static ComputeGraphPtr A() { return GraphA(); }
  static ComputeGraphPtr B() { return GraphB(); }
};
template <>
struct Sample<NamedAttrs> {
  static NamedAttrs A() { return SampleNamed(1); }
  static NamedAttrs B() { return SampleNamed(2); }
};
template <>
struct Sample<std::vector<int64_t>> {
  static std::vector<int64_t> A() { return {1, 2, 3}; }
  static std::vector<int64_t> B() { return {1, 2}; }
};
template <>
struct Sample<std::vector<float>> {
  static std::vector<float> A() { return {0.5F, 1.0F}; }
  static std::vector<float> B() { return {}; }
};
template <>
struct Sample<std::vector<bool>> {
  static std::vector<bool> A() { return {true, false}; }
  static std::vector<bool> B() { return {false, true}; }
};
template <>
struct Sample<std::vector<std::string>> {
  static std::vector<std::string> A() { return {"a", "b"}; }
  static std::vector<std::string> B() { return {"b", "a"}; }
};
template <>
struct Sample<std::vector<Buffer>> {
  static std::vector<Buffer> A() { return {Buffer{{1}}, Buffer{{}}}; }
  static std::vector<Buffer> B() { return {Buffer{{2}}}; }
};
template <>
struct Sample<std::vector<DataType>> {
  static std::vector<DataType> A() { return {DT_FLOAT, DT_INT4}; }
  static std::vector<DataType> B() { return {DT_INT4}; }
};
template <>
struct Sample<std::vector<GeTensor>> {
  static std::vector<GeTensor> A() { return {SampleTensor(3), SampleTensor(4)}; }
  static std::vector<GeTensor> B() { return {SampleTensor(3)}; }
};
template <>
struct Sample<std::vector<GeTensorDesc>> {
  static std::vector<GeTensorDesc> A() { return {SampleDesc(DT_FLOAT)}; }
  static std::vector<GeTensorDesc> B() { return {SampleDesc(DT_BOOL)}; }
};
template <>
struct Sample<std::vector<ComputeGraphPtr>> {
  static std::vector<ComputeGraphPtr> A() { return {GraphA(), GraphB()}; }
  static std::vector<ComputeGraphPtr> B() { return {GraphB(), GraphA()}; }
};
template <>
struct Sample<std::vector<NamedAttrs>> {
  static std::vector<NamedAttrs> A() { return {SampleNamed(1)}; }
  static std::vector<NamedAttrs> B() { return {SampleNamed(1), SampleNamed(2)}; }
};
template <>
struct Sample<std::vector<std::vector<int64_t>>> {
  static std::vector<std::vector<int64_t>> A() { return {{1, 2}, {3}}; }
  static std::vector<std::vector<int64_t>> B() { return {{1}, {2, 3}}; }
};
template <>
struct Sample<std::vector<std::vector<float>>> {
  static std::vector<std::vector<float>> A() { return {{1.0F}, {}}; }
  static std::vector<std::vector<float>> B() { return {{}, {1.0F}}; }
};

/// Calls visit.template operator()<T>() for every non-empty alternative T of AttrValue::Variant.
template <typename Visitor, typename... Ts>
void ForEachAttrTypeImpl(Visitor&& visit, const std::variant<std::monostate, Ts...>* /*tag*/) {
  (visit.template operator()<Ts>(), ...);
}
template <typename Visitor>
void ForEachAttrType(Visitor&& visit) {
  ForEachAttrTypeImpl(visit, static_cast<const AttrValue::Variant*>(nullptr));
}

// ---- AttrStore ----

TEST(AttrStore, EmptyStoreHoldsNothing) {
  AttrStore store;
  EXPECT_TRUE(store.Empty());
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_FALSE(store.Has("a"));
  EXPECT_EQ(store.Get("a"), nullptr);
  EXPECT_EQ(store.GetMutable("a"), nullptr);
  EXPECT_FALSE(store.Delete("a"));
  EXPECT_TRUE(store.GetAllNames().empty());
  int visits = 0;
  store.ForEach([&](const std::string&, const AttrValue&) { ++visits; });
  EXPECT_EQ(visits, 0);
}

TEST(AttrStore, SetGetHasDelete) {
  AttrStore store;
  store.Set("alpha", AttrValue(int64_t{3}));
  ASSERT_TRUE(store.Has("alpha"));
  ASSERT_NE(store.Get("alpha"), nullptr);
  ASSERT_NE(store.Get("alpha")->Get<int64_t>(), nullptr);
  EXPECT_EQ(*store.Get("alpha")->Get<int64_t>(), 3);
  EXPECT_EQ(store.Size(), 1u);

  // Setting again replaces the value, whatever its type.
  store.Set("alpha", AttrValue(std::string("three")));
  EXPECT_EQ(store.Size(), 1u);
  EXPECT_EQ(store.Get("alpha")->Get<int64_t>(), nullptr);
  EXPECT_EQ(*store.Get("alpha")->Get<std::string>(), "three");

  EXPECT_TRUE(store.Delete("alpha"));
  EXPECT_FALSE(store.Has("alpha"));
  EXPECT_EQ(store.Get("alpha"), nullptr);
  EXPECT_FALSE(store.Delete("alpha")) << "a second delete finds nothing";
  EXPECT_TRUE(store.Empty());
}

TEST(AttrStore, GetMutableEditsTheStoredValue) {
  AttrStore store;
  store.Set("list", AttrValue(std::vector<int64_t>{1, 2}));
  AttrValue* value = store.GetMutable("list");
  ASSERT_NE(value, nullptr);
  value->GetMutable<std::vector<int64_t>>()->push_back(3);
  EXPECT_EQ(*store.Get("list")->Get<std::vector<int64_t>>(), (std::vector<int64_t>{1, 2, 3}));
}

TEST(AttrStore, NamesAreVisitedInNameOrder) {
  AttrStore store;
  for (const char* name : {"delta", "alpha", "charlie", "Bravo", "alpha2"}) {
    store.Set(name, AttrValue(true));
  }
  const std::vector<std::string> expected = {"Bravo", "alpha", "alpha2", "charlie", "delta"};
  EXPECT_EQ(store.GetAllNames(), expected);
  std::vector<std::string> visited;
  store.ForEach([&](const std::string& name, const AttrValue& value) {
    visited.push_back(name);
    EXPECT_EQ(value.GetType(), Type::kBool);
  });
  EXPECT_EQ(visited, expected);
}

TEST(AttrStore, CopiesAreDeep) {
  AttrStore original;
  original.Set("ints", AttrValue(std::vector<int64_t>{1, 2}));
  original.Set("desc", AttrValue(SampleDesc(DT_FLOAT)));

  AttrStore copy(original);
  EXPECT_EQ(copy, original);
  copy.GetMutable("ints")->GetMutable<std::vector<int64_t>>()->push_back(3);
  copy.GetMutable("desc")->GetMutable<GeTensorDesc>()->MutableAttrMap().Set("x", AttrValue(1));
  copy.Set("new", AttrValue(1.0F));
  EXPECT_EQ(*original.Get("ints")->Get<std::vector<int64_t>>(), (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(original.Get("desc")->Get<GeTensorDesc>()->HasAttr("x"));
  EXPECT_FALSE(original.Has("new"));
  EXPECT_NE(copy, original);

  AttrStore assigned;
  assigned.Set("old", AttrValue(false));
  assigned = original;
  EXPECT_EQ(assigned, original);
  EXPECT_FALSE(assigned.Has("old"));
  assigned.GetMutable("ints")->GetMutable<std::vector<int64_t>>()->clear();
  EXPECT_EQ(original.Get("ints")->Get<std::vector<int64_t>>()->size(), 2u);

  // Copying an empty store gives an empty store.
  AttrStore empty;
  assigned = empty;
  EXPECT_TRUE(assigned.Empty());
  AttrStore empty_copy(empty);
  EXPECT_TRUE(empty_copy.Empty());
}

TEST(AttrStore, SelfAssignmentKeepsTheValues) {
  AttrStore store;
  store.Set("a", AttrValue(1));
  const AttrStore& alias = store;
  store = alias;
  ASSERT_TRUE(store.Has("a"));
  EXPECT_EQ(*store.Get("a")->Get<int64_t>(), 1);
}

TEST(AttrStore, MoveTransfersTheValues) {
  AttrStore source;
  source.Set("a", AttrValue(1));
  AttrStore moved(std::move(source));
  EXPECT_TRUE(moved.Has("a"));
  AttrStore target;
  target.Set("b", AttrValue(2));
  target = std::move(moved);
  EXPECT_TRUE(target.Has("a"));
  EXPECT_FALSE(target.Has("b"));
}

TEST(AttrStore, EqualityComparesNamesTypesAndValues) {
  AttrStore a;
  AttrStore b;
  EXPECT_EQ(a, b);
  a.Set("x", AttrValue(int64_t{1}));
  EXPECT_NE(a, b);
  b.Set("x", AttrValue(int64_t{1}));
  EXPECT_EQ(a, b);

  AttrStore other_value;
  other_value.Set("x", AttrValue(int64_t{2}));
  EXPECT_NE(a, other_value);
  AttrStore other_name;
  other_name.Set("y", AttrValue(int64_t{1}));
  EXPECT_NE(a, other_name);
  AttrStore other_type;
  other_type.Set("x", AttrValue(true));
  EXPECT_NE(a, other_type);
  AttrStore other_float;
  other_float.Set("x", AttrValue(1.0F));
  EXPECT_NE(a, other_float);

  // A store emptied by Delete or Clear equals a store that never held anything.
  AttrStore emptied;
  emptied.Set("x", AttrValue(int64_t{1}));
  EXPECT_TRUE(emptied.Delete("x"));
  EXPECT_EQ(emptied, AttrStore());
  EXPECT_EQ(AttrStore(), emptied);
  a.Clear();
  EXPECT_TRUE(a.Empty());
  EXPECT_EQ(a, AttrStore());
}

// ---- AttrValue ----

TEST(AttrValue, DefaultIsNone) {
  const AttrValue value;
  EXPECT_TRUE(value.IsNone());
  EXPECT_EQ(value.GetType(), Type::kNone);
  EXPECT_EQ(value.Get<int64_t>(), nullptr);
  EXPECT_EQ(value, AttrValue());
  EXPECT_NE(value, AttrValue(int64_t{0}));
}

TEST(AttrValue, EveryTypeStoresItsValueAndReportsItsKind) {
  int types_seen = 0;
  ForEachAttrType([&]<typename T>() {
    ++types_seen;
    const Type kind = AttrTypeOf<T>();
    SCOPED_TRACE(AttrValue::TypeName(kind));
    const AttrValue a(Sample<T>::A());
    EXPECT_FALSE(a.IsNone());
    EXPECT_EQ(a.GetType(), kind);
    ASSERT_NE(a.template Get<T>(), nullptr);
    EXPECT_TRUE(*a.template Get<T>() == Sample<T>::A());
    EXPECT_EQ(a.variant().index(), static_cast<size_t>(kind));

    // Equality by value, including copies.
    const AttrValue same(Sample<T>::A());
    const AttrValue copy = a;
    EXPECT_EQ(a, same);
    EXPECT_EQ(a, copy);
    EXPECT_NE(a, AttrValue(Sample<T>::B()));
    EXPECT_NE(a, AttrValue());

    // The value can be replaced in place.
    AttrValue mutable_value = a;
    ASSERT_NE(mutable_value.template GetMutable<T>(), nullptr);
    *mutable_value.template GetMutable<T>() = Sample<T>::B();
    EXPECT_EQ(mutable_value, AttrValue(Sample<T>::B()));
    EXPECT_EQ(a, same) << "the original is not affected";
  });
  EXPECT_EQ(types_seen, static_cast<int>(std::variant_size_v<AttrValue::Variant>) - 1);
}

TEST(AttrValue, ReadingAsAnotherTypeFails) {
  ForEachAttrType([&]<typename T>() {
    const AttrValue value(Sample<T>::A());
    ForEachAttrType([&]<typename U>() {
      if constexpr (!std::is_same_v<T, U>) {
        EXPECT_EQ(value.template Get<U>(), nullptr)
            << AttrValue::TypeName(AttrTypeOf<T>()) << " read as "
            << AttrValue::TypeName(AttrTypeOf<U>());
        AttrValue copy = value;
        EXPECT_EQ(copy.template GetMutable<U>(), nullptr);
      }
    });
  });
}

TEST(AttrValue, ValuesOfDifferentTypesAreNeverEqual) {
  EXPECT_NE(AttrValue(int64_t{1}), AttrValue(true));
  EXPECT_NE(AttrValue(int64_t{1}), AttrValue(1.0F));
  EXPECT_NE(AttrValue(int64_t{1}), AttrValue(DT_INT8));  // DT_INT8 == 2, DT_FLOAT16 == 1
  EXPECT_NE(AttrValue(int64_t{1}), AttrValue(DT_FLOAT16));
  EXPECT_NE(AttrValue(std::string("\x01\x02")), AttrValue(Buffer{{1, 2}}));
  EXPECT_NE(AttrValue(std::vector<int64_t>{}), AttrValue(std::vector<float>{}));
  EXPECT_NE(AttrValue(std::vector<std::vector<int64_t>>{}),
            AttrValue(std::vector<std::vector<float>>{}));
}

TEST(AttrValue, NarrowIntegersAndCStringsAreWidened) {
  const AttrValue from_int32(int32_t{-5});
  ASSERT_EQ(from_int32.GetType(), Type::kInt);
  EXPECT_EQ(*from_int32.Get<int64_t>(), -5);

  const AttrValue from_uint32(uint32_t{4000000000U});
  ASSERT_EQ(from_uint32.GetType(), Type::kInt);
  EXPECT_EQ(*from_uint32.Get<int64_t>(), 4000000000LL);

  const AttrValue from_literal("text");
  ASSERT_EQ(from_literal.GetType(), Type::kString);
  EXPECT_EQ(*from_literal.Get<std::string>(), "text");

  const AttrValue from_list(std::vector<int32_t>{1, -2, 3});
  ASSERT_EQ(from_list.GetType(), Type::kListInt);
  EXPECT_EQ(*from_list.Get<std::vector<int64_t>>(), (std::vector<int64_t>{1, -2, 3}));

  EXPECT_EQ(AttrValue(true).GetType(), Type::kBool) << "bool is not widened to int";
  EXPECT_EQ(AttrValue(DT_INT32).GetType(), Type::kDataType) << "DataType is not an int";
}

TEST(AttrValue, GraphsCompareByIdentity) {
  auto twin_a = std::make_shared<ComputeGraph>("same_name");
  auto twin_b = std::make_shared<ComputeGraph>("same_name");
  EXPECT_EQ(AttrValue(twin_a), AttrValue(twin_a));
  EXPECT_NE(AttrValue(twin_a), AttrValue(twin_b));
  EXPECT_EQ(AttrValue(ComputeGraphPtr()), AttrValue(ComputeGraphPtr()));
  EXPECT_NE(AttrValue(ComputeGraphPtr()), AttrValue(twin_a));
}

TEST(AttrValue, TensorsCompareByBytesNotBuffers) {
  const GeTensor a = SampleTensor(9);
  const GeTensor b = SampleTensor(9);  // separate buffer, same bytes
  ASSERT_NE(a.GetData().data(), b.GetData().data());
  EXPECT_EQ(AttrValue(a), AttrValue(b));
  EXPECT_NE(AttrValue(a), AttrValue(SampleTensor(8)));
}

TEST(AttrValue, NestedAttributesAreCopiedDeeply) {
  GeTensorDesc desc = SampleDesc(DT_FLOAT);
  desc.MutableAttrMap().Set("inner", AttrValue(int64_t{1}));
  const AttrValue original(desc);
  AttrValue copy = original;
  copy.GetMutable<GeTensorDesc>()->MutableAttrMap().Set("inner", AttrValue(int64_t{2}));
  EXPECT_EQ(*original.Get<GeTensorDesc>()->GetAttrMap().Get("inner")->Get<int64_t>(), 1);
  EXPECT_NE(original, copy);

  const AttrValue named(SampleNamed(5));
  AttrValue named_copy = named;
  named_copy.GetMutable<NamedAttrs>()->SetName("other");
  EXPECT_EQ(named.Get<NamedAttrs>()->GetName(), "func");
  EXPECT_NE(named, named_copy);
}

TEST(AttrValue, TypeNamesAreGeNames) {
  const std::vector<std::pair<Type, std::string>> expected = {
      {Type::kNone, "VT_NONE"},
      {Type::kInt, "VT_INT"},
      {Type::kFloat, "VT_FLOAT"},
      {Type::kBool, "VT_BOOL"},
      {Type::kString, "VT_STRING"},
      {Type::kBytes, "VT_BYTES"},
      {Type::kDataType, "VT_DATA_TYPE"},
      {Type::kTensor, "VT_TENSOR"},
      {Type::kTensorDesc, "VT_TENSOR_DESC"},
      {Type::kGraph, "VT_GRAPH"},
      {Type::kNamedAttrs, "VT_NAMED_ATTRS"},
      {Type::kListInt, "VT_LIST_INT"},
      {Type::kListFloat, "VT_LIST_FLOAT"},
      {Type::kListBool, "VT_LIST_BOOL"},
      {Type::kListString, "VT_LIST_STRING"},
      {Type::kListBytes, "VT_LIST_BYTES"},
      {Type::kListDataType, "VT_LIST_DATA_TYPE"},
      {Type::kListTensor, "VT_LIST_TENSOR"},
      {Type::kListTensorDesc, "VT_LIST_TENSOR_DESC"},
      {Type::kListGraph, "VT_LIST_GRAPH"},
      {Type::kListNamedAttrs, "VT_LIST_NAMED_ATTRS"},
      {Type::kListListInt, "VT_LIST_LIST_INT"},
      {Type::kListListFloat, "VT_LIST_LIST_FLOAT"},
  };
  ASSERT_EQ(expected.size(), std::variant_size_v<AttrValue::Variant>) << "every kind is listed";
  for (const auto& [type, name] : expected) {
    EXPECT_EQ(AttrValue::TypeName(type), name) << static_cast<int>(type);
  }
  EXPECT_STREQ(AttrValue::TypeName(static_cast<Type>(200)), "VT_UNKNOWN");
}

// AttrTypeOf is constexpr: check the mapping at compile time.
static_assert(AttrTypeOf<int64_t>() == Type::kInt);
static_assert(AttrTypeOf<float>() == Type::kFloat);
static_assert(AttrTypeOf<bool>() == Type::kBool);
static_assert(AttrTypeOf<std::string>() == Type::kString);
static_assert(AttrTypeOf<Buffer>() == Type::kBytes);
static_assert(AttrTypeOf<DataType>() == Type::kDataType);
static_assert(AttrTypeOf<GeTensor>() == Type::kTensor);
static_assert(AttrTypeOf<GeTensorDesc>() == Type::kTensorDesc);
static_assert(AttrTypeOf<ComputeGraphPtr>() == Type::kGraph);
static_assert(AttrTypeOf<NamedAttrs>() == Type::kNamedAttrs);
static_assert(AttrTypeOf<std::vector<int64_t>>() == Type::kListInt);
static_assert(AttrTypeOf<std::vector<float>>() == Type::kListFloat);
static_assert(AttrTypeOf<std::vector<bool>>() == Type::kListBool);
static_assert(AttrTypeOf<std::vector<std::string>>() == Type::kListString);
static_assert(AttrTypeOf<std::vector<Buffer>>() == Type::kListBytes);
static_assert(AttrTypeOf<std::vector<DataType>>() == Type::kListDataType);
static_assert(AttrTypeOf<std::vector<GeTensor>>() == Type::kListTensor);
static_assert(AttrTypeOf<std::vector<GeTensorDesc>>() == Type::kListTensorDesc);
static_assert(AttrTypeOf<std::vector<ComputeGraphPtr>>() == Type::kListGraph);
static_assert(AttrTypeOf<std::vector<NamedAttrs>>() == Type::kListNamedAttrs);
static_assert(AttrTypeOf<std::vector<std::vector<int64_t>>>() == Type::kListListInt);
static_assert(AttrTypeOf<std::vector<std::vector<float>>>() == Type::kListListFloat);

TEST(AttrValue, AttrTypeOfMatchesTheStoredKind) {
  ForEachAttrType([&]<typename T>() {
    EXPECT_EQ(AttrValue(Sample<T>::A()).GetType(), AttrTypeOf<T>())
        << AttrValue::TypeName(AttrTypeOf<T>());
  });
}

TEST(NamedAttrs, EqualityCoversNameAndAttributes) {
  NamedAttrs a("f");
  NamedAttrs b("f");
  EXPECT_EQ(a, b);
  b.SetName("g");
  EXPECT_FALSE(a == b);
  b.SetName("f");
  b.MutableAttrMap().Set("k", AttrValue(1));
  EXPECT_FALSE(a == b);
  EXPECT_EQ(b.GetName(), "f");
}

// ---- AttrUtils ----

/// Sets and reads back every attribute type through GE's named accessors on `holder`.
template <typename Holder>
void RoundTripEveryNamedAccessor(Holder& holder) {
  EXPECT_TRUE(AttrUtils::SetInt(holder, "int", -12));
  int64_t i64 = 0;
  EXPECT_TRUE(AttrUtils::GetInt(holder, "int", i64));
  EXPECT_EQ(i64, -12);
  int32_t i32 = 0;
  EXPECT_TRUE(AttrUtils::GetInt(holder, "int", i32));
  EXPECT_EQ(i32, -12);

  EXPECT_TRUE(AttrUtils::SetFloat(holder, "float", 0.25F));
  float f = 0;
  EXPECT_TRUE(AttrUtils::GetFloat(holder, "float", f));
  EXPECT_EQ(f, 0.25F);

  EXPECT_TRUE(AttrUtils::SetBool(holder, "bool", true));
  bool b = false;
  EXPECT_TRUE(AttrUtils::GetBool(holder, "bool", b));
  EXPECT_TRUE(b);

  EXPECT_TRUE(AttrUtils::SetStr(holder, "str", "abc"));
  std::string s;
  EXPECT_TRUE(AttrUtils::GetStr(holder, "str", s));
  EXPECT_EQ(s, "abc");

  EXPECT_TRUE(AttrUtils::SetBytes(holder, "bytes", Sample<Buffer>::A()));
  Buffer bytes;
  EXPECT_TRUE(AttrUtils::GetBytes(holder, "bytes", bytes));
  EXPECT_EQ(bytes, Sample<Buffer>::A());

  EXPECT_TRUE(AttrUtils::SetDataType(holder, "dtype", DT_BF16));
  DataType dtype = DT_UNDEFINED;
  EXPECT_TRUE(AttrUtils::GetDataType(holder, "dtype", dtype));
  EXPECT_EQ(dtype, DT_BF16);

  EXPECT_TRUE(AttrUtils::SetTensor(holder, "tensor", Sample<GeTensor>::A()));
  GeTensor tensor;
  EXPECT_TRUE(AttrUtils::GetTensor(holder, "tensor", tensor));
  EXPECT_EQ(tensor, Sample<GeTensor>::A());

  EXPECT_TRUE(AttrUtils::SetTensorDesc(holder, "desc", Sample<GeTensorDesc>::A()));
  GeTensorDesc desc;
  EXPECT_TRUE(AttrUtils::GetTensorDesc(holder, "desc", desc));
  EXPECT_EQ(desc, Sample<GeTensorDesc>::A());

  EXPECT_TRUE(AttrUtils::SetGraph(holder, "graph", GraphA()));
  ComputeGraphPtr graph;
  EXPECT_TRUE(AttrUtils::GetGraph(holder, "graph", graph));
  EXPECT_EQ(graph, GraphA());

  EXPECT_TRUE(AttrUtils::SetNamedAttrs(holder, "named", Sample<NamedAttrs>::A()));
  NamedAttrs named;
  EXPECT_TRUE(AttrUtils::GetNamedAttrs(holder, "named", named));
  EXPECT_EQ(named, Sample<NamedAttrs>::A());

  EXPECT_TRUE(AttrUtils::SetListInt(holder, "list_int", std::vector<int64_t>{1, 2}));
  std::vector<int64_t> list_int;
  EXPECT_TRUE(AttrUtils::GetListInt(holder, "list_int", list_int));
  EXPECT_EQ(list_int, (std::vector<int64_t>{1, 2}));

  EXPECT_TRUE(AttrUtils::SetListFloat(holder, "list_float", Sample<std::vector<float>>::A()));
  std::vector<float> list_float;
  EXPECT_TRUE(AttrUtils::GetListFloat(holder, "list_float", list_float));
  EXPECT_EQ(list_float, Sample<std::vector<float>>::A());

  EXPECT_TRUE(AttrUtils::SetListBool(holder, "list_bool", Sample<std::vector<bool>>::A()));
  std::vector<bool> list_bool;
  EXPECT_TRUE(AttrUtils::GetListBool(holder, "list_bool", list_bool));
  EXPECT_EQ(list_bool, Sample<std::vector<bool>>::A());

  EXPECT_TRUE(AttrUtils::SetListStr(holder, "list_str", Sample<std::vector<std::string>>::A()));
  std::vector<std::string> list_str;
  EXPECT_TRUE(AttrUtils::GetListStr(holder, "list_str", list_str));
  EXPECT_EQ(list_str, Sample<std::vector<std::string>>::A());

  EXPECT_TRUE(AttrUtils::SetListBytes(holder, "list_bytes", Sample<std::vector<Buffer>>::A()));
  std::vector<Buffer> list_bytes;
  EXPECT_TRUE(AttrUtils::GetListBytes(holder, "list_bytes", list_bytes));
  EXPECT_EQ(list_bytes, Sample<std::vector<Buffer>>::A());

  EXPECT_TRUE(AttrUtils::SetListDataType(holder, "list_dtype", Sample<std::vector<DataType>>::A()));
  std::vector<DataType> list_dtype;
  EXPECT_TRUE(AttrUtils::GetListDataType(holder, "list_dtype", list_dtype));
  EXPECT_EQ(list_dtype, Sample<std::vector<DataType>>::A());

  EXPECT_TRUE(AttrUtils::SetListTensor(holder, "list_tensor", Sample<std::vector<GeTensor>>::A()));
  std::vector<GeTensor> list_tensor;
  EXPECT_TRUE(AttrUtils::GetListTensor(holder, "list_tensor", list_tensor));
  EXPECT_EQ(list_tensor, Sample<std::vector<GeTensor>>::A());

  EXPECT_TRUE(
      AttrUtils::SetListTensorDesc(holder, "list_desc", Sample<std::vector<GeTensorDesc>>::A()));
  std::vector<GeTensorDesc> list_desc;
  EXPECT_TRUE(AttrUtils::GetListTensorDesc(holder, "list_desc", list_desc));
  EXPECT_EQ(list_desc, Sample<std::vector<GeTensorDesc>>::A());

  EXPECT_TRUE(
      AttrUtils::SetListGraph(holder, "list_graph", Sample<std::vector<ComputeGraphPtr>>::A()));
  std::vector<ComputeGraphPtr> list_graph;
  EXPECT_TRUE(AttrUtils::GetListGraph(holder, "list_graph", list_graph));
  EXPECT_EQ(list_graph, Sample<std::vector<ComputeGraphPtr>>::A());

  EXPECT_TRUE(
      AttrUtils::SetListNamedAttrs(holder, "list_named", Sample<std::vector<NamedAttrs>>::A()));
  std::vector<NamedAttrs> list_named;
  EXPECT_TRUE(AttrUtils::GetListNamedAttrs(holder, "list_named", list_named));
  EXPECT_EQ(list_named, Sample<std::vector<NamedAttrs>>::A());

  EXPECT_TRUE(AttrUtils::SetListListInt(holder, "list_list_int",
                                        Sample<std::vector<std::vector<int64_t>>>::A()));
  std::vector<std::vector<int64_t>> list_list_int;
  EXPECT_TRUE(AttrUtils::GetListListInt(holder, "list_list_int", list_list_int));
  EXPECT_EQ(list_list_int, Sample<std::vector<std::vector<int64_t>>>::A());

  EXPECT_TRUE(AttrUtils::SetListListFloat(holder, "list_list_float",
                                          Sample<std::vector<std::vector<float>>>::A()));
  std::vector<std::vector<float>> list_list_float;
  EXPECT_TRUE(AttrUtils::GetListListFloat(holder, "list_list_float", list_list_float));
  EXPECT_EQ(list_list_float, Sample<std::vector<std::vector<float>>>::A());
}

TEST(AttrUtils, NamedAccessorsRoundTripOnOpDesc) {
  auto op = std::make_shared<OpDesc>("conv", "Conv2D");
  RoundTripEveryNamedAccessor(op);
  EXPECT_EQ(op->GetAttrMap().Size(), 22u);
  EXPECT_TRUE(AttrUtils::HasAttr(op, "list_list_float"));
}

TEST(AttrUtils, NamedAccessorsRoundTripOnComputeGraph) {
  auto graph = std::make_shared<ComputeGraph>("g");
  RoundTripEveryNamedAccessor(graph);
  EXPECT_EQ(graph->GetAttrMap().Size(), 22u);
}

TEST(AttrUtils, NamedAccessorsRoundTripOnTensorDesc) {
  GeTensorDesc desc = SampleDesc(DT_FLOAT);
  RoundTripEveryNamedAccessor(desc);
  EXPECT_EQ(desc.GetAttrMap().Size(), 22u);
  const GeTensorDesc copy = desc;
  EXPECT_EQ(copy.GetAttrMap(), desc.GetAttrMap()) << "a desc copy carries its attributes";
}

TEST(AttrUtils, NamedAccessorsRoundTripOnNamedAttrs) {
  NamedAttrs named("f");
  RoundTripEveryNamedAccessor(named);
  EXPECT_EQ(named.GetAttrMap().Size(), 22u);
}

TEST(AttrUtils, GenericGetAndSetWorkForEveryType) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  ForEachAttrType([&]<typename T>() {
    const std::string name = AttrValue::TypeName(AttrTypeOf<T>());
    EXPECT_TRUE(AttrUtils::Set(op, name, Sample<T>::A()));
    T out = Sample<T>::B();
    EXPECT_TRUE(AttrUtils::Get(op, name, out)) << name;
    EXPECT_TRUE(out == Sample<T>::A()) << name;
    const T* ptr = AttrUtils::GetPtr<T>(op, name);
    ASSERT_NE(ptr, nullptr) << name;
    EXPECT_EQ(ptr, op->GetAttrMap().Get(name)->Get<T>()) << "GetPtr does not copy";
  });
}

TEST(AttrUtils, WrongTypeGetFailsAndLeavesTheOutputUnchanged) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  ForEachAttrType([&]<typename T>() {
    const std::string name = AttrValue::TypeName(AttrTypeOf<T>());
    ASSERT_TRUE(AttrUtils::Set(op, name, Sample<T>::A()));
    ForEachAttrType([&]<typename U>() {
      if constexpr (!std::is_same_v<T, U>) {
        U out = Sample<U>::B();
        EXPECT_FALSE(AttrUtils::Get(op, name, out))
            << name << " read as " << AttrValue::TypeName(AttrTypeOf<U>());
        EXPECT_TRUE(out == Sample<U>::B())
            << "output changed reading " << name << " as " << AttrValue::TypeName(AttrTypeOf<U>());
        EXPECT_EQ(AttrUtils::GetPtr<U>(op, name), nullptr);
      }
    });
  });
}

TEST(AttrUtils, NamedGettersRefuseOtherTypes) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  ASSERT_TRUE(AttrUtils::SetFloat(op, "f", 2.5F));
  ASSERT_TRUE(AttrUtils::SetInt(op, "i", 7));
  ASSERT_TRUE(AttrUtils::SetListFloat(op, "lf", {1.0F}));

  int64_t i64 = 99;
  EXPECT_FALSE(AttrUtils::GetInt(op, "f", i64));
  EXPECT_EQ(i64, 99);
  int32_t i32 = 99;
  EXPECT_FALSE(AttrUtils::GetInt(op, "f", i32));
  EXPECT_EQ(i32, 99);
  uint32_t u32 = 99;
  EXPECT_FALSE(AttrUtils::GetInt(op, "f", u32));
  EXPECT_EQ(u32, 99u);
  float f = 9.5F;
  EXPECT_FALSE(AttrUtils::GetFloat(op, "i", f));
  EXPECT_EQ(f, 9.5F);
  bool b = true;
  EXPECT_FALSE(AttrUtils::GetBool(op, "i", b)) << "an int is not a bool";
  EXPECT_TRUE(b);
  std::string s = "keep";
  EXPECT_FALSE(AttrUtils::GetStr(op, "i", s));
  EXPECT_EQ(s, "keep");
  std::vector<int32_t> narrow_list = {5};
  EXPECT_FALSE(AttrUtils::GetListInt(op, "lf", narrow_list));
  EXPECT_EQ(narrow_list, std::vector<int32_t>{5});
  std::vector<int64_t> wide_list = {5};
  EXPECT_FALSE(AttrUtils::GetListInt(op, "i", wide_list)) << "a scalar is not a list";
  EXPECT_EQ(wide_list, std::vector<int64_t>{5});

  // Absent attributes behave the same.
  EXPECT_FALSE(AttrUtils::GetInt(op, "missing", i64));
  EXPECT_EQ(i64, 99);
  EXPECT_FALSE(AttrUtils::GetListInt(op, "missing", narrow_list));
  EXPECT_EQ(narrow_list, std::vector<int32_t>{5});
}

TEST(AttrUtils, GetIntIntoInt32RefusesOutOfRangeValues) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
  int32_t out = 0;

  ASSERT_TRUE(AttrUtils::SetInt(op, "v", kMax32));
  EXPECT_TRUE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, kMax32);
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", kMin32));
  EXPECT_TRUE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, kMin32);

  out = 17;
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", kMax32 + 1));
  EXPECT_FALSE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, 17);
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", kMin32 - 1));
  EXPECT_FALSE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, 17);
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", std::numeric_limits<int64_t>::max()));
  EXPECT_FALSE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, 17);
  // The stored value itself is intact.
  int64_t wide = 0;
  EXPECT_TRUE(AttrUtils::GetInt(op, "v", wide));
  EXPECT_EQ(wide, std::numeric_limits<int64_t>::max());
}

TEST(AttrUtils, GetIntIntoUint32RefusesNegativeAndTooLargeValues) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  uint32_t out = 3;
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", -1));
  EXPECT_FALSE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, 3u);
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", int64_t{1} << 32));
  EXPECT_FALSE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, 3u);
  ASSERT_TRUE(AttrUtils::SetInt(op, "v", std::numeric_limits<uint32_t>::max()));
  EXPECT_TRUE(AttrUtils::GetInt(op, "v", out));
  EXPECT_EQ(out, std::numeric_limits<uint32_t>::max());
}

TEST(AttrUtils, GetListIntNarrowsToInt32WhenEveryElementFits) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  const std::vector<int64_t> fits = {0, -1, std::numeric_limits<int32_t>::max(),
                                     std::numeric_limits<int32_t>::min()};
  ASSERT_TRUE(AttrUtils::SetListInt(op, "v", fits));
  std::vector<int32_t> out;
  EXPECT_TRUE(AttrUtils::GetListInt(op, "v", out));
  EXPECT_EQ(out, (std::vector<int32_t>{0, -1, std::numeric_limits<int32_t>::max(),
                                       std::numeric_limits<int32_t>::min()}));

  ASSERT_TRUE(AttrUtils::SetListInt(op, "big", std::vector<int64_t>{1, int64_t{1} << 40, 3}));
  out = {7, 8};
  EXPECT_FALSE(AttrUtils::GetListInt(op, "big", out));
  EXPECT_EQ(out, (std::vector<int32_t>{7, 8})) << "not even partly overwritten";

  ASSERT_TRUE(AttrUtils::SetListInt(op, "empty", std::vector<int64_t>{}));
  EXPECT_TRUE(AttrUtils::GetListInt(op, "empty", out));
  EXPECT_TRUE(out.empty());
}

TEST(AttrUtils, SetListIntFromInt32StoresAListOfInt64) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  ASSERT_TRUE(AttrUtils::SetListInt(op, "v", std::vector<int32_t>{3, -4}));
  const AttrValue* value = AttrUtils::GetAttr(op, "v");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->GetType(), Type::kListInt);
  std::vector<int64_t> wide;
  EXPECT_TRUE(AttrUtils::GetListInt(op, "v", wide));
  EXPECT_EQ(wide, (std::vector<int64_t>{3, -4}));
}

TEST(AttrUtils, HasAndDelAttr) {
  auto graph = std::make_shared<ComputeGraph>("g");
  EXPECT_FALSE(AttrUtils::HasAttr(graph, "a"));
  EXPECT_FALSE(AttrUtils::DelAttr(graph, "a"));
  ASSERT_TRUE(AttrUtils::SetBool(graph, "a", false));
  EXPECT_TRUE(AttrUtils::HasAttr(graph, "a"));
  EXPECT_TRUE(graph->HasAttr("a"));
  EXPECT_TRUE(AttrUtils::DelAttr(graph, "a"));
  EXPECT_FALSE(AttrUtils::HasAttr(graph, "a"));
  EXPECT_FALSE(graph->DelAttr("a"));
}

TEST(AttrUtils, NullHoldersAreRefused) {
  const OpDescPtr null_op;
  const ComputeGraphPtr null_graph;
  EXPECT_FALSE(AttrUtils::SetInt(null_op, "a", 1));
  EXPECT_FALSE(AttrUtils::SetStr(null_graph, "a", "x"));
  int64_t out = 5;
  EXPECT_FALSE(AttrUtils::GetInt(null_op, "a", out));
  EXPECT_EQ(out, 5);
  EXPECT_FALSE(AttrUtils::HasAttr(null_op, "a"));
  EXPECT_FALSE(AttrUtils::DelAttr(null_graph, "a"));
  EXPECT_EQ(AttrUtils::GetAttr(null_op, "a"), nullptr);
  EXPECT_EQ(AttrUtils::GetPtr<int64_t>(null_op, "a"), nullptr);
}

TEST(AttrUtils, ConstHoldersCanBeRead) {
  auto op = std::make_shared<OpDesc>("op", "Op");
  ASSERT_TRUE(AttrUtils::SetInt(op, "a", 4));
  const ConstOpDescPtr const_op = op;
  int64_t out = 0;
  EXPECT_TRUE(AttrUtils::GetInt(const_op, "a", out));
  EXPECT_EQ(out, 4);
  const GeTensorDesc desc = [] {
    GeTensorDesc d;
    EXPECT_TRUE(AttrUtils::SetStr(d, "s", "v"));
    return d;
  }();
  std::string s;
  EXPECT_TRUE(AttrUtils::GetStr(desc, "s", s));
  EXPECT_EQ(s, "v");
}

TEST(AttrUtils, SetGraphKeepsTheSamePointer) {
  auto op = std::make_shared<OpDesc>("if", "If");
  auto branch = std::make_shared<ComputeGraph>("then");
  ASSERT_TRUE(AttrUtils::SetGraph(op, "then_branch", branch));
  ComputeGraphPtr out;
  ASSERT_TRUE(AttrUtils::GetGraph(op, "then_branch", out));
  EXPECT_EQ(out.get(), branch.get());
}

}  // namespace
}  // namespace ge

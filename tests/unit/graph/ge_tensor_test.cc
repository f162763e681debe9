// Tests of GeShape, GeTensorDesc, GeTensor and TensorUtils' size rules
// (docs/ge_compatibility.md, "Tensor sizes").
#include "ge/graph/ge_tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "status_test_util.h"

namespace ge {
namespace {

using testing::HasError;
using testing::IsOk;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// ---- GeShape ----

TEST(GeShape, ScalarHasShapeSizeZeroButOneElement) {
  const GeShape scalar;
  EXPECT_TRUE(scalar.IsScalar());
  EXPECT_EQ(scalar.GetDimNum(), 0u);
  EXPECT_EQ(scalar.GetShapeSize(), 0) << "GE's definition";
  EXPECT_EQ(scalar.GetElementCount(), 1) << "what kernels need";
  EXPECT_FALSE(scalar.IsUnknownShape());
  EXPECT_FALSE(scalar.IsUnknownDimNum());
  EXPECT_EQ(scalar.ToString(), "[]");
  EXPECT_EQ(GeShape(std::vector<int64_t>{}), scalar);
}

TEST(GeShape, KnownShapeSizeIsTheProductOfDims) {
  const GeShape shape({2, 3, 4});
  EXPECT_FALSE(shape.IsScalar());
  EXPECT_EQ(shape.GetDimNum(), 3u);
  EXPECT_EQ(shape.GetDim(0), 2);
  EXPECT_EQ(shape.GetDim(2), 4);
  EXPECT_EQ(shape.GetDim(3), 0) << "out of range reads as 0";
  EXPECT_EQ(shape.GetShapeSize(), 24);
  EXPECT_EQ(shape.GetElementCount(), 24);
  EXPECT_FALSE(shape.IsUnknownShape());
  EXPECT_EQ(shape.GetDims(), (std::vector<int64_t>{2, 3, 4}));
}

TEST(GeShape, ZeroDimHoldsNoElements) {
  const GeShape shape({2, 0, 3});
  EXPECT_EQ(shape.GetShapeSize(), 0);
  EXPECT_EQ(shape.GetElementCount(), 0);
  EXPECT_FALSE(shape.IsUnknownShape());
  EXPECT_FALSE(shape.IsScalar());
}

TEST(GeShape, UnknownDimMakesTheSizeUnknown) {
  const GeShape shape({2, UNKNOWN_DIM, 3});
  EXPECT_TRUE(shape.IsUnknownShape());
  EXPECT_FALSE(shape.IsUnknownDimNum());
  EXPECT_EQ(shape.GetDimNum(), 3u);
  EXPECT_EQ(shape.GetShapeSize(), -1);
  EXPECT_EQ(shape.GetElementCount(), -1);
  EXPECT_EQ(shape.ToString(), "[2,-1,3]");
  EXPECT_EQ(GeShape({DUMMY_SHAPE_DIM}).GetShapeSize(), -1) << "any negative dim is unknown";
}

TEST(GeShape, UnknownDimWinsOverZeroDimWhateverTheOrder) {
  // The header promises -1 "when any dim is unknown"; the answer must not depend on where the
  // zero and the unknown dim sit (CalcTensorMemSize and IsUnknownShape already agree on this).
  for (const auto& dims :
       {std::vector<int64_t>{0, UNKNOWN_DIM}, std::vector<int64_t>{UNKNOWN_DIM, 0},
        std::vector<int64_t>{2, 0, UNKNOWN_DIM}}) {
    const GeShape shape(dims);
    EXPECT_TRUE(shape.IsUnknownShape()) << shape.ToString();
    EXPECT_EQ(shape.GetShapeSize(), -1) << shape.ToString();
    EXPECT_EQ(shape.GetElementCount(), -1) << shape.ToString();
  }
}

TEST(GeShape, UnknownRankIsMinusTwo) {
  const GeShape shape({UNKNOWN_DIM_NUM});
  EXPECT_TRUE(shape.IsUnknownDimNum());
  EXPECT_TRUE(shape.IsUnknownShape());
  EXPECT_EQ(shape.GetDimNum(), 0u);
  EXPECT_FALSE(shape.IsScalar());
  EXPECT_EQ(shape.GetShapeSize(), -1);
  EXPECT_EQ(shape.GetElementCount(), -1);
  EXPECT_EQ(shape.ToString(), "[-2]");

  GeShape known({4, 5});
  known.SetIsUnknownDimNum();
  EXPECT_EQ(known, shape);
  EXPECT_EQ(known.GetDims(), (std::vector<int64_t>{-2}));
  EXPECT_FALSE(GeShape({UNKNOWN_DIM_NUM, 3}).IsUnknownDimNum()) << "only the single dim -2";
}

TEST(GeShape, OverflowGivesMinusOne) {
  EXPECT_EQ(GeShape({kInt64Max, 2}).GetShapeSize(), -1);
  EXPECT_EQ(GeShape({kInt64Max, 2}).GetElementCount(), -1);
  EXPECT_EQ(GeShape({int64_t{1} << 32, int64_t{1} << 32}).GetShapeSize(), -1);
  // Just below and just above the int64 limit: 3037000499^2 fits, 3037000500^2 does not.
  EXPECT_EQ(GeShape({3037000499LL, 3037000499LL}).GetShapeSize(), 9223372030926249001LL);
  EXPECT_EQ(GeShape({3037000500LL, 3037000500LL}).GetShapeSize(), -1);
  EXPECT_EQ(GeShape({kInt64Max, 1}).GetShapeSize(), kInt64Max) << "no false overflow";
  EXPECT_EQ(GeShape({kInt64Max}).GetElementCount(), kInt64Max);
}

TEST(GeShape, SetDimChangesOneDim) {
  GeShape shape({1, 2, 3});
  EXPECT_TRUE(IsOk(shape.SetDim(1, 7)));
  EXPECT_EQ(shape.GetDims(), (std::vector<int64_t>{1, 7, 3}));
  EXPECT_TRUE(IsOk(shape.SetDim(0, UNKNOWN_DIM)));
  EXPECT_TRUE(shape.IsUnknownShape());
}

TEST(GeShape, SetDimOutOfRangeIsAnError) {
  GeShape shape({1, 2});
  EXPECT_TRUE(HasError(shape.SetDim(2, 5), StatusCode::kParamInvalid, {"2", "[1,2]"}));
  EXPECT_EQ(shape.GetDims(), (std::vector<int64_t>{1, 2})) << "unchanged";
  GeShape scalar;
  EXPECT_TRUE(HasError(scalar.SetDim(0, 1), StatusCode::kParamInvalid, {"0", "[]"}));
  EXPECT_TRUE(scalar.IsScalar());
}

TEST(GeShape, ToStringListsDims) {
  EXPECT_EQ(GeShape({1, 3, 224, 224}).ToString(), "[1,3,224,224]");
  EXPECT_EQ(GeShape({5}).ToString(), "[5]");
  EXPECT_EQ(GeShape({0}).ToString(), "[0]");
}

TEST(GeShape, MutableDimsAndSetDims) {
  GeShape shape({1});
  shape.MutableDims().push_back(4);
  EXPECT_EQ(shape, GeShape({1, 4}));
  shape.SetDims({9, 9, 9});
  EXPECT_EQ(shape.GetDimNum(), 3u);
  EXPECT_NE(shape, GeShape({9, 9}));
}

// ---- GeTensorDesc ----

TEST(GeTensorDesc, DefaultsMatchGe) {
  const GeTensorDesc desc;
  EXPECT_TRUE(desc.GetShape().IsScalar());
  EXPECT_EQ(desc.GetFormat(), FORMAT_ND);
  EXPECT_EQ(desc.GetDataType(), DT_FLOAT);
  EXPECT_TRUE(desc.GetOriginShape().IsScalar());
  EXPECT_FALSE(desc.IsOriginShapeInitialized());
  EXPECT_EQ(desc.GetOriginFormat(), FORMAT_ND);
  EXPECT_EQ(desc.GetOriginDataType(), DT_UNDEFINED);
  EXPECT_EQ(desc.GetName(), "");
  EXPECT_EQ(desc.GetSize(), 0);
  EXPECT_EQ(desc.GetWeightSize(), 0);
  EXPECT_FALSE(desc.GetReuseInput());
  EXPECT_EQ(desc.GetReuseInputIndex(), 0u);
  EXPECT_EQ(desc.GetDataOffset(), 0);
  EXPECT_EQ(desc.GetDeviceType(), NPU);
  EXPECT_EQ(desc.GetRealDimCnt(), 0u);
  EXPECT_FALSE(desc.GetOutputTensor());
  EXPECT_FALSE(desc.GetInputTensor());
  EXPECT_EQ(desc.GetCmpsSize(), 0);
  EXPECT_EQ(desc.GetCmpsTab(), "");
  EXPECT_EQ(desc.GetCmpsTabOffset(), 0);
  EXPECT_TRUE(desc.GetAttrMap().Empty());
  EXPECT_TRUE(desc.IsValid());
}

TEST(GeTensorDesc, ConstructorSetsFormatTypeAndTheirOrigins) {
  const GeTensorDesc desc(GeShape({1, 3}), FORMAT_NCHW, DT_INT8);
  EXPECT_EQ(desc.GetShape(), GeShape({1, 3}));
  EXPECT_EQ(desc.GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(desc.GetDataType(), DT_INT8);
  EXPECT_EQ(desc.GetOriginFormat(), FORMAT_NCHW);
  EXPECT_EQ(desc.GetOriginDataType(), DT_INT8);
  EXPECT_FALSE(desc.IsOriginShapeInitialized());
}

TEST(GeTensorDesc, SetOriginShapeMarksItInitialized) {
  GeTensorDesc desc;
  desc.SetOriginShape(GeShape({2, 2}));
  EXPECT_TRUE(desc.IsOriginShapeInitialized());
  EXPECT_EQ(desc.GetOriginShape(), GeShape({2, 2}));
  GeTensorDesc scalar_origin;
  scalar_origin.SetOriginShape(GeShape());
  EXPECT_TRUE(scalar_origin.IsOriginShapeInitialized()) << "a scalar origin is still set";
}

TEST(GeTensorDesc, EveryFieldRoundTrips) {
  GeTensorDesc desc;
  desc.SetShape(GeShape({8, 16}));
  desc.MutableShape().MutableDims().push_back(2);
  desc.SetFormat(FORMAT_NC1HWC0);
  desc.SetDataType(DT_FLOAT16);
  desc.SetOriginShape(GeShape({8, 32}));
  desc.SetOriginFormat(FORMAT_NCHW);
  desc.SetOriginDataType(DT_FLOAT);
  desc.SetName("x");
  desc.SetSize(512);
  desc.SetWeightSize(256);
  desc.SetReuseInput(true);
  desc.SetReuseInputIndex(3);
  desc.SetDataOffset(1024);
  desc.SetDeviceType(CPU);
  desc.SetRealDimCnt(2);
  desc.SetOutputTensor(true);
  desc.SetInputTensor(true);
  desc.SetCmpsSize(77);
  desc.SetCmpsTab("tab");
  desc.SetCmpsTabOffset(88);

  EXPECT_EQ(desc.GetShape(), GeShape({8, 16, 2}));
  EXPECT_EQ(desc.GetFormat(), FORMAT_NC1HWC0);
  EXPECT_EQ(desc.GetDataType(), DT_FLOAT16);
  EXPECT_EQ(desc.GetOriginShape(), GeShape({8, 32}));
  EXPECT_EQ(desc.GetOriginFormat(), FORMAT_NCHW);
  EXPECT_EQ(desc.GetOriginDataType(), DT_FLOAT);
  EXPECT_EQ(desc.GetName(), "x");
  EXPECT_EQ(desc.GetSize(), 512);
  EXPECT_EQ(desc.GetWeightSize(), 256);
  EXPECT_TRUE(desc.GetReuseInput());
  EXPECT_EQ(desc.GetReuseInputIndex(), 3u);
  EXPECT_EQ(desc.GetDataOffset(), 1024);
  EXPECT_EQ(desc.GetDeviceType(), CPU);
  EXPECT_EQ(desc.GetRealDimCnt(), 2u);
  EXPECT_TRUE(desc.GetOutputTensor());
  EXPECT_TRUE(desc.GetInputTensor());
  EXPECT_EQ(desc.GetCmpsSize(), 77);
  EXPECT_EQ(desc.GetCmpsTab(), "tab");
  EXPECT_EQ(desc.GetCmpsTabOffset(), 88);
}

TEST(GeTensorDesc, TensorUtilsAccessorsReadAndWriteTheDesc) {
  GeTensorDesc desc;
  TensorUtils::SetSize(desc, 96);
  TensorUtils::SetReuseInput(desc, true);
  TensorUtils::SetReuseInputIndex(desc, 2);
  TensorUtils::SetDataOffset(desc, 64);
  TensorUtils::SetWeightSize(desc, 32);
  TensorUtils::SetRealDimCnt(desc, 4);
  EXPECT_EQ(desc.GetSize(), 96);
  EXPECT_EQ(TensorUtils::GetSize(desc), 96);
  EXPECT_TRUE(TensorUtils::GetReuseInput(desc));
  EXPECT_EQ(TensorUtils::GetReuseInputIndex(desc), 2u);
  EXPECT_EQ(TensorUtils::GetDataOffset(desc), 64);
  EXPECT_EQ(TensorUtils::GetWeightSize(desc), 32);
  EXPECT_EQ(TensorUtils::GetRealDimCnt(desc), 4u);
}

TEST(GeTensorDesc, EqualityCoversEveryField) {
  const GeTensorDesc base(GeShape({2, 3}), FORMAT_NCHW, DT_FLOAT);
  const std::vector<std::pair<std::string, std::function<void(GeTensorDesc&)>>> mutations = {
      {"shape",
       [](GeTensorDesc& d) {
         d.SetShape(GeShape({3, 2}));
       }},
      {"format", [](GeTensorDesc& d) { d.SetFormat(FORMAT_NHWC); }},
      {"dtype", [](GeTensorDesc& d) { d.SetDataType(DT_INT32); }},
      {"origin shape", [](GeTensorDesc& d) { d.SetOriginShape(GeShape({6})); }},
      // Same (empty) dims as the default origin shape: only the "initialized" flag differs.
      {"origin shape initialized", [](GeTensorDesc& d) { d.SetOriginShape(GeShape()); }},
      {"origin format", [](GeTensorDesc& d) { d.SetOriginFormat(FORMAT_ND); }},
      {"origin dtype", [](GeTensorDesc& d) { d.SetOriginDataType(DT_INT8); }},
      {"name", [](GeTensorDesc& d) { d.SetName("n"); }},
      {"size", [](GeTensorDesc& d) { d.SetSize(1); }},
      {"weight size", [](GeTensorDesc& d) { d.SetWeightSize(1); }},
      {"reuse input", [](GeTensorDesc& d) { d.SetReuseInput(true); }},
      {"reuse input index", [](GeTensorDesc& d) { d.SetReuseInputIndex(1); }},
      {"data offset", [](GeTensorDesc& d) { d.SetDataOffset(1); }},
      {"device type", [](GeTensorDesc& d) { d.SetDeviceType(CPU); }},
      {"real dim cnt", [](GeTensorDesc& d) { d.SetRealDimCnt(1); }},
      {"output tensor", [](GeTensorDesc& d) { d.SetOutputTensor(true); }},
      {"input tensor", [](GeTensorDesc& d) { d.SetInputTensor(true); }},
      {"cmps size", [](GeTensorDesc& d) { d.SetCmpsSize(1); }},
      {"cmps tab", [](GeTensorDesc& d) { d.SetCmpsTab("t"); }},
      {"cmps tab offset", [](GeTensorDesc& d) { d.SetCmpsTabOffset(1); }},
      {"attr added", [](GeTensorDesc& d) { d.MutableAttrMap().Set("a", AttrValue(1)); }},
  };
  for (const auto& [field, mutate] : mutations) {
    GeTensorDesc changed = base;
    ASSERT_EQ(changed, base) << field;
    mutate(changed);
    EXPECT_NE(changed, base) << field;
    EXPECT_FALSE(changed == base) << field;
    EXPECT_NE(base, changed) << field;
  }

  GeTensorDesc with_attr = base;
  with_attr.MutableAttrMap().Set("a", AttrValue(1));
  GeTensorDesc other_attr_value = base;
  other_attr_value.MutableAttrMap().Set("a", AttrValue(2));
  EXPECT_NE(with_attr, other_attr_value) << "attr values are compared";
}

TEST(GeTensorDesc, CopiesAreDeepIncludingAttrs) {
  GeTensorDesc original(GeShape({1, 2}), FORMAT_NHWC, DT_FLOAT);
  ASSERT_TRUE(AttrUtils::SetListInt(original, "perm", std::vector<int64_t>{0, 1}));
  NamedAttrs nested("nested");
  nested.MutableAttrMap().Set("k", AttrValue(1));
  ASSERT_TRUE(AttrUtils::SetNamedAttrs(original, "nested", nested));

  GeTensorDesc copy(original);
  EXPECT_EQ(copy, original);
  copy.MutableShape().MutableDims()[0] = 5;
  copy.MutableAttrMap().GetMutable("perm")->GetMutable<std::vector<int64_t>>()->push_back(2);
  copy.MutableAttrMap().GetMutable("nested")->GetMutable<NamedAttrs>()->MutableAttrMap().Set(
      "k", AttrValue(2));
  EXPECT_EQ(original.GetShape(), GeShape({1, 2}));
  std::vector<int64_t> perm;
  ASSERT_TRUE(AttrUtils::GetListInt(original, "perm", perm));
  EXPECT_EQ(perm, (std::vector<int64_t>{0, 1}));
  NamedAttrs original_nested;
  ASSERT_TRUE(AttrUtils::GetNamedAttrs(original, "nested", original_nested));
  EXPECT_EQ(original_nested, nested);

  GeTensorDesc assigned;
  assigned = original;
  EXPECT_EQ(assigned, original);
  ASSERT_TRUE(AttrUtils::SetInt(assigned, "extra", 1));
  EXPECT_FALSE(original.HasAttr("extra"));
}

TEST(GeTensorDesc, ValidityNeedsAKnownTypeAndFormat) {
  EXPECT_TRUE(GeTensorDesc(GeShape(), FORMAT_NCHW, DT_INT4).IsValid());
  EXPECT_FALSE(GeTensorDesc(GeShape(), FORMAT_ND, DT_UNDEFINED).IsValid());
  EXPECT_FALSE(GeTensorDesc(GeShape(), FORMAT_ND, DT_MAX).IsValid());
  EXPECT_FALSE(GeTensorDesc(GeShape(), FORMAT_ND, static_cast<DataType>(5)).IsValid());
  EXPECT_FALSE(GeTensorDesc(GeShape(), FORMAT_END, DT_FLOAT).IsValid());
  // A packed format (FRACTAL_Z with a sub-format) is valid.
  EXPECT_TRUE(GeTensorDesc(GeShape(),
                           static_cast<Format>(TypeUtils::GetFormatFromSub(FORMAT_FRACTAL_Z, 16)),
                           DT_FLOAT16)
                  .IsValid());
}

TEST(GeTensorDesc, ToStringNamesTypeShapeAndFormat) {
  const std::string text =
      GeTensorDesc(GeShape({1, 3, 224, 224}), FORMAT_NCHW, DT_FLOAT16).ToString();
  EXPECT_NE(text.find("FLOAT16"), std::string::npos) << text;
  EXPECT_NE(text.find("[1,3,224,224]"), std::string::npos) << text;
  EXPECT_NE(text.find("NCHW"), std::string::npos) << text;
}

// ---- GeTensor ----

GeTensorDesc ByteDesc(int64_t n) { return GeTensorDesc(GeShape({n}), FORMAT_ND, DT_UINT8); }

std::vector<uint8_t> Bytes(const GeTensor& tensor) {
  return {tensor.GetData().begin(), tensor.GetData().end()};
}

TEST(GeTensor, DefaultHoldsNoBytes) {
  GeTensor tensor;
  EXPECT_EQ(tensor.GetSize(), 0u);
  EXPECT_TRUE(tensor.GetData().empty());
  EXPECT_EQ(tensor.MutableData(), nullptr);
  EXPECT_EQ(tensor, GeTensor());
}

TEST(GeTensor, ConstructorsCopyOrTakeTheBytes) {
  const std::vector<uint8_t> bytes = {1, 2, 3, 4};
  const GeTensor from_vector(ByteDesc(4), bytes);
  EXPECT_EQ(Bytes(from_vector), bytes);
  EXPECT_EQ(from_vector.GetSize(), 4u);
  EXPECT_EQ(from_vector.GetTensorDesc(), ByteDesc(4));

  std::vector<uint8_t> source = {5, 6, 7};
  const GeTensor from_pointer(ByteDesc(3), source.data(), source.size());
  source[0] = 99;  // the tensor took a copy
  EXPECT_EQ(Bytes(from_pointer), (std::vector<uint8_t>{5, 6, 7}));
  EXPECT_NE(from_pointer.GetData().data(), source.data());

  const GeTensor desc_only(ByteDesc(8));
  EXPECT_EQ(desc_only.GetSize(), 0u);
}

TEST(GeTensor, CopySharesTheBytes) {
  const GeTensor original(ByteDesc(3), std::vector<uint8_t>{1, 2, 3});
  const GeTensor copy(original);  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy.GetData().data(), original.GetData().data());
  EXPECT_EQ(copy, original);
  GeTensor assigned;
  assigned = original;
  EXPECT_EQ(assigned.GetData().data(), original.GetData().data());
}

TEST(GeTensor, CloneCopiesTheBytes) {
  const GeTensor original(ByteDesc(3), std::vector<uint8_t>{1, 2, 3});
  const GeTensor clone = original.Clone();
  EXPECT_NE(clone.GetData().data(), original.GetData().data());
  EXPECT_EQ(Bytes(clone), Bytes(original));
  EXPECT_EQ(clone.GetTensorDesc(), original.GetTensorDesc());
  EXPECT_EQ(clone, original);
  EXPECT_EQ(GeTensor().Clone(), GeTensor());
}

TEST(GeTensor, MutableDataDetachesSharedBytes) {
  GeTensor original(ByteDesc(3), std::vector<uint8_t>{1, 2, 3});
  GeTensor copy = original;
  uint8_t* writable = copy.MutableData();
  ASSERT_NE(writable, nullptr);
  EXPECT_NE(writable, original.GetData().data()) << "the copy got its own bytes";
  writable[0] = 42;
  EXPECT_EQ(Bytes(copy), (std::vector<uint8_t>{42, 2, 3}));
  EXPECT_EQ(Bytes(original), (std::vector<uint8_t>{1, 2, 3})) << "the original is unchanged";
  EXPECT_NE(copy, original);

  // The other way round: writing through the original leaves an earlier copy alone.
  GeTensor second = original;
  original.MutableData()[2] = 9;
  EXPECT_EQ(Bytes(second), (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(Bytes(original), (std::vector<uint8_t>{1, 2, 9}));
}

TEST(GeTensor, MutableDataOfTheSoleOwnerWritesInPlace) {
  GeTensor tensor(ByteDesc(2), std::vector<uint8_t>{1, 2});
  const uint8_t* before = tensor.GetData().data();
  uint8_t* writable = tensor.MutableData();
  EXPECT_EQ(writable, before);
  writable[1] = 7;
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{1, 7}));
}

TEST(GeTensor, SetSharedDataIsZeroCopyAndKeepsTheOwnerAlive) {
  auto storage = std::make_shared<std::vector<uint8_t>>(std::vector<uint8_t>{10, 20, 30, 40});
  std::shared_ptr<const uint8_t> shared(storage, storage->data());
  const uint8_t* raw = storage->data();
  std::weak_ptr<std::vector<uint8_t>> watch = storage;

  GeTensor tensor(ByteDesc(4));
  tensor.SetSharedData(shared, storage->size());
  EXPECT_EQ(tensor.GetData().data(), raw) << "no copy";
  EXPECT_EQ(tensor.GetSize(), 4u);

  storage.reset();
  shared.reset();
  EXPECT_FALSE(watch.expired()) << "the tensor keeps the bytes alive";
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{10, 20, 30, 40}));

  // Writing detaches: the shared bytes are never written.
  uint8_t* writable = tensor.MutableData();
  ASSERT_NE(writable, nullptr);
  EXPECT_NE(writable, raw);
  writable[0] = 0;
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{0, 20, 30, 40}));
  EXPECT_TRUE(watch.expired()) << "after detaching, the shared buffer is released";

  GeTensor null_shared;
  null_shared.SetSharedData(nullptr, 16);
  EXPECT_EQ(null_shared.GetSize(), 0u) << "no bytes without a buffer";
}

TEST(GeTensor, SharedDataIsNotWrittenThroughByAnyHolder) {
  std::vector<uint8_t> external = {1, 2, 3};
  std::shared_ptr<const uint8_t> view(external.data(), [](const uint8_t*) {});
  GeTensor a(ByteDesc(3));
  a.SetSharedData(view, external.size());
  GeTensor b = a;
  b.MutableData()[0] = 100;
  a.MutableData()[1] = 200;
  EXPECT_EQ(external, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(Bytes(a), (std::vector<uint8_t>{1, 200, 3}));
  EXPECT_EQ(Bytes(b), (std::vector<uint8_t>{100, 2, 3}));
}

TEST(GeTensor, SetDataReplacesAndClearDataEmpties) {
  GeTensor tensor(ByteDesc(2), std::vector<uint8_t>{1, 2});
  const GeTensor sharer = tensor;
  tensor.SetData(std::vector<uint8_t>{3, 4, 5});
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{3, 4, 5}));
  EXPECT_EQ(Bytes(sharer), (std::vector<uint8_t>{1, 2})) << "a copy keeps the old bytes";

  const uint8_t raw[] = {9, 8};
  tensor.SetData(raw, sizeof(raw));
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{9, 8}));
  EXPECT_NE(tensor.GetData().data(), raw);

  tensor.SetData(std::vector<uint8_t>{});
  EXPECT_EQ(tensor.GetSize(), 0u);
  tensor.SetData(raw, sizeof(raw));
  tensor.ClearData();
  EXPECT_EQ(tensor.GetSize(), 0u);
  EXPECT_TRUE(tensor.GetData().empty());
}

TEST(GeTensor, EqualityComparesDescAndBytes) {
  const GeTensor a(ByteDesc(3), std::vector<uint8_t>{1, 2, 3});
  const GeTensor same_bytes(ByteDesc(3), std::vector<uint8_t>{1, 2, 3});
  ASSERT_NE(a.GetData().data(), same_bytes.GetData().data());
  EXPECT_EQ(a, same_bytes);
  EXPECT_NE(a, GeTensor(ByteDesc(3), std::vector<uint8_t>{1, 2, 4}));
  EXPECT_NE(a, GeTensor(ByteDesc(3), std::vector<uint8_t>{1, 2}));
  EXPECT_NE(a, GeTensor(ByteDesc(4), std::vector<uint8_t>{1, 2, 3})) << "desc differs";
  EXPECT_NE(a, GeTensor(ByteDesc(3)));
  EXPECT_EQ(GeTensor(ByteDesc(3)), GeTensor(ByteDesc(3)));
}

TEST(GeTensor, DescCanBeReplacedOrEdited) {
  GeTensor tensor(ByteDesc(2), std::vector<uint8_t>{1, 2});
  tensor.MutableTensorDesc().SetName("w");
  EXPECT_EQ(tensor.GetTensorDesc().GetName(), "w");
  tensor.SetTensorDesc(GeTensorDesc(GeShape({1, 2}), FORMAT_NCHW, DT_INT8));
  EXPECT_EQ(tensor.GetTensorDesc().GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(Bytes(tensor), (std::vector<uint8_t>{1, 2})) << "bytes are kept";
}

// ---- TensorUtils ----

int64_t MemSize(std::vector<int64_t> dims, DataType dtype) {
  return TensorUtils::CalcTensorMemSize(GeShape(std::move(dims)), dtype);
}

TEST(TensorUtils, CalcTensorMemSizeOfKnownShapes) {
  EXPECT_EQ(MemSize({2, 3}, DT_FLOAT), 24);
  EXPECT_EQ(MemSize({2, 3}, DT_FLOAT16), 12);
  EXPECT_EQ(MemSize({2, 3}, DT_INT64), 48);
  EXPECT_EQ(MemSize({2}, DT_COMPLEX128), 32);
  EXPECT_EQ(MemSize({5}, DT_BOOL), 5);
  EXPECT_EQ(MemSize({7}, DT_HIFLOAT8), 7);
  EXPECT_EQ(MemSize({}, DT_FLOAT), 4) << "a scalar holds one element";
  EXPECT_EQ(MemSize({}, DT_DOUBLE), 8);
  EXPECT_EQ(TensorUtils::CalcTensorMemSize(GeTensorDesc(GeShape({4, 4}), FORMAT_ND, DT_INT32)), 64);
}

TEST(TensorUtils, CalcTensorMemSizeOfUnknownShapesIsMinusOne) {
  EXPECT_EQ(MemSize({2, UNKNOWN_DIM}, DT_FLOAT), -1);
  EXPECT_EQ(MemSize({UNKNOWN_DIM_NUM}, DT_FLOAT), -1);
  EXPECT_EQ(MemSize({DUMMY_SHAPE_DIM}, DT_FLOAT), -1);
  EXPECT_EQ(MemSize({0, UNKNOWN_DIM}, DT_FLOAT), -1) << "unknown wins over zero";
}

TEST(TensorUtils, CalcTensorMemSizeWithAZeroDimIsZero) {
  EXPECT_EQ(MemSize({0}, DT_FLOAT), 0);
  EXPECT_EQ(MemSize({3, 0, 5}, DT_INT64), 0);
  EXPECT_EQ(MemSize({3, 0}, DT_STRING), 0);
}

TEST(TensorUtils, CalcTensorMemSizeRoundsSubByteTypesUp) {
  EXPECT_EQ(MemSize({3}, DT_INT4), 2);         // 12 bits
  EXPECT_EQ(MemSize({4}, DT_INT4), 2);         // 16 bits
  EXPECT_EQ(MemSize({}, DT_INT4), 1);          // one 4-bit scalar
  EXPECT_EQ(MemSize({5}, DT_UINT1), 1);        // 5 bits
  EXPECT_EQ(MemSize({9}, DT_UINT1), 2);        // 9 bits
  EXPECT_EQ(MemSize({3}, DT_INT2), 1);         // 6 bits
  EXPECT_EQ(MemSize({5}, DT_UINT2), 2);        // 10 bits
  EXPECT_EQ(MemSize({4}, DT_FLOAT6_E3M2), 3);  // 24 bits
  EXPECT_EQ(MemSize({3}, DT_FLOAT6_E2M3), 3);  // 18 bits
  EXPECT_EQ(MemSize({7}, DT_FLOAT4_E2M1), 4);  // 28 bits
  EXPECT_EQ(MemSize({1}, DT_HIFLOAT4), 1);
  EXPECT_EQ(MemSize({2, 3}, DT_INT4), 3);  // 24 bits
}

TEST(TensorUtils, CalcTensorMemSizeCountsSixteenBytesPerString) {
  EXPECT_EQ(MemSize({3}, DT_STRING), 3 * kStringElementBytes);
  EXPECT_EQ(MemSize({2}, DT_STRING_REF), 2 * kStringElementBytes);
  EXPECT_EQ(MemSize({}, DT_STRING), 16);
}

TEST(TensorUtils, CalcTensorMemSizeOfSizelessTypesOrOverflowIsMinusOne) {
  EXPECT_EQ(MemSize({2}, DT_UNDEFINED), -1);
  EXPECT_EQ(MemSize({2}, DT_MAX), -1);
  EXPECT_EQ(MemSize({int64_t{1} << 61}, DT_FLOAT), -1) << "2^61 x 4 bytes overflows";
  EXPECT_EQ(MemSize({kInt64Max, 2}, DT_INT8), -1);
  EXPECT_EQ(MemSize({int64_t{1} << 61}, DT_INT8), int64_t{1} << 61);
}

Result<int64_t> DeviceSize(std::vector<int64_t> dims, DataType dtype) {
  return TensorUtils::GetTensorMemorySizeInBytes(
      GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, dtype));
}

TEST(TensorUtils, TensorMemorySizeRoundsUpAndAddsThirtyTwoBytes) {
  // ((size + 63) / 32) * 32
  const std::vector<std::pair<int64_t, int64_t>> cases = {
      {0, 32}, {1, 64}, {31, 64}, {32, 64}, {33, 96}, {64, 96}, {100, 160},
  };
  for (const auto& [bytes, expected] : cases) {
    Result<int64_t> size = DeviceSize({bytes}, DT_INT8);
    ASSERT_TRUE(IsOk(size)) << bytes;
    EXPECT_EQ(*size, expected) << bytes << " bytes";
  }
  Result<int64_t> scalar = DeviceSize({}, DT_FLOAT);  // 4 bytes
  ASSERT_TRUE(IsOk(scalar));
  EXPECT_EQ(*scalar, 64);
  Result<int64_t> int4 = DeviceSize({3}, DT_INT4);  // 2 bytes
  ASSERT_TRUE(IsOk(int4));
  EXPECT_EQ(*int4, 64);
}

TEST(TensorUtils, TensorMemorySizeOfUnknownShapeFails) {
  EXPECT_TRUE(HasError(DeviceSize({2, UNKNOWN_DIM}, DT_FLOAT), StatusCode::kParamInvalid,
                       {"[2,-1]", "unknown"}));
  EXPECT_TRUE(
      HasError(DeviceSize({UNKNOWN_DIM_NUM}, DT_FLOAT), StatusCode::kParamInvalid, {"[-2]"}));
  EXPECT_TRUE(HasError(DeviceSize({2}, DT_UNDEFINED), StatusCode::kParamInvalid, {"dtype"}));
}

Result<int64_t> PaddedSize(int64_t bytes, int64_t pad = 32) {
  return TensorUtils::GetTensorSizeInBytesWithAutoPadding(
      GeTensorDesc(GeShape({bytes}), FORMAT_ND, DT_INT8), pad);
}

TEST(TensorUtils, AutoPaddingAddsPadAndRoundsToThirtyTwo) {
  // ((size + 32 + pad - 1) / 32) * 32, pad = 32 by default.
  const std::vector<std::pair<int64_t, int64_t>> default_pad = {
      {0, 32}, {1, 64}, {32, 64}, {33, 96}, {96, 128},
  };
  for (const auto& [bytes, expected] : default_pad) {
    Result<int64_t> size = PaddedSize(bytes);
    ASSERT_TRUE(IsOk(size)) << bytes;
    EXPECT_EQ(*size, expected) << bytes << " bytes";
  }
  const std::vector<std::tuple<int64_t, int64_t, int64_t>> other_pads = {
      // bytes, pad, expected
      {1, 0, 32}, {32, 0, 32}, {33, 0, 64}, {1, 64, 96}, {40, 1, 64},
  };
  for (const auto& [bytes, pad, expected] : other_pads) {
    Result<int64_t> size = PaddedSize(bytes, pad);
    ASSERT_TRUE(IsOk(size)) << bytes << " pad " << pad;
    EXPECT_EQ(*size, expected) << bytes << " bytes, pad " << pad;
  }
}

TEST(TensorUtils, AutoPaddingTurnsZeroIntoThirtyTwo) {
  Result<int64_t> size = PaddedSize(0, /*pad=*/0);  // (0 + 32 + 0 - 1) / 32 * 32 == 0
  ASSERT_TRUE(IsOk(size));
  EXPECT_EQ(*size, 32);
}

TEST(TensorUtils, AutoPaddingOfUnknownShapeFails) {
  EXPECT_TRUE(HasError(TensorUtils::GetTensorSizeInBytesWithAutoPadding(
                           GeTensorDesc(GeShape({UNKNOWN_DIM, 4}), FORMAT_ND, DT_FLOAT)),
                       StatusCode::kParamInvalid, {"[-1,4]"}));
}

TEST(TensorUtils, AlignUpRoundsToTheAlignment) {
  EXPECT_EQ(TensorUtils::AlignUp(0, 32), 0);
  EXPECT_EQ(TensorUtils::AlignUp(1, 32), 32);
  EXPECT_EQ(TensorUtils::AlignUp(32, 32), 32);
  EXPECT_EQ(TensorUtils::AlignUp(33, 32), 64);
  EXPECT_EQ(TensorUtils::AlignUp(5, 1), 5);
  EXPECT_EQ(TensorUtils::AlignUp(513, 512), 1024);
  EXPECT_EQ(TensorUtils::AlignUp(10, 3), 12) << "not only powers of two";
}

TEST(TensorUtilsDeathTest, AlignUpOfTheLargestAlignedValueDoesNotOverflow) {
  // Runs in a child process: computing size + alignment - 1 left to right overflows int64 here
  // (undefined behaviour; UndefinedBehaviorSanitizer aborts, an optimized build may hide it).
  EXPECT_EXIT(
      {
        const int64_t largest_aligned = kInt64Max - 31;  // a multiple of 32
        std::exit(TensorUtils::AlignUp(largest_aligned, 32) == largest_aligned ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(TensorUtils, AlignUpRefusesNegativeSizesAndOverflow) {
  EXPECT_EQ(TensorUtils::AlignUp(-1, 32), -1);
  EXPECT_EQ(TensorUtils::AlignUp(kInt64Max, 32), -1);
  EXPECT_EQ(TensorUtils::AlignUp(kInt64Max - 30, 32), -1);
}

}  // namespace
}  // namespace ge

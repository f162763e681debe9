// ONNX parser: a serialized TensorProto read as an initializer is, for the element types ONNX
// added after the headers Debian ships (float8, float4, the 4- and 2-bit integers), from raw
// bytes and from the typed field, with its size checked against its shape; strings become GE's
// stored form.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/graph/narrow_types.h"
#include "ge/graph/string_tensor.h"
#include "ge/parser/onnx_parser.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace {

constexpr int32_t kOnnxFloat8E4M3FNUZ = 18;
constexpr int32_t kOnnxUint4 = 21;
constexpr int32_t kOnnxInt4 = 22;
constexpr int32_t kOnnxInt2 = 26;

onnx::TensorProto Tensor(int32_t type, std::vector<int64_t> dims) {
  onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(type);
  for (int64_t d : dims) t.add_dims(d);
  return t;
}

Result<GeTensor> Read(const onnx::TensorProto& t) {
  return ParseOnnxTensor(t.SerializeAsString(), ".", "tensor 't'");
}

TEST(OnnxTensor, FourBitIntegersArePackedInRawDataAndInInt32Data) {
  onnx::TensorProto raw = Tensor(kOnnxInt4, {5});
  raw.set_raw_data(std::string("\x21\x43\x05", 3));
  onnx::TensorProto typed = Tensor(kOnnxInt4, {5});
  for (int byte : {0x21, 0x43, 0x05}) typed.add_int32_data(byte);
  for (const auto& t : {raw, typed}) {
    auto r = Read(t);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->GetTensorDesc().GetDataType(), DT_INT4);
    ASSERT_EQ(r->GetSize(), 3U);
    for (int64_t i = 0; i < 5; ++i) {
      EXPECT_EQ(ReadPackedCode(r->GetData().data(), i, 4), static_cast<uint32_t>(i + 1));
    }
  }
  auto u = Read([] {
    onnx::TensorProto t = Tensor(kOnnxUint4, {1});
    t.set_raw_data(std::string("\x0f", 1));
    return t;
  }());
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->GetTensorDesc().GetDataType(), DT_UINT4);
}

TEST(OnnxTensor, Float8HoldsOneValuePerInt32) {
  onnx::TensorProto t = Tensor(kOnnxFloat8E4M3FNUZ, {2});
  t.add_int32_data(0x40);
  t.add_int32_data(0x80);
  auto r = Read(t);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->GetTensorDesc().GetDataType(), DT_FLOAT8_E4M3FNUZ);
  ASSERT_EQ(r->GetSize(), 2U);
  EXPECT_EQ(NarrowFloatValue(DT_FLOAT8_E4M3FNUZ, r->GetData().data()[0]), 1.0);
}

TEST(OnnxTensor, PackedSizesAreChecked) {
  onnx::TensorProto raw = Tensor(kOnnxInt2, {5});  // 5 two-bit values need 2 bytes
  raw.set_raw_data(std::string("\x01", 1));
  auto r = Read(raw);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("needs 2"), std::string::npos) << r.status().message();
  onnx::TensorProto typed = Tensor(kOnnxInt4, {5});
  typed.add_int32_data(1);
  r = Read(typed);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("1 packed bytes but its shape [5] needs 3"),
            std::string::npos)
      << r.status().message();
  r = ParseOnnxTensor("\xff\xff", ".", "tensor 'bad'");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a serialized onnx.TensorProto"), std::string::npos);
}

TEST(OnnxTensor, AnUnknownElementTypeIsNamed) {
  auto r = Read(Tensor(99, {1}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("element type 99"), std::string::npos)
      << r.status().message();
}

TEST(OnnxTensor, StringsBecomeGesStoredForm) {
  onnx::TensorProto t = Tensor(onnx::TensorProto::STRING, {2, 2});
  for (const char* s : {"first", "", "\xc3\xa9", "last"}) t.add_string_data(s);
  auto r = Read(t);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->GetTensorDesc().GetDataType(), DT_STRING);
  Result<std::vector<std::string_view>> values = StringsOf(*r, "t");
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_EQ(std::vector<std::string>(values->begin(), values->end()),
            (std::vector<std::string>{"first", "", "\xc3\xa9", "last"}));
  t.add_string_data("one too many");
  r = Read(t);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("holds 5 elements but its shape [2,2] needs 4"),
            std::string::npos)
      << r.status().message();
  // ONNX keeps strings in string_data: raw and external data are refused.
  onnx::TensorProto raw = Tensor(onnx::TensorProto::STRING, {1});
  raw.set_raw_data("abc");
  EXPECT_FALSE(Read(raw).ok());
  onnx::TensorProto external = Tensor(onnx::TensorProto::STRING, {1});
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  r = Read(external);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("external"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace ge

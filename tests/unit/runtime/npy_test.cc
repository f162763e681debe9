// .npy reading and writing: round trips of every dtype and shape kind, and bad files.
#include "ge/runtime/npy.h"

#include <gtest/gtest.h>

#include <fstream>

#include "compiler_test_util.h"

namespace ge {
namespace {

using testing::MakeTensor;
using testing::TensorValues;

TEST(Npy, RoundTripsDtypesAndShapes) {
  const std::string path = ::testing::TempDir() + "/t.npy";
  const GeTensor f = MakeTensor<float>(DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6.5F});
  ASSERT_TRUE(WriteNpy(path, f).ok());
  auto back = ReadNpy(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->GetTensorDesc().GetDataType(), DT_FLOAT);
  EXPECT_EQ(back->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(TensorValues<float>(*back), TensorValues<float>(f));
  for (const GeTensor& t :
       {MakeTensor<int64_t>(DT_INT64, {4}, {1, -2, 3, 1LL << 40}),
        MakeTensor<int32_t>(DT_INT32, {}, {7}), MakeTensor<uint8_t>(DT_BOOL, {1, 2}, {1, 0}),
        MakeTensor<double>(DT_DOUBLE, {0, 3}, {})}) {
    auto bytes = SerializeNpy(t);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ((bytes->find('\n') + 1) % 64, 0u);  // header padded to 64 bytes
    auto parsed = ParseNpy(*bytes, "t");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(parsed->GetTensorDesc().GetShape().GetDims(), t.GetTensorDesc().GetShape().GetDims());
    EXPECT_EQ(parsed->GetTensorDesc().GetDataType(), t.GetTensorDesc().GetDataType());
    EXPECT_TRUE(std::equal(parsed->GetData().begin(), parsed->GetData().end(), t.GetData().begin(),
                           t.GetData().end()));
  }
}

TEST(Npy, BadFilesSayWhatIsWrong) {
  auto ok_bytes = SerializeNpy(MakeTensor<float>(DT_FLOAT, {2}, {1, 2}));
  ASSERT_TRUE(ok_bytes.ok());
  struct Case {
    std::string bytes;
    const char* expect;
  };
  std::string truncated = *ok_bytes;
  truncated.resize(truncated.size() - 3);
  std::string fortran = *ok_bytes;
  fortran.replace(fortran.find("False"), 5, "True ");
  std::string big_endian = *ok_bytes;
  big_endian.replace(big_endian.find("<f4"), 3, ">f4");
  for (const Case& c :
       {Case{"hello", "not an .npy file"}, Case{truncated, "needs 8"}, Case{fortran, "Fortran"},
        Case{big_endian, "not supported"}, Case{ok_bytes->substr(0, 12), "truncated"}}) {
    auto parsed = ParseNpy(c.bytes, "bad.npy");
    ASSERT_FALSE(parsed.ok()) << c.expect;
    EXPECT_NE(parsed.status().message().find(c.expect), std::string::npos)
        << parsed.status().message();
    EXPECT_NE(parsed.status().message().find("bad.npy"), std::string::npos);
  }
  EXPECT_FALSE(ReadNpy("/nonexistent.npy").ok());
}

// A header written by hand or by another tool: each malformed field is refused with its cause.
std::string NpyWithHeader(std::string header, const std::string& data) {
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

TEST(Npy, MalformedHeaderFieldsAreRefused) {
  const std::string eight(8, '\0');
  struct Case {
    std::string header;
    const char* expect;
  };
  for (const Case& c : {
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': , }", "is not a tuple"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': }", "is not a tuple"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': 2, }", "is not a tuple"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2x, ), }", "bad dimension"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (-2, ), }", "bad dimension"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                "bad dimension"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
                "more bytes than int64 counts"},
           Case{"{'descr': , 'fortran_order': False, 'shape': (2,), }", "malformed descr"},
           Case{"{'descr': 'f, 'fortran_order': False, 'shape': (2,), }", "malformed descr"},
           Case{"'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", "not a dict"},
           Case{"{'fortran_order': False, 'shape': (2,), }", "no 'descr'"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, }", "malformed shape"},
       }) {
    auto parsed = ParseNpy(NpyWithHeader(c.header, eight), "bad.npy");
    ASSERT_FALSE(parsed.ok()) << c.header;
    EXPECT_NE(parsed.status().message().find(c.expect), std::string::npos)
        << c.header << ": " << parsed.status().message();
    EXPECT_EQ(parsed.status().message().rfind("bad.npy", 0), 0U) << parsed.status().message();
  }
  auto ok = ParseNpy(
      NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", eight), "ok.npy");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->GetTensorDesc().GetShape().GetDims(), std::vector<int64_t>{2});
}

}  // namespace
}  // namespace ge

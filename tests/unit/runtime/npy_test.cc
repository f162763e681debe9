// .npy reading and writing: round trips of every dtype and shape kind, and bad files.
#include <gtest/gtest.h>

#include <fstream>

#include "compiler_test_util.h"
#include "ge/runtime/npy.h"

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
  for (const GeTensor& t : {MakeTensor<int64_t>(DT_INT64, {4}, {1, -2, 3, 1LL << 40}),
                            MakeTensor<int32_t>(DT_INT32, {}, {7}),
                            MakeTensor<uint8_t>(DT_BOOL, {1, 2}, {1, 0}),
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
  for (const Case& c : {Case{"hello", "not an .npy file"}, Case{truncated, "needs 8"},
                        Case{fortran, "Fortran"}, Case{big_endian, "not supported"},
                        Case{ok_bytes->substr(0, 12), "truncated"}}) {
    auto parsed = ParseNpy(c.bytes, "bad.npy");
    ASSERT_FALSE(parsed.ok()) << c.expect;
    EXPECT_NE(parsed.status().message().find(c.expect), std::string::npos) << parsed.status().message();
    EXPECT_NE(parsed.status().message().find("bad.npy"), std::string::npos);
  }
  EXPECT_FALSE(ReadNpy("/nonexistent.npy").ok());
}

}  // namespace
}  // namespace ge

// .npy reading and writing: round trips of every dtype and shape kind, bad files, headers parsed
// as strictly as numpy's reader, and files that are not regular files or whose size disagrees
// with their header, refused before their data is read.
#include "ge/runtime/npy.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>

#include "../process_memory.h"
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
           // numpy's reader refuses each of these too.
           Case{"{'descr': '<f4', 'fortran_order': 1, 'shape': (2,), }",
                "'fortran_order' must be True or False, not '1'"},
           Case{"{'descr': '<f4', 'fortran_order': Tru, 'shape': (2,), }", "not 'Tru'"},
           Case{"{'descr': '<f4', 'fortran_order': False False, 'shape': (2,), }",
                "not 'False False'"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }",
                "has the key 'extra'"},
           Case{"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                "gives 'descr' twice"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", "after its dict"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,) 'x', }", "malformed shape"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", "is a number"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (,), }", "empty dimension"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (1,,2), }", "empty dimension"},
           Case{"{'descr': '<f4', 'fortran_order': False, 'shape': (+2,), }", "bad dimension"},
           Case{"{descr: '<f4', 'fortran_order': False, 'shape': (2,), }", "expected a quoted key"},
           Case{"{'descr': '<\\f4', 'fortran_order': False, 'shape': (2,), }", "malformed descr"},
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
  // What numpy accepts: double quotes, no trailing comma, spaces anywhere, a scalar's ().
  for (const auto& [header, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {R"({"descr": "<f4", "fortran_order": False, "shape": (2,)})", {2}},
           {"{ 'shape' : ( 1 , 2 ) , 'fortran_order' : False , 'descr' : '<f4' }  ", {1, 2}},
           {"{'descr': '<i8', 'fortran_order': False, 'shape': ()}", {}}}) {
    auto parsed = ParseNpy(NpyWithHeader(header, eight), "ok.npy");
    ASSERT_TRUE(parsed.ok()) << header << ": " << parsed.status().message();
    EXPECT_EQ(parsed->GetTensorDesc().GetShape().GetDims(), dims) << header;
  }
  std::string minor =
      NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", eight);
  minor[7] = 1;
  auto unknown_version = ParseNpy(minor, "v.npy");
  ASSERT_FALSE(unknown_version.ok());
  EXPECT_NE(unknown_version.status().message().find("version 1.1 is not supported"),
            std::string::npos)
      << unknown_version.status().message();
}

std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/npy_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

void ExpectRefused(const Result<GeTensor>& read, const std::string& part) {
  ASSERT_FALSE(read.ok()) << part;
  EXPECT_NE(read.status().message().find(part), std::string::npos) << read.status().message();
}

// A FIFO would block the reader until something writes to it, and /dev/zero never ends: both
// are refused at once, before anything is read, as a directory is.
TEST(Npy, OnlyRegularFilesAreRead) {
  const std::string fifo = TempPath("input.npy");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto read = std::async(std::launch::async, [&] { return ReadNpy(fifo); });
  const bool at_once = read.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!at_once) {  // a reader waiting for a writer: give it one, so that it ends
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  const Result<GeTensor> from_fifo = read.get();
  ASSERT_TRUE(at_once) << "reading a FIFO waited for a writer";
  ExpectRefused(from_fifo, "is a FIFO, not a regular file");
  EXPECT_EQ(from_fifo.status().message().rfind("'" + fifo + "'", 0), 0U);
  ExpectRefused(ReadNpy("/dev/zero"), "'/dev/zero' is a character device, not a regular file");
  ExpectRefused(ReadNpy(::testing::TempDir()), "is a directory, not a regular file");
  ExpectRefused(ReadNpy(TempPath("missing.npy")), "cannot open");
}

// A file whose header promises 8 bytes but which holds 256 MiB more (sparse, so it costs no
// disk), and one whose 256 MiB of data are over the caller's limit: each is refused from its
// header and size, the peak growing by far less than the data.
TEST(Npy, TheSizeIsCheckedAgainstTheHeaderBeforeTheDataIsRead) {
  constexpr int64_t kLarge = int64_t{256} << 20;
  auto sparse = [&](const std::string& name, const std::string& header, int64_t data_bytes) {
    const std::string path = TempPath(name);
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << NpyWithHeader(header, "");
    }
    std::filesystem::resize_file(
        path, std::filesystem::file_size(path) + static_cast<uintmax_t>(data_bytes));
    return path;
  };
  const std::string longer =
      sparse("longer.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", kLarge);
  const std::string capped = sparse(
      "capped.npy",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(kLarge / 4) + ",), }",
      kLarge);
  testing::ResetPeakResident();
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  ExpectRefused(ReadNpy(longer), "the .npy data holds " + std::to_string(kLarge) + " bytes");
  ExpectRefused(ReadNpy(capped, /*max_bytes=*/kLarge / 4),
                "the .npy data is " + std::to_string(kLarge) + " bytes, over the memory limit of " +
                    std::to_string(kLarge / 4));
  const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
  EXPECT_LT(growth, kLarge / 8) << "the peak grew by " << growth << " bytes";
  // At the limit, a file reads whole.
  constexpr int64_t kSmall = int64_t{1} << 20;
  const std::string small = sparse(
      "small.npy",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(kSmall / 4) + ",), }",
      kSmall);
  auto whole = ReadNpy(small, /*max_bytes=*/kSmall);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(whole->GetSize(), static_cast<size_t>(kSmall));
}

}  // namespace
}  // namespace ge

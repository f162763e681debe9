// File bytes: mappings, aligned copies, and views that share a mapping or copy out of it.
#include "ge/graph/file_bytes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace ge {
namespace {

std::string WriteFile(const std::string& tag, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("openge_file_bytes_" + tag + "_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

std::string Pattern(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7 + 3);
  return bytes;
}

TEST(FileBytes, MapsAFileReadOnly) {
  const std::string bytes = Pattern(10000);
  const std::string path = WriteFile("map", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  EXPECT_TRUE(mapped->mapped);
  ASSERT_EQ(mapped->size, bytes.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(mapped->data.get()), mapped->size), bytes);
  std::filesystem::remove(path);
}

TEST(FileBytes, MissingFileNamesThePath) {
  auto mapped = MapFile("/nonexistent/openge/file.bin");
  ASSERT_FALSE(mapped.ok());
  EXPECT_NE(mapped.status().message().find("'/nonexistent/openge/file.bin'"), std::string::npos)
      << mapped.status().message();
}

TEST(FileBytes, AlignedViewsShareTheMappingOthersAreCopied) {
  const std::string bytes = Pattern(size_t{3} * 4096);
  const std::string path = WriteFile("view", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  const uint8_t* base = mapped->data.get();
  auto in_place = ViewOrCopy(*mapped, base + 4096, 4096);
  EXPECT_EQ(in_place.get(), base + 4096);
  auto copied = ViewOrCopy(*mapped, base + 100, 5000);
  EXPECT_NE(copied.get(), base + 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copied.get()) % 64, 0U);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(copied.get()), 5000),
            bytes.substr(100, 5000));
  // The view keeps the mapping alive after the file's own holder lets go; released pages read
  // back with the same bytes.
  auto view = ViewOrCopy(*mapped, base + 4096, 8192);
  mapped->data.reset();
  in_place.reset();
  const std::string expected = bytes.substr(4096, 8192);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(view.get()), 8192), expected);
  ReleaseMappedPages(view.get(), 8192);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(view.get()), 8192), expected);
  std::filesystem::remove(path);
}

// A large unaligned tensor is copied slice by slice, each slice's pages of the mapping released
// as it goes: the copy has every byte, and the mapping still reads the file's bytes (released
// pages fault back in from the file).
TEST(FileBytes, ALargeCopyIsWholeAndTheMappingStillReadsTheFile) {
  const size_t size = (size_t{20} << 20) + 3;
  const std::string bytes = Pattern(size + 4096);
  const std::string path = WriteFile("large", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  const uint8_t* base = mapped->data.get();
  auto copied = ViewOrCopy(*mapped, base + 5, size);
  ASSERT_NE(copied.get(), base + 5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copied.get()) % 64, 0U);
  EXPECT_EQ(std::memcmp(copied.get(), bytes.data() + 5, size), 0);
  EXPECT_EQ(std::memcmp(base, bytes.data(), bytes.size()), 0);
  std::filesystem::remove(path);
}

TEST(FileBytes, ViewsOfACopyAreCopies) {
  const std::string bytes = Pattern(4096);
  FileBytes copy = CopyAligned(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  EXPECT_FALSE(copy.mapped);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data.get()) % 64, 0U);
  auto view = ViewOrCopy(copy, copy.data.get(), 4096);
  EXPECT_NE(view.get(), copy.data.get());  // never pins the whole buffer for one tensor
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(view.get()), 4096), bytes);
  EXPECT_EQ(ViewOrCopy(copy, copy.data.get(), 0), nullptr);
}

// A tensor over file bytes: an aligned one shares the mapping; an unaligned one is a copy that
// names its source, from which a new copy reads the same bytes after the file is gone from its
// directory. New bytes and writes forget the source; copies of the tensor keep it.
TEST(FileBytes, ACopiedTensorRemembersWhereItsBytesLie) {
  const std::string bytes = Pattern(size_t{3} * 4096);
  const std::string path = WriteFile("source", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  const uint8_t* base = mapped->data.get();
  GeTensor aligned;
  SetBytesFromFile(aligned, *mapped, base + 4096, 4096);
  EXPECT_TRUE(aligned.IsFileMapped());
  EXPECT_EQ(aligned.FileSource(), nullptr);
  EXPECT_EQ(aligned.GetData().data(), base + 4096);

  GeTensor copied;
  SetBytesFromFile(copied, *mapped, base + 10, 6000);
  EXPECT_FALSE(copied.IsFileMapped());
  ASSERT_NE(copied.FileSource(), nullptr);
  EXPECT_EQ(copied.FileSource().get(), base + 10);
  EXPECT_NE(copied.GetData().data(), base + 10);
  const GeTensor shared = copied;
  EXPECT_EQ(shared.FileSource(), copied.FileSource());

  *mapped = FileBytes{};
  std::filesystem::remove(path);
  auto again = CopyOfFileSource(copied.FileSource(), 6000);
  ASSERT_NE(again, nullptr);
  EXPECT_NE(again.get(), copied.GetData().data());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(again.get()) % 64, 0U);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(again.get()), 6000), bytes.substr(10, 6000));

  GeTensor written = copied;
  written.MutableData()[0] ^= 1;
  EXPECT_EQ(written.FileSource(), nullptr);
  GeTensor replaced = copied;
  replaced.SetData(std::vector<uint8_t>{1, 2, 3});
  EXPECT_EQ(replaced.FileSource(), nullptr);
  EXPECT_NE(copied.FileSource(), nullptr);
}

// From memory, not a mapping, there is no source to copy again from.
TEST(FileBytes, ATensorOverACopyHasNoSource) {
  const std::string bytes = Pattern(4096);
  FileBytes copy = CopyAligned(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  GeTensor tensor;
  SetBytesFromFile(tensor, copy, copy.data.get() + 3, 1000);
  EXPECT_EQ(tensor.FileSource(), nullptr);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(tensor.GetData().data()), 1000),
            bytes.substr(3, 1000));
}

}  // namespace
}  // namespace ge

// File bytes: mappings, aligned copies, and views that share a mapping or copy out of it.
#include "ge/graph/file_bytes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

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

// A large tensor off the alignment in a mapping is deferred: read where it lies by those that
// take any alignment (GetStoredData, no copy), copied once, aligned, for the first reader of
// GetData, that copy shared by every copy of the tensor. A write detaches the writer alone.
TEST(FileBytes, ALargeUnalignedTensorIsCopiedOnlyWhenReadAligned) {
  constexpr size_t kSize = size_t{200} << 10;
  const std::string bytes = Pattern(kSize + 4096);
  const std::string path = WriteFile("deferred", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  const uint8_t* at = mapped->data.get() + 3;
  GeTensor tensor;
  SetBytesFromFile(tensor, *mapped, at, kSize);
  EXPECT_TRUE(tensor.IsDeferred());
  EXPECT_FALSE(tensor.IsFileMapped());
  EXPECT_EQ(tensor.GetSize(), kSize);
  EXPECT_EQ(tensor.GetStoredData().data(), at);
  EXPECT_EQ(tensor.FileSource().get(), at);

  GeTensor copy = tensor;
  EXPECT_EQ(tensor.DataHolders(), 2);
  const uint8_t* aligned = copy.GetData().data();
  EXPECT_NE(aligned, at);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 64, 0U);
  EXPECT_EQ(std::memcmp(aligned, bytes.data() + 3, kSize), 0);
  EXPECT_EQ(tensor.GetData().data(), aligned);  // one copy for both
  EXPECT_EQ(tensor.SharedData().get(), aligned);
  EXPECT_EQ(tensor.GetStoredData().data(), at);  // still readable where it lies

  GeTensor same;
  same.SetData(reinterpret_cast<const uint8_t*>(bytes.data()) + 3, kSize);
  EXPECT_TRUE(same == tensor);
  const GeTensor clone = tensor.Clone();
  EXPECT_FALSE(clone.IsDeferred());
  EXPECT_NE(clone.GetData().data(), aligned);
  EXPECT_TRUE(clone == tensor);

  copy.MutableData()[0] ^= 1;
  EXPECT_FALSE(copy.IsDeferred());
  EXPECT_EQ(copy.FileSource(), nullptr);
  EXPECT_NE(copy.GetData().data(), aligned);
  EXPECT_EQ(tensor.GetData()[0], static_cast<uint8_t>(bytes[3]));
  EXPECT_FALSE(copy == tensor);
  EXPECT_EQ(tensor.DataHolders(), 1);

  tensor.SetData(std::vector<uint8_t>{1, 2, 3});
  EXPECT_FALSE(tensor.IsDeferred());
  EXPECT_EQ(tensor.GetSize(), 3U);
  EXPECT_EQ(tensor.GetData()[2], 3);
  std::filesystem::remove(path);
}

// Threads reading one deferred tensor's copies at once get one aligned copy, whole.
TEST(FileBytes, ADeferredTensorIsCopiedOnceForConcurrentReaders) {
  constexpr size_t kSize = size_t{1} << 20;
  const std::string bytes = Pattern(kSize + 64);
  const std::string path = WriteFile("deferred_threads", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  GeTensor tensor;
  SetBytesFromFile(tensor, *mapped, mapped->data.get() + 1, kSize);
  ASSERT_TRUE(tensor.IsDeferred());
  constexpr int kThreads = 4;
  std::vector<const uint8_t*> seen(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&seen, t, copy = tensor] { seen[t] = copy.GetData().data(); });
  }
  for (std::thread& t : threads) t.join();
  for (const uint8_t* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(std::memcmp(seen[0], bytes.data() + 1, kSize), 0);
  std::filesystem::remove(path);
}

// Small unaligned tensors are copied at once, and bytes in memory are never deferred.
TEST(FileBytes, SmallOrUnmappedBytesAreNotDeferred) {
  const std::string bytes = Pattern(size_t{256} << 10);
  const std::string path = WriteFile("not_deferred", bytes);
  auto mapped = MapFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status().message();
  GeTensor small;
  SetBytesFromFile(small, *mapped, mapped->data.get() + 5, 6000);
  EXPECT_FALSE(small.IsDeferred());
  EXPECT_NE(small.FileSource(), nullptr);
  FileBytes copy = CopyAligned(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  GeTensor unmapped;
  SetBytesFromFile(unmapped, copy, copy.data.get() + 5, size_t{128} << 10);
  EXPECT_FALSE(unmapped.IsDeferred());
  EXPECT_EQ(std::memcmp(unmapped.GetData().data(), bytes.data() + 5, size_t{128} << 10), 0);
  std::filesystem::remove(path);
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

// Weights stored in oneDNN's layouts: a kernel hands out the Const weight it reordered
// (PackedWeights), reads it back in place when the node says it is stored so
// (_cpu_weight_layout), reorders from a stored layout oneDNN does not want, and refuses a stored
// weight it cannot read with the node's name.
#include <gtest/gtest.h>

#include "dnnl_util.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Const;
using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::TestTensor;

/// The weight as the weight packer stores it: 1-D float over `bytes`, its logical dims as origin.
TestTensor Stored(const std::vector<uint8_t>& bytes, std::vector<int64_t> logical) {
  TestTensor t;
  t.dims = {static_cast<int64_t>(bytes.size() / sizeof(float))};
  t.bytes = bytes;
  t.is_const = true;
  t.origin_dims = std::move(logical);
  return t;
}

std::shared_ptr<OpDesc> Conv(int64_t group, const std::string& layout = "") {
  auto op = Op("Conv2D", "conv");
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{1, 1, 1, 1});
  AttrUtils::SetInt(op, "group", group);
  if (!layout.empty()) AttrUtils::SetStr(op, kAttrCpuWeightLayout, layout);
  return op;
}

/// Runs a 3x3 convolution c -> m (groups `group`) with a plain Const filter, then with the filter
/// it packed stored in that layout: the second reads it in place and gives the same numbers.
void CheckConvRoundTrip(int64_t c, int64_t m, int64_t group) {
  const std::vector<int64_t> wd = {m, c / group, 3, 3};
  const TestTensor x = Make({1, c, 14, 14}, Random(c * 196, 1));
  const TestTensor w = Make(wd, Random(testing::Count(wd), 2));
  const std::vector<testing::OutSpec> out = {{DT_FLOAT, {1, m, 14, 14}}};
  auto plain = RunKernel(Conv(group), {x, Const(w)}, out);
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  ASSERT_FALSE(plain.packed_layout.empty()) << "oneDNN took the plain filter: " << plain.impl;
  EXPECT_GE(plain.packed_bytes.size(), w.bytes.size());
  EXPECT_NE(plain.packed_bytes, w.bytes);
  auto stored =
      RunKernel(Conv(group, plain.packed_layout), {x, Stored(plain.packed_bytes, wd)}, out);
  ASSERT_TRUE(stored.status.ok()) << stored.status.message();
  EXPECT_TRUE(stored.packed_layout.empty()) << "reordered again into " << stored.packed_layout;
  EXPECT_EQ(stored.impl, plain.impl);
  EXPECT_EQ(stored.outputs[0].bytes, plain.outputs[0].bytes);
}

TEST(PackedWeights, AConvolutionReadsTheFilterItPackedInPlace) {
  CheckConvRoundTrip(32, 32, 1);
  CheckConvRoundTrip(16, 40, 1);   // output channels padded to the block
  CheckConvRoundTrip(32, 32, 32);  // depthwise: a grouped layout
}

/// `w` [o, i, 3, 3] in oneDNN's OIhw<b>i<b>o (o, i multiples of b).
std::vector<uint8_t> Blocked(const std::vector<float>& w, int64_t o, int64_t i, int64_t b) {
  std::vector<float> out(w.size());
  for (int64_t oo = 0; oo < o; ++oo)
    for (int64_t ii = 0; ii < i; ++ii)
      for (int64_t k = 0; k < 9; ++k) {
        const int64_t blk = ((oo / b) * (i / b) + ii / b) * 9 + k;
        out[static_cast<size_t>((blk * b + ii % b) * b + oo % b)] =
            w[static_cast<size_t>((oo * i + ii) * 9 + k)];
      }
  std::vector<uint8_t> bytes(out.size() * sizeof(float));
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

// A model packed on one machine and loaded on another (another instruction set) may hold a
// layout this oneDNN does not pick: the kernel reorders from it, and the numbers stay.
TEST(PackedWeights, AStoredLayoutOneDnnDoesNotWantIsReorderedFromIt) {
  const TestTensor x = Make({1, 16, 14, 14}, Random(int64_t{16} * 196, 3));
  const std::vector<float> wv = Random(int64_t{16} * 16 * 9, 4);
  const std::vector<testing::OutSpec> out = {{DT_FLOAT, {1, 16, 14, 14}}};
  auto plain = RunKernel(Conv(1), {x, Const(Make({16, 16, 3, 3}, wv))}, out);
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  const int64_t block = plain.packed_layout == "ABcd8b8a" ? 16 : 8;
  const std::string other =
      "ABcd" + std::to_string(block) + "b" + std::to_string(block) + "a";  // OIhw<b>i<b>o
  auto stored =
      RunKernel(Conv(1, other), {x, Stored(Blocked(wv, 16, 16, block), {16, 16, 3, 3})}, out);
  ASSERT_TRUE(stored.status.ok()) << stored.status.message();
  EXPECT_EQ(stored.packed_layout, plain.packed_layout);
  testing::ExpectNear(stored.outputs[0].Values<float>(), plain.outputs[0].Values<float>(), 1e-6F,
                      1e-6F);
}

// A matrix product's Const right operand: transposed (transpose_x2), oneDNN wants it reordered;
// stored in that layout it is read in place.
TEST(PackedWeights, AMatrixProductReadsItsPackedOperandInPlace) {
  auto op = [](const std::string& layout) {
    auto m = Op("MatMulV2", "fc");
    AttrUtils::SetBool(m, "transpose_x2", true);
    if (!layout.empty()) AttrUtils::SetStr(m, kAttrCpuWeightLayout, layout);
    return m;
  };
  const TestTensor a = Make({8, 64}, Random(int64_t{8} * 64, 5));
  const TestTensor b = Make({48, 64}, Random(int64_t{48} * 64, 6));
  const std::vector<testing::OutSpec> out = {{DT_FLOAT, {8, 48}}};
  auto plain = RunKernel(op(""), {a, Const(b)}, out);
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  ASSERT_FALSE(plain.packed_layout.empty()) << plain.impl;
  auto stored = RunKernel(op(plain.packed_layout), {a, Stored(plain.packed_bytes, {48, 64})}, out);
  ASSERT_TRUE(stored.status.ok()) << stored.status.message();
  EXPECT_TRUE(stored.packed_layout.empty());
  EXPECT_EQ(stored.outputs[0].bytes, plain.outputs[0].bytes);
}

TEST(PackedWeights, AStoredWeightTheKernelCannotReadIsRefusedNamingTheNode) {
  const TestTensor x = Make({1, 16, 8, 8}, Random(int64_t{16} * 64, 7));
  const std::vector<float> wv = Random(int64_t{16} * 16 * 9, 8);
  const std::vector<uint8_t> bytes = Blocked(wv, 16, 16, 16);
  const std::vector<testing::OutSpec> out = {{DT_FLOAT, {1, 16, 8, 8}}};
  auto unknown = RunKernel(Conv(1, "OIhw99i"), {x, Stored(bytes, {16, 16, 3, 3})}, out);
  ExpectError(unknown.status, "'OIhw99i' is not a oneDNN layout", "conv");
  auto rank = RunKernel(Conv(1, "abc"), {x, Stored(bytes, {16, 16, 3, 3})}, out);
  ExpectError(rank.status, "does not fit 4-D dims", "conv");
  std::vector<uint8_t> short_bytes(bytes.begin(), bytes.end() - 64);
  auto truncated = RunKernel(Conv(1, "ABcd16b16a"), {x, Stored(short_bytes, {16, 16, 3, 3})}, out);
  ExpectError(truncated.status, "holds " + std::to_string(short_bytes.size()) + " bytes", "conv");
  TestTensor computed = Stored(bytes, {16, 16, 3, 3});
  computed.is_const = false;
  auto not_const = RunKernel(Conv(1, "ABcd16b16a"), {x, computed}, out);
  ExpectError(not_const.status, "needs a Const weight", "conv");
}

// A layout's name is the format tag whose desc it is, asked once or many times (the names are
// kept); a layout no tag describes (strided) has none.
TEST(FormatTagName, NamesTheTagOfADescEveryTimeItIsAsked) {
  using dnnl::memory;
  struct Layout {
    memory::dims dims;
    memory::format_tag tag;
    const char* name;
  };
  const std::vector<Layout> layouts = {
      {{64, 32, 3, 3}, memory::format_tag::abcd, "abcd"},
      {{64, 32, 3, 3}, memory::format_tag::ABcd16b16a, "ABcd16b16a"},
      {{32, 1, 1, 3, 3}, memory::format_tag::Abcde16a, "Abcde16a"},
      {{1280, 192}, memory::format_tag::BA16a64b, "BA16a64b"},
      {{1, 40, 7, 7}, memory::format_tag::aBcd16b, "aBcd16b"}};
  for (int round = 0; round < 2; ++round) {
    for (const Layout& l : layouts) {
      EXPECT_EQ(FormatTagName(memory::desc(l.dims, memory::data_type::f32, l.tag)), l.name)
          << "round " << round;
    }
  }
  const memory::desc strided({4, 4}, memory::data_type::f32, memory::dims{8, 1});
  EXPECT_EQ(FormatTagName(strided), "");
  EXPECT_EQ(FormatTagName(memory::desc({4, 4}, memory::data_type::f32, memory::format_tag::ab)),
            "ab");
}

}  // namespace
}  // namespace ge::host_cpu

// The engine's Winograd weight transform writes what oneDNN's own reorder writes, in each of
// oneDNN's Winograd layouts, with channels padded to the layout's blocks; it refuses what it does
// not handle without writing; and a convolution oneDNN gives Winograd's algorithm (on AVX-512)
// gets the same filter from it as from oneDNN.
#include "winograd_weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ge::host_cpu {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

const dnnl::engine& Engine() {
  static const dnnl::engine kEngine(dnnl::engine::kind::cpu, 0);
  return kEngine;
}

struct Layout {
  dnnl_wino_memory_format_t format;
  int alpha;
  int ic_block, oc_block, ic2_block, oc2_block;
  int ic, oc;                // padded to the blocks
  int filter_ic, filter_oc;  // the filter's own
};

dnnl::memory::desc WinogradDesc(const Layout& l) {
  dnnl_memory_desc_t md{};
  md.ndims = 4;
  const dnnl_dim_t dims[4] = {l.filter_oc, l.filter_ic, 3, 3};
  for (int i = 0; i < 4; ++i) md.dims[i] = md.padded_dims[i] = dims[i];
  md.data_type = dnnl_f32;
  md.format_kind = dnnl_format_kind_wino;
  dnnl_wino_desc_t& w = md.format_desc.wino_desc;
  w.wino_format = l.format;
  w.r = 3;
  w.alpha = l.alpha;
  w.ic = l.ic;
  w.oc = l.oc;
  w.ic_block = l.ic_block;
  w.oc_block = l.oc_block;
  w.ic2_block = l.ic2_block;
  w.oc2_block = l.oc2_block;
  w.adj_scale = 1.0f;
  w.size = static_cast<size_t>(l.alpha) * l.alpha * l.ic * l.oc * sizeof(float);
  return {md};
}

std::vector<float> Filter(int64_t oc, int64_t ic) {
  std::vector<float> f(static_cast<size_t>(oc * ic * 9));
  for (size_t n = 0; n < f.size(); ++n) f[n] = std::cos(0.713f * static_cast<float>(n) + 0.2f);
  return f;
}

std::vector<float> OneDnnReorder(const dnnl::memory::desc& plain, const dnnl::memory::desc& wino,
                                 std::vector<float>& filter) {
  std::vector<float> out(wino.get_size() / sizeof(float), 0.0f);
  const dnnl::engine& eng = Engine();
  dnnl::memory src(plain, eng, filter.data()), dst(wino, eng, out.data());
  dnnl::stream stream(eng);
  dnnl::reorder(src, dst).execute(stream, src, dst);
  stream.wait();
  return out;
}

void ExpectClose(const std::vector<float>& ours, const std::vector<float>& theirs,
                 const std::string& what) {
  ASSERT_EQ(ours.size(), theirs.size()) << what;
  size_t wrong = 0, first = 0;
  for (size_t n = 0; n < ours.size(); ++n) {
    if (std::fabs(ours[n] - theirs[n]) > 1e-5f * (1.0f + std::fabs(theirs[n]))) {
      if (wrong++ == 0) first = n;
    }
  }
  EXPECT_EQ(wrong, 0u) << what << ": first at element " << first << " (" << ours[first]
                       << " against oneDNN's " << theirs[first] << ")";
}

void ExpectSameAsOneDnn(const Layout& l) {
  const std::string what = "layout " + std::to_string(static_cast<int>(l.format)) + ", filter " +
                           std::to_string(l.filter_oc) + "x" + std::to_string(l.filter_ic);
  const dnnl::memory::desc wino = WinogradDesc(l);
  const dnnl::memory::desc plain({l.filter_oc, l.filter_ic, 3, 3}, dt::f32, tag::abcd);
  std::vector<float> filter = Filter(l.filter_oc, l.filter_ic);
  const std::vector<float> theirs = OneDnnReorder(plain, wino, filter);
  std::vector<float> ours(theirs.size(), std::nanf(""));  // every element must be written
  ASSERT_TRUE(TransformWinogradWeights(plain, wino, filter.data(), ours.data())) << what;
  ExpectClose(ours, theirs, what);
}

TEST(WinogradWeights, WriteWhatOneDnnsReorderWritesInEveryLayout) {
  // F(2x2, 3x3) layouts, 4x4 tiles.
  ExpectSameAsOneDnn({dnnl_wino_wei_aaOIoi, 4, 16, 16, 1, 1, 32, 48, 32, 48});
  ExpectSameAsOneDnn({dnnl_wino_wei_aaOio, 4, 16, 16, 1, 1, 32, 32, 32, 32});
  ExpectSameAsOneDnn({dnnl_wino_wei_aaOBiOo, 4, 16, 16, 1, 2, 64, 64, 64, 64});
  // F(4x4, 3x3), 6x6 tiles, blocked twice over both kinds of channels.
  ExpectSameAsOneDnn({dnnl_wino_wei_OBaaIBOIio, 6, 16, 16, 4, 2, 128, 64, 128, 64});
  ExpectSameAsOneDnn({dnnl_wino_wei_OBaaIBOIio, 6, 16, 16, 2, 4, 64, 128, 64, 128});
}

TEST(WinogradWeights, ChannelsPaddedToTheBlocksReadAsZero) {
  ExpectSameAsOneDnn({dnnl_wino_wei_aaOBiOo, 4, 16, 16, 1, 2, 32, 64, 27, 40});
  ExpectSameAsOneDnn({dnnl_wino_wei_OBaaIBOIio, 6, 16, 16, 2, 2, 64, 64, 50, 33});
  ExpectSameAsOneDnn({dnnl_wino_wei_aaOIoi, 4, 16, 16, 1, 1, 16, 16, 3, 10});
}

TEST(WinogradWeights, RefusesWhatItDoesNotHandleWithoutWriting) {
  const Layout l{dnnl_wino_wei_OBaaIBOIio, 6, 16, 16, 1, 1, 16, 16, 16, 16};
  const dnnl::memory::desc wino = WinogradDesc(l);
  std::vector<float> filter = Filter(16, 16);
  std::vector<float> out(wino.get_size() / sizeof(float), 7.0f);
  auto untouched = [&out] {
    for (float v : out) {
      if (v != 7.0f) return false;
    }
    return true;
  };
  // A filter laid out HWIO, not OIHW.
  const dnnl::memory::desc hwio({16, 16, 3, 3}, dt::f32, tag::cdba);
  EXPECT_FALSE(TransformWinogradWeights(hwio, wino, filter.data(), out.data()));
  // A blocked layout is no Winograd layout.
  const dnnl::memory::desc plain({16, 16, 3, 3}, dt::f32, tag::abcd);
  const dnnl::memory::desc blocked({16, 16, 3, 3}, dt::f32, tag::ABcd16b16a);
  EXPECT_FALSE(TransformWinogradWeights(plain, blocked, filter.data(), out.data()));
  // A 6x6 tile in a layout of 4x4 ones, and a size that is not the tiles'.
  Layout odd = l;
  odd.format = dnnl_wino_wei_aaOio;
  EXPECT_FALSE(TransformWinogradWeights(plain, WinogradDesc(odd), filter.data(), out.data()));
  dnnl::memory::desc short_size = wino;
  short_size.data.format_desc.wino_desc.size -= sizeof(float);
  EXPECT_FALSE(TransformWinogradWeights(plain, short_size, filter.data(), out.data()));
  // A filter with more channels than the layout holds.
  Layout narrow = l;
  narrow.filter_ic = 20;
  const dnnl::memory::desc wide({16, 20, 3, 3}, dt::f32, tag::abcd);
  EXPECT_FALSE(TransformWinogradWeights(wide, WinogradDesc(narrow), filter.data(), out.data()));
  EXPECT_TRUE(untouched());
}

// A convolution of ResNet's sizes that oneDNN runs with Winograd's algorithm wants a layout this
// transform writes, and gives the same output with the filter it wrote.
TEST(WinogradWeights, AConvolutionRunsTheSameWithTheTransformedFilter) {
  const bool avx512 = static_cast<int>(dnnl::get_effective_cpu_isa()) >=
                      static_cast<int>(dnnl::cpu_isa::avx512_core);
  for (const int channels : {64, 128, 256}) {
    const int map = channels == 64 ? 56 : channels == 128 ? 28 : 14;
    const dnnl::memory::desc x({1, channels, map, map}, dt::f32, tag::aBcd16b);
    const dnnl::memory::desc w({channels, channels, 3, 3}, dt::f32, tag::any);
    const dnnl::memory::desc y({1, channels, map, map}, dt::f32, tag::aBcd16b);
    dnnl::convolution_forward::primitive_desc pd;
    try {
      pd = dnnl::convolution_forward::primitive_desc(
          dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                          dnnl::algorithm::convolution_winograd, x, w, y, {1, 1},
                                          {1, 1}, {1, 1}),
          Engine());
    } catch (const dnnl::error&) {
      // oneDNN has Winograd's algorithm on AVX-512 only.
      EXPECT_FALSE(avx512) << channels << " channels: no Winograd convolution on AVX-512";
      continue;
    }
    const dnnl::memory::desc plain({channels, channels, 3, 3}, dt::f32, tag::abcd);
    std::vector<float> filter = Filter(channels, channels);
    const std::vector<float> theirs = OneDnnReorder(plain, pd.weights_desc(), filter);
    std::vector<float> ours(theirs.size(), std::nanf(""));
    ASSERT_TRUE(TransformWinogradWeights(plain, pd.weights_desc(), filter.data(), ours.data()))
        << channels << " channels";
    ExpectClose(ours, theirs, std::to_string(channels) + " channels");

    std::vector<float> input(x.get_size() / sizeof(float));
    for (size_t n = 0; n < input.size(); ++n) input[n] = std::sin(0.05f * static_cast<float>(n));
    auto run = [&](std::vector<float>& weights) {
      std::vector<float> out(y.get_size() / sizeof(float));
      const dnnl::engine& eng = Engine();
      dnnl::memory src(x, eng, input.data()), wei(pd.weights_desc(), eng, weights.data()),
          dst(y, eng, out.data());
      dnnl::stream stream(eng);
      dnnl::convolution_forward(pd).execute(
          stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
      stream.wait();
      return out;
    };
    std::vector<float> theirs_copy = theirs;
    const std::vector<float> expected = run(theirs_copy);
    const std::vector<float> got = run(ours);
    float largest = 0.0f, diff = 0.0f;
    for (size_t n = 0; n < got.size(); ++n) {
      largest = std::max(largest, std::fabs(expected[n]));
      diff = std::max(diff, std::fabs(got[n] - expected[n]));
    }
    EXPECT_LE(diff, 1e-5f * largest) << channels << " channels";
  }
}

}  // namespace
}  // namespace ge::host_cpu

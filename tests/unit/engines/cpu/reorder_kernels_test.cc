// Unique (through the data-dependent output protocol) and ReverseSequence against naive
// references.
#include <map>
#include <optional>
#include <random>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::RunKernel;
using testing::SpecOf;
using testing::TestTensor;

struct UniqueRun {
  Status status;
  std::vector<std::vector<int64_t>> dims;  ///< per output, after the run
  std::vector<TestTensor> outs;            ///< buffers of the bound's size
};

// Outputs 0, 1 and 3 get MaxOutputDims; inverse_indices (2) has the static slice count.
UniqueRun RunUnique(const TestTensor& x, std::optional<int64_t> axis, bool sorted) {
  auto op = Op("Unique", "uniq");
  if (axis) AttrUtils::SetInt(op, "axis", *axis);
  AttrUtils::SetInt(op, "sorted", sorted ? 1 : 0);
  auto kernel = FindCpuKernel("Unique")();
  KernelSpec spec;
  spec.op = op.get();
  spec.inputs = {testing::SpecOf(x.dtype, x.dims, true)};
  spec.outputs = {testing::SpecOf(x.dtype, {-1}, true), testing::SpecOf(DT_INT64, {-1}, true),
                  testing::SpecOf(DT_INT64, {-1}, true), testing::SpecOf(DT_INT64, {-1}, true)};
  UniqueRun run;
  run.status = kernel->Prepare(spec);
  if (!run.status.ok()) return run;
  const auto rank = static_cast<int64_t>(x.dims.size());
  const int64_t a = axis ? (*axis < 0 ? *axis + rank : *axis) : -1;
  const int64_t slices = a < 0      ? testing::Count(x.dims)
                         : a < rank ? x.dims[static_cast<size_t>(a)]
                                    : 0;
  KernelArgs args;
  args.inputs = {{x.bytes.data(), spec.inputs[0]}};
  run.outs.resize(4);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(kernel->OutputDimsDependOnData(i), i != 2);
    TestTensor& t = run.outs[i];
    t.dtype = i == 0 ? x.dtype : DT_INT64;
    t.dims = i == 2 ? std::vector<int64_t>{slices} : kernel->MaxOutputDims(i, spec.inputs);
    t.bytes.assign(static_cast<size_t>(testing::Count(t.dims) * 8), 0);
    args.outputs.push_back({t.bytes.data(), SpecOf(t.dtype, t.dims, true)});
  }
  run.status = kernel->Run(args);
  if (!run.status.ok()) return run;
  for (size_t i = 0; i < 4; ++i) {
    run.dims.push_back(i == 2 ? run.outs[i].dims : kernel->ActualOutputDims(i));
  }
  return run;
}

template <typename T>
std::vector<T> Prefix(const TestTensor& t, int64_t n) {
  auto v = t.Values<T>();
  return std::vector<T>(v.begin(), v.begin() + n);
}

TEST(UniqueKernel, FlattenedSortedAndUnsortedMatchAMapReference) {
  std::mt19937 gen(3);
  std::uniform_int_distribution<int32_t> dist(-5, 5);
  std::vector<int32_t> x(60);
  for (int32_t& v : x) v = dist(gen);
  for (bool sorted : {true, false}) {
    SCOPED_TRACE(sorted);
    // Reference: first index and count of every value; order by value or by first index.
    std::map<int32_t, std::pair<int64_t, int64_t>> seen;
    for (size_t i = 0; i < x.size(); ++i) {
      auto [it, fresh] = seen.try_emplace(x[i], static_cast<int64_t>(i), 0);
      ++it->second.second;
    }
    std::vector<std::pair<int32_t, std::pair<int64_t, int64_t>>> groups(seen.begin(), seen.end());
    if (!sorted) {
      std::sort(groups.begin(), groups.end(),
                [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    }
    std::vector<int32_t> y;
    std::vector<int64_t> first, counts, inverse;
    std::map<int32_t, int64_t> pos;
    for (const auto& [v, fc] : groups) {
      pos[v] = static_cast<int64_t>(y.size());
      y.push_back(v);
      first.push_back(fc.first);
      counts.push_back(fc.second);
    }
    for (int32_t v : x) inverse.push_back(pos[v]);
    auto r = RunUnique(Make({3, 4, 5}, x), std::nullopt, sorted);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto u = static_cast<int64_t>(y.size());
    EXPECT_EQ(r.dims[0], (std::vector<int64_t>{u}));
    EXPECT_EQ(r.dims[3], (std::vector<int64_t>{u}));
    EXPECT_EQ(Prefix<int32_t>(r.outs[0], u), y);
    EXPECT_EQ(Prefix<int64_t>(r.outs[1], u), first);
    EXPECT_EQ(r.outs[2].Values<int64_t>(), inverse);
    EXPECT_EQ(Prefix<int64_t>(r.outs[3], u), counts);
  }
}

TEST(UniqueKernel, SlicesAlongAnAxisSortLexicographically) {
  // Rows [2,3,4], [1,0,0], [1,0,0], [1,0,-1] along axis 0 (and -2).
  const auto x = Make<float>({4, 3}, {2, 3, 4, 1, 0, 0, 1, 0, 0, 1, 0, -1});
  for (int64_t axis : {0, -2}) {
    auto r = RunUnique(x, axis, true);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.dims[0], (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(Prefix<float>(r.outs[0], 9), (std::vector<float>{1, 0, -1, 1, 0, 0, 2, 3, 4}));
    EXPECT_EQ(Prefix<int64_t>(r.outs[1], 3), (std::vector<int64_t>{3, 1, 0}));
    EXPECT_EQ(r.outs[2].Values<int64_t>(), (std::vector<int64_t>{2, 1, 1, 0}));
    EXPECT_EQ(Prefix<int64_t>(r.outs[3], 3), (std::vector<int64_t>{1, 2, 1}));
  }
  // Axis 1 of [2, 3]: columns (1,1), (0,0), (1,1) → (0,0), (1,1); Y keeps both rows.
  auto r = RunUnique(Make<int64_t>({2, 3}, {1, 0, 1, 1, 0, 1}), 1, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims[0], (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Prefix<int64_t>(r.outs[0], 4), (std::vector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(r.outs[2].Values<int64_t>(), (std::vector<int64_t>{1, 0, 1}));
}

TEST(UniqueKernel, Errors) {
  auto r = RunUnique(Make<float>({2, 2}, {1, 2, 3, 4}), 2, true);
  ExpectError(r.status, "attribute 'axis' 2 is out of range for rank 2", "uniq");
}

// ---- ReverseSequence ----

std::vector<float> RefReverse(const std::vector<float>& x, const std::vector<int64_t>& d,
                              int64_t batch_axis, const std::vector<int64_t>& lens) {
  std::vector<float> y(x.size());
  const int64_t inner = testing::Count(std::vector<int64_t>(d.begin() + 2, d.end()));
  for (int64_t i = 0; i < d[0]; ++i) {
    for (int64_t j = 0; j < d[1]; ++j) {
      const int64_t b = batch_axis == 0 ? i : j, t = batch_axis == 0 ? j : i;
      const int64_t l = lens[static_cast<size_t>(b)];
      const int64_t src_t = t < l ? l - 1 - t : t;
      const int64_t si = batch_axis == 0 ? i : src_t, sj = batch_axis == 0 ? src_t : j;
      for (int64_t k = 0; k < inner; ++k) {
        y[static_cast<size_t>((i * d[1] + j) * inner + k)] =
            x[static_cast<size_t>((si * d[1] + sj) * inner + k)];
      }
    }
  }
  return y;
}

TEST(ReverseSequenceKernel, BothLayoutsMatchTheReference) {
  const std::vector<int64_t> d = {4, 3, 2};
  const auto x = testing::Random(24, 9);
  for (int64_t batch_axis : {0, 1}) {
    SCOPED_TRACE(batch_axis);
    const std::vector<int64_t> lens =
        batch_axis == 0 ? std::vector<int64_t>{3, 0, 1, 2} : std::vector<int64_t>{4, 2, 1};
    auto op = Op("ReverseSequence", "rev");
    AttrUtils::SetInt(op, "batch_axis", batch_axis);
    AttrUtils::SetInt(op, "time_axis", 1 - batch_axis);
    auto r = RunKernel(
        op, {Make(d, x), Make(std::vector<int64_t>{static_cast<int64_t>(lens.size())}, lens)},
        {{DT_FLOAT, d}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].Values<float>(), RefReverse(x, d, batch_axis, lens));
  }
}

TEST(ReverseSequenceKernel, Errors) {
  auto op = Op("ReverseSequence", "rev");
  auto r = RunKernel(op, {Make<float>({3, 2}, {1, 2, 3, 4, 5, 6}), Make<int64_t>({2}, {4, 1})},
                     {{DT_FLOAT, {3, 2}}});
  ExpectError(r.status, "sequence length 4 is outside [0, 3]", "rev");
  AttrUtils::SetInt(op, "time_axis", 1);
  r = RunKernel(op, {Make<float>({3, 2}, {1, 2, 3, 4, 5, 6}), Make<int64_t>({2}, {1, 1})},
                {{DT_FLOAT, {3, 2}}});
  ExpectError(r.status, "must be 0 and 1 in some order", "rev");
}

}  // namespace
}  // namespace ge::host_cpu

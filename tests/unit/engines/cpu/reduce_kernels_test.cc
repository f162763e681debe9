// Reductions and ArgMax / ArgMin against naive loops over every axis combination.
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

// Naive reduction of x [2,3,4,5] over the axes in `mask` (bit i = axis i).
std::vector<float> RefReduce(const std::string& type, const std::vector<float>& x, unsigned mask,
                             std::vector<int64_t>* out_dims, bool keepdims) {
  const std::vector<int64_t> d = {2, 3, 4, 5};
  std::vector<int64_t> od;
  for (int i = 0; i < 4; ++i) od.push_back((mask >> i & 1) ? 1 : d[i]);
  std::vector<std::vector<double>> groups(static_cast<size_t>(testing::Count(od)));
  for (int64_t f = 0; f < 120; ++f) {
    int64_t c[4], r = f;
    for (int i = 3; i >= 0; --i) {
      c[i] = r % d[i];
      r /= d[i];
    }
    int64_t o = 0;
    for (int i = 0; i < 4; ++i) o = o * od[i] + ((mask >> i & 1) ? 0 : c[i]);
    groups[o].push_back(x[f]);
  }
  std::vector<float> y;
  for (const auto& g : groups) {
    double acc = type == "ReduceMax"    ? -1e30
                 : type == "ReduceMin"  ? 1e30
                 : type == "ReduceProd" ? 1
                                        : 0;
    double m = -1e30;
    for (double v : g) m = std::max(m, v);
    for (double v : g) {
      if (type == "ReduceMax")
        acc = std::max(acc, v);
      else if (type == "ReduceMin")
        acc = std::min(acc, v);
      else if (type == "ReduceProd")
        acc *= v;
      else if (type == "ReduceL1")
        acc += std::fabs(v);
      else if (type == "ReduceL2" || type == "ReduceSumSquare")
        acc += v * v;
      else if (type == "ReduceLogSumExp")
        acc += std::exp(v - m);
      else
        acc += v;
    }
    if (type == "ReduceMean") acc /= static_cast<double>(g.size());
    if (type == "ReduceL2") acc = std::sqrt(acc);
    if (type == "ReduceLogSum") acc = std::log(acc);
    if (type == "ReduceLogSumExp") acc = std::log(acc) + m;
    y.push_back(static_cast<float>(acc));
  }
  out_dims->clear();
  for (int i = 0; i < 4; ++i) {
    if (!(mask >> i & 1) || keepdims) out_dims->push_back(od[i]);
  }
  return y;
}

TEST(ReduceKernel, EveryOpOverEveryAxisSet) {
  const auto x = Random(120, 1, 0.5F, 1.5F);
  for (const char* type :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    for (unsigned mask = 1; mask < 16; ++mask) {
      for (bool keep : {true, false}) {
        SCOPED_TRACE(std::string(type) + " mask " + std::to_string(mask) + " keep " +
                     std::to_string(keep));
        std::vector<int64_t> axes, od;
        for (int i = 0; i < 4; ++i) {
          if (mask >> i & 1) axes.push_back(i == 3 ? -1 : i);  // also a negative axis
        }
        const auto want = RefReduce(type, x, mask, &od, keep);
        auto op = Op(type);
        AttrUtils::SetInt(op, "keepdims", keep ? 1 : 0);
        auto r = RunKernel(
            op, {Make({2, 3, 4, 5}, x), Make<int64_t>({static_cast<int64_t>(axes.size())}, axes)},
            {{DT_FLOAT, od}});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(), want, 1e-5F, 1e-5F);
      }
    }
  }
}

TEST(ReduceKernel, AxesAttributeEmptyAxesAndNoop) {
  const auto x = Random(120, 2);
  std::vector<int64_t> od;
  auto op = Op("ReduceMean");
  AttrUtils::SetListInt(op, "axes", std::vector<int64_t>{1, 2});
  auto r = RunKernel(op, {Make({2, 3, 4, 5}, x)}, {{DT_FLOAT, {2, 1, 1, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefReduce("ReduceMean", x, 6, &od, true));
  r = RunKernel(Op("ReduceSum"), {Make({2, 3, 4, 5}, x)}, {{DT_FLOAT, {1, 1, 1, 1}}});  // all axes
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefReduce("ReduceSum", x, 15, &od, true), 1e-5F, 1e-4F);
  auto noop = Op("ReduceSum");
  AttrUtils::SetInt(noop, "noop_with_empty_axes", 1);
  r = RunKernel(noop, {Make({2, 3, 4, 5}, x)}, {{DT_FLOAT, {2, 3, 4, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), x);
}

TEST(ReduceKernel, IntegersAndErrors) {
  auto r =
      RunKernel(Op("ReduceSum"), {Make<int64_t>({2, 2}, {1, 2, 3, 4}), Make<int64_t>({1}, {0})},
                {{DT_INT64, {1, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{4, 6}));
  r = RunKernel(Op("ReduceMax", "rmax"), {Make({2, 2}, Random(4)), Make<int64_t>({1}, {2})},
                {{DT_FLOAT, {2, 1}}});
  ExpectError(r.status, "out of range", "rmax");
  r = RunKernel(Op("ReduceSum"), {Make({2, 2}, Random(4)), Make<int64_t>({1}, {1})},
                {{DT_FLOAT, {2}}});
  ExpectError(r.status, "should be");
}

TEST(ArgKernel, MaxMinKeepdimsAndLastIndex) {
  const auto x = Make<float>({2, 3}, {1, 5, 5, 7, 0, 7});
  auto op = Op("ArgMaxV2");
  AttrUtils::SetInt(op, "axis", 1);
  auto r = RunKernel(op, {x}, {{DT_INT64, {2, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{1, 0}));
  AttrUtils::SetInt(op, "select_last_index", 1);
  AttrUtils::SetInt(op, "keepdims", 0);
  r = RunKernel(op, {x}, {{DT_INT64, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{2, 2}));
  auto mn = Op("ArgMin");
  AttrUtils::SetInt(mn, "axis", -2);
  r = RunKernel(mn, {x}, {{DT_INT64, {1, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{0, 1, 0}));
}

}  // namespace
}  // namespace ge::host_cpu

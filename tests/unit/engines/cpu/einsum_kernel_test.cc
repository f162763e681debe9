// Einsum against loops written out for each equation: products, traces and diagonals, implicit
// output, broadcast ellipsis, three operands, integer dtypes, and malformed equations.
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::TestTensor;

testing::RunResult RunEinsum(const std::string& equation, const std::vector<TestTensor>& in,
                             std::vector<int64_t> out_dims, DataType dtype = DT_FLOAT,
                             const std::string& name = "node") {
  auto op = Op("Einsum", name);
  AttrUtils::SetStr(op, "equation", equation);
  return RunKernel(op, in, {{dtype, std::move(out_dims)}});
}

// a [m, k] x b [k, n].
std::vector<float> MatMul(const std::vector<float>& a, const std::vector<float>& b, int64_t m,
                          int64_t k, int64_t n) {
  std::vector<float> y(static_cast<size_t>(m * n), 0.0F);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(a[i * k + p]) * b[p * n + j];
      y[i * n + j] = static_cast<float>(s);
    }
  return y;
}

TEST(EinsumKernel, MatMulExplicitAndImplicit) {
  const auto a = Random(3 * 4, 1), b = Random(4 * 5, 2);
  for (const char* eq : {"ij,jk->ik", "ij,jk", " ij , jk -> ik "}) {
    SCOPED_TRACE(eq);
    auto r = RunEinsum(eq, {Make({3, 4}, a), Make({4, 5}, b)}, {3, 5});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ExpectNear(r.outputs[0].Values<float>(), MatMul(a, b, 3, 4, 5));
  }
}

TEST(EinsumKernel, ImplicitOutputSortsLabelsAlphabetically) {
  // "ba" has output "ab": the transpose.
  const auto x = Random(2 * 3, 3);
  auto r = RunEinsum("ba", {Make({2, 3}, x)}, {3, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{x[0], x[3], x[1], x[4], x[2], x[5]}));
}

TEST(EinsumKernel, TraceDiagonalAndFullSum) {
  const auto x = Random(3 * 3, 4);
  auto r = RunEinsum("ii", {Make({3, 3}, x)}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {x[0] + x[4] + x[8]});
  r = RunEinsum("ii->i", {Make({3, 3}, x)}, {3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{x[0], x[4], x[8]}));
  r = RunEinsum("ij->", {Make({3, 3}, x)}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  float total = 0;
  for (float v : x) total += v;
  ExpectNear(r.outputs[0].Values<float>(), {total});
}

TEST(EinsumKernel, BatchDiagonalWithEllipsisInDouble) {
  std::vector<double> x(2 * 3 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5 * static_cast<double>(i);
  auto r = RunEinsum("...ii->...i", {Make({2, 3, 3}, x)}, {2, 3}, DT_DOUBLE);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<double>(), (std::vector<double>{0, 2, 4, 4.5, 6.5, 8.5}));
}

TEST(EinsumKernel, EllipsisBroadcastsBatchDims) {
  // [2, 1, 3, 4] x [5, 4, 2] → [2, 5, 3, 2].
  const auto a = Random(2 * 3 * 4, 5), b = Random(5 * 4 * 2, 6);
  auto r =
      RunEinsum("...ij,...jk->...ik", {Make({2, 1, 3, 4}, a), Make({5, 4, 2}, b)}, {2, 5, 3, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (int64_t p = 0; p < 2; ++p) {
    for (int64_t q = 0; q < 5; ++q) {
      const std::vector<float> ap(a.begin() + p * 12, a.begin() + (p + 1) * 12);
      const std::vector<float> bq(b.begin() + q * 8, b.begin() + (q + 1) * 8);
      const auto y = MatMul(ap, bq, 3, 4, 2);
      want.insert(want.end(), y.begin(), y.end());
    }
  }
  ExpectNear(r.outputs[0].Values<float>(), want);
}

TEST(EinsumKernel, ThreeOperandsAndIntegers) {
  const std::vector<int64_t> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c = {1, -1, 2, 0};
  auto r = RunEinsum("ij,jk,kl->il", {Make({2, 2}, a), Make({2, 2}, b), Make({2, 2}, c)}, {2, 2},
                     DT_INT64);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // a.b = [[19, 22], [43, 50]]; (a.b).c = [[63, -19], [143, -43]].
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{63, -19, 143, -43}));
}

TEST(EinsumKernel, RejectsMalformedEquationsNamingTheNode) {
  const auto x = Make({2, 2}, Random(4));
  ExpectError(RunEinsum("i$->i", {x}, {2}, DT_FLOAT, "e1").status, "unexpected character", "e1");
  ExpectError(RunEinsum("ij,jk->ik", {x}, {2, 2}).status, "operands");
  ExpectError(RunEinsum("ij->iz", {x}, {2, 2}).status, "appears in no operand");
  ExpectError(RunEinsum("ijk->i", {x}, {2}).status, "does not fit");
  ExpectError(RunEinsum("ij,jk->ik", {x, Make({3, 2}, Random(6))}, {2, 2}).status, "conflicts");
}

}  // namespace
}  // namespace ge::host_cpu

// FusedAttention and SkipLayerNorm against naive references (scores materialized, doubles).
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
using testing::RunOptions;

struct AttentionCase {
  int64_t batch, heads, s, sk, d, dv;
  bool k_transposed;
  bool mask;  ///< an additive mask [batch, 1, 1, sk] (padding), broadcast over heads and rows
  bool causal = false;   ///< query i sees keys j <= i + sk - s
  const char* way = "";  ///< _attention_way: "whole", "streamed", or the kernel's choice
};

/// softmax(q k^T * scale + mask) v, one matrix at a time, the scores kept whole.
std::vector<float> RefAttention(const AttentionCase& c, const std::vector<float>& q,
                                const std::vector<float>& k, const std::vector<float>& v,
                                const std::vector<float>& mask, float scale) {
  std::vector<float> y(static_cast<size_t>(c.batch * c.heads * c.s * c.dv));
  std::vector<double> scores(static_cast<size_t>(c.sk));
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t h = 0; h < c.heads; ++h) {
      const int64_t m = b * c.heads + h;
      for (int64_t i = 0; i < c.s; ++i) {
        double mx = -INFINITY;
        const int64_t seen = c.causal ? i + c.sk - c.s + 1 : c.sk;
        for (int64_t j = 0; j < c.sk; ++j) {
          if (j >= seen) {
            scores[j] = -INFINITY;
            continue;
          }
          double dot = 0;
          for (int64_t t = 0; t < c.d; ++t) {
            const float kv =
                c.k_transposed ? k[(m * c.d + t) * c.sk + j] : k[(m * c.sk + j) * c.d + t];
            dot += static_cast<double>(q[(m * c.s + i) * c.d + t]) * kv;
          }
          scores[j] = dot * scale + (mask.empty() ? 0.0 : mask[b * c.sk + j]);
          mx = std::max(mx, scores[j]);
        }
        double sum = 0;
        for (double& x : scores) sum += (x = std::exp(x - mx));
        for (int64_t e = 0; e < c.dv; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < c.sk; ++j) acc += scores[j] / sum * v[(m * c.sk + j) * c.dv + e];
          y[(m * c.s + i) * c.dv + e] = static_cast<float>(acc);
        }
      }
    }
  }
  return y;
}

void CheckAttention(const AttentionCase& c, RunOptions options = {}) {
  SCOPED_TRACE(::testing::Message() << "batch " << c.batch << " heads " << c.heads << " s " << c.s
                                    << " sk " << c.sk << " d " << c.d << " dv " << c.dv
                                    << (c.k_transposed ? " k^T" : " k") << (c.mask ? " mask" : "")
                                    << (c.causal ? " causal" : "") << " way '" << c.way << "'");
  const float scale = 1.0F / std::sqrt(static_cast<float>(c.d));
  const auto q = Random(c.batch * c.heads * c.s * c.d, 1, -2.0F, 2.0F);
  const auto k = Random(c.batch * c.heads * c.sk * c.d, 2, -2.0F, 2.0F);
  const auto v = Random(c.batch * c.heads * c.sk * c.dv, 3);
  std::vector<float> mask;
  if (c.mask) {
    mask.assign(static_cast<size_t>(c.batch * c.sk), 0.0F);
    for (int64_t b = 0; b < c.batch; ++b) {
      for (int64_t j = c.sk - b - 1; j < c.sk && j > 0; ++j) mask[b * c.sk + j] = -10000.0F;
    }
  }
  auto op = Op("FusedAttention");
  AttrUtils::SetFloat(op, "scale", scale);
  AttrUtils::SetBool(op, "k_transposed", c.k_transposed);
  AttrUtils::SetBool(op, "causal", c.causal);
  if (*c.way != 0) AttrUtils::SetStr(op, "_attention_way", c.way);
  std::vector<testing::TestTensor> inputs = {
      Make({c.batch, c.heads, c.s, c.d}, q),
      Make(c.k_transposed ? std::vector<int64_t>{c.batch, c.heads, c.d, c.sk}
                          : std::vector<int64_t>{c.batch, c.heads, c.sk, c.d},
           k),
      Make({c.batch, c.heads, c.sk, c.dv}, v)};
  if (c.mask) inputs.push_back(Make({c.batch, 1, 1, c.sk}, mask));
  auto r = RunKernel(op, inputs, {{DT_FLOAT, {c.batch, c.heads, c.s, c.dv}}}, options);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefAttention(c, q, k, v, mask, scale), 1e-5F, 1e-5F);
}

TEST(FusedAttentionKernel, MatchesTheNaiveReferenceOverShapesBothWays) {
  for (const char* way : {"whole", "streamed"}) {
    for (bool k_transposed : {true, false}) {
      for (bool mask : {false, true}) {
        CheckAttention({1, 1, 1, 1, 4, 4, k_transposed, mask, false, way});
        CheckAttention({2, 4, 16, 16, 16, 16, k_transposed, mask, false, way});
        CheckAttention({3, 2, 33, 7, 8, 5, k_transposed, mask, false, way});
        // Two row blocks when streamed, Dv != D.
        CheckAttention({1, 3, 130, 70, 24, 40, k_transposed, mask, false, way});
        // 8-row blocks when streamed: Sk is long.
        CheckAttention({1, 1, 20, 4100, 4, 3, k_transposed, mask, false, way});
      }
    }
  }
}

// A decoder's mask without a mask tensor: query i sees keys up to i (plus the Sk - S cached keys
// before the queries); streamed, a block of queries computes only the keys its last row sees.
TEST(FusedAttentionKernel, CausalAttentionMatchesTheMaskedReferenceBothWays) {
  for (const char* way : {"whole", "streamed", ""}) {
    for (bool k_transposed : {true, false}) {
      CheckAttention({1, 2, 16, 16, 8, 8, k_transposed, false, true, way});
      CheckAttention({2, 3, 130, 130, 16, 24, k_transposed, false, true, way});  // two row blocks
      CheckAttention({1, 2, 5, 12, 8, 8, k_transposed, false, true, way});       // 7 cached keys
    }
  }
  CheckAttention({1, 4, 300, 300, 16, 16, false, false, true, ""}, {.threads = 2});  // streams
}

// Whole scores while they fit (and a causal attention is short); streamed for a causal one over
// 256 keys or more, and for scores over 16 MB.
TEST(FusedAttentionKernel, ChoosesItsWayByShape) {
  auto impl = [](int64_t heads, int64_t s, bool causal) {
    auto op = Op("FusedAttention");
    AttrUtils::SetBool(op, "causal", causal);
    const std::vector<int64_t> dims = {1, heads, s, 4};
    const auto x = Random(heads * s * 4, 1);
    auto r = RunKernel(op, {Make(dims, x), Make(dims, x), Make(dims, x)}, {{DT_FLOAT, dims}});
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    return r.impl;
  };
  EXPECT_EQ(impl(12, 128, false).rfind("whole:", 0), 0U) << impl(12, 128, false);
  EXPECT_EQ(impl(2, 128, true).rfind("whole:", 0), 0U);
  EXPECT_EQ(impl(2, 256, true), "streamed");
  EXPECT_EQ(impl(17, 512, false), "streamed");  // 17 MB of scores
}

TEST(FusedAttentionKernel, UsesThreadsAndGivesTheSameNumbers) {
  CheckAttention({2, 4, 64, 64, 32, 32, true, true}, {.threads = 4});
  CheckAttention({2, 4, 64, 48, 32, 16, false, false}, {.threads = 3});
}

// Prepared with every dim unknown, run twice on one kernel: dims are read at Run.
TEST(FusedAttentionKernel, DynamicShapes) {
  CheckAttention({2, 2, 9, 9, 8, 8, true, true}, {.dynamic = true, .runs = 2});
  CheckAttention({1, 4, 40, 17, 16, 8, false, true}, {.threads = 2, .dynamic = true});
}

TensorSpec Spec(std::vector<int64_t> dims) {
  TensorSpec s;
  s.dtype = DT_FLOAT;
  s.dims = std::move(dims);
  return s;
}

// A kernel prepared once serves calls with other dims than the first.
TEST(FusedAttentionKernel, OneKernelServesSeveralShapes) {
  const CpuKernelFactory factory = FindCpuKernel("FusedAttention");
  ASSERT_NE(factory, nullptr);
  auto kernel = factory();
  auto op = Op("FusedAttention");
  AttrUtils::SetBool(op, "k_transposed", false);
  KernelSpec spec;
  spec.op = op.get();
  spec.inputs = {Spec({-1, -1, -1}), Spec({-1, -1, -1}), Spec({-1, -1, -1})};
  spec.outputs = {Spec({-1, -1, -1})};
  ASSERT_TRUE(kernel->Prepare(spec).ok());
  for (int64_t s : {3, 20, 5}) {
    const AttentionCase c{1, 2, s, s + 1, 4, 6, false, false};
    const auto q = Random(2 * s * 4, 4), k = Random(2 * (s + 1) * 4, 5),
               v = Random(2 * (s + 1) * 6, 6);
    std::vector<float> y(static_cast<size_t>(2 * s * 6));
    KernelArgs args;
    args.inputs.resize(3);
    args.inputs[0].data = q.data();
    args.inputs[0].spec = Spec({2, s, 4});
    args.inputs[1].data = k.data();
    args.inputs[1].spec = Spec({2, s + 1, 4});
    args.inputs[2].data = v.data();
    args.inputs[2].spec = Spec({2, s + 1, 6});
    args.outputs.resize(1);
    args.outputs[0].data = y.data();
    args.outputs[0].spec = Spec({2, s, 6});
    ASSERT_TRUE(kernel->Run(args).ok());
    ExpectNear(y, RefAttention(c, q, k, v, {}, 1.0F));
  }
}

// Batch dims broadcast: one k and v shared by every head.
TEST(FusedAttentionKernel, BroadcastsBatchDims) {
  const auto q = Random(2 * 3 * 5 * 4, 7), k = Random(5 * 4, 8), v = Random(5 * 2, 9);
  auto op = Op("FusedAttention");
  auto r = RunKernel(op, {Make({2, 3, 5, 4}, q), Make({1, 1, 5, 4}, k), Make({1, 1, 5, 2}, v)},
                     {{DT_FLOAT, {2, 3, 5, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> kk, vv;
  for (int m = 0; m < 6; ++m) {
    kk.insert(kk.end(), k.begin(), k.end());
    vv.insert(vv.end(), v.begin(), v.end());
  }
  ExpectNear(r.outputs[0].Values<float>(),
             RefAttention({2, 3, 5, 5, 4, 2, false, false}, q, kk, vv, {}, 1.0F));
}

TEST(FusedAttentionKernel, RejectsOperandsThatDoNotFit) {
  auto op = Op("FusedAttention");
  AttrUtils::SetBool(op, "k_transposed", true);
  auto r = RunKernel(
      op, {Make({1, 4, 8}, Random(32)), Make({1, 5, 4}, Random(20)), Make({1, 4, 8}, Random(32))},
      {{DT_FLOAT, {1, 4, 8}}});
  ExpectError(r.status, "do not fit together");
  r = RunKernel(op,
                {Make({1, 4, 8}, Random(32)), Make({1, 8, 4}, Random(32)),
                 Make({1, 4, 8}, Random(32)), Make({3, 4}, Random(12))},
                {{DT_FLOAT, {1, 4, 8}}});
  ExpectError(r.status, "mask [3,4] does not broadcast to the scores [1,4,4]");
  auto causal = Op("FusedAttention");
  AttrUtils::SetBool(causal, "causal", true);
  r = RunKernel(causal,
                {Make({1, 4, 8}, Random(32)), Make({1, 4, 8}, Random(32)),
                 Make({1, 4, 8}, Random(32)), Make({1, 4, 4}, Random(16))},
                {{DT_FLOAT, {1, 4, 8}}});
  ExpectError(r.status, "a causal attention takes no mask input");
  r = RunKernel(
      causal,
      {Make({1, 4, 8}, Random(32)), Make({1, 3, 8}, Random(24)), Make({1, 3, 8}, Random(24))},
      {{DT_FLOAT, {1, 4, 8}}});
  ExpectError(r.status, "at least as many keys as queries");
  auto bad_way = Op("FusedAttention");
  AttrUtils::SetStr(bad_way, "_attention_way", "sideways");
  r = RunKernel(
      bad_way,
      {Make({1, 4, 8}, Random(32)), Make({1, 4, 8}, Random(32)), Make({1, 4, 8}, Random(32))},
      {{DT_FLOAT, {1, 4, 8}}});
  ExpectError(r.status, "_attention_way must be 'whole' or 'streamed'");
}

std::vector<float> RefSkipLayerNorm(const std::vector<float>& a, const std::vector<float>& b,
                                    int64_t cols, const std::vector<float>& s,
                                    const std::vector<float>& bias, float eps) {
  std::vector<float> y(a.size());
  const auto rows = static_cast<int64_t>(a.size()) / cols;
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c) mean += a[r * cols + c] + b[r * cols + c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      const double d = a[r * cols + c] + b[r * cols + c] - mean;
      var += d * d;
    }
    var /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      const double d = a[r * cols + c] + b[r * cols + c] - mean;
      y[r * cols + c] = static_cast<float>(d / std::sqrt(var + eps) * s[c % s.size()] +
                                           (bias.empty() ? 0.0 : bias[c % bias.size()]));
    }
  }
  return y;
}

TEST(SkipLayerNormKernel, NormalizesTheSumWithAndWithoutBias) {
  const auto a = Random(3 * 5 * 16, 1, -3.0F, 3.0F), b = Random(3 * 5 * 16, 2), s = Random(16, 3),
             bias = Random(16, 4);
  auto op = Op("SkipLayerNorm");
  AttrUtils::SetFloat(op, "epsilon", 1e-3F);
  auto r =
      RunKernel(op, {Make({3, 5, 16}, a), Make({3, 5, 16}, b), Make({16}, s), Make({16}, bias)},
                {{DT_FLOAT, {3, 5, 16}}}, {.threads = 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefSkipLayerNorm(a, b, 16, s, bias, 1e-3F));
  r = RunKernel(op, {Make({3, 5, 16}, a), Make({3, 5, 16}, b), Make({16}, s)},
                {{DT_FLOAT, {3, 5, 16}}}, {.dynamic = true});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefSkipLayerNorm(a, b, 16, s, {}, 1e-3F));
}

// axis 1 of [2, 3, 4]: normalized over 12 elements; a scale of [4] broadcasts over them.
TEST(SkipLayerNormKernel, NormalizesOverSeveralAxes) {
  const auto a = Random(24, 5), b = Random(24, 6), s = Random(4, 7);
  auto op = Op("SkipLayerNorm");
  AttrUtils::SetInt(op, "axis", 1);
  auto r = RunKernel(op, {Make({2, 3, 4}, a), Make({2, 3, 4}, b), Make({4}, s)},
                     {{DT_FLOAT, {2, 3, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefSkipLayerNorm(a, b, 12, s, {}, 1e-5F));
}

// x + skip broadcast: a position embedding [1, 5, 16] over the batch, and a per-row [3, 5, 1]
// (not contiguous within a row).
TEST(SkipLayerNormKernel, BroadcastsTheSum) {
  const auto a = Random(3 * 5 * 16, 8, -2.0F, 2.0F), pos = Random(5 * 16, 9),
             row = Random(3 * 5, 10), s = Random(16, 11);
  auto op = Op("SkipLayerNorm");
  auto r = RunKernel(op, {Make({3, 5, 16}, a), Make({1, 5, 16}, pos), Make({16}, s)},
                     {{DT_FLOAT, {3, 5, 16}}}, {.threads = 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> b(a.size()), c(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    b[i] = pos[i % (5 * 16)];
    c[i] = row[i / 16];
  }
  ExpectNear(r.outputs[0].Values<float>(), RefSkipLayerNorm(a, b, 16, s, {}, 1e-5F));
  r = RunKernel(op, {Make({3, 5, 1}, row), Make({3, 5, 16}, a), Make({16}, s)},
                {{DT_FLOAT, {3, 5, 16}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefSkipLayerNorm(c, a, 16, s, {}, 1e-5F));
}

TEST(SkipLayerNormKernel, RejectsMismatchedInputs) {
  auto op = Op("SkipLayerNorm");
  auto r = RunKernel(op, {Make({2, 4}, Random(8)), Make({3, 4}, Random(12)), Make({4}, Random(4))},
                     {{DT_FLOAT, {2, 4}}});
  ExpectError(r.status, "x [2,4] and skip [3,4] do not broadcast to y [2,4]");
  r = RunKernel(op, {Make({2, 4}, Random(8)), Make({2, 4}, Random(8)), Make({3}, Random(3))},
                {{DT_FLOAT, {2, 4}}});
  ExpectError(r.status, "scale [3] does not broadcast to the normalized shape [4]");
}

}  // namespace
}  // namespace ge::host_cpu

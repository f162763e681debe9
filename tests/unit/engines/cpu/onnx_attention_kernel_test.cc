// ONNX Attention against hand-checked cases (zero queries average the values of the keys they
// see) and against a naive reference that spells out ONNX's rules in doubles.
#include <cmath>
#include <limits>
#include <optional>

#include "half_float.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::OutSpec;
using testing::Random;
using testing::RunKernel;
using testing::RunOptions;
using testing::TestTensor;

constexpr double kInf = std::numeric_limits<double>::infinity();

/// One call, its tensors in 4-D layout [batch, heads, seq, size] whatever `three_d` makes the
/// kernel see.
struct Case {
  int64_t batch = 1, q_heads = 1, kv_heads = 1, s = 1, l = 1, past = 0, d = 1, dv = 1;
  bool three_d = false, causal = false, with_past = false;
  float scale = 0.0F;  // 0: the default, 1 / sqrt(d)
  float softcap = 0.0F;
  int64_t mode = -1;  // qk_matmul_output_mode; -1: no qk_matmul_output
  std::vector<int64_t> mask_dims;
  std::vector<float> mask;  // values (booleans as 0 / 1 when bool_mask)
  bool bool_mask = false;
  std::vector<int64_t> nonpad;
  std::vector<float> q, k, v, past_k, past_v;
  bool presents = false;  // ask for present_key / present_value
  int64_t t() const { return past + l; }
};

struct Outputs {
  std::vector<float> y, present_k, present_v, qk;  // 4-D layouts
};

/// [B, H, S, size] → [B, S, H * size] and back.
std::vector<float> To3d(const std::vector<float>& x, int64_t b, int64_t h, int64_t s, int64_t n) {
  std::vector<float> out(x.size());
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < h; ++j)
      for (int64_t r = 0; r < s; ++r)
        for (int64_t e = 0; e < n; ++e)
          out[((i * s + r) * h + j) * n + e] = x[((i * h + j) * s + r) * n + e];
  return out;
}
std::vector<float> From3d(const std::vector<float>& x, int64_t b, int64_t h, int64_t s, int64_t n) {
  std::vector<float> out(x.size());
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < h; ++j)
      for (int64_t r = 0; r < s; ++r)
        for (int64_t e = 0; e < n; ++e)
          out[((i * h + j) * s + r) * n + e] = x[((i * s + r) * h + j) * n + e];
  return out;
}

/// The mask's value at score (b, h, i, j) by numpy broadcasting, or nullopt past its last dim.
std::optional<double> MaskAt(const Case& c, int64_t b, int64_t h, int64_t i, int64_t j) {
  const std::vector<int64_t> at = {b, h, i, j};
  const size_t rank = c.mask_dims.size();
  if (j >= c.mask_dims.back()) return std::nullopt;
  int64_t index = 0;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dim = c.mask_dims[d];
    index = index * dim + (dim == 1 ? 0 : at[4 - rank + d]);
  }
  return c.mask[index];
}

/// ONNX's rules, spelled out: scores, softcap, the bias (mask, causal frontier, padding), a zero
/// row where every key is masked, softmax, times V.
Outputs Reference(const Case& c) {
  const int64_t t = c.t(), group = c.q_heads / c.kv_heads;
  Outputs o;
  auto cat = [&](const std::vector<float>& past, const std::vector<float>& cur, int64_t n) {
    std::vector<float> all;
    for (int64_t bh = 0; bh < c.batch * c.kv_heads; ++bh) {
      if (c.with_past)
        all.insert(all.end(), past.begin() + bh * c.past * n, past.begin() + (bh + 1) * c.past * n);
      all.insert(all.end(), cur.begin() + bh * c.l * n, cur.begin() + (bh + 1) * c.l * n);
    }
    return all;
  };
  o.present_k = cat(c.past_k, c.k, c.d);
  o.present_v = cat(c.past_v, c.v, c.dv);
  o.y.assign(static_cast<size_t>(c.batch * c.q_heads * c.s * c.dv), 0.0F);
  o.qk.assign(static_cast<size_t>(c.batch * c.q_heads * c.s * t), 0.0F);
  const double scale = c.scale != 0.0F ? c.scale : 1.0 / std::sqrt(static_cast<double>(c.d));
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t h = 0; h < c.q_heads; ++h) {
      const int64_t g = h / group;
      for (int64_t i = 0; i < c.s; ++i) {
        std::vector<double> x(t), bias(t, 0.0);
        const int64_t offset = c.with_past ? c.past : (!c.nonpad.empty() ? c.nonpad[b] - c.s : 0);
        for (int64_t j = 0; j < t; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < c.d; ++e) {
            dot += static_cast<double>(c.q[((b * c.q_heads + h) * c.s + i) * c.d + e]) *
                   o.present_k[((b * c.kv_heads + g) * t + j) * c.d + e];
          }
          x[j] = dot * scale;
          if (c.mode == 0) o.qk[((b * c.q_heads + h) * c.s + i) * t + j] = static_cast<float>(x[j]);
          if (c.softcap > 0) x[j] = c.softcap * std::tanh(x[j] / c.softcap);
          if (c.mode == 1) o.qk[((b * c.q_heads + h) * c.s + i) * t + j] = static_cast<float>(x[j]);
          if (!c.mask_dims.empty()) {
            const std::optional<double> m = MaskAt(c, b, h, i, j);
            bias[j] = !m ? -kInf : c.bool_mask ? (*m != 0 ? 0.0 : -kInf) : *m;
          }
          if (c.causal && j > i + offset) bias[j] = -kInf;
          if (!c.nonpad.empty() && j >= c.nonpad[b]) bias[j] = -kInf;
          x[j] += bias[j];
          if (c.mode == 2) o.qk[((b * c.q_heads + h) * c.s + i) * t + j] = static_cast<float>(x[j]);
        }
        bool all_masked = true;
        for (double v : bias) all_masked = all_masked && v == -kInf;
        double mx = -kInf, sum = 0;
        for (double v : x) mx = std::max(mx, v);
        for (double& v : x) sum += (v = all_masked ? 0.0 : std::exp(v - mx));
        for (int64_t j = 0; j < t; ++j) {
          const double p = all_masked ? 0.0 : x[j] / sum;
          if (c.mode == 3) o.qk[((b * c.q_heads + h) * c.s + i) * t + j] = static_cast<float>(p);
          for (int64_t e = 0; e < c.dv; ++e) {
            o.y[((b * c.q_heads + h) * c.s + i) * c.dv + e] +=
                static_cast<float>(p * o.present_v[((b * c.kv_heads + g) * t + j) * c.dv + e]);
          }
        }
      }
    }
  }
  return o;
}

std::shared_ptr<OpDesc> AttentionOp(const Case& c) {
  auto op = Op("Attention");
  AttrUtils::SetInt(op, "is_causal", c.causal ? 1 : 0);
  if (c.three_d) {
    AttrUtils::SetInt(op, "q_num_heads", c.q_heads);
    AttrUtils::SetInt(op, "kv_num_heads", c.kv_heads);
  }
  if (c.scale != 0.0F) AttrUtils::SetFloat(op, "scale", c.scale);
  if (c.softcap != 0.0F) AttrUtils::SetFloat(op, "softcap", c.softcap);
  if (c.mode >= 0) AttrUtils::SetInt(op, "qk_matmul_output_mode", c.mode);
  return op;
}

/// Runs the kernel on the case and returns its outputs in 4-D layout.
Outputs RunCase(const Case& c, RunOptions options = {}) {
  auto qkv = [&](const std::vector<float>& x, int64_t h, int64_t s, int64_t n) {
    return c.three_d ? Make<float>({c.batch, s, h * n}, To3d(x, c.batch, h, s, n))
                     : Make<float>({c.batch, h, s, n}, x);
  };
  std::vector<TestTensor> in = {qkv(c.q, c.q_heads, c.s, c.d), qkv(c.k, c.kv_heads, c.l, c.d),
                                qkv(c.v, c.kv_heads, c.l, c.dv)};
  if (c.mask_dims.empty()) {
    in.push_back(Absent());
  } else if (c.bool_mask) {
    std::vector<bool> m;
    for (float v : c.mask) m.push_back(v != 0.0F);
    in.push_back(Make<bool>(c.mask_dims, m));
  } else {
    in.push_back(Make<float>(c.mask_dims, c.mask));
  }
  if (c.with_past) {
    in.push_back(Make<float>({c.batch, c.kv_heads, c.past, c.d}, c.past_k));
    in.push_back(Make<float>({c.batch, c.kv_heads, c.past, c.dv}, c.past_v));
  } else {
    in.push_back(Absent());
    in.push_back(Absent());
  }
  in.push_back(c.nonpad.empty() ? Absent() : Make<int64_t>({c.batch}, c.nonpad));
  const std::vector<int64_t> y_dims = c.three_d
                                          ? std::vector<int64_t>{c.batch, c.s, c.q_heads * c.dv}
                                          : std::vector<int64_t>{c.batch, c.q_heads, c.s, c.dv};
  std::vector<OutSpec> outs = {{DT_FLOAT, y_dims}};
  if (c.presents || c.mode >= 0) {
    outs.push_back({DT_FLOAT, {c.batch, c.kv_heads, c.t(), c.d}});
    outs.push_back({DT_FLOAT, {c.batch, c.kv_heads, c.t(), c.dv}});
  }
  if (c.mode >= 0) outs.push_back({DT_FLOAT, {c.batch, c.q_heads, c.s, c.t()}});
  auto r = RunKernel(AttentionOp(c), in, outs, options);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  Outputs o;
  if (!r.status.ok()) return o;
  o.y = r.outputs[0].Values<float>();
  if (c.three_d) o.y = From3d(o.y, c.batch, c.q_heads, c.s, c.dv);
  if (outs.size() > 1) {
    o.present_k = r.outputs[1].Values<float>();
    o.present_v = r.outputs[2].Values<float>();
  }
  if (c.mode >= 0) o.qk = r.outputs[3].Values<float>();
  return o;
}

/// Fills q, k, v (and the caches) with random values.
void Fill(Case& c, uint32_t seed) {
  c.q = Random(c.batch * c.q_heads * c.s * c.d, seed, -2.0F, 2.0F);
  c.k = Random(c.batch * c.kv_heads * c.l * c.d, seed + 1, -2.0F, 2.0F);
  c.v = Random(c.batch * c.kv_heads * c.l * c.dv, seed + 2);
  if (c.with_past) {
    c.past_k = Random(c.batch * c.kv_heads * c.past * c.d, seed + 3, -2.0F, 2.0F);
    c.past_v = Random(c.batch * c.kv_heads * c.past * c.dv, seed + 4);
  }
}

void ExpectMatchesReference(const Case& c, RunOptions options = {}) {
  const Outputs want = Reference(c);
  const Outputs got = RunCase(c, options);
  ExpectNear(got.y, want.y, 1e-4F, 1e-5F);
  if (c.presents || c.mode >= 0) {
    ExpectNear(got.present_k, want.present_k, 0.0F, 0.0F);
    ExpectNear(got.present_v, want.present_v, 0.0F, 0.0F);
  }
  if (c.mode >= 0) {
    ASSERT_EQ(got.qk.size(), want.qk.size());
    for (size_t i = 0; i < got.qk.size(); ++i) {
      if (std::isinf(want.qk[i])) {
        EXPECT_EQ(got.qk[i], want.qk[i]) << "qk element " << i;
      } else {
        EXPECT_NEAR(got.qk[i], want.qk[i], 1e-5 + 1e-4 * std::fabs(want.qk[i])) << "qk " << i;
      }
    }
  }
}

// With Q = 0 every score is 0: a row's probabilities are uniform over the keys it sees, and its
// output is the mean of their values.
TEST(OnnxAttentionKernel, CausalRowsAverageTheKeysTheySee) {
  Case c;
  c.s = c.l = 4, c.d = 2, c.causal = true;
  c.q.assign(8, 0.0F);
  c.k = Random(8, 1);
  c.v = {1, 2, 3, 4};
  ExpectNear(RunCase(c).y, {1.0F, 1.5F, 2.0F, 2.5F});
}

// No cache: the frontier is top-left (query i sees keys 0..i) even with more keys than queries.
TEST(OnnxAttentionKernel, CausalWithoutCacheIsTopLeft) {
  Case c;
  c.s = 2, c.l = 3, c.causal = true;
  c.q = {0, 0};
  c.k = {1, 2, 3};
  c.v = {1, 2, 3};
  ExpectNear(RunCase(c).y, {1.0F, 1.5F});
}

// A cache moves the frontier by its length and comes before the new keys in the presents.
TEST(OnnxAttentionKernel, CausalWithPastSeesTheCache) {
  Case c;
  c.s = c.l = 2, c.past = 2, c.with_past = true, c.causal = true, c.presents = true;
  c.q = {0, 0};
  c.k = {3, 4};
  c.v = {30, 40};
  c.past_k = {1, 2};
  c.past_v = {10, 20};
  const Outputs o = RunCase(c);
  ExpectNear(o.y, {20.0F, 25.0F});
  ExpectNear(o.present_k, {1, 2, 3, 4});
  ExpectNear(o.present_v, {10, 20, 30, 40});
}

// Query heads 0-1 read key/value head 0, heads 2-3 head 1.
TEST(OnnxAttentionKernel, GroupedQueryHeadsShareTheirKeyValueHead) {
  Case c;
  c.q_heads = 4, c.kv_heads = 2, c.s = 1, c.l = 2;
  c.q.assign(4, 0.0F);
  c.k = {1, 2, 3, 4};
  c.v = {1, 3, 10, 30};
  ExpectNear(RunCase(c).y, {2, 2, 20, 20});
  Fill(c, 7);
  c.d = 3, c.dv = 5, c.s = 3, c.l = 4;
  Fill(c, 7);
  ExpectMatchesReference(c);
}

// A row with every key masked is zero in Y and in the probabilities (mode 3), not NaN.
TEST(OnnxAttentionKernel, FullyMaskedRowIsZero) {
  Case c;
  c.s = c.l = 2, c.mode = 3;
  c.q = {1, 1};
  c.k = {1, 2};
  c.v = {5, 7};
  c.mask_dims = {2, 2};
  c.mask = {0, 0, 1, 0};
  c.bool_mask = true;
  const Outputs o = RunCase(c);
  ExpectNear(o.y, {0, 5});
  ExpectNear(o.qk, {0, 0, 1, 0});
}

// scores 2 and 6 (scale 1); softcap 3 makes them 3 tanh(2/3) and 3 tanh(2) before the mask.
TEST(OnnxAttentionKernel, SoftcapBoundsTheScoresBeforeTheMask) {
  Case c;
  c.l = 2, c.scale = 1.0F, c.softcap = 3.0F, c.mode = 1;
  c.q = {2};
  c.k = {1, 3};
  c.v = {1, 2};
  const double a = 3 * std::tanh(2.0 / 3), b = 3 * std::tanh(2.0);
  const double w = 1 / (1 + std::exp(b - a));
  Outputs o = RunCase(c);
  ExpectNear(o.qk, {static_cast<float>(a), static_cast<float>(b)});
  ExpectNear(o.y, {static_cast<float>(w * 1 + (1 - w) * 2)});
  c.mode = 0;  // the scores before the softcap
  ExpectNear(RunCase(c).qk, {2, 6});
  // A -inf mask stays -inf: the softcap cannot make a masked key visible.
  c.mask_dims = {1, 2};
  c.mask = {0, -std::numeric_limits<float>::infinity()};
  ExpectNear(RunCase(c).y, {1});
}

// Mode 2 is the scores with the bias added, -inf where masked.
TEST(OnnxAttentionKernel, BiasedScoresKeepTheirInfinities) {
  Case c;
  c.s = 2, c.l = 3, c.d = 2, c.causal = true, c.mode = 2;
  Fill(c, 3);
  c.mask_dims = {3};
  c.mask = {0.5F, -1.0F, 2.0F};
  ExpectMatchesReference(c);
  const Outputs o = RunCase(c);
  EXPECT_EQ(o.qk[1], -std::numeric_limits<float>::infinity());
}

// A mask shorter than the keys masks the rest.
TEST(OnnxAttentionKernel, ShortMaskHidesTheKeysAfterIt) {
  Case c;
  c.s = 1, c.l = 4;
  c.q = {0};
  c.k = {1, 2, 3, 4};
  c.v = {1, 3, 100, 100};
  c.mask_dims = {1, 2};
  c.mask = {0, 0};
  ExpectNear(RunCase(c).y, {2});
}

// nonpad_kv_seqlen hides each batch's padding; with is_causal its frontier is
// nonpad - S + i, so a decoding query sees exactly its batch's valid keys.
TEST(OnnxAttentionKernel, NonpadKvSeqlenHidesPaddingAndPlacesTheFrontier) {
  Case c;
  c.batch = 2, c.s = 1, c.l = 4, c.causal = true;
  c.q = {0, 0};
  c.k.assign(8, 1.0F);
  c.v = {1, 3, 100, 100, 1, 2, 3, 6};
  c.nonpad = {2, 4};
  ExpectNear(RunCase(c).y, {2, 3});
  // More queries than valid keys: the first rows see no key at all and are zero.
  Case n;
  n.s = 3, n.l = 3, n.causal = true;
  n.q = {0, 0, 0};
  n.k = {1, 1, 1};
  n.v = {4, 5, 6};
  n.nonpad = {1};
  ExpectNear(RunCase(n).y, {0, 0, 4});
  // No valid key at all: every score is skipped and every row is zero, the probabilities too.
  n.nonpad = {0};
  n.mode = 3;
  const Outputs none = RunCase(n);
  ExpectNear(none.y, {0, 0, 0});
  ExpectNear(none.qk, std::vector<float>(9, 0.0F));
}

// An integer mask adds as numbers.
TEST(OnnxAttentionKernel, IntegerMaskIsAdded) {
  Case c;
  c.l = 2, c.scale = 1.0F;
  c.q = {0};
  c.k = {0, 0};
  c.v = {1, 2};
  std::vector<TestTensor> in = {Make<float>({1, 1, 1, 1}, c.q), Make<float>({1, 1, 2, 1}, c.k),
                                Make<float>({1, 1, 2, 1}, c.v), Make<int32_t>({2}, {0, 1})};
  auto r = RunKernel(AttentionOp(c), in, {{DT_FLOAT, {1, 1, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const double w = 1 / (1 + std::exp(1.0));
  ExpectNear(r.outputs[0].Values<float>(), {static_cast<float>(w + 2 * (1 - w))});
}

// The 3-D form splits heads off the hidden dim; its presents are 4-D.
TEST(OnnxAttentionKernel, ThreeDInputsMatchTheReference) {
  Case c;
  c.three_d = true, c.batch = 2, c.q_heads = 6, c.kv_heads = 3, c.s = 5, c.l = 4, c.d = 4, c.dv = 6,
  c.past = 3, c.with_past = true, c.causal = true, c.mode = 3;
  Fill(c, 11);
  c.mask_dims = {5, 7};
  c.mask = Random(35, 12, -1.0F, 1.0F);
  ExpectMatchesReference(c);
}

struct RandomCase {
  const char* name;
  Case c;
  RunOptions options;
};

// Sizes past one block of query rows and past the small-product threshold, on two threads and
// with dims known only at run time, through every form of mask.
TEST(OnnxAttentionKernel, MatchesTheReferenceOnLargerCases) {
  std::vector<RandomCase> cases;
  Case big;
  big.batch = 2, big.q_heads = 4, big.kv_heads = 2, big.s = 150, big.l = 300, big.d = 16,
  big.dv = 8;
  cases.push_back({"plain, 2 threads", big, {.threads = 2}});
  Case bool4d = big;
  bool4d.mask_dims = {2, 4, 150, 300};
  bool4d.bool_mask = true;
  bool4d.mask.resize(2 * 4 * 150 * 300);
  for (size_t i = 0; i < bool4d.mask.size(); ++i) bool4d.mask[i] = (i * 7919 % 5) != 0 ? 1 : 0;
  cases.push_back({"bool 4-D mask, dynamic", bool4d, {.threads = 2, .dynamic = true}});
  Case cached = big;
  cached.three_d = true, cached.l = 20, cached.past = 280, cached.with_past = true,
  cached.causal = true, cached.softcap = 2.0F, cached.mode = 2;
  cached.mask_dims = {2, 1, 150, 295};  // the cache's causal frontier binds the first rows
  cached.mask = Random(2 * 150 * 295, 21, -3.0F, 1.0F);
  cases.push_back({"3-D, cache, short 3-D mask, softcap", cached, {.threads = 2}});
  Case padded = big;
  padded.causal = true, padded.nonpad = {280, 120}, padded.presents = true;
  cases.push_back({"nonpad, causal", padded, {.threads = 2, .runs = 2}});
  for (RandomCase& rc : cases) {
    SCOPED_TRACE(rc.name);
    Fill(rc.c, 5);
    ExpectMatchesReference(rc.c, rc.options);
  }
}

// float16 tensors compute in float and round once, as the CPU engine runs the kernel on them.
TEST(OnnxAttentionKernel, Float16RunsWidened) {
  Case c;
  c.q_heads = 2, c.kv_heads = 1, c.s = 3, c.l = 4, c.d = 4, c.dv = 2;
  Fill(c, 9);
  auto half = [](std::vector<float>& x) {
    std::vector<uint16_t> bits;
    for (float& v : x) {
      bits.push_back(ToFloat16(v).bits);
      v = ToFloat(Float16{bits.back()});  // the reference sees the rounded inputs
    }
    return bits;
  };
  auto as_half = [](std::vector<int64_t> dims, const std::vector<uint16_t>& bits) {
    TestTensor t = Make<uint16_t>(std::move(dims), bits);
    t.dtype = DT_FLOAT16;
    return t;
  };
  const auto qb = half(c.q), kb = half(c.k), vb = half(c.v);
  auto r =
      RunKernel(AttentionOp(c),
                {as_half({1, 2, 3, 4}, qb), as_half({1, 1, 4, 4}, kb), as_half({1, 1, 4, 2}, vb)},
                {{DT_FLOAT16, {1, 2, 3, 2}}}, {.widened = true});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> got;
  for (uint16_t b : r.outputs[0].Values<uint16_t>()) got.push_back(ToFloat(Float16{b}));
  ExpectNear(got, Reference(c).y, 1e-3F, 1e-3F);
}

TEST(OnnxAttentionKernel, ShapesThatDoNotFitNameTheNodeAndCause) {
  auto run = [](const std::shared_ptr<OpDesc>& op, std::vector<TestTensor> in,
                std::vector<int64_t> y = {1, 1, 1, 1}) {
    in.resize(7, Absent());
    return RunKernel(op, in, {{DT_FLOAT, std::move(y)}}).status;
  };
  auto f = [](std::vector<int64_t> dims) {
    return Make<float>(dims, std::vector<float>(testing::Count(dims), 0.5F));
  };
  ExpectError(run(Op("Attention"), {f({1, 2, 4}), f({1, 2, 4}), f({1, 2, 4})}),
              "need positive attributes 'q_num_heads' and 'kv_num_heads'");
  auto heads = Op("Attention");
  AttrUtils::SetInt(heads, "q_num_heads", 3);
  AttrUtils::SetInt(heads, "kv_num_heads", 1);
  ExpectError(run(heads, {f({1, 2, 4}), f({1, 2, 4}), f({1, 2, 4})}),
              "are not multiples of q_num_heads 3");
  ExpectError(run(Op("Attention"), {f({1, 3, 2, 4}), f({1, 2, 2, 4}), f({1, 2, 2, 4})}),
              "the 3 query heads are not a multiple of the 2 key/value heads");
  ExpectError(run(Op("Attention"), {f({1, 1, 2, 4}), f({1, 1, 2, 8}), f({1, 1, 2, 4})}),
              "do not fit together");
  ExpectError(run(Op("Attention"), {f({1, 1, 2, 4}), f({1, 2, 4}), f({1, 1, 2, 4})}),
              "must be all 3-D or all 4-D");
  ExpectError(run(heads, {f({1, 1, 1, 4}), f({1, 1, 2, 4}), f({1, 1, 2, 4})}),
              "do not have the head counts of attributes q_num_heads 3");
  const TestTensor q = f({1, 1, 1, 4}), kv = f({1, 1, 2, 4});
  ExpectError(run(Op("Attention"), {q, kv, kv, Absent(), f({1, 1, 3, 4})}),
              "past_key and past_value must be given together");
  ExpectError(run(Op("Attention"), {q, kv, kv, Absent(), f({1, 1, 3, 4}), f({1, 2, 3, 4})}),
              "must be [batch, kv_num_heads, past, head size]");
  ExpectError(run(Op("Attention"), {q, kv, kv, f({1, 3})}),
              "attn_mask [1,3] does not broadcast to the scores [1,1,1,2]");
  ExpectError(
      run(Op("Attention"), {q, kv, kv, Absent(), Absent(), Absent(), Make<int64_t>({2}, {1, 1})}),
      "nonpad_kv_seqlen [2] must be [batch] = [1]");
  ExpectError(run(Op("Attention"), {q, kv, kv}, {1, 1, 1, 3}), "output Y [1,1,1,3] differs");
  TestTensor d = q;
  d.dtype = DT_DOUBLE;
  d.bytes.resize(d.bytes.size() * 2);
  ExpectError(run(Op("Attention"), {d, kv, kv}), "Q dtype");
}

TEST(OnnxAttentionKernel, BadAttributesNameTheNodeAndCause) {
  const TestTensor q = Make<float>({1, 1, 1, 1}, {1}), kv = Make<float>({1, 1, 1, 1}, {1});
  auto mode = Op("Attention");
  AttrUtils::SetInt(mode, "qk_matmul_output_mode", 4);
  ExpectError(RunKernel(mode, {q, kv, kv}, {{DT_FLOAT, {1, 1, 1, 1}}}).status,
              "'qk_matmul_output_mode' must be 0 to 3, got 4");
  auto precision = Op("Attention");
  AttrUtils::SetDataType(precision, "softmax_precision", DT_INT32);
  ExpectError(RunKernel(precision, {q, kv, kv}, {{DT_FLOAT, {1, 1, 1, 1}}}).status,
              "is not a floating-point type");
}

}  // namespace
}  // namespace ge::host_cpu

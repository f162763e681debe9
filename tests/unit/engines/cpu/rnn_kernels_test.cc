// LSTM, GRU and RNN against scalar loops of ONNX's gate equations: directions, sequence_lens,
// initial states, peepholes, linear_before_reset, the batch-first layout and bad weights.
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::TestTensor;

enum class Kind { kRnn, kGru, kLstm };

struct Case {
  Kind kind;
  int64_t seq, batch, in, hid;
  std::string direction = "forward";
  bool linear_before_reset = false;
  bool peepholes = false;
  std::vector<int32_t> lens;  // empty: every entry runs the whole sequence
};

int64_t Gates(Kind k) { return k == Kind::kLstm ? 4 : k == Kind::kGru ? 3 : 1; }
double Sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

struct Outputs {
  std::vector<float> y, yh, yc;  // layout 0
};

// ONNX's equations, one scalar at a time.
Outputs Reference(const Case& c, const std::vector<float>& x, const std::vector<float>& w,
                  const std::vector<float>& r, const std::vector<float>& b,
                  const std::vector<float>& h0, const std::vector<float>& c0,
                  const std::vector<float>& p) {
  const int64_t dirs = c.direction == "bidirectional" ? 2 : 1, g = Gates(c.kind), H = c.hid;
  Outputs o;
  o.y.assign(static_cast<size_t>(c.seq * dirs * c.batch * H), 0.0F);
  o.yh.assign(static_cast<size_t>(dirs * c.batch * H), 0.0F);
  o.yc = o.yh;
  for (int64_t d = 0; d < dirs; ++d) {
    const bool reverse = c.direction == "reverse" || d == 1;
    auto W = [&](int64_t row, int64_t col) { return double(w[(d * g * H + row) * c.in + col]); };
    auto R = [&](int64_t row, int64_t col) { return double(r[(d * g * H + row) * H + col]); };
    auto B = [&](int64_t j) { return double(b[d * 2 * g * H + j]) + b[d * 2 * g * H + g * H + j]; };
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t len = c.lens.empty() ? c.seq : c.lens[n];
      std::vector<double> h(H), cell(H);
      for (int64_t k = 0; k < H; ++k) {
        h[k] = h0[(d * c.batch + n) * H + k];
        cell[k] = c0[(d * c.batch + n) * H + k];
      }
      for (int64_t s = 0; s < len; ++s) {
        const int64_t t = reverse ? len - 1 - s : s;
        const float* xt = x.data() + (t * c.batch + n) * c.in;
        // gate(q, k, hv): X W^T + hv R^T + Wb + Rb for row q*H + k.
        auto gate = [&](int64_t q, int64_t k, const std::vector<double>& hv) {
          double v = B(q * H + k);
          for (int64_t i = 0; i < c.in; ++i) v += xt[i] * W(q * H + k, i);
          for (int64_t i = 0; i < H; ++i) v += hv[i] * R(q * H + k, i);
          return v;
        };
        std::vector<double> next(H);
        if (c.kind == Kind::kRnn) {
          for (int64_t k = 0; k < H; ++k) next[k] = std::tanh(gate(0, k, h));
        } else if (c.kind == Kind::kGru) {
          std::vector<double> z(H), rg(H), rh(H);
          for (int64_t k = 0; k < H; ++k) {
            z[k] = Sigmoid(gate(0, k, h));
            rg[k] = Sigmoid(gate(1, k, h));
            rh[k] = rg[k] * h[k];
          }
          for (int64_t k = 0; k < H; ++k) {
            double hc = 0;
            if (c.linear_before_reset) {
              double rec = b[d * 2 * g * H + g * H + 2 * H + k];
              for (int64_t i = 0; i < H; ++i) rec += h[i] * R(2 * H + k, i);
              hc = b[d * 2 * g * H + 2 * H + k] + rg[k] * rec;
              for (int64_t i = 0; i < c.in; ++i) hc += xt[i] * W(2 * H + k, i);
            } else {
              hc = gate(2, k, rh);
            }
            next[k] = (1 - z[k]) * std::tanh(hc) + z[k] * h[k];
          }
        } else {
          const float* pp = p.data() + d * 3 * H;
          for (int64_t k = 0; k < H; ++k) {
            const double i = Sigmoid(gate(0, k, h) + (c.peepholes ? pp[k] * cell[k] : 0.0));
            const double f = Sigmoid(gate(2, k, h) + (c.peepholes ? pp[2 * H + k] * cell[k] : 0.0));
            const double cn = f * cell[k] + i * std::tanh(gate(3, k, h));
            const double og = Sigmoid(gate(1, k, h) + (c.peepholes ? pp[H + k] * cn : 0.0));
            next[k] = og * std::tanh(cn);
            cell[k] = cn;
          }
        }
        h = next;
        for (int64_t k = 0; k < H; ++k) o.y[((t * dirs + d) * c.batch + n) * H + k] = float(h[k]);
      }
      for (int64_t k = 0; k < H; ++k) {
        o.yh[(d * c.batch + n) * H + k] = float(h[k]);
        o.yc[(d * c.batch + n) * H + k] = float(cell[k]);
      }
    }
  }
  return o;
}

const char* TypeOf(Kind k) { return k == Kind::kLstm ? "LSTM" : k == Kind::kGru ? "GRU" : "RNN"; }

void Check(const Case& c) {
  const int64_t dirs = c.direction == "bidirectional" ? 2 : 1, g = Gates(c.kind);
  const auto x = Random(c.seq * c.batch * c.in, 1);
  const auto w = Random(dirs * g * c.hid * c.in, 2, -0.5F, 0.5F);
  const auto r = Random(dirs * g * c.hid * c.hid, 3, -0.5F, 0.5F);
  const auto b = Random(dirs * 2 * g * c.hid, 4);
  const auto h0 = Random(dirs * c.batch * c.hid, 5);
  const auto c0 = Random(dirs * c.batch * c.hid, 6);
  const auto p = Random(dirs * 3 * c.hid, 7);
  auto op = Op(TypeOf(c.kind));
  AttrUtils::SetStr(op, "direction", c.direction);
  AttrUtils::SetInt(op, "hidden_size", c.hid);
  AttrUtils::SetInt(op, "linear_before_reset", c.linear_before_reset ? 1 : 0);
  std::vector<TestTensor> in = {Make({c.seq, c.batch, c.in}, x),
                                Make({dirs, g * c.hid, c.in}, w),
                                Make({dirs, g * c.hid, c.hid}, r),
                                Make({dirs, 2 * g * c.hid}, b),
                                c.lens.empty() ? Absent() : Make({c.batch}, c.lens),
                                Make({dirs, c.batch, c.hid}, h0)};
  std::vector<testing::OutSpec> outs = {{DT_FLOAT, {c.seq, dirs, c.batch, c.hid}},
                                        {DT_FLOAT, {dirs, c.batch, c.hid}}};
  if (c.kind == Kind::kLstm) {
    in.push_back(Make({dirs, c.batch, c.hid}, c0));
    in.push_back(c.peepholes ? Make({dirs, 3 * c.hid}, p) : Absent());
    outs.push_back({DT_FLOAT, {dirs, c.batch, c.hid}});
  }
  auto res = RunKernel(op, in, outs);
  ASSERT_TRUE(res.status.ok()) << res.status.message();
  const Outputs want = Reference(c, x, w, r, b, h0, c.kind == Kind::kLstm ? c0 : h0, p);
  ExpectNear(res.outputs[0].Values<float>(), want.y, 1e-4F, 1e-5F);
  ExpectNear(res.outputs[1].Values<float>(), want.yh, 1e-4F, 1e-5F);
  if (c.kind == Kind::kLstm) ExpectNear(res.outputs[2].Values<float>(), want.yc, 1e-4F, 1e-5F);
}

TEST(RecurrentKernels, RnnForwardReverseAndBidirectional) {
  for (const char* dir : {"forward", "reverse", "bidirectional"}) {
    SCOPED_TRACE(dir);
    Check({Kind::kRnn, 4, 3, 5, 6, dir, false, false, {}});
  }
}

TEST(RecurrentKernels, GruBothResetOrders) {
  for (bool lbr : {false, true}) {
    SCOPED_TRACE(lbr);
    Check({Kind::kGru, 3, 2, 4, 5, "bidirectional", lbr, false, {}});
  }
}

TEST(RecurrentKernels, PeepholesAndSequenceLengths) {
  Check({Kind::kLstm, 5, 3, 4, 3, "bidirectional", false, true, {5, 2, 0}});
  Check({Kind::kLstm, 4, 2, 3, 4, "forward", false, false, {}});
  Check({Kind::kGru, 4, 3, 3, 2, "reverse", false, false, {1, 4, 3}});
}

TEST(RecurrentKernels, BatchFirstLayoutTransposesInputsAndOutputs) {
  // One RNN step per time over [batch, seq, input]: the same numbers as layout 0, transposed.
  const int64_t seq = 3, batch = 2, in = 2, hid = 2;
  const auto x = Random(seq * batch * in, 1), w = Random(hid * in, 2), r = Random(hid * hid, 3);
  std::vector<float> xb(x.size());
  for (int64_t t = 0; t < seq; ++t)
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t i = 0; i < in; ++i) xb[(n * seq + t) * in + i] = x[(t * batch + n) * in + i];
  auto run = [&](int64_t layout, const std::vector<float>& xv, std::vector<int64_t> xd,
                 std::vector<int64_t> yd) {
    auto op = Op("RNN");
    AttrUtils::SetInt(op, "layout", layout);
    return RunKernel(op, {Make(std::move(xd), xv), Make({1, hid, in}, w), Make({1, hid, hid}, r)},
                     {{DT_FLOAT, std::move(yd)}});
  };
  auto plain = run(0, x, {seq, batch, in}, {seq, 1, batch, hid});
  auto first = run(1, xb, {batch, seq, in}, {batch, seq, 1, hid});
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  const auto y0 = plain.outputs[0].Values<float>(), y1 = first.outputs[0].Values<float>();
  for (int64_t t = 0; t < seq; ++t)
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t k = 0; k < hid; ++k) {
        EXPECT_FLOAT_EQ(y1[(n * seq + t) * hid + k], y0[(t * batch + n) * hid + k]);
      }
}

TEST(RecurrentKernels, RejectsWeightsOfTheWrongSizeAndUnknownActivations) {
  auto op = Op("LSTM", "lstm1");
  // r says hidden 2, so an LSTM's w needs 4 * 2 rows and a GRU's 3 * 2.
  auto r = RunKernel(
      op, {Make({2, 1, 3}, Random(6)), Make({1, 6, 3}, Random(18)), Make({1, 8, 2}, Random(16))},
      {{DT_FLOAT, {2, 1, 1, 2}}});
  ExpectError(r.status, "do not fit", "lstm1");
  auto gru = Op("GRU");
  r = RunKernel(
      gru, {Make({2, 1, 3}, Random(6)), Make({1, 8, 3}, Random(24)), Make({1, 8, 2}, Random(16))},
      {{DT_FLOAT, {2, 1, 1, 2}}});
  ExpectError(r.status, "do not fit");
  auto act = Op("RNN");
  AttrUtils::SetListStr(act, "activations", std::vector<std::string>{"Swish"});
  r = RunKernel(
      act, {Make({2, 1, 3}, Random(6)), Make({1, 2, 3}, Random(6)), Make({1, 2, 2}, Random(4))},
      {{DT_FLOAT, {2, 1, 1, 2}}});
  ExpectError(r.status, "Swish");
}

}  // namespace
}  // namespace ge::host_cpu

// FusedAttention against the unfused graph it replaces (BatchMatMul q k^T, scale, mask, softmax,
// BatchMatMul with v, each node's CPU kernel) at the corpus's sizes: BERT-base (12 heads x 64,
// 128 tokens, a padding mask), ViT-B/16 (197 tokens, no mask) and GPT-2 (128 tokens, causal), at 1
// and 2 threads. Each iteration runs both, alternating; the time is the fused kernel's and
// `of_unfused` is the unfused time over it (above 1: fusing pays).
//   attention_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <chrono>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "cpu_kernel.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::host_cpu {
namespace {

using Clock = std::chrono::steady_clock;

int64_t Count(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

/// One node's kernel, prepared as the runtime prepares it, with buffers for its output.
class Step {
 public:
  Step(std::shared_ptr<OpDesc> op, std::vector<std::vector<int64_t>> in_dims,
       std::vector<int64_t> out_dims, int threads, std::vector<const GeTensor*> consts = {})
      : op_(std::move(op)), out_(static_cast<size_t>(Count(out_dims))) {
    spec_.op = op_.get();
    spec_.threads = threads;
    for (auto& d : in_dims) spec_.inputs.push_back(Spec(std::move(d)));
    spec_.outputs = {Spec(std::move(out_dims))};
    consts.resize(spec_.inputs.size(), nullptr);
    spec_.const_inputs = consts;
    kernel_ = FindCpuKernel(op_->GetType())();
    status_ = kernel_->Prepare(spec_);
    ws_.resize(static_cast<size_t>(kernel_->WorkspaceBytes()) + 64);
  }
  /// Runs on `inputs` (one pointer per input); the output is out().
  void Run(const std::vector<const float*>& inputs) {
    if (!status_.ok()) return;
    KernelArgs args;
    args.workspace = ws_.data() + (64 - reinterpret_cast<uintptr_t>(ws_.data()) % 64) % 64;
    for (size_t i = 0; i < inputs.size(); ++i) args.inputs.push_back({inputs[i], spec_.inputs[i]});
    args.outputs = {{out_.data(), spec_.outputs[0]}};
    status_ = kernel_->Run(args);
  }
  const float* out() const { return out_.data(); }
  std::string impl() const { return kernel_->ImplInfo(); }
  const Status& status() const { return status_; }

 private:
  static TensorSpec Spec(std::vector<int64_t> dims) {
    TensorSpec s;
    s.dtype = DT_FLOAT;
    s.dims = std::move(dims);
    return s;
  }
  std::shared_ptr<OpDesc> op_;
  KernelSpec spec_;
  std::unique_ptr<CpuKernel> kernel_;
  std::vector<float> out_;
  std::vector<uint8_t> ws_;
  Status status_;
};

std::vector<float> RandomFloats(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  return v;
}

enum class Mask { kNone, kPadding, kCausal };

/// FusedAttention against the unfused nodes; `way` forces the fused kernel's way ("" lets it
/// choose). A causal attention runs fused with the `causal` attribute, unfused with its mask.
void BM_Attention(benchmark::State& state, int64_t heads, int64_t s, int64_t d, Mask mask,
                  const char* way) {
  const int threads = static_cast<int>(state.range(0));
  const std::vector<int64_t> qd = {1, heads, s, d}, scores = {1, heads, s, s};
  const std::vector<float> q = RandomFloats(Count(qd), 1), k = RandomFloats(Count(qd), 2),
                           v = RandomFloats(Count(qd), 3);
  std::vector<int64_t> mask_dims;
  std::vector<float> mask_values;
  if (mask == Mask::kPadding) {  // the last 8 tokens are padding
    mask_dims = {1, 1, 1, s};
    for (int64_t j = 0; j < s; ++j) mask_values.push_back(j < s - 8 ? 0.0F : -10000.0F);
  } else if (mask == Mask::kCausal) {
    mask_dims = {1, 1, s, s};
    for (int64_t i = 0; i < s; ++i)
      for (int64_t j = 0; j < s; ++j)
        mask_values.push_back(j <= i ? 0.0F : -std::numeric_limits<float>::infinity());
  }
  const float scale = 0.125F;
  auto fused_op = std::make_shared<OpDesc>("attention", "FusedAttention");
  AttrUtils::SetFloat(fused_op, "scale", scale);
  AttrUtils::SetBool(fused_op, "k_transposed", false);  // k as [.., S, D]: the product takes k^T
  AttrUtils::SetBool(fused_op, "causal", mask == Mask::kCausal);
  if (*way != 0) AttrUtils::SetStr(fused_op, "_attention_way", way);
  std::vector<std::vector<int64_t>> fused_in = {qd, qd, qd};
  if (mask == Mask::kPadding) fused_in.push_back(mask_dims);
  Step fused(fused_op, fused_in, qd, threads);
  // Unfused: q k^T, * scale, + mask, softmax, * v.
  auto qk_op = std::make_shared<OpDesc>("qk", "BatchMatMulV2");
  AttrUtils::SetBool(qk_op, "adj_x2", true);
  Step qk(qk_op, {qd, qd}, scores, threads);
  const std::vector<float> scale_value = {scale};
  GeTensor scale_t(GeTensorDesc(GeShape(std::vector<int64_t>{}), FORMAT_ND, DT_FLOAT),
                   reinterpret_cast<const uint8_t*>(scale_value.data()), sizeof(float));
  Step mul(std::make_shared<OpDesc>("scale", "Mul"), {scores, {}}, scores, threads,
           {nullptr, &scale_t});
  std::unique_ptr<Step> add;
  if (mask != Mask::kNone) {
    add = std::make_unique<Step>(std::make_shared<OpDesc>("mask", "Add"),
                                 std::vector<std::vector<int64_t>>{scores, mask_dims}, scores,
                                 threads);
  }
  auto sm_op = std::make_shared<OpDesc>("softmax", "SoftmaxV2");
  AttrUtils::SetInt(sm_op, "axis", -1);
  Step softmax(sm_op, {scores}, scores, threads);
  Step pv(std::make_shared<OpDesc>("pv", "BatchMatMulV2"), {scores, qd}, qd, threads);
  for (const Step* step : {&fused, &qk, &mul, &softmax, &pv}) {
    if (!step->status().ok()) {
      state.SkipWithError(step->status().message().c_str());
      return;
    }
  }
  double fused_s = 0, unfused_s = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    std::vector<const float*> in = {q.data(), k.data(), v.data()};
    if (mask == Mask::kPadding) in.push_back(mask_values.data());
    fused.Run(in);
    auto t1 = Clock::now();
    qk.Run({q.data(), k.data()});
    mul.Run({qk.out(), scale_value.data()});
    const float* masked = mul.out();
    if (add != nullptr) {
      add->Run({mul.out(), mask_values.data()});
      masked = add->out();
    }
    softmax.Run({masked});
    pv.Run({softmax.out(), v.data()});
    auto t2 = Clock::now();
    benchmark::DoNotOptimize(fused.out());
    benchmark::DoNotOptimize(pv.out());
    const double mine = std::chrono::duration<double>(t1 - t0).count();
    fused_s += mine;
    unfused_s += std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(mine);
  }
  if (!fused.status().ok() || !pv.status().ok()) {
    state.SkipWithError("a kernel failed");
    return;
  }
  state.counters["of_unfused"] = unfused_s / fused_s;
  state.SetLabel(fused.impl());
}

#define GE_ATTENTION(name, heads, s, d, mask, way)              \
  BENCHMARK_CAPTURE(BM_Attention, name, heads, s, d, mask, way) \
      ->Arg(1)                                                  \
      ->Arg(2)                                                  \
      ->UseManualTime()                                         \
      ->Unit(benchmark::kMicrosecond)

// The corpus's shapes, the kernel choosing its way.
GE_ATTENTION(bert_12x128x64_padding_mask, 12, 128, 64, Mask::kPadding, "");
GE_ATTENTION(vit_12x197x64, 12, 197, 64, Mask::kNone, "");
GE_ATTENTION(gpt2_12x128x64_causal, 12, 128, 64, Mask::kCausal, "");
// The crossover between the two ways: scores of 12 heads at 256 to 2048 tokens (3 to 192 MB).
GE_ATTENTION(streamed_12x128x64, 12, 128, 64, Mask::kPadding, "streamed");
GE_ATTENTION(streamed_12x197x64, 12, 197, 64, Mask::kNone, "streamed");
GE_ATTENTION(whole_12x256x64, 12, 256, 64, Mask::kPadding, "whole");
GE_ATTENTION(streamed_12x256x64, 12, 256, 64, Mask::kPadding, "streamed");
GE_ATTENTION(whole_12x512x64, 12, 512, 64, Mask::kPadding, "whole");
GE_ATTENTION(streamed_12x512x64, 12, 512, 64, Mask::kPadding, "streamed");
GE_ATTENTION(whole_12x1024x64, 12, 1024, 64, Mask::kPadding, "whole");
GE_ATTENTION(streamed_12x1024x64, 12, 1024, 64, Mask::kPadding, "streamed");
GE_ATTENTION(whole_12x2048x64, 12, 2048, 64, Mask::kPadding, "whole");
GE_ATTENTION(streamed_12x2048x64, 12, 2048, 64, Mask::kPadding, "streamed");
GE_ATTENTION(whole_causal_12x128x64, 12, 128, 64, Mask::kCausal, "whole");
GE_ATTENTION(streamed_causal_12x128x64, 12, 128, 64, Mask::kCausal, "streamed");
GE_ATTENTION(whole_causal_12x512x64, 12, 512, 64, Mask::kCausal, "whole");
GE_ATTENTION(streamed_causal_12x512x64, 12, 512, 64, Mask::kCausal, "streamed");
GE_ATTENTION(whole_causal_12x1024x64, 12, 1024, 64, Mask::kCausal, "whole");
GE_ATTENTION(streamed_causal_12x1024x64, 12, 1024, 64, Mask::kCausal, "streamed");

}  // namespace
}  // namespace ge::host_cpu

BENCHMARK_MAIN();

// The CPU engine's matrix products against oneDNN's own packed matmul on the same shape: every
// linear layer of the benchmark corpus's transformers (BERT-base and GPT-2 at 128 tokens, ViT-B/16
// at 197), at 1 and 2 threads. Each iteration runs both once, alternating, so that a noisy machine
// slows both alike; the reported time is ours, and `of_onednn` is oneDNN's time over ours (1.0:
// as fast as oneDNN itself; the target is at least 0.85).
//   matmul_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <vector>

#include "cpu_kernel.h"
#include "ge/graph/op_desc.h"

namespace ge::host_cpu {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<float> RandomFloats(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  return v;
}

TensorSpec Spec(std::vector<int64_t> dims) {
  TensorSpec s;
  s.dtype = DT_FLOAT;
  s.dims = std::move(dims);
  return s;
}

/// oneDNN's matmul [m, k] x [k, n] + bias with the weight reordered once into the layout it
/// prefers: the speed our kernel should reach.
class OneDnnGemm {
 public:
  OneDnnGemm(int64_t m, int64_t k, int64_t n, const float* a, const float* w, const float* bias,
             float* y)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using tag = dnnl::memory::format_tag;
    const auto f32 = dnnl::memory::data_type::f32;
    const dnnl::memory::desc src({m, k}, f32, tag::ab), dst({m, n}, f32, tag::ab);
    const dnnl::memory::desc any_w({k, n}, f32, tag::any), user_w({k, n}, f32, tag::ab);
    const dnnl::memory::desc b({1, n}, f32, tag::ab);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src, any_w, b, dst), engine_);
    impl_ = pd.impl_info_str();
    packed_ = dnnl::memory(pd.weights_desc(), engine_);
    dnnl::memory user(user_w, engine_, const_cast<float*>(w));
    dnnl::reorder(user, packed_).execute(stream_, user, packed_);
    stream_.wait();
    matmul_ = dnnl::matmul(pd);
    args_ = {{DNNL_ARG_SRC, dnnl::memory(src, engine_, const_cast<float*>(a))},
             {DNNL_ARG_WEIGHTS, packed_},
             {DNNL_ARG_BIAS, dnnl::memory(b, engine_, const_cast<float*>(bias))},
             {DNNL_ARG_DST, dnnl::memory(dst, engine_, y)}};
  }
  void Run() {
    matmul_.execute(stream_, args_);
    stream_.wait();
  }
  const std::string& impl() const { return impl_; }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::memory packed_;
  dnnl::matmul matmul_;
  std::unordered_map<int, dnnl::memory> args_;
  std::string impl_;
};

/// A linear layer as an exporter writes it: MatMulV2 of activations [1, m, k] by a Const weight
/// [k, n], with the bias the fusion pass puts in.
void BM_Linear(benchmark::State& state, int64_t m, int64_t k, int64_t n) {
  const int threads = static_cast<int>(state.range(0));
  const std::vector<float> a = RandomFloats(m * k, 1), w = RandomFloats(k * n, 2),
                           bias = RandomFloats(n, 3);
  std::vector<float> ours(static_cast<size_t>(m * n)), theirs(ours.size());
  GeTensor weight(GeTensorDesc(GeShape({k, n}), FORMAT_ND, DT_FLOAT),
                  reinterpret_cast<const uint8_t*>(w.data()), w.size() * sizeof(float));
  GeTensor bias_t(GeTensorDesc(GeShape({n}), FORMAT_ND, DT_FLOAT),
                  reinterpret_cast<const uint8_t*>(bias.data()), bias.size() * sizeof(float));
  auto op = std::make_shared<OpDesc>("linear", "MatMulV2");
  KernelSpec spec;
  spec.op = op.get();
  spec.threads = threads;
  spec.inputs = {Spec({1, m, k}), Spec({k, n}), Spec({n})};
  spec.outputs = {Spec({1, m, n})};
  spec.const_inputs = {nullptr, &weight, &bias_t};
  std::unique_ptr<CpuKernel> kernel = FindCpuKernel("MatMulV2")();
  Status s = kernel->Prepare(spec);
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  std::vector<uint8_t> ws(static_cast<size_t>(kernel->WorkspaceBytes()) + 64);
  KernelArgs args;
  args.workspace = ws.data() + (64 - reinterpret_cast<uintptr_t>(ws.data()) % 64) % 64;
  args.inputs = {
      {a.data(), spec.inputs[0]}, {w.data(), spec.inputs[1]}, {bias.data(), spec.inputs[2]}};
  args.outputs = {{ours.data(), spec.outputs[0]}};
  omp_set_num_threads(threads);
  OneDnnGemm reference(m, k, n, a.data(), w.data(), bias.data(), theirs.data());
  double ours_s = 0, theirs_s = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    reference.Run();
    auto t1 = Clock::now();
    s = kernel->Run(args);
    auto t2 = Clock::now();
    benchmark::DoNotOptimize(ours.data());
    theirs_s += std::chrono::duration<double>(t1 - t0).count();
    const double mine = std::chrono::duration<double>(t2 - t1).count();
    ours_s += mine;
    state.SetIterationTime(mine);
  }
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  const double flops =
      2.0 * static_cast<double>(m * k * n) * static_cast<double>(state.iterations());
  state.counters["GFLOPs"] = flops / ours_s / 1e9;
  state.counters["onednn_GFLOPs"] = flops / theirs_s / 1e9;
  state.counters["of_onednn"] = theirs_s / ours_s;
  state.SetLabel(kernel->ImplInfo() + " vs " + reference.impl());
}

#define GE_LINEAR(name, m, k, n)              \
  BENCHMARK_CAPTURE(BM_Linear, name, m, k, n) \
      ->Arg(1)                                \
      ->Arg(2)                                \
      ->UseManualTime()                       \
      ->Unit(benchmark::kMillisecond)

// BERT-base (seq 128): q, k, v and output projections, FFN in and out.
GE_LINEAR(bert_qkvo_128x768x768, 128, 768, 768);
GE_LINEAR(bert_ffn_in_128x768x3072, 128, 768, 3072);
GE_LINEAR(bert_ffn_out_128x3072x768, 128, 3072, 768);
// GPT-2 (seq 128): the fused qkv projection and the LM head (the rest are BERT's shapes).
GE_LINEAR(gpt2_qkv_128x768x2304, 128, 768, 2304);
GE_LINEAR(gpt2_lm_head_128x768x50257, 128, 768, 50257);
// ViT-B/16 (197 tokens).
GE_LINEAR(vit_qkv_197x768x2304, 197, 768, 2304);
GE_LINEAR(vit_out_197x768x768, 197, 768, 768);
GE_LINEAR(vit_mlp_in_197x768x3072, 197, 768, 3072);
GE_LINEAR(vit_mlp_out_197x3072x768, 197, 3072, 768);

}  // namespace
}  // namespace ge::host_cpu

BENCHMARK_MAIN();

// Single CPU kernels (src/engines/cpu/kernels) on the shapes of the test models, at 1 and 2
// threads: convolutions of resnet18 / mobilenet_v2, the BERT-like encoder's matmuls, GELU,
// softmax, layer norm and a broadcast add. Run: cpu_kernels_bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "cpu_kernel.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::host_cpu {
namespace {

struct Input {
  std::vector<int64_t> dims;
  bool is_const = false;
};

int64_t Count(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Prepares the kernel once and times Run.
void RunBench(benchmark::State& state, const std::shared_ptr<OpDesc>& op,
              const std::vector<Input>& inputs, const std::vector<int64_t>& out_dims) {
  const int threads = static_cast<int>(state.range(0));
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<std::vector<float>> data;
  std::vector<GeTensor> consts(inputs.size());
  KernelSpec spec;
  spec.op = op.get();
  spec.threads = threads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<float> v(static_cast<size_t>(Count(inputs[i].dims)));
    for (float& x : v) x = dist(gen);
    data.push_back(std::move(v));
    TensorSpec in;
    in.dtype = DT_FLOAT;
    in.dims = inputs[i].dims;
    spec.inputs.push_back(in);
    if (inputs[i].is_const) {
      consts[i] = GeTensor(GeTensorDesc(GeShape(inputs[i].dims), FORMAT_ND, DT_FLOAT),
                           reinterpret_cast<const uint8_t*>(data[i].data()), data[i].size() * 4);
      spec.const_inputs.push_back(&consts[i]);
    } else {
      spec.const_inputs.push_back(nullptr);
    }
  }
  TensorSpec out_spec;
  out_spec.dtype = DT_FLOAT;
  out_spec.dims = out_dims;
  spec.outputs.push_back(out_spec);
  std::unique_ptr<CpuKernel> kernel = FindCpuKernel(op->GetType())();
  Status s = kernel->Prepare(spec);
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  std::vector<uint8_t> ws(static_cast<size_t>(kernel->WorkspaceBytes()) + 64);
  std::vector<float> out(static_cast<size_t>(Count(out_dims)));
  KernelArgs args;
  const auto addr = reinterpret_cast<uintptr_t>(ws.data());
  args.workspace = ws.data() + (64 - addr % 64) % 64;
  for (size_t i = 0; i < inputs.size(); ++i)
    args.inputs.push_back({data[i].data(), spec.inputs[i]});
  args.outputs.push_back({out.data(), spec.outputs[0]});
  for (auto _ : state) {
    s = kernel->Run(args);
    benchmark::DoNotOptimize(out.data());
  }
  if (!s.ok()) state.SkipWithError(s.message().c_str());
  state.SetLabel(kernel->ImplInfo());
}

std::shared_ptr<OpDesc> ConvOp(int64_t group, int64_t pad, int64_t stride) {
  auto op = std::make_shared<OpDesc>("conv", "Conv2D");
  AttrUtils::SetInt(op, "group", group);
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{pad, pad, pad, pad});
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{stride, stride});
  return op;
}

void BM_Conv3x3_64x56(benchmark::State& state) {
  RunBench(state, ConvOp(1, 1, 1), {{{1, 64, 56, 56}}, {{64, 64, 3, 3}, true}, {{64}, true}},
           {1, 64, 56, 56});
}
void BM_ConvDepthwise3x3_144x56(benchmark::State& state) {
  RunBench(state, ConvOp(144, 1, 1), {{{1, 144, 56, 56}}, {{144, 1, 3, 3}, true}, {{144}, true}},
           {1, 144, 56, 56});
}
void BM_Conv1x1_96to24_56(benchmark::State& state) {
  RunBench(state, ConvOp(1, 0, 1), {{{1, 96, 56, 56}}, {{24, 96, 1, 1}, true}, {{24}, true}},
           {1, 24, 56, 56});
}
void BM_Conv7x7s2_first(benchmark::State& state) {
  RunBench(state, ConvOp(1, 3, 2), {{{1, 3, 224, 224}}, {{64, 3, 7, 7}, true}, {{64}, true}},
           {1, 64, 112, 112});
}
void BM_MatMul_128x768x768(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("mm", "MatMulV2"), {{{128, 768}}, {{768, 768}, true}},
           {128, 768});
}
void BM_MatMul_128x768x3072(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("mm", "MatMulV2"), {{{128, 768}}, {{768, 3072}, true}},
           {128, 3072});
}
void BM_BatchMatMul_attention_12x128x64x128(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("bmm", "BatchMatMulV2"),
           {{{12, 128, 64}}, {{12, 64, 128}}}, {12, 128, 128});
}
void BM_Gelu_128x3072(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("gelu", "Gelu"), {{{128, 3072}}}, {128, 3072});
}
void BM_Erf_128x3072(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("erf", "Erf"), {{{128, 3072}}}, {128, 3072});
}
void BM_Softmax_12x128x128(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("sm", "SoftmaxV2"), {{{12, 128, 128}}}, {12, 128, 128});
}
void BM_LayerNorm_128x768(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("ln", "LayerNorm"),
           {{{128, 768}}, {{768}, true}, {{768}, true}}, {128, 768});
}
void BM_AddBias_128x3072(benchmark::State& state) {
  RunBench(state, std::make_shared<OpDesc>("add", "Add"), {{{128, 3072}}, {{3072}, true}},
           {128, 3072});
}
void BM_ReduceMean_128x768_last(benchmark::State& state) {
  auto op = std::make_shared<OpDesc>("rm", "ReduceMean");
  AttrUtils::SetListInt(op, "axes", std::vector<int64_t>{-1});
  RunBench(state, op, {{{128, 768}}}, {128, 1});
}

}  // namespace

BENCHMARK(BM_Conv3x3_64x56)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvDepthwise3x3_144x56)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Conv1x1_96to24_56)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Conv7x7s2_first)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMul_128x768x768)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMul_128x768x3072)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BatchMatMul_attention_12x128x64x128)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gelu_128x3072)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Erf_128x3072)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Softmax_12x128x128)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LayerNorm_128x768)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AddBias_128x3072)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReduceMean_128x768_last)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace ge::host_cpu

BENCHMARK_MAIN();

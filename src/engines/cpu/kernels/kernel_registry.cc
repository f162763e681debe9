// The op type → kernel table: built once, on first use, from each family's register function
// (no static constructors).
#include <algorithm>
#include <cstring>

#include "cpu_kernel.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

std::vector<std::pair<std::string, CpuKernelFactory>> BuildTable() {
  KernelTable table;
  RegisterConvKernels(table);
  RegisterDeconvKernels(table);
  RegisterEinsumKernels(table);
  RegisterRecurrentKernels(table);
  RegisterPoolKernels(table);
  RegisterLpKernels(table);
  RegisterGeometryKernels(table);
  RegisterMlKernels(table);
  RegisterMatMulKernels(table);
  RegisterBinaryKernels(table);
  RegisterUnaryKernels(table);
  RegisterNormKernels(table);
  RegisterDataKernels(table);
  RegisterReduceKernels(table);
  RegisterIndexKernels(table);
  RegisterShapeKernels(table);
  RegisterLossKernels(table);
  RegisterMiscKernels(table);
  RegisterStateKernels(table);
  RegisterLocalNormKernels(table);
  RegisterQuantKernels(table);
  RegisterConvIntegerKernels(table);
  RegisterSwigluKernel(table);
  RegisterDeformConvKernel(table);
  RegisterSignalKernels(table);
  RegisterLinalgKernels(table);
  RegisterTextKernels(table);
  RegisterStringKernels(table);
  RegisterFusedElementwiseKernels(table);
  RegisterAttentionKernels(table);
  RegisterOnnxAttentionKernels(table);
  RegisterRotaryEmbeddingKernels(table);
  RegisterRmsNormKernels(table);
  RegisterSkipLayerNormKernels(table);
  RegisterTransDataKernels(table);
  RegisterVisionKernels(table);
  RegisterReorderKernels(table);
  auto entries = table.entries();
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return entries;
}

const std::vector<std::pair<std::string, CpuKernelFactory>>& Table() {
  static const auto kTable = BuildTable();
  return kTable;
}

}  // namespace

CpuKernelFactory FindCpuKernel(const std::string& type) {
  const auto& t = Table();
  auto it = std::lower_bound(t.begin(), t.end(), type,
                             [](const auto& e, const std::string& key) { return e.first < key; });
  return it != t.end() && it->first == type ? it->second : nullptr;
}

TensorSpec TensorSpecOf(const GeTensorDesc& desc, bool present) {
  TensorSpec spec;
  spec.dtype = desc.GetDataType();
  spec.dims = desc.GetShape().GetDims();
  spec.present = present;
  spec.format = desc.GetFormat();
  spec.origin_dims = desc.GetOriginShape().GetDims();
  return spec;
}

std::optional<ChannelPadding> ChannelPadding::Of(const TensorSpec& t) {
  constexpr int64_t kC0 = 16;
  if (t.format != FORMAT_NC1HWC0 || t.dtype != DT_FLOAT || t.dims.size() != 5 ||
      t.origin_dims.size() != 4 || t.origin_dims[1] % kC0 == 0 || HasUnknownDims(t.dims)) {
    return std::nullopt;
  }
  return ChannelPadding{t.dims[0], t.dims[1], t.dims[2] * t.dims[3], t.origin_dims[1] % kC0};
}

void ChannelPadding::Zero(void* data) const {
  constexpr int64_t kC0 = 16;
  auto* base = static_cast<float*>(data);
  for (int64_t n = 0; n < batch; ++n) {
    float* block = base + (n * blocks + blocks - 1) * plane * kC0;
    for (int64_t p = 0; p < plane; ++p) {
      std::memset(block + p * kC0 + valid, 0, static_cast<size_t>(kC0 - valid) * sizeof(float));
    }
  }
}

bool PacksWeights(const std::string& type) {
  static const char* const kTypes[] = {"Conv2D",          "Conv3D",        "Conv",
                                       "DepthwiseConv2D", "ConvTranspose", "Conv2DTranspose",
                                       "Conv3DTranspose", "MatMulV2",      "MatMul",
                                       "BatchMatMulV2",   "BatchMatMul",   "Gemm"};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

bool ReadsAnyAlignment(const std::string& type, int input) {
  return type == "GatherV2" && input == 0;  // the gather kernel copies its table's rows by memcpy
}

std::vector<std::string> CpuKernelTypes() {
  std::vector<std::string> types;
  for (const auto& e : Table()) types.push_back(e.first);
  return types;
}

}  // namespace ge::host_cpu

// Running kernels on float16 / bfloat16: dtype dispatch to the storage types of half_float.h,
// and RunWidened, which runs a float kernel on widened copies and rounds the results back.
#pragma once

#include <utility>
#include <vector>

#include "half_float.h"
#include "kernel_util.h"

namespace ge::host_cpu {

/// Calls f(Float16{}) or f(BFloat16{}) for the 16-bit float dtypes; false for other dtypes.
template <typename F>
bool DispatchHalf(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_FLOAT16:
      f(Float16{});
      return true;
    case DT_BF16:
      f(BFloat16{});
      return true;
    default:
      return false;
  }
}

/// Widens n 16-bit floats to float (exact).
template <typename H>
void HalfToFloat(const H* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = ToFloat(in[i]);
}
/// Rounds n floats to a 16-bit float type (nearest even).
template <typename H>
void FloatToHalf(const float* in, H* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = FromDouble<H>(in[i]);
}

inline bool IsHalfFloat(DataType dtype) { return dtype == DT_FLOAT16 || dtype == DT_BF16; }

/// Runs `run` on a copy of `args` whose float16 / bfloat16 inputs and outputs are float buffers,
/// then rounds those outputs back (nearest even): 16-bit floats computed in float, as numpy does.
template <typename Run>
Status RunWidened(const KernelArgs& args, Run&& run) {
  KernelArgs wide = args;
  std::vector<std::vector<float>> buffers;
  buffers.reserve(args.inputs.size() + args.outputs.size());
  for (KernelTensor& in : wide.inputs) {
    if (in.data == nullptr || !IsHalfFloat(in.spec.dtype)) continue;
    std::vector<float>& buf = buffers.emplace_back(static_cast<size_t>(NumElements(in.spec.dims)));
    DispatchHalf(in.spec.dtype, [&](auto tag) {
      using H = decltype(tag);
      HalfToFloat(static_cast<const H*>(in.data), buf.data(), static_cast<int64_t>(buf.size()));
    });
    in.data = buf.data();
    in.spec.dtype = DT_FLOAT;
  }
  std::vector<std::pair<size_t, float*>> narrowed;  // output index, its float buffer
  for (size_t i = 0; i < wide.outputs.size(); ++i) {
    KernelOutput& out = wide.outputs[i];
    if (!IsHalfFloat(out.spec.dtype)) continue;
    std::vector<float>& buf = buffers.emplace_back(static_cast<size_t>(NumElements(out.spec.dims)));
    out.data = buf.data();
    out.spec.dtype = DT_FLOAT;
    narrowed.emplace_back(i, buf.data());
  }
  GE_RETURN_IF_ERROR(run(wide));
  for (const auto& [index, wide_buffer] : narrowed) {
    const KernelOutput& out = args.outputs[index];
    const float* buf = wide_buffer;  // a plain variable: lambdas cannot capture bindings in C++17
    DispatchHalf(out.spec.dtype, [&](auto tag) {
      using H = decltype(tag);
      FloatToHalf(buf, static_cast<H*>(out.data), NumElements(out.spec.dims));
    });
  }
  return Status::Ok();
}

/// True when an input or output of `args` is float16 / bfloat16.
inline bool HasHalfFloat(const KernelArgs& args) {
  for (const KernelTensor& in : args.inputs) {
    if (in.data != nullptr && IsHalfFloat(in.spec.dtype)) return true;
  }
  for (const KernelOutput& out : args.outputs) {
    if (IsHalfFloat(out.spec.dtype)) return true;
  }
  return false;
}

}  // namespace ge::host_cpu

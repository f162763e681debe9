// Test helpers for the CPU kernels: tensors as byte vectors, one call that prepares and runs a
// kernel the way the runtime will, and float comparison.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_kernel.h"
#include "ge/graph/narrow_types.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "widened_kernel.h"

namespace ge::host_cpu::testing {

struct TestTensor {
  DataType dtype = DT_FLOAT;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
  bool present = true;
  bool is_const = false;             ///< handed to Prepare as a weight
  std::vector<int64_t> origin_dims;  ///< Prepare's TensorSpec::origin_dims (a stored layout)
  /// A DT_STRING output's strings, read while the kernel (which may hold their bytes) lives.
  std::vector<std::string> strings;

  template <typename T>
  std::vector<T> Values() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
};

template <typename T>
DataType DtypeOf() {
  if constexpr (std::is_same_v<T, float>) return DT_FLOAT;
  if constexpr (std::is_same_v<T, double>) return DT_DOUBLE;
  if constexpr (std::is_same_v<T, int32_t>) return DT_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return DT_INT64;
  if constexpr (std::is_same_v<T, bool>) return DT_BOOL;
  if constexpr (std::is_same_v<T, uint8_t>) return DT_UINT8;
  if constexpr (std::is_same_v<T, int8_t>) return DT_INT8;
  if constexpr (std::is_same_v<T, int16_t>) return DT_INT16;
  if constexpr (std::is_same_v<T, uint16_t>) return DT_UINT16;
  if constexpr (std::is_same_v<T, uint32_t>) return DT_UINT32;
  if constexpr (std::is_same_v<T, uint64_t>) return DT_UINT64;
  return DT_UNDEFINED;
}

template <typename T>
TestTensor Make(std::vector<int64_t> dims, const std::vector<T>& values) {
  TestTensor t;
  t.dtype = DtypeOf<T>();
  t.dims = std::move(dims);
  t.bytes.resize(values.size() * sizeof(T));
  if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < values.size(); ++i) t.bytes[i] = values[i] ? 1 : 0;
  } else if (!values.empty()) {
    std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  }
  return t;
}
inline TestTensor Const(TestTensor t) {
  t.is_const = true;
  return t;
}
inline TestTensor Absent() {
  TestTensor t;
  t.present = false;
  t.dtype = DT_UNDEFINED;
  return t;
}

inline int64_t Count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

/// A tensor of a narrow type (ge/graph/narrow_types.h) from its codes, packed.
inline TestTensor MakeCodes(DataType dtype, std::vector<int64_t> dims,
                            const std::vector<uint32_t>& codes) {
  TestTensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.bytes.assign(
      static_cast<size_t>(TypeUtils::GetSizeInBytes(static_cast<int64_t>(codes.size()), dtype)), 0);
  for (size_t i = 0; i < codes.size(); ++i) {
    WritePackedCode(t.bytes.data(), static_cast<int64_t>(i), NarrowBits(dtype), codes[i]);
  }
  return t;
}
/// The codes of a narrow-typed output.
inline std::vector<uint32_t> Codes(const TestTensor& t) {
  std::vector<uint32_t> codes(static_cast<size_t>(Count(t.dims)));
  for (size_t i = 0; i < codes.size(); ++i) {
    codes[i] = ReadPackedCode(t.bytes.data(), static_cast<int64_t>(i), NarrowBits(t.dtype));
  }
  return codes;
}

/// Uniform random floats in [lo, hi) from a fixed seed.
inline std::vector<float> Random(int64_t n, uint32_t seed = 1, float lo = -1.0F, float hi = 1.0F) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  return v;
}

inline TensorSpec SpecOf(DataType dtype, const std::vector<int64_t>& dims, bool present) {
  TensorSpec s;
  s.dtype = dtype;
  s.dims = dims;
  s.present = present;
  return s;
}

struct OutSpec {
  DataType dtype = DT_FLOAT;
  std::vector<int64_t> dims;
};

struct RunResult {
  Status status;
  std::vector<TestTensor> outputs;
  std::string impl;
  std::string packed_layout;          ///< PackedWeights(): the layout of input 1 it reordered
  std::vector<uint8_t> packed_bytes;  ///< and its bytes
};

struct RunOptions {
  int threads = 1;
  bool dynamic = false;  ///< Prepare sees -1 for every input and output dim
  int runs = 1;          ///< Run this many times (outputs of the last run are returned)
  /// Run behind MakeWidenedKernel, as the CPU engine runs a kernel meeting float16 / bfloat16.
  bool widened = false;
  int64_t memory_limit = 0;  ///< KernelSpec::memory_limit (0: none)
};

inline std::shared_ptr<OpDesc> Op(const std::string& type, const std::string& name = "node") {
  return std::make_shared<OpDesc>(name, type);
}

/// Prepares and runs the kernel of `op`'s type as the runtime would.
inline RunResult RunKernel(const std::shared_ptr<OpDesc>& op, const std::vector<TestTensor>& inputs,
                           const std::vector<OutSpec>& outputs, RunOptions options = {}) {
  RunResult result;
  CpuKernelFactory factory = FindCpuKernel(op->GetType());
  if (factory == nullptr) {
    result.status = Failed("no kernel for " + op->GetType());
    return result;
  }
  std::unique_ptr<CpuKernel> kernel = options.widened ? MakeWidenedKernel(factory()) : factory();
  KernelSpec spec;
  spec.op = op.get();
  spec.threads = options.threads;
  spec.memory_limit = options.memory_limit;
  std::vector<GeTensor> consts(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorSpec s = SpecOf(inputs[i].dtype, inputs[i].dims, inputs[i].present);
    if (options.dynamic) s.dims.assign(s.dims.size(), -1);
    s.origin_dims = inputs[i].origin_dims;
    spec.inputs.push_back(s);
    if (inputs[i].is_const) {
      consts[i] = GeTensor(GeTensorDesc(GeShape(inputs[i].dims), FORMAT_ND, inputs[i].dtype),
                           inputs[i].bytes);
      spec.const_inputs.push_back(&consts[i]);
    } else {
      spec.const_inputs.push_back(nullptr);
    }
  }
  for (const OutSpec& o : outputs) {
    TensorSpec s = SpecOf(o.dtype, o.dims, true);
    if (options.dynamic) s.dims.assign(s.dims.size(), -1);
    spec.outputs.push_back(s);
  }
  result.status = kernel->Prepare(spec);
  if (!result.status.ok()) return result;
  const int64_t ws_bytes = kernel->WorkspaceBytes();
  std::vector<uint8_t> ws(static_cast<size_t>(ws_bytes) + 64);
  auto addr = reinterpret_cast<uintptr_t>(ws.data());
  KernelArgs args;
  args.workspace = ws_bytes > 0 ? ws.data() + (64 - addr % 64) % 64 : nullptr;
  for (const TestTensor& t : inputs) {
    args.inputs.push_back(
        {t.present ? t.bytes.data() : nullptr, SpecOf(t.dtype, t.dims, t.present)});
  }
  result.outputs.resize(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    TestTensor& t = result.outputs[i];
    t.dtype = outputs[i].dtype;
    t.dims = outputs[i].dims;
    int64_t eb = 4;
    switch (t.dtype) {
      case DT_BOOL:
      case DT_INT8:
      case DT_UINT8:
        eb = 1;
        break;
      case DT_INT16:
      case DT_UINT16:
      case DT_FLOAT16:
      case DT_BF16:
        eb = 2;
        break;
      case DT_DOUBLE:
      case DT_INT64:
      case DT_UINT64:
        eb = 8;
        break;
      case DT_STRING:  // running heads, read back with ReadString
        eb = kStringElementBytes;
        break;
      default:
        break;
    }
    // A packed type's output is exactly its bytes, so a write past them is the sanitizers' to see.
    const int64_t size =
        TypeUtils::IsSubByteType(t.dtype) || TypeUtils::GetSizeByDataType(t.dtype) == 1
            ? TypeUtils::GetSizeInBytes(Count(t.dims), t.dtype)
            : Count(t.dims) * eb;
    t.bytes.assign(static_cast<size_t>(size), 0xCD);
    args.outputs.push_back({t.bytes.data(), SpecOf(t.dtype, t.dims, true)});
  }
  for (int r = 0; r < options.runs && result.status.ok(); ++r) result.status = kernel->Run(args);
  for (TestTensor& t : result.outputs) {
    if (t.dtype != DT_STRING || !result.status.ok()) continue;
    for (int64_t i = 0; i < Count(t.dims); ++i) {
      t.strings.emplace_back(ReadString(t.bytes.data(), i));
    }
  }
  result.impl = kernel->ImplInfo();
  if (auto packed = kernel->PackedWeights()) {
    result.packed_layout = packed->layout;
    result.packed_bytes.assign(packed->bytes.get(), packed->bytes.get() + packed->size);
  }
  return result;
}

/// |got - want| <= atol + rtol * |want| element by element.
inline void ExpectNear(const std::vector<float>& got, const std::vector<float>& want,
                       float rtol = 1e-5F, float atol = 1e-5F) {
  ASSERT_EQ(got.size(), want.size());
  int reported = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool ok = (std::isnan(got[i]) && std::isnan(want[i])) ||
                    std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]);
    if (!ok && reported++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want " << want[i];
    }
  }
}

/// The status failed and its message names the node and contains `cause`.
inline void ExpectError(const Status& s, const std::string& cause,
                        const std::string& node = "node") {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'" + node + "'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(cause), std::string::npos) << s.message();
}

}  // namespace ge::host_cpu::testing

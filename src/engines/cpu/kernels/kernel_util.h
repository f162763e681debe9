// Shared pieces of the CPU kernels: the kernel base class (node name, errors, attributes), the
// registration table, shape helpers, threading, and dtype dispatch.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cpu_kernel.h"
#include "ge/graph/checked_math.h"

namespace ge::host_cpu {

// ---- Registration ----

/// The op type → factory table, filled by one function per kernel family.
class KernelTable {
 public:
  void Add(std::string type, CpuKernelFactory factory) {
    entries_.emplace_back(std::move(type), factory);
  }
  const std::vector<std::pair<std::string, CpuKernelFactory>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, CpuKernelFactory>> entries_;
};

template <typename K>
std::unique_ptr<CpuKernel> MakeKernel() {
  return std::make_unique<K>();
}

void RegisterConvKernels(KernelTable& t);
void RegisterDeconvKernels(KernelTable& t);
void RegisterEinsumKernels(KernelTable& t);
void RegisterRecurrentKernels(KernelTable& t);
void RegisterPoolKernels(KernelTable& t);
void RegisterLpKernels(KernelTable& t);
void RegisterGeometryKernels(KernelTable& t);
void RegisterMlKernels(KernelTable& t);
void RegisterMatMulKernels(KernelTable& t);
void RegisterBinaryKernels(KernelTable& t);
void RegisterUnaryKernels(KernelTable& t);
void RegisterNormKernels(KernelTable& t);
void RegisterDataKernels(KernelTable& t);
void RegisterReduceKernels(KernelTable& t);
void RegisterIndexKernels(KernelTable& t);
void RegisterShapeKernels(KernelTable& t);
void RegisterLossKernels(KernelTable& t);
void RegisterMiscKernels(KernelTable& t);
void RegisterStateKernels(KernelTable& t);
void RegisterLocalNormKernels(KernelTable& t);
void RegisterQuantKernels(KernelTable& t);
void RegisterConvIntegerKernels(KernelTable& t);
void RegisterSwigluKernel(KernelTable& t);
void RegisterDeformConvKernel(KernelTable& t);
void RegisterSignalKernels(KernelTable& t);
void RegisterLinalgKernels(KernelTable& t);
void RegisterTextKernels(KernelTable& t);
void RegisterStringKernels(KernelTable& t);
void RegisterFusedElementwiseKernels(KernelTable& t);
void RegisterAttentionKernels(KernelTable& t);
void RegisterOnnxAttentionKernels(KernelTable& t);
void RegisterRotaryEmbeddingKernels(KernelTable& t);
void RegisterRmsNormKernels(KernelTable& t);
void RegisterSkipLayerNormKernels(KernelTable& t);
void RegisterTransDataKernels(KernelTable& t);
void RegisterVisionKernels(KernelTable& t);
void RegisterReorderKernels(KernelTable& t);
void RegisterResizeKernel(KernelTable& t);  // called by RegisterShapeKernels
void RegisterNmsKernel(KernelTable& t);     // called by RegisterVisionKernels

// ---- Shapes ----

/// Product of dims; 1 for a scalar, 0 when any dim is 0. Dims must be known (>= 0). A product
/// past int64 (dims a kernel computed from a file's attributes) saturates at INT64_MAX, a count
/// no buffer holds, rather than wrapping to a small or negative one.
int64_t NumElements(const std::vector<int64_t>& dims);
/// "[1,3,224,224]".
std::string DimsToString(const std::vector<int64_t>& dims);
bool HasUnknownDims(const std::vector<int64_t>& dims);
/// Row-major strides in elements.
std::vector<int64_t> StridesOf(const std::vector<int64_t>& dims);
/// Splits `dims` at `axis` into [outer, len, inner]: the products of the dims before it, the dim,
/// and the dims after it.
void SplitAt(const std::vector<int64_t>& dims, int64_t axis, int64_t* outer, int64_t* len,
             int64_t* inner);
/// Bytes per element (1 for bool; a DT_STRING element is its 16-byte head, which kernels that
/// only move elements copy as they are), 0 for types kernels do not handle.
int64_t ElementBytes(DataType dtype);
std::string DtypeName(DataType dtype);

/// Broadcast iteration plan: the output's dims with runs of dims that broadcast alike merged,
/// and, per input, its element stride along each merged dim (0 where it broadcasts).
struct BroadcastPlan {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides;
};
/// False when an input does not broadcast (numpy rules) to `out`.
bool PlanBroadcast(const std::vector<std::vector<int64_t>>& inputs, const std::vector<int64_t>& out,
                   BroadcastPlan* plan);
/// numpy broadcasting of two shapes; false when incompatible.
bool BroadcastDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                   std::vector<int64_t>* out);
/// Per dim of `out` (rank >= dims' rank, right-aligned), the element stride of dense `dims`
/// along it: 0 where `dims` broadcasts. False when `dims` does not broadcast to `out`.
bool BroadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& out,
                      std::vector<int64_t>* strides);

/// Copies a strided view of `in` to dense `out`: output element (i0, i1, ...) of `dims` comes
/// from in + sum(i_d * in_strides[d]) (strides in elements, 0 to repeat). Any element size.
void StridedCopy(const void* in, void* out, const std::vector<int64_t>& dims,
                 const std::vector<int64_t>& in_strides, int64_t element_bytes, int threads);

/// Bytes `n` rounded up to 64, the alignment of workspace slices.
inline size_t Align64(size_t n) { return (n + 63) / 64 * 64; }
inline int64_t Align64(int64_t n) { return (n + 63) / 64 * 64; }

// ---- Threads ----

/// Work (in element-operations) below which an op runs on one thread.
inline constexpr int64_t kMinParallelWork = 1 << 15;

/// Calls f(begin, end) over [0, n) split into contiguous blocks, one per thread, using at most
/// `threads` threads and only when n * cost_per_item is large enough to pay for them.
template <typename F>
void ParallelFor(int64_t n, int threads, int64_t cost_per_item, F&& f) {
  if (n <= 0) return;
  const int64_t work = n * std::max<int64_t>(cost_per_item, 1);
  const int64_t useful = std::max<int64_t>(1, work / kMinParallelWork);
  const int t = static_cast<int>(std::min<int64_t>({static_cast<int64_t>(threads), useful, n}));
  if (t <= 1) {
    f(int64_t{0}, n);
    return;
  }
#pragma omp parallel num_threads(t)
  {
    const int64_t id = omp_get_thread_num();
    const int64_t nt = omp_get_num_threads();
    const int64_t begin = n * id / nt;
    const int64_t end = n * (id + 1) / nt;
    if (begin < end) f(begin, end);
  }
}

/// Visits the rows of a broadcast plan: f(out_offset, in_offsets, n) for each run of the innermost
/// merged dim; in_offsets[i] is input i's element offset, its stride along the run is
/// plan.strides[i].back(). Up to kMaxBroadcastInputs inputs.
inline constexpr size_t kMaxBroadcastInputs = 4;
template <typename F>
void ForEachBroadcastRow(const BroadcastPlan& plan, int threads, F&& f) {
  const size_t rank = plan.dims.size();
  const size_t nin = plan.strides.size();
  if (rank == 0) {
    std::array<int64_t, kMaxBroadcastInputs> offs{};
    f(int64_t{0}, offs.data(), int64_t{1});
    return;
  }
  const int64_t inner = plan.dims[rank - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= plan.dims[d];
  ParallelFor(rows, threads, inner, [&](int64_t begin, int64_t end) {
    std::array<int64_t, kMaxBroadcastInputs> offs{};
    std::vector<int64_t> idx(rank, 0);
    int64_t r = begin;
    for (size_t d = rank - 1; d-- > 0;) {
      idx[d] = r % plan.dims[d];
      r /= plan.dims[d];
    }
    for (int64_t row = begin; row < end; ++row) {
      for (size_t i = 0; i < nin; ++i) {
        int64_t o = 0;
        for (size_t d = 0; d + 1 < rank; ++d) o += idx[d] * plan.strides[i][d];
        offs[i] = o;
      }
      f(row * inner, offs.data(), inner);
      for (size_t d = rank - 1; d-- > 0;) {
        if (++idx[d] < plan.dims[d]) break;
        idx[d] = 0;
      }
    }
  });
}

// ---- Dtype dispatch ----

/// Calls f(T{}) with the C++ type of `dtype` among float, double, int32, int64 (and, with the
/// wider sets, int8, uint8, int16, uint16, uint32, uint64, bool); false when not in the set.
template <typename F>
bool DispatchFloat(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_FLOAT:
      f(float{});
      return true;
    case DT_DOUBLE:
      f(double{});
      return true;
    default:
      return false;
  }
}
template <typename F>
bool DispatchNumeric(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_FLOAT:
      f(float{});
      return true;
    case DT_DOUBLE:
      f(double{});
      return true;
    case DT_INT32:
      f(int32_t{});
      return true;
    case DT_INT64:
      f(int64_t{});
      return true;
    case DT_INT8:
      f(int8_t{});
      return true;
    case DT_UINT8:
      f(uint8_t{});
      return true;
    default:
      return false;
  }
}
template <typename F>
bool DispatchAll(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_INT16:
      f(int16_t{});
      return true;
    case DT_UINT16:
      f(uint16_t{});
      return true;
    case DT_UINT32:
      f(uint32_t{});
      return true;
    case DT_UINT64:
      f(uint64_t{});
      return true;
    case DT_BOOL:
      f(bool{});
      return true;
    default:
      return DispatchNumeric(dtype, std::forward<F>(f));
  }
}

/// DispatchAll for kernels that only move elements (Tile, Where, Pad): a DT_STRING element comes
/// as its head (StringHead, ge/graph/string_tensor.h), whose default is the empty string.
template <typename F>
bool DispatchMovable(DataType dtype, F&& f) {
  if (dtype == DT_STRING) {
    f(StringHead{});
    return true;
  }
  return DispatchAll(dtype, std::forward<F>(f));
}

// ---- Kernel base ----

/// Keeps the node's identity for messages and reads attributes. Kernels implement PrepareImpl.
class KernelBase : public CpuKernel {
 public:
  Status Prepare(const KernelSpec& spec) final;

 protected:
  virtual Status PrepareImpl(const KernelSpec& spec) {
    (void)spec;
    return Status::Ok();
  }
  /// ParamInvalid "node 'conv1' (Conv2D): cause".
  Status Error(const std::string& cause) const;
  /// `s` itself when it is ok, else Error(s.message()): a helper's error, naming the node.
  Status Named(const Status& s) const { return s.ok() ? s : Error(s.message()); }
  /// Error unless the args hold at least `inputs` inputs and `outputs` outputs.
  Status CheckArity(const KernelArgs& args, size_t inputs, size_t outputs) const;
  /// The attribute 'axis' `axis` normalized for `rank`, or an error naming the node.
  Result<int64_t> AxisAttr(int64_t axis, int64_t rank) const;
  /// "<what> dtype DT_X is not supported".
  Status Unsupported(DataType dtype, const std::string& what = "input") const;
  /// Ok when `count` elements of `element_bytes` each, scratch sized at run time from input
  /// values, fit the memory limit (KernelSpec::memory_limit); else an error naming `what` and
  /// both sizes. Kernels check before they allocate.
  Status CheckScratch(int64_t count, int64_t element_bytes, const std::string& what) const;

  int64_t AttrInt(const std::string& name, int64_t def) const;
  float AttrFloat(const std::string& name, float def) const;
  bool AttrBool(const std::string& name, bool def) const;
  std::string AttrStr(const std::string& name, const std::string& def) const;
  std::vector<int64_t> AttrInts(const std::string& name) const;
  std::vector<float> AttrFloats(const std::string& name) const;
  bool HasAttr(const std::string& name) const;

  const OpDesc* op_ = nullptr;
  std::string name_;
  std::string type_;
  int threads_ = 1;
  int64_t memory_limit_ = 0;  ///< KernelSpec::memory_limit (0: none)
  bool probe_ = false;        ///< KernelSpec::probe: Prepare only reports, it logs nothing
};

/// True when input i is given (present with data).
inline bool HasInput(const KernelArgs& args, size_t i) {
  return i < args.inputs.size() && args.inputs[i].spec.present && args.inputs[i].data != nullptr;
}
inline bool HasInputSpec(const KernelSpec& spec, size_t i) {
  return i < spec.inputs.size() && spec.inputs[i].present;
}
inline const GeTensor* ConstInput(const KernelSpec& spec, size_t i) {
  return i < spec.const_inputs.size() ? spec.const_inputs[i] : nullptr;
}

/// The integer values of an int32/int64 tensor (indices, axes, shapes); false for other dtypes.
bool ReadInts(const KernelTensor& t, std::vector<int64_t>* out);
/// Element 0 of a numeric tensor as double; false for other dtypes or an empty tensor.
bool ReadScalar(const KernelTensor& t, double* out);
/// axis in [-rank, rank) → [0, rank); false when out of range.
bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out);

}  // namespace ge::host_cpu

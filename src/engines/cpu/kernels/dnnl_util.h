// oneDNN plumbing shared by the primitive-backed kernels: the engine, dims and tags, window
// (kernel/stride/pad/dilation) resolution, the implementation check and a thread-count guard.
#pragma once

#include <omp.h>

#include <cstdint>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel_util.h"

namespace ge::host_cpu {

/// The process-wide oneDNN CPU engine.
const dnnl::engine& DnnlEngine();
dnnl::memory::dims ToDnnlDims(const std::vector<int64_t>& dims);
/// The plain row-major tag of `ndims` dims (a, ab, abc, ...).
dnnl::memory::format_tag PlainTag(size_t ndims);
/// A plain row-major f32 memory descriptor.
dnnl::memory::desc PlainDesc(const std::vector<int64_t>& dims,
                             dnnl::memory::data_type dt = dnnl::memory::data_type::f32);

/// oneDNN's name of the format tag that describes `desc` exactly ("ABcd16b16a", "abcd"), a name
/// holding every field of a Winograd weight layout ("wino-f4-r3-a6-..."), or "" when neither
/// does (a strided view, another opaque layout).
std::string FormatTagName(const dnnl::memory::desc& desc);
/// The desc of `dims` in the format tag named `name` (FormatTagName's inverse); an error when no
/// tag has that name or the tag has another rank.
Result<dnnl::memory::desc> DescOfLayout(const dnnl::memory::dims& dims, dnnl::memory::data_type dt,
                                        const std::string& name);

/// How ReorderInSlices reads its source.
struct SliceSource {
  /// Each slice's whole source pages are released as soon as it is packed (they read as zeros
  /// after: the caller must be their last reader).
  bool release = false;
  /// The source lies off its elements' alignment, which oneDNN's reorders may not read: each
  /// slice, one run of its bytes, is first copied into an aligned buffer of the calling thread
  /// (about a MiB, reused), so the weight is never copied whole.
  bool staged = false;
};

/// Reorders `src` over `src_data` into `dst` over `dst_data` in slices along one dim: the
/// source's outermost when staged, else the destination's outermost, or the source's when that
/// frees more. False, with nothing written and the source untouched, when there is no reason to
/// slice (a weight under a few MiB, unstaged) or the layouts do not split so (a blocked source,
/// a strided view); the caller then reorders it whole.
bool ReorderInSlices(const dnnl::memory::desc& src, const dnnl::memory::desc& dst,
                     const void* src_data, void* dst_data, dnnl::stream& stream, SliceSource how);

/// What a kernel's Const weight is prepared for: a kernel that runs packs it; the weight packer's
/// probe packs only what it can store (a layout with a name), releasing the weight's pages as it
/// goes when it is their last reader (KernelSpec::weights_released); the layout planner's probe
/// only asks which layout oneDNN wants and packs nothing.
enum class WeightUse { kRun, kStore, kStoreReleasing, kAsk };
inline WeightUse WeightUseOf(const KernelSpec& spec) {
  if (!spec.probe) return WeightUse::kRun;
  if (!spec.pack_weights) return WeightUse::kAsk;
  return spec.weights_released != nullptr ? WeightUse::kStoreReleasing : WeightUse::kStore;
}

/// The weight operand of a oneDNN primitive (a convolution's filter, a matmul's right operand).
/// A Const weight is put in the primitive's layout once, at Build, or read in place when it is
/// stored in that layout already: the weight packer stores it so and names the layout in the
/// node's attribute kAttrCpuWeightLayout. A weight computed at run time is reordered per run into
/// the workspace when the primitive wants another layout.
class DnnlWeights {
 public:
  /// At Prepare: reads the node's stored layout and takes the Const value (nullptr when the
  /// weight is computed at run time; a stored layout needs a Const). `use` says whether Build
  /// puts the Const into the primitive's layout (WeightUseOf).
  /// `released`, when set, is set to true once Build has released the Const's pages.
  Status Init(const OpDesc& op, const GeTensor* value, WeightUse use, bool* released = nullptr);
  /// True when the weight is stored in a oneDNN layout (its logical dims are the desc's origin
  /// shape, TensorSpec::origin_dims).
  bool stored() const { return !stored_layout_.empty(); }
  /// True when the weight is a Const (read once, at Build).
  bool has_const() const { return value_ != nullptr; }
  /// Before Build: the weight packer is not to store the layout this kernel gets (the runtime's
  /// kernel may want another), so a probe packs nothing, as when only asked.
  void KeepUnpacked() {
    if (use_ == WeightUse::kStore || use_ == WeightUse::kStoreReleasing) use_ = WeightUse::kAsk;
  }
  /// Before the Build of a kernel prepared for static shapes: Build is the only read of the Const,
  /// so a kernel packing it from a file mapping (a model that maps its weights) lets its pages go
  /// as it packs them. A kernel rebuilt per shape keeps them, and reads them again each time.
  void ReadOnce() { read_once_ = true; }
  /// The weight's logical dims as `t` describes it (the origin dims when stored).
  const std::vector<int64_t>& LogicalDims(const TensorSpec& t) const {
    return stored() ? t.origin_dims : t.dims;
  }
  /// At Build: `plain` is the framework's layout of the weight over the primitive's dims (strides
  /// allowed), `wanted` the primitive's. Reserves workspace at *ws_off (advanced) when a run-time
  /// weight is reordered per run; checks a Const's size against its layout.
  Status Build(const dnnl::memory::desc& plain, const dnnl::memory::desc& wanted,
               dnnl::stream& stream, size_t* ws_off);
  /// At Run, for a weight computed at run time: binds `data`, reordered into `ws` when needed.
  void Bind(const void* data, uint8_t* ws, dnnl::stream& stream);
  /// The primitive's weight memory (DNNL_ARG_WEIGHTS).
  const dnnl::memory& memory() const { return mem_; }
  /// The Const reordered at Build, as `input` (nullopt when it was read in place).
  std::optional<PackedWeight> Packed(size_t input) const;

 private:
  const GeTensor* value_ = nullptr;
  std::string stored_layout_;
  dnnl::memory user_mem_, mem_;
  dnnl::reorder reorder_;
  bool ready_ = false;  // mem_ holds the weight for every run
  bool read_once_ = false;
  WeightUse use_ = WeightUse::kRun;
  bool* released_ = nullptr;
  size_t ws_off_ = 0;
  // The Const in the primitive's layout, when it was reordered: shared, so the weight packer
  // keeps it as the packed Const's bytes without a copy.
  std::shared_ptr<uint8_t> packed_;
  size_t packed_size_ = 0;
  std::string packed_layout_;
};

/// A convolution-like primitive's descriptor from `make(src, dst)`: with the activation layouts
/// oneDNN prefers (format_tag::any) when `let_onednn_choose` and that lands on neither a gemm nor
/// a reference implementation, else with the interface's `user_src` / `user_dst`.
template <typename Make>
auto ChooseActivationLayouts(bool let_onednn_choose, const dnnl::memory::desc& user_src,
                             const dnnl::memory::desc& user_dst, const Make& make)
    -> decltype(make(user_src, user_dst)) {
  if (let_onednn_choose) {
    const auto any = [](const dnnl::memory::desc& d) {
      return dnnl::memory::desc(d.dims(), d.data_type(), dnnl::memory::format_tag::any);
    };
    auto chosen = make(any(user_src), any(user_dst));
    if (chosen.ok()) {
      const std::string impl = chosen->impl_info_str();
      if (impl.find("gemm") == std::string::npos && !IsReferenceImpl(impl)) return chosen;
    }
  }
  return make(user_src, user_dst);
}

/// The data input, output, bias and scratchpad of a convolution-like primitive (convolution,
/// transposed convolution). The interface tensors are the framework's (or the layout planner's
/// blocked ones); when the primitive wants another layout they are reordered in and out through
/// the workspace.
class DnnlConvIo {
 public:
  /// At Build, after the weights: workspace for the reorders and then the scratchpad, from *ws_off
  /// (advanced). A bias must be plain [channels].
  template <typename PrimitiveDesc>
  Status Build(const PrimitiveDesc& pd, const dnnl::memory::desc& user_src,
               const dnnl::memory::desc& user_dst, bool has_bias, int64_t channels,
               const dnnl::memory& weights, size_t* ws_off) {
    return Build(pd.src_desc(), pd.dst_desc(), pd.scratchpad_desc(),
                 has_bias ? pd.bias_desc() : dnnl::memory::desc(), user_src, user_dst, has_bias,
                 channels, weights, ws_off);
  }
  /// At Run: the primitive reads `x` (reordered into the workspace `ws` when needed), the bias
  /// and the scratchpad, and writes `y` or its workspace copy.
  void Bind(const void* x, void* y, const void* bias, uint8_t* ws, dnnl::stream& stream);
  /// After the primitive ran: `y` from the workspace copy, when there is one.
  void Finish(void* y, dnnl::stream& stream);
  /// The primitive's arguments, bound by Bind.
  const std::unordered_map<int, dnnl::memory>& args() const { return args_; }
  /// The primitive's destination (the workspace copy when the output is reordered).
  dnnl::memory dst() const { return dst_mem_; }  // a handle: it shares the memory
  /// True when the output is reordered; then `user_dst` differs from the primitive's.
  bool dst_reordered() const { return static_cast<bool>(dst_reorder_); }
  /// What the reorders cost each call, for ImplInfo: "" or " (activations reordered to acdb)".
  std::string ReorderNote() const { return note_; }

 private:
  Status Build(const dnnl::memory::desc& src, const dnnl::memory::desc& dst,
               const dnnl::memory::desc& scratchpad, const dnnl::memory::desc& bias,
               const dnnl::memory::desc& user_src, const dnnl::memory::desc& user_dst,
               bool has_bias, int64_t channels, const dnnl::memory& weights, size_t* ws_off);

  dnnl::reorder src_reorder_, dst_reorder_;
  dnnl::memory user_src_mem_, src_mem_, user_dst_mem_, dst_mem_, bias_mem_, scratch_mem_;
  std::unordered_map<int, dnnl::memory> args_;
  size_t src_off_ = 0, dst_off_ = 0, scratch_off_ = 0, scratch_bytes_ = 0;
  bool has_bias_ = false;
  std::string note_;
};

/// The elementwise post-ops a fusion put on a node (attribute _fused_post_ops, see
/// ge/ops/fused_ops.h) as oneDNN eltwise post-ops, in order. An unknown or malformed entry is
/// an error naming it.
Result<dnnl::post_ops> MakePostOps(const std::vector<std::string>& specs);
/// True when `specs` hold the "Sum" post-op (the node adds its "addend" input, input 3).
bool PostOpsHaveSum(const std::vector<std::string>& specs);

/// A node's fused post-ops (attribute _fused_post_ops) as its primitive takes them.
struct FusedPostOps {
  dnnl::post_ops ops;
  bool any = false;  ///< the node has post-ops
  bool sum = false;  ///< one of them is "Sum": input 3 (addend) is added
};
/// Reads `op`'s post-ops; an error for a bad entry, or when input 3 is given without "Sum" or
/// "Sum" without input 3 (`has_addend`).
Result<FusedPostOps> ReadFusedPostOps(const OpDesc& op, bool has_addend);
/// The input index of the fused "addend" of a convolution or matrix product.
inline constexpr size_t kAddendInput = 3;

/// A convolution or pooling window over the spatial dims, in ONNX terms (dilation >= 1).
struct Window {
  std::vector<int64_t> kernel, strides, dilations, pad_begin, pad_end, out;
};
/// Resolves the window attributes for input spatial dims `in` (auto_pad NOTSET / SAME_UPPER /
/// SAME_LOWER / VALID, ceil_mode); the error names the bad attribute.
Status ResolveWindow(const std::vector<int64_t>& in, std::vector<int64_t> kernel,
                     std::vector<int64_t> strides, std::vector<int64_t> dilations,
                     const std::vector<int64_t>& pads, const std::string& auto_pad, bool ceil_mode,
                     Window* w);

/// Checks a convolution's data input dims `x` (N, C, spatial: rank 3 to 5) and filter dims `w`
/// (the same rank; known when the filter is a Const).
Status CheckConvOperands(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                         bool const_filter);

/// Sets the calling thread's OpenMP thread count (what oneDNN uses) for a scope.
class OmpThreadsGuard {
 public:
  explicit OmpThreadsGuard(int threads) : saved_(omp_get_max_threads()) {
    omp_set_num_threads(threads);
  }
  ~OmpThreadsGuard() { omp_set_num_threads(saved_); }
  OmpThreadsGuard(const OmpThreadsGuard&) = delete;
  OmpThreadsGuard& operator=(const OmpThreadsGuard&) = delete;

 private:
  int saved_;
};

/// 64-byte-aligned owned scratch bytes, grown on demand (dynamic shapes, missing workspace).
/// Scratch is not zeroed, as the runtime's workspace, which kernels share, is not: zeroing a
/// buffer every time it grew cost the weight packer's staging 3 ms of page faults per model.
class AlignedBuffer {
 public:
  uint8_t* Get(size_t bytes) {
    if (bytes + 64 > size_) {
      storage_ = std::make_unique_for_overwrite<uint8_t[]>(bytes + 64);
      size_ = bytes + 64;
    }
    auto p = reinterpret_cast<uintptr_t>(storage_.get());
    return storage_.get() + ((64 - p % 64) % 64);
  }
  void Release() {
    storage_.reset();
    size_ = 0;
  }

 private:
  std::unique_ptr<uint8_t[]> storage_;
  size_t size_ = 0;
};

}  // namespace ge::host_cpu

// The CPU engine's compute-kernel contract: what a kernel sees at model load (Prepare) and at
// every run (Run), and the lookup of a kernel by IR op type.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/types.h"

namespace ge::host_cpu {

/// A tensor's static description. Data are dense, row-major (NCHW for images), unless `format`
/// says otherwise: the layout planner gives convolution chains FORMAT_NC1HWC0 tensors (oneDNN's
/// nChw16c; dims [N, C1, H, W, 16], channels zero-padded to C1 * 16), and only the kernels that
/// declare they read them (ReadsBlockedLayout) see them.
struct TensorSpec {
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;  ///< may hold -1 at Prepare time for dynamic shapes
  bool present =
      true;  ///< false for an absent optional input, or (Prepare) an output nothing reads
  Format format = FORMAT_ND;  ///< the desc's format (Prepare only)
  /// The logical dims of a tensor stored in another layout: the NCHW dims of an NC1HWC0 tensor,
  /// the framework dims of a pre-packed weight (Prepare only; empty when the desc has none).
  std::vector<int64_t> origin_dims;
};

/// The spec of a tensor as its desc gives it (dims, format, origin dims).
TensorSpec TensorSpecOf(const GeTensorDesc& desc, bool present);

/// The channel padding of an NC1HWC0 float tensor [N, C1, H, W, 16] whose C is not a multiple of
/// 16: lanes C % 16 .. 15 of the last channel block of each image.
struct ChannelPadding {
  int64_t batch = 0, blocks = 0, plane = 0, valid = 0;
  /// The padding of a tensor so described (format NC1HWC0 with 4-D origin dims), or nullopt when
  /// it has none.
  static std::optional<ChannelPadding> Of(const TensorSpec& spec);
  /// Writes zeros over it in `data`.
  void Zero(void* data) const;
};

/// A Const weight a kernel holds in the layout its primitive wants (a blocked convolution
/// filter, a packed matmul operand): what the weight packer (weight_packer.h) stores in the
/// compiled model in place of the framework's layout.
struct PackedWeight {
  size_t input = 1;  ///< the input it stands for
  /// oneDNN's name of the format tag ("ABcd16b16a", which it also calls OIhw16i16o), over the
  /// primitive's dims of the logical weight (a grouped filter is [G, O/G, I/G, H, W]).
  std::string layout;
  /// The packed bytes, shared with the kernel: whoever keeps them needs no copy.
  std::shared_ptr<const uint8_t> bytes;
  size_t size = 0;
};
/// Attribute on a node whose input 1 is stored pre-packed: the PackedWeight::layout it is in. The
/// input's desc is then 1-D float [bytes / 4], with the logical dims as its origin shape.
inline constexpr char kAttrCpuWeightLayout[] = "_cpu_weight_layout";

/// What Prepare sees, once, when a model loads.
struct KernelSpec {
  const OpDesc* op = nullptr;  ///< attributes (read with AttrUtils, names as in src/ops/builtin)
  std::vector<TensorSpec> inputs, outputs;
  /// Per input: the Const value when the input is a weight, else nullptr (may be shorter than
  /// `inputs`: missing entries are nullptr). The tensors must outlive the kernel: a kernel may
  /// read a weight in place, and re-reads it when a dynamic-shape run re-creates a primitive.
  std::vector<const GeTensor*> const_inputs;
  int threads = 1;  ///< intra-op threads the kernel may use (OpenMP, oneDNN)
  /// TaskLoadContext::memory_limit: what scratch sized at run time must stay under (0: none).
  int64_t memory_limit = 0;
  bool probe = false;  ///< the layout planner asking what oneDNN would choose: no log lines
  /// False when only the choice matters (the layout planner's probes): a Const weight is checked
  /// but not put into the primitive's layout, which would cost a copy of it per question.
  bool pack_weights = true;
  /// Set when the weight packer, the only reader of the Const weights, drops them once packed:
  /// a large weight is then packed in slices, each slice's pages released as soon as it is
  /// packed (they read as zeros after), so that the weight is never in memory twice whole; it is
  /// set to true when some were released. nullptr: the weights stay whole.
  bool* weights_released = nullptr;
  /// TaskLoadContext::strings: where a kernel that makes DT_STRING values keeps their bytes
  /// (ge/graph/string_tensor.h); such a kernel fails Prepare when it is null.
  StringStore* strings = nullptr;
};

struct KernelTensor {
  const void* data = nullptr;
  TensorSpec spec;
};
struct KernelOutput {
  void* data = nullptr;
  TensorSpec spec;
};

/// What Run sees every time; dims are the actual ones.
struct KernelArgs {
  std::vector<KernelTensor> inputs;   ///< absent optional input: data == nullptr, !spec.present
  std::vector<KernelOutput> outputs;  ///< memory already allocated by the runtime for spec.dims
  void* workspace = nullptr;          ///< WorkspaceBytes() bytes, 64-byte aligned
};

class CpuKernel {
 public:
  virtual ~CpuKernel() = default;
  /// Once per node at model load: validates attributes, creates oneDNN primitives and reorders
  /// weights for static shapes. Errors name the node (spec.op->GetName()), type and cause.
  virtual Status Prepare(const KernelSpec& spec) {
    (void)spec;
    return Status::Ok();
  }
  /// Scratch memory Run needs in KernelArgs::workspace; valid after Prepare.
  virtual int64_t WorkspaceBytes() const { return 0; }
  /// Every run. Does not allocate for static shapes when avoidable; handles shapes that differ
  /// from Prepare's when Prepare saw -1 dims (re-creating what it needs then).
  virtual Status Run(const KernelArgs& args) = 0;

  // ---- Outputs whose shape depends on input values (NonZero) ----
  // Protocol: the runtime asks MaxOutputDims for each such output before Run, allocates that
  // many elements, runs, then reads ActualOutputDims. The kernel writes the output densely for
  // its actual dims (a prefix of the allocated buffer), so the runtime only narrows the shape.

  /// True when output `index`'s dims are known only after Run.
  virtual bool OutputDimsDependOnData(size_t index) const {
    (void)index;
    return false;
  }
  /// An upper bound of output `index`'s dims for the given input dims (-1 free).
  virtual std::vector<int64_t> MaxOutputDims(size_t index,
                                             const std::vector<TensorSpec>& inputs) const {
    (void)index;
    (void)inputs;
    return {};
  }
  /// The same bound when the inputs' values are at hand (the runtime gives them): a kernel whose
  /// bound needs them (StringSplit's substring count) overrides this one.
  virtual std::vector<int64_t> MaxOutputDimsOfValues(
      size_t index, const std::vector<KernelTensor>& inputs) const {
    std::vector<TensorSpec> specs;
    specs.reserve(inputs.size());
    for (const KernelTensor& t : inputs) specs.push_back(t.spec);
    return MaxOutputDims(index, specs);
  }
  /// After Run: the dims the kernel produced for output `index`.
  virtual std::vector<int64_t> ActualOutputDims(size_t index) const {
    (void)index;
    return {};
  }
  /// The oneDNN implementation chosen in Prepare ("brgconv:avx512_core", ...); "" when the
  /// kernel is not a oneDNN primitive.
  virtual std::string ImplInfo() const { return {}; }
  /// After Prepare: the Const weight this kernel reordered into its primitive's layout, or
  /// nullopt (it has none, it reads it in place, or it was already stored in that layout).
  virtual std::optional<PackedWeight> PackedWeights() const { return std::nullopt; }
};

using CpuKernelFactory = std::unique_ptr<CpuKernel> (*)();

/// The kernel of an IR op type (GE names: Conv2D, MatMulV2, BatchMatMulV2, RealDiv, SoftmaxV2,
/// ...), or nullptr.
CpuKernelFactory FindCpuKernel(const std::string& type);
/// Every op type with a kernel, sorted.
std::vector<std::string> CpuKernelTypes();
/// True for oneDNN's reference (slow, scalar) implementations: "ref:any", "gemm:ref", ...
bool IsReferenceImpl(const std::string& impl);
/// Logs `message` at `level` (0 debug, 1 info, 2 warning: ge/graph/log.h's order).
void KernelLog(int level, const std::string& message);
/// True when the kernel of `type` reads NC1HWC0 (blocked) tensors on its data input (and writes
/// them on its output and reads its fused addend so, except the global pools, which write NCHW):
/// the layout planner asks before it gives it any.
bool ReadsBlockedLayout(const std::string& type);
/// True when the kernel of `type` may reorder a Const input 1 (PackedWeights) and reads it in
/// place when the node carries kAttrCpuWeightLayout.
bool PacksWeights(const std::string& type);
/// True when the kernel of `type` reads input `input` as bytes only (memcpy), so a Const there
/// may be handed over where it lies, at any alignment (kAttrWeightAnyAlignment): a gather's table.
bool ReadsAnyAlignment(const std::string& type, int input);
/// True when the kernel of `type` can apply the fused post-ops `specs` (see ge/ops/fused_ops.h);
/// otherwise false with the reason.
bool SupportsFusedPostOps(const std::string& type, const std::vector<std::string>& specs,
                          std::string& reason);

}  // namespace ge::host_cpu

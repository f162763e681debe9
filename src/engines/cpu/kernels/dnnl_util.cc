// oneDNN plumbing shared by the primitive-backed kernels.
#include "dnnl_util.h"

#include <oneapi/dnnl/dnnl_debug.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "ge/graph/file_bytes.h"
#include "ge/graph/host_bytes.h"
#include "ge/graph/log.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"
#include "packed_weights.h"
#include "winograd_weights.h"

namespace ge::host_cpu {

const dnnl::engine& DnnlEngine() {
  static const dnnl::engine kEngine(dnnl::engine::kind::cpu, 0);
  return kEngine;
}

dnnl::memory::dims ToDnnlDims(const std::vector<int64_t>& dims) {
  return {dims.begin(), dims.end()};
}

dnnl::memory::format_tag PlainTag(size_t ndims) {
  using tag = dnnl::memory::format_tag;
  switch (ndims) {
    case 1:
      return tag::a;
    case 2:
      return tag::ab;
    case 3:
      return tag::abc;
    case 4:
      return tag::abcd;
    case 5:
      return tag::abcde;
    case 6:
      return tag::abcdef;
    default:
      return tag::undef;
  }
}

dnnl::memory::desc PlainDesc(const std::vector<int64_t>& dims, dnnl::memory::data_type dt) {
  return {ToDnnlDims(dims), dt, PlainTag(dims.size())};
}

namespace {

constexpr int kFirstTag = static_cast<int>(dnnl_a);
constexpr int kLastTag = static_cast<int>(dnnl_format_tag_last);
constexpr char kWinogradPrefix[] = "wino-";

// Every field of oneDNN's Winograd weight layout, in one name: two descs with the same dims,
// dtype and name are the same layout.
std::string WinogradLayoutName(const dnnl_wino_desc_t& w) {
  uint32_t scale_bits = 0;
  static_assert(sizeof(scale_bits) == sizeof(w.adj_scale));
  std::memcpy(&scale_bits, &w.adj_scale, sizeof(scale_bits));
  char name[160];
  std::snprintf(name, sizeof(name), "%sf%d-r%d-a%d-ic%d-oc%d-b%dx%d-b%dx%d-s%08x-z%zu",
                kWinogradPrefix, static_cast<int>(w.wino_format), w.r, w.alpha, w.ic, w.oc,
                w.ic_block, w.oc_block, w.ic2_block, w.oc2_block, scale_bits, w.size);
  return name;
}

// Weights from this size up are packed in slices when their pages may be released.
constexpr size_t kReleaseSliceFrom = size_t{4} << 20;
constexpr int64_t kReleaseSlices = 8;
// A staged slice's size: it stays in the caches between the copy and the reorder, and the buffer
// holding it, reused for every weight a thread packs, costs its pages once.
constexpr size_t kStagingBytes = size_t{1} << 20;

// The dim of largest stride: the outermost.
int Outermost(const dnnl_memory_desc_t& md) {
  int outer = 0;
  for (int i = 1; i < md.ndims; ++i) {
    if (md.format_desc.blocking.strides[i] > md.format_desc.blocking.strides[outer]) outer = i;
  }
  return outer;
}

// The product of `md`'s inner blocks along `dim` (1 when it has none).
int64_t BlockAlong(const dnnl_memory_desc_t& md, int dim) {
  int64_t block = 1;
  for (int i = 0; i < md.format_desc.blocking.inner_nblks; ++i) {
    if (md.format_desc.blocking.inner_idxs[i] == dim)
      block *= md.format_desc.blocking.inner_blks[i];
  }
  return block;
}

}  // namespace

bool ReorderInSlices(const dnnl::memory::desc& src, const dnnl::memory::desc& dst,
                     const void* src_data, void* dst_data, dnnl::stream& stream, SliceSource how) {
  const dnnl_memory_desc_t& s = src.data;
  const dnnl_memory_desc_t& d = dst.data;
  const size_t bytes = src.get_size();
  if ((!how.staged && bytes < kReleaseSliceFrom) || s.format_kind != dnnl_blocked ||
      d.format_kind != dnnl_blocked || s.format_desc.blocking.inner_nblks != 0 || s.offset0 != 0 ||
      d.offset0 != 0) {
    return false;
  }
  const dnnl_dims_t& ss = s.format_desc.blocking.strides;
  const auto element = static_cast<int64_t>(dnnl::memory::data_type_size(src.data_type()));
  int64_t elements = 1;
  for (int i = 0; i < s.ndims; ++i) elements *= s.dims[i];
  if (elements == 0 || static_cast<size_t>(elements * element) != bytes) return false;  // strided
  const int source_outer = Outermost(s);
  int dim = Outermost(d);
  int64_t slice = 0;
  if (how.staged) {
    // Slices of the source's outermost dim are runs of its bytes: each is copied whole. They
    // hold whole blocks of the destination along that dim, as many as fit the buffer.
    dim = source_outer;
    const int64_t block = BlockAlong(d, dim);
    const int64_t row_bytes = ss[dim] * element;
    if (block * row_bytes > static_cast<int64_t>(4 * kStagingBytes)) return false;
    slice = std::max<int64_t>(1, static_cast<int64_t>(kStagingBytes) / (block * row_bytes)) * block;
  } else {
    // Slices along the destination's outermost dim are runs of it, which fills (and takes
    // memory) slice by slice, on huge pages; in the source each is one run per index of the dims
    // laid out outside that dim. When those runs are shorter than a few pages (a row-major
    // [K, N] matrix packed N-block first), little of the source could go: the slices are then
    // the source's own, and the destination, touched in every huge page by each slice, takes
    // small pages. Each slice is about an eighth of the dim, in whole blocks of the destination.
    auto slice_of = [&](int along) {
      const int64_t block = BlockAlong(d, along);
      return (s.dims[along] / kReleaseSlices + block - 1) / block * block;
    };
    constexpr int64_t kShortRun = int64_t{64} << 10;
    if (dim != source_outer && slice_of(dim) * ss[dim] * element < kShortRun) {
      dim = source_outer;
      (void)::madvise(dst_data, dst.get_size(), MADV_NOHUGEPAGE);  // untouched so far
    }
    slice = slice_of(dim);
    if (slice <= 0 || slice >= s.dims[dim]) return false;
  }
  const int64_t n = s.dims[dim];
  std::vector<int> outside;
  int64_t runs = 1;
  for (int i = 0; i < s.ndims; ++i) {
    if (i != dim && ss[i] > ss[dim]) {
      outside.push_back(i);
      runs *= s.dims[i];
    }
  }
  // Every slice's reorder is made before the first runs: a failure leaves the source whole.
  thread_local AlignedBuffer staging;
  uint8_t* staged =
      how.staged
          ? staging.Get(std::max(kStagingBytes, static_cast<size_t>(slice * ss[dim] * element)))
          : nullptr;
  struct Slice {
    dnnl::reorder reorder;
    dnnl::memory from, to;
    int64_t begin, end;
  };
  std::vector<Slice> slices;
  try {
    const dnnl::engine& eng = DnnlEngine();
    for (int64_t begin = 0; begin < n; begin += slice) {
      const int64_t end = std::min(n, begin + slice);
      dnnl::memory::dims dims(s.dims, s.dims + s.ndims), offsets(s.ndims, 0);
      dims[dim] = end - begin;
      offsets[dim] = begin;
      // A staged slice lies at the buffer's start, laid out as in the source.
      const dnnl::memory from =
          how.staged
              ? dnnl::memory(
                    dnnl::memory::desc(dims, src.data_type(), dnnl::memory::dims(ss, ss + s.ndims)),
                    eng, staged)
              : dnnl::memory(src.submemory_desc(dims, offsets), eng, const_cast<void*>(src_data));
      const dnnl::memory to(dst.submemory_desc(dims, offsets), eng, dst_data);
      slices.push_back({dnnl::reorder(from, to), from, to, begin, end});
    }
  } catch (const dnnl::error&) {
    return false;  // a layout whose blocks do not split along that dim: packed whole
  }
  const auto* base = static_cast<const uint8_t*>(src_data);
  for (Slice& one : slices) {
    const auto length = static_cast<size_t>((one.end - one.begin) * ss[dim] * element);
    if (how.staged) std::memcpy(staged, base + one.begin * ss[dim] * element, length);
    one.reorder.execute(stream, one.from, one.to);
    stream.wait();
    if (!how.release) continue;
    for (int64_t r = 0; r < runs; ++r) {
      int64_t offset = one.begin * ss[dim], rest = r;
      for (auto it = outside.rbegin(); it != outside.rend(); ++it) {
        offset += (rest % s.dims[*it]) * ss[*it];
        rest /= s.dims[*it];
      }
      ReleaseMappedPages(base + offset * element, length);
    }
  }
  return true;
}

std::string FormatTagName(const dnnl::memory::desc& desc) {
  const dnnl_memory_desc_t& want = desc.data;
  if (want.format_kind == dnnl_format_kind_wino)
    return WinogradLayoutName(want.format_desc.wino_desc);
  if (want.format_kind != dnnl_blocked) return "";
  // Every tag is tried (a few hundred), and a compile asks for each weight's layout several
  // times: the names found are kept, by the desc's bytes (equal bytes, equal desc).
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> names;
  constexpr size_t kMaxNames = 4096;
  std::string key(reinterpret_cast<const char*>(&want), sizeof(want));
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = names.find(key);
    if (it != names.end()) return it->second;
  }
  std::string name;
  for (int t = kFirstTag; t < kLastTag && name.empty(); ++t) {
    dnnl_memory_desc_t md;
    const auto tag = static_cast<dnnl_format_tag_t>(t);
    if (dnnl_memory_desc_init_by_tag(&md, want.ndims, want.dims, want.data_type, tag) !=
        dnnl_success) {
      continue;  // a tag of another rank
    }
    if (dnnl_memory_desc_equal(&md, &want) != 0) name = dnnl_fmt_tag2str(tag);
  }
  const std::lock_guard<std::mutex> lock(mutex);
  if (names.size() >= kMaxNames) names.clear();
  names.emplace(std::move(key), name);
  return name;
}

Result<dnnl::memory::desc> DescOfLayout(const dnnl::memory::dims& dims, dnnl::memory::data_type dt,
                                        const std::string& name) {
  static const std::unordered_map<std::string, dnnl_format_tag_t> kTags = [] {
    std::unordered_map<std::string, dnnl_format_tag_t> tags;
    for (int t = kFirstTag; t < kLastTag; ++t) {
      const auto tag = static_cast<dnnl_format_tag_t>(t);
      tags.emplace(dnnl_fmt_tag2str(tag), tag);
    }
    return tags;
  }();
  auto it = kTags.find(name);
  if (it == kTags.end()) return ParamInvalid("'" + name + "' is not a oneDNN layout (format tag)");
  dnnl::memory::desc desc;
  if (dnnl_memory_desc_init_by_tag(&desc.data, static_cast<int>(dims.size()), dims.data(),
                                   static_cast<dnnl_data_type_t>(dt), it->second) != dnnl_success) {
    return ParamInvalid("oneDNN layout '" + name + "' does not fit " + std::to_string(dims.size()) +
                        "-D dims");
  }
  return desc;
}

Status DnnlWeights::Init(const OpDesc& op, const GeTensor* value, WeightUse use, bool* released) {
  value_ = value;
  use_ = use;
  released_ = released;
  stored_layout_.clear();
  AttrUtils::GetStr(op, kAttrCpuWeightLayout, stored_layout_);
  if (stored() && value == nullptr) {
    return ParamInvalid("input 1 is stored in oneDNN layout '" + stored_layout_ + "' (attribute " +
                        kAttrCpuWeightLayout + "), which needs a Const weight");
  }
  return Status::Ok();
}

Status DnnlWeights::Build(const dnnl::memory::desc& plain, const dnnl::memory::desc& wanted,
                          dnnl::stream& stream, size_t* ws_off) {
  ready_ = false;
  packed_.reset();
  packed_size_ = 0;
  packed_layout_.clear();
  dnnl::memory::desc user = plain;
  if (stored() && stored_layout_.rfind(kWinogradPrefix, 0) == 0) {
    // A Winograd layout has no format tag to build a desc from: its name holds every field, so
    // it is the one the primitive wants when the names agree. oneDNN reorders into these
    // layouts, never out of them.
    const std::string want = FormatTagName(wanted);
    if (stored_layout_ != want) {
      return ParamInvalid("input 1 is stored in oneDNN's Winograd layout '" + stored_layout_ +
                          "' (attribute " + kAttrCpuWeightLayout + "), but the convolution now " +
                          "wants '" + want +
                          "': compile the model again, or with openge.cpuConvAlgorithm=direct");
    }
    user = wanted;
  } else if (stored()) {
    auto desc = DescOfLayout(plain.dims(), plain.data_type(), stored_layout_);
    if (!desc.ok())
      return Status(desc.status())
          .Prefix("input 1 (attribute " + std::string(kAttrCpuWeightLayout) + ")");
    user = *desc;
  }
  const dnnl::engine& eng = DnnlEngine();
  user_mem_ = dnnl::memory(user, eng, nullptr);
  mem_ = dnnl::memory(wanted, eng, nullptr);
  const bool reorder = wanted != user;
  // The whole-weight reorder is made only where it runs: a layout planner's question never packs,
  // and a Const packed in slices or by the Winograd transform needs none.
  reorder_ = dnnl::reorder();
  if (value_ == nullptr) {
    if (reorder) {
      reorder_ = dnnl::reorder(user_mem_, mem_);
      ws_off_ = *ws_off;
      *ws_off += Align64(wanted.get_size());
    }
    return Status::Ok();
  }
  if (value_->GetSize() != user.get_size()) {
    return ParamInvalid(
        "the Const weight holds " + std::to_string(value_->GetSize()) + " bytes, " +
        (stored() ? "its layout '" + stored_layout_ + "' needs " : "its dims need ") +
        std::to_string(user.get_size()));
  }
  // A reorder reads the weight where it lies (deferred bytes of a file are not copied for it);
  // a primitive reading the weight in place gets it aligned.
  void* bytes =
      const_cast<uint8_t*>(reorder ? value_->GetStoredData().data() : value_->GetData().data());
  // A kernel that is only asked never runs; one asked for its packed weight packs only a weight
  // the packer can store (a layout with a name; an opaque one is packed when the model loads).
  if (reorder &&
      (use_ == WeightUse::kAsk || (use_ != WeightUse::kRun && FormatTagName(wanted).empty()))) {
    return Status::Ok();
  }
  const bool storing = use_ == WeightUse::kStore || use_ == WeightUse::kStoreReleasing;
  if (reorder && storing) {
    // Packed already by another compile of the same file's weight: shared, not packed again.
    if (std::shared_ptr<uint8_t> shared = FindPackedWeight(value_->FileSource(), user, wanted)) {
      packed_ = std::move(shared);
      packed_size_ = wanted.get_size();
      mem_.set_data_handle(packed_.get());
      packed_layout_ = FormatTagName(wanted);
      ready_ = true;
      return Status::Ok();
    }
  }
  if (reorder) {
    packed_size_ = wanted.get_size();
    size_t logical = dnnl::memory::data_type_size(wanted.data_type());
    for (const dnnl::memory::dim d : wanted.dims()) logical *= static_cast<size_t>(d);
    // A layout that pads its blocks is zeroed first (the padding must read as zero, and the
    // reorder writes only the data); one without padding is written whole by the reorder, so
    // zeroing it would be a wasted pass over the weight.
    packed_ = AllocateHostBytes(packed_size_, /*zeroed=*/logical != packed_size_);
    mem_.set_data_handle(packed_.get());
    const auto* source = static_cast<const uint8_t*>(bytes);
    // The last reader lets the pages where the weight lies go as it packs them. Pages of a file
    // mapping may go whoever else reads them (a later read faults them back in from the file),
    // so a kernel packing a weight of a mapped model when it loads lets them go too.
    const bool releasing =
        use_ == WeightUse::kStoreReleasing ||
        (use_ == WeightUse::kRun && read_once_ && (value_->IsFileMapped() || value_->IsDeferred()));
    read_once_ = false;
    // The weight packer packs a weight per core at once, so each on one thread: teams of OpenMP
    // threads in each of its workers would only contend for the same cores (EfficientNet-B0's
    // packing 15 -> 23 ms of reorders on two cores).
    std::optional<OmpThreadsGuard> one_thread;
    if (storing) one_thread.emplace(1);
    if (!TransformWinogradWeights(user, wanted, bytes, reinterpret_cast<float*>(packed_.get()))) {
      // oneDNN reads elements through typed pointers: bytes that lie off their elements'
      // alignment in the file are copied slice by slice into an aligned buffer, or else read
      // from the tensor's aligned copy (made now if deferred, and kept with the tensor: another
      // reader may share it), whose pages stay.
      const size_t element = dnnl::memory::data_type_size(user.data_type());
      SliceSource how;
      how.release = releasing;
      how.staged = reinterpret_cast<uintptr_t>(bytes) % element != 0;
      if (ReorderInSlices(user, wanted, bytes, packed_.get(), stream, how)) {
        if (how.release && released_ != nullptr) *released_ = true;
      } else {
        if (how.staged) bytes = const_cast<uint8_t*>(value_->GetData().data());
        user_mem_.set_data_handle(bytes);
        reorder_ = dnnl::reorder(user_mem_, mem_);
        reorder_.execute(stream, user_mem_, mem_);
        stream.wait();
      }
    }
    if (releasing) {
      // Packed whole: the pages where the weight lies go now, not when its Const goes (the
      // weight packer may be packing other weights meanwhile).
      ReleaseMappedPages(source, value_->GetSize());
      if (released_ != nullptr) *released_ = true;
    }
    packed_layout_ = FormatTagName(wanted);
    if (storing) AddPackedWeight(value_->FileSource(), user, wanted, packed_);
  } else {
    mem_.set_data_handle(bytes);
  }
  ready_ = true;
  return Status::Ok();
}

void DnnlWeights::Bind(const void* data, uint8_t* ws, dnnl::stream& stream) {
  if (ready_) return;
  if (reorder_) {
    user_mem_.set_data_handle(const_cast<void*>(data));
    mem_.set_data_handle(ws + ws_off_);
    reorder_.execute(stream, user_mem_, mem_);
  } else {
    mem_.set_data_handle(const_cast<void*>(data));
  }
}

std::optional<PackedWeight> DnnlWeights::Packed(size_t input) const {
  if (packed_layout_.empty()) return std::nullopt;
  PackedWeight p;
  p.input = input;
  p.layout = packed_layout_;
  p.bytes = packed_;
  p.size = packed_size_;
  return p;
}

Status CheckConvOperands(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                         bool const_filter) {
  if (x.size() < 3 || x.size() > 5) {
    return ParamInvalid("input must have rank 3 to 5 (N, C, spatial...), got " + DimsToString(x));
  }
  if (w.size() != x.size()) {
    return ParamInvalid("filter " + DimsToString(w) + " must have the input's rank " +
                        std::to_string(x.size()));
  }
  if (const_filter && HasUnknownDims(w)) {
    return ParamInvalid("the Const filter has unknown dims " + DimsToString(w));
  }
  return Status::Ok();
}

Status DnnlConvIo::Build(const dnnl::memory::desc& src, const dnnl::memory::desc& dst,
                         const dnnl::memory::desc& scratchpad, const dnnl::memory::desc& bias,
                         const dnnl::memory::desc& user_src, const dnnl::memory::desc& user_dst,
                         bool has_bias, int64_t channels, const dnnl::memory& weights,
                         size_t* ws_off) {
  const dnnl::engine& eng = DnnlEngine();
  has_bias_ = has_bias;
  user_src_mem_ = dnnl::memory(user_src, eng, nullptr);
  src_mem_ = dnnl::memory(src, eng, nullptr);
  src_reorder_ = dnnl::reorder();
  if (src != user_src) {
    src_reorder_ = dnnl::reorder(user_src_mem_, src_mem_);
    src_off_ = *ws_off;
    *ws_off += Align64(src.get_size());
  }
  user_dst_mem_ = dnnl::memory(user_dst, eng, nullptr);
  dst_mem_ = dnnl::memory(dst, eng, nullptr);
  dst_reorder_ = dnnl::reorder();
  if (dst != user_dst) {
    dst_reorder_ = dnnl::reorder(dst_mem_, user_dst_mem_);
    dst_off_ = *ws_off;
    *ws_off += Align64(dst.get_size());
  }
  note_.clear();
  if (src_reorder_ || dst_reorder_) {
    note_ = " (activations reordered to " + FormatTagName(src_reorder_ ? src : dst) + ")";
  }
  scratch_bytes_ = scratchpad.get_size();
  scratch_off_ = *ws_off;
  *ws_off += Align64(scratch_bytes_);
  args_ = {{DNNL_ARG_SRC, src_mem_}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst_mem_}};
  if (has_bias) {
    if (bias !=
        dnnl::memory::desc({channels}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a)) {
      return ParamInvalid("oneDNN wants a non-plain bias layout");
    }
    bias_mem_ = dnnl::memory(bias, eng, nullptr);
    args_[DNNL_ARG_BIAS] = bias_mem_;
  }
  if (scratch_bytes_ > 0) {
    scratch_mem_ = dnnl::memory(scratchpad, eng, nullptr);
    args_[DNNL_ARG_SCRATCHPAD] = scratch_mem_;
  }
  return Status::Ok();
}

void DnnlConvIo::Bind(const void* x, void* y, const void* bias, uint8_t* ws, dnnl::stream& stream) {
  if (has_bias_) bias_mem_.set_data_handle(const_cast<void*>(bias));
  if (scratch_bytes_ > 0) scratch_mem_.set_data_handle(ws + scratch_off_);
  if (src_reorder_) {
    user_src_mem_.set_data_handle(const_cast<void*>(x));
    src_mem_.set_data_handle(ws + src_off_);
    src_reorder_.execute(stream, user_src_mem_, src_mem_);
  } else {
    src_mem_.set_data_handle(const_cast<void*>(x));
  }
  dst_mem_.set_data_handle(dst_reorder_ ? static_cast<void*>(ws + dst_off_) : y);
}

void DnnlConvIo::Finish(void* y, dnnl::stream& stream) {
  if (!dst_reorder_) return;
  user_dst_mem_.set_data_handle(y);
  dst_reorder_.execute(stream, dst_mem_, user_dst_mem_);
}

bool IsReferenceImpl(const std::string& impl) {
  // "ref:any", "gemm:ref" (a convolution on the reference gemm), "ref_int8", ...
  return impl.rfind("ref", 0) == 0 || impl.find(":ref") != std::string::npos;
}

void KernelLog(int level, const std::string& message) {
  Log(static_cast<LogLevel>(level), "[host_cpu] " + message);
}

Status ResolveWindow(const std::vector<int64_t>& in, std::vector<int64_t> kernel,
                     std::vector<int64_t> strides, std::vector<int64_t> dilations,
                     const std::vector<int64_t>& pads, const std::string& auto_pad, bool ceil_mode,
                     Window* w) {
  const size_t sp = in.size();
  if (kernel.size() != sp) {
    return ParamInvalid("attribute 'kernel_shape' has " + std::to_string(kernel.size()) +
                        " values for " + std::to_string(sp) + " spatial dims");
  }
  if (strides.empty()) strides.assign(sp, 1);
  if (dilations.empty()) dilations.assign(sp, 1);
  if (strides.size() != sp) return ParamInvalid("attribute 'strides' has the wrong length");
  if (dilations.size() != sp) return ParamInvalid("attribute 'dilations' has the wrong length");
  if (!pads.empty() && pads.size() != 2 * sp) {
    return ParamInvalid("attribute 'pads' has " + std::to_string(pads.size()) +
                        " values, expected " + std::to_string(2 * sp));
  }
  w->kernel = kernel;
  w->strides = strides;
  w->dilations = dilations;
  w->pad_begin.assign(sp, 0);
  w->pad_end.assign(sp, 0);
  w->out.assign(sp, 0);
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  if (!same && auto_pad != "NOTSET" && auto_pad != "VALID" && !auto_pad.empty()) {
    return ParamInvalid("attribute 'auto_pad' '" + auto_pad + "' is not supported");
  }
  for (size_t i = 0; i < sp; ++i) {
    if (kernel[i] <= 0 || strides[i] <= 0 || dilations[i] <= 0) {
      return ParamInvalid("kernel_shape, strides and dilations must be positive");
    }
    GE_ASSIGN_OR_RETURN(const int64_t extent, checked::WindowExtent(kernel[i], dilations[i]));
    if (same) {
      const int64_t out = checked::CeilDiv(in[i], strides[i]);
      // (out - 1) * strides <= in - 1: only adding the extent can overflow.
      GE_ASSIGN_OR_RETURN(const int64_t reach,
                          checked::Add((out - 1) * strides[i], extent, "the SAME window's reach"));
      const int64_t total = std::max<int64_t>(0, reach - in[i]);
      w->pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w->pad_end[i] = total - w->pad_begin[i];
      w->out[i] = out;
      continue;
    }
    if (auto_pad != "VALID" && !pads.empty()) {
      w->pad_begin[i] = pads[i];
      w->pad_end[i] = pads[i + sp];
      if (pads[i] < 0 || pads[i + sp] < 0) return ParamInvalid("attribute 'pads' is negative");
    }
    int64_t padded = 0;
    if (!checked::Add(in[i], w->pad_begin[i], &padded) ||
        !checked::Add(padded, w->pad_end[i], &padded)) {
      return ParamInvalid("input dim " + std::to_string(i) + " with its pads overflows int64");
    }
    const int64_t span = padded - extent;
    if (span < 0) {
      return ParamInvalid("the window (extent " + std::to_string(extent) +
                          ") is larger than the padded input dim " + std::to_string(i));
    }
    int64_t out = span / strides[i] + 1;
    // ONNX: in ceil mode a last, partial window counts when it starts inside the input or the
    // left padding (it starts at out * strides).
    if (ceil_mode && span % strides[i] != 0 && out <= (in[i] + w->pad_begin[i] - 1) / strides[i]) {
      out += 1;
    }
    w->out[i] = out;
  }
  // With one window along a dim its stride is never applied, and oneDNN refuses the huge strides
  // a file may give there (SAME over stride 2^63 - 1 is one window): the smallest stride that
  // still gives one window (past the padded input's last tap) stands in for it.
  for (size_t i = 0; i < sp; ++i) {
    if (w->out[i] != 1) continue;
    const int64_t extent = (w->kernel[i] - 1) * w->dilations[i] + 1;  // checked above
    int64_t span = 0;
    if (checked::Add(in[i], w->pad_begin[i], &span) && checked::Add(span, w->pad_end[i], &span) &&
        span - extent < w->strides[i]) {
      w->strides[i] = std::max<int64_t>(span - extent + 1, 1);
    }
  }
  return Status::Ok();
}

namespace {

std::vector<std::string> SplitSpec(const std::string& spec) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t colon = spec.find(':', start);
    parts.push_back(
        spec.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

bool ParseFloat(const std::string& text, float& out) {
  char* end = nullptr;
  out = std::strtof(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

}  // namespace

bool PostOpsHaveSum(const std::vector<std::string>& specs) {
  for (const std::string& spec : specs) {
    if (spec == "Sum") return true;
  }
  return false;
}

Result<FusedPostOps> ReadFusedPostOps(const OpDesc& op, bool has_addend) {
  FusedPostOps fused;
  std::vector<std::string> specs;
  AttrUtils::GetListStr(op, kAttrFusedPostOps, specs);
  if (!specs.empty()) {
    GE_ASSIGN_OR_RETURN(fused.ops, MakePostOps(specs));
    fused.any = true;
    fused.sum = PostOpsHaveSum(specs);
  }
  if (fused.sum != has_addend) {
    return ParamInvalid(fused.sum ? "the fused post-op Sum needs input 3 (addend)"
                                  : "input 3 (addend) is given without the fused post-op Sum");
  }
  return fused;
}

Result<dnnl::post_ops> MakePostOps(const std::vector<std::string>& specs) {
  dnnl::post_ops ops;
  for (const std::string& spec : specs) {
    const std::vector<std::string> parts = SplitSpec(spec);
    const std::string& op = parts[0];
    std::vector<float> args;
    for (size_t i = 1; i < parts.size(); ++i) {
      float v = 0;
      if (!ParseFloat(parts[i], v))
        return ParamInvalid("fused post-op '" + spec + "': '" + parts[i] + "' is not a number");
      args.push_back(v);
    }
    auto want = [&](size_t n) -> Status {
      if (args.size() == n) return Status::Ok();
      return ParamInvalid("fused post-op '" + spec + "' takes " + std::to_string(n) +
                          " argument(s)");
    };
    dnnl::algorithm alg;
    float alpha = 0.0F, beta = 0.0F;
    if (op == "Sum") {  // dst += the node's "addend" input, which the kernel puts in dst first
      GE_RETURN_IF_ERROR(want(0));
      ops.append_sum(1.0F);
      continue;
    }
    if (op == "Relu") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_relu;
    } else if (op == "LeakyRelu") {
      GE_RETURN_IF_ERROR(want(1));
      alg = dnnl::algorithm::eltwise_relu;
      alpha = args[0];
    } else if (op == "Clip") {
      GE_RETURN_IF_ERROR(want(2));
      alg = dnnl::algorithm::eltwise_clip;
      alpha = args[0];
      beta = args[1];
    } else if (op == "Sigmoid") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_logistic;
    } else if (op == "Tanh") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_tanh;
    } else if (op == "Elu") {
      GE_RETURN_IF_ERROR(want(1));
      alg = dnnl::algorithm::eltwise_elu;
      alpha = args[0];
    } else if (op == "Swish") {  // x * sigmoid(x)
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_swish;
      alpha = 1.0F;
    } else if (op == "HardSigmoid") {  // clip(alpha * x + beta, 0, 1): two oneDNN post-ops
      GE_RETURN_IF_ERROR(want(2));
      ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_linear, args[0], args[1]);
      alg = dnnl::algorithm::eltwise_clip;
      alpha = 0.0F;
      beta = 1.0F;
    } else if (op == "HardSwish") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_hardswish;
    } else if (op == "Gelu") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_gelu_erf;
    } else if (op == "GeluTanh") {
      GE_RETURN_IF_ERROR(want(0));
      alg = dnnl::algorithm::eltwise_gelu_tanh;
    } else {
      return ParamInvalid("fused post-op '" + spec + "' is not one the CPU engine can apply");
    }
    ops.append_eltwise(1.0F, alg, alpha, beta);
  }
  return ops;
}

}  // namespace ge::host_cpu

// Shared helpers of the CPU kernels: shapes, broadcasting plans, attributes and messages.
#include "kernel_util.h"

#include <cstring>
#include <limits>

#include "ge/graph/utils/attr_utils.h"

namespace ge::host_cpu {

int64_t NumElements(const std::vector<int64_t>& dims) {
  if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return 0;
  int64_t n = 1;
  for (int64_t d : dims) {
    if (!checked::Mul(n, d, &n)) return std::numeric_limits<int64_t>::max();
  }
  return n;
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

bool HasUnknownDims(const std::vector<int64_t>& dims) {
  return std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

void SplitAt(const std::vector<int64_t>& dims, int64_t axis, int64_t* outer, int64_t* len,
             int64_t* inner) {
  *outer = NumElements(std::vector<int64_t>(dims.begin(), dims.begin() + axis));
  *len = dims[static_cast<size_t>(axis)];
  *inner = NumElements(std::vector<int64_t>(dims.begin() + axis + 1, dims.end()));
}

std::vector<int64_t> StridesOf(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

int64_t ElementBytes(DataType dtype) {
  switch (dtype) {
    case DT_BOOL:
    case DT_INT8:
    case DT_UINT8:
      return 1;
    case DT_INT16:
    case DT_UINT16:
    case DT_FLOAT16:
    case DT_BF16:
      return 2;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64:
      return 8;
    case DT_STRING:
      return kStringElementBytes;
    default:
      return 0;
  }
}

std::string DtypeName(DataType dtype) { return TypeUtils::DataTypeToSerialString(dtype); }

bool BroadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& out,
                      std::vector<int64_t>* strides) {
  if (dims.size() > out.size()) return false;
  const std::vector<int64_t> own = StridesOf(dims);
  const size_t lead = out.size() - dims.size();
  strides->assign(out.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == out[lead + i]) {
      (*strides)[lead + i] = dims[i] == 1 ? 0 : own[i];
    } else if (dims[i] != 1) {
      return false;
    }
  }
  return true;
}

bool BroadcastDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                   std::vector<int64_t>* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}

bool PlanBroadcast(const std::vector<std::vector<int64_t>>& inputs, const std::vector<int64_t>& out,
                   BroadcastPlan* plan) {
  const size_t rank = out.size();
  const size_t nin = inputs.size();
  // Per input, its stride along each output dim (0 where it broadcasts).
  std::vector<std::vector<int64_t>> strides(nin, std::vector<int64_t>(rank, 0));
  for (size_t i = 0; i < nin; ++i) {
    const auto& in = inputs[i];
    if (in.size() > rank) return false;
    int64_t s = 1;
    for (size_t k = in.size(); k-- > 0;) {
      const size_t d = k + rank - in.size();
      if (in[k] != out[d] && in[k] != 1) return false;
      strides[i][d] = in[k] == 1 ? 0 : s;
      s *= in[k];
    }
  }
  plan->dims.clear();
  plan->strides.assign(nin, {});
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    bool merge = !plan->dims.empty();
    for (size_t i = 0; merge && i < nin; ++i) {
      // Mergeable when the input is contiguous across the two dims or broadcasts along both.
      const int64_t prev = plan->strides[i].back();
      merge = (prev == 0 && strides[i][d] == 0) ||
              (strides[i][d] != 0 && prev == strides[i][d] * out[d]);
    }
    if (merge) {
      plan->dims.back() *= out[d];
      for (size_t i = 0; i < nin; ++i) plan->strides[i].back() = strides[i][d];
    } else {
      plan->dims.push_back(out[d]);
      for (size_t i = 0; i < nin; ++i) plan->strides[i].push_back(strides[i][d]);
    }
  }
  return true;
}

Status KernelBase::Prepare(const KernelSpec& spec) {
  op_ = spec.op;
  if (op_ != nullptr) {
    name_ = op_->GetName();
    type_ = op_->GetType();
  }
  threads_ = std::max(1, spec.threads);
  memory_limit_ = spec.memory_limit;
  probe_ = spec.probe;
  return PrepareImpl(spec);
}

Status KernelBase::Error(const std::string& cause) const {
  return ParamInvalid("node '" + name_ + "' (" + type_ + "): " + cause);
}

Status KernelBase::CheckScratch(int64_t count, int64_t element_bytes,
                                const std::string& what) const {
  int64_t bytes = 0;
  if (count < 0 || !checked::Mul(count, element_bytes, &bytes)) {
    return Error(what + " needs " + std::to_string(count) + " elements of " +
                 std::to_string(element_bytes) + " bytes, which overflows int64");
  }
  if (memory_limit_ > 0 && bytes > memory_limit_) {
    return Error(what + " needs " + std::to_string(bytes) + " bytes, over the memory limit of " +
                 std::to_string(memory_limit_) + " (RuntimeOptions::max_memory_bytes)");
  }
  return Status::Ok();
}

Result<int64_t> KernelBase::AxisAttr(int64_t axis, int64_t rank) const {
  int64_t out = 0;
  if (!NormalizeAxis(axis, rank, &out)) {
    return Error("attribute 'axis' " + std::to_string(axis) + " is out of range for rank " +
                 std::to_string(rank));
  }
  return out;
}

Status KernelBase::CheckArity(const KernelArgs& args, size_t inputs, size_t outputs) const {
  if (args.inputs.size() < inputs || args.outputs.size() < outputs) {
    return Error("expects " + std::to_string(inputs) + " input(s) and " + std::to_string(outputs) +
                 " output(s), got " + std::to_string(args.inputs.size()) + " and " +
                 std::to_string(args.outputs.size()));
  }
  for (size_t i = 0; i < inputs; ++i) {
    if (args.inputs[i].data == nullptr && args.inputs[i].spec.present &&
        NumElements(args.inputs[i].spec.dims) > 0) {
      return Error("input " + std::to_string(i) + " has no data");
    }
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (args.outputs[i].data == nullptr && NumElements(args.outputs[i].spec.dims) > 0) {
      return Error("output " + std::to_string(i) + " has no memory");
    }
  }
  return Status::Ok();
}

Status KernelBase::Unsupported(DataType dtype, const std::string& what) const {
  return Error(what + " dtype " + DtypeName(dtype) + " is not supported");
}

int64_t KernelBase::AttrInt(const std::string& name, int64_t def) const {
  int64_t v = def;
  if (AttrUtils::GetInt(op_, name, v)) return v;
  bool b = false;
  if (AttrUtils::GetBool(op_, name, b)) return b ? 1 : 0;
  return def;
}

float KernelBase::AttrFloat(const std::string& name, float def) const {
  float v = def;
  if (AttrUtils::GetFloat(op_, name, v)) return v;
  int64_t i = 0;
  if (AttrUtils::GetInt(op_, name, i)) return static_cast<float>(i);
  return def;
}

bool KernelBase::AttrBool(const std::string& name, bool def) const {
  return AttrInt(name, def ? 1 : 0) != 0;
}

std::string KernelBase::AttrStr(const std::string& name, const std::string& def) const {
  std::string v = def;
  AttrUtils::GetStr(op_, name, v);
  return v;
}

std::vector<int64_t> KernelBase::AttrInts(const std::string& name) const {
  std::vector<int64_t> v;
  AttrUtils::GetListInt(op_, name, v);
  return v;
}

std::vector<float> KernelBase::AttrFloats(const std::string& name) const {
  std::vector<float> v;
  AttrUtils::Get(op_, name, v);
  return v;
}

bool KernelBase::HasAttr(const std::string& name) const { return AttrUtils::HasAttr(op_, name); }

bool ReadInts(const KernelTensor& t, std::vector<int64_t>* out) {
  const int64_t n = NumElements(t.spec.dims);
  out->clear();
  if (n > 0 && t.data == nullptr) return false;
  if (t.spec.dtype == DT_INT64) {
    const auto* p = static_cast<const int64_t*>(t.data);
    out->assign(p, p + n);
    return true;
  }
  if (t.spec.dtype == DT_INT32) {
    const auto* p = static_cast<const int32_t*>(t.data);
    out->assign(p, p + n);
    return true;
  }
  return false;
}

bool ReadScalar(const KernelTensor& t, double* out) {
  if (t.data == nullptr || NumElements(t.spec.dims) < 1) return false;
  bool ok = false;
  DispatchAll(t.spec.dtype, [&](auto tag) {
    using T = decltype(tag);
    *out = static_cast<double>(*static_cast<const T*>(t.data));
    ok = true;
  });
  return ok;
}

bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

}  // namespace ge::host_cpu

namespace ge::host_cpu {
namespace {

/// A transpose whose innermost output dim is strided in the source while output dim `k` is the
/// source's contiguous one: copied in 16 x 16 tiles of (k, last), so that both the reads and the
/// writes stay within a few cache lines (an element at a time, the reads would each touch a
/// line of their own: BERT's k^T ran at a tenth of memory speed).
template <typename T>
void TiledTranspose(const T* in, T* out, const std::vector<int64_t>& dims,
                    const std::vector<int64_t>& strides, size_t k, int threads) {
  constexpr int64_t kTile = 16;
  const size_t last = dims.size() - 1;
  const std::vector<int64_t> out_strides = StridesOf(dims);
  std::vector<int64_t> outer_dims, outer_in, outer_out;
  for (size_t i = 0; i < last; ++i) {
    if (i == k) continue;
    outer_dims.push_back(dims[i]);
    outer_in.push_back(strides[i]);
    outer_out.push_back(out_strides[i]);
  }
  const int64_t a_extent = dims[k], b_extent = dims[last];
  const int64_t a_out = out_strides[k], b_in = strides[last];
  const int64_t outer = NumElements(outer_dims);
  const int64_t a_tiles = (a_extent + kTile - 1) / kTile;
  ParallelFor(outer * a_tiles, threads, kTile * b_extent, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      int64_t rest = item / a_tiles, in_base = 0, out_base = 0;
      for (size_t d = outer_dims.size(); d-- > 0;) {
        const int64_t i = rest % outer_dims[d];
        rest /= outer_dims[d];
        in_base += i * outer_in[d];
        out_base += i * outer_out[d];
      }
      const int64_t a0 = (item % a_tiles) * kTile, a1 = std::min(a_extent, a0 + kTile);
      for (int64_t b0 = 0; b0 < b_extent; b0 += kTile) {
        const int64_t b1 = std::min(b_extent, b0 + kTile);
        for (int64_t a = a0; a < a1; ++a) {
          T* dst = out + out_base + a * a_out;
          const T* src = in + in_base + a;
          for (int64_t b = b0; b < b1; ++b) dst[b] = src[b * b_in];
        }
      }
    }
  });
}

template <typename T>
void StridedCopyTyped(const T* in, T* out, const std::vector<int64_t>& dims,
                      const std::vector<int64_t>& strides, int threads) {
  if (dims.size() >= 2 && strides.back() != 1 && strides.back() != 0) {
    for (size_t k = 0; k + 1 < dims.size(); ++k) {
      if (strides[k] == 1) return TiledTranspose(in, out, dims, strides, k, threads);
    }
  }
  BroadcastPlan plan;
  plan.dims = dims;
  plan.strides = {strides};
  const int64_t s = dims.empty() ? 0 : strides.back();
  ForEachBroadcastRow(plan, threads, [&](int64_t yo, const int64_t* offs, int64_t n) {
    const T* src = in + offs[0];
    T* dst = out + yo;
    if (s == 1) {
      std::copy(src, src + n, dst);
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i * s];
    }
  });
}

void StridedCopyElements(const uint8_t* in, uint8_t* out, const std::vector<int64_t>& dims,
                         const std::vector<int64_t>& strides, int64_t element_bytes, int threads) {
  BroadcastPlan plan;
  plan.dims = dims;
  plan.strides = {strides};
  const int64_t s = dims.empty() ? 0 : strides.back();
  const auto eb = static_cast<size_t>(element_bytes);
  ForEachBroadcastRow(plan, threads, [&](int64_t yo, const int64_t* offs, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(out + static_cast<size_t>(yo + i) * eb,
                  in + static_cast<size_t>(offs[0] + i * s) * eb, eb);
    }
  });
}

}  // namespace

void StridedCopy(const void* in, void* out, const std::vector<int64_t>& dims,
                 const std::vector<int64_t>& in_strides, int64_t element_bytes, int threads) {
  if (NumElements(dims) == 0) return;
  // Merge dims that are contiguous in the source too; drop extent-1 dims.
  std::vector<int64_t> d, s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!d.empty() && s.back() == in_strides[i] * dims[i]) {
      d.back() *= dims[i];
      s.back() = in_strides[i];
    } else {
      d.push_back(dims[i]);
      s.push_back(in_strides[i]);
    }
  }
  switch (element_bytes) {
    case 1:
      StridedCopyTyped(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), d, s, threads);
      break;
    case 2:
      StridedCopyTyped(static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), d, s,
                       threads);
      break;
    case 4:
      StridedCopyTyped(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), d, s,
                       threads);
      break;
    case 8:
      StridedCopyTyped(static_cast<const uint64_t*>(in), static_cast<uint64_t*>(out), d, s,
                       threads);
      break;
    case kStringElementBytes:  // a string's head
      StridedCopyTyped(static_cast<const StringHead*>(in), static_cast<StringHead*>(out), d, s,
                       threads);
      break;
    default:  // any other size, byte by byte per element
      StridedCopyElements(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), d, s,
                          element_bytes, threads);
      break;
  }
}

}  // namespace ge::host_cpu

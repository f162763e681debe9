// Indexing with ONNX semantics: GatherElements, ScatterElements, GatherNd, ScatterNd (with
// reductions), TensorScatter, OneHot, TopKV2 and NonZero (output size known only after the run).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Reads the indices input and wraps negative values against `dim`; false when one is out of range.
bool WrapIndex(int64_t* v, int64_t dim) {
  if (*v < -dim || *v >= dim) return false;
  if (*v < 0) *v += dim;
  return true;
}

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

bool ParseReduction(const std::string& s, Reduction* r) {
  if (s == "none")
    *r = Reduction::kNone;
  else if (s == "add")
    *r = Reduction::kAdd;
  else if (s == "mul")
    *r = Reduction::kMul;
  else if (s == "max")
    *r = Reduction::kMax;
  else if (s == "min")
    *r = Reduction::kMin;
  else
    return false;
  return true;
}

template <typename T>
void Accumulate(T* dst, T v, Reduction r) {
  switch (r) {
    case Reduction::kNone:
      *dst = v;
      break;
    case Reduction::kAdd:
      *dst = static_cast<T>(*dst + v);
      break;
    case Reduction::kMul:
      *dst = static_cast<T>(*dst * v);
      break;
    case Reduction::kMax:
      *dst = std::max(*dst, v);
      break;
    case Reduction::kMin:
      *dst = std::min(*dst, v);
      break;
  }
}

// GatherElements (kScatter false) and ScatterElements (true) share the index walk: for each
// element of `indices` (shape = updates' shape), the data offset with `axis` replaced.
template <bool kScatter>
class ElementsKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, kScatter ? 3 : 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const auto& id = args.inputs[1].spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    int64_t axis = 0;
    if (!NormalizeAxis(axis_, rank, &axis)) return Error("attribute 'axis' is out of range");
    if (static_cast<int64_t>(id.size()) != rank) return Error("indices must have the rank of x");
    if (y.spec.dims != (kScatter ? d : id) || y.spec.dtype != x.spec.dtype) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are wrong");
    }
    if (kScatter && args.inputs[2].spec.dims != id)
      return Error("updates must have the indices' shape");
    std::vector<int64_t> idx;
    if (!ReadInts(args.inputs[1], &idx)) return Error("indices must be int32 or int64");
    const std::vector<int64_t> xs = StridesOf(d);
    const int64_t n = static_cast<int64_t>(idx.size());
    std::vector<int64_t> offs(static_cast<size_t>(n));
    std::vector<int64_t> coord(id.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t v = idx[k];
      if (!WrapIndex(&v, d[axis])) {
        return Error("index " + std::to_string(idx[k]) + " is out of range for axis dim " +
                     std::to_string(d[axis]));
      }
      int64_t off = 0;
      for (size_t j = 0; j < id.size(); ++j) {
        if (static_cast<int64_t>(j) != axis && coord[j] >= d[j])
          return Error("indices exceed x's dims");
        off += (static_cast<int64_t>(j) == axis ? v : coord[j]) * xs[j];
      }
      offs[k] = off;
      for (size_t j = id.size(); j-- > 0;) {
        if (++coord[j] < id[j]) break;
        coord[j] = 0;
      }
    }
    if (kScatter && x.spec.dtype == DT_STRING && reduction_ != Reduction::kNone) {
      return Error("a reduction cannot combine strings; only reduction 'none' scatters them");
    }
    const bool ok = DispatchMovable(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      if constexpr (kScatter) {
        const T* up = static_cast<const T*>(args.inputs[2].data);
        if (out != in) std::copy(in, in + NumElements(d), out);
        for (int64_t k = 0; k < n; ++k) {
          if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, StringHead>) {
            out[offs[k]] = up[k];
          } else {
            Accumulate(out + offs[k], up[k], reduction_);
          }
        }
      } else {
        for (int64_t k = 0; k < n; ++k) out[k] = in[offs[k]];
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", 0);
    if (!ParseReduction(AttrStr("reduction", "none"), &reduction_)) {
      return Error("attribute 'reduction' '" + AttrStr("reduction", "") + "' is not supported");
    }
    return Status::Ok();
  }
  int64_t axis_ = 0;
  Reduction reduction_ = Reduction::kNone;
};

// GatherNd (batch_dims) and ScatterNd (ONNX ScatterND: data, indices, updates).
template <bool kScatter>
class NdKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, kScatter ? 3 : 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const auto& id = args.inputs[1].spec.dims;
    if (id.empty()) return Error("indices must have rank >= 1");
    const int64_t k = id.back();
    const int64_t b = kScatter ? 0 : batch_dims_;
    if (b < 0 || b >= static_cast<int64_t>(id.size()) || k < 1 ||
        b + k > static_cast<int64_t>(d.size())) {
      return Error("indices " + DimsToString(id) + " do not fit x " + DimsToString(d) +
                   " with batch_dims " + std::to_string(b));
    }
    for (int64_t i = 0; i < b; ++i) {
      if (id[i] != d[i]) return Error("batch dims of indices and x differ");
    }
    std::vector<int64_t> idx;
    if (!ReadInts(args.inputs[1], &idx)) return Error("indices must be int32 or int64");
    int64_t batch = 1, slice = 1;
    for (int64_t i = 0; i < b; ++i) batch *= d[i];
    for (size_t i = static_cast<size_t>(b + k); i < d.size(); ++i) slice *= d[i];
    const int64_t per_batch = NumElements(d) / std::max<int64_t>(batch, 1);
    const int64_t tuples = static_cast<int64_t>(idx.size()) / k;
    const int64_t tuples_per_batch = tuples / std::max<int64_t>(batch, 1);
    const std::vector<int64_t> xs = StridesOf(d);
    std::vector<int64_t> offs(static_cast<size_t>(tuples));
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t off = (t / std::max<int64_t>(tuples_per_batch, 1)) * per_batch;
      for (int64_t j = 0; j < k; ++j) {
        int64_t v = idx[t * k + j];
        if (!WrapIndex(&v, d[b + j])) {
          return Error("index " + std::to_string(idx[t * k + j]) + " is out of range for dim " +
                       std::to_string(d[b + j]));
        }
        off += v * xs[b + j];
      }
      offs[t] = off;
    }
    const int64_t out_n = kScatter ? NumElements(d) : tuples * slice;
    if (NumElements(y.spec.dims) != out_n || y.spec.dtype != x.spec.dtype) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are wrong");
    }
    if (kScatter && NumElements(args.inputs[2].spec.dims) != tuples * slice) {
      return Error("updates " + DimsToString(args.inputs[2].spec.dims) +
                   " do not match the indices");
    }
    if (kScatter && x.spec.dtype == DT_STRING && reduction_ != Reduction::kNone) {
      return Error("a reduction cannot combine strings; only reduction 'none' scatters them");
    }
    const bool ok = DispatchMovable(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      if constexpr (kScatter) {
        const T* up = static_cast<const T*>(args.inputs[2].data);
        if (out != in) std::copy(in, in + NumElements(d), out);
        for (int64_t t = 0; t < tuples; ++t) {
          for (int64_t s = 0; s < slice; ++s) {
            if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, StringHead>) {
              out[offs[t] + s] = up[t * slice + s];
            } else {
              Accumulate(out + offs[t] + s, up[t * slice + s], reduction_);
            }
          }
        }
      } else {
        for (int64_t t = 0; t < tuples; ++t)
          std::copy(in + offs[t], in + offs[t] + slice, out + t * slice);
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    batch_dims_ = AttrInt("batch_dims", 0);
    if (!ParseReduction(AttrStr("reduction", "none"), &reduction_)) {
      return Error("attribute 'reduction' '" + AttrStr("reduction", "") + "' is not supported");
    }
    return Status::Ok();
  }
  int64_t batch_dims_ = 0;
  Reduction reduction_ = Reduction::kNone;
};

// ONNX OneHot: inputs indices, depth (scalar), values [off, on]; new axis `axis`.
class OneHotKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelOutput& y = args.outputs[0];
    double depth_v = 0;
    if (!ReadScalar(args.inputs[1], &depth_v)) return Error("depth must be a numeric scalar");
    const int64_t depth = static_cast<int64_t>(depth_v);
    if (depth < 0) return Error("depth must not be negative");
    const auto& id = args.inputs[0].spec.dims;
    const int64_t rank = static_cast<int64_t>(id.size()) + 1;
    int64_t axis = 0;
    if (!NormalizeAxis(axis_, rank, &axis)) return Error("attribute 'axis' is out of range");
    std::vector<int64_t> out = id;
    out.insert(out.begin() + axis, depth);
    if (y.spec.dims != out || args.inputs[2].spec.dtype != y.spec.dtype ||
        NumElements(args.inputs[2].spec.dims) != 2) {
      return Error("output should be " + DimsToString(out) + " with values [off, on] of its dtype");
    }
    std::vector<int64_t> idx;
    const KernelTensor& it = args.inputs[0];
    if (!ReadInts(it, &idx)) {
      const bool ok = DispatchFloat(it.spec.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* p = static_cast<const T*>(it.data);
        for (int64_t i = 0; i < NumElements(id); ++i) idx.push_back(static_cast<int64_t>(p[i]));
      });
      if (!ok) return Unsupported(it.spec.dtype, "indices");
    }
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= out[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= out[i];
    const bool ok = DispatchAll(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* values = static_cast<const T*>(args.inputs[2].data);
      T* o = static_cast<T*>(y.data);
      std::fill(o, o + NumElements(out), values[0]);
      for (int64_t a = 0; a < outer; ++a) {
        for (int64_t i = 0; i < inner; ++i) {
          int64_t v = idx[a * inner + i];
          if (v < 0) v += depth;
          if (v >= 0 && v < depth) o[(a * depth + v) * inner + i] = values[1];
        }
      }
    });
    return ok ? Status::Ok() : Unsupported(y.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    return Status::Ok();
  }
  int64_t axis_ = -1;
};

// ONNX TopK: k from input 1; values and int64 indices along `axis`; ties keep the lower index.
class TopKKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 2));
    const KernelTensor& x = args.inputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    int64_t axis = 0;
    if (!NormalizeAxis(axis_, rank, &axis)) return Error("attribute 'axis' is out of range");
    std::vector<int64_t> kv;
    if (!ReadInts(args.inputs[1], &kv) || kv.size() != 1) return Error("k must be one integer");
    const int64_t k = kv[0], len = d[axis];
    if (k < 0 || k > len) {
      return Error("k " + std::to_string(k) + " is out of range for axis dim " +
                   std::to_string(len));
    }
    std::vector<int64_t> out = d;
    out[axis] = k;
    if (args.outputs[0].spec.dims != out || args.outputs[1].spec.dims != out ||
        args.outputs[1].spec.dtype != DT_INT64 || args.outputs[0].spec.dtype != x.spec.dtype) {
      return Error("outputs should be " + DimsToString(out) + " (values, DT_INT64 indices)");
    }
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= d[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= d[i];
    auto* oi = static_cast<int64_t*>(args.outputs[1].data);
    // Every integer width ONNX's TopK takes (uint64 too), float and double.
    const bool ok = DispatchAll(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* ov = static_cast<T*>(args.outputs[0].data);
      ParallelFor(outer * inner, threads_, len * 4, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> order(static_cast<size_t>(len));
        for (int64_t p = begin; p < end; ++p) {
          const int64_t o = p / inner, i = p % inner;
          const T* base = in + o * len * inner + i;
          std::iota(order.begin(), order.end(), 0);
          auto cmp = [&](int64_t a, int64_t b) {
            if (base[a * inner] != base[b * inner]) {
              return largest_ ? base[a * inner] > base[b * inner]
                              : base[a * inner] < base[b * inner];
            }
            return a < b;
          };
          std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
          for (int64_t j = 0; j < k; ++j) {
            ov[(o * k + j) * inner + i] = base[order[j] * inner];
            oi[(o * k + j) * inner + i] = order[j];
          }
        }
      });
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", -1);
    largest_ = AttrInt("largest", 1) != 0;
    return Status::Ok();
  }
  int64_t axis_ = -1;
  bool largest_ = true;
};

// ONNX NonZero: y [rank, count] int64. The count is known only after the run: the runtime
// allocates MaxOutputDims ([rank, elements]) and reads ActualOutputDims after Run; the kernel
// writes [rank, count] densely at the start of that buffer.
class NonZeroKernel final : public KernelBase {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index == 0; }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    if (index != 0 || inputs.empty()) return {};
    return {static_cast<int64_t>(inputs[0].dims.size()), NumElements(inputs[0].dims)};
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return index == 0 ? actual_ : std::vector<int64_t>{};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t n = NumElements(d);
    const int64_t rank = static_cast<int64_t>(d.size());
    if (y.spec.dtype != DT_INT64 || NumElements(y.spec.dims) < std::max<int64_t>(rank, 1) * n) {
      return Error("output must be DT_INT64 with room for [" + std::to_string(rank) + ", " +
                   std::to_string(n) + "]");
    }
    std::vector<int64_t> hits;
    const bool ok = DispatchAll(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      for (int64_t i = 0; i < n; ++i) {
        if (in[i] != T(0)) hits.push_back(i);
      }
    });
    if (!ok) return Unsupported(x.spec.dtype);
    const int64_t count = static_cast<int64_t>(hits.size());
    auto* out = static_cast<int64_t*>(y.data);
    const std::vector<int64_t> xs = StridesOf(d);
    for (int64_t j = 0; j < count; ++j) {
      for (int64_t r = 0; r < rank; ++r) out[r * count + j] = (hits[j] / xs[r]) % d[r];
    }
    actual_ = {rank, count};
    return Status::Ok();
  }

 private:
  std::vector<int64_t> actual_;
};

// ONNX TensorScatter: present = past, with update's rows along `axis` written from
// write_indices[batch] on (modulo the dim in circular mode; linear mode must stay inside it).
class TensorScatterKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& past = args.inputs[0];
    const KernelTensor& update = args.inputs[1];
    const KernelOutput& present = args.outputs[0];
    const auto& d = past.spec.dims;
    const auto rank = static_cast<int64_t>(d.size());
    const int64_t elem = ElementBytes(past.spec.dtype);
    if (elem == 0) return Unsupported(past.spec.dtype);
    if (update.spec.dtype != past.spec.dtype || present.spec.dtype != past.spec.dtype ||
        present.spec.dims != d) {
      return Error("update and present_cache must have past_cache's dtype, present its shape");
    }
    int64_t axis = 0;
    if (!NormalizeAxis(AttrInt("axis", -2), rank, &axis) || axis == 0) {
      return Error("attribute 'axis' " + std::to_string(AttrInt("axis", -2)) +
                   " names no sequence dim of " + DimsToString(d));
    }
    const auto& u = update.spec.dims;
    bool fits = u.size() == d.size();
    for (size_t i = 0; fits && i < d.size(); ++i) {
      fits = static_cast<int64_t>(i) == axis ? u[i] <= d[i] : u[i] == d[i];
    }
    if (!fits) {
      return Error("update " + DimsToString(u) + " does not fit past_cache " + DimsToString(d));
    }
    const int64_t batch = d[0], max_len = d[static_cast<size_t>(axis)];
    const int64_t seq = u[static_cast<size_t>(axis)];
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= d[static_cast<size_t>(i)];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= d[static_cast<size_t>(i)];
    std::vector<int64_t> start(static_cast<size_t>(batch), 0);
    if (HasInput(args, 2)) {
      const KernelTensor& w = args.inputs[2];
      if (w.spec.dtype != DT_INT64 || NumElements(w.spec.dims) != batch) {
        return Error("write_indices must be int64, one per batch (" + std::to_string(batch) + ")");
      }
      std::copy_n(static_cast<const int64_t*>(w.data), batch, start.begin());
    }
    const bool circular = mode_ == "circular";
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t s = start[static_cast<size_t>(b)];
      if (s < 0 || (!circular && s > max_len - seq)) {
        return Error("write index " + std::to_string(s) + " of batch " + std::to_string(b) +
                     " puts " + std::to_string(seq) + " rows outside " + std::to_string(max_len) +
                     (circular ? "" : " (linear mode)"));
      }
    }
    const int64_t row = inner * elem;
    auto* out = static_cast<uint8_t*>(present.data);
    if (out != past.data && NumElements(d) > 0) {
      std::memcpy(out, past.data, static_cast<size_t>(NumElements(d) * elem));
    }
    if (seq == 0 || outer == 0) return Status::Ok();
    const auto* in = static_cast<const uint8_t*>(update.data);
    const int64_t per_batch = outer / batch;  // prefixes of one batch entry
    for (int64_t p = 0; p < outer; ++p) {
      const int64_t s = start[static_cast<size_t>(p / per_batch)];
      for (int64_t i = 0; i < seq; ++i) {
        const int64_t at = circular ? (s + i) % max_len : s + i;
        std::memcpy(out + (p * max_len + at) * row, in + (p * seq + i) * row,
                    static_cast<size_t>(row));
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    mode_ = AttrStr("mode", "linear");
    if (mode_ != "linear" && mode_ != "circular") {
      return Error("attribute 'mode' is '" + mode_ + "'; it must be 'linear' or 'circular'");
    }
    return Status::Ok();
  }
  std::string mode_;
};

}  // namespace

void RegisterIndexKernels(KernelTable& t) {
  t.Add("GatherElements", MakeKernel<ElementsKernel<false>>);
  t.Add("ScatterElements", MakeKernel<ElementsKernel<true>>);
  t.Add("GatherNd", MakeKernel<NdKernel<false>>);
  t.Add("ScatterNd", MakeKernel<NdKernel<true>>);
  t.Add("OneHot", MakeKernel<OneHotKernel>);
  t.Add("TopKV2", MakeKernel<TopKKernel>);
  t.Add("NonZero", MakeKernel<NonZeroKernel>);
  t.Add("TensorScatter", MakeKernel<TensorScatterKernel>);
}

}  // namespace ge::host_cpu

// Slice reorderings after ONNX: Unique (distinct elements, or slices along 'axis', sorted or in
// order of first occurrence; its sizes known only after the run) and ReverseSequence (the first
// sequence_lens[b] time steps of each batch entry reversed).
#include <cstring>
#include <numeric>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// Splits `dims` at `axis` into [outer, len, inner].
void SplitDims(const std::vector<int64_t>& dims, size_t axis, int64_t* outer, int64_t* len,
               int64_t* inner) {
  *outer =
      NumElements(std::vector<int64_t>(dims.begin(), dims.begin() + static_cast<int64_t>(axis)));
  *len = dims[axis];
  *inner =
      NumElements(std::vector<int64_t>(dims.begin() + static_cast<int64_t>(axis) + 1, dims.end()));
}

// Y, indices and counts have one entry per distinct slice; inverse_indices one per input slice.
// The slices of the flattened input are its elements (outer = inner = 1); along an axis, slice k
// is x[o, k, i] for every (o, i), compared lexicographically in that order (numpy's unique).
class UniqueKernel final : public KernelBase {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index != 2; }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    if (inputs.empty() || index == 2) return {};
    const auto& d = inputs[0].dims;
    int64_t axis = 0;
    if (!has_axis_ || !NormalizeAxis(axis_, static_cast<int64_t>(d.size()), &axis)) {
      return {NumElements(d)};
    }
    return index == 0 ? d : std::vector<int64_t>{d[static_cast<size_t>(axis)]};
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    if (index == 0) return y_dims_;
    return {unique_};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const int64_t eb = ElementBytes(x.spec.dtype);
    // It compares elements by their bytes, which for strings are heads, not the text.
    if (eb == 0 || x.spec.dtype == DT_STRING) return Unsupported(x.spec.dtype);
    if (args.outputs[0].spec.dtype != x.spec.dtype) return Error("Y must have X's dtype");
    int64_t outer = 1, len = NumElements(x.spec.dims), inner = 1;
    size_t axis = 0;
    if (has_axis_) {
      GE_ASSIGN_OR_RETURN(const int64_t a,
                          AxisAttr(axis_, static_cast<int64_t>(x.spec.dims.size())));
      axis = static_cast<size_t>(a);
      SplitDims(x.spec.dims, axis, &outer, &len, &inner);
    }
    // order: slice indices sorted by content, equal slices by index (stable).
    std::vector<int64_t> order(static_cast<size_t>(len));
    std::iota(order.begin(), order.end(), 0);
    const bool ok = DispatchAll(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* v = static_cast<const T*>(x.data);
      auto compare = [&](int64_t a, int64_t b) {  // <0, 0, >0 as slice a <, ==, > slice b
        for (int64_t o = 0; o < outer; ++o) {
          const T* pa = v + (o * len + a) * inner;
          const T* pb = v + (o * len + b) * inner;
          for (int64_t i = 0; i < inner; ++i) {
            if (pa[i] < pb[i]) return -1;
            if (pb[i] < pa[i]) return 1;
          }
        }
        return 0;
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
      // Groups of equal slices: first index (the group's smallest) and members.
      first_.clear();
      group_of_.assign(static_cast<size_t>(len), 0);
      counts_.clear();
      for (size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || compare(order[k - 1], order[k]) != 0) {
          first_.push_back(order[k]);
          counts_.push_back(0);
        }
        group_of_[static_cast<size_t>(order[k])] = static_cast<int64_t>(first_.size()) - 1;
        ++counts_.back();
      }
    });
    if (!ok) return Unsupported(x.spec.dtype);
    unique_ = static_cast<int64_t>(first_.size());
    // rank[g]: the output position of group g (sorted: g itself; else by first occurrence).
    std::vector<int64_t> rank(first_.size());
    std::iota(rank.begin(), rank.end(), 0);
    if (!sorted_) {
      std::vector<int64_t> by_first(first_.size());
      std::iota(by_first.begin(), by_first.end(), 0);
      std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) {
        return first_[static_cast<size_t>(a)] < first_[static_cast<size_t>(b)];
      });
      for (size_t p = 0; p < by_first.size(); ++p)
        rank[static_cast<size_t>(by_first[p])] = static_cast<int64_t>(p);
    }
    if (has_axis_) {
      y_dims_ = x.spec.dims;
      y_dims_[axis] = unique_;
    } else {
      y_dims_ = {unique_};
    }
    GE_RETURN_IF_ERROR(CheckRoom(args, 0, NumElements(y_dims_)));
    const auto* in = static_cast<const uint8_t*>(x.data);
    auto* y = static_cast<uint8_t*>(args.outputs[0].data);
    const int64_t slice = inner * eb;
    for (size_t g = 0; g < first_.size(); ++g) {
      const int64_t p = rank[g];
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(y + (o * unique_ + p) * slice, in + (o * len + first_[g]) * slice,
                    static_cast<size_t>(slice));
      }
    }
    if (Wanted(args, 1)) {
      GE_RETURN_IF_ERROR(CheckRoom(args, 1, unique_));
      auto* out = static_cast<int64_t*>(args.outputs[1].data);
      for (size_t g = 0; g < first_.size(); ++g) out[rank[g]] = first_[g];
    }
    if (Wanted(args, 2)) {
      GE_RETURN_IF_ERROR(CheckRoom(args, 2, len));
      auto* out = static_cast<int64_t*>(args.outputs[2].data);
      for (int64_t k = 0; k < len; ++k)
        out[k] = rank[static_cast<size_t>(group_of_[static_cast<size_t>(k)])];
    }
    if (Wanted(args, 3)) {
      GE_RETURN_IF_ERROR(CheckRoom(args, 3, unique_));
      auto* out = static_cast<int64_t*>(args.outputs[3].data);
      for (size_t g = 0; g < first_.size(); ++g) out[rank[g]] = counts_[g];
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    has_axis_ = HasAttr("axis");
    axis_ = AttrInt("axis", 0);
    sorted_ = AttrInt("sorted", 1) != 0;
    return Status::Ok();
  }
  static bool Wanted(const KernelArgs& args, size_t i) {
    return i < args.outputs.size() && args.outputs[i].data != nullptr;
  }
  Status CheckRoom(const KernelArgs& args, size_t i, int64_t elements) const {
    if (i > 0 && args.outputs[i].spec.dtype != DT_INT64) {
      return Error("output " + std::to_string(i) + " must be int64");
    }
    if (NumElements(args.outputs[i].spec.dims) < elements) {
      return Error("output " + std::to_string(i) + " " + DimsToString(args.outputs[i].spec.dims) +
                   " has no room for " + std::to_string(elements) + " elements");
    }
    return Status::Ok();
  }

  bool has_axis_ = false;
  int64_t axis_ = 0;
  bool sorted_ = true;
  int64_t unique_ = 0;
  std::vector<int64_t> y_dims_;
  std::vector<int64_t> first_, group_of_, counts_;
};

class ReverseSequenceKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    if (d.size() < 2) return Error("input must have rank >= 2, got " + DimsToString(d));
    if (y.spec.dims != d || y.spec.dtype != x.spec.dtype) {
      return Error("output must have the input's dims and dtype");
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    const int64_t batch = d[static_cast<size_t>(batch_axis_)];
    const int64_t steps = d[static_cast<size_t>(time_axis_)];
    std::vector<int64_t> lens;
    if (!ReadInts(args.inputs[1], &lens) || static_cast<int64_t>(lens.size()) != batch) {
      return Error("sequence_lens must hold " + std::to_string(batch) + " integers");
    }
    for (int64_t l : lens) {
      if (l < 0 || l > steps) {
        return Error("sequence length " + std::to_string(l) + " is outside [0, " +
                     std::to_string(steps) + "]");
      }
    }
    const int64_t slice = NumElements(std::vector<int64_t>(d.begin() + 2, d.end())) * eb;
    const auto* in = static_cast<const uint8_t*>(x.data);
    auto* out = static_cast<uint8_t*>(y.data);
    auto at = [&](int64_t b, int64_t t) {
      return (time_axis_ == 0 ? t * batch + b : b * steps + t) * slice;
    };
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t l = lens[static_cast<size_t>(b)];
      for (int64_t t = 0; t < steps; ++t) {
        std::memcpy(out + at(b, t), in + at(b, t < l ? l - 1 - t : t), static_cast<size_t>(slice));
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    batch_axis_ = AttrInt("batch_axis", 1);
    time_axis_ = AttrInt("time_axis", 0);
    if ((batch_axis_ != 0 && batch_axis_ != 1) || time_axis_ != 1 - batch_axis_) {
      return Error("batch_axis and time_axis must be 0 and 1 in some order, got " +
                   std::to_string(batch_axis_) + " and " + std::to_string(time_axis_));
    }
    return Status::Ok();
  }
  int64_t batch_axis_ = 1, time_axis_ = 0;
};

}  // namespace

void RegisterReorderKernels(KernelTable& t) {
  t.Add("Unique", MakeKernel<UniqueKernel>);
  t.Add("ReverseSequence", MakeKernel<ReverseSequenceKernel>);
}

}  // namespace ge::host_cpu

// Shape-changing copies and generators: PadV3 (constant / reflect / edge / wrap), Tile, Expand,
// DepthToSpace, SpaceToDepth, Range, ConstantOfShape, Cumsum and Trilu. Resize is in
// resize_kernel.cc.
//
// Pad and Tile map each output coordinate to a source coordinate per dim (a small table per
// dim, -1 for "constant"), so one walk over the output serves both.
#include <cmath>
#include <cstring>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_utils.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// y[o] = x[sum_d maps[d][o_d] * stride_d], or `fill` when any maps[d][o_d] < 0.
template <typename T>
void MapCopy(const T* x, T* y, const std::vector<int64_t>& out_dims,
             const std::vector<int64_t>& in_dims, const std::vector<std::vector<int64_t>>& maps,
             T fill) {
  const std::vector<int64_t> xs = StridesOf(in_dims);
  const size_t rank = out_dims.size();
  const int64_t n = NumElements(out_dims);
  std::vector<int64_t> o(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    bool inside = true;
    for (size_t d = 0; d < rank && inside; ++d) {
      const int64_t s = maps[d][o[d]];
      inside = s >= 0;
      off += s * xs[d];
    }
    y[i] = inside ? x[off] : fill;
    for (size_t d = rank; d-- > 0;) {
      if (++o[d] < out_dims[d]) break;
      o[d] = 0;
    }
  }
}

class PadKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    std::vector<int64_t> pads, axes;
    if (!ReadInts(args.inputs[1], &pads)) return Error("pads must be int64");
    if (HasInput(args, 3)) {
      if (!ReadInts(args.inputs[3], &axes)) return Error("axes must be integers");
    } else {
      for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
    }
    if (pads.size() != 2 * axes.size()) {
      return Error("pads has " + std::to_string(pads.size()) + " values for " +
                   std::to_string(axes.size()) + " axes");
    }
    std::vector<int64_t> begin(d.size(), 0), out = d;
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = 0;
      if (!NormalizeAxis(axes[i], rank, &a))
        return Error("axis " + std::to_string(axes[i]) + " is out of range");
      begin[a] = pads[i];
      out[a] = d[a] + pads[i] + pads[i + axes.size()];
      if (out[a] < 0) return Error("pads make dim " + std::to_string(a) + " negative");
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype) {
      return Error("output should be " + DimsToString(out));
    }
    std::vector<std::vector<int64_t>> maps(d.size());
    for (size_t a = 0; a < d.size(); ++a) {
      const int64_t n = d[a];
      if (n == 0 && out[a] > 0 && mode_ != "constant") {
        return Error("mode '" + mode_ + "' cannot pad an empty dim");
      }
      if (mode_ == "reflect" && n == 1 && out[a] > 1)
        return Error("reflect needs dims of at least 2");
      for (int64_t o = 0; o < out[a]; ++o) {
        int64_t s = o - begin[a];
        if (s < 0 || s >= n) {
          if (mode_ == "constant") {
            s = -1;
          } else if (mode_ == "edge") {
            s = std::clamp<int64_t>(s, 0, n - 1);
          } else if (mode_ == "wrap") {
            s = ((s % n) + n) % n;
          } else {  // reflect, period 2(n - 1)
            const int64_t period = 2 * (n - 1);
            s = ((s % period) + period) % period;
            if (s >= n) s = period - s;
          }
        }
        maps[a].push_back(s);
      }
    }
    const bool ok = DispatchMovable(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      T fill{};
      if (HasInput(args, 2) && NumElements(args.inputs[2].spec.dims) > 0) {
        fill = *static_cast<const T*>(args.inputs[2].data);
      }
      MapCopy(static_cast<const T*>(x.data), static_cast<T*>(y.data), out, d, maps, fill);
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    mode_ = AttrStr("mode", "constant");
    if (mode_ != "constant" && mode_ != "reflect" && mode_ != "edge" && mode_ != "wrap") {
      return Error("attribute 'mode' '" + mode_ + "' is not supported");
    }
    return Status::Ok();
  }
  std::string mode_ = "constant";
};

class TileKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    std::vector<int64_t> reps;
    if (!ReadInts(args.inputs[1], &reps) || reps.size() != d.size()) {
      return Error("multiples must be integers, one per dim of " + DimsToString(d));
    }
    std::vector<int64_t> out(d.size());
    std::vector<std::vector<int64_t>> maps(d.size());
    for (size_t a = 0; a < d.size(); ++a) {
      if (reps[a] < 0) return Error("multiples must not be negative");
      out[a] = d[a] * reps[a];
      for (int64_t o = 0; o < out[a]; ++o) maps[a].push_back(o % d[a]);
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype)
      return Error("output should be " + DimsToString(out));
    const bool ok = DispatchMovable(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      MapCopy(static_cast<const T*>(x.data), static_cast<T*>(y.data), out, d, maps, T{});
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }
};

// Expand: numpy broadcast of x to broadcast(x.dims, shape).
class ExpandKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    std::vector<int64_t> shape, out;
    if (!ReadInts(args.inputs[1], &shape)) return Error("shape must be int64");
    if (!BroadcastDims(x.spec.dims, shape, &out)) {
      return Error(DimsToString(x.spec.dims) + " cannot be expanded to " + DimsToString(shape));
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype)
      return Error("output should be " + DimsToString(out));
    BroadcastPlan plan;
    PlanBroadcast({x.spec.dims}, out, &plan);
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    StridedCopy(x.data, y.data, plan.dims, plan.strides[0], eb, threads_);
    return Status::Ok();
  }
};

// DepthToSpace (DCR / CRD) and SpaceToDepth as a strided copy of a 6-D view.
template <bool kToSpace>
class DepthSpaceKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t b = block_;
    if (d.size() != 4) return Error("input must be 4-D, got " + DimsToString(d));
    const int64_t n = d[0], c = d[1], h = d[2], w = d[3];
    // The blocksize comes from the file: every product with it is checked.
    int64_t bb = 0, hb = 0, wb = 0, cbb = 0;
    if (!checked::Mul(b, b, &bb) || !checked::Mul(h, b, &hb) || !checked::Mul(w, b, &wb) ||
        !checked::Mul(c, bb, &cbb)) {
      return Error("blocksize " + std::to_string(b) + " over " + DimsToString(d) +
                   " overflows int64");
    }
    std::vector<int64_t> view, perm, out;
    if (kToSpace) {
      if (c % bb != 0) return Error("channels are not divisible by blocksize^2");
      const int64_t oc = c / bb;
      view =
          crd_ ? std::vector<int64_t>{n, oc, b, b, h, w} : std::vector<int64_t>{n, b, b, oc, h, w};
      perm = crd_ ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
      out = {n, oc, hb, wb};
    } else {
      if (h % b != 0 || w % b != 0) return Error("spatial dims are not divisible by blocksize");
      view = {n, c, h / b, b, w / b, b};
      perm = {0, 3, 5, 1, 2, 4};
      out = {n, cbb, h / b, w / b};
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype)
      return Error("output should be " + DimsToString(out));
    const std::vector<int64_t> vs = StridesOf(view);
    std::vector<int64_t> dims, strides;
    for (int64_t p : perm) {
      dims.push_back(view[p]);
      strides.push_back(vs[p]);
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    StridedCopy(x.data, y.data, dims, strides, eb, threads_);
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    block_ = AttrInt("blocksize", 0);
    if (block_ <= 0) return Error("attribute 'blocksize' must be positive");
    const std::string mode = AttrStr("mode", "DCR");
    if (mode != "DCR" && mode != "CRD")
      return Error("attribute 'mode' '" + mode + "' is not supported");
    crd_ = mode == "CRD";
    return Status::Ok();
  }
  int64_t block_ = 0;
  bool crd_ = false;
};

class RangeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelOutput& y = args.outputs[0];
    bool ok = true;
    const bool known = DispatchNumeric(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      T v[3];
      for (size_t i = 0; i < 3; ++i) {
        if (args.inputs[i].spec.dtype != y.spec.dtype ||
            NumElements(args.inputs[i].spec.dims) != 1) {
          ok = false;
          return;
        }
        v[i] = *static_cast<const T*>(args.inputs[i].data);
      }
      if (v[2] == T(0)) {
        ok = false;
        return;
      }
      const int64_t n = infer::RangeLength(static_cast<double>(v[0]), static_cast<double>(v[1]),
                                           static_cast<double>(v[2]));
      if (n < 0 || y.spec.dims != std::vector<int64_t>{n}) {
        ok = false;
        return;
      }
      T* out = static_cast<T*>(y.data);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(v[0] + static_cast<T>(i) * v[2]);
    });
    if (!known) return Unsupported(y.spec.dtype);
    return ok ? Status::Ok()
              : Error(
                    "start, limit, delta must be non-zero-delta scalars of the output's dtype, "
                    "and the output [ceil((limit - start) / delta)]");
  }
};

class ConstantOfShapeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelOutput& y = args.outputs[0];
    std::vector<int64_t> shape;
    if (!ReadInts(args.inputs[0], &shape)) return Error("shape must be int64");
    if (y.spec.dims != shape || y.spec.dtype != dtype_) {
      return Error("output should be " + DtypeName(dtype_) + DimsToString(shape));
    }
    const int64_t eb = ElementBytes(dtype_);
    auto* out = static_cast<uint8_t*>(y.data);
    for (int64_t i = 0; i < NumElements(shape); ++i)
      std::memcpy(out + i * eb, value_.data(), static_cast<size_t>(eb));
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    const GeTensor* value = AttrUtils::GetPtr<GeTensor>(op_, "value");
    if (value == nullptr) {
      dtype_ = DT_FLOAT;
      value_.assign(4, 0);
      return Status::Ok();
    }
    dtype_ = value->GetTensorDesc().GetDataType();
    const int64_t eb = ElementBytes(dtype_);
    if (eb == 0 || dtype_ == DT_STRING || static_cast<int64_t>(value->GetSize()) < eb) {
      return Error("attribute 'value' must hold one element of a supported dtype");
    }
    value_.assign(value->GetData().begin(), value->GetData().begin() + eb);
    return Status::Ok();
  }
  DataType dtype_ = DT_FLOAT;
  std::vector<uint8_t> value_;
};

// ONNX CumSum (kProduct false) and CumProd: axis from input 1; attributes exclusive and reverse.
template <bool kProduct>
class CumulativeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    std::vector<int64_t> av;
    int64_t axis = 0;
    if (!ReadInts(args.inputs[1], &av) || av.size() != 1 ||
        !NormalizeAxis(av[0], static_cast<int64_t>(d.size()), &axis)) {
      return Error("axis must be one integer within the input's rank");
    }
    if (y.spec.dims != d || y.spec.dtype != x.spec.dtype)
      return Error("output must match the input");
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= d[i];
    for (size_t i = static_cast<size_t>(axis) + 1; i < d.size(); ++i) inner *= d[i];
    const int64_t len = d[axis];
    const bool ok = DispatchNumeric(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          T acc = kProduct ? T(1) : T(0);
          for (int64_t s = 0; s < len; ++s) {
            const int64_t r = reverse_ ? len - 1 - s : s;
            const int64_t at = (o * len + r) * inner + i;
            const T v = in[at];
            if (exclusive_) out[at] = acc;
            acc = static_cast<T>(kProduct ? acc * v : acc + v);
            if (!exclusive_) out[at] = acc;
          }
        }
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    exclusive_ = AttrInt("exclusive", 0) != 0;
    reverse_ = AttrInt("reverse", 0) != 0;
    return Status::Ok();
  }
  bool exclusive_ = false;
  bool reverse_ = false;
};

// ONNX Trilu on the last two dims: upper keeps j - i >= k, lower keeps j - i <= k.
class TriluKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    if (d.size() < 2) return Error("input must have rank >= 2");
    if (y.spec.dims != d || y.spec.dtype != x.spec.dtype)
      return Error("output must match the input");
    int64_t k = 0;
    if (HasInput(args, 1)) {
      std::vector<int64_t> kv;
      if (!ReadInts(args.inputs[1], &kv) || kv.size() != 1) return Error("k must be one integer");
      k = kv[0];
    }
    const int64_t rows = d[d.size() - 2], cols = d.back();
    const int64_t mats = rows * cols == 0 ? 0 : NumElements(d) / (rows * cols);
    const bool ok = DispatchAll(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* out = static_cast<T*>(y.data);
      for (int64_t m = 0; m < mats; ++m) {
        for (int64_t i = 0; i < rows; ++i) {
          for (int64_t j = 0; j < cols; ++j) {
            const int64_t at = (m * rows + i) * cols + j;
            const bool keep = upper_ ? j - i >= k : j - i <= k;
            out[at] = keep ? in[at] : T{};
          }
        }
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    upper_ = AttrInt("upper", 1) != 0;
    return Status::Ok();
  }
  bool upper_ = true;
};

}  // namespace

void RegisterShapeKernels(KernelTable& t) {
  t.Add("PadV3", MakeKernel<PadKernel>);
  t.Add("Tile", MakeKernel<TileKernel>);
  t.Add("Expand", MakeKernel<ExpandKernel>);
  t.Add("DepthToSpace", MakeKernel<DepthSpaceKernel<true>>);
  t.Add("SpaceToDepth", MakeKernel<DepthSpaceKernel<false>>);
  t.Add("Range", MakeKernel<RangeKernel>);
  t.Add("ConstantOfShape", MakeKernel<ConstantOfShapeKernel>);
  t.Add("Cumsum", MakeKernel<CumulativeKernel</*kProduct=*/false>>);
  t.Add("Cumprod", MakeKernel<CumulativeKernel</*kProduct=*/true>>);
  t.Add("Trilu", MakeKernel<TriluKernel>);
  RegisterResizeKernel(t);
}

}  // namespace ge::host_cpu

// Data movement of any dtype: Transpose, ConcatV2, Split, Slice (ONNX starts/ends/axes/steps),
// GatherV2 (ONNX Gather, axis attribute), Cast (attribute `to`; float16 and bfloat16 included,
// and the 8-, 4- and 2-bit types of ge/graph/narrow_types.h) and CastLike (the output's dtype).
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "ge/graph/narrow_types.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_utils.h"
#include "half_float_util.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

class TransposeKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const size_t rank = d.size();
    std::vector<int64_t> perm = perm_;
    if (perm.empty()) {
      for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    }
    if (perm.size() != rank) {
      return Error("attribute 'perm' has " + std::to_string(perm.size()) + " entries for " +
                   DimsToString(d));
    }
    std::vector<bool> seen(rank, false);
    const std::vector<int64_t> xs = StridesOf(d);
    std::vector<int64_t> out_dims(rank), strides(rank);
    for (size_t i = 0; i < rank; ++i) {
      int64_t p = 0;
      if (!NormalizeAxis(perm[i], static_cast<int64_t>(rank), &p) || seen[p]) {
        return Error("attribute 'perm' " + DimsToString(perm) + " is not a permutation");
      }
      seen[p] = true;
      out_dims[i] = d[p];
      strides[i] = xs[p];
    }
    if (y.spec.dims != out_dims || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(y.spec.dims) + " should be " + DimsToString(out_dims));
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    StridedCopy(x.data, y.data, out_dims, strides, eb, threads_);
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    perm_ = AttrInts("perm");
    return Status::Ok();
  }
  std::vector<int64_t> perm_;
};

class ConcatKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelOutput& y = args.outputs[0];
    const auto& yd = y.spec.dims;
    const int64_t rank = static_cast<int64_t>(yd.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    const int64_t eb = ElementBytes(y.spec.dtype);
    if (eb == 0) return Unsupported(y.spec.dtype);
    int64_t outer = 1, inner = eb, total = 0;
    for (int64_t i = 0; i < axis; ++i) outer *= yd[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= yd[i];
    for (const KernelTensor& x : args.inputs) {
      const auto& xd = x.spec.dims;
      bool ok = x.spec.dtype == y.spec.dtype && static_cast<int64_t>(xd.size()) == rank;
      for (int64_t i = 0; ok && i < rank; ++i) ok = i == axis || xd[i] == yd[i];
      if (!ok) {
        return Error("input " + DtypeName(x.spec.dtype) + DimsToString(xd) +
                     " does not fit the output " + DtypeName(y.spec.dtype) + DimsToString(yd) +
                     " on axis " + std::to_string(axis));
      }
      total += xd[axis];
    }
    if (total != yd[axis]) return Error("input extents on the axis do not sum to the output's");
    const int64_t out_row = yd[axis] * inner;
    auto* out = static_cast<uint8_t*>(y.data);
    ParallelFor(outer, threads_, out_row, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        int64_t at = 0;
        for (const KernelTensor& x : args.inputs) {
          const int64_t row = x.spec.dims[axis] * inner;
          if (row > 0) {
            std::memcpy(out + o * out_row + at, static_cast<const uint8_t*>(x.data) + o * row,
                        static_cast<size_t>(row));
          }
          at += row;
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    if (!HasAttr("axis")) return Error("attribute 'axis' is required");
    axis_ = AttrInt("axis", 0);
    return Status::Ok();
  }
  int64_t axis_ = 0;
};

// ONNX Split: the sizes are the outputs' extents on `axis` (the runtime allocated them from the
// inferred shapes); they must add up to the input's.
class SplitKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const auto& xd = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(xd.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    int64_t outer = 1, inner = eb, total = 0;
    for (int64_t i = 0; i < axis; ++i) outer *= xd[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= xd[i];
    for (const KernelOutput& y : args.outputs) {
      const auto& yd = y.spec.dims;
      bool ok = y.spec.dtype == x.spec.dtype && static_cast<int64_t>(yd.size()) == rank;
      for (int64_t i = 0; ok && i < rank; ++i) ok = i == axis || xd[i] == yd[i];
      if (!ok) {
        return Error("output " + DimsToString(yd) + " does not fit the input " + DimsToString(xd));
      }
      total += yd[axis];
    }
    if (total != xd[axis]) {
      return Error("output extents on axis " + std::to_string(axis) + " sum to " +
                   std::to_string(total) + ", not the input's " + std::to_string(xd[axis]));
    }
    const int64_t in_row = xd[axis] * inner;
    const auto* in = static_cast<const uint8_t*>(x.data);
    ParallelFor(outer, threads_, in_row, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        int64_t at = 0;
        for (const KernelOutput& y : args.outputs) {
          const int64_t row = y.spec.dims[axis] * inner;
          if (row > 0) {
            std::memcpy(static_cast<uint8_t*>(y.data) + o * row, in + o * in_row + at,
                        static_cast<size_t>(row));
          }
          at += row;
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", 0);
    return Status::Ok();
  }
  int64_t axis_ = 0;
};

// ONNX Slice: inputs x, starts, ends, axes?, steps? (int32/int64), with ONNX's clamping.
class SliceKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    std::vector<int64_t> starts, ends, axes, steps;
    if (!ReadInts(args.inputs[1], &starts) || !ReadInts(args.inputs[2], &ends)) {
      return Error("starts and ends must be int32 or int64");
    }
    if (HasInput(args, 3) && !ReadInts(args.inputs[3], &axes))
      return Error("axes must be integers");
    if (HasInput(args, 4) && !ReadInts(args.inputs[4], &steps))
      return Error("steps must be integers");
    if (axes.empty()) {
      for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() ||
        steps.size() != starts.size()) {
      return Error("starts, ends, axes and steps must have the same length");
    }
    std::vector<int64_t> begin(d.size(), 0), step(d.size(), 1), out = d;
    std::vector<bool> seen(d.size(), false);
    for (size_t i = 0; i < starts.size(); ++i) {
      int64_t a = 0;
      if (!NormalizeAxis(axes[i], rank, &a) || seen[a]) {
        return Error("axes " + DimsToString(axes) + " are out of range or repeated for " +
                     DimsToString(d));
      }
      seen[a] = true;
      if (steps[i] == 0) return Error("steps must not be 0");
      const infer::SliceRange range = infer::SliceAlong(d[a], starts[i], ends[i], steps[i]);
      out[a] = range.length;
      begin[a] = range.begin;
      step[a] = range.length > 1 ? steps[i] : 1;  // a step past the dim is never taken
    }
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(y.spec.dims) + " should be " + DimsToString(out));
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    if (NumElements(out) == 0) return Status::Ok();
    const std::vector<int64_t> xs = StridesOf(d);
    std::vector<int64_t> strides(d.size());
    int64_t offset = 0;
    for (size_t i = 0; i < d.size(); ++i) {
      offset += begin[i] * xs[i];
      strides[i] = step[i] * xs[i];
    }
    StridedCopy(static_cast<const uint8_t*>(x.data) + offset * eb, y.data, out, strides, eb,
                threads_);
    return Status::Ok();
  }
};

// ONNX Gather: y = x[..., indices, ...] on `axis`; negative indices count from the end.
class GatherKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const auto& d = x.spec.dims;
    const int64_t rank = static_cast<int64_t>(d.size());
    GE_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(axis_, rank));
    std::vector<int64_t> idx;
    if (!ReadInts(args.inputs[1], &idx)) return Error("indices must be int32 or int64");
    std::vector<int64_t> out(d.begin(), d.begin() + axis);
    out.insert(out.end(), args.inputs[1].spec.dims.begin(), args.inputs[1].spec.dims.end());
    out.insert(out.end(), d.begin() + axis + 1, d.end());
    if (y.spec.dims != out || y.spec.dtype != x.spec.dtype) {
      return Error("output " + DimsToString(y.spec.dims) + " should be " + DimsToString(out));
    }
    const int64_t dim = d[axis];
    for (int64_t& i : idx) {
      if (i < -dim || i >= dim) {
        return Error("index " + std::to_string(i) + " is out of range [" + std::to_string(-dim) +
                     ", " + std::to_string(dim) + ")");
      }
      if (i < 0) i += dim;
    }
    const int64_t eb = ElementBytes(x.spec.dtype);
    if (eb == 0) return Unsupported(x.spec.dtype);
    int64_t outer = 1, inner = eb;
    for (int64_t i = 0; i < axis; ++i) outer *= d[i];
    for (int64_t i = axis + 1; i < rank; ++i) inner *= d[i];
    const auto* in = static_cast<const uint8_t*>(x.data);
    auto* o = static_cast<uint8_t*>(y.data);
    const int64_t n = static_cast<int64_t>(idx.size());
    ParallelFor(outer * n, threads_, inner / 4 + 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t oi = r / n, j = r % n;
        std::memcpy(o + r * inner, in + (oi * dim + idx[j]) * inner, static_cast<size_t>(inner));
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    axis_ = AttrInt("axis", 0);
    return Status::Ok();
  }
  int64_t axis_ = 0;
};

template <typename To, typename From>
To Convert(From v) {
  if constexpr (kIsHalfFloat<From>) {
    return Convert<To, float>(ToFloat(v));  // exact widening, then one conversion
  } else if constexpr (kIsHalfFloat<To>) {
    return FromDouble<To>(static_cast<double>(v));  // one rounding, to nearest even
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // Out-of-range and NaN values are undefined in C++; saturate them instead.
    if (!(v == v)) return To(0);
    if (v <= static_cast<From>(std::numeric_limits<To>::lowest()))
      return std::numeric_limits<To>::lowest();
    if (v >= static_cast<From>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Every dtype Cast converts between: DispatchAll's and the 16-bit floats.
template <typename F>
bool DispatchCastable(DataType dtype, F&& f) {
  return DispatchHalf(dtype, f) || DispatchAll(dtype, f);
}

class CastKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dims != y.spec.dims) return Error("output dims differ from the input's");
    if (y.spec.dtype != to_) {
      return Error("output dtype " + DtypeName(y.spec.dtype) + " is not 'to' " + DtypeName(to_));
    }
    const int64_t n = NumElements(x.spec.dims);
    if (x.spec.dtype == to_) {
      if (n > 0 && x.data != y.data)
        std::memcpy(y.data, x.data, static_cast<size_t>(TypeUtils::GetSizeInBytes(n, to_)));
      return Status::Ok();
    }
    if (x.spec.dtype == DT_STRING || to_ == DT_STRING) return CastString(x, y, n);
    if (IsNarrowType(x.spec.dtype) || IsNarrowType(to_)) return CastNarrow(x, y, n);
    bool ok = false;
    DispatchCastable(x.spec.dtype, [&](auto from_tag) {
      using F = decltype(from_tag);
      ok = DispatchCastable(to_, [&](auto to_tag) {
        using T = decltype(to_tag);
        const F* in = static_cast<const F*>(x.data);
        T* out = static_cast<T*>(y.data);
        ParallelFor(n, threads_, 1, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) out[i] = Convert<T, F>(in[i]);
        });
      });
    });
    return ok ? Status::Ok()
              : Error("cast from " + DtypeName(x.spec.dtype) + " to " + DtypeName(to_) +
                      " is not supported");
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override {
    DataType to = DT_UNDEFINED;
    if (!AttrUtils::GetDataType(op_, "to", to)) {
      int64_t v = -1;
      if (!AttrUtils::GetInt(op_, "to", v)) {
        if (spec.outputs.empty()) return Error("attribute 'to' is required");
        to = spec.outputs[0].dtype;
      } else {
        to = static_cast<DataType>(v);
      }
    }
    if (ElementBytes(to) == 0 && !IsNarrowType(to) && to != DT_STRING)
      return Error("attribute 'to' " + DtypeName(to) + " is not supported");
    if (to == DT_STRING && spec.strings == nullptr) {
      return Error("casting to strings needs the run's string store, which this runtime lacks");
    }
    to_ = to;
    strings_ = spec.strings;
    how_.saturate = AttrInt("saturate", 1) != 0;
    const std::string round_mode = AttrStr("round_mode", "up");
    if (round_mode == "up") {
      how_.e8m0 = E8M0Rounding::kUp;
    } else if (round_mode == "down") {
      how_.e8m0 = E8M0Rounding::kDown;
    } else if (round_mode == "nearest") {
      how_.e8m0 = E8M0Rounding::kNearest;
    } else {
      return Error("attribute 'round_mode' is '" + round_mode +
                   "'; it must be 'up', 'down' or 'nearest'");
    }
    return Status::Ok();
  }

  // One element on its way between two types: an integer keeps all its bits, since a narrow
  // integer type keeps the low bits of the value (a double would lose them beyond 2^53).
  struct Value {
    double real = 0.0;
    int64_t whole = 0;
    bool integral = false;
  };

  // A cast from or to a narrow type, one element at a time (the packed codes of a sub-byte
  // output share bytes, so one thread writes them).
  Status CastNarrow(const KernelTensor& x, const KernelOutput& y, int64_t n) const {
    return WriteValues(ReaderOf(x), y, n);
  }

  // ONNX's string casts. From strings: a number in plain or scientific notation ("3.14", "1E8"),
  // "INF", "+INF", "-INF" or "NaN" in any case; an integer type takes an integer literal, or a
  // real one truncated ("100.5" → 100); anything else is an error naming the element (ONNX
  // leaves it undefined). To strings: integers in decimal, booleans as "True" / "False" (as the
  // reference's NumPy writes them), reals in the shortest form that reads back to the same value
  // of their type ("0.1" for float 0.1).
  Status CastString(const KernelTensor& x, const KernelOutput& y, int64_t n) const {
    if (to_ == DT_STRING) {
      std::function<Value(int64_t)> read = ReaderOf(x);
      if (!read) return Error("cast from " + DtypeName(x.spec.dtype) + " is not supported");
      const bool single = x.spec.dtype != DT_DOUBLE;  // shortest as a float, not a double
      for (int64_t i = 0; i < n; ++i) {
        const Value v = read(i);
        std::string text;
        if (x.spec.dtype == DT_BOOL) {
          text = v.whole != 0 ? "True" : "False";
        } else if (v.integral) {
          text = std::to_string(v.whole);
        } else {
          text = FormatReal(v.real, single);
        }
        GE_ASSIGN_OR_RETURN(const std::string_view kept, strings_->Keep(text));
        WriteString(y.data, i, kept);
      }
      return Status::Ok();
    }
    std::vector<Value> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const std::string_view text = ReadString(x.data, i);
      if (!ParseNumber(text, &values[static_cast<size_t>(i)])) {
        return Error("element " + std::to_string(i) + " is \"" + std::string(text.substr(0, 40)) +
                     "\", which is not a number");
      }
    }
    return WriteValues([&values](int64_t i) { return values[static_cast<size_t>(i)]; }, y, n);
  }

  static std::string FormatReal(double v, bool single) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buffer[64];
    const std::to_chars_result done =
        single ? std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(v))
               : std::to_chars(buffer, buffer + sizeof(buffer), v);
    return std::string(buffer, done.ptr);
  }

  static bool ParseNumber(std::string_view text, Value* out) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
      text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
      text.remove_suffix(1);
    }
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
      negative = text.front() == '-';
      text.remove_prefix(1);
    }
    if (text.empty() || text.front() == '+' || text.front() == '-') return false;
    const char* end = text.data() + text.size();
    int64_t whole = 0;
    std::from_chars_result r = std::from_chars(text.data(), end, whole);
    if (r.ec == std::errc() && r.ptr == end) {
      *out = Value{negative ? -static_cast<double>(whole) : static_cast<double>(whole),
                   negative ? -whole : whole, true};
      return true;
    }
    double real = 0.0;
    r = std::from_chars(text.data(), end, real);  // also "inf", "infinity", "nan", any case
    if (r.ec != std::errc() || r.ptr != end) return false;
    *out = Value{negative ? -real : real, 0, false};
    return true;
  }

  std::function<Value(int64_t)> ReaderOf(const KernelTensor& x) const {
    std::function<Value(int64_t)> read;
    if (IsNarrowType(x.spec.dtype)) {
      const DataType from = x.spec.dtype;
      const int bits = NarrowBits(from);
      const auto* codes = static_cast<const uint8_t*>(x.data);
      if (IsNarrowIntegerType(from)) {
        read = [=](int64_t i) {
          const int64_t v = NarrowIntegerValue(from, ReadPackedCode(codes, i, bits));
          return Value{static_cast<double>(v), v, true};
        };
      } else {
        read = [=](int64_t i) {
          return Value{NarrowFloatValue(from, ReadPackedCode(codes, i, bits)), 0, false};
        };
      }
    } else {
      DispatchCastable(x.spec.dtype, [&](auto tag) {
        using F = decltype(tag);
        const auto* in = static_cast<const F*>(x.data);
        read = [in](int64_t i) {
          if constexpr (std::is_integral_v<F>) {
            return Value{static_cast<double>(in[i]), static_cast<int64_t>(in[i]), true};
          } else {
            return Value{Convert<double, F>(in[i]), 0, false};
          }
        };
      });
    }
    return read;
  }

  // Writes `n` values read by `read` as to_ into `y`.
  Status WriteValues(const std::function<Value(int64_t)>& read, const KernelOutput& y,
                     int64_t n) const {
    if (!read) return Error("cast to " + DtypeName(to_) + " from this type is not supported");
    if (IsNarrowType(to_)) {
      const int bits = NarrowBits(to_);
      auto* codes = static_cast<uint8_t*>(y.data);
      for (int64_t i = 0; i < n; ++i) {
        const Value v = read(i);
        const uint32_t code = v.integral && IsNarrowIntegerType(to_)
                                  ? NarrowCodeFromInteger(to_, v.whole)
                                  : NarrowCodeFromDouble(to_, v.real, how_);
        WritePackedCode(codes, i, bits, code);
      }
      return Status::Ok();
    }
    const bool ok = DispatchCastable(to_, [&](auto tag) {
      using T = decltype(tag);
      T* out = static_cast<T*>(y.data);
      for (int64_t i = 0; i < n; ++i) {
        const Value v = read(i);
        out[i] = v.integral ? Convert<T, int64_t>(v.whole) : Convert<T, double>(v.real);
      }
    });
    return ok ? Status::Ok() : Error("cast to " + DtypeName(to_) + " is not supported");
  }

  DataType to_ = DT_UNDEFINED;
  NarrowConversion how_;
  StringStore* strings_ = nullptr;
};

}  // namespace

void RegisterDataKernels(KernelTable& t) {
  t.Add("Transpose", MakeKernel<TransposeKernel>);
  t.Add("ConcatV2", MakeKernel<ConcatKernel>);
  t.Add("Split", MakeKernel<SplitKernel>);
  t.Add("Slice", MakeKernel<SliceKernel>);
  t.Add("GatherV2", MakeKernel<GatherKernel>);
  t.Add("Cast", MakeKernel<CastKernel>);
  t.Add("CastLike", MakeKernel<CastKernel>);  // no 'to': the output's dtype, target_type's
}

}  // namespace ge::host_cpu

// CPU kernels of ai.onnx.ml's value maps: LabelEncoder (ai.onnx.ml 2 to 4: keys and values as
// lists or, from 4, as tensors of string, int64, int32, int16, float or double) and
// CategoryMapper (strings to int64 and back; LabelEncoder of ai.onnx.ml 1 maps to it).
//
// The strings of the attributes are held by the kernel for its whole life: an output head points
// at them directly, with no copy into the run's string store.
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ge/graph/utils/attr_utils.h"
#include "ml_util.h"

namespace ge::host_cpu {
namespace {

constexpr std::string_view kEmpty = "";

bool IsIntegral(DataType d) { return d == DT_INT16 || d == DT_INT32 || d == DT_INT64; }
bool IsReal(DataType d) { return d == DT_FLOAT || d == DT_DOUBLE; }

// A LabelEncoder's keys or values: the attribute they come from, their dtype and their elements
// (strings, integers or reals, by dtype).
struct Column {
  std::string attr;
  DataType dtype = DT_UNDEFINED;
  std::vector<std::string> strings;
  std::vector<int64_t> ints;
  std::vector<double> reals;
  size_t size() const {
    return dtype == DT_STRING ? strings.size() : IsIntegral(dtype) ? ints.size() : reals.size();
  }
};

// The elements of a tensor attribute.
Status ReadTensorColumn(const GeTensor& t, Column& c) {
  c.dtype = t.GetTensorDesc().GetDataType();
  const std::string where = "attribute '" + c.attr + "'";
  if (c.dtype == DT_STRING) {
    GE_ASSIGN_OR_RETURN(const std::vector<std::string_view> values, StringsOf(t, where));
    c.strings.assign(values.begin(), values.end());
    return Status::Ok();
  }
  const int64_t count = t.GetTensorDesc().GetShape().GetElementCount();
  const int64_t eb = ElementBytes(c.dtype);
  if ((!IsIntegral(c.dtype) && !IsReal(c.dtype)) || count < 0 ||
      static_cast<int64_t>(t.GetSize()) != count * eb) {
    return ParamInvalid(where + " must be a tensor of string, int64, int32, int16, float or " +
                        "double whose data fit its shape, not " + DtypeName(c.dtype) + " " +
                        t.GetTensorDesc().GetShape().ToString() + " of " +
                        std::to_string(t.GetSize()) + " bytes");
  }
  const uint8_t* bytes = t.GetData().data();
  (void)DispatchNumeric(c.dtype, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, bytes + i * eb, sizeof(T));
      if constexpr (std::is_floating_point_v<T>) {
        c.reals.push_back(v);
      } else {
        c.ints.push_back(v);
      }
    }
  });
  if (c.dtype == DT_INT16) {
    for (int64_t i = 0; i < count; ++i) {
      int16_t v = 0;
      std::memcpy(&v, bytes + i * eb, sizeof(v));
      c.ints.push_back(v);
    }
  }
  return Status::Ok();
}

// Appends `value` (an integer or a real) to `bytes` as one element of `dtype`.
template <typename V>
void AppendAs(DataType dtype, V value, std::vector<uint8_t>& bytes) {
  const auto put = [&](auto v) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(v));
    std::memcpy(bytes.data() + at, &v, sizeof(v));
  };
  switch (dtype) {
    case DT_INT16:
      put(static_cast<int16_t>(value));
      break;
    case DT_INT32:
      put(static_cast<int32_t>(value));
      break;
    case DT_INT64:
      put(static_cast<int64_t>(value));
      break;
    case DT_FLOAT:
      put(static_cast<float>(value));
      break;
    default:
      put(static_cast<double>(value));
      break;
  }
}

// ai.onnx.ml LabelEncoder: each element of X found among the keys becomes the value at the same
// place (the last of equal keys wins; a NaN key matches every NaN, and 0 matches -0), any other
// the default.
class LabelEncoderKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    if (x.spec.dtype != keys_.dtype) {
      return Error("input X is " + DtypeName(x.spec.dtype) + " but the keys (" + keys_.attr +
                   ") are " + DtypeName(keys_.dtype));
    }
    if (y.spec.dtype != values_.dtype) {
      return Error("output Y is " + DtypeName(y.spec.dtype) + " but the values (" + values_.attr +
                   ") are " + DtypeName(values_.dtype));
    }
    if (y.spec.dims != x.spec.dims) {
      return Error("output Y is " + DimsToString(y.spec.dims) + ", not X's " +
                   DimsToString(x.spec.dims));
    }
    const int64_t n = NumElements(x.spec.dims);
    if (keys_.dtype == DT_STRING) {
      for (int64_t i = 0; i < n; ++i) {
        const auto it = string_keys_.find(ReadString(x.data, i));
        Put(y.data, i, it == string_keys_.end() ? -1 : it->second);
      }
      return Status::Ok();
    }
    const auto map = [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          Put(y.data, i, FindReal(in[i]));
        } else {
          const auto it = int_keys_.find(in[i]);
          Put(y.data, i, it == int_keys_.end() ? -1 : it->second);
        }
      }
    };
    if (keys_.dtype == DT_INT16) {
      map(int16_t{});
    } else if (!DispatchNumeric(keys_.dtype, map)) {
      return Unsupported(keys_.dtype);
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    GE_RETURN_IF_ERROR(ReadColumn("keys", keys_));
    GE_RETURN_IF_ERROR(ReadColumn("values", values_));
    if (keys_.size() != values_.size()) {
      return Error(keys_.attr + " holds " + std::to_string(keys_.size()) + " keys but " +
                   values_.attr + " " + std::to_string(values_.size()) + " values");
    }
    for (size_t i = 0; i < keys_.size(); ++i) {
      const auto at = static_cast<int64_t>(i);
      if (keys_.dtype == DT_STRING) {
        string_keys_[keys_.strings[i]] = at;
      } else if (IsIntegral(keys_.dtype)) {
        int_keys_[keys_.ints[i]] = at;
      } else if (std::isnan(keys_.reals[i])) {
        nan_key_ = at;
      } else {
        real_keys_[keys_.reals[i]] = at;
      }
    }
    value_bytes_.clear();
    for (int64_t v : values_.ints) AppendAs(values_.dtype, v, value_bytes_);
    for (double v : values_.reals) AppendAs(values_.dtype, v, value_bytes_);
    element_bytes_ = ElementBytes(values_.dtype);
    return ReadDefault();
  }

  // The one of `prefix`_strings, _int64s, _floats and _tensor that the node sets.
  Status ReadColumn(const std::string& prefix, Column& c) const {
    std::vector<std::string> set;
    std::vector<std::string> strings = AttrStrings(*op_, prefix + "_strings");
    std::vector<int64_t> ints = AttrInts(prefix + "_int64s");
    std::vector<float> floats = AttrFloats(prefix + "_floats");
    const auto* tensor = AttrUtils::GetPtr<GeTensor>(*op_, prefix + "_tensor");
    if (!strings.empty()) {
      set.push_back(prefix + "_strings");
      c.dtype = DT_STRING;
      c.strings = std::move(strings);
    }
    if (!ints.empty()) {
      set.push_back(prefix + "_int64s");
      c.dtype = DT_INT64;
      c.ints = std::move(ints);
    }
    if (!floats.empty()) {
      set.push_back(prefix + "_floats");
      c.dtype = DT_FLOAT;
      c.reals.assign(floats.begin(), floats.end());
    }
    if (tensor != nullptr) set.push_back(prefix + "_tensor");
    const std::string names =
        prefix + "_strings, " + prefix + "_int64s, " + prefix + "_floats or " + prefix + "_tensor";
    if (set.empty()) return Error("one of " + names + " must be set");
    if (set.size() > 1) {
      return Error("only one of " + names + " may be set, not both " + set[0] + " and " + set[1]);
    }
    c.attr = set[0];
    if (tensor != nullptr) return Named(ReadTensorColumn(*tensor, c));
    return Status::Ok();
  }

  // The value of keys not found: default_tensor when given, else default_string, default_int64
  // or default_float by the values' dtype.
  Status ReadDefault() {
    default_bytes_.clear();
    if (const auto* t = AttrUtils::GetPtr<GeTensor>(*op_, "default_tensor"); t != nullptr) {
      Column c;
      c.attr = "default_tensor";
      GE_RETURN_IF_ERROR(Named(ReadTensorColumn(*t, c)));
      if (c.dtype != values_.dtype || c.size() != 1) {
        return Error("attribute 'default_tensor' must be one " + DtypeName(values_.dtype) +
                     " value, as " + values_.attr + " are, not " + std::to_string(c.size()) +
                     " of " + DtypeName(c.dtype));
      }
      if (c.dtype == DT_STRING) default_string_ = c.strings[0];
      for (int64_t v : c.ints) AppendAs(c.dtype, v, default_bytes_);
      for (double v : c.reals) AppendAs(c.dtype, v, default_bytes_);
      return Status::Ok();
    }
    if (values_.dtype == DT_STRING) {
      default_string_ = AttrStr("default_string", "_Unused");
    } else if (IsIntegral(values_.dtype)) {
      AppendAs(values_.dtype, AttrInt("default_int64", -1), default_bytes_);
    } else {
      AppendAs(values_.dtype, AttrFloat("default_float", -0.0F), default_bytes_);
    }
    return Status::Ok();
  }

  int64_t FindReal(double v) const {
    if (std::isnan(v)) return nan_key_;
    const auto it = real_keys_.find(v);
    return it == real_keys_.end() ? -1 : it->second;
  }

  // Writes value `k` (-1: the default) to element `i` of the output.
  void Put(void* out, int64_t i, int64_t k) const {
    if (values_.dtype == DT_STRING) {
      const std::string& s = k < 0 ? default_string_ : values_.strings[static_cast<size_t>(k)];
      WriteString(out, i, s.empty() ? kEmpty : std::string_view(s));
      return;
    }
    const uint8_t* from = k < 0 ? default_bytes_.data() : value_bytes_.data() + k * element_bytes_;
    std::memcpy(static_cast<uint8_t*>(out) + i * element_bytes_, from,
                static_cast<size_t>(element_bytes_));
  }

  Column keys_, values_;
  std::unordered_map<std::string_view, int64_t> string_keys_;  ///< into keys_.strings
  std::unordered_map<int64_t, int64_t> int_keys_;
  std::unordered_map<double, int64_t> real_keys_;
  int64_t nan_key_ = -1;
  std::vector<uint8_t> value_bytes_, default_bytes_;
  int64_t element_bytes_ = 0;
  std::string default_string_;
};

// ai.onnx.ml CategoryMapper: strings to int64 (cats_strings[i] → cats_int64s[i], else
// default_int64) or int64 to strings (the reverse, else default_string), by X's dtype. The last of
// equal entries wins, as in the other direction.
class CategoryMapperKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const bool from_strings = x.spec.dtype == DT_STRING;
    if (!from_strings && x.spec.dtype != DT_INT64) return Unsupported(x.spec.dtype);
    const DataType want = from_strings ? DT_INT64 : DT_STRING;
    if (y.spec.dtype != want) {
      return Error("output Y is " + DtypeName(y.spec.dtype) + ", not " + DtypeName(want) +
                   " for an input of " + DtypeName(x.spec.dtype));
    }
    if (y.spec.dims != x.spec.dims) {
      return Error("output Y is " + DimsToString(y.spec.dims) + ", not X's " +
                   DimsToString(x.spec.dims));
    }
    const int64_t n = NumElements(x.spec.dims);
    if (from_strings) {
      auto* out = static_cast<int64_t*>(y.data);
      for (int64_t i = 0; i < n; ++i) {
        const auto it = to_int_.find(ReadString(x.data, i));
        out[i] = it == to_int_.end() ? default_int64_ : it->second;
      }
      return Status::Ok();
    }
    const auto* in = static_cast<const int64_t*>(x.data);
    for (int64_t i = 0; i < n; ++i) {
      const auto it = to_string_.find(in[i]);
      const std::string& s = it == to_string_.end() ? default_string_ : strings_[it->second];
      WriteString(y.data, i, s.empty() ? kEmpty : std::string_view(s));
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    strings_ = AttrStrings(*op_, "cats_strings");
    const std::vector<int64_t> ints = AttrInts("cats_int64s");
    if (strings_.size() != ints.size()) {
      return Error("cats_strings holds " + std::to_string(strings_.size()) +
                   " strings but cats_int64s " + std::to_string(ints.size()) + " integers");
    }
    for (size_t i = 0; i < ints.size(); ++i) {
      to_int_[strings_[i]] = ints[i];
      to_string_[ints[i]] = i;
    }
    default_int64_ = AttrInt("default_int64", -1);
    default_string_ = AttrStr("default_string", "_Unused");
    return Status::Ok();
  }

  std::vector<std::string> strings_;
  std::unordered_map<std::string_view, int64_t> to_int_;  ///< into strings_
  std::unordered_map<int64_t, size_t> to_string_;         ///< index into strings_
  int64_t default_int64_ = -1;
  std::string default_string_;
};

}  // namespace

void RegisterMlLabelKernels(KernelTable& t) {
  t.Add("LabelEncoder", MakeKernel<LabelEncoderKernel>);
  t.Add("CategoryMapper", MakeKernel<CategoryMapperKernel>);
}

}  // namespace ge::host_cpu

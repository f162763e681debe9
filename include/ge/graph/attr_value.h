// AttrValue: one typed attribute value (scalars, tensors, graphs, named attrs, and lists of each).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/fwd.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Raw bytes (the "bytes"/bt attribute type), distinct from a string.
struct Buffer {
  std::vector<uint8_t> data;
  bool operator==(const Buffer& other) const { return data == other.data; }
};

/// A name and a set of attributes (GE's NamedAttrs, ONNX's function-like attribute).
class NamedAttrs : public AttrHolder {
 public:
  NamedAttrs() = default;
  explicit NamedAttrs(std::string name) : name_(std::move(name)) {}
  const std::string& GetName() const { return name_; }
  void SetName(std::string name) { name_ = std::move(name); }
  bool operator==(const NamedAttrs& other) const {
    return name_ == other.name_ && attrs_ == other.attrs_;
  }

 private:
  std::string name_;
};

/// A typed attribute value. Reading it as another type fails (nullptr), never reinterprets.
class GE_API AttrValue {
 public:
  /// The value kinds, in the order of the variant below.
  enum class Type : uint8_t {
    kNone,
    kInt,
    kFloat,
    kBool,
    kString,
    kBytes,
    kDataType,
    kTensor,
    kTensorDesc,
    kGraph,
    kNamedAttrs,
    kListInt,
    kListFloat,
    kListBool,
    kListString,
    kListBytes,
    kListDataType,
    kListTensor,
    kListTensorDesc,
    kListGraph,
    kListNamedAttrs,
    kListListInt,
    kListListFloat,
  };

  using Variant =
      std::variant<std::monostate, int64_t, float, bool, std::string, Buffer, DataType, GeTensor,
                   GeTensorDesc, ComputeGraphPtr, NamedAttrs, std::vector<int64_t>,
                   std::vector<float>, std::vector<bool>, std::vector<std::string>,
                   std::vector<Buffer>, std::vector<DataType>, std::vector<GeTensor>,
                   std::vector<GeTensorDesc>, std::vector<ComputeGraphPtr>, std::vector<NamedAttrs>,
                   std::vector<std::vector<int64_t>>, std::vector<std::vector<float>>>;

  AttrValue() = default;
  template <typename T, typename = std::enable_if_t<std::is_constructible_v<Variant, T&&> &&
                                                    !std::is_same_v<std::decay_t<T>, AttrValue>>>
  AttrValue(T&& value) : value_(std::forward<T>(value)) {}  // NOLINT(google-explicit-constructor)
  // Narrower integers are stored as int64_t, as in GE.
  AttrValue(int32_t value) : value_(static_cast<int64_t>(value)) {}   // NOLINT
  AttrValue(uint32_t value) : value_(static_cast<int64_t>(value)) {}  // NOLINT
  AttrValue(const char* value) : value_(std::string(value)) {}        // NOLINT
  AttrValue(const std::vector<int32_t>& values)                       // NOLINT
      : value_(std::vector<int64_t>(values.begin(), values.end())) {}

  Type GetType() const { return static_cast<Type>(value_.index()); }
  bool IsNone() const { return value_.index() == 0; }

  /// The value if it holds a T, else nullptr.
  template <typename T>
  const T* Get() const {
    return std::get_if<T>(&value_);
  }
  template <typename T>
  T* GetMutable() {
    return std::get_if<T>(&value_);
  }

  const Variant& variant() const { return value_; }

  /// Graph attributes compare by structure (see GraphUtils::IsEqual); here by pointer identity or
  /// both null, which is what an in-memory copy keeps. Everything else compares by value.
  bool operator==(const AttrValue& other) const { return value_ == other.value_; }
  bool operator!=(const AttrValue& other) const { return !(*this == other); }

  /// GE's name for the kind ("VT_INT", "VT_LIST_TENSOR", ...).
  static const char* TypeName(Type type);

 private:
  Variant value_;
};

/// The AttrValue::Type of a C++ value type, for generic code (serializers, AttrUtils).
namespace detail {
template <typename T, typename... Ts>
constexpr size_t VariantIndexOf(const std::variant<Ts...>* /*tag*/) {
  constexpr bool kMatches[] = {std::is_same_v<T, Ts>...};
  for (size_t i = 0; i < sizeof...(Ts); ++i) {
    if (kMatches[i]) return i;
  }
  return sizeof...(Ts);
}
}  // namespace detail

template <typename T>
constexpr AttrValue::Type AttrTypeOf() {
  constexpr size_t kIndex =
      detail::VariantIndexOf<T>(static_cast<const AttrValue::Variant*>(nullptr));
  static_assert(kIndex < std::variant_size_v<AttrValue::Variant>, "not an attribute type");
  return static_cast<AttrValue::Type>(kIndex);
}

}  // namespace ge

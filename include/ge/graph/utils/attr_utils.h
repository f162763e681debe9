// AttrUtils: typed get/set/has of attributes on any holder (OpDesc, ComputeGraph, GeTensorDesc,
// NamedAttrs). A get of the wrong type returns false and leaves the output untouched.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph/attr_value.h"

namespace ge {

class AttrUtils {
 public:
  AttrUtils() = delete;

  /// Accepts a holder by reference, pointer or shared pointer (OpDescPtr, ComputeGraphPtr, ...).
  class Ref {
   public:
    Ref(AttrHolder& h) : h_(&h) {}  // NOLINT(google-explicit-constructor)
    Ref(AttrHolder* h) : h_(h) {}   // NOLINT(google-explicit-constructor)
    template <typename T>
    Ref(const std::shared_ptr<T>& p) : h_(p.get()) {}  // NOLINT(google-explicit-constructor)
    AttrHolder* get() const { return h_; }

   private:
    AttrHolder* h_;
  };
  class ConstRef {
   public:
    ConstRef(const AttrHolder& h) : h_(&h) {}  // NOLINT(google-explicit-constructor)
    ConstRef(const AttrHolder* h) : h_(h) {}   // NOLINT(google-explicit-constructor)
    template <typename T>
    ConstRef(const std::shared_ptr<T>& p) : h_(p.get()) {}  // NOLINT(google-explicit-constructor)
    const AttrHolder* get() const { return h_; }

   private:
    const AttrHolder* h_;
  };

  static bool HasAttr(ConstRef obj, const std::string& name) {
    return obj.get() != nullptr && obj.get()->HasAttr(name);
  }
  static bool DelAttr(Ref obj, const std::string& name) {
    return obj.get() != nullptr && obj.get()->DelAttr(name);
  }
  static bool SetAttr(Ref obj, const std::string& name, AttrValue value) {
    if (obj.get() == nullptr) return false;
    obj.get()->MutableAttrMap().Set(name, std::move(value));
    return true;
  }
  static const AttrValue* GetAttr(ConstRef obj, const std::string& name) {
    return obj.get() == nullptr ? nullptr : obj.get()->GetAttrMap().Get(name);
  }

  /// Generic typed access: T must be one of AttrValue's types.
  template <typename T>
  static bool Set(Ref obj, const std::string& name, T value) {
    return SetAttr(obj, name, AttrValue(std::move(value)));
  }
  template <typename T>
  static bool Get(ConstRef obj, const std::string& name, T& out) {
    const AttrValue* value = GetAttr(obj, name);
    const T* typed = value == nullptr ? nullptr : value->Get<T>();
    if (typed == nullptr) return false;
    out = *typed;
    return true;
  }
  /// The stored value without a copy, or nullptr when absent or of another type.
  template <typename T>
  static const T* GetPtr(ConstRef obj, const std::string& name) {
    const AttrValue* value = GetAttr(obj, name);
    return value == nullptr ? nullptr : value->Get<T>();
  }

  // GE's named accessors.
  static bool SetInt(Ref o, const std::string& n, int64_t v) { return Set(o, n, v); }
  static bool GetInt(ConstRef o, const std::string& n, int64_t& v) { return Get(o, n, v); }
  static bool GetInt(ConstRef o, const std::string& n, int32_t& v) { return GetNarrow(o, n, v); }
  static bool GetInt(ConstRef o, const std::string& n, uint32_t& v) { return GetNarrow(o, n, v); }
  static bool SetFloat(Ref o, const std::string& n, float v) { return Set(o, n, v); }
  static bool GetFloat(ConstRef o, const std::string& n, float& v) { return Get(o, n, v); }
  static bool SetBool(Ref o, const std::string& n, bool v) { return Set(o, n, v); }
  static bool GetBool(ConstRef o, const std::string& n, bool& v) { return Get(o, n, v); }
  static bool SetStr(Ref o, const std::string& n, std::string v) { return Set(o, n, std::move(v)); }
  static bool GetStr(ConstRef o, const std::string& n, std::string& v) { return Get(o, n, v); }
  static bool SetBytes(Ref o, const std::string& n, Buffer v) { return Set(o, n, std::move(v)); }
  static bool GetBytes(ConstRef o, const std::string& n, Buffer& v) { return Get(o, n, v); }
  static bool SetDataType(Ref o, const std::string& n, DataType v) { return Set(o, n, v); }
  static bool GetDataType(ConstRef o, const std::string& n, DataType& v) { return Get(o, n, v); }
  static bool SetTensor(Ref o, const std::string& n, GeTensor v) { return Set(o, n, std::move(v)); }
  static bool GetTensor(ConstRef o, const std::string& n, GeTensor& v) { return Get(o, n, v); }
  static bool SetTensorDesc(Ref o, const std::string& n, GeTensorDesc v) {
    return Set(o, n, std::move(v));
  }
  static bool GetTensorDesc(ConstRef o, const std::string& n, GeTensorDesc& v) {
    return Get(o, n, v);
  }
  static bool SetGraph(Ref o, const std::string& n, ComputeGraphPtr v) {
    return Set(o, n, std::move(v));
  }
  static bool GetGraph(ConstRef o, const std::string& n, ComputeGraphPtr& v) {
    return Get(o, n, v);
  }
  static bool SetNamedAttrs(Ref o, const std::string& n, NamedAttrs v) {
    return Set(o, n, std::move(v));
  }
  static bool GetNamedAttrs(ConstRef o, const std::string& n, NamedAttrs& v) {
    return Get(o, n, v);
  }
  static bool SetListInt(Ref o, const std::string& n, std::vector<int64_t> v) {
    return Set(o, n, std::move(v));
  }
  static bool SetListInt(Ref o, const std::string& n, const std::vector<int32_t>& v) {
    return Set(o, n, std::vector<int64_t>(v.begin(), v.end()));
  }
  static bool GetListInt(ConstRef o, const std::string& n, std::vector<int64_t>& v) {
    return Get(o, n, v);
  }
  static bool GetListInt(ConstRef o, const std::string& n, std::vector<int32_t>& v);
  static bool SetListFloat(Ref o, const std::string& n, std::vector<float> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListFloat(ConstRef o, const std::string& n, std::vector<float>& v) {
    return Get(o, n, v);
  }
  static bool SetListBool(Ref o, const std::string& n, std::vector<bool> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListBool(ConstRef o, const std::string& n, std::vector<bool>& v) {
    return Get(o, n, v);
  }
  static bool SetListStr(Ref o, const std::string& n, std::vector<std::string> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListStr(ConstRef o, const std::string& n, std::vector<std::string>& v) {
    return Get(o, n, v);
  }
  static bool SetListBytes(Ref o, const std::string& n, std::vector<Buffer> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListBytes(ConstRef o, const std::string& n, std::vector<Buffer>& v) {
    return Get(o, n, v);
  }
  static bool SetListDataType(Ref o, const std::string& n, std::vector<DataType> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListDataType(ConstRef o, const std::string& n, std::vector<DataType>& v) {
    return Get(o, n, v);
  }
  static bool SetListTensor(Ref o, const std::string& n, std::vector<GeTensor> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListTensor(ConstRef o, const std::string& n, std::vector<GeTensor>& v) {
    return Get(o, n, v);
  }
  static bool SetListTensorDesc(Ref o, const std::string& n, std::vector<GeTensorDesc> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListTensorDesc(ConstRef o, const std::string& n, std::vector<GeTensorDesc>& v) {
    return Get(o, n, v);
  }
  static bool SetListGraph(Ref o, const std::string& n, std::vector<ComputeGraphPtr> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListGraph(ConstRef o, const std::string& n, std::vector<ComputeGraphPtr>& v) {
    return Get(o, n, v);
  }
  static bool SetListNamedAttrs(Ref o, const std::string& n, std::vector<NamedAttrs> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListNamedAttrs(ConstRef o, const std::string& n, std::vector<NamedAttrs>& v) {
    return Get(o, n, v);
  }
  static bool SetListListInt(Ref o, const std::string& n, std::vector<std::vector<int64_t>> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListListInt(ConstRef o, const std::string& n,
                             std::vector<std::vector<int64_t>>& v) {
    return Get(o, n, v);
  }
  static bool SetListListFloat(Ref o, const std::string& n, std::vector<std::vector<float>> v) {
    return Set(o, n, std::move(v));
  }
  static bool GetListListFloat(ConstRef o, const std::string& n,
                               std::vector<std::vector<float>>& v) {
    return Get(o, n, v);
  }

 private:
  template <typename Narrow>
  static bool GetNarrow(ConstRef o, const std::string& n, Narrow& out) {
    int64_t wide = 0;
    if (!Get(o, n, wide)) return false;
    if (wide < static_cast<int64_t>(std::numeric_limits<Narrow>::min()) ||
        wide > static_cast<int64_t>(std::numeric_limits<Narrow>::max())) {
      return false;  // out of range for the requested type: refuse rather than truncate
    }
    out = static_cast<Narrow>(wide);
    return true;
  }
};

inline bool AttrUtils::GetListInt(ConstRef o, const std::string& n, std::vector<int32_t>& v) {
  const auto* wide = GetPtr<std::vector<int64_t>>(o, n);
  if (wide == nullptr) return false;
  std::vector<int32_t> narrow;
  narrow.reserve(wide->size());
  for (int64_t x : *wide) {
    if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max()) {
      return false;
    }
    narrow.push_back(static_cast<int32_t>(x));
  }
  v = std::move(narrow);
  return true;
}

}  // namespace ge

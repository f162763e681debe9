// AttrStore: the typed name → value store shared by ComputeGraph, OpDesc and GeTensorDesc.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph/fwd.h"
#include "ge/graph/visibility.h"

namespace ge {

/// A map from attribute name to AttrValue, ordered by name so serialization is deterministic.
/// Empty stores allocate nothing; copies are deep.
class GE_API AttrStore {
 public:
  AttrStore();
  ~AttrStore();
  AttrStore(const AttrStore& other);
  AttrStore& operator=(const AttrStore& other);
  AttrStore(AttrStore&& other) noexcept;
  AttrStore& operator=(AttrStore&& other) noexcept;

  bool Has(const std::string& name) const;
  /// The value, or nullptr when absent.
  const AttrValue* Get(const std::string& name) const;
  AttrValue* GetMutable(const std::string& name);
  void Set(const std::string& name, AttrValue value);
  /// Returns true when an attribute was removed.
  bool Delete(const std::string& name);
  void Clear();
  size_t Size() const;
  bool Empty() const { return Size() == 0; }
  std::vector<std::string> GetAllNames() const;
  /// Visits every attribute in name order.
  void ForEach(const std::function<void(const std::string&, const AttrValue&)>& visit) const;

  bool operator==(const AttrStore& other) const;
  bool operator!=(const AttrStore& other) const { return !(*this == other); }

 private:
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;                // null while empty
};

/// Base of every object that carries attributes. Non-virtual: it only holds the store.
class AttrHolder {
 public:
  const AttrStore& GetAttrMap() const { return attrs_; }
  AttrStore& MutableAttrMap() { return attrs_; }
  bool HasAttr(const std::string& name) const { return attrs_.Has(name); }
  bool DelAttr(const std::string& name) { return attrs_.Delete(name); }

 protected:
  AttrStore attrs_;
};

}  // namespace ge

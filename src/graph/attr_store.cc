// AttrStore and AttrValue: the ordered attribute map behind every attribute holder.
#include "ge/graph/attr_store.h"

#include <map>

#include "ge/graph/attr_value.h"

namespace ge {

struct AttrStore::Impl {
  std::map<std::string, AttrValue, std::less<>> values;
};

AttrStore::AttrStore() = default;
AttrStore::~AttrStore() = default;
AttrStore::AttrStore(const AttrStore& other)
    : impl_(other.impl_ ? std::make_unique<Impl>(*other.impl_) : nullptr) {}
AttrStore& AttrStore::operator=(const AttrStore& other) {
  if (this != &other) impl_ = other.impl_ ? std::make_unique<Impl>(*other.impl_) : nullptr;
  return *this;
}
AttrStore::AttrStore(AttrStore&& other) noexcept = default;
AttrStore& AttrStore::operator=(AttrStore&& other) noexcept = default;

bool AttrStore::Has(const std::string& name) const {
  return impl_ != nullptr && impl_->values.count(name) != 0;
}

const AttrValue* AttrStore::Get(const std::string& name) const {
  if (impl_ == nullptr) return nullptr;
  auto it = impl_->values.find(name);
  return it == impl_->values.end() ? nullptr : &it->second;
}

AttrValue* AttrStore::GetMutable(const std::string& name) {
  if (impl_ == nullptr) return nullptr;
  auto it = impl_->values.find(name);
  return it == impl_->values.end() ? nullptr : &it->second;
}

void AttrStore::Set(const std::string& name, AttrValue value) {
  if (impl_ == nullptr) impl_ = std::make_unique<Impl>();
  impl_->values.insert_or_assign(name, std::move(value));
}

bool AttrStore::Delete(const std::string& name) {
  return impl_ != nullptr && impl_->values.erase(name) != 0;
}

void AttrStore::Clear() { impl_.reset(); }

size_t AttrStore::Size() const { return impl_ == nullptr ? 0 : impl_->values.size(); }

std::vector<std::string> AttrStore::GetAllNames() const {
  std::vector<std::string> names;
  if (impl_ == nullptr) return names;
  names.reserve(impl_->values.size());
  for (const auto& [name, value] : impl_->values) names.push_back(name);
  return names;
}

void AttrStore::ForEach(
    const std::function<void(const std::string&, const AttrValue&)>& visit) const {
  if (impl_ == nullptr) return;
  for (const auto& [name, value] : impl_->values) visit(name, value);
}

bool AttrStore::operator==(const AttrStore& other) const {
  if (Size() != other.Size()) return false;
  if (Size() == 0) return true;
  return impl_->values == other.impl_->values;
}

const char* AttrValue::TypeName(Type type) {
  static const char* const kNames[] = {
      "VT_NONE",
      "VT_INT",
      "VT_FLOAT",
      "VT_BOOL",
      "VT_STRING",
      "VT_BYTES",
      "VT_DATA_TYPE",
      "VT_TENSOR",
      "VT_TENSOR_DESC",
      "VT_GRAPH",
      "VT_NAMED_ATTRS",
      "VT_LIST_INT",
      "VT_LIST_FLOAT",
      "VT_LIST_BOOL",
      "VT_LIST_STRING",
      "VT_LIST_BYTES",
      "VT_LIST_DATA_TYPE",
      "VT_LIST_TENSOR",
      "VT_LIST_TENSOR_DESC",
      "VT_LIST_GRAPH",
      "VT_LIST_NAMED_ATTRS",
      "VT_LIST_LIST_INT",
      "VT_LIST_LIST_FLOAT",
  };
  const auto idx = static_cast<size_t>(type);
  return idx < std::size(kNames) ? kNames[idx] : "VT_UNKNOWN";
}

static_assert(std::variant_size_v<AttrValue::Variant> ==
                  static_cast<size_t>(AttrValue::Type::kListListFloat) + 1,
              "AttrValue::Type must list every variant alternative");

}  // namespace ge

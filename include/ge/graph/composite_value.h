// Sequences, optionals and maps: ONNX's values that are not tensors. In the IR such a value is a
// DT_VARIANT tensor of shape {} (GE's type for values that hold other values, as its TensorList
// handles do) whose desc says what it holds in the attribute kAttrValueType:
//   "seq(tensor(float))", "opt(tensor(int64))", "seq(map(string,tensor(float)))", ...
// A caller hands such a value over, and gets it back, as a DT_VARIANT GeTensor in the stored form
// below; while a model runs, the runtime keeps it as the values it holds, never as bytes.
//
// Stored form (little-endian int64 fields, each item's bytes padded to 8):
//   "GECV" version(uint32 = 1) kind(1 sequence, 2 optional, 3 map) count (an optional: 0 or 1;
//   a map: 2, its keys and its values, two 1-D tensors as long as each other)
//   per item: dtype, rank, dims[rank], bytes, the item's bytes
// An item is a tensor in its own stored form (a DT_STRING tensor in string_tensor.h's), or a
// DT_VARIANT of rank 0 holding a nested value in this form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Desc attribute (string) of a DT_VARIANT tensor: the type of the value it holds.
inline constexpr char kAttrValueType[] = "_value_type";
/// How deep sequences and optionals may nest in a value or a type.
inline constexpr int kMaxValueNesting = 8;

/// A value type: a tensor of an element type, a sequence or optional of another value type, or a
/// map from keys of an element type (string or an integer) to values of another value type.
struct ValueType {
  enum class Kind { kTensor, kSequence, kOptional, kMap };
  Kind kind = Kind::kTensor;
  DataType dtype = DT_UNDEFINED;  ///< kTensor: its element type; kMap: the keys' type
  std::vector<ValueType> inner;   ///< kSequence / kOptional / kMap: one, what it holds
  bool operator==(const ValueType&) const = default;
};

/// "tensor(float)", "seq(tensor(int64))", "opt(seq(tensor(string)))", "map(int64,tensor(float))"
/// (ONNX's names of types).
GE_API std::string ValueTypeName(const ValueType& type);
/// The value type named so; an error for anything else.
GE_API Result<ValueType> ParseValueType(std::string_view name);
/// The value type of a desc: kAttrValueType for a DT_VARIANT desc, else a tensor of its dtype.
GE_API Result<ValueType> ValueTypeOf(const GeTensorDesc& desc);
/// Makes `desc` hold a value of `type`: a tensor type sets the dtype; a sequence or optional
/// makes it DT_VARIANT of shape {} with kAttrValueType.
GE_API void SetValueType(GeTensorDesc& desc, const ValueType& type);
/// A sequence of `element`, an optional of `inner`, a map from `key` to `value`.
GE_API ValueType SequenceOf(ValueType element);
GE_API ValueType OptionalOf(ValueType inner);
GE_API ValueType MapOf(DataType key, ValueType value);

/// A sequence, optional or map as a caller sees it: its items (an optional holds 0 or 1; a map 2,
/// its keys and its values), each a stored tensor or a nested DT_VARIANT.
struct CompositeValue {
  ValueType::Kind kind = ValueType::Kind::kSequence;
  std::vector<GeTensor> items;
};

/// The stored form of `value` (a DT_VARIANT tensor of shape {}).
GE_API GeTensor StoreComposite(const CompositeValue& value);
/// The value stored in a DT_VARIANT tensor; an error naming `where` when the bytes are not that
/// form (truncated, nested too deep, an item whose bytes do not fit its dims and dtype).
GE_API Result<CompositeValue> LoadComposite(const GeTensor& tensor, const std::string& where);

}  // namespace ge

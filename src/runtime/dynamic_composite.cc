// Sequences and optionals in the dynamic executor: the ONNX operators on them, which it runs
// itself on the Values a sequence holds (sharing their buffers, never copying a tensor it only
// moves), and the conversion between a caller's stored form (ge/graph/composite_value.h) and
// Values.
#include <algorithm>
#include <cstring>
#include <set>

#include "dynamic_graph_exec.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge::runtime_internal::dynamic {
namespace {

/// The placeholder bytes of a DT_VARIANT Value (readers check that a Value was made by its data).
alignas(kAlignment) const uint8_t kPlaceholder[kAlignment] = {};

int64_t Elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

/// The integer scalar (or one-element tensor) `v` holds.
Result<int64_t> ReadIndex(const Value& v, const std::string& what) {
  if (Elements(v.dims) != 1 || (v.dtype != DT_INT32 && v.dtype != DT_INT64)) {
    return ParamInvalid(what + " must be one int32 or int64, not " +
                        TypeUtils::DataTypeToSerialString(v.dtype) + " " +
                        GeShape(v.dims).ToString());
  }
  if (v.dtype == DT_INT32) {
    int32_t x = 0;
    std::memcpy(&x, v.data.get(), sizeof(x));
    return int64_t{x};
  }
  int64_t x = 0;
  std::memcpy(&x, v.data.get(), sizeof(x));
  return x;
}

Result<std::vector<int64_t>> ReadInts(const Value& v, const std::string& what) {
  if (v.dtype != DT_INT32 && v.dtype != DT_INT64) {
    return ParamInvalid(what + " must be int32 or int64, not " +
                        TypeUtils::DataTypeToSerialString(v.dtype));
  }
  std::vector<int64_t> out(static_cast<size_t>(Elements(v.dims)));
  for (size_t i = 0; i < out.size(); ++i) {
    if (v.dtype == DT_INT32) {
      int32_t x = 0;
      std::memcpy(&x, v.data.get() + i * 4, 4);
      out[i] = x;
    } else {
      std::memcpy(&out[i], v.data.get() + i * 8, 8);
    }
  }
  return out;
}

/// A position into `size` items: in [-size, size - 1], or up to `size` when `end_allowed`
/// (SequenceInsert may append).
Result<size_t> Position(int64_t p, size_t size, bool end_allowed, const std::string& who) {
  const auto n = static_cast<int64_t>(size);
  const int64_t last = end_allowed ? n : n - 1;
  if (p < -n || p > last) {
    return ParamInvalid(who + ": position " + std::to_string(p) + " is outside [" +
                        std::to_string(-n) + ", " + std::to_string(last) + "] for a sequence of " +
                        std::to_string(size));
  }
  return static_cast<size_t>(p < 0 ? p + n : p);
}

/// Bytes per element of a tensor the executor copies parts of (a string: its running head).
Result<int64_t> ElementBytes(DataType dtype, const std::string& who) {
  const int32_t size = TypeUtils::GetSizeByDataType(dtype);
  if (size <= 0 || size >= kDataTypeSizeBitOffset || dtype == DT_VARIANT) {
    return ParamInvalid(who + ": cannot split or join " + TypeUtils::DataTypeToSerialString(dtype) +
                        " tensors");
  }
  return int64_t{size};
}

const std::set<std::string, std::less<>>& CompositeOps() {
  static const std::set<std::string, std::less<>> kOps = {
      "SequenceEmpty", "SequenceConstruct",  "SequenceInsert",     "SequenceErase",
      "SequenceAt",    "SequenceLength",     "SplitToSequence",    "ConcatFromSequence",
      "Optional",      "OptionalHasElement", "OptionalGetElement", "ZipMap"};
  return kOps;
}

}  // namespace

bool IsCompositeOp(const std::string& type) { return CompositeOps().count(type) != 0; }

Value CompositeValueOf(Composite composite) {
  Value v;
  v.dtype = DT_VARIANT;
  v.bytes = TypeUtils::GetSizeByDataType(DT_VARIANT);
  v.data = std::shared_ptr<const uint8_t>(kPlaceholder, [](const uint8_t*) {});
  v.composite = std::make_shared<const Composite>(std::move(composite));
  return v;
}

Status GraphExec::RunComposite(NodeExec& exec, const std::vector<const Value*>& ins,
                               std::vector<Value>& outs) const {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = op.GetType();
  const std::string who = Who(node);
  outs.assign(op.GetOutputsSize(), Value{});
  auto input = [&](size_t i) -> const Value* { return i < ins.size() ? ins[i] : nullptr; };
  auto sequence = [&](size_t i) -> Result<const Composite*> {
    const Value* v = input(i);
    if (v == nullptr || v->composite == nullptr ||
        v->composite->kind != ValueType::Kind::kSequence) {
      return ParamInvalid(who + ": input " + std::to_string(i) + " is not a sequence");
    }
    return v->composite.get();
  };

  if (type == "SequenceEmpty") {
    outs[0] = CompositeValueOf(Composite{ValueType::Kind::kSequence, {}});
  } else if (type == "SequenceConstruct") {
    Composite made;
    for (size_t i = 0; i < ins.size(); ++i) {
      if (ins[i] == nullptr || ins[i]->composite != nullptr) {
        return ParamInvalid(who + ": input " + std::to_string(i) + " is not a tensor");
      }
      if (ins[i]->dtype != ins[0]->dtype) {
        return ParamInvalid(who + ": its tensors must share one dtype; input " + std::to_string(i) +
                            " is " + TypeUtils::DataTypeToSerialString(ins[i]->dtype));
      }
      made.items.push_back(*ins[i]);
    }
    outs[0] = CompositeValueOf(std::move(made));
  } else if (type == "SequenceInsert") {
    GE_ASSIGN_OR_RETURN(const Composite* seq, sequence(0));
    const Value* tensor = input(1);
    if (tensor == nullptr || tensor->composite != nullptr) {
      return ParamInvalid(who + ": input 1 is not a tensor");
    }
    if (!seq->items.empty() && tensor->dtype != seq->items[0].dtype) {
      return ParamInvalid(who + ": a " + TypeUtils::DataTypeToSerialString(tensor->dtype) +
                          " tensor cannot join a sequence of " +
                          TypeUtils::DataTypeToSerialString(seq->items[0].dtype));
    }
    size_t at = seq->items.size();
    if (input(2) != nullptr) {
      GE_ASSIGN_OR_RETURN(const int64_t p, ReadIndex(*input(2), who + ": position"));
      GE_ASSIGN_OR_RETURN(at, Position(p, seq->items.size(), true, who));
    }
    Composite made = *seq;
    made.items.insert(made.items.begin() + static_cast<std::ptrdiff_t>(at), *tensor);
    outs[0] = CompositeValueOf(std::move(made));
  } else if (type == "SequenceErase") {
    GE_ASSIGN_OR_RETURN(const Composite* seq, sequence(0));
    int64_t p = -1;
    if (input(1) != nullptr) {
      GE_ASSIGN_OR_RETURN(p, ReadIndex(*input(1), who + ": position"));
    }
    GE_ASSIGN_OR_RETURN(const size_t at, Position(p, seq->items.size(), false, who));
    Composite made = *seq;
    made.items.erase(made.items.begin() + static_cast<std::ptrdiff_t>(at));
    outs[0] = CompositeValueOf(std::move(made));
  } else if (type == "SequenceAt") {
    GE_ASSIGN_OR_RETURN(const Composite* seq, sequence(0));
    if (input(1) == nullptr) return ParamInvalid(who + ": position is not given");
    GE_ASSIGN_OR_RETURN(const int64_t p, ReadIndex(*input(1), who + ": position"));
    GE_ASSIGN_OR_RETURN(const size_t at, Position(p, seq->items.size(), false, who));
    outs[0] = seq->items[at];
  } else if (type == "SequenceLength") {
    GE_ASSIGN_OR_RETURN(const Composite* seq, sequence(0));
    GE_ASSIGN_OR_RETURN(outs[0], MakeScalar(DT_INT64, static_cast<int64_t>(seq->items.size())));
  } else if (type == "SplitToSequence") {
    GE_RETURN_IF_ERROR(SplitToSequence(op, ins, outs[0]));
  } else if (type == "ConcatFromSequence") {
    GE_RETURN_IF_ERROR(ConcatFromSequence(op, ins, outs[0]));
  } else if (type == "ZipMap") {
    GE_RETURN_IF_ERROR(ZipMap(op, ins, outs[0]));
  } else if (type == "Optional") {
    Composite made{ValueType::Kind::kOptional, {}};
    if (input(0) != nullptr) made.items.push_back(*input(0));
    outs[0] = CompositeValueOf(std::move(made));
  } else if (type == "OptionalHasElement") {
    const Value* v = input(0);
    const bool has = v != nullptr &&
                     (v->composite == nullptr || v->composite->kind != ValueType::Kind::kOptional ||
                      !v->composite->items.empty());
    GE_ASSIGN_OR_RETURN(outs[0], MakeScalar(DT_BOOL, has ? 1 : 0));
  } else if (type == "OptionalGetElement") {
    const Value* v = input(0);
    if (v == nullptr) return ParamInvalid(who + ": its input is not given");
    if (v->composite != nullptr && v->composite->kind == ValueType::Kind::kOptional) {
      if (v->composite->items.empty()) {
        return ParamInvalid(who +
                            ": the optional holds no value (test it with "
                            "OptionalHasElement first)");
      }
      outs[0] = v->composite->items[0];
    } else {
      outs[0] = *v;  // a tensor or sequence is its own element
    }
  } else {
    return InternalError(who + " is not a sequence or optional operator");
  }
  return Status::Ok();
}

Status GraphExec::SplitToSequence(const OpDesc& op, const std::vector<const Value*>& ins,
                                  Value& out) const {
  const std::string who = "node '" + op.GetName() + "' (SplitToSequence)";
  if (ins.empty() || ins[0] == nullptr || ins[0]->composite != nullptr) {
    return ParamInvalid(who + ": input 0 is not a tensor");
  }
  const Value& x = *ins[0];
  const auto rank = static_cast<int64_t>(x.dims.size());
  int64_t axis = 0;
  int64_t keepdims = 1;
  (void)AttrUtils::GetInt(op, "axis", axis);
  (void)AttrUtils::GetInt(op, "keepdims", keepdims);
  if (axis < -rank || axis >= rank) {
    return ParamInvalid(who + ": axis " + std::to_string(axis) + " is outside the input's rank " +
                        std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  const int64_t length = x.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> sizes;
  const bool given = ins.size() > 1 && ins[1] != nullptr;
  if (!given) {
    sizes.assign(static_cast<size_t>(length), 1);
  } else {
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> split, ReadInts(*ins[1], who + ": split"));
    if (ins[1]->dims.empty()) {  // one size: equal parts, the last one shorter
      const int64_t part = split.empty() ? 0 : split[0];
      if (part <= 0)
        return ParamInvalid(who + ": split must be positive, not " + std::to_string(part));
      for (int64_t at = 0; at < length; at += part) sizes.push_back(std::min(part, length - at));
    } else {
      int64_t total = 0;
      for (int64_t s : split) {
        if (s < 0) return ParamInvalid(who + ": split sizes must not be negative");
        total += s;
      }
      if (total != length) {
        return ParamInvalid(who + ": split sizes add up to " + std::to_string(total) +
                            ", the axis is " + std::to_string(length));
      }
      sizes = std::move(split);
    }
  }
  GE_ASSIGN_OR_RETURN(const int64_t eb, ElementBytes(x.dtype, who));
  int64_t outer = 1;
  int64_t inner = eb;
  for (int64_t i = 0; i < axis; ++i) outer *= x.dims[static_cast<size_t>(i)];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= x.dims[static_cast<size_t>(i)];
  Composite made;
  int64_t at = 0;
  for (int64_t size : sizes) {
    Value part;
    part.dtype = x.dtype;
    part.dims = x.dims;
    part.dims[static_cast<size_t>(axis)] = size;
    if (!given && keepdims == 0) part.dims.erase(part.dims.begin() + axis);
    part.bytes = outer * size * inner;
    GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer,
                        AllocateBuffer(part.bytes, max_tensor_bytes, "a part made by " + who));
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(buffer.get() + o * size * inner, x.data.get() + (o * length + at) * inner,
                  static_cast<size_t>(size * inner));
    }
    part.data = std::move(buffer);
    part.run_owned = true;
    made.items.push_back(std::move(part));
    at += size;
  }
  out = CompositeValueOf(std::move(made));
  return Status::Ok();
}

Status GraphExec::ConcatFromSequence(const OpDesc& op, const std::vector<const Value*>& ins,
                                     Value& out) const {
  const std::string who = "node '" + op.GetName() + "' (ConcatFromSequence)";
  if (ins.empty() || ins[0] == nullptr || ins[0]->composite == nullptr) {
    return ParamInvalid(who + ": input 0 is not a sequence");
  }
  const std::vector<Value>& items = ins[0]->composite->items;
  if (items.empty()) return ParamInvalid(who + ": the sequence is empty");
  int64_t axis = 0;
  int64_t new_axis = 0;
  (void)AttrUtils::GetInt(op, "axis", axis);
  (void)AttrUtils::GetInt(op, "new_axis", new_axis);
  const std::vector<int64_t>& first = items[0].dims;
  const auto rank = static_cast<int64_t>(first.size()) + (new_axis != 0 ? 1 : 0);
  if (axis < -rank || axis >= rank) {
    return ParamInvalid(who + ": axis " + std::to_string(axis) + " is outside rank " +
                        std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  // Each item seen with the joined axis in place (a new axis of extent 1 when stacking).
  std::vector<std::vector<int64_t>> shapes;
  for (const Value& item : items) {
    if (item.composite != nullptr || item.dtype != items[0].dtype ||
        item.dims.size() != first.size()) {
      return ParamInvalid(who + ": the sequence's tensors differ in dtype or rank");
    }
    std::vector<int64_t> dims = item.dims;
    if (new_axis != 0) dims.insert(dims.begin() + axis, 1);
    shapes.push_back(std::move(dims));
  }
  std::vector<int64_t> joined = shapes[0];
  joined[static_cast<size_t>(axis)] = 0;
  for (const std::vector<int64_t>& dims : shapes) {
    for (size_t d = 0; d < dims.size(); ++d) {
      if (static_cast<int64_t>(d) != axis && dims[d] != shapes[0][d]) {
        return ParamInvalid(who + ": the tensors " + GeShape(shapes[0]).ToString() + " and " +
                            GeShape(dims).ToString() + " differ outside axis " +
                            std::to_string(axis));
      }
    }
    joined[static_cast<size_t>(axis)] += dims[static_cast<size_t>(axis)];
  }
  GE_ASSIGN_OR_RETURN(const int64_t eb, ElementBytes(items[0].dtype, who));
  int64_t outer = 1;
  int64_t inner = eb;
  for (int64_t i = 0; i < axis; ++i) outer *= joined[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(axis) + 1; i < joined.size(); ++i) inner *= joined[i];
  out = Value{};
  out.dtype = items[0].dtype;
  out.dims = joined;
  out.bytes = Elements(joined) * eb;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer,
                      AllocateBuffer(out.bytes, max_tensor_bytes, "the output of " + who));
  const int64_t row = joined[static_cast<size_t>(axis)] * inner;
  int64_t at = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    const int64_t chunk = shapes[k][static_cast<size_t>(axis)] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(buffer.get() + o * row + at, items[k].data.get() + o * chunk,
                  static_cast<size_t>(chunk));
    }
    at += chunk;
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return Status::Ok();
}

// Each row of X becomes a map from the labels to its scores: the keys are one tensor all maps
// share, the values view the row in X's buffer.
Status GraphExec::ZipMap(const OpDesc& op, const std::vector<const Value*>& ins, Value& out) const {
  const std::string who = "node '" + op.GetName() + "' (ZipMap)";
  if (ins.empty() || ins[0] == nullptr || ins[0]->dtype != DT_FLOAT ||
      (ins[0]->dims.size() != 1 && ins[0]->dims.size() != 2)) {
    return ParamInvalid(who + ": X must be a float [C] or [N, C]");
  }
  const Value& x = *ins[0];
  std::vector<std::string> names;
  std::vector<int64_t> ints;
  (void)AttrUtils::GetListStr(op, "classlabels_strings", names);
  (void)AttrUtils::GetListInt(op, "classlabels_int64s", ints);
  const bool by_name = !names.empty();
  const int64_t classes = x.dims.back();
  const int64_t rows = x.dims.size() == 2 ? x.dims[0] : 1;
  if (classes != static_cast<int64_t>(by_name ? names.size() : ints.size())) {
    return ParamInvalid(who + ": X has " + std::to_string(classes) + " classes, it has " +
                        std::to_string(by_name ? names.size() : ints.size()) + " labels");
  }
  Value keys;
  keys.dtype = by_name ? DT_STRING : DT_INT64;
  keys.dims = {classes};
  keys.bytes = classes * (by_name ? kStringElementBytes : 8);
  keys.run_owned = true;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> key_bytes,
                      AllocateBuffer(keys.bytes, max_tensor_bytes, "the labels of " + who));
  for (int64_t c = 0; c < classes; ++c) {
    if (by_name) {
      if (strings == nullptr) return InternalError(who + ": no string store");
      GE_ASSIGN_OR_RETURN(const std::string_view kept,
                          strings->Keep(names[static_cast<size_t>(c)]));
      WriteString(key_bytes.get(), c, kept);
    } else {
      std::memcpy(key_bytes.get() + c * 8, &ints[static_cast<size_t>(c)], 8);
    }
  }
  keys.data = std::move(key_bytes);
  Composite maps{ValueType::Kind::kSequence, {}};
  for (int64_t n = 0; n < rows; ++n) {
    Value scores;
    scores.dtype = DT_FLOAT;
    scores.dims = {classes};
    scores.bytes = classes * 4;
    scores.data = std::shared_ptr<const uint8_t>(x.data, x.data.get() + n * classes * 4);
    maps.items.push_back(CompositeValueOf(Composite{ValueType::Kind::kMap, {keys, scores}}));
  }
  out = CompositeValueOf(std::move(maps));
  return Status::Ok();
}

Result<Value> GraphExec::BindComposite(const GeTensor& stored, const std::string& where) const {
  GE_ASSIGN_OR_RETURN(CompositeValue value, LoadComposite(stored, where));
  Composite made{value.kind, {}};
  for (size_t i = 0; i < value.items.size(); ++i) {
    const std::string item_where = where + " item " + std::to_string(i);
    // The decoded item owns its bytes; the Value keeps it alive.
    auto holder = std::make_shared<const GeTensor>(std::move(value.items[i]));
    const GeTensorDesc& desc = holder->GetTensorDesc();
    if (desc.GetDataType() == DT_VARIANT) {
      GE_ASSIGN_OR_RETURN(Value nested, BindComposite(*holder, item_where));
      made.items.push_back(std::move(nested));
      continue;
    }
    Value item;
    item.dtype = desc.GetDataType();
    item.dims = desc.GetShape().GetDims();
    item.bytes = TensorUtils::CalcTensorMemSize(desc);
    if (item.dtype == DT_STRING) {
      if (strings == nullptr) return InternalError(item_where + ": no string store");
      GE_ASSIGN_OR_RETURN(const StringHead* heads,
                          strings->Bind(holder->GetData().data(), holder->GetSize(),
                                        Elements(item.dims), item_where));
      item.data = std::shared_ptr<const uint8_t>(holder, reinterpret_cast<const uint8_t*>(heads));
    } else {
      const uint8_t* p = holder->GetData().data();
      item.data = std::shared_ptr<const uint8_t>(holder, p != nullptr ? p : kPlaceholder);
    }
    made.items.push_back(std::move(item));
  }
  return CompositeValueOf(std::move(made));
}

GeTensor StoreValue(const Value& value) {
  if (value.composite != nullptr) {
    CompositeValue stored;
    stored.kind = value.composite->kind;
    for (const Value& item : value.composite->items) stored.items.push_back(StoreValue(item));
    return StoreComposite(stored);
  }
  if (value.dtype == DT_STRING) return StoreStrings(value.data.get(), value.dims);
  return {GeTensorDesc(GeShape(value.dims), FORMAT_ND, value.dtype), value.data.get(),
          static_cast<size_t>(value.bytes)};
}

}  // namespace ge::runtime_internal::dynamic

// InferContext: descs, attributes with prototype defaults, and constant input values.
#include "ge/ops/infer_context.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ge {

namespace {

uint16_t LoadU16(const uint8_t* p) {
  uint16_t v = 0;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

double HalfToDouble(uint16_t h) {
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  double v = 0;
  if (exp == 0) {
    v = std::ldexp(mant, -24);
  } else if (exp == 31) {
    v = mant == 0 ? std::numeric_limits<double>::infinity()
                  : std::numeric_limits<double>::quiet_NaN();
  } else {
    v = std::ldexp(1024 + mant, exp - 25);
  }
  return (h & 0x8000) != 0 ? -v : v;
}

template <typename T>
void AppendAs(const uint8_t* data, size_t count, std::vector<int64_t>& out) {
  for (size_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, data + i * sizeof(T), sizeof(T));
    out.push_back(static_cast<int64_t>(v));
  }
}

template <typename T>
void AppendAsDouble(const uint8_t* data, size_t count, std::vector<double>& out) {
  for (size_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, data + i * sizeof(T), sizeof(T));
    out.push_back(static_cast<double>(v));
  }
}

}  // namespace

InferContext::InferContext(OpDesc& op, const OpProto* proto)
    : op_(op),
      proto_(proto),
      consts_(op.GetAllInputsSize(), nullptr),
      absent_(op.GetAllInputsSize(), false) {}

void InferContext::SetConstInput(size_t index, const GeTensor* tensor) {
  if (index < consts_.size()) consts_[index] = tensor;
}

void InferContext::SetInputAbsent(size_t index) {
  if (index < absent_.size()) absent_[index] = true;
}

bool InferContext::HasInput(size_t index) const {
  if (index >= NumInputs() || absent_[index]) return false;
  return InputDesc(index).IsValid();
}

std::string InferContext::InputName(size_t index) const {
  std::string name = op_.GetInputNameByIndex(ToU32(index));
  if (!name.empty()) return name;
  std::string numbered = "#";
  numbered += std::to_string(index);
  return numbered;
}

std::string InferContext::OutputName(size_t index) const {
  std::string name = op_.GetOutputNameByIndex(ToU32(index));
  if (!name.empty()) return name;
  std::string numbered = "#";
  numbered += std::to_string(index);
  return numbered;
}

std::vector<size_t> InferContext::InputIndices(const std::string& ir_name) const {
  std::vector<size_t> out;
  const OpInputDef* def = proto_ == nullptr ? nullptr : proto_->FindInput(ir_name);
  const bool dynamic = def != nullptr && def->kind == kIrInputDynamic;
  for (size_t i = 0; i < NumInputs(); ++i) {
    const std::string n = op_.GetInputNameByIndex(ToU32(i));
    // A fixed input by its IR name; a dynamic one's instances as the name and a number.
    const bool fixed_match = !dynamic && n == ir_name;
    const bool dynamic_match =
        dynamic && n.size() > ir_name.size() && n.compare(0, ir_name.size(), ir_name) == 0 &&
        n.find_first_not_of("0123456789", ir_name.size()) == std::string::npos;
    if (fixed_match || dynamic_match) out.push_back(i);
  }
  if (!out.empty() || def == nullptr || dynamic) return out;
  // Inputs without IR names (an OpDesc built by hand with AddInputDesc(desc)): a fixed input
  // preceded only by fixed inputs sits at its IR position.
  size_t position = 0;
  for (const auto& in : proto_->inputs()) {
    if (in.name == ir_name) break;
    if (in.kind == kIrInputDynamic) return out;
    ++position;
  }
  if (position < NumInputs() && op_.GetInputNameByIndex(ToU32(position)).rfind("__input", 0) == 0) {
    out.push_back(position);
  }
  return out;
}

GeTensorDesc* InferContext::MutableOutputDesc(size_t index) {
  return op_.MutableOutputDesc(ToU32(index)).get();
}

Status InferContext::SetOutput(size_t index, const GeShape& shape, DataType dtype) {
  GeTensorDesc* desc = MutableOutputDesc(index);
  if (desc == nullptr) {
    return Error("has no output " + std::to_string(index) + " (it has " +
                 std::to_string(NumOutputs()) + ")");
  }
  desc->SetShape(shape);
  desc->SetOriginShape(shape);
  desc->SetDataType(dtype);
  desc->SetOriginDataType(dtype);
  return Status::Ok();
}

Status InferContext::SetOutputShape(size_t index, const GeShape& shape) {
  return SetOutput(index, shape, OutputDataType(index));
}

DataType InferContext::OutputDataType(size_t index) const {
  const GeTensorDesc* d = op_.GetOutputDescPtr(ToU32(index));
  return d == nullptr ? DT_UNDEFINED : d->GetDataType();
}

const GeTensor* InferContext::GetConstInput(size_t index) const {
  return index < consts_.size() && HasInput(index) ? consts_[index] : nullptr;
}

std::optional<std::vector<int64_t>> InferContext::GetConstInts(size_t index) const {
  const GeTensor* t = GetConstInput(index);
  if (t == nullptr) return std::nullopt;
  const DataType dt = t->GetTensorDesc().GetDataType();
  const auto data = t->GetData();
  const int32_t elem = TypeUtils::GetSizeByDataType(dt);
  if (elem <= 0 || elem > 8 || data.size() % static_cast<size_t>(elem) != 0) return std::nullopt;
  const size_t n = data.size() / static_cast<size_t>(elem);
  std::vector<int64_t> out;
  out.reserve(n);
  switch (dt) {
    case DT_INT8:
      AppendAs<int8_t>(data.data(), n, out);
      break;
    case DT_UINT8:
      AppendAs<uint8_t>(data.data(), n, out);
      break;
    case DT_INT16:
      AppendAs<int16_t>(data.data(), n, out);
      break;
    case DT_UINT16:
      AppendAs<uint16_t>(data.data(), n, out);
      break;
    case DT_INT32:
      AppendAs<int32_t>(data.data(), n, out);
      break;
    case DT_UINT32:
      AppendAs<uint32_t>(data.data(), n, out);
      break;
    case DT_INT64:
      AppendAs<int64_t>(data.data(), n, out);
      break;
    case DT_UINT64:
      AppendAs<uint64_t>(data.data(), n, out);
      break;
    case DT_BOOL:
      AppendAs<uint8_t>(data.data(), n, out);
      break;
    default:
      return std::nullopt;
  }
  return out;
}

std::optional<std::vector<double>> InferContext::GetConstFloats(size_t index) const {
  const GeTensor* t = GetConstInput(index);
  if (t == nullptr) return std::nullopt;
  const DataType dt = t->GetTensorDesc().GetDataType();
  const auto data = t->GetData();
  std::vector<double> out;
  switch (dt) {
    case DT_FLOAT:
      AppendAsDouble<float>(data.data(), data.size() / 4, out);
      break;
    case DT_DOUBLE:
      AppendAsDouble<double>(data.data(), data.size() / 8, out);
      break;
    case DT_FLOAT16:
      for (size_t i = 0; i + 1 < data.size(); i += 2)
        out.push_back(HalfToDouble(LoadU16(&data[i])));
      break;
    case DT_BF16:
      for (size_t i = 0; i + 1 < data.size(); i += 2) {
        const uint32_t bits = static_cast<uint32_t>(LoadU16(&data[i])) << 16;
        float f;
        std::memcpy(&f, &bits, sizeof(f));
        out.push_back(f);
      }
      break;
    default: {
      auto ints = GetConstInts(index);
      if (!ints) return std::nullopt;
      for (int64_t v : *ints) out.push_back(static_cast<double>(v));
    }
  }
  return out;
}

const AttrValue* InferContext::FindAttr(const std::string& attr) const {
  const AttrValue* v = AttrUtils::GetAttr(op_, attr);
  if (v != nullptr) return v;
  if (proto_ == nullptr) return nullptr;
  const OpAttrDef* def = proto_->FindAttr(attr);
  return def == nullptr || def->default_value.IsNone() ? nullptr : &def->default_value;
}

bool InferContext::HasAttr(const std::string& attr) const { return FindAttr(attr) != nullptr; }

int64_t InferContext::AttrInt(const std::string& attr, int64_t fallback) const {
  const AttrValue* v = FindAttr(attr);
  if (v == nullptr) return fallback;
  if (const auto* i = v->Get<int64_t>()) return *i;
  if (const auto* b = v->Get<bool>()) return *b ? 1 : 0;
  return fallback;
}

float InferContext::AttrFloat(const std::string& attr, float fallback) const {
  const AttrValue* v = FindAttr(attr);
  if (v == nullptr) return fallback;
  if (const auto* f = v->Get<float>()) return *f;
  if (const auto* i = v->Get<int64_t>()) return static_cast<float>(*i);
  return fallback;
}

bool InferContext::AttrBool(const std::string& attr, bool fallback) const {
  const AttrValue* v = FindAttr(attr);
  if (v == nullptr) return fallback;
  if (const auto* b = v->Get<bool>()) return *b;
  if (const auto* i = v->Get<int64_t>()) return *i != 0;
  return fallback;
}

std::string InferContext::AttrStr(const std::string& attr, const std::string& fallback) const {
  const AttrValue* v = FindAttr(attr);
  const auto* s = v == nullptr ? nullptr : v->Get<std::string>();
  return s == nullptr ? fallback : *s;
}

std::vector<int64_t> InferContext::AttrInts(const std::string& attr) const {
  const AttrValue* v = FindAttr(attr);
  const auto* l = v == nullptr ? nullptr : v->Get<std::vector<int64_t>>();
  return l == nullptr ? std::vector<int64_t>{} : *l;
}

std::vector<float> InferContext::AttrFloats(const std::string& attr) const {
  const AttrValue* v = FindAttr(attr);
  const auto* l = v == nullptr ? nullptr : v->Get<std::vector<float>>();
  return l == nullptr ? std::vector<float>{} : *l;
}

DataType InferContext::AttrDataType(const std::string& attr, DataType fallback) const {
  const AttrValue* v = FindAttr(attr);
  if (v == nullptr) return fallback;
  if (const auto* d = v->Get<DataType>()) return *d;
  if (const auto* i = v->Get<int64_t>()) {
    return *i >= 0 && *i < DT_MAX ? static_cast<DataType>(*i) : fallback;
  }
  return fallback;
}

Status InferContext::Error(const std::string& message) const {
  return ParamInvalid("node '" + name() + "' (" + type() + "): " + message);
}

std::string InferContext::DescribeInput(size_t index) const {
  return "input " + InputName(index) + " " + InputShape(index).ToString();
}

}  // namespace ge

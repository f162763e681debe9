// TensorType sets, OpProto lookups and the OpProtoBuilder that declares prototypes.
#include "ge/ops/op_proto.h"

#include <algorithm>
#include <type_traits>

namespace ge {

namespace {
uint64_t Bit(DataType t) { return uint64_t{1} << static_cast<uint32_t>(t); }
}  // namespace

TensorType::TensorType(std::initializer_list<DataType> types) {
  for (DataType t : types) {
    if (t >= 0 && t < DT_MAX) mask_ |= Bit(t);
  }
}

TensorType TensorType::ALL() {
  TensorType all;
  for (int32_t t = 0; t < DT_MAX; ++t) {
    if (TypeUtils::IsValidDataType(static_cast<DataType>(t)) && t != DT_UNDEFINED) {
      all.mask_ |= Bit(static_cast<DataType>(t));
    }
  }
  return all;
}
TensorType TensorType::FloatingDataType() { return {DT_FLOAT, DT_FLOAT16, DT_BF16, DT_DOUBLE}; }
TensorType TensorType::SignedIntegerType() { return {DT_INT8, DT_INT16, DT_INT32, DT_INT64}; }
TensorType TensorType::UnsignedIntegerType() { return {DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64}; }
TensorType TensorType::IntegerDataType() { return SignedIntegerType() | UnsignedIntegerType(); }
TensorType TensorType::IndexNumberType() { return {DT_INT32, DT_INT64}; }
TensorType TensorType::RealNumberType() { return FloatingDataType() | IntegerDataType(); }
TensorType TensorType::NumberType() {
  return RealNumberType() | TensorType{DT_COMPLEX64, DT_COMPLEX128};
}
TensorType TensorType::BasicType() { return NumberType() | BOOL(); }
TensorType TensorType::BOOL() { return {DT_BOOL}; }
TensorType TensorType::QuantizedType() {
  return {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT4};
}

TensorType TensorType::operator|(const TensorType& other) const {
  TensorType out;
  out.mask_ = mask_ | other.mask_;
  return out;
}

bool TensorType::Contains(DataType type) const {
  return type >= 0 && type < DT_MAX && (mask_ & Bit(type)) != 0;
}

std::vector<DataType> TensorType::Types() const {
  std::vector<DataType> out;
  for (int32_t t = 0; t < DT_MAX; ++t) {
    if ((mask_ & Bit(static_cast<DataType>(t))) != 0) out.push_back(static_cast<DataType>(t));
  }
  return out;
}

std::string TensorType::ToString() const {
  std::string out = "{";
  for (DataType t : Types()) {
    if (out.size() > 1) out += ", ";
    out += TypeUtils::DataTypeToSerialString(t);
  }
  return out + "}";
}

const TensorType& OpProto::AllowedTypes(const std::string& symbol) const {
  static const TensorType kEmpty;
  auto it = type_constraints_.find(symbol);
  return it == type_constraints_.end() ? kEmpty : it->second;
}

const OpInputDef* OpProto::FindInput(const std::string& name) const {
  for (const auto& in : inputs_) {
    if (in.name == name) return &in;
  }
  return nullptr;
}

const OpOutputDef* OpProto::FindOutput(const std::string& name) const {
  for (const auto& out : outputs_) {
    if (out.name == name) return &out;
  }
  return nullptr;
}

const OpAttrDef* OpProto::FindAttr(const std::string& name) const {
  for (const auto& attr : attrs_) {
    if (attr.name == name) return &attr;
  }
  return nullptr;
}

OpProtoBuilder::OpProtoBuilder(std::string type) {
  if (type.empty()) errors_.emplace_back("the op type is empty");
  proto_.type_ = std::move(type);
}

void OpProtoBuilder::CheckName(const std::string& name, NameKind kind) {
  if (name.empty()) {
    errors_.emplace_back("an input, output, attribute or subgraph has an empty name");
    return;
  }
  auto& names = names_[static_cast<size_t>(kind)];
  if (std::find(names.begin(), names.end(), name) != names.end()) {
    errors_.emplace_back("'" + name + "' is declared twice");
    return;
  }
  names.push_back(name);
}

std::string OpProtoBuilder::SymbolFor(const std::string& port, TensorType types) {
  if (types.empty()) errors_.emplace_back("'" + port + "' allows no dtype");
  std::string symbol = "__" + port;  // private symbol: this port's dtype is independent
  proto_.type_constraints_[symbol] = types;
  return symbol;
}

OpProtoBuilder& OpProtoBuilder::TypeConstraint(const std::string& symbol, TensorType types) {
  if (symbol.empty() || symbol.rfind("__", 0) == 0) {
    errors_.emplace_back("type symbol '" + symbol + "' is empty or starts with \"__\"");
  } else if (types.empty()) {
    errors_.emplace_back("type symbol '" + symbol + "' allows no dtype");
  } else if (!proto_.type_constraints_.emplace(symbol, types).second) {
    errors_.emplace_back("type symbol '" + symbol + "' is declared twice");
  }
  return *this;
}

// `vector` names a member, which parentheses cannot enclose.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define GE_OPS_DEFINE_PORT(Method, vector, Def, kind_value)                                  \
  OpProtoBuilder& OpProtoBuilder::Method(const std::string& name, TensorType types) {        \
    CheckName(name, std::is_same_v<Def, OpInputDef> ? NameKind::kInput : NameKind::kOutput); \
    proto_.vector.push_back(Def{name, kind_value, SymbolFor(name, types)});                  \
    return *this;                                                                            \
  }                                                                                          \
  OpProtoBuilder& OpProtoBuilder::Method(const std::string& name, const char* symbol) {      \
    const std::string type_symbol = symbol == nullptr ? "" : symbol;                         \
    CheckName(name, std::is_same_v<Def, OpInputDef> ? NameKind::kInput : NameKind::kOutput); \
    if (proto_.type_constraints_.count(type_symbol) == 0) {                                  \
      errors_.emplace_back("'" + name + "' uses undeclared type symbol '" + type_symbol +    \
                           "' (declare it with TypeConstraint first)");                      \
    }                                                                                        \
    proto_.vector.push_back(Def{name, kind_value, type_symbol});                             \
    return *this;                                                                            \
  }

GE_OPS_DEFINE_PORT(Input, inputs_, OpInputDef, kIrInputRequired)
GE_OPS_DEFINE_PORT(OptionalInput, inputs_, OpInputDef, kIrInputOptional)
GE_OPS_DEFINE_PORT(DynamicInput, inputs_, OpInputDef, kIrInputDynamic)
GE_OPS_DEFINE_PORT(Output, outputs_, OpOutputDef, kIrOutputRequired)
GE_OPS_DEFINE_PORT(DynamicOutput, outputs_, OpOutputDef, kIrOutputDynamic)
#undef GE_OPS_DEFINE_PORT
// NOLINTEND(bugprone-macro-parentheses)

OpProtoBuilder& OpProtoBuilder::RequiredAttr(const std::string& name, AttrValue::Type type) {
  CheckName(name, NameKind::kAttr);
  if (type == AttrValue::Type::kNone) errors_.emplace_back("attribute '" + name + "' has no type");
  proto_.attrs_.push_back(OpAttrDef{name, type, /*required=*/true, AttrValue()});
  return *this;
}

OpProtoBuilder& OpProtoBuilder::Attr(const std::string& name, AttrValue default_value) {
  CheckName(name, NameKind::kAttr);
  if (default_value.IsNone()) errors_.emplace_back("attribute '" + name + "' has an empty default");
  const AttrValue::Type type = default_value.GetType();
  proto_.attrs_.push_back(OpAttrDef{name, type, /*required=*/false, std::move(default_value)});
  return *this;
}

OpProtoBuilder& OpProtoBuilder::OptionalAttr(const std::string& name, AttrValue::Type type) {
  CheckName(name, NameKind::kAttr);
  if (type == AttrValue::Type::kNone) errors_.emplace_back("attribute '" + name + "' has no type");
  proto_.attrs_.push_back(OpAttrDef{name, type, /*required=*/false, AttrValue()});
  return *this;
}

OpProtoBuilder& OpProtoBuilder::Graph(const std::string& name) {
  CheckName(name, NameKind::kGraph);
  proto_.subgraphs_.push_back(OpSubgraphDef{name, kStatic});
  return *this;
}

OpProtoBuilder& OpProtoBuilder::DynamicGraph(const std::string& name) {
  CheckName(name, NameKind::kGraph);
  proto_.subgraphs_.push_back(OpSubgraphDef{name, kDynamic});
  return *this;
}

OpProtoBuilder& OpProtoBuilder::InferShape(InferFunc func) {
  proto_.infer_shape_ = std::move(func);
  return *this;
}

OpProtoBuilder& OpProtoBuilder::InferFormat(InferFunc func) {
  proto_.infer_format_ = std::move(func);
  return *this;
}

OpProtoBuilder& OpProtoBuilder::Verify(InferFunc func) {
  proto_.verify_ = std::move(func);
  return *this;
}

OpProtoBuilder& OpProtoBuilder::ViewOf(int input) {
  proto_.traits_.view_of_input = input;
  return *this;
}

OpProtoBuilder& OpProtoBuilder::UpdatesInput(int input) {
  proto_.traits_.updates_input = input;
  proto_.traits_.impure = true;
  return *this;
}

OpProtoBuilder& OpProtoBuilder::PassThrough() {
  proto_.traits_.pass_through = true;
  return *this;
}

OpProtoBuilder& OpProtoBuilder::Impure() {
  proto_.traits_.impure = true;
  return *this;
}

OpProtoBuilder& OpProtoBuilder::DeletedBy(std::string pass, std::string option) {
  if (pass.empty()) errors_.emplace_back("DeletedBy names no pass");
  proto_.traits_.deleted_by_pass = std::move(pass);
  proto_.traits_.deleted_by_option = std::move(option);
  return *this;
}

OpProtoBuilder& OpProtoBuilder::DeletedBefore(std::string what) {
  if (what.empty()) errors_.emplace_back("DeletedBefore says nothing");
  proto_.traits_.deleted_before = std::move(what);
  return *this;
}

OpProtoBuilder& OpProtoBuilder::ControlFlow(ControlFlowKind kind) {
  proto_.traits_.control_flow = kind;
  return *this;
}

OpProtoBuilder& OpProtoBuilder::Elementwise(ElementwiseKind kind) {
  proto_.traits_.elementwise = kind;
  return *this;
}

void OpProtoBuilder::CheckElementwise() {
  const ElementwiseKind kind = proto_.traits_.elementwise;
  if (kind == ElementwiseKind::kNone) return;
  if (proto_.outputs_.size() != 1) {
    errors_.emplace_back("an elementwise op has one output (or one dynamic output)");
  }
  const size_t data = kind == ElementwiseKind::kBinary ? 2 : 1;
  if (proto_.inputs_.size() < data) {
    errors_.emplace_back("an elementwise op of this kind reads " + std::to_string(data) +
                         " data input(s); it has " + std::to_string(proto_.inputs_.size()));
    return;
  }
  for (size_t i = 0; i < data; ++i) {
    const bool dynamic = proto_.inputs_[i].kind == kIrInputDynamic;
    if (dynamic != (kind == ElementwiseKind::kVariadic)) {
      errors_.emplace_back(kind == ElementwiseKind::kVariadic
                               ? "a variadic elementwise op reads a dynamic input 0"
                               : "elementwise data input " + std::to_string(i) + " is dynamic");
    }
  }
}

void OpProtoBuilder::CheckTraits() {
  CheckElementwise();
  const OpTraits& traits = proto_.traits_;
  if (traits.view_of_input != -1) {
    const int input = traits.view_of_input;
    if (input < 0 || static_cast<size_t>(input) >= proto_.inputs_.size()) {
      errors_.emplace_back("ViewOf(" + std::to_string(input) + ") names no input (the op has " +
                           std::to_string(proto_.inputs_.size()) + ")");
    } else if (proto_.inputs_[static_cast<size_t>(input)].kind == kIrInputDynamic) {
      errors_.emplace_back("ViewOf(" + std::to_string(input) + ") names a dynamic input");
    }
    if (proto_.outputs_.empty()) errors_.emplace_back("ViewOf on an op without outputs");
  }
  if (traits.updates_input != -1) {
    const int input = traits.updates_input;
    if (input < 0 || static_cast<size_t>(input) >= proto_.inputs_.size() ||
        proto_.inputs_[static_cast<size_t>(input)].kind == kIrInputDynamic) {
      errors_.emplace_back("UpdatesInput(" + std::to_string(input) +
                           ") names no required or optional input");
    }
    if (proto_.outputs_.empty()) errors_.emplace_back("UpdatesInput on an op without outputs");
    if (traits.view_of_input >= 0) errors_.emplace_back("both a view and an update of an input");
  }
  if (traits.pass_through) {
    if (traits.view_of_input >= 0) errors_.emplace_back("both a view and a pass-through");
    if (proto_.inputs_.empty() || proto_.outputs_.empty()) {
      errors_.emplace_back("PassThrough on an op without inputs or outputs");
    }
  }
}

Result<OpProto> OpProtoBuilder::Build() {
  if (!proto_.infer_shape_) errors_.emplace_back("no infer-shape function");
  CheckTraits();
  if (!errors_.empty()) {
    std::string message = "operator prototype '" + proto_.type_ + "' is malformed: ";
    for (size_t i = 0; i < errors_.size(); ++i) message += (i == 0 ? "" : "; ") + errors_[i];
    return ParamInvalid(message);
  }
  return proto_;
}

}  // namespace ge

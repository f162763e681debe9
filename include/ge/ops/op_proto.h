// Operator prototypes: the IR signature of an op type (inputs, outputs, attributes, subgraphs,
// allowed dtypes) and its inference/verify functions, built with a GE-like fluent builder.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"
#include "ge/ops/op_traits.h"

namespace ge {

class InferContext;

/// A set of element types (GE's TensorType). Stored as a bit mask over DataType values.
class GE_API TensorType {
 public:
  TensorType() = default;  ///< the empty set
  TensorType(std::initializer_list<DataType> types);

  static TensorType ALL();                  ///< every concrete type
  static TensorType FloatingDataType();     ///< float, float16, bf16, double
  static TensorType SignedIntegerType();    ///< int8 .. int64
  static TensorType UnsignedIntegerType();  ///< uint8 .. uint64
  static TensorType IntegerDataType();      ///< signed and unsigned integers
  static TensorType IndexNumberType();      ///< int32, int64
  static TensorType RealNumberType();       ///< floating and integer types
  static TensorType NumberType();           ///< real numbers and complex64/128
  static TensorType BasicType();            ///< numbers, bool
  static TensorType BOOL();                 ///< bool
  static TensorType QuantizedType();  ///< int8, uint8, int16, uint16, int32 (zero points), int4

  TensorType operator|(const TensorType& other) const;
  bool Contains(DataType type) const;
  bool empty() const { return mask_ == 0; }
  std::vector<DataType> Types() const;
  /// "{DT_FLOAT, DT_FLOAT16}".
  std::string ToString() const;
  bool operator==(const TensorType& other) const { return mask_ == other.mask_; }

 private:
  uint64_t mask_ = 0;
};

/// Signature of infer-shape, infer-format and verify functions of a prototype.
using InferFunc = std::function<Status(InferContext&)>;

struct OpInputDef {
  std::string name;
  IrInputType kind = kIrInputRequired;
  std::string type_symbol;  ///< key into OpProto::TypeConstraints(); shared symbols share a dtype
};

struct OpOutputDef {
  std::string name;
  IrOutputType kind = kIrOutputRequired;
  std::string type_symbol;
};

struct OpAttrDef {
  std::string name;
  AttrValue::Type type = AttrValue::Type::kNone;
  bool required = false;
  AttrValue default_value;  ///< none for required attributes and optional ones without a default
};

struct OpSubgraphDef {
  std::string name;
  SubgraphType kind = kStatic;
};

/// The prototype of one operator type. Immutable once built; created by OpProtoBuilder.
class GE_API OpProto {
 public:
  const std::string& type() const { return type_; }
  const std::vector<OpInputDef>& inputs() const { return inputs_; }
  const std::vector<OpOutputDef>& outputs() const { return outputs_; }
  const std::vector<OpAttrDef>& attrs() const { return attrs_; }
  const std::vector<OpSubgraphDef>& subgraphs() const { return subgraphs_; }
  /// Type symbol → allowed types. Inputs/outputs declared with a TensorType get a private symbol.
  const std::map<std::string, TensorType>& type_constraints() const { return type_constraints_; }
  const TensorType& AllowedTypes(const std::string& symbol) const;

  const OpInputDef* FindInput(const std::string& name) const;
  const OpOutputDef* FindOutput(const std::string& name) const;
  const OpAttrDef* FindAttr(const std::string& name) const;

  const InferFunc& infer_shape() const { return infer_shape_; }
  const InferFunc& infer_format() const { return infer_format_; }
  const InferFunc& verify() const { return verify_; }
  const OpTraits& traits() const { return traits_; }

 private:
  friend class OpProtoBuilder;
  std::string type_;
  std::vector<OpInputDef> inputs_;
  std::vector<OpOutputDef> outputs_;
  std::vector<OpAttrDef> attrs_;
  std::vector<OpSubgraphDef> subgraphs_;
  std::map<std::string, TensorType> type_constraints_;
  InferFunc infer_shape_;
  InferFunc infer_format_;
  InferFunc verify_;
  OpTraits traits_;
};

/// Builds an OpProto; reads like GE's REG_OP:
///   OpProtoBuilder("LeakyRelu")
///       .TypeConstraint("T", TensorType::FloatingDataType())
///       .Input("x", "T").Output("y", "T")
///       .Attr("alpha", 0.01f)
///       .InferShape(SameShapeAsInput0)
/// Mistakes in the declaration (duplicate names, an undeclared or empty type symbol, a default
/// of the wrong kind) are collected and reported together by Build().
class GE_API OpProtoBuilder {
 public:
  explicit OpProtoBuilder(std::string type);

  /// Declares a named type variable (ONNX's "T"): every input/output using it has the same dtype.
  OpProtoBuilder& TypeConstraint(const std::string& symbol, TensorType types);

  OpProtoBuilder& Input(const std::string& name, TensorType types);
  OpProtoBuilder& Input(const std::string& name, const char* type_symbol);
  OpProtoBuilder& OptionalInput(const std::string& name, TensorType types);
  OpProtoBuilder& OptionalInput(const std::string& name, const char* type_symbol);
  OpProtoBuilder& DynamicInput(const std::string& name, TensorType types);
  OpProtoBuilder& DynamicInput(const std::string& name, const char* type_symbol);
  OpProtoBuilder& Output(const std::string& name, TensorType types);
  OpProtoBuilder& Output(const std::string& name, const char* type_symbol);
  OpProtoBuilder& DynamicOutput(const std::string& name, TensorType types);
  OpProtoBuilder& DynamicOutput(const std::string& name, const char* type_symbol);

  /// An attribute that every node must carry.
  OpProtoBuilder& RequiredAttr(const std::string& name, AttrValue::Type type);
  /// An attribute with a default; its type is the default's type.
  OpProtoBuilder& Attr(const std::string& name, AttrValue default_value);
  /// An attribute that a node may carry and that has no default: its absence means something of
  /// its own (ONNX's Shape `end`, the losses' `ignore_index`).
  OpProtoBuilder& OptionalAttr(const std::string& name, AttrValue::Type type);

  OpProtoBuilder& Graph(const std::string& name);         ///< a fixed subgraph
  OpProtoBuilder& DynamicGraph(const std::string& name);  ///< a variable number of subgraphs

  OpProtoBuilder& InferShape(InferFunc func);
  OpProtoBuilder& InferFormat(InferFunc func);
  /// Op-specific checks, run after the generic ones (dtypes, required attrs, input counts).
  OpProtoBuilder& Verify(InferFunc func);

  /// Output 0 is a view of input `input` (see OpTraits).
  OpProtoBuilder& ViewOf(int input);
  /// Output i is input i.
  OpProtoBuilder& PassThrough();
  /// Output 0 is input `input`'s memory, written by the op (Assign); implies Impure.
  OpProtoBuilder& UpdatesInput(int input);
  /// Has state or randomness.
  OpProtoBuilder& Impure();
  /// Nodes of this type are removed by the compiler pass `pass`, which `option` switches on
  /// (empty when the pass always runs).
  OpProtoBuilder& DeletedBy(std::string pass, std::string option = "");
  /// Nodes of this type are GeDeletedOps that no pass of this compiler removes: `what` says what
  /// should have removed them before compilation (e.g. a framework's control-flow conversion).
  OpProtoBuilder& DeletedBefore(std::string what);
  /// The type is this control-flow operator (its ports and subgraphs must be that kind's).
  OpProtoBuilder& ControlFlow(ControlFlowKind kind);
  /// Elementwise over the inputs `kind` names (see OpTraits): one output (a dynamic one for
  /// FusedElementwise, each of its outputs elementwise), and the data inputs `kind` needs
  /// (checked at Build).
  OpProtoBuilder& Elementwise(ElementwiseKind kind);

  /// The prototype, or an error naming the op type and every mistake in the declaration.
  Result<OpProto> Build();

 private:
  // Inputs and outputs share one namespace; attributes and subgraphs have their own (as in GE
  // and ONNX, where an input and an attribute may both be called "axes").
  // Inputs and outputs are named apart: an op that updates an input may give its output the
  // input's name (GE's Assign: input ref, output ref).
  enum class NameKind : uint8_t { kInput, kOutput, kAttr, kGraph };
  std::string SymbolFor(const std::string& port, TensorType types);
  void CheckName(const std::string& name, NameKind kind);
  void CheckTraits();
  void CheckElementwise();

  OpProto proto_;
  std::vector<std::string> errors_;
  std::vector<std::string> names_[4];
};

}  // namespace ge

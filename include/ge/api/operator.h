// ge::Operator: one operator of a graph built in code, in the spelling of GE's graph construction
// API. An Operator is a handle: copies refer to the same operator, so `conv.SetInput("x", data)`
// links whichever copy of `data` the caller holds. Its OpDesc comes from the operator's prototype
// (ports, attribute defaults, inference), so only declared inputs, outputs and attributes exist.
//
// Calls that return Operator& (SetInput, SetAttr, AddControlInput) chain, as in GE; a mistake in
// one (an input or output name the prototype does not declare, an index out of range) is kept on
// the operator and reported when a graph is made from it, and is this thread's last error
// (GEGetErrorMsg) at once. Calls that return a graphStatus report their own failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ge/api/ascend_string.h"
#include "ge/api/ge_error_codes.h"
#include "ge/api/tensor.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/fwd.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

class Graph;
class OperatorImpl;
using SubgraphBuilder = std::function<Graph()>;
using OperatorImplPtr = std::shared_ptr<OperatorImpl>;

class GE_API Operator {
 public:
  using OpInt = int64_t;
  using OpFloat = float;
  using OpString = std::string;
  using OpAscendString = AscendString;
  using OpBool = bool;
  using OpTensor = Tensor;
  using OpType = DataType;
  using OpNamedAttrs = NamedAttrs;
  using OpListInt = std::vector<int64_t>;
  using OpListFloat = std::vector<float>;
  using OpListString = std::vector<std::string>;
  using OpListAscendString = std::vector<AscendString>;
  using OpListBool = std::vector<bool>;
  using OpListTensor = std::vector<Tensor>;
  using OpBytes = std::vector<uint8_t>;
  using OpListListInt = std::vector<std::vector<int64_t>>;
  using OpListType = std::vector<DataType>;
  using OpListNamedAttrs = std::vector<NamedAttrs>;

  /// An empty handle (IsEmpty).
  Operator() = default;
  /// An operator of `type` named "<type>_<n>" (n counts the process's unnamed operators).
  explicit Operator(const char* type);
  explicit Operator(const std::string& type) : Operator(type.c_str()) {}
  /// An operator of the registered `type` named `name`; the operator prototype libraries are
  /// loaded on first use. An unregistered type gives an operator with no ports whose error names
  /// the type.
  Operator(const char* name, const char* type);
  Operator(const std::string& name, const std::string& type)
      : Operator(name.c_str(), type.c_str()) {}
  Operator(const AscendString& name, const AscendString& type)
      : Operator(name.GetString(), type.GetString()) {}
  virtual ~Operator() = default;
  Operator(const Operator&) = default;
  Operator& operator=(const Operator&) = default;
  Operator(Operator&&) = default;
  Operator& operator=(Operator&&) = default;

  bool IsEmpty() const { return impl_ == nullptr; }
  std::string GetName() const;
  graphStatus GetName(AscendString& name) const;
  std::string GetOpType() const;
  graphStatus GetOpType(AscendString& type) const;

  // ---- inputs ----
  /// Input `dst_name` reads output 0 of `src_oprt`.
  Operator& SetInput(const char* dst_name, const Operator& src_oprt);
  Operator& SetInput(const char* dst_name, const Operator& src_oprt, const char* name);
  Operator& SetInput(const char* dst_name, const Operator& src_oprt, uint32_t index);
  /// The same for a literal index (`SetInput("x", split, 1)`), which would otherwise be ambiguous
  /// between the index and the name forms.
  Operator& SetInput(const char* dst_name, const Operator& src_oprt, int index) {
    return SetInput(dst_name, src_oprt, static_cast<uint32_t>(index));
  }
  Operator& SetInput(const std::string& dst_name, const Operator& src_oprt) {
    return SetInput(dst_name.c_str(), src_oprt);
  }
  Operator& SetInput(const std::string& dst_name, const Operator& src_oprt,
                     const std::string& name) {
    return SetInput(dst_name.c_str(), src_oprt, name.c_str());
  }
  Operator& SetInput(const std::string& dst_name, const Operator& src_oprt, uint32_t index) {
    return SetInput(dst_name.c_str(), src_oprt, index);
  }
  /// Instance `dst_index` of the dynamic input `dst_name` reads output `index` (or the output
  /// named `name`) of `src_oprt`.
  Operator& SetInput(const char* dst_name, uint32_t dst_index, const Operator& src_oprt,
                     uint32_t index = 0);
  Operator& SetInput(const char* dst_name, uint32_t dst_index, const Operator& src_oprt,
                     const char* name);
  /// `src_oprt` runs before this operator.
  Operator& AddControlInput(const Operator& src_oprt);
  /// The value of input `dst_name` when it is fed by a Const.
  graphStatus GetInputConstData(const char* dst_name, Tensor& data) const;

  // ---- descs ----
  TensorDesc GetInputDesc(uint32_t index) const;
  TensorDesc GetInputDesc(const std::string& name) const {
    return GetInputDescByName(name.c_str());
  }
  TensorDesc GetInputDescByName(const char* name) const;
  graphStatus TryGetInputDesc(const char* name, TensorDesc& tensor_desc) const;
  graphStatus UpdateInputDesc(const char* name, const TensorDesc& tensor_desc);
  graphStatus UpdateInputDesc(const std::string& name, const TensorDesc& tensor_desc) {
    return UpdateInputDesc(name.c_str(), tensor_desc);
  }
  TensorDesc GetOutputDesc(uint32_t index) const;
  TensorDesc GetOutputDesc(const std::string& name) const {
    return GetOutputDescByName(name.c_str());
  }
  TensorDesc GetOutputDescByName(const char* name) const;
  graphStatus UpdateOutputDesc(const char* name, const TensorDesc& tensor_desc);
  graphStatus UpdateOutputDesc(const std::string& name, const TensorDesc& tensor_desc) {
    return UpdateOutputDesc(name.c_str(), tensor_desc);
  }
  TensorDesc GetDynamicInputDesc(const char* name, uint32_t index) const;
  graphStatus UpdateDynamicInputDesc(const char* name, uint32_t index,
                                     const TensorDesc& tensor_desc);
  TensorDesc GetDynamicOutputDesc(const char* name, uint32_t index) const;
  graphStatus UpdateDynamicOutputDesc(const char* name, uint32_t index,
                                      const TensorDesc& tensor_desc);
  /// How many instances the dynamic input (output) `name` has.
  int GetDynamicInputNum(const char* name) const;
  int GetDynamicOutputNum(const char* name) const;
  /// Adds `num` instances of the dynamic input `name` at its end (or its front).
  Operator& DynamicInputRegister(const char* name, uint32_t num, bool is_push_back = true);
  Operator& DynamicOutputRegister(const char* name, uint32_t num, bool is_push_back = true);
  /// Adds `num` instances of the dynamic input `name` before input `index`.
  Operator& DynamicInputRegisterByIndex(const char* name, uint32_t num, size_t index);
  size_t GetInputsSize() const;
  size_t GetOutputsSize() const;

  /// Runs the prototype's shape and type inference on this operator alone, from its input descs.
  graphStatus InferShapeAndType();
  /// The prototype's checks: input count, required attributes, attribute kinds, allowed types.
  graphStatus VerifyAllAttr(bool disable_common_verifier = false);

  // ---- attributes ----
  Operator& SetAttr(const char* name, int64_t attr_value);
  Operator& SetAttr(const char* name, int32_t attr_value);
  Operator& SetAttr(const char* name, uint32_t attr_value);
  Operator& SetAttr(const char* name, const std::vector<int64_t>& attr_value);
  Operator& SetAttr(const char* name, const std::vector<int32_t>& attr_value);
  Operator& SetAttr(const char* name, const std::vector<uint32_t>& attr_value);
  Operator& SetAttr(const char* name, std::initializer_list<int64_t>&& attr_value);
  Operator& SetAttr(const char* name, float attr_value);
  Operator& SetAttr(const char* name, const std::vector<float>& attr_value);
  Operator& SetAttr(const char* name, AttrValue&& attr_value);
  Operator& SetAttr(const char* name, const char* attr_value);
  Operator& SetAttr(const char* name, const std::string& attr_value);
  Operator& SetAttr(const char* name, const AscendString& attr_value);
  Operator& SetAttr(const char* name, const std::vector<std::string>& attr_value);
  Operator& SetAttr(const char* name, const std::vector<AscendString>& attr_values);
  Operator& SetAttr(const char* name, bool attr_value);
  Operator& SetAttr(const char* name, const std::vector<bool>& attr_value);
  Operator& SetAttr(const char* name, const Tensor& attr_value);
  Operator& SetAttr(const char* name, const std::vector<Tensor>& attr_value);
  Operator& SetAttr(const char* name, const OpBytes& attr_value);
  Operator& SetAttr(const char* name, const std::vector<std::vector<int64_t>>& attr_value);
  Operator& SetAttr(const char* name, const std::vector<DataType>& attr_value);
  Operator& SetAttr(const char* name, const DataType& attr_value);
  Operator& SetAttr(const char* name, const NamedAttrs& attr_value);
  Operator& SetAttr(const char* name, const std::vector<NamedAttrs>& attr_value);
  /// The same with the name as a std::string.
  template <typename S, typename T,
            typename = std::enable_if_t<std::is_same_v<std::decay_t<S>, std::string>>>
  Operator& SetAttr(S&& name, T&& attr_value) {
    return SetAttr(name.c_str(), std::forward<T>(attr_value));
  }

  /// GRAPH_FAILED (and the last error) when the attribute is absent or of another kind.
  graphStatus GetAttr(const char* name, int64_t& attr_value) const;
  graphStatus GetAttr(const char* name, int32_t& attr_value) const;
  graphStatus GetAttr(const char* name, uint32_t& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<int64_t>& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<int32_t>& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<uint32_t>& attr_value) const;
  graphStatus GetAttr(const char* name, float& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<float>& attr_value) const;
  graphStatus GetAttr(const char* name, AttrValue& attr_value) const;
  graphStatus GetAttr(const char* name, std::string& attr_value) const;
  graphStatus GetAttr(const char* name, AscendString& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<std::string>& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<AscendString>& attr_values) const;
  graphStatus GetAttr(const char* name, bool& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<bool>& attr_value) const;
  graphStatus GetAttr(const char* name, Tensor& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<Tensor>& attr_value) const;
  graphStatus GetAttr(const char* name, OpBytes& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<std::vector<int64_t>>& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<DataType>& attr_value) const;
  graphStatus GetAttr(const char* name, DataType& attr_value) const;
  graphStatus GetAttr(const char* name, NamedAttrs& attr_value) const;
  graphStatus GetAttr(const char* name, std::vector<NamedAttrs>& attr_value) const;
  template <typename S, typename T,
            typename = std::enable_if_t<std::is_same_v<std::decay_t<S>, std::string>>>
  graphStatus GetAttr(S&& name, T& attr_value) const {
    return GetAttr(name.c_str(), attr_value);
  }
  /// Attribute name → kind ("VT_INT", "VT_LIST_FLOAT", …, GE's names).
  graphStatus GetAllAttrNamesAndTypes(std::map<AscendString, AscendString>& attr_name_types) const;

  // ---- subgraphs ----
  size_t GetSubgraphNamesCount() const;
  graphStatus GetSubgraphNames(std::vector<AscendString>& names) const;
  /// The builder of subgraph `name` (instance `index` of a dynamic one); empty when unset.
  SubgraphBuilder GetSubgraphBuilder(const char* name) const;
  SubgraphBuilder GetDynamicSubgraphBuilder(const char* name, uint32_t index) const;
  /// What the builder makes.
  Graph GetSubgraph(const char* name) const;
  Graph GetDynamicSubgraph(const char* name, uint32_t index) const;
  /// Sets the builder of subgraph `ir_name` (instance `index` of a dynamic one).
  Operator& SetSubgraphBuilder(const char* ir_name, uint32_t index, const SubgraphBuilder& builder);
  /// Makes the dynamic subgraph `ir_name` have `count` instances.
  Operator& SubgraphCountRegister(const char* ir_name, uint32_t count);

  /// Drops this operator's links to its producers (a graph that links operators in a cycle
  /// holds them alive until one is broken).
  void BreakConnect() const;

  /// The OpDesc this operator edits (shared, not a copy): for code that moves between the API and
  /// the IR. Null for an empty handle.
  OpDescPtr GetOpDesc() const;
  /// The implementation, for Graph and GraphUtilsEx.
  const OperatorImplPtr& GetImpl() const { return impl_; }
  /// An operator that edits `op_desc` itself (e.g. a node of a ComputeGraph).
  static Operator FromOpDesc(const OpDescPtr& op_desc);

 private:
  friend class Graph;
  explicit Operator(OperatorImplPtr impl) : impl_(std::move(impl)) {}
  Operator& SetAttrValue(const char* name, AttrValue value);
  const AttrValue* FindAttr(const char* name, AttrValue::Type type) const;

  OperatorImplPtr impl_;
};

}  // namespace ge

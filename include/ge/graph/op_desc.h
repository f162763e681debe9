// OpDesc: an operator's name, type, input/output tensor descs (by index and by name), attributes,
// IR metadata from its prototype, and the compile state filled in by later stages.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/fwd.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// How a prototype declares an input (GE's IrInputType).
enum IrInputType : int32_t { kIrInputRequired = 0, kIrInputOptional = 1, kIrInputDynamic = 2 };
/// How a prototype declares an output.
enum IrOutputType : int32_t { kIrOutputRequired = 0, kIrOutputDynamic = 1 };
/// How a prototype declares a subgraph.
enum SubgraphType : int32_t { kStatic = 0, kDynamic = 1 };

/// What a node's functions know of its inputs beyond their descs, when it sits in a graph: the
/// value of each input a constant feeds (null where not known) and which inputs are unlinked.
/// Both may be shorter than the inputs; a lone OpDesc passes them empty.
struct InferInputs {
  std::vector<const GeTensor*> values;
  std::vector<bool> absent;
};

/// Functions a prototype attaches to every OpDesc it creates (GE's infer, infer-format and
/// verify functions); shape inference and verification of a graph call them.
using InferShapeFunc = std::function<Status(OpDesc&, const InferInputs&)>;
using InferFormatFunc = std::function<Status(OpDesc&, const InferInputs&)>;
using VerifyFunc = std::function<Status(const OpDesc&, const InferInputs&)>;

class GE_API OpDesc : public AttrHolder, public std::enable_shared_from_this<OpDesc> {
 public:
  OpDesc();
  OpDesc(std::string name, std::string type);
  ~OpDesc();
  /// Deep copy: descs and attributes are copied, functions shared.
  OpDesc(const OpDesc& other);
  OpDesc& operator=(const OpDesc& other) = delete;

  const std::string& GetName() const;
  void SetName(std::string name);
  const std::string& GetType() const;
  /// Changing the type drops the infer, format and verify functions (they are the old type's).
  void SetType(std::string type);

  // ---- inputs ----
  /// Appends an input named "__input<i>".
  Status AddInputDesc(const GeTensorDesc& desc);
  /// Appends a named input; fails if the name is taken.
  Status AddInputDesc(const std::string& name, const GeTensorDesc& desc);
  /// Inserts a named input at `index` (0 ≤ index ≤ count); later inputs move up by one.
  Status AddInputDesc(uint32_t index, const std::string& name, const GeTensorDesc& desc);
  /// Appends `num` inputs named name0 … name<num-1> (or inserts them at the front).
  Status AddDynamicInputDesc(const std::string& name, uint32_t num, bool is_push_back = true);
  /// Inserts `num` inputs named name0 … at `index`.
  Status AddDynamicInputDescByIndex(const std::string& name, uint32_t num, size_t index);
  /// Inserts `num` inputs named name0 … at the front (GE's AddInputDescForward).
  Status AddInputDescForward(const std::string& name, uint32_t num);
  /// Declares that the input called `name` may stay unlinked; adds it (invalid, DT_UNDEFINED) if
  /// absent.
  Status AddOptionalInputDesc(const std::string& name, const GeTensorDesc& desc);
  bool IsOptionalInput(const std::string& name) const;
  bool IsOptionalInput(uint32_t index) const;
  Status UpdateInputDesc(uint32_t index, const GeTensorDesc& desc);
  Status UpdateInputDesc(const std::string& name, const GeTensorDesc& desc);
  /// Renames inputs without moving them: every name in `renames` must exist, new names be free.
  Status UpdateInputName(const std::map<std::string, std::string>& renames);
  /// Removes the input at `index`; later inputs move down by one.
  Status RemoveInputDesc(uint32_t index);
  bool InputIsSet(const std::string& name) const;

  size_t GetInputsSize() const;  ///< inputs whose desc is valid (GE's GetInputsSize)
  size_t GetAllInputsSize() const;
  const GeTensorDesc& GetInputDesc(uint32_t index) const;  ///< an empty desc when out of range
  const GeTensorDesc& GetInputDesc(const std::string& name) const;
  GeTensorDescPtr MutableInputDesc(uint32_t index) const;  ///< nullptr when out of range
  GeTensorDescPtr MutableInputDesc(const std::string& name) const;
  const GeTensorDesc* GetInputDescPtr(uint32_t index) const;
  std::vector<GeTensorDescPtr> GetAllInputsDescPtr() const;
  std::string GetInputNameByIndex(uint32_t index) const;       ///< "" when out of range
  int32_t GetInputIndexByName(const std::string& name) const;  ///< -1 when absent
  /// Input names in index order.
  std::vector<std::string> GetAllInputNames() const;

  // ---- outputs ----
  Status AddOutputDesc(const GeTensorDesc& desc);  ///< named "__output<i>"
  Status AddOutputDesc(const std::string& name, const GeTensorDesc& desc);
  Status AddDynamicOutputDesc(const std::string& name, uint32_t num, bool is_push_back = true);
  Status UpdateOutputDesc(uint32_t index, const GeTensorDesc& desc);
  Status UpdateOutputDesc(const std::string& name, const GeTensorDesc& desc);
  Status UpdateOutputName(const std::map<std::string, std::string>& renames);
  Status RemoveOutputDesc(uint32_t index);
  size_t GetOutputsSize() const;
  size_t GetAllOutputsDescSize() const { return GetOutputsSize(); }
  const GeTensorDesc& GetOutputDesc(uint32_t index) const;
  const GeTensorDesc& GetOutputDesc(const std::string& name) const;
  GeTensorDescPtr MutableOutputDesc(uint32_t index) const;
  GeTensorDescPtr MutableOutputDesc(const std::string& name) const;
  const GeTensorDesc* GetOutputDescPtr(uint32_t index) const;
  std::vector<GeTensorDescPtr> GetAllOutputsDescPtr() const;
  std::string GetOutputNameByIndex(uint32_t index) const;
  int32_t GetOutputIndexByName(const std::string& name) const;
  std::vector<std::string> GetAllOutputNames() const;

  // ---- IR metadata (copied from the operator prototype) ----
  void AppendIrInput(std::string name, IrInputType type);
  const std::vector<std::pair<std::string, IrInputType>>& GetIrInputs() const;
  void AppendIrOutput(std::string name, IrOutputType type);
  const std::vector<std::pair<std::string, IrOutputType>>& GetIrOutputs() const;
  void AppendIrAttrName(std::string name);
  const std::vector<std::string>& GetIrAttrNames() const;

  // ---- subgraphs ----
  /// Declares a subgraph IR name (e.g. "then_branch"); instance names are set per index.
  Status AddSubgraphName(const std::string& ir_name, SubgraphType type = kStatic);
  const std::map<std::string, SubgraphType>& GetSubgraphIrNames() const;
  /// IR subgraph name → its index among the subgraph instances (the order AddSubgraphName
  /// declared them in; a dynamic subgraph's first instance).
  const std::map<std::string, uint32_t>& GetSubgraphNameIndexes() const;
  /// Instance names in subgraph-index order ("" for an unset slot).
  const std::vector<std::string>& GetSubgraphInstanceNames() const;
  Status SetSubgraphInstanceName(uint32_t index, const std::string& instance_name);
  void AddSubgraphInstanceName(const std::string& instance_name);
  void RemoveSubgraphInstanceName(const std::string& instance_name);
  std::string GetSubgraphInstanceName(uint32_t index) const;

  // ---- functions from the prototype ----
  void SetInferShapeFunc(InferShapeFunc func);
  const InferShapeFunc& GetInferShapeFunc() const;
  void SetInferFormatFunc(InferFormatFunc func);
  const InferFormatFunc& GetInferFormatFunc() const;
  void SetVerifyFunc(VerifyFunc func);
  const VerifyFunc& GetVerifyFunc() const;
  /// Runs the infer-shape function; a missing function is an error naming the node and type.
  Status InferShapeAndType(const InferInputs& inputs = {});
  /// Runs the infer-format function if any (without one, formats stay as they are).
  Status InferFormat(const InferInputs& inputs = {});
  /// Runs the verify function if any.
  Status Verify(const InferInputs& inputs = {}) const;

  // ---- compile state (OpDef fields 21–32 of ge_ir.proto) ----
  int64_t GetId() const;
  void SetId(int64_t id);
  int64_t GetStreamId() const;
  void SetStreamId(int64_t stream_id);
  const std::vector<int64_t>& GetInputOffset() const;
  void SetInputOffset(std::vector<int64_t> offsets);
  const std::vector<int64_t>& GetOutputOffset() const;
  void SetOutputOffset(std::vector<int64_t> offsets);
  const std::vector<int64_t>& GetWorkspace() const;
  void SetWorkspace(std::vector<int64_t> offsets);
  const std::vector<int64_t>& GetWorkspaceBytes() const;
  void SetWorkspaceBytes(std::vector<int64_t> bytes);
  const std::vector<bool>& GetIsInputConst() const;
  void SetIsInputConst(std::vector<bool> is_input_const);
  const std::vector<std::string>& GetInputName() const;  ///< OpDef input_name (producer names)
  void SetInputName(std::vector<std::string> names);
  const std::vector<std::string>& GetSrcName() const;
  void SetSrcName(std::vector<std::string> names);
  const std::vector<int64_t>& GetSrcIndex() const;
  void SetSrcIndex(std::vector<int64_t> idx);
  const std::vector<std::string>& GetDstName() const;
  void SetDstName(std::vector<std::string> names);
  const std::vector<int64_t>& GetDstIndex() const;
  void SetDstIndex(std::vector<int64_t> idx);
  const std::string& GetOpEngineName() const;
  void SetOpEngineName(std::string name);
  const std::string& GetOpKernelLibName() const;
  void SetOpKernelLibName(std::string name);

  /// Everything equal (name, type, descs, names, attrs, IR metadata, compile state); functions
  /// are not compared.
  bool operator==(const OpDesc& other) const;
  bool operator!=(const OpDesc& other) const { return !(*this == other); }

 private:
  Status TagWithNode(Status status, const char* what) const;
  friend class Node;  // records which node holds this OpDesc, so renames reach the graph's index
  friend class OpDescUtils;  // refuses edits that would leave a node's anchors out of step
  void SetOwnerNode(Node* node);
  Node* GetOwnerNode() const;
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

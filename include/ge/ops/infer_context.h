// InferContext: what an infer-shape / verify function sees of one op: its input descs, output
// descs, attributes (with the prototype's defaults) and the values of constant inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/visibility.h"
#include "ge/ops/op_proto.h"

namespace ge {

class GE_API InferContext {
 public:
  /// `proto` may be null (then attribute defaults and IR names are unavailable).
  InferContext(OpDesc& op, const OpProto* proto);

  /// Makes the value of input `index` known (the tensor must outlive the context).
  void SetConstInput(size_t index, const GeTensor* tensor);
  /// Marks input `index` as not fed (an unlinked optional input of a graph node).
  void SetInputAbsent(size_t index);

  OpDesc& op() { return op_; }
  const OpDesc& op() const { return op_; }
  const OpProto* proto() const { return proto_; }
  const std::string& name() const { return op_.GetName(); }
  const std::string& type() const { return op_.GetType(); }

  size_t NumInputs() const { return op_.GetAllInputsSize(); }
  size_t NumOutputs() const { return op_.GetOutputsSize(); }
  /// Input `index` exists, has a valid desc and (for graph nodes) is linked.
  bool HasInput(size_t index) const;
  const GeTensorDesc& InputDesc(size_t index) const { return op_.GetInputDesc(ToU32(index)); }
  const GeShape& InputShape(size_t index) const { return InputDesc(index).GetShape(); }
  DataType InputDataType(size_t index) const { return InputDesc(index).GetDataType(); }
  /// The input's name in messages ("x1", "indices").
  std::string InputName(size_t index) const;
  std::string OutputName(size_t index) const;
  /// Indices of the instances of the IR input `ir_name` (one for a fixed input, N for dynamic).
  std::vector<size_t> InputIndices(const std::string& ir_name) const;

  /// Output desc `index`; null when out of range.
  GeTensorDesc* MutableOutputDesc(size_t index);
  /// Sets shape and dtype of output `index` (origin shape too).
  Status SetOutput(size_t index, const GeShape& shape, DataType dtype);
  /// Sets only the shape; the dtype stays what the generic rules chose.
  Status SetOutputShape(size_t index, const GeShape& shape);
  DataType OutputDataType(size_t index) const;

  /// The value of input `index` when it is known at compile time, else nullptr.
  const GeTensor* GetConstInput(size_t index) const;
  /// The value of an integer (int8..int64, uint8..uint64) const input as int64s; nullopt when
  /// unknown or of another type.
  std::optional<std::vector<int64_t>> GetConstInts(size_t index) const;
  /// The value of a numeric const input as doubles (float16/bf16 included); nullopt when unknown.
  std::optional<std::vector<double>> GetConstFloats(size_t index) const;

  // Attributes: the OpDesc's value, else the prototype's default, else `fallback`.
  bool HasAttr(const std::string& attr) const;
  int64_t AttrInt(const std::string& attr, int64_t fallback = 0) const;
  float AttrFloat(const std::string& attr, float fallback = 0.0F) const;
  bool AttrBool(const std::string& attr, bool fallback = false) const;
  std::string AttrStr(const std::string& attr, const std::string& fallback = "") const;
  std::vector<int64_t> AttrInts(const std::string& attr) const;
  std::vector<float> AttrFloats(const std::string& attr) const;
  DataType AttrDataType(const std::string& attr, DataType fallback = DT_UNDEFINED) const;
  const AttrValue* FindAttr(const std::string& attr) const;

  /// A PARAM_INVALID Status "node 'n' (Type): <message>".
  Status Error(const std::string& message) const;
  /// "input x1 [2,3]" for messages.
  std::string DescribeInput(size_t index) const;

 private:
  static uint32_t ToU32(size_t v) { return static_cast<uint32_t>(v); }
  OpDesc& op_;
  const OpProto* proto_;
  std::vector<const GeTensor*> consts_;
  std::vector<bool> absent_;
};

}  // namespace ge

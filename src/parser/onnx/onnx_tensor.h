// ONNX tensors and types to the IR: element types, TypeProto → GeTensorDesc (symbolic dims kept
// as an attribute), TensorProto → GeTensor (typed fields, raw data or external data files).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "ge/graph/composite_value.h"
#include "ge/graph/file_bytes.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"
#include "onnx_model_reader.h"

namespace ge::onnx_parser {

/// TensorProto.DataType numbers newer than the ONNX headers Debian ships.
inline constexpr int32_t kOnnxFloat8E4M3FN = 17;
inline constexpr int32_t kOnnxFloat8E4M3FNUZ = 18;
inline constexpr int32_t kOnnxFloat8E5M2 = 19;
inline constexpr int32_t kOnnxFloat8E5M2FNUZ = 20;
inline constexpr int32_t kOnnxUint4 = 21;
inline constexpr int32_t kOnnxInt4 = 22;
inline constexpr int32_t kOnnxFloat4E2M1 = 23;
inline constexpr int32_t kOnnxFloat8E8M0 = 24;
inline constexpr int32_t kOnnxUint2 = 25;
inline constexpr int32_t kOnnxInt2 = 26;

/// The IR DataType of an ONNX TensorProto.DataType number; DT_UNDEFINED when it has none.
DataType FromOnnxDataType(int32_t onnx_type);

/// A desc from a value's type. Unknown rank → {-2}; symbolic dims → -1 and kAttrSymbolicDims.
/// Sequences and optionals become DT_VARIANT with their kAttrValueType (composite_value.h); a
/// map gets DT_UNDEFINED with unknown rank.
GeTensorDesc DescFromType(const onnx::TypeProto& type);
/// The value type of a sequence, optional or tensor type; nullopt for a map, an element type the
/// IR lacks, or nesting deeper than kMaxValueNesting.
std::optional<ValueType> ValueTypeFromProto(const onnx::TypeProto& type, int depth);

/// Where tensors' bytes lie: raw data left in the model file by the reader, and external data
/// files beside the model, each mapped once, when a tensor first names it.
class TensorSource {
 public:
  TensorSource(std::string base_dir, InlineWeights inline_weights)
      : base_dir_(std::move(base_dir)), inline_(std::move(inline_weights)) {}

  /// The model's directory, which external data must stay inside.
  const std::string& base_dir() const { return base_dir_; }
  const InlineWeights& inline_weights() const { return inline_; }
  /// The external data file at `real_path` (already resolved and checked), mapped.
  Result<FileBytes> External(const std::string& real_path) const;

 private:
  std::string base_dir_;
  InlineWeights inline_;
  mutable std::map<std::string, FileBytes> externals_;
};

/// Converts an initializer (or a Constant's value). `source` holds the bytes the tensor's
/// proto points to (raw data left in the file, external data); a large tensor's bytes are shared
/// with the mapped file or copied once, never through a temporary. `where` names the tensor's
/// user in messages ("initializer 'w'"). Sizes are checked against the shape for every storage
/// form.
Result<GeTensor> TensorFromProto(const onnx::TensorProto& tensor, const TensorSource& source,
                                 const std::string& where);

}  // namespace ge::onnx_parser

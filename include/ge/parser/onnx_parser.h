// The ONNX frontend: turns an .onnx model (opsets 1 to 17) into a ComputeGraph in the IR's
// operator vocabulary, through the data-driven mapping table of
// src/parser/onnx/op_mapping_table.cc (which also holds each operator's first supported opset).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/op_types.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// The opsets of the default ONNX domain the parser accepts. Each operator has its own minimum
/// in the mapping table: the first version whose semantics the IR implements.
inline constexpr int64_t kOnnxMinOpset = 1;
inline constexpr int64_t kOnnxMaxOpset = 28;
/// The newest opset of the ai.onnx.ml domain (classical machine learning).
inline constexpr int64_t kOnnxMlMaxOpset = 5;

/// Attribute names the parser writes.
// On a GeTensorDesc whose ONNX shape has symbolic dims: kAttrSymbolicDims (ge/graph/ge_tensor.h),
// the dim_param names; those dims are UNKNOWN_DIM (-1) in the shape.
// On a Data node: kAttrDataIndex (ge/graph/op_types.h), its position among the graph inputs.
// On a Data node made from an initializer that is also a graph input: kAttrDefaultValue
// (ge/graph/utils/node_utils.h), the initializer's tensor.
/// On every node made from an ONNX node: the ONNX op type, domain, opset and node name.
inline constexpr char kAttrOnnxOpType[] = "_onnx_op_type";
inline constexpr char kAttrOnnxOpset[] = "_onnx_opset";
inline constexpr char kAttrOnnxNodeName[] = "_onnx_node_name";
/// On a Const node the parser made for an ONNX attribute that the IR takes as an input (e.g.
/// Gather's axis, Concat's axis, Split's sizes before opset 13): "<node>:<IR input name>".
inline constexpr char kAttrMadeConst[] = "_onnx_made_const";
/// On the root graph: the model's default-domain opset.
inline constexpr char kAttrOnnxModelOpset[] = "_onnx_opset";

struct OnnxParseOptions {
  /// Overrides the shapes of graph inputs by name (e.g. fixing a dynamic batch). Each override
  /// must have the input's rank when the input's rank is known.
  std::map<std::string, std::vector<int64_t>> input_shapes;
};

/// Parses the model file at `path`; external data files are looked up beside it. On failure the
/// Status names the file, the node, its op type and opset, and what to do. Every unsupported
/// operator of the model is reported in one error.
GE_API Result<ComputeGraphPtr> ParseOnnxFile(const std::string& path,
                                             const OnnxParseOptions& options = {});

/// Parses a serialized ModelProto held in memory; `base_dir` is where external data files are
/// looked up and `model_name` is used in messages.
GE_API Result<ComputeGraphPtr> ParseOnnxBytes(const std::string& bytes, const std::string& base_dir,
                                              const std::string& model_name,
                                              const OnnxParseOptions& options = {});

/// A serialized onnx.TensorProto (ONNX's test data hold inputs and outputs so) as a tensor, read
/// as an initializer is: every element type, raw or typed fields, external data looked up in
/// `base_dir`. `where` names the tensor in messages; `name` receives the tensor's own name.
GE_API Result<GeTensor> ParseOnnxTensor(const std::string& bytes, const std::string& base_dir,
                                        const std::string& where, std::string* name = nullptr);

/// A serialized ONNX value of type `value_type` (ge/graph/composite_value.h's names): a
/// TensorProto for a tensor type ("" too), a SequenceProto for "seq(...)" and an OptionalProto
/// for "opt(...)", which become their stored DT_VARIANT form. ONNX's test data hold sequence and
/// optional inputs and outputs so; a map, a sparse tensor or a value that is not of that type is
/// an error naming `where`.
GE_API Result<GeTensor> ParseOnnxValue(const std::string& bytes, const std::string& base_dir,
                                       const std::string& where, const std::string& value_type,
                                       std::string* name = nullptr);

/// The IR type an ONNX operator maps to at an opset (domain "" is the default ONNX domain), or
/// nullopt when the mapping table has no row for it.
GE_API std::optional<std::string> OnnxOpToIrType(const std::string& op_type, int64_t opset,
                                                 const std::string& domain = "");

/// Every ONNX op type (default domain) the mapping table knows at some opset, sorted.
GE_API std::vector<std::string> SupportedOnnxOps();

}  // namespace ge

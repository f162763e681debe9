// The ONNX frontend's entry points (include/ge/parser/onnx_parser.h).
#include "ge/parser/onnx_parser.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/ops_proto_manager.h"
#include "onnx_graph_builder.h"
#include "onnx_graph_check.h"
#include "onnx_model_reader.h"
#include "op_mapping_table.h"

namespace ge {

namespace {

/// The graph of a parsed model whose tensors' bytes `tensors` holds.
Result<ComputeGraphPtr> BuildGraph(const onnx::ModelProto& model,
                                   const onnx_parser::TensorSource& tensors,
                                   const std::string& model_name, const OnnxParseOptions& options) {
  // Nodes are made by the operator factory, so the prototypes must be loaded (the built-in
  // library and GE_OPS_PROTO_LIB_PATH's; a caller with more loads them first).
  Status protos = OpsProtoManager::Instance().Initialize({});
  if (!protos.ok()) {
    return std::move(protos).Prefix(model_name + ": loading the operator prototypes");
  }
  onnx_parser::ModelInfo info;
  info.model_name = model_name;
  info.tensors = &tensors;
  GE_RETURN_IF_ERROR(onnx_parser::ReadOpsets(model, info));
  GE_RETURN_IF_ERROR(onnx_parser::CheckNames(model.graph(), info));
  GE_RETURN_IF_ERROR(onnx_parser::CheckAllSupported(model.graph(), info));
  onnx_parser::OnnxGraphBuilder builder(info, options);
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, builder.BuildMain(model.graph()));
  AttrUtils::SetStr(graph, "_onnx_producer", model.producer_name());
  AttrUtils::SetInt(graph, "_onnx_ir_version", model.ir_version());
  return graph;
}

/// Parses `bytes` and builds its graph; large weights are shared with `bytes` when it is a
/// mapping, copied once otherwise.
Result<ComputeGraphPtr> Parse(const FileBytes& bytes, const std::string& base_dir,
                              const std::string& model_name, const OnnxParseOptions& options) {
  onnx::ModelProto model;
  onnx_parser::InlineWeights weights;
  GE_RETURN_IF_ERROR(onnx_parser::ParseModelBytes(bytes, model_name, model, weights));
  const onnx_parser::TensorSource tensors(base_dir, std::move(weights));
  return BuildGraph(model, tensors, model_name, options);
}

}  // namespace

Result<ComputeGraphPtr> ParseOnnxBytes(const std::string& bytes, const std::string& base_dir,
                                       const std::string& model_name,
                                       const OnnxParseOptions& options) {
  return CatchExceptions("ParseOnnxBytes", [&]() -> Result<ComputeGraphPtr> {
    // The caller's bytes, borrowed for the parse: every weight is copied out of them.
    const FileBytes borrowed{
        std::shared_ptr<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                       [](const uint8_t*) {}),
        bytes.size(), false};
    return Parse(borrowed, base_dir, model_name, options);
  });
}

Result<ComputeGraphPtr> ParseOnnxFile(const std::string& path, const OnnxParseOptions& options) {
  return CatchExceptions("ParseOnnxFile", [&]() -> Result<ComputeGraphPtr> {
    // Mapped, not read: weights stay in the file's pages, each shared in place or copied once.
    GE_ASSIGN_OR_RETURN(FileBytes bytes, onnx_parser::MapModelFile(path));
    const std::string base_dir = std::filesystem::path(path).parent_path().string();
    return Parse(bytes, base_dir.empty() ? "." : base_dir, path, options);
  });
}

std::optional<std::string> OnnxOpToIrType(const std::string& op_type, int64_t opset,
                                          const std::string& domain) {
  const onnx_parser::OpMappingRow* row = onnx_parser::FindOpMapping(domain, op_type, opset);
  if (row == nullptr) return std::nullopt;
  return std::string(row->ir_type);
}

std::vector<std::string> SupportedOnnxOps() {
  std::set<std::string> names;
  for (const auto& row : onnx_parser::AllOpMappings()) {
    if (row.domain.empty()) names.emplace(row.onnx_op);
  }
  return {names.begin(), names.end()};
}

}  // namespace ge

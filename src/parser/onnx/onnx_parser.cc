// The ONNX frontend's entry points (include/ge/parser/onnx_parser.h).
#include "ge/parser/onnx_parser.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "ge/graph/utils/attr_utils.h"
#include "onnx_graph_builder.h"
#include "onnx_graph_check.h"
#include "onnx_model_reader.h"
#include "op_mapping_table.h"

namespace ge {

namespace {

/// The graph of a parsed model.
Result<ComputeGraphPtr> BuildGraph(const onnx::ModelProto& model, const std::string& base_dir,
                                   const std::string& model_name, const OnnxParseOptions& options) {
  onnx_parser::ModelInfo info;
  info.model_name = model_name;
  info.base_dir = base_dir;
  GE_RETURN_IF_ERROR(onnx_parser::ReadOpsets(model, info));
  GE_RETURN_IF_ERROR(onnx_parser::CheckNames(model.graph(), info));
  GE_RETURN_IF_ERROR(onnx_parser::CheckAllSupported(model.graph(), info));
  onnx_parser::OnnxGraphBuilder builder(info, options);
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, builder.BuildMain(model.graph()));
  AttrUtils::SetStr(graph, "_onnx_producer", model.producer_name());
  AttrUtils::SetInt(graph, "_onnx_ir_version", model.ir_version());
  return graph;
}

}  // namespace

Result<ComputeGraphPtr> ParseOnnxBytes(const std::string& bytes, const std::string& base_dir,
                                       const std::string& model_name,
                                       const OnnxParseOptions& options) {
  return CatchExceptions("ParseOnnxBytes", [&]() -> Result<ComputeGraphPtr> {
    onnx::ModelProto model;
    GE_RETURN_IF_ERROR(onnx_parser::ParseModelBytes(bytes, model_name, model));
    return BuildGraph(model, base_dir, model_name, options);
  });
}

Result<ComputeGraphPtr> ParseOnnxFile(const std::string& path, const OnnxParseOptions& options) {
  return CatchExceptions("ParseOnnxFile", [&]() -> Result<ComputeGraphPtr> {
    onnx::ModelProto model;
    {
      // The file's bytes go as soon as they are parsed: the weights are then in memory twice at
      // most (the messages, then the graph's tensors), not three times.
      GE_ASSIGN_OR_RETURN(std::string bytes, onnx_parser::ReadFileBytes(path));
      GE_RETURN_IF_ERROR(onnx_parser::ParseModelBytes(bytes, path, model));
    }
    std::string base_dir = std::filesystem::path(path).parent_path().string();
    return BuildGraph(model, base_dir.empty() ? "." : base_dir, path, options);
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

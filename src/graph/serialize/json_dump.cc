// GraphDump::ToJson: a JSON summary of a graph hierarchy (node types, inputs, outputs,
// subgraphs, weight bytes).
#include <cstdio>
#include <map>

#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {

namespace {

/// A JSON string literal.
std::string Str(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", u);
          out += buf;
        } else {
          out += c;  // UTF-8 passes through
        }
    }
  }
  return out + "\"";
}

std::string Dims(const GeShape& shape) {
  std::string out = "[";
  const auto& dims = shape.GetDims();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(dims[i]);
  }
  out += ']';
  return out;
}

std::string Tensor(const GeTensorDesc& desc) {
  std::string out = "\"dtype\": " + Str(TypeUtils::DataTypeToSerialString(desc.GetDataType())) +
                    ", \"format\": " + Str(TypeUtils::FormatToSerialString(desc.GetFormat())) +
                    ", \"shape\": " + Dims(desc.GetShape());
  // Dims known only at run time that have an expression: "symbolic_shape": ["batch","seq",768].
  const auto dims = SymbolicDims(desc);
  bool any = false;
  for (size_t i = 0; dims && i < dims->size(); ++i) {
    any = any || (desc.GetShape().GetDim(i) < 0 && (*dims)[i].has_value());
  }
  if (any) {
    out += ", \"symbolic_shape\": [";
    for (size_t i = 0; i < dims->size(); ++i) {
      const auto& d = (*dims)[i];
      const auto c = d ? d->ConstantValue() : std::nullopt;
      if (i > 0) out += ',';
      if (c) {
        out += std::to_string(*c);
      } else if (d) {
        out += Str(d->ToString());
      } else {
        out += "null";
      }
    }
    out += "]";
  }
  return out;
}

}  // namespace

std::string GraphDump::ToJson(const ComputeGraph& graph) {
  std::map<std::string, size_t> types;
  size_t weight_count = 0;
  uint64_t weight_bytes = 0;
  const std::vector<NodePtr> all = graph.GetAllNodes();
  for (const auto& node : all) {
    ++types[node->GetType()];
    if (!NodeUtils::IsConst(*node)) continue;
    if (const auto* value = AttrUtils::GetPtr<GeTensor>(node->GetOpDesc(), kAttrConstValue)) {
      ++weight_count;
      weight_bytes += value->GetSize();
    }
  }

  std::string out = "{\n  \"graph\": " + Str(graph.GetName()) + ",\n";
  out += "  \"nodes\": " + std::to_string(all.size()) + ",\n";
  out += "  \"direct_nodes\": " + std::to_string(graph.GetDirectNodesSize()) + ",\n";
  out += "  \"node_types\": {";
  bool first = true;
  for (const auto& [type, count] : types) {
    out += std::string(first ? "" : ",") + "\n    " + Str(type) + ": " + std::to_string(count);
    first = false;
  }
  out += types.empty() ? "},\n" : "\n  },\n";

  out += "  \"inputs\": [";
  first = true;
  for (const auto& input : graph.GetInputNodes()) {
    out += std::string(first ? "" : ",") + "\n    {\"name\": " + Str(input->GetName()) +
           ", \"type\": " + Str(input->GetType());
    if (input->GetOpDescBarePtr()->GetOutputsSize() != 0) {
      out += ", " + Tensor(input->GetOpDescBarePtr()->GetOutputDesc(0));
    }
    out += "}";
    first = false;
  }
  out += first ? "],\n" : "\n  ],\n";

  out += "  \"outputs\": [";
  first = true;
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    out += std::string(first ? "" : ",") + "\n    {\"node\": " + Str(node->GetName()) +
           ", \"index\": " + std::to_string(index);
    if (index >= 0 && static_cast<size_t>(index) < node->GetOpDescBarePtr()->GetOutputsSize()) {
      out += ", " + Tensor(node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(index)));
    }
    out += "}";
    first = false;
  }
  out += first ? "],\n" : "\n  ],\n";

  out += "  \"subgraphs\": [";
  first = true;
  for (const auto& node : all) {
    for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      ComputeGraphPtr sub = name.empty() ? nullptr : graph.GetSubgraph(name);
      if (sub == nullptr) continue;
      out += std::string(first ? "" : ",") + "\n    {\"name\": " + Str(name) +
             ", \"parent_node\": " + Str(node->GetName()) +
             ", \"nodes\": " + std::to_string(sub->GetDirectNodesSize()) + "}";
      first = false;
    }
  }
  out += first ? "],\n" : "\n  ],\n";

  out += R"(  "weights": {"count": )" + std::to_string(weight_count) + R"(, "bytes": )" +
         std::to_string(weight_bytes) + "}\n}\n";
  return out;
}

}  // namespace ge

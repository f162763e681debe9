// explorer::Snapshot: a graph at one stage, every drawn node described for the page.
#include <cstdio>
#include <unordered_map>
#include <variant>

#include "ge/compiler/explorer.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/graph/anchor.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/op_types.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge::explorer {
namespace {

constexpr size_t kMaxAttrText = 120;  // longer values are cut, with their length said
constexpr size_t kMaxListItems = 16;

std::string DescText(const GeTensorDesc& desc) {
  return TypeUtils::DataTypeToSerialString(desc.GetDataType()) + SymbolicShapeString(desc);
}

template <typename T>
std::string ScalarText(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, float>) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", static_cast<double>(value));
    return text;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return std::to_string(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "\"" + value + "\"";
  } else if constexpr (std::is_same_v<T, DataType>) {
    return TypeUtils::DataTypeToSerialString(value);
  } else if constexpr (std::is_same_v<T, GeTensor>) {
    return "tensor " + DescText(value.GetTensorDesc());
  } else if constexpr (std::is_same_v<T, GeTensorDesc>) {
    return "desc " + DescText(value);
  } else if constexpr (std::is_same_v<T, ComputeGraphPtr>) {
    return value == nullptr ? "graph (none)" : "graph " + value->GetName();
  } else if constexpr (std::is_same_v<T, NamedAttrs>) {
    return "{" + value.GetName() + "}";
  } else if constexpr (std::is_same_v<T, Buffer>) {
    return std::to_string(value.data.size()) + " bytes";
  } else {
    return "?";
  }
}

template <typename T>
std::string ListText(const std::vector<T>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size() && i < kMaxListItems; ++i) {
    if (i > 0) text += ",";
    if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                  std::is_same_v<T, std::vector<float>>) {
      text += ListText(values[i]);
    } else if constexpr (std::is_same_v<T, bool>) {
      text += values[i] ? "true" : "false";
    } else {
      text += ScalarText(values[i]);
    }
  }
  if (values.size() > kMaxListItems) text += ",… " + std::to_string(values.size()) + " items";
  return text + "]";
}

std::string AttrText(const AttrValue& value) {
  std::string text = std::visit(
      [](const auto& held) -> std::string {
        using T = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "(none)";
        } else if constexpr (std::is_same_v<T, std::vector<bool>> ||
                             std::is_same_v<T, std::vector<int64_t>> ||
                             std::is_same_v<T, std::vector<float>> ||
                             std::is_same_v<T, std::vector<std::string>> ||
                             std::is_same_v<T, std::vector<Buffer>> ||
                             std::is_same_v<T, std::vector<DataType>> ||
                             std::is_same_v<T, std::vector<GeTensor>> ||
                             std::is_same_v<T, std::vector<GeTensorDesc>> ||
                             std::is_same_v<T, std::vector<ComputeGraphPtr>> ||
                             std::is_same_v<T, std::vector<NamedAttrs>> ||
                             std::is_same_v<T, std::vector<std::vector<int64_t>>> ||
                             std::is_same_v<T, std::vector<std::vector<float>>>) {
          return ListText(held);
        } else {
          return ScalarText(held);
        }
      },
      value.variant());
  if (text.size() > kMaxAttrText) {
    text = text.substr(0, kMaxAttrText) + "… (" + std::to_string(text.size()) + " characters)";
  }
  return text;
}

/// A Const that only feeds other nodes: drawn as a badge on each reader.
bool FoldsIntoReaders(const Node& node) {
  if (!IsConstType(node.GetType())) return false;
  if (node.GetOutDataNodesSize() == 0 || !node.GetOutControlNodes().empty()) return false;
  return node.GetInDataNodesSize() == 0 && node.GetInControlNodes().empty();
}

/// A port named by its prototype (or by its index), with its tensor's dtype, shape and format.
PortView Port(const std::string& name, uint32_t index, const GeTensorDesc& desc) {
  PortView port;
  port.name = name.empty() ? std::to_string(index) : name;
  port.dtype = TypeUtils::DataTypeToSerialString(desc.GetDataType());
  port.shape = SymbolicShapeString(desc);
  port.format = TypeUtils::FormatToSerialString(desc.GetFormat());
  return port;
}

NodeView Describe(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  NodeView view;
  view.name = node.GetName();
  view.type = node.GetType();
  view.engine = op.GetOpEngineName();
  std::string kernel;
  if (AttrUtils::GetStr(op, kAttrKernelImpl, kernel)) view.kernel = kernel;
  if (!view.engine.empty()) view.stream = op.GetStreamId();
  const std::vector<int64_t>& offsets = op.GetOutputOffset();
  for (const auto& anchor : node.GetAllInDataAnchors()) {
    const auto index = static_cast<uint32_t>(anchor->GetIdx());
    PortView port = Port(op.GetInputNameByIndex(index), index, op.GetInputDesc(index));
    if (const OutDataAnchorPtr peer = anchor->GetPeerOutAnchor(); peer != nullptr) {
      port.peer = peer->GetOwnerNode()->GetName() + ":" + std::to_string(peer->GetIdx());
    }
    view.inputs.push_back(std::move(port));
  }
  for (const auto& anchor : node.GetAllOutDataAnchors()) {
    const auto index = static_cast<uint32_t>(anchor->GetIdx());
    PortView port = Port(op.GetOutputNameByIndex(index), index, op.GetOutputDesc(index));
    const auto readers = anchor->GetPeerInDataAnchors();
    if (!readers.empty()) {
      port.peer = readers.front()->GetOwnerNode()->GetName();
      if (readers.size() > 1) port.peer += " +" + std::to_string(readers.size() - 1);
    }
    if (index < offsets.size()) port.offset = offsets[index];
    view.outputs.push_back(std::move(port));
  }
  op.GetAttrMap().ForEach([&](const std::string& name, const AttrValue& value) {
    if (name == kAttrFusedFrom) return;  // shown as the originals
    view.attrs.emplace_back(name, AttrText(value));
  });
  AttrUtils::GetListStr(op, kAttrFusedFrom, view.fused_from);
  const ComputeGraph* root = node.GetOwnerComputeGraphBarePtr();
  while (root != nullptr && root->GetParentGraphBarePtr() != nullptr) {
    root = root->GetParentGraphBarePtr();
  }
  for (const std::string& name : op.GetSubgraphInstanceNames()) {
    if (name.empty()) continue;
    const ComputeGraphPtr subgraph = root == nullptr ? nullptr : root->GetSubgraph(name);
    view.subgraphs.emplace_back(name, subgraph == nullptr ? 0 : subgraph->GetAllNodesSize());
  }
  return view;
}

}  // namespace

GraphView Snapshot(const ComputeGraph& graph, const std::string& stage) {
  GraphView view;
  view.stage = stage;
  view.graph = graph.GetName();
  view.all_nodes = graph.GetAllNodesSize();
  const std::vector<NodePtr> nodes = graph.GetDirectNode();
  std::unordered_map<const Node*, int32_t> index;
  index.reserve(nodes.size());
  for (const NodePtr& node : nodes) {
    if (FoldsIntoReaders(*node)) continue;
    index.emplace(node.get(), static_cast<int32_t>(view.nodes.size()));
    view.nodes.push_back(Describe(*node));
  }
  for (const NodePtr& node : nodes) {
    const auto at = index.find(node.get());
    if (at == index.end()) {
      ++view.folded_weights;
      // The weight's badge on each reader, named by the reader's input it feeds.
      const GeTensorDesc& desc = node->GetOpDescBarePtr()->GetOutputDesc(0);
      for (const auto& [reader, anchor] : node->GetOutDataNodesAndAnchors()) {
        const auto reader_at = index.find(reader.get());
        if (reader_at == index.end()) continue;
        NodeView& reader_view = view.nodes[static_cast<size_t>(reader_at->second)];
        const auto input = static_cast<size_t>(anchor->GetIdx());
        const std::string port =
            input < reader_view.inputs.size() ? reader_view.inputs[input].name : node->GetName();
        reader_view.weights.push_back(port + ": " + DescText(desc));
      }
      continue;
    }
    for (const auto& out : node->GetAllOutDataAnchors()) {
      const std::string label =
          DescText(node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(out->GetIdx())));
      for (const auto& in : out->GetPeerInDataAnchors()) {
        const auto to = index.find(in->GetOwnerNode().get());
        if (to == index.end()) continue;
        view.edges.push_back({at->second, to->second, false, label});
      }
    }
    for (const NodePtr& next : node->GetOutControlNodes()) {
      const auto to = index.find(next.get());
      if (to != index.end()) view.edges.push_back({at->second, to->second, true, ""});
    }
  }
  return view;
}

std::vector<GraphView> SnapshotAll(const ComputeGraph& root, const std::string& stage) {
  std::vector<GraphView> views;
  views.push_back(Snapshot(root, stage));
  for (const ComputeGraphPtr& subgraph : root.GetAllSubgraphs()) {
    GraphView view = Snapshot(*subgraph, stage);
    if (const NodePtr parent = subgraph->GetParentNode(); parent != nullptr) {
      view.parent = parent->GetName();
    }
    views.push_back(std::move(view));
  }
  return views;
}

}  // namespace ge::explorer

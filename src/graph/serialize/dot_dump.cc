// GraphDump::ToDot: Graphviz DOT of a graph hierarchy, subgraphs as nested clusters.
#include <unordered_map>

#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/sym_expr.h"

namespace ge {

namespace {

/// A DOT string literal's contents: quotes and backslashes escaped, control bytes dropped.
std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    }
  }
  return out;
}

std::string DescLabel(const GeTensorDesc& desc) {
  return TypeUtils::DataTypeToSerialString(desc.GetDataType()) + SymbolicShapeString(desc);
}

class DotWriter {
 public:
  explicit DotWriter(const ComputeGraph& root) : root_(root) {}

  std::string Write() {
    out_ += "digraph \"" + Escape(root_.GetName()) + "\" {\n";
    out_ += R"(  graph [compound=true, rankdir=TB, fontname="Helvetica", label=")" +
            Escape(root_.GetName()) + "\", labelloc=t];\n";
    out_ +=
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f4f4\", "
        "fontname=\"Helvetica\", fontsize=10];\n";
    out_ += "  edge [fontname=\"Helvetica\", fontsize=8];\n";
    WriteGraph(root_, "  ");
    out_ += edges_;
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  std::string Id(const Node* node) {
    std::string id = "n";
    id += std::to_string(ids_.size());
    auto [it, inserted] = ids_.emplace(node, std::move(id));
    return it->second;
  }

  void WriteNode(const Node& node, const std::string& indent) {
    const OpDesc& op = *node.GetOpDescBarePtr();
    std::string label = Escape(node.GetName()) + "\\n" + Escape(node.GetType());
    if (!op.GetOpEngineName().empty()) {
      label += "\\nengine " + Escape(op.GetOpEngineName()) + ", stream " +
               std::to_string(op.GetStreamId());
    } else if (op.GetStreamId() != 0) {
      label += "\\nstream " + std::to_string(op.GetStreamId());
    }
    out_ += indent + Id(&node) + " [label=\"" + label + "\"];\n";
  }

  void WriteEdges(const Node& node) {
    const std::string dst = Id(&node);
    for (const auto& in : node.GetAllInDataAnchors()) {
      for (Anchor* peer : in->GetPeerAnchorsPtr()) {
        const Node* src = peer->GetOwnerNodeBarePtr();
        if (peer->IsControlAnchor()) {  // out-control -> in-data
          edges_ += "  " + Id(src) + " -> " + dst + " [style=dashed, label=\"ctrl->" +
                    std::to_string(in->GetIdx()) + "\"];\n";
          continue;
        }
        const GeTensorDesc& desc =
            src->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx()));
        edges_ += "  " + Id(src) + " -> " + dst + " [label=\"" + std::to_string(peer->GetIdx()) +
                  "->" + std::to_string(in->GetIdx()) + "\\n" + Escape(DescLabel(desc)) + "\"];\n";
      }
    }
    for (Anchor* peer : node.GetInControlAnchor()->GetPeerAnchorsPtr()) {
      edges_ += "  " + Id(peer->GetOwnerNodeBarePtr()) + " -> " + dst + " [style=dashed" +
                (peer->IsDataAnchor() ? ", label=\"" + std::to_string(peer->GetIdx()) + "->ctrl\""
                                      : std::string()) +
                "];\n";
    }
  }

  void WriteGraph(const ComputeGraph& graph, const std::string& indent) {
    const std::vector<NodePtr> nodes = graph.GetDirectNode();
    if (nodes.empty()) {  // a cluster needs a node for its parent's edge to point at
      out_ += indent + "empty" + std::to_string(empty_count_++) +
              " [label=\"(empty)\", shape=plaintext];\n";
    }
    for (const auto& node : nodes) WriteNode(*node, indent);
    for (const auto& node : nodes) {
      for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        ComputeGraphPtr sub = name.empty() ? nullptr : graph.GetSubgraph(name);
        if (sub == nullptr || !visited_.emplace(sub.get(), true).second) continue;
        const std::string cluster = "cluster_" + std::to_string(cluster_count_++);
        out_ += indent + "subgraph " + cluster + " {\n";
        out_ += indent + "  label=\"" + Escape(name) + " (subgraph of " + Escape(node->GetName()) +
                ")\";\n";
        out_ += indent + "  style=\"rounded,dashed\"; color=\"#888888\";\n";
        const int first_empty = empty_count_;
        WriteGraph(*sub, indent + "  ");
        out_ += indent + "}\n";
        const std::vector<NodePtr> sub_nodes = sub->GetDirectNode();
        const std::string target = !sub_nodes.empty() ? Id(sub_nodes.front().get())
                                                      : "empty" + std::to_string(first_empty);
        edges_ += "  " + Id(node.get()) + " -> " + target + " [lhead=" + cluster +
                  ", style=dotted, arrowhead=empty, label=\"" + Escape(name) + "\"];\n";
      }
    }
    for (const auto& node : nodes) WriteEdges(*node);
  }

  const ComputeGraph& root_;
  std::string out_;
  std::string edges_;
  std::unordered_map<const Node*, std::string> ids_;
  std::unordered_map<const ComputeGraph*, bool> visited_;
  int cluster_count_ = 0;
  int empty_count_ = 0;
};

}  // namespace

std::string GraphDump::ToDot(const ComputeGraph& graph) { return DotWriter(graph).Write(); }

}  // namespace ge

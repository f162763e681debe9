// The golden tests' canonical listing of a graph, and the line diff shown on a mismatch.
#include "graph_listing.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include "ge/graph/anchor.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/types.h"

namespace ge::golden {
namespace {

// Tensors with at most this many elements are listed value by value; larger ones by a hash.
constexpr int64_t kMaxListedElements = 16;

std::string Dims(const GeShape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.GetDims().size(); ++i)
    text += (i == 0 ? "" : ",") + std::to_string(shape.GetDims()[i]);
  return text + "]";
}

// "DT_FLOAT[2,3]"; then, when dims known only at run time have expressions (kAttrSymbolicDims),
// the shape with them ("DT_FLOAT[-1,8] sym[batch*seq,8]"); then the format when it is not ND
// ("DT_FLOAT[1,3,4,4] NCHW").
std::string Desc(const GeTensorDesc& desc) {
  std::string text = TypeUtils::DataTypeToSerialString(desc.GetDataType()) + Dims(desc.GetShape());
  if (!desc.GetShape().IsUnknownDimNum()) {
    const std::string symbolic = SymbolicShapeString(desc);
    if (symbolic != Dims(desc.GetShape())) text += " sym" + symbolic;
  }
  if (desc.GetFormat() != FORMAT_ND)
    text += " " + TypeUtils::FormatToSerialString(desc.GetFormat());
  return text;
}

// The shortest text that reads back as the same value of its type (0.1F is "0.1").
template <typename T>
std::string Float(T value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
  return std::string(buffer, end);
}

std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", static_cast<unsigned char>(c));
      out += escaped;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

template <typename T>
void ListValues(const GeTensor& tensor, std::string& text) {
  const size_t count = tensor.GetSize() / sizeof(T);
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, tensor.GetData().data() + i * sizeof(T), sizeof(T));
    text += (i == 0 ? "" : ", ");
    if constexpr (std::is_floating_point_v<T>) {
      text += Float(value);
    } else {
      text += std::to_string(value);
    }
  }
}

// "DT_FLOAT[2]{1, 2.5}" for small numeric tensors, else the element count and an FNV-1a hash.
std::string Tensor(const GeTensor& tensor) {
  const GeTensorDesc& desc = tensor.GetTensorDesc();
  std::string text = Desc(desc) + "{";
  const int64_t elements = desc.GetShape().GetShapeSize();
  const DataType dtype = desc.GetDataType();
  const bool listed = elements <= kMaxListedElements;
  if (listed && dtype == DT_FLOAT) {
    ListValues<float>(tensor, text);
  } else if (listed && dtype == DT_DOUBLE) {
    ListValues<double>(tensor, text);
  } else if (listed && dtype == DT_INT32) {
    ListValues<int32_t>(tensor, text);
  } else if (listed && dtype == DT_INT64) {
    ListValues<int64_t>(tensor, text);
  } else if (listed && (dtype == DT_BOOL || dtype == DT_UINT8)) {
    ListValues<uint8_t>(tensor, text);
  } else if (listed && dtype == DT_INT8) {
    ListValues<int8_t>(tensor, text);
  } else {
    uint64_t hash = 14695981039346656037ULL;
    for (const uint8_t byte : tensor.GetData()) hash = (hash ^ byte) * 1099511628211ULL;
    char hex[24];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(hash));
    text += std::to_string(tensor.GetSize()) + " bytes, fnv1a " + hex;
  }
  return text + "}";
}

std::string Value(const AttrValue& value);

template <typename T>
std::string One(const T& v) {
  if constexpr (std::is_same_v<T, std::monostate>) {
    return "none";
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return std::to_string(v);
  } else if constexpr (std::is_same_v<T, float>) {
    return Float(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return Quoted(v);
  } else if constexpr (std::is_same_v<T, Buffer>) {
    return "bytes(" + std::to_string(v.data.size()) + ")";
  } else if constexpr (std::is_same_v<T, DataType>) {
    return TypeUtils::DataTypeToSerialString(v);
  } else if constexpr (std::is_same_v<T, GeTensor>) {
    return Tensor(v);
  } else if constexpr (std::is_same_v<T, GeTensorDesc>) {
    return Desc(v);
  } else if constexpr (std::is_same_v<T, ComputeGraphPtr>) {
    return v == nullptr ? "graph(null)" : "graph " + v->GetName();
  } else if constexpr (std::is_same_v<T, NamedAttrs>) {
    std::string text = v.GetName() + "{";
    bool first = true;
    v.GetAttrMap().ForEach([&](const std::string& key, const AttrValue& attr) {
      text += (first ? "" : ", ") + key + "=" + Value(attr);
      first = false;
    });
    return text + "}";
  } else {
    // Lists (std::vector<bool> included, whose elements are proxies).
    std::string text = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      using Element = typename T::value_type;
      text += (i == 0 ? "" : ", ") + One<Element>(static_cast<Element>(v[i]));
    }
    return text + "]";
  }
}

std::string Value(const AttrValue& value) {
  return std::visit([](const auto& v) { return One<std::decay_t<decltype(v)>>(v); },
                    value.variant());
}

// "producer" for output 0, "producer:i" for another; "_" for an input nothing feeds.
std::string Source(const InDataAnchorPtr& in) {
  const OutDataAnchorPtr peer = in->GetPeerOutAnchor();
  if (peer == nullptr) return "_";
  const std::string name = peer->GetOwnerNode()->GetName();
  return peer->GetIdx() == 0 ? name : name + ":" + std::to_string(peer->GetIdx());
}

std::string NodeLine(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::string line = "  " + node.GetName() + " = " + op.GetType() + "(";
  const auto& inputs = node.GetAllInDataAnchors();
  for (size_t i = 0; i < inputs.size(); ++i) line += (i == 0 ? "" : ", ") + Source(inputs[i]);
  line += ")";
  std::set<std::string> controls;
  for (const NodePtr& pred : node.GetInControlNodes()) controls.insert(pred->GetName());
  for (const std::string& pred : controls) line += " ^" + pred;
  if (!op.GetAttrMap().Empty()) {
    line += " {";
    bool first = true;
    op.GetAttrMap().ForEach([&](const std::string& key, const AttrValue& value) {
      line += (first ? "" : ", ") + key + "=" + Value(value);
      first = false;
    });
    line += "}";
  }
  if (op.GetOutputsSize() > 0) {
    line += " ->";
    for (uint32_t i = 0; i < op.GetOutputsSize(); ++i)
      line += (i == 0 ? " " : ", ") + Desc(op.GetOutputDesc(i));
  }
  return line + "\n";
}

// Kahn's algorithm over data and control edges, the ready node with the smallest name first;
// nodes left on a cycle (the verifier refuses those) follow in name order.
std::vector<NodePtr> CanonicalOrder(const ComputeGraph& graph) {
  std::map<std::string, NodePtr> by_name;
  std::map<std::string, std::set<std::string>> preds;
  for (const NodePtr& node : graph.GetDirectNode()) {
    by_name[node->GetName()] = node;
    auto& mine = preds[node->GetName()];
    for (const NodePtr& in : node->GetInNodes()) mine.insert(in->GetName());
  }
  std::set<std::string> ready;
  for (const auto& [name, from] : preds) {
    if (from.empty()) ready.insert(name);
  }
  std::vector<NodePtr> order;
  std::set<std::string> placed;
  while (!ready.empty()) {
    const std::string name = *ready.begin();
    ready.erase(ready.begin());
    placed.insert(name);
    order.push_back(by_name[name]);
    for (const NodePtr& out : by_name[name]->GetOutNodes()) {
      auto& from = preds[out->GetName()];
      from.erase(name);
      if (from.empty() && placed.count(out->GetName()) == 0) ready.insert(out->GetName());
    }
  }
  for (const auto& [name, node] : by_name) {
    if (placed.count(name) == 0) order.push_back(node);
  }
  return order;
}

void ListGraph(const ComputeGraph& graph, std::string& text) {
  text += "graph " + graph.GetName();
  if (const NodePtr parent = graph.GetParentNode(); parent != nullptr)
    text += " (subgraph of " + parent->GetName() + ")";
  text += "\n";
  for (const NodePtr& node : CanonicalOrder(graph)) text += NodeLine(*node);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::string GraphListing(const ComputeGraph& graph) {
  std::string text;
  ListGraph(graph, text);
  std::map<std::string, ComputeGraphPtr> subgraphs;
  for (const ComputeGraphPtr& sub : graph.GetAllSubgraphs()) subgraphs[sub->GetName()] = sub;
  for (const auto& [name, sub] : subgraphs) ListGraph(*sub, text);
  return text;
}

std::string LineDiff(const std::string& expected, const std::string& actual) {
  const std::vector<std::string> a = Lines(expected);
  const std::vector<std::string> b = Lines(actual);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<size_t>> lcs(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;) {
    for (size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::string diff;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      diff += "  " + a[i++] + "\n";
      ++j;
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      diff += "- " + a[i++] + "\n";
    } else {
      diff += "+ " + b[j++] + "\n";
    }
  }
  return diff;
}

}  // namespace ge::golden

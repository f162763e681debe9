// A graph as Python data.
#include "graph_view.h"

#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "errors.h"
#include "ge/graph/anchor.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/sym_expr.h"
#include "ge/session/inference_session.h"
#include "model_source.h"

namespace openge_py {
namespace {

// Known dims as ints; a dim known only at run time as its expression ("batch*seq"), as ONNX
// Runtime gives named dims, or None where it has none.
py::list ShapeOf(const ge::GeTensorDesc& desc) {
  py::list shape;
  const auto symbolic = ge::SymbolicDims(desc);
  const std::vector<int64_t>& dims = desc.GetShape().GetDims();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= 0) {
      shape.append(py::int_(dims[i]));
    } else if (symbolic && i < symbolic->size() && (*symbolic)[i]) {
      shape.append(py::str((*symbolic)[i]->ToString()));
    } else {
      shape.append(py::none());
    }
  }
  return shape;
}

py::dict DescDict(const ge::GeTensorDesc& desc) {
  py::dict d;
  d["type"] = OnnxTypeName(desc.GetDataType());
  d["shape"] = ShapeOf(desc);
  d["format"] = ge::TypeUtils::FormatToSerialString(desc.GetFormat());
  return d;
}

py::object AttrToPython(const ge::AttrValue& value);

template <typename T>
py::list ListOf(const std::vector<T>& values) {
  py::list list;
  for (const T& v : values) list.append(AttrToPython(ge::AttrValue(v)));
  return list;
}

py::object AttrToPython(const ge::AttrValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return py::none();
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                             std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
          return py::cast(v);
        } else if constexpr (std::is_same_v<T, ge::Buffer>) {
          return py::bytes(reinterpret_cast<const char*>(v.data.data()), v.data.size());
        } else if constexpr (std::is_same_v<T, ge::DataType>) {
          return py::str(OnnxTypeName(v));
        } else if constexpr (std::is_same_v<T, ge::GeTensor>) {
          py::object array = ReadOnlyArray(v);
          if (!array.is_none()) return array;
          py::dict d = DescDict(v.GetTensorDesc());
          d["bytes"] = v.GetSize();
          return d;
        } else if constexpr (std::is_same_v<T, ge::GeTensorDesc>) {
          return DescDict(v);
        } else if constexpr (std::is_same_v<T, ge::ComputeGraphPtr>) {
          return v == nullptr ? py::object(py::none()) : py::object(py::str(v->GetName()));
        } else if constexpr (std::is_same_v<T, ge::NamedAttrs>) {
          py::dict attrs;
          v.GetAttrMap().ForEach([&](const std::string& name, const ge::AttrValue& attr) {
            attrs[py::str(name)] = AttrToPython(attr);
          });
          py::dict d;
          d["name"] = v.GetName();
          d["attributes"] = attrs;
          return d;
        } else {
          return ListOf(v);
        }
      },
      value.variant());
}

py::dict NodeDict(const ge::Node& node) {
  const ge::OpDesc& op = *node.GetOpDesc();
  py::dict d;
  d["name"] = op.GetName();
  d["type"] = op.GetType();
  d["engine"] = op.GetOpEngineName().empty() ? py::object(py::none())
                                             : py::object(py::str(op.GetOpEngineName()));
  d["stream"] = op.GetStreamId() >= 0 ? py::object(py::int_(op.GetStreamId())) : py::none();
  py::list inputs;
  for (const ge::InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    py::dict port = DescDict(op.GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
    port["name"] = op.GetInputNameByIndex(static_cast<uint32_t>(in->GetIdx()));
    const ge::OutDataAnchorPtr peer = in->GetPeerOutAnchor();
    port["source"] = peer == nullptr ? py::object(py::none())
                                     : py::object(py::str(peer->GetOwnerNode()->GetName() + ":" +
                                                          std::to_string(peer->GetIdx())));
    inputs.append(port);
  }
  d["inputs"] = inputs;
  py::list outputs;
  for (const ge::OutDataAnchorPtr& out : node.GetAllOutDataAnchors()) {
    py::dict port = DescDict(op.GetOutputDesc(static_cast<uint32_t>(out->GetIdx())));
    port["name"] = op.GetOutputNameByIndex(static_cast<uint32_t>(out->GetIdx()));
    py::list consumers;
    for (const ge::InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
      consumers.append(peer->GetOwnerNode()->GetName() + ":" + std::to_string(peer->GetIdx()));
    }
    port["consumers"] = consumers;
    outputs.append(port);
  }
  d["outputs"] = outputs;
  py::list control;
  for (const ge::NodePtr& pred : node.GetInControlNodes()) control.append(pred->GetName());
  d["control_inputs"] = control;
  py::dict attrs;
  op.GetAttrMap().ForEach([&](const std::string& name, const ge::AttrValue& value) {
    attrs[py::str(name)] = AttrToPython(value);
  });
  d["attributes"] = attrs;
  d["subgraphs"] = py::cast(op.GetSubgraphInstanceNames());
  return d;
}

py::dict OneGraph(const ge::ComputeGraph& graph) {
  py::dict d;
  d["name"] = graph.GetName();
  py::list nodes;
  for (const ge::NodePtr& node : graph.GetDirectNode()) nodes.append(NodeDict(*node));
  d["nodes"] = nodes;
  py::list inputs;
  for (const ge::NodePtr& data : graph.GetInputNodes()) inputs.append(data->GetName());
  d["inputs"] = inputs;
  py::list outputs;
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    outputs.append(node->GetName() + ":" + std::to_string(index));
  }
  d["outputs"] = outputs;
  return d;
}

}  // namespace

py::dict GraphToDict(const ge::ComputeGraph& graph) {
  py::dict d = OneGraph(graph);
  py::dict subgraphs;
  for (const ge::ComputeGraphPtr& sub : graph.GetAllSubgraphs()) {
    subgraphs[py::str(sub->GetName())] = OneGraph(*sub);
  }
  d["subgraphs"] = subgraphs;
  return d;
}

py::dict LoadGraph(const py::object& model) {
  const ge::ModelSource source = SourceOf(model);
  ge::Result<ge::ComputeGraphPtr> graph = ge::InternalError("not read");
  {
    py::gil_scoped_release no_gil;
    graph = ge::ReadGraph(source);
  }
  const ge::ComputeGraphPtr value = ValueOrThrow(std::move(graph), ErrorKind::kModel);
  return GraphToDict(*value);
}

}  // namespace openge_py

// InferShape: dtypes and shapes of every node, in topological order, subgraphs included.
//
// The root graph is sorted first (which also rejects a cycle, naming the nodes on it). Each node
// is inferred through its prototype; for a node with subgraphs, each subgraph is inferred with
// its Data nodes taking the parent's input descs (by _parent_node_index), then the parent's
// outputs are merged from the subgraphs' NetOutputs: If/Case/PartitionedCall take what all
// branches agree on (a dim that differs becomes -1, a rank that differs makes the rank unknown);
// While keeps its inputs' descs, loosened where the body changes them.
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

GeShape MergeShapes(const GeShape& a, const GeShape& b) {
  if (a.IsUnknownDimNum() || b.IsUnknownDimNum() || a.GetDimNum() != b.GetDimNum()) {
    GeShape unknown;
    unknown.SetIsUnknownDimNum();
    return unknown;
  }
  std::vector<int64_t> dims = a.GetDims();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != b.GetDim(i)) dims[i] = UNKNOWN_DIM;
  }
  return GeShape(dims);
}

NodePtr FindNetOutput(const ComputeGraph& graph) {
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() == "NetOutput") return node;
  }
  return nullptr;
}

struct Snapshot {
  std::vector<std::pair<GeShape, DataType>> outputs;
  static Snapshot Of(const OpDesc& op) {
    Snapshot s;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      const GeTensorDesc& d = op.GetOutputDesc(static_cast<uint32_t>(i));
      s.outputs.emplace_back(d.GetShape(), d.GetDataType());
    }
    return s;
  }
  bool operator==(const Snapshot& o) const { return outputs == o.outputs; }
};

class InferShapePass final : public GraphPass {
 public:
  explicit InferShapePass(std::string name) : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    GE_RETURN_IF_ERROR(graph.TopologicalSorting());
    bool changed = false;
    GE_RETURN_IF_ERROR(InferGraph(graph, nullptr, changed));
    return changed;
  }

  Status InferGraph(ComputeGraph& graph, const Node* parent, bool& changed) {
    for (const NodePtr& node : graph.GetDirectNode()) {
      OpDesc& op = *node->GetOpDescBarePtr();
      const Snapshot before = Snapshot::Of(op);
      int64_t parent_index = -1;
      if (parent != nullptr && node->GetType() == "Data" &&
          AttrUtils::GetInt(op, kAttrParentNodeIndex, parent_index)) {
        const OpDesc& parent_op = *parent->GetOpDescBarePtr();
        if (parent_index < 0 ||
            static_cast<size_t>(parent_index) >= parent_op.GetAllInputsSize()) {
          return ParamInvalid("subgraph '" + graph.GetName() + "' input '" + node->GetName() +
                              "' has " + kAttrParentNodeIndex + " " +
                              std::to_string(parent_index) + " but its parent '" +
                              parent->GetName() + "' has " +
                              std::to_string(parent_op.GetAllInputsSize()) + " inputs");
        }
        const GeTensorDesc& from = parent_op.GetInputDesc(static_cast<uint32_t>(parent_index));
        GeTensorDescPtr out = op.MutableOutputDesc(0);
        if (out != nullptr) {
          out->SetShape(from.GetShape());
          out->SetOriginShape(from.GetShape());
          out->SetDataType(from.GetDataType());
          out->SetOriginDataType(from.GetDataType());
        }
      } else {
        Status status = context().registry().Verify(node);
        if (status.ok()) status = context().registry().InferShape(node);
        if (status.ok()) status = context().registry().InferFormat(node);
        if (!status.ok()) {
          return std::move(status).Prefix("shape inference of graph '" + graph.GetName() + "'");
        }
      }
      const std::vector<ComputeGraphPtr> subgraphs = NodeUtils::GetSubgraphs(*node);
      if (!subgraphs.empty()) GE_RETURN_IF_ERROR(InferSubgraphs(*node, subgraphs, changed));
      if (!(Snapshot::Of(op) == before)) {
        changed = true;
        context().CountRewrite();
      }
    }
    return Status::Ok();
  }

  Status InferSubgraphs(const Node& node, const std::vector<ComputeGraphPtr>& subgraphs,
                        bool& changed) {
    for (const ComputeGraphPtr& sub : subgraphs) {
      if (sub == nullptr) continue;
      GE_RETURN_IF_ERROR(InferGraph(*sub, &node, changed));
    }
    OpDesc& op = *node.GetOpDescBarePtr();
    const std::string& type = node.GetType();
    const bool is_loop = type == "While" || type == "_While" || type == "StatelessWhile";
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GeTensorDescPtr out = op.MutableOutputDesc(static_cast<uint32_t>(i));
      bool first = true;
      GeShape merged;
      DataType dtype = DT_UNDEFINED;
      for (size_t g = 0; g < subgraphs.size(); ++g) {
        if (subgraphs[g] == nullptr) continue;
        if (is_loop && g == 0) continue;  // the cond graph has one boolean output
        NodePtr net_output = FindNetOutput(*subgraphs[g]);
        if (net_output == nullptr ||
            i >= net_output->GetOpDescBarePtr()->GetAllInputsSize()) {
          continue;
        }
        const GeTensorDesc& d = net_output->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(i));
        if (first) {
          merged = d.GetShape();
          dtype = d.GetDataType();
          first = false;
        } else {
          merged = MergeShapes(merged, d.GetShape());
        }
      }
      if (first) continue;  // no branch says anything about this output
      if (is_loop) merged = MergeShapes(out->GetShape(), merged);
      out->SetShape(merged);
      out->SetOriginShape(merged);
      if (!is_loop || out->GetDataType() == DT_UNDEFINED) {
        out->SetDataType(dtype);
        out->SetOriginDataType(dtype);
      }
    }
    return Status::Ok();
  }

  std::string name_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateInferShapePass(std::string name) {
  return std::make_unique<InferShapePass>(std::move(name));
}

}  // namespace ge

// InferShape: dtypes and shapes of every node, in topological order, subgraphs included.
//
// The root graph is sorted first (which also rejects a cycle, naming the nodes on it). Each node
// is inferred through its prototype; for a node with subgraphs, each subgraph is inferred with
// its Data nodes taking the parent's input descs (by _parent_node_index), then the parent's
// outputs are merged from the subgraphs' NetOutputs: If/Case/PartitionedCall take what all
// branches agree on (a dim that differs becomes -1, a rank that differs makes the rank unknown);
// While keeps its inputs' descs, loosened where the body changes them.
//
// A branch of an If or Case runs only when its condition says so, and exporters guard a branch
// with a condition on shapes or values (Silero VAD's decoder squeezes a dim that is 1 only at the
// other sample rate): a branch that does not infer at the graph's shapes is inferred again with
// every input dim unknown (its rank kept). It is an error only when it fails that way too, since
// then no shape can make it valid; otherwise its outputs are what it gives then.
#include <algorithm>

#include "ge/compiler/passes.h"
#include "ge/graph/composite_value.h"
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

// ONNX Scan's layout: N states then M scan inputs (num_scan_inputs), axes per scan input/output.
struct ScanLayout {
  size_t states = 0;
  size_t scans = 0;
  std::vector<int64_t> input_axes, output_axes;
  static ScanLayout Of(const OpDesc& op) {
    ScanLayout l;
    int64_t m = 0;
    AttrUtils::GetInt(op, "num_scan_inputs", m);
    size_t n = 0;
    for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
      if (op.GetInputNameByIndex(static_cast<uint32_t>(i))
              .rfind("initial_state_and_scan_inputs", 0) == 0)
        ++n;
    }
    l.scans = std::min<size_t>(static_cast<size_t>(std::max<int64_t>(m, 0)), n);
    l.states = n - l.scans;
    AttrUtils::GetListInt(op, "scan_input_axes", l.input_axes);
    AttrUtils::GetListInt(op, "scan_output_axes", l.output_axes);
    return l;
  }
};

// The desc a subgraph's Data node gets from input `index` of its parent. Mostly the parent's input
// desc; ONNX Loop's body sees the iteration number and the condition as scalars, and ONNX Scan's
// body sees one slice of each scan input (its scan axis removed).
std::pair<GeShape, DataType> BodyInputDesc(const Node& parent, int64_t index) {
  const OpDesc& op = *parent.GetOpDescBarePtr();
  const GeTensorDesc& from = op.GetInputDesc(static_cast<uint32_t>(index));
  if (parent.GetType() == "Loop" && index == 0) return {GeShape(), DT_INT64};
  if (parent.GetType() == "Loop" && index == 1) return {GeShape(), DT_BOOL};
  if (parent.GetType() == "SequenceMap" && from.GetDataType() == DT_VARIANT) {
    // The body sees one element of a sequence it maps over.
    Result<ValueType> type = ValueTypeOf(from);
    if (type.ok() && type->kind == ValueType::Kind::kSequence &&
        type->inner[0].kind == ValueType::Kind::kTensor) {
      return {GeShape({UNKNOWN_DIM_NUM}), type->inner[0].dtype};
    }
  }
  if (parent.GetType() == "Scan") {
    const ScanLayout l = ScanLayout::Of(op);
    const auto i = static_cast<size_t>(index);
    if (i >= l.states && i < l.states + l.scans && !from.GetShape().IsUnknownDimNum()) {
      std::vector<int64_t> dims = from.GetShape().GetDims();
      int64_t axis = i - l.states < l.input_axes.size() ? l.input_axes[i - l.states] : 0;
      if (axis < 0) axis += static_cast<int64_t>(dims.size());
      if (axis >= 0 && static_cast<size_t>(axis) < dims.size()) dims.erase(dims.begin() + axis);
      return {GeShape(dims), from.GetDataType()};
    }
  }
  return {from.GetShape(), from.GetDataType()};
}

// A scan output's shape: the body's per-iteration shape with the (unknown) iteration count inserted
// at `axis`.
GeShape Stacked(const GeShape& slice, int64_t axis) {
  if (slice.IsUnknownDimNum()) return slice;
  std::vector<int64_t> dims = slice.GetDims();
  if (axis < 0) axis += static_cast<int64_t>(dims.size()) + 1;
  axis = std::clamp<int64_t>(axis, 0, static_cast<int64_t>(dims.size()));
  dims.insert(dims.begin() + axis, UNKNOWN_DIM);
  return GeShape(dims);
}

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

  // `loose`: the subgraph's inputs take the parent's ranks with every dim unknown.
  Status InferGraph(ComputeGraph& graph, const Node* parent, bool& changed, bool loose = false) {
    for (const NodePtr& node : graph.GetDirectNode()) {
      OpDesc& op = *node->GetOpDescBarePtr();
      const Snapshot before = Snapshot::Of(op);
      int64_t parent_index = -1;
      if (parent != nullptr && node->GetType() == "Data" &&
          AttrUtils::GetInt(op, kAttrParentNodeIndex, parent_index)) {
        const OpDesc& parent_op = *parent->GetOpDescBarePtr();
        if (parent_index < 0 || static_cast<size_t>(parent_index) >= parent_op.GetAllInputsSize()) {
          return ParamInvalid("subgraph '" + graph.GetName() + "' input '" + node->GetName() +
                              "' has " + kAttrParentNodeIndex + " " + std::to_string(parent_index) +
                              " but its parent '" + parent->GetName() + "' has " +
                              std::to_string(parent_op.GetAllInputsSize()) + " inputs");
        }
        auto [shape, dtype] = BodyInputDesc(*parent, parent_index);
        if (loose && !shape.IsUnknownDimNum()) {
          shape = GeShape(std::vector<int64_t>(shape.GetDimNum(), UNKNOWN_DIM));
        }
        GeTensorDescPtr out = op.MutableOutputDesc(0);
        if (out != nullptr) {
          out->SetShape(shape);
          out->SetOriginShape(shape);
          out->SetDataType(dtype);
          out->SetOriginDataType(dtype);
          // A sequence or optional passed in keeps what it holds (composite_value.h).
          std::string value_type;
          const GeTensorDesc& from =
              parent->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(parent_index));
          if (dtype == DT_VARIANT && AttrUtils::GetStr(from, kAttrValueType, value_type)) {
            (void)AttrUtils::SetStr(*out, kAttrValueType, value_type);
          }
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
    const std::string& type = node.GetType();
    const ControlFlowKind flow = OpRegistry::Instance().TraitsOf(type).control_flow;
    const bool is_branch = flow == ControlFlowKind::kIf || flow == ControlFlowKind::kCase;
    for (const ComputeGraphPtr& sub : subgraphs) {
      if (sub == nullptr) continue;
      Status status = InferGraph(*sub, &node, changed);
      if (!status.ok() && is_branch) {
        if (!InferGraph(*sub, &node, changed, /*loose=*/true).ok()) return status;
        context().Note("branch '" + sub->GetName() + "' of '" + node.GetName() +
                       "' does not infer at the graph's shapes; inferred with its input dims "
                       "unknown (" +
                       status.message() + ")");
        continue;
      }
      GE_RETURN_IF_ERROR(status);
    }
    OpDesc& op = *node.GetOpDescBarePtr();
    if (type == "Loop" || type == "Scan") return MergeOnnxLoop(node, subgraphs);
    if (type == "SequenceMap") return MergeSequenceMap(node, subgraphs);
    const bool is_loop = flow == ControlFlowKind::kWhile || flow == ControlFlowKind::kFor;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GeTensorDescPtr out = op.MutableOutputDesc(static_cast<uint32_t>(i));
      bool first = true;
      GeShape merged;
      DataType dtype = DT_UNDEFINED;
      for (size_t g = 0; g < subgraphs.size(); ++g) {
        if (subgraphs[g] == nullptr) continue;
        // While's cond graph has one boolean output.
        if (flow == ControlFlowKind::kWhile && g == 0) continue;
        NodePtr net_output = FindNetOutput(*subgraphs[g]);
        if (net_output == nullptr || i >= net_output->GetOpDescBarePtr()->GetAllInputsSize()) {
          continue;
        }
        const GeTensorDesc& d =
            net_output->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(i));
        if (first) {
          merged = d.GetShape();
          dtype = d.GetDataType();
          first = false;
          CopyValueType(d, *out);
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

  // ONNX Loop: body outputs are (cond, N carried, K scans); Scan: (N states, K scans). Carried
  // values keep their input descs, loosened where the body changes them; scan outputs stack the
  // body's per-iteration output along a new axis of unknown length.
  static Status MergeOnnxLoop(const Node& node, const std::vector<ComputeGraphPtr>& subgraphs) {
    if (subgraphs.empty() || subgraphs[0] == nullptr) return Status::Ok();
    NodePtr net_output = FindNetOutput(*subgraphs[0]);
    if (net_output == nullptr) return Status::Ok();
    OpDesc& op = *node.GetOpDescBarePtr();
    const OpDesc& body = *net_output->GetOpDescBarePtr();
    const bool loop = node.GetType() == "Loop";
    const size_t skip = loop ? 1 : 0;
    size_t carried = 0;
    std::vector<int64_t> output_axes;
    if (loop) {
      for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
        if (op.GetInputNameByIndex(static_cast<uint32_t>(i)).rfind("v_initial", 0) == 0) ++carried;
      }
    } else {
      const ScanLayout l = ScanLayout::Of(op);
      carried = l.states;
      output_axes = l.output_axes;
    }
    for (size_t i = 0; i < op.GetOutputsSize() && i + skip < body.GetAllInputsSize(); ++i) {
      const GeTensorDesc& d = body.GetInputDesc(static_cast<uint32_t>(i + skip));
      GeTensorDescPtr out = op.MutableOutputDesc(static_cast<uint32_t>(i));
      GeShape shape;
      if (i < carried) {
        shape = MergeShapes(out->GetShape(), d.GetShape());
      } else {
        const size_t k = i - carried;
        shape = Stacked(d.GetShape(), loop || k >= output_axes.size() ? 0 : output_axes[k]);
      }
      out->SetShape(shape);
      out->SetOriginShape(shape);
      if (i >= carried || out->GetDataType() == DT_UNDEFINED) {
        out->SetDataType(d.GetDataType());
        out->SetOriginDataType(d.GetDataType());
      }
      CopyValueType(d, *out);
    }
    return Status::Ok();
  }

  // SequenceMap: output k is the sequence of the body's output k.
  static Status MergeSequenceMap(const Node& node, const std::vector<ComputeGraphPtr>& subgraphs) {
    if (subgraphs.empty() || subgraphs[0] == nullptr) return Status::Ok();
    NodePtr net_output = FindNetOutput(*subgraphs[0]);
    if (net_output == nullptr) return Status::Ok();
    OpDesc& op = *node.GetOpDescBarePtr();
    const OpDesc& body = *net_output->GetOpDescBarePtr();
    for (size_t i = 0; i < op.GetOutputsSize() && i < body.GetAllInputsSize(); ++i) {
      Result<ValueType> element = ValueTypeOf(body.GetInputDesc(static_cast<uint32_t>(i)));
      if (!element.ok() || element->dtype == DT_UNDEFINED) continue;
      SetValueType(*op.MutableOutputDesc(static_cast<uint32_t>(i)), SequenceOf(*element));
    }
    return Status::Ok();
  }

  // What a sequence or optional holds travels out of a subgraph with it (composite_value.h).
  static void CopyValueType(const GeTensorDesc& from, GeTensorDesc& to) {
    std::string value_type;
    if (from.GetDataType() == DT_VARIANT && AttrUtils::GetStr(from, kAttrValueType, value_type)) {
      (void)AttrUtils::SetStr(to, kAttrValueType, value_type);
    }
  }

  std::string name_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateInferShapePass(std::string name) {
  return std::make_unique<InferShapePass>(std::move(name));
}

}  // namespace ge

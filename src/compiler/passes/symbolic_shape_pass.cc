// SymbolicShapes: the dims a graph knows only at run time, as expressions over the names its
// inputs give them ("batch", "seq*12", "batch*seq"), and the shape arithmetic folded that needs no
// values.
//
// Algorithm (evaluation at sample points, symbolic_fit.h): each dim of a graph input known only
// at run time is a symbol, named by the model (kAttrSymbolicDims) or after its input and axis.
// The pass walks the root graph once in topological order and evaluates each node at every
// sample point (an assignment of small values to the symbols): its own inference function gives
// its output shapes there, and where an output is a small integer tensor whose inputs are known
// there (shape arithmetic: Shape, Gather, Concat, Mul, ...), the kernels constant folding runs
// give its value. Every inference function of the operator library serves, unchanged; nothing
// is allocated beyond those small tensors.
//
//   input_ids [batch,seq] --Gather--> [batch,seq,768] --Shape--> value (batch,seq,768) per point
//   --Gather(0), Gather(1), Concat(.., 12, 64)--> value (batch,seq,12,64) --Reshape--> dims
//
// An output dim known only at run time whose values over the points fit a polynomial gets it
// as its expression. Then, unless folding is off (ge.oo.constantFolding), the pass folds:
//   - an integer tensor of the same value at every point becomes a Const (Shape(x)[2] of a
//     [batch,seq,768] x is 768);
//   - a Reshape whose target is computed from shapes gets a constant target saying the same with
//     0 (copy the input's dim) and -1 ([0,0,12,64] turns [batch,seq,768] into [batch,seq,12,64]),
//     and its shape arithmetic is left to DeadCodeElimination.
// With the Reshapes' targets constant, inference knows their dims and fusion patterns see them.
// The pass runs a second time after the optimizations (SymbolicShapesFinal), to annotate what
// they made, without folding.
#include <algorithm>
#include <cstring>
#include <deque>
#include <unordered_map>

#include "../folding/engine_kernel.h"
#include "../folding/host_kernels.h"
#include "../folding/host_tensor.h"
#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/compiler/symbolic_fit.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

/// A value is computed at the points only for integer tensors of at most this many elements:
/// shapes, their pieces and their products.
constexpr int64_t kMaxValueElements = 64;

/// One output of one node at one point.
struct Sample {
  GeShape shape;  // unknown rank when nothing is known
  DataType dtype = DT_UNDEFINED;
  const GeTensor* value = nullptr;
};

GeShape UnknownRank() {
  GeShape s;
  s.SetIsUnknownDimNum();
  return s;
}

bool IsIntegerType(DataType t) {
  return t == DT_INT64 || t == DT_INT32 || t == DT_INT16 || t == DT_INT8 || t == DT_UINT64 ||
         t == DT_UINT32 || t == DT_UINT16 || t == DT_UINT8 || t == DT_BOOL;
}

bool IsKnown(const GeShape& s) { return !s.IsUnknownDimNum() && !s.IsUnknownShape(); }

/// The symbols of the root graph's inputs: per Data node, per dim known only at run time, the
/// expression of its size (a model's name, or `<input>_d<axis>` when the model names none).
struct InputSymbols {
  std::map<const Node*, std::vector<std::optional<SymExpr>>> dims;
  std::vector<std::string> names;  // every symbol, in order of first use
};

std::string UnnamedSymbol(const std::string& input, size_t axis) {
  std::string name = input + "_d" + std::to_string(axis);
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  if (std::isdigit(static_cast<unsigned char>(name[0])) != 0) name = "_" + name;
  return name;
}

InputSymbols CollectSymbols(const ComputeGraph& graph) {
  InputSymbols out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsDataType(node->GetType()) || node->GetOpDescBarePtr()->GetOutputsSize() == 0) continue;
    const GeTensorDesc& desc = node->GetOpDescBarePtr()->GetOutputDesc(0);
    auto dims = SymbolicDims(desc);
    if (!dims) continue;
    for (size_t d = 0; d < dims->size(); ++d) {
      if (!(*dims)[d]) (*dims)[d] = SymExpr::Symbol(UnnamedSymbol(node->GetName(), d));
      for (const std::string& s : (*dims)[d]->Symbols()) {
        if (std::find(out.names.begin(), out.names.end(), s) == out.names.end()) {
          out.names.push_back(s);
        }
      }
    }
    if (desc.GetShape().IsUnknownShape()) out.dims[node.get()] = std::move(*dims);
  }
  return out;
}

/// A copy of one node to evaluate at the points: its OpDesc, fed by placeholders and read by one
/// (kernels ask which inputs are fed and which outputs are read), in a graph of its own.
class Probe {
 public:
  static Result<Probe> Of(const Node& node) {
    Probe p;
    p.graph_ = std::make_shared<ComputeGraph>("symbolic_probe");
    p.op_ = std::make_shared<OpDesc>(*node.GetOpDescBarePtr());
    GE_ASSIGN_OR_RETURN(p.node_, p.graph_->AddNode(p.op_));
    for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
      if (in->GetPeerOutAnchorBarePtr() == nullptr) continue;
      auto feed = std::make_shared<OpDesc>("in" + std::to_string(in->GetIdx()), "Placeholder");
      GE_RETURN_IF_ERROR(feed->AddOutputDesc(GeTensorDesc()));
      GE_ASSIGN_OR_RETURN(NodePtr feeder, p.graph_->AddNode(feed));
      GE_RETURN_IF_ERROR(
          GraphUtils::AddEdge(feeder->GetOutDataAnchor(0), p.node_->GetInDataAnchor(in->GetIdx())));
    }
    for (const OutDataAnchorPtr& out : node.GetAllOutDataAnchors()) {
      if (out->GetPeerInDataAnchors().empty()) continue;
      auto read = std::make_shared<OpDesc>("out" + std::to_string(out->GetIdx()), "Placeholder");
      GE_RETURN_IF_ERROR(read->AddInputDesc(GeTensorDesc()));
      GE_ASSIGN_OR_RETURN(NodePtr reader, p.graph_->AddNode(read));
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(p.node_->GetOutDataAnchor(out->GetIdx()),
                                             reader->GetInDataAnchor(0)));
    }
    return p;
  }
  OpDesc& op() { return *op_; }
  const Node& node() const { return *node_; }

 private:
  ComputeGraphPtr graph_;
  OpDescPtr op_;
  NodePtr node_;
};

class SymbolicShapePass final : public GraphPass {
 public:
  explicit SymbolicShapePass(bool fold) : fold_(fold) {}
  std::string_view Name() const override {
    return fold_ ? "SymbolicShapes" : "SymbolicShapesFinal";
  }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    const InputSymbols inputs = CollectSymbols(graph);
    if (inputs.dims.empty()) return false;
    if (inputs.names.size() > symbolic::kMaxSymbols) {
      std::string names;
      for (const std::string& n : inputs.names) names += (names.empty() ? "" : ", ") + n;
      context().Note("not run: the inputs have " + std::to_string(inputs.names.size()) +
                     " symbols (" + names + "), more than " +
                     std::to_string(symbolic::kMaxSymbols));
      return false;
    }
    GE_RETURN_IF_ERROR(graph.TopologicalSorting());
    const symbolic::SamplePoints points(inputs.names);
    std::string names;
    for (const std::string& n : points.symbols()) names += (names.empty() ? "" : ", ") + n;
    context().Note("symbols " + names + "; " + std::to_string(points.size()) + " sample points");
    GE_RETURN_IF_ERROR(Evaluate(graph, inputs, points));
    const bool annotated = Annotate(graph, points);
    if (!fold_ || !context().options().constant_folding) return annotated;
    GE_ASSIGN_OR_RETURN(const bool folded, FoldValues(graph));
    GE_ASSIGN_OR_RETURN(const bool reshaped, ConstantReshapeTargets(graph, points));
    return annotated || folded || reshaped;
  }

  // ---- evaluation ----

  Status Evaluate(const ComputeGraph& graph, const InputSymbols& inputs,
                  const symbolic::SamplePoints& points) {
    samples_.clear();
    owned_.clear();
    for (const NodePtr& node : graph.GetDirectNode()) {
      const OpDesc& op = *node->GetOpDescBarePtr();
      std::vector<std::vector<Sample>>& outs = samples_[node.get()];
      outs.assign(op.GetOutputsSize(), std::vector<Sample>(points.size()));
      auto input = inputs.dims.find(node.get());
      if (input != inputs.dims.end()) {
        for (size_t p = 0; p < points.size(); ++p) {
          std::vector<int64_t> dims;
          for (const auto& d : input->second) dims.push_back(d->Evaluate(points[p]).value_or(-1));
          outs[0][p] = {GeShape(dims), op.GetOutputDesc(0).GetDataType(), nullptr};
        }
        continue;
      }
      if (NodeUtils::IsConst(*node) || !Evaluable(*node)) {
        const GeTensor* value =
            NodeUtils::IsConst(*node) ? AttrUtils::GetPtr<GeTensor>(op, kAttrConstValue) : nullptr;
        for (size_t i = 0; i < outs.size(); ++i) {
          const GeTensorDesc& d = op.GetOutputDesc(static_cast<uint32_t>(i));
          for (Sample& s : outs[i]) s = {d.GetShape(), d.GetDataType(), value};
        }
        continue;
      }
      GE_RETURN_IF_ERROR(EvaluateNode(*node, points.size()));
    }
    return Status::Ok();
  }

  /// Nodes whose outputs follow from their inputs by their prototype's inference.
  bool Evaluable(const Node& node) {
    return context().registry().Has(node.GetType()) && !IsGraphBoundaryType(node.GetType()) &&
           !IsInputOrWeightType(node.GetType()) && NodeUtils::GetSubgraphs(node).empty();
  }

  Status EvaluateNode(const Node& node, size_t count) {
    GE_ASSIGN_OR_RETURN(Probe probe, Probe::Of(node));
    OpDesc& op = probe.op();
    if (!op.GetInferShapeFunc()) GE_RETURN_IF_ERROR(context().registry().AttachProto(op));
    const size_t n_in = op.GetAllInputsSize();
    const bool pure = !passes::IsImpure(node.GetType());
    const folding::HostKernel* host = folding::FindHostKernel(node.GetType());
    std::vector<std::vector<Sample>>& outs = samples_[&node];
    for (size_t p = 0; p < count; ++p) {
      InferInputs in;
      in.values.assign(n_in, nullptr);
      in.absent.assign(n_in, false);
      bool all_values = true;
      for (size_t i = 0; i < n_in; ++i) {
        const OutDataAnchor* peer =
            node.GetInDataAnchor(static_cast<int>(i)) == nullptr
                ? nullptr
                : node.GetInDataAnchor(static_cast<int>(i))->GetPeerOutAnchorBarePtr();
        if (peer == nullptr) {
          in.absent[i] = true;
          continue;
        }
        const Sample& s = SampleOf(*peer, p);
        GeTensorDescPtr desc = op.MutableInputDesc(static_cast<uint32_t>(i));
        if (desc != nullptr) {
          desc->SetShape(s.shape);
          desc->SetOriginShape(s.shape);
          desc->SetDataType(s.dtype);
        }
        in.values[i] = s.value;
        all_values = all_values && s.value != nullptr;
      }
      const bool inferred = op.InferShapeAndType(in).ok();
      for (size_t o = 0; o < outs.size(); ++o) {
        const GeTensorDesc& d = op.GetOutputDesc(static_cast<uint32_t>(o));
        outs[o][p] = {inferred ? d.GetShape() : UnknownRank(), d.GetDataType(), nullptr};
      }
      if (!inferred || !pure || !(all_values || (host != nullptr && host->from_shapes))) continue;
      if (!SmallIntegers(op)) continue;
      Result<std::vector<GeTensor>> values =
          host != nullptr ? host->fn(op, in.values)
          : context().engines() != nullptr
              ? folding::RunOnEngine(*context().engines(), probe.node(), in.values)
              : Result<std::vector<GeTensor>>(folding::CannotFold("no engines"));
      if (!values.ok() || values->size() != outs.size()) continue;
      for (size_t o = 0; o < outs.size(); ++o) {
        owned_.push_back(std::move((*values)[o]));
        outs[o][p].value = &owned_.back();
      }
    }
    return Status::Ok();
  }

  static bool SmallIntegers(const OpDesc& op) {
    for (size_t o = 0; o < op.GetOutputsSize(); ++o) {
      const GeTensorDesc& d = op.GetOutputDesc(static_cast<uint32_t>(o));
      if (!IsIntegerType(d.GetDataType()) || !IsKnown(d.GetShape()) ||
          d.GetShape().GetShapeSize() > kMaxValueElements) {
        return false;
      }
    }
    return op.GetOutputsSize() > 0;
  }

  const Sample& SampleOf(const OutDataAnchor& anchor, size_t point) const {
    static const Sample kNothing{UnknownRank(), DT_UNDEFINED, nullptr};
    auto it = samples_.find(anchor.GetOwnerNodeBarePtr());
    const auto index = static_cast<size_t>(anchor.GetIdx());
    if (it == samples_.end() || index >= it->second.size()) return kNothing;
    return it->second[index][point];
  }

  // ---- expressions ----

  /// The expressions of the dims of output `index` of `node` over the points: per dim, what
  /// fits; nullopt when the rank is not known at every grid point or differs between them. A
  /// check point where the shape is not known, or has another rank, is left out.
  std::optional<std::vector<std::optional<SymExpr>>> FitDims(
      const Node& node, size_t index, const symbolic::SamplePoints& points) const {
    auto it = samples_.find(&node);
    if (it == samples_.end() || index >= it->second.size()) return std::nullopt;
    const std::vector<Sample>& s = it->second[index];
    if (s[0].shape.IsUnknownDimNum()) return std::nullopt;
    const size_t rank = s[0].shape.GetDimNum();
    for (size_t p = 0; p < s.size(); ++p) {
      const bool fits = !s[p].shape.IsUnknownDimNum() && s[p].shape.GetDimNum() == rank;
      if (!fits && points.IsGridPoint(p)) return std::nullopt;
    }
    std::vector<std::optional<SymExpr>> dims(rank);
    for (size_t d = 0; d < rank; ++d) {
      std::vector<std::optional<int64_t>> values;
      for (const Sample& x : s) {
        const bool known =
            !x.shape.IsUnknownDimNum() && x.shape.GetDimNum() == rank && x.shape.GetDim(d) >= 0;
        values.push_back(known ? std::optional<int64_t>(x.shape.GetDim(d)) : std::nullopt);
      }
      dims[d] = points.Fit(values);
    }
    return dims;
  }

  /// Writes the expression of every dim known only at run time that fits, on the outputs and
  /// on the input descs of their readers. True when some desc changed.
  bool Annotate(const ComputeGraph& graph, const symbolic::SamplePoints& points) {
    bool changed = false;
    int64_t dims_given = 0;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (IsDataType(node->GetType())) continue;
      OpDesc& op = *node->GetOpDescBarePtr();
      for (size_t o = 0; o < op.GetOutputsSize(); ++o) {
        GeTensorDescPtr desc = op.MutableOutputDesc(static_cast<uint32_t>(o));
        if (desc == nullptr || desc->GetShape().IsUnknownDimNum() ||
            !desc->GetShape().IsUnknownShape()) {
          continue;
        }
        const auto fitted = FitDims(*node, o, points);
        if (!fitted || fitted->size() != desc->GetShape().GetDimNum()) continue;
        for (size_t d = 0; d < fitted->size(); ++d) {
          if (desc->GetShape().GetDim(d) < 0 && (*fitted)[d]) ++dims_given;
        }
        std::vector<std::string> before;
        (void)AttrUtils::GetListStr(*desc, kAttrSymbolicDims, before);
        SetSymbolicDims(*desc, *fitted);
        std::vector<std::string> after;
        (void)AttrUtils::GetListStr(*desc, kAttrSymbolicDims, after);
        if (after.empty()) continue;
        changed = changed || before != after;
        for (const InDataAnchorPtr& reader :
             node->GetOutDataAnchor(static_cast<int>(o))->GetPeerInDataAnchors()) {
          const NodePtr owner = reader->GetOwnerNode();
          GeTensorDescPtr in =
              owner->GetOpDescBarePtr()->MutableInputDesc(static_cast<uint32_t>(reader->GetIdx()));
          if (in != nullptr && in->GetShape() == desc->GetShape()) {
            (void)AttrUtils::SetListStr(*in, kAttrSymbolicDims, after);
          }
        }
      }
    }
    context().Count("dims given an expression", dims_given);
    return changed;
  }

  // ---- folds ----

  /// Nodes whose every output is an integer tensor of one value at every point become Consts.
  Result<bool> FoldValues(ComputeGraph& graph) {
    bool changed = false;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (!Evaluable(*node) || passes::IsImpure(node->GetType()) ||
          node->GetAllOutDataAnchorsSize() == 0) {
        continue;
      }
      const std::vector<std::vector<Sample>>& outs = samples_.at(node.get());
      bool same = true;
      for (const std::vector<Sample>& s : outs) same = same && SameValueEverywhere(s);
      if (!same) continue;
      std::vector<std::pair<NodePtr, int>> replacements;
      for (size_t o = 0; o < outs.size(); ++o) {
        std::string base = node->GetName();
        if (outs.size() != 1) {
          base += '_';
          base += std::to_string(o);
        }
        OpDescPtr const_op = OpDescUtils::CreateConstOp(
            passes::UniqueNodeName(graph, base + "_folded"), *outs[o][0].value);
        GE_ASSIGN_OR_RETURN(NodePtr const_node, graph.AddNode(const_op));
        samples_[const_node.get()] = {outs[o]};
        replacements.emplace_back(const_node, 0);
      }
      const std::string type = node->GetType();
      GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, replacements));
      context().CountRewrite();
      context().Count("folded " + type + " without values");
      changed = true;
    }
    return changed;
  }

  static bool SameValueEverywhere(const std::vector<Sample>& samples) {
    const GeTensor* first = samples[0].value;
    if (first == nullptr) return false;
    for (const Sample& s : samples) {
      if (s.value == nullptr ||
          s.value->GetTensorDesc().GetDataType() != first->GetTensorDesc().GetDataType() ||
          s.value->GetTensorDesc().GetShape() != first->GetTensorDesc().GetShape() ||
          s.value->GetData().size() != first->GetData().size() ||
          std::memcmp(s.value->GetData().data(), first->GetData().data(),
                      first->GetData().size()) != 0) {
        return false;
      }
    }
    return true;
  }

  /// Reshapes whose target is computed get a constant one where 0s (copy the input's dim), one
  /// -1 and constants say the same at every point.
  Result<bool> ConstantReshapeTargets(ComputeGraph& graph, const symbolic::SamplePoints& points) {
    bool changed = false;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetType() != "Reshape") continue;
      const OpDesc& op = *node->GetOpDescBarePtr();
      int64_t allow_zero = 0;
      int64_t axis = 0;
      int64_t num_axes = -1;
      (void)AttrUtils::GetInt(op, "allowzero", allow_zero);
      (void)AttrUtils::GetInt(op, "axis", axis);
      (void)AttrUtils::GetInt(op, "num_axes", num_axes);
      const InDataAnchorPtr target_in = node->GetInDataAnchor(1);
      const OutDataAnchorPtr source = node->GetInDataAnchor(0) == nullptr
                                          ? nullptr
                                          : node->GetInDataAnchor(0)->GetPeerOutAnchor();
      const OutDataAnchorPtr target =
          target_in == nullptr ? nullptr : target_in->GetPeerOutAnchor();
      if (allow_zero != 0 || axis != 0 || num_axes != -1 || source == nullptr ||
          target == nullptr || NodeUtils::IsConst(*target->GetOwnerNode())) {
        continue;
      }
      const auto in_dims =
          FitDims(*source->GetOwnerNode(), static_cast<size_t>(source->GetIdx()), points);
      const auto out_dims = FitDims(*node, 0, points);
      if (!in_dims || !out_dims) continue;
      std::optional<std::vector<int64_t>> dims = TargetFor(*in_dims, *out_dims);
      if (!dims) continue;
      if (!TargetHoldsEverywhere(*node, *source, *dims, points)) continue;
      const GeTensorDesc& target_desc = target->GetOwnerNode()->GetOpDescBarePtr()->GetOutputDesc(
          static_cast<uint32_t>(target->GetIdx()));
      Result<GeTensor> value = MakeTarget(*dims, target_desc.GetDataType());
      if (!value.ok()) continue;
      OpDescPtr const_op = OpDescUtils::CreateConstOp(
          passes::UniqueNodeName(graph, node->GetName() + "_shape"), *value);
      GE_ASSIGN_OR_RETURN(NodePtr const_node, graph.AddNode(const_op));
      GE_RETURN_IF_ERROR(GraphUtils::RemoveEdge(target, target_in));
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(const_node->GetOutDataAnchor(0), target_in));
      context().CountRewrite();
      context().Count("Reshape targets made constant");
      changed = true;
    }
    return changed;
  }

  /// The constant target for a Reshape from `in` to `out`, or nullopt.
  static std::optional<std::vector<int64_t>> TargetFor(
      const std::vector<std::optional<SymExpr>>& in,
      const std::vector<std::optional<SymExpr>>& out) {
    std::vector<int64_t> target;
    bool inferred = false;
    for (size_t d = 0; d < out.size(); ++d) {
      const std::optional<int64_t> c = out[d] ? out[d]->ConstantValue() : std::nullopt;
      if (c && *c > 0) {
        target.push_back(*c);
      } else if (out[d] && d < in.size() && in[d] && *in[d] == *out[d]) {
        target.push_back(0);
      } else if (!inferred) {
        target.push_back(-1);
        inferred = true;
      } else {
        return std::nullopt;
      }
    }
    return target;
  }

  /// True when `target`, applied to the Reshape's input at every point the model takes, gives its
  /// output there.
  bool TargetHoldsEverywhere(const Node& reshape, const OutDataAnchor& source,
                             const std::vector<int64_t>& target,
                             const symbolic::SamplePoints& points) const {
    for (size_t p = 0; p < points.size(); ++p) {
      const GeShape& in = SampleOf(source, p).shape;
      const GeShape& out = samples_.at(&reshape)[0][p].shape;
      if (!IsKnown(in) || !IsKnown(out)) {
        if (points.IsGridPoint(p)) return false;
        continue;  // a check point this model cannot take
      }
      if (out.GetDimNum() != target.size()) return false;
      int64_t known = 1;
      int64_t infer_at = -1;
      std::vector<int64_t> dims = target;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 0) {
          if (d >= in.GetDimNum()) return false;
          dims[d] = in.GetDim(d);
        }
        if (dims[d] < 0) {
          infer_at = static_cast<int64_t>(d);
        } else {
          known *= dims[d];
        }
      }
      if (infer_at >= 0) {
        if (known == 0 || in.GetShapeSize() % known != 0) return false;
        dims[static_cast<size_t>(infer_at)] = in.GetShapeSize() / known;
      }
      if (dims != out.GetDims()) return false;
    }
    return true;
  }

  static Result<GeTensor> MakeTarget(const std::vector<int64_t>& dims, DataType dtype) {
    const std::vector<int64_t> shape = {static_cast<int64_t>(dims.size())};
    std::vector<uint8_t> bytes;
    if (dtype == DT_INT32) {
      std::vector<int32_t> narrow(dims.begin(), dims.end());
      bytes.resize(narrow.size() * sizeof(int32_t));
      std::memcpy(bytes.data(), narrow.data(), bytes.size());
    } else {
      dtype = DT_INT64;
      bytes.resize(dims.size() * sizeof(int64_t));
      std::memcpy(bytes.data(), dims.data(), bytes.size());
    }
    return GeTensor(GeTensorDesc(GeShape(shape), FORMAT_ND, dtype), std::move(bytes));
  }

  bool fold_;
  std::unordered_map<const Node*, std::vector<std::vector<Sample>>> samples_;
  std::deque<GeTensor> owned_;  // the values computed at the points (stable addresses)
};

}  // namespace

std::unique_ptr<GraphPass> CreateSymbolicShapePass(bool fold) {
  return std::make_unique<SymbolicShapePass>(fold);
}

}  // namespace ge

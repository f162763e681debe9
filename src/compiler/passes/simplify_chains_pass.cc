// SimplifyChains: local rewrites on chains of data-movement ops, run to a fixed point.
//  - reshape chains: a reshape-like node (Reshape, Squeeze, Unsqueeze, Flatten, ExpandDims) fed
//    by another reshape-like node becomes one Reshape of the first input to its known output
//    shape; a reshape-like node whose output shape equals its input shape is bypassed;
//  - transpose pairs: Transpose(p2) of Transpose(p1) becomes Transpose(p1[p2]) or, when that is
//    the identity permutation, nothing;
//  - cast pairs: Cast(t2) of Cast(t1) of x, where t1 holds every value of x's dtype exactly,
//    becomes Cast(t2) of x, or nothing when t2 is x's dtype; a Cast to its input's dtype goes;
//  - a Pad whose pads are a Const of zeros (torch writes one before every AvgPool) goes, and so
//    does a ConcatV2 of a single input (DenseNet's first layer of each block);
//  - ONNX's Softmax, LogSoftmax and Hardmax before opset 13 (*Legacy: normalize over the dims
//    from `axis` on, flattened) over the last dim become the one-axis operators that fusion and
//    the vectorized kernels know; exporters of old opsets (Paddle2ONNX) leave the rank unknown at
//    parse, so this is decided once shapes are inferred.
#include <cstring>
#include <map>
#include <set>

#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

/// A view of input 0 (the prototype's trait) that keeps the element type and format: its output
/// is its input under a new shape, which a Reshape gives as well.
bool IsReshapeLike(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (OpRegistry::Instance().TraitsOf(op.GetType()).view_of_input != 0) return false;
  if (op.GetAllInputsSize() == 0 || op.GetOutputsSize() != 1) return false;
  const GeTensorDesc& in = op.GetInputDesc(0);
  const GeTensorDesc& out = op.GetOutputDesc(0);
  return in.GetDataType() == out.GetDataType() && in.GetFormat() == out.GetFormat();
}

bool IsStatic(const GeShape& shape) { return !shape.IsUnknownDimNum() && !shape.IsUnknownShape(); }

NodePtr Producer(const Node& node, int index, int* out_index = nullptr) {
  InDataAnchorPtr in = node.GetInDataAnchor(index);
  OutDataAnchorPtr peer = in != nullptr ? in->GetPeerOutAnchor() : nullptr;
  if (peer == nullptr) return nullptr;
  if (out_index != nullptr) *out_index = peer->GetIdx();
  return peer->GetOwnerNode();
}

class ReshapeChain final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "reshape chain"; }
  std::vector<std::string> StartTypes() const override {
    return {"Reshape", "Squeeze", "Unsqueeze", "Flatten", "ExpandDims"};
  }
  bool Match(const Node& node, PassContext&) const override {
    const OpDesc& op = *node.GetOpDescBarePtr();
    if (op.GetOutputsSize() != 1 || !IsStatic(op.GetOutputDesc(0).GetShape())) return false;
    if (Producer(node, 0) == nullptr) return false;
    if (op.GetInputDesc(0).GetShape() == op.GetOutputDesc(0).GetShape()) return true;
    NodePtr producer = Producer(node, 0);
    return IsReshapeLike(*producer) && Producer(*producer, 0) != nullptr;
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph,
                       PassContext& context) const override {
    const OpDesc& op = *node->GetOpDescBarePtr();
    const GeTensorDesc out_desc = op.GetOutputDesc(0);
    if (op.GetInputDesc(0).GetShape() == out_desc.GetShape()) {
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, node, {0}));
      return true;
    }
    int src_index = 0;
    NodePtr producer = Producer(*node, 0);
    NodePtr source = Producer(*producer, 0, &src_index);
    // One Reshape of the chain's first input to the known output shape.
    const std::vector<int64_t>& dims = out_desc.GetShape().GetDims();
    std::vector<uint8_t> bytes(dims.size() * sizeof(int64_t));
    std::memcpy(bytes.data(), dims.data(), bytes.size());
    GeTensorDesc shape_desc(GeShape({static_cast<int64_t>(dims.size())}), FORMAT_ND, DT_INT64);
    GE_ASSIGN_OR_RETURN(NodePtr shape_const,
                        graph.AddNode(OpDescUtils::CreateConstOp(
                            passes::UniqueNodeName(graph, node->GetName() + "_shape"),
                            GeTensor(shape_desc, std::move(bytes)))));
    GE_ASSIGN_OR_RETURN(OpDescPtr reshape_op,
                        context.registry().CreateOpDesc(
                            "Reshape", passes::UniqueNodeName(graph, node->GetName() + "_merged")));
    GE_ASSIGN_OR_RETURN(NodePtr reshape, graph.AddNode(reshape_op));
    GE_RETURN_IF_ERROR(
        GraphUtils::AddEdge(source->GetOutDataAnchor(src_index), reshape->GetInDataAnchor(0)));
    GE_RETURN_IF_ERROR(
        GraphUtils::AddEdge(shape_const->GetOutDataAnchor(0), reshape->GetInDataAnchor(1)));
    GE_RETURN_IF_ERROR(context.registry().InferShape(shape_const));
    GE_RETURN_IF_ERROR(context.registry().InferShape(reshape));
    GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, {{reshape, 0}}));
    return true;
  }
};

std::vector<int64_t> PermOf(const Node& node) {
  std::vector<int64_t> perm;
  AttrUtils::GetListInt(*node.GetOpDescBarePtr(), "perm", perm);
  if (perm.empty()) {
    const GeShape& in = node.GetOpDescBarePtr()->GetInputDesc(0).GetShape();
    for (size_t i = in.GetDimNum(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  return perm;
}

class TransposePair final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "transpose pair"; }
  std::vector<std::string> StartTypes() const override { return {"Transpose"}; }
  bool Match(const Node& node, PassContext&) const override {
    NodePtr producer = Producer(node, 0);
    if (producer == nullptr || producer->GetType() != "Transpose" ||
        Producer(*producer, 0) == nullptr) {
      return false;
    }
    const GeShape& in = producer->GetOpDescBarePtr()->GetInputDesc(0).GetShape();
    if (in.IsUnknownDimNum()) return false;
    return PermOf(node).size() == in.GetDimNum() && PermOf(*producer).size() == in.GetDimNum();
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph,
                       PassContext& context) const override {
    NodePtr producer = Producer(*node, 0);
    const std::vector<int64_t> p1 = PermOf(*producer);
    const std::vector<int64_t> p2 = PermOf(*node);
    std::vector<int64_t> combined(p2.size());
    bool identity = true;
    for (size_t j = 0; j < p2.size(); ++j) {
      if (p2[j] < 0 || static_cast<size_t>(p2[j]) >= p1.size()) return false;
      combined[j] = p1[static_cast<size_t>(p2[j])];
      identity = identity && combined[j] == static_cast<int64_t>(j);
    }
    int src_index = 0;
    NodePtr source = Producer(*producer, 0, &src_index);
    if (identity) {
      // Consumers of the second transpose read the first one's input.
      GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, {{source, src_index}}));
      return true;
    }
    GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(producer->GetOutDataAnchor(0),
                                                  node->GetInDataAnchor(0),
                                                  source->GetOutDataAnchor(src_index)));
    AttrUtils::SetListInt(*node->GetOpDescBarePtr(), "perm", combined);
    GE_RETURN_IF_ERROR(context.registry().InferShape(node));
    return true;
  }
};

// Whether every value of `from` is exactly representable in `to`.
bool Widens(DataType from, DataType to) {
  if (from == to) return true;
  static const std::map<DataType, std::set<DataType>> kWider = {
      {DT_BOOL,
       {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT,
        DT_DOUBLE}},
      {DT_INT8, {DT_INT16, DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE}},
      {DT_UINT8,
       {DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT, DT_DOUBLE}},
      {DT_INT16, {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE}},
      {DT_UINT16, {DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT, DT_DOUBLE}},
      {DT_INT32, {DT_INT64, DT_DOUBLE}},
      {DT_UINT32, {DT_INT64, DT_UINT64, DT_DOUBLE}},
      {DT_FLOAT, {DT_DOUBLE}},
  };
  auto it = kWider.find(from);
  return it != kWider.end() && it->second.count(to) != 0;
}

DataType CastTo(const Node& node) {
  DataType to = DT_UNDEFINED;
  AttrUtils::GetDataType(*node.GetOpDescBarePtr(), "to", to);
  return to;
}

class CastPair final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "cast pair"; }
  std::vector<std::string> StartTypes() const override { return {"Cast"}; }
  bool Match(const Node& node, PassContext&) const override {
    if (Producer(node, 0) == nullptr) return false;
    const DataType in = node.GetOpDescBarePtr()->GetInputDesc(0).GetDataType();
    if (in != DT_UNDEFINED && in == CastTo(node)) return true;
    NodePtr producer = Producer(node, 0);
    if (producer->GetType() != "Cast" || Producer(*producer, 0) == nullptr) return false;
    const DataType x = producer->GetOpDescBarePtr()->GetInputDesc(0).GetDataType();
    return x != DT_UNDEFINED && Widens(x, CastTo(*producer));
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph,
                       PassContext& context) const override {
    const DataType in = node->GetOpDescBarePtr()->GetInputDesc(0).GetDataType();
    if (in == CastTo(*node)) {
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, node, {0}));
      return true;
    }
    NodePtr producer = Producer(*node, 0);
    int src_index = 0;
    NodePtr source = Producer(*producer, 0, &src_index);
    GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(producer->GetOutDataAnchor(0),
                                                  node->GetInDataAnchor(0),
                                                  source->GetOutDataAnchor(src_index)));
    GE_RETURN_IF_ERROR(context.registry().InferShape(node));
    return true;
  }
};

class SingleConcat final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "single concat"; }
  std::vector<std::string> StartTypes() const override { return {"ConcatV2"}; }
  bool Match(const Node& node, PassContext&) const override {
    return node.GetAllInDataAnchorsSize() == 1 && Producer(node, 0) != nullptr;
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph, PassContext&) const override {
    GE_RETURN_IF_ERROR(passes::BypassNode(graph, node, {0}));
    return true;
  }
};

class ZeroPad final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "zero pad"; }
  std::vector<std::string> StartTypes() const override { return {"PadV3"}; }
  bool Match(const Node& node, PassContext&) const override {
    const NodePtr pads = Producer(node, 1);
    if (Producer(node, 0) == nullptr || pads == nullptr) return false;
    auto value = OpDescUtils::GetConstValue(*pads);
    if (!value.ok()) return false;
    const DataType dtype = value->GetTensorDesc().GetDataType();
    if (dtype != DT_INT64 && dtype != DT_INT32) return false;
    const std::span<const uint8_t> bytes = value->GetData();
    for (uint8_t b : bytes) {
      if (b != 0) return false;
    }
    return !bytes.empty();
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph, PassContext&) const override {
    GE_RETURN_IF_ERROR(passes::BypassNode(graph, node, {0}));
    return true;
  }
};

class LegacySoftmaxOnLastAxis final : public NodeRewrite {
 public:
  std::string_view Name() const override { return "legacy softmax on the last axis"; }
  std::vector<std::string> StartTypes() const override {
    return {"SoftmaxLegacy", "LogSoftmaxLegacy", "HardmaxLegacy"};
  }
  bool Match(const Node& node, PassContext&) const override {
    const OpDesc& op = *node.GetOpDescBarePtr();
    const GeShape& x = op.GetInputDesc(0).GetShape();
    if (x.IsUnknownDimNum() || x.GetDimNum() == 0) return false;
    const auto rank = static_cast<int64_t>(x.GetDimNum());
    int64_t axis = 1;
    (void)AttrUtils::GetInt(op, "axis", axis);
    return axis == rank - 1 || axis == -1;
  }
  Result<bool> Rewrite(const NodePtr& node, ComputeGraph&, PassContext& context) const override {
    OpDesc& op = *node->GetOpDescBarePtr();
    const std::string type = op.GetType();
    op.SetType(type.substr(0, type.size() - std::strlen("Legacy")) +
               (type == "HardmaxLegacy" ? "" : "V2"));
    AttrUtils::SetInt(op, "axis", -1);
    // The new type's inference and verification, attached from its prototype on first use.
    op.SetInferShapeFunc(nullptr);
    op.SetInferFormatFunc(nullptr);
    op.SetVerifyFunc(nullptr);
    GE_RETURN_IF_ERROR(context.registry().InferShape(node));
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateSimplifyChainsPass() {
  std::vector<std::unique_ptr<NodeRewrite>> rewrites;
  rewrites.push_back(std::make_unique<ReshapeChain>());
  rewrites.push_back(std::make_unique<TransposePair>());
  rewrites.push_back(std::make_unique<CastPair>());
  rewrites.push_back(std::make_unique<ZeroPad>());
  rewrites.push_back(std::make_unique<SingleConcat>());
  rewrites.push_back(std::make_unique<LegacySoftmaxOnLastAxis>());
  return std::make_unique<RewritePass>("SimplifyChains", std::move(rewrites));
}

}  // namespace ge

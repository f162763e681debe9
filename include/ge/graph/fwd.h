// Forward declarations and the shared-pointer handle names GE users know (NodePtr, OpDescPtr, ...).
#pragma once

#include <memory>

namespace ge {

class Anchor;
class DataAnchor;
class InDataAnchor;
class OutDataAnchor;
class ControlAnchor;
class InControlAnchor;
class OutControlAnchor;
class Node;
class OpDesc;
class ComputeGraph;
class GeTensorDesc;
class GeTensor;
class AttrValue;

using AnchorPtr = std::shared_ptr<Anchor>;
using DataAnchorPtr = std::shared_ptr<DataAnchor>;
using InDataAnchorPtr = std::shared_ptr<InDataAnchor>;
using OutDataAnchorPtr = std::shared_ptr<OutDataAnchor>;
using ControlAnchorPtr = std::shared_ptr<ControlAnchor>;
using InControlAnchorPtr = std::shared_ptr<InControlAnchor>;
using OutControlAnchorPtr = std::shared_ptr<OutControlAnchor>;
using NodePtr = std::shared_ptr<Node>;
using ConstNodePtr = std::shared_ptr<const Node>;
using OpDescPtr = std::shared_ptr<OpDesc>;
using ConstOpDescPtr = std::shared_ptr<const OpDesc>;
using ComputeGraphPtr = std::shared_ptr<ComputeGraph>;
using ConstComputeGraphPtr = std::shared_ptr<const ComputeGraph>;
using GeTensorDescPtr = std::shared_ptr<GeTensorDesc>;
using ConstGeTensorDescPtr = std::shared_ptr<const GeTensorDesc>;
using GeTensorPtr = std::shared_ptr<GeTensor>;
using ConstGeTensorPtr = std::shared_ptr<const GeTensor>;

}  // namespace ge

// GraphUtils: edge editing, node splicing and isolation, control-edge moves, graph copy and
// comparison — the stateless helpers passes are written with.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API GraphUtils {
 public:
  GraphUtils() = delete;

  /// Links src → dst (any allowed anchor kinds, see anchor.h).
  static Status AddEdge(const AnchorPtr& src, const AnchorPtr& dst);
  static Status AddEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst);
  static Status AddEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst);
  static Status AddEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst);
  /// Removes the edge src → dst; fails when it does not exist.
  static Status RemoveEdge(const AnchorPtr& src, const AnchorPtr& dst);
  /// Moves the edge src → dst to new_src → dst (dst keeps its position in lists).
  static Status ReplaceEdgeSrc(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                               const OutDataAnchorPtr& new_src);
  static Status ReplaceEdgeSrc(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst,
                               const OutControlAnchorPtr& new_src);
  /// Moves the edge src → dst to src → new_dst.
  static Status ReplaceEdgeDst(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                               const InDataAnchorPtr& new_dst);
  static Status ReplaceEdgeDst(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst,
                               const InControlAnchorPtr& new_dst);

  /// Splices `new_node` (input 0 / output 0 unless given) into the edge src → dst:
  /// src → new_node:in → new_node:out → dst.
  static Status InsertNodeBetweenDataAnchors(const OutDataAnchorPtr& src,
                                             const InDataAnchorPtr& dst, const NodePtr& new_node,
                                             int new_in = 0, int new_out = 0);
  /// Inserts `new_node` after output `src` of a node: every consumer of src now reads from
  /// new_node's output `new_out`, and src feeds new_node's input `new_in`.
  static Status InsertNodeAfter(const OutDataAnchorPtr& src, const NodePtr& new_node,
                                int new_in = 0, int new_out = 0);
  /// Inserts `new_node` before input `dst`: dst's producer now feeds new_node's input `new_in`,
  /// and new_node's output `new_out` feeds dst.
  static Status InsertNodeBefore(const InDataAnchorPtr& dst, const NodePtr& new_node,
                                 int new_in = 0, int new_out = 0);

  /// Detaches `node`: output i is relinked to the producer of input io_map[i] (io_map[i] < 0 or
  /// absent: its consumers are unlinked); control predecessors (and mapped data producers) get
  /// control edges to every control successor — directly, or through one new NoOp when
  /// in × out > 1000 — and every edge of the node is removed. The node stays in its graph.
  static Status IsolateNode(const NodePtr& node, const std::vector<int>& io_map);
  /// Unlinks every edge of `node`, drops it from the input/output lists and erases it.
  static Status RemoveNodeWithoutRelink(const ComputeGraphPtr& graph, const NodePtr& node);
  static Status RemoveJustNode(const ComputeGraphPtr& graph, const NodePtr& node);

  /// Control edges: copy or move src's in/out control edges to dst (duplicates are skipped).
  static Status CopyInCtrlEdges(const NodePtr& src, const NodePtr& dst);
  static Status MoveInCtrlEdges(const NodePtr& src, const NodePtr& dst);
  static Status CopyOutCtrlEdges(const NodePtr& src, const NodePtr& dst);
  static Status MoveOutCtrlEdges(const NodePtr& src, const NodePtr& dst);

  /// Replaces `originals` by `fused_ops`: refuses when the originals disagree on the stream label
  /// (`_user_stream_label`), core counts (`_op_aicore_num`, `_op_vectorcore_num`),
  /// determinism (`_deterministic`) or SuperKernel scope and options (`_super_kernel_scope`,
  /// `_super_kernel_options`); the fused nodes are inserted after the original with the
  /// smallest id and inherit those attributes. Edges are the caller's to make.
  static Result<std::vector<NodePtr>> FuseNodeKeepTopo(const std::vector<NodePtr>& originals,
                                                       const std::vector<OpDescPtr>& fused_ops);

  /// GE's debug dump: writes `graph` as protobuf text when DUMP_GE_GRAPH asks for dumps (or
  /// always, with `is_always_dump`), into DUMP_GRAPH_PATH as GraphDumper names its files, or to
  /// the file `user_graph_name` when one is given. A failure is reported on stderr and ignored,
  /// as GE does. Defined in the serialization library (ge_serialize), which callers link.
  static void DumpGEGraph(const ComputeGraphPtr& graph, const std::string& suffix,
                          bool is_always_dump = false, const std::string& user_graph_name = "");

  /// Deep copy of a graph with its subgraphs, inputs, outputs, attributes and edges (in the
  /// same peer order).
  static Result<ComputeGraphPtr> CopyComputeGraph(const ComputeGraphPtr& src);

  /// Structural equality: names, order, every OpDesc (descs, attrs, ids ...), every edge with
  /// its position, inputs, outputs, graph attrs and subgraphs, recursively. Returns OK or a
  /// Status whose message names the first difference.
  static Status CheckEqual(const ComputeGraph& a, const ComputeGraph& b);
  static bool IsEqual(const ComputeGraph& a, const ComputeGraph& b) {
    return CheckEqual(a, b).ok();
  }
};

}  // namespace ge

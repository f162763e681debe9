// The compile explorer: one self-contained HTML page that shows what the compiler did to a model.
// The graph at each stage (laid out here, weights folded into their readers as badges), the pass
// table, fused nodes with the originals they replaced, the memory plan as a picture and, after a
// run, each node's time. `gec report`, `gec compile --html` and `gec run --html` write it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compile_report.h"
#include "ge/model/memory_plan.h"

namespace ge::explorer {

/// One input or output of a node as the page shows it.
struct PortView {
  std::string name;     ///< the prototype's port name (or its index)
  std::string dtype;    ///< "DT_FLOAT"
  std::string shape;    ///< "[1,3,224,224]", dims known at run time by their expression
  std::string format;   ///< "NCHW", "ND", ...
  std::string peer;     ///< an input's producer ("node:index"), an output's first reader
  int64_t offset = -1;  ///< an output's memory offset once planned (-1: none)
};

/// One node of one stage, with its place in the picture.
struct NodeView {
  std::string name;
  std::string type;
  std::string engine;   ///< empty before placement
  std::string kernel;   ///< the kernel implementation the engine chose, when known
  int64_t stream = -1;  ///< -1 before stream assignment
  std::vector<PortView> inputs;
  std::vector<PortView> outputs;
  std::vector<std::pair<std::string, std::string>> attrs;  ///< name -> short text, by name
  std::vector<std::string> fused_from;  ///< the original nodes a fused node replaced
  /// Weights folded into this node: "input name: dtype[shape]" of each Const it reads.
  std::vector<std::string> weights;
  std::vector<std::pair<std::string, size_t>> subgraphs;  ///< name and node count
  // The layout: the box's top-left corner and size, and its layer (rank from the inputs).
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
  int32_t layer = 0;
};

/// An edge between two drawn nodes (indices into GraphView::nodes).
struct EdgeView {
  int32_t from = 0;
  int32_t to = 0;
  bool control = false;
  std::string label;  ///< the tensor's dtype and shape
};

/// One graph at one stage.
struct GraphView {
  std::string stage;   ///< "parsed", "optimized", "placed", "built"
  std::string graph;   ///< the graph's name
  std::string parent;  ///< for a subgraph, the node that owns it (empty for the root graph)
  std::vector<NodeView> nodes;  ///< drawn nodes (folded weights are not among them)
  std::vector<EdgeView> edges;
  size_t folded_weights = 0;  ///< Const nodes drawn as badges on their readers
  size_t all_nodes = 0;       ///< every node of the graph, subgraphs and weights included
  bool laid_out = false;
  double width = 0;  ///< the picture's size once laid out
  double height = 0;
};

/// The graph as it is now, with every node described. Const nodes whose outputs only feed other
/// nodes become weight badges on their readers; the rest are drawn. Not laid out.
GE_API GraphView Snapshot(const ComputeGraph& graph, const std::string& stage);

/// Snapshot of the root graph, then of each of its subgraphs (control flow's branches and bodies,
/// nested ones included), each naming its parent node.
GE_API std::vector<GraphView> SnapshotAll(const ComputeGraph& root, const std::string& stage);

/// Lays out a view top to bottom: each node on the layer of its longest path from an input,
/// layers ordered by the mean place of their neighbours (a few sweeps down and up) to cut
/// crossings, and each node put under its inputs without overlapping its layer's others.
GE_API void Layout(GraphView& view);

/// Where a node's time went in a run (`gec run --html`).
struct NodeProfile {
  std::string name;
  std::string type;
  double micros = 0;  ///< the run's time in this node's tasks
  double flops = -1;  ///< the node's arithmetic (multiply-adds count two), -1 when unknown
};

/// Everything one page shows.
struct ExplorerInput {
  std::string title;  ///< the model's file name
  /// In pass-list order; each stage's root graph, then its subgraphs (SnapshotAll).
  std::vector<GraphView> stages;
  const CompileReport* report = nullptr;
  const memory::MemoryPlan* plan = nullptr;  ///< the root graph's plan
  std::vector<NodeProfile> profile;          ///< empty without a run
  /// Stages with more drawn nodes than this are not drawn in the page; it says so and names the
  /// command that writes the stage as an SVG instead.
  size_t max_view_nodes = 20000;
};

/// The page: HTML with its script, styles and data inline; it loads nothing from the network.
GE_API std::string RenderHtml(const ExplorerInput& input);

/// RenderHtml written to `path`; an error names the file.
GE_API Status WriteHtml(const ExplorerInput& input, const std::string& path);

}  // namespace ge::explorer

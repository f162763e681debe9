// explorer::Layout: a layered drawing of a graph, top to bottom, in time linear in its edges
// per sweep (swin_t's 6,500 nodes lay out in milliseconds).
#include <algorithm>
#include <numeric>
#include <queue>

#include "ge/compiler/explorer.h"

namespace ge::explorer {
namespace {

constexpr double kCharWidth = 7.0;  // the page's 12 px sans-serif, on average
constexpr double kMinWidth = 110.0;
constexpr size_t kMaxLabel = 30;  // the page cuts longer names
constexpr double kBoxHeight = 38.0;
constexpr double kBadgeHeight = 14.0;
constexpr double kGapX = 24.0;
constexpr double kGapY = 46.0;
constexpr double kMargin = 20.0;
constexpr int kSweeps = 4;

double WidthOf(const NodeView& node) {
  const size_t label = std::max(std::min(node.name.size(), kMaxLabel), node.type.size());
  return std::max(kMinWidth, kCharWidth * static_cast<double>(label) + 16.0);
}

/// Each node's layer: the length of its longest path from a node with no inputs, then moved down
/// to just above its nearest reader when it can go lower (so a node that reads only weights sits
/// by its reader, not in a first row of such nodes with edges running down the whole picture).
/// Nodes left in a cycle (a graph the verifier would refuse) go one layer below everything else.
std::vector<int32_t> Layers(const GraphView& view, const std::vector<std::vector<int32_t>>& preds,
                            const std::vector<std::vector<int32_t>>& succs) {
  const size_t n = view.nodes.size();
  std::vector<int32_t> layer(n, 0);
  std::vector<size_t> waiting(n);
  std::queue<int32_t> ready;
  for (size_t v = 0; v < n; ++v) {
    waiting[v] = preds[v].size();
    if (waiting[v] == 0) ready.push(static_cast<int32_t>(v));
  }
  std::vector<int32_t> order;
  order.reserve(n);
  int32_t deepest = 0;
  while (!ready.empty()) {
    const int32_t v = ready.front();
    ready.pop();
    order.push_back(v);
    deepest = std::max(deepest, layer[static_cast<size_t>(v)]);
    for (int32_t w : succs[static_cast<size_t>(v)]) {
      auto& next = layer[static_cast<size_t>(w)];
      next = std::max(next, layer[static_cast<size_t>(v)] + 1);
      if (--waiting[static_cast<size_t>(w)] == 0) ready.push(w);
    }
  }
  for (auto v = order.rbegin(); v != order.rend(); ++v) {
    const auto& readers = succs[static_cast<size_t>(*v)];
    if (readers.empty()) continue;
    int32_t nearest = layer[static_cast<size_t>(readers.front())];
    for (int32_t w : readers) nearest = std::min(nearest, layer[static_cast<size_t>(w)]);
    auto& own = layer[static_cast<size_t>(*v)];
    own = std::max(own, nearest - 1);
  }
  if (order.size() < n) {
    for (size_t v = 0; v < n; ++v) {
      if (waiting[v] > 0) layer[v] = deepest + 1;
    }
  }
  return layer;
}

/// Reorders each layer by the mean position of each node's neighbours in `across` (predecessors
/// going down, successors going up); a node without such neighbours keeps its place.
void Sweep(std::vector<std::vector<int32_t>>& layers, std::vector<double>& position,
           const std::vector<std::vector<int32_t>>& across, bool down) {
  const size_t count = layers.size();
  for (size_t step = 1; step < count; ++step) {
    std::vector<int32_t>& row = layers[down ? step : count - 1 - step];
    std::vector<double> key(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      const auto& neighbours = across[static_cast<size_t>(row[i])];
      if (neighbours.empty()) {
        key[i] = position[static_cast<size_t>(row[i])];
        continue;
      }
      double sum = 0;
      for (int32_t u : neighbours) sum += position[static_cast<size_t>(u)];
      key[i] = sum / static_cast<double>(neighbours.size());
    }
    std::vector<size_t> order(row.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return key[a] < key[b]; });
    std::vector<int32_t> sorted(row.size());
    for (size_t i = 0; i < order.size(); ++i) sorted[i] = row[order[i]];
    row = std::move(sorted);
    // Positions are normalised to the layer's width so wide and narrow layers compare.
    const double scale = row.size() > 1 ? 1.0 / static_cast<double>(row.size() - 1) : 0.0;
    for (size_t i = 0; i < row.size(); ++i) {
      position[static_cast<size_t>(row[i])] = row.size() > 1 ? static_cast<double>(i) * scale : 0.5;
    }
  }
}

/// Places one layer's boxes (in their order) as near their wanted centres as they fit: the mean
/// of packing from the left and packing from the right keeps the order and every gap.
void PlaceRow(const std::vector<int32_t>& row, const std::vector<double>& wanted, GraphView& view) {
  const size_t count = row.size();
  std::vector<double> from_left(count);
  std::vector<double> from_right(count);
  for (size_t i = 0; i < count; ++i) {
    const NodeView& node = view.nodes[static_cast<size_t>(row[i])];
    double x = wanted[static_cast<size_t>(row[i])] - node.width / 2;
    if (i > 0) {
      const NodeView& left = view.nodes[static_cast<size_t>(row[i - 1])];
      x = std::max(x, from_left[i - 1] + left.width + kGapX);
    }
    from_left[i] = x;
  }
  for (size_t k = count; k-- > 0;) {
    const NodeView& node = view.nodes[static_cast<size_t>(row[k])];
    double x = wanted[static_cast<size_t>(row[k])] - node.width / 2;
    if (k + 1 < count) x = std::min(x, from_right[k + 1] - node.width - kGapX);
    from_right[k] = x;
  }
  for (size_t i = 0; i < count; ++i) {
    view.nodes[static_cast<size_t>(row[i])].x = (from_left[i] + from_right[i]) / 2;
  }
}

}  // namespace

void Layout(GraphView& view) {
  const size_t n = view.nodes.size();
  std::vector<std::vector<int32_t>> preds(n);
  std::vector<std::vector<int32_t>> succs(n);
  for (const EdgeView& edge : view.edges) {
    if (edge.from == edge.to) continue;
    preds[static_cast<size_t>(edge.to)].push_back(edge.from);
    succs[static_cast<size_t>(edge.from)].push_back(edge.to);
  }
  const std::vector<int32_t> layer = Layers(view, preds, succs);
  const int32_t deepest = n == 0 ? -1 : *std::max_element(layer.begin(), layer.end());
  std::vector<std::vector<int32_t>> layers(static_cast<size_t>(deepest + 1));
  for (size_t v = 0; v < n; ++v) {
    layers[static_cast<size_t>(layer[v])].push_back(static_cast<int32_t>(v));
    view.nodes[v].layer = layer[v];
    view.nodes[v].width = WidthOf(view.nodes[v]);
    view.nodes[v].height = kBoxHeight + (view.nodes[v].weights.empty() ? 0 : kBadgeHeight);
  }
  std::vector<double> position(n, 0.5);
  for (const auto& row : layers) {
    for (size_t i = 0; i < row.size(); ++i) {
      position[static_cast<size_t>(row[i])] =
          row.size() > 1 ? static_cast<double>(i) / static_cast<double>(row.size() - 1) : 0.5;
    }
  }
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    Sweep(layers, position, preds, /*down=*/true);
    Sweep(layers, position, succs, /*down=*/false);
  }
  Sweep(layers, position, preds, /*down=*/true);

  // Each node under the mean centre of its inputs, layer by layer; the first layer side by side.
  std::vector<double> wanted(n, 0);
  double top = kMargin;
  for (const std::vector<int32_t>& row : layers) {
    double cursor = 0;
    for (int32_t v : row) {
      NodeView& node = view.nodes[static_cast<size_t>(v)];
      const auto& inputs = preds[static_cast<size_t>(v)];
      if (inputs.empty()) {
        wanted[static_cast<size_t>(v)] = cursor + node.width / 2;
      } else {
        double sum = 0;
        for (int32_t u : inputs) {
          const NodeView& input = view.nodes[static_cast<size_t>(u)];
          sum += input.x + input.width / 2;
        }
        wanted[static_cast<size_t>(v)] = sum / static_cast<double>(inputs.size());
      }
      cursor += node.width + kGapX;
    }
    PlaceRow(row, wanted, view);
    double row_height = 0;
    for (int32_t v : row) {
      NodeView& node = view.nodes[static_cast<size_t>(v)];
      node.y = top;
      row_height = std::max(row_height, node.height);
    }
    top += row_height + kGapY;
  }
  double left = 0;
  double right = 0;
  if (n > 0) {
    left = view.nodes[0].x;
    right = view.nodes[0].x + view.nodes[0].width;
    for (const NodeView& node : view.nodes) {
      left = std::min(left, node.x);
      right = std::max(right, node.x + node.width);
    }
  }
  for (NodeView& node : view.nodes) node.x += kMargin - left;
  view.width = right - left + 2 * kMargin;
  view.height = top - kGapY + kMargin;
  view.laid_out = true;
}

}  // namespace ge::explorer

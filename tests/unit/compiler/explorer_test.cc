// The compile explorer's C++ half: snapshots of the graph at each stage (weights folded into
// their readers, fused nodes with their originals), the layered layout, and the page's data.
// The page itself is tested in a browser (tests/unit/gec/explorer_browser_test.py).
#include "ge/compiler/explorer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/parser/onnx_parser.h"

namespace ge::explorer {
namespace {

const std::string kModelsDir = GE_TEST_MODELS_DIR;

struct Compiled {
  std::vector<GraphView> stages;
  CompiledModel model;
};

Compiled CompileBert() {
  Compiled out;
  testing::LoadOps();
  OnnxParseOptions parse;
  parse.input_shapes = {{"input_ids", {2, 16}}};
  auto graph = ParseOnnxFile(kModelsDir + "/bert_encoder_opset17/model.onnx", parse);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  auto compiler = Compiler::Create(testing::TestOptions());
  EXPECT_TRUE(compiler.ok()) << compiler.status().message();
  (*compiler)->SetStageDone([&out](const std::string& stage, const ComputeGraph& g) {
    out.stages.push_back(Snapshot(g, stage));
  });
  auto model = (*compiler)->Compile(*graph);
  EXPECT_TRUE(model.ok()) << model.status().message();
  out.model = std::move(*model);
  return out;
}

/// The JSON inside the page's <script id="data">.
nlohmann::json PageData(const std::string& page) {
  const std::string open = R"(<script id="data" type="application/json">)";
  const size_t begin = page.find(open);
  const size_t end = page.find("</script>", begin);
  EXPECT_NE(begin, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  return nlohmann::json::parse(page.substr(begin + open.size(), end - begin - open.size()));
}

void ExpectLaidOutCleanly(const GraphView& view) {
  ASSERT_TRUE(view.laid_out);
  std::map<int32_t, std::vector<const NodeView*>> layers;
  for (const NodeView& node : view.nodes) {
    EXPECT_GE(node.x, 0);
    EXPECT_LE(node.x + node.width, view.width + 1e-6);
    EXPECT_LE(node.y + node.height, view.height + 1e-6);
    layers[node.layer].push_back(&node);
  }
  for (auto& [layer, row] : layers) {
    std::sort(row.begin(), row.end(), [](auto* a, auto* b) { return a->x < b->x; });
    for (size_t i = 1; i < row.size(); ++i) {
      EXPECT_GE(row[i]->x, row[i - 1]->x + row[i - 1]->width)
          << "layer " << layer << ": " << row[i - 1]->name << " overlaps " << row[i]->name;
      EXPECT_EQ(row[i]->y, row[0]->y);
    }
  }
  for (const EdgeView& edge : view.edges) {
    const NodeView& from = view.nodes[static_cast<size_t>(edge.from)];
    const NodeView& to = view.nodes[static_cast<size_t>(edge.to)];
    EXPECT_LT(from.layer, to.layer) << from.name << " -> " << to.name;
    EXPECT_LT(from.y + from.height, to.y) << from.name << " -> " << to.name;
  }
}

TEST(Explorer, EachStageIsSnapshotWithWeightsFoldedIntoTheirReaders) {
  ASSERT_EQ(testing::ExportStatus(kModelsDir), "ok");
  Compiled c = CompileBert();
  std::vector<std::string> names;
  for (const GraphView& view : c.stages) names.push_back(view.stage);
  EXPECT_EQ(names, (std::vector<std::string>{"prepare", "optimize", "place", "build"}));

  const GraphView& parsed = c.stages.front();
  EXPECT_GT(parsed.folded_weights, 10u);
  EXPECT_EQ(parsed.nodes.size() + parsed.folded_weights, parsed.all_nodes);
  size_t badges = 0;
  for (const NodeView& node : parsed.nodes) {
    EXPECT_NE(node.type, "Const") << node.name << " is drawn, not folded";
    badges += node.weights.size();
  }
  EXPECT_GE(badges, parsed.folded_weights);  // a weight read twice has two badges
  // A node that reads a weight shows it as a badge: its input's name, dtype and shape.
  const auto reader = std::find_if(parsed.nodes.begin(), parsed.nodes.end(),
                                   [](const auto& n) { return !n.weights.empty(); });
  ASSERT_NE(reader, parsed.nodes.end());
  const std::string& badge = reader->weights.front();
  EXPECT_NE(badge.find(": DT_"), std::string::npos) << badge;
  EXPECT_EQ(badge.back(), ']') << badge;

  // Built: every node placed, on a stream, with planned output offsets; fused nodes name the
  // originals, which the parsed stage holds.
  const GraphView& built = c.stages.back();
  std::set<std::string> parsed_names;
  for (const NodeView& node : parsed.nodes) parsed_names.insert(node.name);
  size_t fused = 0;
  for (const NodeView& node : built.nodes) {
    EXPECT_FALSE(node.engine.empty()) << node.name;
    EXPECT_GE(node.stream, 0) << node.name;
    if (node.type != "Data" && node.type != "NetOutput" && !node.outputs.empty()) {
      EXPECT_GE(node.outputs.front().offset, 0) << node.name;
    }
    if (node.fused_from.empty()) continue;
    ++fused;
    for (const std::string& original : node.fused_from) {
      EXPECT_TRUE(parsed_names.count(original)) << node.name << " from " << original;
    }
  }
  EXPECT_GE(fused, 5u);
  // Edges join drawn nodes with the tensor's dtype and shape.
  ASSERT_FALSE(built.edges.empty());
  for (const EdgeView& edge : built.edges) {
    ASSERT_LT(static_cast<size_t>(edge.to), built.nodes.size());
    if (!edge.control) {
      EXPECT_EQ(edge.label.rfind("DT_", 0), 0u) << edge.label;
    }
  }
}

TEST(Explorer, LayoutPutsEveryEdgeDownwardWithoutOverlaps) {
  ASSERT_EQ(testing::ExportStatus(kModelsDir), "ok");
  Compiled c = CompileBert();
  for (GraphView& view : c.stages) {
    Layout(view);
    ExpectLaidOutCleanly(view);
  }
}

TEST(Explorer, LayoutOfALargeBranchyGraphKeepsItsRules) {
  // 3,000 nodes, each reading one to three earlier ones (skip connections of every length).
  GraphView view;
  std::mt19937 random(7);
  for (int i = 0; i < 3000; ++i) {
    NodeView node;
    node.name = "n" + std::to_string(i);
    node.type = i % 5 == 0 ? "AVeryLongOperatorTypeName" : "Add";
    view.nodes.push_back(node);
    if (i == 0) continue;
    const int inputs = 1 + static_cast<int>(random() % 3);
    std::set<int32_t> from;
    for (int k = 0; k < inputs; ++k) {
      const int back = 1 + static_cast<int>(random() % std::min(i, k == 0 ? 3 : 200));
      from.insert(i - back);
    }
    for (int32_t f : from) view.edges.push_back({f, i, false, ""});
  }
  Layout(view);
  ExpectLaidOutCleanly(view);
  // The same graph lays out the same way.
  GraphView again = view;
  Layout(again);
  for (size_t i = 0; i < view.nodes.size(); ++i) {
    ASSERT_EQ(view.nodes[i].x, again.nodes[i].x);
    ASSERT_EQ(view.nodes[i].y, again.nodes[i].y);
  }
}

TEST(Explorer, ACycleStillLaysOutAndEnds) {
  // The verifier refuses cycles before any stage, but the layout must not hang on one.
  GraphView view;
  for (int i = 0; i < 4; ++i) {
    NodeView node;
    node.name = "n" + std::to_string(i);
    view.nodes.push_back(node);
  }
  view.edges = {{0, 1, false, ""}, {1, 2, false, ""}, {2, 1, false, ""}, {2, 3, false, ""}};
  Layout(view);
  EXPECT_TRUE(view.laid_out);
  EXPECT_EQ(view.nodes[0].layer, 0);
  EXPECT_GT(view.nodes[1].layer, 0);
}

TEST(Explorer, EachSubgraphIsAViewNamingItsParent) {
  testing::LoadOps();
  testing::ProtoGraph b("root");
  NodePtr cond = b.Data("cond", {}, DT_BOOL);
  NodePtr x = b.Data("x", {2, 3});
  NodePtr if_node = b.Op("If", "choose", {{cond, 0}, {x, 0}}, {}, {{"input", 1}, {"output", 1}});
  b.Output({{if_node, 0}});
  for (int branch = 0; branch < 2; ++branch) {
    testing::ProtoGraph sub(branch == 0 ? "then" : "else");
    NodePtr in = sub.SubgraphData(sub.graph()->GetName() + "_in", 1, {2, 3});
    NodePtr op = sub.Op(branch == 0 ? "Relu" : "Neg", sub.graph()->GetName() + "_op", {{in, 0}});
    sub.Output({{op, 0}});
    ASSERT_TRUE(NodeUtils::SetSubgraph(if_node, static_cast<uint32_t>(branch), sub.graph()).ok());
  }
  const std::vector<GraphView> views = SnapshotAll(*b.graph(), "parsed");
  ASSERT_EQ(views.size(), 3u);
  EXPECT_EQ(views[0].graph, "root");
  EXPECT_TRUE(views[0].parent.empty());
  const auto choose = std::find_if(views[0].nodes.begin(), views[0].nodes.end(),
                                   [](const NodeView& n) { return n.name == "choose"; });
  ASSERT_NE(choose, views[0].nodes.end());
  ASSERT_EQ(choose->subgraphs.size(), 2u);
  std::set<std::string> names;
  for (size_t i = 1; i < views.size(); ++i) {
    EXPECT_EQ(views[i].parent, "choose");
    EXPECT_EQ(views[i].stage, "parsed");
    EXPECT_EQ(views[i].nodes.size(), 3u);  // the branch's Data, its operator, its NetOutput
    names.insert(views[i].graph);
  }
  EXPECT_EQ(names, (std::set<std::string>{choose->subgraphs[0].first, choose->subgraphs[1].first}));
  EXPECT_EQ(choose->subgraphs[0].second, 3u);
  ExplorerInput input;
  input.stages = views;
  const nlohmann::json data = PageData(RenderHtml(input));
  EXPECT_EQ(data["stages"][1]["parent"], "choose");
  EXPECT_EQ(data["stages"][0]["nodes"].size(), views[0].nodes.size());
}

TEST(Explorer, ThePageCarriesItsDataAndNothingInItEndsTheScript) {
  GraphView view;
  view.stage = "built";
  NodeView hostile;
  hostile.name = "</script><script>alert(1)</script>";
  hostile.type = "Relu";
  hostile.attrs = {{"note", "/*SCRIPT*/ /*DATA*/ <!--TITLE-->"}};
  view.nodes.push_back(hostile);
  Layout(view);
  ExplorerInput input;
  input.title = "<b>model</b>.onnx";
  input.stages.push_back(view);
  const std::string page = RenderHtml(input);
  // One data script and one program script: the name cannot open or close another.
  size_t scripts = 0;
  for (size_t at = page.find("<script"); at != std::string::npos;
       at = page.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(page.find("<b>model</b>"), std::string::npos);
  EXPECT_NE(page.find("&lt;b&gt;model&lt;/b&gt;.onnx"), std::string::npos);
  const nlohmann::json data = PageData(page);
  EXPECT_EQ(data["stages"][0]["nodes"][0]["n"], hostile.name);
  EXPECT_EQ(data["stages"][0]["nodes"][0]["a"][0][1], "/*SCRIPT*/ /*DATA*/ <!--TITLE-->");
  EXPECT_EQ(data["title"], "<b>model</b>.onnx");
  EXPECT_TRUE(data["report"].is_null());
  EXPECT_TRUE(data["profile"].is_null());
  // The program itself is in the page, once.
  EXPECT_NE(page.find("document.body.dataset.ready"), std::string::npos);
}

TEST(Explorer, AStageLargerThanTheLimitIsSentWithoutItsNodes) {
  ASSERT_EQ(testing::ExportStatus(kModelsDir), "ok");
  Compiled c = CompileBert();
  ExplorerInput input;
  input.title = "bert.onnx";
  input.max_view_nodes = c.stages.back().nodes.size();  // built fits; parsed does not
  for (GraphView& view : c.stages) {
    if (view.nodes.size() <= input.max_view_nodes) Layout(view);
    input.stages.push_back(view);
  }
  input.report = &c.model.report;
  input.plan = &c.model.plans.at(c.model.graph->GetName());
  input.profile = {{"a", "MatMul", 10.0, 2e6}, {"b", "Add", 5.0, -1}};
  const nlohmann::json data = PageData(RenderHtml(input));
  ASSERT_EQ(data["stages"].size(), 4u);
  EXPECT_TRUE(data["stages"][0]["too_large"].get<bool>());
  EXPECT_TRUE(data["stages"][0]["nodes"].empty());
  EXPECT_EQ(data["stages"][0]["drawn"], c.stages.front().nodes.size());
  EXPECT_FALSE(data["stages"][3]["too_large"].get<bool>());
  EXPECT_EQ(data["stages"][3]["nodes"].size(), c.stages.back().nodes.size());
  EXPECT_TRUE(data["stages"][3]["laid_out"].get<bool>());
  // The pass table, the memory plan's arena blocks and the profile.
  size_t passes = 0;
  for (const StageReport& stage : c.model.report.stages) passes += stage.passes.size();
  EXPECT_EQ(data["report"]["passes"].size(), passes);
  EXPECT_EQ(data["memory"]["arena_bytes"], input.plan->arena_bytes);
  size_t arena = 0;
  for (const auto& tensor : input.plan->tensors) {
    arena += tensor.region == memory::Region::kArena && tensor.size > 0;
  }
  EXPECT_EQ(data["memory"]["tensors"].size(), arena);
  EXPECT_DOUBLE_EQ(data["profile"]["total_us"].get<double>(), 15.0);
  EXPECT_FALSE(data["profile"]["nodes"][1].contains("flops"));
}

}  // namespace
}  // namespace ge::explorer

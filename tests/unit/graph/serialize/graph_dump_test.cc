// Graph dumps: DOT (clusters, dashed control edges, dtype/shape labels, engine/stream), Graphviz
// rendering, the JSON summary, and the DUMP_GE_GRAPH / DUMP_GRAPH_PATH switch.
#include "ge/graph/serialize/graph_dump.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "../graph_test_util.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "serialize_test_util.h"

namespace ge {
namespace {

using serialize_test::FailsWith;
using serialize_test::MakeRichGraph;

namespace fs = std::filesystem;

/// A fresh directory under /tmp, removed at the end of the test.
class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("ge_dump_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

/// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    if (value == nullptr) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value, /*overwrite=*/1);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), {}};
}

/// "NNNN_<rest>" with four digits.
bool IsDumpName(const std::string& name, const std::string& rest) {
  if (name.size() != 5 + rest.size() || name[4] != '_' || name.substr(5) != rest) return false;
  return std::all_of(name.begin(), name.begin() + 4, [](char c) { return c >= '0' && c <= '9'; });
}

TEST(GraphDump, DotShowsClustersControlEdgesTypesAndEngines) {
  ComputeGraphPtr graph = MakeRichGraph();
  const std::string dot = GraphDump::ToDot(*graph);
  EXPECT_EQ(dot.rfind("digraph \"rich\" {", 0), 0u) << dot.substr(0, 80);
  EXPECT_NE(dot.find("compound=true"), std::string::npos);
  EXPECT_NE(dot.find("label=\"conv\\nConv2D\\nengine DNN_VM_HOST_CPU, stream 3\""),
            std::string::npos);
  EXPECT_NE(dot.find("DT_FLOAT[1,3,4,4]"), std::string::npos) << "dtype and shape on edges";
  EXPECT_NE(dot.find("style=dashed"), std::string::npos) << "control edges";
  EXPECT_NE(dot.find("label=\"if_then (subgraph of if)\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"if_then_inner (subgraph of if_then_call)\""), std::string::npos);
  EXPECT_NE(dot.find("lhead=cluster_"), std::string::npos);
  // The nested cluster sits inside its parent's cluster.
  const size_t outer = dot.find("subgraph cluster_0");
  const size_t inner = dot.find("subgraph cluster_1");
  ASSERT_NE(outer, std::string::npos);
  ASSERT_NE(inner, std::string::npos);
  EXPECT_LT(outer, inner);
  EXPECT_EQ(dot.back(), '\n');
}

TEST(GraphDump, DotEscapesNames) {
  auto graph = std::make_shared<ComputeGraph>("quote\"back\\slash");
  testing::AddNode(graph, "a\"b", "T\\x", 0, 0);
  const std::string dot = GraphDump::ToDot(*graph);
  EXPECT_NE(dot.find("digraph \"quote\\\"back\\\\slash\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"a\\\"b\\nT\\\\x\""), std::string::npos) << dot;
}

TEST(GraphDump, RendersSvgWithGraphviz) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "graphviz not installed";
  TempDir dir;
  const std::string dot_path = (dir.path() / "rich.dot").string();
  ASSERT_TRUE(GraphDump::WriteFile(dot_path, GraphDump::ToDot(*MakeRichGraph())).ok());
  const std::string svg_path = (dir.path() / "rich.svg").string();
  const Status status = GraphDump::RenderDot(dot_path, svg_path, "svg");
  ASSERT_TRUE(status.ok()) << status.ToString();
  const std::string svg = ReadFile(svg_path);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Conv2D"), std::string::npos);
}

TEST(GraphDump, MissingDotNamesThePackage) {
  TempDir dir;
  const std::string dot_path = (dir.path() / "g.dot").string();
  ASSERT_TRUE(GraphDump::WriteFile(dot_path, "digraph g {}\n").ok());
  EXPECT_TRUE(FailsWith(GraphDump::RenderDot(dot_path, (dir.path() / "g.png").string(), "png", 10,
                                             "ge-no-such-dot-program"),
                        {"not found", "install the Debian package graphviz"}));
}

TEST(GraphDump, DotFailureShowsItsMessage) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "graphviz not installed";
  TempDir dir;
  const std::string dot_path = (dir.path() / "bad.dot").string();
  ASSERT_TRUE(GraphDump::WriteFile(dot_path, "this is not dot {").ok());
  EXPECT_TRUE(FailsWith(GraphDump::RenderDot(dot_path, (dir.path() / "bad.svg").string(), "svg"),
                        {"'dot' failed with exit code", "syntax error"}));
}

TEST(GraphDump, JsonSummary) {
  ComputeGraphPtr graph = MakeRichGraph();
  const std::string json = GraphDump::ToJson(*graph);
  EXPECT_NE(json.find("\"graph\": \"rich\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"nodes\": " + std::to_string(graph->GetAllNodesSize())), std::string::npos);
  EXPECT_NE(json.find("\"Conv2D\": 1"), std::string::npos);
  EXPECT_NE(json.find("\"Data\": 5"), std::string::npos) << "2 main + 3 subgraph inputs";
  EXPECT_NE(json.find("{\"name\": \"data0\", \"type\": \"Data\", \"dtype\": \"DT_FLOAT\", "
                      "\"format\": \"NCHW\", \"shape\": [1,3,4,4]}"),
            std::string::npos);
  EXPECT_NE(json.find("{\"node\": \"concat\", \"index\": 0, \"dtype\": \"DT_FLOAT\""),
            std::string::npos);
  EXPECT_NE(json.find("{\"name\": \"if_then_inner\", \"parent_node\": \"if_then_call\", "
                      "\"nodes\": 3}"),
            std::string::npos);
  EXPECT_NE(json.find("\"weights\": {\"count\": 1, \"bytes\": 432}"), std::string::npos);
}

// Dims known only at run time show their expressions (kAttrSymbolicDims) where they have one.
TEST(GraphDump, DimsKnownAtRunTimeShowTheirExpressions) {
  GraphBuilder b("symbolic");
  GeTensorDesc desc = GraphBuilder::Desc({-1, -1, 8});
  ASSERT_TRUE(AttrUtils::SetListStr(desc, kAttrSymbolicDims,
                                    std::vector<std::string>{"batch", "seq*2", ""}));
  auto x = b.AddData("x", desc);
  ASSERT_TRUE(x.ok());
  GeTensorDesc unnamed = GraphBuilder::Desc({-1, 8});
  auto y = b.AddData("y", unnamed);
  ASSERT_TRUE(y.ok());
  ASSERT_TRUE(b.AddNetOutput({*x, *y}).ok());
  const std::string dot = GraphDump::ToDot(*b.GetGraph());
  EXPECT_NE(dot.find("DT_FLOAT[batch,seq*2,8]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("DT_FLOAT[-1,8]"), std::string::npos) << dot;
  const std::string json = GraphDump::ToJson(*b.GetGraph());
  EXPECT_NE(json.find("\"shape\": [-1,-1,8], \"symbolic_shape\": [\"batch\",\"seq*2\",8]"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"shape\": [-1,8]}"), std::string::npos) << json;  // nothing to add
}

TEST(GraphDump, JsonOfAnEmptyGraphIsValidShape) {
  auto graph = std::make_shared<ComputeGraph>("empty");
  EXPECT_EQ(GraphDump::ToJson(*graph),
            "{\n  \"graph\": \"empty\",\n  \"nodes\": 0,\n  \"direct_nodes\": 0,\n"
            "  \"node_types\": {},\n  \"inputs\": [],\n  \"outputs\": [],\n"
            "  \"subgraphs\": [],\n  \"weights\": {\"count\": 0, \"bytes\": 0}\n}\n");
}

TEST(GraphDumper, OffByDefault) {
  ScopedEnv level("DUMP_GE_GRAPH", nullptr);
  Result<DumpConfig> config = GraphDumper::ConfigFromEnv();
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->level, DumpLevel::kOff);
  EXPECT_TRUE(GraphDumper::MaybeDump(*MakeRichGraph(), "stage").ok());
  ScopedEnv zero("DUMP_GE_GRAPH", "0");
  EXPECT_EQ(GraphDumper::ConfigFromEnv()->level, DumpLevel::kOff);
}

TEST(GraphDumper, DumpsNumberedStagesToTheDirectory) {
  TempDir dir;
  const std::string out = (dir.path() / "nested" / "dumps").string();
  ScopedEnv level("DUMP_GE_GRAPH", "1");
  ScopedEnv path("DUMP_GRAPH_PATH", out.c_str());
  ComputeGraphPtr graph = MakeRichGraph();
  ASSERT_TRUE(GraphDumper::MaybeDump(*graph, "PrepareGraph").ok());
  ASSERT_TRUE(GraphDumper::MaybeDump(*graph, "after const/fold pass").ok());
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(out)) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 4u);
  EXPECT_TRUE(IsDumpName(files[0], "PrepareGraph.dot")) << files[0];
  EXPECT_TRUE(IsDumpName(files[1], "PrepareGraph.pbtxt")) << files[1];
  EXPECT_TRUE(IsDumpName(files[2], "after_const_fold_pass.dot")) << files[2];
  EXPECT_TRUE(IsDumpName(files[3], "after_const_fold_pass.pbtxt")) << files[3];
  EXPECT_LT(files[1].substr(0, 4), files[2].substr(0, 4)) << "numbers follow stage order";
  // The text dump is a full ModelDef: it loads back equal.
  Result<ComputeGraphPtr> loaded = ModelSerialize::LoadFromFile(out + "/" + files[1]);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE(serialize_test::SameGraph(*graph, *loaded.value()));
  EXPECT_EQ(ReadFile(out + "/" + files[0]).rfind("digraph", 0), 0u);
}

TEST(GraphDumper, LevelsTwoAndThreeLeaveOutWeightsAndAttributes) {
  TempDir dir;
  ComputeGraphPtr graph = MakeRichGraph();
  for (DumpLevel level : {DumpLevel::kNoWeights, DumpLevel::kStructure}) {
    Result<std::vector<std::string>> paths =
        GraphDumper::Dump(*graph, "s", DumpConfig{level, dir.path().string()});
    ASSERT_TRUE(paths.ok()) << paths.status().ToString();
    ASSERT_EQ(paths->size(), 2u);
    Result<ComputeGraphPtr> loaded = ModelSerialize::LoadFromFile(paths->at(0));
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    Result<GeTensor> weight = OpDescUtils::GetConstValue(*loaded.value()->FindNode("weight"));
    if (level == DumpLevel::kNoWeights) {
      ASSERT_TRUE(weight.ok());
      EXPECT_EQ(weight->GetSize(), 0u);
    } else {
      EXPECT_FALSE(weight.ok()) << "no attributes at all";
    }
  }
}

TEST(GraphDumper, BadLevelOrDirectoryIsAnError) {
  {
    ScopedEnv level("DUMP_GE_GRAPH", "full");
    EXPECT_TRUE(FailsWith(GraphDumper::MaybeDump(*MakeRichGraph(), "s"),
                          {"DUMP_GE_GRAPH='full'", "1 (full), 2", "3"}));
  }
  TempDir dir;
  const std::string file = (dir.path() / "a_file").string();
  ASSERT_TRUE(GraphDump::WriteFile(file, "x").ok());
  EXPECT_TRUE(FailsWith(
      GraphDumper::Dump(*MakeRichGraph(), "s", DumpConfig{DumpLevel::kFull, file + "/sub"})
          .status(),
      {"dump graph 'rich' after stage 's'", "cannot create directory", "DUMP_GRAPH_PATH"}));
}

TEST(GraphUtilsDump, DumpGEGraphWritesWhenAskedOrAlways) {
  TempDir dir;
  ScopedEnv path("DUMP_GRAPH_PATH", dir.path().string().c_str());
  ComputeGraphPtr graph = MakeRichGraph();
  {
    ScopedEnv level("DUMP_GE_GRAPH", nullptr);
    GraphUtils::DumpGEGraph(graph, "off");
    EXPECT_TRUE(fs::is_empty(dir.path())) << "nothing without DUMP_GE_GRAPH";
    GraphUtils::DumpGEGraph(graph, "always", /*is_always_dump=*/true);
    EXPECT_FALSE(fs::is_empty(dir.path()));
  }
  const std::string named = (dir.path() / "mine.pbtxt").string();
  ScopedEnv level("DUMP_GE_GRAPH", "1");
  GraphUtils::DumpGEGraph(graph, "ignored", false, named);
  Result<ComputeGraphPtr> loaded = ModelSerialize::LoadFromFile(named);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE(serialize_test::SameGraph(*graph, *loaded.value()));
  GraphUtils::DumpGEGraph(nullptr, "null");  // nothing to write, no crash
}

}  // namespace
}  // namespace ge

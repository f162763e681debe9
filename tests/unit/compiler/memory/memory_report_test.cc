// Tests of the reports: text, JSON, SVG and PNG.
#include "ge/compiler/memory/memory_report.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "memory_test_builder.h"

namespace ge::memory {
namespace {

using testing::Contains;
using testing::MemGraph;

// a (1 KiB) → b (2 KiB) → c (1 KiB), with a's output still read by c: the peak is at b.
MemoryPlan SamplePlan() {
  MemGraph g;
  NodePtr a = g.Add("a", "Conv2D", 0, {1024});
  NodePtr b = g.Op("b", {a}, {2048}, "Relu");
  NodePtr c = g.Add("c", "Add", 2, {1024});
  g.Link(b, 0, c, 0);
  g.Link(a, 0, c, 1);
  g.Op("out", {c}, {}, "NetOutput");
  auto plan = g.Plan();
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? *plan : MemoryPlan{};
}

size_t Count(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(MemoryReport, TextNamesTheBoundStrategiesAndPeak) {
  const MemoryPlan plan = SamplePlan();
  const std::string text = FormatMemoryPlanText(plan);
  EXPECT_TRUE(Contains(text, "arena " + std::to_string(plan.arena_bytes) + " bytes"));
  EXPECT_TRUE(Contains(text, "lower bound 4096 bytes"));
  EXPECT_TRUE(Contains(text, "ratio 1.000"));
  for (const char* name : {"greedy_by_size", "greedy_by_breadth", "exact_size_reuse", "no_reuse"}) {
    EXPECT_TRUE(Contains(text, name)) << name;
  }
  EXPECT_TRUE(Contains(text, "peak step 2: 3 blocks live"));
  EXPECT_TRUE(Contains(text, "a:out0 (Conv2D)"));
}

TEST(MemoryReport, JsonHasEveryField) {
  const MemoryPlan plan = SamplePlan();
  const auto json = nlohmann::json::parse(MemoryPlanToJson(plan));
  EXPECT_EQ(json["arena_bytes"], plan.arena_bytes);
  EXPECT_EQ(json["lower_bound"], 4096);
  EXPECT_DOUBLE_EQ(json["ratio"].get<double>(), plan.Ratio());
  EXPECT_EQ(json["strategy"], plan.strategy);
  EXPECT_EQ(json["strategies"].size(), plan.strategies.size());
  EXPECT_EQ(json["strategies"][0]["name"], "greedy_by_size");
  EXPECT_TRUE(json["strategies"][0].contains("millis"));
  EXPECT_EQ(json["peak_step"], 2);
  EXPECT_EQ(json["peak_tensors"].size(), 3u);
  ASSERT_EQ(json["tensors"].size(), plan.tensors.size());
  const auto& first = json["tensors"][0];
  for (const char* field : {"node", "op_type", "output_index", "workspace_index", "region",
                            "offset", "size", "first_step", "last_step", "alias_of"}) {
    EXPECT_TRUE(first.contains(field)) << field;
  }
  EXPECT_EQ(first["region"], "arena");
}

TEST(MemoryReport, SvgHasOneRectanglePerArenaBlockAndMarksThePeak) {
  MemoryPlan plan = SamplePlan();
  const std::string svg = MemoryPlanToSvg(plan);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_TRUE(Contains(svg, "</svg>"));
  EXPECT_EQ(Count(svg, "class=\"tensor\""), 3u);
  EXPECT_EQ(Count(svg, "id=\"peak-step\""), 1u);
  EXPECT_TRUE(Contains(svg, "peak step 2"));
  // One colour per op type, listed in the legend.
  EXPECT_EQ(Count(svg, "class=\"legend\""), 3u);
  for (const char* type : {"Conv2D", "Relu", "Add"}) EXPECT_TRUE(Contains(svg, type)) << type;
  // Names are escaped.
  plan.tensors[0].node = "a<&>";
  EXPECT_TRUE(Contains(MemoryPlanToSvg(plan), "a&lt;&amp;&gt;"));
}

TEST(MemoryReport, PngNeedsAConverterOnPath) {
  const MemoryPlan plan = SamplePlan();
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path == nullptr ? "" : old_path;
  ASSERT_EQ(setenv("PATH", "/nonexistent", 1), 0);
  Status missing = WriteMemoryPlanPng(plan, ::testing::TempDir() + "/plan_missing.png");
  ASSERT_EQ(setenv("PATH", saved.c_str(), 1), 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.message(), "rsvg-convert"));
  EXPECT_TRUE(Contains(missing.message(), "apt-get install"));
}

// scripts/setup.sh installs librsvg2-bin (rsvg-convert), so the PNG is always made here.
TEST(MemoryReport, PngIsWritten) {
  const MemoryPlan plan = SamplePlan();
  const std::string path = ::testing::TempDir() + "/memory_plan.png";
  Status status = WriteMemoryPlanPng(plan, path);
  ASSERT_TRUE(status.ok()) << status.ToString();
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge::memory

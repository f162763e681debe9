// The .om file: a compiled model round-trips through it with its weights where the container
// puts them (aligned, mapped, shared), and every damaged file is refused with the cause named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../graph/status_test_util.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/model/compiled_model.h"

namespace ge {
namespace {

using testing::IsOk;
using testing::Must;

constexpr size_t kHeader = 64;
constexpr size_t kEntry = 24;

uint64_t ReadU64(const std::string& bytes, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}
void WriteU32(std::string& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void WriteU64(std::string& bytes, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

/// The table entry of partition `type` (its index in the table), or -1.
int EntryOf(const std::string& bytes, uint32_t type) {
  const uint32_t count = static_cast<uint8_t>(bytes[24]);
  for (uint32_t i = 0; i < count; ++i) {
    if (static_cast<uint8_t>(bytes[kHeader + kEntry * i]) == type) return static_cast<int>(i);
  }
  return -1;
}

GeTensorDesc FloatDesc(std::vector<int64_t> dims) {
  return GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, DT_FLOAT);
}

/// Data and two Const weights (one of 1000 floats, one of 3) into an AddN, then NetOutput; two
/// tasks on two streams and a memory plan.
CompiledModel MakeModel() {
  GraphBuilder builder("model");
  const ComputeGraphPtr& graph = builder.GetGraph();
  const GeTensorDesc big = FloatDesc({10, 100});
  NodePtr data = Must(builder.AddNode("x", "Data", 0, 1, big));
  NodePtr w = Must(builder.AddNode("w", "Const", 0, 1, big));
  NodePtr b = Must(builder.AddNode("b", "Const", 0, 1, FloatDesc({3})));
  NodePtr sum = Must(builder.AddNode("sum", "AddN", 3, 1, big));
  NodePtr out = Must(builder.AddNode("out", "NetOutput", 1, 0, big));
  std::vector<float> wv(1000);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<float>(i) * 0.5F;
  const std::vector<float> bv = {1.0F, -2.0F, 3.5F};
  EXPECT_TRUE(OpDescUtils::SetConstValue(
                  w, GeTensor(big, reinterpret_cast<const uint8_t*>(wv.data()), wv.size() * 4))
                  .ok());
  EXPECT_TRUE(OpDescUtils::SetConstValue(
                  b, GeTensor(FloatDesc({3}), reinterpret_cast<const uint8_t*>(bv.data()), 12))
                  .ok());
  EXPECT_TRUE(IsOk(builder.AddDataEdge(data, sum, 0)));
  EXPECT_TRUE(IsOk(builder.AddDataEdge(w, sum, 1)));
  EXPECT_TRUE(IsOk(builder.AddDataEdge(b, sum, 2)));
  EXPECT_TRUE(IsOk(builder.AddDataEdge(sum, out, 0)));

  CompiledModel model;
  model.graph = graph;
  model.stream_count = 2;
  TaskDef add;
  add.kernel_name = "AddN";
  add.engine = "DNN_VM_HOST_CPU";
  add.op_name = "sum";
  add.op_id = 3;
  add.stream_id = 1;
  add.args["dynamic"] = "1";
  TaskDef record;
  record.kernel_name = "EventRecord";
  record.op_name = "sum";
  record.stream_id = 1;
  record.args["event"] = "0";
  model.tasks["model"] = {add, record};
  memory::MemoryPlan plan;
  plan.arena_bytes = 4096;
  plan.lower_bound = 4000;
  plan.strategy = "best-fit by size";
  plan.strategies = {{"best-fit by size", 4096, 0.25}, {"no reuse", 8192, 0.01}};
  plan.tensors.push_back({"sum", "AddN", 0, -1, memory::Region::kArena, 0, 4000, 3, 4, -1});
  plan.tensors.push_back({"w", "Const", 0, -1, memory::Region::kWeight, 0, 4000, 0, 4, -1});
  model.plans["model"] = plan;
  return model;
}

std::string Bytes(const CompiledModel& model) {
  auto bytes = model.Serialize();
  EXPECT_TRUE(bytes.ok()) << bytes.status().message();
  return bytes.ok() ? *bytes : std::string();
}

void ExpectSameModel(const CompiledModel& a, const CompiledModel& b) {
  Status same = GraphUtils::CheckEqual(*a.graph, *b.graph);
  EXPECT_TRUE(same.ok()) << same.message();
  EXPECT_EQ(a.tasks, b.tasks);
  EXPECT_EQ(a.stream_count, b.stream_count);
  ASSERT_EQ(a.plans.size(), b.plans.size());
  const memory::MemoryPlan& pa = a.plans.begin()->second;
  const memory::MemoryPlan& pb = b.plans.begin()->second;
  EXPECT_EQ(pa.arena_bytes, pb.arena_bytes);
  EXPECT_EQ(pa.lower_bound, pb.lower_bound);
  EXPECT_EQ(pa.strategy, pb.strategy);
  ASSERT_EQ(pa.strategies.size(), pb.strategies.size());
  EXPECT_EQ(pa.strategies[1].name, pb.strategies[1].name);
  EXPECT_EQ(pa.strategies[0].millis, pb.strategies[0].millis);
  ASSERT_EQ(pa.tensors.size(), pb.tensors.size());
  for (size_t i = 0; i < pa.tensors.size(); ++i) {
    EXPECT_EQ(pa.tensors[i].node, pb.tensors[i].node);
    EXPECT_EQ(pa.tensors[i].region, pb.tensors[i].region);
    EXPECT_EQ(pa.tensors[i].size, pb.tensors[i].size);
    EXPECT_EQ(pa.tensors[i].last_step, pb.tensors[i].last_step);
  }
}

TEST(CompiledModelFile, RoundTripsGraphTasksPlansAndWeights) {
  CompiledModel model = MakeModel();
  const std::string bytes = Bytes(model);
  auto loaded = CompiledModel::Deserialize(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ExpectSameModel(model, *loaded);
  // The weights' bytes are back, and no trace of where they were kept stays on the graph.
  NodePtr w = loaded->graph->FindNode("w");
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(w->GetOpDesc()->HasAttr("_om_weight"));
  auto value = OpDescUtils::GetConstValue(*w);
  ASSERT_TRUE(value.ok());
  ASSERT_EQ(value->GetSize(), 4000U);
  float third = 0;
  std::memcpy(&third, value->GetData().data() + 8, 4);
  EXPECT_EQ(third, 1.0F);
  // Writing left the in-memory model whole: a second write is byte for byte the first.
  EXPECT_EQ(Bytes(model), bytes);
}

TEST(CompiledModelFile, WeightsLieAlignedInOnePartitionOutsideTheGraph) {
  const std::string bytes = Bytes(MakeModel());
  ASSERT_EQ(bytes.compare(0, 8, "OPENGEOM"), 0);
  const int weights = EntryOf(bytes, 1);
  const int graph = EntryOf(bytes, 0);
  ASSERT_GE(weights, 0);
  ASSERT_GE(graph, 0);
  const uint64_t offset = ReadU64(bytes, kHeader + kEntry * weights + 8);
  const uint64_t size = ReadU64(bytes, kHeader + kEntry * weights + 16);
  EXPECT_EQ(offset % 4096, 0U);
  EXPECT_GE(size, 4000U + 12U);
  // The graph partition holds descs only: far smaller than the 4000-byte weight.
  EXPECT_LT(ReadU64(bytes, kHeader + kEntry * graph + 16), 2000U);

  auto loaded = CompiledModel::Deserialize(bytes);
  ASSERT_TRUE(loaded.ok());
  for (const char* name : {"w", "b"}) {
    auto value = OpDescUtils::GetConstValue(*loaded->graph->FindNode(name));
    ASSERT_TRUE(value.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(value->GetData().data()) % 64, 0U) << name;
  }
}

TEST(CompiledModelFile, LoadingAFileMapsItsWeightsInsteadOfCopyingThem) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("om_map_test_" + std::to_string(::getpid()) + ".om"))
                               .string();
  ASSERT_TRUE(MakeModel().SaveToFile(path).ok());
  auto loaded = CompiledModel::LoadFromFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ExpectSameModel(MakeModel(), *loaded);
  auto value = OpDescUtils::GetConstValue(*loaded->graph->FindNode("w"));
  ASSERT_TRUE(value.ok());
  const auto where = reinterpret_cast<uintptr_t>(value->GetData().data());
  // The weight's bytes lie in a read-only mapping of the file itself.
  std::ifstream maps("/proc/self/maps");
  std::string line;
  bool in_mapping = false;
  while (std::getline(maps, line)) {
    if (line.find(path) == std::string::npos) continue;
    uintptr_t lo = 0;
    uintptr_t hi = 0;
    char dash = 0;
    std::istringstream(line) >> std::hex >> lo >> dash >> hi;
    if (where >= lo && where < hi) in_mapping = line.find(" r--") != std::string::npos;
  }
  EXPECT_TRUE(in_mapping) << "weight at " << std::hex << where << " is not in a mapping of "
                          << path;
  std::filesystem::remove(path);
  // The mapping outlives the file's name: the model still reads its weights.
  float first = -1;
  std::memcpy(&first, value->GetData().data() + 4, 4);
  EXPECT_EQ(first, 0.5F);
  EXPECT_TRUE(CompiledModel::IsCompiledModelFile("/nonexistent") == false);
}

// SaveToFile streams the weights from where they lie; the file it writes is byte for byte the one
// Serialize gathers in memory, and the graph keeps its weights after either.
TEST(CompiledModelFile, SavingStreamsTheSameBytesSerializeGives) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("om_stream_test_" + std::to_string(::getpid()) + ".om"))
                               .string();
  CompiledModel model = MakeModel();
  ASSERT_TRUE(model.SaveToFile(path).ok());
  auto bytes = model.Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  std::ifstream in(path, std::ios::binary);
  std::stringstream written;
  written << in.rdbuf();
  EXPECT_EQ(written.str(), *bytes);
  ExpectSameModel(MakeModel(), model);
  std::filesystem::remove(path);
  EXPECT_FALSE(model.SaveToFile("/nonexistent/dir/x.om").ok());
}

TEST(CompiledModelFile, EveryTruncationIsRefusedAsTruncated) {
  const std::string bytes = Bytes(MakeModel());
  for (size_t cut = 0; cut < bytes.size(); cut += (cut < 256 ? 1 : 97)) {
    auto loaded = CompiledModel::Deserialize(std::string_view(bytes).substr(0, cut));
    ASSERT_FALSE(loaded.ok()) << "cut at " << cut;
    const std::string& message = loaded.status().message();
    EXPECT_TRUE(message.find(cut < 8 ? "not an OpenGE compiled model" : "cut short") !=
                    std::string::npos ||
                message.find("truncated") != std::string::npos)
        << "cut at " << cut << ": " << message;
  }
}

struct Damage {
  const char* what;
  void (*apply)(std::string& bytes);
  const char* message;
};

TEST(CompiledModelFile, DamagedHeadersTablesAndPartitionsNameTheirCause) {
  const Damage damages[] = {
      {"magic", [](std::string& b) { b[0] = 'X'; }, "does not start with \"OPENGEOM\""},
      {"old format", [](std::string& b) { WriteU32(b, 8, 1); }, "format 1 is not supported"},
      {"header size", [](std::string& b) { WriteU32(b, 12, 32); }, "header size is 32"},
      {"length", [](std::string& b) { WriteU64(b, 16, b.size() + 1); }, "truncated"},
      {"partition count", [](std::string& b) { WriteU32(b, 24, 1000); }, "1000 partitions"},
      {"unknown type", [](std::string& b) { WriteU32(b, kHeader, 77); }, "unknown type"},
      {"duplicate", [](std::string& b) { WriteU32(b, kHeader + kEntry, 0); }, "twice"},
      {"outside", [](std::string& b) { WriteU64(b, kHeader + 16, b.size()); },
       "lies outside the file"},
      {"size overflow", [](std::string& b) { WriteU64(b, kHeader + 16, ~uint64_t{0} - 8); },
       "lies outside the file"},
      {"overlap",
       [](std::string& b) { WriteU64(b, kHeader + kEntry + 8, ReadU64(b, kHeader + 8)); },
       "overlap"},
      {"weights misaligned",
       [](std::string& b) {
         const int w = EntryOf(b, 1);
         WriteU64(b, kHeader + kEntry * w + 8, ReadU64(b, kHeader + kEntry * w + 8) + 64);
         WriteU64(b, kHeader + kEntry * w + 16, ReadU64(b, kHeader + kEntry * w + 16) - 64);
       },
       "not a multiple of 4096"},
      {"weights short",
       [](std::string& b) {
         const int w = EntryOf(b, 1);
         WriteU64(b, kHeader + kEntry * w + 16, 100);
       },
       "lies outside the weights partition"},
      {"tasks garbage",
       [](std::string& b) {
         const int t = EntryOf(b, 2);
         const uint64_t at = ReadU64(b, kHeader + kEntry * t + 8);
         std::memset(b.data() + at, 0xFF, ReadU64(b, kHeader + kEntry * t + 16));
       },
       "task partition"},
      {"no tasks", [](std::string& b) { WriteU32(b, 24, 1); }, "no task partition"},
      {"graph garbage",
       [](std::string& b) {
         const uint64_t at = ReadU64(b, kHeader + 8);
         std::memset(b.data() + at, 0x07, 16);
       },
       "graph partition"},
  };
  const std::string good = Bytes(MakeModel());
  ASSERT_EQ(EntryOf(good, 0), 0);  // the damages assume the graph partition comes first
  for (const Damage& damage : damages) {
    std::string bytes = good;
    damage.apply(bytes);
    auto loaded = CompiledModel::Deserialize(bytes);
    ASSERT_FALSE(loaded.ok()) << damage.what;
    EXPECT_NE(loaded.status().message().find(damage.message), std::string::npos)
        << damage.what << ": " << loaded.status().message();
  }
}

TEST(CompiledModelFile, APlanInARegionThatDoesNotExistIsRefused) {
  CompiledModel model = MakeModel();
  model.plans["model"].tensors[0].region = static_cast<memory::Region>(9);
  auto loaded = CompiledModel::Deserialize(Bytes(model));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("region 9"), std::string::npos)
      << loaded.status().message();
}

/// MakeModel() with a chain of `levels` subgraphs below its graph: "sub<k>" is the subgraph of
/// node "call" of "sub<k-1>" (of the model's graph for k = 1), at level k.
CompiledModel NestedModel(int levels) {
  CompiledModel model = MakeModel();
  ComputeGraphPtr graph = model.graph;
  for (int k = 1; k <= levels; ++k) {
    NodePtr call =
        Must(GraphBuilder(graph).AddNode("call", "PartitionedCall", 0, 0, FloatDesc({1})));
    auto sub = std::make_shared<ComputeGraph>("sub" + std::to_string(k));
    Must(GraphBuilder(sub).AddNode("x", "Data", 0, 1, FloatDesc({1})));
    EXPECT_TRUE(IsOk(NodeUtils::SetSubgraph(call, 0, sub)));
    graph = sub;
  }
  return model;
}

TEST(CompiledModelFile, SubgraphsNestedToTheLimitLoad) {
  auto loaded = CompiledModel::Deserialize(Bytes(NestedModel(kMaxSubgraphDepth)));
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->graph->GetAllSubgraphs().size(), static_cast<size_t>(kMaxSubgraphDepth));
}

TEST(CompiledModelFile, SubgraphsNestedDeeperThanTheLimitAreRefused) {
  // The writer keeps what it is given; the reader refuses it.
  auto loaded = CompiledModel::Deserialize(Bytes(NestedModel(kMaxSubgraphDepth + 1)));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find(
                "the compiled model's graph partition: graph 'sub32', node 'call' "
                "(PartitionedCall), subgraph_name 'sub33': the graph is nested 33 levels deep; "
                "subgraphs may nest at most 32 levels"),
            std::string::npos)
      << loaded.status().message();
}

}  // namespace
}  // namespace ge

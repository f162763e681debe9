// Serialization throughput on a 100,000-node graph: ModelSerialize save and load (binary and
// text) beside protobuf alone parsing the same bytes. The figure to watch is load MB/s over
// protobuf-only MB/s: what building the graph costs on top of parsing. BM_CopyGraphInMemory
// (GraphUtils::CopyComputeGraph of the same graph) shows how much of that is the IR itself.
#include <benchmark/benchmark.h>
#include <google/protobuf/text_format.h>

#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge_ir.pb.h"

namespace {

constexpr int kNodes = 100000;
constexpr int kConstEvery = 1000;  // a Const with 1 KiB of weights every 1000 nodes

ge::OpDescPtr MakeOp(const std::string& name, const std::string& type, int n_in) {
  auto op = std::make_shared<ge::OpDesc>(name, type);
  const ge::GeTensorDesc desc(ge::GeShape({1, 64, 56, 56}), ge::FORMAT_NCHW, ge::DT_FLOAT);
  for (int i = 0; i < n_in; ++i) (void)op->AddInputDesc(desc);
  (void)op->AddOutputDesc(desc);
  ge::AttrUtils::SetInt(op, "group", 1);
  ge::AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{1, 1, 1, 1});
  ge::AttrUtils::SetStr(op, "padding", "SAME");
  return op;
}

/// Data, then nodes that each read the previous node and one further back (a DAG with fan-out),
/// a control edge every 100 nodes, and Const weights.
ge::ComputeGraphPtr BuildGraph() {
  auto graph = std::make_shared<ge::ComputeGraph>("bench");
  std::vector<ge::NodePtr> nodes;
  nodes.reserve(kNodes);
  nodes.push_back(graph->AddNode(MakeOp("data", "Data", 0)).value());
  while (static_cast<int>(nodes.size()) < kNodes) {
    const int i = static_cast<int>(nodes.size());
    const std::string number = std::to_string(i);
    if (i % kConstEvery == 0) {
      ge::GeTensor weight(ge::GeTensorDesc(ge::GeShape({256}), ge::FORMAT_ND, ge::DT_FLOAT),
                          std::vector<uint8_t>(1024, static_cast<uint8_t>(i)));
      nodes.push_back(graph->AddNode(ge::OpDescUtils::CreateConstOp("c" + number, weight)).value());
      continue;
    }
    ge::NodePtr node = graph->AddNode(MakeOp("n" + number, "Add", 2)).value();
    (void)ge::Anchor::Link(nodes[i - 1]->GetOutDataAnchor(0), node->GetInDataAnchor(0));
    (void)ge::Anchor::Link(nodes[i / 2]->GetOutDataAnchor(0), node->GetInDataAnchor(1));
    if (i % 100 == 0) {
      (void)ge::Anchor::Link(nodes[i - 50]->GetOutControlAnchor(), node->GetInControlAnchor());
    }
    nodes.push_back(std::move(node));
  }
  graph->SetGraphOutNodesInfo({{nodes.back(), 0}});
  return graph;
}

const ge::ComputeGraphPtr& BigGraphPtr() {
  static const ge::ComputeGraphPtr kGraph = BuildGraph();
  return kGraph;
}

const ge::ComputeGraph& Graph() { return *BigGraphPtr(); }

const std::string& Bytes(ge::SerializeFormat format) {
  static const std::string kBinary = ge::ModelSerialize::Serialize(Graph()).value();
  static const std::string kText =
      ge::ModelSerialize::Serialize(Graph(), ge::SerializeFormat::kText).value();
  return format == ge::SerializeFormat::kBinary ? kBinary : kText;
}

void Report(benchmark::State& state, size_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["nodes"] = kNodes;
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_Save(benchmark::State& state, ge::SerializeFormat format) {
  const size_t size = Bytes(format).size();  // builds the graph outside the timed loop
  for (auto _ : state) {
    ge::Result<std::string> bytes = ge::ModelSerialize::Serialize(Graph(), format);
    if (!bytes.ok()) state.SkipWithError(bytes.status().ToString().c_str());
    benchmark::DoNotOptimize(bytes);
  }
  Report(state, size);
}

void BM_Load(benchmark::State& state, ge::SerializeFormat format) {
  const std::string& bytes = Bytes(format);
  for (auto _ : state) {
    ge::Result<ge::ComputeGraphPtr> graph = ge::ModelSerialize::Deserialize(bytes, format);
    if (!graph.ok()) state.SkipWithError(graph.status().ToString().c_str());
    benchmark::DoNotOptimize(graph);
  }
  Report(state, bytes.size());
}

/// Protobuf alone: the floor under BM_Load.
void BM_ProtobufParseOnly(benchmark::State& state, ge::SerializeFormat format) {
  const std::string& bytes = Bytes(format);
  for (auto _ : state) {
    ge::proto::ModelDef model;
    const bool ok = format == ge::SerializeFormat::kBinary
                        ? model.ParseFromString(bytes)
                        : google::protobuf::TextFormat::ParseFromString(bytes, &model);
    if (!ok) state.SkipWithError("protobuf could not parse");
    benchmark::DoNotOptimize(model);
  }
  Report(state, bytes.size());
}

/// The IR alone building (and freeing) an equal graph, without any file: the other floor.
void BM_CopyGraphInMemory(benchmark::State& state) {
  const size_t size = Bytes(ge::SerializeFormat::kBinary).size();
  for (auto _ : state) {
    ge::Result<ge::ComputeGraphPtr> copy = ge::GraphUtils::CopyComputeGraph(BigGraphPtr());
    if (!copy.ok()) state.SkipWithError(copy.status().ToString().c_str());
    benchmark::DoNotOptimize(copy);
  }
  Report(state, size);
}

// Each iteration takes a second or more; a few of them steady the figures.
#define GE_SERIALIZE_BENCH(fn, name, format) \
  BENCHMARK_CAPTURE(fn, name, format)->Unit(benchmark::kMillisecond)->MinTime(3.0)
GE_SERIALIZE_BENCH(BM_Save, binary, ge::SerializeFormat::kBinary);
GE_SERIALIZE_BENCH(BM_Load, binary, ge::SerializeFormat::kBinary);
GE_SERIALIZE_BENCH(BM_ProtobufParseOnly, binary, ge::SerializeFormat::kBinary);
BENCHMARK(BM_CopyGraphInMemory)->Unit(benchmark::kMillisecond)->MinTime(3.0);
GE_SERIALIZE_BENCH(BM_Save, text, ge::SerializeFormat::kText);
GE_SERIALIZE_BENCH(BM_Load, text, ge::SerializeFormat::kText);
GE_SERIALIZE_BENCH(BM_ProtobufParseOnly, text, ge::SerializeFormat::kText);

}  // namespace

BENCHMARK_MAIN();

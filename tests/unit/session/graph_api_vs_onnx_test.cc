// The networks of examples/graph_api/networks.h, built with GE's graph API, are the networks of
// models/small_cnn.onnx and models/attention_block.onnx: the same graph node for node (types,
// attributes with the prototype's defaults filled in, edges, weights) and the same numbers when
// both are compiled and run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ge/api/graph.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/ge_api.h"
#include "networks.h"

namespace ge {
namespace {

struct Parsed {
  ComputeGraphPtr graph;
  graph_api_example::Weights weights;
};

Parsed Parse(const std::string& file) {
  Parsed parsed;
  auto graph = ParseOnnxFile(std::string(GE_TEST_SOURCE_MODELS_DIR) + "/" + file);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return parsed;
  parsed.graph = *graph;
  for (const NodePtr& node : parsed.graph->GetDirectNode()) {
    if (!IsConstType(node->GetType())) continue;
    auto value = OpDescUtils::GetConstValue(*node);
    if (value.ok()) parsed.weights[node->GetName()] = TensorAdapter::AsTensor(*value);
  }
  return parsed;
}

// Whether the graphs that end at `a` and `b` are the same network: the same op types, the same
// attributes (a declared attribute left out counts as its default), the same producers input by
// input, equal constants. On a difference, `why` says where.
class SameNetwork {
 public:
  bool Equal(const Node& a, const Node& b) {
    if (!seen_.insert({&a, &b}).second) return true;
    if (a.GetType() != b.GetType()) {
      return Differ(a, b, "types " + a.GetType() + " and " + b.GetType());
    }
    if (IsConstType(a.GetType())) return EqualConsts(a, b);
    if (!EqualAttrs(a, b)) return false;
    if (IsDataType(a.GetType()) &&
        a.GetOpDesc()->GetOutputDesc(0).GetShape() != b.GetOpDesc()->GetOutputDesc(0).GetShape()) {
      return Differ(a, b, "input shapes");
    }
    const size_t inputs = std::max(a.GetAllInDataAnchorsSize(), b.GetAllInDataAnchorsSize());
    for (size_t i = 0; i < inputs; ++i) {
      auto producer = [i](const Node& n) -> std::pair<const Node*, int> {
        if (i >= n.GetAllInDataAnchorsSize()) return {nullptr, -1};
        auto peer = n.GetInDataAnchor(static_cast<int>(i))->GetPeerOutAnchor();
        if (peer == nullptr) return {nullptr, -1};
        return {peer->GetOwnerNode().get(), peer->GetIdx()};
      };
      auto [pa, ia] = producer(a);
      auto [pb, ib] = producer(b);
      if ((pa == nullptr) != (pb == nullptr) || ia != ib) {
        return Differ(a, b, "input " + std::to_string(i) + " is linked differently");
      }
      if (pa != nullptr && !Equal(*pa, *pb)) return false;
    }
    return true;
  }
  const std::string& why() const { return why_; }

 private:
  bool Differ(const Node& a, const Node& b, const std::string& what) {
    why_ = "'" + a.GetName() + "' and '" + b.GetName() + "' differ: " + what;
    return false;
  }

  bool EqualAttrs(const Node& a, const Node& b) {
    auto proto = OpRegistry::Instance().Find(a.GetType());
    if (proto == nullptr) return Differ(a, b, "no prototype");
    for (const OpAttrDef& def : proto->attrs()) {
      auto value = [&](const Node& n) {
        const AttrValue* v = n.GetOpDesc()->GetAttrMap().Get(def.name);
        return v == nullptr ? def.default_value : *v;
      };
      if (!(value(a) == value(b))) return Differ(a, b, "attribute " + def.name);
    }
    return true;
  }

  bool EqualConsts(const Node& a, const Node& b) {
    auto va = OpDescUtils::GetConstValue(a);
    auto vb = OpDescUtils::GetConstValue(b);
    if (!va.ok() || !vb.ok()) return Differ(a, b, "a constant without a value");
    const GeTensorDesc& da = va->GetTensorDesc();
    const GeTensorDesc& db = vb->GetTensorDesc();
    if (da.GetDataType() != db.GetDataType() || da.GetShape() != db.GetShape() ||
        va->GetData().size() != vb->GetData().size() ||
        std::memcmp(va->GetData().data(), vb->GetData().data(), va->GetData().size()) != 0) {
      return Differ(a, b, "constant values");
    }
    return true;
  }

  std::set<std::pair<const Node*, const Node*>> seen_;
  std::string why_;
};

NodePtr NetOutputOf(const ComputeGraphPtr& graph) {
  for (const NodePtr& node : graph->GetDirectNode()) {
    if (node->GetType() == kTypeNetOutput) return node;
  }
  return nullptr;
}

size_t ComputeNodes(const ComputeGraphPtr& graph) {
  size_t n = 0;
  for (const NodePtr& node : graph->GetDirectNode()) n += IsConstType(node->GetType()) ? 0 : 1;
  return n;
}

GeTensor RandomInput(const ComputeGraphPtr& graph) {
  for (const NodePtr& node : graph->GetDirectNode()) {
    if (!IsDataType(node->GetType())) continue;
    GeTensorDesc desc = node->GetOpDesc()->GetOutputDesc(0);
    const auto count = static_cast<size_t>(desc.GetShape().GetShapeSize());
    std::vector<float> values(count);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& v : values) v = dist(rng);
    return {desc, reinterpret_cast<const uint8_t*>(values.data()), count * sizeof(float)};
  }
  return {};
}

const std::map<std::string, std::string> kOptions = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};

std::vector<float> RunOnnx(const ComputeGraphPtr& parsed, const GeTensor& input) {
  auto compiler = Compiler::Create(kOptions);
  EXPECT_TRUE(compiler.ok()) << compiler.status().message();
  auto compiled = (*compiler)->Compile(parsed);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  RuntimeOptions runtime;
  runtime.options = kOptions;
  auto model = LoadedModel::Load(std::move(compiled).value(), runtime);
  EXPECT_TRUE(model.ok()) << model.status().message();
  auto out = (*model)->Run({input});
  EXPECT_TRUE(out.ok()) << out.status().message();
  const auto* data = reinterpret_cast<const float*>((*out)[0].GetData().data());
  std::vector<float> values(data, data + (*out)[0].GetData().size() / sizeof(float));
  return values;
}

std::vector<float> RunWithSession(const Graph& graph, const GeTensor& input) {
  Session session(kOptions);
  EXPECT_EQ(session.AddGraph(1, graph), GRAPH_SUCCESS) << GEGetErrorMsg();
  std::vector<Tensor> outputs;
  EXPECT_EQ(session.RunGraph(1, {TensorAdapter::AsTensor(input)}, outputs), GRAPH_SUCCESS)
      << GEGetErrorMsg();
  if (outputs.size() != 1) return {};
  const auto* data = reinterpret_cast<const float*>(outputs[0].GetData());
  std::vector<float> values(data, data + outputs[0].GetSize() / sizeof(float));
  return values;
}

void ExpectSameNetwork(const std::string& file, Graph (*build)(const graph_api_example::Weights&)) {
  Parsed parsed = Parse(file);
  ASSERT_NE(parsed.graph, nullptr);
  Graph typed = build(parsed.weights);
  auto built = typed.ToComputeGraph();
  ASSERT_TRUE(built.ok()) << built.status().message();
  EXPECT_EQ(ComputeNodes(*built), ComputeNodes(parsed.graph));
  SameNetwork same;
  ASSERT_TRUE(same.Equal(*NetOutputOf(*built), *NetOutputOf(parsed.graph))) << same.why();

  const GeTensor input = RandomInput(parsed.graph);
  const std::vector<float> expected = RunOnnx(parsed.graph, input);
  const std::vector<float> got = RunWithSession(typed, input);
  ASSERT_EQ(got.size(), expected.size());
  ASSERT_FALSE(got.empty());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], expected[i]) << "element " << i;  // the same graph compiles the same way
  }
}

TEST(GraphApiVsOnnx, SmallCnnIsTheNetworkOfTheOnnxFile) {
  ExpectSameNetwork("small_cnn.onnx", graph_api_example::SmallCnn);
}

TEST(GraphApiVsOnnx, AttentionBlockIsTheNetworkOfTheOnnxFile) {
  ExpectSameNetwork("attention_block.onnx", graph_api_example::AttentionBlock);
}

TEST(GraphApiVsOnnx, ADifferentAttributeIsADifferentNetwork) {
  Parsed parsed = Parse("small_cnn.onnx");
  ASSERT_NE(parsed.graph, nullptr);
  Graph typed = graph_api_example::SmallCnn(parsed.weights);
  Operator stem;
  ASSERT_EQ(typed.FindOpByName("stem/conv", stem), GRAPH_SUCCESS);
  stem.SetAttr("strides", std::vector<int64_t>{1, 1});
  auto built = typed.ToComputeGraph();
  ASSERT_TRUE(built.ok()) << built.status().message();
  SameNetwork same;
  EXPECT_FALSE(same.Equal(*NetOutputOf(*built), *NetOutputOf(parsed.graph)));
  EXPECT_NE(same.why().find("attribute strides"), std::string::npos) << same.why();
}

TEST(GraphApiVsOnnx, AMissingWeightIsReportedWithItsName) {
  Parsed parsed = Parse("small_cnn.onnx");
  parsed.weights.erase("fc.bias");
  Session session(kOptions);
  ASSERT_EQ(session.AddGraph(1, graph_api_example::SmallCnn(parsed.weights)), GRAPH_SUCCESS);
  std::vector<Tensor> outputs;
  EXPECT_NE(session.RunGraph(1, {TensorAdapter::AsTensor(RandomInput(parsed.graph))}, outputs),
            GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("fc.bias"), std::string::npos) << GEGetErrorMsg();
}

}  // namespace
}  // namespace ge

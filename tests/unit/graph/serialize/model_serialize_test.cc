// ModelSerialize round trips: load(save(g)) equals g in binary and text, for every attribute
// type, data type and format, dynamic inputs, control edges, nested subgraphs and large weights.
#include "ge/graph/serialize/model_serialize.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../graph_test_util.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "serialize_test_util.h"

namespace ge {
namespace {

using serialize_test::Desc;
using serialize_test::EveryAttrValue;
using serialize_test::FailsWith;
using serialize_test::MakeChainGraph;
using serialize_test::MakeRichGraph;
using serialize_test::RoundTrip;
using serialize_test::SameGraph;
using testing::AddNode;
using testing::Link;

class RoundTripTest : public ::testing::TestWithParam<SerializeFormat> {};

TEST_P(RoundTripTest, RichGraphIsExact) {
  ComputeGraphPtr graph = MakeRichGraph();
  ComputeGraphPtr loaded = RoundTrip(*graph, GetParam());
  ASSERT_NE(loaded, nullptr);
  EXPECT_TRUE(GraphVerifier::Verify(*loaded).ok());
  EXPECT_TRUE(SameGraph(*graph, *loaded));
  EXPECT_TRUE(loaded->IsTrainingGraph());
}

TEST_P(RoundTripTest, EveryAttributeTypeOnItsOwn) {
  for (auto& [name, value] : EveryAttrValue()) {
    auto graph = std::make_shared<ComputeGraph>("g");
    NodePtr node = AddNode(graph, "n", "Foo", 0, 1);
    node->GetOpDescBarePtr()->MutableAttrMap().Set(name, value);
    ComputeGraphPtr loaded = RoundTrip(*graph, GetParam());
    ASSERT_NE(loaded, nullptr) << name;
    const AttrValue* got = loaded->FindNode("n")->GetOpDescBarePtr()->GetAttrMap().Get(name);
    ASSERT_NE(got, nullptr) << name;
    EXPECT_EQ(got->GetType(), value.GetType()) << name;
    EXPECT_TRUE(SameGraph(*graph, *loaded)) << name;
  }
}

TEST_P(RoundTripTest, SaveIsDeterministicAndIdempotent) {
  ComputeGraphPtr graph = MakeRichGraph();
  Result<std::string> first = ModelSerialize::Serialize(*graph, GetParam());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  Result<ComputeGraphPtr> loaded = ModelSerialize::Deserialize(first.value(), GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Result<std::string> second = ModelSerialize::Serialize(*loaded.value(), GetParam());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first.value(), second.value());
}

INSTANTIATE_TEST_SUITE_P(BinaryAndText, RoundTripTest,
                         ::testing::Values(SerializeFormat::kBinary, SerializeFormat::kText),
                         [](const auto& info) {
                           return info.param == SerializeFormat::kBinary ? "Binary" : "Text";
                         });

TEST(ModelSerialize, KeepsNodeOrderIdsAndInAnchorOrder) {
  ComputeGraphPtr graph = MakeChainGraph("chain", 50, /*const_every=*/7);
  // Ids that are not positions, as after removals.
  int64_t id = 1000;
  for (const auto& node : graph->GetDirectNode()) node->GetOpDescBarePtr()->SetId(id += 3);
  ComputeGraphPtr loaded = RoundTrip(*graph);
  ASSERT_NE(loaded, nullptr);
  EXPECT_TRUE(SameGraph(*graph, *loaded));
  EXPECT_EQ(loaded->FindNode("op7")->GetOpDescBarePtr()->GetId(),
            graph->FindNode("op7")->GetOpDescBarePtr()->GetId());
}

TEST(ModelSerialize, ControlEdgesAndUnlinkedInputsUseGeStrings) {
  auto graph = std::make_shared<ComputeGraph>("g");
  NodePtr a = AddNode(graph, "a", "Data", 0, 2);
  NodePtr b = AddNode(graph, "b", "Add", 3, 1);
  Link(a, 1, b, 0);
  Link(a, 0, b, 2);
  testing::Ctrl(a, b);
  Result<std::string> text = ModelSerialize::Serialize(*graph, SerializeFormat::kText);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("input: \"a:1\"\n    input: \"\"\n    input: \"a:0\"\n"
                       "    input: \"a:-1\""),
            std::string::npos)
      << text.value();
  EXPECT_NE(text->find("input: \"a:0\"\n  op {"), std::string::npos) << "GraphDef.input";
}

TEST(ModelSerialize, LargeWeightsRoundTrip) {
  constexpr size_t kBytes = size_t{48} << 20;
  std::vector<uint8_t> bytes(kBytes);
  for (size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
  auto graph = std::make_shared<ComputeGraph>("big");
  const auto elements = static_cast<int64_t>(kBytes / 4);
  NodePtr weight =
      graph->AddNode(OpDescUtils::CreateConstOp("w", GeTensor(Desc({elements}), std::move(bytes))))
          .value();
  NodePtr out = AddNode(graph, "out", "NetOutput", 1, 0);
  Link(weight, 0, out, 0);
  ComputeGraphPtr loaded = RoundTrip(*graph);
  ASSERT_NE(loaded, nullptr);
  EXPECT_TRUE(SameGraph(*graph, *loaded));
  Result<GeTensor> value = OpDescUtils::GetConstValue(*loaded->FindNode("w"));
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->GetSize(), kBytes);
}

TEST(ModelSerialize, GraphAttributeThatContainsItselfIsRefused) {
  ComputeGraphPtr graph = MakeChainGraph("loop", 3);
  AttrUtils::SetGraph(graph->FindNode("op1")->GetOpDesc(), "body", graph);
  Result<std::string> bytes = ModelSerialize::Serialize(*graph);
  EXPECT_TRUE(FailsWith(bytes.status(), {"nest more than", "contains itself"}));
  graph->FindNode("op1")->GetOpDescBarePtr()->DelAttr("body");  // break the cycle of owners
}

TEST(ModelSerialize, SaveRefusesWhatTheFormatCannotHold) {
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    AttrUtils::SetGraph(graph->FindNode("op1")->GetOpDesc(), "null_graph", nullptr);
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"graph 'g'", "node 'op1' (Relu)", "attr 'null_graph'", "null"}));
  }
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    AttrUtils::SetListStr(graph->FindNode("op1")->GetOpDesc(), "_opt_input", {"x"});
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"node 'op1'", "attr '_opt_input'", "reserves"}));
  }
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    graph->FindNode("op1")->GetOpDescBarePtr()->MutableOutputDesc(0)->SetDataType(
        static_cast<DataType>(5));
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"node 'op1'", "output_desc[0]", "dtype", "not a ge::DataType"}));
  }
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    AttrUtils::SetDataType(graph, "bad_dt", DT_MAX);
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"graph 'g'", "attr 'bad_dt'", std::to_string(DT_MAX)}));
  }
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    graph->FindNode("op1")->GetOpDescBarePtr()->SetName("op\xff");
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"graph 'g'", "name 'op\\xff'", "not valid UTF-8"}));
  }
  {
    ComputeGraphPtr graph = MakeChainGraph("g", 3);
    NodePtr op1 = graph->FindNode("op1");
    op1->GetOpDescBarePtr()->AddSubgraphInstanceName("ghost");
    EXPECT_TRUE(FailsWith(ModelSerialize::Serialize(*graph).status(),
                          {"node 'op1'", "subgraph_name 'ghost'", "no subgraph of that name"}));
  }
}

TEST(ModelSerialize, SubgraphRegisteredUnderAnotherNameKeepsBothNames) {
  ComputeGraphPtr graph = MakeChainGraph("main", 3);
  NodePtr call = AddNode(graph, "call", "PartitionedCall", 0, 0);
  ComputeGraphPtr body = MakeChainGraph("body_own_name", 3);
  body->SetParentGraph(graph);
  body->SetParentNode(call);
  ASSERT_TRUE(graph->AddSubgraph("body_key", body).ok());
  call->GetOpDescBarePtr()->AddSubgraphInstanceName("body_key");
  ComputeGraphPtr loaded = RoundTrip(*graph);
  ASSERT_NE(loaded, nullptr);
  EXPECT_TRUE(SameGraph(*graph, *loaded));
  ASSERT_NE(loaded->GetSubgraph("body_key"), nullptr);
  EXPECT_EQ(loaded->GetSubgraph("body_key")->GetName(), "body_own_name");
}

TEST(ModelSerialize, SavingASubgraphWritesOnlyWhatIsBelowIt) {
  ComputeGraphPtr graph = MakeRichGraph();
  ComputeGraphPtr then_branch = graph->GetSubgraph("if_then");
  ASSERT_NE(then_branch, nullptr);
  ComputeGraphPtr loaded = RoundTrip(*then_branch);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->GetParentGraph(), nullptr);
  std::vector<std::string> names;
  for (const auto& sub : loaded->GetAllSubgraphs()) names.push_back(sub->GetName());
  EXPECT_EQ(names, std::vector<std::string>{"if_then_inner"});
}

TEST(ModelSerialize, OptionsLeaveOutWeightsOrAttributes) {
  ComputeGraphPtr graph = MakeRichGraph();
  SerializeOptions no_weights;
  no_weights.with_weight_data = false;
  Result<std::string> bytes =
      ModelSerialize::Serialize(*graph, SerializeFormat::kBinary, no_weights);
  ASSERT_TRUE(bytes.ok());
  Result<ComputeGraphPtr> loaded = ModelSerialize::Deserialize(bytes.value());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Result<GeTensor> weight = OpDescUtils::GetConstValue(*loaded.value()->FindNode("weight"));
  ASSERT_TRUE(weight.ok());
  EXPECT_EQ(weight->GetSize(), 0u);
  EXPECT_EQ(weight->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{4, 3, 3, 3}));

  SerializeOptions structure;
  structure.with_attributes = false;
  bytes = ModelSerialize::Serialize(*graph, SerializeFormat::kBinary, structure);
  ASSERT_TRUE(bytes.ok());
  loaded = ModelSerialize::Deserialize(bytes.value());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE(loaded.value()->FindNode("conv")->GetOpDescBarePtr()->GetAttrMap().Empty());
  EXPECT_EQ(loaded.value()->GetAllNodesSize(), graph->GetAllNodesSize());
}

TEST(ModelSerialize, FilesPickTheirFormatByExtension) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ge_serialize_files_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ComputeGraphPtr graph = MakeRichGraph();
  for (const char* name : {"model.pb", "model.pbtxt"}) {
    const std::string path = (dir / name).string();
    ASSERT_TRUE(ModelSerialize::SaveToFile(*graph, path, ModelSerialize::FormatForPath(path)).ok());
    Result<ComputeGraphPtr> loaded = ModelSerialize::LoadFromFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_TRUE(SameGraph(*graph, *loaded.value())) << name;
  }
  EXPECT_TRUE(FailsWith(ModelSerialize::LoadFromFile((dir / "missing.pb").string()).status(),
                        {"load '", "missing.pb", "cannot open"}));
  std::filesystem::remove_all(dir);
}

// A binary file is parsed as it is read (no copy of its bytes): a truncated or corrupt one still
// gives the parse error, with the file's name.
TEST(ModelSerialize, ATruncatedFileIsRefusedAsItIsRead) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ge_serialize_trunc_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Result<std::string> bytes = ModelSerialize::Serialize(*MakeRichGraph(), SerializeFormat::kBinary);
  ASSERT_TRUE(bytes.ok());
  const std::string path = (dir / "cut.pb").string();
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes->data(), static_cast<std::streamsize>(bytes->size() * 2 / 3));
  }
  EXPECT_TRUE(FailsWith(ModelSerialize::LoadFromFile(path).status(),
                        {"load '", "cut.pb", "truncated or corrupt"}));
  Result<ComputeGraphPtr> as_text = ModelSerialize::LoadFromFile(path, SerializeFormat::kText);
  EXPECT_FALSE(as_text.ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ge

// Bad files never crash the loader: each case returns a Status naming the graph, the node and the
// field. (The fuzzer's saved findings are replayed by tests/fuzz: Fuzz.ge_load.*.)
#include <gtest/gtest.h>

#include <climits>
#include <filesystem>
#include <random>

#include "ge/graph/serialize/model_serialize.h"
#include "serialize_test_util.h"

namespace ge {
namespace {

using serialize_test::FailsWith;

constexpr char kDesc[] = "{ dtype: DT_FLOAT layout: \"ND\" }";

/// A model with one graph "g" holding `ops` (OpDef text blocks without the braces).
std::string Model(const std::vector<std::string>& ops, const std::string& graph_extra = "",
                  const std::string& more_graphs = "") {
  std::string text = "graph { name: \"g\" " + graph_extra + "\n";
  for (const auto& op : ops) text += "  op { " + op + " }\n";
  return text + "}\n" + more_graphs;
}

std::string Op(const std::string& name, const std::string& type, int n_in, int n_out,
               const std::string& extra = "") {
  std::string text = "name: \"" + name + "\" type: \"" + type + "\" " + extra;
  // Appended piece by piece: GCC 12 warns (-Warray-bounds, a false positive) on
  // std::string(literal) + literal here at -O2.
  for (int i = 0; i < n_in; ++i) {
    text += " input_desc ";
    text += kDesc;
  }
  for (int i = 0; i < n_out; ++i) {
    text += " output_desc ";
    text += kDesc;
  }
  return text;
}

Status LoadText(const std::string& text) {
  return ModelSerialize::Deserialize(text, SerializeFormat::kText).status();
}

TEST(BadFile, ValidMinimalModelLoads) {
  EXPECT_TRUE(
      LoadText(Model({Op("a", "Data", 0, 1), Op("b", "Relu", 1, 1, "input: \"a:0\"")})).ok());
}

TEST(BadFile, TruncatedBytesFailOrLoadButNeverCrash) {
  Result<std::string> bytes = ModelSerialize::Serialize(*serialize_test::MakeChainGraph("g", 6, 2));
  ASSERT_TRUE(bytes.ok());
  const std::string& full = bytes.value();
  EXPECT_TRUE(FailsWith(ModelSerialize::Deserialize(full.substr(0, full.size() - 1)).status(),
                        {"not a binary ModelDef", "truncated"}));
  for (size_t size = 0; size < full.size(); ++size) {
    (void)ModelSerialize::Deserialize(std::string_view(full).substr(0, size));
  }
}

TEST(BadFile, RandomBytesFailWithoutCrashing) {
  EXPECT_TRUE(FailsWith(ModelSerialize::Deserialize("\xff\xff\xff\xff\xff").status(),
                        {"not a binary ModelDef"}));
  EXPECT_TRUE(FailsWith(ModelSerialize::Deserialize("").status(), {"holds no graph"}));
  std::mt19937 random(1234);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(random() % 300, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    (void)ModelSerialize::Deserialize(bytes);
    (void)ModelSerialize::Deserialize(bytes, SerializeFormat::kText);
  }
}

TEST(BadFile, HugeLengthPrefixIsRefusedBeforeAllocating) {
  // ModelDef.graph (field 7, length-delimited) claiming ~4 GB.
  const std::string bytes = "\x3a\xff\xff\xff\xff\x0f";
  EXPECT_TRUE(FailsWith(ModelSerialize::Deserialize(bytes).status(), {"not a binary ModelDef"}));
}

TEST(BadFile, InputOverTwoGigabytesIsRefusedBeforeParsing) {
  const char byte = 0;
  // Only the size is looked at: protobuf cannot parse more than INT_MAX bytes.
  const std::string_view huge(&byte, static_cast<size_t>(INT_MAX) + 1);
  EXPECT_TRUE(FailsWith(ModelSerialize::Deserialize(huge).status(), {"2 GB"}));
}

TEST(BadFile, TextSyntaxErrorNamesLineAndColumn) {
  EXPECT_TRUE(FailsWith(LoadText("graph {\n  name: \"g\"\n  op { nme: \"a\" }\n}\n"),
                        {"protobuf text format", "line 3", "nme"}));
}

TEST(BadFile, UnknownProducer) {
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("b", "Relu", 1, 1, "input: \"nosuch:0\"")})),
                {"graph 'g'", "node 'b' (Relu)", "input[0] 'nosuch:0'", "no node named 'nosuch'"}));
}

TEST(BadFile, OutputIndexPastTheProducersOutputs) {
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "Data", 0, 1), Op("b", "Relu", 1, 1, "input: \"a:5\"")})),
      {"graph 'g'", "node 'b' (Relu)", "input[0] 'a:5'", "'a' has 1 outputs", "output 5"}));
}

TEST(BadFile, MalformedInputStrings) {
  for (const char* input : {"a", "a:", "a:x", "a:-2", "a:99999999999", "a:0x1"}) {
    EXPECT_TRUE(
        FailsWith(LoadText(Model({Op("a", "Data", 0, 1),
                                  Op("b", "Relu", 1, 1, "input: \"" + std::string(input) + "\"")})),
                  {"node 'b' (Relu)", "input[0]", "node:index"}))
        << input;
  }
}

TEST(BadFile, MoreDataInputsThanInputDescs) {
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1),
                                        Op("b", "Relu", 1, 1, "input: \"a:0\" input: \"a:0\"")})),
                        {"node 'b' (Relu)", "input[1] 'a:0'", "has 1 inputs", "no input 1"}));
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "Data", 0, 1), Op("b", "Relu", 1, 1, "input: \"\" input: \"\"")})),
      {"node 'b' (Relu)", "input[1]", "has only 1 inputs"}));
}

TEST(BadFile, DuplicateNodeNames) {
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1), Op("a", "Relu", 0, 1)})),
                        {"graph 'g'", "node 'a' (Relu)", "op[1]", "same name"}));
}

TEST(BadFile, DuplicateIds) {
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("a", "Data", 0, 1, "id: 4"), Op("b", "Relu", 0, 1, "id: 4")})),
                {"graph 'g'", "node 'b' (Relu)", "id: 4", "unique"}));
}

TEST(BadFile, TwoProducersForOneInput) {
  // OpDef.input gives input 0 one producer; the control-to-data edge list gives it another.
  const std::string extra =
      "input: \"a:0\" attr { key: \"_in_data_from_ctrl\" value { list { s: \"c\" } } } "
      "attr { key: \"_in_data_from_ctrl_index\" value { list { i: 0 } } }";
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "Data", 0, 1), Op("c", "Data", 0, 1), Op("b", "Relu", 1, 1, extra)})),
      {"graph 'g'", "node 'b' (Relu)", "_in_data_from_ctrl", "already has the producer a:out:0",
       "one producer"}));
}

TEST(BadFile, DuplicateControlEdge) {
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1),
                                        Op("b", "Relu", 0, 1, "input: \"a:-1\" input: \"a:-1\"")})),
                        {"node 'b' (Relu)", "input[1] 'a:-1'"}));
}

TEST(BadFile, Cycle) {
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Relu", 1, 1, "input: \"c:0\""),
                                        Op("b", "Relu", 1, 1, "input: \"a:0\""),
                                        Op("c", "Relu", 0, 1, "input: \"b:-1\"")})),
                        {"graph 'g'", "cycle", "'a'", "'b'", "'c'"}));
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Relu", 1, 1, "input: \"a:0\"")})),
                        {"graph 'g'", "cycle 'a' -> 'a'"}));
}

TEST(BadFile, LoopBackEdgeIntoMergeIsNotACycle) {
  EXPECT_TRUE(LoadText(Model({Op("enter", "Data", 0, 1),
                              Op("merge", "Merge", 2, 1, "input: \"enter:0\" input: \"next:0\""),
                              Op("next", "NextIteration", 1, 1, "input: \"merge:0\"")}))
                  .ok());
}

TEST(BadFile, SubgraphNameThatDoesNotExist) {
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("if", "If", 0, 0, "subgraph_name: \"ghost\"")})),
                {"graph 'g'", "node 'if' (If)", "subgraph_name 'ghost'", "no graph of that name"}));
}

TEST(BadFile, SubgraphStructureErrors) {
  const std::string sub = "graph { name: \"s\" op { name: \"x\" type: \"NoOp\" } }\n";
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("n", "NoOp", 0, 0)}, "", sub)),
                        {"graph 's'", "no node", "names it"}));
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("p", "If", 0, 0, "subgraph_name: \"s\""),
                                Op("q", "If", 0, 0, "subgraph_name: \"s\"")},
                               "", sub)),
                {"node 'q' (If)", "subgraph_name 's'", "already the subgraph of node 'p'"}));
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("p", "If", 0, 0, "subgraph_name: \"g\"")})),
                        {"node 'p' (If)", "subgraph_name 'g'", "main graph"}));
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("p", "If", 0, 0, "subgraph_name: \"s\"")}, "", sub + sub)),
                {"graph 's'", "same name as graph 1"}));
}

TEST(BadFile, UnknownDtype) {
  EXPECT_TRUE(FailsWith(
      LoadText(Model({"name: \"a\" type: \"Data\" output_desc { dtype: 99 layout: \"ND\" }"})),
      {"graph 'g'", "node 'a' (Data)", "output_desc[0]", "dtype: 99"}));
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("a", "Data", 0, 1, "attr { key: \"t\" value { dt: 5 } }")})),
                {"node 'a' (Data)", "attr 't'", "dt 5", "not a ge::DataType"}));
  EXPECT_TRUE(FailsWith(
      LoadText(Model({"name: \"a\" type: \"Data\" output_desc { dtype: DT_FLOAT layout: \"ND\" "
                      "attr { key: \"origin_data_type\" value { s: \"DT_NOPE\" } } }"})),
      {"node 'a' (Data)", "output_desc[0]", "origin_data_type", "DT_NOPE"}));
}

TEST(BadFile, UnknownFormatString) {
  EXPECT_TRUE(FailsWith(
      LoadText(
          Model({"name: \"a\" type: \"Data\" output_desc { dtype: DT_FLOAT layout: \"NOPE\" }"})),
      {"graph 'g'", "node 'a' (Data)", "output_desc[0]", "layout", "'NOPE' is not a format"}));
  EXPECT_TRUE(FailsWith(
      LoadText(Model({"name: \"a\" type: \"Data\" input_desc { dtype: DT_FLOAT layout: \"ND\" "
                      "attr { key: \"origin_format\" value { s: \"NCHW:x\" } } }"})),
      {"node 'a' (Data)", "input_desc[0]", "origin_format", "NCHW:x"}));
}

TEST(BadFile, ReservedAttributeOfTheWrongType) {
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "Data", 1, 1, "attr { key: \"_input_name_key\" value { i: 3 } }")})),
      {"node 'a' (Data)", "_input_name_key", "list of strings"}));
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "Data", 1, 1,
                         "attr { key: \"_input_name_key\" value { list { s: \"x\" } } } "
                         "attr { key: \"_input_name_value\" value { list { i: 7 } } }")})),
      {"node 'a' (Data)", "_input_name_key", "index 7", "has 1"}));
}

TEST(BadFile, ListWhoseValuesDisagreeWithItsType) {
  EXPECT_TRUE(FailsWith(
      LoadText(
          Model({Op("a", "X", 0, 0,
                    "attr { key: \"l\" value { list { s: \"x\" val_type: VT_LIST_INT } } }")})),
      {"node 'a' (X)", "attr 'l'", "VT_LIST_INT", "VT_LIST_STRING"}));
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "X", 0, 0, "attr { key: \"l\" value { list { s: \"x\" i: 1 } } }")})),
      {"attr 'l'", "two kinds"}));
}

TEST(BadFile, GraphInputsAndOutputs) {
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1)}, "input: \"zz:0\"")),
                        {"graph 'g'", "input[0] 'zz:0'", "no node named 'zz'"}));
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1)}, "output: \"a:3\"")),
                        {"graph 'g'", "output[0] 'a:3'", "no output 3"}));
  EXPECT_TRUE(FailsWith(LoadText(Model({Op("a", "Data", 0, 1)}, "input: \"a\" input: \"a:0\"")),
                        {"graph 'g'", "input[1] 'a:0'", "listed twice"}));
}

TEST(BadFile, NestingDeeperThanTheLimit) {
  std::string value = "i: 1";
  for (int i = 0; i < ModelSerialize::kMaxNestingDepth + 2; ++i) {
    value = "func { name: \"f\" attr { key: \"k\" value { " + value + " } } }";
  }
  EXPECT_TRUE(FailsWith(
      LoadText(Model({Op("a", "X", 0, 0, "attr { key: \"k\" value { " + value + " } }")})),
      {"node 'a' (X)", "nest more than 48"}));
  std::string deep = "i: 1";
  for (int i = 0; i < 400; ++i) deep = "func { attr { key: \"k\" value { " + deep + " } } }";
  EXPECT_TRUE(
      FailsWith(LoadText(Model({Op("a", "X", 0, 0, "attr { key: \"k\" value { " + deep + " } }")})),
                {"protobuf text format"}));
}

/// A model of `levels` + 1 graphs: "g0" is the main graph and "g<k>" the subgraph of node "call"
/// of "g<k-1>", at level k; the innermost graph applies Relu.
std::string NestedCalls(int levels) {
  std::string text;
  for (int k = 0; k <= levels; ++k) {
    const std::string data = Op("x", "Data", 0, 1,
                                k == 0 ? R"(attr { key: "index" value { i: 0 } })"
                                       : R"(attr { key: "_parent_node_index" value { i: 0 } })");
    const std::string body =
        k < levels ? Op("call", "PartitionedCall", 1, 1,
                        R"(input: "x:0" subgraph_name: "g)" + std::to_string(k + 1) + "\"")
                   : Op("call", "Relu", 1, 1, R"(input: "x:0")");
    text += R"(graph { name: "g)" + std::to_string(k) + R"(" output: "call:0" op { )" + data +
            " } op { " + body + " } }\n";
  }
  return text;
}

TEST(BadFile, SubgraphsNestedToTheLimitLoad) {
  Result<ComputeGraphPtr> graph =
      ModelSerialize::Deserialize(NestedCalls(kMaxSubgraphDepth), SerializeFormat::kText);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ((*graph)->GetAllSubgraphs().size(), static_cast<size_t>(kMaxSubgraphDepth));
  // And back through the binary format.
  Result<std::string> bytes = ModelSerialize::Serialize(**graph);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_TRUE(ModelSerialize::Deserialize(*bytes).ok());
}

TEST(BadFile, SubgraphsNestedDeeperThanTheLimit) {
  for (int levels : {kMaxSubgraphDepth + 1, 1000}) {
    EXPECT_TRUE(
        FailsWith(LoadText(NestedCalls(levels)),
                  {"graph 'g32', node 'call' (PartitionedCall), subgraph_name 'g33'",
                   "the graph is nested 33 levels deep", "subgraphs may nest at most 32 levels"}))
        << levels << " levels";
  }
}

TEST(BadFile, TextWithAStringFieldThatIsNotUtf8) {
  // Found by the fuzzer: the text parser accepted it, so the graph loaded but could not be saved.
  EXPECT_TRUE(
      FailsWith(LoadText(Model({"name: \"a\" type: \"Data\" output_desc { name: \"bad\\250\" "
                                "dtype: DT_FLOAT layout: \"ND\" }"})),
                {"ge.proto.TensorDescriptor.name", "'bad\\xa8'", "not valid UTF-8"}));
}

}  // namespace
}  // namespace ge

// ONNX parser: every kind of bad model gets a clear error naming the file, node and cause.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "ge/graph/utils/op_desc_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddInitializer;
using testing::AddInput;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;
using testing::TempDir;

// A valid model: y = Relu(x + w).
onnx::ModelProto SmallModel() {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {2});
  AddInitializer(g, "w", {2});
  AddNode(g, "Add", "add", {"x", "w"}, {"s"});
  AddNode(g, "Relu", "relu", {"s"}, {"y"});
  AddOutput(g, "y", {2});
  return model;
}

// Parses the model from a file and expects an error containing every one of `parts`.
void ExpectError(const TempDir& dir, const std::string& file, const std::string& bytes,
                 std::initializer_list<std::string> parts) {
  std::string path = dir.Write(file, bytes);
  auto result = ParseOnnxFile(path);
  ASSERT_FALSE(result.ok()) << "expected an error for " << file;
  EXPECT_EQ(result.status().code(), StatusCode::kParamInvalid);
  for (const auto& part : parts) {
    EXPECT_NE(result.status().message().find(part), std::string::npos)
        << "missing '" << part << "' in: " << result.status().message();
  }
}

onnx::TensorProto* ExternalInitializer(onnx::ModelProto& model, const std::string& location,
                                       int64_t offset, int64_t length) {
  auto* t = model.mutable_graph()->mutable_initializer(0);
  t->clear_raw_data();
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const std::string& k, const std::string& v) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  add("offset", std::to_string(offset));
  add("length", std::to_string(length));
  return t;
}

TEST(OnnxBadModel, SmallModelParses) {
  TempDir dir("ok");
  auto result = ParseOnnxFile(dir.WriteModel("ok.onnx", SmallModel()));
  ASSERT_TRUE(result.ok()) << result.status().message();
}

TEST(OnnxBadModel, MissingFileIsReported) {
  auto result = ParseOnnxFile("/nonexistent/dir/model.onnx");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("/nonexistent/dir/model.onnx: cannot open the model"),
            std::string::npos)
      << result.status().message();
}

TEST(OnnxBadModel, NotAProtobuf) {
  TempDir dir("text");
  ExpectError(dir, "text.onnx", "hello, this is a text file and not a model\n",
              {"text.onnx: not an ONNX model", "not protobuf wire format"});
  ExpectError(dir, "empty.onnx", "", {"empty.onnx: the file is empty"});
}

TEST(OnnxBadModel, ProtobufWithoutGraph) {
  TempDir dir("nograph");
  onnx::ModelProto model;
  model.set_ir_version(8);
  ExpectError(dir, "nograph.onnx", model.SerializeAsString(), {"nograph.onnx", "has no graph"});
}

TEST(OnnxBadModel, Truncated) {
  TempDir dir("trunc");
  std::string bytes = SmallModel().SerializeAsString();
  ExpectError(dir, "cut.onnx", bytes.substr(0, bytes.size() / 2),
              {"cut.onnx: the model is truncated", "runs past the end", "export it again"});
}

TEST(OnnxBadModel, InputThatNobodyProduces) {
  TempDir dir("undef");
  auto model = SmallModel();
  model.mutable_graph()->mutable_node(1)->set_input(0, "ghost");
  ExpectError(dir, "undef.onnx", model.SerializeAsString(),
              {"undef.onnx: node 'relu' (Relu, opset 13)", "input 'ghost'",
               "not produced by any node, graph input or initializer"});
}

// Names end up in the compiled model's protobuf and JSON, which hold UTF-8 only.
TEST(OnnxBadModel, NamesThatAreNotUtf8AreRefused) {
  TempDir dir("utf8");
  auto model = SmallModel();
  model.mutable_graph()->set_name(std::string("g\xff", 2));
  ExpectError(dir, "graph.onnx", model.SerializeAsString(),
              {"graph.onnx: the name of graph 'g\\xff'", "is not valid UTF-8"});
  model = SmallModel();
  model.mutable_graph()->mutable_node(1)->set_output(0, std::string("r\xc3(", 3));
  ExpectError(dir, "value.onnx", model.SerializeAsString(),
              {"value.onnx: an output of node #1 of graph 'g'", "'r\\xc3('", "is not valid UTF-8"});
}

TEST(OnnxBadModel, DuplicateOutputNames) {
  TempDir dir("dup");
  auto model = SmallModel();
  AddNode(model.mutable_graph(), "Neg", "neg", {"x"}, {"s"});  // "s" is the Add's output too
  ExpectError(dir, "dup.onnx", model.SerializeAsString(),
              {"dup.onnx: graph 'g'", "value 's' is produced twice", "'add' (Add)", "'neg' (Neg)",
               "duplicate output names"});
}

TEST(OnnxBadModel, InitializerListedTwice) {
  TempDir dir("dupinit");
  auto model = SmallModel();
  AddInitializer(model.mutable_graph(), "w", {2});
  ExpectError(dir, "dupinit.onnx", model.SerializeAsString(),
              {"dupinit.onnx: graph 'g': initializer 'w' is listed twice"});
}

TEST(OnnxBadModel, Cycle) {
  TempDir dir("cycle");
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {2});
  AddNode(g, "Add", "a", {"x", "c"}, {"b"});
  AddNode(g, "Relu", "r", {"b"}, {"c"});
  AddNode(g, "Neg", "n", {"c"}, {"y"});
  AddOutput(g, "y", {2});
  ExpectError(dir, "cycle.onnx", model.SerializeAsString(),
              {"cycle.onnx: graph 'g': the graph has a cycle", "'a' (Add)", "'r' (Relu)",
               "must be acyclic"});
}

TEST(OnnxBadModel, OpsetOutOfRange) {
  TempDir dir("opset");
  auto model = SmallModel();
  const std::string newest = std::to_string(kOnnxMaxOpset);
  const std::string next = std::to_string(kOnnxMaxOpset + 1);
  model.mutable_opset_import(0)->set_version(kOnnxMaxOpset + 1);
  ExpectError(dir, "new.onnx", model.SerializeAsString(),
              {"new.onnx: opset " + next + " is not supported (opsets 1 to " + newest + ")",
               "version_converter"});
}

TEST(OnnxBadModel, OperatorVersionBelowItsMinimumNamesOpVersionAndMinimum) {
  TempDir dir("opversion");
  auto model = SmallModel();  // Add-6 broadcast with attributes; Relu-6 is today's Relu
  model.mutable_opset_import(0)->set_version(6);
  ExpectError(dir, "old.onnx", model.SerializeAsString(),
              {"old.onnx: 1 unsupported operator type(s) in 1 node(s)",
               "Add (opset 6): 1 node(s): add; Add is supported from opset 7 to " +
                   std::to_string(kOnnxMaxOpset) + " only",
               "onnx.version_converter.convert_version"});
}

// A newer version of an operator adds attributes; one the IR does not implement is refused at
// parse, not ignored (which would compute the old semantics).
TEST(OnnxBadModel, AnAttributeTheOperatorDoesNotImplementIsNamed) {
  TempDir dir("attr");
  auto model = SmallModel();
  auto* attr = model.mutable_graph()->mutable_node(1)->add_attribute();  // the Relu
  attr->set_name("antialias");
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(1);
  ExpectError(dir, "attr.onnx", model.SerializeAsString(),
              {"attr.onnx: node 'relu' (Relu, opset 13)",
               "attribute 'antialias' is not supported by Relu"});
}

TEST(OnnxBadModel, InitializerDataSizeDoesNotMatchShape) {
  TempDir dir("size");
  auto raw = SmallModel();
  raw.mutable_graph()->mutable_initializer(0)->set_raw_data("12345");
  ExpectError(
      dir, "raw.onnx", raw.SerializeAsString(),
      {"raw.onnx: initializer 'w'", "raw data has 5 bytes but shape [2] of DT_FLOAT needs 8"});
  auto typed = SmallModel();
  auto* t = typed.mutable_graph()->mutable_initializer(0);
  t->clear_raw_data();
  for (float v : {1.0F, 2.0F, 3.0F}) t->add_float_data(v);
  ExpectError(dir, "typed.onnx", typed.SerializeAsString(),
              {"typed.onnx: initializer 'w'", "holds 3 elements but its shape [2] needs 2"});
}

TEST(OnnxBadModel, ExternalDataIsReadBesideTheModel) {
  TempDir dir("ext");
  float values[2] = {1.5F, -2.0F};
  std::string data(8, '\0');  // 8 bytes of padding before the tensor
  data.append(reinterpret_cast<const char*>(values), sizeof(values));
  dir.Write("weights.bin", data);
  auto model = SmallModel();
  ExternalInitializer(model, "weights.bin", 8, 8);
  auto result = ParseOnnxFile(dir.WriteModel("ext.onnx", model));
  ASSERT_TRUE(result.ok()) << result.status().message();
  auto w = OpDescUtils::GetConstValue(*(*result)->FindNode("w"));
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->GetSize(), 8U);
  float read[2];
  std::memcpy(read, w->GetData().data(), sizeof(read));
  EXPECT_EQ(read[0], 1.5F);
  EXPECT_EQ(read[1], -2.0F);
}

TEST(OnnxBadModel, MissingExternalDataFile) {
  TempDir dir("extmissing");
  auto model = SmallModel();
  ExternalInitializer(model, "weights.bin", 0, 8);
  ExpectError(dir, "ext.onnx", model.SerializeAsString(),
              {"ext.onnx: initializer 'w'", "weights.bin' is missing",
               "keep the data files beside the model"});
}

TEST(OnnxBadModel, ExternalDataOutsideTheModelDirectory) {
  TempDir dir("extescape");
  auto model = SmallModel();
  ExternalInitializer(model, "../secret.bin", 0, 8);
  ExpectError(dir, "ext.onnx", model.SerializeAsString(),
              {"initializer 'w'", "'../secret.bin' leaves the model's directory"});
  auto absolute = SmallModel();
  ExternalInitializer(absolute, "/etc/passwd", 0, 8);
  ExpectError(dir, "abs.onnx", absolute.SerializeAsString(), {"'/etc/passwd' is absolute"});
}

TEST(OnnxBadModel, ExternalDataThroughASymbolicLinkOutOfTheModelDirectory) {
  TempDir outside("extlinktarget");
  outside.Write("secret.bin", std::string(8, '\x11'));
  TempDir dir("extlink");
  std::filesystem::create_symlink(outside.File("secret.bin"), dir.File("weights.bin"));
  auto model = SmallModel();
  ExternalInitializer(model, "weights.bin", 0, 8);
  ExpectError(
      dir, "ext.onnx", model.SerializeAsString(),
      {"ext.onnx: initializer 'w'", "'weights.bin' resolves to", "outside the model's directory"});

  // A link that stays inside the folder is fine.
  float values[2] = {3.0F, 4.0F};
  dir.Write("real.bin", std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  std::filesystem::create_directories(dir.path() / "data");
  std::filesystem::create_symlink("../real.bin", dir.path() / "data" / "w.bin");
  auto inside = SmallModel();
  ExternalInitializer(inside, "data/w.bin", 0, 8);
  auto result = ParseOnnxFile(dir.WriteModel("inside.onnx", inside));
  ASSERT_TRUE(result.ok()) << result.status().message();
}

TEST(OnnxBadModel, ExternalDataWhoseByteCountOverflowsInt64) {
  TempDir dir("extoverflow");
  dir.Write("weights.bin", std::string(8, '\0'));
  auto model = SmallModel();
  auto* t = ExternalInitializer(model, "weights.bin", 0, 8);
  t->set_dims(0, int64_t{1} << 61);  // 2^61 floats: 2^63 bytes
  ExpectError(dir, "ext.onnx", model.SerializeAsString(),
              {"ext.onnx: initializer 'w'", "needs more bytes than int64 counts"});
  t->set_data_location(onnx::TensorProto::DEFAULT);
  t->clear_external_data();
  t->set_raw_data(std::string(8, '\0'));
  ExpectError(dir, "raw.onnx", model.SerializeAsString(),
              {"raw.onnx: initializer 'w'", "needs more bytes than int64 counts"});
}

// Protobuf parses at most 2 GB, but the weights stay in the mapped file and are no part of
// what it parses: a model with a 2 GiB initializer (a sparse file, so it costs no disk) parses,
// its weight shared where it lies, never read.
TEST(OnnxBadModel, AModelOverTwoGigabytesParsesWithItsWeightsInTheFile) {
  constexpr int64_t kElements = int64_t{1} << 29;  // 2 GiB of float
  auto varint = [](uint64_t v) {
    std::string out;
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    out.push_back(static_cast<char>(v));
    return out;
  };
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(kElements);
  const std::string tensor_head =
      w.SerializeAsString() + '\x4a' + varint(uint64_t{4} * kElements);  // raw_data (9)
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {kElements});
  AddNode(g, "Add", "add", {"x", "w"}, {"y"});
  AddOutput(g, "y", {kElements});
  const std::string graph_head = g->SerializeAsString();
  const std::string graph_tail = '\x2a' + varint(tensor_head.size() + 4 * kElements);
  const uint64_t graph_size =
      graph_head.size() + graph_tail.size() + tensor_head.size() + uint64_t{4} * kElements;
  model.clear_graph();
  std::string head;
  for (int pad = 0; pad < 128; ++pad) {  // a doc_string that puts the weight at a 64-byte line
    model.set_doc_string(std::string(static_cast<size_t>(pad), ' '));
    head = model.SerializeAsString() + '\x3a' + varint(graph_size);
    if ((head.size() + graph_size - 4 * kElements) % 64 == 0) break;
  }
  head += graph_head + graph_tail + tensor_head;
  ASSERT_EQ(head.size() % 64, 0U);
  TempDir dir("huge");
  const std::string path = dir.Write("huge.onnx", head);
  std::filesystem::resize_file(path, head.size() + uint64_t{4} * kElements);
  auto result = ParseOnnxFile(path);
  ASSERT_TRUE(result.ok()) << result.status().message();
  auto value = OpDescUtils::GetConstValue(*(*result)->FindNode("w"));
  ASSERT_TRUE(value.ok()) << value.status().message();
  EXPECT_EQ(value->GetSize(), uint64_t{4} * kElements);
  EXPECT_EQ(value->GetData()[0], 0);
}

TEST(OnnxBadModel, ExternalDataOfTheWrongSize) {
  TempDir dir("extsize");
  dir.Write("weights.bin", std::string(12, '\0'));
  auto model = SmallModel();
  ExternalInitializer(model, "weights.bin", 0, 12);
  ExpectError(dir, "ext.onnx", model.SerializeAsString(),
              {"initializer 'w'", "external data has 12 bytes but shape [2] needs 8"});
  auto past_end = SmallModel();
  ExternalInitializer(past_end, "weights.bin", 8, 8);
  ExpectError(dir, "end.onnx", past_end.SerializeAsString(),
              {"[offset 8, length 8] is outside", "(12 bytes)"});
}

TEST(OnnxBadModel, MissingRequiredInput) {
  TempDir dir("req");
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {1, 3, 4, 4});
  AddNode(g, "Conv", "conv", {"x"}, {"y"});
  AddOutput(g, "y", {1});
  ExpectError(dir, "req.onnx", model.SerializeAsString(),
              {"req.onnx: node 'conv' (Conv, opset 13)", "required input #1 ('filter'"});
}

TEST(OnnxBadModel, ModelsLargerThan64MBParse) {
  TempDir dir("large");
  auto model = SmallModel();
  auto* w = model.mutable_graph()->mutable_initializer(0);
  constexpr int64_t kElements =
      int64_t{17} * 1024 * 1024;  // 68 MB of floats, past protobuf's 64 MB
  w->set_dims(0, kElements);
  w->set_raw_data(std::string(kElements * sizeof(float), '\0'));
  model.mutable_graph()->mutable_input(0)->clear_type();
  testing::SetTensorType(model.mutable_graph()->mutable_input(0), onnx::TensorProto::FLOAT,
                         {kElements});
  auto result = ParseOnnxFile(dir.WriteModel("large.onnx", model));
  ASSERT_TRUE(result.ok()) << result.status().message();
  auto value = OpDescUtils::GetConstValue(*(*result)->FindNode("w"));
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->GetSize(), static_cast<size_t>(kElements * sizeof(float)));
}

}  // namespace
}  // namespace ge

// The serialization tests' helpers (serialize_test_util.h) and tests of the helpers themselves.
// (The helpers live in a *_test.cc file because tests/CMakeLists.txt globs only those.)
#include "serialize_test_util.h"

#include <fstream>
#include <sstream>

#include "../graph_test_util.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge::serialize_test {

using testing::AddNode;
using testing::Ctrl;
using testing::Link;

// ---- comparison ----

namespace {
Status CanonicalizeStore(const AttrStore& expected, AttrStore& actual);

Status CanonicalizeGraphPtr(const ComputeGraphPtr& expected, ComputeGraphPtr& actual) {
  if (expected == nullptr || actual == nullptr) return Status::Ok();
  GE_RETURN_IF_ERROR(CanonicalizeGraphAttrs(*expected, *actual));
  GE_RETURN_IF_ERROR(GraphUtils::CheckEqual(*expected, *actual).Prefix("graph attribute"));
  actual = expected;
  return Status::Ok();
}

template <typename T, typename Fn>
Status Each(const std::vector<T>& expected, std::vector<T>& actual, Fn fn) {
  for (size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
    GE_RETURN_IF_ERROR(fn(expected[i], actual[i]));
  }
  return Status::Ok();
}

Status CanonicalizeTensor(const GeTensor& expected, GeTensor& actual) {
  return CanonicalizeStore(expected.GetTensorDesc().GetAttrMap(),
                           actual.MutableTensorDesc().MutableAttrMap());
}

Status CanonicalizeDesc(const GeTensorDesc& expected, GeTensorDesc& actual) {
  return CanonicalizeStore(expected.GetAttrMap(), actual.MutableAttrMap());
}

Status CanonicalizeNamed(const NamedAttrs& expected, NamedAttrs& actual) {
  return CanonicalizeStore(expected.GetAttrMap(), actual.MutableAttrMap());
}

Status CanonicalizeValue(const AttrValue& e, AttrValue& a) {
  if (e.GetType() != a.GetType()) return Status::Ok();  // CheckEqual reports it
  if (auto* g = a.GetMutable<ComputeGraphPtr>()) {
    return CanonicalizeGraphPtr(*e.Get<ComputeGraphPtr>(), *g);
  }
  if (auto* gs = a.GetMutable<std::vector<ComputeGraphPtr>>()) {
    return Each(*e.Get<std::vector<ComputeGraphPtr>>(), *gs, CanonicalizeGraphPtr);
  }
  if (auto* t = a.GetMutable<GeTensor>()) return CanonicalizeTensor(*e.Get<GeTensor>(), *t);
  if (auto* ts = a.GetMutable<std::vector<GeTensor>>()) {
    return Each(*e.Get<std::vector<GeTensor>>(), *ts, CanonicalizeTensor);
  }
  if (auto* d = a.GetMutable<GeTensorDesc>()) return CanonicalizeDesc(*e.Get<GeTensorDesc>(), *d);
  if (auto* ds = a.GetMutable<std::vector<GeTensorDesc>>()) {
    return Each(*e.Get<std::vector<GeTensorDesc>>(), *ds, CanonicalizeDesc);
  }
  if (auto* n = a.GetMutable<NamedAttrs>()) return CanonicalizeNamed(*e.Get<NamedAttrs>(), *n);
  if (auto* ns = a.GetMutable<std::vector<NamedAttrs>>()) {
    return Each(*e.Get<std::vector<NamedAttrs>>(), *ns, CanonicalizeNamed);
  }
  return Status::Ok();
}

Status CanonicalizeStore(const AttrStore& expected, AttrStore& actual) {
  for (const auto& name : actual.GetAllNames()) {
    const AttrValue* e = expected.Get(name);
    if (e == nullptr) continue;
    GE_RETURN_IF_ERROR(CanonicalizeValue(*e, *actual.GetMutable(name)).Prefix("attr " + name));
  }
  return Status::Ok();
}
}  // namespace

Status CanonicalizeGraphAttrs(const ComputeGraph& expected, ComputeGraph& actual) {
  GE_RETURN_IF_ERROR(CanonicalizeStore(expected.GetAttrMap(), actual.MutableAttrMap()));
  const auto en = expected.GetDirectNode();
  const auto an = actual.GetDirectNode();
  for (size_t i = 0; i < en.size() && i < an.size(); ++i) {
    const OpDesc& e = *en[i]->GetOpDescBarePtr();
    OpDesc& a = *an[i]->GetOpDescBarePtr();
    GE_RETURN_IF_ERROR(CanonicalizeStore(e.GetAttrMap(), a.MutableAttrMap()));
    for (uint32_t k = 0; k < e.GetAllInputsSize() && k < a.GetAllInputsSize(); ++k) {
      GE_RETURN_IF_ERROR(CanonicalizeDesc(e.GetInputDesc(k), *a.MutableInputDesc(k)));
    }
    for (uint32_t k = 0; k < e.GetOutputsSize() && k < a.GetOutputsSize(); ++k) {
      GE_RETURN_IF_ERROR(CanonicalizeDesc(e.GetOutputDesc(k), *a.MutableOutputDesc(k)));
    }
    for (const auto& name : e.GetSubgraphInstanceNames()) {
      ComputeGraphPtr es = name.empty() ? nullptr : expected.GetSubgraph(name);
      ComputeGraphPtr as = name.empty() ? nullptr : actual.GetSubgraph(name);
      if (es != nullptr && as != nullptr) GE_RETURN_IF_ERROR(CanonicalizeGraphAttrs(*es, *as));
    }
  }
  return Status::Ok();
}

::testing::AssertionResult SameGraph(const ComputeGraph& expected, ComputeGraph& actual) {
  Status status = CanonicalizeGraphAttrs(expected, actual);
  if (status.ok()) status = GraphUtils::CheckEqual(expected, actual);
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString();
}

// ---- graphs ----

GeTensorDesc Desc(std::vector<int64_t> dims, Format format, DataType dtype) {
  return GeTensorDesc(GeShape(std::move(dims)), format, dtype);
}

namespace {
GeTensor SmallTensor(DataType dtype, std::vector<uint8_t> bytes) {
  GeTensorDesc desc = Desc({static_cast<int64_t>(bytes.size())}, FORMAT_ND, dtype);
  return {desc, std::move(bytes)};
}

ComputeGraphPtr SmallGraph(const std::string& name) {
  auto graph = std::make_shared<ComputeGraph>(name);
  NodePtr data = AddNode(graph, name + "_data", "Data", 0, 1);
  NodePtr relu = AddNode(graph, name + "_relu", "Relu", 1, 1);
  Link(data, 0, relu, 0);
  AttrUtils::SetInt(graph, "small_graph_attr", 7);
  return graph;
}

/// A graph for a graph attribute that has a subgraph of its own.
ComputeGraphPtr GraphWithSubgraph(const std::string& name) {
  ComputeGraphPtr graph = SmallGraph(name);
  NodePtr call = AddNode(graph, name + "_call", "PartitionedCall", 1, 1);
  Link(graph->FindNode(name + "_relu"), 0, call, 0);
  EXPECT_TRUE(call->GetOpDescBarePtr()->AddSubgraphName("f").ok());
  EXPECT_TRUE(NodeUtils::SetSubgraph(call, 0, SmallGraph(name + "_body")).ok());
  return graph;
}
}  // namespace

std::vector<std::pair<std::string, AttrValue>> EveryAttrValue() {
  NamedAttrs inner("inner");
  AttrUtils::SetInt(inner, "depth", 2);
  NamedAttrs named("outer");
  AttrUtils::SetStr(named, "s", "text");
  AttrUtils::SetNamedAttrs(named, "nested", inner);
  AttrUtils::SetListFloat(named, "lf", {1.5f, -2.0f});
  GeTensorDesc desc_with_attr = Desc({1, 16, 7, 7}, FORMAT_NC1HWC0, DT_FLOAT16);
  AttrUtils::SetStr(desc_with_attr, "desc_note", "x");
  const Buffer bytes{{0, 1, 2, 255, 0}};
  return {
      {"none", AttrValue()},
      {"int", AttrValue(int64_t{-1234567890123})},
      {"float", AttrValue(3.25f)},
      {"bool", AttrValue(true)},
      {"string", AttrValue(std::string("hello\0world", 11))},
      {"bytes", AttrValue(bytes)},
      {"data_type", AttrValue(DT_BF16)},
      {"tensor", AttrValue(SmallTensor(DT_UINT8, {1, 2, 3, 4}))},
      {"tensor_desc", AttrValue(desc_with_attr)},
      {"graph", AttrValue(GraphWithSubgraph("attr_graph"))},
      {"named_attrs", AttrValue(named)},
      {"list_int", AttrValue(std::vector<int64_t>{1, -2, INT64_MAX})},
      {"list_float", AttrValue(std::vector<float>{0.5f, -0.0f, 1e30f})},
      {"list_bool", AttrValue(std::vector<bool>{true, false, true})},
      {"list_string", AttrValue(std::vector<std::string>{"a", "", "c"})},
      {"list_bytes", AttrValue(std::vector<Buffer>{bytes, Buffer{}})},
      {"list_data_type", AttrValue(std::vector<DataType>{DT_FLOAT, DT_UNDEFINED, DT_HIFLOAT4})},
      {"list_tensor",
       AttrValue(std::vector<GeTensor>{SmallTensor(DT_INT8, {9}), SmallTensor(DT_BOOL, {})})},
      {"list_tensor_desc", AttrValue(std::vector<GeTensorDesc>{desc_with_attr, GeTensorDesc()})},
      {"list_graph", AttrValue(std::vector<ComputeGraphPtr>{SmallGraph("lg0"), SmallGraph("lg1")})},
      {"list_named_attrs", AttrValue(std::vector<NamedAttrs>{named, NamedAttrs("empty")})},
      {"list_list_int", AttrValue(std::vector<std::vector<int64_t>>{{1, 2}, {}, {3}})},
      {"list_list_float", AttrValue(std::vector<std::vector<float>>{{1.0f}, {}, {2.5f, 3.5f}})},
      {"list_int_empty", AttrValue(std::vector<int64_t>{})},
      {"list_float_empty", AttrValue(std::vector<float>{})},
      {"list_bool_empty", AttrValue(std::vector<bool>{})},
      {"list_string_empty", AttrValue(std::vector<std::string>{})},
      {"list_bytes_empty", AttrValue(std::vector<Buffer>{})},
      {"list_data_type_empty", AttrValue(std::vector<DataType>{})},
      {"list_tensor_empty", AttrValue(std::vector<GeTensor>{})},
      {"list_tensor_desc_empty", AttrValue(std::vector<GeTensorDesc>{})},
      {"list_graph_empty", AttrValue(std::vector<ComputeGraphPtr>{})},
      {"list_named_attrs_empty", AttrValue(std::vector<NamedAttrs>{})},
      {"list_list_int_empty", AttrValue(std::vector<std::vector<int64_t>>{})},
      {"list_list_float_empty", AttrValue(std::vector<std::vector<float>>{})},
  };
}

namespace {
void SetEveryAttr(AttrHolder& holder, const std::string& prefix) {
  for (auto& [name, value] : EveryAttrValue()) holder.MutableAttrMap().Set(prefix + name, value);
}

/// A desc with every extended field set, origin info, and an attribute.
GeTensorDesc FullDesc(Format format, DataType dtype) {
  GeTensorDesc desc(GeShape({8, 3, 5, 5}), format, dtype);
  desc.SetName("full");
  desc.SetOriginShape(GeShape({8, 5, 5, 3}));
  desc.SetOriginFormat(FORMAT_NHWC);
  desc.SetOriginDataType(DT_FLOAT);
  desc.SetSize(1024);
  desc.SetWeightSize(512);
  desc.SetReuseInput(true);
  desc.SetReuseInputIndex(1);
  desc.SetDataOffset(4096);
  desc.SetDeviceType(CPU);
  desc.SetRealDimCnt(4);
  desc.SetOutputTensor(true);
  desc.SetInputTensor(true);
  desc.SetCmpsSize(77);
  desc.SetCmpsTab(std::string("\x01\x02tab", 5));
  desc.SetCmpsTabOffset(88);
  AttrUtils::SetListInt(desc, "desc_list", std::vector<int64_t>{4, 5});
  return desc;
}

ComputeGraphPtr Branch(const std::string& name, int parent_index) {
  auto graph = std::make_shared<ComputeGraph>(name);
  NodePtr data = AddNode(graph, name + "_data", "Data", 0, 1);
  AttrUtils::SetInt(data->GetOpDesc(), "_parent_node_index", parent_index);
  NodePtr op = AddNode(graph, name + "_neg", "Neg", 1, 1);
  NodePtr out = AddNode(graph, name + "_out", "NetOutput", 1, 0);
  Link(data, 0, op, 0);
  Link(op, 0, out, 0);
  return graph;
}

/// Puts a PartitionedCall with its own subgraph into `branch`, which must already be attached
/// (subgraphs are registered on the root graph): subgraphs two levels deep.
void NestCall(const ComputeGraphPtr& branch) {
  const std::string name = branch->GetName();
  NodePtr call = AddNode(branch, name + "_call", "PartitionedCall", 1, 1);
  Link(branch->FindNode(name + "_data"), 0, call, 0);
  Ctrl(call, branch->FindNode(name + "_out"));
  EXPECT_TRUE(call->GetOpDescBarePtr()->AddSubgraphName("f").ok());
  EXPECT_TRUE(NodeUtils::SetSubgraph(call, 0, Branch(name + "_inner", 0)).ok());
}
}  // namespace

ComputeGraphPtr MakeRichGraph() {
  auto graph = std::make_shared<ComputeGraph>("rich");
  graph->SetTrainingGraph(true);
  SetEveryAttr(*graph, "g_");

  NodePtr data0 = AddNode(graph, "data0", "Data", 0, 1);
  data0->GetOpDescBarePtr()->UpdateOutputDesc(0, Desc({1, 3, 4, 4}, FORMAT_NCHW)).ok();
  NodePtr data1 = AddNode(graph, "data1", "Data", 0, 1);
  data1->GetOpDescBarePtr()->UpdateOutputDesc(0, Desc({-1, 16}, FORMAT_ND, DT_FLOAT16)).ok();

  std::vector<uint8_t> weight(size_t{4} * 3 * 3 * 3 * 4);
  for (size_t i = 0; i < weight.size(); ++i) weight[i] = static_cast<uint8_t>(i * 7);
  OpDescPtr const_op = OpDescUtils::CreateConstOp(
      "weight", GeTensor(Desc({4, 3, 3, 3}, FORMAT_FRACTAL_Z), std::move(weight)));
  NodePtr weight_node = graph->AddNode(const_op).value();

  // Conv2D with named inputs, an optional unlinked bias, IR metadata and compile state.
  auto conv_op = std::make_shared<OpDesc>("conv", "Conv2D");
  EXPECT_TRUE(conv_op->AddInputDesc("x", FullDesc(FORMAT_NCHW, DT_FLOAT)).ok());
  const auto fz16 = static_cast<Format>(TypeUtils::GetFormatFromSub(FORMAT_FRACTAL_Z, 16));
  EXPECT_TRUE(conv_op->AddInputDesc("filter", Desc({4, 3, 3, 3}, fz16)).ok());
  EXPECT_TRUE(conv_op->AddOptionalInputDesc("bias", GeTensorDesc()).ok());
  const auto c0 =
      static_cast<Format>(TypeUtils::GetFormatFromSubAndC0(FORMAT_NC1HWC0, 0, /*c0_format=*/5));
  EXPECT_TRUE(conv_op->AddOutputDesc("y", Desc({1, 1, 2, 2, 16}, c0, DT_FLOAT16)).ok());
  conv_op->AppendIrInput("x", kIrInputRequired);
  conv_op->AppendIrInput("filter", kIrInputRequired);
  conv_op->AppendIrInput("bias", kIrInputOptional);
  conv_op->AppendIrOutput("y", kIrOutputRequired);
  conv_op->AppendIrAttrName("strides");
  conv_op->AppendIrAttrName("pads");
  conv_op->SetStreamId(3);
  conv_op->SetInputOffset({0, 64, -1});
  conv_op->SetOutputOffset({128});
  conv_op->SetWorkspace({256, 512});
  conv_op->SetWorkspaceBytes({32, 64});
  conv_op->SetIsInputConst({false, true, false});
  conv_op->SetInputName({"data0", "weight"});
  conv_op->SetSrcName({"data0"});
  conv_op->SetSrcIndex({0});
  conv_op->SetDstName({"concat"});
  conv_op->SetDstIndex({1});
  conv_op->SetOpEngineName("DNN_VM_HOST_CPU");
  conv_op->SetOpKernelLibName("DNN_VM_HOST_CPU_OP_STORE");
  conv_op->MutableInputDesc(0)->MutableAttrMap().Set("x_graph", AttrValue(SmallGraph("dg")));
  SetEveryAttr(*conv_op, "op_");
  NodePtr conv = graph->AddNode(conv_op).value();
  Link(data0, 0, conv, 0);
  Link(weight_node, 0, conv, 1);
  Ctrl(weight_node, conv);

  // ConcatV2 with dynamic inputs x0..x2.
  auto concat_op = std::make_shared<OpDesc>("concat", "ConcatV2");
  EXPECT_TRUE(concat_op->AddDynamicInputDesc("x", 3).ok());
  for (uint32_t i = 0; i < 3; ++i) concat_op->UpdateInputDesc(i, Desc({2, 2})).ok();
  EXPECT_TRUE(concat_op->AddOutputDesc("y", Desc({6, 2})).ok());
  concat_op->AppendIrInput("x", kIrInputDynamic);
  NodePtr concat = graph->AddNode(concat_op).value();
  Link(data1, 0, concat, 0);
  Link(conv, 0, concat, 1);
  Link(data1, 0, concat, 2);

  // Every data type and every format, as outputs of one node.
  auto types_op = std::make_shared<OpDesc>("every_type", "Identity");
  for (int32_t dt = 0; dt < DT_MAX; ++dt) {
    if (dt == 5) continue;
    EXPECT_TRUE(types_op->AddOutputDesc(Desc({dt}, FORMAT_ND, static_cast<DataType>(dt))).ok());
  }
  for (int32_t f = 0; f <= FORMAT_END; ++f) {
    EXPECT_TRUE(types_op->AddOutputDesc(Desc({f}, static_cast<Format>(f))).ok());
  }
  EXPECT_TRUE(types_op->AddOutputDesc(Desc({1}, fz16)).ok());
  EXPECT_TRUE(types_op->AddOutputDesc(Desc({1}, c0)).ok());
  EXPECT_TRUE(types_op->AddInputDesc(Desc({6, 2})).ok());
  NodePtr every_type = graph->AddNode(types_op).value();
  Link(concat, 0, every_type, 0);

  // If with two branches; the then-branch nests a PartitionedCall with its own subgraph.
  NodePtr if_node = AddNode(graph, "if", "If", 2, 1);
  Link(data1, 0, if_node, 0);
  Link(concat, 0, if_node, 1);
  EXPECT_TRUE(if_node->GetOpDescBarePtr()->AddSubgraphName("then_branch").ok());
  EXPECT_TRUE(if_node->GetOpDescBarePtr()->AddSubgraphName("else_branch").ok());
  ComputeGraphPtr then_branch = Branch("if_then", 1);
  EXPECT_TRUE(NodeUtils::SetSubgraph(if_node, 0, then_branch).ok());
  EXPECT_TRUE(NodeUtils::SetSubgraph(if_node, 1, Branch("if_else", 1)).ok());
  NestCall(then_branch);

  NodePtr out = AddNode(graph, "output", "NetOutput", 2, 0);
  Link(concat, 0, out, 0);
  Link(if_node, 0, out, 1);
  Ctrl(data1, out);
  Ctrl(every_type, out);
  // The rare edge kinds: out-data -> in-control and out-control -> in-data.
  NodePtr sink = AddNode(graph, "sink", "NoOp", 2, 0);
  EXPECT_TRUE(Anchor::Link(every_type->GetOutDataAnchor(3), sink->GetInControlAnchor()).ok());
  EXPECT_TRUE(Anchor::Link(if_node->GetOutControlAnchor(), sink->GetInDataAnchor(1)).ok());

  graph->SetGraphOutNodesInfo({{concat, 0}, {if_node, 0}});
  EXPECT_TRUE(GraphVerifier::Verify(*graph).ok());
  return graph;
}

ComputeGraphPtr MakeChainGraph(const std::string& name, int n, int const_every) {
  auto graph = std::make_shared<ComputeGraph>(name);
  NodePtr prev = AddNode(graph, "data", "Data", 0, 1);
  for (int i = 1; i + 1 < n; ++i) {
    const bool with_const = const_every > 0 && i % const_every == 0;
    NodePtr node = AddNode(graph, "op" + std::to_string(i), with_const ? "Add" : "Relu",
                           with_const ? 2 : 1, 1);
    Link(prev, 0, node, 0);
    AttrUtils::SetInt(node->GetOpDesc(), "index", i);
    if (with_const) {
      std::vector<uint8_t> bytes(16, static_cast<uint8_t>(i));
      OpDescPtr c = OpDescUtils::CreateConstOp("c" + std::to_string(i),
                                               GeTensor(Desc({2, 2}), std::move(bytes)));
      NodePtr const_node = graph->AddNode(c).value();
      Link(const_node, 0, node, 1);
    }
    prev = node;
  }
  NodePtr out = AddNode(graph, "output", "NetOutput", 1, 0);
  Link(prev, 0, out, 0);
  graph->SetGraphOutNodesInfo({{prev, 0}});
  return graph;
}

// ---- round trips and statuses ----

ComputeGraphPtr RoundTrip(const ComputeGraph& graph, SerializeFormat format) {
  Result<std::string> bytes = ModelSerialize::Serialize(graph, format);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return nullptr;
  Result<ComputeGraphPtr> loaded = ModelSerialize::Deserialize(bytes.value(), format);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? loaded.value() : nullptr;
}

::testing::AssertionResult FailsWith(const Status& status, const std::vector<std::string>& parts) {
  if (status.ok()) return ::testing::AssertionFailure() << "succeeded";
  for (const auto& part : parts) {
    if (status.message().find(part) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message lacks \"" << part << "\": " << status.message();
    }
  }
  return ::testing::AssertionSuccess();
}

std::string ReadTestData(const std::string& name) {
  std::ifstream file(std::string(GE_TEST_DATA_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open tests/data/" << name;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// ---- tests of the helpers ----

TEST(SerializeTestUtil, EveryAttrValueCoversEveryType) {
  std::vector<bool> seen(static_cast<size_t>(AttrValue::Type::kListListFloat) + 1, false);
  for (const auto& [name, value] : EveryAttrValue())
    seen[static_cast<size_t>(value.GetType())] = true;
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_TRUE(seen[i]) << AttrValue::TypeName(static_cast<AttrValue::Type>(i));
  }
  static_assert(std::variant_size_v<AttrValue::Variant> ==
                    static_cast<size_t>(AttrValue::Type::kListListFloat) + 1,
                "a new attribute type needs a serializer and a sample in EveryAttrValue");
}

TEST(SerializeTestUtil, RichGraphIsValid) {
  ComputeGraphPtr graph = MakeRichGraph();
  EXPECT_TRUE(GraphVerifier::Verify(*graph).ok());
  EXPECT_EQ(graph->GetAllSubgraphs().size(), 3u);
}

TEST(SerializeTestUtil, SameGraphReportsADifferentGraphAttribute) {
  ComputeGraphPtr a = MakeChainGraph("g", 4);
  ComputeGraphPtr b = MakeChainGraph("g", 4);
  AttrUtils::SetGraph(a, "body", MakeChainGraph("body", 3));
  AttrUtils::SetGraph(b, "body", MakeChainGraph("body", 4));
  EXPECT_FALSE(SameGraph(*a, *b));
  AttrUtils::SetGraph(b, "body", MakeChainGraph("body", 3));
  EXPECT_TRUE(SameGraph(*a, *b));
}

}  // namespace ge::serialize_test

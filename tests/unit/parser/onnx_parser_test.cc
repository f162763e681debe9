// ONNX parser: graph structure (Data / Const / NetOutput), descs, and the mapping table's rules.
#include "ge/parser/onnx_parser.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/infer_context.h"
#include "ge/ops/ops_proto_manager.h"
#include "onnx_model_builder.h"

namespace ge {
namespace {

using testing::AddInitializer;
using testing::AddInput;
using testing::AddIntAttr;
using testing::AddIntsAttr;
using testing::AddNode;
using testing::AddOutput;
using testing::MakeModel;
using testing::TempDir;

Result<ComputeGraphPtr> Parse(const onnx::ModelProto& model, const OnnxParseOptions& opts = {}) {
  return ParseOnnxBytes(model.SerializeAsString(), ".", "test.onnx", opts);
}

std::map<std::string, int> CountTypes(const ComputeGraph& graph) {
  std::map<std::string, int> counts;
  for (const auto& node : graph.GetDirectNode()) ++counts[node->GetType()];
  return counts;
}

NodePtr ProducerOf(const NodePtr& node, int input) {
  return NodeUtils::GetInDataNodeByIndex(*node, input);
}

TEST(OnnxParser, InputsInitializersAndOutputsBecomeDataConstNetOutput) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "a", {2, 3});
  AddInput(g, "b", {2, 3});
  AddInitializer(g, "w", {2, 3});
  AddNode(g, "Add", "add1", {"a", "w"}, {"s"});
  AddNode(g, "Mul", "mul1", {"s", "b"}, {"y"});
  AddOutput(g, "y", {2, 3});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ComputeGraphPtr graph = *result;
  ASSERT_TRUE(GraphVerifier::Verify(*graph).ok());
  EXPECT_EQ(CountTypes(*graph),
            (std::map<std::string, int>{
                {"Add", 1}, {"Const", 1}, {"Data", 2}, {"Mul", 1}, {"NetOutput", 1}}));
  int64_t index = -1;
  ASSERT_TRUE(AttrUtils::GetInt(graph->FindNode("a")->GetOpDesc(), kAttrDataIndex, index));
  EXPECT_EQ(index, 0);
  ASSERT_TRUE(AttrUtils::GetInt(graph->FindNode("b")->GetOpDesc(), kAttrDataIndex, index));
  EXPECT_EQ(index, 1);
  auto weight = OpDescUtils::GetConstValue(*graph->FindNode("w"));
  ASSERT_TRUE(weight.ok());
  EXPECT_EQ(weight->GetSize(), 6 * sizeof(float));
  NodePtr add = graph->FindNode("add1");
  EXPECT_EQ(ProducerOf(add, 0)->GetName(), "a");
  EXPECT_EQ(ProducerOf(add, 1)->GetName(), "w");
  NodePtr out = graph->FindNode("NetOutput");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(ProducerOf(out, 0)->GetName(), "mul1");
  EXPECT_EQ(out->GetOpDesc()->GetInputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(graph->GetInputNodes().size(), 2U);
}

TEST(OnnxParser, InitializerThatIsAnInputIsDataWithDefault) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  AddInput(g, "bias", {4});
  AddInitializer(g, "bias", {4});
  AddNode(g, "Add", "add", {"x", "bias"}, {"y"});
  AddOutput(g, "y", {4});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  NodePtr bias = (*result)->FindNode("bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->GetType(), "Data");
  int64_t index = -1;
  ASSERT_TRUE(AttrUtils::GetInt(bias->GetOpDesc(), kAttrDataIndex, index));
  EXPECT_EQ(index, 1);
  GeTensor value;
  ASSERT_TRUE(AttrUtils::GetTensor(bias->GetOpDesc(), kAttrDefaultValue, value));
  EXPECT_EQ(value.GetSize(), 16U);
}

TEST(OnnxParser, SymbolicDimsBecomeUnknownWithTheirNamesKept) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "ids", {0, 0, 8}, {"batch", "seq", ""}, onnx::TensorProto::INT64);
  AddNode(g, "Identity", "id", {"ids"}, {"y"});
  auto* vi = g->add_value_info();
  vi->set_name("y");
  testing::SetTensorType(vi, onnx::TensorProto::INT64, {0, 0, 8}, {"batch", "seq", ""});
  auto* out = g->add_output();
  out->set_name("y");
  testing::SetTensorType(out, onnx::TensorProto::INT64, {0, 0, 8}, {"batch", "seq", ""});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const GeTensorDesc& desc = (*result)->FindNode("ids")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(desc.GetShape().GetDims(), (std::vector<int64_t>{-1, -1, 8}));
  EXPECT_EQ(desc.GetDataType(), DT_INT64);
  std::vector<std::string> names;
  ASSERT_TRUE(AttrUtils::GetListStr(desc, kAttrSymbolicDims, names));
  EXPECT_EQ(names, (std::vector<std::string>{"batch", "seq", ""}));
  const GeTensorDesc& id_out = (*result)->FindNode("id")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(id_out.GetShape().GetDims(), (std::vector<int64_t>{-1, -1, 8}));
}

// Node names need not be unique in ONNX; the IR's are. A model of 40000 nodes of one name gets
// name, name_1, name_2, ... in linear time (one try per node, not one per earlier duplicate: that
// would be 800 million tries and outlast the test's timeout).
TEST(OnnxParser, ManyNodesOfOneNameGetUniqueNamesInLinearTime) {
  constexpr int kNodes = 40000;
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "x", {2});
  std::string last = "x";
  for (int i = 0; i < kNodes; ++i) {
    const std::string out = "v" + std::to_string(i);
    AddNode(g, "Relu", "r", {last}, {out});
    last = out;
  }
  AddNode(g, "Relu", "r_2", {last}, {"y"});  // a name the numbering would also make
  AddOutput(g, "y", {2});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  std::set<std::string> names;
  size_t relus = 0;
  for (const NodePtr& node : (*result)->GetDirectNode()) {
    EXPECT_TRUE(names.insert(node->GetName()).second) << node->GetName();
    relus += node->GetType() == "Relu" ? 1 : 0;
  }
  EXPECT_EQ(relus, static_cast<size_t>(kNodes + 1));
  EXPECT_TRUE(names.contains("r") && names.contains("r_1") && names.contains("r_39999"));
}

TEST(OnnxParser, InputShapeOverridesApplyAndAreChecked) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "x", {0, 3}, {"n", ""});
  AddNode(g, "Relu", "r", {"x"}, {"y"});
  AddOutput(g, "y", {1, 3});
  OnnxParseOptions opts;
  opts.input_shapes["x"] = {5, 3};
  auto result = Parse(model, opts);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ((*result)->FindNode("x")->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{5, 3}));
  opts.input_shapes["x"] = {5};
  auto bad_rank = Parse(model, opts);
  ASSERT_FALSE(bad_rank.ok());
  EXPECT_NE(bad_rank.status().message().find("has rank 1"), std::string::npos);
  opts.input_shapes["x"] = {5, 4};  // the model fixes dim 1 to 3
  auto contradicts = Parse(model, opts);
  ASSERT_FALSE(contradicts.ok());
  EXPECT_NE(contradicts.status().message().find(
                "for input 'x' sets dim 1 to 4, but the model fixes it to 3 (shape [-1,3])"),
            std::string::npos)
      << contradicts.status().message();
  opts.input_shapes = {{"nope", {1}}};
  auto bad_name = Parse(model, opts);
  ASSERT_FALSE(bad_name.ok());
  EXPECT_NE(bad_name.status().message().find("'nope', which is not a graph input (inputs: x)"),
            std::string::npos);
}

// An override that leaves a dim open (-1) keeps the model's name for it, as the compiler's
// ApplyInputShapes does: the shape plans and SymbolicShapes read the name. A dim it sizes drops
// its name.
TEST(OnnxParser, AnInputShapeOverrideKeepsTheNamesOfDimsItLeavesOpen) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "x", {0, 0}, {"batch", "seq"});
  AddNode(g, "Relu", "r", {"x"}, {"y"});
  AddOutput(g, "y", {0, 0});
  OnnxParseOptions opts;
  opts.input_shapes["x"] = {-1, 5};
  auto result = Parse(model, opts);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const GeTensorDesc& desc = (*result)->FindNode("x")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(desc.GetShape().GetDims(), (std::vector<int64_t>{-1, 5}));
  std::vector<std::string> names;
  ASSERT_TRUE(AttrUtils::GetListStr(desc, kAttrSymbolicDims, names));
  EXPECT_EQ(names, (std::vector<std::string>{"batch", ""}));
  opts.input_shapes["x"] = {2, 5};
  auto sized = Parse(model, opts);
  ASSERT_TRUE(sized.ok()) << sized.status().message();
  EXPECT_FALSE((*sized)->FindNode("x")->GetOpDesc()->GetOutputDesc(0).HasAttr(kAttrSymbolicDims));
}

TEST(OnnxParser, ConvTakesTheGeTypeAndKeepsOnnxAttributeForms) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  AddInput(g, "x", {1, 3, 8, 8});
  AddInitializer(g, "w", {4, 3, 3, 3});
  auto* conv = AddNode(g, "Conv", "conv", {"x", "w"}, {"y"});
  AddIntsAttr(conv, "kernel_shape", {3, 3});
  AddIntsAttr(conv, "pads", {1, 2, 3, 4});
  AddIntsAttr(conv, "strides", {2, 2});
  AddIntAttr(conv, "group", 1);
  AddOutput(g, "y", {1, 4, 4, 4});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  OpDescPtr op = (*result)->FindNode("conv")->GetOpDesc();
  EXPECT_EQ(op->GetType(), "Conv2D");
  std::vector<int64_t> v;
  ASSERT_TRUE(AttrUtils::GetListInt(op, "pads", v));
  EXPECT_EQ(v, (std::vector<int64_t>{1, 2, 3, 4}));  // the IR keeps ONNX's [b1, b2, e1, e2]
  ASSERT_TRUE(AttrUtils::GetListInt(op, "strides", v));
  EXPECT_EQ(v, (std::vector<int64_t>{2, 2}));
  int64_t group = 0;
  ASSERT_TRUE(AttrUtils::GetInt(op, "group", group));
  EXPECT_EQ(group, 1);
  std::string format;
  ASSERT_TRUE(AttrUtils::GetStr(op, "data_format", format));
  EXPECT_EQ(format, "NCHW");
  EXPECT_EQ(op->GetAllInputNames(), (std::vector<std::string>{"x", "filter", "bias"}));
  EXPECT_EQ((*result)->FindNode("conv")->GetInDataAnchor(2)->GetPeerOutAnchor(), nullptr);
  std::string onnx_type;
  ASSERT_TRUE(AttrUtils::GetStr(op, kAttrOnnxOpType, onnx_type));
  EXPECT_EQ(onnx_type, "Conv");
}

TEST(OnnxParser, LegacySoftmaxIsV2OnlyOnTheLastAxis) {
  auto model = MakeModel(11);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {2, 3, 4});
  auto* last = AddNode(g, "Softmax", "last", {"x"}, {"a"});
  AddIntAttr(last, "axis", 2);
  AddNode(g, "Softmax", "first", {"x"}, {"b"});  // axis 1: flattens [2, 12]
  AddOutput(g, "a", {2, 3, 4});
  AddOutput(g, "b", {2, 3, 4});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ((*result)->FindNode("last")->GetType(), "SoftmaxV2");
  EXPECT_EQ((*result)->FindNode("first")->GetType(), "SoftmaxLegacy");
}

TEST(OnnxParser, AttributesThatBecameInputsAreNormalizedToInputs) {
  for (int64_t opset : {11, 13}) {
    auto model = MakeModel(opset);
    auto* g = model.mutable_graph();
    AddInput(g, "x", {6, 2});
    onnx::NodeProto* split = nullptr;
    if (opset < 13) {
      split = AddNode(g, "Split", "split", {"x"}, {"a", "b"});
      AddIntsAttr(split, "split", {2, 4});
    } else {
      auto* sizes = g->add_initializer();
      sizes->set_name("sizes");
      sizes->set_data_type(onnx::TensorProto::INT64);
      sizes->add_dims(2);
      sizes->add_int64_data(2);
      sizes->add_int64_data(4);
      split = AddNode(g, "Split", "split", {"x", "sizes"}, {"a", "b"});
    }
    AddIntAttr(split, "axis", 0);
    AddOutput(g, "a", {2, 2});
    AddOutput(g, "b", {4, 2});
    auto result = Parse(model);
    ASSERT_TRUE(result.ok()) << result.status().message();
    NodePtr node = (*result)->FindNode("split");
    EXPECT_EQ(node->GetType(), "Split");
    EXPECT_EQ(node->GetOpDesc()->GetAllInputNames(), (std::vector<std::string>{"x", "split"}));
    EXPECT_FALSE(node->GetOpDesc()->HasAttr("split")) << "opset " << opset;
    auto sizes = OpDescUtils::GetConstValue(*ProducerOf(node, 1));
    ASSERT_TRUE(sizes.ok()) << "opset " << opset;
    ASSERT_EQ(sizes->GetSize(), 16U);
    const auto* values = reinterpret_cast<const int64_t*>(sizes->GetData().data());
    EXPECT_EQ(values[0], 2);
    EXPECT_EQ(values[1], 4);
    EXPECT_EQ(AttrUtils::HasAttr(ProducerOf(node, 1)->GetOpDesc(), kAttrMadeConst), opset < 13);
    EXPECT_EQ(node->GetOpDesc()->GetOutputsSize(), 2U);
  }
}

TEST(OnnxParser, UpsampleBecomesResizeWithItsScalesAsAnInput) {
  auto model = MakeModel(7);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {1, 1, 2, 2});
  auto* up = AddNode(g, "Upsample", "up", {"x"}, {"y"});
  auto* attr = up->add_attribute();
  attr->set_name("scales");
  attr->set_type(onnx::AttributeProto::FLOATS);
  for (float f : {1.0F, 1.0F, 2.0F, 2.0F}) attr->add_floats(f);
  AddOutput(g, "y", {1, 1, 4, 4});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  NodePtr node = (*result)->FindNode("up");
  EXPECT_EQ(node->GetType(), "Resize");
  EXPECT_EQ(node->GetOpDesc()->GetAllInputNames(),
            (std::vector<std::string>{"x", "roi", "scales"}));
  EXPECT_EQ(ProducerOf(node, 1), nullptr);
  auto scales = OpDescUtils::GetConstValue(*ProducerOf(node, 2));
  ASSERT_TRUE(scales.ok());
  EXPECT_EQ(scales->GetTensorDesc().GetDataType(), DT_FLOAT);
  EXPECT_EQ(scales->GetSize(), 16U);
  std::string mode;
  ASSERT_TRUE(AttrUtils::GetStr(node->GetOpDesc(), "coordinate_transformation_mode", mode));
  EXPECT_EQ(mode, "asymmetric");
}

TEST(OnnxParser, ConstantValueFormsBecomeConstTensors) {
  auto model = MakeModel();
  auto* g = model.mutable_graph();
  auto* c1 = AddNode(g, "Constant", "c_ints", {}, {"a"});
  AddIntsAttr(c1, "value_ints", {1, 2, 3});
  auto* c2 = AddNode(g, "Constant", "c_float", {}, {"b"});
  auto* attr = c2->add_attribute();
  attr->set_name("value_float");
  attr->set_type(onnx::AttributeProto::FLOAT);
  attr->set_f(2.5F);
  auto* c3 = AddNode(g, "Constant", "c_tensor", {}, {"c"});
  attr = c3->add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  attr->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  attr->mutable_t()->add_dims(2);
  attr->mutable_t()->add_float_data(1.0F);
  attr->mutable_t()->add_float_data(2.0F);
  AddOutput(g, "a", {3}, onnx::TensorProto::INT64);
  AddOutput(g, "b", {});
  AddOutput(g, "c", {2});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  auto ints = OpDescUtils::GetConstValue(*(*result)->FindNode("c_ints"));
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(ints->GetTensorDesc().GetDataType(), DT_INT64);
  EXPECT_EQ(ints->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{3}));
  auto scalar = OpDescUtils::GetConstValue(*(*result)->FindNode("c_float"));
  ASSERT_TRUE(scalar.ok());
  EXPECT_TRUE(scalar->GetTensorDesc().GetShape().IsScalar());
  EXPECT_EQ(*reinterpret_cast<const float*>(scalar->GetData().data()), 2.5F);
  auto tensor = OpDescUtils::GetConstValue(*(*result)->FindNode("c_tensor"));
  ASSERT_TRUE(tensor.ok());
  EXPECT_EQ(tensor->GetSize(), 8U);
  EXPECT_EQ((*result)->FindNode("c_tensor")->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
}

TEST(OnnxParser, OptionalAbsentInputsStayUnlinkedAndRenamesApply) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  AddInput(g, "hi", {});
  AddNode(g, "Clip", "clip", {"x", "", "hi"}, {"y"});
  AddNode(g, "Div", "div", {"y", "x"}, {"z"});
  auto* cast = AddNode(g, "Cast", "cast", {"z"}, {"w"});
  AddIntAttr(cast, "to", onnx::TensorProto::FLOAT16);
  AddOutput(g, "w", {4}, onnx::TensorProto::FLOAT16);
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  NodePtr clip = (*result)->FindNode("clip");
  ASSERT_EQ(clip->GetAllInDataAnchorsSize(), 3U);
  EXPECT_EQ(ProducerOf(clip, 1), nullptr);
  EXPECT_EQ(ProducerOf(clip, 2)->GetName(), "hi");
  EXPECT_TRUE(clip->GetOpDesc()->IsOptionalInput(1));
  EXPECT_EQ((*result)->FindNode("div")->GetType(), "RealDiv");
  DataType dst = DT_UNDEFINED;
  ASSERT_TRUE(AttrUtils::GetDataType((*result)->FindNode("cast")->GetOpDesc(), "to", dst));
  EXPECT_EQ(dst, DT_FLOAT16);
}

TEST(OnnxParser, NodesAreMadeByTheOperatorFactory) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "a", {2, 3});
  AddInput(g, "b", {2, 3});
  AddNode(g, "Sum", "sum", {"a", "b", "a"}, {"s"});
  AddNode(g, "Relu", "relu", {"s"}, {"y"});
  AddOutput(g, "y", {2, 3});
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const OpDescPtr sum = (*result)->FindNode("sum")->GetOpDesc();
  EXPECT_EQ(sum->GetType(), "AddN");
  EXPECT_EQ(sum->GetAllInputNames(), (std::vector<std::string>{"x0", "x1", "x2"}));
  ASSERT_EQ(sum->GetIrInputs().size(), 1u);
  EXPECT_EQ(sum->GetIrInputs()[0], std::make_pair(std::string("x"), kIrInputDynamic));
  ASSERT_EQ(sum->GetIrOutputs().size(), 1u);
  EXPECT_EQ(sum->GetIrOutputs()[0].first, "y");
  EXPECT_FALSE(sum->GetIrAttrNames().empty()) << "AddN declares N";
  EXPECT_TRUE(sum->GetInferShapeFunc());
  EXPECT_TRUE(sum->GetVerifyFunc());
  // The functions the node carries infer it: they are its prototype's.
  const OpDescPtr relu = (*result)->FindNode("relu")->GetOpDesc();
  ASSERT_TRUE(relu->UpdateInputDesc(0, GeTensorDesc(GeShape({5, 1}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE(relu->InferShapeAndType().ok());
  EXPECT_EQ(relu->GetOutputDesc(0).GetShape(), GeShape({5, 1}));
}

// A prototype library that names an operator's ports its own way wins over the mapping table:
// the parsed node's inputs and outputs take the prototype's names.
TEST(OnnxParser, ThePrototypesPortNamesOverrideTheParsers) {
  ASSERT_TRUE(OpsProtoManager::Instance().Initialize({}).ok());
  OpRegistry& registry = OpRegistry::Instance();
  const std::shared_ptr<const OpProto> original = registry.Find("Relu");
  ASSERT_NE(original, nullptr);
  ASSERT_TRUE(registry
                  .Register(OpProtoBuilder("Relu")
                                .Input("features", TensorType::ALL())
                                .Output("activations", TensorType::ALL())
                                .InferShape([](InferContext& ctx) {
                                  return ctx.SetOutput(0, ctx.InputShape(0), ctx.InputDataType(0));
                                })
                                .Build()
                                .value(),
                            "test", /*allow_override=*/true)
                  .ok());
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  AddNode(g, "Relu", "relu", {"x"}, {"y"});
  AddOutput(g, "y", {4});
  auto result = Parse(model);
  const OpProto restore = *original;
  ASSERT_TRUE(registry.Register(restore, "restore", /*allow_override=*/true).ok());
  ASSERT_TRUE(result.ok()) << result.status().message();
  const OpDescPtr relu = (*result)->FindNode("relu")->GetOpDesc();
  EXPECT_EQ(relu->GetAllInputNames(), std::vector<std::string>{"features"});
  EXPECT_EQ(relu->GetAllOutputNames(), std::vector<std::string>{"activations"});
  EXPECT_EQ(relu->GetIrInputs()[0].first, "features");
  EXPECT_EQ(ProducerOf((*result)->FindNode("relu"), 0)->GetName(), "x") << "edges unchanged";
}

TEST(OnnxParser, MappingTableAnswersQueries) {
  EXPECT_EQ(OnnxOpToIrType("Div", 13), "RealDiv");
  EXPECT_EQ(OnnxOpToIrType("Gather", 13), "GatherV2");
  EXPECT_EQ(OnnxOpToIrType("Softmax", 13), "SoftmaxV2");
  EXPECT_EQ(OnnxOpToIrType("Softmax", 11), "SoftmaxLegacy");  // SoftmaxV2 on the last axis
  EXPECT_EQ(OnnxOpToIrType("Where", 9), "SelectV2");
  EXPECT_EQ(OnnxOpToIrType("LayerNormalization", 13), std::nullopt);  // opset 17 operator
  EXPECT_EQ(OnnxOpToIrType("NoSuchOp", 13), std::nullopt);
  auto ops = SupportedOnnxOps();
  EXPECT_GT(ops.size(), 150U);
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
}

TEST(OnnxParser, OldOpsetsParseForOperatorsWhoseSemanticsAreUnchanged) {
  // Opset 1: Elu-1 and InstanceNormalization-1 carry the legacy `consumed_inputs` hint,
  // Softsign-1 and Not-1 are today's operators.
  auto model = MakeModel(1);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {1, 2, 3});
  AddInitializer(g, "scale", {2});
  AddInitializer(g, "bias", {2});
  AddInput(g, "b", {4}, {}, onnx::TensorProto::BOOL);
  AddIntsAttr(AddNode(g, "Elu", "elu", {"x"}, {"e"}), "consumed_inputs", {0});
  AddIntsAttr(AddNode(g, "InstanceNormalization", "norm", {"e", "scale", "bias"}, {"n"}),
              "consumed_inputs", {0, 0, 0});
  AddNode(g, "Softsign", "softsign", {"n"}, {"y"});
  AddNode(g, "Not", "not", {"b"}, {"nb"});
  AddOutput(g, "y", {1, 2, 3});
  AddOutput(g, "nb", {4}, onnx::TensorProto::BOOL);
  auto result = Parse(model);
  ASSERT_TRUE(result.ok()) << result.status().message();
  NodePtr elu = (*result)->FindNode("elu");
  EXPECT_EQ(elu->GetType(), "Elu");
  EXPECT_FALSE(elu->GetOpDesc()->HasAttr("consumed_inputs"));
  EXPECT_FALSE((*result)->FindNode("norm")->GetOpDesc()->HasAttr("consumed_inputs"));
  EXPECT_EQ((*result)->FindNode("not")->GetType(), "LogicalNot");
  int64_t opset = 0;
  ASSERT_TRUE(AttrUtils::GetInt(elu->GetOpDesc(), kAttrOnnxOpset, opset));
  EXPECT_EQ(opset, 1);
}

TEST(OnnxParser, EachOperatorHasItsOwnMinimumOpset) {
  EXPECT_EQ(OnnxOpToIrType("Selu", 1), "Selu");
  EXPECT_EQ(OnnxOpToIrType("GlobalMaxPool", 1), "GlobalMaxPool");
  EXPECT_EQ(OnnxOpToIrType("Add", 6), std::nullopt);  // `broadcast` / `axis` attributes
  EXPECT_EQ(OnnxOpToIrType("Add", 7), "Add");
  EXPECT_EQ(OnnxOpToIrType("Cast", 5), std::nullopt);  // `to` was a string
  EXPECT_EQ(OnnxOpToIrType("Cast", 6), "Cast");
  EXPECT_EQ(OnnxOpToIrType("GlobalLpPool", 1), std::nullopt);  // p was a float
  EXPECT_EQ(OnnxOpToIrType("Pad", 1), std::nullopt);           // `paddings`
  EXPECT_EQ(OnnxOpToIrType("Pad", 2), "PadV3");
  EXPECT_EQ(OnnxOpToIrType("CastLike", 14), std::nullopt);
  EXPECT_EQ(OnnxOpToIrType("CastLike", 15), "CastLike");
}

// ONNX's transformer operators map from opset 23 under their own names: Attention-23 has no
// nonpad_kv_seqlen (Attention-24 added it), and softmax_precision becomes an element type.
TEST(OnnxParser, TransformerOperatorsMapFromOpset23) {
  EXPECT_EQ(OnnxOpToIrType("Attention", 22), std::nullopt);
  EXPECT_EQ(OnnxOpToIrType("Attention", 23), "Attention");
  EXPECT_EQ(OnnxOpToIrType("Attention", 24), "Attention");
  EXPECT_EQ(OnnxOpToIrType("RMSNormalization", 22), std::nullopt);
  EXPECT_EQ(OnnxOpToIrType("RMSNormalization", 23), "RMSNormalization");
  EXPECT_EQ(OnnxOpToIrType("RotaryEmbedding", 22), std::nullopt);
  EXPECT_EQ(OnnxOpToIrType("RotaryEmbedding", 23), "RotaryEmbedding");
  auto attention = [](int64_t opset, bool nonpad) {
    auto model = MakeModel(opset);
    auto* g = model.mutable_graph();
    AddInput(g, "q", {1, 2, 3, 8});
    AddInput(g, "k", {1, 1, 4, 8});
    AddInput(g, "v", {1, 1, 4, 8});
    onnx::NodeProto* node = nullptr;
    if (nonpad) {
      AddInput(g, "n", {1}, {}, onnx::TensorProto::INT64);
      node = AddNode(g, "Attention", "att", {"q", "k", "v", "", "", "", "n"}, {"y", "", "", "qk"});
    } else {
      node = AddNode(g, "Attention", "att", {"q", "k", "v"}, {"y", "", "", "qk"});
    }
    AddIntAttr(node, "is_causal", 1);
    AddIntAttr(node, "qk_matmul_output_mode", 3);
    AddIntAttr(node, "softmax_precision", onnx::TensorProto::FLOAT);
    for (auto [name, value] : {std::pair<const char*, float>{"scale", 0.5F}, {"softcap", 2.0F}}) {
      auto* a = node->add_attribute();
      a->set_name(name);
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(value);
    }
    AddOutput(g, "y", {1, 2, 3, 8});
    AddOutput(g, "qk", {1, 2, 3, 4});
    return Parse(model);
  };
  auto v23 = attention(23, false);
  ASSERT_TRUE(v23.ok()) << v23.status().message();
  const NodePtr att = (*v23)->FindNode("att");
  EXPECT_EQ(att->GetType(), "Attention");
  DataType precision = DT_UNDEFINED;
  ASSERT_TRUE(AttrUtils::GetDataType(att->GetOpDesc(), "softmax_precision", precision));
  EXPECT_EQ(precision, DT_FLOAT);
  EXPECT_EQ(ProducerOf(att, 3), nullptr) << "attn_mask stays absent";
  EXPECT_EQ(att->GetOpDesc()->GetOutputDesc(3).GetShape(), GeShape({1, 2, 3, 4}));
  auto v24 = attention(24, true);
  ASSERT_TRUE(v24.ok()) << v24.status().message();
  EXPECT_EQ(ProducerOf((*v24)->FindNode("att"), 6)->GetName(), "n");
  auto nonpad23 = attention(23, true);
  ASSERT_FALSE(nonpad23.ok());
  EXPECT_NE(nonpad23.status().message().find("has 7 inputs"), std::string::npos)
      << nonpad23.status().message();
}

TEST(OnnxParser, AnOperatorBelowItsMinimumOpsetIsReportedWithTheMinimum) {
  auto model = MakeModel(5);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  auto* cast = AddNode(g, "Cast", "cast", {"x"}, {"y"});
  auto* to = cast->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::STRING);
  to->set_s("FLOAT16");
  AddOutput(g, "y", {4}, onnx::TensorProto::FLOAT16);
  auto result = Parse(model);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kParamInvalid);
  const std::string& msg = result.status().message();
  EXPECT_NE(msg.find("Cast (opset 5): 1 node(s): cast; Cast is supported from opset 6 to " +
                     std::to_string(kOnnxMaxOpset) + " only"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("version_converter"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("op_mapping_table.cc"), std::string::npos) << msg;
}

TEST(OnnxParser, EveryUnsupportedOperatorIsReportedAtOnce) {
  auto model = MakeModel(13);
  auto* g = model.mutable_graph();
  AddInput(g, "x", {4});
  AddNode(g, "FancyOp", "f1", {"x"}, {"a"});
  AddNode(g, "Relu", "r", {"a"}, {"b"});
  AddNode(g, "FancyOp", "f2", {"b"}, {"c"});
  auto* custom = AddNode(g, "Attention", "att", {"c"}, {"d"});
  custom->set_domain("com.microsoft");
  auto* imp = model.add_opset_import();
  imp->set_domain("com.microsoft");
  imp->set_version(1);
  AddOutput(g, "d", {4});
  auto result = Parse(model);
  ASSERT_FALSE(result.ok());
  const std::string& msg = result.status().message();
  EXPECT_NE(msg.find("test.onnx: 2 unsupported operator type(s) in 3 node(s)"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("FancyOp (opset 13): 2 node(s): f1, f2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("com.microsoft::Attention (opset 1): 1 node(s): att"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("op_mapping_table.cc"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ge

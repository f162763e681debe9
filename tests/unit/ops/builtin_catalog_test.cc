// Tests over the whole built-in library: it loads, holds the operators the issue lists, and every
// prototype survives creation, verification and inference on odd inputs without crashing.
#include <gtest/gtest.h>

#include <algorithm>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(BuiltinLibrary, HoldsTheListedOperators) {
  const auto types = Builtins().GetAllTypes();
  for (const char* t : {"Data",
                        "Const",
                        "Constant",
                        "NetOutput",
                        "If",
                        "While",
                        "Case",
                        "PartitionedCall",
                        "NoOp",
                        "Identity",
                        "Shape",
                        "Size",
                        "Rank",
                        "PhonyConcat",
                        "PhonySplit",
                        "Reshape",
                        "Squeeze",
                        "Unsqueeze",
                        "ExpandDims",
                        "Flatten",
                        "Conv2D",
                        "Conv3D",
                        "DepthwiseConv2D",
                        "Conv2DTranspose",
                        "ConvTranspose",
                        "MaxPool",
                        "AvgPool",
                        "GlobalAveragePool",
                        "GlobalMaxPool",
                        "LpPool",
                        "BatchNorm",
                        "LayerNorm",
                        "InstanceNorm",
                        "GroupNorm",
                        "LRN",
                        "MatMulV2",
                        "BatchMatMulV2",
                        "Gemm",
                        "Add",
                        "Sub",
                        "Mul",
                        "RealDiv",
                        "Pow",
                        "Maximum",
                        "Minimum",
                        "Equal",
                        "Less",
                        "Greater",
                        "LessEqual",
                        "GreaterEqual",
                        "LogicalAnd",
                        "LogicalOr",
                        "LogicalNot",
                        "Relu",
                        "Relu6",
                        "LeakyRelu",
                        "PRelu",
                        "Elu",
                        "Selu",
                        "Celu",
                        "Gelu",
                        "Sigmoid",
                        "HardSigmoid",
                        "HardSwish",
                        "Tanh",
                        "Softplus",
                        "Softsign",
                        "Mish",
                        "Clip",
                        "Erf",
                        "Exp",
                        "Log",
                        "Sqrt",
                        "Rsqrt",
                        "Abs",
                        "Neg",
                        "Reciprocal",
                        "Floor",
                        "Ceil",
                        "Round",
                        "Sign",
                        "Sin",
                        "Cos",
                        "SoftmaxV2",
                        "LogSoftmaxV2",
                        "ReduceSum",
                        "ReduceMean",
                        "ReduceMax",
                        "ReduceMin",
                        "ReduceProd",
                        "ReduceL1",
                        "ReduceL2",
                        "ReduceLogSumExp",
                        "ArgMaxV2",
                        "ArgMin",
                        "Transpose",
                        "ConcatV2",
                        "Split",
                        "Slice",
                        "StridedSlice",
                        "GatherV2",
                        "GatherElements",
                        "GatherNd",
                        "ScatterNd",
                        "ScatterElements",
                        "Tile",
                        "Expand",
                        "PadV3",
                        "DepthToSpace",
                        "SpaceToDepth",
                        "Resize",
                        "SelectV2",
                        "OneHot",
                        "Range",
                        "TopKV2",
                        "Cumsum",
                        "NonZero",
                        "Trilu",
                        "Einsum",
                        "Cast",
                        "QuantizeLinear",
                        "DequantizeLinear",
                        "LSTM",
                        "GRU",
                        "RNN"}) {
    EXPECT_TRUE(std::binary_search(types.begin(), types.end(), std::string(t))) << t;
  }
  EXPECT_GE(types.size(), 150u);
  ::testing::Test::RecordProperty("operator_count", static_cast<int>(types.size()));
}

// Every prototype: create with two instances of each dynamic port, then verify and infer with
// (a) default descs, (b) unknown-rank inputs, (c) scalar inputs. Errors are fine; crashes are not.
TEST(BuiltinLibrary, EveryPrototypeSurvivesOddInputs) {
  for (const auto& type : Builtins().GetAllTypes()) {
    SCOPED_TRACE(type);
    auto proto = Builtins().Find(type);
    ASSERT_NE(proto, nullptr);
    DynamicPortCounts counts;
    for (const auto& in : proto->inputs()) {
      if (in.kind == kIrInputDynamic) counts[in.name] = 2;
    }
    for (const auto& out : proto->outputs()) {
      if (out.kind == kIrOutputDynamic) counts[out.name] = 2;
    }
    for (const auto& sg : proto->subgraphs()) {
      if (sg.kind == kDynamic) counts[sg.name] = 2;
    }
    for (const GeShape& shape : {GeShape({2, 3}), GeShape({-2}), GeShape()}) {
      auto op = Builtins().CreateOpDesc(type, "n", counts);
      ASSERT_TRUE(op.ok()) << op.status().ToString();
      for (uint32_t i = 0; i < (*op)->GetAllInputsSize(); ++i) {
        GeTensorDesc d = (*op)->GetInputDesc(i);
        if (d.GetDataType() == DT_UNDEFINED) continue;  // leave optional inputs absent
        d.SetShape(shape);
        ASSERT_TRUE((*op)->UpdateInputDesc(i, d).ok());
      }
      (void)Builtins().Verify(**op);
      Status s = (*op)->InferShapeAndType();
      if (!s.ok()) {
        EXPECT_FALSE(s.message().empty());
        EXPECT_NE(s.message().find("'n'"), std::string::npos) << s.message();
      }
    }
  }
}

}  // namespace
}  // namespace ge::testing

// Operator traits: declared on prototypes, checked by the builder, read through the registry; and
// the GE view and identity types that carry them.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

InferFunc NoInference() {
  return [](InferContext&) { return Status::Ok(); };
}

TEST(OpTraits, TheBuilderRefusesTraitsThatDoNotFitTheSignature) {
  auto view = OpProtoBuilder("V").Input("x", TensorType::ALL()).Output("y", TensorType::ALL());
  auto bad_view = view.ViewOf(2).InferShape(NoInference()).Build();
  ExpectError(bad_view.status(), {"'V'", "ViewOf(2) names no input (the op has 1)"});

  auto both = OpProtoBuilder("B")
                  .Input("x", TensorType::ALL())
                  .Output("y", TensorType::ALL())
                  .ViewOf(0)
                  .PassThrough()
                  .InferShape(NoInference())
                  .Build();
  ExpectError(both.status(), {"both a view and a pass-through"});

  auto dynamic = OpProtoBuilder("D")
                     .DynamicInput("x", TensorType::ALL())
                     .Output("y", TensorType::ALL())
                     .ViewOf(0)
                     .InferShape(NoInference())
                     .Build();
  ExpectError(dynamic.status(), {"ViewOf(0) names a dynamic input"});

  auto unnamed = OpProtoBuilder("U")
                     .Input("x", TensorType::ALL())
                     .Output("y", TensorType::ALL())
                     .DeletedBy("")
                     .InferShape(NoInference())
                     .Build();
  ExpectError(unnamed.status(), {"DeletedBy names no pass"});
}

TEST(OpTraits, AnElementwiseOpHasTheDataInputsItsKindReads) {
  auto binary = OpProtoBuilder("OneOperand")
                    .Input("x", TensorType::ALL())
                    .Output("y", TensorType::ALL())
                    .Elementwise(ElementwiseKind::kBinary)
                    .InferShape(NoInference())
                    .Build();
  ExpectError(binary.status(), {"'OneOperand'", "reads 2 data input(s); it has 1"});
  auto variadic = OpProtoBuilder("NotDynamic")
                      .Input("x", TensorType::ALL())
                      .Output("y", TensorType::ALL())
                      .Elementwise(ElementwiseKind::kVariadic)
                      .InferShape(NoInference())
                      .Build();
  ExpectError(variadic.status(), {"a variadic elementwise op reads a dynamic input 0"});
  auto two_outputs = OpProtoBuilder("TwoOutputs")
                         .Input("x", TensorType::ALL())
                         .Output("y", TensorType::ALL())
                         .Output("z", TensorType::ALL())
                         .Elementwise(ElementwiseKind::kUnary)
                         .InferShape(NoInference())
                         .Build();
  ExpectError(two_outputs.status(), {"an elementwise op has one output"});
  auto clip = OpProtoBuilder("WithBounds")
                  .Input("x", TensorType::ALL())
                  .OptionalInput("lo", TensorType::ALL())
                  .Output("y", TensorType::ALL())
                  .Elementwise(ElementwiseKind::kUnary)
                  .InferShape(NoInference())
                  .Build();
  EXPECT_TRUE(clip.ok()) << clip.status().message();  // parameters beside the data input
}

// The built-in library declares its elementwise operators once, on the prototypes, in each of
// the three shapes the fusion, layout and cost code read.
TEST(OpTraits, TheBuiltinLibraryDeclaresItsElementwiseOperators) {
  const OpRegistry& registry = Builtins();
  EXPECT_EQ(registry.TraitsOf("Add").elementwise, ElementwiseKind::kBinary);
  EXPECT_EQ(registry.TraitsOf("Less").elementwise, ElementwiseKind::kBinary);
  EXPECT_EQ(registry.TraitsOf("Relu").elementwise, ElementwiseKind::kUnary);
  EXPECT_EQ(registry.TraitsOf("Clip").elementwise, ElementwiseKind::kUnary);
  EXPECT_EQ(registry.TraitsOf("AddN").elementwise, ElementwiseKind::kVariadic);
  EXPECT_EQ(registry.TraitsOf("Softmax").elementwise, ElementwiseKind::kNone);
  EXPECT_EQ(registry.TraitsOf("Conv2D").elementwise, ElementwiseKind::kNone);
}

TEST(OpTraits, TheRegistryAnswersFromThePrototype) {
  OpRegistry registry;
  ASSERT_TRUE(registry
                  .Register(OpProtoBuilder("Pick")
                                .Input("x", TensorType::ALL())
                                .Output("y", TensorType::ALL())
                                .ViewOf(0)
                                .DeletedBy("SomePass", "some.option")
                                .InferShape(NoInference())
                                .Build()
                                .value(),
                            "test")
                  .ok());
  const OpTraits pick = registry.TraitsOf("Pick");
  EXPECT_EQ(pick.view_of_input, 0);
  EXPECT_FALSE(pick.pass_through);
  EXPECT_EQ(pick.deleted_by_pass, "SomePass");
  EXPECT_EQ(pick.deleted_by_option, "some.option");
  const OpTraits unknown = registry.TraitsOf("NotRegistered");
  EXPECT_EQ(unknown.view_of_input, -1);
  EXPECT_FALSE(unknown.pass_through || unknown.impure);
  EXPECT_TRUE(unknown.deleted_by_pass.empty());
}

TEST(OpTraits, BuiltinViewsIdentitiesAndTheShapeFamilyCarryThem) {
  for (const char* type :
       {"Reshape", "Squeeze", "Unsqueeze", "ExpandDims", "Flatten", "FlattenV2", "SqueezeV2",
        "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3", "ReFormat", "Bitcast"}) {
    const OpTraits traits = Builtins().TraitsOf(type);
    EXPECT_EQ(traits.view_of_input, 0) << type;
    EXPECT_FALSE(traits.pass_through) << type;
  }
  for (const char* type : {"Identity", "IdentityN", "Snapshot", "StopGradient", "PreventGradient",
                           "GuaranteeConst", "RefIdentity", "PlaceholderWithDefault"}) {
    const OpTraits traits = Builtins().TraitsOf(type);
    EXPECT_TRUE(traits.pass_through) << type;
    EXPECT_EQ(traits.deleted_by_pass, "RemoveIdentity") << type;
    EXPECT_TRUE(traits.deleted_by_option.empty()) << type;
  }
  for (const char* type : {"Shape", "ShapeN", "Size", "Rank"}) {
    const OpTraits traits = Builtins().TraitsOf(type);
    EXPECT_EQ(traits.deleted_by_pass, "ConstantFolding") << type;
    EXPECT_EQ(traits.deleted_by_option, "ge.oo.constantFolding") << type;
  }
  EXPECT_TRUE(Builtins().TraitsOf("Dropout").impure);
  const OpTraits relu = Builtins().TraitsOf("Relu");
  EXPECT_FALSE(relu.impure || relu.pass_through || relu.view_of_input >= 0);
}

TEST(GeViewOps, SqueezeAndUnsqueezeTakeTheirAxesFromAnAttributeOrAnInput) {
  OpHarness v2("SqueezeV2");
  v2.In(0, {1, 3, 1, 4}).Attr("axis", std::vector<int64_t>{2});
  ASSERT_TRUE(v2.Infer().ok());
  EXPECT_EQ(v2.Dims(), (Dims{1, 3, 4}));
  OpHarness all("SqueezeV2");
  all.In(0, {1, 3, 1, 4});
  ASSERT_TRUE(all.Infer().ok());
  EXPECT_EQ(all.Dims(), (Dims{3, 4}));
  OpHarness wrong("SqueezeV2");
  wrong.In(0, {1, 3}).Attr("axis", std::vector<int64_t>{1});
  ExpectError(wrong.Infer(), {"cannot squeeze dim 1", "not 1"});

  OpHarness u2("UnsqueezeV2");
  u2.In(0, {3, 4}).Attr("axis", std::vector<int64_t>{0, 3});
  ASSERT_TRUE(u2.Infer().ok());
  EXPECT_EQ(u2.Dims(), (Dims{1, 3, 4, 1}));

  OpHarness s3("SqueezeV3");
  s3.In(0, {2, 1, 5}).ConstInts(1, {1});
  ASSERT_TRUE(s3.Infer().ok());
  EXPECT_EQ(s3.Dims(), (Dims{2, 5}));
  OpHarness u3("UnsqueezeV3");
  u3.In(0, {2, 5}).ConstInts(1, {-1});
  ASSERT_TRUE(u3.Infer().ok());
  EXPECT_EQ(u3.Dims(), (Dims{2, 5, 1}));
}

TEST(GeViewOps, FlattenV2JoinsARangeOfDims) {
  OpHarness middle("FlattenV2");
  middle.In(0, {2, 3, 4, 5}).Attr("axis", 1).Attr("end_axis", 2);
  ASSERT_TRUE(middle.Infer().ok());
  EXPECT_EQ(middle.Dims(), (Dims{2, 12, 5}));
  OpHarness tail("FlattenV2");
  tail.In(0, {2, 3, 4, 5});
  ASSERT_TRUE(tail.Infer().ok());
  EXPECT_EQ(tail.Dims(), (Dims{2, 60}));
  OpHarness reversed("FlattenV2");
  reversed.In(0, {2, 3, 4}).Attr("axis", 2).Attr("end_axis", 1);
  ExpectError(reversed.Infer(), {"'axis' 2", "'end_axis' 1", "do not name a range"});
}

TEST(GeViewOps, BitcastChangesTheLastDimByTheSizeRatio) {
  OpHarness narrower("Bitcast");
  narrower.In(0, {2, 3}, DT_FLOAT).Attr("type", DT_INT8);
  ASSERT_TRUE(narrower.Infer().ok());
  EXPECT_EQ(narrower.Dims(), (Dims{2, 3, 4}));
  EXPECT_EQ(narrower.OutType(), DT_INT8);
  OpHarness wider("Bitcast");
  wider.In(0, {2, 4}, DT_UINT8).Attr("type", DT_INT32);
  ASSERT_TRUE(wider.Infer().ok());
  EXPECT_EQ(wider.Dims(), (Dims{2}));
  OpHarness same("Bitcast");
  same.In(0, {7}, DT_FLOAT).Attr("type", DT_INT32);
  ASSERT_TRUE(same.Infer().ok());
  EXPECT_EQ(same.Dims(), (Dims{7}));
  OpHarness misfit("Bitcast");
  misfit.In(0, {2, 3}, DT_UINT8).Attr("type", DT_INT32);
  ExpectError(misfit.Infer(), {"the last dim", "must be 4"});
}

TEST(GeViewOps, ShapeNGivesEachInputsShapeAndReFormatKeepsIt) {
  OpHarness shapes("ShapeN", {{"x", 2}, {"y", 2}});
  shapes.In(0, {2, 3, 4}).In(1, {-2}).Attr("dtype", DT_INT32);
  ASSERT_TRUE(shapes.Infer().ok());
  EXPECT_EQ(shapes.Dims(0), (Dims{3}));
  EXPECT_EQ(shapes.Dims(1), (Dims{-1}));
  EXPECT_EQ(shapes.OutType(0), DT_INT32);
  OpHarness reformat("ReFormat");
  reformat.In(0, {1, 8, 2, 2});
  ASSERT_TRUE(reformat.Infer().ok());
  EXPECT_EQ(reformat.Dims(), (Dims{1, 8, 2, 2}));
}

}  // namespace
}  // namespace ge::testing

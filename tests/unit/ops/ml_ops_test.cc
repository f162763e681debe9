// Inference and verification of ai.onnx.ml's value maps (LabelEncoder, CategoryMapper), of
// OneHotEncoder's categories and of the classifiers' labels: the output dtype from the attributes
// or the input, and the attribute sets they refuse.
#include <gtest/gtest.h>

#include "ge/graph/string_tensor.h"
#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(LabelEncoderOps, OutputTypeFollowsTheValues) {
  OpHarness h("LabelEncoder");
  h.In(0, {2, 5}, DT_STRING)
      .Attr("keys_strings", std::vector<std::string>{"a", "b"})
      .Attr("values_int64s", std::vector<int64_t>{0, 1});
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(), (Dims{2, 5}));
  EXPECT_EQ(h.OutType(), DT_INT64);
  OpHarness tensors("LabelEncoder");
  tensors.In(0, {5}, DT_STRING)
      .Attr("keys_tensor", MakeStringTensor({2}, {"a", "b"}))
      .Attr("values_tensor", MakeTensor<int16_t>({0, 1}, DT_INT16, {2}))
      .Attr("default_tensor", MakeTensor<int16_t>({42}, DT_INT16, {1}));
  ASSERT_TRUE(tensors.Verify().ok()) << tensors.Verify().ToString();
  ASSERT_TRUE(tensors.Infer().ok()) << tensors.Infer().ToString();
  EXPECT_EQ(tensors.OutType(), DT_INT16);
  OpHarness strings("LabelEncoder");
  strings.In(0, {3}, DT_FLOAT)
      .Attr("keys_floats", std::vector<float>{1.0F})
      .Attr("values_strings", std::vector<std::string>{"one"});
  ASSERT_TRUE(strings.Infer().ok()) << strings.Infer().ToString();
  EXPECT_EQ(strings.OutType(), DT_STRING);
}

TEST(LabelEncoderOps, Errors) {
  OpHarness lengths("LabelEncoder");
  lengths.In(0, {2}, DT_STRING)
      .Attr("keys_strings", std::vector<std::string>{"a", "b", "c"})
      .Attr("values_int64s", std::vector<int64_t>{0, 1});
  ExpectError(lengths.Verify(),
              {"node 'op' (LabelEncoder)", "keys_strings holds 3 keys but values_int64s 2 values"});
  OpHarness both("LabelEncoder");
  both.In(0, {2}, DT_STRING)
      .Attr("keys_strings", std::vector<std::string>{"a"})
      .Attr("keys_tensor", MakeStringTensor({1}, {"a"}))
      .Attr("values_int64s", std::vector<int64_t>{0});
  ExpectError(both.Verify(), {"not both keys_strings and keys_tensor"});
  OpHarness no_values("LabelEncoder");
  no_values.In(0, {2}, DT_STRING).Attr("keys_strings", std::vector<std::string>{"a"});
  ExpectError(no_values.Verify(), {"one of values_strings, values_int64s, values_floats or "
                                   "values_tensor must be set"});
  OpHarness input("LabelEncoder");
  input.In(0, {2}, DT_INT64)
      .Attr("keys_strings", std::vector<std::string>{"a"})
      .Attr("values_int64s", std::vector<int64_t>{0});
  ExpectError(input.Verify(), {"is DT_INT64 but its keys (keys_strings) are DT_STRING"});
  OpHarness fallback("LabelEncoder");
  fallback.In(0, {2}, DT_STRING)
      .Attr("keys_strings", std::vector<std::string>{"a"})
      .Attr("values_int64s", std::vector<int64_t>{0})
      .Attr("default_tensor", MakeTensor<int32_t>({7}, DT_INT32, {1}));
  ExpectError(fallback.Verify(), {"'default_tensor' must be one DT_INT64 value"});
  OpHarness bytes("LabelEncoder");
  bytes.In(0, {2}, DT_UINT8)
      .Attr("keys_tensor", MakeTensor<uint8_t>({1}, DT_UINT8, {1}))
      .Attr("values_int64s", std::vector<int64_t>{0});
  ExpectError(bytes.Verify(), {"DT_UINT8"});
}

TEST(CategoryMapperOps, OutputTypeIsTheOtherOne) {
  OpHarness from_strings("CategoryMapper");
  from_strings.In(0, {2, 3}, DT_STRING)
      .Attr("cats_strings", std::vector<std::string>{"a", "b"})
      .Attr("cats_int64s", std::vector<int64_t>{1, 2});
  ASSERT_TRUE(from_strings.Verify().ok()) << from_strings.Verify().ToString();
  ASSERT_TRUE(from_strings.Infer().ok()) << from_strings.Infer().ToString();
  EXPECT_EQ(from_strings.Dims(), (Dims{2, 3}));
  EXPECT_EQ(from_strings.OutType(), DT_INT64);
  OpHarness from_ints("CategoryMapper");
  from_ints.In(0, {4}, DT_INT64)
      .Attr("cats_strings", std::vector<std::string>{"a", "b"})
      .Attr("cats_int64s", std::vector<int64_t>{1, 2});
  ASSERT_TRUE(from_ints.Infer().ok()) << from_ints.Infer().ToString();
  EXPECT_EQ(from_ints.OutType(), DT_STRING);
  OpHarness lengths("CategoryMapper");
  lengths.In(0, {4}, DT_INT64)
      .Attr("cats_strings", std::vector<std::string>{"a", "b"})
      .Attr("cats_int64s", std::vector<int64_t>{1});
  ExpectError(lengths.Verify(),
              {"node 'op' (CategoryMapper)", "cats_strings holds 2 strings but cats_int64s 1"});
}

TEST(OneHotEncoderOps, StringCategoriesTakeAStringInput) {
  OpHarness h("OneHotEncoder");
  h.In(0, {2, 5}, DT_STRING).Attr("cats_strings", std::vector<std::string>{"a", "b", "c"});
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(), (Dims{2, 5, 3}));
  EXPECT_EQ(h.OutType(), DT_FLOAT);
  OpHarness ints("OneHotEncoder");
  ints.In(0, {4}, DT_INT64).Attr("cats_int64s", std::vector<int64_t>{1, 2});
  ASSERT_TRUE(ints.Verify().ok()) << ints.Verify().ToString();
  ASSERT_TRUE(ints.Infer().ok()) << ints.Infer().ToString();
  EXPECT_EQ(ints.Dims(), (Dims{4, 2}));
}

TEST(OneHotEncoderOps, Errors) {
  OpHarness both("OneHotEncoder");
  both.In(0, {2}, DT_STRING)
      .Attr("cats_strings", std::vector<std::string>{"a"})
      .Attr("cats_int64s", std::vector<int64_t>{1});
  ExpectError(both.Verify(), {"node 'op' (OneHotEncoder)",
                              "both cats_int64s and cats_strings are set; the categories are one "
                              "or the other"});
  OpHarness neither("OneHotEncoder");
  neither.In(0, {2}, DT_INT64);
  ExpectError(neither.Verify(),
              {"neither cats_int64s nor cats_strings is set: there are no categories"});
  ExpectError(neither.Infer(), {"neither cats_int64s nor cats_strings is set"});
  OpHarness numbers("OneHotEncoder");
  numbers.In(0, {2}, DT_FLOAT).Attr("cats_strings", std::vector<std::string>{"a"});
  ExpectError(numbers.Verify(), {"is DT_FLOAT but the categories (cats_strings) are strings"});
  OpHarness strings("OneHotEncoder");
  strings.In(0, {2}, DT_STRING).Attr("cats_int64s", std::vector<int64_t>{1});
  ExpectError(strings.Verify(), {"is DT_STRING but the categories (cats_int64s) are integers"});
}

TEST(ClassifierOps, StringLabelsMakeYAString) {
  OpHarness tree("TreeEnsembleClassifier");
  tree.In(0, {4, 3})
      .Attr("classlabels_strings", std::vector<std::string>{"cat", "dog", "eel"})
      .Attr("class_ids", std::vector<int64_t>{0, 2});
  ASSERT_TRUE(tree.Verify().ok()) << tree.Verify().ToString();
  ASSERT_TRUE(tree.Infer().ok()) << tree.Infer().ToString();
  EXPECT_EQ(tree.OutType(0), DT_STRING);
  EXPECT_EQ(tree.Dims(0), (Dims{4}));
  EXPECT_EQ(tree.OutType(1), DT_FLOAT);
  EXPECT_EQ(tree.Dims(1), (Dims{4, 3}));

  OpHarness ints("TreeEnsembleClassifier");
  ints.In(0, {4, 3}).Attr("classlabels_int64s", std::vector<int64_t>{4, 8});
  ASSERT_TRUE(ints.Infer().ok()) << ints.Infer().ToString();
  EXPECT_EQ(ints.OutType(0), DT_INT64);

  // One intercept and two labels: binary, two score columns.
  OpHarness linear("LinearClassifier");
  linear.In(0, {5, 2})
      .Attr("coefficients", std::vector<float>{1.0F, 2.0F})
      .Attr("intercepts", std::vector<float>{0.5F})
      .Attr("classlabels_strings", std::vector<std::string>{"neg", "pos"});
  ASSERT_TRUE(linear.Verify().ok()) << linear.Verify().ToString();
  ASSERT_TRUE(linear.Infer().ok()) << linear.Infer().ToString();
  EXPECT_EQ(linear.OutType(0), DT_STRING);
  EXPECT_EQ(linear.Dims(1), (Dims{5, 2}));

  OpHarness svm("SVMClassifier");
  svm.In(0, {2, 1})
      .Attr("classlabels_strings", std::vector<std::string>{"neg", "pos"})
      .Attr("vectors_per_class", std::vector<int64_t>{1, 1})
      .Attr("support_vectors", std::vector<float>{0.0F, 2.0F})
      .Attr("coefficients", std::vector<float>{1.0F, -1.0F})
      .Attr("rho", std::vector<float>{1.0F});
  ASSERT_TRUE(svm.Verify().ok()) << svm.Verify().ToString();
  ASSERT_TRUE(svm.Infer().ok()) << svm.Infer().ToString();
  EXPECT_EQ(svm.OutType(0), DT_STRING);
  EXPECT_EQ(svm.Dims(1), (Dims{2, 2}));
}

TEST(ClassifierOps, LabelErrors) {
  OpHarness both("TreeEnsembleClassifier");
  both.In(0, {4, 3})
      .Attr("classlabels_strings", std::vector<std::string>{"cat", "dog"})
      .Attr("classlabels_int64s", std::vector<int64_t>{0, 1});
  ExpectError(both.Verify(), {"node 'op' (TreeEnsembleClassifier)",
                              "both 'classlabels_int64s' and 'classlabels_strings' are set"});
  OpHarness neither("SVMClassifier");
  neither.In(0, {4, 3}).Attr("rho", std::vector<float>{1.0F});
  ExpectError(neither.Verify(), {"neither 'classlabels_ints' nor 'classlabels_strings' is set"});
  OpHarness one("SVMClassifier");
  one.In(0, {4, 3}).Attr("classlabels_strings", std::vector<std::string>{"cat"});
  ExpectError(one.Verify(), {"'classlabels_strings' must name at least two classes, not 1"});
  OpHarness class_ids("TreeEnsembleClassifier");
  class_ids.In(0, {4, 3})
      .Attr("classlabels_strings", std::vector<std::string>{"cat", "dog"})
      .Attr("class_ids", std::vector<int64_t>{0, 2});
  ExpectError(class_ids.Verify(),
              {"'class_ids' names class 2 but 'classlabels_strings' holds 2 labels"});
  OpHarness per_class("SVMClassifier");
  per_class.In(0, {4, 3})
      .Attr("classlabels_strings", std::vector<std::string>{"a", "b", "c"})
      .Attr("vectors_per_class", std::vector<int64_t>{1, 1});
  ExpectError(per_class.Verify(),
              {"'vectors_per_class' has 2 counts but 'classlabels_strings' 3 labels"});
  OpHarness linear("LinearClassifier");
  linear.In(0, {4, 1})
      .Attr("coefficients", std::vector<float>{1.0F, 2.0F, 3.0F})
      .Attr("intercepts", std::vector<float>{0.0F, 0.0F, 0.0F})
      .Attr("classlabels_strings", std::vector<std::string>{"a", "b"});
  ExpectError(linear.Verify(), {"'classlabels_strings' holds 2 labels for 3 intercepts"});
  // One intercept needs no labels: the label is then 1 or 0, int64.
  OpHarness unlabeled("LinearClassifier");
  unlabeled.In(0, {4, 1})
      .Attr("coefficients", std::vector<float>{1.0F})
      .Attr("intercepts", std::vector<float>{0.0F});
  ASSERT_TRUE(unlabeled.Verify().ok()) << unlabeled.Verify().ToString();
  ASSERT_TRUE(unlabeled.Infer().ok()) << unlabeled.Infer().ToString();
  EXPECT_EQ(unlabeled.OutType(0), DT_INT64);
}

}  // namespace
}  // namespace ge::testing

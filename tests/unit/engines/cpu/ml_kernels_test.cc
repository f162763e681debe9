// The ai.onnx.ml kernels of ai.onnx.ml 1 and 3 on small hand-made models, and their refusals: a
// loaded .om skips the parser's checks, so a kernel refuses a model it cannot run itself (labels
// in both forms, indices out of range, too few base values) before it reads or writes past an
// array. The classifiers with string labels choose the label an int64 form of the same model
// chooses, binary cases included. The operators' numbers over many random models are checked by
// the idiom cases (tests/conformance/ml_idiom_cases.py).
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::RunKernel;

// One stump: x0 <= 0.5 (NaN goes true) → leaf 1, giving 1 to target 0 and 2 to target 1; else
// leaf 2, giving 3 to target 0. Node ids start at 10, as a tree cut out of a bigger forest.
std::shared_ptr<OpDesc> Stump(const std::string& type, const std::string& prefix) {
  auto op = testing::Op(type);
  AttrUtils::SetListInt(op, "nodes_treeids", std::vector<int64_t>{0, 0, 0});
  AttrUtils::SetListInt(op, "nodes_nodeids", std::vector<int64_t>{10, 11, 12});
  AttrUtils::SetListInt(op, "nodes_featureids", std::vector<int64_t>{0, 0, 0});
  AttrUtils::SetListStr(op, "nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"});
  AttrUtils::SetListFloat(op, "nodes_values", {0.5F, 0.0F, 0.0F});
  AttrUtils::SetListInt(op, "nodes_truenodeids", std::vector<int64_t>{11, 0, 0});
  AttrUtils::SetListInt(op, "nodes_falsenodeids", std::vector<int64_t>{12, 0, 0});
  AttrUtils::SetListInt(op, "nodes_missing_value_tracks_true", std::vector<int64_t>{1, 0, 0});
  AttrUtils::SetListInt(op, prefix + "_treeids", std::vector<int64_t>{0, 0, 0});
  AttrUtils::SetListInt(op, prefix + "_nodeids", std::vector<int64_t>{11, 11, 12});
  AttrUtils::SetListInt(op, prefix + "_ids", std::vector<int64_t>{0, 1, 0});
  AttrUtils::SetListFloat(op, prefix + "_weights", {1.0F, 2.0F, 3.0F});
  return op;
}

const float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(TreeEnsembleRegressorKernel, LeavesAddToTheirTargetsAndBaseValuesToTheTargetsReached) {
  auto op = Stump("TreeEnsembleRegressor", "target");
  AttrUtils::SetInt(op, "n_targets", 2);
  AttrUtils::SetListFloat(op, "base_values", {0.5F, 0.25F});
  auto r = RunKernel(op, {Make<float>({3, 1}, {0.2F, 0.9F, kNan})}, {{DT_FLOAT, {3, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // Row 1 reaches no leaf of target 1: it stays 0, without its base value (as ONNX Runtime).
  ExpectNear(r.outputs[0].Values<float>(), {1.5F, 2.25F, 3.5F, 0.0F, 1.5F, 2.25F}, 0.0F, 0.0F);
}

TEST(TreeEnsembleClassifierKernel, LabelIsTheClassOfHighestScore) {
  auto op = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListInt(op, "classlabels_int64s", std::vector<int64_t>{4, 8, 15});
  AttrUtils::SetStr(op, "post_transform", "SOFTMAX");
  auto r = RunKernel(op, {Make<double>({2, 1}, {0.2, 0.9})}, {{DT_INT64, {2}}, {DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{8, 4}));
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  ExpectNear(r.outputs[1].Values<float>(),
             {static_cast<float>(e1 / (e1 + e2 + 1)), static_cast<float>(e2 / (e1 + e2 + 1)),
              static_cast<float>(1 / (e1 + e2 + 1)), static_cast<float>(e3 / (e3 + 2)),
              static_cast<float>(1 / (e3 + 2)), static_cast<float>(1 / (e3 + 2))},
             1e-6F, 1e-6F);
}

TEST(TreeEnsembleKernels, RefuseWhatTheyCannotRun) {
  auto child = Stump("TreeEnsembleRegressor", "target");
  AttrUtils::SetInt(child, "n_targets", 2);
  AttrUtils::SetListInt(child, "nodes_truenodeids", std::vector<int64_t>{17, 0, 0});
  ExpectError(RunKernel(child, {Make<float>({1, 1}, {0.0F})}, {{DT_FLOAT, {1, 2}}}).status,
              "node (tree 0, id 10) names a child that is not in its tree");

  auto mode = Stump("TreeEnsembleRegressor", "target");
  AttrUtils::SetInt(mode, "n_targets", 2);
  AttrUtils::SetListStr(mode, "nodes_modes", {"BRANCH_MEMBER", "LEAF", "LEAF"});
  ExpectError(RunKernel(mode, {Make<float>({1, 1}, {0.0F})}, {{DT_FLOAT, {1, 2}}}).status,
              "nodes_modes 'BRANCH_MEMBER' is none of");

  auto target = Stump("TreeEnsembleRegressor", "target");  // target 1 of one
  ExpectError(RunKernel(target, {Make<float>({1, 1}, {0.0F})}, {{DT_FLOAT, {1, 1}}}).status,
              "a leaf's target 1 is out of range for 1 targets");

  auto post = Stump("TreeEnsembleRegressor", "target");
  AttrUtils::SetInt(post, "n_targets", 2);
  AttrUtils::SetStr(post, "post_transform", "SQUASH");
  ExpectError(RunKernel(post, {Make<float>({1, 1}, {0.0F})}, {{DT_FLOAT, {1, 2}}}).status,
              "post_transform 'SQUASH' is none of NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT");

  auto base = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListInt(base, "classlabels_int64s", std::vector<int64_t>{4, 8, 15});
  AttrUtils::SetListFloat(base, "base_values", {0.5F, 0.25F});
  ExpectError(
      RunKernel(base, {Make<float>({1, 1}, {0.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 3}}}).status,
      "base_values has 2 values for 3 classes");

  auto both = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListStr(both, "classlabels_strings", {"cat", "dog"});
  AttrUtils::SetListInt(both, "classlabels_int64s", std::vector<int64_t>{4, 8});
  ExpectError(
      RunKernel(both, {Make<float>({1, 1}, {0.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 2}}}).status,
      "both classlabels_int64s and classlabels_strings are set");

  auto neither = Stump("TreeEnsembleClassifier", "class");
  ExpectError(
      RunKernel(neither, {Make<float>({1, 1}, {0.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 2}}})
          .status,
      "neither classlabels_int64s nor classlabels_strings is set");

  auto one = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListStr(one, "classlabels_strings", {"cat"});
  ExpectError(
      RunKernel(one, {Make<float>({1, 1}, {0.0F})}, {{DT_STRING, {1}}, {DT_FLOAT, {1, 1}}}).status,
      "classlabels_strings must name at least two classes");

  auto dtype = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListStr(dtype, "classlabels_strings", {"cat", "dog"});
  ExpectError(
      RunKernel(dtype, {Make<float>({1, 1}, {0.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 2}}}).status,
      "outputs must be string [1] and float32 [1, 2]");
}

TEST(SvmClassifierKernel, RefusesTooFewRhoValues) {
  auto op = testing::Op("SVMClassifier");
  AttrUtils::SetListInt(op, "classlabels_ints", std::vector<int64_t>{0, 1, 2});
  AttrUtils::SetListInt(op, "vectors_per_class", std::vector<int64_t>{1, 1, 1});
  AttrUtils::SetListFloat(op, "support_vectors", {1, 2, 3, 4, 5, 6});
  AttrUtils::SetListFloat(op, "coefficients", {1, 1, 1, 1, 1, 1});
  AttrUtils::SetListFloat(op, "rho", {0.5F});  // three pairs need three
  ExpectError(
      RunKernel(op, {Make<float>({1, 2}, {0.0F, 1.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 3}}})
          .status,
      "one value per pair of classes");
}

// ---- String labels ----

struct Labeled {
  std::vector<std::string> labels;
  std::vector<float> scores;
};

// Runs `op` with string labels on X [rows, features], its scores [rows, columns].
Labeled RunWithStrings(const std::shared_ptr<OpDesc>& op, const std::vector<float>& x, int64_t rows,
                       int64_t columns) {
  auto r = RunKernel(op, {Make<float>({rows, static_cast<int64_t>(x.size()) / rows}, x)},
                     {{DT_STRING, {rows}}, {DT_FLOAT, {rows, columns}}});
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  if (!r.status.ok()) return {};
  return {r.outputs[0].strings, r.outputs[1].Values<float>()};
}

// The model `make` gives, with labels 100, 101, ... and then "L0", "L1", ... (`classes` of them,
// in the attribute `ints_attr` or classlabels_strings), chooses label i for the same rows and
// gives the same scores in both forms.
void ExpectStringsFollowInts(const std::function<std::shared_ptr<OpDesc>()>& make,
                             const std::string& ints_attr, int64_t classes,
                             const std::vector<float>& x, int64_t rows, int64_t columns) {
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  for (int64_t c = 0; c < classes; ++c) {
    ints.push_back(100 + c);
    strings.push_back("L" + std::to_string(c));
  }
  auto int_op = make();
  AttrUtils::SetListInt(int_op, ints_attr, ints);
  auto r = RunKernel(int_op, {Make<float>({rows, static_cast<int64_t>(x.size()) / rows}, x)},
                     {{DT_INT64, {rows}}, {DT_FLOAT, {rows, columns}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto string_op = make();
  AttrUtils::SetListStr(string_op, "classlabels_strings", strings);
  const Labeled got = RunWithStrings(string_op, x, rows, columns);
  ASSERT_EQ(got.labels.size(), static_cast<size_t>(rows));
  const std::vector<int64_t> want = r.outputs[0].Values<int64_t>();
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_EQ(got.labels[static_cast<size_t>(i)],
              "L" + std::to_string(want[static_cast<size_t>(i)] - 100))
        << "row " << i;
  }
  EXPECT_EQ(got.scores, r.outputs[1].Values<float>());
}

// A stump whose leaves score class 0 only (a binary model: one score s), 0.3 for x <= 0.5 and
// 0.8 above, or `low` and `high`.
std::shared_ptr<OpDesc> BinaryStump(float low = 0.3F, float high = 0.8F) {
  auto op = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListInt(op, "class_treeids", std::vector<int64_t>{0, 0});
  AttrUtils::SetListInt(op, "class_nodeids", std::vector<int64_t>{11, 12});
  AttrUtils::SetListInt(op, "class_ids", std::vector<int64_t>{0, 0});
  AttrUtils::SetListFloat(op, "class_weights", {low, high});
  return op;
}

TEST(ClassifierStringLabels, TreeEnsembleClassifierWritesTheStringOfTheClassOfHighestScore) {
  auto op = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListStr(op, "classlabels_strings", {"four", "eight", "fifteen"});
  AttrUtils::SetStr(op, "post_transform", "SOFTMAX");
  const Labeled got = RunWithStrings(op, {0.2F, 0.9F}, 2, 3);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"eight", "four"}));
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  ExpectNear(got.scores,
             {static_cast<float>(e1 / (e1 + e2 + 1)), static_cast<float>(e2 / (e1 + e2 + 1)),
              static_cast<float>(1 / (e1 + e2 + 1)), static_cast<float>(e3 / (e3 + 2)),
              static_cast<float>(1 / (e3 + 2)), static_cast<float>(1 / (e3 + 2))},
             1e-6F, 1e-6F);
  ExpectStringsFollowInts(
      [] {
        auto m = Stump("TreeEnsembleClassifier", "class");
        AttrUtils::SetStr(m, "post_transform", "SOFTMAX");
        return m;
      },
      "classlabels_int64s", 3, {0.2F, 0.9F, kNan, 0.5F}, 4, 3);
}

// One score s per row: the second label when s > 0.5 (weights all positive: s is a probability),
// scores [1 - s, s]; with a negative weight, s is a margin: the second label when s > 0, scores
// [-s, s] or under LOGISTIC [logistic(-s), logistic(s)], as ONNX computes them.
TEST(ClassifierStringLabels, TreeEnsembleClassifierBinaryCases) {
  auto probability = BinaryStump();
  AttrUtils::SetListStr(probability, "classlabels_strings", {"no", "yes"});
  Labeled got = RunWithStrings(probability, {0.2F, 0.9F}, 2, 2);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"no", "yes"}));
  ExpectNear(got.scores, {0.7F, 0.3F, 0.2F, 0.8F});

  auto margin = BinaryStump(-1.5F, 2.0F);
  AttrUtils::SetListStr(margin, "classlabels_strings", {"no", "yes"});
  AttrUtils::SetStr(margin, "post_transform", "LOGISTIC");
  got = RunWithStrings(margin, {0.2F, 0.9F}, 2, 2);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"no", "yes"}));
  const auto logistic = [](double v) { return static_cast<float>(1 / (1 + std::exp(-v))); };
  ExpectNear(got.scores, {logistic(1.5), logistic(-1.5), logistic(-2.0), logistic(2.0)});

  for (const char* post : {"NONE", "LOGISTIC", "SOFTMAX", "PROBIT"}) {
    for (const auto& [low, high] : {std::pair{0.3F, 0.8F}, std::pair{-1.5F, 2.0F}}) {
      ExpectStringsFollowInts(
          [&, low = low, high = high] {
            auto m = BinaryStump(low, high);
            AttrUtils::SetStr(m, "post_transform", post);
            return m;
          },
          "classlabels_int64s", 2, {0.2F, 0.9F, 0.5F, kNan}, 4, 2);
    }
  }
  // Both classes scored (two scores): the second label when its score is positive.
  ExpectStringsFollowInts([] { return Stump("TreeEnsembleClassifier", "class"); },
                          "classlabels_int64s", 2, {0.2F, 0.9F}, 2, 2);
}

// x [rows, 2] → 3 classes: scores (x0 + 2 x1 - 1, -x0 + x1, 0.5 x0 + 0.5).
std::shared_ptr<OpDesc> ThreeClassLinear() {
  auto op = testing::Op("LinearClassifier");
  AttrUtils::SetListFloat(op, "coefficients", {1.0F, 2.0F, -1.0F, 1.0F, 0.5F, 0.0F});
  AttrUtils::SetListFloat(op, "intercepts", {-1.0F, 0.0F, 0.5F});
  return op;
}

TEST(ClassifierStringLabels, LinearClassifierWritesTheStringOfTheHighestScore) {
  auto op = ThreeClassLinear();
  AttrUtils::SetListStr(op, "classlabels_strings", {"a", "b", "c"});
  // Rows (1, 1): (2, 0, 1) → a; (-2, 0.5): (-2, 2.5, -0.5) → b; (0, 0): (-1, 0, 0.5) → c.
  const Labeled got = RunWithStrings(op, {1.0F, 1.0F, -2.0F, 0.5F, 0.0F, 0.0F}, 3, 3);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"a", "b", "c"}));
  ExpectNear(got.scores, {2.0F, 0.0F, 1.0F, -2.0F, 2.5F, -0.5F, -1.0F, 0.0F, 0.5F});
  for (const char* post : {"NONE", "SOFTMAX", "LOGISTIC"}) {
    ExpectStringsFollowInts(
        [&] {
          auto m = ThreeClassLinear();
          AttrUtils::SetStr(m, "post_transform", post);
          return m;
        },
        "classlabels_ints", 3, testing::Random(20, 7, -3.0F, 3.0F), 10, 3);
  }
}

// One intercept and two labels: the second label when the score s is positive, scores [1 - p, p]
// with p the logistic of s under LOGISTIC. One intercept and one label: "1" or "0" by the same
// sign, as ONNX Runtime writes it.
TEST(ClassifierStringLabels, LinearClassifierBinaryCases) {
  const auto binary = [](const char* post) {
    auto op = testing::Op("LinearClassifier");
    AttrUtils::SetListFloat(op, "coefficients", {2.0F, -1.0F});
    AttrUtils::SetListFloat(op, "intercepts", {0.5F});
    AttrUtils::SetStr(op, "post_transform", post);
    return op;
  };
  auto op = binary("LOGISTIC");
  AttrUtils::SetListStr(op, "classlabels_strings", {"neg", "pos"});
  // s = 2 x0 - x1 + 0.5: 1.5 and -1.5.
  const Labeled got = RunWithStrings(op, {1.0F, 1.0F, -1.0F, 0.0F}, 2, 2);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"pos", "neg"}));
  const auto logistic = [](double v) { return static_cast<float>(1 / (1 + std::exp(-v))); };
  ExpectNear(got.scores, {logistic(-1.5), logistic(1.5), logistic(1.5), logistic(-1.5)});
  for (const char* post : {"NONE", "LOGISTIC", "SOFTMAX", "PROBIT"}) {
    ExpectStringsFollowInts([&] { return binary(post); }, "classlabels_ints", 2,
                            testing::Random(20, 3, -2.0F, 2.0F), 10, 2);
  }

  auto one = binary("NONE");
  AttrUtils::SetListStr(one, "classlabels_strings", {"only"});
  const Labeled sign = RunWithStrings(one, {1.0F, 1.0F, -1.0F, 0.0F}, 2, 1);
  EXPECT_EQ(sign.labels, (std::vector<std::string>{"1", "0"}));
  ExpectNear(sign.scores, {1.5F, -1.5F});
}

// Two classes with a support vector each; K = x . sv (LINEAR), x of one feature; the decision
// s = rho + 1 K(x, 0) - 1 K(x, 2) = 1 - 2 x votes for the first class when positive.
std::shared_ptr<OpDesc> BinarySvc() {
  auto op = testing::Op("SVMClassifier");
  AttrUtils::SetListInt(op, "vectors_per_class", std::vector<int64_t>{1, 1});
  AttrUtils::SetListFloat(op, "support_vectors", {0.0F, 2.0F});
  AttrUtils::SetListFloat(op, "coefficients", {1.0F, -1.0F});
  AttrUtils::SetListFloat(op, "rho", {1.0F});
  return op;
}

TEST(ClassifierStringLabels, SvmClassifierBinaryAndMulticlass) {
  auto svc = BinarySvc();
  AttrUtils::SetListStr(svc, "classlabels_strings", {"neg", "pos"});
  Labeled got = RunWithStrings(svc, {0.25F, 1.0F}, 2, 2);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"neg", "pos"}));
  ExpectNear(got.scores, {-0.5F, 0.5F, 1.0F, -1.0F});  // [-s, s] under NONE
  for (const char* post : {"NONE", "LOGISTIC", "PROBIT"}) {
    ExpectStringsFollowInts(
        [&] {
          auto m = BinarySvc();
          AttrUtils::SetStr(m, "post_transform", post);
          return m;
        },
        "classlabels_ints", 2, testing::Random(8, 5, -1.0F, 2.0F), 8, 2);
  }

  // Linear (no support vectors): scores[c] = x . coefficients[c] + rho[0], the label their
  // argmax; with two classes, ONNX Runtime's choice of the second one when the top score is
  // positive, which the string form shares.
  const auto linear = [](int64_t classes) {
    auto op = testing::Op("SVMClassifier");
    std::vector<float> coefficients = {1.0F, -1.0F, -1.0F, 1.0F, 0.5F, 0.5F};
    coefficients.resize(static_cast<size_t>(classes * 2));
    AttrUtils::SetListFloat(op, "coefficients", coefficients);
    AttrUtils::SetListFloat(op, "rho", {0.25F});
    return op;
  };
  auto three = linear(3);
  AttrUtils::SetListStr(three, "classlabels_strings", {"x", "y", "z"});
  // (1, 0): (1.25, -0.75, 0.75) → x; (0, 1): (-0.75, 1.25, 0.75) → y; (1, 1): (0.25, 0.25, 1.25).
  got = RunWithStrings(three, {1.0F, 0.0F, 0.0F, 1.0F, 1.0F, 1.0F}, 3, 3);
  EXPECT_EQ(got.labels, (std::vector<std::string>{"x", "y", "z"}));
  ExpectNear(got.scores, {1.25F, -0.75F, 0.75F, -0.75F, 1.25F, 0.75F, 0.25F, 0.25F, 1.25F});
  ExpectStringsFollowInts([&] { return linear(3); }, "classlabels_ints", 3,
                          testing::Random(20, 9, -2.0F, 2.0F), 10, 3);
  ExpectStringsFollowInts([&] { return linear(2); }, "classlabels_ints", 2,
                          testing::Random(20, 11, -2.0F, 2.0F), 10, 2);
}

// ---- OneHotEncoder ----

// A string input X of `dims`: running heads over `values`, which the caller keeps alive.
testing::TestTensor StringInput(std::vector<int64_t> dims, const std::vector<std::string>& values) {
  testing::TestTensor t;
  t.dtype = DT_STRING;
  t.dims = std::move(dims);
  t.bytes.resize(values.size() * kStringElementBytes);
  for (size_t i = 0; i < values.size(); ++i) {
    WriteString(t.bytes.data(), static_cast<int64_t>(i), values[i]);
  }
  return t;
}

std::shared_ptr<OpDesc> StringEncoder(int64_t zeros) {
  auto op = testing::Op("OneHotEncoder");
  AttrUtils::SetListStr(op, "cats_strings", {"cat", "dog", "eel"});
  AttrUtils::SetInt(op, "zeros", zeros);
  return op;
}

TEST(OneHotEncoderKernel, StringCategoriesGiveAOneAtTheirColumn) {
  const std::vector<std::string> x = {"dog", "cat", "eel", "dog"};
  auto r = RunKernel(StringEncoder(1), {StringInput({2, 2}, x)}, {{DT_FLOAT, {2, 2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0}));
}

TEST(OneHotEncoderKernel, AnUnknownStringGivesZerosWhenZerosIsOne) {
  const std::vector<std::string> x = {"cow", "eel", ""};
  auto r = RunKernel(StringEncoder(1), {StringInput({3}, x)}, {{DT_FLOAT, {3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 0, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(OneHotEncoderKernel, AnUnknownValueIsAnErrorNamingItAndItsPlaceWhenZerosIsZero) {
  const std::vector<std::string> x = {"cat", "dog", "eel", "cow"};
  ExpectError(RunKernel(StringEncoder(0), {StringInput({2, 2}, x)}, {{DT_FLOAT, {2, 2, 3}}}).status,
              "value 'cow' at X[1, 1] is in no category of cats_strings, and zeros is 0");
  auto ints = testing::Op("OneHotEncoder");
  AttrUtils::SetListInt(ints, "cats_int64s", std::vector<int64_t>{1, 2});
  AttrUtils::SetInt(ints, "zeros", 0);
  ExpectError(RunKernel(ints, {Make<int64_t>({3}, {1, 7, 2})}, {{DT_FLOAT, {3, 2}}}).status,
              "value 7 at X[1] is in no category of cats_int64s, and zeros is 0");
}

TEST(OneHotEncoderKernel, TheLastOfEqualCategoriesIsSet) {
  auto ints = testing::Op("OneHotEncoder");
  AttrUtils::SetListInt(ints, "cats_int64s", std::vector<int64_t>{3, 5, 3});
  auto r = RunKernel(ints, {Make<int64_t>({2}, {3, 5})}, {{DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 0, 1, 0, 1, 0}));
  auto strings = testing::Op("OneHotEncoder");
  AttrUtils::SetListStr(strings, "cats_strings", {"a", "b", "a"});
  const std::vector<std::string> x = {"a"};
  r = RunKernel(strings, {StringInput({1}, x)}, {{DT_FLOAT, {1, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 0, 1}));
}

TEST(OneHotEncoderKernel, RefusesBothOrNeitherCategoryListAndAnInputOfTheOtherKind) {
  auto both = StringEncoder(1);
  AttrUtils::SetListInt(both, "cats_int64s", std::vector<int64_t>{1, 2, 3});
  ExpectError(RunKernel(both, {Make<int64_t>({1}, {1})}, {{DT_FLOAT, {1, 3}}}).status,
              "both cats_int64s and cats_strings are set");
  ExpectError(
      RunKernel(testing::Op("OneHotEncoder"), {Make<int64_t>({1}, {1})}, {{DT_FLOAT, {1, 0}}})
          .status,
      "neither cats_int64s nor cats_strings is set");
  ExpectError(RunKernel(StringEncoder(1), {Make<int64_t>({1}, {1})}, {{DT_FLOAT, {1, 3}}}).status,
              "input X is DT_INT64 but the categories (cats_strings) are strings");
}

}  // namespace
}  // namespace ge::host_cpu

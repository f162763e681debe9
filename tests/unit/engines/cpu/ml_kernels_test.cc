// The ai.onnx.ml kernels of ai.onnx.ml 1 and 3 on small hand-made models, and their refusals: a
// loaded .om skips the parser's checks, so a kernel refuses a model it cannot run itself (string
// labels, indices out of range, too few base values) before it reads or writes past an array. The
// operators' numbers over many random models are checked by the idiom cases
// (tests/conformance/ml_idiom_cases.py).
#include <cmath>
#include <limits>
#include <string>
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

  auto strings = Stump("TreeEnsembleClassifier", "class");
  AttrUtils::SetListStr(strings, "classlabels_strings", {"cat", "dog"});
  ExpectError(
      RunKernel(strings, {Make<float>({1, 1}, {0.0F})}, {{DT_INT64, {1}}, {DT_FLOAT, {1, 2}}})
          .status,
      "classlabels_int64s must name at least two classes (string labels are not supported yet)");
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

}  // namespace
}  // namespace ge::host_cpu

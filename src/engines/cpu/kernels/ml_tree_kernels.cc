// The tree ensembles of ai.onnx.ml: TreeEnsemble (ai.onnx.ml 5) and TreeEnsembleRegressor /
// TreeEnsembleClassifier (ai.onnx.ml 1 and 3). All three become one Forest, walked the same way:
//
//   - a branch node compares feature `feature[i]` of the row with `split[i]` by its mode (<=, <,
//     >=, >, ==, !=, or membership in a set) and goes to its true or false child; a NaN feature
//     goes to the true child when the node's missing_value_tracks_true is set (and otherwise
//     wherever the comparison sends it: only != holds for NaN);
//   - a child (or a root) below zero is leaf ~c; a leaf adds (target, weight) pairs, one in
//     TreeEnsemble, any number in the older operators (their target_* / class_* lists);
//   - the leaves reached add to their targets (sum, average over trees, min or max).
//
// The older operators name nodes by (tree id, node id) and mark leaves with the mode LEAF; a
// tree's root is its node that no other node names as a child. Their finishing steps follow
// ONNX Runtime, the reference runtime of the domain: base_values add per target when there is
// one per target, and a regressor's target that no leaf reached is 0; a regressor with one target
// applies only PROBIT; a classifier's label is its class of highest score, and a two-class
// classifier whose leaves score one class only gives the other class the complement (1 - p, or -s,
// or the logistic of -s under LOGISTIC). A classifier's labels are int64 or strings (ClassLabels):
// the label is chosen by its index, whichever the form.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/utils/attr_utils.h"
#include "kernel_util.h"
#include "ml_util.h"

namespace ge::host_cpu {
namespace {

enum class Mode : uint8_t { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember };
enum class Aggregate : int64_t { kAverage = 0, kSum = 1, kMin = 2, kMax = 3 };

struct Forest {
  std::vector<int64_t> feature;
  std::vector<double> split;
  std::vector<Mode> mode;
  std::vector<int64_t> true_child, false_child;  // a node, or leaf ~c when below zero
  std::vector<uint8_t> missing_true;
  std::vector<std::vector<double>> sets;  // kMember's set per node
  std::vector<int64_t> roots;             // a node, or leaf ~r
  std::vector<size_t> leaf_begin{0};      // leaf l's pairs: [leaf_begin[l], leaf_begin[l + 1])
  std::vector<int64_t> leaf_target;
  std::vector<double> leaf_weight;
  int64_t max_feature = -1;

  size_t leaves() const { return leaf_begin.size() - 1; }

  bool GoesTrue(size_t node, double v) const {
    if (std::isnan(v) && missing_true[node] != 0) return true;
    const double s = split[node];
    switch (mode[node]) {
      case Mode::kLeq:
        return v <= s;
      case Mode::kLt:
        return v < s;
      case Mode::kGte:
        return v >= s;
      case Mode::kGt:
        return v > s;
      case Mode::kEq:
        return v == s;
      case Mode::kNeq:
        return v != s;
      case Mode::kMember:
        return std::find(sets[node].begin(), sets[node].end(), v) != sets[node].end();
    }
    return false;
  }

  // The leaf a row reaches from `root`, or -1 when the walk does not end (a cycle).
  int64_t LeafOf(int64_t root, const double* row) const {
    int64_t c = root;
    for (size_t steps = 0; steps <= feature.size() && c >= 0; ++steps) {
      const auto node = static_cast<size_t>(c);
      c = GoesTrue(node, row[feature[node]]) ? true_child[node] : false_child[node];
    }
    return c < 0 ? ~c : -1;
  }

  // Adds the leaves `row` reaches to `score` (`has`: the targets some leaf reached).
  void Accumulate(const double* row, Aggregate aggregate, std::vector<double>& score,
                  std::vector<uint8_t>& has) const {
    std::fill(score.begin(), score.end(), 0.0);
    std::fill(has.begin(), has.end(), 0);
    for (int64_t root : roots) {
      const int64_t leaf = LeafOf(root, row);
      if (leaf < 0) continue;
      const auto l = static_cast<size_t>(leaf);
      for (size_t k = leaf_begin[l]; k < leaf_begin[l + 1]; ++k) {
        const auto t = static_cast<size_t>(leaf_target[k]);
        const double w = leaf_weight[k];
        if (aggregate == Aggregate::kMin) {
          score[t] = has[t] == 0 ? w : std::min(score[t], w);
        } else if (aggregate == Aggregate::kMax) {
          score[t] = has[t] == 0 ? w : std::max(score[t], w);
        } else {
          score[t] += w;
        }
        has[t] = 1;
      }
    }
    if (aggregate == Aggregate::kAverage && !roots.empty()) {
      for (double& v : score) v /= static_cast<double>(roots.size());
    }
  }

  // Checks every index against the arrays, so that a bad model cannot send a walk out of them.
  std::string Check(int64_t targets) const {
    const auto n = static_cast<int64_t>(feature.size());
    const auto leaf_count = static_cast<int64_t>(leaves());
    auto in_range = [&](int64_t c) { return c >= 0 ? c < n : ~c < leaf_count; };
    for (size_t i = 0; i < feature.size(); ++i) {
      if (feature[i] < 0) return "node " + std::to_string(i) + " has a negative feature id";
      if (!in_range(true_child[i]) || !in_range(false_child[i])) {
        return "node " + std::to_string(i) + " has a child out of range";
      }
    }
    for (int64_t r : roots) {
      if (!in_range(r)) return "a tree root is out of range";
    }
    for (int64_t t : leaf_target) {
      if (t < 0 || t >= targets) {
        return "a leaf's target " + std::to_string(t) + " is out of range for " +
               std::to_string(targets) + " targets";
      }
    }
    return "";
  }
};

// TreeEnsemble (ai.onnx.ml 5): node and leaf arrays, modes and weights as tensors.
Status BuildFromArrays(const OpDesc& op, Forest& f) {
  std::vector<int64_t> true_leafs, false_leafs, missing, targets;
  (void)AttrUtils::GetListInt(op, "tree_roots", f.roots);
  (void)AttrUtils::GetListInt(op, "nodes_featureids", f.feature);
  (void)AttrUtils::GetListInt(op, "nodes_truenodeids", f.true_child);
  (void)AttrUtils::GetListInt(op, "nodes_falsenodeids", f.false_child);
  (void)AttrUtils::GetListInt(op, "nodes_trueleafs", true_leafs);
  (void)AttrUtils::GetListInt(op, "nodes_falseleafs", false_leafs);
  (void)AttrUtils::GetListInt(op, "nodes_missing_value_tracks_true", missing);
  (void)AttrUtils::GetListInt(op, "leaf_targetids", f.leaf_target);
  std::vector<double> modes, members;
  GE_RETURN_IF_ERROR(TensorAttrDoubles(op, "nodes_splits", &f.split));
  GE_RETURN_IF_ERROR(TensorAttrDoubles(op, "leaf_weights", &f.leaf_weight));
  GE_RETURN_IF_ERROR(TensorAttrDoubles(op, "nodes_modes", &modes));
  if (op.HasAttr("membership_values")) {
    GE_RETURN_IF_ERROR(TensorAttrDoubles(op, "membership_values", &members));
  }
  const size_t n = f.feature.size();
  if (f.split.size() != n || modes.size() != n || f.true_child.size() != n ||
      f.false_child.size() != n || true_leafs.size() != n || false_leafs.size() != n ||
      (!missing.empty() && missing.size() != n) || f.leaf_target.size() != f.leaf_weight.size()) {
    return ParamInvalid("the node attributes must all have one entry per node (" +
                        std::to_string(n) + ") and the leaf attributes one per leaf");
  }
  size_t next_member = 0;
  f.sets.assign(n, {});
  f.missing_true.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (modes[i] < 0 || modes[i] > 6) return ParamInvalid("nodes_modes value out of range");
    f.mode.push_back(static_cast<Mode>(static_cast<int>(modes[i])));
    if (f.mode.back() == Mode::kMember) {
      // This node's set: the members up to the next NaN.
      while (next_member < members.size() && !std::isnan(members[next_member])) {
        f.sets[i].push_back(members[next_member++]);
      }
      ++next_member;
    }
    if (!missing.empty()) f.missing_true[i] = missing[i] != 0 ? 1 : 0;
    if (true_leafs[i] != 0) f.true_child[i] = ~f.true_child[i];
    if (false_leafs[i] != 0) f.false_child[i] = ~f.false_child[i];
  }
  for (size_t l = 0; l < f.leaf_target.size(); ++l) f.leaf_begin.push_back(l + 1);
  return Status::Ok();
}

bool ModeNamed(const std::string& name, Mode* mode) {
  static const std::pair<const char*, Mode> kNames[] = {
      {"BRANCH_LEQ", Mode::kLeq}, {"BRANCH_LT", Mode::kLt}, {"BRANCH_GTE", Mode::kGte},
      {"BRANCH_GT", Mode::kGt},   {"BRANCH_EQ", Mode::kEq}, {"BRANCH_NEQ", Mode::kNeq}};
  for (const auto& [text, value] : kNames) {
    if (name == text) {
      *mode = value;
      return true;
    }
  }
  return false;
}

// TreeEnsembleRegressor / TreeEnsembleClassifier: nodes named by (tree id, node id), leaves by
// the mode LEAF, and the leaves' weights in `prefix`_treeids / _nodeids / _ids / _weights.
Status BuildFromNodeLists(const OpDesc& op, const std::string& prefix, Forest& f) {
  std::vector<int64_t> trees, ids, truth, falsity, missing, w_trees, w_nodes, w_targets;
  (void)AttrUtils::GetListInt(op, "nodes_treeids", trees);
  (void)AttrUtils::GetListInt(op, "nodes_nodeids", ids);
  (void)AttrUtils::GetListInt(op, "nodes_featureids", f.feature);
  (void)AttrUtils::GetListInt(op, "nodes_truenodeids", truth);
  (void)AttrUtils::GetListInt(op, "nodes_falsenodeids", falsity);
  (void)AttrUtils::GetListInt(op, "nodes_missing_value_tracks_true", missing);
  (void)AttrUtils::GetListInt(op, prefix + "_treeids", w_trees);
  (void)AttrUtils::GetListInt(op, prefix + "_nodeids", w_nodes);
  (void)AttrUtils::GetListInt(op, prefix + "_ids", w_targets);
  const std::vector<std::string> modes = AttrStrings(op, "nodes_modes");
  std::vector<double> weights;
  GE_RETURN_IF_ERROR(FloatsOrTensor(op, "nodes_values", &f.split));
  GE_RETURN_IF_ERROR(FloatsOrTensor(op, prefix + "_weights", &weights));
  const size_t n = trees.size();
  if (ids.size() != n || f.feature.size() != n || truth.size() != n || falsity.size() != n ||
      modes.size() != n || f.split.size() != n || (!missing.empty() && missing.size() != n)) {
    return ParamInvalid("the nodes_* attributes must all have one entry per node (" +
                        std::to_string(n) + ")");
  }
  if (w_nodes.size() != w_trees.size() || w_targets.size() != w_trees.size() ||
      weights.size() != w_trees.size()) {
    return ParamInvalid("the " + prefix + "_* attributes must all have one entry per weight (" +
                        std::to_string(w_trees.size()) + ")");
  }
  std::map<std::pair<int64_t, int64_t>, size_t> index;  // (tree, node) → position
  std::vector<int64_t> leaf_of(n, -1);
  size_t leaf_count = 0;
  f.mode.resize(n, Mode::kLeq);
  for (size_t i = 0; i < n; ++i) {
    if (!index.emplace(std::pair{trees[i], ids[i]}, i).second) {
      return ParamInvalid("node (tree " + std::to_string(trees[i]) + ", id " +
                          std::to_string(ids[i]) + ") is listed twice");
    }
    if (modes[i] == "LEAF") {
      leaf_of[i] = static_cast<int64_t>(leaf_count++);
    } else if (!ModeNamed(modes[i], &f.mode[i])) {
      return ParamInvalid("nodes_modes '" + modes[i] +
                          "' is none of BRANCH_LEQ, BRANCH_LT, BRANCH_GTE, BRANCH_GT, "
                          "BRANCH_EQ, BRANCH_NEQ, LEAF");
    }
  }
  // A child as the Forest names it: a branch node's position, or ~leaf.
  auto child = [&](size_t i, int64_t id, int64_t* out) {
    const auto it = index.find({trees[i], id});
    if (it == index.end()) return false;
    *out = leaf_of[it->second] >= 0 ? ~leaf_of[it->second] : static_cast<int64_t>(it->second);
    return true;
  };
  f.true_child.assign(n, 0);
  f.false_child.assign(n, 0);
  f.missing_true.assign(n, 0);
  f.sets.assign(n, {});
  std::set<size_t> named_as_child;
  for (size_t i = 0; i < n; ++i) {
    if (!missing.empty()) f.missing_true[i] = missing[i] != 0 ? 1 : 0;
    if (leaf_of[i] >= 0) {
      f.feature[i] = 0;  // never read
      f.true_child[i] = f.false_child[i] = ~leaf_of[i];
      continue;
    }
    if (!child(i, truth[i], &f.true_child[i]) || !child(i, falsity[i], &f.false_child[i])) {
      return ParamInvalid("node (tree " + std::to_string(trees[i]) + ", id " +
                          std::to_string(ids[i]) + ") names a child that is not in its tree");
    }
    named_as_child.insert(index[{trees[i], truth[i]}]);
    named_as_child.insert(index[{trees[i], falsity[i]}]);
  }
  std::set<int64_t> rooted;
  for (size_t i = 0; i < n; ++i) {
    if (named_as_child.count(i) != 0 || !rooted.insert(trees[i]).second) continue;
    f.roots.push_back(leaf_of[i] >= 0 ? ~leaf_of[i] : static_cast<int64_t>(i));
  }
  // The weights, grouped by leaf.
  std::vector<std::vector<std::pair<int64_t, double>>> by_leaf(leaf_count);
  for (size_t k = 0; k < w_trees.size(); ++k) {
    const auto it = index.find({w_trees[k], w_nodes[k]});
    if (it == index.end() || leaf_of[it->second] < 0) {
      return ParamInvalid(prefix + " weight " + std::to_string(k) + " names (tree " +
                          std::to_string(w_trees[k]) + ", node " + std::to_string(w_nodes[k]) +
                          "), which is not a LEAF node");
    }
    by_leaf[static_cast<size_t>(leaf_of[it->second])].emplace_back(w_targets[k], weights[k]);
  }
  for (const auto& pairs : by_leaf) {
    for (const auto& [target, weight] : pairs) {
      f.leaf_target.push_back(target);
      f.leaf_weight.push_back(weight);
    }
    f.leaf_begin.push_back(f.leaf_target.size());
  }
  return Status::Ok();
}

// The row-by-row walk the three kernels share: input [N, F] or [F], any real or integer dtype.
class ForestKernel : public KernelBase {
 protected:
  Status CheckInput(const KernelTensor& x, int64_t* rows, int64_t* features) const {
    const auto& d = x.spec.dims;
    if (d.size() != 1 && d.size() != 2) {
      return Error("input " + DimsToString(d) + " must be [N, features] or [features]");
    }
    *rows = d.size() == 2 ? d[0] : 1;
    *features = d.back();
    if (forest_.max_feature >= *features) {
      return Error("a node reads feature " + std::to_string(forest_.max_feature) + " of " +
                   std::to_string(*features));
    }
    return Status::Ok();
  }
  Status Finish(int64_t targets) {
    forest_.max_feature = -1;  // (a LEAF node of the older operators has feature 0)
    for (int64_t f : forest_.feature) forest_.max_feature = std::max(forest_.max_feature, f);
    const std::string problem = forest_.Check(targets);
    return problem.empty() ? Status::Ok() : Error(problem);
  }
  Forest forest_;
};

class TreeEnsembleKernel final : public ForestKernel {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(CheckInput(x, &rows, &features));
    if (y.spec.dims != std::vector<int64_t>{rows, targets_}) {
      return Error("output " + DimsToString(y.spec.dims) + " must be [" + std::to_string(rows) +
                   ", " + std::to_string(targets_) + "]");
    }
    std::vector<double> row(static_cast<size_t>(features)), out(static_cast<size_t>(targets_));
    std::vector<uint8_t> has(static_cast<size_t>(targets_));
    const bool ok = DispatchFloat(x.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(x.data);
      T* result = static_cast<T*>(y.data);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t f = 0; f < features; ++f) row[f] = static_cast<double>(in[r * features + f]);
        forest_.Accumulate(row.data(), aggregate_, out, has);
        PostTransform(post_, out);
        for (int64_t t = 0; t < targets_; ++t) result[r * targets_ + t] = static_cast<T>(out[t]);
      }
    });
    return ok ? Status::Ok() : Unsupported(x.spec.dtype);
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    targets_ = AttrInt("n_targets", 0);
    const int64_t aggregate = AttrInt("aggregate_function", 1);
    const int64_t post = AttrInt("post_transform", 0);
    if (targets_ <= 0 || aggregate < 0 || aggregate > 3 || post < 0 || post > 4) {
      return Error("n_targets, aggregate_function or post_transform is out of range");
    }
    aggregate_ = static_cast<Aggregate>(aggregate);
    post_ = static_cast<Post>(post);
    forest_ = Forest{};
    GE_RETURN_IF_ERROR(Named(BuildFromArrays(*op_, forest_)));
    return Finish(targets_);
  }
  int64_t targets_ = 0;
  Aggregate aggregate_ = Aggregate::kSum;
  Post post_ = Post::kNone;
};

// What TreeEnsembleRegressor and TreeEnsembleClassifier share: the forest from node lists,
// post_transform and base_values as names and floats.
class NodeListForestKernel : public ForestKernel {
 protected:
  Status Load(const std::string& prefix, int64_t targets) {
    if (!PostTransformNamed(AttrStr("post_transform", "NONE"), &post_)) {
      return Error("post_transform '" + AttrStr("post_transform", "") +
                   "' is none of NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT");
    }
    GE_RETURN_IF_ERROR(Named(FloatsOrTensor(*op_, "base_values", &base_)));
    forest_ = Forest{};
    GE_RETURN_IF_ERROR(Named(BuildFromNodeLists(*op_, prefix, forest_)));
    return Finish(targets);
  }
  Post post_ = Post::kNone;
  std::vector<double> base_;
};

class TreeEnsembleRegressorKernel final : public NodeListForestKernel {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelOutput& y = args.outputs[0];
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(CheckInput(args.inputs[0], &rows, &features));
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    if (y.spec.dtype != DT_FLOAT || y.spec.dims != std::vector<int64_t>{rows, targets_}) {
      return Error("output must be float32 [" + std::to_string(rows) + ", " +
                   std::to_string(targets_) + "]");
    }
    auto* out = static_cast<float*>(y.data);
    std::vector<double> score(static_cast<size_t>(targets_));
    std::vector<uint8_t> has(static_cast<size_t>(targets_));
    const bool with_base = static_cast<int64_t>(base_.size()) == targets_;
    for (int64_t r = 0; r < rows; ++r) {
      forest_.Accumulate(v.data() + r * features, aggregate_, score, has);
      for (size_t t = 0; t < score.size(); ++t) {
        score[t] = has[t] == 0 ? 0.0 : score[t] + (with_base ? base_[t] : 0.0);
      }
      // One target takes PROBIT only, as ONNX Runtime computes it.
      if (targets_ > 1 || post_ == Post::kProbit) PostTransform(post_, score);
      for (int64_t t = 0; t < targets_; ++t) {
        out[r * targets_ + t] = static_cast<float>(score[static_cast<size_t>(t)]);
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    targets_ = AttrInt("n_targets", 1);
    if (targets_ <= 0) return Error("n_targets must be positive");
    const std::string aggregate = AttrStr("aggregate_function", "SUM");
    static const std::pair<const char*, Aggregate> kNames[] = {{"AVERAGE", Aggregate::kAverage},
                                                               {"SUM", Aggregate::kSum},
                                                               {"MIN", Aggregate::kMin},
                                                               {"MAX", Aggregate::kMax}};
    const auto* found = std::find_if(std::begin(kNames), std::end(kNames),
                                     [&](const auto& e) { return aggregate == e.first; });
    if (found == std::end(kNames)) {
      return Error("aggregate_function '" + aggregate + "' is none of SUM, AVERAGE, MIN, MAX");
    }
    aggregate_ = found->second;
    return Load("target", targets_);
  }
  int64_t targets_ = 1;
  Aggregate aggregate_ = Aggregate::kSum;
};

class TreeEnsembleClassifierKernel final : public NodeListForestKernel {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 2));
    std::vector<double> v;
    int64_t rows = 0, features = 0;
    GE_RETURN_IF_ERROR(CheckInput(args.inputs[0], &rows, &features));
    GE_RETURN_IF_ERROR(Named(ReadFeatures(args.inputs[0], v, rows, features)));
    const KernelOutput& y = args.outputs[0];
    const KernelOutput& z = args.outputs[1];
    const auto classes = static_cast<int64_t>(labels_.size());
    if (y.spec.dtype != labels_.dtype() || NumElements(y.spec.dims) != rows ||
        z.spec.dtype != DT_FLOAT || z.spec.dims != std::vector<int64_t>{rows, classes}) {
      return Error("outputs must be " + std::string(labels_.dtype_name()) + " [" +
                   std::to_string(rows) + "] and float32 [" + std::to_string(rows) + ", " +
                   std::to_string(classes) + "]");
    }
    auto* prob = static_cast<float*>(z.data);
    std::vector<double> score(labels_.size());
    std::vector<uint8_t> has(labels_.size());
    for (int64_t r = 0; r < rows; ++r) {
      forest_.Accumulate(v.data() + r * features, Aggregate::kSum, score, has);
      labels_.Write(y.data, r, classes > 2 ? Multiclass(score, has) : TwoClasses(score, has));
      for (int64_t c = 0; c < classes; ++c) {
        prob[r * classes + c] = static_cast<float>(score[static_cast<size_t>(c)]);
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    GE_RETURN_IF_ERROR(Named(labels_.Read(*op_, "classlabels_int64s", /*required=*/true)));
    if (labels_.size() < 2) return Error(labels_.attr() + " must name at least two classes");
    std::vector<int64_t> class_ids;
    std::vector<double> weights;
    (void)AttrUtils::GetListInt(*op_, "class_ids", class_ids);
    GE_RETURN_IF_ERROR(Named(FloatsOrTensor(*op_, "class_weights", &weights)));
    one_class_scored_ = std::set<int64_t>(class_ids.begin(), class_ids.end()).size() == 1;
    all_positive_ = std::all_of(weights.begin(), weights.end(), [](double w) { return w >= 0; });
    GE_RETURN_IF_ERROR(Load("class", static_cast<int64_t>(labels_.size())));
    // One base value per class, or one for class 0 of a two-class model.
    if (!base_.empty() && base_.size() != labels_.size() &&
        !(labels_.size() == 2 && base_.size() == 1)) {
      return Error("base_values has " + std::to_string(base_.size()) + " values for " +
                   std::to_string(labels_.size()) + " classes");
    }
    return Status::Ok();
  }

  // More than two classes: base values add, the label is the first class of highest score
  // among those scored, then post_transform over all classes. Returns the label's index.
  size_t Multiclass(std::vector<double>& score, std::vector<uint8_t>& has) const {
    for (size_t c = 0; c < base_.size(); ++c) {
      score[c] += base_[c];
      has[c] = 1;
    }
    size_t best = 0;
    bool found = false;
    for (size_t c = 0; c < score.size(); ++c) {
      if (has[c] != 0 && (!found || score[c] > score[best])) {
        best = c;
        found = true;
      }
    }
    PostTransform(post_, score);
    return best;
  }

  // Two classes. When the leaves score both classes (or base values are given for both), they
  // are two scores and the label is class 1 when its score is positive. When they score class 0
  // only (a binary model: one score s), the label is class 1 when s > 0.5 (weights all
  // positive: s is a probability) or s > 0 (a margin), and class 0 gets the complement. Returns
  // the label's index.
  size_t TwoClasses(std::vector<double>& score, std::vector<uint8_t>& has) const {
    if (base_.size() == 1) score[0] += base_[0];
    if (base_.size() == 2) {
      if (has[1] != 0) {
        score[1] = base_[1] + score[0];
        score[0] = -score[1];
      } else {
        score[0] += base_[0];
        score[1] += base_[1];
        has[1] = 1;
      }
    }
    const bool single = has[1] == 0;
    const double positive = single ? (has[0] != 0 ? score[0] : 0.0) : score[1];
    if (!single || !one_class_scored_) {
      if (single) {
        score[1] = 0;  // a class the leaves name but did not reach
        if (post_ == Post::kProbit) score[0] = Probit(score[0]);
      } else {
        PostTransform(post_, score);
      }
      return positive > 0 ? 1 : 0;
    }
    const double s = score[0];
    const bool wins = all_positive_ ? positive > 0.5 : positive > 0;
    if (post_ == Post::kProbit) {
      score = {Probit(s), 0.0};
    } else if (all_positive_) {
      score = {1 - s, s};
    } else if (post_ == Post::kLogistic) {
      score = {Logistic(-s), Logistic(s)};
    } else {
      score = {-s, s};
    }
    return wins ? 1 : 0;
  }

  ClassLabels labels_;
  bool one_class_scored_ = false;  // class_ids name one class only
  bool all_positive_ = true;       // no class weight is negative
};

}  // namespace

void RegisterMlTreeKernels(KernelTable& t) {
  t.Add("TreeEnsemble", MakeKernel<TreeEnsembleKernel>);
  t.Add("TreeEnsembleRegressor", MakeKernel<TreeEnsembleRegressorKernel>);
  t.Add("TreeEnsembleClassifier", MakeKernel<TreeEnsembleClassifierKernel>);
}

}  // namespace ge::host_cpu

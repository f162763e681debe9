"""ai.onnx.ml cases for generate_idiom_cases.py, as scikit-learn (skl2onnx) and LightGBM / XGBoost
(onnxmltools) write them: the tree ensembles of ai.onnx.ml 1 and 3, LinearClassifier,
SVMRegressor, SVMClassifier, Imputer, OneHotEncoder and FeatureVectorizer.

Expected outputs come from the NumPy references below, written from the operator definitions.
Where ONNX leaves a case open, the references follow ONNX Runtime, the domain's reference
runtime (they were checked against it):
  - base_values add per target (class) when there is one per target, and only to the targets
    some leaf reached: a regressor's target that no leaf reached is 0; a two-class classifier
    may give one base value, which adds to the score of class 0;
  - a regressor with one target applies post_transform PROBIT only;
  - a two-class TreeEnsembleClassifier whose leaves score class 0 only (a binary model) gives
    one score s: the label is class 1 when s > 0.5 (all weights >= 0: s is a probability) or
    s > 0, and the scores are [1 - s, s], or [logistic(-s), logistic(s)] under LOGISTIC, or
    [-s, s]; with both classes scored, the label is class 1 when its score is positive;
  - a LinearClassifier with one score column s and two labels is binary: label 1 when s > 0,
    scores [1 - p, p] with p the logistic of s under LOGISTIC and s itself otherwise.
"""
import math
from statistics import NormalDist

import numpy as np

ML = "ai.onnx.ml"
MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]


def goes_true(mode, v, s, missing_true):
    if math.isnan(v) and missing_true:
        return True
    return {"BRANCH_LEQ": v <= s, "BRANCH_LT": v < s, "BRANCH_GTE": v >= s, "BRANCH_GT": v > s,
            "BRANCH_EQ": v == s, "BRANCH_NEQ": v != s}[mode]


def random_forest(rng, depths, n_features, n_outputs, per_leaf, positive=False, single_id=None):
    """The nodes_* and weight lists of a forest of full trees of the given depths (depth 0: one
    leaf). Splits and weights are multiples of 1/4 so that EQ / NEQ can match the inputs."""
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true")}
    w = {k: [] for k in ("treeids", "nodeids", "ids", "weights")}
    for t, depth in enumerate(depths):
        inner = 2 ** depth - 1
        for k in range(2 ** (depth + 1) - 1):
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(k)
            if k < inner:
                a["nodes_featureids"].append(int(rng.integers(0, n_features)))
                a["nodes_modes"].append(MODES[int(rng.integers(0, len(MODES)))])
                a["nodes_values"].append(float(rng.integers(-4, 5)) / 4)
                a["nodes_truenodeids"].append(2 * k + 1)
                a["nodes_falsenodeids"].append(2 * k + 2)
                a["nodes_missing_value_tracks_true"].append(int(rng.integers(0, 2)))
            else:
                a["nodes_featureids"].append(0)
                a["nodes_modes"].append("LEAF")
                a["nodes_values"].append(0.0)
                a["nodes_truenodeids"].append(0)
                a["nodes_falsenodeids"].append(0)
                a["nodes_missing_value_tracks_true"].append(0)
                targets = rng.choice(n_outputs, size=per_leaf, replace=False)
                for target in (targets if single_id is None else [single_id]):
                    weight = float(rng.integers(-8, 9)) / 4
                    w["treeids"].append(t)
                    w["nodeids"].append(k)
                    w["ids"].append(int(target))
                    w["weights"].append(abs(weight) / 8 if positive else weight)
    return a, w


def forest_scores(a, w, x, n_outputs, aggregate="SUM"):
    """Per row: the aggregated leaf weights per output, and which outputs some leaf reached."""
    index = {(t, n): i for i, (t, n) in enumerate(zip(a["nodes_treeids"], a["nodes_nodeids"]))}
    weights = {}
    for t, n, target, value in zip(w["treeids"], w["nodeids"], w["ids"], w["weights"]):
        weights.setdefault((t, n), []).append((target, np.float32(value)))
    trees = sorted(set(a["nodes_treeids"]))
    scores = np.zeros((x.shape[0], n_outputs))
    has = np.zeros((x.shape[0], n_outputs), bool)
    for r, row in enumerate(x.astype(np.float64)):
        for t in trees:
            i = index[(t, 0)]
            while a["nodes_modes"][i] != "LEAF":
                true = goes_true(a["nodes_modes"][i], row[a["nodes_featureids"][i]],
                                 float(np.float32(a["nodes_values"][i])),
                                 a["nodes_missing_value_tracks_true"][i])
                child = a["nodes_truenodeids"][i] if true else a["nodes_falsenodeids"][i]
                i = index[(t, child)]
            for target, value in weights.get((t, a["nodes_nodeids"][i]), []):
                if aggregate == "MIN" and has[r, target]:
                    scores[r, target] = min(scores[r, target], value)
                elif aggregate == "MAX" and has[r, target]:
                    scores[r, target] = max(scores[r, target], value)
                elif aggregate in ("MIN", "MAX"):
                    scores[r, target] = value
                else:
                    scores[r, target] += value
                has[r, target] = True
    if aggregate == "AVERAGE":
        scores /= len(trees)
    return scores, has


def logistic(v):
    return 1 / (1 + np.exp(-v))


def post_transform(post, v):
    """One row of scores."""
    v = np.asarray(v, np.float64)
    if post == "LOGISTIC":
        return logistic(v)
    if post == "PROBIT":
        return np.array([NormalDist().inv_cdf(p) for p in v])
    if post in ("SOFTMAX", "SOFTMAX_ZERO"):
        keep = v != 0 if post == "SOFTMAX_ZERO" else np.ones(v.shape, bool)
        e = np.where(keep, np.exp(v - v[keep].max()), 0)
        return e / e.sum()
    return v


def regressor_reference(scores, has, base, post):
    out = np.where(has, scores + (np.array(base) if len(base) == scores.shape[1] else 0), 0)
    if scores.shape[1] > 1 or post == "PROBIT":
        out = np.stack([post_transform(post, row) for row in out])
    return out.astype(np.float32)


def classifier_reference(scores, has, labels, base, post, class_ids, class_weights):
    """Labels and scores of TreeEnsembleClassifier (see the module's note)."""
    single_class = len(set(class_ids)) == 1
    all_positive = min(class_weights) >= 0
    out_labels, out_scores = [], []
    for s, h in zip(scores.copy(), has.copy()):
        if len(labels) > 2:
            if base:
                s, h = s + np.array(base), np.ones_like(h)
            best = max((c for c in range(len(s)) if h[c]), key=lambda c: (s[c], -c), default=0)
            out_labels.append(labels[best])
            out_scores.append(post_transform(post, s))
            continue
        if len(base) == 1:
            s[0] += base[0]
        if len(base) == 2:
            if h[1]:
                s[1] = base[1] + s[0]
                s[0] = -s[1]
            else:
                s, h[1] = s + np.array(base), True
        if h[1] or not single_class:
            positive = s[1] if h[1] else (s[0] if h[0] else 0)
            out_labels.append(labels[1] if positive > 0 else labels[0])
            out_scores.append(post_transform(post, s) if h[1] else np.array([s[0], 0.0]))
            continue
        p = s[0] if h[0] else 0
        out_labels.append(labels[1] if (p > 0.5 if all_positive else p > 0) else labels[0])
        if all_positive:
            out_scores.append(np.array([1 - p, p]))
        elif post == "LOGISTIC":
            out_scores.append(np.array([logistic(-p), logistic(p)]))
        else:
            out_scores.append(np.array([-p, p]))
    return np.array(out_labels, np.int64), np.array(out_scores).astype(np.float32)


def features(rng, rows, n, nan=True):
    """Inputs on the splits' grid, some NaN."""
    x = (rng.integers(-5, 6, (rows, n)) / 4).astype(np.float32)
    if nan:
        x[rng.random((rows, n)) < 0.15] = np.nan
    return x


def write_ml_cases(case, value, helper, numpy_helper, TensorProto):
    rng = np.random.default_rng(11)
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64

    def regressor(name, opset, depths, n_targets, per_leaf, aggregate, post, base,
                  as_tensor=False, positive=False):
        a, w = random_forest(rng, depths, 4, n_targets, per_leaf, positive=positive)
        attrs = dict(a, n_targets=n_targets, aggregate_function=aggregate, post_transform=post,
                     target_treeids=w["treeids"], target_nodeids=w["nodeids"],
                     target_ids=w["ids"])
        if as_tensor:  # ai.onnx.ml 3: the float lists as tensors
            for key, values in (("nodes_values", attrs.pop("nodes_values")),
                                ("target_weights", w["weights"]), ("base_values", base)):
                attrs[key + "_as_tensor"] = numpy_helper.from_array(
                    np.array(values, np.float32), key + "_as_tensor")
        else:
            attrs["target_weights"] = w["weights"]
            if base:
                attrs["base_values"] = base
        x = features(rng, 12, 4)
        scores, has = forest_scores(a, w, x, n_targets, aggregate)
        case(name, [helper.make_node("TreeEnsembleRegressor", ["x"], ["y"], domain=ML, **attrs)],
             [value("x", f32, [12, 4])], [value("y", f32, [12, n_targets])], [x],
             [regressor_reference(scores, has, base, post)], opset, domain=ML)

    regressor("test_idiom_ml_tree_regressor_sum_nan", 1, [2, 3, 0], 2, 2, "SUM", "NONE",
              [0.5, -1.0])
    regressor("test_idiom_ml_tree_regressor_average_softmax", 1, [2, 2, 3], 3, 1, "AVERAGE",
              "SOFTMAX", [])
    regressor("test_idiom_ml_tree_regressor_min_logistic", 1, [3, 2], 2, 1, "MIN", "LOGISTIC",
              [0.25, 0.0])
    regressor("test_idiom_ml_tree_regressor_max_softmax_zero", 1, [2, 2], 3, 1, "MAX",
              "SOFTMAX_ZERO", [])
    regressor("test_idiom_ml_tree_regressor_one_target_logistic", 1, [3, 3], 1, 1, "SUM",
              "LOGISTIC", [0.5])
    regressor("test_idiom_ml_tree_regressor_as_tensor_probit", 3, [2, 3], 1, 1, "SUM", "PROBIT",
              [0.125], as_tensor=True, positive=True)

    def classifier(name, depths, labels, post, base, single_id=None, positive=False,
                   dtype=np.float32, opset=1):
        n = len(labels)
        a, w = random_forest(rng, depths, 4, n, n if single_id is None else 1,
                             positive=positive, single_id=single_id)
        attrs = dict(a, post_transform=post, classlabels_int64s=labels,
                     class_treeids=w["treeids"], class_nodeids=w["nodeids"], class_ids=w["ids"],
                     class_weights=w["weights"])
        if base:
            attrs["base_values"] = base
        if opset == 3:  # the float lists as tensors
            for key in ("nodes_values", "class_weights", "base_values"):
                if key in attrs:
                    attrs[key + "_as_tensor"] = numpy_helper.from_array(
                        np.array(attrs.pop(key), np.float32), key + "_as_tensor")
        x = features(rng, 12, 4, nan=dtype == np.float32).astype(dtype)
        scores, has = forest_scores(a, w, x, n)
        label, prob = classifier_reference(scores, has, labels, base, post, w["ids"],
                                           w["weights"])
        elem = f32 if dtype == np.float32 else i64
        case(name, [helper.make_node("TreeEnsembleClassifier", ["x"], ["label", "prob"],
                                     domain=ML, **attrs)],
             [value("x", elem, [12, 4])],
             [value("label", i64, [12]), value("prob", f32, [12, n])], [x], [label, prob], opset,
             domain=ML)

    # scikit-learn's multiclass forests; LightGBM's binary model (one margin, LOGISTIC); a
    # scikit-learn binary forest (both classes' probabilities); a binary model whose one score
    # is a probability; a multiclass model on int64 features.
    classifier("test_idiom_ml_tree_classifier_multiclass_softmax", [2, 3, 2], [10, 20, 30],
               "SOFTMAX", [0.25, -0.5, 0.0])
    classifier("test_idiom_ml_tree_classifier_binary_logistic", [3, 2, 2], [0, 1], "LOGISTIC",
               [], single_id=0)
    classifier("test_idiom_ml_tree_classifier_binary_two_scores", [2, 2], [0, 1], "NONE", [],
               positive=True)
    classifier("test_idiom_ml_tree_classifier_binary_probability", [2, 3], [3, 7], "NONE", [],
               single_id=0, positive=True)
    classifier("test_idiom_ml_tree_classifier_int64_input", [2, 2], [0, 1, 2], "NONE", [],
               dtype=np.int64)
    # XGBoost's binary model at ml 3: one margin plus a base value, weights as tensors.
    classifier("test_idiom_ml_tree_classifier_binary_as_tensor", [3, 3], [0, 1], "LOGISTIC",
               [-0.25], single_id=0, opset=3)
    # TreeEnsemble (ml 5) with BRANCH_NEQ and BRANCH_EQ: a NaN feature goes where the comparison
    # sends it (NaN != s holds) when missing_value_tracks_true is not set. Node 0 tests
    # x0 != 0.5 (true: leaf 0, 1 to target 0), node 1 x1 == 2 (true: leaf 1, 2 to target 1;
    # false: leaf 2, 3 to target 0).
    tree = helper.make_node(
        "TreeEnsemble", ["x"], ["y"], domain=ML, n_targets=2, aggregate_function=1,
        post_transform=0, tree_roots=[0], nodes_featureids=[0, 1],
        nodes_modes=numpy_helper.from_array(np.array([5, 4], np.uint8), "nodes_modes"),
        nodes_splits=numpy_helper.from_array(np.array([0.5, 2.0], np.float32), "nodes_splits"),
        nodes_truenodeids=[0, 1], nodes_trueleafs=[1, 1], nodes_falsenodeids=[1, 2],
        nodes_falseleafs=[0, 1], leaf_targetids=[0, 1, 0],
        leaf_weights=numpy_helper.from_array(np.array([1, 2, 3], np.float32), "leaf_weights"))
    rows = np.array([[np.nan, 5], [0.5, np.nan], [0.5, 2], [np.nan, np.nan]], np.float32)
    case("test_idiom_ml_tree_ensemble_nan_neq", [tree], [value("x", f32, [4, 2])],
         [value("y", f32, [4, 2])], [rows],
         [np.array([[1, 0], [3, 0], [0, 2], [1, 0]], np.float32)], 5, domain=ML)
    write_ml_feature_cases(case, value, helper, TensorProto)


def linear_classifier_reference(x, coefficients, intercepts, labels, post):
    """LinearClassifier: one score column and two labels is binary: [1 - p, p], p the logistic
    of the score under LOGISTIC, else the score itself (as ONNX Runtime computes it)."""
    scores = x.astype(np.float64) @ np.array(coefficients).reshape(len(intercepts), -1).T
    scores += np.array(intercepts)
    if len(intercepts) == 1:
        positive = scores[:, 0] > 0
        label = np.where(positive, labels[1], labels[0]) if len(labels) == 2 else positive * 1
        if len(labels) == 2 and post != "PROBIT":
            p = logistic(scores[:, 0]) if post == "LOGISTIC" else scores[:, 0]
            scores = np.stack([1 - p, p], axis=1)
            post = "NONE"
    else:
        label = np.array(labels)[scores.argmax(axis=1)]
    scores = np.stack([post_transform(post, row) for row in scores])
    return label.astype(np.int64), scores.astype(np.float32)


def svm_kernel(kind, a, b, gamma, coef0, degree):
    if kind == "RBF":
        return math.exp(-gamma * float(((a - b) ** 2).sum()))
    dot = float(a @ b)
    if kind == "POLY":
        return (gamma * dot + coef0) ** degree
    if kind == "SIGMOID":
        return math.tanh(gamma * dot + coef0)
    return dot


def coupled_probabilities(r):
    """libsvm's pairwise coupling of the pairwise probabilities r[i, j] (class i against j)."""
    k = r.shape[0]
    q = np.zeros((k, k))
    for t in range(k):
        for j in range(k):
            if j != t:
                q[t, t] += r[j, t] ** 2
                q[t, j] = -r[j, t] * r[t, j]
    p = np.full(k, 1 / k)
    for _ in range(max(100, k)):
        qp = q @ p
        pqp = p @ qp
        if np.abs(qp - pqp).max() < 0.005 / k:
            break
        for t in range(k):
            diff = (-qp[t] + pqp) / q[t, t]
            p[t] += diff
            pqp = (pqp + diff * (diff * q[t, t] + 2 * qp[t])) / (1 + diff) ** 2
            qp = (qp + diff * q[t]) / (1 + diff)
            p /= 1 + diff
    return p


def svm_classifier_reference(x, kernel, params, labels, per_class, vectors, coefficients, rho,
                             prob_a, prob_b, post):
    """SVMClassifier with support vectors (libsvm's one-against-one)."""
    k, n = len(labels), int(sum(per_class))
    start = np.concatenate([[0], np.cumsum(per_class)[:-1]]).astype(int)
    coefficients = np.array(coefficients, np.float64).reshape(k - 1, n)
    out_labels, out_scores = [], []
    for row in x.astype(np.float64):
        kern = [svm_kernel(kernel, row, v.astype(np.float64), *params) for v in vectors]
        decisions, votes = [], np.zeros(k, int)
        for i in range(k - 1):
            for j in range(i + 1, k):
                s = rho[len(decisions)]
                s += sum(coefficients[j - 1, start[i] + m] * kern[start[i] + m]
                         for m in range(per_class[i]))
                s += sum(coefficients[i, start[j] + m] * kern[start[j] + m]
                         for m in range(per_class[j]))
                decisions.append(s)
                votes[i if s > 0 else j] += 1
        out_labels.append(labels[int(votes.argmax())])
        if prob_a:
            r = np.zeros((k, k))
            index = 0
            for i in range(k - 1):
                for j in range(i + 1, k):
                    p = 1 / (1 + math.exp(decisions[index] * prob_a[index] + prob_b[index]))
                    r[i, j] = min(max(p, 1e-7), 1 - 1e-7)
                    r[j, i] = 1 - r[i, j]
                    index += 1
            out_scores.append(post_transform(post, coupled_probabilities(r)))
        elif k > 2:
            out_scores.append(post_transform(post, decisions))
        else:
            s = decisions[0]
            out_scores.append(np.array([-s, s]))
    return np.array(out_labels, np.int64), np.array(out_scores).astype(np.float32)


def write_ml_feature_cases(case, value, helper, TensorProto):
    """LinearClassifier, SVMRegressor, SVMClassifier, Imputer, OneHotEncoder,
    FeatureVectorizer."""
    rng = np.random.default_rng(13)
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    x = rng.standard_normal((6, 4)).astype(np.float32)

    def linear(name, classes, labels, post, x):
        coefficients = (rng.standard_normal(classes * 4) / 2).round(3).tolist()
        intercepts = (rng.standard_normal(classes) / 2).round(3).tolist()
        label, scores = linear_classifier_reference(x, np.float32(coefficients),
                                                    np.float32(intercepts), labels, post)
        elem = f32 if x.dtype == np.float32 else i64
        case(name, [helper.make_node("LinearClassifier", ["x"], ["label", "scores"], domain=ML,
                                     coefficients=coefficients, intercepts=intercepts,
                                     classlabels_ints=labels, post_transform=post)],
             [value("x", elem, list(x.shape))],
             [value("label", i64, [x.shape[0]]), value("scores", f32, list(scores.shape))],
             [x], [label, scores], 1, domain=ML)

    # scikit-learn's LogisticRegression: multinomial (SOFTMAX), one-vs-rest (LOGISTIC), binary.
    linear("test_idiom_ml_linear_classifier_softmax", 3, [0, 1, 2], "SOFTMAX", x)
    linear("test_idiom_ml_linear_classifier_logistic_int64", 3, [5, 6, 7], "LOGISTIC",
           rng.integers(-3, 4, (6, 4)).astype(np.int64))
    linear("test_idiom_ml_linear_classifier_binary", 1, [0, 1], "NONE", x)
    linear("test_idiom_ml_linear_classifier_binary_logistic", 1, [2, 4], "LOGISTIC", x)

    def svm(name, kernel, supports, one_class=False, post="NONE"):
        gamma, coef0, degree = 0.5, 0.25, 2.0
        vectors = rng.standard_normal((max(supports, 1), 4)).round(3).astype(np.float32)
        coefficients = (rng.standard_normal(supports if supports else 4)).round(3)
        coefficients = coefficients.astype(np.float32)
        rho = np.float32(0.125)
        expected = []
        for row in x.astype(np.float64):
            if supports:
                s = sum(float(c) * svm_kernel(kernel, row, v.astype(np.float64), gamma, coef0,
                                              degree) for c, v in zip(coefficients, vectors))
            else:
                s = float(row @ coefficients.astype(np.float64))
            s += float(rho)
            expected.append((1.0 if s > 0 else -1.0) if one_class else s)
        attrs = dict(kernel_type=kernel, kernel_params=[gamma, coef0, degree],
                     coefficients=coefficients.tolist(), rho=[float(rho)], n_supports=supports,
                     one_class=int(one_class), post_transform=post)
        if supports:
            attrs["support_vectors"] = vectors.ravel().tolist()
        case(name, [helper.make_node("SVMRegressor", ["x"], ["y"], domain=ML, **attrs)],
             [value("x", f32, [6, 4])], [value("y", f32, [6, 1])], [x],
             [np.array(expected, np.float32).reshape(6, 1)], 1, domain=ML)

    svm("test_idiom_ml_svm_regressor_rbf", "RBF", 5)
    svm("test_idiom_ml_svm_regressor_poly", "POLY", 4)
    svm("test_idiom_ml_svm_regressor_sigmoid", "SIGMOID", 3)
    svm("test_idiom_ml_svm_regressor_linear", "LINEAR", 0)
    svm("test_idiom_ml_svm_regressor_one_class", "RBF", 5, one_class=True)

    # scikit-learn's SVC: one-against-one votes and decision values, with probability=True the
    # coupled probabilities, for three classes and for two; and a linear model (no support
    # vectors).
    def svc(name, labels, per_class, kernel, probability=False, post="NONE"):
        k, n = len(labels), sum(per_class)
        params = [0.5, 0.25, 2.0]
        vectors = rng.standard_normal((n, 4)).round(3).astype(np.float32)
        coefficients = rng.standard_normal((k - 1) * n).round(3).astype(np.float32)
        rho = rng.standard_normal(k * (k - 1) // 2).round(3).astype(np.float32)
        prob_a, prob_b = [], []
        if probability:
            prob_a = (-rng.random(len(rho)) * 3 - 0.5).round(3).astype(np.float32)
            prob_b = (rng.standard_normal(len(rho)) / 4).round(3).astype(np.float32)
        label, scores = svm_classifier_reference(
            x, kernel, params, labels, per_class, vectors, coefficients, [float(r) for r in rho],
            [float(a) for a in prob_a], [float(b) for b in prob_b], post)
        attrs = dict(kernel_type=kernel, kernel_params=params, classlabels_ints=labels,
                     vectors_per_class=per_class, support_vectors=vectors.ravel().tolist(),
                     coefficients=coefficients.tolist(), rho=rho.tolist(), post_transform=post)
        if probability:
            attrs.update(prob_a=prob_a.tolist(), prob_b=prob_b.tolist())
        case(name, [helper.make_node("SVMClassifier", ["x"], ["label", "scores"], domain=ML,
                                     **attrs)],
             [value("x", f32, [6, 4])],
             [value("label", i64, [6]), value("scores", f32, list(scores.shape))], [x],
             [label, scores], 1, domain=ML)

    svc("test_idiom_ml_svm_classifier_rbf", [0, 1, 2], [2, 3, 2], "RBF")
    svc("test_idiom_ml_svm_classifier_poly_probability", [1, 4, 9], [2, 2, 3], "POLY",
        probability=True)
    svc("test_idiom_ml_svm_classifier_binary_sigmoid", [0, 1], [3, 2], "SIGMOID")
    svc("test_idiom_ml_svm_classifier_binary_probability", [0, 1], [2, 3], "RBF",
        probability=True)
    coefficients = rng.standard_normal(12).round(3).astype(np.float32)
    linear_scores = x.astype(np.float64) @ coefficients.reshape(3, 4).T.astype(np.float64) + 0.5
    case("test_idiom_ml_svm_classifier_linear", [helper.make_node(
        "SVMClassifier", ["x"], ["label", "scores"], domain=ML, classlabels_ints=[3, 5, 7],
        coefficients=coefficients.tolist(), rho=[0.5], kernel_type="LINEAR",
        kernel_params=[0.0, 0.0, 0.0])],
        [value("x", f32, [6, 4])], [value("label", i64, [6]), value("scores", f32, [6, 3])], [x],
        [np.array([3, 5, 7], np.int64)[linear_scores.argmax(axis=1)],
         linear_scores.astype(np.float32)], 1, domain=ML)

    # SimpleImputer: NaN → the feature's mean; an int64 column's -1 → one value for all.
    holes = x.copy()
    holes[rng.random(holes.shape) < 0.3] = np.nan
    means = [0.5, -1.0, 2.0, 0.0]
    case("test_idiom_ml_imputer_nan", [helper.make_node(
        "Imputer", ["x"], ["y"], domain=ML, imputed_value_floats=means,
        replaced_value_float=float("nan"))], [value("x", f32, [6, 4])],
        [value("y", f32, [6, 4])], [holes],
        [np.where(np.isnan(holes), np.array(means, np.float32), holes)], 1, domain=ML)
    ints = rng.integers(-1, 3, (5, 3)).astype(np.int64)
    case("test_idiom_ml_imputer_int64", [helper.make_node(
        "Imputer", ["x"], ["y"], domain=ML, imputed_value_int64s=[7],
        replaced_value_int64=-1)], [value("x", i64, [5, 3])], [value("y", i64, [5, 3])],
        [ints], [np.where(ints == -1, 7, ints).astype(np.int64)], 1, domain=ML)

    # OneHotEncoder over int64 categories; 9 is in none of them (a row of zeros).
    cats = [3, 1, 4, 0]
    codes = np.array([[3, 1], [4, 9], [0, 3]], np.int64)
    onehot = (codes[..., None] == np.array(cats)).astype(np.float32)
    case("test_idiom_ml_one_hot_encoder", [helper.make_node(
        "OneHotEncoder", ["x"], ["y"], domain=ML, cats_int64s=cats, zeros=1)],
        [value("x", i64, [3, 2])], [value("y", f32, [3, 2, 4])], [codes], [onehot], 1,
        domain=ML)

    # FeatureVectorizer: three float blocks side by side, the second cut to 2 columns, the third
    # padded with zeros to 2.
    a = rng.standard_normal((3, 2)).astype(np.float32)
    b = rng.standard_normal((3, 3)).astype(np.float32)
    c = rng.standard_normal((3, 1)).astype(np.float32)
    case("test_idiom_ml_feature_vectorizer", [helper.make_node(
        "FeatureVectorizer", ["a", "b", "c"], ["y"], domain=ML, inputdimensions=[2, 2, 2])],
        [value("a", f32, [3, 2]), value("b", f32, [3, 3]), value("c", f32, [3, 1])],
        [value("y", f32, [3, 6])], [a, b, c],
        [np.concatenate([a, b[:, :2], c, np.zeros((3, 1), np.float32)], axis=1)], 1, domain=ML)

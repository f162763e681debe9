"""ai.onnx.ml classifiers with string labels (classlabels_strings, as scikit-learn exports of
classifiers trained on string labels write them) give the label of each row as a str and the
scores, both computed here with NumPy; OneHotEncoder encodes strings over string categories
(cats_strings). The nodes are built with onnx.helper."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import openge

_CLASSES = ["cat", "dog", "eel"]


def _session(node, features, columns):
    graph = helper.make_graph(
        [node], node.op_type,
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [None, features])],
        [helper.make_tensor_value_info("label", TensorProto.STRING, [None]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, [None, columns])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("ai.onnx.ml", 1)])
    return openge.InferenceSession(model.SerializeToString())


def _softmax(v):
    e = np.exp(v - v.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _logistic(v):
    return 1 / (1 + np.exp(-v))


def _check(sess, x, want_labels, want_scores):
    label, scores = sess.run(None, {"X": x})
    assert label.dtype == object and label.shape == (len(x),)
    assert label.tolist() == list(want_labels)
    np.testing.assert_allclose(scores, want_scores, rtol=1e-5, atol=1e-6)


def test_linear_classifier_gives_the_string_of_the_highest_score():
    coefficients = np.array([[1.0, 2.0], [-1.0, 0.5], [0.25, -1.0]], np.float32)
    intercepts = np.array([-0.5, 0.25, 0.0], np.float32)
    node = helper.make_node(
        "LinearClassifier", ["X"], ["label", "scores"], domain="ai.onnx.ml",
        coefficients=coefficients.ravel().tolist(), intercepts=intercepts.tolist(),
        classlabels_strings=_CLASSES, post_transform="SOFTMAX")
    sess = _session(node, 2, 3)
    assert sess.get_outputs()[0].type == "tensor(string)"
    x = np.random.default_rng(3).uniform(-2, 2, (16, 2)).astype(np.float32)
    raw = x.astype(np.float64) @ coefficients.T + intercepts
    _check(sess, x, np.array(_CLASSES)[raw.argmax(axis=1)], _softmax(raw))


def test_a_binary_linear_classifier_gives_the_second_label_when_its_score_is_positive():
    node = helper.make_node(
        "LinearClassifier", ["X"], ["label", "scores"], domain="ai.onnx.ml",
        coefficients=[2.0, -1.0], intercepts=[0.5], classlabels_strings=["no", "yes"],
        post_transform="LOGISTIC")
    sess = _session(node, 2, 2)
    x = np.random.default_rng(5).uniform(-2, 2, (16, 2)).astype(np.float32)
    s = x.astype(np.float64) @ np.array([2.0, -1.0]) + 0.5
    p = _logistic(s)
    _check(sess, x, np.where(s > 0, "yes", "no"), np.stack([1 - p, p], axis=1))


# Two trees over two features. Tree 0: x0 <= 0.5 ? (x1 <= 0 ? leaf 3 : leaf 4) : leaf 2;
# tree 1: x1 <= 0.25 ? leaf 1 : leaf 2. Each leaf adds weights to some classes.
_NODES = dict(
    nodes_treeids=[0, 0, 0, 0, 0, 1, 1, 1],
    nodes_nodeids=[0, 1, 2, 3, 4, 0, 1, 2],
    nodes_featureids=[0, 1, 0, 0, 0, 1, 0, 0],
    nodes_modes=["BRANCH_LEQ", "BRANCH_LEQ", "LEAF", "LEAF", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"],
    nodes_values=[0.5, 0.0, 0, 0, 0, 0.25, 0, 0],
    nodes_truenodeids=[1, 3, 0, 0, 0, 1, 0, 0],
    nodes_falsenodeids=[2, 4, 0, 0, 0, 2, 0, 0],
)


def _walk(row):
    """The (tree, leaf) pairs a row reaches."""
    first = (0, 2) if row[0] > 0.5 else ((0, 3) if row[1] <= 0 else (0, 4))
    return [first, (1, 1) if row[1] <= 0.25 else (1, 2)]


def _tree_scores(x, leaves, classes):
    """Per row, the summed weights per class; `leaves` maps (tree, leaf) to [(class, weight)]."""
    out = np.zeros((len(x), classes))
    for r, row in enumerate(x.astype(np.float64)):
        for leaf in _walk(row):
            for c, w in leaves.get(leaf, []):
                out[r, c] += w
    return out


def _tree_node(leaves, labels, post):
    ids = [(t, n, c, w) for (t, n), pairs in sorted(leaves.items()) for c, w in pairs]
    return helper.make_node(
        "TreeEnsembleClassifier", ["X"], ["label", "scores"], domain="ai.onnx.ml", **_NODES,
        class_treeids=[t for t, _, _, _ in ids], class_nodeids=[n for _, n, _, _ in ids],
        class_ids=[c for _, _, c, _ in ids], class_weights=[w for _, _, _, w in ids],
        classlabels_strings=labels, post_transform=post)


def _rows():
    x = np.random.default_rng(7).uniform(-1, 1.5, (24, 2)).astype(np.float32)
    x[0] = [0.5, 0.0]  # on both splits of tree 0
    return x


def test_tree_ensemble_classifier_gives_the_string_of_the_highest_score():
    leaves = {(0, 2): [(0, 1.0), (1, 0.5)], (0, 3): [(1, 2.0)], (0, 4): [(2, 1.5), (0, 0.25)],
              (1, 1): [(2, 0.75)], (1, 2): [(0, 0.5), (1, 0.5), (2, 0.25)]}
    sess = _session(_tree_node(leaves, _CLASSES, "SOFTMAX"), 2, 3)
    x = _rows()
    raw = _tree_scores(x, leaves, 3)
    _check(sess, x, np.array(_CLASSES)[raw.argmax(axis=1)], _softmax(raw))


def test_a_binary_tree_ensemble_classifier_scores_one_class_and_complements_it():
    # Leaves weigh class 0 only, all positive: the score s is the second class's probability,
    # the label the second one when s > 0.5, and the scores [1 - s, s].
    leaves = {(0, 2): [(0, 0.5)], (0, 3): [(0, 0.125)], (0, 4): [(0, 0.25)],
              (1, 1): [(0, 0.125)], (1, 2): [(0, 0.375)]}
    sess = _session(_tree_node(leaves, ["no", "yes"], "NONE"), 2, 2)
    x = _rows()
    s = _tree_scores(x, leaves, 1)[:, 0]
    assert (s > 0.5).any() and (s <= 0.5).any()
    _check(sess, x, np.where(s > 0.5, "yes", "no"), np.stack([1 - s, s], axis=1))


def _one_hot_session(cats, zeros):
    node = helper.make_node("OneHotEncoder", ["X"], ["Y"], domain="ai.onnx.ml",
                            cats_strings=cats, zeros=zeros)
    graph = helper.make_graph(
        [node], "one_hot",
        [helper.make_tensor_value_info("X", TensorProto.STRING, [None, 2])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [None, 2, len(cats)])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("ai.onnx.ml", 1)])
    return openge.InferenceSession(model.SerializeToString())


def test_one_hot_encoder_encodes_strings_over_string_categories():
    x = np.array([["dog", "cat"], ["eel", "cow"], ["", "dog"]])
    (y,) = _one_hot_session(_CLASSES, 1).run(None, {"X": x})
    # X's shape and one column per category; "cow" and "" are in none (a row of zeros).
    want = (x[..., None] == np.array(_CLASSES)).astype(np.float32)
    assert y.dtype == np.float32 and y.shape == (3, 2, 3)
    np.testing.assert_array_equal(y, want)
    assert not want[1, 1].any() and not want[2, 0].any()


def test_one_hot_encoder_with_zeros_0_names_an_unknown_string_and_its_place():
    sess = _one_hot_session(_CLASSES, 0)
    (y,) = sess.run(None, {"X": np.array([["eel", "dog"]])})
    np.testing.assert_array_equal(y, [[[0, 0, 1], [0, 1, 0]]])
    with pytest.raises(openge.Error,
                       match=r"value 'cow' at X\[1, 0\] is in no category of cats_strings"):
        sess.run(None, {"X": np.array([["cat", "dog"], ["cow", "eel"]])})

"""Compiling models and looking at them: ``openge.compile`` and ``openge.load_graph``."""

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _openge
from .graph import Graph

ModelLike = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]


class CompiledModel:
    """A compiled model: what ``openge.compile`` returns and what an ``InferenceSession`` runs.

    Several sessions may share one compiled model (its weights are not copied for each).
    """

    def __init__(self, handle: "_openge.CompiledModel"):
        self._handle = handle
        self._report: Optional[Dict[str, Any]] = None

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the model as a ``.om`` file (what ``gec compile`` writes; ``InferenceSession``
        and ``gec run`` read it back without compiling)."""
        self._handle.save(os.fspath(path))

    def serialize(self) -> bytes:
        """The ``.om`` file's bytes."""
        return self._handle.serialize()

    @property
    def report(self) -> Dict[str, Any]:
        """The compile report (``gec compile --report``'s JSON) as a dict: stages and their
        passes with timings and node counts, fusions, op types before and after, the memory
        plan's summary, streams, tasks and the kernels chosen."""
        if self._report is None:
            self._report = json.loads(self._handle.report_json())
        return self._report

    def memory_plan(self, graph: Optional[str] = None) -> Dict[str, Any]:
        """The static memory plan of the root graph (or of the subgraph called `graph`), as
        ``gec plan --json`` prints it: arena size, the lower bound, the strategies tried and the
        one kept, the peak, and every tensor's region, offset, size and live steps (an index of
        -1: none)."""
        return _pick_plan(self._handle.memory_plans_json(), graph or self.report.get("graph"))

    def graph(self) -> Graph:
        """The compiled graph: nodes as placed, with their engines and streams."""
        return Graph(self._handle.graph())

    @property
    def parse_millis(self) -> float:
        """Time spent reading the model (the ``.onnx`` parse, or the ``.om`` read)."""
        return self._handle.parse_millis

    @property
    def compile_millis(self) -> float:
        """Time spent in the compiler's passes (0 for a ``.om``)."""
        return self._handle.compile_millis

    def __repr__(self) -> str:
        return f"<openge.CompiledModel graph '{self.report.get('graph', '')}'>"


def compile(model: ModelLike,
            input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
            options: Optional[Mapping[str, Any]] = None) -> CompiledModel:
    """Compiles `model` (a path or the bytes of an ``.onnx``; a ``.om`` is read, not compiled).

    `input_shapes` fixes inputs' dims (``{"input": [1, 3, 224, 224]}``; -1 leaves a dim
    unknown). `options` are compile options in GE's spelling (``{"ge.oo.constantFolding":
    "false"}``; ``gec options`` lists them); values may be str, bool or int. The GIL is released
    while compiling. Raises ``openge.ModelError`` naming the place and cause of a failure.
    """
    return CompiledModel(_openge.compile(model, _shapes(input_shapes), _options(options)))


def load_graph(model: ModelLike) -> Graph:
    """Reads `model` into a Graph for looking at, without compiling it: an ``.onnx`` as parsed,
    a ``.om``'s compiled graph, a GE graph dump (``.pb``/``.txt``) as saved."""
    return Graph(_openge.load_graph(model))


def _shapes(input_shapes: Optional[Mapping[str, Sequence[int]]]) -> Dict[str, List[int]]:
    if input_shapes is None:
        return {}
    shapes = {}
    for name, dims in input_shapes.items():
        try:
            shapes[str(name)] = [int(d) for d in dims]
        except (TypeError, ValueError):
            raise _openge.InputError(
                f"input_shapes['{name}']: a shape is a list of ints (-1 for unknown), "
                f"not {dims!r}") from None
    return shapes


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, set)):
        return ",".join(str(v) for v in value)
    return str(value)


def _options(options: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    return {str(k): _option_text(v) for k, v in (options or {}).items()}


def _pick_plan(plans: Dict[str, str], graph: str) -> Dict[str, Any]:
    """`graph`'s plan, parsed, from {graph name: JSON}."""
    if not plans:
        raise _openge.Error("this model has no memory plan")
    try:
        return json.loads(plans[graph])
    except KeyError:
        raise _openge.Error(f"no memory plan for graph '{graph}'; the model's graphs are: "
                            f"{', '.join(plans)}") from None

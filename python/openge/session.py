"""ONNX Runtime's session API over OpenGE: InferenceSession, SessionOptions and friends.

What each ONNX Runtime setting becomes is said where it is read (``SessionOptions``); settings
OpenGE has no use for (log levels, arena flags) are accepted and have no effect, so code written
for ONNX Runtime runs unchanged.
"""

import collections.abc
import enum
import json
import os
import threading
import time
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence

from . import _openge
from .compiler import CompiledModel, _options, _pick_plan, _shapes

_PROVIDER = "CPUExecutionProvider"


class GraphOptimizationLevel(enum.IntEnum):
    """How much the compiler may rewrite the graph (ONNX Runtime's levels)."""

    ORT_DISABLE_ALL = 0  # no rewrites but removing Identity (GE Local has no kernel for it)
    ORT_ENABLE_BASIC = 1  # folding, identity removal, CSE, dead code; no fusion
    ORT_ENABLE_EXTENDED = 2  # everything (OpenGE's fusions are its "extended" rewrites)
    ORT_ENABLE_ALL = 99  # everything


class ExecutionMode(enum.IntEnum):
    """ORT_PARALLEL lets the compiler spread independent branches over streams."""

    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


# The passes ORT_ENABLE_BASIC leaves out: the rewrites that merge nodes into fused kernels.
_FUSION_PASSES = ("Fusion",)

# The passes a graph cannot run without: Identity is removed, never executed.
_REQUIRED_PASSES = ("RemoveIdentity",)

_NO_EFFECT = ("log_severity_level", "log_verbosity_level", "logid", "enable_cpu_mem_arena",
              "enable_mem_pattern", "use_deterministic_compute")


class SessionOptions:
    """ONNX Runtime's SessionOptions, mapped onto OpenGE's compile and runtime options:

    - ``intra_op_num_threads``: threads each kernel may use (0: every core).
    - ``inter_op_num_threads`` with ``execution_mode = ORT_PARALLEL``: the compiler may put
      independent branches on up to that many streams (``ge.enableSingleStream=false``,
      ``openge.maxStreamNum``); ORT_SEQUENTIAL (the default) runs one stream.
    - ``graph_optimization_level``: see GraphOptimizationLevel.
    - ``enable_mem_reuse = False``: ``ge.exec.disableReuseMemory=true`` (every tensor its own
      bytes).
    - ``enable_profiling`` / ``profile_file_prefix``: record every task of every run;
      ``InferenceSession.end_profiling()`` writes the Chrome trace.
    - ``optimized_model_filepath``: the compiled model is saved there as a ``.om``.
    - ``add_session_config_entry(key, value)``: a key in GE's spelling (``ge.*``, ``openge.*``)
      is a compile option; other keys (ONNX Runtime's ``session.*``) are kept and not used.
    """

    __slots__ = ("intra_op_num_threads", "inter_op_num_threads", "execution_mode",
                 "graph_optimization_level", "enable_profiling", "profile_file_prefix",
                 "optimized_model_filepath", "enable_mem_reuse", "_config") + _NO_EFFECT

    def __init__(self) -> None:
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0
        self.execution_mode = ExecutionMode.ORT_SEQUENTIAL
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.enable_profiling = False
        self.profile_file_prefix = "openge_profile"
        self.optimized_model_filepath = ""
        self.enable_mem_reuse = True
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.enable_cpu_mem_arena = True
        self.enable_mem_pattern = True
        self.use_deterministic_compute = False
        self._config: Dict[str, str] = {}

    def add_session_config_entry(self, key: str, value: str) -> None:
        self._config[str(key)] = str(value)

    def get_session_config_entry(self, key: str) -> str:
        try:
            return self._config[key]
        except KeyError:
            raise _openge.Error(f"session config entry '{key}' is not set") from None

    def compile_options(self) -> Dict[str, str]:
        """The compile options these settings stand for."""
        options: Dict[str, str] = {}
        level = GraphOptimizationLevel(self.graph_optimization_level)
        if level == GraphOptimizationLevel.ORT_DISABLE_ALL:
            options["ge.oo.constantFolding"] = "false"
            options["openge.disablePasses"] = ",".join(
                p for p in _openge.disablable_passes() if p not in _REQUIRED_PASSES)
        elif level == GraphOptimizationLevel.ORT_ENABLE_BASIC:
            options["openge.disablePasses"] = ",".join(_FUSION_PASSES)
        if ExecutionMode(self.execution_mode) == ExecutionMode.ORT_PARALLEL:
            options["ge.enableSingleStream"] = "false"
            if self.inter_op_num_threads > 0:
                options["openge.maxStreamNum"] = str(self.inter_op_num_threads)
        if not self.enable_mem_reuse:
            options["ge.exec.disableReuseMemory"] = "true"
        for key, value in self._config.items():
            if key.startswith(("ge.", "openge.")):
                options[key] = value
        return options


class RunOptions:
    """ONNX Runtime's RunOptions: accepted, and without effect (a run cannot be cancelled)."""

    def __init__(self) -> None:
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.run_tag = ""
        self.terminate = False


class NodeArg:
    """A model input or output: ``name``, ``shape`` (an int per known dim; the model's name of a
    symbolic dim as a str, or None) and ``type`` (``"tensor(float)"``, ...)."""

    __slots__ = ("name", "shape", "type", "dtype")

    def __init__(self, info: Mapping[str, Any]):
        self.name: str = info["name"]
        self.shape: List[Any] = list(info["shape"])
        self.type: str = info["type"]
        self.dtype = info["dtype"]  # the NumPy dtype a feed should have

    def __repr__(self) -> str:
        return f"NodeArg(name='{self.name}', type='{self.type}', shape={self.shape})"


def get_available_providers() -> List[str]:
    """The execution providers this build has: OpenGE runs on the CPU."""
    return [_PROVIDER]


def get_device() -> str:
    return "CPU"


class InferenceSession:
    """Compiles a model (or reads a ``.om``) and runs it, as ``onnxruntime.InferenceSession``.

    `path_or_bytes`: a path or the bytes of an ``.onnx`` or ``.om``, or a CompiledModel from
    ``openge.compile`` (shared, not copied). Keyword arguments beyond ONNX Runtime's:

    - ``input_shapes={"input": [1, 3, 224, 224]}``: fix inputs' dims at compile time.
    - ``options={...}``: compile options in GE's spelling (override SessionOptions').
    - ``max_concurrent_runs``: runs that may overlap (0: one per core).
    - ``max_memory_bytes``: refuse to load a model needing more (0: no cap).

    An ONNX model whose input dims are left to run time (dynamic axes) without ``input_shapes``
    is compiled for each set of input shapes on its first run and the plan kept (see
    ``shape_plans``; ``openge.shapePlanCacheEntries``, ``openge.shapeBuckets`` in ``options``).

    ``run`` may be called from several threads at once: the GIL is released while the model runs.
    """

    def __init__(self, path_or_bytes: Any, sess_options: Optional[SessionOptions] = None,
                 providers: Optional[Sequence[Any]] = None,
                 provider_options: Optional[Sequence[Mapping[str, Any]]] = None, *,
                 input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
                 options: Optional[Mapping[str, Any]] = None, max_concurrent_runs: int = 0,
                 max_memory_bytes: int = 0) -> None:
        del provider_options  # the CPU provider takes none
        self._sess_options = sess_options if sess_options is not None else SessionOptions()
        self._providers = _check_providers(providers)
        threads = int(self._sess_options.intra_op_num_threads)
        self._compiled: Optional[CompiledModel] = None
        if isinstance(path_or_bytes, CompiledModel):
            if input_shapes or options:
                raise _openge.ModelError("input_shapes and options are for compiling; this "
                                         "model is compiled already")
            self._compiled = path_or_bytes
            self._session = _openge.Session(self._compiled._handle, threads,
                                            int(max_concurrent_runs), int(max_memory_bytes), {})
        else:
            # A model with dynamic axes goes whole to the shape plan cache: its compile for any
            # shape (compiled_model) is made only when asked for, so the weights are in memory
            # once.
            compile_options = self._sess_options.compile_options()
            compile_options.update(_options(options))
            self._session = _openge.open_session(path_or_bytes, _shapes(input_shapes),
                                                 compile_options, threads,
                                                 int(max_concurrent_runs), int(max_memory_bytes))
        if self._sess_options.optimized_model_filepath:
            self.compiled_model.save(self._sess_options.optimized_model_filepath)
        all_inputs = self._session.inputs()
        self._inputs = [NodeArg(i) for i in all_inputs if not i["has_default"]]
        self._initializers = [NodeArg(i) for i in all_inputs if i["has_default"]]
        self._outputs = [NodeArg(o) for o in self._session.outputs()]
        self._profile_lock = threading.Lock()
        self._trace: List[Dict[str, Any]] = []
        self._profiling = False
        self._profile_origin = 0.0
        self._profile_start_ns = 0
        if self._sess_options.enable_profiling:
            self.start_profiling()

    # The ONNX Runtime surface.

    def run(self, output_names: Optional[Sequence[str]], input_feed: Mapping[str, Any],
            run_options: Optional[RunOptions] = None) -> List[Any]:
        """Runs the model on `input_feed` ({input name: array}); returns the outputs named in
        `output_names` (every output, in order, when it is None or empty) as ndarrays that own
        their memory. A C-contiguous array of the input's dtype is read where it lies; others
        are copied. Raises ``openge.InputError`` for a missing or unknown input, a wrong dtype or
        a shape that does not fit."""
        del run_options
        if not isinstance(input_feed, dict):
            if not isinstance(input_feed, collections.abc.Mapping):
                raise _openge.InputError("input_feed is a dict {input name: array}, not a "
                                         f"{type(input_feed).__name__}")
            input_feed = dict(input_feed)
        if isinstance(output_names, (str, bytes)):
            raise _openge.InputError(f"output_names is a list of names (or None), not the "
                                     f"string {output_names!r}")
        names = list(output_names) if output_names else None
        if not self._profiling:
            return self._session.run(input_feed, names)
        start = time.perf_counter()
        outputs = self._session.run(input_feed, names)
        self._record_run((start - self._profile_origin) * 1e6)
        return outputs

    def get_inputs(self) -> List[NodeArg]:
        """The inputs a run must feed (inputs that have a default value, initializers, are in
        get_overridable_initializers)."""
        return list(self._inputs)

    def get_overridable_initializers(self) -> List[NodeArg]:
        return list(self._initializers)

    def get_outputs(self) -> List[NodeArg]:
        return list(self._outputs)

    def get_providers(self) -> List[str]:
        return list(self._providers)

    def get_provider_options(self) -> Dict[str, Dict[str, str]]:
        return {p: {} for p in self._providers}

    def get_session_options(self) -> SessionOptions:
        return self._sess_options

    def set_providers(self, providers: Optional[Sequence[Any]] = None,
                      provider_options: Optional[Sequence[Mapping[str, Any]]] = None) -> None:
        del provider_options
        self._providers = _check_providers(providers)

    def start_profiling(self) -> None:
        """Records every task of the following runs (what enable_profiling does at creation)."""
        with self._profile_lock:
            self._trace = []
            self._profile_origin = time.perf_counter()
            self._profile_start_ns = time.time_ns()
            self._profiling = True
        self._session.set_profiling(True)

    def end_profiling(self) -> str:
        """Stops profiling and writes the trace (Chrome's trace format, as ONNX Runtime's) to
        ``<profile_file_prefix>_<date>.json``; returns the file's name."""
        trace = self.profile()
        self._session.set_profiling(False)
        self._profiling = False
        name = (f"{self._sess_options.profile_file_prefix}_"
                f"{time.strftime('%Y-%m-%d_%H-%M-%S')}.json")
        with open(name, "w", encoding="utf-8") as f:
            json.dump(trace, f)
        return name

    def get_profiling_start_time_ns(self) -> int:
        """When profiling started, in nanoseconds since the epoch (0 if it never did)."""
        return self._profile_start_ns

    # What ONNX Runtime does not have.

    @property
    def compiled_model(self) -> CompiledModel:
        """The compiled model this session runs (its report, memory plan and graph). For a model
        with dynamic axes run through the shape plan cache: the model compiled for any shape,
        made the first time it is asked for (it then holds a copy of the weights of its own)."""
        if self._compiled is None:
            self._compiled = CompiledModel(self._session.compiled())
        return self._compiled

    def memory_plan(self, graph: Optional[str] = None) -> Dict[str, Any]:
        """The static memory plan of the root graph (or the subgraph `graph`), with what the
        loaded model holds: ``arena_bytes`` planned, and under ``loaded`` the arena, weight,
        workspace and loaded weight bytes (filters its kernels transformed at load), run
        contexts and streams of this session."""
        compiled = self.compiled_model
        plan = _pick_plan(compiled._handle.memory_plans_json(),
                          graph or compiled.report.get("graph"))
        plan["loaded"] = self._session.memory()
        return plan

    def profile(self) -> Dict[str, Any]:
        """The runs recorded since profiling started, as a Chrome trace (``{"traceEvents":
        [...]}``, loadable in chrome://tracing or Perfetto): one "run" event per run and one
        event per task, on a row per stream. When runs overlap, each run's tasks are those of
        the last run to finish."""
        if not self._profiling:
            raise _openge.Error("profiling is off: set SessionOptions.enable_profiling or call "
                                "start_profiling() before running")
        with self._profile_lock:
            return {"traceEvents": list(self._trace), "displayTimeUnit": "ms"}

    def shape_plans(self) -> Dict[str, Any]:
        """The shape plan cache of a model whose input dims are left to run time (an ONNX model
        with dynamic axes and no ``input_shapes``): each new set of input shapes compiles a
        static plan on its first run, later runs with those shapes reuse it. ``specializes``
        (False when every shape runs the model as compiled: known shapes, ``input_shapes``,
        state across runs, or ``openge.shapePlanCacheEntries`` 0), ``hits``, ``misses``,
        ``padded`` (runs that ``openge.shapeBuckets`` rounded up), ``evictions``, ``bytes``,
        ``specialize_ms`` and ``plans`` (most recently used first: ``shapes``, ``runs``,
        ``compile_ms``, ``load_ms``, ``bytes``, ``dynamic``, ``error``)."""
        return self._session.shape_plans()

    @property
    def input_copies(self) -> int:
        """Inputs copied (not read where they lie) since the session was made."""
        return self._session.input_copies

    def _record_run(self, start_us: float) -> None:
        # The trace's one format (ge::TraceEventsJson), the one gec run --profile writes.
        events = json.loads(self._session.trace_events(start_us, os.getpid()))
        with self._profile_lock:
            self._trace.extend(events)


def _check_providers(providers: Optional[Sequence[Any]]) -> List[str]:
    names = [p[0] if isinstance(p, (tuple, list)) else str(p) for p in (providers or [])]
    others = [n for n in names if n != _PROVIDER]
    if others:
        warnings.warn(f"openge runs on the CPU; ignoring providers {others}", RuntimeWarning,
                      stacklevel=3)
    return [_PROVIDER]

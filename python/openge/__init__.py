"""OpenGE from Python: compile and run ONNX models on the CPU.

The session API is ONNX Runtime's, so code written for it runs by changing the import::

    import openge as ort
    sess = ort.InferenceSession("model.onnx")
    logits, = sess.run(None, {"input": image})

What ONNX Runtime does not have: ``compile`` (a compiled model with its compile report, memory
plan and graph, saved as a ``.om``), ``load_graph`` (any model's graph, for looking at) and
``InferenceSession.memory_plan`` / ``profile``.

Every failure is an ``openge.Error``: ``ModelError`` for a model that cannot be read, compiled or
loaded, ``InputError`` (also a ``ValueError``) for a run's inputs. The message is one line naming
the place and the cause.
"""

from ._openge import Error, InputError, ModelError, __version__
from .compiler import CompiledModel, compile, load_graph
from .graph import Graph, Node, Port
from .session import (
    ExecutionMode,
    GraphOptimizationLevel,
    InferenceSession,
    NodeArg,
    RunOptions,
    SessionOptions,
    get_available_providers,
    get_device,
)

__all__ = [
    "CompiledModel",
    "Error",
    "ExecutionMode",
    "Graph",
    "GraphOptimizationLevel",
    "InferenceSession",
    "InputError",
    "ModelError",
    "Node",
    "NodeArg",
    "Port",
    "RunOptions",
    "SessionOptions",
    "__version__",
    "compile",
    "get_available_providers",
    "get_device",
    "load_graph",
]

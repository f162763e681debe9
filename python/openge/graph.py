"""A graph for looking at: what ``openge.load_graph`` and ``CompiledModel.graph`` return."""

from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional


@dataclass(frozen=True)
class Port:
    """One input or output of a node: its tensor's type, shape and format.

    A dim of ``shape`` is an int, or, known only at run time, its expression over the inputs'
    dim names (``"batch*seq"``) where the compiler or the model gives one, else None.
    ``source`` (inputs) is ``"node:index"``, the output it reads; ``consumers`` (outputs) the
    ``"node:index"`` inputs that read it.
    """

    name: str
    type: str
    shape: Optional[List[Any]]
    format: str
    source: Optional[str] = None
    consumers: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class Node:
    """One operator: name, type, the engine and stream it was placed on (None before
    compilation), its ports, control inputs, attributes (Python values; a tensor is a read-only
    ndarray) and the names of its subgraphs."""

    name: str
    type: str
    engine: Optional[str]
    stream: int
    inputs: List[Port]
    outputs: List[Port]
    control_inputs: List[str]
    attributes: Dict[str, Any]
    subgraphs: List[str]


class Graph:
    """A graph's nodes in topological order, its inputs and outputs, and its subgraphs by name
    (the bodies of If, Loop and friends; each a Graph)."""

    def __init__(self, data: Dict[str, Any]):
        self.name: str = data["name"]
        self.nodes: List[Node] = [_node(n) for n in data["nodes"]]
        self.inputs: List[str] = list(data["inputs"])
        self.outputs: List[str] = list(data["outputs"])
        self.subgraphs: Dict[str, "Graph"] = {
            name: Graph(sub) for name, sub in data.get("subgraphs", {}).items()
        }
        self._by_name = {n.name: n for n in self.nodes}

    def node(self, name: str) -> Node:
        """The node called `name`; KeyError naming the graph when there is none."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"graph '{self.name}' has no node '{name}'") from None

    def op_types(self) -> Dict[str, int]:
        """How many nodes of each type the graph (not its subgraphs) holds."""
        counts: Dict[str, int] = {}
        for n in self.nodes:
            counts[n.type] = counts.get(n.type, 0) + 1
        return counts

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return (f"<openge.Graph '{self.name}': {len(self.nodes)} nodes, "
                f"inputs {self.inputs}, outputs {self.outputs}>")


def _port(data: Dict[str, Any]) -> Port:
    return Port(name=data["name"], type=data["type"], shape=data["shape"], format=data["format"],
                source=data.get("source"), consumers=list(data.get("consumers", [])))


def _node(data: Dict[str, Any]) -> Node:
    return Node(name=data["name"], type=data["type"], engine=data["engine"],
                stream=data["stream"], inputs=[_port(p) for p in data["inputs"]],
                outputs=[_port(p) for p in data["outputs"]],
                control_inputs=list(data["control_inputs"]), attributes=data["attributes"],
                subgraphs=list(data["subgraphs"]))

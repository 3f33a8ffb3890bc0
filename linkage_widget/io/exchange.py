r"""Exchange with PyRigi and networkx: conversions between their objects and plain arrays.

Layer 2, below the model, like the 2007 codec: every function here takes or
returns a :class:`~linkage_widget.io.LinkageData` (plain arrays) and never a
:class:`~linkage_widget.Linkage`; the model's ``from_pyrigi``/``to_pyrigi``/
``from_networkx``/``to_networkx`` wrap them. PyRigi and networkx are optional
(test) dependencies, imported inside the functions so that ``import
linkage_widget`` stays light; a missing one raises :class:`ImportError` saying
what to install.

Conventions
-----------
* Vertex order and labels. Our joints are numbered ``0 .. n-1``; theirs may be any
  hashable labels. Converting *to* arrays numbers them in the order of
  ``graph.vertex_list()`` (PyRigi, sorted where sortable) or ``list(graph.nodes)``
  (networkx) and returns that order as ``labels``: our joint ``i`` is their vertex
  ``labels[i]``. Converting *from* arrays labels joint ``i`` as ``labels[i]``
  (``i`` when no labels are given).
* Positions. PyRigi keeps exact sympy numbers: ours go in as the exact rational
  value of each float (:class:`sympy.Rational`), so PyRigi's exact algebra sees
  precisely our placement and ``float`` of it gives our float back bit for bit;
  symbolic coordinates (``sqrt(3)/2``) come to us rounded to the nearest float.
  networkx keeps a node attribute ``"pos"`` ``(x, y)`` (floats).
* Dimension. A 2-D framework (PyRigi ``dim == 2``, networkx positions of two
  coordinates) gives ``vertices (n, 2)``, a 3-D one ``(n, 3)`` (a spatial linkage);
  every position must have the framework's number of coordinates. Other dimensions
  are refused.
* Pins. PyRigi has no pins (it fixes vertices per query, ``fixed_vertices=``):
  :func:`to_pyrigi` drops them. networkx carries them as the boolean node attribute
  ``"pinned"``.
* Fixed angles. PyRigi has none, and :func:`to_pyrigi` refuses a linkage with one
  rather than silently change what is rigid. networkx keeps them as the graph
  attribute ``graph.graph["angles"]``, a list of ``(apex, j, k)`` label triples.
* Errors. Anything unusable raises :class:`ValueError` naming the vertex or node
  (by *their* label) before any array is built: a framework neither 2-D nor 3-D, a
  self-loop, a position missing, not finite or of the wrong dimension. Rod-level checks (zero-length
  and repeated rods) are the model's, which it does before it exists.

>>> import numpy as np
>>> data = LinkageData(np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([0]),
...                    np.array([[0, 1]]), np.zeros((0, 3), np.int64))
>>> graph = to_networkx(data)
>>> sorted(graph.nodes(data=True))
[(0, {'pos': (0.0, 0.0), 'pinned': True}), (1, {'pos': (1.0, 0.0), 'pinned': False})]
>>> back, labels = from_networkx(graph)
>>> back.vertices.tolist(), back.pinned.tolist(), back.rods.tolist(), labels
([[0.0, 0.0], [1.0, 0.0]], [0], [[0, 1]], [0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from .text2007 import LinkageData

__all__ = ["from_networkx", "from_pyrigi", "to_networkx", "to_pyrigi"]

#: The dimensions a linkage can have: planar and spatial.
DIMENSIONS = (2, 3)


def _import(name: str) -> Any:
    """Import an optional exchange library, or say exactly what to install."""
    try:
        return __import__(name)
    except ImportError as exc:
        raise ImportError(
            f"exchanging linkages with {name} needs the package '{name}' "
            f"(pip install {name}); it is optional and not installed"
        ) from exc


def _point(value: Any, where: str, dim: int = 2) -> tuple[float, ...]:
    """A finite point of ``dim`` coordinates (sympy numbers too), else ValueError."""
    try:
        coords = [float(c) for c in np.asarray(value, dtype=object).reshape(-1)]
    except (TypeError, ValueError):
        raise ValueError(f"{where}: position {value!r} is not a tuple of numbers") from None
    if len(coords) != dim:
        raise ValueError(
            f"{where}: position {value!r} must have {dim} coordinates, got {len(coords)}"
        )
    if not all(math.isfinite(c) for c in coords):
        raise ValueError(f"{where}: position {tuple(coords)} is not finite")
    return tuple(coords)


def _arrays(
    labels: Sequence[Hashable],
    points: Sequence[tuple[float, ...]],
    edges: Sequence[tuple[Hashable, Hashable]],
    pinned: Sequence[Hashable] = (),
    angles: Sequence[Sequence[Hashable]] = (),
    dim: int = 2,
) -> LinkageData:
    """Plain arrays from labelled items; a self-loop or unknown label is a ValueError."""
    index = {v: i for i, v in enumerate(labels)}
    for u, v in edges:
        if u == v:
            raise ValueError(f"edge ({u!r}, {v!r}) is a self-loop: a rod needs two distinct joints")

    def idx(label: Hashable, what: str) -> int:
        if label not in index:
            raise ValueError(f"{what} names vertex {label!r}, which is not in the graph")
        return index[label]

    rods = [(idx(u, "an edge"), idx(v, "an edge")) for u, v in edges]
    tri = [tuple(idx(v, "a fixed angle") for v in a) for a in angles]
    return LinkageData(
        np.array(points, dtype=np.float64).reshape(-1, dim),
        np.array([idx(v, "a pin") for v in pinned], dtype=np.int64),
        np.array(rods, dtype=np.int64).reshape(-1, 2),
        np.array(tri, dtype=np.int64).reshape(-1, 3),
    )


def from_pyrigi(framework: Any) -> tuple[LinkageData, list[Hashable]]:
    r"""Plain arrays of a 2-D or 3-D PyRigi framework, and their vertex labels.

    Parameters
    ----------
    framework : pyrigi.Framework
        A framework :math:`(G, p)`, :math:`p: V \to \mathbb{R}^d`, :math:`d \in \{2, 3\}`.

    Returns
    -------
    data : LinkageData
        ``vertices (n, d)`` float64 (each coordinate the float nearest PyRigi's exact
        value), ``rods (m, 2)`` in PyRigi's edge order, no pins, no angles.
    labels : list, length n
        PyRigi's vertex of each joint: joint ``i`` is ``labels[i]``
        (``graph.vertex_list()`` order).

    Raises
    ------
    ValueError
        A framework neither 2-D nor 3-D, naming its dimension.

    >>> from pyrigi import Framework, Graph
    >>> data, labels = from_pyrigi(Framework(Graph([("a", "b")]), {"a": [0, 0, 0], "b": [1, 2, 2]}))
    >>> data.vertices.tolist(), data.rods.tolist(), labels
    ([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]], [[0, 1]], ['a', 'b'])
    """
    dim = int(framework.dim)
    if dim not in DIMENSIONS:
        raise ValueError(
            f"only 2-D and 3-D PyRigi frameworks can become a linkage; this one is {dim}-D"
        )
    real = framework.realization(as_points=True)
    labels = list(framework.graph.vertex_list())
    points = [_point(real[v], f"PyRigi vertex {v!r}", dim) for v in labels]
    return _arrays(labels, points, list(framework.graph.edges), dim=dim), labels


def to_pyrigi(data: LinkageData, labels: Sequence[Hashable] | None = None) -> Any:
    r"""A PyRigi framework of plain arrays: graph of the rods, exact rational placement.

    Parameters
    ----------
    data : LinkageData
        The linkage's arrays; pins are dropped (PyRigi has none).
    labels : sequence, length n, optional
        PyRigi vertex of each joint (default ``0 .. n-1``).

    Returns
    -------
    pyrigi.Framework
        With :math:`p(\text{labels}[i]) = ` ``Rational(vertices[i])`` exactly.

    Raises
    ------
    ValueError
        When the linkage has fixed angles (not expressible in PyRigi) or the labels
        do not match the vertices.
    """
    pyrigi, sympy = _import("pyrigi"), _import("sympy")
    names = _labels(data, labels)
    if len(data.angles):
        raise ValueError(
            f"the linkage has {len(data.angles)} fixed angle(s), which a PyRigi framework "
            "cannot hold; remove them (or brace them with rods) before converting"
        )
    graph = pyrigi.Graph()
    graph.add_nodes_from(names)
    graph.add_edges_from((names[i], names[j]) for i, j in data.rods.tolist())
    placement = {
        names[i]: [sympy.Rational(c) for c in row] for i, row in enumerate(data.vertices.tolist())
    }
    return pyrigi.Framework(graph, placement)


def _labels(data: LinkageData, labels: Sequence[Hashable] | None) -> list[Hashable]:
    n = len(data.vertices)
    names = list(range(n)) if labels is None else list(labels)
    if len(names) != n or len(set(names)) != n:
        raise ValueError(f"labels must name the {n} vertices once each, got {len(names)} labels")
    return names


def to_networkx(data: LinkageData, labels: Sequence[Hashable] | None = None) -> Any:
    """A ``networkx.Graph``: nodes ``"pos"``/``"pinned"``, rods as edges, angles in graph attrs.

    Parameters
    ----------
    data : LinkageData
        The linkage's arrays.
    labels : sequence, length n, optional
        Node of each joint (default ``0 .. n-1``).

    Returns
    -------
    networkx.Graph
        Node ``labels[i]`` has ``pos=(x_i, y_i)`` (floats) and ``pinned`` (bool); edge
        ``(labels[i], labels[j])`` per rod, with ``rod`` its index;
        ``graph.graph["angles"]`` lists the fixed angles as label triples.
    """
    nx = _import("networkx")
    names = _labels(data, labels)
    pinned = set(data.pinned.tolist())
    graph = nx.Graph(angles=[tuple(names[v] for v in a) for a in data.angles.tolist()])
    for i, row in enumerate(data.vertices.tolist()):
        graph.add_node(names[i], pos=tuple(row), pinned=i in pinned)
    for r, (i, j) in enumerate(data.rods.tolist()):
        graph.add_edge(names[i], names[j], rod=r)
    return graph


def from_networkx(graph: Any, positions: Any = None) -> tuple[LinkageData, list[Hashable]]:
    """Plain arrays of a networkx graph with a 2-D or 3-D placement, and the node labels.

    Parameters
    ----------
    graph : networkx.Graph
        Nodes are joints, edges rods. A node attribute ``"pinned"`` (truthy) pins it;
        ``graph.graph["angles"]`` (label triples ``(apex, j, k)``) fixes angles.
    positions : mapping or array_like, optional
        A mapping node -> ``(x, y)`` or ``(x, y, z)``, or an array ``(n, 2)`` or
        ``(n, 3)`` in ``list(graph.nodes)`` order. Default: each node's ``"pos"`` attribute.

    Returns
    -------
    data : LinkageData
        Joint ``i`` is node ``labels[i]``; rods in edge order (by the ``rod`` attribute
        where every edge has one, so :func:`to_networkx`'s order comes back).
    labels : list, length n
        ``list(graph.nodes)``.

    Raises
    ------
    ValueError
        A multigraph, a self-loop, a node without a position, a position that is not a
        finite pair, an array of the wrong shape; the message names the node.
    """
    if graph.is_multigraph():
        raise ValueError("a multigraph cannot be a linkage: two rods join at most once")
    labels = list(graph.nodes)
    raw = _node_positions(graph, positions)
    # the first node's position sets the dimension (2 or 3); every other must agree
    dim = 3 if raw and np.size(np.asarray(raw[0], dtype=object)) == 3 else 2
    points = [_point(p, f"node {v!r}", dim) for v, p in zip(labels, raw, strict=True)]
    edges = list(graph.edges(data="rod"))
    if edges and all(isinstance(r, int) for _, _, r in edges):
        edges.sort(key=lambda e: e[2])
    pins = [v for v, flag in graph.nodes(data="pinned") if flag]
    angles = graph.graph.get("angles", ())
    return _arrays(labels, points, [(u, v) for u, v, _ in edges], pins, angles, dim), labels


def _node_positions(graph: Any, positions: Any) -> list[Any]:
    """One position per node of ``graph`` in node order, or ValueError naming a missing one."""
    labels = list(graph.nodes)
    if positions is None:
        positions = dict(graph.nodes(data="pos"))
    if isinstance(positions, Mapping):
        missing = [v for v in labels if positions.get(v) is None]
        if missing:
            raise ValueError(f"positions: no position for node {missing[0]!r}")
        return [positions[v] for v in labels]
    arr = np.asarray(positions, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] != len(labels) or arr.shape[1] not in DIMENSIONS:
        raise ValueError(
            f"positions: an array must have shape ({len(labels)}, 2) or ({len(labels)}, 3) "
            f"(one row per node, in graph.nodes order), got {arr.shape}"
        )
    return list(arr)

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
* Errors. Anything unusable in the graph or framework raises :class:`ValueError`
  (never a :class:`TypeError`, an :class:`OverflowError` or a numpy message) naming
  the vertex, node, edge or angle (by *their* label, quoted short) before any array
  is built: a framework neither 2-D nor 3-D, a self-loop, a position missing, not
  numbers, too big for a float, not finite or of the wrong dimension, a positions
  array of the wrong shape, a ``"pinned"`` flag that is not true or false, fixed
  angles that are not label triples, a rod of zero length or too long (the model's
  bounds), an angle with an arm of zero length. A ``graph`` that is not a networkx
  graph at all is a :class:`TypeError`.

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

from .. import _checks
from .._linkage_checks import degenerate_angle
from ..errors import quoted
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
        raise ValueError(f"{where}: position {quoted(value)} is not a tuple of numbers") from None
    except OverflowError:  # an int beyond float64
        raise ValueError(f"{where}: position {quoted(value)} is too big for a float") from None
    if len(coords) != dim:
        raise ValueError(
            f"{where}: position {quoted(value)} must have {dim} coordinates, got {len(coords)}"
        )
    if not all(math.isfinite(c) for c in coords):
        raise ValueError(f"{where}: position {quoted(tuple(coords))} is not finite")
    return tuple(coords)


def _arrays(
    labels: Sequence[Hashable],
    points: Sequence[tuple[float, ...]],
    edges: Sequence[tuple[Hashable, Hashable]],
    pinned: Sequence[Hashable] = (),
    angles: Sequence[Sequence[Hashable]] = (),
    dim: int = 2,
) -> LinkageData:
    """Plain arrays from labelled items, or a ValueError naming the labels.

    Refused: a self-loop, an unknown label, an angle that is not a triple, a rod of
    unusable length, an angle arm of zero length.
    """
    index = {v: i for i, v in enumerate(labels)}
    for u, v in edges:
        if u == v:
            raise ValueError(
                f"edge ({quoted(u)}, {quoted(v)}) is a self-loop: a rod needs two distinct joints"
            )

    def idx(label: Hashable, what: str) -> int:
        try:
            return index[label]
        except (KeyError, TypeError):  # TypeError: an unhashable label is in no graph
            raise ValueError(
                f"{what} names vertex {quoted(label)}, which is not in the graph"
            ) from None

    rods = [(idx(u, "an edge"), idx(v, "an edge")) for u, v in edges]
    tri = [tuple(idx(v, "a fixed angle") for v in a) for a in _triples(angles)]
    data = LinkageData(
        np.array(points, dtype=np.float64).reshape(-1, dim),
        np.array([idx(v, "a pin") for v in pinned], dtype=np.int64),
        np.array(rods, dtype=np.int64).reshape(-1, 2),
        np.array(tri, dtype=np.int64).reshape(-1, 3),
    )
    _check_geometry(data, labels)
    return data


def _triples(angles: Any) -> list[tuple[Hashable, ...]]:
    """The fixed angles as label triples, or ValueError naming the one that is not a triple."""
    try:
        items = list(angles)
    except TypeError:
        raise ValueError(
            f"fixed angles must be a list of (apex, j, k) label triples, got {quoted(angles)}"
        ) from None
    out = []
    for a in items:
        try:
            triple = tuple(a)
        except TypeError:
            triple = ()
        if len(triple) != 3:
            raise ValueError(f"fixed angle {quoted(a)} is not an (apex, j, k) label triple")
        out.append(triple)
    return out


def _check_geometry(data: LinkageData, labels: Sequence[Hashable]) -> None:
    """The model's rod-length and angle-arm checks, naming the edge or angle by its labels."""
    ends = data.rods
    lengths = _checks.row_norms(data.vertices[ends[:, 0]] - data.vertices[ends[:, 1]])
    bad = _checks.first_bad_rod_length(lengths)
    if bad is not None:
        i, j = ends[bad].tolist()
        try:
            edge = f"({quoted(labels[i])}, {quoted(labels[j])})"
            _checks.rod_length(lengths[bad], f"rod {bad} ({i}-{j}), the edge {edge},")
        except ValueError as exc:
            raise ValueError(str(exc)) from None
    for i, j, k in data.angles.tolist():
        why = degenerate_angle(data.vertices, i, j, k) if len({i, j, k}) == 3 else None
        if why is not None:
            names = ", ".join(quoted(labels[v]) for v in (i, j, k))
            raise ValueError(f"fixed angle ({names}): {why} (joint numbers {i}, {j}, {k})")


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
        The linkage's arrays; pins are dropped (PyRigi has none), and so are the members'
        kinds: a cable or strut becomes a plain edge (a PyRigi framework is a bar framework).
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
        Anything unusable in it (module docstring, "Errors"): a multigraph, a
        self-loop, a node without a position, a position that is not a finite pair
        (or triple), an array of the wrong shape, a bad ``"pinned"`` flag or angle, a
        rod of zero length; the message names the node, edge or angle.
    TypeError
        ``graph`` is not a networkx graph.
    """
    if not callable(getattr(graph, "is_multigraph", None)):
        raise TypeError(f"expected a networkx graph, got {type(graph).__name__}")
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
    pins = [v for v, flag in graph.nodes(data="pinned") if _flag(v, flag)]
    angles = graph.graph.get("angles", ())
    return _arrays(labels, points, [(u, v) for u, v, _ in edges], pins, angles, dim), labels


def _flag(node: Hashable, flag: Any) -> bool:
    """A node's ``"pinned"`` attribute as a bool (a numpy array of several is neither)."""
    try:
        return bool(flag)
    except (TypeError, ValueError):
        raise ValueError(
            f"node {quoted(node)}: 'pinned' must be true or false, got {quoted(flag)}"
        ) from None


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
    try:
        arr = np.asarray(positions, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # not numbers, ragged rows, beyond float64
        raise ValueError(f"positions: {_bad_row(positions, labels)}") from None
    if arr.ndim != 2 or arr.shape[0] != len(labels) or arr.shape[1] not in DIMENSIONS:
        raise ValueError(
            f"positions: an array must have shape ({len(labels)}, 2) or ({len(labels)}, 3) "
            f"(one row per node, in graph.nodes order), got {arr.shape}"
        )
    return list(arr)


def _bad_row(positions: Any, labels: Sequence[Hashable]) -> str:
    """What is wrong with a positions array numpy cannot read, naming the first bad row's node."""
    shape = f"({len(labels)}, 2) or ({len(labels)}, 3)"
    try:
        rows = list(positions)
    except TypeError:
        rows = None
    if rows is None or isinstance(positions, str | bytes):
        return f"expected a mapping node -> (x, y) or an {shape} array, got {quoted(positions)}"
    width = None
    for i, (node, row) in enumerate(zip(labels, rows, strict=False)):
        try:
            point = np.asarray(row, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError, OverflowError):
            what = "not a row of numbers (each within float64)"
            return f"row {i} (node {quoted(node)}) is {quoted(row)}, {what}"
        width = len(point) if width is None else width
        if len(point) != width:
            return f"row {i} (node {quoted(node)}) has {len(point)} coordinates, row 0 has {width}"
    return f"expected an {shape} array of numbers, got {quoted(positions)}"

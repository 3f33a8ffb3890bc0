"""The linkage model: joints, rods (cables, struts), angles, pins, sliders, slots; editing.

A linkage lives in the plane (``dim == 2``, the 2007 program's world) or in space
(``dim == 3``). A :class:`Linkage` is plain data plus editing; constraints, motion and
drawing read it. Files go through :mod:`.io` (plain arrays, every line checked); checks
are :mod:`._checks`' and :mod:`._linkage_checks`', sliders and slots :mod:`.guides`',
the members' kinds :mod:`.rod_kinds`'.

Notation (across the package): ``p`` = ``vertices``/``positions``, ``(n, d)`` float64,
world units, y up; ``(i, j)`` a rod; ``(i, j, k)`` a fixed angle at apex ``i`` between
``i-j`` and ``i-k``; ``pinned`` the joints held where they are; a slider holds a joint on
a fixed line, a slot ``(a, b, c)`` joint ``c`` on the line through ``a`` and ``b``.
"""

from __future__ import annotations

from collections.abc import Iterable
from os import PathLike
from typing import Any

import numpy as np

from . import _checks, _linkage_checks
from ._checks import MAX_ROD_LENGTH, MIN_ROD_LENGTH
from .element_masses import ElementMasses
from .errors import LinkageFormatError
from .guides import Guides, Slider
from .io import (
    LinkageData,
    exchange,
    format_linkage,
    parse_linkage,
    parse_linkage_bytes,
    read_guides,
    read_linkage,
    save_linkage,
)
from .rod_kinds import RodKinds, kind_code

# MIN_ROD_LENGTH and MAX_ROD_LENGTH live in _checks (below the file format, which
# refuses the same rods with a line number); they are re-exported here.
__all__ = ["Linkage", "MIN_ROD_LENGTH", "MAX_ROD_LENGTH"]


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


class Linkage:
    """A linkage: vertices (joints), rods, fixed angles and pinned vertices, in 2-D or 3-D.

    Parameters
    ----------
    vertices : array_like, shape (n, 2) or (n, 3)
        Joint positions in world units (y up). Two columns make a planar linkage,
        three a spatial one (:attr:`dim`); a linkage is never mixed.
    rods : iterable of (i, j)
        Rods between distinct vertices. Each unordered pair at most once; a rod
        keeps the vertex order it was given (so files round-trip exactly).
    angles : iterable of (i, j, k)
        Fixed angles: the angle at apex ``i`` between rods ``i-j`` and ``i-k``
        is held at its current value. Both rods must exist. In the plane the
        angle is signed (a turn); in space it is the unsigned angle in
        ``[0, pi]`` between the two rods.
    pinned : iterable of int
        Vertices held at their current position.
    dim : {2, 3}, optional
        The dimension, needed only for a linkage without vertices (default 2);
        with vertices it must agree with their number of columns.
    sliders : iterable of (j, (x, y), (dx, dy))
        Joint ``j`` stays on the fixed line through ``(x, y)`` along ``(dx, dy)`` (it
        must lie on it; not pinned). Planar only (:mod:`linkage_widget.guides`).
    slots : iterable of (a, b, c)
        Joint ``c`` stays on the line through joints ``a`` and ``b`` (a pin in a slot).
    cables, struts : iterable of (i, j)
        Members that may only shorten (cables) or only lengthen (struts): a tensegrity.
        They follow ``rods`` in :attr:`rods` (cables, then struts); :attr:`rod_kinds`.

    Raises
    ------
    ValueError
        On any inconsistency (non-finite coordinates, index out of range, a zero-length or
        repeated rod, a zero angle arm, a repeated angle or pin, a bad slider or slot).

    Examples
    --------
    >>> link = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (0, 2)])
    >>> link.add_rod(1, 2, kind="cable")
    2
    >>> link.add_angle(0, 1, 2)
    0
    >>> link.remove_rod(0)      # the angle stays: a fixed angle needs no rods
    >>> link.angles.tolist()
    [[0, 1, 2]]
    >>> Linkage([[0, 0], [1, 0]], rods=[(0, 1)], sliders=[(1, (0, 0), (1, 0))])
    Linkage(2 vertices, 1 rods, 0 fixed angles, 0 pinned, 1 sliders, 0 slots)
    """

    def __init__(
        self,
        vertices: Any = None,
        rods: Iterable[Any] = (),
        angles: Iterable[Any] = (),
        pinned: Iterable[Any] = (),
        *,
        dim: int | None = None,
        sliders: Iterable[Any] = (),
        slots: Iterable[Any] = (),
        cables: Iterable[Any] = (),
        struts: Iterable[Any] = (),
    ) -> None:
        self._vertices = _linkage_checks.vertex_array(vertices, dim)
        parts = [_linkage_checks.as_index_array(r, 2, w) for r, w in
                 ((rods, "rods"), (cables, "cables"), (struts, "struts"))]  # fmt: skip
        self._rods = np.concatenate(parts)
        self._angles = _linkage_checks.as_index_array(angles, 3, "angles")
        pins = np.asarray(list(pinned) if not isinstance(pinned, np.ndarray) else pinned)
        self._pinned = pins.astype(np.int64).reshape(-1)
        self.validate()
        self._masses = ElementMasses(self.n_vertices, self.n_rods)
        self._guides = Guides.build(sliders, slots, self._vertices, self._pinned)
        self._kinds = RodKinds.build(*(len(part) for part in parts))

    # ------------------------------------------------------------------ data
    @property
    def dim(self) -> int:
        """The dimension: 2 for a planar linkage, 3 for a spatial one."""
        return int(self._vertices.shape[1])

    @property
    def vertices(self) -> np.ndarray:
        """Joint positions, shape ``(n, dim)``; a read-only view (use :meth:`set_positions`)."""
        return _read_only(self._vertices)

    @property
    def rods(self) -> np.ndarray:
        """Rods as vertex pairs, shape ``(m, 2)`` int64 (read-only view)."""
        return _read_only(self._rods)

    @property
    def angles(self) -> np.ndarray:
        """Fixed angles as ``(apex, j, k)`` triples, shape ``(k, 3)`` int64 (read-only)."""
        return _read_only(self._angles)

    @property
    def pinned(self) -> np.ndarray:
        """Pinned vertex indices in the order they were pinned, shape ``(q,)`` (read-only)."""
        return _read_only(self._pinned)

    @property
    def masses(self) -> ElementMasses:
        """The joints' and rods' own masses (:mod:`linkage_widget.element_masses`), editable."""
        return self._masses

    @property
    def sliders(self) -> tuple[Slider, ...]:
        """Sliders ``Slider(joint, point, direction)`` (direction a unit vector)."""
        return self._guides.sliders

    @property
    def slots(self) -> np.ndarray:
        """Slots ``(a, b, c)``, int64 ``(t, 3)``: joint ``c`` on the line through ``a``, ``b``."""
        return self._guides.slots

    @property
    def guides(self) -> Guides:
        """The sliders and slots as arrays (:class:`~linkage_widget.guides.Guides`; read it)."""
        return self._guides

    @property
    def rod_kinds(self) -> np.ndarray:
        """Kind of each rod, ``(m,)`` str: ``'rod'``, ``'cable'`` or ``'strut'`` (a copy)."""
        return self._kinds.names()

    @property
    def n_vertices(self) -> int:
        """Number of vertices ``n``."""
        return int(self._vertices.shape[0])

    @property
    def n_rods(self) -> int:
        """Number of rods ``m``."""
        return int(self._rods.shape[0])

    @property
    def n_angles(self) -> int:
        """Number of fixed angles."""
        return len(self._angles)

    def rod_lengths(self) -> np.ndarray:
        """Current rod lengths :math:`L_{ij} = |p_i - p_j|`, shape ``(m,)``."""
        with np.errstate(over="ignore", invalid="ignore"):
            d = self._vertices[self._rods[:, 0]] - self._vertices[self._rods[:, 1]]
            return _checks.row_norms(d)

    def angle_values(self) -> np.ndarray:
        r"""Current angles ``(k,)``: :math:`\operatorname{atan2}(a \times b, a \cdot b)`, signed.

        :math:`a = p_j - p_i`, :math:`b = p_k - p_i`; in space :math:`|a \times b|`, in [0, pi].
        """
        return _linkage_checks.angles_at(self._vertices, self._angles)

    def find_rod(self, i: int, j: int) -> int | None:
        """Index of the rod joining ``i`` and ``j`` (either order), or ``None``."""
        r = self._rods
        hit = np.flatnonzero(((r[:, 0] == i) & (r[:, 1] == j)) | ((r[:, 0] == j) & (r[:, 1] == i)))
        return int(hit[0]) if hit.size else None

    def find_angle(self, i: int, j: int, k: int) -> int | None:
        """Index of the fixed angle at apex ``i`` between rods to ``j`` and ``k``, or ``None``."""
        a = self._angles
        arms = ((a[:, 1] == j) & (a[:, 2] == k)) | ((a[:, 1] == k) & (a[:, 2] == j))
        hit = np.flatnonzero((a[:, 0] == i) & arms)
        return int(hit[0]) if hit.size else None

    def neighbors(self, i: int) -> np.ndarray:
        """Vertices joined to ``i`` by a rod, in rod order."""
        r = self._rods
        return np.concatenate([r[r[:, 0] == i, 1], r[r[:, 1] == i, 0]])

    def is_pinned(self, i: int) -> bool:
        """Whether vertex ``i`` is pinned."""
        return bool(np.any(self._pinned == i))

    # ------------------------------------------------------------ validation
    def validate(self) -> None:
        """Check every invariant; raise ``ValueError`` naming the first violation."""
        _checks.finite_points(self._vertices, "vertex", dims=(self.dim,))
        _linkage_checks.check_indices(self._rods, self._angles, self._pinned, self.n_vertices)
        _linkage_checks.check_rods(self._rods, self.rod_lengths())
        _linkage_checks.check_angles(self._angles, self._vertices)

    # --------------------------------------------------------------- editing
    def _check_vertex(self, i: Any) -> int:
        return _linkage_checks.editing_index(i, self.n_vertices, "vertex", "vertices")

    def set_positions(self, positions: Any) -> None:
        """Replace all vertex positions (shape ``(n, dim)``, finite)."""
        pos = np.asarray(positions, dtype=np.float64)
        if pos.shape != self._vertices.shape:
            raise ValueError(f"positions must have shape {self._vertices.shape}, got {pos.shape}")
        self._vertices = _checks.finite_points(pos, "position", dims=(self.dim,)).copy()
        self._guides.follow(self._vertices)

    def move_vertex(self, i: int, xy: Any) -> None:
        """Move one vertex to ``xy`` (``(x, y[, z])``; editing: constraints are not enforced)."""
        i = self._check_vertex(i)
        new = self._vertices.copy()
        new[i] = _checks.finite_point(xy, "position", self.dim)
        _linkage_checks.check_placement(new, i, self._rods, self._angles)
        self._guides.check_placement(new, i)
        self._vertices = new
        self._guides.follow(new)  # a slider's line goes with its joint

    def add_vertex(self, *xy: Any) -> int:
        """Append a vertex at ``(x, y[, z])``, given as numbers or one tuple; return its index."""
        what = f"vertex position (this linkage is {self.dim}-D)"
        xy = _checks.finite_point(xy[0] if len(xy) == 1 else xy, what, self.dim)
        self._vertices = np.vstack([self._vertices, xy[None, :]])
        self._masses.add_vertex()
        return self.n_vertices - 1

    def remove_vertex(self, i: int) -> None:
        """Remove vertex ``i`` with its rods, angles and pin; renumber the rest."""
        i = self._check_vertex(i)
        keep_rod = ~np.any(self._rods == i, axis=1)
        keep_angle = ~np.any(self._angles == i, axis=1)
        self._vertices = np.delete(self._vertices, i, axis=0)
        self._masses.remove_vertex(i, keep_rod)
        self._kinds.remove_vertex(keep_rod)
        self._rods = self._rods[keep_rod]
        self._rods = self._rods - (self._rods > i)
        self._angles = self._angles[keep_angle]
        self._angles = self._angles - (self._angles > i)
        pins = self._pinned[self._pinned != i]
        self._pinned = pins - (pins > i)
        self._guides.remove_vertex(i)

    def add_rod(self, i: int, j: int, kind: str = "rod") -> int:
        """Add a rod (or a ``kind="cable"`` or ``"strut"``) between ``i`` and ``j``; its index.

        Raises ``ValueError`` if the rod exists already, ``i == j``, the vertices
        coincide (a zero-length rod) or the kind is unknown.
        """
        i, j = self._check_vertex(i), self._check_vertex(j)
        kind_code(kind, f"rod {i}-{j}")
        _linkage_checks.check_new_rod(self._vertices, i, j, self.find_rod(i, j))
        self._rods = np.vstack([self._rods, [[i, j]]])
        self._masses.add_rod()
        self._kinds.add_rod(kind)
        return self.n_rods - 1

    def set_rod_kind(self, r: int, kind: str) -> None:
        """Make rod ``r`` a ``"rod"``, a ``"cable"`` or a ``"strut"`` (:mod:`.rod_kinds`)."""
        r = _linkage_checks.editing_index(r, self.n_rods, "rod", "rods")
        self._kinds.set(r, kind)

    def remove_rod(self, r: int) -> None:
        """Remove rod ``r``; fixed angles stay (a fixed angle needs no rods, see add_angle)."""
        r = _linkage_checks.editing_index(r, self.n_rods, "rod", "rods")
        self._rods = np.delete(self._rods, r, axis=0)
        self._masses.remove_rod(r)
        self._kinds.remove_rod(r)

    def add_angle(self, i: int, j: int, k: int) -> int:
        r"""Fix the angle at apex ``i`` between the arms ``i-j`` and ``i-k``; return its index.

        The arms need not be rods: one constraint on three joints (:mod:`.constraints`).
        With both rods it makes a rigid joint; without them ``j`` and ``k`` may slide along
        their arms, the angle held (the 2007 page). An arm of length zero: ``ValueError``.
        """
        i, j, k = (self._check_vertex(v) for v in (i, j, k))
        _linkage_checks.check_new_angle(self._vertices, (i, j, k), self.find_angle(i, j, k))
        self._angles = np.vstack([self._angles, [[i, j, k]]])
        return self.n_angles - 1

    def remove_angle(self, a: int) -> None:
        """Remove fixed angle ``a``."""
        a = _linkage_checks.editing_index(a, self.n_angles, "angle", "angles")
        self._angles = np.delete(self._angles, a, axis=0)

    def add_slider(self, j: int, direction: Any, *, point: Any = None) -> int:
        """Make joint ``j`` slide on the line along ``direction`` through ``point`` (or it)."""
        return self._guides.add_slider(j, direction, point, self._vertices, self._pinned)

    def add_slot(self, a: int, b: int, c: int) -> int:
        """Hold joint ``c`` on the line through joints ``a`` and ``b``; return the slot's index."""
        return self._guides.add_slot(a, b, c, self._vertices)

    def remove_guide(self, kind: str, index: int) -> None:
        """Remove slider (``kind="slider"``) or slot (``"slot"``) ``index``; the joints stay."""
        self._guides.remove(kind, index)

    def pin(self, i: int) -> None:
        """Pin vertex ``i`` at its current position (no-op if pinned; a sliding joint refuses)."""
        i = self._check_vertex(i)
        self._guides.check_pin(i)
        if not self.is_pinned(i):
            self._pinned = np.append(self._pinned, i)

    def unpin(self, i: int) -> None:
        """Unpin vertex ``i`` (no-op if not pinned)."""
        i = self._check_vertex(i)
        self._pinned = self._pinned[self._pinned != i]

    def toggle_pin(self, i: int) -> bool:
        """Pin or unpin vertex ``i``; return whether it is pinned afterwards."""
        (self.unpin if self.is_pinned(i) else self.pin)(i)
        return self.is_pinned(i)

    def split_rod(self, r: int) -> int:
        """Split rod ``r`` at its midpoint into two of its kind; return the new vertex.

        Fixed angles on the rod keep their meaning: the arm ends at the midpoint, on its ray.
        """
        r = _linkage_checks.editing_index(r, self.n_rods, "rod", "rods")
        i, j = (int(v) for v in self._rods[r])
        mid = self.add_vertex(0.5 * (self._vertices[i] + self._vertices[j]))
        _linkage_checks.move_arms(self._angles, i, j, mid)
        self._rods[r] = (i, mid)
        self._rods = np.vstack([self._rods, [[mid, j]]])
        self._masses.split_rod(r)
        self._kinds.split_rod(r)
        return mid

    def clear(self) -> None:
        """Remove everything (the dimension stays)."""
        self._vertices = np.empty((0, self.dim))
        self._rods = np.empty((0, 2), dtype=np.int64)
        self._angles = np.empty((0, 3), dtype=np.int64)
        self._pinned = np.empty((0,), dtype=np.int64)
        self._masses.clear()
        self._guides.clear()
        self._kinds.clear()

    def copy(self) -> Linkage:
        """An independent deep copy."""
        out = Linkage(dim=self.dim)
        out.replace_with(self)
        return out

    def replace_with(self, other: Linkage) -> None:
        """Take over the state of ``other`` (a copy), in one step."""
        self._vertices = other._vertices.copy()
        self._rods = other._rods.copy()
        self._angles = other._angles.copy()
        self._pinned = other._pinned.copy()
        self._masses, self._guides = other._masses.copy(), other._guides.copy()
        self._kinds = other._kinds.copy()

    # ----------------------------------------------------------- comparison
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Linkage):
            return NotImplemented
        return (
            np.array_equal(self._vertices, other._vertices)
            and np.array_equal(self._rods, other._rods)
            and np.array_equal(self._angles, other._angles)
            and np.array_equal(self._pinned, other._pinned)
            and self._masses == other._masses
            and self._guides == other._guides
            and self._kinds == other._kinds
        )

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        space = "3-D, " if self.dim == 3 else ""  # a planar repr reads as it always did
        g = self._guides  # and so does a linkage without sliders or slots
        more = "" if g.is_empty() else f", {g.n_sliders} sliders, {g.n_slots} slots"
        if not self._kinds.is_plain():  # a bar framework's repr reads as it always did
            more += f", {len(self._kinds.indices('cable'))} cables, "
            more += f"{len(self._kinds.indices('strut'))} struts"
        return (
            f"Linkage({space}{self.n_vertices} vertices, {self.n_rods} rods, "
            f"{self.n_angles} fixed angles, {len(self._pinned)} pinned{more})"
        )

    # ------------------------------------------------------------------- I/O
    # The 2007 format is io.text2007's: it parses to and formats from plain arrays
    # (LinkageData), with every check of the file and its line; the model only wraps them.
    @classmethod
    def _from_data(cls, data: LinkageData, source: str) -> Linkage:
        try:  # the codec refuses all but the sibling's guides and kinds first, by line
            out = cls(
                data.vertices, rods=data.rods, angles=data.angles, pinned=data.pinned,
                dim=data.dim, sliders=data.sliders, slots=data.slots,
            )  # fmt: skip
            out._kinds = RodKinds.from_names(data.kinds, out.n_rods)
            return out
        except ValueError as exc:
            raise LinkageFormatError(str(exc), source) from exc

    def _to_data(self) -> LinkageData:
        slots = tuple(tuple(t) for t in self._guides.slots.tolist())
        kinds = () if self._kinds.is_plain() else tuple(self._kinds.names().tolist())
        return LinkageData(
            self._vertices, self._pinned, self._rods, self._angles, self.sliders, slots, kinds
        )

    @classmethod
    def loads(cls, text: str, *, source: str = "<string>") -> Linkage:
        """Parse the 2007 program's text format (see :mod:`linkage_widget.io.text2007`)."""
        return cls._from_data(parse_linkage(text, source=source), source)

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "<bytes>") -> Linkage:
        """Parse the bytes of a 2007-format file (UTF-8, a BOM allowed), as an upload gives them."""
        return cls._from_data(parse_linkage_bytes(data, source=source), source)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Linkage:
        """Read a linkage file; a bare name that is not a file falls back to the bundled examples.

        Sliders and slots come from the JSON sibling ``<path>.json`` when it has them.

        Examples
        --------
        >>> Linkage.load("peaucellier.txt").n_vertices
        6
        """
        return cls._from_data(*read_guides(path, read_linkage(path)))

    def dumps(self) -> str:
        """The linkage in the 2007 program's text format, floats at full precision."""
        return format_linkage(self._to_data())

    def save(self, path: str | PathLike[str]) -> None:
        """Write the linkage atomically (temporary file in the same folder, then rename).

        Sliders and slots, which the 2007 format cannot hold, go into ``<path>.json``.
        """
        save_linkage(self._to_data(), path)

    # ------------------------------------------------------------- exchange (io.exchange's)
    @classmethod
    def from_pyrigi(cls, framework: Any, *, return_labels: bool = False) -> Any:
        """A PyRigi framework's linkage (joint ``i``: ``vertex_list()[i]``; labels on request)."""
        data, labels = exchange.from_pyrigi(framework)
        link = cls(data.vertices, rods=data.rods)
        return (link, labels) if return_labels else link

    def to_pyrigi(self, labels: Any = None) -> Any:
        """A ``pyrigi.Framework`` of the rods (exact; no pins or guides; angles raise)."""
        return exchange.to_pyrigi(self._to_data(), labels)

    def to_networkx(self, labels: Any = None) -> Any:
        """A ``networkx.Graph``: nodes' ``pos``, ``pinned``; angles in ``graph``; guides dropped."""
        return exchange.to_networkx(self._to_data(), labels)

    @classmethod
    def from_networkx(cls, graph: Any, positions: Any = None) -> Linkage:
        """A networkx graph's linkage at ``positions`` (default ``pos``; joint i: i-th node)."""
        data, _ = exchange.from_networkx(graph, positions)
        return cls(data.vertices, rods=data.rods, angles=data.angles, pinned=data.pinned)

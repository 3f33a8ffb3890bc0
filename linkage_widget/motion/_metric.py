r"""The mass-weighted metric as the steppers need it: diagonal weights and the rows that tie them.

The consistent mass matrix :math:`M` of :mod:`linkage_widget.mass` is not diagonal
for :math:`\alpha > 0`, but it is diagonal in an enlarged set of unknowns: the
vertex particles :math:`m_v` plus one particle :math:`2\mu/3` at the middle of
each rod, tied to the rod's ends by linear rows
:math:`x_{mid} = (v_i + v_j)/2` (a rod with its own mass: its particle :math:`w` at
:math:`u` along it, :math:`x = (1-u) v_i + u v_j`;
:func:`~linkage_widget.mass.equivalent_particles`). Dampers between vertices become extra
unknowns the same way, :math:`x_{ij} = e_{ij}\cdot(v_i - v_j)`, with weight
:math:`\tfrac h2 c_{ij}` (the velocity stage of a damped RATTLE step). With

.. math:: C = \begin{pmatrix} A(p) & 0 \\ G(p) & -I \end{pmatrix}, \qquad
          W = \operatorname{diag}(m_v \otimes 1_d,\; m_{mid},\; m_{mid},\; \dots) / \bar m,

every motion solve is the program of :mod:`linkage_widget.motion._linalg`
(:math:`\bar m` is the mean vertex particle mass, so a free vertex has unit
weight: the tolerances are in these normalised units).

:class:`Metric` holds the mass data for one :math:`(\alpha, m)`;
:class:`Factoriser` assembles :math:`C` at a placement and factorises it, keeping
one :class:`~linkage_widget.motion._linalg.SchurPattern` per layout of extra
unknowns (:class:`Layout`).

>>> from linkage_widget import Linkage
>>> rod = Linkage([[0, 0], [2, 0]], rods=[(0, 1)])
>>> metric = Metric.build(rod, rod.rod_lengths(), np.zeros(2, bool), 1.0, 6.0)
>>> metric.layout, metric.weights.tolist()   # vertices (x, y), then the middle's x and y
(Layout(middles=True, dampers=(), places=b''), [1.0, 1.0, 1.0, 1.0, 4.0, 4.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._checks import row_norms
from ..constraints import ConstraintSet
from ..mass import equivalent_particles, mass_matrix
from ..model import Linkage
from ._linalg import ConstrainedFactor, SchurPattern
from .tolerances import LIGHT_PINNED, NEGLIGIBLE_ROD_MASS

__all__ = ["Factoriser", "Layout", "Metric", "pack_places", "unit_vectors"]

#: CSR rows ``(indptr, indices, data)``.
Rows = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Layout:
    """Which extra unknowns a metric has: rod particles, and dampers ``(i, j)``.

    ``places``: empty when every rod has its particle at its middle (the mass
    distribution alone); else the rods that have one and where, packed
    (:func:`pack_places`; bytes: hashed once, so a layout stays a cheap dict key).
    """

    middles: bool
    dampers: tuple[tuple[int, int], ...] = ()
    places: bytes = b""


@dataclass(frozen=True, eq=False)
class Metric:
    r"""Mass data for one :math:`(\alpha, m)`, as the steppers use it.

    Attributes
    ----------
    alpha, total_mass : float
        The mass distribution and total mass it was built for.
    matrix : scipy.sparse.csr_array, shape (dn, dn)
        The consistent mass matrix :math:`M`.
    weight : ndarray, shape (dn,)
        :math:`M e_{up}`, the mass per unit height: gravity's generalised force is
        :math:`-g\,M e_{up}`. Up is :math:`y` in the plane and :math:`z` in space
        (the 3-D view draws :math:`z` up).
    vertex, middle : ndarray, shapes (n,) and (m,)
        Vertex and rod-middle particle masses.
    norm : float
        :math:`\bar m`, the mean vertex particle mass (weights are divided by it).
    weights : ndarray
        Normalised diagonal :math:`W`: vertex particles, then (when the rods carry
        mass) the rod middles' x, then their y.
    layout : Layout
        The extra unknowns of ``weights``.
    """

    alpha: float
    total_mass: float
    matrix: sp.csr_array
    weight: np.ndarray
    vertex: np.ndarray
    middle: np.ndarray
    norm: float
    weights: np.ndarray
    layout: Layout

    @classmethod
    def build(
        cls,
        linkage: Linkage,
        lengths: np.ndarray,
        pinned: np.ndarray,
        alpha: float,
        total_mass: float,
    ) -> Metric:
        """The metric of ``linkage`` with rod ``lengths``; ``pinned`` is a boolean mask ``(n,)``."""
        n, d = linkage.n_vertices, linkage.dim
        matrix = mass_matrix(linkage, alpha, total_mass, lengths=lengths)
        vertex, middle, at, own = equivalent_particles(linkage, alpha, total_mass, lengths=lengths)
        e_up = np.zeros(d * n)
        e_up[d - 1 :: d] = 1.0  # the last axis is up: y in the plane, z in space
        norm = float(np.mean(vertex)) if n else 1.0
        weights = np.repeat(vertex, d)
        # A pinned joint never moves, so its weight changes no motion; a nearly massless
        # one (its only rod short, all mass in the rods) would only make S ill-conditioned.
        light = np.repeat(pinned, d) & (weights < LIGHT_PINNED * norm)
        weights[light] = norm
        # Rods of the distribution carry their middle particle only when it is not negligible.
        carry = np.where(own, middle > 0.0, alpha > NEGLIGIBLE_ROD_MASS)
        if carry.all() and np.all(at == 0.5) and len(lengths):
            # x rows of all middles, then y rows (then z; see Factoriser.extra_rows)
            weights, layout = np.concatenate([weights, *[middle] * d]) / norm, Layout(True)
        elif carry.any():
            places = pack_places(np.flatnonzero(carry), at[carry])
            parts = [weights, *[middle[carry]] * d]
            weights, layout = np.concatenate(parts) / norm, Layout(True, places=places)
        else:
            weights, layout = weights / norm, Layout(False)
        return cls(alpha, total_mass, matrix, matrix @ e_up, vertex, middle, norm, weights, layout)


class Factoriser:
    r"""Assembles :math:`C` at a placement and factorises its Schur complement.

    The sparsity of :math:`C` depends only on the layout of extra unknowns, so one
    :class:`~linkage_widget.motion._linalg.SchurPattern` per layout is kept, and the
    rows :math:`G` of rod middles (constant) are built once.
    """

    def __init__(self, constraints: ConstraintSet) -> None:
        self._cs = constraints
        self._patterns: dict[Layout, SchurPattern] = {}
        self._extra_cache: dict[Layout, Rows] = {}
        self._inverse: tuple[np.ndarray | None, np.ndarray] = (None, np.zeros(0))

    def sharing(self, constraints: ConstraintSet) -> Factoriser:
        """A factoriser of ``constraints`` (rows of the same pattern) sharing these patterns."""
        out = Factoriser(constraints)
        out._patterns, out._extra_cache = self._patterns, self._extra_cache
        return out

    def factor(
        self, p: np.ndarray, weights: np.ndarray, layout: Layout, norm: float
    ) -> ConstrainedFactor:
        """Factorise the program at ``p`` (shape ``(dn,)``) for ``weights`` of ``layout``."""
        a_mat = self._cs.jacobian(p)  # fixed CSR layout: only the data changes with p
        n_a, n_v = a_mat.shape
        g_indptr, g_indices, g_data = self.extra_rows(p, layout)
        data = np.concatenate([a_mat.data, g_data])
        pattern = self._patterns.get(layout)
        if pattern is None:
            indptr = np.concatenate([a_mat.indptr, a_mat.indptr[-1] + g_indptr[1:]])
            indices = np.concatenate([a_mat.indices, g_indices])
            shape = (n_a + len(g_indptr) - 1, len(weights))
            pattern = self._patterns[layout] = SchurPattern(indptr, indices, *shape)
        if self._inverse[0] is not weights:  # the mass weights repeat every step
            self._inverse = (weights, 1.0 / weights)
        return ConstrainedFactor(pattern, data, self._inverse[1], norm, n_v, n_a)

    def extra_rows(self, p: np.ndarray, layout: Layout) -> Rows:
        r"""CSR ``(indptr, indices, data)`` of the rows :math:`G v - x_{extra} = 0`.

        Middle particle of rod (i, j): :math:`(v_i + v_j)/2` (x rows, then y (, z) rows).
        Damper (i, j): :math:`e \cdot (v_i - v_j)`. Each row ends with the -1 of its
        own extra unknown, whose column (after the ``dn`` vertex columns) is larger
        than any vertex column, so the indices stay sorted.
        """
        if not layout.dampers and layout in self._extra_cache:
            return self._extra_cache[layout]
        blocks = self._extra_blocks(p, layout)
        out = _stack_rows(blocks, len(p))
        if not layout.dampers:  # damper rows turn with the placement
            self._extra_cache[layout] = out
        return out

    def _extra_blocks(self, p: np.ndarray, layout: Layout) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(columns, values)`` per kind of extra row, each of shape ``(rows, width)``."""
        blocks = []
        if layout.middles:
            rods, shares = _middle_rows(self._cs.rods, layout.places)
            for comp in range(self._cs.dim):
                blocks.append((self._cs.dim * rods + comp, shares))
        if layout.dampers:
            pairs = np.array(layout.dampers, dtype=np.int64).reshape(-1, 2)
            d = self._cs.dim
            e, _ = unit_vectors(p, pairs[:, 0], pairs[:, 1], d)
            lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
            # the value at the lower-numbered vertex comes first in the row
            first = np.where((pairs[:, 0] < pairs[:, 1])[:, None], e, -e)
            comp = np.arange(d)
            columns = np.hstack([d * lo[:, None] + comp, d * hi[:, None] + comp])
            blocks.append((columns, np.column_stack([first, -first])))
        return blocks


def pack_places(rods: np.ndarray, at: np.ndarray) -> bytes:
    """Rod indices ``(k,)`` and particle places ``(k,)`` as the bytes of a :class:`Layout`."""
    return np.concatenate([np.asarray(rods, np.float64), np.asarray(at, np.float64)]).tobytes()


def _middle_rows(rods: np.ndarray, places: bytes) -> tuple[np.ndarray, np.ndarray]:
    r"""The rods with a particle, vertices sorted, and the row values :math:`(1-u, u)` to match.

    Shapes ``(k, 2)`` and ``(k, 2)``; ``places`` empty: every rod, :math:`u = 1/2`.
    """
    if not places:
        return np.sort(rods, axis=1), np.full((len(rods), 2), 0.5)
    packed = np.frombuffer(places, dtype=np.float64).reshape(2, -1)
    chosen, at = rods[packed[0].astype(np.int64)], packed[1]
    shares = np.column_stack([1.0 - at, at])
    flip = chosen[:, 0] > chosen[:, 1]  # the lower-numbered vertex comes first in a row
    shares[flip] = shares[flip, ::-1]
    return np.sort(chosen, axis=1), shares


def _stack_rows(blocks: list[tuple[np.ndarray, np.ndarray]], n_v: int) -> Rows:
    """CSR rows of ``blocks``, each row closed by the -1 of its extra unknown (column ≥ ``n_v``)."""
    if not blocks:
        return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    indices, data, widths = [], [], []
    first_extra = n_v
    for idx, val in blocks:
        extra = np.arange(first_extra, first_extra + len(idx))[:, None]
        first_extra += len(idx)
        indices.append(np.hstack([idx, extra]).reshape(-1))
        data.append(np.hstack([val, -np.ones((len(val), 1))]).reshape(-1))
        widths.append(np.full(len(idx), idx.shape[1] + 1))
    indptr = np.concatenate([[0], np.cumsum(np.concatenate(widths))]).astype(np.int64)
    return indptr, np.concatenate(indices).astype(np.int64), np.concatenate(data)


def unit_vectors(
    p: np.ndarray, i: np.ndarray, j: np.ndarray, dim: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors from ``j`` to ``i`` and distances, shapes ``(k, dim)`` and ``(k,)``.

    ``p`` has shape ``(dim n,)``; coincident vertices get a zero vector.
    """
    pts = p.reshape(-1, dim)
    d = pts[i] - pts[j]
    length = row_norms(d)  # np.hypot(x, y) in the plane, bit for bit
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.where(length[:, None] > 0, d / length[:, None], 0.0)
    return e, length

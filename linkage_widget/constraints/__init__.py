r"""Residuals :math:`g(p)` and the sparse rigidity matrix :math:`A = \partial g/\partial p`.

This is the only module that knows the constraint math. Positions are stacked
:math:`p = (x_0, y_0, x_1, y_1, \dots) \in \mathbb{R}^{2n}` in the plane and
:math:`p = (x_0, y_0, z_0, x_1, \dots) \in \mathbb{R}^{3n}` in space (``d = dim``
coordinates per vertex, :attr:`ConstraintSet.dim`); every function also accepts the
``(n, d)`` form.

Rows come in the order rods, fixed angles, pins (``d`` rows per pin: x, y (, z)),
sliders and slots (one row each, planar: :mod:`.guide_rows`), then the drive rows that
a simulator adds (motors, links, holds: two rows each), so that the rows of a linkage
keep their indices.
Each row is scaled so that residuals are lengths and rows are dimensionless
with norm of order one, whatever the size of the linkage:

* rod :math:`(i, j)` with target length :math:`L`:

  .. math:: g = \frac{|p_i - p_j|^2 - L^2}{2L}, \qquad
            \nabla_{p_i} g = \frac{p_i - p_j}{L} = -\nabla_{p_j} g

  (the classical rigidity-matrix row :math:`p_i - p_j`, divided by :math:`L`);
* fixed angle :math:`(i, j, k)` with :math:`a = p_j - p_i`, :math:`b = p_k - p_i`,
  signed angle :math:`\theta = \operatorname{atan2}(a \times b,\, a \cdot b)` and
  arm scale :math:`\ell = \sqrt{|a_0||b_0|}`:

  .. math:: g = \ell\,\operatorname{wrap}(\theta - \theta_0), \quad
            \nabla_{p_j} g = \ell\,\frac{(a_y, -a_x)}{|a|^2}, \quad
            \nabla_{p_k} g = \ell\,\frac{(-b_y, b_x)}{|b|^2}, \quad
            \nabla_{p_i} g = -\nabla_{p_j} g - \nabla_{p_k} g.

  The gradient is well defined at every angle, 0° and 180° included (the 2007
  program held :math:`a \cdot b` instead, whose gradient loses rank there);
* fixed angle in space: an angle between two rods has no sign in 3-D, so the row
  holds its cosine :math:`c = \frac{a \cdot b}{|a||b|} = \cos\theta`:

  .. math:: g = \ell\,(\cos\theta_0 - c), \quad
            \nabla_{p_j} g = -\ell\,\frac{\hat b - c\,\hat a}{|a|}, \quad
            \nabla_{p_k} g = -\ell\,\frac{\hat a - c\,\hat b}{|b|}, \quad
            \nabla_{p_i} g = -\nabla_{p_j} g - \nabla_{p_k} g,

  so that :math:`g \approx \ell \sin\theta_0\,(\theta - \theta_0)` near the target.
  The row vanishes where the rods are aligned (0° or 180°): there the angle is not
  a smooth function of the positions in space (any direction away from the line
  opens it), and no row can hold it to first order;
* pin :math:`i` at anchor :math:`p_i^0`: :math:`g = p_i - p_i^0`, ``d`` unit rows;
* slider (joint on a ground line) and slot (joint on the line of two joints): the
  distance from the line, :mod:`.guide_rows`;
* motor (rheonomic, added by :meth:`ConstraintSet.with_drives`): the rod
  pivot :math:`c` → tip :math:`t`, :math:`d = p_t - p_c`, turns relative to the
  ground x-axis or to a reference rod :math:`r = p_{r_1} - p_{r_0}`,

  .. math:: g = \ell\,\operatorname{wrap}\big(\theta(d) - \theta(r)
            - \theta_0 - \omega t\big), \quad
            \nabla_{p_t} g = \ell\,\frac{(-d_y, d_x)}{|d|^2} = -\nabla_{p_c} g, \quad
            \nabla_{p_{r_1}} g = \ell\,\frac{(r_y, -r_x)}{|r|^2} = -\nabla_{p_{r_0}} g

  (:math:`\theta(r) = 0` for the ground), the same wrapped form as the fixed-angle
  row, with :math:`\ell = |d_0|` (ground) or :math:`\sqrt{|d_0||r_0|}`; its time
  derivative is :math:`\partial g/\partial t = -\ell\omega`, so allowed velocities
  satisfy :math:`A v = b` with :math:`b = \ell\omega` on motor rows;
* push (a linear drive, :class:`Push`): a slider's joint at :math:`s_0 + v t` along its
  line, :math:`g = u\cdot(p_j - P) - s_0 - v t`, so :math:`b = v` on push rows;
* temporary links and holds (friction sticking): a link is a rod row with its own
  length, a hold is a pin row. Holds are planar (a joint on the table): a 3-D set
  refuses them; motor and link rows work in space (a motor there is a hinge row).

Row scaling changes neither the null space (the infinitesimal motions) nor the
Gauss-Newton step, but it makes relative tolerances meaningful. The classical
self-stress (force density) :math:`\omega_{ij}` of a rod is the coefficient of
its scaled row divided by :math:`L` (see :mod:`linkage_widget.rigidity`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from .. import _checks
from ..model import Linkage
from ._pattern import csr_layout, layout, pattern
from .drive_rows import DriveRows, Push, hinge_angles
from .drive_rows import wrap_angle as _wrap
from .guide_rows import GuideRows
from .members import feasible_strain

__all__ = ["ConstraintSet", "DriveRows", "GuideRows", "Push", "hinge_angles", "rigidity_matrix"]
__all__ += ["as_flat", "as_points"]


def as_flat(p: Any) -> np.ndarray:
    """Positions as a flat ``(d n,)`` float64 array (``x0, y0, x1, y1, ...`` in 2-D)."""
    return np.ascontiguousarray(p, dtype=np.float64).reshape(-1)


def as_points(p: Any, dim: int = 2) -> np.ndarray:
    """Positions as an ``(n, dim)`` float64 array (``dim`` 2 in the plane, 3 in space)."""
    return np.ascontiguousarray(p, dtype=np.float64).reshape(-1, dim)


def _over_squared_norm(v: np.ndarray, arm: np.ndarray) -> np.ndarray:
    r"""``v / |arm|^2`` row by row (``(k, 2)``), and 0 where the arm has length 0.

    An arm without a rod can shrink to nothing (its joint slid onto the apex): there
    the angle has no gradient, and the row vanishes rather than turn NaN.
    """
    sq = (arm * arm).sum(axis=1, keepdims=True)
    return np.divide(v, sq, out=np.zeros_like(v), where=sq > 0.0)


def _angles_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Angles from arms ``a`` to ``b`` (``(k, d)``): signed in 2-D, in :math:`[0, \pi]` in 3-D."""
    if a.shape[1] == 3:
        return np.arctan2(_checks.row_norms(np.cross(a, b)), (a * b).sum(axis=1))
    return np.arctan2(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0], (a * b).sum(axis=1))


@dataclass(frozen=True, eq=False)
class ConstraintSet:
    r"""The constraints of a linkage with their targets, ready for fast evaluation.

    Build it with :meth:`from_linkage`; the targets (rod lengths, angles, pin
    anchors) are taken from the positions given there and never change.

    Attributes
    ----------
    n_vertices : int
    dim : int
        2 (planar) or 3 (spatial): coordinates per vertex.
    rods : ndarray, shape (m, 2)
    angles : ndarray, shape (k, 3)
    pinned : ndarray, shape (q,)
    lengths : ndarray, shape (m,)
        Target rod lengths :math:`L`.
    angle_targets : ndarray, shape (k,)
        Target angles :math:`\theta_0`: signed in 2-D, in :math:`[0, \pi]` in 3-D.
    angle_scales : ndarray, shape (k,)
        Arm scales :math:`\ell = \sqrt{|a_0||b_0|}`.
    anchors : ndarray, shape (q, dim)
        Pin positions.
    length_scale : float
        Typical length (median rod length; else the size of the drawing; else 1),
        used to make pin residuals relative.

    Examples
    --------
    >>> link = Linkage([[0, 0], [3, 4]], rods=[(0, 1)], pinned=[0])
    >>> cs = ConstraintSet.from_linkage(link)
    >>> cs.n_constraints
    3
    >>> cs.jacobian(link.vertices).toarray().round(2).tolist()
    [[-0.6, -0.8, 0.6, 0.8], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    >>> float(cs.relative_error([[0, 0], [6, 8]]))    # rod stretched to twice its length
    1.0
    """

    n_vertices: int
    rods: np.ndarray
    angles: np.ndarray
    pinned: np.ndarray
    lengths: np.ndarray
    angle_targets: np.ndarray
    angle_scales: np.ndarray
    anchors: np.ndarray
    length_scale: float
    _rows: np.ndarray = field(repr=False)
    _cols: np.ndarray = field(repr=False)
    _order: np.ndarray = field(repr=False)
    _indices: np.ndarray = field(repr=False)
    _indptr: np.ndarray = field(repr=False)
    drives: DriveRows = field(default_factory=lambda: DriveRows.none(), repr=False)
    dim: int = 2
    guides: GuideRows = field(default_factory=lambda: GuideRows.none(), repr=False)
    #: each rod's side (:mod:`.members`: +1 cable, -1 strut, 0 rod), and the rows let go
    sides: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8), repr=False)
    slack: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def from_linkage(cls, linkage: Linkage, positions: Any = None) -> ConstraintSet:
        """Constraints of ``linkage`` with targets measured at ``positions`` (default: its own)."""
        dim = linkage.dim
        p = as_points(linkage.vertices if positions is None else positions, dim)
        rods = np.array(linkage.rods, dtype=np.int64).reshape(-1, 2)
        angles = np.array(linkage.angles, dtype=np.int64).reshape(-1, 3)
        pinned = np.array(linkage.pinned, dtype=np.int64).reshape(-1)
        lengths = _checks.row_norms(p[rods[:, 0]] - p[rods[:, 1]])
        if len(angles):
            a = p[angles[:, 1]] - p[angles[:, 0]]
            b = p[angles[:, 2]] - p[angles[:, 0]]
            targets = _angles_between(a, b)
            scales = np.sqrt(_checks.row_norms(a) * _checks.row_norms(b))
        else:  # most linkages: the empty arithmetic cost a 6-joint analysis a tenth of its time
            targets, scales = np.zeros(0), np.zeros(0)
        if lengths.size:
            scale = _median(lengths)
        elif len(p) > 1 and np.ptp(p, axis=0).max() > 0:
            scale = float(np.ptp(p, axis=0).max())
        else:
            scale = 1.0
        g, guides = linkage.guides, GuideRows.none()
        if not g.is_empty():  # planar: a 3-D linkage has none
            guides = GuideRows.build(
                p, g.slider_joints, g.slider_points, g.slider_directions, g.slots
            )
        rows, cols, order, indices, indptr = layout(rods, angles, pinned, dim, guides, len(p))
        return cls(
            n_vertices=len(p),
            rods=rods,
            angles=angles,
            pinned=pinned,
            lengths=lengths,
            angle_targets=targets,
            angle_scales=scales,
            anchors=p[pinned].copy(),
            length_scale=scale,
            _rows=rows,
            _cols=cols,
            _order=order,
            _indices=indices,
            _indptr=indptr,
            dim=dim,
            guides=guides,
        )

    # ------------------------------------------------------------------ sizes
    @property
    def n_constraints(self) -> int:
        """Number of rows: rods + angles + ``dim`` per pin + sliders + slots (+ drive rows)."""
        return self._first_drive_row + self.drives.n_rows

    @property
    def _first_drive_row(self) -> int:
        return len(self.rods) + len(self.angles) + self.dim * len(self.pinned) + self.guides.n_rows

    @property
    def shape(self) -> tuple[int, int]:
        """Shape of the rigidity matrix, ``(n_constraints, dim n)``."""
        return (self.n_constraints, self.dim * self.n_vertices)

    def row_kinds(self) -> np.ndarray:
        """Kind of each row: ``"rod"``, ``"angle"``, ``"pin"``, ``"slider"``, ``"slot"``, drives."""
        return np.array(
            ["rod"] * len(self.rods)
            + ["angle"] * len(self.angles)
            + ["pin"] * (self.dim * len(self.pinned))
            + self.guides.kinds()
            + self.drives.kinds()
        )

    def row_scales(self) -> np.ndarray:
        """Scale of each row (rod length, arm scale, length scale): residual / scale is relative."""
        pins = np.full(self.dim * len(self.pinned) + self.guides.n_rows, self.length_scale)
        drives = self.drives.row_scales(self.length_scale)
        return np.concatenate([self.lengths, self.angle_scales, pins, drives])

    def shortest_length(self, p: Any) -> float:
        """The shortest rod (target length) or fixed-angle arm (at ``p``), else ``length_scale``.

        One ulp of a coordinate is a relative residual of about ulp / this: a rod's strain,
        an angle in radians (an arm need not be a rod, and may be far shorter than any).
        Arms of length zero (no direction) are left out.

        >>> link = Linkage([[0, 0], [50, 0], [0, 1e-3]], rods=[(0, 1)], angles=[(0, 1, 2)])
        >>> cs = ConstraintSet.from_linkage(link)
        >>> cs.shortest_length(link.vertices), float(cs.lengths.min())
        (0.001, 50.0)
        """
        short = float(self.lengths.min()) if len(self.lengths) else self.length_scale
        if len(self.angles):
            pts = as_points(p, self.dim)
            apex = pts[self.angles[:, 0]]
            arms = np.concatenate(
                [
                    _checks.row_norms(pts[self.angles[:, 1]] - apex),
                    _checks.row_norms(pts[self.angles[:, 2]] - apex),
                ]
            )
            arms = arms[arms > 0.0]
            if arms.size:
                short = min(short, float(arms.min()))
        return short

    # ----------------------------------------------------------------- drives
    def with_drives(self, drives: DriveRows) -> ConstraintSet:
        """These constraints plus the rows of ``drives`` (motors, links, holds), appended.

        Holds are planar rows: a 3-D set with them raises ``NotImplementedError``; links
        (a stuck friction pathway) and motors (hinge rows in space) are rows in 3-D too.
        """
        if self.dim != 2 and len(drives.holds):
            raise NotImplementedError("holds are planar rows (a joint on the table): not in 3-D")
        if drives.dim != self.dim:
            raise ValueError(f"drive rows in {drives.dim}-D for a {self.dim}-D set")
        rows, cols = pattern(self.rods, self.angles, self.pinned, self.dim, self.guides)
        base = self._first_drive_row
        d_rows, d_cols = drives.pattern(base)
        rows, cols = np.concatenate([rows, d_rows]), np.concatenate([cols, d_cols])
        n_cols = self.dim * self.n_vertices
        order, indices, indptr = csr_layout(rows, cols, base + drives.n_rows, n_cols)
        return replace(
            self,
            drives=drives,
            _rows=rows,
            _cols=cols,
            _order=order,
            _indices=indices,
            _indptr=indptr,
        )

    def with_members(self, sides: Any, slack: Any = None) -> ConstraintSet:
        """These rows with the rods' ``sides`` ``(m,)``, the rods ``slack`` (bool ``(m,)``) let go.

        A slack rod's row is zero (residual and gradient): :mod:`.members`.
        """
        # copies: a caller's later edit of its mask must not change these rows
        slack = None if slack is None or not np.any(slack) else np.array(slack, dtype=bool)
        return replace(self, sides=np.array(sides, dtype=np.int8), slack=slack)

    def at_time(self, t: float) -> ConstraintSet:
        r"""The same rows with the motor and push targets (:math:`\theta_0 + \omega t`) of ``t``."""
        if not self.drives.n_timed:
            return self
        return replace(self, drives=self.drives.at_time(t))

    def velocity_target(self) -> np.ndarray | None:
        r""":math:`b = -\partial g/\partial t`: allowed velocities satisfy :math:`A v = b`.

        ``None`` without motors or pushes.
        """
        if not self.drives.n_timed:
            return None
        b = np.zeros(self.n_constraints)
        b[self._first_drive_row :] = self.drives.velocity_target()
        return b

    # -------------------------------------------------------------- residuals
    def residuals(self, p: Any) -> np.ndarray:
        """Scaled residuals :math:`g(p)` (lengths), shape ``(n_constraints,)``."""
        pts = as_points(p, self.dim)
        d = pts[self.rods[:, 0]] - pts[self.rods[:, 1]]
        with np.errstate(divide="ignore", invalid="ignore"):
            g_rod = ((d * d).sum(axis=1) - self.lengths**2) / (2.0 * self.lengths)
        if self.slack is not None:
            g_rod = np.where(self.slack, 0.0, g_rod)
        a = pts[self.angles[:, 1]] - pts[self.angles[:, 0]]
        b = pts[self.angles[:, 2]] - pts[self.angles[:, 0]]
        if self.dim == 3:
            arms = _checks.row_norms(a) * _checks.row_norms(b)
            cos0 = np.cos(self.angle_targets)  # an arm of length 0: no angle, no residual
            cos = np.divide((a * b).sum(axis=1), arms, out=cos0.copy(), where=arms > 0.0)
            g_ang = self.angle_scales * (cos0 - cos)
        else:
            g_ang = self.angle_scales * _wrap(_angles_between(a, b) - self.angle_targets)
        g_pin = (pts[self.pinned] - self.anchors).reshape(-1)
        if self.guides.n_rows:
            g_pin = np.concatenate([g_pin, self.guides.residuals(pts)])
        if self.drives.n_rows:
            return np.concatenate([g_rod, g_ang, g_pin, self.drives.residuals(pts)])
        return np.concatenate([g_rod, g_ang, g_pin])

    def relative_residuals(self, p: Any) -> np.ndarray:
        r"""Dimensionless residuals: rods :math:`|d|/L - 1`, angles in radians, pins / scale."""
        pts = as_points(p, self.dim)
        rod = _checks.row_norms(pts[self.rods[:, 0]] - pts[self.rods[:, 1]]) / self.lengths - 1.0
        rod = feasible_strain(rod, self.sides) if self.sides.any() else rod
        a = pts[self.angles[:, 1]] - pts[self.angles[:, 0]]
        b = pts[self.angles[:, 2]] - pts[self.angles[:, 0]]
        ang = _wrap(_angles_between(a, b) - self.angle_targets)
        pin = (pts[self.pinned] - self.anchors).reshape(-1) / self.length_scale
        if self.guides.n_rows:
            pin = np.concatenate([pin, self.guides.residuals(pts) / self.length_scale])
        if self.drives.n_rows:
            scale = self.drives.row_scales(self.length_scale)
            return np.concatenate([rod, ang, pin, self.drives.residuals(pts) / scale])
        return np.concatenate([rod, ang, pin])

    def relative_error(self, p: Any) -> float:
        """Largest absolute relative residual (0.0 when there are no constraints)."""
        r = self.relative_residuals(p)
        return float(np.max(np.abs(r))) if r.size else 0.0

    # --------------------------------------------------------------- jacobian
    def jacobian_values(self, p: Any) -> np.ndarray:
        """Non-zero entries of :math:`A(p)` in the fixed sparsity pattern (COO order)."""
        pts = as_points(p, self.dim)
        d = (pts[self.rods[:, 0]] - pts[self.rods[:, 1]]) / self.lengths[:, None]
        if self.slack is not None:
            d = np.where(self.slack[:, None], 0.0, d)
        rod = np.column_stack([d, -d]).reshape(-1)
        a = pts[self.angles[:, 1]] - pts[self.angles[:, 0]]
        b = pts[self.angles[:, 2]] - pts[self.angles[:, 0]]
        s = self.angle_scales[:, None]
        if self.dim == 3:
            gj, gk = _cosine_gradients(a, b, s)
        else:
            # (s v) / |a|^2 in this order: the planar rows as they always were, bit for bit
            gj = _over_squared_norm(s * np.column_stack([a[:, 1], -a[:, 0]]), a)
            gk = _over_squared_norm(s * np.column_stack([-b[:, 1], b[:, 0]]), b)
        ang = np.column_stack([-gj - gk, gj, gk]).reshape(-1)
        pin = np.ones(self.dim * len(self.pinned))
        if self.guides.n_rows:
            pin = np.concatenate([pin, self.guides.jacobian_values(pts)])
        if self.drives.n_rows:
            return np.concatenate([rod, ang, pin, self.drives.jacobian_values(pts)])
        return np.concatenate([rod, ang, pin])

    def jacobian(self, p: Any) -> sp.csr_array:
        r"""The scaled rigidity matrix :math:`A(p)`, ``csr_array`` of shape ``(n_constraints, dn)``.

        Built from precomputed CSR indices, so each call costs one vectorised
        evaluation of the entries (no sorting): cheap enough for every frame.
        """
        data = self.jacobian_values(p)[self._order]
        return sp.csr_array((data, self._indices, self._indptr), shape=self.shape)

    def jacobian_dense(self, p: Any) -> np.ndarray:
        r""":meth:`jacobian` as a dense array, shape ``(n_constraints, dn)``, the same values.

        For small linkages, whose dense SVD needs the array anyway: one ``bincount`` over
        the fixed pattern (summing repeated entries, as the CSR form does) instead of a
        sparse matrix built and converted.
        """
        c, cols = self.shape
        flat = np.bincount(
            self._rows * cols + self._cols, weights=self.jacobian_values(p), minlength=c * cols
        )
        return flat.reshape(c, cols)

    def second_derivative(self, p: Any, u: Any, v: Any) -> np.ndarray:
        r"""The bilinear second derivative :math:`g''(p)[u, v]`, shape ``(n_constraints,)``.

        Rod and pin rows have Jacobians linear in :math:`p`, so the central
        difference of :math:`A(p \pm t u)\,v` is exact for them; for angle rows it
        is accurate to :math:`O(t^2)` with :math:`t = 10^{-5}` length scales.
        """
        pf, uf, vf = as_flat(p), as_flat(u), as_flat(v)
        norm = float(np.max(np.abs(uf))) if uf.size else 0.0
        if norm == 0.0:
            return np.zeros(self.n_constraints)
        t = 1e-5 * self.length_scale / norm
        return (self.jacobian(pf + t * uf) @ vf - self.jacobian(pf - t * uf) @ vf) / (2.0 * t)


def _cosine_gradients(a: np.ndarray, b: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Gradients of :math:`\ell(\cos\theta_0 - \cos\theta)` in ``p_j`` and ``p_k`` (3-D rows).

    ``a``, ``b``: arms ``(k, 3)``; ``s``: scales ``(k, 1)``. Returns two ``(k, 3)`` arrays.
    An arm of length 0 (a rodless arm's joint slid onto the apex) gives a zero row, as in
    the plane: there the angle has no gradient.
    """
    la = _checks.row_norms(a)[:, None]
    lb = _checks.row_norms(b)[:, None]
    ua = np.divide(a, la, out=np.zeros_like(a), where=la > 0.0)
    ub = np.divide(b, lb, out=np.zeros_like(b), where=lb > 0.0)
    cos = (ua * ub).sum(axis=1, keepdims=True)
    ok = (la > 0.0) & (lb > 0.0)
    gj = np.divide(-s * (ub - cos * ua), la, out=np.zeros_like(a), where=ok)
    gk = np.divide(-s * (ua - cos * ub), lb, out=np.zeros_like(b), where=ok)
    return gj, gk


def _median(x: np.ndarray) -> float:
    """``float(np.median(x))``, bit for bit, without its overhead on a few values."""
    if len(x) > _SMALL:
        return float(np.median(x))
    v, h = sorted(x.tolist()), len(x) // 2
    # numpy's median of an even count is the mean of the middle two: (a + b) / 2 exactly
    return v[h] if len(x) % 2 else (v[h - 1] + v[h]) / 2.0


#: Up to this many values :func:`_median` sorts a list.
_SMALL = 256


def rigidity_matrix(linkage: Linkage, positions: Any = None) -> sp.csr_array:
    """The scaled rigidity matrix of ``linkage`` at ``positions`` (default: its own).

    Rows: rods, fixed angles, pins (x, y (, z)), sliders, slots; columns ``x0, y0, x1, ...``
    (``x0, y0, z0, x1, ...`` in 3-D). The module docstring gives the row formulas.

    Examples
    --------
    >>> tri = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2), (0, 2)])
    >>> rigidity_matrix(tri).shape
    (3, 6)
    """
    cs = ConstraintSet.from_linkage(linkage)
    return cs.jacobian(linkage.vertices if positions is None else positions)

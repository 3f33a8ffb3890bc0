r"""A linkage's constraints as a batched square-ish system in the free coordinates.

The configuration set of a pinned linkage is :math:`\{X : F(X) = 0\}`, :math:`X \in
\mathbb{R}^{df}` the positions of its ``f`` unpinned vertices (``d = 2`` in the plane, 3 in
space). Rows (all in length units, so one tolerance fits all):

* rod :math:`(i, j)`: :math:`(|p_i - p_j|^2 - L^2) / (2L)`;
* fixed angle at :math:`i` between :math:`a = p_j - p_i`, :math:`b = p_k - p_i`, target
  :math:`\theta_0`: in the plane :math:`(a \times b\,\cos\theta_0 - a \cdot b\,\sin\theta_0)
  / \ell`, :math:`\ell = \sqrt{|a_0||b_0|}` (also zero at :math:`\theta_0 + \pi`; solutions
  are checked against the true angle afterwards); in space, where an angle has no sign,
  the cosine row of :mod:`~linkage_widget.constraints`,
  :math:`\ell(\cos\theta_0 - \hat a \cdot \hat b)`;
* sliders and slots (planar): the distances from their lines, the rows of
  :mod:`~linkage_widget.constraints.guide_rows`;
* optional angle coordinates held at values :math:`c`: :math:`s\,\mathrm{wrap}(\vartheta(p)
  - c)` with :math:`s` the median rod length.

Everything is vectorised over a leading batch axis: Newton's method runs on thousands of
starting guesses at once (seeding every branch of a curve, every cell of a torus grid).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..constraints import ConstraintSet
from ..model import Linkage
from .angles import AngleCoordinate

__all__ = ["LinkageSystem"]

#: A placement solves the constraints when every row is at most this many length scales.
SOLVE_TOL = 1e-10
#: Levenberg-Marquardt damping relative to the mean diagonal of J^T J (a regular solve
#: where the system is regular; a least-squares step where it is not).
_DAMPING = 1e-12
#: A Newton step moves no vertex coordinate more than this many length scales (keeps
#: random starting guesses from flying off).
_MAX_MOVE = 0.5


def _wrap(x: np.ndarray) -> np.ndarray:
    return (x + np.pi) % (2.0 * np.pi) - np.pi


@dataclass(frozen=True, eq=False)
class LinkageSystem:
    """The constraints of a pinned linkage in its free coordinates (module docstring).

    ``dim`` is the linkage's dimension ``d``: each free vertex has ``d`` unknowns.
    """

    linkage: Linkage
    free: np.ndarray
    constraints: ConstraintSet
    scale: float

    @classmethod
    def build(cls, linkage: Linkage) -> LinkageSystem:
        """The system of ``linkage`` with targets at its current placement."""
        free = np.setdiff1d(np.arange(linkage.n_vertices), linkage.pinned)
        cs = ConstraintSet.from_linkage(linkage)
        return cls(linkage.copy(), free, cs, float(cs.length_scale))

    @property
    def size(self) -> int:
        """Number of unknowns ``d f``."""
        return self.dim * len(self.free)

    @property
    def dim(self) -> int:
        """Coordinates per vertex: 2 in the plane, 3 in space."""
        return self.linkage.dim

    def unknowns(self, positions: np.ndarray) -> np.ndarray:
        """``X (..., d f)`` from positions ``(..., n, d)``."""
        p = np.asarray(positions, np.float64)
        return p[..., self.free, :].reshape(p.shape[:-2] + (self.size,))

    def positions(self, x: np.ndarray) -> np.ndarray:
        """Positions ``(..., n, d)`` from ``X (..., d f)`` (pinned vertices at their pins)."""
        x = np.asarray(x, np.float64)
        shape = x.shape[:-1] + (self.linkage.n_vertices, self.dim)
        out = np.array(np.broadcast_to(self.linkage.vertices, shape))
        out[..., self.free, :] = x.reshape(x.shape[:-1] + (len(self.free), self.dim))
        return out

    def residual_and_jacobian(
        self,
        x: np.ndarray,
        coords: Sequence[AngleCoordinate] = (),
        targets: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``F (B, c)`` and ``J (B, c, d f)`` at ``X (B, d f)``; coordinate rows last."""
        p = self.positions(x)
        # row blocks (values (..., r), gradients (..., r, n, 2)), joined once at the end
        cs = self.constraints
        blocks = [self._rod_rows(p)] if len(cs.rods) else []
        blocks += [self._angle_rows(p)] if len(cs.angles) else []
        blocks += [self._guide_rows(p)] if cs.guides.n_rows else []
        for k, c in enumerate(coords):
            value = self.scale * _wrap(c.value(p) - targets[..., k])
            blocks.append((value[..., None], self.scale * c.gradient(p)[..., None, :, :]))
        if not blocks:
            return np.zeros(x.shape[:-1] + (0,)), np.zeros(x.shape[:-1] + (0, self.size))
        f = np.concatenate([b[0] for b in blocks], axis=-1)
        jac = np.concatenate([b[1] for b in blocks], axis=-3)[..., self.free, :]
        return f, jac.reshape(jac.shape[:-2] + (self.size,))

    def _rod_rows(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cs = self.constraints
        i, j = cs.rods[:, 0], cs.rods[:, 1]
        d = p[..., i, :] - p[..., j, :]
        f = ((d * d).sum(axis=-1) - cs.lengths**2) / (2.0 * cs.lengths)
        g = np.zeros(p.shape[:-2] + (len(i),) + p.shape[-2:])
        r = np.arange(len(i))
        g[..., r, i, :] = d / cs.lengths[:, None]
        g[..., r, j, :] = -d / cs.lengths[:, None]
        return f, g

    def _guide_rows(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Slider and slot rows over the batch: the constraint set's, one placement at a time.

        A batch is at most a few thousand placements of a small linkage; the rows and
        their gradients stay in :mod:`~linkage_widget.constraints.guide_rows`, their one home.
        """
        rows, n = self.constraints.guides, self.linkage.n_vertices
        flat = p.reshape((-1, n, 2))
        f = np.stack([rows.residuals(q) for q in flat]) if len(flat) else np.zeros((0, rows.n_rows))
        r, c = rows.pattern(0)
        g = np.zeros((len(flat), rows.n_rows, 2 * n))
        for b, q in enumerate(flat):
            np.add.at(g[b], (r, c), rows.jacobian_values(q))
        shape = p.shape[:-2]
        return f.reshape(shape + (rows.n_rows,)), g.reshape(shape + (rows.n_rows, n, 2))

    def _angle_rows(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cs = self.constraints
        i, j, k = cs.angles.T
        a, b = p[..., j, :] - p[..., i, :], p[..., k, :] - p[..., i, :]
        if self.dim == 3:
            return self._cosine_rows(a, b, (i, j, k))
        c0, s0, ell = np.cos(cs.angle_targets), np.sin(cs.angle_targets), cs.angle_scales
        f = ((a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]) * c0 - (a * b).sum(-1) * s0) / ell
        # d/da and d/db of cross(a, b) c0 - dot(a, b) s0
        da = (np.stack([b[..., 1], -b[..., 0]], -1) * c0[:, None] - b * s0[:, None]) / ell[:, None]
        db = (np.stack([-a[..., 1], a[..., 0]], -1) * c0[:, None] - a * s0[:, None]) / ell[:, None]
        g = np.zeros(p.shape[:-2] + (len(i),) + p.shape[-2:])
        r = np.arange(len(i))
        g[..., r, j, :] = da
        g[..., r, k, :] = db
        g[..., r, i, :] = -da - db
        return f, g

    def _cosine_rows(self, a: np.ndarray, b: np.ndarray, ijk: tuple) -> tuple:
        r"""Space's fixed-angle rows :math:`\ell(\cos\theta_0 - \hat a \cdot \hat b)`, batched.

        Gradients :math:`-\ell(\hat b - c \hat a)/|a|` in :math:`p_j`, :math:`-\ell(\hat a -
        c \hat b)/|b|` in :math:`p_k` (the row of :mod:`~linkage_widget.constraints`).
        """
        cs, (i, j, k) = self.constraints, ijk
        la = np.linalg.norm(a, axis=-1, keepdims=True)
        lb = np.linalg.norm(b, axis=-1, keepdims=True)
        ua, ub = a / la, b / lb
        c = (ua * ub).sum(axis=-1, keepdims=True)
        ell = cs.angle_scales[:, None]
        f = cs.angle_scales * (np.cos(cs.angle_targets) - c[..., 0])
        da, db = -ell * (ub - c * ua) / la, -ell * (ua - c * ub) / lb
        g = np.zeros(a.shape[:-2] + (len(i), self.linkage.n_vertices, 3))
        r = np.arange(len(i))
        g[..., r, j, :] = da
        g[..., r, k, :] = db
        g[..., r, i, :] = -da - db
        return f, g

    def solve(
        self,
        x0: np.ndarray,
        coords: Sequence[AngleCoordinate] = (),
        targets: np.ndarray | None = None,
        iterations: int = 40,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Damped Gauss-Newton from every row of ``x0 (B, d f)``: ``(X, converged (B,))``.

        A converged row satisfies every constraint (and coordinate target) to
        :data:`SOLVE_TOL` length scales, fixed angles checked against their true value.
        """
        x = np.array(x0, np.float64)
        for _ in range(iterations):
            f, jac = self.residual_and_jacobian(x, coords, targets)
            if f.shape[-1] == 0:
                break
            done = np.abs(f).max(axis=-1) <= SOLVE_TOL * self.scale
            if done.all():
                break
            jt = np.swapaxes(jac, -1, -2)
            normal = jt @ jac
            mu = _DAMPING * (np.trace(normal, axis1=-2, axis2=-1) / self.size + 1e-300)
            normal = normal + mu[..., None, None] * np.eye(self.size)
            step = -np.linalg.solve(normal, (jt @ f[..., None]))[..., 0]
            big = np.abs(step).max(axis=-1) / (_MAX_MOVE * self.scale)
            step = step / np.maximum(big, 1.0)[..., None]
            x = np.where(done[..., None], x, x + step)
        return x, self.solved(x, coords, targets)

    def solved(
        self,
        x: np.ndarray,
        coords: Sequence[AngleCoordinate] = (),
        targets: np.ndarray | None = None,
    ) -> np.ndarray:
        """Whether each row of ``x`` satisfies the constraints (true angles) and targets."""
        f, _ = self.residual_and_jacobian(x, coords, targets)
        ok = (
            np.abs(f).max(axis=-1) <= 10 * SOLVE_TOL * self.scale
            if f.shape[-1]
            else np.ones(len(x), bool)
        )
        if len(self.constraints.angles):
            p = self.positions(x)
            i, j, k = self.constraints.angles.T
            a, b = p[..., j, :] - p[..., i, :], p[..., k, :] - p[..., i, :]
            if self.dim == 3:  # no sign in space: the angle in [0, pi]
                cross = np.linalg.norm(np.cross(a, b), axis=-1)
            else:
                cross = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
            ang = np.arctan2(cross, (a * b).sum(-1))
            ok &= np.abs(_wrap(ang - self.constraints.angle_targets)).max(axis=-1) < 1e-6
        return ok & np.all(np.isfinite(x), axis=-1)

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """The constraint Jacobian alone, ``(..., c, d f)``."""
        return self.residual_and_jacobian(np.asarray(x, np.float64))[1]

    def random_guesses(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` random ``X`` in the linkage's bounding box grown by its size."""
        p = self.linkage.vertices
        lo, hi = p.min(axis=0), p.max(axis=0)
        pad = max(float(np.max(hi - lo)), self.scale)
        pts = rng.uniform(lo - pad, hi + pad, size=(count, len(self.free), self.dim))
        return pts.reshape(count, self.size)

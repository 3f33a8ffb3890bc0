r"""Real placements with given rod lengths: many random starts, Newton's method, deduplication.

The system. The first rod :math:`(a, b)` keeps its joints where they are (this removes
the rotations and translations); the other :math:`n - 2` joints are the unknowns
:math:`q`, and every other rod :math:`(i, j)` gives one equation

.. math:: F_{ij}(q) = |q_i - q_j|^2 - \lambda_{ij}^2 = 0,

:math:`2n - 4` equations in :math:`2n - 4` unknowns for a Laman graph: a square system
with finitely many solutions for generic lengths. Its Jacobian row is
:math:`2 (q_i - q_j)` in the columns of ``i`` and its negative in those of ``j``.

The search. Batches of random starts (normal around the current placement, spread by
its size) are sent through damped Newton steps at once (a stack of small systems, each a
Levenberg step, Newton's near a root); a start that converges is kept when every length
holds to :data:`~.tolerances.REAL_PLACEMENT_LENGTH`, and once (solutions closer than
:data:`~.tolerances.SAME_PLACEMENT` are one). Batches go on until :data:`QUIET_BATCHES`
batches in a row find nothing new, the count bound is reached, or :data:`MAX_BATCHES`.
A root whose basin no start hits is missed: this is a search, not a certificate of
completeness; the bound (the complex count) is the certificate that nothing extra is
reported.
"""

from __future__ import annotations

import numpy as np

from .tolerances import REAL_PLACEMENT_LENGTH, SAME_PLACEMENT

__all__ = ["aligned_solutions"]

#: Starts per batch, per equation.
STARTS_PER_EQUATION = 60
#: Batches without a new placement before the search ends.
QUIET_BATCHES = 3
#: At most this many batches.
MAX_BATCHES = 40
#: Damped Newton steps per batch.
NEWTON_STEPS = 40


def aligned_solutions(
    vertices: np.ndarray, rods: np.ndarray, *, bound: int, seed: int | None = 0
) -> list[np.ndarray]:
    """The real placements with the rods' current lengths, the first rod held in place.

    Parameters
    ----------
    vertices : ndarray, shape (n, 2)
        The current placement (a solution itself).
    rods : ndarray of int, shape (m, 2)
        The rods; ``rods[0]`` is held.
    bound : int
        Stop when this many are found (the complex count).
    seed : int or None
        The random starts' seed.

    Returns
    -------
    list of ndarray, shape (n, 2)
        The current placement first, the others by distance from it.
    """
    p = np.asarray(vertices, dtype=np.float64)
    if len(p) <= 2:
        return [p.copy()]
    system = _System(p, np.asarray(rods, dtype=np.int64))
    rng = np.random.default_rng(seed)
    found = [p[system.free].reshape(-1)]
    pending, quiet = list(found), 0
    for _ in range(MAX_BATCHES):
        starts = np.vstack([system.starts(rng), *(system.folds(q) for q in pending)])
        pending = system.add_new(found, system.converged(starts))
        quiet = 0 if pending else quiet + 1
        if len(found) >= bound or quiet >= QUIET_BATCHES:
            break
    first = found[0]
    found.sort(key=lambda q: float(np.max(np.abs(q - first))))
    return [system.placement(q) for q in found]


class _System:
    """The square system of one linkage: who is free, the rods, the lengths."""

    def __init__(self, p: np.ndarray, rods: np.ndarray) -> None:
        self.p = p
        n = len(p)
        held = rods[0]
        self.free = np.array([v for v in range(n) if v not in held], dtype=np.int64)
        column = np.full(n, -1, dtype=np.int64)
        column[self.free] = np.arange(len(self.free))
        self.rods, self.column = rods[1:], column
        self.squared = np.sum((p[self.rods[:, 0]] - p[self.rods[:, 1]]) ** 2, axis=1)
        self.scale = max(1.0, float(np.sqrt(self.squared.max())))
        self.spread = float(np.ptp(p, axis=0).max())
        self.fold_sets = _fold_sets(n, rods)
        self.damping = 1e-12 * self.scale**4 * np.eye(2 * len(self.free))

    def placement(self, q: np.ndarray) -> np.ndarray:
        """The full placement (n, 2) with the free joints at ``q`` (flat)."""
        out = self.p.copy()
        out[self.free] = q.reshape(-1, 2)
        return out

    def starts(self, rng: np.random.Generator) -> np.ndarray:
        """A batch of random starts, shape (k, 2(n - 2))."""
        k = STARTS_PER_EQUATION * len(self.rods)
        centre = self.p.mean(axis=0)
        points = centre + self.spread * rng.standard_normal((k, len(self.free), 2))
        return points.reshape(k, -1)

    def _points(self, q: np.ndarray) -> np.ndarray:
        """Every joint, shape (k, n, 2), for a stack of free coordinates (k, 2(n - 2))."""
        points = np.broadcast_to(self.p, (len(q), *self.p.shape)).copy()
        points[:, self.free] = q.reshape(len(q), -1, 2)
        return points

    def residual(self, q: np.ndarray) -> np.ndarray:
        """:math:`F(q)`, shape (k, 2n - 4)."""
        d = self._points(q)
        d = d[:, self.rods[:, 0]] - d[:, self.rods[:, 1]]
        return np.sum(d * d, axis=2) - self.squared

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        r""":math:`\partial F / \partial q`, shape (k, 2n - 4, 2n - 4)."""
        pts = self._points(q)
        d = 2.0 * (pts[:, self.rods[:, 0]] - pts[:, self.rods[:, 1]])
        jac = np.zeros((len(q), len(self.rods), 2 * len(self.free)))
        rows = np.arange(len(self.rods))
        for end, sign in ((0, 1.0), (1, -1.0)):
            col = self.column[self.rods[:, end]]
            on = col >= 0
            for axis in (0, 1):
                jac[:, rows[on], 2 * col[on] + axis] = sign * d[:, on, axis]
        return jac

    def converged(self, q: np.ndarray) -> np.ndarray:
        """Damped Newton from every start; the ones whose lengths hold, shape (k', ·)."""
        q = q.copy()
        active = np.arange(len(q))
        for _ in range(NEWTON_STEPS):
            q[active] -= self._step(q[active])
            # a start that has landed needs no more steps
            active = active[~self.holds(q[active], tight=True)]
            if not len(active):
                break
        return q[self.holds(q)]

    def _step(self, q: np.ndarray) -> np.ndarray:
        """One damped Newton step from each row of ``q``, its size at most the spread."""
        jac = self.jacobian(q)
        # Levenberg's regularisation keeps every system of the stack solvable (a start may
        # sit where the Jacobian drops rank); near a root it is Newton's step
        normal = np.einsum("kri,krj->kij", jac, jac) + self.damping
        rhs = np.einsum("kri,kr->ki", jac, self.residual(q))
        step = np.linalg.solve(normal, rhs[..., None])[..., 0]
        size = np.max(np.abs(step), axis=1, keepdims=True)
        return step * np.minimum(1.0, self.spread / np.maximum(size, 1e-300))

    def holds(self, q: np.ndarray, *, tight: bool = False) -> np.ndarray:
        """Which placements keep every rod's length to REAL_PLACEMENT_LENGTH, shape (k,) bool.

        ``tight``: to a thousandth of it, where Newton may stop (one more step there
        would change nothing a float can hold).
        """
        pts = self._points(q)
        lengths = np.linalg.norm(pts[:, self.rods[:, 0]] - pts[:, self.rods[:, 1]], axis=2)
        error = np.abs(lengths - np.sqrt(self.squared))
        return np.all(
            np.isfinite(error)
            & (error <= REAL_PLACEMENT_LENGTH * self.scale * (1e-3 if tight else 1.0)),
            axis=1,
        )

    def add_new(self, found: list[np.ndarray], candidates: np.ndarray) -> list[np.ndarray]:
        """Append the candidates not already found; the new ones."""
        before, same = len(found), SAME_PLACEMENT * self.scale
        known = np.asarray(found)
        gaps = np.max(np.abs(candidates[:, None, :] - known[None]), axis=2)
        for q in candidates[np.min(gaps, axis=1) > same]:  # new to the list so far
            if all(np.max(np.abs(q - f)) > same for f in found[before:]):
                found.append(q)
        return found[before:]

    def folds(self, q: np.ndarray) -> np.ndarray:
        """Starts made from a placement by folds, shape (k, 2(n - 2)).

        Each fold reflects a set of joints across the line through two joints
        ``i, j``: a part of the graph that only ``i`` and ``j`` join to the rest (a
        2-separator: the fold is again a placement, exactly), or one joint across the line
        of two of its neighbours (a placement nearby when it has more). The part holding
        the first rod stays; the other side moves instead.
        """
        points = self.placement(q)
        out = []
        for i, j, moved in self.fold_sets:
            d = points[j] - points[i]
            if not d @ d:
                continue
            rel = points[moved] - points[i]
            folded = points.copy()
            folded[moved] = points[i] + 2 * np.outer(rel @ d / (d @ d), d) - rel
            out.append(folded[self.free].reshape(-1))
        return np.array(out).reshape(len(out), -1)


def _fold_sets(n: int, rods: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """``(i, j, joints)``: the parts a fold across the line ``i j`` reflects."""
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for u, v in rods:
        neighbours[u].add(int(v))
        neighbours[v].add(int(u))
    held = {int(rods[0][0]), int(rods[0][1])}
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            parts = _components(neighbours, {i, j})
            for part in parts if len(parts) > 1 else ():
                moved = part if not part & held else set(range(n)) - part - {i, j}
                out.append((i, j, np.array(sorted(moved), dtype=np.int64)))
    for v in range(n):
        out += [(i, j, np.array([v])) for i in neighbours[v] for j in neighbours[v]
                if i < j and v not in held]  # fmt: skip
    return [(i, j, moved) for i, j, moved in out if len(moved)]


def _components(neighbours: list[set[int]], removed: set[int]) -> list[set[int]]:
    """The connected parts of the graph without the ``removed`` joints."""
    left = set(range(len(neighbours))) - removed
    parts = []
    while left:
        stack, part = [left.pop()], set()
        while stack:
            v = stack.pop()
            part.add(v)
            stack += [w for w in neighbours[v] if w in left]
            left -= neighbours[v]
        parts.append(part)
    return parts

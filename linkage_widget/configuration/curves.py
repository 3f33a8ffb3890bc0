r"""The configuration curve of a linkage with one internal degree of freedom, all its branches.

The placements of a pinned 1-DOF linkage form a curve :math:`\{X : F(X) = 0\}` in the free
coordinates (:mod:`._system`). :func:`trace_curve` finds all of it:

Seeding
    A linkage built of a crank and dyads (a four-bar, Jansen's leg, Peaucellier's
    inversor) is placed in closed form, by circle intersections, at 360 crank angles in
    each of its :math:`2^k` assembly-mode vectors: one seed on every arc of every mode
    vector, so on every component (:mod:`._dyads`). Any other linkage: each of the two
    angle coordinates is held at 36 values in turn; for each, damped Gauss-Newton runs
    from the current placement and from random placements (all at once, batched), and
    the distinct solutions are the seeds. A component of the curve on which both angles
    move is met by some seed.
Continuation
    From an untraced seed, pseudo-arclength steps: predictor :math:`X + h\tau` along the unit
    tangent :math:`\tau` (the null vector of :math:`J = \partial F/\partial X`, oriented like
    the last one), corrector Gauss-Newton on :math:`F = 0`,
    :math:`\tau\cdot(X - X_{pred}) = 0`. A step is halved when the corrector fails or moves
    the point more than a fifth of the step, when the tangent turns by more than about 25°,
    or when an angle coordinate changes by more than 4°. A branch closes when it comes back
    to its seed (``closed=True``); otherwise it is traced both ways from the seed. Up to 64
    seeds, spread out, are traced at once, every step one batched call
    (:mod:`._continuation`); of those that found the same branch the first is kept, and
    seeds on a traced branch are dropped.
Singular placements
    Where the rigidity matrix loses rank (:math:`\sigma_{2f-1}(J)/\sigma_1(J) \to 0`, two
    infinitesimal flexes), two smooth branches cross. Continuation steps straight through
    a simple crossing, so a *branch* here is a maximal smooth curve (the parallelogram and
    the antiparallelogram motions of a parallelogram four-bar are two closed branches
    crossing at the two flat placements). Along each branch, local minima of the rank
    measure are refined by a golden-section search along the curve and kept where it
    falls below :data:`SINGULAR_TOL`; the placement is inserted into the branch, and
    :attr:`ConfigurationCurve.crossings` records where each singular placement lies on
    every branch through it. A seed with two or more flexes is not a start: it lies on a
    crossing or on a component of higher dimension (Peaucellier's linkage with its two
    long arms folded onto each other, where the rhombus spins freely: a 2-D component
    that the 1-D curve meets at singular placements), which the curve does not chart.
Branches met at a crossing
    Random starts can miss a whole branch (Hart's inversor: its parallelogram motion).
    At a singular placement that only one traced branch passes, the flexes span two
    lines; a short corrected step along the one off the known branch is a seed on the
    other, and tracing repeats until no new branch turns up.

:meth:`ConfigurationCurve.path` walks along branches, switching branch only at a singular
placement they share: the motion can reach nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from ..model import Linkage
from ..rigidity import require_linkage
from ._curve_trace import TraceSettings, trace_all
from ._errors import ConfigurationError
from ._system import LinkageSystem
from .angles import AngleCoordinate, default_coordinates
from .kind import internal_dimension

__all__ = ["Branch", "ConfigurationCurve", "SINGULAR_TOL", "trace_curve"]

#: A refined placement is singular when sigma_{2f-1}(J) / sigma_1(J) is below this.
SINGULAR_TOL = 1e-6


@dataclass(frozen=True, eq=False)
class Branch:
    r"""One smooth branch of a configuration curve.

    Attributes
    ----------
    angles : ndarray, shape (k, 2)
        The two angle coordinates, radians in :math:`(-\pi, \pi]`.
    positions : ndarray, shape (k, n, d)
        The placements, in order along the branch.
    closed : bool
        Whether the last placement joins the first (a loop).
    """

    angles: np.ndarray
    positions: np.ndarray
    closed: bool


@dataclass(frozen=True, eq=False)
class ConfigurationCurve:
    """Result of :func:`trace_curve`.

    Attributes
    ----------
    coords : tuple of AngleCoordinate
    branches : list of Branch
        Branch 0 passes through the linkage's placement when it was traced.
    singular_angles : ndarray, shape (s, 2)
    singular_positions : ndarray, shape (s, n, d)
        The singular placements (rank drop of the rigidity matrix).
    crossings : list of list of (int, int)
        For each singular placement, the ``(branch, index)`` where it lies on each branch.
    """

    coords: tuple[AngleCoordinate, AngleCoordinate]
    branches: list[Branch]
    singular_angles: np.ndarray
    singular_positions: np.ndarray
    crossings: list[list[tuple[int, int]]]

    def _nodes(self) -> tuple[np.ndarray, np.ndarray]:
        positions = np.concatenate([b.positions for b in self.branches])
        starts = np.cumsum([0] + [len(b.positions) for b in self.branches])
        return positions, starts

    def locate(self, positions: Any) -> tuple[int, int]:
        """``(branch, index)`` of the traced placement nearest ``positions`` ``(n, d)``."""
        nodes, starts = self._nodes()
        p = np.asarray(positions, np.float64)
        if p.shape != nodes.shape[1:]:
            raise ConfigurationError(
                f"locate: positions must have shape {nodes.shape[1:]}, got {p.shape}"
            )
        k = int(np.argmin(((nodes - p) ** 2).sum(axis=(1, 2))))
        branch = int(np.searchsorted(starts, k, side="right") - 1)
        return branch, k - int(starts[branch])

    def _graph(self) -> sp.csr_array:
        """Neighbours along each branch, and the copies of a singular placement, joined."""
        nodes, starts = self._nodes()
        rows, cols = [], []
        for b, branch in enumerate(self.branches):
            idx = np.arange(len(branch.positions)) + starts[b]
            rows.append(idx[:-1])
            cols.append(idx[1:])
            if branch.closed and len(idx) > 2:
                rows.append(idx[-1:])
                cols.append(idx[:1])
        for where in self.crossings:
            flat = [int(starts[b]) + i for b, i in where]
            rows.append(np.array(flat[:-1], dtype=np.int64))
            cols.append(np.array(flat[1:], dtype=np.int64))
        r, c = np.concatenate(rows), np.concatenate(cols)
        w = np.sqrt(((nodes[r] - nodes[c]) ** 2).sum(axis=(1, 2))) + 1e-12
        return sp.coo_array((w, (r, c)), shape=(len(nodes), len(nodes))).tocsr()

    def path(self, positions: Any, target_angles: Any) -> np.ndarray | None:
        """Placements ``(k, n, d)`` along the curve from ``positions`` toward ``target_angles``.

        The end is the traced point nearest ``target_angles`` (distance on the torus of
        the two angles). The walk follows branches and changes branch only at a singular
        placement they share. Returns ``None`` when that point lies on a part of the curve
        the motion cannot reach from here (another component, e.g. the other assembly mode).
        """
        target = np.asarray(target_angles, np.float64).reshape(-1)
        if target.shape != (2,) or not np.all(np.isfinite(target)):
            raise ConfigurationError(f"path: target_angles must be 2 finite angles, got {target}")
        nodes, starts = self._nodes()
        b0, i0 = self.locate(positions)
        angles = np.concatenate([b.angles for b in self.branches])
        gap = np.angle(np.exp(1j * (angles - target)))
        goal = int(np.argmin((gap**2).sum(axis=1)))
        dist, pred = dijkstra(
            self._graph(), directed=False, indices=int(starts[b0]) + i0, return_predecessors=True
        )
        if not np.isfinite(dist[goal]):
            return None
        walk = [goal]
        while pred[walk[-1]] >= 0:
            walk.append(int(pred[walk[-1]]))
        steps = nodes[walk[::-1]]
        return np.concatenate([np.asarray(positions, np.float64)[None], steps])


def trace_curve(
    linkage: Linkage,
    coords: Sequence[AngleCoordinate] | None = None,
    *,
    samples: int = 36,
    guesses: int = 24,
    seed: int = 0,
) -> ConfigurationCurve:
    """Trace every branch of the configuration curve of a 1-DOF pinned linkage.

    Parameters
    ----------
    linkage : Linkage
        Pinned so that no rigid motion is left, one internal degree of freedom.
    coords : pair of AngleCoordinate, optional
        The chart's two angles (default :func:`~.angles.default_coordinates`).
    samples, guesses : int
        Values of each angle held for the random seeding, and random starts per value
        (not used for a crank with dyads, seeded in closed form).
    seed : int
        Of the random starts (the result does not depend on it when it is complete).

    Raises
    ------
    ConfigurationError
        Not exactly two coordinates, not pinned, or not one internal degree of freedom
        (:func:`~.kind.internal_dimension`).
    """
    require_linkage(linkage, "trace_curve")
    coords = tuple(default_coordinates(linkage) if coords is None else coords)
    if len(coords) != 2 or not all(isinstance(c, AngleCoordinate) for c in coords):
        raise ConfigurationError("trace_curve needs two AngleCoordinate objects")
    for c in coords:
        if max(c.vertices) >= linkage.n_vertices:
            raise ConfigurationError(f"{c.label}: vertex out of range for this linkage")
    dim = internal_dimension(linkage)
    if dim != 1:
        raise ConfigurationError(
            f"trace_curve charts linkages with one internal degree of freedom; this one has {dim}"
            + (" (use sample_surface)" if dim == 2 else "")
        )
    system = LinkageSystem.build(linkage)
    settings = TraceSettings(samples=int(samples), guesses=int(guesses), seed=int(seed))
    traced, singular = trace_all(system, coords, settings)
    branches = []
    for xs, closed in traced:
        pos = system.positions(xs)
        ang = np.stack([c.value(pos) for c in coords], axis=-1)
        branches.append(Branch(ang, pos, closed))
    s_pos = system.positions(np.array([x for x, _ in singular]).reshape(-1, system.size))
    s_ang = np.stack([c.value(s_pos) for c in coords], axis=-1).reshape(-1, 2)
    return ConfigurationCurve(coords, branches, s_ang, s_pos, [w for _, w in singular])

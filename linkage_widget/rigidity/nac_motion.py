r"""The flexible placement a NAC-colouring gives, and its motion.

Grasegger, Legerský and Schicho ("Graphs with flexible labelings", 2019) turn a
NAC-colouring into a motion. Number the connected components of the red subgraph
:math:`R_1, \dots, R_k` and of the blue one :math:`B_1, \dots, B_l` (a joint with no
rod of a colour is a component of that colour alone); joint :math:`v` lies in
:math:`R_{r(v)}` and :math:`B_{b(v)}`. With vectors :math:`a_1..a_k`,
:math:`b_1..b_l \in \mathbb{R}^2` and :math:`\mathrm{Rot}(t)` the turn by :math:`t`,

.. math:: p_t(v) = a_{r(v)} + \mathrm{Rot}(t)\, b_{b(v)} .

A red rod :math:`uv` has :math:`r(u) = r(v)`: :math:`p_t(u) - p_t(v) =
\mathrm{Rot}(t)(b_{b(u)} - b_{b(v)})` keeps its length. A blue rod has :math:`b(u) =
b(v)`: :math:`p_t(u) - p_t(v) = a_{r(u)} - a_{r(v)}` does not move at all. Every rod
keeps its length for all :math:`t`, period :math:`2\pi`, and the placement changes
shape (two joints in different red and different blue components change distance).

Apart and together. The paper asks a flexible placement to be *quasi-injective*:
adjacent joints on distinct points (non-adjacent ones may meet). Two joints with the
same pair :math:`(r, b)` sit on one point for all :math:`t`; adjacent joints never do
(a red rod with :math:`b(u) = b(v)` would close a cycle with one red rod), and a rod's
length is :math:`|\beta|` (red) or :math:`|\alpha|` (blue) below, so random
:math:`a, b` (from ``seed``) are drawn again only while a rod is shorter than
:data:`NAC_MIN_GAP` times the mean (about :math:`10^{-12}` per rod). Any other pair's
smallest distance over the whole motion is known in closed form,

.. math:: \min_t |\alpha + \mathrm{Rot}(t)\beta| = \bigl|\,|\alpha| - |\beta|\,\bigr|,
          \quad \alpha = a_{r(u)} - a_{r(v)},\ \beta = b_{b(u)} - b_{b(v)},

evaluated for all pairs of distinct points in numpy chunks; of a few draws the one
keeping them furthest apart is kept and the gap is reported
(:attr:`NACMotion.smallest_gap`), never refused: among the :math:`\sim n^2/2` pairs
the smallest gap shrinks like :math:`1/n^2`, so no fixed bound holds for every size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Linkage
from .nac import _colouring, _components, _rods, nac_conflict

__all__ = ["NACMotion", "nac_motion", "NAC_MIN_GAP"]

#: the shortest rod, relative to the mean rod length, the construction accepts (a, b
#: are drawn again below it: adjacent joints must stay apart)
NAC_MIN_GAP = 1e-6
_DRAWS = 50
_TRIES = 3  # draws compared for the gap between joints that are not adjacent
_CHUNK = 1 << 21  # pairs per numpy chunk: memory stays a few tens of MB


@dataclass(frozen=True, eq=False)
class NACMotion:
    r"""The motion :math:`p_t(v) = a_{r(v)} + \mathrm{Rot}(t)\, b_{b(v)}` of a colouring.

    The placements are a *new* shape, built from the colouring (random :math:`a, b`,
    scaled and centred on the linkage): the linkage's current placement is generally
    not among them. :meth:`linkage` makes a linkage of one of them.

    Attributes
    ----------
    colouring : (m,) bool ndarray
        The NAC-colouring, True = red.
    rods : (m, 2) int ndarray
        The rods it colours.
    red, blue : (n,) int ndarray
        Each joint's red and blue component, :math:`r(v)` and :math:`b(v)`.
    a : (k, 2) ndarray
        One vector per red component.
    b : (l, 2) ndarray
        One vector per blue component (turned by :math:`t`).
    smallest_gap : float
        The least distance, over the whole motion, between two joints on distinct
        points, :math:`\min \bigl|\,|\alpha| - |\beta|\,\bigr|` over their pairs
        (``inf`` when there are fewer than two points). Rods are at least
        :data:`NAC_MIN_GAP` times the mean rod length; joints that share no rod may
        come closer (the best of a few draws is kept).
    """

    colouring: np.ndarray
    rods: np.ndarray
    red: np.ndarray
    blue: np.ndarray
    a: np.ndarray
    b: np.ndarray
    smallest_gap: float

    def placement(self, t: Any) -> np.ndarray:
        """The placement at angle ``t``: ``(n, 2)`` for a float, ``(K, n, 2)`` for ``(K,)``."""
        angle = np.asarray(t, dtype=float)
        c, s = np.cos(angle)[..., None], np.sin(angle)[..., None]
        bx, by = self.b[self.blue, 0], self.b[self.blue, 1]
        turned = np.stack([c * bx - s * by, s * bx + c * by], axis=-1)
        return self.a[self.red] + turned

    @property
    def start(self) -> np.ndarray:
        """The placement at :math:`t = 0`, ``(n, 2)`` (a new shape, see the class)."""
        return self.placement(0.0)

    @property
    def lengths(self) -> np.ndarray:
        """The rod lengths, ``(m,)``: the same at every :math:`t`."""
        p = self.start
        return np.linalg.norm(p[self.rods[:, 0]] - p[self.rods[:, 1]], axis=1)

    @property
    def injective(self) -> bool:
        """Whether all joints stay apart (no two share both components)."""
        pairs = self.red.astype(np.int64) * len(self.b) + self.blue
        return len(np.unique(pairs)) == len(pairs)

    def linkage(self, linkage: Linkage, t: float = 0.0) -> Linkage:
        """A copy of ``linkage`` with its joints at :meth:`placement` ``(t)``.

        Kinds, pins, masses and the rest are kept; only the positions change, to the
        flexible placement, which is a different shape from the linkage's current one
        (its rod lengths are :attr:`lengths`, not the linkage's). ``ValueError`` for a
        3-D linkage (the motion is planar) or one whose rods are not this motion's.
        """
        if not isinstance(linkage, Linkage):
            raise TypeError(f"NACMotion.linkage: expected a Linkage, got {type(linkage).__name__}")
        if linkage.dim != 2:
            raise ValueError(
                "NACMotion.linkage: the motion is planar and this linkage is 3-D; "
                "use .placement(t) for the (n, 2) positions"
            )
        if linkage.n_vertices != len(self.red) or not np.array_equal(linkage.rods, self.rods):
            raise ValueError(
                f"NACMotion.linkage: the linkage ({linkage.n_vertices} joints, "
                f"{linkage.n_rods} rods) is not the one this motion was made for "
                f"({len(self.red)} joints, {len(self.rods)} rods)"
            )
        if np.ndim(t) != 0:
            raise ValueError(f"NACMotion.linkage: t must be one angle, got shape {np.shape(t)}")
        out = linkage.copy()
        out.set_positions(self.placement(float(t)))
        return out


def _smallest_gap(red: np.ndarray, blue: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """The least distance, over all t, between joints on distinct points (closed form)."""
    points = np.unique(np.stack([red, blue], axis=1), axis=0)
    count = len(points)
    if count < 2:
        return np.inf
    ax, ay = a[points[:, 0]].T
    bx, by = b[points[:, 1]].T
    best = np.inf
    rows = max(1, _CHUNK // count)
    for start in range(0, count - 1, rows):
        stop = min(start + rows, count)
        # rows start..stop-1 against every later point (a strip of the upper triangle);
        # the square part of the strip counts each pair twice, the diagonal is masked
        cols = slice(start, None)
        alpha = _distances(ax[start:stop], ay[start:stop], ax[cols], ay[cols])
        alpha -= _distances(bx[start:stop], by[start:stop], bx[cols], by[cols])
        np.abs(alpha, out=alpha)
        square = alpha[:, : stop - start]
        square[np.tril_indices(stop - start)] = np.inf
        best = min(best, float(alpha.min()))
    return best


def _distances(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """``(len(x0), len(x1))`` distances between two point sets given by coordinates."""
    dx = np.subtract.outer(x0, x1)
    dy = np.subtract.outer(y0, y1)
    dx *= dx
    dy *= dy
    dx += dy
    return np.sqrt(dx, out=dx)


def _fit(motion: NACMotion, linkage: Any, gap: float) -> NACMotion:
    """The motion at the linkage's size and centre; ``gap`` relative to the mean rod."""
    current = linkage.rod_lengths()
    mean = float(motion.lengths.mean())
    scale = float(current.mean()) / mean if current.size else 1.0
    scale = scale if np.isfinite(scale) and scale > 0 else 1.0
    a, b = motion.a * scale, motion.b * scale
    shift = np.asarray(linkage.vertices, dtype=float)[:, :2].mean(axis=0)
    a = a + (shift - (a[motion.red] + b[motion.blue]).mean(axis=0))
    gap = gap * mean * scale
    return NACMotion(motion.colouring, motion.rods, motion.red, motion.blue, a, b, gap)


def _draw(red: np.ndarray, blue: np.ndarray, red_rods: np.ndarray, rods: np.ndarray, rng: Any):
    """Random a, b whose rods are all longer than NAC_MIN_GAP times their mean."""
    for _ in range(_DRAWS):
        a, b = rng.normal(size=(red.max() + 1, 2)), rng.normal(size=(blue.max() + 1, 2))
        motion = NACMotion(red_rods, rods, red, blue, a, b, np.nan)
        lengths = motion.lengths
        if lengths.min() > NAC_MIN_GAP * float(lengths.mean()):
            return motion
    raise ValueError(  # pragma: no cover - probability about (1e-12 m)^50
        f"nac_motion: no random placement kept every rod longer than {NAC_MIN_GAP:g} times the mean"
    )


def nac_motion(linkage: Any, colouring: Any, *, seed: Any = None) -> NACMotion:
    r"""A flexible placement of ``linkage``'s graph that ``colouring`` gives, and its motion.

    The placement is a new shape, not the linkage's current one: the graph's rods get
    new lengths (:attr:`NACMotion.lengths`) at which it moves.
    :meth:`NACMotion.linkage` makes a copy of the linkage placed there.

    Parameters
    ----------
    linkage : Linkage
        Its rods are the graph; its placement only sets the size and centre of the
        result (mean rod length and centroid at :math:`t = 0`).
    colouring : (m,) bool array_like
        A NAC-colouring, True = red (e.g. one of
        :func:`~linkage_widget.rigidity.nac.nac_colourings`).
    seed : int or numpy.random.Generator, optional
        For the random vectors :math:`a, b` (default None: a fresh draw each call).

    Returns
    -------
    NACMotion
        ``.start`` ``(n, 2)``, ``.placement(t)``, ``.lengths`` ``(m,)``,
        ``.smallest_gap``; every rod at least :data:`NAC_MIN_GAP` times the mean rod
        length, and of a few draws the one whose non-adjacent joints keep furthest
        apart (relative to the mean rod).

    Raises
    ------
    ValueError
        When ``colouring`` has the wrong shape, uses one colour only, or is not a
        NAC-colouring (naming a rod whose ends a path of the other colour joins).
    """
    rods = _rods(linkage, "nac_motion")
    red_rods = _colouring(colouring, len(rods), "nac_motion")
    if red_rods.all() or not red_rods.any():
        raise ValueError("nac_motion: a NAC-colouring uses both colours; this one uses one")
    bad = nac_conflict(linkage, red_rods)
    if bad is not None:
        i, j = rods[bad]
        raise ValueError(
            f"nac_motion: not a NAC-colouring: rod {bad} ({i}-{j}) is "
            f"{'red' if red_rods[bad] else 'blue'} and a path of the other colour joins "
            f"its ends (a cycle with one rod of that colour)"
        )
    n = linkage.n_vertices
    red, blue = _components(n, rods[red_rods]), _components(n, rods[~red_rods])
    rng = np.random.default_rng(seed)
    best, best_gap = None, -1.0
    for _ in range(_TRIES):
        motion = _draw(red, blue, red_rods, rods, rng)
        gap = _smallest_gap(red, blue, motion.a, motion.b) / float(motion.lengths.mean())
        if gap > best_gap:
            best, best_gap = motion, gap
        if not np.isfinite(gap):  # one point or none: nothing to compare
            break
    return _fit(best, linkage, best_gap)

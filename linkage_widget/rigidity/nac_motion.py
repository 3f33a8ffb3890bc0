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

Apart and together. Two joints with the same pair :math:`(r, b)` sit on one point for
all :math:`t`; adjacent joints never do (a red rod with :math:`b(u) = b(v)` would
close a cycle with one red rod), so the motion is *quasi-injective*, the paper's
word. Otherwise the smallest distance over the whole motion is known in closed form,

.. math:: \min_t |\alpha + \mathrm{Rot}(t)\beta| = \bigl|\,|\alpha| - |\beta|\,\bigr|,
          \quad \alpha = a_{r(u)} - a_{r(v)},\ \beta = b_{b(u)} - b_{b(v)},

so random :math:`a, b` (from ``seed``) are checked to keep these apart and drawn again
if not (about :math:`n^2/2` pairs: a placement of a few thousand joints is checked in
well under a second).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .nac import _colouring, _components, _rods, nac_conflict

__all__ = ["NACMotion", "nac_motion", "NAC_MIN_GAP"]

#: the smallest distance, relative to the mean rod length, that two joints on distinct
#: points of the construction keep over the whole motion (else a, b are drawn again)
NAC_MIN_GAP = 1e-6
_DRAWS = 50


@dataclass(frozen=True, eq=False)
class NACMotion:
    r"""The motion :math:`p_t(v) = a_{r(v)} + \mathrm{Rot}(t)\, b_{b(v)}` of a colouring.

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
    """

    colouring: np.ndarray
    rods: np.ndarray
    red: np.ndarray
    blue: np.ndarray
    a: np.ndarray
    b: np.ndarray

    def placement(self, t: Any) -> np.ndarray:
        """The placement at angle ``t``: ``(n, 2)`` for a float, ``(K, n, 2)`` for ``(K,)``."""
        angle = np.asarray(t, dtype=float)
        c, s = np.cos(angle)[..., None], np.sin(angle)[..., None]
        bx, by = self.b[self.blue, 0], self.b[self.blue, 1]
        turned = np.stack([c * bx - s * by, s * bx + c * by], axis=-1)
        return self.a[self.red] + turned

    @property
    def start(self) -> np.ndarray:
        """The placement at :math:`t = 0`, ``(n, 2)``."""
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


def _smallest_gap(red: np.ndarray, blue: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """The least distance, over all t, between joints on distinct points (closed form)."""
    points = np.unique(np.stack([red, blue], axis=1), axis=0)
    if len(points) < 2:
        return np.inf
    pa, pb = a[points[:, 0]], b[points[:, 1]]
    gaps = [  # a row at a time: memory stays (n,) on large graphs
        np.abs(
            np.linalg.norm(pa[i + 1 :] - pa[i], axis=1)
            - np.linalg.norm(pb[i + 1 :] - pb[i], axis=1)
        ).min()
        for i in range(len(points) - 1)
    ]
    return float(min(gaps))


def _fit(motion: NACMotion, linkage: Any) -> NACMotion:
    # the linkage's size and centre, so the flex can be drawn where the linkage is
    current = linkage.rod_lengths()
    scale = float(current.mean()) / float(motion.lengths.mean()) if current.size else 1.0
    scale = scale if np.isfinite(scale) and scale > 0 else 1.0
    a, b = motion.a * scale, motion.b * scale
    shift = np.asarray(linkage.vertices, dtype=float)[:, :2].mean(axis=0)
    a = a + (shift - (a[motion.red] + b[motion.blue]).mean(axis=0))
    return NACMotion(motion.colouring, motion.rods, motion.red, motion.blue, a, b)


def nac_motion(linkage: Any, colouring: Any, *, seed: Any = None) -> NACMotion:
    r"""The flexible placement of ``linkage``'s graph that ``colouring`` gives, and its motion.

    Parameters
    ----------
    linkage : Linkage
        Its rods are the graph; its placement only sets the size and centre of the
        result (mean rod length and centroid at :math:`t = 0`).
    colouring : (m,) bool array_like
        A NAC-colouring, True = red (e.g. one of
        :func:`~linkage_widget.rigidity.nac.nac_colourings`).
    seed : int or numpy.random.Generator, optional
        For the random vectors :math:`a, b`.

    Returns
    -------
    NACMotion
        ``.start`` ``(n, 2)``, ``.placement(t)``, ``.lengths`` ``(m,)``.

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
    for _ in range(_DRAWS):
        a, b = rng.normal(size=(red.max() + 1, 2)), rng.normal(size=(blue.max() + 1, 2))
        motion = NACMotion(red_rods, rods, red, blue, a, b)
        if _smallest_gap(red, blue, a, b) > NAC_MIN_GAP * float(motion.lengths.mean()):
            return _fit(motion, linkage)
    raise ValueError(  # pragma: no cover - probability about (1e-3)^50
        f"nac_motion: no random placement kept the joints {NAC_MIN_GAP:g} apart"
    )

r"""Rigidity percolation: bond-diluted lattices and the rigid cluster that spans them.

Keep each bond of a lattice with probability :math:`p` and play the pebble game on
what is left. Connectivity percolates on the triangular lattice at :math:`p = 2\sin(\pi/18)
\approx 0.347`; rigidity needs far more, and appears suddenly at the threshold
:math:`p_c \approx 0.6603` (Jacobs and Thorpe, 1995, 1996), where a rigid cluster first
spans the sample. Maxwell's count, :math:`\tfrac{z}{2} p = 2` bonds per site for two
freedoms with :math:`z = 6`, gives the mean-field :math:`p = 2/3`.

The samples
    ``size`` × ``size`` sites, *free* boundaries (no bond wraps around). ``"triangular"``:
    rows offset by half a spacing, six neighbours inside; ``"square_crossed"``: the
    square lattice with both diagonals of every square (eight neighbours, a graph that
    is not planar, which the pebble game does not mind).
Spanning
    A rigid cluster (:mod:`.rigid_clusters`) holding a site of the left column and one of
    the right column (the classic definition). Its share of the lattice's bonds is the
    order parameter :math:`P_\infty`; its share of the sites is given too.
Newman–Ziff order (2000)
    The bonds are put in one random order and added one by one, ``p`` standing for the
    first :math:`\operatorname{round}(pM)` of the :math:`M` bonds (a fixed number of bonds,
    the "microcanonical" ensemble). The pebble game is incremental, so one run gives the
    whole curve (:func:`percolation_curve`), and, since adding bonds never breaks a rigid
    cluster, the exact bond count where a spanning cluster first appears follows by
    bisection over snapshots of the game (:func:`percolation_threshold`).

The compiled game (:mod:`.pebble_fast`, numba: the ``fast`` extra) does the work when it
imports; without it the pure-Python game gives the same clusters, slowly.

>>> r = rigidity_percolation(8, 1.0, seed=0)     # every bond: one rigid cluster
>>> bool(r.spans), r.spanning_bonds, int(r.labels.max()) + 1
(True, 1.0, 1)
>>> bool(rigidity_percolation(8, 0.3, seed=0).spans)   # fewer bonds than 2 per site
False
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._pebble_arrays import numbered_by
from .pebble_fast import FastGame, compiled_available, use_compiled
from .rigid_clusters import PureGame

__all__ = [
    "LATTICES",
    "PercolationCurve",
    "RigidityPercolation",
    "lattice_bonds",
    "percolation_curve",
    "percolation_threshold",
    "rigidity_percolation",
]

LATTICES = ("triangular", "square_crossed")
#: From this many lattice bonds a run takes the compiled game when numba imports (one
#: game, the pebble game's own threshold, would wait for 20 000 edges; a run decomposes
#: its clusters many times: at 3 000 bonds a threshold takes 0.2 s in Python, 0.01 s
#: compiled, docs/benchmarks.md).
COMPILED_MIN_BONDS = 2_000


def lattice_bonds(size: int, lattice: str = "triangular") -> tuple[np.ndarray, np.ndarray]:
    """The sites' positions ``(size², 2)`` and the bonds ``(M, 2)`` of a free-boundary sample.

    Site ``(i, j)`` (column ``i``, row ``j``) is number ``j * size + i``.

    >>> pos, bonds = lattice_bonds(3)
    >>> pos.shape, bonds.shape        # 6 along the rows, 6 + 4 between them
    ((9, 2), (16, 2))
    """
    if lattice not in LATTICES:
        raise ValueError(f"lattice {lattice!r}: expected one of {LATTICES}")
    if int(size) < 2:
        raise ValueError(f"size {size}: a lattice needs at least 2 × 2 sites")
    L = int(size)
    i, j = np.meshgrid(np.arange(L), np.arange(L))
    i, j = i.ravel(), j.ravel()
    site = j * L + i
    pairs = [(site[i < L - 1], site[i < L - 1] + 1), (site[j < L - 1], site[j < L - 1] + L)]
    if lattice == "triangular":
        # rows alternate a half-spacing shift; the second up-neighbour leans towards it
        shift = j % 2
        lean = 2 * shift - 1  # -1 on even rows, +1 on odd rows
        ok = (j < L - 1) & (i + lean >= 0) & (i + lean < L)
        pairs.append((site[ok], site[ok] + L + lean[ok]))
        pos = np.stack([i + 0.5 * shift, j * np.sqrt(3) / 2], axis=1)
    else:
        ok = (i < L - 1) & (j < L - 1)
        pairs += [(site[ok], site[ok] + L + 1), (site[ok] + 1, site[ok] + L)]
        pos = np.stack([i, j], axis=1).astype(float)
    bonds = np.concatenate([np.stack(p, axis=1) for p in pairs]).astype(np.int64)
    return pos.astype(float), bonds


@dataclass(frozen=True, eq=False)
class RigidityPercolation:
    r"""One bond-diluted sample and its rigid clusters.

    Attributes
    ----------
    size, lattice, p
        The sample: ``size`` × ``size`` sites; ``p`` the share of bonds kept
        (:math:`\operatorname{round}(pM)` of them).
    positions : ndarray, shape (size², 2)
        The sites.
    bonds : ndarray of int, shape (k, 2)
        The bonds present, in the run's (random) order; the game plays them by position
        (the clusters do not depend on the order).
    labels : ndarray of int, shape (k,)
        Each present bond's rigid cluster (``0, 1, ...``); they partition the bonds.
    spanning : int
        The spanning cluster's label (the largest if several span), ``-1`` if none.
    spanning_bonds : float
        :math:`P_\infty`: the spanning cluster's bonds over the lattice's :math:`M`.
    spanning_sites : float
        Its sites over ``size²``.
    """

    size: int
    lattice: str
    p: float
    positions: np.ndarray
    bonds: np.ndarray
    labels: np.ndarray
    spanning: int
    spanning_bonds: float
    spanning_sites: float

    @property
    def spans(self) -> bool:
        """Whether a rigid cluster spans from the left column to the right one."""
        return self.spanning >= 0


@dataclass(frozen=True, eq=False)
class PercolationCurve:
    """The spanning cluster along one Newman–Ziff run: arrays over ``p``, shape (k,)."""

    size: int
    lattice: str
    p: np.ndarray
    spanning_bonds: np.ndarray
    spanning_sites: np.ndarray

    @property
    def spans(self) -> np.ndarray:
        """Whether a rigid cluster spans at each ``p``."""
        return self.spanning_bonds > 0


class _Run:
    """One Newman–Ziff run: the lattice, its bond order and the game's engine."""

    def __init__(self, size: int, lattice: str, seed, compiled: bool | None) -> None:
        self.size, self.lattice = int(size), lattice
        self.positions, bonds = lattice_bonds(size, lattice)
        self.order = bonds[np.random.default_rng(seed).permutation(len(bonds))]
        n = len(self.positions)
        self.column = np.arange(n) % self.size
        if compiled is None:  # a run decomposes many times: numba pays off sooner
            compiled = len(bonds) >= COMPILED_MIN_BONDS and compiled_available()
        self.compiled = use_compiled(compiled, len(bonds))
        self.engine = FastGame if self.compiled else PureGame

    def count(self, p: float) -> int:
        """How many bonds stand for ``p``."""
        if not 0.0 <= float(p) <= 1.0:
            raise ValueError(f"p = {p}: a probability in [0, 1]")
        return int(round(float(p) * len(self.order)))

    def new_game(self):
        return self.engine(len(self.positions))

    def local(self, bonds: np.ndarray) -> np.ndarray:
        """An order of ``bonds`` by position: their least site's Morton (Z) number.

        Bonds near in space are played near in time: the game's searches stay in a small
        part of the records (10⁶ sites: 2.7 s against 4.4 s in random order). The rigid
        clusters depend on the bonds, not on their order.
        """
        site = bonds.min(axis=1)
        x, y = site % self.size, site // self.size
        z = np.zeros_like(site)
        for bit in range(max(1, int(self.size - 1).bit_length())):
            z |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
        return np.argsort(z, kind="stable")

    def spanning(self, game) -> tuple[np.ndarray, int, int, int]:
        """``(labels, spanning label or -1, its bonds, its sites)`` of the game's bonds.

        Only the clusters of the bonds at the left column are needed (a spanning cluster
        is one of them), far fewer than all.
        """
        played = self.order[: len(game.accepted)]
        starts = np.flatnonzero((self.column[played] == 0).any(axis=1))
        labels, count = game.clusters(starts)
        return self.spans(played, labels, count)

    def spans(self, played: np.ndarray, labels: np.ndarray, count: int):
        """:meth:`spanning`'s answer from the ``labels`` of the bonds ``played``."""
        cols = self.column[played]
        left = np.zeros(count + 1, bool)
        right = np.zeros(count + 1, bool)
        left[labels[(cols == 0).any(axis=1)]] = True
        right[labels[(cols == self.size - 1).any(axis=1)]] = True
        spans = np.flatnonzero((left & right)[:count])
        if not spans.size:
            return labels, -1, 0, 0
        sizes = np.bincount(labels[labels >= 0], minlength=count)
        best = int(spans[np.argmax(sizes[spans])])
        sites = np.unique(played[labels == best]).size
        return labels, best, int(sizes[best]), int(sites)


def rigidity_percolation(
    size: int,
    p: float,
    *,
    lattice: str = "triangular",
    seed: int | np.random.Generator | None = None,
    compiled: bool | None = None,
) -> RigidityPercolation:
    """Dilute a lattice's bonds to ``p`` and find its rigid clusters and the spanning one.

    Parameters
    ----------
    size : int
        Sites per side (``size²`` sites, free boundaries).
    p : float
        Share of the bonds kept, in [0, 1]: the first ``round(p * M)`` of a random order.
    lattice : {"triangular", "square_crossed"}
    seed : int, Generator or None
        The bond order (the same seed gives the same sample at every ``p``, nested).
    compiled : bool or None
        The pebble game's path, as in :func:`~.pebble.pebble_game`.

    Returns
    -------
    RigidityPercolation
    """
    run = _Run(size, lattice, seed, compiled)
    present = run.order[: run.count(p)]
    local = run.local(present)
    game = run.new_game()
    game.play(present[local])
    # grown in the order played: the pebbles lie where that order left them (10⁶ sites:
    # 5.2 s, by least site 13 s)
    found, count = game.clusters(np.arange(len(present)), as_given=True)
    labels = np.empty_like(found)
    labels[local] = found
    # numbered by their first bond in the run's order, as a game in that order numbers them
    labels = numbered_by(labels, np.arange(len(labels)), count)
    _, best, bonds, sites = run.spans(present, labels, count)
    return RigidityPercolation(
        run.size, lattice, float(p), run.positions, present.copy(), labels,
        best, bonds / len(run.order), sites / len(run.positions),
    )  # fmt: skip


def percolation_curve(
    size: int,
    ps,
    *,
    lattice: str = "triangular",
    seed: int | np.random.Generator | None = None,
    compiled: bool | None = None,
) -> PercolationCurve:
    r"""The spanning cluster's share at every ``p`` of ``ps``, from one Newman–Ziff run.

    The bonds are added once, in one random order; the clusters are decomposed at each
    ``p`` (sorted). Returns a :class:`PercolationCurve` in the order of ``ps``.
    """
    run = _Run(size, lattice, seed, compiled)
    ps = np.asarray(ps, dtype=float).reshape(-1)
    counts = [run.count(p) for p in ps]
    bonds, sites = np.zeros(len(ps)), np.zeros(len(ps))
    game, played = run.new_game(), 0
    for k in np.argsort(ps, kind="stable"):
        game.play(run.order[played : counts[k]])
        played = max(played, counts[k])
        _, _, b, s = run.spanning(game)
        bonds[k], sites[k] = b / len(run.order), s / len(run.positions)
    return PercolationCurve(run.size, lattice, ps, bonds, sites)


def percolation_threshold(
    size: int,
    *,
    lattice: str = "triangular",
    seed: int | np.random.Generator | None = None,
    compiled: bool | None = None,
) -> float:
    r"""The share of bonds at which a spanning rigid cluster first appears, in one run.

    Adding bonds never breaks a rigid cluster, so spanning is monotone along the run:
    bisection over the bond count, each step one snapshot of the game played forward
    and decomposed (:math:`\log_2 M` decompositions, every bond played about once).
    Returns :math:`k^*/M`, :math:`k^*` the least count that spans; its mean over seeds
    estimates :math:`p_c` (with finite-size shifts).
    """
    run = _Run(size, lattice, seed, compiled)
    lo, hi = 0, len(run.order)
    low = run.new_game()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        game = low.copy()
        game.play(run.order[lo:mid])
        if run.spanning(game)[1] >= 0:
            hi = mid
        else:
            lo, low = mid, game
    return hi / len(run.order)

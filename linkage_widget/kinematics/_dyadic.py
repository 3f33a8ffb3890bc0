r"""A crank-driven linkage placed in closed form: the crank, then Assur groups of class 1.

When a linkage decomposes by a *constructive order* from its pinned joints and the driven
crank, every joint is placed from joints placed before it, in closed form:

* **the crank** ``c → t`` turned to :math:`\theta`: :math:`p_t = p_c + r\,u(\theta)`,
  :math:`u = (\cos\theta, \sin\theta)` (or :math:`p_c = p_t - r\,u` when the tip is placed
  first);
* **an RRR dyad**: joint :math:`v` with two rods, of lengths :math:`l_a`, :math:`l_b`, to
  placed joints :math:`a`, :math:`b`: an intersection of two circles
  (:func:`~linkage_widget.configuration._dyads.circle_meet`), its side of :math:`a \to b`
  the *assembly mode* :math:`\sigma = \operatorname{sign}\big((p_b - p_a) \times (p_v -
  p_a)\big)`;
* **an RRP dyad**: joint :math:`v` on a slider (the line :math:`F + s\,u`, :math:`F` the
  foot of its normal offset, :math:`n` its unit normal) with one rod of length :math:`l`
  to a placed joint :math:`a`: with :math:`q = p_a - F`,

  .. math:: s = u\cdot q + \sigma\sqrt{l^2 - (n\cdot q)^2}, \qquad
            \sigma = \operatorname{sign}\big(u\cdot(p_v - p_a)\big).

Differentiating the rows of a dyad, :math:`e_a\cdot(\dot p_v - \dot p_a) = 0` with
:math:`e_a = p_v - p_a` (and likewise for :math:`b`), gives per joint a 2×2 system

.. math:: \begin{pmatrix} e_a^\top \\ e_b^\top \end{pmatrix} p_v' =
          \begin{pmatrix} e_a\cdot p_a' \\ e_b\cdot p_b' \end{pmatrix}, \qquad
          \begin{pmatrix} e_a^\top \\ e_b^\top \end{pmatrix} p_v'' =
          \begin{pmatrix} e_a\cdot p_a'' - |p_v' - p_a'|^2 \\
                          e_b\cdot p_b'' - |p_v' - p_b'|^2 \end{pmatrix}

(for a slider :math:`p_v' = s' u`: one equation in :math:`s'`), solved by Cramer's rule:
the velocity and acceleration per unit crank speed, exactly. Its determinant
:math:`e_a \times e_b` (a slider's :math:`e_a\cdot u`) vanishes where the dyad is straight,
a dead point of the drive (the constraint Jacobian is block triangular with these blocks on
its diagonal): below ``RANK_RTOL`` of :math:`l_a l_b` (of :math:`l`), the rigidity's rank
rule, a placement is not *regular*.

Every array is vectorised over leading axes: designs (rod lengths) × crank angles.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..configuration._dyads import circle_pair
from ..constraints import GuideRows
from ..model import Linkage
from ..rigidity import RANK_RTOL

__all__ = ["CRANK", "NEAR_STRAIGHT", "RRP", "RRR", "Step", "dyadic_order", "modes_at", "solve"]

#: Kinds of a step of the order.
CRANK, RRR, RRP = 0, 1, 2
#: A dyad this close to straight somewhere on the branch (the sine of the angle at its
#: joint, or of its rod to the slide) may pass through a touching of its circles there
#: (Peaucellier's inversor does), where its joint changes side: the branch is then
#: followed grid point by grid point. Away from it no side can change between two grid
#: points, and each dyad keeps the side it has in the linkage's placement.
NEAR_STRAIGHT = 0.2


class Step(NamedTuple):
    """One joint placed: ``joint`` from ``a`` (and ``b``) by rods ``rod_a`` (and ``rod_b``).

    ``kind`` :data:`CRANK` (``b = -1``; ``sign`` +1 places the tip from the pivot, -1 the
    pivot from the tip), :data:`RRR` (``b`` the second placed joint) or :data:`RRP`
    (``b`` the slider's index, ``rod_b = -1``).
    """

    kind: int
    joint: int
    a: int
    b: int
    rod_a: int
    rod_b: int
    sign: float = 1.0


def _neighbours(linkage: Linkage, skip: int) -> dict[int, list[tuple[int, int]]]:
    """``nb[v] = [(w, rod), ...]`` over every rod but ``skip`` (the crank's)."""
    nb: dict[int, list[tuple[int, int]]] = {v: [] for v in range(linkage.n_vertices)}
    for r, (i, j) in enumerate(linkage.rods.tolist()):
        if r != skip:
            nb[i].append((j, r))
            nb[j].append((i, r))
    return nb


def _next_step(nb, placed: set[int], todo: list[int], crank: Step, sliders: dict) -> Step | None:
    """The next joint the order can place: the crank first when it can, else a dyad."""
    if crank.a in placed and crank.joint in todo:
        return crank
    back = crank._replace(joint=crank.a, a=crank.joint, sign=-1.0)
    if crank.joint in placed and crank.a in todo:
        return back
    for v in todo:
        ties = [(w, r) for w, r in nb[v] if w in placed]
        if v in sliders and len(ties) == 1:
            return Step(RRP, v, ties[0][0], sliders[v], ties[0][1], -1)
        if v not in sliders and len(ties) == 2:
            (a, ra), (b, rb) = ties
            return Step(RRR, v, a, b, ra, rb)
    return None


def dyadic_order(linkage: Linkage, pivot: int, tip: int) -> tuple[Step, ...] | None:
    """The constructive order of ``linkage`` driven on rod ``pivot``→``tip``, or None.

    None when the linkage does not decompose into the crank and RRR/RRP dyads: fixed
    angles or slots, a joint held by more rods than it needs when placed (a redundant
    rod), or a joint no dyad places (a triad, a free joint). Rods between pinned joints
    are the ground.
    """
    if len(linkage.angles) or len(linkage.slots):
        return None
    rod = linkage.find_rod(pivot, tip)
    nb = _neighbours(linkage, rod)
    sliders = {int(s.joint): k for k, s in enumerate(linkage.sliders)}
    pinned = {int(v) for v in linkage.pinned}
    placed, used, steps = set(pinned), set(), []
    todo = [v for v in range(linkage.n_vertices) if v not in placed]
    crank = Step(CRANK, tip, pivot, -1, rod, -1)
    while todo:
        step = _next_step(nb, placed, todo, crank, sliders)
        if step is None:
            return None
        steps.append(step)
        placed.add(step.joint)
        todo.remove(step.joint)
        used |= {step.rod_a, step.rod_b} - {-1}
    ground = {r for r, (i, j) in enumerate(linkage.rods.tolist()) if {i, j} <= pinned}
    if rod not in used or used | ground != set(range(linkage.n_rods)):
        return None
    return tuple(steps)


def _unit_along(guides: GuideRows, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slider ``s``'s direction :math:`u`, normal :math:`n` and the foot :math:`F` of its line."""
    n = guides.normals[s]
    return np.array([n[1], -n[0]]), n, guides.points[s] + guides.offsets[s] * n


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross products of vectors stored coordinates first, ``(2, ...)``."""
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot products of vectors stored coordinates first, ``(2, ...)``."""
    return a[0] * b[0] + a[1] * b[1]


def modes_at(steps: tuple[Step, ...], p: np.ndarray, guides: GuideRows) -> np.ndarray:
    r"""The assembly mode :math:`\sigma` of each step at positions ``p`` ``(n, 2)``.

    +1 or -1 for a dyad (the crank's entry is 1), 0 where a dyad is straight there to
    within ``RANK_RTOL`` (the sine of its angle): the placement is at a dead point of
    the drive and no side is chosen.
    """
    out = np.ones(len(steps))
    for k, s in enumerate(steps):
        if s.kind == CRANK:
            continue
        ea = p[s.joint] - p[s.a]
        if s.kind == RRR:
            eb = p[s.joint] - p[s.b]
            sine = _cross(p[s.b] - p[s.a], ea) / (np.hypot(*ea) * np.hypot(*eb))
        else:
            sine = _dot(_unit_along(guides, s.b)[0], ea) / np.hypot(*ea)
        out[k] = np.sign(sine) if abs(sine) > RANK_RTOL else 0.0
    return out


def _on_arc(ok: np.ndarray, start: int) -> np.ndarray:
    """Of the cyclic grid ``ok (b, g)``, the run of True through index ``start`` ``(b, g)``."""
    g = ok.shape[1]
    if ok.all():
        return ok
    rolled = np.roll(ok, -start, axis=1)
    bad = ~rolled
    some = bad.any(axis=1)
    first = np.where(some, bad.argmax(axis=1), g)  # the first gap after the start
    last = np.where(some, g - 1 - bad[:, ::-1].argmax(axis=1), -1)  # the last before it
    idx = np.arange(g)
    run = ((idx < first[:, None]) | (idx > last[:, None])) & rolled[:, :1]
    return np.roll(run, start, axis=1)


def _walk(same: np.ndarray, arc: np.ndarray, start: int) -> np.ndarray:
    """Signs ``(b, g)`` of the joint's side along the arc from ``start`` (+1 there).

    ``same[:, j]``: grid point ``j`` continues ``j - 1`` on the same side. Forward from the
    start up to the arc's first gap, backward from it after its last one (half the circle
    each way when the arc is the whole circle).
    """
    g = same.shape[1]
    flips = np.roll(np.where(same, 1.0, -1.0), -start, axis=1)
    wrap = flips[:, :1].copy()
    flips[:, 0] = 1.0
    forward = np.cumprod(flips, axis=1)
    backward = wrap * np.concatenate(
        [np.cumprod(flips[:, :0:-1], axis=1)[:, ::-1], np.ones((len(flips), 1))], axis=1
    )
    gaps = ~np.roll(arc, -start, axis=1)
    first = np.where(gaps.any(axis=1), gaps.argmax(axis=1), (g + 1) // 2)
    signs = np.where(np.arange(g) < first[:, None], forward, backward)
    return np.roll(signs, start, axis=1)


def _pair(s: Step, p: np.ndarray, lengths: np.ndarray, guides: GuideRows) -> tuple:
    """The dyad's two joints as foot ± offset ``(2, b, g)``, and where they are real."""
    la = lengths[:, s.rod_a, None]
    if s.kind == RRR:
        return circle_pair(p[s.a], p[s.b], la, lengths[:, s.rod_b, None])
    along, normal, foot = _unit_along(guides, s.b)
    qx, qy = p[s.a, 0] - foot[0], p[s.a, 1] - foot[1]
    w2 = la * la - (qx * normal[0] + qy * normal[1]) ** 2
    root = np.sqrt(np.maximum(w2, 0.0))
    t = qx * along[0] + qy * along[1]
    feet = np.stack([foot[0] + t * along[0], foot[1] + t * along[1]])
    return feet, np.stack([root * along[0], root * along[1]]), w2 >= 0.0


def _crank(s: Step, p, v, a, lengths: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> None:
    """Place the crank's joint (and its rates, when ``v`` is given)."""
    r = s.sign * lengths[:, s.rod_a, None]
    j, i = s.joint, s.a
    p[j, 0], p[j, 1] = p[i, 0] + r * cos, p[i, 1] + r * sin
    if v is not None:
        v[j, 0], v[j, 1] = v[i, 0] - r * sin, v[i, 1] + r * cos
        a[j, 0], a[j, 1] = a[i, 0] - r * cos, a[i, 1] - r * sin


def _rates(s: Step, p: np.ndarray, v: np.ndarray, a: np.ndarray, lengths, guides) -> np.ndarray:
    """Set the joint's velocity and acceleration (module docstring); its relative determinant."""
    j, i = s.joint, s.a
    la = lengths[:, s.rod_a, None]
    ea = p[j] - p[i]
    if s.kind == RRP:
        along = _unit_along(guides, s.b)[0]
        det = ea[0] * along[0] + ea[1] * along[1]
        rate = _dot(ea, v[i]) / det
        v[j, 0], v[j, 1] = rate * along[0], rate * along[1]
        rel = v[j] - v[i]
        acc = (_dot(ea, a[i]) - _dot(rel, rel)) / det
        a[j, 0], a[j, 1] = acc * along[0], acc * along[1]
        return det / la
    eb = p[j] - p[s.b]
    det = _cross(ea, eb)
    v[j, 0], v[j, 1] = _cramer(ea, eb, det, _dot(ea, v[i]), _dot(eb, v[s.b]))
    ra, rb = v[j] - v[i], v[j] - v[s.b]
    fa, fb = _dot(ea, a[i]) - _dot(ra, ra), _dot(eb, a[s.b]) - _dot(rb, rb)
    a[j, 0], a[j, 1] = _cramer(ea, eb, det, fa, fb)
    return det / (la * lengths[:, s.rod_b, None])


def _cramer(ea, eb, det, fa, fb) -> tuple[np.ndarray, np.ndarray]:
    r"""The :math:`x` with :math:`e_a\cdot x = f_a`, :math:`e_b\cdot x = f_b` (Cramer's rule)."""
    return (fa * eb[1] - fb * ea[1]) / det, (ea[0] * fb - eb[0] * fa) / det


def _continued(p, v, a, foot, off, h) -> np.ndarray:
    r"""Whether the + joint (foot + off) at grid ``j`` continues the + joint at ``j - 1``.

    Through a touching of the dyad's circles (Peaucellier's inversor) the joints swap
    sides; a swap is seen when the second-order prediction :math:`p + h p' + h^2 p''/2`
    (:mod:`._trace`'s predictor) from ``j - 1`` to ``j`` *and* the one from ``j`` back to
    ``j - 1`` both land nearer the - joint. One alone is not trusted: next to a limit
    :math:`p'` grows like :math:`1/\sqrt{\theta - \theta_0}`, and the prediction from a
    grid point a hair from the limit overshoots past the - joint, while the one towards
    it, from a regular point, stays right.
    """
    forward = np.roll(p + h * v + 0.5 * h * h * a, 1, axis=-1)
    back = p - h * v + 0.5 * h * h * a  # from j to j - 1, compared there
    before = np.roll(foot, 1, axis=-1), np.roll(off, 1, axis=-1)
    return _nearer_plus(foot, off, forward) | _nearer_plus(*before, back)


def _nearer_plus(foot, off, point) -> np.ndarray:
    """Whether ``point`` is at least as near the + joint (foot + off) as the - joint."""
    plus, minus = foot + off - point, foot - off - point
    return _dot(plus, plus) <= _dot(minus, minus)


def _straightness(s: Step, p: np.ndarray, lengths: np.ndarray, guides: GuideRows) -> np.ndarray:
    """The sine of the dyad's angle at its joint (of its rod to the slide), ``(b, g)``."""
    ea = p[s.joint] - p[s.a]
    la = lengths[:, s.rod_a, None]
    if s.kind == RRP:
        along = _unit_along(guides, s.b)[0]
        return np.abs(ea[0] * along[0] + ea[1] * along[1]) / la
    return np.abs(_cross(ea, p[s.joint] - p[s.b])) / (la * lengths[:, s.rod_b, None])


def _place(steps, modes, base, grid, start, lengths, guides, walk: bool) -> tuple:
    """Positions ``(n, 2, b, g)`` on the grid, the arc ``(b, g)``, whether a dyad nears straight.

    ``walk``: continue each dyad's side grid point by grid point (with the rates the
    predictor needs), else keep the placement's sides.
    """
    b, g = len(lengths), len(grid)
    p = np.empty((len(base), 2, b, g))
    p[...] = base[:, :, None, None]
    v, a = (np.zeros_like(p), np.zeros_like(p)) if walk else (None, None)
    h = np.diff(grid, prepend=grid[-1] - 2 * np.pi)
    cos, sin = np.cos(grid), np.sin(grid)
    arc, near = np.ones((b, g), bool), False
    for s, mode in zip(steps, modes, strict=True):
        if s.kind == CRANK:
            _crank(s, p, v, a, lengths, cos, sin)
            continue
        foot, off, ok = _pair(s, p, lengths, guides)
        arc = _on_arc(arc & ok, start)
        if not walk:
            p[s.joint] = foot + mode * off
            near = near or bool((_straightness(s, p, lengths, guides)[arc] < NEAR_STRAIGHT).any())
            continue
        p[s.joint] = foot + off
        _rates(s, p, v, a, lengths, guides)
        same = _continued(p[s.joint], v[s.joint], a[s.joint], foot, off, h)
        p[s.joint] = foot + mode * _walk(same, arc, start) * off
        _rates(s, p, v, a, lengths, guides)
    return p, arc, near


def solve(
    steps: tuple[Step, ...],
    modes: np.ndarray,
    base: np.ndarray,
    grid: np.ndarray,
    start: int,
    samples: np.ndarray,
    lengths: np.ndarray,
    guides: GuideRows,
) -> tuple[np.ndarray, ...]:
    """The branch through ``grid[start]`` on a sorted cyclic grid of crank angles ``(g,)``.

    For rod ``lengths (b, m)``, every dyad on side ``modes`` (:func:`modes_at`) at the
    start and continued along the grid (through a touching of its circles where one is
    near straight, :data:`NEAR_STRAIGHT`). Returns, at the grid points ``samples (k,)``,
    positions, velocities and accelerations ``(n, 2, b, k)`` (coordinates before the
    batch: each a contiguous block; ``base`` ``(n, 2)`` holds the pinned joints), the
    arc of the branch ``(b, k)`` (every dyad assembles, joined to the start) and regular
    ``(b, k)``.
    """
    p, arc, near = _place(steps, modes, base, grid, start, lengths, guides, walk=False)
    if near:
        p, arc, _ = _place(steps, modes, base, grid, start, lengths, guides, walk=True)
    p = p[..., samples]
    v, a = np.zeros_like(p), np.zeros_like(p)  # the pinned joints' stay 0
    regular = np.ones(p.shape[2:], bool)
    theta = grid[samples]
    cos, sin = np.cos(theta), np.sin(theta)
    for s in steps:
        if s.kind == CRANK:
            _crank(s, p, v, a, lengths, cos, sin)
        else:
            regular &= np.abs(_rates(s, p, v, a, lengths, guides)) > RANK_RTOL
    return p, v, a, arc[:, samples], regular

r"""Path generation: linkages whose coupler point traces a given curve.

The target is :math:`N` points :math:`x_i`. A design of a family
(:class:`~linkage_widget.synthesis._family.PathFamily`, looked up by ``kind`` in
:data:`FAMILIES`) traces :math:`P(\theta; q, \sigma)` in its normalised frame; it fits
the target when, for a similarity (scale :math:`s`, turn :math:`\varphi`, shift
:math:`t`) and crank angles :math:`\theta_i`,

.. math:: \min_{q,\,s,\,\varphi,\,t,\,\theta}\;
          \sum_i \big| t + s\,R(\varphi)\,P(\theta_i; q, \sigma) - x_i \big|^2 .

*Global search.* Tens of thousands of random designs are traced at once (vectorised) and
each curve is compared with the target after the best similarity: both curves are
resampled at equal arc-length steps, and the complex least-squares (Procrustes) fit
:math:`z_t \approx w\,z_d + t`, :math:`w = s e^{i\varphi}`, leaves the unexplained part

.. math:: 1 - \frac{|\langle z_d, z_t\rangle|^2}{\|z_d\|^2 \|z_t\|^2}

of the centred target. Arc length is the one parametrisation both curves share without
knowing the crank angles; for a closed curve the starting point is unknown too, and
every cyclic shift is tried at once by one FFT (the correlation theorem), in both
directions of travel. An open target is compared with arcs of each design's run (its
whole turn, or its arc between two dead points), both directions; with ``timing`` the
design is traced at the given angles from a grid of offsets, the points matched one to
one. The best 200 shapes, no two within 2 % of each other, are kept.

*Local polish.* ``scipy.optimize.least_squares`` (Levenberg–Marquardt, MINPACK) over
the shape :math:`q` (the branch :math:`\sigma` held), the similarity and the crank angles
(one per point; with ``timing`` one offset :math:`\theta_0`, :math:`\theta_i = \theta_0 +
\tau_i`), with a Jacobian from one batched evaluation of the family per step; the
family's bounds are a wall it does not step through. The best dozen seeds are polished
briefly, the best of those fully until ``k`` distinct designs stand (a second dozen if
needed). A long target is polished on 64 of its points (the cost grows as the cube of
the unknowns), each point then given its own crank angle, the nearest traced point's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import least_squares

from ..model import Linkage
from ._family import PathFamily
from ._four_bar_path import FOUR_BAR
from ._path_search import PathSeed, PathTarget, global_search, target_of
from .six_bar import STEPHENSON, WATT

__all__ = ["FAMILIES", "PathCandidate", "candidate_of", "path_synthesis"]

#: The families path synthesis searches, by ``kind``: one line each.
FAMILIES: dict[str, PathFamily] = {
    "four-bar": FOUR_BAR,
    "watt": WATT,
    "stephenson": STEPHENSON,
}

#: An RMS error above this part of the target's size means no design traces it well.
POOR_FIT = 0.02
#: Two candidates are one design when every joint, placed at the first target point,
#: is within this part of the target's size of the other's.
SAME_DESIGN = 1e-2
#: Briefly polished shapes this near (relative) are one design's (:func:`_choose`).
HEADING = 0.1
#: The global search's best are polished this many at a time, briefly (BRIEF residual
#: evaluations), the best of them then fully (FULL), until k are distinct or ROUNDS ran.
POLISHED, ROUNDS, BRIEF, FULL = 12, 2, 20, 100
#: The crank angles of a candidate's drawn curve.
CURVE_SAMPLES = 361
#: The residual (normalised units) of a target point where the design does not assemble.
APART = 10.0
#: The polish works on at most this many of the target's points (evenly by index).
MOST_POINTS = 64
#: The crank angles a closed target's design must assemble at, all through the polish.
_ROUND = np.linspace(0.0, 2 * np.pi, 73)[:-1]
#: Finite-difference step of the polish's Jacobian (normalised units).
STEP = 1e-7
#: Degrees from flat: a transmission angle outside [MARGIN, 180 - MARGIN] over the traced
#: range is a dead or change point, where the linkage stops or may change branch (the
#: closed form runs on): no traverse. A closed target's polish keeps 2 MARGIN (_turns).
MARGIN = 1.0


@dataclass(frozen=True, eq=False)
class PathCandidate:
    r"""A design whose coupler point traces the target, in the target's units and frame.

    Attributes
    ----------
    linkage : Linkage
        The mechanism, placed with the crank at the first target point's angle.
    coupler : int
        The tracing joint.
    motor : tuple of int
        ``(pivot, tip)``: the crank, as ``kinematics(linkage, *motor, angles)`` takes it.
    error : float
        RMS distance of the traced points from the target,
        :math:`\sqrt{\tfrac1N \sum_i |p(\theta_i) - x_i|^2}`.
    kind : str
        The family (``"four-bar"``, ...).
    angles : ndarray, shape (N,)
        The crank angle (from the x-axis, radians) at each target point.
    grashof : str or None
        The Grashof class (``"crank-rocker"``, ``"drag-link"``, ``"double-rocker"``,
        ``"rocker-crank"``, ``"triple-rocker"``, ``"change-point"``); None where it does not
        apply.
    transmission : tuple of float or None
        The least and greatest transmission angle (degrees) over the traced range.
    traverses : bool
        Whether the crank runs from the first target point to the last (a full turn for a
        closed target) on one branch, through the points in order, every dyad at least
        :data:`MARGIN` degrees from flat (no dead or change point on the way). When True,
        ``kinematics(linkage, *motor, angles)`` moves the coupler point through the
        traced points, at RMS distance ``error`` from the target; when False it may stop
        or change branch on the way, and its path may differ from the one ``error`` measures.
    curve : ndarray, shape (K, 2)
        The tracer's path over the crank angles where the design assembles (a full turn
        when the crank turns fully), for drawing.
    note : str
        Empty for a good fit; otherwise why it is poor, in plain words: the error above
        :data:`POOR_FIT` of the target's size (its RMS distance from its centroid), or
        the target not traversed (``traverses`` False).
    """

    linkage: Linkage
    coupler: int
    motor: tuple[int, int]
    error: float
    kind: str
    angles: np.ndarray
    grashof: str | None
    transmission: tuple[float, float] | None
    traverses: bool
    curve: np.ndarray
    note: str


def _unpack(family: PathFamily, target: PathTarget, x: np.ndarray) -> tuple:
    p = family.size
    with np.errstate(over="ignore"):  # a step to a vast scale: inf, walled off by _residual
        q, s, phi, t = x[:p], np.exp(x[p]), x[p + 1], x[p + 2 : p + 4]
    theta = x[p + 4 :] if target.timing is None else x[p + 4] + target.timing
    return q, s, phi, t, theta


def _turn(phi: float) -> np.ndarray:
    c, s = np.cos(phi), np.sin(phi)
    return np.array([[c, -s], [s, c]])


def _residual(family: PathFamily, sigma, target: PathTarget, x: np.ndarray) -> np.ndarray:
    q, s, phi, t, theta = _unpack(family, target, x)
    # a wall: the polish's step (out of bounds, to a vast scale, or for a closed target
    # to a crank that no longer turns fully) is refused, not taken
    bad = not (family.bounds(q) and np.isfinite(s))
    if bad or (target.closed and not _turns(family, q, sigma)):
        return np.full(2 * len(theta), APART)
    traced = family.trace(q[None], sigma[None], theta)[0]
    # a design that comes apart costs more than any fit (MINPACK needs finite residuals)
    return np.nan_to_num((t + s * traced @ _turn(phi).T - target.xy).ravel(), nan=APART)


def _turns(family: PathFamily, q: np.ndarray, sigma: np.ndarray) -> bool:
    """Whether the design assembles all round, its dyads 2 :data:`MARGIN` from flat.

    A closed target needs a full crank turn; the margin keeps the polish off the designs
    that turn only through a flat dyad (change points), which do not traverse.
    """
    if not np.isfinite(family.trace(q[None], sigma[None], _ROUND)).all():
        return False
    if family.describe is None:
        return True
    return _clear(family.describe(q, sigma, _ROUND)[1], 2 * MARGIN)


def _clear(transmission, margin: float) -> bool:
    """Whether a transmission angle range (degrees) stays ``margin`` from 0 and 180."""
    return transmission is None or margin <= transmission[0] <= transmission[1] <= 180 - margin


def _jacobian(family: PathFamily, sigma, target: PathTarget, x: np.ndarray) -> np.ndarray:
    """The residual's Jacobian: shapes and angles by differences, the similarity exactly."""
    q, s, phi, t, theta = _unpack(family, target, x)
    p, n = family.size, len(theta)
    shapes = np.vstack([q, q + STEP * np.eye(p)])
    # one batched call: every shape step at the angles, and the angles' step
    traced = family.trace(shapes, np.repeat(sigma[None], p + 1, 0), np.append(theta, theta + STEP))
    base = traced[0, :n]
    along = (traced[0, n:] - base) / STEP
    d_shape = (traced[1:, :n] - base) / STEP  # (p, n, 2)
    turn = s * _turn(phi)
    cols = [(d_shape @ turn.T).reshape(p, -1).T]
    cols.append((base @ turn.T).reshape(-1, 1))
    cols.append((base @ np.array([[0.0, -1.0], [1.0, 0.0]]).T @ turn.T).reshape(-1, 1))
    cols.append(np.tile(np.eye(2), (n, 1)))
    moved = along @ turn.T  # (n, 2)
    if target.timing is None:
        block = np.zeros((2 * n, n))
        block[0::2, np.arange(n)] = np.diag(moved[:, 0])
        block[1::2, np.arange(n)] = np.diag(moved[:, 1])
        cols.append(block)
    else:
        cols.append(moved.reshape(-1, 1))
    return np.nan_to_num(np.hstack(cols))


def _polish(family: PathFamily, target: PathTarget, seed, evaluations: int) -> PathSeed | None:
    """The seed polished by least squares; None when it leaves the family's bounds."""
    if not (np.isfinite(seed.w) and abs(seed.w) > 0):
        return None
    angles = seed.theta if target.timing is None else seed.theta[:1]
    similarity = [np.log(abs(seed.w)), np.angle(seed.w), seed.t.real, seed.t.imag]
    x0 = np.concatenate([seed.q, similarity, angles])
    if not np.isfinite(x0).all():
        return None
    if not np.isfinite(_residual(family, seed.sigma, target, x0)).all():
        return None
    found = least_squares(
        lambda x: _residual(family, seed.sigma, target, x),
        x0,
        jac=lambda x: _jacobian(family, seed.sigma, target, x),
        method="lm",
        xtol=1e-13,
        ftol=1e-10,
        gtol=1e-13,
        max_nfev=evaluations,
    )
    q, s, phi, t, theta = _unpack(family, target, found.x)
    if not family.bounds(q) or not np.isfinite(found.fun).all():
        return None
    error = float(np.sqrt(np.sum(found.fun**2) / len(target.xy)))
    return PathSeed(q, seed.sigma, s * np.exp(1j * phi), complex(*t), theta, error)


def _swept(fit: PathSeed, closed: bool) -> np.ndarray:
    """Crank angles (normalised frame) over the range the target is traced: a turn if closed."""
    start, end = fit.theta[0], fit.theta[-1]
    if closed:
        way = 1.0 if end >= start else -1.0
        return start + way * np.linspace(0.0, 2 * np.pi, CURVE_SAMPLES)
    return np.linspace(start, end, CURVE_SAMPLES)


def _traverses(family: PathFamily, fit: PathSeed, closed: bool, transmission) -> str:
    """Why the crank does not run through the points on one branch (class doc); "" if it does."""
    steps = np.diff(fit.theta)
    in_order = bool((steps >= 0).all() or (steps <= 0).all())
    if closed:
        in_order = in_order and abs(fit.theta[-1] - fit.theta[0]) <= 2 * np.pi + 1e-9
    if not in_order:
        return "the crank angles at the target points are not in order (it would turn back)"
    if not np.isfinite(family.trace(fit.q[None], fit.sigma[None], _swept(fit, closed))).all():
        return "the linkage does not assemble over the traced range (a dead point on the way)"
    if not _clear(transmission, MARGIN):
        return (
            f"a dyad comes within {MARGIN:g} degrees of flat over the traced range "
            f"(transmission angle {transmission[0]:.2f} to {transmission[1]:.2f} degrees): at "
            "that dead or change point the linkage stops or may change branch"
        )
    return ""


def _drawn(family: PathFamily, fit: PathSeed) -> np.ndarray:
    """The tracer over the crank angles around the fit's where the design assembles."""
    middle = 0.5 * (fit.theta[0] + fit.theta[-1])
    angles = middle + np.linspace(-np.pi, np.pi, CURVE_SAMPLES)
    traced = family.trace(fit.q[None], fit.sigma[None], angles)[0]
    ok = np.isfinite(traced).all(axis=1)
    if ok.all():
        return traced
    # the run of assembling angles that holds the middle of the fit's range
    centre = CURVE_SAMPLES // 2
    breaks = np.flatnonzero(~ok)
    lo = breaks[breaks < centre].max(initial=-1) + 1
    hi = breaks[breaks > centre].min(initial=CURVE_SAMPLES)
    return traced[lo:hi]


def _placed(points: np.ndarray, fit: PathSeed, target: PathTarget) -> np.ndarray:
    """Normalised-frame points ``(n, 2)`` in the target's frame and units."""
    z = fit.t + fit.w * (points[:, 0] + 1j * points[:, 1])
    return target.centre + target.size * np.column_stack([z.real, z.imag])


def _candidate(family: PathFamily, fit: PathSeed, target: PathTarget) -> PathCandidate:
    """The fit as a :class:`PathCandidate` in the target's frame."""
    turn = float(np.angle(fit.w))
    built, coupler, motor = family.build(fit.q, fit.sigma, float(fit.theta[0]))
    linkage = built.copy()
    linkage.set_positions(_joints(family, fit, target))
    grashof, transmission = (None, None)
    if family.describe is not None:
        grashof, transmission = family.describe(fit.q, fit.sigma, _swept(fit, target.closed))
    why = _traverses(family, fit, target.closed, transmission)
    error = fit.error * target.size
    notes = []
    if fit.error > POOR_FIT:
        notes.append(
            f"poor fit: the RMS error is {100 * fit.error:.1f}% of the target's size; no "
            f"{family.name} found traces this curve closely (sharp corners, or a shape "
            "its coupler curves do not take)"
        )
    if why:
        notes.append(f"the crank does not run through the target points on one branch: {why}")
    return PathCandidate(
        linkage=linkage,
        coupler=coupler,
        motor=motor,
        error=error,
        kind=family.name,
        angles=fit.theta + turn,
        grashof=grashof,
        transmission=transmission,
        traverses=not why,
        curve=_placed(_drawn(family, fit), fit, target),
        note="; ".join(notes),
    )


def candidate_of(family: PathFamily, fit: tuple, target: PathTarget) -> PathCandidate:
    """A design known without a search as a :class:`PathCandidate` on ``target``.

    ``fit``: its shape, branch, similarity ``w, t`` (complex, the target's normalised
    units), crank angles at the target's points and RMS error (normalised), as
    :mod:`.cognate_path` computes them for the cognates.
    """
    return _candidate(family, PathSeed(*fit), target)


def _near(a: np.ndarray, b: np.ndarray, gap: float) -> bool:
    return a.shape == b.shape and bool(np.abs(a - b).max() <= gap)


def _same(one: PathCandidate, other: PathCandidate, size: float) -> bool:
    return _near(one.linkage.vertices, other.linkage.vertices, SAME_DESIGN * size)


def _joints(family: PathFamily, fit: PathSeed, target: PathTarget) -> np.ndarray:
    """The fit's joints ``(n, 2)`` in the target's frame, at the first target point."""
    return _placed(family.build(fit.q, fit.sigma, float(fit.theta[0]))[0].vertices, fit, target)


def path_synthesis(
    points: ArrayLike,
    *,
    kind: str = "four-bar",
    timing: ArrayLike | None = None,
    k: int = 5,
    closed: bool | None = None,
    seed: int | None = 0,
) -> list[PathCandidate]:
    r"""The ``k`` best distinct designs of ``kind`` whose coupler point traces ``points``.

    Parameters
    ----------
    points : array_like, shape (N, 2)
        The target curve, in order along it.
    kind : str
        The family searched, a key of :data:`FAMILIES`: ``"four-bar"``, ``"watt"``
        (Watt I six-bars) or ``"stephenson"`` (Stephenson III six-bars).
    timing : array_like, shape (N,), optional
        The crank angle (radians, counter-clockwise) at each point, up to one common
        offset the search finds: :math:`\theta_i = \theta_0 + \tau_i - \tau_0`. Without
        it each point's crank angle is free (either direction of turning).
    k : int
        How many designs to return (fewer when fewer distinct ones are found).
    closed : bool, optional
        Whether the target is a closed curve, traced by a full crank turn; default:
        closed when the gap from the last point to the first is at most twice the median
        step between points (a drawn loop), open (an arc) otherwise.
    seed : int or None
        Seed of the global search (its random designs, so the seeds of the polish). Not
        bit for bit: SciPy's MINPACK (the polish) rounds with the memory-allocation state,
        amplified by short polishes; an exact fit repeats, but on an approximate one (an
        open arc above all) the errors may move in their 3rd-4th digit between calls and
        near-equal candidates change places.

    Returns
    -------
    list of PathCandidate
        Best (least RMS error) first. Two designs are distinct when some joint, placed at
        the first target point, differs by more than :data:`SAME_DESIGN` of the target's
        size (so the cognates of one design are distinct designs, and so are mirror
        images). A poor fit is returned with its ``note`` saying why. A self-intersecting
        target is not refused (coupler curves with a double point exist, figure eights),
        nor an open straight line (the classic straight-line problem).

    Raises
    ------
    ValueError
        Points of the wrong shape, not finite, too few for the unknowns, all coincident,
        collinear for a closed curve, complex; an unknown ``kind`` (or not a string);
        ``closed`` not a bool or None; ``seed`` not a whole number or None (a negative one
        too); ``k`` below 1; ``timing`` not one finite angle per point, or one angle for
        all points. No design fitted at all (an empty list is never returned).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    >>> best = path_synthesis(np.column_stack([2 * np.cos(t), np.sin(t)]), k=1)[0]
    >>> best.error < 0.01, best.angles.shape  # an ellipse, to 0.5 % of its size
    (True, (40,))
    """
    if not isinstance(kind, str) or kind not in FAMILIES:
        raise ValueError(f"path_synthesis: unknown kind {kind!r}; one of {sorted(FAMILIES)}")
    family = FAMILIES[kind]
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"path_synthesis: k must be a whole number of at least 1, got {k!r}")
    whole = isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0
    if not (seed is None or whole):
        raise ValueError(f"path_synthesis: seed must be a whole number >= 0 or None, got {seed!r}")
    target = target_of(points, closed, timing, family)
    work = target.thinned(MOST_POINTS)  # the polish's cost grows as the cube of the points
    seeds = global_search(family, work, np.random.default_rng(seed))
    chosen: list[PathCandidate] = []
    for start in range(0, min(len(seeds), POLISHED * ROUNDS), POLISHED):
        _choose(family, (work, target), seeds[start : start + POLISHED], chosen, k)
        if len(chosen) == k:
            break
    if not chosen:
        raise ValueError(
            f"path_synthesis: no {family.name} could be fitted to the target: every design "
            "the global search found came apart or left the family's bounds in the polish"
        )
    return sorted(chosen, key=lambda c: c.error)


def _choose(family, targets: tuple, seeds: list, chosen: list[PathCandidate], k: int) -> None:
    """Polish ``seeds`` briefly, then the best fully, adding distinct ones to ``chosen``.

    ``targets``: the (thinned) target polished on, and the whole target.

    A brief fit whose shape is within :data:`HEADING` (relative) of one polished fully
    before, on the same branch, is heading for the same design and is passed over.
    """
    work, target = targets
    fits = [f for s in seeds if (f := _polish(family, work, s, BRIEF)) is not None]
    taken: list[PathSeed] = []
    for fit in sorted(fits, key=lambda f: f.error):
        if len(chosen) == k:
            return
        if any(_heading(fit, other) for other in taken):
            continue
        taken.append(fit)
        polished = _polish(family, work, fit, FULL) or fit
        made = _candidate(family, _extended(family, polished, work, target), target)
        if not any(_same(made, other, target.size) for other in chosen):
            chosen.append(made)


def _extended(family: PathFamily, fit: PathSeed, work: PathTarget, target: PathTarget) -> PathSeed:
    """The fit over all the target's points when it was polished on fewer (``work``).

    Each point's crank angle: interpolated from its neighbours' by index, then moved to
    the traced point nearest it by a few Gauss-Newton steps (one unknown per point).
    """
    if work is target:
        return fit
    if target.timing is not None:
        theta = fit.theta[0] + target.timing
    else:
        theta = np.interp(np.arange(len(target.xy)), work.kept, fit.theta)
        goal = target.xy[:, 0] + 1j * target.xy[:, 1]
        for _ in range(8):
            z = _traced(family, fit, np.append(theta, theta + STEP))
            here, ahead = z[: len(theta)], z[len(theta) :]
            slope = (ahead - here) / STEP
            with np.errstate(invalid="ignore", divide="ignore"):
                step = -np.real(np.conj(slope) * (here - goal)) / np.abs(slope) ** 2
            theta = theta + np.nan_to_num(np.clip(step, -0.2, 0.2))
    gap = np.abs(_traced(family, fit, theta) - (target.xy[:, 0] + 1j * target.xy[:, 1]))
    error = float(np.sqrt(np.mean(gap**2)))
    return PathSeed(fit.q, fit.sigma, fit.w, fit.t, theta, error if np.isfinite(error) else np.inf)


def _traced(family: PathFamily, fit: PathSeed, theta: np.ndarray) -> np.ndarray:
    """The fit's tracer at crank angles ``theta`` (normalised), in the target's normalised frame."""
    p = family.trace(fit.q[None], fit.sigma[None], theta)[0]
    return fit.t + fit.w * (p[:, 0] + 1j * p[:, 1])


def _heading(fit: PathSeed, other: PathSeed) -> bool:
    gap = np.abs(fit.q - other.q) / (np.abs(fit.q) + np.abs(other.q) + 1.0)
    return bool(gap.max() < HEADING and np.array_equal(fit.sigma, other.sigma))

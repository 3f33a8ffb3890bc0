"""Path synthesis side by side with pylinkage 1.3: the same target curves, one error measure.

Usage::

    .venv/bin/python benchmarks/bench_synthesis.py          # two to three minutes
    .venv/bin/python benchmarks/bench_synthesis.py --full   # pylinkage's default swarm

Targets (points in order, as a student would give them):

* **four-bar coupler**: 36 points of the coupler curve of a known crank-rocker (ground 4,
  crank 1, coupler 3.5, rocker 2.5, coupler point at ``z = 0.5 + 0.8i`` on the coupler),
  evenly spaced in crank angle; a four-bar traces it exactly, so the error can reach 0;
* **ellipse**: 40 points of an ellipse with semi-axes 2 and 1;
* **straight segment**: 24 points on a segment of length 4 (the problem Chebyshev's and
  Hoeken's linkages answer); open;
* **D-shaped foot path**: 30 points of a flat stride and an arch over it (a walking leg).

Each library is timed (wall clock, ``time.perf_counter``) from the target points to its
final four-bar, in this one process. The error is then measured by one function of this
script for both, knowing nothing of either library: the design's ground pivots, crank pin,
rocker pin and coupler point in one placement are read off, the coupler point's curve is
traced in closed form (the circle intersection on a fixed branch, the crank turned from
that placement both ways until the four-bar stops assembling, 16 384 steps a turn), and the
error is the RMS distance of the target points to that polyline (:func:`rms_to_curve`;
its floor is about 1e-8 of the curve's size, the chords of the sampling). A design that
only reaches the points by the solver jumping to the other assembly between two steps
is measured on the assembly it starts on; the jumps in pylinkage's own trace are counted
and printed (:func:`_flips`), and so is the part of the turn where its design comes apart
but its 360-step trace stepped across (then it is measured on the arc it can reach).

Being fair to pylinkage (its documented usage, a similar or larger budget):

* its path synthesis, :func:`pylinkage.synthesis.path_generation`, takes 3–5 precision
  points ("three or four is the practical range", its docstring); it gets 4 points spread
  evenly over the target, its defaults otherwise (``max_solutions=10``, Grashof required);
  when that finds nothing, its own advice in turn (5 points, 3, then
  ``require_grashof=False``), the time of every try counted; each solution is scored on
  *all* the target points and the best is kept;
* its optimisers then polish that solution as its docs chain them (``chain_optimizers``):
  particle swarm (``particle_swarm_optimization``, 50 particles × 100 iterations, 5 000
  evaluations, several times our search's time; ``--full`` its documented defaults,
  100 × 200, about four times longer) then Nelder–Mead
  (``minimize_linkage``), minimising an evaluation function of the documented signature
  ``(linkage, params, init_pos) -> score``, the RMS distance of the target points to its
  traced coupler points over a turn; if the polish ends worse than the synthesis's design
  (the swarm need not visit its centre), the synthesis's design is kept. The evaluation
  uses ``Linkage.step_fast`` (its numba solver, compiled before timing) rather than the
  decorator's ``step()``: the same curve, many times faster, which only helps pylinkage;
* two variants: (a) the optimiser varies what ``get_constraints()`` holds (its documented
  dimensions: crank, coupler and rocker lengths, the coupler point's distance and angle;
  the ground pivots stay where the synthesis put them); (b) the swarm is also given the two
  ground pivots (``dimensions=9``: all nine numbers that fix a four-bar with a coupler
  point, as our search has them), the fairest like-for-like;
* its swarm is seeded by NumPy's global entropy (``default_rng()`` without a seed, in
  pylinkage), so its figures move a little from run to run; ours are seeded
  (``seed=0``), which fixes our global search but not the last digits of the polish
  (MINPACK's rounding varies with the memory-allocation state; ``path_synthesis``'s
  ``seed``): on an open target our error may move in its third or fourth digit too.

Ours: ``path_synthesis(points, k=5)`` (its defaults), the best candidate. Our own reported
``.error`` is printed beside the independent one as a cross-check.

A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from dataclasses import dataclass

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from pylinkage.optimization import (  # noqa: E402
    chain_optimizers,
    minimize_linkage,
    particle_swarm_optimization,
)
from pylinkage.synthesis import path_generation  # noqa: E402

from linkage_widget import path_synthesis  # noqa: E402

#: Crank steps a turn of the independent tracer.
TRACE_STEPS = 16_384


# ---------------------------------------------------------------- the one error measure


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def trace_four_bar(a0, b0, a, b, p, steps: int = TRACE_STEPS) -> np.ndarray:
    """The coupler point's curve ``(m, 2)`` of the four-bar placed at ``a0, b0, a, b, p``.

    ``a0`` the crank's ground pivot, ``a`` its pin, ``b0`` the rocker's pivot, ``b`` its pin,
    ``p`` the coupler point (rigid with ``a`` and ``b``). The crank turns from this
    placement forward and back; the rocker pin keeps the side of the line ``a → b0`` it
    started on; the curve stops where the circles about ``a`` and ``b0`` miss. A full turn
    ends on its first point (a closed polyline).
    """
    a0, b0, a, b, p = (np.asarray(v, dtype=float) for v in (a0, b0, a, b, p))
    crank, coupler, rocker = np.hypot(*(a - a0)), np.hypot(*(b - a)), np.hypot(*(b - b0))
    zc = complex(*(p - a)) / complex(*(b - a))
    sigma = np.sign(_cross(b0 - a, b - a)) or 1.0
    start = np.arctan2(*(a - a0)[::-1])
    turn = 2 * np.pi * np.arange(steps + 1) / steps

    def placed(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pa = a0 + crank * np.column_stack([np.cos(theta), np.sin(theta)])
        e = b0 - pa
        r2 = np.einsum("ij,ij->i", e, e)
        along = (coupler**2 - rocker**2 + r2) / (2 * r2)
        h2 = coupler**2 / r2 - along**2
        ok = h2 >= 0
        across = np.sqrt(np.where(ok, h2, 0.0))
        turned = np.column_stack([-e[:, 1], e[:, 0]])
        pb = pa + along[:, None] * e + sigma * across[:, None] * turned
        w = (pb - pa)[:, 0] + 1j * (pb - pa)[:, 1]
        pp = pa[:, 0] + 1j * pa[:, 1] + zc * w
        return np.column_stack([pp.real, pp.imag]), ok

    fwd, ok_f = placed(start + turn)
    if ok_f.all():
        return fwd
    back, ok_b = placed(start - turn)
    n_f = int(np.argmin(ok_f)) if not ok_f.all() else len(ok_f)
    n_b = int(np.argmin(ok_b)) if not ok_b.all() else len(ok_b)
    return np.concatenate([back[1:n_b][::-1], fwd[:n_f]])


def rms_to_curve(target: np.ndarray, curve: np.ndarray) -> float:
    r"""RMS over the target points of the distance to the polyline ``curve`` ``(m, 2)``.

    .. math:: E = \Big(\frac{1}{n}\sum_i \min_j d(x_i, [c_j, c_{j+1}])^2\Big)^{1/2}
    """
    if len(curve) < 2:
        return float("inf")
    c0, c1 = curve[:-1], curve[1:]
    e = c1 - c0
    ee = np.maximum(np.einsum("ij,ij->i", e, e), 1e-300)
    rel = target[:, None, :] - c0[None]
    t = np.clip(np.einsum("nmj,mj->nm", rel, e) / ee, 0.0, 1.0)
    d = rel - t[..., None] * e[None]
    dist2 = np.einsum("nmj,nmj->nm", d, d).min(axis=1)
    return float(np.sqrt(dist2.mean()))


# ---------------------------------------------------------------- the targets


def _known_four_bar(n: int) -> np.ndarray:
    a0, b0 = np.array([0.0, 0.0]), np.array([4.0, 0.0])
    crank, coupler, rocker, z = 1.0, 3.5, 2.5, 0.5 + 0.8j
    theta = 2 * np.pi * np.arange(n) / n
    a = a0 + crank * np.column_stack([np.cos(theta), np.sin(theta)])
    e = b0 - a
    r = np.hypot(e[:, 0], e[:, 1])
    along = (coupler**2 - rocker**2 + r**2) / (2 * r)
    across = np.sqrt(coupler**2 - along**2)
    b = a + (along / r)[:, None] * e + (across / r)[:, None] * np.column_stack([-e[:, 1], e[:, 0]])
    w = (b - a)[:, 0] + 1j * (b - a)[:, 1]
    p = a[:, 0] + 1j * a[:, 1] + z * w
    return np.column_stack([p.real, p.imag])


def _ellipse(n: int) -> np.ndarray:
    t = 2 * np.pi * np.arange(n) / n
    return np.column_stack([2 * np.cos(t), np.sin(t)])


def _segment(n: int) -> np.ndarray:
    return np.column_stack([np.linspace(-2.0, 2.0, n), np.zeros(n)])


def _foot_path(n: int) -> np.ndarray:
    flat = n // 2
    x = np.linspace(1.5, -1.5, flat, endpoint=False)
    t = np.linspace(np.pi, 0.0, n - flat, endpoint=False)
    arch = np.column_stack([1.5 * np.cos(t), 0.8 * np.sin(t)])
    return np.concatenate([np.column_stack([x, np.zeros(flat)]), arch])


TARGETS = {
    "four-bar coupler": _known_four_bar(36),
    "ellipse": _ellipse(40),
    "straight segment": _segment(24),
    "D-shaped foot path": _foot_path(30),
}


# ---------------------------------------------------------------- ours


@dataclass
class Result:
    error: float
    seconds: float
    note: str = ""


def ours(target: np.ndarray) -> Result:
    t0 = time.perf_counter()
    best = path_synthesis(target, k=5)[0]
    seconds = time.perf_counter() - t0
    link = best.linkage
    pos = np.asarray(link.vertices)
    pivot, tip = best.motor
    pinned = [int(i) for i in link.pinned]
    other = next(i for i in pinned if i != pivot)
    pin = next(int(j) for j in link.neighbors(other) if int(j) not in pinned)
    curve = trace_four_bar(pos[pivot], pos[other], pos[tip], pos[pin], pos[best.coupler])
    return Result(rms_to_curve(target, curve), seconds, f"own .error {best.error:.1e}")


# ---------------------------------------------------------------- pylinkage


def _nearest_rms(target: np.ndarray, traced: np.ndarray) -> float:
    """Its optimiser's objective: RMS distance of the target to the traced points."""
    d = traced[:, None, :] - target[None]
    return float(np.sqrt(np.einsum("mnj,mnj->mn", d, d).min(axis=0).mean()))


def _evaluation(target: np.ndarray, free_ground: bool):
    """The documented evaluation ``(linkage, params, init_pos) -> score`` (lower is better)."""

    def evaluate(linkage, params, init_pos) -> float:
        params = list(params)
        coords = [tuple(map(float, c)) for c in init_pos]
        if free_ground:
            shift = np.array(params[5:7]) - np.array(coords[0])
            coords[0], coords[1] = tuple(params[5:7]), tuple(params[7:9])
            coords[2] = tuple(np.array(coords[2]) + shift)
            params = params[:5]
        linkage.set_coords(coords)
        linkage.set_constraints(params)
        try:
            traced = linkage.step_fast()
        except Exception:  # an unbuildable design scores worst, as its decorators do
            return float("inf")
        if not np.isfinite(traced).all():
            return float("inf")
        return _nearest_rms(target, traced[:, -1])

    return evaluate


def _bounds(center: np.ndarray, target: np.ndarray, free_ground: bool):
    """Its ``generate_bounds`` for the lengths; the angle a full turn; pivots near the target."""
    lo, hi = np.abs(center[:5]) / 5, np.abs(center[:5]) * 5
    lo[4], hi[4] = -np.pi, np.pi
    if not free_ground:
        return lo, hi
    size = np.ptp(target, axis=0).max()
    return (
        np.concatenate([lo, center[5:] - 2 * size]),
        np.concatenate([hi, center[5:] + 2 * size]),
    )


def _flips(traced: np.ndarray) -> int:
    """How often pylinkage's own trace ``(k, 5, 2)`` jumps from one assembly to the other.

    The side of the line crank pin → rocker pivot that the rocker pin is on cannot change
    while the crank turns and the four-bar assembles (it would pass through a placement
    where the two solutions meet, where the crank cannot go on, unless the four-bar is a
    change-point one, s + l = p + q exactly): a change between two steps is the solver
    picking the other circle intersection, a motion the four-bar cannot make.
    """
    side = np.sign(_cross(traced[:, 1] - traced[:, 2], traced[:, 3] - traced[:, 2]))
    return int(np.count_nonzero(side[1:] != side[:-1]))


def _burmester(target: np.ndarray):
    """``path_generation`` on 4 target points; its advice when none come: 5, 3, no Grashof."""
    found = None
    for grashof in (True, False):
        for count in (4, 5, 3):
            picks = target[np.linspace(0, len(target), count, endpoint=False).astype(int)]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found = path_generation(
                    [tuple(map(float, q)) for q in picks], require_grashof=grashof
                )
            if found.solutions:
                return found
    return found


def _polish(start, target, params, coords, swarm, free_ground: bool) -> tuple[float, list]:
    """The swarm then Nelder–Mead; ``start`` left holding the winner: its score, its start.

    The start (the joints' coordinates the winner was scored from) matters: its solver
    picks each step's circle intersection nearest the last one, so the branch a trace
    follows, and whether it jumps to the other, depends on where it starts.

    (a) is ``chain_optimizers`` as documented. (b) runs the swarm over nine unknowns, places
    the winner's pivots, then Nelder–Mead over the constraints (``minimize_linkage`` takes
    as many unknowns as ``get_constraints()`` holds).
    """
    n_particles, iterations = swarm
    center = np.concatenate([params, coords[0], coords[1]]) if free_ground else params
    pso = {
        "center": list(center),
        "dimensions": len(center),
        "bounds": _bounds(center, target, free_ground),
        "n_particles": n_particles,
        "iterations": iterations,
    }
    nelder_mead = {"method": "Nelder-Mead", "maxiter": 4000}
    fixed = _evaluation(target, free_ground=False)
    before = fixed(start, list(params), coords)
    if not free_ground:
        stages = [(particle_swarm_optimization, pso), (minimize_linkage, nelder_mead)]
        best = chain_optimizers(fixed, start, stages=stages, order_relation=min, verbose=False)
        after, used = fixed(start, best[0].dimensions, coords), coords
    else:
        free = _evaluation(target, free_ground=True)
        swarmed = particle_swarm_optimization(free, start, order_relation=min, verbose=False, **pso)
        free(start, swarmed[0].dimensions, coords)  # the winner's pivots placed
        placed = start.get_coords()
        best = minimize_linkage(
            fixed,
            start,
            x0=list(swarmed[0].dimensions[:5]),
            order_relation=min,
            verbose=False,
            **nelder_mead,
        )
        after, used = fixed(start, best[0].dimensions, placed), placed
    if after <= before:
        return float(after), used
    fixed(start, list(params), coords)  # a user keeps the better of the two: so do we
    return float(before), coords


def pylinkage(target: np.ndarray, swarm: tuple[int, int]) -> tuple[Result, Result]:
    """Burmester on 4 points, then the swarm and Nelder–Mead: (a) its constraints, (b) + pivots."""
    t0 = time.perf_counter()
    found = _burmester(target)
    if not found.solutions:
        miss = Result(float("inf"), time.perf_counter() - t0, "no solution")
        return miss, miss
    score = _evaluation(target, free_ground=False)
    scores = [score(lk, lk.get_constraints(), lk.get_coords()) for lk in found.solutions]
    start = found.solutions[int(np.argmin(scores))]
    start_params = np.array(start.get_constraints(), dtype=float)
    start_coords = start.get_coords()
    t_synth = time.perf_counter() - t0
    out = []
    for free_ground in (False, True):
        t1 = time.perf_counter()
        start.set_coords(start_coords)
        start.set_constraints(list(start_params))
        best, used = _polish(start, target, start_params, start_coords, swarm, free_ground)
        seconds = t_synth + time.perf_counter() - t1
        start.set_coords(used)
        traced = start.step_fast()  # the very trace its score was taken on
        first = traced[0]  # one consistent placement: A, D, B, C, P
        curve = trace_four_bar(first[0], first[1], first[2], first[3], first[4])
        note = f"its own score {best:.1e}, {_flips(traced)} branch flips in its own trace"
        if len(curve) <= TRACE_STEPS:  # its trace stepped across angles where it comes apart
            note += f", comes apart over {360 * (1 - len(curve) / TRACE_STEPS):.2f}° of the turn"
        out.append(Result(rms_to_curve(target, curve), seconds, note))
    return out[0], out[1]


# ---------------------------------------------------------------- the table


def _ratio(theirs: float, ours_: float) -> str:
    if not np.isfinite(theirs):
        return "∞"
    return f"{theirs / max(ours_, 1e-12):.3g}×"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="pylinkage swarm 100 x 200")
    args = parser.parse_args()
    swarm = (100, 200) if args.full else (50, 100)
    # compile both sides' kernels before timing
    ours(_ellipse(12))
    warm = path_generation([(0, 0), (1, 1), (2, 1), (3, 0)], max_solutions=1)
    warm.solutions[0].step_fast()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
        f"{os.getloadavg()[0]:.1f}; pylinkage swarm {swarm[0]} x {swarm[1]}"
    )
    header = (
        "| target | points | ours RMS | ours s | pylinkage (a) RMS | (a) s "
        "| pylinkage (b) RMS | (b) s | best pylinkage RMS / ours | its s / ours |"
    )
    print(header)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for name, target in TARGETS.items():
        mine = ours(target)
        a, b = pylinkage(target, swarm)
        best = a if a.error <= b.error else b
        print(
            f"| {name} | {len(target)} | {mine.error:.2e} | {mine.seconds:.2f} "
            f"| {a.error:.2e} | {a.seconds:.2f} | {b.error:.2e} | {b.seconds:.2f} "
            f"| {_ratio(best.error, mine.error)} | {best.seconds / mine.seconds:.2f}× |"
        )
        notes.append(f"{name}: ours {mine.note}; (a) {a.note}; (b) {b.note}")
    print()
    print("\n".join(notes))


if __name__ == "__main__":
    main()

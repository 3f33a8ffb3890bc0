r"""The kernels of the small-linkage lane (:mod:`._small`): plain functions over arrays.

Each mirrors a piece of the general path in the same operations and order (named in its
docstring); :mod:`._small` compiles them with numba (its ``_compile`` puts the
dispatchers in this module's namespace, where compiled kernels find the ones they call)
or runs them as they are (the tests).
"""

from __future__ import annotations

import math

import numpy as np

from .tolerances import (
    BLOCK_FRACTION,
    CHORD_CONTRACTION,
    CONDITIONED_ROUNDOFF,
    CORRECTOR_DEVIATION,
    DATA_TOL,
    DESCENT_RATIO,
    DRIVE_TOL,
    HELD_FRACTION,
    MAX_CORRECTOR_ITERATIONS,
    MAX_HALVINGS,
    MAX_REFACTORISATIONS,
    PROJECTION_TOL,
    REGULARIZATION,
    ROUNDOFF_FACTOR,
    SLOW_CONTRACTION,
    STEP_GROWTH,
    TARGET_TOL,
)

__all__ = ["BLOCKED", "GENERAL", "KERNELS", "MOVED", "PYTHON", "REACHED"]

#: Outcomes of :func:`_pull`: the general path's statuses, and "take the general path".
BLOCKED, MOVED, REACHED, GENERAL = 0, 1, 2, 3
_EPS = float(np.finfo(float).eps)


def _residuals(p, arrays):
    """:meth:`ConstraintSet.residuals` of rods and pins (the same operations)."""
    rods, lengths, pins, anchors = arrays[0], arrays[1], arrays[2], arrays[3]
    m = rods.shape[0]
    g = np.empty(m + 2 * pins.shape[0])
    for r in range(m):
        i, j = rods[r, 0], rods[r, 1]
        dx, dy = p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]
        length = lengths[r]
        g[r] = ((dx * dx + dy * dy) - length * length) / (2.0 * length)
    for k in range(pins.shape[0]):
        v = pins[k]
        g[m + 2 * k] = p[2 * v] - anchors[k, 0]
        g[m + 2 * k + 1] = p[2 * v + 1] - anchors[k, 1]
    return g


def _error(g, inv_scale):
    """:meth:`Setup.error`: largest relative residual (NaN when one is NaN, as ``np.max``)."""
    out = 0.0
    for r in range(g.shape[0]):
        e = abs(g[r]) * inv_scale[r]
        if e != e:
            return e
        out = max(out, e)
    return out


def _matrix(p, arrays):
    """Dense :math:`C`: the Jacobian's rows (rods, pins), then the constant extra rows."""
    rods, lengths, pins, extra = arrays[0], arrays[1], arrays[2], arrays[4]
    m = rods.shape[0]
    n_a = m + 2 * pins.shape[0]
    c = np.zeros((n_a + extra.shape[0], extra.shape[1]))
    for r in range(m):
        i, j = rods[r, 0], rods[r, 1]
        length = lengths[r]
        dx, dy = (p[2 * i] - p[2 * j]) / length, (p[2 * i + 1] - p[2 * j + 1]) / length
        c[r, 2 * i], c[r, 2 * i + 1] = dx, dy
        c[r, 2 * j], c[r, 2 * j + 1] = -dx, -dy
    for k in range(pins.shape[0]):
        c[m + 2 * k, 2 * pins[k]] = 1.0
        c[m + 2 * k + 1, 2 * pins[k] + 1] = 1.0
    c[n_a:, :] = extra
    return c


def _cholesky(s):
    """Lower Cholesky factor of ``s`` and whether it exists (a pivot not > 0: no)."""
    n = s.shape[0]
    chol = np.zeros((n, n))
    for j in range(n):
        d = s[j, j]
        for k in range(j):
            d -= chol[j, k] * chol[j, k]
        if not d > 0.0:
            return chol, False
        root = math.sqrt(d)
        chol[j, j] = root
        for i in range(j + 1, n):
            x = s[i, j]
            for k in range(j):
                x -= chol[i, k] * chol[j, k]
            chol[i, j] = x / root
    return chol, True


def _factor(c, w_inv):
    r""":class:`~._linalg.ConstrainedFactor`'s factorisation: :math:`S + \varepsilon I` by Cholesky.

    As there, a matrix that is numerically indefinite is regularised again relative to
    its largest diagonal entry.
    """
    rows, cols = c.shape
    s = np.zeros((rows, rows))
    for a in range(rows):
        for b in range(a + 1):
            acc = 0.0
            for k in range(cols):
                acc += c[a, k] * c[b, k] * w_inv[k]
            s[a, b] = acc
            s[b, a] = acc
        s[a, a] += REGULARIZATION
    chol, ok = _cholesky(s)
    if not ok:
        big = 0.0
        for a in range(rows):
            big = max(big, s[a, a])
        for a in range(rows):
            s[a, a] += REGULARIZATION * big
        chol, ok = _cholesky(s)
    return chol, ok


def _solve(chol, rhs):
    """:math:`S^{-1}` ``rhs`` from the Cholesky factor."""
    n = rhs.shape[0]
    y = np.empty(n)
    for i in range(n):
        x = rhs[i]
        for k in range(i):
            x -= chol[i, k] * y[k]
        y[i] = x / chol[i, i]
    for i in range(n - 1, -1, -1):
        x = y[i]
        for k in range(i + 1, n):
            x -= chol[k, i] * y[k]
        y[i] = x / chol[i, i]
    return y


def _transposed(c, lam):
    r""":math:`C^T \lambda`."""
    rows, cols = c.shape
    out = np.zeros(cols)
    for a in range(rows):
        la = lam[a]
        if la != 0.0:
            for k in range(cols):
                out[k] += c[a, k] * la
    return out


def _drive(c, chol, n_v, s, ux, uy, norm, w_inv):
    """:func:`~._kinematic.drive`: least-kinetic-energy velocity for the unit pull ``(ux, uy)``."""
    rows, cols = c.shape
    ftil = np.zeros(cols)
    ftil[2 * s], ftil[2 * s + 1] = ux / norm, uy / norm
    rhs = np.zeros(rows)
    for a in range(rows):
        acc = 0.0
        for k in range(cols):
            acc += c[a, k] * (w_inv[k] * ftil[k])
        rhs[a] = acc
    back = _transposed(c, _solve(chol, rhs))
    return (w_inv * (ftil - back))[:n_v]


def _correct(c, chol, n_v, g, w_inv):
    """:meth:`~._linalg.ConstrainedFactor.correct`: the correction and what it cannot remove."""
    n_a = g.shape[0]
    rhs = np.zeros(c.shape[0])
    rhs[:n_a] = g
    lam = _solve(chol, rhs)
    dp = -(w_inv * _transposed(c, lam))[:n_v]
    return dp, REGULARIZATION * lam[:n_a]


#: What :func:`_judge` says (``._projection._Corrector._judge``'s answers).
_GO, _STOP, _REFACTOR, _CONDITIONED = 0, 1, 2, 3


def _judge(err, previous, chord, chords, refactorisations, floor):
    """``_Corrector._judge`` with ``allow_refactor=True``: go on, stop, or refactorise."""
    stalled = err > CHORD_CONTRACTION * previous
    slow = chord >= chords or err > SLOW_CONTRACTION * previous
    if not (stalled or slow):
        return _GO
    if err <= 10.0 * floor:
        return _STOP  # round-off stops further progress
    if stalled and refactorisations:
        return _CONDITIONED  # even a fresh factorisation no longer contracts
    if refactorisations < MAX_REFACTORISATIONS:
        return _REFACTOR
    return _STOP if stalled else _GO


def _project(q, fac, held, floor, chords, arrays):
    """:func:`~._projection.project` with ``allow_refactor=True`` (its iteration, step by step).

    ``fac``: ``(c, chol)``. Returns the best point, whether it is acceptable, whether a
    fresh factorisation was made (then ``c, chol`` are it), the residuals there (held
    part included), and whether a factorisation failed (the general path raises there).
    """
    c, chol = fac
    inv_scale, w_inv = arrays[5], arrays[6]
    n_v = q.shape[0]
    exact = max(PROJECTION_TOL, 10.0 * floor)
    enough = max(exact, HELD_FRACTION * _error(held, inv_scale))
    best_q, best, best_g = q, np.inf, held
    previous, chord, refactorisations = np.inf, 0, 0
    fresh, conditioned = False, False
    for _ in range(MAX_CORRECTOR_ITERATIONS):
        g = _residuals(q, arrays) - held
        if _error(g, inv_scale) <= floor:
            best_q, best, best_g = q, 0.0, g
            break
        dq, stuck = _correct(c, chol, n_v, g, w_inv)
        err = _error(g - stuck, inv_scale)
        if not math.isfinite(err):
            break
        if err < best:
            best_q, best, best_g = q, err, g
        if err <= floor or (err <= enough and enough > exact):
            break
        action = _judge(err, previous, chord, chords, refactorisations, floor)
        if action == _STOP or action == _CONDITIONED:
            conditioned = action == _CONDITIONED
            break
        if action == _REFACTOR:
            q = best_q
            c = _matrix(q, arrays)
            chol, ok = _factor(c, w_inv)
            if not ok:
                return q, False, fresh, c, chol, best_g + held, True
            fresh = True
            refactorisations += 1
            previous, chord = np.inf, 0
            continue
        previous = err
        chord += 1
        q = q + dq
    if conditioned:
        enough = max(enough, CONDITIONED_ROUNDOFF * floor)
    residual = best_g + held
    ok = best <= enough and _error(residual, inv_scale) <= DATA_TOL
    return best_q, ok, fresh, c, chol, residual, False


def _land(p, v, h, fac, held, pull, arrays):
    """``._kinematic._land``: predict with step ``h`` and project.

    ``pull``: ``(s, tx, ty, dist, rate, vmax, floor, chords)``. Returns ``(kind, q,
    dist1, fresh, c, chol, g)``: ``kind`` 1 landed, 0 not (the projection failed, moved
    the predicted point too far, or the target's distance fell too little), -1 a
    factorisation failed.
    """
    s, tx, ty, dist, rate, vmax, floor, chords = pull
    predicted = p + h * v
    q, ok, fresh, c, chol, g, failed = _project(predicted, fac, held, floor, chords, arrays)
    if failed:
        return -1, q, 0.0, fresh, c, chol, g
    if ok:
        off = 0.0
        for k in range(q.shape[0]):
            off = max(off, abs(q[k] - predicted[k]))
        ok = off <= CORRECTOR_DEVIATION * h * vmax
    dist1 = 0.0
    if ok:
        dist1 = float(np.hypot(tx - q[2 * s], ty - q[2 * s + 1]))
        # the squared distance falls as predicted: no overshoot along the path
        ok = 0.5 * (dist**2 - dist1**2) >= DESCENT_RATIO * h * dist * rate
    return (1 if ok else 0), q, dist1, fresh, c, chol, g


def _turns_back(q, dist1, fac, fresh, m_v, pull, plan_f, arrays):
    """``_keeps_direction``'s drive at ``q``: ``(kind, c, chol, v_q)``.

    ``kind`` 1 the drive keeps its direction (:math:`v_q^T M v > 0`), 0 it reverses (a
    dead point crossed), -1 the factorisation at ``q`` failed.
    """
    s, tx, ty = pull[0], pull[1], pull[2]
    c, chol = fac
    if not fresh:
        c = _matrix(q, arrays)
        chol, ok = _factor(c, arrays[6])
        if not ok:
            return -1, c, chol, m_v
    ux, uy = (tx - q[2 * s]) / dist1, (ty - q[2 * s + 1]) / dist1
    v_q = _drive(c, chol, q.shape[0], s, ux, uy, plan_f[0], arrays[6])
    return (1 if v_q @ m_v > 0.0 else 0), c, chol, v_q


def _start(p, s, ux, uy, start, plan_f, arrays):
    """The factorisation and drive at ``p`` (``start``'s where its ``bits`` say), the residuals.

    ``start``: ``(bits, c, chol, v, g)``; bit 1: ``c, chol`` are the factorisation at
    ``p``; bit 2: ``v`` the drive there; bit 4: ``g`` the residuals there. Returns
    ``(ok, c, chol, v, g)``; not ok: the factorisation failed.
    """
    bits, c, chol, v, g = start
    if not bits & 1:
        c = _matrix(p, arrays)
        chol, ok = _factor(c, arrays[6])
        if not ok:
            return False, c, chol, v, g
    if not bits & 2:
        v = _drive(c, chol, p.shape[0], s, ux, uy, plan_f[0], arrays[6])
    if not bits & 4:
        g = _residuals(p, arrays)
    return True, c, chol, v, g


def _held(p, c, chol, g0, plan_f, arrays):
    """:meth:`Setup.roundoff` at ``p`` and :func:`~._projection.held_residual` there."""
    big = max(np.max(np.abs(p)), plan_f[1])
    floor = ROUNDOFF_FACTOR * _EPS * big / plan_f[2]
    if _error(g0, arrays[5]) <= 10.0 * floor:
        return floor, np.zeros(g0.shape[0])
    return floor, _correct(c, chol, p.shape[0], g0, arrays[6])[1]


def _unpack(ints, floats):
    """The plan's arrays as views of its two packed arrays (:meth:`SmallPlan.of` packs them).

    ``(rods, lengths, pins, anchors, extra rows, inverse row scales, inverse weights, M)``.
    """
    m, k, n_v, n_cols, n_extra = ints[1], ints[2], ints[3], ints[5], ints[6]
    rods = ints[7 : 7 + 2 * m].reshape((m, 2))
    pins = ints[7 + 2 * m : 7 + 2 * m + k]
    o = 3
    lengths = floats[o : o + m]
    o += m
    anchors = floats[o : o + 2 * k].reshape((k, 2))
    o += 2 * k
    inv_scale = floats[o : o + m + 2 * k]
    o += m + 2 * k
    w_inv = floats[o : o + n_cols]
    o += n_cols
    extra = floats[o : o + n_extra * n_cols].reshape((n_extra, n_cols))
    o += n_extra * n_cols
    mass = floats[o : o + n_v * n_v].reshape((n_v, n_v))
    return rods, lengths, pins, anchors, extra, inv_scale, w_inv, mass


def _views(state, ints):
    """``(c, chol, v, g)`` of a packed step state (what :func:`_pull` hands on)."""
    n_v, n_rows, n_cols, n_a = ints[3], ints[4], ints[5], ints[1] + 2 * ints[2]
    c = state[: n_rows * n_cols].reshape((n_rows, n_cols))
    o = n_rows * n_cols
    chol = state[o : o + n_rows * n_rows].reshape((n_rows, n_rows))
    o += n_rows * n_rows
    return c, chol, state[o : o + n_v], state[o + n_v : o + n_v + n_a]


def _packed(c, chol, v, g):
    """The step state ``(c, chol, v, g)`` in one array (one argument for the next call)."""
    out = np.empty(c.size + chol.size + v.size + g.size)
    o = 0
    for part in (c.ravel(), chol.ravel(), v, g):
        out[o : o + part.size] = part
        o += part.size
    return out


def _pull(p, pull, bits, state, ints, floats):
    """:meth:`~._kinematic.KinematicStepper._pull` on dense arrays: ``(outcome, q, trust, state)``.

    ``pull``: ``(s, tx, ty, step_size, trust)``; ``bits`` and ``state``: what the last
    step left at ``p`` (:func:`_start`, packed by :func:`_packed`); ``ints``, ``floats``:
    the plan (:func:`_unpack`). Returns the outcome (:data:`MOVED`...), the positions,
    the trust region, and for the next step the factorisation and drive at the new
    point and its residuals (packed).
    """
    arrays = _unpack(ints, floats)
    plan_f = floats[:3]
    c, chol, v, g = _views(state, ints)
    code, q, trust, c, chol, v, g = _pulled(p, pull, (bits, c, chol, v, g), ints[0], plan_f, arrays)
    return code, q, trust, _packed(c, chol, v, g)


def _pulled(p, pull, start, chords, plan_f, arrays):
    """:func:`_pull` on unpacked arrays (``start``: ``(bits, c, chol, v, g)``)."""
    s, tx, ty, step_size, trust = pull
    norm, length_scale = plan_f[0], plan_f[1]
    dx, dy = tx - p[2 * s], ty - p[2 * s + 1]
    dist = float(np.hypot(dx, dy))
    if dist <= TARGET_TOL * length_scale:  # reached before the step: the general path says so
        return GENERAL, p, trust, start[1], start[2], start[3], start[4]
    ok, c, chol, v, g0 = _start(p, s, dx / dist, dy / dist, start, plan_f, arrays)
    if not ok:
        return GENERAL, p, trust, c, chol, v, g0
    speed = float(np.hypot(v[2 * s], v[2 * s + 1]))
    rate = (v[2 * s] * dx + v[2 * s + 1] * dy) / dist  # -d/dh of |p_s - t| along v
    if not (speed * norm > DRIVE_TOL and rate > 0.0):
        return BLOCKED, p, trust, c, chol, v, g0
    least_move = BLOCK_FRACTION * min(step_size, dist)
    h_free = min(step_size / speed, dist * rate / speed**2)  # step size, target
    h = min(h_free, STEP_GROWTH * max(trust, least_move) / speed)
    floor, held = _held(p, c, chol, g0, plan_f, arrays)
    m_v = arrays[7] @ v
    landing = (s, tx, ty, dist, rate, np.max(np.abs(v)), floor, chords)
    for _ in range(MAX_HALVINGS):
        if h * speed < least_move:
            trust = least_move
            break
        kind, q, dist1, fresh, c_q, chol_q, g_q = _land(p, v, h, (c, chol), held, landing, arrays)
        if kind < 0:
            return GENERAL, p, trust, c, chol, v, g0
        if kind > 0:
            moved = float(np.hypot(q[2 * s] - p[2 * s], q[2 * s + 1] - p[2 * s + 1]))
            if moved < least_move:
                trust = least_move
                break
            # remember the move only if trouble limited it (halving or the trust region)
            trust = np.inf if h >= h_free else h * speed
            if dist1 <= TARGET_TOL * length_scale:
                return REACHED, q, trust, c, chol, v, g_q
            turn = _turns_back(q, dist1, (c_q, chol_q), fresh, m_v, landing, plan_f, arrays)
            if turn[0] < 0:
                return GENERAL, p, trust, c, chol, v, g0
            if turn[0] > 0:
                return MOVED, q, trust, turn[1], turn[2], turn[3], g_q
        h *= 0.5
    return BLOCKED, p, trust, c, chol, v, g0


def _bordered_logdet(template, c, n_a, n_v):
    r"""``slogdet`` of the watch's bordered matrix with :math:`A` the first rows of ``c``.

    LU with partial pivoting (LAPACK's ``getrf`` pivots, as ``np.linalg.slogdet``): the
    sign from the pivots' signs and the row swaps, the log of the product of their sizes.
    """
    b = template.copy()
    b[:n_a, :n_v] += c[:n_a, :n_v]
    n = b.shape[0]
    sign, logabs = 1.0, 0.0
    for j in range(n):
        piv, big = j, abs(b[j, j])
        for i in range(j + 1, n):
            if abs(b[i, j]) > big:
                piv, big = i, abs(b[i, j])
        if big == 0.0:
            return 0.0, -np.inf
        if piv != j:
            for k in range(n):
                b[j, k], b[piv, k] = b[piv, k], b[j, k]
            sign = -sign
        d = b[j, j]
        if d < 0.0:
            sign = -sign
        logabs += math.log(abs(d))
        for i in range(j + 1, n):
            f = b[i, j] / d
            if f != 0.0:
                for k in range(j + 1, n):
                    b[i, k] -= f * b[j, k]
    return sign, logabs


def _jacobian(x, ints, floats):
    """:math:`C` at ``x`` (its first rows: :math:`A(x)`), from the packed plan."""
    return _matrix(x, _unpack(ints, floats))


def _pin_exactly(p, v, ints, floats):
    """:meth:`Setup.pin_exactly` in place on ``p`` and ``v`` (``v`` is the lane's own array)."""
    arrays = _unpack(ints, floats)
    pins, anchors = arrays[2], arrays[3]
    for k in range(pins.shape[0]):
        i = pins[k]
        for comp in range(2):
            p[2 * i + comp] = anchors[k, comp]
            v[2 * i + comp] = 0.0


KERNELS = (
    "_residuals", "_error", "_matrix", "_cholesky", "_factor", "_solve", "_transposed",
    "_drive", "_correct", "_judge", "_project", "_land", "_turns_back", "_start", "_held",
    "_unpack", "_views", "_packed", "_pulled", "_pull", "_jacobian",
    "_bordered_logdet", "_pin_exactly",
)  # fmt: skip
#: The kernels as Python functions (what numba compiles; the tests run them as they are).
PYTHON = {name: globals()[name] for name in KERNELS}

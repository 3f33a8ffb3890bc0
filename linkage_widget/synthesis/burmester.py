r"""Burmester theory: the pivots of a dyad that carries a body through given poses.

A pose :math:`(x_i, y_i, \theta_i)` places the body's frame at :math:`d_i = (x_i, y_i)`
turned by :math:`R_i = R(\theta_i)`; a point :math:`m` of the body (its frame's
coordinates) is then at :math:`Z_i = d_i + R_i m`. A dyad (a crank from a fixed pivot,
the *centre point* :math:`c`, to a moving pivot, the *circle point* :math:`m`) guides
the body through the poses when every :math:`Z_i` lies on one circle about :math:`c`:

.. math:: F_i(c, m) = |d_i + R_i m - c|^2 - |d_1 + R_1 m - c|^2 = 0, \qquad i = 2, \dots, n.

Each :math:`F_i` is linear in :math:`m` for a fixed :math:`c` (the :math:`|m|^2` and
:math:`|c|^2` cancel):

.. math:: u_i(c) \cdot m + w_i(c) = 0, \qquad
          u_i = 2(R_i^T d_i - R_1^T d_1) - 2(R_i - R_1)^T c, \qquad
          w_i = |d_i|^2 - |d_1|^2 - 2(d_i - d_1) \cdot c.

With four poses the three equations in the two unknowns of :math:`m` are consistent
where :math:`D(c) = \det[u_i(c)\; w_i(c)]_{i=2,3,4} = 0`, a cubic in :math:`c`: the
*centre-point curve*, and the :math:`m` there the *circle-point curve*. It passes through
every pole :math:`P_{ij}` (the point the body turns about from pose :math:`i` to
:math:`j`, where row :math:`i` or :math:`j` vanishes), so a line through
:math:`P_{12}` meets it in two more points, the roots of a quadratic: sweeping the line's
direction samples the curve. With five poses the *Burmester points* are where the
curves of poses 1234 and 1235 meet, away from their common poles :math:`P_{12}, P_{13},
P_{23}`: at most four. Along a line through one of those poles each curve is a
quadratic in the distance; the directions where the two share a root are the real roots
of their resultant, a polynomial in the direction, and the points there are polished by
Newton's method on :math:`F = 0`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["burmester_curves", "burmester_points", "circle_point", "pole"]


def rotations(theta: np.ndarray) -> np.ndarray:
    """``(n, 2, 2)`` rotation matrices of the angles ``theta`` ``(n,)``."""
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)


def rows(poses: np.ndarray, which: list[int], c: np.ndarray) -> np.ndarray:
    r"""The rows :math:`[u_i(c)\; w_i(c)]` of poses ``which`` at centres ``c`` ``(k, 2)``.

    Returns ``(k, len(which), 3)``.
    """
    d, r = poses[:, :2], rotations(poses[:, 2])
    out = []
    for i in which:
        u0 = 2 * (r[i].T @ d[i] - r[0].T @ d[0])
        u = u0 - 2 * c @ (r[i] - r[0])  # c @ M is (M^T c) per row
        w = d[i] @ d[i] - d[0] @ d[0] - 2 * c @ (d[i] - d[0])
        out.append(np.column_stack([u, w]))
    return np.stack(out, axis=1)


def residuals(poses: np.ndarray, c: np.ndarray, m: np.ndarray) -> np.ndarray:
    r""":math:`F_i(c, m)`, :math:`i = 2..n`, ``(n-1,)``, and its Jacobian in :math:`(c, m)`.

    The Jacobian, ``(n-1, 4)``: :math:`\partial F_i/\partial c = 2(Z_1 - Z_i)`,
    :math:`\partial F_i/\partial m = 2R_i^T(Z_i - c) - 2R_1^T(Z_1 - c)`.
    """
    d, r = poses[:, :2], rotations(poses[:, 2])
    z = d + r @ m
    f = np.einsum("ij,ij->i", z - c, z - c)
    jc = 2 * (z[0] - c) - 2 * (z[1:] - c)
    jm = 2 * np.einsum("ikj,ik->ij", r[1:], z[1:] - c) - 2 * r[0].T @ (z[0] - c)
    return f[1:] - f[0], np.column_stack([jc, jm])


def polish(poses: np.ndarray, c: np.ndarray, m: np.ndarray, steps: int = 8) -> tuple:
    r"""Gauss–Newton (minimum-norm steps) on :math:`F(c, m) = 0` from ``(c, m)``, to round-off."""
    x = np.concatenate([c, m])
    for _ in range(steps):
        f, jac = residuals(poses, x[:2], x[2:])
        step = np.linalg.lstsq(jac, f, rcond=None)[0]
        x = x - step
        if not np.all(np.isfinite(x)) or np.abs(step).max() <= 1e-14 * np.abs(x).max():
            break
    return x[:2], x[2:]


def circle_point(poses: np.ndarray, c: np.ndarray) -> np.ndarray:
    r"""The circle point :math:`m` (body frame) of centre ``c``: :math:`u_i \cdot m = -w_i`."""
    a = rows(poses, list(range(1, len(poses))), np.atleast_2d(c))[0]
    return np.linalg.lstsq(a[:, :2], -a[:, 2], rcond=None)[0]


def pole(poses: np.ndarray, i: int, j: int) -> np.ndarray | None:
    r"""The pole :math:`P_{ij}`: the world point the body turns about from pose i to j.

    None for a translation (the pole at infinity).
    """
    r = rotations(poses[[i, j], 2])
    a = r[0] - r[1]
    if abs(np.linalg.det(a)) < 1e-12:
        return None
    m = np.linalg.solve(a, poses[j, :2] - poses[i, :2])
    return poses[i, :2] + r[0] @ m


def _start(poses: np.ndarray) -> np.ndarray:
    """A finite pole of the first four poses to sweep from, P12 first."""
    for i, j in ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)):
        p = pole(poses, i, j)
        if p is not None:
            return p
    raise ValueError(
        "motion_synthesis: the poses only translate the body (every pole at infinity): "
        "turn the body between them"
    )


def _sweep(poses: np.ndarray, start: np.ndarray, alpha: np.ndarray, scale: float) -> tuple:
    r"""The curve's two points on the line through ``start`` at each angle.

    Returns ``(k, 2, 2)``, NaN where complex, ascending along the line, and the leading
    coefficient ``(k,)`` of the quadratic: where it changes sign a point passes through
    infinity and the two swap.
    """
    e = np.column_stack([np.cos(alpha), np.sin(alpha)])
    ts = scale * np.array([-1.0, 1.0, 2.0, -2.0])
    dets = np.stack([np.linalg.det(rows(poses, [1, 2, 3], start + t * e)) for t in ts], axis=1)
    # D(t) = t (q2 t^2 + q1 t + q0): D(0) = 0 at the pole, so three values fix q
    v = np.column_stack([ts * ts, ts, np.ones(4)]) * ts[:, None]
    q = np.linalg.lstsq(v, dets.T, rcond=None)[0].T
    disc = q[:, 1] ** 2 - 4 * q[:, 0] * q[:, 2]
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(np.where(disc >= 0, disc, np.nan))
        t = np.stack([(-q[:, 1] - root) / (2 * q[:, 0]), (-q[:, 1] + root) / (2 * q[:, 0])], 1)
    t = np.sort(t, axis=1)
    return start + t[:, :, None] * e[:, None, :], q[:, 0]


def scale_of(poses: np.ndarray) -> float:
    """The poses' length scale: their origins' spread, or 1 when they share one origin."""
    spread = float(np.ptp(poses[:, :2], axis=0).max())
    return spread if spread > 0 else 1.0


def batch_circle_points(poses: np.ndarray, centres: np.ndarray) -> np.ndarray:
    r"""The circle points (body frame) of centre points ``(k, 2)``, least squares: ``(k, 2)``."""
    a = rows(poses, list(range(1, len(poses))), centres)
    return (np.linalg.pinv(a[:, :, :2]) @ -a[:, :, 2:])[:, :, 0]


def burmester_curves(poses: np.ndarray, samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Sampled centre-point and circle-point (body frame) curves of four poses: ``(k, 2)`` each.

    Two points per direction of the line through the pole, where real, and within a
    thousand times the poses' spread (the curve's branch to infinity is cut there).
    """
    scale = scale_of(poses)
    alpha = np.linspace(0.0, np.pi, samples, endpoint=False)
    pts = _sweep(poses, _start(poses), alpha, scale)[0].reshape(-1, 2)
    pts = pts[np.isfinite(pts).all(axis=1)]
    pts = pts[np.abs(pts - poses[0, :2]).max(axis=1) < 1e3 * scale]
    return pts, batch_circle_points(poses, pts)


def _det(poses: np.ndarray, c: np.ndarray, scale: float) -> np.ndarray:
    """:math:`D(c)` of ``poses`` (the first four rows' curve), NaN where ``c`` is."""
    out = np.full(len(c), np.nan)
    ok = np.isfinite(c).all(axis=1)
    out[ok] = np.linalg.det(rows(poses, [1, 2, 3], c[ok])) / scale**3
    return out


def _quadratics(poses: np.ndarray, start: np.ndarray, e: np.ndarray, scale: float) -> np.ndarray:
    r"""The quadratics :math:`q_2 t^2 + q_1 t + q_0 = D(s + t\,\mathrm{scale}\,e)/t`.

    One per direction ``e`` ``(k, 2)``. ``D`` vanishes at the pole ``s`` (its constant
    term is zero), so three of four values fix it. Returns ``(k, 3)``, highest power first.
    """
    ts = np.array([-1.0, 1.0, 2.0, -2.0])
    dets = np.stack([_det(poses, start + t * scale * e, scale) for t in ts], axis=1)
    v = np.column_stack([ts * ts, ts, np.ones(4)]) * ts[:, None]
    return np.linalg.lstsq(v, dets.T, rcond=None)[0].T


def _chart(four: np.ndarray, other: np.ndarray, start: np.ndarray, scale: float, flip: bool):
    r"""Points where both curves meet a line through ``start`` at one point.

    The line's direction is :math:`e = (1, u)` (or :math:`(u, 1)` when ``flip``),
    :math:`|u| \le 1`.

    Along direction :math:`e(u)` the curves are :math:`q(t) = 0`, :math:`p(t) = 0`, with
    :math:`q_k, p_k` polynomials in :math:`u` of degree :math:`3 - k`; a common root needs
    the resultant

    .. math:: (q_2 p_0 - q_0 p_2)^2 - (q_2 p_1 - q_1 p_2)(q_1 p_0 - q_0 p_1) = 0,

    a polynomial of degree 8 in :math:`u`, fitted exactly from samples.
    """
    nodes = np.cos(np.pi * (np.arange(17) + 0.5) / 17)
    e = np.column_stack([np.ones_like(nodes), nodes])[:, :: -1 if flip else 1]
    q, p = _quadratics(four, start, e, scale), _quadratics(other, start, e, scale)
    qs = [np.polyfit(nodes, q[:, k], 3 - k) for k in range(3)]
    ps = [np.polyfit(nodes, p[:, k], 3 - k) for k in range(3)]
    pm, ps_ = np.polymul, np.polysub
    a = ps_(pm(qs[0], ps[2]), pm(qs[2], ps[0]))
    b = ps_(pm(qs[0], ps[1]), pm(qs[1], ps[0]))
    c = ps_(pm(qs[1], ps[2]), pm(qs[2], ps[1]))
    res = ps_(pm(a, a), pm(b, c))
    roots = np.roots(res)
    u = roots.real[(np.abs(roots.imag) < 1e-3) & (np.abs(roots.real) <= 1.0 + 1e-6)]
    ev = np.column_stack([np.ones_like(u), u])[:, :: -1 if flip else 1]
    qu = _quadratics(four, start, ev, scale)
    out = []
    for i in range(len(u)):
        for t in np.roots(qu[i]):
            if abs(t.imag) < 1e-3 * max(1.0, abs(t)):
                out.append(start + t.real * scale * ev[i])
    return out


def _turning_first(poses: np.ndarray) -> np.ndarray:
    """The poses reordered so the first two turn the body (a finite pole P12) if any do.

    The Burmester pairs do not depend on the order (body-frame circle points), and the
    sweep needs a finite pole common to both curves.
    """
    n = len(poses)
    for i in range(n):
        for j in range(i + 1, n):
            if pole(poses, i, j) is not None:
                rest = [k for k in range(n) if k not in (i, j)]
                return poses[[i, j, *rest]]
    return poses


def _common_pole(poses: np.ndarray) -> np.ndarray:
    """The finite pole of both curves, P12, P13 or P23, nearest the poses' origins.

    A far pole puts the sampled determinants at large ``c``, where they cancel badly.
    """
    poles = [pole(poses, i, j) for i, j in ((0, 1), (0, 2), (1, 2))]
    poles = [p for p in poles if p is not None]
    if not poles:
        return _start(poses)
    mid = poses[:, :2].mean(axis=0)
    return min(poles, key=lambda p: float(np.linalg.norm(p - mid)))


def burmester_points(poses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The Burmester pairs of five poses: centre and circle points (body frame), ``(k, 2)``.

    The lines through a pole common to both curves (:math:`P_{12}`, :math:`P_{13}` or
    :math:`P_{23}`, the nearest) that meet the
    curves of poses 1234 and 1235 at one more common point are the real roots of the
    resultant of their two quadratics along the line (:func:`_chart`), taken in two charts
    of the direction so none is at infinity; every candidate is polished by Newton's
    method on :math:`F = 0` and kept if it solves it (the poles :math:`P_{13}, P_{23}`,
    also common, do not).
    """
    poses = _turning_first(poses)
    scale, start = scale_of(poses), _common_pole(poses)
    four, other = poses[:4], poses[[0, 1, 2, 4]]
    found = []
    for flip in (False, True):
        for c0 in _chart(four, other, start, scale, flip):
            found.append(polish(poses, c0, circle_point(poses, c0), steps=40))
    return _distinct(poses, found, scale)


def _distinct(poses: np.ndarray, found: list, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The solutions of F = 0 among ``found`` (the poles fail it), each once."""
    centres: list[np.ndarray] = []
    circles: list[np.ndarray] = []
    for c, m in found:
        f, _ = residuals(poses, c, m)
        # F is a difference of squared crank lengths: its round-off grows with them
        size = max(scale, float(np.abs(c - poses[0, :2]).max()), float(np.abs(m).max()))
        if not np.all(np.abs(f) < 1e-12 * size**2) or not np.isfinite(c).all():
            continue
        if size > 1e6 * scale:  # a pivot at infinity (translating poses): a slider, no crank
            continue
        if any(np.linalg.norm(c - e) < 1e-7 * scale for e in centres):
            continue
        centres.append(c)
        circles.append(m)
    return np.array(centres).reshape(-1, 2), np.array(circles).reshape(-1, 2)

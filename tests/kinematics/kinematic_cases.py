"""Mechanisms and their closed forms, shared by the kinematics tests (not under test)."""

from __future__ import annotations

import numpy as np
import sympy

from linkage_widget import Linkage

A, R, L, S = 4.0, 1.0, 3.5, 2.5  # ground, crank, coupler, rocker (Grashof: crank-rocker)


def four_bar(r: float = R, coupler: float = L, rocker: float = S, ground: float = A) -> Linkage:
    """Pivots 0 at the origin and 3 at (ground, 0); crank 0-1, coupler 1-2, rocker 2-3."""
    b = np.array([r, 0.0])
    d = np.array([ground, 0.0])
    # the coupler joint above the ground line: the circles' upper intersection
    e = d - b
    dist = np.hypot(*e)
    x = (coupler**2 - rocker**2 + dist**2) / (2 * dist)
    h = np.sqrt(coupler**2 - x**2)
    c = b + x * e / dist + h * np.array([-e[1], e[0]]) / dist
    return Linkage([[0, 0], b, c, d], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def closed_form(r=R, coupler=L, rocker=S, ground=A):
    """The coupler joint C(θ) on the upper branch and its first two θ-derivatives, lambdified."""
    t = sympy.symbols("theta")
    bx, by = r * sympy.cos(t), r * sympy.sin(t)
    ex, ey = ground - bx, -by
    dist = sympy.sqrt(ex**2 + ey**2)
    x = (coupler**2 - rocker**2 + dist**2) / (2 * dist)
    h = sympy.sqrt(coupler**2 - x**2)
    c = [bx + (x * ex - h * ey) / dist, by + (x * ey + h * ex) / dist]
    funcs = [
        sympy.lambdify(t, sympy.Matrix([sympy.diff(ci, t, k) for ci in c]), "numpy")
        for k in range(3)
    ]
    return lambda th: [np.array([f(v) for v in th]).reshape(len(th), 2) for f in funcs]


def slider_crank(
    r: float = 1.0, rod: float = 3.0, offset: float = 0.0, theta: float = 0.0
) -> Linkage:
    """Crank 0-1 about the pinned origin at ``theta``, rod 1-2, piston 2 on the line y = offset."""
    a = r * np.array([np.cos(theta), np.sin(theta)])
    x = a[0] + np.sqrt(rod**2 - (offset - a[1]) ** 2)
    return Linkage(
        [[0, 0], a, [x, offset]],
        rods=[(0, 1), (1, 2)],
        pinned=[0],
        sliders=[(2, (0.0, offset), (1.0, 0.0))],
    )


def piston(r: float = 1.0, rod: float = 3.0, offset: float = 0.0):
    """x(θ) = r cos θ + sqrt(l² - (r sin θ - e)²) and its first two θ-derivatives, lambdified."""
    t = sympy.symbols("theta")
    x = r * sympy.cos(t) + sympy.sqrt(rod**2 - (r * sympy.sin(t) - offset) ** 2)
    return [sympy.lambdify(t, sympy.diff(x, t, k), "numpy") for k in range(3)]


def whitworth(r: float = 2.0, d: float = 1.0, lever: float = 1.5, rod: float = 4.0) -> Linkage:
    """Whitworth quick return: crank 0-1 (r) about 0; lever 2-3 about 2 = (0, -d), d < r,
    slotted (the crank pin 1 slides on the line 2-3); ram rod 3-4; the ram 4 slides on the
    line y = -d. The ram is at its ends when the lever lies along that line."""
    a = np.array([r, 0.0])
    o4 = np.array([0.0, -d])
    b = o4 + lever * (a - o4) / np.hypot(*(a - o4))
    c = np.array([b[0] + np.sqrt(rod**2 - (b[1] + d) ** 2), -d])
    return Linkage(
        [[0, 0], a, o4, b, c],
        rods=[(0, 1), (2, 3), (3, 4)],
        pinned=[0, 2],
        slots=[(2, 3, 1)],
        sliders=[(4, (0.0, -d), (1.0, 0.0))],
    )

r"""The four-bar as a :class:`~linkage_widget.synthesis._family.PathFamily`.

In the normalised frame the crank's pivot :math:`A_0` is the origin, the crank has
length 1 and the rocker's pivot is :math:`B_0 = (d, 0)` (the turn of the whole is the
similarity's, so it is not a shape parameter too). The shape is

.. math:: q = (d, b, c, u, v), \qquad
          P = A + u\,e + v\,J e, \quad e = \frac{B - A}{b},

with :math:`A = (\cos\theta, \sin\theta)`, :math:`b` the coupler, :math:`c` the rocker,
:math:`B` the rocker pin on branch :math:`\sigma`
(:func:`~linkage_widget.synthesis._four_bar.rocker_pin`) and the coupler point
:math:`P` at :math:`(u, v)` in the coupler's frame (along :math:`A \to B`, then a
quarter turn to the left). The crank turns fully when the distance
:math:`r = |B_0 - A| \in [|d - 1|, d + 1]` never leaves :math:`[|b - c|, b + c]`:

.. math:: |b - c| \le |d - 1| \quad\text{and}\quad b + c \ge d + 1,

which the sampler makes true for half of its designs (closed curves need a full turn).
The transmission angle :math:`\mu` at :math:`B` (between coupler and rocker) is
:math:`\cos\mu = (b^2 + c^2 - r^2) / (2bc)`.
"""

from __future__ import annotations

import numpy as np

from ..model import Linkage
from ._family import PathFamily
from ._four_bar import MOTOR, four_bar, rocker_pin

__all__ = ["FOUR_BAR", "grashof_class", "pins"]

#: lengths (in crank lengths) outside which a design counts as degenerate: longer links
#: tend to a slider, which this family is not
SHORTEST, LONGEST = 1e-2, 25.0
#: how far the coupler point may sit from the coupler pin A, in crank lengths
REACH = 25.0


def grashof_class(d: float, a: float, b: float, c: float, *, rtol: float = 1e-9) -> str:
    r"""The Grashof class of the four-bar: ground ``d``, crank ``a``, coupler ``b``, rocker ``c``.

    With :math:`s, l` the shortest and longest links and :math:`p, q` the others:
    :math:`s + l < p + q` lets the shortest link turn fully (``"crank-rocker"`` when it is
    the crank, ``"drag-link"`` the ground, ``"rocker-crank"`` the rocker,
    ``"double-rocker"`` the coupler); :math:`s + l > p + q` is a ``"triple-rocker"``;
    equality (within ``rtol`` of the sum) a ``"change-point"`` mechanism.

    >>> grashof_class(3.0, 1.0, 3.5, 3.2), grashof_class(1.0, 3.0, 3.5, 3.2)
    ('crank-rocker', 'drag-link')
    """
    links = np.array([d, a, b, c], dtype=float)
    order = np.sort(links)
    excess = order[0] + order[3] - order[1] - order[2]
    if abs(excess) <= rtol * links.sum():
        return "change-point"
    if excess > 0:
        return "triple-rocker"
    names = ("drag-link", "crank-rocker", "double-rocker", "rocker-crank")
    return names[int(np.argmin(links))]


def _sample(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Random four-bars: half whose crank turns fully (module doc), half of any shape."""
    half = count // 2
    d = np.exp(rng.uniform(np.log(0.3), np.log(6.0), count))
    b = np.exp(rng.uniform(np.log(0.3), np.log(6.0), count))
    c = np.exp(rng.uniform(np.log(0.3), np.log(6.0), count))
    # the first half: d, b past the crank, c where the crank turns fully
    d[:half] = 1.0 + np.exp(rng.uniform(np.log(0.1), np.log(5.0), half))
    b[:half] = 1.0 + np.exp(rng.uniform(np.log(0.1), np.log(5.0), half))
    low = np.maximum(b[:half] - d[:half] + 1.0, d[:half] + 1.0 - b[:half])
    c[:half] = rng.uniform(low, b[:half] + d[:half] - 1.0)
    u = b * rng.uniform(-1.0, 2.0, count)
    v = b * rng.uniform(-1.5, 1.5, count)
    sigma = rng.choice([-1.0, 1.0], size=(count, 1))
    return np.column_stack([d, b, c, u, v]), sigma


def pins(q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, ...]:
    """Crank pins, rocker pins ``(b, k, 2)`` and the designs' columns ``(b, 1)``."""
    d, b, c, u, v = (q[:, i : i + 1] for i in range(5))
    crank = np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    pin_a = np.broadcast_to(crank, (len(q), len(theta), 2))
    b0 = np.stack([d, np.zeros_like(d)], axis=-1)
    pin_b = rocker_pin(pin_a, b0, b, c, sigma[:, :1])
    return pin_a, pin_b, b, u, v


def _trace(q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """The coupler points ``(b, k, 2)`` of designs ``q`` ``(b, 5)`` at crank angles ``theta``."""
    pin_a, pin_b, b, u, v = pins(np.atleast_2d(q), np.atleast_2d(sigma), np.asarray(theta))
    e = (pin_b - pin_a) / b[..., None]
    turned = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    return pin_a + u[..., None] * e + v[..., None] * turned


def _build(q: np.ndarray, sigma: np.ndarray, theta: float) -> tuple[Linkage, int, tuple]:
    """The design in the layout of ``four_bar.txt`` at crank angle ``theta``."""
    pin_a, pin_b, *_ = pins(np.atleast_2d(q), np.atleast_2d(sigma), np.array([theta]))
    point = _trace(q, sigma, np.array([theta]))[0, 0]
    made = four_bar(np.zeros(2), np.array([q[0], 0.0]), pin_a[0, 0], pin_b[0, 0], point)
    return made.linkage, 4, MOTOR


def _bounds(q: np.ndarray) -> bool:
    r"""Lengths between :data:`SHORTEST` and :data:`LONGEST`, the coupler point within reach.

    The coupler point at least :data:`SHORTEST` from both coupler pins, :math:`|P - A| =
    \sqrt{u^2 + v^2}` and :math:`|P - B| = \sqrt{(u - b)^2 + v^2}`: on a pin it would be
    the crank's (a circle traced by a rod of no length) or the rocker's.
    """
    d, b, c, u, v = q
    lengths = np.array([d, b, c, np.hypot(u, v), np.hypot(u - b, v)])
    return bool(
        np.isfinite(q).all()
        and (lengths > SHORTEST).all()
        and (lengths[:3] < LONGEST).all()
        and np.hypot(u, v) < REACH
    )


def _describe(q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple:
    """The Grashof class and the transmission angle's range (degrees) over ``theta``."""
    d, b, c = q[:3]
    r2 = (d - np.cos(theta)) ** 2 + np.sin(theta) ** 2
    cos_mu = np.clip((b * b + c * c - r2) / (2 * b * c), -1.0, 1.0)
    mu = np.degrees(np.arccos(cos_mu))
    return grashof_class(d, 1.0, b, c), (float(mu.min()), float(mu.max()))


FOUR_BAR = PathFamily(
    name="four-bar",
    size=5,
    signs=1,
    sample=_sample,
    trace=_trace,
    build=_build,
    bounds=_bounds,
    describe=_describe,
)

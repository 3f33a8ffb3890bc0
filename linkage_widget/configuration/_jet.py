r"""Second-order forward differentiation in two variables (value, gradient, Hessian).

The sphere chart's hinge positions are a short composition of elementary functions of
the chart coordinates :math:`x = (\varphi, t)`. Carrying every intermediate quantity
:math:`f` as the jet :math:`(f, \nabla f, \nabla^2 f)` gives the Jacobian and the second
derivatives of the positions exactly (to round-off), which the metric and the embedded
geodesic equation need; finite differences would lose half the digits.

A univariate function :math:`g` acts on a jet by the chain rule

.. math:: \nabla g(f) = g'(f)\,\nabla f, \qquad
          \nabla^2 g(f) = g''(f)\,\nabla f\,\nabla f^T + g'(f)\,\nabla^2 f,

and a product by Leibniz' rule. Values broadcast: ``val`` has shape ``(...)``, ``grad``
``(..., 2)``, ``hess`` ``(..., 2, 2)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Jet", "variables", "sinc"]

#: Below this argument :func:`sinc` and its derivatives use their Taylor series: the
#: quotient forms cancel catastrophically near 0 (the chart's equator-crossing hinges).
_SINC_SERIES = 0.5


@dataclass(frozen=True)
class Jet:
    """A function's value, gradient ``(..., 2)`` and Hessian ``(..., 2, 2)`` at points.

    ``hess`` is ``None`` in a first-order jet (:func:`variables` with ``second=False``):
    every operation then skips the Hessian, about half the work.
    """

    val: np.ndarray
    grad: np.ndarray
    hess: np.ndarray | None

    def _scaled(self, c: object) -> Jet:
        c = np.asarray(c, np.float64)
        hess = None if self.hess is None else self.hess * c[..., None, None]
        return Jet(self.val * c, self.grad * c[..., None], hess)

    def __add__(self, other: object) -> Jet:
        if not isinstance(other, Jet):  # a constant moves the value only
            return Jet(self.val + np.asarray(other, np.float64), self.grad, self.hess)
        hess = None if self.hess is None else self.hess + other.hess
        return Jet(self.val + other.val, self.grad + other.grad, hess)

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return self._scaled(-1.0)

    def __sub__(self, other: object) -> Jet:
        return self + (-other if isinstance(other, Jet) else -np.asarray(other, np.float64))

    def __rsub__(self, other: object) -> Jet:
        return (-self) + other

    def __mul__(self, other: object) -> Jet:
        if not isinstance(other, Jet):
            return self._scaled(other)
        a, b = self.val[..., None], other.val[..., None]
        grad = self.grad * b + a * other.grad
        if self.hess is None:
            return Jet(self.val * other.val, grad, None)
        outer = self.grad[..., :, None] * other.grad[..., None, :]
        hess = self.hess * b[..., None] + a[..., None] * other.hess
        return Jet(self.val * other.val, grad, hess + outer + np.swapaxes(outer, -1, -2))

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Jet:
        if not isinstance(other, Jet):
            return self._scaled(1.0 / np.asarray(other, np.float64))
        return self * reciprocal(other)

    def __rtruediv__(self, other: object) -> Jet:
        return reciprocal(self) * other


def variables(phi: np.ndarray, t: np.ndarray, second: bool = True) -> tuple[Jet, Jet]:
    r"""The coordinate jets :math:`\varphi` and :math:`t` at broadcast points.

    ``second=False`` gives first-order jets (no Hessians).
    """
    phi, t = np.broadcast_arrays(np.asarray(phi, np.float64), np.asarray(t, np.float64))
    e = np.eye(2)
    hess = (lambda: np.zeros(phi.shape + (2, 2))) if second else (lambda: None)
    return (
        Jet(phi.copy(), np.broadcast_to(e[0], phi.shape + (2,)).copy(), hess()),
        Jet(t.copy(), np.broadcast_to(e[1], t.shape + (2,)).copy(), hess()),
    )


def _chain(f: Jet, g0: np.ndarray, g1: np.ndarray, g2: np.ndarray) -> Jet:
    """:math:`g(f)` from :math:`g(f), g'(f), g''(f)` (arrays of ``f.val``'s shape)."""
    grad = g1[..., None] * f.grad
    if f.hess is None:
        return Jet(g0, grad, None)
    outer = f.grad[..., :, None] * f.grad[..., None, :]
    return Jet(g0, grad, g2[..., None, None] * outer + g1[..., None, None] * f.hess)


def reciprocal(f: Jet) -> Jet:
    """:math:`1/f`."""
    r = 1.0 / f.val
    return _chain(f, r, -(r**2), 2.0 * r**3)


def sin(f: Jet) -> Jet:
    r""":math:`\sin f`."""
    s, c = np.sin(f.val), np.cos(f.val)
    return _chain(f, s, c, -s)


def cos(f: Jet) -> Jet:
    r""":math:`\cos f`."""
    s, c = np.sin(f.val), np.cos(f.val)
    return _chain(f, c, -s, -c)


def sqrt(f: Jet) -> Jet:
    r""":math:`\sqrt f` (``f > 0`` where derivatives are needed)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.sqrt(np.maximum(f.val, 0.0))
        return _chain(f, r, 0.5 / r, -0.25 / r**3)


def arccos(f: Jet) -> Jet:
    r""":math:`\arccos f`, the value clipped to ``[-1, 1]`` (round-off at the chart's poles)."""
    x = np.clip(f.val, -1.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = 1.0 / np.sqrt(1.0 - x * x)
        return _chain(f, np.arccos(x), -w, -x * w**3)


def sinc(f: Jet) -> Jet:
    r""":math:`\operatorname{sinc} f = \sin f / f` (unnormalised), smooth through 0.

    Below :data:`_SINC_SERIES` the value and derivatives are the Taylor series
    :math:`\sum_k (-1)^k x^{2k} / (2k+1)!` differentiated term by term (12 terms: the
    remainder is below round-off there); above it the quotient forms.
    """
    x = f.val
    small = np.abs(x) < _SINC_SERIES
    xs = np.where(small, 1.0, x)  # keeps the quotient forms finite where the series is used
    s, c = np.sin(xs), np.cos(xs)
    g0 = s / xs
    g1 = (xs * c - s) / xs**2
    g2 = (-(xs**2) * s - 2.0 * xs * c + 2.0 * s) / xs**3
    if np.any(small):
        xz = np.where(small, x, 0.0)
        k = np.arange(12).reshape((12,) + (1,) * xz.ndim)
        coef = (-1.0) ** k / np.array(
            [float(math.factorial(2 * i + 1)) for i in range(12)]
        ).reshape(k.shape)
        pw = xz[None] ** np.maximum(2 * k - 2, 0)
        s0 = np.sum(coef * pw * xz[None] ** 2 * (k > 0), axis=0) + 1.0
        s1 = np.sum(coef * 2 * k * pw * xz[None] * (k > 0), axis=0)
        s2 = np.sum(coef * 2 * k * (2 * k - 1) * pw * (k > 0), axis=0)
        g0, g1, g2 = (np.where(small, a, b) for a, b in ((s0, g0), (s1, g1), (s2, g2)))
    return _chain(f, g0, g1, g2)

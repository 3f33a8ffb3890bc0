r"""The one :class:`Spring`: a spring and damper between two vertices.

With :math:`d = p_i - p_j`, :math:`\ell = |d|`, :math:`e = d/\ell`, the force on
``i`` is

.. math::

    F_i = -\big(k x + \beta x^3\big)\,e - c\,\big(e \cdot (v_i - v_j)\big)\,e,
    \qquad x = \ell - \ell_0,

and the opposite on ``j`` (``DuffingSpring``, which is ``LinearSpring`` for
:math:`\beta = 0`, and ``LinearDamper`` of sympy.physics.mechanics: an expansile
force :math:`-(k x + \beta x^3)`); the potential energy is
:math:`\tfrac12 k x^2 + \tfrac14 \beta x^4` (the damper dissipates).

The same value object is held by the widget's document, written to the JSON
sibling and handed to the simulator; a ``rest_length`` of ``None`` means "the
distance when the spring is attached", which the simulator resolves.

>>> Spring(0, 3, stiffness=2.0).renumbered(1)
Spring(i=0, j=2, stiffness=2.0, rest_length=None, damping=0.0, nonlinear_stiffness=0.0)
>>> Spring(0, 0)
Traceback (most recent call last):
...
ValueError: a spring needs two distinct vertices, got 0 twice
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _checks

__all__ = ["Spring"]


@dataclass(frozen=True)
class Spring:
    r"""A spring (and optional damper) between vertices ``i`` and ``j``.

    Attributes
    ----------
    i, j : int
        Distinct vertex indices.
    stiffness : float
        Force per unit stretch (>= 0).
    rest_length : float or None
        ``None``: the distance when the spring was attached.
    damping : float
        Force per unit stretching speed (>= 0).
    nonlinear_stiffness : float
        Duffing coefficient :math:`\beta` (force per length cubed, finite; a
        negative value softens the spring).
    """

    i: int
    j: int
    stiffness: float = 1.0
    rest_length: float | None = None
    damping: float = 0.0
    nonlinear_stiffness: float = 0.0

    def __post_init__(self) -> None:
        if int(self.i) == int(self.j):
            raise ValueError(f"a spring needs two distinct vertices, got {self.i} twice")
        # Normalise in place (frozen dataclass): equal springs compare equal whatever
        # numeric types they were built from.
        set_ = object.__setattr__
        set_(self, "i", int(self.i))
        set_(self, "j", int(self.j))
        set_(self, "stiffness", _checks.non_negative(self.stiffness, "spring stiffness"))
        set_(self, "damping", _checks.non_negative(self.damping, "spring damping"))
        beta = _checks.finite(self.nonlinear_stiffness, "spring nonlinear_stiffness")
        set_(self, "nonlinear_stiffness", beta)
        if self.rest_length is not None:
            set_(self, "rest_length", _checks.non_negative(self.rest_length, "spring rest_length"))

    def renumbered(self, removed: int) -> Spring | None:
        """The spring after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in (self.i, self.j):
            return None
        return Spring(
            self.i - (self.i > removed),
            self.j - (self.j > removed),
            self.stiffness,
            self.rest_length,
            self.damping,
            self.nonlinear_stiffness,
        )

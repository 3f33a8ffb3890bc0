r"""A closed loop of revolute hinges with exact data: the input of certified mobility in space.

Why not the rods
----------------
A rod framework of Bennett's linkage (:func:`linkage_widget.examples.space.bennett_linkage`)
has floating coordinates made by ``sin`` and ``cos``; taken as exact rationals they
describe a slightly *different* loop, which breaks Bennett's condition and is rigid.
An exact answer about the meant mechanism needs the meant data, so the exact route in
space takes the hinges themselves, with rational numbers.

The loop
--------
Hinge :math:`i` turns about the :math:`z` axis of its frame by :math:`\theta_i`; link
:math:`i` then carries the fixed rigid transform :math:`L_i` (rotation :math:`R_i`,
translation :math:`t_i`) to the frame of hinge :math:`i + 1`. With
:math:`Z(\theta) = R_z(\theta)`, the loop closes when

.. math:: Z(\theta_0) L_0\, Z(\theta_1) L_1 \cdots Z(\theta_{n-1}) L_{n-1} = I .

Denavit–Hartenberg links are the case :math:`L_i = T_z(d_i) T_x(a_i) R_x(\alpha_i)`
(:meth:`RevoluteLoop.from_dh`). The unknowns are :math:`c_i = \cos\theta_i,
s_i = \sin\theta_i` with :math:`c_i^2 + s_i^2 = 1` — not half-angle tangents, which
cannot reach :math:`\theta = 180°` — and the closure is written as
:math:`Z_0 L_0 \cdots Z_{h-1} L_{h-1} = (Z_h L_h \cdots Z_{n-1} L_{n-1})^{-1}`,
:math:`h = \lfloor n/2 \rfloor`, whose twelve entries have degree at most
:math:`\lceil n/2 \rceil` (the ground link is the frame, so no gauge is needed).

Exact data: every number is a rational; a rotation is exact when it comes from a
rational quaternion (:func:`exact_rotation`, Euler–Rodrigues divided by
:math:`|q|^2`), a twist or a hinge angle when its cosine and sine are rational (a
rational half-angle tangent :math:`\tau` gives
:math:`\left(\frac{1 - \tau^2}{1 + \tau^2}, \frac{2\tau}{1 + \tau^2}\right)`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..model import Linkage
from .exact import rational

__all__ = ["RevoluteLoop", "exact_rotation", "exact_turn"]

Turn = tuple[Fraction, Fraction]
Link = tuple[tuple[Fraction, ...], ...]  # 3 rows of 4: [R | t]


def _fraction(x: Any, what: str) -> Fraction:
    """``x`` as an exact rational: ints, Fractions, sympy Rationals, floats by :func:`rational`."""
    if isinstance(x, numbers.Rational):
        return Fraction(x)
    if hasattr(x, "p") and hasattr(x, "q") and getattr(x, "is_Rational", False):
        return Fraction(int(x.p), int(x.q))  # a sympy Rational
    if isinstance(x, numbers.Real):
        r = rational(float(x))
        if r is not None:
            return r
    raise ValueError(f"{what} must be an exact rational, got {x!r}")


def exact_turn(x: Any, what: str = "angle") -> Turn:
    r"""``(cos, sin)`` of an angle, exactly: a pair itself or a rational half-angle tangent.

    >>> exact_turn(1)            # tan(θ/2) = 1: θ = 90°
    (Fraction(0, 1), Fraction(1, 1))
    >>> exact_turn((-1, 0))      # 180°, which no half-angle tangent reaches
    (Fraction(-1, 1), Fraction(0, 1))
    """
    if isinstance(x, tuple | list) and len(x) == 2:
        c, s = _fraction(x[0], what), _fraction(x[1], what)
        if c * c + s * s != 1:
            raise ValueError(f"{what}: cos^2 + sin^2 = {c * c + s * s} is not 1 for {x!r}")
        return c, s
    t = _fraction(x, f"{what} (a half-angle tangent)")
    return (1 - t * t) / (1 + t * t), 2 * t / (1 + t * t)


def exact_rotation(quaternion: Any) -> tuple[tuple[Fraction, ...], ...]:
    r"""The rotation of a rational quaternion :math:`q = (w, x, y, z) \ne 0`, exactly, (3, 3).

    .. math:: R = \frac{1}{|q|^2}\begin{pmatrix}
        w^2 + x^2 - y^2 - z^2 & 2(xy - wz) & 2(xz + wy) \\
        2(xy + wz) & w^2 - x^2 + y^2 - z^2 & 2(yz - wx) \\
        2(xz - wy) & 2(yz + wx) & w^2 - x^2 - y^2 + z^2 \end{pmatrix}

    >>> exact_rotation((1, 0, 0, 1))[0]   # a quarter turn about z
    (Fraction(0, 1), Fraction(-1, 1), Fraction(0, 1))
    """
    w, x, y, z = (_fraction(v, "quaternion") for v in quaternion)
    n = w * w + x * x + y * y + z * z
    if n == 0:
        raise ValueError("the quaternion of a rotation must not be zero")
    rows = (
        (w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)),
        (2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)),
        (2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z),
    )
    return tuple(tuple(v / n for v in row) for row in rows)


def _link(matrix: Any, i: int) -> Link:
    """A (3, 4) or (4, 4) rigid transform as exact rows; refused unless its rotation is exact."""
    rows = [list(r) for r in matrix]
    if len(rows) not in (3, 4) or any(len(r) != 4 for r in rows[:3]):
        raise ValueError(f"link {i}: a rigid transform is a (3, 4) or (4, 4) matrix")
    out = tuple(tuple(_fraction(v, f"link {i}") for v in r) for r in rows[:3])
    rot = [r[:3] for r in out]
    gram = [[sum(rot[k][a] * rot[k][b] for k in range(3)) for b in range(3)] for a in range(3)]
    if gram != [[int(a == b) for b in range(3)] for a in range(3)] or _det3(rot) != 1:
        raise ValueError(f"link {i}: its 3x3 part is not exactly a rotation")
    return out


def _symmetry(pairs: Any, angles: tuple[Turn, ...]) -> tuple[tuple[int, int, int], ...]:
    """The checked ``(i, j, sign)`` relations: indices in range, sign ±1, true at the placement."""
    out = []
    for pair in pairs:
        i, j, sign = (int(v) for v in pair)
        if not (0 <= i < len(angles) and 0 <= j < len(angles) and i != j and sign in (1, -1)):
            raise ValueError(f"symmetry {tuple(pair)!r}: want (i, j, ±1) with hinges i != j")
        (ci, si), (cj, sj) = angles[i], angles[j]
        if (cj, sj) != (ci, sign * si):
            raise ValueError(f"symmetry {tuple(pair)!r}: θ{j} != {sign:+d}·θ{i} at the placement")
        out.append((i, j, sign))
    return tuple(out)


def _det3(m: Any) -> Any:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _mul(a: Any, b: Any, zero: Any = 0) -> list[list[Any]]:
    """The product of two 4x4 matrices given as nested lists (Fractions or ring elements)."""
    return [[sum((a[i][k] * b[k][j] for k in range(4)), zero) for j in range(4)] for i in range(4)]


def _full(link: Link, one: Any = 1, zero: Any = 0) -> list[list[Any]]:
    """The 4x4 matrix of a (3, 4) link, entries mapped into a ring by ``one``."""
    return [[one * v for v in row] for row in link] + [[zero, zero, zero, one]]


def _inverse(link: Link) -> Link:
    r"""The inverse rigid transform :math:`[R^T \mid -R^T t]`, exact."""
    rt = [[link[j][i] for j in range(3)] for i in range(3)]
    t = [-sum(rt[i][k] * link[k][3] for k in range(3)) for i in range(3)]
    return tuple((*rt[i], t[i]) for i in range(3))


def _turn(c: Any, s: Any, one: Any = 1, zero: Any = 0) -> list[list[Any]]:
    r""":math:`R_z(\theta)` as a 4x4 matrix of its cosine ``c`` and sine ``s``."""
    return [[c, -s, zero, zero], [s, c, zero, zero], [zero, zero, one, zero],
            [zero, zero, zero, one]]  # fmt: skip


def _product(turns: Any, links: Any) -> list[list[Any]]:
    r""":math:`Z(\theta_0) L_0 \cdots`, exact (Fractions); a missing last link is the identity."""
    m = _full(((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0)))
    for i, (c, s) in enumerate(turns):
        m = _mul(m, _turn(Fraction(c), Fraction(s)))
        if i < len(links):
            m = _mul(m, _full(links[i]))
    return m


@dataclass(frozen=True)
class RevoluteLoop:
    r"""A closed chain of ``n`` revolute hinges, exact, at a closed placement (module notes).

    Attributes
    ----------
    links : tuple of n exact (3, 4) rigid transforms
        :math:`L_i = [R_i \mid t_i]`, from hinge ``i`` (after its turn) to hinge ``i + 1``.
    angles : tuple of n exact ``(cos, sin)`` pairs
        The hinge angles :math:`\theta_i` of the placement.
    symmetry : tuple of ``(i, j, sign)``
        Relations :math:`\theta_j = \pm\theta_i` the motion is expected to keep
        (Bricard's line-symmetric 6R: ``(0, 3, 1), (1, 4, 1), (2, 5, 1)``; Bennett:
        ``(0, 2, -1), (1, 3, -1)``), checked at the placement. Only a hint: the exact
        route looks for a motion inside them first (a lower bound on the dimension),
        so a wrong hint can cost time, never a wrong answer.

    Raises
    ------
    ValueError
        A number that is not an exact rational, a rotation or angle that is not exact, or
        a placement that does not close exactly (naming what).
    """

    links: tuple[Link, ...]
    angles: tuple[Turn, ...]
    symmetry: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        links = tuple(_link(m, i) for i, m in enumerate(self.links))
        angles = tuple(exact_turn(a, f"angle {i}") for i, a in enumerate(self.angles))
        if len(links) != len(angles) or len(links) < 3:
            raise ValueError(
                f"a loop needs as many angles as links, at least 3: {len(links)} links, "
                f"{len(angles)} angles"
            )
        object.__setattr__(self, "links", links)
        object.__setattr__(self, "angles", angles)
        m = _product(angles, links)
        gap = max(abs(m[i][j] - (i == j)) for i in range(4) for j in range(4))
        if gap != 0:
            raise ValueError(
                "the placement does not close: Z(θ0) L0 ··· Z(θn-1) Ln-1 - I has largest "
                f"entry {float(gap):.3g} (exactly zero is required)"
            )
        object.__setattr__(self, "symmetry", _symmetry(self.symmetry, angles))

    @property
    def n(self) -> int:
        """Number of hinges (and of links)."""
        return len(self.links)

    @classmethod
    def from_dh(
        cls, lengths: Any, twists: Any, angles: Any, offsets: Any = None, symmetry: Any = ()
    ) -> RevoluteLoop:
        r"""Denavit–Hartenberg links :math:`L_i = T_z(d_i) T_x(a_i) R_x(\alpha_i)`.

        ``twists`` and ``angles``: each a ``(cos, sin)`` pair or a half-angle tangent
        (:func:`exact_turn`); ``offsets`` :math:`d_i` default to 0.

        >>> bennett = RevoluteLoop.from_dh([3, 4, 3, 4], [(4/5, 3/5), (3/5, 4/5)] * 2,
        ...                                [1, 5, -1, -5])
        >>> bennett.n
        4
        """
        n = len(angles)
        offsets = [0] * n if offsets is None else list(offsets)
        if not len(lengths) == len(twists) == len(offsets) == n:
            raise ValueError("from_dh: lengths, twists, angles and offsets need one entry each")
        links = []
        for i in range(n):
            a, d = _fraction(lengths[i], f"length {i}"), _fraction(offsets[i], f"offset {i}")
            c, s = exact_turn(twists[i], f"twist {i}")
            links.append(((1, 0, 0, a), (0, c, -s, 0), (0, s, c, d)))
        turns = tuple(exact_turn(t, f"angle {i}") for i, t in enumerate(angles))
        return cls(tuple(links), turns, tuple(symmetry))

    @classmethod
    def closing(cls, links: Any, angles: Any, symmetry: Any = ()) -> RevoluteLoop:
        """The loop whose last link closes ``n - 1`` given links at the ``n`` given angles.

        Any exact data then gives a closed placement: how a generic loop is made.
        """
        turns = [exact_turn(t, f"angle {i}") for i, t in enumerate(angles)]
        first = [_link(m, i) for i, m in enumerate(links)]
        if len(first) != len(turns) - 1:
            raise ValueError(f"closing: {len(turns)} angles need {len(turns) - 1} links")
        last = _inverse(tuple(tuple(row) for row in _product(turns, first)[:3]))
        return cls((*first, last), tuple(turns), tuple(symmetry))

    def closure_system(self) -> tuple[list[Any], tuple[Any, ...]]:
        r"""The closure polynomials (module notes) and the exact placement.

        Returns
        -------
        polys : list of sympy ``PolyElement``
            In the ring :math:`\mathbb{Q}[c_0, s_0, c_1, s_1, \dots]` (sympy's sparse
            polynomials: fast products); the twelve closure entries that are not zero,
            then the circles :math:`c_i^2 + s_i^2 - 1`.
        point : tuple of ``2n`` rationals (the ring's domain), in the order of the gens
        """
        from sympy.polys.domains import QQ
        from sympy.polys.rings import ring

        n, h = self.n, self.n // 2
        ring_, *xs = ring([f"{a}{i}" for i in range(n) for a in "cs"], QQ)
        one, zero = ring_.one, ring_.zero
        c, s = xs[0::2], xs[1::2]
        left = right = _full(((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0)), one, zero)
        for i in range(h):
            left = _mul(_mul(left, _turn(c[i], s[i], one, zero), zero),
                        _full(self.links[i], one, zero), zero)  # fmt: skip
        for i in reversed(range(h, n)):
            right = _mul(_mul(right, _full(_inverse(self.links[i]), one, zero), zero),
                         _turn(c[i], -s[i], one, zero), zero)  # fmt: skip
        entries = {left[i][j] - right[i][j] for i in range(3) for j in range(4)} - {zero}
        polys = sorted(entries, key=str) + [c[i] ** 2 + s[i] ** 2 - 1 for i in range(n)]
        point = tuple(QQ(v.numerator, v.denominator) for turn in self.angles for v in turn)
        return polys, point

    def hinges(self) -> tuple[np.ndarray, np.ndarray]:
        """Origins and unit axes of the hinges at the placement (floats), shapes (n, 3)."""
        frame = np.eye(4)
        origins, axes = [], []
        for (c, s), link in zip(self.angles, self.links, strict=True):
            origins.append(frame[:3, 3].copy())
            axes.append(frame[:3, 2].copy())
            frame = frame @ np.array(_turn(c, s), dtype=float)
            frame = frame @ np.array(_full(link), dtype=float)
        return np.array(origins), np.array(axes)

    def to_linkage(self, hinge: float = 1.0) -> Linkage:
        """The loop as rods, like :func:`~linkage_widget.examples.space.bennett_linkage`.

        Joints ``2i``, ``2i + 1`` are the origin :math:`P_i` of hinge ``i`` and
        :math:`Q_i = P_i + h u_i` on its axis; link ``i`` is the tetrahedron
        :math:`P_i Q_i P_{i+1} Q_{i+1}`. Floating coordinates: for the numerical route.

        Raises
        ------
        ValueError
            When a link's tetrahedron is flat (consecutive axes meet or are parallel),
            so its rods would not hold it rigid.
        """
        origins, axes = self.hinges()
        joints = np.empty((2 * self.n, 3))
        joints[0::2], joints[1::2] = origins, origins + hinge * axes
        rods = [(2 * i, 2 * i + 1) for i in range(self.n)]
        for i in range(self.n):
            j = (i + 1) % self.n
            tet = joints[[2 * i, 2 * i + 1, 2 * j, 2 * j + 1]]
            edges = tet[1:] - tet[0]
            if abs(np.linalg.det(edges)) <= 1e-9 * max(1.0, np.abs(edges).max()) ** 3:
                raise ValueError(f"link {i}: hinges {i} and {j} are coplanar, its rods are flat")
            rods += [(2 * i + a, 2 * j + b) for a in (0, 1) for b in (0, 1)]
        return Linkage(joints, rods=rods)

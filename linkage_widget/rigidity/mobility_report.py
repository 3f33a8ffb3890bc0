"""The result of :func:`~linkage_widget.rigidity.mobility`: one value for every route."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["MobilityReport"]


@dataclass(frozen=True, eq=False)
class MobilityReport:
    """Result of :func:`mobility`.

    Attributes
    ----------
    dimension : int or None
        Local dimension of the configuration set at the placement, trivial
        motions removed; ``None`` when undecided.
    branches : int
        Number of branches through the placement (1 at a regular point that
        moves, 0 when rigid).
    branch_directions : ndarray, shape (k, n, dim)
        A unit internal tangent direction per branch line (sign arbitrary); for
        a regular point of dimension ``d > 1`` an orthonormal basis of the
        tangent space (``k = d``). For a
        :class:`~linkage_widget.rigidity.RevoluteLoop`, shape ``(k, n, 1)``: the
        rates of its ``n`` hinge angles.
    certified : bool
        Whether ``dimension`` is proved (implicit function theorem, exact
        arithmetic, prestress stability), not only found numerically. For a
        :class:`~linkage_widget.rigidity.RevoluteLoop` it is about its exact data,
        the mechanism meant, not a floating placement near it.
    method : str
        ``"infinitesimal-rigidity"``, ``"implicit-function"``, ``"second-order"``,
        ``"sympy-groebner"`` or ``"numerical-sampling"``.
    status : str
        ``"moves (certified, dimension d)"``, ``"moves (dimension d)"``,
        ``"rigid"``, ``"rigid although infinitesimally flexible"`` or
        ``"undecided"``.
    explanation : str
        Why, in words for students.
    """

    dimension: int | None
    branches: int
    branch_directions: np.ndarray = field(repr=False)
    certified: bool
    method: str
    status: str
    explanation: str = ""

    def __str__(self) -> str:
        return f"{self.status}: {self.explanation}"

    def plain(self) -> str:
        """The status in a few plain words, for a readout line.

        Examples
        --------
        >>> from linkage_widget import Linkage, mobility
        >>> chain = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
        >>> mobility(chain).plain()
        'cannot move (proved), though it flexes infinitesimally'
        """
        d, proof = self.dimension, "proved" if self.certified else "found numerically"
        if d is None:
            return "undecided: neither proved rigid nor seen to move"
        if d > 0:
            crossing = f", {self.branches} branches cross here" if self.branches > 1 else ""
            return f"moves with {d} degree{'s' * (d != 1)} of freedom ({proof}){crossing}"
        if self.status == "rigid":
            return "cannot move, not even infinitesimally"
        if self.certified:
            return "cannot move (proved), though it flexes infinitesimally"
        return "no motion found (numerically), though it flexes infinitesimally"


def _status(dimension: int | None, certified: bool, n_flexes: int) -> str:
    if dimension is None:
        return "undecided"
    if dimension > 0:
        return f"moves ({'certified, ' if certified else ''}dimension {dimension})"
    return "rigid" if n_flexes == 0 else "rigid although infinitesimally flexible"


def _report(
    dimension: int | None,
    branches: int,
    directions: np.ndarray,
    certified: bool,
    method: str,
    n_flexes: int,
    explanation: str,
) -> MobilityReport:
    return MobilityReport(
        dimension=dimension,
        branches=branches,
        branch_directions=directions,
        certified=certified,
        method=method,
        status=_status(dimension, certified, n_flexes),
        explanation=explanation,
    )

r"""What the kinematic analysis draws on the canvas: velocity arrows, instant centres, bands.

Pure layers like :mod:`.layers`: a :class:`KinematicOverlay` (world values the session
computed from the cycle of the driven mechanism) and the view in, primitives out.

- :func:`joint_velocity_arrows`: the velocity :math:`\dot p = \omega\,p'` of each tracked
  joint at the crank speed :math:`\omega`, on one scale for the whole cycle: at
  :math:`\omega = 1` rad/s the fastest joint at its fastest is
  :data:`ARROW_PX` pixels long, so an arrow grows with the crank speed and with the
  joint's speed along the cycle, and arrows compare between frames.
- :func:`instant_centres`: the instant centre :math:`I_{ij}` of each pair of bodies as a
  ring with its label (``I13``); a centre at infinity (a body that translates, a slider's
  centre with the ground) is left out.
- :func:`tolerance_bands`: the first-order tolerance band round a tracked path, filled
  between its two edges :math:`c(\theta) \pm w(\theta)\,n(\theta)`.

Examples
--------
>>> from linkage_widget.draw.view import ViewTransform
>>> view = ViewTransform(width=200, height=200)
>>> over = KinematicOverlay(centres=np.array([[0.0, 0.0], [np.inf, 0.0]]),
...                         centre_labels=("I12", "I14"))
>>> [p.role for p in instant_centres(view, over)]
['instant-centres', 'instant-centre-labels']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .primitives import Arrows, Disks, Polygons, Primitive, Texts
from .theme import Theme
from .view import ViewTransform

__all__ = [
    "ARROW_PX",
    "KINEMATIC_LEGEND",
    "KINEMATIC_ROLES",
    "KinematicOverlay",
    "instant_centres",
    "joint_velocity_arrows",
    "tolerance_bands",
]

#: Pixels of the fastest tracked joint's velocity arrow over the cycle at 1 rad/s.
ARROW_PX = 64.0
#: An arrow is never longer than this many times :data:`ARROW_PX` (a fast crank).
ARROW_MAX = 3.0
#: The colour of the instant centres and their labels (dark grey: not a track colour).
CENTRE_COLOR = "#37474f"
#: The band's opacity over its track colour.
BAND_ALPHA = 0.28

#: The legend's words of each role, its swatch, and its colour (None: the item's first).
KINEMATIC_LEGEND = {
    "tolerance-band": ("tolerance band of the path (first order)", "band", None),
    "joint-velocities": ("velocity of a tracked joint at the motor's speed", "arrow", None),
    "instant-centres": ("instant centre Iij of bodies i, j (1: the ground)", "ring", CENTRE_COLOR),
}

#: The roles these layers emit: the band under the tracks, the rest over the linkage.
KINEMATIC_ROLES = ("tolerance-band", "joint-velocities", "instant-centres", "instant-centre-labels")


@dataclass(frozen=True, eq=False)
class KinematicOverlay:
    r"""What the kinematic analysis shows on the canvas now (world units, y up).

    Attributes
    ----------
    joints : tuple of int
        The tracked joints that get a velocity arrow.
    velocities : ndarray, shape (len(joints), 2)
        :math:`\omega\,p' / \max_{\text{cycle}} |p'|`: the velocity at the crank speed
        over the fastest tracked joint's fastest speed per unit crank speed (1/s).
    colors : tuple of str
        One colour per joint (its track colour).
    centres : ndarray, shape (c, 2)
        Instant centres (non-finite: at infinity, not drawn).
    centre_labels : tuple of str
        One label per centre (``"I13"``).
    bands : tuple of (ndarray (k, 2), ndarray (k, 2))
        Each band's two edges, sample by sample along the path.
    band_colors : tuple of str
        One colour per band (its path's track colour).
    """

    joints: tuple[int, ...] = ()
    velocities: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    colors: tuple[str, ...] = ()
    centres: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    centre_labels: tuple[str, ...] = ()
    bands: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    band_colors: tuple[str, ...] = ()


def _pixels_per_unit(view: ViewTransform) -> float:
    return float(np.hypot(*view.vector_to_pixel(np.array([1.0, 0.0]))))


def joint_velocity_arrows(
    view: ViewTransform, P: np.ndarray, over: KinematicOverlay, theme: Theme
) -> list[Primitive]:
    """Arrows of the tracked joints' velocities at the crank speed (module docstring).

    ``P`` ``(n, 2)``: the joints in pixels (the tails); joints out of range, non-finite
    velocities and arrows under a pixel are left out.
    """
    V = np.asarray(over.velocities, dtype=np.float64).reshape(-1, 2)
    if not len(over.joints) or len(V) != len(over.joints):
        return []
    px = view.vector_to_pixel(V) * (ARROW_PX / _pixels_per_unit(view))
    length = np.hypot(px[:, 0], px[:, 1])
    px *= np.minimum(1.0, ARROW_MAX * ARROW_PX / np.maximum(length, 1e-300))[:, None]
    j = np.asarray(over.joints, dtype=np.int64)
    keep = (j >= 0) & (j < len(P)) & np.isfinite(length) & (length >= 1.0)
    if not keep.any():
        return []
    colors = tuple(c for c, k in zip(over.colors, keep, strict=True) if k)
    arrow = Arrows.from_vectors(
        P[j[keep]], px[keep], color=colors, width=theme.velocity_width, role="joint-velocities"
    )
    return [arrow]


def instant_centres(view: ViewTransform, over: KinematicOverlay) -> list[Primitive]:
    """Each finite instant centre as a ring and its label beside it."""
    C = np.asarray(over.centres, dtype=np.float64).reshape(-1, 2)
    if len(C) != len(over.centre_labels):
        return []
    keep = np.all(np.isfinite(C), axis=1)
    if not keep.any():
        return []
    px = view.to_pixel(C[keep])
    labels = tuple(t for t, k in zip(over.centre_labels, keep, strict=True) if k)
    return [
        Disks(px, 5.0, fill="#ffffff", stroke=CENTRE_COLOR, width=2.5, role="instant-centres"),
        Texts(labels, px + [7.0, -7.0], CENTRE_COLOR, 14.0, baseline="bottom",
              halo="#ffffff", role="instant-centre-labels"),
    ]  # fmt: skip


def band_polygon(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""One polygon ``(2k, 2)`` filling between edges ``a`` and ``b`` ``(k, 2)``.

    Edge ``a`` forward, then ``b`` backward: round a closed path (whose samples end
    where they start) the two edges turn opposite ways, so the non-zero fill rule (SVG's
    and the canvas's default) fills the ring between them and not the hole inside.
    """
    return np.concatenate([a, b[::-1]])


def tolerance_bands(view: ViewTransform, over: KinematicOverlay) -> list[Primitive]:
    """Each band as a filled polygon in its path's colour; samples not finite are dropped."""
    polys, colors = [], []
    for (a, b), color in zip(over.bands, over.band_colors, strict=False):
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        ok = np.all(np.isfinite(a), axis=1) & np.all(np.isfinite(b), axis=1)
        if int(ok.sum()) >= 2:
            polys.append(view.to_pixel(band_polygon(a[ok], b[ok])))
            colors.append(color)
    if not polys:
        return []
    counts = [len(p) for p in polys]
    return [
        Polygons(np.concatenate(polys), counts, tuple(colors), alpha=BAND_ALPHA,
                 role="tolerance-band")
    ]  # fmt: skip


def kinematic_under(
    view: ViewTransform, over: KinematicOverlay | None, show_band: bool
) -> list[Primitive]:
    """The layers under the linkage: the tolerance bands when ``show_band``."""
    return tolerance_bands(view, over) if over is not None and show_band else []


def kinematic_over(
    view: ViewTransform,
    P: np.ndarray,
    over: KinematicOverlay | None,
    shows: Sequence[bool],
    theme: Theme,
) -> list[Primitive]:
    """The layers over the linkage: ``shows`` = (velocity arrows, instant centres)."""
    if over is None:
        return []
    arrows, centres = shows
    return [
        *(joint_velocity_arrows(view, P, over, theme) if arrows else []),
        *(instant_centres(view, over) if centres else []),
    ]

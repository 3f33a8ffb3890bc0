r"""Cables, struts, ghosts and a NAC-colouring: the layers of issue 26's rigidity views.

**Cables and struts** are drawn as a textbook draws a tensegrity: a *cable* (it may
shorten, not lengthen) a thin dashed line, a *strut* (it may lengthen, not shorten) a
thick double line (a wide stroke with a background-coloured core). They are told apart
from rods and from each other by their shape, not by a hue, so they read the same to a
colour-blind reader (:mod:`.colour_vision`); with a stress or rod-force colouring on, a
cable or strut takes the colour of its sign as a rod does.

**Ghosts** are other placements of the linkage (same rods, other positions: another
solution of the same lengths, a real realization) drawn faint under the linkage.

**A NAC-colouring** colours every rod one of two colours (:attr:`Theme.nac_colors`,
blue and vermillion: apart under every simulated deficiency); the drawing keeps each
rod's kind (a dashed cable stays dashed); its plain rods have the role ``"nac-rods"``.

>>> import numpy as np
>>> from linkage_widget.draw.theme import DEFAULT_THEME as T
>>> seg = np.zeros((3, 2, 2)); seg[:, 1, 0] = 10.0
>>> [p.role for p in members(seg, np.array([0, 1, 2]), None, None, T)]
['rods', 'cables', 'struts', 'struts']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import layers
from .primitives import Primitive, Segments
from .theme import Theme

__all__ = ["MEMBER_ROLES", "ghosts", "kind_codes", "members", "nac_colours"]

#: The roles these layers emit (ghosts under the linkage, cables and struts with the rods).
MEMBER_ROLES = ("ghosts", "nac-rods", "cables", "struts")


def kind_codes(linkage: Any) -> np.ndarray:
    """Each member's kind code ``(m,)``: ``0`` rod, ``1`` cable, ``2`` strut."""
    names = np.asarray(getattr(linkage, "rod_kinds", ()))
    codes = (names == "cable").astype(np.int8) + 2 * (names == "strut").astype(np.int8)
    return codes if len(codes) == len(linkage.rods) else np.zeros(len(linkage.rods), np.int8)


def _sign_colours(values: np.ndarray | None, base: str, theme: Theme) -> Any:
    """Per-member colours by the sign of ``values`` (tension > 0), else ``base``."""
    if values is None or not len(values) or not np.all(np.isfinite(values)):
        return base
    big = float(np.max(np.abs(values))) if len(values) else 0.0
    on = np.abs(values) > 1e-6 * big if big > 0 else np.zeros(len(values), bool)
    colours = np.where(values > 0, theme.tension, theme.compression)
    return tuple(np.where(on, colours, base).tolist())


def members(
    seg: np.ndarray,
    kinds: np.ndarray,
    stress: np.ndarray | None,
    redundant: np.ndarray | None,
    theme: Theme,
    colours: Any = None,
) -> list[Primitive]:
    """Rods (:func:`~.layers.rods`), then cables and struts in their own strokes.

    Parameters
    ----------
    seg : ndarray, shape (m, 2, 2)
        Member end points in pixels.
    kinds : ndarray, shape (m,), int
        ``0`` rod, ``1`` cable, ``2`` strut (:attr:`RodKinds.codes`).
    stress, redundant : ndarray, shape (m,), or None
        As :func:`~.layers.rods` takes them (of all ``m`` members).
    theme : Theme
    colours : tuple of m str, optional
        A colour per member (a NAC-colouring), over any stress colouring.
    """
    kinds = np.asarray(kinds).reshape(-1)
    if len(kinds) != len(seg):
        kinds = np.zeros(len(seg), np.int8)
    plain = kinds == 0
    if colours is not None:
        nac = tuple(np.asarray(colours)[plain].tolist())
        items: list[Primitive] = [Segments(seg[plain], nac, theme.rod_width, role="nac-rods")]
    elif plain.all():
        return layers.rods(seg, stress, redundant, theme)
    else:
        sub = (None if v is None else v[plain] for v in (stress, redundant))
        items = layers.rods(seg[plain], *sub, theme)
    for code, base, role in ((1, theme.cable, "cables"), (2, theme.strut, "struts")):
        of = kinds == code
        if not of.any():
            continue
        if colours is not None:
            colour = tuple(np.asarray(colours)[of].tolist())
        else:
            colour = _sign_colours(None if stress is None else stress[of], base, theme)
        if code == 1:
            items.append(Segments(seg[of], colour, theme.cable_width, dash=theme.cable_dash,
                                  role=role))  # fmt: skip
        else:
            items.append(Segments(seg[of], colour, theme.strut_width, role=role))
            items.append(Segments(seg[of], theme.background, theme.strut_core, role=role))
    return items


def ghosts(
    view: Any, placements: Sequence[np.ndarray], rod_ends: np.ndarray, theme: Theme
) -> list[Primitive]:
    """Each placement ``(n, 2)`` (world) of ``placements`` as faint rods under the linkage."""
    out: list[Primitive] = []
    for placement in placements:
        P = np.asarray(placement, dtype=np.float64)
        if P.ndim != 2 or P.shape[1] != 2 or (len(rod_ends) and rod_ends.max() >= len(P)):
            continue  # stale: of another linkage
        seg = view.to_pixel(P)[rod_ends]
        out.append(Segments(seg, theme.ghost, theme.ghost_width, theme.ghost_alpha, role="ghosts"))
    return out


def nac_colours(colouring: np.ndarray | None, m: int, theme: Theme) -> tuple[str, ...] | None:
    """A colour per rod of a NAC-colouring ``colouring`` ``(m,)`` bool (True: the second)."""
    c = layers.per_rod(colouring, m, bool)
    if c is None:
        return None
    blue, red = theme.nac_colors
    return tuple(np.where(c, red, blue).tolist())

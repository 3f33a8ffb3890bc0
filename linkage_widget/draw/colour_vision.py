r"""How colours look to a colour-blind reader, and how far apart two colours are.

The theme's colour pairs (:data:`~linkage_widget.draw.theme.DISTINCT_PAIRS`) are
checked with these functions: each colour is simulated for a dichromat and the
two results compared in CIELAB.

Simulation
----------
A dichromat lacks one cone type; in linear RGB the colour they see is a linear map
of the colour shown, :math:`c' = M c` with :math:`c` the linear (not gamma-encoded)
sRGB triple:

- protanopia and deuteranopia: Viénot, Brettel & Mollon (1999), *Digital video
  colourmaps for checking the legibility of displays by dichromats*, Color Res.
  Appl. 24(4): the projection onto the plane the dichromat sees, as a 3 x 3 matrix
  in linear sRGB;
- tritanopia: Machado, Oliveira & Fernandes (2009), *A physiologically-based model
  for simulation of color vision deficiency*, IEEE TVCG 15(6), severity 1.

Every row of each matrix sums to 1, so greys (and white) stay as they are.

Difference
----------
CIE 1976 :math:`\Delta E^*_{ab}`: the Euclidean distance in CIELAB (D65 white),
where 2.3 is about a just-noticeable difference and differences above 20 are
told apart at a glance.

Examples
--------
>>> round(delta_e("#ffffff", "#000000"), 1)
100.0
>>> simulate("#808080", "deuteranopia").round(3).tolist()
[[0.502, 0.502, 0.502]]
>>> red, olive = "#c80000", "#7a6f00"    # far apart, but one colour to a deuteranope
>>> round(delta_e(red, olive)), round(delta_e(red, olive, "deuteranopia"))
(73, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["DEFICIENCIES", "delta_e", "hex_to_srgb", "simulate", "srgb_to_lab"]

#: Dichromat simulation matrices acting on linear sRGB column vectors (module docstring).
DEFICIENCIES: dict[str, np.ndarray] = {
    "normal": np.eye(3),
    # Viénot, Brettel & Mollon 1999, in linear sRGB
    "protanopia": np.array(
        [[0.11238, 0.88762, 0.0], [0.11238, 0.88762, 0.0], [0.00401, -0.00401, 1.0]]
    ),
    "deuteranopia": np.array(
        [[0.29275, 0.70725, 0.0], [0.29275, 0.70725, 0.0], [-0.02234, 0.02234, 1.0]]
    ),
    # Machado, Oliveira & Fernandes 2009, severity 1.0
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}

#: Linear sRGB -> CIE XYZ (D65), IEC 61966-2-1.
_RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_WHITE = _RGB_TO_XYZ.sum(axis=1)  # D65 white point, Y = 1


def hex_to_srgb(colors: str | Sequence[str]) -> np.ndarray:
    """CSS ``"#rrggbb"`` colours as gamma-encoded sRGB in ``[0, 1]``, shape ``(k, 3)``.

    >>> hex_to_srgb("#ff8000").tolist()
    [[1.0, 0.5019607843137255, 0.0]]
    """
    names = [colors] if isinstance(colors, str) else list(colors)
    out = np.empty((len(names), 3))
    for i, c in enumerate(names):
        h = str(c).lstrip("#")
        if len(h) != 6:
            raise ValueError(f"expected a '#rrggbb' colour, got {c!r}")
        out[i] = [int(h[k : k + 2], 16) for k in (0, 2, 4)]
    return out / 255.0


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    r"""Decode sRGB: :math:`c/12.92` below 0.04045, else :math:`((c+0.055)/1.055)^{2.4}`."""
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    """Encode sRGB, the inverse of :func:`_to_linear` (input clipped to ``[0, 1]``)."""
    c = np.clip(linear, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(colors: str | Sequence[str], deficiency: str) -> np.ndarray:
    """The colours a reader with ``deficiency`` sees, as gamma-encoded sRGB ``(k, 3)``.

    Parameters
    ----------
    colors : str or sequence of str
        CSS ``"#rrggbb"`` colours.
    deficiency : str
        A key of :data:`DEFICIENCIES` (``"normal"``, ``"protanopia"``,
        ``"deuteranopia"``, ``"tritanopia"``).
    """
    if deficiency not in DEFICIENCIES:
        raise ValueError(f"deficiency must be one of {', '.join(DEFICIENCIES)}; got {deficiency!r}")
    linear = _to_linear(hex_to_srgb(colors))
    return _to_srgb(linear @ DEFICIENCIES[deficiency].T)


def srgb_to_lab(srgb: np.ndarray) -> np.ndarray:
    r"""Gamma-encoded sRGB ``(k, 3)`` to CIELAB ``(k, 3)`` (D65).

    .. math::
        L^* = 116 f(Y/Y_n) - 16,\quad a^* = 500\,(f(X/X_n) - f(Y/Y_n)),\quad
        b^* = 200\,(f(Y/Y_n) - f(Z/Z_n))

    with :math:`f(t) = t^{1/3}` above :math:`(6/29)^3`, linear below.
    """
    xyz = (_to_linear(np.asarray(srgb, dtype=np.float64)) @ _RGB_TO_XYZ.T) / _WHITE
    d = 6.0 / 29.0
    f = np.where(xyz > d**3, np.cbrt(xyz), xyz / (3 * d * d) + 4.0 / 29.0)
    return np.stack(
        [116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1
    )


def delta_e(a: str, b: str, deficiency: str = "normal") -> float:
    r"""CIE76 :math:`\Delta E^*_{ab}` of colours ``a`` and ``b`` as seen with ``deficiency``."""
    lab = srgb_to_lab(simulate([a, b], deficiency))
    return float(np.linalg.norm(lab[0] - lab[1]))

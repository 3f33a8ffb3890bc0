"""The theme's colours stay apart for colour-blind readers (simulated, measured in CIELAB).

The simulation (:mod:`linkage_widget.draw.colour_vision`) is checked on its own
first: greys stay grey, a simulated colour looks to the dichromat like the colour
it came from (the simulation is a projection), and a classic confusion pair
(red and olive for a deuteranope) collapses. Then every pair the theme promises to
keep apart (``DISTINCT_PAIRS``) is measured under each deficiency.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from linkage_widget.draw.colour_vision import DEFICIENCIES, delta_e, simulate, srgb_to_lab
from linkage_widget.draw.theme import DEFAULT_THEME, DISTINCT_PAIRS, OKABE_ITO

#: Least CIE76 difference for the common deficiencies (protan-, deuteranopia: about 1 in
#: 12 men) and normal vision: 20 is "told apart at a glance" (2.3 is just noticeable).
MIN_DELTA_E = 20.0
#: Tritanopia (about 1 in 10 000) compresses the blue-yellow axis; 15 is still clear.
MIN_DELTA_E_TRITAN = 15.0


def _colour(field: str) -> str:
    m = re.fullmatch(r"(\w+)\[(\d+)\]", field)
    return getattr(DEFAULT_THEME, m[1])[int(m[2])] if m else getattr(DEFAULT_THEME, field)


def _hex(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{int(round(255 * c)):02x}" for c in rgb)


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_greys_stay_grey(deficiency: str) -> None:
    greys = ["#000000", "#404040", "#808080", "#c0c0c0", "#ffffff"]
    seen = simulate(greys, deficiency)
    assert np.allclose(seen, seen[:, :1], atol=2e-3)  # r = g = b
    assert np.allclose(seen[:, 0], simulate(greys, "normal")[:, 0], atol=2e-3)


@pytest.mark.parametrize("deficiency", ["protanopia", "deuteranopia"])
def test_a_simulated_colour_looks_like_its_original_to_the_dichromat(deficiency: str) -> None:
    # Viénot's matrices project onto the plane the dichromat sees: M @ M == M.
    for colour in OKABE_ITO.values():
        seen = _hex(simulate(colour, deficiency)[0])
        assert delta_e(colour, seen, deficiency) < 1.5, colour


def test_red_and_olive_collapse_for_a_deuteranope() -> None:
    red, olive = "#c80000", "#7a6f00"
    assert delta_e(red, olive) > 60
    assert delta_e(red, olive, "deuteranopia") < 2
    # and white to black is L* 0 to 100 whatever the vision
    assert srgb_to_lab(simulate(["#ffffff", "#000000"], "protanopia"))[:, 0] == pytest.approx(
        [100.0, 0.0], abs=0.05
    )


@pytest.mark.parametrize(("what", "a", "b"), DISTINCT_PAIRS, ids=lambda v: str(v))
def test_theme_pairs_stay_apart_for_colour_blind_readers(what: str, a: str, b: str) -> None:
    ca, cb = _colour(a), _colour(b)
    assert ca != cb
    for deficiency in DEFICIENCIES:
        least = MIN_DELTA_E_TRITAN if deficiency == "tritanopia" else MIN_DELTA_E
        d = delta_e(ca, cb, deficiency)
        assert d >= least, f"{what}: {a} {ca} vs {b} {cb} under {deficiency}: ΔE {d:.1f}"


def test_every_track_colour_is_apart_from_the_selection() -> None:
    pairs = {(a, b) for _, a, b in DISTINCT_PAIRS}
    for i in range(len(DEFAULT_THEME.track_colors)):
        assert ("selected", f"track_colors[{i}]") in pairs

"""Soak runs on the 2007 program's penrose3t.txt (issue 6): long sessions break nothing.

``benchmarks/soak.py`` does the work and reports the figures. The full counts of issue 6
(10^5 kinematic steps, 10^4 dynamic, 3000 widget frames: ten minutes and more on two
busy cores) are the benchmark's defaults, ``python benchmarks/soak.py``; the suite runs a
short soak with the same checks, so that ``make test`` stays a tool, not a wait:

* no NaN, ever (the soak functions stop at the first non-finite position);
* the constraint error stays at the floor the file's rounded data allows (motion's
  DATA_TOL at most; measured ~2e-8);
* memory is flat: the resident set size grows by less than a few MB after warm-up
  (simulator runs), Python's traced allocations by less than the undo cap (widget);
* the widget's tracks, undo history and frame log stay capped.

Kinematic: 5000 steps, ~30 targets (~15 s); dynamic: 600 steps, ten targets (~20 s; the
step is cut for the stiffness the attractor's pull gives the rods); widget: 2400 frames
(~1 min), enough to fill the 2000-point track buffer, with Python's allocations traced
(~2.5 times slower) over the last 400 only, when every buffer is full and nothing may grow.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from conftest import reference_linkage

from linkage_widget import Linkage
from linkage_widget.motion import DATA_TOL
from linkage_widget.session.history import History
from linkage_widget.session.recording import TRACK_CAP

REPO = Path(__file__).resolve().parents[2]
KINEMATIC_STEPS = 5_000
DYNAMIC_STEPS = 600
WIDGET_FRAMES = TRACK_CAP + 400
RSS_GROWTH_MB = 8.0


def _soak():
    """``benchmarks/soak.py`` as a module (benchmarks/ is not a package)."""
    if "linkage_soak" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "linkage_soak", REPO / "benchmarks" / "soak.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules["linkage_soak"] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules["linkage_soak"]


@pytest.fixture(scope="module")
def penrose3t():
    return reference_linkage("penrose3t.txt")


@pytest.mark.slow
def test_kinematic_soak(penrose3t):
    fig = _soak().soak_kinematic(Linkage.load(penrose3t), KINEMATIC_STEPS, seed=6)
    print("\n" + fig.line())
    assert fig.steps == KINEMATIC_STEPS
    assert fig.worst_error <= DATA_TOL
    assert fig.statuses["moved"] > 0.9 * KINEMATIC_STEPS  # real work, not blocked no-ops
    assert fig.rss_growth_mb < RSS_GROWTH_MB


@pytest.mark.slow
def test_dynamic_soak(penrose3t):
    fig = _soak().soak_dynamic(Linkage.load(penrose3t), DYNAMIC_STEPS, seed=7)
    print("\n" + fig.line())
    # a new target every simulated second (60 steps)
    assert fig.steps == DYNAMIC_STEPS and fig.targets == -(-DYNAMIC_STEPS // 60)
    assert fig.worst_error <= DATA_TOL
    assert fig.rss_growth_mb < RSS_GROWTH_MB


@pytest.mark.slow
def test_widget_soak_tracks_stay_capped(penrose3t):
    fig = _soak().soak_widget(penrose3t, WIDGET_FRAMES, seed=8, trace_from=TRACK_CAP)
    print("\n" + fig.line())
    assert fig.worst_error <= DATA_TOL
    assert fig.notes["track points"] == TRACK_CAP  # reached the cap, and not beyond
    assert fig.notes["undo depth"] <= History().limit and fig.notes["frame log"] <= 600
    # What Python keeps once the buffers are full: the undo snapshots (~11 kB each, at most
    # 200); the RSS grows ~12 MB in the first few thousand frames (first-touch) and then stays.
    assert fig.notes["traced growth MB"] < 2.5

r"""A standalone HTML page that replays a recorded motion: SVG plus a few lines of script.

The page needs no kernel, no server and no library: open it from a disk or put it
on a course page. Python fixes one view for the whole motion (the bounding box of
every frame, :meth:`ViewTransform.fit`), maps each frame to pixels in one
vectorised step, and embeds them as JSON; the script moves the SVG's rods and
joints to frame ``t`` and draws the tracked paths up to it. The first frame is in
the SVG itself, so the page shows the linkage even with scripts off.

Page structure (what the tests read)::

    <svg id="replay">               one <line class="rod"> per rod,
                                    one <polyline class="track"> per tracked joint,
                                    one <circle class="joint"> (class "joint pinned")
                                    per joint
    <button id="play">, <input id="frame" type="range">
    <script type="application/json" id="frames">
        {"fps": 30.0, "rods": [[i, j], ...], "tracked": [v, ...],
         "frames": [[[x, y], ...], ...]}          # (f, n, 2) pixels, y down
    <script>  the player (requestAnimationFrame, loops)

Pixel coordinates are rounded to :data:`DECIMALS` places (1/100 px: finer than
any screen, and a 10 s, 30 frames/s recording of 80 joints stays near 1 MB).

>>> import numpy as np
>>> frames = np.array([[[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]])
>>> page = replay_html(frames, rods=[(0, 1)], pinned=[0])
>>> page.startswith("<!DOCTYPE html>"), page.count('class="rod"'), 'id="frames"' in page
(True, 1, True)
"""

from __future__ import annotations

import html
import json
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from .._checks import positive
from ..io import atomic_write
from .svg import xml_text
from .theme import DEFAULT_THEME, Theme
from .view import ViewTransform

__all__ = ["DECIMALS", "replay_html", "write_replay_html"]

DECIMALS = 2

# The player: set each rod's and joint's coordinates to frame t, the tracks up to t.
# No "<" in it, so that it can never close its <script> element.
_PLAYER = """
const data = JSON.parse(document.getElementById("frames").textContent);
const rods = document.querySelectorAll("#replay .rod");
const joints = document.querySelectorAll("#replay .joint");
const tracks = document.querySelectorAll("#replay .track");
const slider = document.getElementById("frame"), button = document.getElementById("play");
let t = 0, playing = true, last = null;
function show(k) {
  const p = data.frames[k];
  rods.forEach((el, r) => { const [i, j] = data.rods[r];
    el.setAttribute("x1", p[i][0]); el.setAttribute("y1", p[i][1]);
    el.setAttribute("x2", p[j][0]); el.setAttribute("y2", p[j][1]); });
  joints.forEach((el, v) => { el.setAttribute("cx", p[v][0]); el.setAttribute("cy", p[v][1]); });
  tracks.forEach((el, s) => { const v = data.tracked[s];
    el.setAttribute("points", data.frames.slice(0, k + 1).map(f => f[v].join(",")).join(" ")); });
  slider.value = k;
}
function tick(now) {
  if (playing && (last === null || now - last >= 1000 / data.fps)) {
    last = now; t = (t + 1) % data.frames.length; show(t);
  }
  requestAnimationFrame(tick);
}
button.onclick = () => { playing = !playing; button.textContent = playing ? "pause" : "play"; };
slider.oninput = () => {
  playing = false; button.textContent = "play"; t = +slider.value; show(t);
};
show(0); requestAnimationFrame(tick);
"""


def _check(frames: Any, rods: Any, pinned: Any, tracked: Any) -> tuple[np.ndarray, ...]:
    """Arrays ``(f, n, 2)``, ``(m, 2)``, ``(q,)``, ``(k,)``, or ValueError naming the problem."""
    p = np.asarray(frames, dtype=np.float64)
    if p.ndim != 3 or p.shape[2] != 2 or p.shape[0] < 1 or p.shape[1] < 1:
        raise ValueError(f"frames must have shape (f, n, 2) with f, n >= 1, got {p.shape}")
    bad = np.flatnonzero(~np.isfinite(p).all(axis=(1, 2)))
    if bad.size:
        raise ValueError(f"frame {int(bad[0])} has a non-finite coordinate")
    n = p.shape[1]
    out = [p]
    for name, value, width in (("rods", rods, 2), ("pinned", pinned, 0), ("tracked", tracked, 0)):
        arr = np.asarray(value, dtype=np.int64).reshape((-1, width) if width else (-1,))
        if arr.size and (arr.min() < 0 or arr.max() >= n):
            raise ValueError(f"{name}: a vertex index is out of range (there are {n} joints)")
        out.append(arr)
    return tuple(out)


def replay_html(
    frames: Any,
    rods: Any,
    *,
    pinned: Any = (),
    tracked: Any = (),
    fps: float = 30.0,
    title: str = "Linkage motion",
    width: int = 640,
    height: int = 480,
    theme: Theme = DEFAULT_THEME,
) -> str:
    """The HTML page replaying ``frames``.

    Parameters
    ----------
    frames : array_like, shape (f, n, 2)
        Joint positions per frame, world units (y up).
    rods : array_like, shape (m, 2)
        Vertex pairs drawn as rods.
    pinned, tracked : sequence of int
        Joints drawn as pins; joints whose paths are drawn as they are traced.
    fps : float
        Frames per second of the replay (> 0).
    title : str
        The page's title and heading (escaped; characters XML does not allow, such as
        control characters and lone surrogates, become U+FFFD).
    width, height : int
        The SVG's size in pixels.
    theme : Theme
        Colours and sizes (rods, joints, pins, tracks).

    Returns
    -------
    str
        A complete HTML5 document.

    Raises
    ------
    ValueError
        On frames of the wrong shape or with non-finite values, indices out of range,
        ``fps <= 0``.
    """
    p, rods_, pins, tracks = _check(frames, rods, pinned, tracked)
    fps = positive(fps, "fps")
    view = ViewTransform.fit(p.reshape(-1, 2), width, height, margin=0.08)
    px = np.round(view.to_pixel(p.reshape(-1, 2)).reshape(p.shape), DECIMALS)
    data = {"fps": fps, "rods": rods_.tolist(), "tracked": tracks.tolist(), "frames": px.tolist()}
    svg = _svg(px[0], rods_, pins, tracks, view, theme)
    name = html.escape(xml_text(title))  # no lone surrogate, no control character
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{name}</title>\n</head>\n<body>\n<h1>{name}</h1>\n{svg}\n"
        '<p><button id="play">pause</button> '
        f'<input id="frame" type="range" min="0" max="{len(px) - 1}" value="0"> '
        f"{len(px)} frames at {fps:g} frames/s</p>\n"
        f'<script type="application/json" id="frames">{json.dumps(data)}</script>\n'
        f"<script>{_PLAYER}</script>\n</body>\n</html>\n"
    )


def _svg(
    p0: np.ndarray,
    rods: np.ndarray,
    pins: np.ndarray,
    tracks: np.ndarray,
    view: ViewTransform,
    theme: Theme,
) -> str:
    """The SVG at the first frame ``p0`` (pixels ``(n, 2)``)."""
    lines = [
        f'<line class="rod" x1="{p0[i, 0]}" y1="{p0[i, 1]}" x2="{p0[j, 0]}" y2="{p0[j, 1]}"/>'
        for i, j in rods.tolist()
    ]
    colors = theme.track_colors
    paths = [
        f'<polyline class="track" fill="none" stroke="{colors[s % len(colors)]}" '
        f'stroke-width="{theme.track_width}" points="{p0[v, 0]},{p0[v, 1]}"/>'
        for s, v in enumerate(tracks.tolist())
    ]
    pinned = set(pins.tolist())
    joints = [
        f'<circle class="joint{" pinned" if v in pinned else ""}" cx="{x}" cy="{y}" '
        f'r="{theme.pin_size / 2 if v in pinned else theme.vertex_radius}"/>'
        for v, (x, y) in enumerate(p0.tolist())
    ]
    style = (
        f".rod{{stroke:{theme.rod};stroke-width:{theme.rod_width};stroke-linecap:round}}"
        f".joint{{fill:{theme.vertex};stroke:{theme.vertex_outline};stroke-width:1.5}}"
        f".pinned{{fill:{theme.pin}}}"
    )
    body = "\n".join([*lines, *paths, *joints])
    return (
        f'<svg id="replay" xmlns="http://www.w3.org/2000/svg" width="{view.width}" '
        f'height="{view.height}" viewBox="0 0 {view.width} {view.height}" '
        f'style="background:{theme.background}">\n<style>{style}</style>\n{body}\n</svg>'
    )


def write_replay_html(path: str | PathLike[str], frames: Any, rods: Any, **kwargs: Any) -> Path:
    """Write :func:`replay_html` to ``path`` atomically; return the path."""
    target = Path(path)
    atomic_write(target, replay_html(frames, rods, **kwargs))
    return target

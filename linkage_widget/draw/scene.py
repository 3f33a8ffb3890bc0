"""The scene: what the drawing shows, composed from its layers in draw order.

:func:`build_scene` turns a :class:`~linkage_widget.model.Linkage`, a
:class:`~linkage_widget.draw.view.ViewTransform` and the UI state
(:class:`SceneState`) into a :class:`Scene`: a background colour and a list of
small frozen primitives (:mod:`~linkage_widget.draw.primitives`), bottom to top.
It only chooses each layer's inputs (:mod:`~linkage_widget.draw.layers`,
:mod:`~linkage_widget.draw.labels`) and stacks them; tests assert on the
primitive stream, the renderers translate it.

Draw order (bottom to top, :data:`ROLES`): tracks, selected-rod highlight,
springs, slider tracks, rods, redundant-rod overlay, slotted bars, angle wedges and
arcs, motors, attractor link, pins, slider blocks (:mod:`.guide_layers`), vertices,
selection rings, velocity arrows, load and reaction arrows, attractor, joint labels.
At a singular placement the ways on (:data:`~linkage_widget.draw.branches.BRANCH_ROLES`:
dashed previews, numbered arrows, labels) come between the reactions and the attractor.

No text is drawn over the drawing but the joint labels: the scene carries the
hint line, the error and the legend (:mod:`~linkage_widget.draw.legend`, built
from what is really drawn) as values (:attr:`Scene.hint`, :attr:`Scene.error`,
:attr:`Scene.legend`) for the view to show beside the canvas, and the device
pixel ratio (:attr:`Scene.pixel_ratio`) the renderers draw at.

Examples
--------
>>> from linkage_widget import Linkage
>>> from linkage_widget.draw.view import ViewTransform
>>> link = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
>>> view = ViewTransform.fit(link.vertices, 400, 300)
>>> scene = build_scene(link, view, SceneState(hint="drag a vertex"))
>>> scene.roles(), scene.hint
(['rods', 'pins', 'pins', 'vertices'], 'drag a vertex')
>>> [e.label for e in scene.legend]
['rod', 'pinned joint']
>>> scene.by_role("rods")[0].points.shape
(2, 2, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import forces, guide_layers, layers
from .branches import branch_handles, branch_layers
from .kinematic_layers import KinematicOverlay, kinematic_over, kinematic_under
from .labels import joint_labels
from .legend import LegendEntry, legend_entries
from .member_layers import ghosts, kind_codes, members, nac_colours
from .primitives import Primitive
from .space_scene import depth_cued, flatten
from .svg import scene_to_svg
from .synthesis_layers import target_curves
from .theme import DEFAULT_THEME, Theme
from .view import ViewTransform
from .view3d import Camera

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Linkage

__all__ = ["ROLES", "Scene", "SceneState", "build_scene"]

#: Every role :func:`build_scene` emits, in draw order.
ROLES = (
    "synthesis-target",
    "tracks",
    "ghosts",
    "rod-highlight",
    "springs",
    "sliders",
    "rods",
    "rods-redundant",
    "nac-rods",
    "cables",
    "struts",
    "slots",
    "angles",
    "motors",
    "attractor-link",
    "pins",
    "slider-blocks",
    "vertices",
    "selected-vertex",
    "attracted-vertex",
    "velocities",
    "loads",
    "reactions",
    "attractor",
    "labels",
)


@dataclass
class Scene:
    """What to draw: canvas size, background and primitives in draw order.

    A :class:`~linkage_widget.draw.primitives.Picture`, so every renderer draws it;
    Jupyter shows it as its SVG picture (handy when debugging a drawing).

    Attributes
    ----------
    width, height : int
        Canvas size in pixels.
    background : str
        Background colour (``"#rrggbb"``); backends paint it first.
    items : list of Primitive
        Bottom to top.
    pixel_ratio : float
        Device pixels per CSS pixel the renderers draw at (2 on a retina screen);
        the primitives are in CSS pixels, ``width`` x ``height``.
    legend : tuple of LegendEntry
        A key for every colour and mark among ``items`` (HTML beside the canvas).
    hint, error : str
        The hint line and the error, for the view to show beside the canvas.
    """

    width: int
    height: int
    background: str = "#ffffff"
    items: list[Primitive] = field(default_factory=list)
    pixel_ratio: float = 1.0
    legend: tuple[LegendEntry, ...] = ()
    hint: str = ""
    error: str = ""

    def by_role(self, role: str) -> list[Primitive]:
        """All primitives with this role, in draw order."""
        return [item for item in self.items if item.role == role]

    def roles(self) -> list[str]:
        """The role of every primitive, in draw order (repeats kept)."""
        return [item.role for item in self.items]

    def _repr_svg_(self) -> str:
        return scene_to_svg(self)

    def add(self, item: Primitive) -> None:
        """Append ``item`` unless it has no elements (backends never see empty primitives)."""
        if len(item):
            self.items.append(item)

    def extend(self, items: Iterable[Primitive]) -> None:
        """:meth:`add` each of ``items`` (a layer's output), in order."""
        for item in items:
            self.add(item)


@dataclass
class SceneState:
    """Everything the drawing needs besides the linkage and the view.

    All fields are optional. Indices that are out of range and per-rod or
    per-vertex arrays whose length does not match the linkage are ignored
    rather than raised: the widget may hold a stale analysis for one frame
    while the user edits, and a drawing error would freeze the canvas.

    Attributes
    ----------
    selected_vertex, selected_rod : int or None
        Highlighted with an amber ring / an amber band under the rod.
    attractor : (float, float) or None
        World coordinates of the attractor (crosshair).
    attracted_vertex : int or None
        Vertex pulled toward the attractor (ring + dashed link).
    tracked : sequence of int
        Tracked vertices, coloured from :attr:`Theme.track_colors` in this order.
    tracks : mapping int -> ndarray, shape (k, 2)
        World polylines traced by tracked vertices.
    velocity_basis : ndarray, shape (d, n, 2), or None
        Orthonormal basis of infinitesimal motions (world units); drawn as
        arrows, one shade of green per basis vector, scaled so the longest
        arrow is :attr:`Theme.velocity_arrow_px` pixels.
    show_velocities, show_vertices, show_angles, show_info : bool
    show_stresses : bool
        Colour rods by ``rod_stress`` (tension / compression, width and opacity by size).
    show_pebbles : bool
        Colour rods by ``redundant_rods`` (pebble game).
    rod_stress : ndarray, shape (m,), or None
        Signed self-stress per rod, tension > 0 (any scale).
    redundant_rods : ndarray, shape (m,), bool, or None
    springs : sequence of (int, int)
        Drawn as zigzags.
    rod_forces : ndarray, shape (m,), or None
        Force in each rod (tension > 0, force units); when given it colours the
        rods (tension / compression, width by size) instead of ``rod_stress``.
    loads, reactions : sequence of (vertex, fx, fy)
        Forces on joints in world axes (y up), drawn as arrows on one scale.
    motors : sequence of (pivot, tip, speed)
        Motors (curved arrows round the pivot, turning as ``speed``'s sign).
    motors_running : bool
        Motor marks solid (running) or faded (stopped).
    linear_motors : sequence of (slider, speed)
        Linear motors (a straight arrow along the slider's track from its block).
    branches : ndarray, shape (k, n, 2), or None
        Branch lines through a singular placement (world unit motions): numbered
        arrows ``1 .. 2k`` and dashed previews (:mod:`~linkage_widget.draw.branches`).
    info_lines : sequence of str
        The readout; no longer drawn (the view shows it in HTML), kept for callers.
    hint, error : str
        Passed on to :attr:`Scene.hint` and :attr:`Scene.error` (not drawn).
    show_labels : bool
        Write each joint's index, or its name from ``joint_names``, beside it.
    joint_names : sequence of str
        Names of the joints (``""`` or missing: the index).
    pixel_ratio : float
        Passed on to :attr:`Scene.pixel_ratio`.
    camera : Camera or None
        How a 3-D linkage is seen (:mod:`~linkage_widget.draw.view3d`); ``None``: the
        default camera on its joints. Unused in the plane.
    kinematic : KinematicOverlay or None
        The driven cycle's values drawn (:mod:`~linkage_widget.draw.kinematic_layers`):
        the tracked joints' velocity arrows with ``show_plots``, the instant centres with
        ``show_centres``, the tolerance bands (under the tracks) with ``show_band``.
    show_plots, show_centres, show_band : bool
    ghosts : sequence of ndarray, shape (n, 2)
        Other placements of the linkage (world), drawn faint under it (:mod:`.member_layers`).
    nac_colouring : ndarray, shape (m,), bool, or None
        A NAC-colouring: each rod in one of :attr:`Theme.nac_colors` (True: the second).
    synthesis_curves : sequence of ndarray, shape (k, 2)
        The synthesis tool's target curve and the stroke being drawn (world), dashed
        under the tracks (:mod:`.synthesis_layers`).
    """

    selected_vertex: int | None = None
    selected_rod: int | None = None
    attractor: tuple[float, float] | None = None
    attracted_vertex: int | None = None
    tracked: Sequence[int] = ()
    tracks: Mapping[int, np.ndarray] = field(default_factory=dict)
    velocity_basis: np.ndarray | None = None
    show_velocities: bool = True
    show_vertices: bool = True
    show_angles: bool = True
    show_info: bool = True
    show_stresses: bool = False
    show_pebbles: bool = False
    rod_stress: np.ndarray | None = None
    redundant_rods: np.ndarray | None = None
    springs: Sequence[tuple[int, int]] = ()
    rod_forces: np.ndarray | None = None
    loads: Sequence[tuple[int, float, float]] = ()
    reactions: Sequence[tuple[int, float, float]] = ()
    motors: Sequence[tuple[int, int, float]] = ()
    motors_running: bool = False
    linear_motors: Sequence[tuple[int, float]] = ()
    branches: np.ndarray | None = None
    info_lines: Sequence[str] = ()
    hint: str = ""
    error: str = ""
    show_labels: bool = False
    joint_names: Sequence[str] = ()
    pixel_ratio: float = 1.0
    camera: Camera | None = None
    kinematic: KinematicOverlay | None = None
    show_plots: bool = False
    show_centres: bool = False
    show_band: bool = False
    ghosts: Sequence[np.ndarray] = ()
    nac_colouring: np.ndarray | None = None
    synthesis_curves: Sequence[np.ndarray] = ()


def _under(
    view: ViewTransform,
    st: SceneState,
    rod_ends: np.ndarray,
    tracked: dict[int, str],
    planar: bool,
    theme: Theme,
) -> list[Primitive]:
    """What lies under the linkage: tolerance bands, the synthesis target, tracks, ghosts."""
    return [
        *kinematic_under(view, st.kinematic, st.show_band),
        *target_curves(view, st.synthesis_curves, theme),  # under the coupler's track
        *layers.tracks(view, st.tracks, tracked, theme),
        *ghosts(view, st.ghosts if planar else (), rod_ends, theme),
    ]


def build_scene(
    linkage: Linkage,
    view: ViewTransform,
    state: SceneState | None = None,
    *,
    theme: Theme = DEFAULT_THEME,
) -> Scene:
    """The primitives that draw ``linkage`` under ``view`` with UI ``state``.

    Parameters
    ----------
    linkage : Linkage
        ``n`` vertices (any ``n >= 0``), ``m`` rods, fixed angles, pins.
    view : ViewTransform
        World -> pixel transform; also gives the canvas size.
    state : SceneState, optional
        Selection, overlays and texts; defaults to ``SceneState()``.
    theme : Theme, optional
        Colours and sizes.

    Returns
    -------
    Scene
        ``view.width`` x ``view.height``, primitives in draw order (:data:`ROLES`);
        empty primitives are left out.
    """
    st = SceneState() if state is None else state
    world, depth = linkage.vertices, None
    if world.ndim == 2 and world.shape[1] == 3:  # in space: the camera's image plane
        camera = st.camera if st.camera is not None else Camera.looking_at(world)
        st, world, depth = flatten(camera, linkage.vertices, st)
    P = view.to_pixel(world)  # (n, 2)
    n = len(P)
    rod_ends = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    tracked = layers.track_colors(st.tracked, n, theme)
    attracted = int(st.attracted_vertex) if layers.valid_index(st.attracted_vertex, n) else None
    at = _attractor_pixel(view, st.attractor)

    scene = Scene(view.width, view.height, theme.background, pixel_ratio=float(st.pixel_ratio))
    scene.extend(_under(view, st, rod_ends, tracked, depth is None, theme))
    scene.extend(layers.rod_highlight(P, rod_ends, st.selected_rod, theme))
    scene.extend(layers.springs(P, st.springs, theme))
    guides = guide_layers.linkage_sliders(linkage, view, P, theme)  # blocks last, over the rods
    scene.extend(guides[:-1])
    kinds = kind_codes(linkage)
    scene.extend(_members(P[rod_ends], kinds, st, theme))  # rods, cables and struts
    scene.extend(guide_layers.slots(P, linkage.slots, theme))  # a slotted bar over its rod
    scene.extend(layers.angles(P, linkage.angles, theme) if st.show_angles else [])
    scene.extend(_motor_marks(P, linkage, view, st, theme))
    scene.extend(layers.attractor_link(P, attracted, at, theme))
    scene.extend(layers.pins(P, linkage.pinned, theme))
    scene.extend(guides[-1:])
    scene.extend(layers.vertices(P, tracked, theme) if st.show_vertices else [])
    scene.extend(layers.selection_ring(P, st.selected_vertex, theme))
    scene.extend(layers.attracted_ring(P, attracted, theme))
    if st.show_velocities:
        scene.extend(layers.velocity_arrows(view, P, st.velocity_basis, theme))
    scene.extend(forces.force_arrows(view, P, st.loads, st.reactions, theme))
    scene.extend(kinematic_over(view, P, st.kinematic, (st.show_plots, st.show_centres), theme))
    ways = branch_handles(view, world, st.branches, theme)  # a singular stop's
    scene.extend(branch_layers(ways, rod_ends, theme))
    scene.extend(layers.attractor(at, theme))
    if st.show_labels:
        scene.extend(joint_labels(P, rod_ends, st.joint_names, theme, linkage.pinned))
    if depth is not None:  # painter's order and depth cues (draw/space_scene) of the rods
        scene.items = depth_cued(scene.items, rod_ends[kinds == 0], depth, theme)
    return _finished(scene, st, theme)


def _finished(scene: Scene, st: SceneState, theme: Theme) -> Scene:
    """``scene`` with its legend (of what is drawn), hint and error."""
    motions = 0 if st.velocity_basis is None else len(np.asarray(st.velocity_basis))
    scene.legend = legend_entries(scene.items, theme, motions=motions)
    scene.hint, scene.error = str(st.hint), str(st.error)
    return scene


def _members(seg: np.ndarray, kinds: np.ndarray, st: SceneState, theme: Theme) -> list[Any]:
    """The members ``seg`` ``(m, 2, 2)``: coloured by stress, pebble game or NAC-colouring."""
    m = len(seg)
    redundant = layers.per_rod(st.redundant_rods, m, bool) if st.show_pebbles else None
    nac = nac_colours(st.nac_colouring, m, theme)
    return members(seg, kinds, _rod_colouring(st, m), redundant, theme, nac)


def _rod_colouring(st: SceneState, m: int) -> np.ndarray | None:
    """What colours the rods by sign: the rod forces when given, else the self-stress if shown."""
    forces = layers.per_rod(st.rod_forces, m, np.float64)
    if forces is not None:
        return forces
    return layers.per_rod(st.rod_stress, m, np.float64) if st.show_stresses else None


def _attractor_pixel(view: ViewTransform, attractor: Sequence[float] | None) -> np.ndarray | None:
    """The attractor in pixels, or ``None`` when there is none or it is not finite."""
    if attractor is None or not np.all(np.isfinite(attractor)):
        return None
    return view.to_pixel(np.asarray(attractor, dtype=np.float64))


def _motor_marks(
    P: np.ndarray, linkage: Any, view: ViewTransform, st: SceneState, theme: Theme
) -> list[Primitive]:
    """The motors' marks: curved arrows round rod motors', straight ones along linear motors'."""
    pushes = forces.linear_motors(P, _pushes(linkage, view, st), st.motors_running, theme)
    return forces.motors(P, st.motors, st.motors_running, theme) + pushes


def _pushes(linkage: Any, view: ViewTransform, st: SceneState) -> list[tuple[Any, ...]]:
    """``(joint, ux, uy, speed)`` of each linear motor, its line's direction in pixels."""
    out = []
    for k, speed in st.linear_motors:
        if 0 <= k < len(linkage.sliders):
            j, point, u = linkage.sliders[k]
            a, b = view.to_pixel(np.array([point, np.add(point, u)], dtype=np.float64))
            out.append((j, *(b - a).tolist(), speed))
    return out

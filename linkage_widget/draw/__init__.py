"""Pixels: the view transform, the scene of a linkage, and its renderers.

Modules, bottom first (each imports only the ones before it)::

    view        the one world <-> pixel transform (fit, zoom, pan)
    view3d      a 3-D linkage's Camera: space -> the image plane (then view), trackball
    fields      frozen point arrays and style fields of a primitive
    primitives  the backend-neutral shapes (Segments, Disks, Arrows, ...) and Picture
    theme       colours, widths and fonts (Okabe-Ito, checked by colour_vision)
    layers      what is drawn of the linkage, where, in which colour (one function a layer)
    labels      joint labels beside the joint, off its rods
    legend      the key of what is drawn (HTML beside the canvas)
    colour_vision  colour-blind simulation and CIELAB differences (checks the theme)
    overlays    overlay_insets: what covers the drawing (nothing: texts are beside it)
    hit         hit_test: what is under the pointer (guide_hit: a slider's track, a slot)
    space_scene a 3-D linkage's scene inputs projected; painter's order, depth cues
    svg         Picture -> SVG text          raster   Picture -> PNG / GIF (Pillow)
    scene       Scene (shows itself as SVG), SceneState, build_scene (stacks the layers)
    configuration_panel, angle_charts   the configuration panel's sphere and angle charts
    panel_layers  the panel's static and dynamic layers from a configuration chart
    kinematic_plots   velocity and acceleration of the tracked joints against the crank angle
    kinematic_layers  on the canvas: their velocity arrows, instant centres, tolerance bands
    synthesis_layers  the synthesis tool's target curve; its candidates as small multiples
    canvas      Picture -> ipycanvas (imported only by the widget)

The names below are the layer's face; the session imports them from here. The
ipycanvas renderer, :mod:`linkage_widget.draw.canvas`, is imported only by the
widget, so that nothing here pulls in a widget library.
"""

from .angle_charts import AnglePlot
from .configuration_panel import PanelPicture, SphereProjection, panel_picture
from .guide_layers import guide_hit
from .hit import hit_test
from .kinematic_layers import KinematicOverlay
from .kinematic_plots import PlotSeries, cycle_value, kinematic_plot, plot_series
from .layers import track_colors
from .legend import LegendEntry, legend_html
from .overlays import INFO_PANEL_LINES, overlay_insets
from .panel_layers import panel_dynamic, panel_static, point_pixel
from .raster import save_gif, save_png, scene_to_image
from .scene import Scene, SceneState, build_scene
from .svg import save_svg, scene_to_svg
from .synthesis_layers import CandidateThumb, candidate_sheet, sheet_cell
from .theme import DEFAULT_THEME, Theme
from .view import MAX_PIXEL_RATIO, ViewTransform
from .view3d import CAMERA_VIEWS, Camera, camera_view

__all__ = [
    "CAMERA_VIEWS",
    "DEFAULT_THEME",
    "INFO_PANEL_LINES",
    "AnglePlot",
    "Camera",
    "CandidateThumb",
    "KinematicOverlay",
    "LegendEntry",
    "MAX_PIXEL_RATIO",
    "PanelPicture",
    "PlotSeries",
    "Scene",
    "SceneState",
    "SphereProjection",
    "Theme",
    "ViewTransform",
    "build_scene",
    "candidate_sheet",
    "camera_view",
    "guide_hit",
    "cycle_value",
    "hit_test",
    "kinematic_plot",
    "legend_html",
    "overlay_insets",
    "panel_dynamic",
    "panel_picture",
    "panel_static",
    "plot_series",
    "point_pixel",
    "save_gif",
    "save_png",
    "save_svg",
    "scene_to_image",
    "scene_to_svg",
    "sheet_cell",
    "track_colors",
]

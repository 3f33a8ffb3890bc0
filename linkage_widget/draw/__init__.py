"""Pixels: the view transform, the backend-neutral scene, and its SVG and PNG/GIF renderers.

The names below are the layer's face; the session imports them from here. The
ipycanvas renderer, :mod:`linkage_widget.draw.canvas`, is imported only by the
widget, so that nothing here pulls in a widget library.
"""

from .raster import save_gif, save_png, scene_to_image
from .scene import DEFAULT_THEME, Scene, SceneState, Theme, build_scene, hit_test, overlay_insets
from .svg import save_svg, scene_to_svg
from .view import ViewTransform

__all__ = [
    "DEFAULT_THEME",
    "Scene",
    "SceneState",
    "Theme",
    "ViewTransform",
    "build_scene",
    "hit_test",
    "overlay_insets",
    "save_gif",
    "save_png",
    "save_svg",
    "scene_to_image",
    "scene_to_svg",
]

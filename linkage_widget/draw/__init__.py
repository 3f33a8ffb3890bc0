"""Pixels: the view transform, the backend-neutral scene, and its SVG, PNG and canvas renderers.

Only :mod:`linkage_widget.draw.canvas` imports ipycanvas; nothing here imports it eagerly.
"""

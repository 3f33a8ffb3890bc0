"""ViewTransform: round trips, fit, zoom about the cursor, pan, resize."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from linkage_widget.draw.view import MAX_SCALE, MIN_SCALE, ViewTransform

coords = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
pixels = st.floats(-2000, 2000, allow_nan=False, allow_infinity=False)
scales = st.floats(1e-2, 1e3)
sizes = st.integers(1, 2000)

views = st.builds(
    ViewTransform, scale=scales, offset_x=pixels, offset_y=pixels, width=sizes, height=sizes
)


def test_formula_world_y_up_pixel_y_down():
    v = ViewTransform(scale=2.0, offset_x=10.0, offset_y=100.0, width=200, height=150)
    np.testing.assert_array_equal(v.to_pixel([3.0, 4.0]), [16.0, 92.0])
    np.testing.assert_array_equal(v.to_world([16.0, 92.0]), [3.0, 4.0])
    # moving up in the world moves up on screen (smaller pixel y)
    assert v.to_pixel([0, 1])[1] < v.to_pixel([0, 0])[1]


def test_shapes_are_kept():
    v = ViewTransform(3.0, 1.0, 2.0, 100, 100)
    assert v.to_pixel(np.zeros((4, 5, 2))).shape == (4, 5, 2)
    assert v.to_world(np.zeros((0, 2))).shape == (0, 2)
    assert v.to_pixel([1.0, 2.0]).shape == (2,)


@given(views, arrays(np.float64, (7, 2), elements=coords))
def test_round_trip_world(view, xy):
    back = view.to_world(view.to_pixel(xy))
    np.testing.assert_allclose(back, xy, rtol=1e-12, atol=1e-9 * (1 + 1 / view.scale))


@given(views, arrays(np.float64, (7, 2), elements=pixels))
def test_round_trip_pixel(view, px):
    np.testing.assert_allclose(view.to_pixel(view.to_world(px)), px, rtol=1e-12, atol=1e-8)


@given(views, st.lists(st.tuples(coords, coords), max_size=5))
def test_vector_to_pixel_is_the_linear_part(view, vecs):
    v = np.array(vecs, dtype=np.float64).reshape(-1, 2)
    np.testing.assert_allclose(
        view.vector_to_pixel(v), view.to_pixel(v) - view.to_pixel(np.zeros(2)), atol=1e-6
    )


@settings(max_examples=200)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 30), st.just(2)), elements=coords),
    st.integers(50, 1500),
    st.integers(50, 1500),
    st.floats(0.0, 0.4),
)
def test_fit_puts_every_point_inside_the_margin(points, width, height, margin):
    v = ViewTransform.fit(points, width, height, margin)
    px = v.to_pixel(points)
    tol = 1e-6 * max(width, height)
    assert np.all(px[:, 0] >= margin * width - tol)
    assert np.all(px[:, 0] <= (1 - margin) * width + tol)
    assert np.all(px[:, 1] >= margin * height - tol)
    assert np.all(px[:, 1] <= (1 - margin) * height + tol)
    # centred: the bounding box's centre is the canvas centre
    centre = (px.min(axis=0) + px.max(axis=0)) / 2
    np.testing.assert_allclose(centre, [width / 2, height / 2], atol=tol)
    extent = np.ptp(points, axis=0)
    if np.max(extent) > 1e-3:
        # tight: the limiting axis touches the margin
        span = np.ptp(px, axis=0)
        usable = np.array([width, height]) * (1 - 2 * margin)
        assert np.max(span / usable) == pytest.approx(1.0, rel=1e-9)


def test_fit_empty_and_single_point():
    v = ViewTransform.fit(np.empty((0, 2)), 400, 300)
    assert v.scale == 1.0
    np.testing.assert_array_equal(v.to_pixel([0, 0]), [200, 150])
    v = ViewTransform.fit([[5.0, -7.0]], 400, 300)
    assert v.scale == 1.0
    np.testing.assert_allclose(v.to_pixel([5.0, -7.0]), [200, 150])
    # coincident points behave like one point
    v = ViewTransform.fit([[1.0, 1.0], [1.0, 1.0]], 400, 300)
    np.testing.assert_allclose(v.to_pixel([1.0, 1.0]), [200, 150])
    # collinear points: fit along the axis that has extent
    v = ViewTransform.fit([[0.0, 3.0], [10.0, 3.0]], 400, 300, margin=0.1)
    np.testing.assert_allclose(v.to_pixel([[0, 3], [10, 3]]), [[40, 150], [360, 150]])


def test_fit_ignores_non_finite_rows_and_checks_margin():
    v = ViewTransform.fit([[0, 0], [np.nan, 1], [10, 10]], 100, 100, margin=0.0)
    np.testing.assert_allclose(v.to_pixel([[0, 0], [10, 10]]), [[0, 100], [100, 0]])
    with pytest.raises(ValueError, match="margin"):
        ViewTransform.fit([[0, 0]], 100, 100, margin=0.5)


@given(views, pixels, pixels, st.floats(0.05, 20.0))
def test_zoom_keeps_the_point_under_the_cursor(view, px, py, factor):
    before = view.to_world([px, py])
    z = view.zoomed(px, py, factor)
    np.testing.assert_allclose(z.to_pixel(before), [px, py], rtol=1e-9, atol=1e-6)
    assert z.scale == pytest.approx(np.clip(view.scale * factor, MIN_SCALE, MAX_SCALE))
    assert (z.width, z.height) == (view.width, view.height)


def test_zoom_is_clamped_and_stays_about_the_cursor():
    v = ViewTransform(1.0, 0.0, 0.0, 100, 100)
    w = v.to_world([30.0, 40.0])
    big = v
    for _ in range(40):
        big = big.zoomed(30.0, 40.0, 10.0)
    assert big.scale == MAX_SCALE
    np.testing.assert_allclose(big.to_pixel(w), [30.0, 40.0], atol=1e-6)
    small = v.zoomed(30.0, 40.0, 1e-30)
    assert small.scale == MIN_SCALE
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="zoom factor"):
            v.zoomed(0, 0, bad)


@given(views, pixels, pixels)
def test_pan_moves_every_point_by_the_drag(view, dx, dy):
    p = np.array([[0.0, 0.0], [3.0, -4.0]])
    np.testing.assert_allclose(
        view.panned(dx, dy).to_pixel(p), view.to_pixel(p) + [dx, dy], atol=1e-9
    )


def test_resize_keeps_the_centre():
    v = ViewTransform.fit([[0, 0], [10, 5]], 400, 300)
    centre = v.to_world([200, 150])
    r = v.resized(800, 500)
    assert (r.width, r.height, r.scale) == (800, 500, v.scale)
    np.testing.assert_allclose(r.to_pixel(centre), [400, 250])


def test_immutable_validated_and_comparable():
    v = ViewTransform(2, 1, 1, 10, 10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.scale = 3.0
    assert v == ViewTransform(2.0, 1.0, 1.0, 10, 10)
    assert isinstance(v.scale, float) and isinstance(v.width, int)
    with pytest.raises(ValueError):
        ViewTransform(scale=0.0)
    with pytest.raises(ValueError):
        ViewTransform(scale=float("nan"))
    with pytest.raises(ValueError):
        ViewTransform(width=0)
    with pytest.raises(ValueError):
        ViewTransform(offset_x=float("inf"))
    # outside the zoom's range a later zoom overflowed (issue 22, item 9)
    for bad in (5e-324, MIN_SCALE / 2, MAX_SCALE * 2):
        with pytest.raises(ValueError, match=r"scale must be in \[0.0001, 1e\+06\]"):
            ViewTransform(scale=bad)
    for edge in (MIN_SCALE, MAX_SCALE):
        v = ViewTransform(scale=edge)
        for factor in (1.1, 1 / 1.1):
            assert MIN_SCALE <= v.zoomed(10.0, 10.0, factor).scale <= MAX_SCALE


def test_world_bounds():
    v = ViewTransform(2.0, 0.0, 100.0, 200, 100)
    assert v.world_bounds() == (0.0, 0.0, 100.0, 50.0)


def test_fit_keeps_points_clear_of_reserved_top_and_bottom():
    pts = np.array([[0.0, 0.0], [100.0, 300.0], [50.0, -20.0]])
    view = ViewTransform.fit(pts, 640, 480, margin=0.1, top=100, bottom=40)
    px = view.to_pixel(pts)
    inner = 480 - 100 - 40
    assert px[:, 1].min() >= 100 + 0.1 * inner - 1e-9
    assert px[:, 1].max() <= 480 - 40 - 0.1 * inner + 1e-9
    with pytest.raises(ValueError, match="leave room"):
        ViewTransform.fit(pts, 640, 480, top=300, bottom=200)


def test_lengths_convert_with_the_scale_alone():
    v = ViewTransform(4.0, 13.0, -7.0, 100, 100)
    assert v.length_to_pixel(2.5) == 10.0 and v.length_to_world(10.0) == 2.5
    d = v.to_pixel([3.0, 0.0]) - v.to_pixel([0.0, 0.0])
    assert np.hypot(*d) == v.length_to_pixel(3.0)

r"""The driven cycle the session shows: computed once an edit, read every frame.

:class:`KinematicCycle` (the session's ``cycle``) holds the
:func:`~linkage_widget.kinematics.kinematics` of the document's linkage driven by its
motor over one turn of the crank, :data:`SAMPLES` crank angles from 0 to :math:`2\pi`,
kept until the structure changes (the session's edit version, the motor): a frame only
reads it. It holds no reference to the session: the document and the version in,
values out —

- :meth:`KinematicCycle.overlay`: what the canvas draws of it
  (:class:`~linkage_widget.draw.KinematicOverlay`): the tracked joints' velocities at the
  motor's speed where the crank is now (cubic Hermite between samples: :math:`p''` is
  the slope of :math:`p'`), scaled by the
  fastest tracked speed of the cycle; the instant centres of every pair of bodies now
  (:func:`~linkage_widget.kinematics.instant_centres` from the velocity so interpolated
  at the crank angle now); the first-order tolerance band round each tracked joint's path
  when every rod's length is uncertain by :data:`TOLERANCE` of itself
  (:func:`~linkage_widget.kinematics.tolerance_band`, kept with the cycle);
- :meth:`KinematicCycle.picture`: the plots beside the canvas
  (:func:`~linkage_widget.draw.kinematic_plot`), with the current crank angle marked, or
  the reason there is nothing to plot (no motor, no tracked joint, a mechanism the motor
  does not drive).

Examples
--------
>>> from linkage_widget import Linkage
>>> from linkage_widget.elements import Motor
>>> from linkage_widget.session.document import Document
>>> doc = Document(Linkage([[0, 0], [1, 0], [3, 2], [4, 0]],
...                        rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]))
>>> cycle = KinematicCycle()
>>> cycle.message(doc, 0)
'add a motor to a crank to plot the velocities and accelerations'
>>> doc.drives = doc.drives.with_motor(Motor(0, 1))
>>> cycle.cycle(doc, 1).positions.shape
(121, 4, 2)
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np

from ..draw import (
    DEFAULT_THEME,
    KinematicOverlay,
    PanelPicture,
    cycle_value,
    kinematic_plot,
    plot_series,
    track_colors,
)
from ..kinematics import Bodies, Kinematics, bodies, instant_centres, kinematics, tolerance_band
from ..model import Linkage
from .document import Document

__all__ = ["SAMPLES", "KinematicCycle"]

#: Crank angles of a cycle: every 3 degrees, the last one the first a turn later.
SAMPLES = 121

#: The tolerance band's: every rod's length uncertain by this fraction of itself (±1 %).
TOLERANCE = 0.01

#: What the plots say while the cycle is computed in a thread.
PENDING = "computing the cycle of the motor ..."

#: The session's traits that ask for the cycle (any one of them on).
SHOWS = ("show_plots", "show_centres", "show_band")


def _computed(
    linkage: Linkage, pivot: int, tip: int, angles: np.ndarray
) -> tuple[Kinematics | None, str]:
    """The cycle, or None and why not (a free joint, no placement: the message says which)."""
    try:
        return kinematics(linkage, pivot, tip, angles), ""
    except ValueError as exc:
        return None, str(exc)


class KinematicCycle:
    """The cycle of the document's driven linkage, kept per edit version (module docstring)."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._cycle: Kinematics | None = None
        self._why = ""
        self._version = -1  # of the last overlay asked for: the picture's
        self._bodies: Bodies | None = None  # of the cycle's linkage
        self._band_key: tuple[int, ...] | None = None  # the tracked joints of the bands
        self._band_edges: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        #: The cycle being computed in a thread (None: none), for a view to wait for.
        self.pending: asyncio.Future[Any] | None = None

    @property
    def version(self) -> int:
        """The edit version of the last :meth:`overlay` asked for (the scene drawn last)."""
        return self._version

    def _motor_key(self, document: Document, version: int) -> tuple[Any, ...] | str:
        """The cycle's key: the version and the motor's rod; or why there is no cycle."""
        motors = document.drives.motors
        if document.linkage.dim != 2:
            return "a crank turns in the plane: no plots of a linkage in space"
        if not motors and document.drives.linear_motors:  # not plotted against a crank
            return (
                "the plots follow a crank's motor; for a linear motor's, call "
                "slider_kinematics(linkage, slider, travels) in code"
            )
        if not motors:
            return "add a motor to a crank to plot the velocities and accelerations"
        if len(motors) > 1:
            return f"the plots follow one motor; this linkage has {len(motors)}"
        if motors[0].reference is not None:  # kinematics() turns a crank against the ground
            return "the plots follow a crank turned against the ground, not between two links"
        return (version, motors[0].pivot, motors[0].tip)

    def cycle(
        self, document: Document, version: int, loop: asyncio.AbstractEventLoop | None = None
    ) -> Kinematics | None:
        """The cycle at edit ``version``, or None (why: :meth:`message`).

        Computed on the first ask: at once without an event ``loop`` (a script, a test);
        with one (a widget in Jupyter) in a thread, since a cycle takes a second or two:
        None meanwhile, :attr:`pending` the job, whose end a view may wait for.
        """
        key = self._motor_key(document, version)
        if isinstance(key, str):
            self._key, self._cycle, self._why = None, None, key
        elif key != self._key:
            self._key, self._cycle, self._why = key, None, ""
            self._bodies, self._band_key = None, None  # found again with the new cycle
            args = (document.linkage.copy(), key[1], key[2], np.linspace(0.0, 2.0 * np.pi, SAMPLES))
            if loop is None:
                self._cycle, self._why = _computed(*args)
            else:
                self._why = PENDING
                self.pending = loop.run_in_executor(None, _computed, *args)
                self.pending.add_done_callback(partial(self._finished, key))
        return self._cycle

    def _finished(self, key: tuple[Any, ...], job: asyncio.Future[Any]) -> None:
        """The thread's cycle for ``key`` is done: kept if ``key`` is still the current one."""
        if job is self.pending:
            self.pending = None
        if key != self._key or job.cancelled():
            return
        exc = job.exception()
        self._cycle, self._why = job.result() if exc is None else (None, f"no cycle: {exc}")

    def message(self, document: Document, version: int) -> str:
        """Why there is no cycle at ``version`` (``""``: there is one)."""
        return "" if self.cycle(document, version) is not None else self._why

    def _tracked(self, document: Document) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The tracked joints that exist and their track colours (the canvas's)."""
        colors = track_colors(document.tracked, document.linkage.n_vertices, DEFAULT_THEME)
        return tuple(colors), tuple(colors.values())

    def crank_angle(self, document: Document) -> float | None:
        """The motor's crank angle now (radians), None without a cycle."""
        if self._cycle is None:
            return None
        p = document.linkage.vertices
        d = p[self._cycle.tip] - p[self._cycle.pivot]
        return float(np.arctan2(d[1], d[0]))

    def overlay(
        self,
        document: Document,
        version: int,
        shows: Mapping[str, Any],
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> KinematicOverlay | None:
        """What the canvas draws of the cycle, when one of :data:`SHOWS` is on in ``shows``.

        ``show_plots``: the tracked joints' velocity arrows (:meth:`_arrows`);
        ``show_centres``: the instant centres now (:meth:`_centres`); ``show_band``: the
        tolerance band round each tracked joint's path (:meth:`_bands`). ``loop``: as
        :meth:`cycle` takes it (None while the thread computes the cycle).
        """
        self._version = version
        if not any(shows.get(name) for name in SHOWS):
            return None
        kin = self.cycle(document, version, loop)
        if kin is None:
            return None
        theta = self.crank_angle(document) or 0.0
        joints, colors = self._tracked(document)
        arrows = self._arrows(document, kin, joints, theta) if shows.get("show_plots") else None
        centres, labels = (
            self._centres(document, kin, theta) if shows.get("show_centres") else (None, ())
        )
        bands = self._bands(document, kin, joints) if shows.get("show_band") else ()
        return KinematicOverlay(
            joints=joints if arrows is not None else (),
            velocities=np.zeros((0, 2)) if arrows is None else arrows,
            colors=colors,
            centres=np.zeros((0, 2)) if centres is None else centres,
            centre_labels=labels,
            bands=bands,
            band_colors=colors[: len(bands)],
        )

    def _arrows(
        self, document: Document, kin: Kinematics, joints: tuple[int, ...], theta: float
    ) -> np.ndarray:
        r"""The tracked joints' velocities ``(t, 2)`` now, as the overlay scales them.

        Joint :math:`j`'s is :math:`\omega\,p'_j(\theta)` at the motor's speed
        :math:`\omega` and the crank angle :math:`\theta` now, over the largest
        :math:`|p'|` of the tracked joints over the cycle.
        """
        v = kin.velocities[:, list(joints)]  # (k, t, 2)
        peak = np.nanmax(np.hypot(v[..., 0], v[..., 1]), initial=0.0)
        speed = document.drives.motors[0].speed
        now = cycle_value(kin.angles, v, theta, kin.accelerations[:, list(joints)])
        return now * (speed / peak if peak > 0 else 0.0)

    def _centres(
        self, document: Document, kin: Kinematics, theta: float
    ) -> tuple[np.ndarray | None, tuple[str, ...]]:
        r"""The instant centre :math:`I_{ij}` of every pair of bodies now, and the labels.

        From the placement now and the velocity of the cycle at the crank angle now
        (:func:`~linkage_widget.kinematics.instant_centres`); the bodies (found once a
        cycle) are numbered from 1, the ground first, as a course numbers its links.
        """
        linkage = document.linkage
        try:
            if self._bodies is None:
                self._bodies = bodies(linkage)
            v = cycle_value(kin.angles, kin.velocities, theta, kin.accelerations)
            ic = instant_centres(linkage, linkage.vertices, v, of=self._bodies)
        except ValueError:  # a linkage the bodies cannot be read from: no centres
            return None, ()
        i, j = np.triu_indices(len(self._bodies), 1)
        sep = "" if len(self._bodies) <= 9 else ","
        labels = tuple(f"I{a + 1}{sep}{b + 1}" for a, b in zip(i, j, strict=True))
        return ic.points[i, j], labels

    def _bands(
        self, document: Document, kin: Kinematics, joints: tuple[int, ...]
    ) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """Each tracked joint's band's two edges (kept with the cycle, per tracked joints).

        Every rod's length is taken as uncertain by :data:`TOLERANCE` of itself
        (:func:`~linkage_widget.kinematics.tolerance_band`, to first order).
        """
        if self._band_key != joints:
            delta = TOLERANCE * document.linkage.rod_lengths()
            out = []
            for j in joints:
                try:
                    band = tolerance_band(document.linkage, kin, j, delta)
                except ValueError:
                    continue
                out.append((band.outer, band.inner))
            self._band_key, self._band_edges = joints, tuple(out)
        return self._band_edges

    def picture(self, document: Document, size: tuple[int, int]) -> PanelPicture:
        """The plots beside the canvas, of the cycle the last :meth:`overlay` asked for.

        It never starts a computation (the overlay does, in a thread when the view runs
        one): until the cycle is there the plots say it is being computed.
        """
        key = self._motor_key(document, self._version)
        kin = self._cycle if key == self._key else None
        joints, colors = self._tracked(document)
        if kin is None or not joints:
            why = key if isinstance(key, str) else self._why if key == self._key else PENDING
            why = why if kin is None else "select a joint and track it (key t) to plot it"
            return kinematic_plot([0.0], [], None, size, ("#000000",), why)
        slides = {s.joint: s.direction for s in document.linkage.sliders}
        series = plot_series(kin.velocities, kin.accelerations, kin.valid, joints, slides)
        return kinematic_plot(kin.angles, series, self.crank_angle(document), size, colors)

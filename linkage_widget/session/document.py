"""The edited document: a linkage and what points into it (springs, tracked vertices, drives).

Every edit here keeps the indices consistent: deleting vertex ``v`` drops the
springs, tracked entries and drives (motors, loads, path forces and friction) that
used it and renumbers the others (its joint name goes, later names move down one),
and removing a rod drops the motor on it; the session clears a selection that no
longer exists. Edits change the document and return
what the user should read (a message) or the index they made; they raise
``ValueError``/``IndexError`` for edits the linkage refuses, and leave undo to
the caller, which takes a :meth:`Document.snapshot` before and restores it on
failure.

The document keeps the pinned pebble game of its graph between edits
(:class:`~linkage_widget.rigidity.pebble.PebbleGame`): adding a rod, a fixed angle, a
vertex or a pin is a few pebble searches, removing a rod or a pin returns its
pebbles and retries the rejected edges, not a new game. Edits that renumber
(deleting or splitting, undo, loading) or that would change the order of play
(a rod added while angles are fixed: the full game plays rods before angles)
replay it once, lazily. :meth:`Document.generic` checks the game belongs to the
current graph (a structure key) and replays otherwise, so changes made to the
linkage from code stay correct.

Examples
--------
>>> from linkage_widget.model import Linkage
>>> doc = Document(Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2)]))
>>> doc.tracked = (0, 2)
>>> doc.delete_vertex(1), doc.tracked, doc.linkage.n_rods
('vertex 1 deleted', (0, 1), 0)
>>> doc.names = ("O", "C")
>>> doc.delete_vertex(0), doc.names
('vertex 0 deleted', ('C',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace as dc_replace
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from ..draw.html_page import linkage_data, linkage_page, page_path, write_linkage_page
from ..elements import Spring, is_law
from ..io import Extensions, atomic_write_pair, read_extensions, resolve_path, sibling_path
from ..io.sidecar import apply_masses, mass_entries, trimmed_names
from ..model import Linkage
from ..rigidity import PebbleGame, generic_analysis, pebble_game_applies
from .drives import Drives
from .guided import counts_text, merged_guides, with_guides
from .history import Snapshot
from .member_kinds import kind_pairs, merged_kinds

__all__ = [
    "DEFAULT_FILE",
    "Document",
    "counts_text",
    "merge_mismatch",
    "parse_upload",
    "read_linkage_file",
    "upload_name",
]

DEFAULT_FILE = "saved_linkage.txt"  # what s/l save and load when no file is named


class Document:
    """A linkage (edited in place: the caller's object is kept), its springs and tracked vertices.

    Parameters
    ----------
    linkage : Linkage
        The model, used, not copied.
    names : sequence of str, optional
        Joint names by index (:attr:`names`).
    """

    def __init__(self, linkage: Linkage, names: Any = ()) -> None:
        self.linkage = linkage
        self.springs: tuple[Spring, ...] = ()
        self.tracked: tuple[int, ...] = ()
        self._names: tuple[str, ...] = ()
        self.names = names
        self.drives = Drives()
        self._game: PebbleGame | None = None  # pebble game of the graph, kept under edits
        self._game_key: tuple[Any, ...] | None = None  # the graph it was played for
        # whether the pebble game applies, and the graph that was asked for (per frame)
        self._applies: tuple[tuple[Any, ...], bool] | None = None
        self.replays = 0  # full games played (tests: edits must not replay)

    # ----------------------------------------------------------- pebble game
    def _structure_key(self) -> tuple[Any, ...]:
        link = self.linkage
        pins = tuple(sorted(int(v) for v in link.pinned))
        return link.dim, link.n_vertices, link.rods.tobytes(), link.angles.tobytes(), pins

    def generic(self) -> tuple[int, np.ndarray]:
        """Generic rank and redundant rods of the graph, shape (m,) bool, from the kept game.

        The same answer as :func:`~linkage_widget.rigidity.generic_analysis` (pins
        first, then rods, then one edge per fixed angle, in order); the game is
        replayed only when an edit could not update it. Where the pebble game does not
        apply (:func:`~linkage_widget.rigidity.pebble_game_applies`: a 3-D linkage, an
        angle without its rods) it is :func:`~linkage_widget.rigidity.generic_analysis`
        itself (cached by graph).
        """
        link = self.linkage
        key = self._structure_key()
        if self._applies is None or self._applies[0] != key:  # asked on every drawn frame
            self._applies = (key, pebble_game_applies(link))
        if not self._applies[1] or not link.guides.is_empty():
            # space, an angle without its rods, or sliders and slots (not in the kept game)
            return generic_analysis(link)
        if self._game is None or self._game_key != key:
            edges = [*link.rods.tolist(), *link.angles[:, 1:].tolist()]
            self._game = PebbleGame(link.n_vertices, edges, link.pinned.tolist())
            self._game_key = key
            self.replays += 1
        game = self._game
        return game.rank, ~game.accepted[: self.linkage.n_rods]

    def _played(self, play: Any) -> None:
        """Update the kept game by ``play(game)`` (``None``: replay lazily) after an edit."""
        if self._game is None or self._game_key is None:
            return
        if play is None:
            self._game = None
            return
        play(self._game)
        self._game_key = self._structure_key()

    def _game_current(self) -> bool:
        return self._game is not None and self._game_key == self._structure_key()

    # ----------------------------------------------------------- joint names
    @property
    def names(self) -> tuple[str, ...]:
        """Joint names by index (``""`` or missing: unnamed, labelled by the index).

        Kept without trailing ``""`` (:func:`~linkage_widget.io.sidecar.trimmed_names`),
        so a new vertex is unnamed without an entry and an unnamed linkage has ``()``
        (its JSON sibling stays as it was). Setting checks: strings, at most one per
        vertex (``ValueError`` otherwise, the names unchanged).
        """
        return self._names

    @names.setter
    def names(self, value: Any) -> None:
        names = tuple(value)
        bad = [x for x in names if not isinstance(x, str)]
        if bad:
            raise ValueError(f"joint names must be strings, got {bad[0]!r}")
        names, n = trimmed_names(names), self.linkage.n_vertices
        if len(names) > n:
            raise ValueError(f"{len(names)} joint names for {n} joints (at most one per joint)")
        self._names = names

    # ------------------------------------------------------------ snapshots
    def snapshot(self) -> Snapshot:
        """A private copy of everything an edit can change (for undo)."""
        return Snapshot(
            self.linkage.copy(), tuple(self.tracked), self.springs, self.drives, self._names
        )

    def restore(self, s: Snapshot) -> None:
        """Go back to ``s`` (into the same linkage object)."""
        self.linkage.replace_with(s.linkage)
        self.springs = s.springs
        self.tracked = s.tracked
        self.drives = s.drives
        self._names = s.names

    def extensions(self, mass_distribution: float, table_friction: float = 0.0) -> Extensions:
        """What the JSON sibling of a saved file holds.

        A file holds numbers: a path force or a torque given as a law (a Python
        callable) is left out (:meth:`unsaved` names them); it lives in the session only.
        A drive on a rod or a slider the model no longer has (an edit of the model in
        code) is left out too: the file always loads.
        """
        d, n_slides = self.drives.on_rods(self.linkage.rods), len(self.linkage.sliders)
        return Extensions(
            tuple(self.tracked),
            self.springs,
            float(mass_distribution),
            d.motors,
            d.loads,
            tuple(f for f in d.forces if not is_law(f.force)),
            d.frictions,
            float(table_friction),
            self._names[: self.linkage.n_vertices],  # a linkage cut from code: no dangling name
            *mass_entries(self.linkage.masses, self.linkage.rods),
            tuple(x for x in d.torques if not is_law(x.torque)),
            self.linkage.sliders,  # the 2007 text cannot hold them: the sibling does
            tuple(tuple(t) for t in self.linkage.slots.tolist()),
            tuple(m for m in d.linear_motors if m.slider < n_slides),
            tuple(f for f in d.slider_frictions if f.slider < n_slides),
            *kind_pairs(self.linkage),  # cables and struts, by their joints
        )

    def unsaved(self) -> str:
        """What :meth:`extensions` leaves out (laws, not numbers), in words; ``""``: nothing."""
        d = self.drives
        laws = [f"force {f.i}-{f.j}" for f in d.forces if is_law(f.force)]
        laws += [f"torque on {x.pivot}-{x.tip}" for x in d.torques if is_law(x.torque)]
        return f"not saved (a Python function): {', '.join(laws)}" if laws else ""

    def take(self, ext: Extensions) -> None:
        """Take the springs, drives, joint names and tracked joints of a file's ``ext``."""
        self.springs, self.drives = ext.springs, Drives.of(ext)
        self.names, self.tracked = ext.names, ext.tracked

    def save(
        self,
        path: str | PathLike[str],
        mass_distribution: float,
        table_friction: float,
        picture: str | None = None,
    ) -> tuple[Path, str]:
        """Save the linkage atomically in the 2007 format, plus ``<path>.json`` extensions.

        ``~`` in ``path`` is the home folder; a link is written through. The JSON sibling
        (tracked vertices, springs, mass distribution, motors, loads, path forces and
        friction, table friction, and the linkage's sliders and slots, which the 2007
        text cannot hold) is written only when there are any; otherwise a stale one is
        removed. Both files change or neither
        (:func:`~linkage_widget.io.atomic_write_pair`). With a ``picture`` (an SVG) the
        web page ``<path>.html`` follows (:mod:`~linkage_widget.draw.html_page`), built
        before anything is written and written atomically after the pair (it is never
        read back: a page that cannot be written leaves the saved pair, and says so).

        Returns the path written and what was left out, in words (``""``: nothing): a
        law (a Python function) is not written, nor a page that could not be. Raises
        ``OSError`` when it cannot write the linkage.
        """
        target = Path(path).expanduser()
        ext = self.extensions(mass_distribution, table_friction)
        json = None if ext.is_empty() else ext.to_json()
        text = self.linkage.dumps()
        link, name = self.linkage, target.name
        page = None
        if picture is not None:  # built first: a page that cannot be built writes nothing
            page = linkage_page(picture, text, linkage_data(link), name, counts_text(link))
        if page is not None and page_path(target).is_dir():  # refused before any write
            raise OSError(f"cannot save {str(page_path(target))!r}: it is a folder")
        atomic_write_pair(target, text, sibling_path(target), json)
        left_out = [said] if (said := self.unsaved()) else []
        if page is not None:
            try:
                write_linkage_page(page_path(target), page)
            except OSError as exc:  # the linkage is saved: say what is not
                left_out.append(f"web page not written: {exc}")
        return target, "; ".join(left_out)

    def replace(self, linkage: Linkage, ext: Extensions) -> None:
        """Take over another linkage (loaded or uploaded) and its extensions."""
        self.linkage.replace_with(linkage)
        self.tracked = ext.tracked
        self.springs = ext.springs
        self.drives = Drives.of(ext)
        self._names = ext.names  # checked against its linkage when read

    # ---------------------------------------------------------------- edits
    def add_vertex(self, xy: Any) -> int:
        """Add a vertex at world ``xy``; return its index."""
        current = self._game_current()
        v = self.linkage.add_vertex(xy)
        self._played((lambda g: g.add_vertex()) if current else None)
        return v

    def toggle_rod(self, i: int, j: int, kind: str = "rod") -> str:
        """Add the rod ``i``-``j`` (a ``kind``: rod, cable, strut), or remove it when it exists."""
        r = self.linkage.find_rod(i, j)
        # With fixed angles the game's edge order (rods, then angles) would change.
        current = self._game_current() and self.linkage.n_angles == 0
        if r is None:
            self.linkage.add_rod(i, j, kind)
            self._played((lambda g: g.add_edge(i, j)) if current else None)
            return f"{kind} {i}-{j} added"
        self.linkage.remove_rod(r)
        self._played((lambda g: g.remove_edge(r)) if current else None)
        return f"rod {i}-{j} removed" + self._drop_motors()

    def toggle_angle(self, r1: int, r2: int) -> str:
        """Fix the angle between two rods that share a vertex, or free it when fixed."""
        link = self.linkage
        a, b = (tuple(int(v) for v in link.rods[r]) for r in (r1, r2))
        shared = set(a) & set(b)
        if len(shared) != 1:
            raise ValueError(f"rods {r1} and {r2} do not share a vertex: no angle between them")
        (apex,) = shared
        j, k = (a[0] if a[1] == apex else a[1]), (b[0] if b[1] == apex else b[1])
        found = link.find_angle(apex, j, k)
        current, m = self._game_current(), link.n_rods
        if found is None:
            link.add_angle(apex, j, k)  # its edge j-k is played last, as in the full game
            self._played((lambda g: g.add_edge(j, k)) if current else None)
            return f"angle at {apex} fixed"
        link.remove_angle(found)
        self._played((lambda g: g.remove_edge(m + found)) if current else None)
        return f"angle at {apex} freed"

    def toggle_pin(self, v: int) -> str:
        """Pin or unpin vertex ``v``."""
        current = self._game_current()
        pinned = self.linkage.toggle_pin(v)
        play = (lambda g: g.add_pin(v)) if pinned else (lambda g: g.remove_pin(v))
        self._played(play if current else None)
        return f"vertex {v} {'pinned' if pinned else 'unpinned'}"

    def toggle_track(self, v: int) -> str:
        """Track vertex ``v`` (draw its path), or stop tracking it."""
        if v in self.tracked:
            self.tracked = tuple(t for t in self.tracked if t != v)
            return f"vertex {v} no longer tracked"
        self.tracked = (*self.tracked, v)
        return f"tracking vertex {v}"

    def delete_vertex(self, v: int) -> str:
        """Delete vertex ``v`` and its rods; springs, tracked entries and names follow.

        Joint ``v``'s name goes and the names after it move down one, as the indices do.
        """
        sliders = self.linkage.sliders
        self.linkage.remove_vertex(v)
        self.follow_sliders(sliders, v)
        self.tracked = tuple(t - (t > v) for t in self.tracked if t != v)
        self._names = trimmed_names(self._names[:v] + self._names[v + 1 :])
        self.springs = tuple(s for s in (sp.renumbered(v) for sp in self.springs) if s)
        self.drives = self.drives.renumbered(v)
        return f"vertex {v} deleted"

    def follow_sliders(self, before: Any, removed: int | None = None) -> None:
        """Keep linear motors and slide friction on their joints: the sliders were ``before``."""
        self.drives = self.drives.on_sliders(before, self.linkage.sliders, removed)

    def delete_rod(self, r: int) -> str:
        """Delete rod ``r``; fixed angles stay (an angle needs no rods)."""
        i, j = (int(v) for v in self.linkage.rods[r])
        current = self._game_current() and self.linkage.n_angles == 0
        self.linkage.remove_rod(r)
        self._played((lambda g: g.remove_edge(r)) if current else None)
        return f"rod {i}-{j} deleted" + self._drop_motors()

    def split_rod(self, r: int) -> int:
        """Split rod ``r`` at its middle; return the new vertex (a motor on it goes)."""
        v = self.linkage.split_rod(r)
        self._drop_motors()
        return v

    def _drop_motors(self) -> str:
        """Drop the motors whose rod is gone; say so (``""`` when none)."""
        before = len(self.drives.motors)
        self.drives = self.drives.on_rods(self.linkage.rods)
        gone = before - len(self.drives.motors)
        return " (and its motor)" if gone == 1 else f" (and {gone} motors)" if gone else ""

    def clear(self) -> None:
        """Remove everything."""
        self.tracked = ()
        self._names = ()
        self.springs = ()
        self.drives = Drives()
        self.linkage.clear()

    def merge(self, other: Linkage, ext: Extensions, offset: Any) -> str:
        """Add ``other`` (shifted by ``offset``, shape (d,)), its tracked joints, springs, names.

        The merged joints are numbered after the current ones (joint ``i`` of the
        file becomes ``n + i``, and so does its name: the file's names follow the
        current ones, unnamed current joints padded with ``""``); its sliders and slots too
        (their lines moved by ``offset``). The whole union is checked (a new
        :class:`Linkage`) before this document changes, so a failure changes
        nothing. The own masses of both come along. Motors, loads and forces of ``ext``
        are not merged (a note in the returned message says so). Both linkages are
        planar or both in space, but into an empty linkage any may come.

        Raises
        ------
        ValueError
            When one is planar and the other in space; nothing changes.
        """
        link, n = self.linkage, self.linkage.n_vertices
        if n and other.dim != link.dim:
            raise ValueError(merge_mismatch(link.dim, other.dim))
        shift = np.asarray(offset, dtype=np.float64).reshape(other.dim)
        mine = link.vertices.reshape(-1, other.dim)  # empty: (0, d) whatever it was
        sliders, slots = merged_guides(link, other, n, shift)
        union = Linkage(
            np.vstack([mine, other.vertices + shift]),
            [*link.rods.tolist(), *(other.rods + n).tolist()],
            [*link.angles.tolist(), *(other.angles + n).tolist()],
            [*link.pinned.tolist(), *(other.pinned + n).tolist()],
            sliders=sliders, slots=slots,
        )  # fmt: skip
        union.masses.put(link.masses)  # the joints' and rods' own masses come along
        union.masses.put(other.masses, n, link.n_rods)
        merged_kinds(union, link, other)  # cables and struts stay what they were
        springs = tuple(dc_replace(s, i=s.i + n, j=s.j + n) for s in ext.springs)
        self.linkage.replace_with(union)
        self.tracked = (*self.tracked, *(int(v) + n for v in ext.tracked))
        self.springs = (*self.springs, *springs)
        if ext.names:
            self._names = (*self._names, *[""] * (n - len(self._names)), *ext.names)
        dropped = not Drives.of(ext).is_empty()  # linear motors and slide friction too
        return " · its motors, loads and forces were not merged" if dropped else ""

    def spring(
        self,
        i: int,
        j: int,
        stiffness: float,
        rest_length: float | None,
        damping: float,
        nonlinear_stiffness: float = 0.0,
    ) -> Spring:
        """A spring between existing vertices; its rest length is fixed now when not given."""
        n = self.linkage.n_vertices
        for v in (i, j):
            if not 0 <= int(v) < n:
                raise IndexError(f"vertex {v} out of range (there are {n} vertices)")
        if rest_length is None:  # fixed now: a rebuilt simulator must not reset it
            P = self.linkage.vertices
            rest_length = float(np.hypot.reduce(P[i] - P[j]))  # (d,): 2 or 3; hypot in 2-D
        return Spring(
            int(i), int(j), float(stiffness), rest_length, float(damping), nonlinear_stiffness
        )


def merge_mismatch(current: int, merged: int) -> str:
    """Why a planar and a 3-D linkage are not merged, and what to do instead.

    >>> merge_mismatch(2, 3)
    'a 3-D linkage cannot be merged into a planar one (load it instead, or merge a planar file)'
    """
    kind = {2: "planar", 3: "3-D"}
    return (
        f"a {kind[merged]} linkage cannot be merged into a {kind[current]} one "
        f"(load it instead, or merge a {kind[current]} file)"
    )


def read_linkage_file(path: str | PathLike[str]) -> tuple[Linkage, Extensions]:
    """The linkage in ``path`` and its JSON extensions (empty when there is no sibling)."""
    linkage = Linkage.load(path)
    ext = read_extensions(resolve_path(path), linkage.n_vertices, linkage.rods, linkage.dim)
    apply_masses(ext, linkage.masses, linkage.rods)
    return linkage, ext


def upload_name(files: Mapping[str, bytes]) -> str | None:
    """The linkage file among uploaded files: the first that is not a ``.json`` sibling."""
    return next((name for name in files if not name.endswith(".json")), None)


def parse_upload(name: str, files: Mapping[str, bytes]) -> tuple[Linkage, Extensions]:
    """The linkage uploaded as ``files[name]`` and its ``<name>.json`` sibling, if uploaded.

    Raises ``LinkageFormatError`` (a ``ValueError``) naming the file and line.
    """
    # the same decoding as a file loaded by name: binary or non-UTF-8 data is an error
    linkage = Linkage.from_bytes(files[name], source=name)
    side = files.get(name + ".json")  # it holds the sliders and slots the text cannot
    ext = (
        Extensions.from_bytes(
            side,
            n_vertices=linkage.n_vertices,
            source=name + ".json",
            rods=linkage.rods,
            dim=linkage.dim,
        )  # fmt: skip
        if side is not None
        else Extensions()
    )
    linkage = with_guides(linkage, ext, name + ".json")  # and the cables and struts
    apply_masses(ext, linkage.masses, linkage.rods)
    return linkage, ext


def load_failure(label: object, exc: BaseException) -> str:
    """The message of a failed load of ``label``: the file named once.

    A :class:`~linkage_widget.errors.LinkageFormatError` starts with the file and line
    already, so it is not named twice.

    >>> load_failure("a.txt", ValueError("a.txt, line 3: bad number"))
    'could not load a.txt, line 3: bad number'
    >>> load_failure("b.txt", FileNotFoundError("no such file"))
    'could not load b.txt: no such file'
    """
    text = str(exc)
    if text.startswith(str(label)):
        return f"could not load {text}"
    return f"could not load {label}: {text}"

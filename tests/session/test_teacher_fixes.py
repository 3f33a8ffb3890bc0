"""Defects a teacher met running the notebooks (issue 15): load_file, exports, blocked motion."""

import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.session import LinkageSession


def peaucellier() -> LinkageSession:
    return LinkageSession.load("peaucellier.txt")


# ------------------------------------------------------------------ load_file from code
def test_load_file_of_a_missing_file_raises_and_keeps_the_linkage(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    with pytest.raises(FileNotFoundError):
        s.load_file(tmp_path / "nope.txt")
    assert s.linkage == before and "nope.txt" in s.error


def test_load_file_of_a_malformed_file_raises_with_file_and_line(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    bad = tmp_path / "bad.txt"
    bad.write_text("v\n0 0\n1 zero\n")
    with pytest.raises(LinkageFormatError, match="line 3") as info:
        s.load_file(bad)
    assert info.value.line == 3 and "bad.txt" in info.value.source
    assert s.linkage == before and "line 3" in s.error


def test_the_load_key_shows_the_error_instead_of_raising(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    s.file_name = str(tmp_path / "nope.txt")
    s.key("l")  # the UI path: no exception reaches the front end
    assert s.linkage == before and "nope.txt" in s.error


def test_load_file_of_a_good_file_loads_it():
    s = LinkageSession(linkage=Linkage())
    assert s.load_file("peaucellier.txt")
    assert s.linkage == Linkage.load("peaucellier.txt")

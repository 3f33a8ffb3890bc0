"""Issue 22, items 3, 4 and 7: every malformed file is a LinkageFormatError naming it, with a
short message, and a file above the size or vertex limit is refused before it is read.

Item 3: deep nesting (RecursionError), integers beyond float or int64 (OverflowError), beyond
Python's 4300-digit limit (a bare ValueError) and ``"extensions": true`` used to escape the
JSON readers, so that an upload showed no message and ``load_file``/``merge_file`` raised them.
Item 4: a message used to repeat the whole bad line (a 1 MB line, a 1 MB message).
Item 7: a 100 MB file used to be read whole (minutes, gigabytes) before anything was said.
"""

import os
import time

import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.io import Extensions, parse_linkage, parse_linkage_bytes, read_linkage
from linkage_widget.io.document_json import loads_document, read_document
from linkage_widget.session import LinkageSession, load_upload

#: Longest message a refusal may give (the file name comes on top).
BOUND = 600
HEADER = '{"format": "linkage_widget document", "version": 1'
FOUR_BAR_DOC = HEADER + ', "linkage": {"vertices": [[0, 0], [1, 0], [2, 1], [3, 0]], '
FOUR_BAR_DOC += '"rods": [[0, 1], [1, 2], [2, 3]], "pinned": [0, 3]}%s}'
SIDECAR = '{"linkage_widget_extensions": 1, %s}'

BAD_SIDECARS = {
    "deep nesting": SIDECAR % ('"tracked": ' + "[" * 50_000 + "]" * 50_000),
    "int beyond float": SIDECAR % ('"mass_distribution": 1' + "0" * 400),
    "int beyond 4300 digits": SIDECAR % ('"tracked": [' + "1" * 5000 + "]"),
    "spring stiffness beyond float": SIDECAR % ('"springs": [{"i": 0, "j": 2, "stiffness": 1'
                                                + "0" * 400 + "}]"),
    "int beyond int64 as index": SIDECAR % ('"tracked": [1' + "0" * 30 + "]"),
}  # fmt: skip

BAD_DOCUMENTS = {
    "deep nesting": "[" * 50_000 + "]" * 50_000,
    "deep nesting in the vertices": FOUR_BAR_DOC.replace("[[0, 0], [1, 0]", "[" * 50_000 + "]"
                                                         * 50_000 + ", [[1, 0]") % "",
    "extensions true": FOUR_BAR_DOC % ', "extensions": true',
    "extensions a list": FOUR_BAR_DOC % ', "extensions": [1]',
    "coordinate beyond float": FOUR_BAR_DOC.replace("[1, 0]", "[1" + "0" * 400 + ", 0]") % "",
    "index beyond int64": FOUR_BAR_DOC.replace("[[0, 1]", "[[0, 1" + "0" * 30 + "]") % "",
    "int beyond 4300 digits": FOUR_BAR_DOC.replace("[1, 0]", "[" + "1" * 5000 + ", 0]") % "",
    "version beyond int64": FOUR_BAR_DOC.replace('"version": 1', '"version": 1' + "0" * 30) % "",
    "view width beyond float": FOUR_BAR_DOC % (', "view": {"scale": 1, "offset_x": 0, '
                                              '"offset_y": 0, "width": 1' + "0" * 400
                                              + ', "height": 10}'),
    "extensions beyond float": FOUR_BAR_DOC % (', "extensions": {"linkage_widget_extensions": 1, '
                                               '"mass_distribution": 1' + "0" * 400 + "}"),
}  # fmt: skip


@pytest.mark.parametrize("text", BAD_SIDECARS.values(), ids=BAD_SIDECARS.keys())
def test_a_bad_sidecar_is_a_linkage_format_error_naming_the_file(text):
    with pytest.raises(LinkageFormatError) as info:
        Extensions.from_json(text, n_vertices=4, source="four.txt.json")
    assert info.value.source == "four.txt.json"
    assert len(str(info.value)) < BOUND
    with pytest.raises(LinkageFormatError):
        Extensions.from_bytes(text.encode(), n_vertices=4, source="four.txt.json")


@pytest.mark.parametrize("text", BAD_DOCUMENTS.values(), ids=BAD_DOCUMENTS.keys())
def test_a_bad_document_is_a_linkage_format_error_naming_the_file(text):
    with pytest.raises(LinkageFormatError) as info:
        loads_document(text, source="mine.json")
    assert info.value.source.startswith("mine.json")
    assert len(str(info.value)) < BOUND


@pytest.mark.parametrize("text", BAD_DOCUMENTS.values(), ids=BAD_DOCUMENTS.keys())
def test_an_upload_of_a_bad_document_says_so_and_changes_nothing(text):
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.dumps()
    assert load_upload(s, {"mine.json": text.encode()}) is False
    assert s.error.startswith("could not load mine.json")
    assert len(s.error) < BOUND
    assert s.linkage.dumps() == before


@pytest.mark.parametrize("text", BAD_SIDECARS.values(), ids=BAD_SIDECARS.keys())
def test_an_upload_with_a_bad_sidecar_says_so_and_changes_nothing(text):
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.dumps()
    files = {
        "mine.txt": b"v\n0 0\n1 0\n2 1\n3 0\ne\n0 1\n1 2\n2 3\n",
        "mine.txt.json": text.encode(),
    }
    assert load_upload(s, files) is False
    assert s.error.startswith("could not load mine.txt.json")
    assert len(s.error) < BOUND
    assert s.linkage.dumps() == before


@pytest.mark.parametrize("text", BAD_SIDECARS.values(), ids=BAD_SIDECARS.keys())
def test_load_file_merge_file_and_the_keys_report_a_bad_sidecar(tmp_path, text):
    path = tmp_path / "mine.txt"
    path.write_text("v\n0 0\n1 0\n2 1\n3 0\ne\n0 1\n1 2\n2 3\n")
    (tmp_path / "mine.txt.json").write_text(text)
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.dumps()
    with pytest.raises(LinkageFormatError):
        s.load_file(path)
    assert "mine.txt.json" in s.error and len(s.error) < BOUND
    s.error = ""
    with pytest.raises(LinkageFormatError):
        s.merge_file(path)
    assert "mine.txt.json" in s.error and len(s.error) < BOUND
    s.file_name = str(path)
    for key in ("l", "L"):
        s.error = ""
        s.key(key)  # the keys show the error, they do not raise it
        assert "mine.txt.json" in s.error and len(s.error) < BOUND
    assert s.linkage.dumps() == before


# ------------------------------------------------------------------ item 4: short messages
LONG = "x" * 1_000_000
BAD_LINES = {
    "unknown section": f"v\n0 0\n{LONG}\n",
    "malformed header": f"v\n0 0\nv {LONG}\n",
    "coordinate": f"v\n0 {LONG}\n",
    "huge coordinate": "v\n0 1" + "0" * 1_000_000 + "\nv 0\n",
    "field count": "v\n0 0\n1 1\ne\n" + "0 " * 500_000 + "\n",
    "vertex field count": "v\n" + "0 " * 500_000 + "\n",
    "index": f"v\n0 0\n1 1\ne\n0 {LONG}\n",
    "huge index": "v\n0 0\n1 1\ne\n0 " + "1" * 1_000_000 + "\n",
}


@pytest.mark.parametrize("text", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_a_bad_line_is_quoted_short(text):
    with pytest.raises(LinkageFormatError) as info:
        parse_linkage(text, source="big.txt")
    assert info.value.source == "big.txt" and info.value.line is not None
    assert len(str(info.value)) < BOUND
    assert "characters)" in str(info.value) or len(str(info.value)) < 200  # says it was cut


def test_a_bad_megabyte_line_in_an_upload_gives_a_short_session_error():
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.dumps()
    assert load_upload(s, {"big.txt": f"v\n0 0\n{LONG}\n".encode()}) is False
    assert s.error.startswith("could not load big.txt, line 3: unknown section 'xxx")
    assert len(s.error) < BOUND
    assert s.linkage.dumps() == before


def test_a_long_json_value_is_quoted_short():
    text = SIDECAR % f'"tracked": "{LONG}"'
    with pytest.raises(LinkageFormatError, match=r"tracked: expected a list, got 'xxx") as info:
        Extensions.from_json(text, n_vertices=4, source="s.json")
    assert len(str(info.value)) < BOUND


def test_any_long_message_is_cut_by_the_error_itself():
    err = LinkageFormatError("y" * 100_000, "a.txt", 3)
    assert str(err).startswith("a.txt, line 3: yyy") and len(str(err)) < BOUND
    assert err.line == 3 and err.source == "a.txt"


# ------------------------------------------------------------------ item 7: size limits
def test_a_file_above_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:  # 100 MB, sparse: stat says its size, reading it would not
        fh.truncate(100 * 2**20)
    t0 = time.process_time()  # CPU time: a loaded machine must not fail it
    with pytest.raises(LinkageFormatError, match="limit of 16,777,216 bytes") as info:
        read_linkage(path)
    assert time.process_time() - t0 < 0.5  # parsing 100 MB would take tens of seconds
    assert "LINKAGE_WIDGET_MAX_FILE_BYTES" in str(info.value)
    s = LinkageSession.load("four_bar.txt")
    with pytest.raises(LinkageFormatError):
        s.load_file(path)
    assert "limit" in s.error and s.linkage == Linkage.load("four_bar.txt")
    with (tmp_path / "huge.json").open("wb") as fh:
        fh.truncate(100 * 2**20)
    with pytest.raises(LinkageFormatError, match="limit"):
        read_document(tmp_path / "huge.json")


def test_an_upload_above_the_size_limit_is_refused_by_its_length():
    data = b"v\n" + b"0 0\n" * (2**22 + 1)  # 16 MiB + 6 bytes
    s = LinkageSession.load("four_bar.txt")
    t0 = time.process_time()
    assert load_upload(s, {"big.txt": data}) is False
    assert time.process_time() - t0 < 0.5  # refused by its length, not parsed
    assert "limit" in s.error and s.linkage == Linkage.load("four_bar.txt")
    assert load_upload(s, {"big.json": data}) is False
    assert "limit" in s.error


def test_the_limits_are_raised_by_environment_variables(tmp_path, monkeypatch):
    text = "v\n" + "0 0\n1 0\n" * 3 + "e\n0 1\n"  # 6 vertices (repeats are fine), 32 bytes
    monkeypatch.setenv("LINKAGE_WIDGET_MAX_FILE_BYTES", "20")
    with pytest.raises(LinkageFormatError, match="more than the limit of 20 bytes"):
        parse_linkage_bytes(text.encode())
    monkeypatch.setenv("LINKAGE_WIDGET_MAX_FILE_BYTES", "1000")
    monkeypatch.setenv("LINKAGE_WIDGET_MAX_VERTICES", "5")
    with pytest.raises(LinkageFormatError, match="more than 5 vertices") as info:
        parse_linkage(text, source="six.txt")
    assert info.value.line == 7  # the sixth vertex's line
    doc = FOUR_BAR_DOC.replace("[3, 0]]", "[3, 0], [4, 0], [5, 0]]") % ""
    with pytest.raises(LinkageFormatError, match="more than 5 vertices"):
        loads_document(doc)
    monkeypatch.setenv("LINKAGE_WIDGET_MAX_VERTICES", "6")
    assert parse_linkage(text).vertices.shape == (6, 2)
    assert len(loads_document(doc).linkage.vertices) == 6


def test_the_size_limit_is_the_documented_one():
    readme = (__import__("pathlib").Path(__file__).parents[2] / "README.md").read_text()
    assert "LINKAGE_WIDGET_MAX_FILE_BYTES" in readme and "LINKAGE_WIDGET_MAX_VERTICES" in readme
    assert os.environ.get("LINKAGE_WIDGET_MAX_FILE_BYTES") is None  # the suite runs at the default

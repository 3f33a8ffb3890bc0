"""io.text2007 as a codec: text <-> plain arrays (LinkageData), no Linkage involved."""

import numpy as np
import pytest

from linkage_widget import LinkageFormatError
from linkage_widget.io import (
    LinkageData,
    format_linkage,
    parse_linkage,
    parse_linkage_bytes,
    read_linkage,
    write_linkage,
)


def test_parse_gives_arrays_of_fixed_shapes():
    data = parse_linkage("v\nf\ne\na\n")
    assert isinstance(data, LinkageData)
    assert [a.shape for a in data[:4]] == [(0, 2), (0,), (0, 2), (0, 3)]  # then the guides: ()
    assert data.sliders == data.slots == ()
    assert data.vertices.dtype == np.float64 and data.rods.dtype == np.int64
    data = parse_linkage("v\n0 0\n1 0\n0 1\nf\n2\ne\n1 0\n0 2\na\n0 2 1\n")
    assert data.vertices.tolist() == [[0, 0], [1, 0], [0, 1]]
    assert data.pinned.tolist() == [2]
    assert data.rods.tolist() == [[1, 0], [0, 2]]
    assert data.angles.tolist() == [[0, 2, 1]]


def test_format_parse_round_trip_is_exact(tmp_path):
    data = parse_linkage("v\n0.1 -0.0\n1e-300 3.141592653589793\ne\n0 1\nf\n1\n")
    again = parse_linkage(format_linkage(data))
    for a, b in zip(data[:4], again[:4], strict=True):  # the arrays (the text has no guides)
        assert a.tobytes() == b.tobytes()
    path = write_linkage(data, tmp_path / "x.txt")
    assert path.read_text() == format_linkage(data)
    assert read_linkage(path).vertices.tobytes() == data.vertices.tobytes()


def test_bytes_are_decoded_or_refused():
    assert parse_linkage_bytes(b"\xef\xbb\xbfv\n0 0\n").vertices.shape == (1, 2)
    with pytest.raises(LinkageFormatError, match="not UTF-8") as info:
        parse_linkage_bytes(b"v\n0 0\n\xe9 1\n", source="up.txt")
    assert (info.value.source, info.value.line) == ("up.txt", 3)

"""The readout's markup and the legend box under the canvas (issue 15), without a browser."""

from __future__ import annotations

from linkage_widget import Linkage
from linkage_widget.session import Readout
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.readout import readout_html


def test_words_first_numbers_in_details_prose_not_monospace():
    r = Readout(["1 way to move", "2 rods are redundant"], ["DOF 1", "rank 3 <x>"], "Why & how.")
    page = readout_html(r, "bad <file>", ["tension 1.0"])
    assert page.index("1 way to move") < page.index("<details")  # the words come first
    assert "<details class='linkage-details'>" in page  # closed: a click away
    assert "rank 3 &lt;x&gt;" in page and "Why &amp; how." in page and "bad &lt;file&gt;" in page
    assert "monospace" not in page and "word-break:normal" in page
    assert "<details class='linkage-details' open>" in readout_html(r, details_open=True)
    assert "analysing" in readout_html(Readout([], ["analysing ..."], ""))


def test_the_widget_shows_plain_words_and_a_legend_of_what_is_drawn():
    w = LinkageWidget.load("peaucellier.txt")
    page = w.controls.readout.value
    assert "1 way to move" in page and "DOF 1" in page and "<details" in page
    legend = w.controls.legend.value
    assert "rod" in legend and "pinned joint" in legend and "selected joint" not in legend
    w.selected_vertex = 3
    assert "selected joint" in w.controls.legend.value
    w.show_info = True  # key i / the info box: the numbers stay open
    assert "<details class='linkage-details' open>" in w.controls.readout.value
    bare = LinkageWidget(Linkage())
    assert bare.controls.legend.value == ""  # nothing drawn, nothing to explain

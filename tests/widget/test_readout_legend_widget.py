"""The readout's markup and the legend box under the canvas (issue 15), without a browser."""

from __future__ import annotations

from linkage_widget import Linkage
from linkage_widget.session import Readout
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.readout import readout_html


def test_words_first_numbers_in_details_prose_not_monospace():
    r = Readout(["1 way to move", "2 rods are redundant"], ["DOF 1", "rank 3 <x>"], "Why & how.")
    page = readout_html(r, "bad <file>", ["tension 1.0"])
    assert "1 way to move" in page and "bad &lt;file&gt;" in page and "tension 1.0" in page
    assert "linkage-numbers" not in page and "rank 3" not in page  # the numbers: a click away
    shown = readout_html(r, details_open=True)
    assert shown.index("1 way to move") < shown.index("linkage-numbers")  # the words first
    assert "rank 3 &lt;x&gt;" in shown and "Why &amp; how." in shown
    assert "monospace" not in shown and "word-break:normal" in shown
    assert "analysing" in readout_html(Readout([], ["analysing ..."], ""))


def test_the_widget_shows_plain_words_and_a_legend_of_what_is_drawn():
    w = LinkageWidget.load("peaucellier.txt")
    page = w.controls.readout.value
    assert "1 way to move" in page and "DOF 1" not in page
    legend = w.controls.legend.value
    assert "rod" in legend and "pinned joint" in legend and "selected joint" not in legend
    w.selected_vertex = 3
    assert "selected joint" in w.controls.legend.value
    w.controls.numbers.value = True  # the toggle under the readout (or key i, the info box)
    assert w.show_info and "DOF 1" in w.controls.readout.value
    w.advance(3)  # the text changes as the linkage moves: the numbers stay shown
    assert "linkage-numbers" in w.controls.readout.value
    w.key("i")
    assert not w.controls.numbers.value and "DOF 1" not in w.controls.readout.value
    bare = LinkageWidget(Linkage())
    assert bare.controls.legend.value == ""  # nothing drawn, nothing to explain

"""The widget's help table lists the 2007 leftovers' keys (issue 15): ``L`` merges the named
file, Alt+1…9 load the bundled examples, in the order of ``tools.EXAMPLE_KEYS``."""

import re

from linkage_widget.session.tools import EXAMPLE_KEYS, SHIFTED_KEYS
from linkage_widget.widget.controls import HELP_HTML


def rows() -> dict[str, str]:
    found = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", HELP_HTML, flags=re.S)
    return {keys: " ".join(text.split()) for keys, text in found}


def test_help_lists_merge_key() -> None:
    assert SHIFTED_KEYS["L"] == "merge"
    assert "merge the file named in the file box" in rows()["L (shift-l)"]


def test_help_lists_example_keys_in_their_order() -> None:
    text = rows()["Alt+1 … Alt+9"].lower()
    assert len(EXAMPLE_KEYS) == 9
    names = [re.sub(r"\d+$", "", n).replace("_", "-") for n in EXAMPLE_KEYS]
    where = [text.index(n) for n in names]  # each example named ...
    assert where == sorted(where)  # ... in the order of its number


def test_help_says_alt_clicks_in_turn_draw_a_path_and_the_angle_tool_uses_the_selection() -> None:
    # issue 22, item 16: alt-click selects the joint clicked, so alt-clicks draw a path
    alt = rows()["middle- or alt-click"]
    assert "the clicked one is selected" in alt and "0-1-2-3-0" in alt
    assert "a selected joint is the apex): fix / free the angle" in " ".join(HELP_HTML.split())

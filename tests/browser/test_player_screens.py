"""Two players' own screens (lock_seat=True) on one match in a real JupyterLab: each steps back
through its frames, neither offers "Continue from here", and a play or a cursor move at a
past step is refused (the banner says so) while the match keeps both players' moves."""

from __future__ import annotations

import json

import nbformat
import pytest

from conftest import ARTIFACTS
from lab_helpers import wait_until

CELLS = [
    """import json
import tabletop_widgets as tw
m = tw.Match("mamba", seed=1)
south = tw.widget(m, seat=0, lock_seat=True)
north = tw.widget(m, seat=1, lock_seat=True)
for _ in range(2):
    for screen in (south, north):
        screen.play(m.state.legal_actions()[0])
state = lambda: print(json.dumps([len(m), m.cursor, [str(a) for a in m.actions]]))""",
    "south",
    "north",
]


@pytest.fixture(scope="module")
def notebook_path(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path_factory.mktemp("screens") / "player_screens.ipynb"
    nbformat.write(nb, path)
    return path


def test_locked_screens_look_back_but_cannot_rewind_the_match(notebook, notebook_path):
    nb = notebook(notebook_path)
    page = nb.page
    page.set_viewport_size({"width": 1280, "height": 800})
    nb.run_all()
    south = page.locator(".jp-CodeCell").nth(1).locator(".tw-root").first
    north = page.locator(".jp-CodeCell").nth(2).locator(".tw-root").first
    south.wait_for()
    north.wait_for()
    before = json.loads(nb.execute("state()").strip().splitlines()[-1])
    assert before[0] == before[1] == 4

    south.scroll_into_view_if_needed()
    wait_until(lambda: south.locator(".tw-step").inner_text().startswith("step 4 / 4"), what="south at the live end")
    # looking back stays: every earlier frame, and never an offer to continue from it
    for button in (".tw-prev", ".tw-prev", ".tw-first"):
        south.locator(button).click()
        assert south.locator(".tw-continue").is_hidden()
    assert south.locator(".tw-step").inner_text().startswith("step 0 / 4")
    assert south.locator(".tw-seat").is_disabled()

    # what a forged page could still send: a play at South's earlier turn, a cursor move
    nb.execute("south._handle_custom_msg({'type': 'play', 'action': str(m.state_at(2).legal_actions()[-1]), 'step': 2}, [])")
    wait_until(lambda: "locked" in south.locator(".tw-error-text").inner_text(), what="the refused play shown")
    nb.execute("north._handle_custom_msg({'type': 'goto', 'step': 1}, [])")
    wait_until(lambda: "locked" in north.locator(".tw-error-text").inner_text(), what="the refused goto shown")
    after = json.loads(nb.execute("state()").strip().splitlines()[-1])
    assert after == before, "a locked screen changed the match"
    shot = ARTIFACTS / "locked_player_screen.png"
    south.screenshot(path=str(shot))
    # North, never stepped back, still shows the live end and may play there
    assert north.locator(".tw-step").inner_text().startswith("step 4 / 4")
    assert not nb.console or all("pageerror" not in line for line in nb.console), nb.console

"""examples/mamba.ipynb in a real JupyterLab (and Notebook 7), driven like a user would."""

from __future__ import annotations

import time

import pytest
from conftest import ARTIFACTS
from lab_helpers import assert_dark_theme_changes, assert_each_widget_shown_once, axe_problems, wait_until

NOTEBOOK = "mamba.ipynb"

# Each occupied cell of a board as "e5=S" (the stone's side), in cell order.
STONES_JS = """(root) => [...root.querySelectorAll('svg.mamba-board [data-cell]')]
    .map(c => { const s = c.querySelector('[data-stone]');
                return s ? c.getAttribute('data-cell') + '=' + s.getAttribute('data-stone') : null; })
    .filter(Boolean).join(' ')"""


# The notebook's cells as the user sees them: their sources, the active one, the mode.
CELLS_JS = """() => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    return {sources: nb.widgets.map(c => c.model.sharedModel.getSource()), active: nb.activeCellIndex, mode: nb.mode};
}"""




def interactive_root(page):
    """The first Mamba widget on the page whose board offers a stone to pick (pinned by its
    position, so the locator keeps meaning this widget when its board changes)."""
    page.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    roots = page.locator(".tw-root", has=page.locator("svg.mamba-board"))
    offers = [roots.nth(i).locator("[data-cell].pickable").count() > 0 for i in range(roots.count())]
    return roots.nth(offers.index(True))


def slider_value(root) -> int:
    return int(root.locator("input.tw-slider").input_value())


@pytest.fixture
def mamba(notebook):
    nb = notebook(NOTEBOOK)
    nb.run_all()
    nb.page.locator("svg.mamba-board").first.wait_for()
    return nb


def check_every_board_renders_with_81_cells_follows_the_theme_and_passes_axe(mamba):
    page = mamba.page
    boards = page.locator("svg.mamba-board")
    assert boards.count() >= 1
    for i in range(boards.count()):
        assert boards.nth(i).locator("[data-cell]").count() == 81
    # The first widget is a new two-player game: seven stones a side, South's H on files d-f.
    first = page.locator(".tw-root", has=page.locator("svg.mamba-board")).first
    stones = first.evaluate(STONES_JS).split()
    assert len(stones) == 14
    assert sorted(s.split("=")[0] for s in stones if s.endswith("=S")) == ["d1", "d2", "d3", "e2", "f1", "f2", "f3"]
    assert first.locator("button[aria-label='Previous frame']").count() == 1
    assert_each_widget_shown_once(page)
    # No widget reports an error (a drawing failure shows in its error box).
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []

    # The first board follows JupyterLab's dark theme (one notebook run for both checks), and
    # axe-core finds no serious or critical violation in either theme, with a stone picked
    # (its destinations on offer) and the last move marked.
    root = interactive_root(page)
    root.locator("svg.mamba-board [data-cell].pickable").first.click()
    assert root.locator("svg.mamba-board .cell.selected").count() == 1
    root.scroll_into_view_if_needed()
    problems = [f"light: {p}" for p in axe_problems(page, root)]
    colours = """(root) => {
        const svg = root.querySelector('svg.mamba-board');
        const pick = (sel, prop) => { const n = svg.querySelector(sel); return n ? getComputedStyle(n)[prop] : ''; };
        return [getComputedStyle(root).color, pick('.frame', 'fill'), pick('.hole', 'fill')];
    }"""

    def dark_checks():
        problems.extend(f"dark: {p}" for p in axe_problems(page, root))
        root.screenshot(path=str(ARTIFACTS / "mamba-lab-dark.png"))

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert_dark_theme_changes(page, root, colours, while_dark=dark_checks)
    assert problems == [], "\n".join(problems)
    # Escape puts the stone back: the checks that follow start with nothing picked.
    root.locator(".board-host").press("Escape")
    assert root.locator("svg.mamba-board .cell.selected").count() == 0


def play_a_move_by_clicks(nb, root) -> str:
    """Click a stone, then a destination, on `root`; return the move once the kernel's match
    holds it as its next action (a bot may have answered after it)."""
    before = nb.widgets()
    mark = len(nb.sent)
    stone = root.locator("svg.mamba-board [data-cell].pickable").first
    origin = stone.get_attribute("data-cell")
    assert stone.locator("[data-stone]").get_attribute("data-stone") == "S"  # South moves first
    stone.click()
    target = root.locator("svg.mamba-board [data-cell].dest").first
    target.wait_for()
    destination = target.get_attribute("data-cell")
    target.click()
    move = f"{origin}-{destination}"

    # The kernel's answer (new frames) puts the stone on its destination.
    root.locator(f'svg.mamba-board [data-cell="{destination}"] [data-stone]').wait_for()
    assert nb.comm_msgs_since(mark) >= 1  # the instrument sees the widget's messages

    def changed():
        now = {w["id"]: w for w in nb.widgets()}
        grown = [(b, now[b["id"]]) for b in before if len(now[b["id"]]["actions"]) > len(b["actions"])]
        return grown if grown else None

    grown = wait_until(changed, what=f"the kernel to record {move}")
    assert len(grown) == 1, grown
    old, new = grown[0]
    assert new["game"] == "mamba"
    assert new["actions"][: len(old["actions"])] == old["actions"]
    assert new["actions"][len(old["actions"])] == move
    return move


def check_clicks_on_the_board_play_in_the_kernels_match(mamba):
    play_a_move_by_clicks(mamba, interactive_root(mamba.page))


def check_slider_and_keys_rewind_without_a_kernel_message(mamba):
    page = mamba.page
    # The widget with the longest timeline (the four bots' game).
    roots = page.locator(".tw-root", has=page.locator("svg.mamba-board"))
    lengths = [int(roots.nth(i).locator("input.tw-slider").get_attribute("max")) for i in range(roots.count())]
    root = roots.nth(lengths.index(max(lengths)))
    last = max(lengths)
    assert last >= 10, lengths
    assert slider_value(root) == last  # a recorded match opens on its last frame
    kernel_before = mamba.widgets()
    at_end = root.evaluate(STONES_JS)
    mark = len(mamba.sent)

    slider = root.locator("input.tw-slider")
    slider.focus()
    page.keyboard.press("Home")
    assert slider_value(root) == 0
    at_start = root.evaluate(STONES_JS)
    assert at_start != at_end
    assert len(at_start.split()) == 28  # four players' set-up, seven stones each

    page.keyboard.press("End")
    assert slider_value(root) == last
    assert root.evaluate(STONES_JS) == at_end

    # The keys on the focused widget itself (not its slider), with the notebook in command
    # mode, where JupyterLab binds plain keys to cell commands ("b" inserts a cell below,
    # ↓ selects the next one): the widget must get them, and the notebook none.
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.content.mode = 'command'; }")
    cells_before = page.evaluate(CELLS_JS)
    root.evaluate("(root) => root.focus()")
    seen = {at_end}
    for back in range(1, 11):  # ← steps back one frame at a time; some frame soon differs
        page.keyboard.press("ArrowLeft")
        assert slider_value(root) == last - back
        seen.add(root.evaluate(STONES_JS))
    assert len(seen) > 1
    page.keyboard.press("ArrowRight")
    assert slider_value(root) == last - 9
    page.keyboard.press("Home")
    assert slider_value(root) == 0
    page.keyboard.press("End")
    assert slider_value(root) == last
    # Space plays (from the start, being at the end), and pauses.
    play = root.locator("button.tw-play")
    page.keyboard.press("Space")
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_function("([root, last]) => { const v = Number(root.querySelector('input.tw-slider').value);"
                           " return v > 0 && v < last; }", arg=[root.element_handle(), last])
    page.keyboard.press("Space")
    assert play.get_attribute("aria-pressed") == "false"
    paused = slider_value(root)
    time.sleep(1.0)  # longer than a frame at the default speed
    assert slider_value(root) == paused
    page.keyboard.press("b")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("(root) => document.activeElement === root", root.element_handle())
    assert page.evaluate(CELLS_JS) == cells_before

    root.get_by_role("button", name="First frame").click()
    assert slider_value(root) == 0
    root.get_by_role("button", name="Next frame").click()
    assert slider_value(root) == 1

    # Everything above stayed in the browser: the kernel's matches did not move, and the page
    # sent no comm message before this execute request (frames are recorded in order).
    assert mamba.widgets() == kernel_before
    assert mamba.comm_msgs_since(mark) == 0


def check_seat_switch_between_all_seeing_and_one_seat(mamba):
    page = mamba.page
    root = interactive_root(page)
    seat = root.locator("select.tw-seat")
    pickable = root.locator("svg.mamba-board [data-cell].pickable")
    assert seat.input_value() == ""  # the notebook's first widget is the all-seeing view

    def kernel_seats():
        return sorted((w["seat"] is None, w["seat"]) for w in mamba.widgets())

    before = kernel_seats()
    seat.select_option("1")  # North, whose turn it is not: nothing to pick
    root.locator(".tw-view-note", has_text="The same board; clicks play for North").wait_for()
    page.wait_for_function("(root) => !root.querySelector('svg.mamba-board [data-cell].pickable')",
                           arg=root.element_handle())
    assert wait_until(lambda: kernel_seats() != before and kernel_seats(), what="the seat to reach the kernel")
    assert any(w["seat"] == 1 for w in mamba.widgets())

    seat.select_option("0")  # South, to move
    pickable.first.wait_for()
    seat.select_option("")
    root.locator(".tw-view-note", has_text="Nothing is hidden").wait_for()
    pickable.first.wait_for()
    assert wait_until(lambda: kernel_seats() == before, what="the all-seeing view to reach the kernel")


def test_the_notebook_in_jupyterlab(mamba):
    """One notebook run for every JupyterLab check, in an order where none disturbs the next:
    the boards and the theme (nothing played), the recorded bots' game stepped back and forth
    in the browser, the seat switch, then a move played by clicks."""
    check_every_board_renders_with_81_cells_follows_the_theme_and_passes_axe(mamba)
    check_slider_and_keys_rewind_without_a_kernel_message(mamba)
    check_seat_switch_between_all_seeing_and_one_seat(mamba)
    check_clicks_on_the_board_play_in_the_kernels_match(mamba)


def test_notebook_7_plays_a_click_and_rewinds_in_the_browser(notebook):
    nb = notebook(NOTEBOOK, app="notebook")
    page = nb.page
    # Notebook 7's own shell, not JupyterLab's.
    assert page.locator(".jp-LabShell").count() == 0
    assert page.evaluate("() => document.body.dataset.notebook") == "notebooks"
    nb.run_all()
    board = page.locator("svg.mamba-board").first
    board.wait_for()
    assert board.locator("[data-cell]").count() == 81
    assert_each_widget_shown_once(page)

    root = interactive_root(page)
    play_a_move_by_clicks(nb, root)
    # North's bot answers; then South may pick again and the timeline has stopped growing.
    root.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    last = int(root.locator("input.tw-slider").get_attribute("max"))
    assert last >= 2 and slider_value(root) == last
    kernel_before = nb.widgets()
    at_end = root.evaluate(STONES_JS)
    mark = len(nb.sent)

    slider = root.locator("input.tw-slider")
    slider.focus()
    page.keyboard.press("Home")
    assert slider_value(root) == 0
    assert root.evaluate(STONES_JS) != at_end  # the set-up, before the clicked move
    slider.fill(str(last))  # dragging the slider back to the end
    assert slider_value(root) == last
    assert root.evaluate(STONES_JS) == at_end

    assert nb.widgets() == kernel_before
    assert nb.comm_msgs_since(mark) == 0
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []

"""What the page's widget model sends back, in a real JupyterLab: the model keeps a change made
in the page until it next saves (anywidget over ipywidgets), even when the kernel has since sent
its own value. The frame the page keeps as `current` may not linger under a pass-and-play cover
and reach the kernel from the next player's screen, nor come back after Python changed the seat,
where Python refused it and the page showed an error."""

from __future__ import annotations

import json

import nbformat
import pytest

from conftest import ARTIFACTS
from lab_helpers import wait_until

CELLS = [
    """import json
import tabletop_widgets as tw
table = tw.Match("mamma-mia", seed=5, players=4)
pass_w = tw.widget(table, seats=[0, 2], bots={1: "random", 3: "random"})
updates = []  # what the page sets on the widget, with the seat holding the screen then
_set_state = pass_w.set_state
def _spy(data):
    updates.append({"seat": pass_w.seat, "pass_to": pass_w.pass_to, "data": json.loads(json.dumps(data, default=str))})
    return _set_state(data)
pass_w.set_state = _spy
pass_w""",
    """view_w = tw.widget(tw.Match("mamma-mia", seed=5, players=2), seat=0, bots={1: "random"})
view_w""",
    """board = tw.Match("mamba", seed=2)
player_w = tw.widget(board, seat=0, bots={1: "random"})
player_w""",
    """coach_w = tw.widget(board)  # a second screen on the same match: the all-seeing analysis view
coach_w""",
]


@pytest.fixture(scope="module")
def notebook_path(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path_factory.mktemp("attack_echo") / "attack_current_echo.ipynb"
    nbformat.write(nb, path)
    return path


def kernel_json(nb, code):
    return json.loads(nb.execute(code).strip().splitlines()[-1])


def test_the_next_player_switches_the_tally_without_the_last_players_frame(notebook, notebook_path):
    nb = notebook(notebook_path)
    page = nb.page
    nb.run_all()
    table = page.locator(".jp-CodeCell").nth(0).locator(".tw-root").first
    table.locator(".tw-pass").wait_for()
    for turn in range(2):
        seat = kernel_json(nb, "print(pass_w.pass_to)")
        table.locator(".tw-pass-ready").click()
        page.wait_for_function(f"(r) => r.querySelector('.mm-hand-cards[data-seat=\"{seat}\"]') !== null",
                               arg=table.element_handle())
        if turn == 1:
            break
        # the player's move and the bots' answers reach this screen, then the cover
        nb.execute("pass_w.play(table.state.legal_actions()[0])")
        table.locator(".tw-pass:not([hidden])").wait_for()
    # the next player shows the tally: a display switch, saved from the page
    toggle = table.locator(".mm-tally-toggle").first
    toggle.scroll_into_view_if_needed()
    toggle.click()
    wait_until(lambda: kernel_json(nb, "print(json.dumps(pass_w.settings.get('tally')))") is True,
               what="the tally switched in the kernel")
    table.screenshot(path=str(ARTIFACTS / "attack-pass-and-play-tally.png"))
    assert kernel_json(nb, "print(json.dumps(pass_w.error))") == ""
    assert table.locator(".tw-error-text").inner_text().strip() == ""
    # no update from the page carried a frame but of the seat holding the screen then
    carried = kernel_json(nb, """print(json.dumps([
    [u["seat"], u["pass_to"], u["data"]["current"]["step"],
     u["pass_to"] is None and json.loads(json.dumps(table.frames_of_step(u["data"]["current"]["step"], u["seat"])
                                                    [u["data"]["current"]["sub"]].to_dict())) == u["data"]["current"]]
    for u in updates if u["data"].get("current")]))""")
    assert kernel_json(nb, "print(len(updates))") >= 1
    assert all(ok for *_, ok in carried), carried


def test_a_display_switch_after_python_changed_the_seat_shows_no_error(notebook, notebook_path):
    nb = notebook(notebook_path)
    page = nb.page
    nb.run_all()
    view = page.locator(".jp-CodeCell").nth(1).locator(".tw-root").first
    view.locator(".mm-hand-cards").first.wait_for()
    nb.execute("view_w.play(view_w.match.state.legal_actions()[0])")  # frames from i > 0
    page.wait_for_timeout(300)
    nb.execute("view_w.seat = 1")  # a teacher shows the other seat's view from a cell
    view.locator('.mm-hand-cards[data-seat="1"]').wait_for()
    toggle = view.locator(".mm-tally-toggle").first
    toggle.scroll_into_view_if_needed()
    toggle.click()
    wait_until(lambda: kernel_json(nb, "print(json.dumps(view_w.settings.get('tally')))") is True,
               what="the tally switched in the kernel")
    assert kernel_json(nb, "print(json.dumps(view_w.error))") == ""


def click_a_move(root, pick=0):
    """Click a stone, then a destination, on a Mamba board; return the destination."""
    root.locator("svg.mamba-board [data-cell].pickable").nth(pick).click()
    target = root.locator("svg.mamba-board [data-cell].dest").first
    target.wait_for()
    destination = target.get_attribute("data-cell")
    target.click()
    return destination


def test_a_seat_switch_crossing_another_screens_fork_shows_no_error(notebook, notebook_path):
    # The page's model carries the last frame it received as `current` with a seat switch. When
    # another screen's fork reaches the kernel first, that frame is of a step the fork dropped:
    # Python refused it ("The browser may not change 'current'") and the player saw an error.
    nb = notebook(notebook_path)
    page = nb.page
    nb.run_all()
    player = page.locator(".jp-CodeCell").nth(2).locator(".tw-root").first
    coach = page.locator(".jp-CodeCell").nth(3).locator(".tw-root").first
    # the player moves (the page keeps the bot's answer, its last frame, in its model)
    player.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    click_a_move(player)
    wait_until(lambda: kernel_json(nb, "print(len(board))") == 2, what="the move and the bot's answer")
    player.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    # the coach, on the other screen, goes back to the start
    coach.get_by_role("button", name="First frame").click()
    coach.locator(".tw-continue").click()
    wait_until(lambda: kernel_json(nb, "print(board.cursor)") == 0, what="the coach's screen to move the match back")
    # The coach's move there and the player's switch cross: the kernel takes the coach's first
    # (as if it had come first), then the switch the page sent before the fork's frames came.
    nb.execute("""_set_state = player_w.set_state
def _coach_first(data):
    if "seat" in data and len(board) == 2:
        coach_w._handle_custom_msg({"type": "play", "step": 0, "action": str(board.state.legal_actions()[1])}, [])
    return _set_state(data)
player_w.set_state = _coach_first""")
    player.scroll_into_view_if_needed()
    player.locator("select.tw-seat").select_option("1")
    wait_until(lambda: kernel_json(nb, "print(json.dumps([len(board), player_w.seat]))") == [1, 1],
               what="the coach's move and the player's switch")
    player.locator(".tw-log-item").nth(1).filter(has_text="South moves").wait_for()
    page.wait_for_timeout(500)
    player.screenshot(path=str(ARTIFACTS / "attack-fork-seat-switch.png"))
    assert kernel_json(nb, "print(json.dumps([player_w.error, coach_w.error]))") == ["", ""]
    assert player.locator(".tw-error-text").inner_text().strip() == ""
    assert player.locator(".tw-log-item").count() == 2  # the coach's line, as the kernel's match
    assert player.locator("select.tw-seat").input_value() == "1"


def test_a_page_waiting_for_its_play_stays_unplayable_while_another_displays_reload_is_answered(notebook, notebook_path):
    # Python answers another display's hello (frames, `legal`) before this page's play: that
    # `legal` ended the page's wait, so the position it played from was playable again until
    # its own answer came (a second click there would have replaced the first move).
    nb = notebook(notebook_path)
    page = nb.page
    nb.run_all()
    player = page.locator(".jp-CodeCell").nth(2).locator(".tw-root").first
    player.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    nb.execute("""import time
_dispatch = player_w._dispatch
def _reload_first(msg):
    if msg.get("type") == "play":
        _dispatch({"type": "hello"})  # another display's reload, taken first
        player_w._send_legal()
        time.sleep(1.5)
    return _dispatch(msg)
player_w._dispatch = _reload_first""")
    player.scroll_into_view_if_needed()
    click_a_move(player)
    page.wait_for_timeout(700)  # the reload's answer is in, the play's is not
    player.screenshot(path=str(ARTIFACTS / "attack-play-waits-past-a-reload.png"))
    assert player.locator("svg.mamba-board [data-cell].pickable").count() == 0
    wait_until(lambda: kernel_json(nb, "print(len(board))") == 2, what="the move and the bot's answer")
    player.locator("svg.mamba-board [data-cell].pickable").first.wait_for()  # playable again, at the answer
    assert kernel_json(nb, "print(json.dumps(player_w.error))") == ""

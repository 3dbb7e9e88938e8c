"""The shared controls in a real JupyterLab: the slider drags monotonically and no control
moves or changes width over a game, live moves are paced (a bot's answer stays on screen for
a beat), the log jumps, a replay refuses to play, pass-and-play shows your move and the bots'
answers a beat each in your own view before the cover and sends nothing of a hand to the
wrong seat. One notebook run serves every check; README screenshots are taken on the way
(into the artifacts directory, and into $TW_SCREENSHOTS when set, e.g. docs/images)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from conftest import ARTIFACTS, ROOT
from lab_helpers import axe_problems, decoded_comm_messages, wait_until
from widget_spy import dicts_in

# How long a frame stays before the live region says it.
SPEAK_SETTLE_MS = int(re.search(r"SPEAK_SETTLE_MS = (\d+);", (ROOT / "js" / "src" / "timeline.js").read_text()).group(1))

CELLS = [
    """import tabletop_widgets as tw
rnd = lambda n: {s: tw.bots.Random(seed=s) for s in range(n)}""",
    # A long recorded Mamma Mia game, one seat's view: the slider and the footprint.
    """long = tw.Match("mamma-mia", seed=3, players=4)
long.autoplay(rnd(4), max_steps=60)
slider_w = tw.widget(long, seat=0)
slider_w""",
    # A recorded MammuZ bot game as a replay, opened inside a step.
    """herd = tw.Match("mammuz", seed=2, players=4)
herd.autoplay(rnd(4), max_steps=30)
herd.goto(6)
inside = next(s for s in range(1, len(herd) + 1) if len(herd.frames_of_step(s)) > 1)
replay_w = tw.widget(herd, replay=True, frame=(inside, 1))
replay_w""",
    # Mamba against a bot, played from the kernel: the pacing of the moves.
    """duel = tw.Match("mamba", seed=1)
duel_w = tw.widget(duel, bots={1: "random"})
duel_w""",
    # Pass-and-play: Yellow and Brown at one screen, two bots.
    """table = tw.Match("mamma-mia", seed=5, players=4)
pass_w = tw.widget(table, seats=[0, 2], bots={1: "random", 3: "random"})
pass_w""",
    # The README pictures: one widget per game, mid-game, a seat's view.
    """shots = {}
for name, players, steps in [("mamba", 2, 12), ("mamma-mia", 4, 24), ("mamma-mia-plus", 4, 24), ("mammuz", 4, 14)]:
    shot_m = tw.Match(name, seed=7, players=players)
    shot_m.autoplay(rnd(players), max_steps=steps)
    shots[name] = tw.widget(shot_m, seat=0, bots={s: "random" for s in range(1, players)})
    display(shots[name])""",
    # Pass-and-play in MammuZ: seats 0 and 2, two bots.
    """herd_table = tw.Match("mammuz", seed=3, players=4)
herd_w = tw.widget(herd_table, seats=[0, 2], bots={1: "random", 3: "random"})
herd_w""",
]


@pytest.fixture(scope="module")
def notebook_path(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path_factory.mktemp("timeline") / "timeline_controls.ipynb"
    nbformat.write(nb, path)
    return path


def root_of(page, cell):
    """The .tw-root of the widget displayed by code cell index `cell`."""
    return page.locator(".jp-CodeCell").nth(cell).locator(".tw-root").first


def rect(locator):
    box = locator.bounding_box()
    return tuple(round(v) for v in (box["x"], box["y"], box["width"], box["height"]))


def kernel_json(nb, code):
    return json.loads(nb.execute(code).strip().splitlines()[-1])


# What the page holds of a hand: Mamma Mia's hand cards (by seat) in the DOM.
HANDS_IN_DOM = "(root) => [...root.querySelectorAll('.mm-hand-cards')].map(e => e.dataset.seat)"

# Captions as they change, with the time (ms) each one appeared: a MutationObserver.
WATCH_CAPTIONS = """(root) => {
    const cap = root.querySelector('.tw-caption');
    window.__twCaptions = [[performance.now(), cap.textContent]];
    new MutationObserver(() => window.__twCaptions.push([performance.now(), cap.textContent]))
        .observe(cap, {childList: true, characterData: true, subtree: true});
}"""


# What the live region says, and when, against the slider's input events (ms).
WATCH_SPOKEN = """(root) => {
    const spoken = root.querySelector('.tw-sr-text'), slider = root.querySelector('.tw-slider');
    window.__twSpoken = [];
    window.__twInputs = [];
    slider.addEventListener('input', () => window.__twInputs.push([performance.now(), root.querySelector('.tw-caption').textContent]));
    new MutationObserver(() => window.__twSpoken.push([performance.now(), spoken.textContent]))
        .observe(spoken, {childList: true, characterData: true, subtree: true});
}"""


# Pass-and-play: each caption and the cover as they change, with the time (ms) and the seats
# whose hand is in the page then (Mamma Mia's or MammuZ's hand rows).
WATCH_PASS = """(root) => {
    const cap = root.querySelector('.tw-caption'), cover = root.querySelector('.tw-pass');
    const hands = () => [...root.querySelectorAll('.mm-hand-cards, .mz-hand')].map(e => e.dataset.seat);
    const note = (kind, text) => window.__twPass.push([performance.now(), kind, text, hands()]);
    window.__twPass = [];
    new MutationObserver(() => note('caption', cap.textContent))
        .observe(cap, {childList: true, characterData: true, subtree: true});
    new MutationObserver(() => note('cover', cover.hidden ? 'hidden' : 'shown'))
        .observe(cover, {attributes: true, attributeFilter: ['hidden']});
}"""


def check_beats_then_cover(page, seat, expected, beat):
    """The captions of ``expected`` in turn, each on the screen a beat with only ``seat``'s hand
    in the page, then the cover (a beat after the last), and no hand in the page under it."""
    log = page.evaluate("window.__twPass")
    captions = [(t, text, hands) for t, kind, text, hands in log if kind == "caption" and text]
    covers = [(t, hands) for t, kind, text, hands in log if kind == "cover" and text == "shown"]
    # the same caption twice in a row is one change of the text
    wanted = [c for i, c in enumerate(expected) if i == 0 or c != expected[i - 1]]
    assert [text for _, text, _ in captions] == wanted, log
    assert len(covers) == 1 and covers[0][1] == [], log
    times = [t for t, _, _ in captions] + [covers[0][0]]
    assert all(b - a >= beat - 50 for a, b in zip(times, times[1:])), [round(b - a) for a, b in zip(times, times[1:])]
    assert all(hands == [str(seat)] for _, _, hands in captions), log
    assert log[-1][1] == "cover", log  # nothing drawn under the cover


# Every frame in turn (as the slider shows it): each selector's box relative to the widget,
# to the pixel. Returns {boxes as JSON: first frame index with them}, and any step counter
# text cut by its fixed width.
BOXES_OVER_THE_GAME = """(r, sels) => {
    const s = r.querySelector('.tw-slider'), seen = {};
    for (let i = 0; i <= Number(s.max); i++) {
        s.value = i; s.dispatchEvent(new Event('input'));
        const o = r.getBoundingClientRect();
        const key = JSON.stringify(sels.map(sel => { const b = (sel === '.tw-root' ? r : r.querySelector(sel)).getBoundingClientRect();
            return [b.left - o.left, b.top - o.top, b.width, b.height].map(Math.round); }));
        if (!(key in seen)) seen[key] = i;
        const counter = r.querySelector('.tw-step');
        if (counter.scrollWidth > counter.clientWidth) seen['counter cut: ' + counter.textContent] = i;
    }
    return seen;
}"""


def screenshot(root, name, readme=True):
    """An element screenshot into the artifacts directory, and (a README picture) into
    $TW_SCREENSHOTS if set."""
    path = ARTIFACTS / f"{name}.png"
    root.screenshot(path=str(path))
    target = os.environ.get("TW_SCREENSHOTS")
    if target and readme:
        folder = Path(target) if Path(target).is_absolute() else ROOT / target
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / f"{name}.png")
    return path


def test_timeline_controls_in_jupyterlab(notebook, notebook_path):
    nb = notebook(notebook_path)
    page = nb.page
    page.set_viewport_size({"width": 1280, "height": 800})
    nb.run_all()
    page.locator(".tw-root").nth(8).wait_for()
    nb.execute("import json")

    # ---- the slider: every control keeps its place and width on every frame ---------------
    root = root_of(page, 1)
    root.scroll_into_view_if_needed()
    slider = root.locator("input.tw-slider")
    last = int(slider.get_attribute("max"))
    assert last > 100
    # each control's place (relative to the widget) and size, and the widget's own size
    controls = [".tw-root", "input.tw-slider", ".tw-step", ".tw-play", ".tw-speed", ".tw-continue", ".tw-skip", ".tw-log"]
    seen = root.evaluate(BOXES_OVER_THE_GAME, controls)
    assert len(seen) == 1, f"the widget or its controls change over the game: {seen}"
    boxes = json.loads(next(iter(seen)))
    assert boxes[0][3] <= 800, f"the widget is {boxes[0][3]} px tall"
    # a real drag, a pixel at a time: the frame only moves forward
    root.evaluate("(r) => { const s = r.querySelector('.tw-slider'); s.value = 0; s.dispatchEvent(new Event('input')); }")
    slider.scroll_into_view_if_needed()
    page.wait_for_timeout(SPEAK_SETTLE_MS + 100)
    root.evaluate(WATCH_SPOKEN)
    x, y, width, height = rect(slider)
    page.mouse.move(x + 3, y + height / 2)
    page.mouse.down()
    positions = []
    for dx in range(0, min(width - 6, 80), 1):
        page.mouse.move(x + 3 + dx, y + height / 2)
        positions.append(int(slider.input_value()))
    page.mouse.up()
    assert positions[-1] > positions[0] + 5
    assert all(b >= a for a, b in zip(positions, positions[1:])), positions
    assert rect(slider)[2] == width
    # the live region says the frame the drag stopped on once it has stayed, and no frame passed
    # over (one where the drag rested that long, on a slow machine, it may say)
    page.wait_for_timeout(SPEAK_SETTLE_MS + 200)
    spoken, inputs = page.evaluate("[window.__twSpoken, window.__twInputs]")
    assert spoken and spoken[-1][1] == root.locator(".tw-caption").inner_text() == inputs[-1][1], (spoken, inputs[-1])
    for at, text in spoken:
        before = [i for i in inputs if i[0] <= at]
        assert before and before[-1][1] == text and at - before[-1][0] >= SPEAK_SETTLE_MS - 20, (at, text, before[-1:])
    assert len({text for _, text in inputs}) > 5 * len(spoken), spoken

    # ---- the log: every frame listed, the shown one current; a click and Enter jump --------
    entries = root.locator(".tw-log-entry")
    assert entries.count() == last + 1
    assert root.locator(".tw-log [aria-current=step]").count() == 1
    target = entries.nth(5)
    target.scroll_into_view_if_needed()
    target.click()
    assert slider.input_value() == "5"
    assert root.locator(".tw-caption").inner_text() in target.inner_text()
    assert target.get_attribute("aria-current") == "step"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert slider.input_value() == "7"
    entries.nth(2).focus()
    page.keyboard.press("Enter")
    assert slider.input_value() == "2" and entries.nth(2).get_attribute("aria-current") == "step"
    # the log scrolls inside its box
    root.locator(".tw-last").click()
    log_box = root.locator(".tw-log").bounding_box()
    current = root.locator(".tw-log [aria-current=step]").bounding_box()
    assert log_box["y"] <= current["y"] and current["y"] + current["height"] <= log_box["y"] + log_box["height"] + 1

    # ---- a replay steps but never plays or moves the match ---------------------------------
    replay = root_of(page, 2)
    replay.scroll_into_view_if_needed()
    before = kernel_json(nb, "print(json.dumps([len(herd), herd.cursor, [str(a) for a in herd.actions], inside]))")
    assert before[0] > 6 and before[1] == 6
    # opened inside a step, on its second frame
    assert replay.locator(".tw-step").inner_text().startswith(f"step {before[3]} / {before[0]} · 2/")
    assert replay.locator(".tw-replay-note").is_visible()
    for button in (".tw-next", ".tw-last", ".tw-prev"):
        replay.locator(button).click()
        assert replay.locator(".tw-continue").is_hidden()
        assert "Start a herd" not in replay.inner_text()
        assert replay.locator(".tw-board button:not(:disabled)").count() == 0
    # a forged play from the page is refused by the kernel too
    nb.execute("replay_w._handle_custom_msg({'type': 'play', 'action': str(herd.state.legal_actions()[0]), 'step': len(herd)}, [])")
    after = kernel_json(nb, "print(json.dumps([len(herd), herd.cursor, [str(a) for a in herd.actions], inside]))")
    assert after == before
    wait_until(lambda: "replay" in replay.locator(".tw-error-text").inner_text(), what="the refusal shown")
    assert axe_problems(page, replay) == []  # the controls and the log, as a screen reader meets them

    # ---- pacing: your move, then the bot's answer, each its own beat -----------------------
    duel = root_of(page, 3)
    duel.scroll_into_view_if_needed()
    beat = int(duel.locator(".tw-speed").input_value())
    duel.evaluate(WATCH_CAPTIONS)
    nb.execute("duel_w.play(duel.state.legal_actions()[0])")
    wait_until(lambda: page.evaluate("window.__twCaptions.some(([t, c]) => c.startsWith('North'))"), what="the bot's answer")
    page.wait_for_timeout(beat + 200)
    captions = page.evaluate("window.__twCaptions")
    mine = [t for t, text in captions if text.startswith("South")]
    theirs = [t for t, text in captions if text.startswith("North")]
    assert mine and theirs, captions
    # your move stays a beat before North's answer; North's answer stays until nothing else comes
    assert theirs[0] - mine[0] >= beat - 50, captions
    assert captions[-1][1].startswith("North") and page.evaluate("performance.now()") - theirs[0] >= beat

    # ---- pass-and-play: covered between the players, nothing of a hand on the wire ---------
    table = root_of(page, 4)
    table.scroll_into_view_if_needed()
    assert table.locator(".tw-pass").is_visible()
    assert table.evaluate(HANDS_IN_DOM) == []
    assert "All-seeing view" not in table.locator("select.tw-seat").inner_text()
    pass_id = kernel_json(nb, "print(json.dumps(pass_w.model_id))")
    # A move clicked: it, then each bot's answer, get a beat each in the player's own view (with
    # no other hand in the page), and only then the cover.
    seat = kernel_json(nb, "print(pass_w.pass_to)")
    table.locator(".tw-pass-ready").click()
    hand = table.locator(".mm-hand-cards button.mm-card[data-action='ingredient']:not([disabled])")
    hand.first.wait_for()
    beat = int(table.locator(".tw-speed").input_value())
    before = kernel_json(nb, "print(len(table))")
    table.evaluate(WATCH_PASS)
    hand.first.click(position={"x": 12, "y": 40})
    table.locator("button[data-action='source'][data-source='supply']").click()
    table.locator("button.mm-play").click()
    clicked = page.evaluate("performance.now()")
    shots = 0
    while table.locator(".tw-pass").is_hidden() and page.evaluate("performance.now()") - clicked < 60_000:
        screenshot(table, f"pass-and-play-beat-{shots}", readme=False)
        shots += 1
        page.wait_for_timeout(beat // 2)
    screenshot(table, f"pass-and-play-beat-{shots}", readme=False)
    expected = kernel_json(nb, f"print(json.dumps([f.caption for s in range({before} + 1, len(table) + 1) "
                               f"for f in table.frames_of_step(s, {seat})]))")
    assert len(expected) >= 2 and kernel_json(nb, "print(pass_w.pass_to)") != seat  # a bot answered
    check_beats_then_cover(page, seat, expected, beat)
    assert shots >= 2  # pictures of the move and the answer, before the cover
    # the rest of this check at the fastest speed
    table.locator(".tw-speed").select_option("150")
    for turn in range(2):
        seat = kernel_json(nb, "print(pass_w.pass_to)")
        # The screen opens on the first step this seat has not seen and plays on from there, in
        # its view: the newest frame is not drawn first.
        since = kernel_json(nb, f"print(json.dumps([f.caption for s in range(pass_w._seen.get({seat}, -1) + 1, "
                                f"len(table) + 1) for f in table.frames_of_step(s, {seat})]))")
        table.evaluate(WATCH_PASS)
        table.locator(".tw-pass-ready").click()
        page.wait_for_function(f"(r) => r.querySelector('.mm-hand-cards[data-seat=\"{seat}\"]') !== null", arg=table.element_handle())
        assert table.evaluate(HANDS_IN_DOM) == [str(seat)]
        wait_until(lambda: table.locator(".tw-last").is_disabled() and table.locator(".tw-play").inner_text() == "▶ Play",
                   what="what happened since played out")
        shown = [text for _, kind, text, hands in page.evaluate("window.__twPass")
                 if kind == "caption" and text and not text.startswith("Waiting")]
        assert [c for i, c in enumerate(shown) if i == 0 or c != shown[i - 1]] == \
            [c for i, c in enumerate(since) if i == 0 or c != since[i - 1]], (shown, since)
        nb.execute("pass_w.play(table.state.legal_actions()[0])")
        table.locator(".tw-pass:not([hidden])").wait_for()
        assert table.evaluate(HANDS_IN_DOM) == []
        assert table.locator(".tw-log-entry").count() == 0
    assert axe_problems(page, table) == []  # the cover, as a screen reader meets it
    # On the wire: each frame the page got is the view of the seat holding the screen then,
    # and between a cover and the next player's click no frame came at all.
    hands = kernel_json(nb, """import json
print(json.dumps({str(s): [f.to_dict()['view']['hand'] for f in table.frames(seat=s)] for s in (0, 2)}))""")
    on_screen, covered, frames_seen = None, False, 0
    for content in decoded_comm_messages(nb.received_comm_msgs(pass_id)):
        data = content.get("data", {})
        state = data.get("state", {})  # comm_open and "update" messages carry traits
        if state.get("pass_to") is not None:
            on_screen, covered = state["pass_to"], True
            assert state.get("current") is None
        elif "pass_to" in state:
            covered = False  # the next player opened the screen
        msg = data.get("content") if data.get("method") == "custom" else None
        if not msg:
            continue
        if msg.get("type") == "frames":
            assert not covered, "frames sent to a covered screen"
            for frame in msg["frames"]:
                assert "hands" not in frame["view"]
                assert frame["view"]["hand"] in hands[str(on_screen)]
                frames_seen += 1
    assert frames_seen > 0

    # ---- the same in MammuZ, with "Skip to now" ---------------------------------------------
    herd_root = root_of(page, 6)
    herd_root.scroll_into_view_if_needed()
    seat = kernel_json(nb, "print(herd_w.pass_to)")
    herd_root.locator(".tw-pass-ready").click()
    page.wait_for_function(f"(r) => r.querySelector('.mz-hand[data-seat=\"{seat}\"]') !== null", arg=herd_root.element_handle())
    # (the kernel's answer comes after the page took the messages opening the screen)
    before = kernel_json(nb, "print(len(herd_table))")
    if herd_root.locator(".tw-skip").is_enabled():
        herd_root.locator(".tw-skip").click()  # past what happened since the screen last left this seat
    herd_root.evaluate(WATCH_PASS)
    # the seat's decisions until the screen is passed on (a lay is several)
    nb.execute("while herd_w.pass_to is None and not herd_table.state.is_over:\n"
               "    herd_w.play(herd_table.state.legal_actions()[0])")
    expected = kernel_json(nb, f"print(json.dumps([f.caption for s in range({before} + 1, len(herd_table) + 1) "
                               f"for f in herd_table.frames_of_step(s, {seat})]))")
    assert len(expected) >= 2
    wait_until(lambda: herd_root.locator(".tw-caption").inner_text() == expected[0], what="the move on the screen")
    assert herd_root.locator(".tw-pass").is_hidden()
    screenshot(herd_root, "pass-and-play-mammuz-move", readme=False)
    herd_root.locator(".tw-skip").click()
    assert herd_root.locator(".tw-caption").inner_text() == expected[-1]
    screenshot(herd_root, "pass-and-play-mammuz-skipped", readme=False)
    herd_root.locator(".tw-pass:not([hidden])").wait_for()
    screenshot(herd_root, "pass-and-play-mammuz-cover", readme=False)
    log = page.evaluate("window.__twPass")
    captions = [(t, text, hands) for t, kind, text, hands in log if kind == "caption" and text]
    covers = [(t, hands) for t, kind, text, hands in log if kind == "cover" and text == "shown"]
    assert captions[0][1] == expected[0] and captions[-1][1] == expected[-1], log
    assert covers[0][0] - captions[-1][0] >= beat - 50 and covers[0][1] == [], log
    assert all(hands == [str(seat)] for _, _, hands in captions), log

    # ---- the README pictures, one per game ----------------------------------------------
    # the whole widget below Lab's bars, the file browser closed: the notebook 1280 px wide
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    table.scroll_into_view_if_needed()
    screenshot(table, "pass-and-play", readme=False)
    for index, name in enumerate(["mamba", "mamma-mia", "mamma-mia-plus", "mammuz"]):
        shot = page.locator(".jp-CodeCell").nth(5).locator(".tw-root").nth(index)
        shot.scroll_into_view_if_needed()
        assert shot.locator(".tw-last").is_disabled()  # on the newest frame
        height = shot.bounding_box()["height"]
        screenshot(shot, name)
        print(f"{name}: {shot.bounding_box()['width']:.0f} x {height:.0f} px")

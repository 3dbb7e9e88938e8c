"""The live widgets' layout in a real browser, on pages that render the widget as anywidget does
with the messages its Python side sends (tests/browser/live_page.py: no kernel, so seconds):
the controls a replay has not (Mamba's position editor, a Mamma Mia turn's composer, MammuZ's
lay) keep to the table's box at a laptop's widths, light and dark; Mamma Mia's all-seeing view
shows every hand at once; MammuZ's small cards keep their number and icon in sight when chosen.
Screenshots go to ARTIFACTS."""

from __future__ import annotations

import pytest

import tabletop_widgets as tw
from conftest import ARTIFACTS
from live_page import live_page

# Regions of the table that scroll, in the widget shown (the logs scroll by design).
SCROLLING = """() => [...document.querySelectorAll('.tw-root *')]
  .filter((e) => !e.matches('.tw-log, .mm-log, .tw-caption'))
  .filter((e) => { const cs = getComputedStyle(e);
    return (/(auto|scroll)/.test(cs.overflowY) && e.scrollHeight > e.clientHeight + 1)
        || (/(auto|scroll)/.test(cs.overflowX) && e.scrollWidth > e.clientWidth + 1); })
  .map((e) => `${e.className} ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`)"""

# Every control of Mamba's side column inside the table's box, none cut off.
SIDE_CONTROLS = """() => {
  const board = document.querySelector('.tw-board').getBoundingClientRect();
  return [...document.querySelectorAll('.mamba-side button, .mamba-side select, .mamba-side input')]
    .filter((e) => e.getClientRects().length)
    .filter((e) => { const r = e.getBoundingClientRect(); return r.bottom > board.bottom + 1 || r.right > board.right + 1; })
    .map((e) => e.textContent || e.className);
}"""

# Lines that cut their own words or badges (a seat's name line, its facts).
CUT_LINES = """() => [...document.querySelectorAll('.mm-seat-name, .mm-seat-facts')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `cut: ${e.textContent}`)"""

# A laptop screen's browser window and the narrower column of a notebook with its file browser.
WIDTHS = [1280, 1000, 900]


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"))


def test_the_live_controls_fit_the_table(browser, tmp_path):
    pages = {}
    duel = tw.Match("mamba", seed=1, players=4)
    pages["mamba"] = live_page(tw.widget(duel, seat=0, bots={1: "random", 2: "random", 3: "random"}), tmp_path / "mamba.html")
    # (Mamma Mia at step 30: the seat to move, the viewer, holds the Mamma Mia card.)
    for name, players, steps in [("mamma-mia", 5, 30), ("mamma-mia-plus", 6, 30), ("mammuz", 6, 40)]:
        m = tw.Match(name, seed=3, players=players)
        m.autoplay({s: tw.bots.Random(seed=s) for s in range(players)}, max_steps=steps)
        me = m.state.to_move
        pages[name] = live_page(tw.widget(m, seat=me, bots={s: "random" for s in range(players) if s != me}), tmp_path / f"{name}.html")
    # MammuZ's all-seeing view, the seat to move starting a herd from its row of small cards.
    herd = tw.Match("mammuz", seed=3, players=6)
    herd.autoplay({s: tw.bots.Random(seed=s) for s in range(6)}, max_steps=26)
    pages["mammuz-every-hand"] = live_page(tw.widget(herd, bots={s: "random" for s in range(6) if s != herd.state.to_move}),
                                           tmp_path / "mammuz-every-hand.html")
    every = tw.Match("mamma-mia-plus", seed=3, players=6)
    every.autoplay({s: tw.bots.Random(seed=s) for s in range(6)}, max_steps=20)
    pages["every-hand"] = live_page(tw.widget(every, replay=True), tmp_path / "every-hand.html")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems = []
    try:
        # Mamba's position editor: the side column fits the board's height at every width.
        page.goto(pages["mamba"].as_uri())
        page.wait_for_selector(".tw-root svg.mamba-board")
        page.click("button.edit-toggle")
        page.wait_for_selector(".mamba .editor:not([hidden])")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                problems += [f"mamba editor at {width}: {p}" for p in page.evaluate(SCROLLING) + page.evaluate(SIDE_CONTROLS)]
                _shot(page, f"mamba-editor-{width}-{scheme}")
        # A seat to move with its controls: nothing of the table scrolls.
        for name in ("mamma-mia", "mamma-mia-plus", "mammuz"):
            page.goto(pages[name].as_uri())
            page.wait_for_selector(".tw-root .mm-root, .tw-root .mz-root")
            # The seat's controls are on the table (a turn's composer, the lay or challenge).
            assert page.locator(".mm-composer .mm-play, .mz-slot-composer button").count(), name
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 800})
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    problems += [f"{name} at {width}: {p}" for p in page.evaluate(SCROLLING) + page.evaluate(CUT_LINES)]
                    _shot(page, f"{name}-{width}-{scheme}")
        # Mamma Mia's all-seeing view: the six hands in sight in their region, a row each.
        page.goto(pages["every-hand"].as_uri())
        page.wait_for_selector(".tw-root .mm-hand.mm-teaching")
        shown = page.evaluate("""() => {
          const hands = document.querySelector('.mm-slot-hand > .mm-hand.mm-teaching');
          const rows = [...hands.querySelectorAll('.mm-hand-cards')];
          return {scrolls: hands.scrollHeight > hands.clientHeight + 1, rows: rows.length,
                  cut: rows.filter((r) => r.scrollWidth > r.clientWidth + 1).length};
        }""")
        assert shown == {"scrolls": False, "rows": 6, "cut": 0}, shown
        _shot(page, "mamma-mia-every-hand")
        # Small cards chosen to lay keep their number and icon in sight: the tick sits clear.
        page.goto(pages["mammuz-every-hand"].as_uri())
        chips = page.locator(".mz-teaching button.mz-card")
        chips.nth(0).click()
        chips.nth(1).click()
        covered = page.evaluate("""() => [...document.querySelectorAll('.mz-teaching button.mz-card[aria-pressed="true"]')].map((card) => {
          const box = card.getBoundingClientRect(), tick = getComputedStyle(card, '::after');
          const t = {left: box.left + card.clientLeft + parseFloat(tick.left), top: box.top + card.clientTop + parseFloat(tick.top)};
          t.right = t.left + parseFloat(tick.width); t.bottom = t.top + parseFloat(tick.height);
          return [...card.querySelectorAll('.mz-number, .mz-icon')].filter((part) => {
            const r = part.getBoundingClientRect();
            return r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
          }).map((part) => part.getAttribute('class'));
        }).flat()""")
        assert chips.count() > 1 and covered == [], covered
        _shot(page, "mammuz-every-hand-chosen")
    finally:
        page.close()
    assert problems == []

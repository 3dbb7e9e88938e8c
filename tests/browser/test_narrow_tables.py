"""Every game in a narrow widget, as in a JupyterLab side panel (468 px) or a split pane on a small
screen (360 px), measured on live pages that need no kernel: no region cut short at its side,
the regions wide enough to read (a narrow table stacks them in one column, which its box
scrolls), one height for every frame at a given width, the laptop's 1280 px layout kept, and no
serious axe-core violation. Screenshots go to ARTIFACTS as narrow-<case>-<width>.png."""

from __future__ import annotations

import pytest

import tabletop_widgets as tw
from conftest import ARTIFACTS
from lab_helpers import WALK_HEIGHTS, axe_problems, played
from live_page import live_page


@pytest.fixture(scope="module")
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    yield pg
    pg.close()


def _open(page, widget, path):
    page.goto(live_page(widget, path).as_uri())
    page.wait_for_selector(".tw-board > *")


def _width(page, width):
    """The widget's width (its host's), whatever the window's: a notebook beside a side panel."""
    page.evaluate("(w) => { document.getElementById('host').style.width = w; }", f"{width}px" if width else "")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".tw-root").screenshot(path=str(ARTIFACTS / f"narrow-{name}.png"))


# What a narrow table cuts: a region whose content runs past its side (the fifth column of the
# table, a badge of the side column), a region narrower than a line of cards, an element of
# `inside` past the table's right edge; and the widths of the regions.
CUT = """([regions, inside]) => {
  const board = document.querySelector('.tw-board').getBoundingClientRect();
  const cut = [];
  for (const r of document.querySelectorAll(regions)) {
    if (r.scrollWidth > r.clientWidth + 1) cut.push(`${r.className}: ${r.scrollWidth} > ${r.clientWidth}`);
  }
  for (const e of document.querySelectorAll(inside)) {
    const q = e.getBoundingClientRect();
    if (q.width && (q.right > board.right + 0.5 || q.left < board.left - 0.5)) cut.push(`${e.className} ${Math.round(q.left)}..${Math.round(q.right)} outside ${Math.round(board.left)}..${Math.round(board.right)}`);
  }
  const widths = [...document.querySelectorAll(regions)].map((r) => r.getBoundingClientRect().width);
  return {cut, narrowest: Math.min(...widths), board: board.width};
}"""

CASES = {
    # Yellow's turn in a five-player classic game: the table's five columns, the hand, the composer.
    "mamma-mia": (lambda: played("mamma-mia", 5, 3, 40),
                  ".mm-slot-table, .mm-slot-middle, .mm-slot-hand, .mm-slot-seats, .mm-slot-oven",
                  ".mm-column, .mm-composer button, .mm-seat"),
    # Brown decides how to settle his order: the decision's answers and the order being settled.
    "mamma-mia-decision": (lambda: played("mamma-mia", 5, 15, 43),
                           ".mm-slot-table, .mm-slot-middle, .mm-slot-hand, .mm-slot-seats",
                           ".mm-column, .mm-decision button, .mm-settle"),
    # Six Plus seats, Pink asked for help: six columns on the table.
    "mamma-mia-plus": (lambda: played("mamma-mia-plus", 6, 5, 60),
                       ".mm-slot-table, .mm-slot-middle, .mm-slot-hand, .mm-slot-seats",
                       ".mm-column, .mm-decision button, .mm-seat"),
    "mamba": (lambda: played("mamba", None, 3, 20), ".mamba-side",
              ".mamba .seat, .mamba .turn, .mamba .goal, .mamba .hint, .mamba .toolbar button, svg.mamba-board"),
    # Four seats: the side column under the board holds them and the goal in sight.
    "mamba-4": (lambda: played("mamba", 4, 1, 3), ".mamba-side",
                ".mamba .seat, .mamba .turn, .mamba .goal, svg.mamba-board"),
    # Carla lays her display: the herd, her hand, the composer's buttons.
    "mammuz": (lambda: played("mammuz", 4, 3, 30),
               ".mz-slot-herd, .mz-slot-hands, .mz-slot-composer, .mz-slot-seats, .mz-slot-middle",
               ".mz-last-challenge, .mz-display, .mz-composer button, .mz-seat"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_narrow_widget_cuts_nothing_and_keeps_one_height(page, tmp_path, case):
    make, regions, inside = CASES[case]
    m = make()
    _open(page, tw.widget(m, seat=m.state.to_move), tmp_path / f"{case}.html")
    wide = {}
    _width(page, None)
    wide["root"] = page.locator(".tw-root").bounding_box()["height"]
    for width in (468, 360):
        _width(page, width)
        found = page.evaluate(CUT, [regions, inside])
        _shot(page, f"{case}-{width}")
        assert found["cut"] == [], (width, found)
        # Every region as wide as a row of cards: the narrow table stacks its regions (beside one
        # another, the table's and the decision's were 214 px at 468, 120 px at 360).
        assert found["narrowest"] >= min(300, found["board"] - 30), (width, found)
        # The caption has the widget's width for its two lines (beside the kernel's buttons it
        # kept a few words a line).
        caption = page.evaluate("() => document.querySelector('.tw-caption').getBoundingClientRect().width"
                                " / document.querySelector('.tw-main').getBoundingClientRect().width")
        assert caption > 0.95, (width, caption)
        # The view's note is read whole, not cut to a few words and an ellipsis.
        note = page.evaluate("() => { const n = document.querySelector('.tw-view-note');"
                             " return [n.scrollWidth <= n.clientWidth + 1, n.textContent]; }")
        assert note[0], (width, note)
        heights = page.locator(".tw-root").evaluate(WALK_HEIGHTS)
        assert max(heights) - min(heights) <= 2, (width, sorted(set(heights)))
        if case == "mamba-4":
            # Four seats, the goal, the hint and the editor's button in sight, not scrolled to.
            side = page.evaluate("() => { const s = document.querySelector('.mamba-side');"
                                 " return [s.scrollHeight, s.clientHeight, document.querySelector('.mamba .hint').textContent]; }")
            assert side[2] and side[0] <= side[1] + 1, (width, side)
    assert axe_problems(page, page.locator(".tw-root")) == []
    # Back at a laptop's width the table is as it was: its regions side by side, within 800 px.
    _width(page, None)
    assert page.locator(".tw-root").bounding_box()["height"] == wide["root"] <= 800
    if case.startswith("mamma-mia"):
        left, right = (page.locator(s).bounding_box() for s in (".mm-left", ".mm-right"))
        assert left["x"] + left["width"] <= right["x"] and left["y"] == right["y"]


def test_a_ciottona_s_answers_show_beside_its_question_at_900_px(page, tmp_path):
    # Red's Ciottona: its question says among how many pairs of kinds; making it and sending it
    # back are in sight, not pushed out of the decision's region by a list of ten pairs of kinds.
    m = played("mamma-mia-plus", 6, 10, 235)
    _open(page, tw.widget(m, seat=m.state.to_move), tmp_path / "ciottona.html")
    page.set_viewport_size({"width": 900, "height": 800})
    found = page.evaluate("""() => {
      const dec = document.querySelector('.mm-decision').getBoundingClientRect();
      const q = document.querySelector('.mm-decision-q');
      // The lines of its words: the bottoms of the rectangles of its text (its seat's dot aside).
      const bottoms = new Set(), walk = document.createTreeWalker(q, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        const range = document.createRange(); range.selectNodeContents(t);
        for (const r of range.getClientRects()) if (r.width > 1) bottoms.add(Math.round(r.bottom));
      }
      const lines = bottoms.size;
      const whole = [...document.querySelectorAll('.mm-decision button')].filter((b) => {
        const r = b.getBoundingClientRect(); return r.top >= dec.top && r.bottom <= dec.bottom; }).map((b) => b.textContent);
      return {lines, whole: whole.slice(0, 2), question: q.textContent};
    }""")
    _shot(page, "ciottona-900")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert "among 10 pairs" in found["question"] and found["lines"] <= 3, found
    assert [t.split(",")[0].split(" under")[0] for t in found["whole"]] == ["Make it with pineapples and mushrooms", "Send it back"], found


def test_a_display_being_laid_shows_under_the_herd_to_everybody(page, tmp_path):
    # Bruno has named deer and put two cards face down: Ada sees who lays what, and two backs.
    m = played("mammuz", 4, 3, 26)
    _open(page, tw.widget(m, seat=0), tmp_path / "laying.html")
    found = page.evaluate("""() => ({
      status: document.querySelector('.mz-slot-status').textContent,
      head: document.querySelector('.mz-herd-box h4').textContent,
      backs: [...document.querySelectorAll('.mz-display-laying .mz-card')].map((c) => c.classList.contains('mz-back') && c.getBoundingClientRect().height >= 14),
    })""")
    _shot(page, "mammuz-laying-1280")
    assert found == {"status": "Bruno lays cards face down as a herd of deer: 2 so far.",
                     "head": "A new herd of deer", "backs": [True, True]}, found
    assert axe_problems(page, page.locator(".tw-root")) == []


def test_what_a_made_order_s_marks_mean_stays_in_the_table_s_region(page, tmp_path):
    # An order made from the table and its owner's hand: its cards' marks and what they mean.
    m = tw.Match("mamma-mia", seed=0, players=3)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(3)})
    made = next(f for f in m.frames(None) if f.kind == "made" and any(f.data["from_hand"].values())
                and any(f.data["from_table"].values()))
    _open(page, tw.widget(m, frame=(made.step, made.sub), replay=True), tmp_path / "made.html")
    seen = {}
    for width in (None, 900, 468, 360):
        _width(page, width)
        seen[width] = page.evaluate("""() => {
          const region = document.querySelector('.mm-slot-table').getBoundingClientRect();
          const legend = document.querySelector('.mm-legend');
          const r = legend.getBoundingClientRect();
          return {inside: r.top >= region.top && r.bottom <= region.bottom && r.right <= region.right + 0.5,
                  whole: legend.scrollWidth <= legend.clientWidth + 1 && legend.children.length === 2,
                  text: legend.textContent.trim()};
        }""")
        _shot(page, f"made-legend-{width or 1280}")
    assert all(s["inside"] and s["whole"] for s in seen.values()), seen


def test_the_pass_and_play_cover_hides_the_log_under_a_narrow_table_too(page, tmp_path):
    m = tw.Match("mammuz", seed=4, players=3)
    _open(page, tw.widget(m, seats=[0, 1], bots={2: "random"}), tmp_path / "pass.html")
    page.wait_for_selector(".tw-pass:not([hidden])")
    for width in (None, 468):
        _width(page, width)
        covered = page.evaluate("""() => {
          const c = document.querySelector('.tw-pass').getBoundingClientRect();
          const log = document.querySelector('.tw-log-box').getBoundingClientRect();
          return c.top <= log.top && c.bottom >= log.bottom && c.left <= log.left && c.right >= log.right;
        }""")
        _shot(page, f"pass-{width or 1280}")
        assert covered, width


def test_a_seat_to_move_right_after_its_turn_keeps_its_name_line_whole(page, tmp_path):
    # Yellow draws the Mamma Mia card from an empty supply: it just played, is to move (it empties
    # the oven) and holds the card; its name line has the badges of all three.
    from tabletop_widgets.games.mamma_mia import position
    classic = tw.make("mamma-mia", players=4)
    m = tw.Match(classic, state=position(
        classic, oven=[(0, "3 pineapple"), (1, "3 pepper"), (2, "4 mushroom"), (3, "2 salami")],
        hands={0: {"ingredients": {"olive": 2}}}, supply={}, to_move=0))
    m.play("put 1 olive; draw supply")
    _open(page, tw.widget(m, frame=(1, 0), replay=True), tmp_path / "again.html")
    cut = {}
    for width in (None, 1020, 900):
        _width(page, width)
        cut[width] = page.evaluate("""() => [...document.querySelectorAll('.mm-seat-name')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        _shot(page, f"to-move-again-{width or 1280}")
    assert cut == {None: [], 1020: [], 900: []}, cut
    line = page.locator(".mm-seat.mm-to-move .mm-seat-name")
    assert "just played" in line.inner_text() or "just played" in line.text_content()


def test_the_seat_that_just_played_says_so_in_words_while_another_is_to_move(page, tmp_path):
    # Yellow's turn is over and Blue is to move: Yellow's name line shows "just played" in sight
    # (a seat still to move after its own turn keeps only its dashed frame, the words for a
    # screen reader); beside a side panel (a 240 px players' region) the words are hidden too.
    m = tw.Match("mamma-mia", seed=3, players=4)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=1)
    assert m.state.to_move == 1
    _open(page, tw.widget(m, frame=(1, 0), replay=True), tmp_path / "just-played.html")
    seen = {}
    for width in (None, 848):
        _width(page, width)
        seen[width] = page.evaluate("""() => [...document.querySelectorAll('.mm-seat')].map((seat) => {
          const last = seat.querySelector('.mm-badge-last');
          const r = last.getBoundingClientRect();
          return [seat.querySelector('.mm-seat-name').textContent, !last.hidden, r.width > 20 && r.height > 10]; })""")
        _shot(page, f"just-played-{width or 1280}")
    wide = seen[None]
    assert [shown for _, shown, _ in wide] == [True, False, False, False], wide
    assert wide[0][2], wide
    assert seen[848][0][1] and not seen[848][0][2], seen[848]


def test_a_narrow_oven_marks_the_cards_just_played_without_the_badge_s_room(page, tmp_path):
    # At 1280 px every oven-log entry keeps room for a "new" badge; at 900 px the oven is too
    # narrow for it (most entries would wrap): the entries just played take a bar at their edge
    # and their tint, and "new" is still in the page for a screen reader (on those entries only).
    m = tw.Match("mamma-mia", seed=3, players=4)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=6)
    _open(page, tw.widget(m, frame=(6, 0), replay=True), tmp_path / "oven-log.html")
    marks = """() => [...document.querySelectorAll('.mm-log li')].map((li) => {
      const before = getComputedStyle(li, '::before');
      const text = li.querySelector('.mm-dot').getBoundingClientRect().left - li.getBoundingClientRect().left;
      return {isNew: li.classList.contains('mm-log-new'), text: Math.round(text), word: before.content,
              shown: before.content === '"new"' && before.visibility === 'visible' && before.clipPath === 'none',
              bar: getComputedStyle(li).boxShadow !== 'none'}; })"""
    seen = {}
    for width in (None, 900):
        _width(page, width)
        seen[width] = page.evaluate(marks)
        _shot(page, f"oven-log-{width or 1280}")
    wide, narrow = seen[None], seen[900]
    assert any(e["isNew"] for e in wide) and any(not e["isNew"] for e in wide), wide
    assert all(e["shown"] == e["isNew"] and not e["bar"] and e["text"] >= 30 for e in wide), wide
    assert all(not e["shown"] and e["bar"] == e["isNew"] and e["text"] <= 8 and (e["word"] == '"new"') == e["isNew"] for e in narrow), narrow


def test_a_display_that_must_be_challenged_says_so_in_the_status_line_s_room(page, tmp_path):
    # Step 41: a seat laid the last cards of its hand; the next must challenge it.
    m = tw.Match("mammuz", seed=0, players=3)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(3)}, max_steps=400)
    view = m.state_at(41).observe(None)
    assert view["phase"] == "respond" and view["hand_sizes"][view["displays"][-1]["seat"]] == 0
    _open(page, tw.widget(m, frame=(41, 0), replay=True), tmp_path / "must.html")
    seen = {}
    for width in (None, 900, 468, 360):
        _width(page, width)
        seen[width] = page.evaluate("""() => { const s = document.querySelector('.mz-slot-status');
          return [s.scrollHeight <= s.clientHeight + 1 && s.scrollWidth <= s.clientWidth + 1, s.textContent]; }""")
        _shot(page, f"must-challenge-{width or 1280}")
    assert all(fits and "must challenge" in text for fits, text in seen.values()), seen
    assert axe_problems(page, page.locator(".tw-root")) == []


def test_every_hand_of_the_all_seeing_view_keeps_its_last_card_whole_at_360_px(page, tmp_path):
    # A whole Plus game of four seen by all: rows of up to a dozen piles and orders.
    m = played("mamma-mia-plus", 4, 2, None)
    _open(page, tw.widget(m, replay=True), tmp_path / "every-hand.html")
    _width(page, 360)
    worst = page.evaluate("""() => {
      const slider = document.querySelector('.tw-slider'); let worst = [-999, -1];
      for (let i = 0; i <= Number(slider.max); i += 3) {
        slider.value = i; slider.dispatchEvent(new Event('input'));
        const slot = document.querySelector('.mm-slot-hand').getBoundingClientRect();
        for (const row of document.querySelectorAll('.mm-teaching .mm-hand-cards')) {
          const last = row.lastElementChild;
          if (last && last.getBoundingClientRect().right - slot.right > worst[0]) worst = [last.getBoundingClientRect().right - slot.right, i];
        }
      }
      slider.value = worst[1]; slider.dispatchEvent(new Event('input'));
      return worst;
    }""")
    _shot(page, "every-hand-360")
    assert worst[0] <= 0.5, worst

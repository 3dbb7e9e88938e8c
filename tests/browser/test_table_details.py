"""Details of the table a player or a teacher meets, measured in a real browser on pages that need
no kernel (live pages as tests/browser/live_page.py writes them, standalone replays): a Mamma
Mia decision fits its region at a laptop's widths, a hand card chosen by a click goes back into
its fan, the oven's log fades where its region cuts it, Mamba's board fills the table's box and
MammuZ's badges keep to one line. Screenshots go to ARTIFACTS."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import tabletop_widgets as tw
from conftest import ARTIFACTS
from lab_helpers import WALK_HEIGHTS, played
from live_page import live_page


@pytest.fixture(scope="module")
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    yield pg
    pg.close()


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"details-{name}.png"))


# The evaluation's middle region: nothing in it scrolls or lies outside it, the order being
# settled shows whole, and every answer of a short decision is in sight without scrolling.
DECISION = """() => {
  const r = (e) => e.getBoundingClientRect();
  const mid = document.querySelector('.mm-slot-middle'), dec = mid.querySelector('.mm-decision');
  const box = mid.querySelector('.mm-eval-box');
  const m = r(mid), d = r(dec), b = r(box);
  return {
    midOverflow: mid.scrollHeight - mid.clientHeight,
    evalCut: box.scrollHeight - box.clientHeight + Math.max(0, b.bottom - m.bottom),
    overlap: Math.max(0, d.bottom - b.top),
    hidden: [...dec.querySelectorAll('button')].filter((x) => { const q = r(x); return q.top < d.top || q.bottom > d.bottom; })
      .map((x) => x.textContent),
  };
}"""


def test_a_decision_fits_the_middle_region(page, tmp_path):
    # Brown's order lacks two cards he holds: make it adding them, or send it back.
    m = played("mamma-mia", 5, 15, 43)
    decision = m.state.observe(m.state.to_move)["evaluation"]["decision"]
    assert decision["seat"] == m.state.to_move and len(m.state.legal_actions()) == 2
    page.goto(live_page(tw.widget(m, seat=m.state.to_move), tmp_path / "decision.html").as_uri())
    page.wait_for_selector(".mm-decision button")
    found = {}
    for width in (1280, 900):
        page.set_viewport_size({"width": width, "height": 800})
        found[width] = page.evaluate(DECISION)
        _shot(page, f"decision-{width}")
    assert all(f == {"midOverflow": 0, "evalCut": 0, "overlap": 0, "hidden": []} for f in found.values()), found
    # Every answer in sight: no note of more below.
    assert page.evaluate(MORE)["shown"] is False


# The note at the foot of a decision that more answers lie below: shown or not, whether it sits
# at the decision's foot inside it, and its type size.
MORE = """() => {
  const dec = document.querySelector('.mm-decision'), note = dec.querySelector('.mm-decision-more > span');
  if (!note) return {shown: false, missing: true};
  const r = note.getBoundingClientRect(), d = dec.getBoundingClientRect();
  return {shown: getComputedStyle(note).visibility === 'visible' && r.height > 0, text: note.textContent,
          atFoot: r.bottom <= d.bottom && d.bottom - r.bottom <= 6 && r.top >= d.top, px: parseFloat(getComputedStyle(note).fontSize)};
}"""


def test_a_long_list_of_answers_says_more_lie_below(page, tmp_path):
    # Red's Ciottona: a kind to choose for it, then the ways to make it or ask for help, 97 answers.
    m = played("mamma-mia-plus", 6, 10, 235)
    assert len(m.state.legal_actions()) > 50
    page.goto(live_page(tw.widget(m, seat=m.state.to_move), tmp_path / "long-decision.html").as_uri())
    page.wait_for_selector(".mm-decision button")
    seen = {}
    for width in (1280, 900):
        page.set_viewport_size({"width": width, "height": 800})
        seen[width] = page.evaluate(MORE)
        _shot(page, f"long-decision-{width}")
    assert all(s["shown"] and s["atFoot"] and s["px"] >= 11 and "more" in s["text"].lower() for s in seen.values()), seen
    # Sending the order back comes right after making it, not under the 95 asks.
    answers = page.locator(".mm-decision button").all_inner_texts()
    assert answers[0].startswith("Make it") and answers[1].startswith("Send it back"), answers[:3]
    from lab_helpers import axe_problems
    assert axe_problems(page, page.locator(".tw-root")) == []
    # Scrolled to its last answer ("send it back"), the list says nothing more.
    page.evaluate("() => { const d = document.querySelector('.mm-decision'); d.scrollTop = d.scrollHeight; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(MORE)["shown"] is False


def test_a_hand_card_chosen_by_a_click_goes_back_into_its_fan(page, tmp_path):
    m = played("mamma-mia-plus", 6, 3, 30)
    me = m.state.to_move
    page.goto(live_page(tw.widget(m, seat=me, bots={s: "random" for s in range(6) if s != me}), tmp_path / "hand.html").as_uri())
    page.set_viewport_size({"width": 900, "height": 800})
    covered = page.locator(".mm-hand-cards > .mm-hand-order:not(:last-child) button.mm-order:not(:disabled)")
    covered.first.wait_for()
    # Its spine is what shows of a covered card: the click lands there.
    covered.first.click(position={"x": 6, "y": 40})
    page.mouse.move(2, 2)
    chosen = page.evaluate("""() => { const b = document.querySelector('.mm-hand-cards button.mm-order[aria-pressed="true"]');
      return {focused: document.activeElement === b, layout: getComputedStyle(b).flexDirection,
              z: getComputedStyle(b.parentElement).zIndex}; }""")
    _shot(page, "hand-chosen")
    # Chosen and still focused, it lies in the fan again (its spine, under the next card).
    assert chosen == {"focused": True, "layout": "row", "z": "auto"}, chosen
    # The keyboard's focus still brings a covered card forward.
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => getComputedStyle(document.activeElement).flexDirection") == "column"


def test_the_oven_log_fades_where_its_region_cuts_it(page, tmp_path):
    path = tmp_path / "oven.html"
    played("mamma-mia", 4, 5, 30).to_html(path)
    page.goto(path.as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".mm-log li")
    log = page.evaluate(r"""() => {
      const log = document.querySelector('.mm-log'), mask = getComputedStyle(log).maskImage || getComputedStyle(log).webkitMaskImage;
      const overflows = log.scrollHeight > log.clientHeight + 1;
      log.scrollTop = log.scrollHeight;
      const last = log.lastElementChild.getBoundingClientRect(), box = log.getBoundingClientRect();
      // The fade is opaque down to 20 px above the foot: the oldest entry, scrolled to, stands above it.
      return {overflows, fades: /gradient.*rgba\(0, 0, 0, 0\)/.test(mask), clear: box.bottom - last.bottom >= 16};
    }""")
    assert log == {"overflows": True, "fades": True, "clear": True}, log


def test_mamba_s_board_fills_the_table_s_box_at_every_width(page, tmp_path):
    path = tmp_path / "mamba.html"
    played("mamba", 4, 1, 20).to_html(path)
    page.goto(path.as_uri())
    page.wait_for_selector(".tw-root svg.mamba-board")
    bands = {}
    for width in (1280, 1000, 900, 800):
        page.set_viewport_size({"width": width, "height": 800})
        bands[width] = page.evaluate("""() => {
          const box = document.querySelector('.tw-board').getBoundingClientRect();
          const board = document.querySelector('.board-host').getBoundingClientRect();
          const side = document.querySelector('.mamba-side').getBoundingClientRect();
          return {band: Math.round(box.bottom - board.bottom), right: Math.round(side.right - box.right)};
        }""")
        _shot(page, f"mamba-{width}")
    # Under the board no band wider than its focus ring; the seats stay inside the table.
    assert all(0 <= b["band"] <= 6 and b["right"] <= 0 for b in bands.values()), bands


def test_mammuz_badges_keep_to_one_line_inside_their_seat(page, tmp_path):
    path = tmp_path / "mammuz.html"
    m = played("mammuz", 6, 5, 83)
    m.to_html(path, seat=5)
    page.goto(path.as_uri())
    page.wait_for_selector(".mz-seat")
    page.evaluate("() => { const s = document.querySelector('.tw-slider'); s.value = 40; s.dispatchEvent(new Event('input')); }")
    found = {}
    for width in (1280, 900, 800):
        page.set_viewport_size({"width": width, "height": 800})
        found[width] = page.evaluate("""() => [...document.querySelectorAll('.mz-seat .mz-badge')].map((b) => {
          const r = b.getBoundingClientRect(), seat = b.closest('.mz-seat').getBoundingClientRect();
          return {text: b.textContent, lines: r.height < 2 * parseFloat(getComputedStyle(b).fontSize) ? 1 : 2,
                  rects: b.getClientRects().length, inside: r.right <= seat.right - 2 && r.left >= seat.left};
        })""")
        _shot(page, f"mammuz-{width}")
    texts = {b["text"] for f in found.values() for b in f}
    assert "herd starter" in texts, texts
    assert [(w, b) for w, f in found.items() for b in f if b["rects"] != 1 or not b["inside"] or b["lines"] > 1] == []


# Every frame of an all-seeing replay: the hands' region shows a row per seat without scrolling,
# no row runs past the region, each covered order keeps an edge in sight, no text under 11 px.
# In a narrow table (orders show their recipes alone), a row with the room for every covered
# order's first count and icon shows them all ("roomy" counts such rows, "unread" the orders cut).
EVERY_HAND = """() => {
  const s = document.querySelector('.tw-slider'), out = {frames: 0, scrolls: [], rows: new Set(), cut: [], edges: [], small: [],
                                                        withCovered: 0, roomy: 0, unread: []};
  const narrow = innerWidth < 1000;
  const firstLine = (item) => item.querySelector('.mm-recipe-line .mm-icon').getBoundingClientRect().right - item.getBoundingClientRect().left;
  for (let i = 0; i <= Number(s.max); i++) {
    s.value = i; s.dispatchEvent(new Event('input'));
    const hands = document.querySelector('.mm-slot-hand > .mm-hand.mm-teaching');
    if (!hands) continue;
    out.frames++;
    if (hands.scrollHeight > hands.clientHeight + 1) out.scrolls.push(i);
    const rows = [...hands.querySelectorAll('.mm-hand-cards')];
    out.rows.add(rows.length);
    for (const row of rows) {
      const box = row.getBoundingClientRect();
      if (row.scrollWidth > row.clientWidth + 1 || box.bottom > hands.getBoundingClientRect().bottom + 1) out.cut.push(i);
      const items = [...row.children];
      items.forEach((item, k) => {
        const next = items[k + 1], r = item.getBoundingClientRect();
        if (next && next.getBoundingClientRect().left - r.left < 8) out.edges.push(`${i}: ${item.textContent}`);
      });
      const covered = items.slice(0, -1).filter((x) => x.classList.contains('mm-hand-order'));
      if (!narrow || !covered.length) continue;
      out.withCovered++;
      const first = new Map(covered.map((x) => [x, Math.min(x.scrollWidth, firstLine(x))]));
      if (items.reduce((a, x) => a + (first.get(x) ?? x.scrollWidth), 0) > row.clientWidth) continue;
      out.roomy++;
      for (const x of covered) {
        if (x.nextElementSibling.getBoundingClientRect().left - x.getBoundingClientRect().left < first.get(x) - 0.5) out.unread.push(`${i}: ${x.textContent}`);
      }
    }
    if (i % 25 === 0) {
      for (const e of hands.querySelectorAll('*')) {
        if ([...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && e.getClientRects().length
            && parseFloat(getComputedStyle(e).fontSize) < 11) out.small.push(e.textContent);
      }
    }
  }
  out.rows = [...out.rows];
  return out;
}"""


def test_the_all_seeing_view_shows_every_hand_at_once(page, tmp_path):
    path = tmp_path / "every-hand.html"
    played("mamma-mia-plus", 6, 5, 150).to_html(path)
    page.goto(path.as_uri())
    page.wait_for_selector(".mm-hand.mm-teaching")
    for width in (1280, 900):
        page.set_viewport_size({"width": width, "height": 800})
        found = page.evaluate(EVERY_HAND)
        assert found["frames"] > 100 and found["rows"] == [6], found
        assert {k: found[k][:5] for k in ("scrolls", "cut", "edges", "small", "unread")} == {"scrolls": [], "cut": [], "edges": [], "small": [], "unread": []}
        if width == 900:
            # Most rows have that room once the covered orders share it equally.
            assert found["roomy"] >= 0.6 * found["withCovered"], found
        page.evaluate("() => { const s = document.querySelector('.tw-slider'); s.value = 60; s.dispatchEvent(new Event('input')); }")
        _shot(page, f"every-hand-{width}")


def test_a_big_hand_in_a_narrow_table_keeps_to_its_region(page, tmp_path):
    # Two-player Plus: hands of fourteen cards; at 900 px every card but the last is down to its
    # edge and the last gives up width too, rather than run past the region.
    path = tmp_path / "big-hand.html"
    played("mamma-mia-plus", 2, 5, 150).to_html(path, seat=1)
    page.goto(path.as_uri())
    page.set_viewport_size({"width": 900, "height": 800})
    page.wait_for_selector(".mm-hand-cards")
    found = page.evaluate("""() => {
      const s = document.querySelector('.tw-slider'), out = {past: [], most: 0};
      for (let i = 0; i <= Number(s.max); i++) {
        s.value = i; s.dispatchEvent(new Event('input'));
        const row = document.querySelector('.mm-hand-cards');
        if (!row) continue;
        out.most = Math.max(out.most, row.children.length);
        const last = row.lastElementChild.getBoundingClientRect(), box = row.getBoundingClientRect();
        if (row.scrollWidth > row.clientWidth + 1 || last.right > box.right + 1) out.past.push(i);
      }
      return out;
    }""")
    assert found["most"] >= 13 and found["past"] == [], found
    _shot(page, "big-hand-900")


def test_the_game_log_keeps_its_current_entry_whole_above_its_faded_foot(page, tmp_path):
    path = tmp_path / "log.html"
    played("mammuz", 3, 5, 400).to_html(path, seat=0)
    page.goto(path.as_uri())
    page.wait_for_selector(".tw-log-current")
    shown = {}
    # The replay opens on its last frame, then the column narrows (a notebook's side panel
    # opens): the entries wrap onto more lines and the current one is scrolled back into view.
    for width in (1280, 900):
        page.set_viewport_size({"width": width, "height": 800})
        # The log is scrolled on the next animation frame after it is resized: wait for it.
        try:
            page.wait_for_function("""() => { const l = document.querySelector('.tw-log');
              const c = l.querySelector('.tw-log-current').getBoundingClientRect(), b = l.getBoundingClientRect();
              return c.top >= b.top && b.bottom - c.bottom >= 18; }""", timeout=5000)
        except PlaywrightTimeout:
            pass  # the check below says what is wrong
        shown[width] = page.evaluate(r"""() => {
          const log = document.querySelector('.tw-log'), box = log.getBoundingClientRect();
          const current = log.querySelector('.tw-log-current').getBoundingClientRect();
          return {fades: /gradient.*rgba\(0, 0, 0, 0\)/.test(getComputedStyle(log).maskImage),
                  whole: current.top >= box.top && box.bottom - current.bottom >= 18};
        }""")
        _shot(page, f"log-{width}")
    assert shown == {1280: {"fades": True, "whole": True}, 900: {"fades": True, "whole": True}}, shown


# The entry at the log's head (the first whose foot lies below the head's fade) and where it starts.
LOG_HEAD = r"""() => {
  const log = document.querySelector('.tw-log'), box = log.getBoundingClientRect();
  const head = [...log.children].find((li) => li.getBoundingClientRect().bottom > box.top + 16);
  return {top: Math.round(head.getBoundingClientRect().top - box.top), text: head.textContent.slice(0, 40),
          fades: /^linear-gradient\(rgba\(0, 0, 0, 0\)/.test(getComputedStyle(log).maskImage)};
}"""


# Once the log has moved and then kept still for 200 ms (a scroll's last glide is over): its head.
REST = f"""async () => {{
  const log = document.querySelector('.tw-log'), start = log.scrollTop, wait = () => new Promise((r) => setTimeout(r, 25));
  let last = start, still = 0;
  for (let i = 0; i < 120 && (last === start || still < 8); i++) {{
    await wait();
    still = log.scrollTop === last ? still + 1 : 0;
    last = log.scrollTop;
  }}
  return ({LOG_HEAD})();
}}"""


def test_a_scrolled_log_rests_with_its_head_entry_whole(page, tmp_path):
    path = tmp_path / "log-scrolled.html"
    played("mammuz", 3, 5, 400).to_html(path, seat=0)
    page.goto(path.as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".tw-log-current")
    page.hover(".tw-log")
    heads = []
    # A person scrolls the log back with the mouse wheel, a notch at a time: each time it comes
    # to rest with an entry's top at its head, under the head's fade, not with a line cut in half.
    for _ in range(3):
        page.mouse.wheel(0, -100)
        heads.append(page.evaluate(REST))
    _shot(page, "log-scrolled")
    assert all(h["fades"] and h["top"] >= 13 for h in heads), heads
    assert len({h["text"] for h in heads}) == 3, heads


def test_a_card_chosen_in_the_all_seeing_rows_stays_whole_in_its_row(page, tmp_path):
    m = played("mamma-mia-plus", 6, 3, 30)
    me = m.state.to_move
    page.goto(live_page(tw.widget(m, bots={s: "random" for s in range(6) if s != me}), tmp_path / "every-hand-live.html").as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    pile = page.locator(".mm-teaching .mm-hand-group button.mm-card:not(:disabled)").first
    pile.click()
    page.mouse.move(2, 2)
    found = page.evaluate("""() => {
      const card = document.querySelector('.mm-teaching button.mm-card[aria-pressed="true"]');
      const row = card.closest('.mm-hand-cards').getBoundingClientRect(), box = card.getBoundingClientRect();
      const tick = getComputedStyle(card, '::after');
      const t = {left: box.left + card.clientLeft + parseFloat(tick.left), top: box.top + card.clientTop + parseFloat(tick.top)};
      t.right = t.left + parseFloat(tick.width); t.bottom = t.top + parseFloat(tick.height);
      const covered = [...card.querySelectorAll('.mm-icon, .mm-count')].filter((part) => {
        const r = part.getBoundingClientRect();
        return r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
      }).map((part) => part.getAttribute('class'));
      return {inRow: box.top >= row.top - 0.5 && box.bottom <= row.bottom + 0.5, covered};
    }""")
    _shot(page, "every-hand-chosen")
    assert found == {"inRow": True, "covered": []}, found


def test_the_oven_log_keeps_its_icons_whole_beside_a_long_entry(page, tmp_path):
    # "left on the table from the last oven: 2 peppers": a long entry beside its icon, which
    # a flex row would squeeze to a dot.
    path = tmp_path / "icons.html"
    played("mamma-mia", 4, 5, 400).to_html(path)
    page.goto(path.as_uri())
    page.set_viewport_size({"width": 900, "height": 800})
    page.wait_for_selector(".mm-log li")
    smallest = page.evaluate("""() => {
      const s = document.querySelector('.tw-slider'); let least = 99;
      for (let i = 0; i <= Number(s.max); i += 3) {
        s.value = i; s.dispatchEvent(new Event('input'));
        for (const icon of document.querySelectorAll('.mm-log li .mm-icon')) least = Math.min(least, icon.getBoundingClientRect().width);
      }
      return least;
    }""")
    assert smallest == 16


def test_the_mark_on_an_order_s_back_reads_on_every_seat_s_colour(page, tmp_path):
    from lab_helpers import _contrast, _rgb

    path = tmp_path / "backs.html"
    played("mamma-mia", 4, 5, 30).to_html(path)
    page.goto(path.as_uri())
    page.wait_for_selector(".tw-slider")
    marks = page.evaluate("""() => {
      const s = document.querySelector('.tw-slider'), out = {};
      for (let i = 0; i <= Number(s.max); i++) {
        s.value = i; s.dispatchEvent(new Event('input'));
        for (const mark of document.querySelectorAll('.mm-back-order .mm-back-mark')) {
          const cs = getComputedStyle(mark);
          out[getComputedStyle(mark.parentElement).getPropertyValue('--mm-seat').trim()] = [cs.color, cs.backgroundColor];
        }
      }
      return out;
    }""")
    assert len(marks) >= 3, marks
    # The stripes' lightest part is near white: the patch over white is the worst case.
    assert {seat: round(_contrast(_rgb(fg), _rgb(bg)), 1) for seat, (fg, bg) in marks.items() if _contrast(_rgb(fg), _rgb(bg)) < 4.5} == {}


def test_the_oven_being_emptied_fills_the_middle_region(page, tmp_path):
    path = tmp_path / "emptying.html"
    played("mamma-mia-plus", 4, 5, 150).to_html(path, seat=2)
    page.goto(path.as_uri())
    page.wait_for_selector(".tw-slider")
    gaps = page.evaluate("""() => {
      const s = document.querySelector('.tw-slider'), out = {frames: 0, gaps: []};
      for (let i = 0; i <= Number(s.max); i++) {
        s.value = i; s.dispatchEvent(new Event('input'));
        const box = document.querySelector('.mm-slot-middle > .mm-eval-box');
        if (!box) continue;
        out.frames++;
        const gap = document.querySelector('.mm-slot-middle').getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
        if (gap > 1) out.gaps.push([i, Math.round(gap)]);
      }
      return out;
    }""")
    assert gaps["frames"] > 20 and gaps["gaps"][:5] == [], gaps


def test_a_narrow_widget_puts_its_log_under_the_table(page, tmp_path):
    # A notebook at 900 px beside its file browser: the widget is 468 px wide, whatever the
    # window's width. The log goes under the table, the bar's controls stay inside the widget
    # and the table keeps its columns.
    m = played("mamma-mia", 3, 3, 40)
    me = m.state.to_move
    page.goto(live_page(tw.widget(m, seat=me, bots={s: "random" for s in range(3) if s != me}), tmp_path / "narrow.html").as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.add_style_tag(content="#host { width: 468px; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    found = page.evaluate("""() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      const root = r('.tw-root');
      return {logUnder: r('.tw-log-box').top >= r('.tw-main').bottom,
              barPast: [...document.querySelectorAll('.tw-bar > *')].filter((c) => c.getBoundingClientRect().right > root.right - 8).map((c) => c.className),
              slider: r('.tw-slider').width >= 150, table: r('.mm-slot-table').width >= 200};
    }""")
    _shot(page, "narrow-468")
    assert found == {"logUnder": True, "barPast": [], "slider": True, "table": True}, found


def test_the_mamba_board_reached_by_the_keyboard_shows_its_cursor_on_a_stone_to_move(page, tmp_path):
    m = tw.Match("mamba", seed=3)
    page.goto(live_page(tw.widget(m, seat=0, bots={1: "random"}), tmp_path / "mamba-keys.html").as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".board-host [data-cell]")
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('board-host')"):
            break
    cursor = "() => { const c = document.querySelector('.board-host [data-cell].focus'); return c && [c.dataset.cell, c.classList.contains('pickable')]; }"
    reached = page.evaluate(cursor)
    page.keyboard.press("Enter")
    picked = page.evaluate("() => [...document.querySelectorAll('.board-host [data-cell].selected')].map((c) => c.dataset.cell)")
    _shot(page, "mamba-keys")
    # The cursor shows at once on one of South's stones, and Enter picks that stone.
    assert reached and reached[1] and picked == [reached[0]], (reached, picked)


def test_a_hand_of_cards_to_choose_is_named_by_what_it_shows(page, tmp_path):
    # A classic turn: a pile of two peppers (its count drawn on its top card), names that break
    # at a soft hyphen ("Pine-apple") and an order to choose. Each button's name starts with
    # what it shows, as a voice command says it; axe-core's label-content-name-mismatch agrees.
    from lab_helpers import axe_problems

    m = tw.Match("mamma-mia", seed=4, players=3)
    page.goto(live_page(tw.widget(m, seat=0, bots={1: "random", 2: "random"}), tmp_path / "turn.html").as_uri())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".mm-hand-cards button")
    named = {n: page.get_by_role("button", name=n, exact=True).count()
             for n in ("Pepper: put 2 peppers into the oven", "Pine\u00adapple: put 1 pineapple into the oven", "Normale 4× peppers 1× pineapple")}
    assert named == dict.fromkeys(named, 1), named
    assert axe_problems(page, page.locator(".tw-root")) == []


# Every frame of the game shown (the slider walked), the seats' lines whose words or numbers
# their box cuts: Mamma Mia's facts ("waiter 14 delivered 0 hand 8+1"), MammuZ's claims of the
# herd's earlier displays ("Bruno claims 4 gophers").
WALK_CUT_LINES = """(root) => {
  const slider = root.querySelector('.tw-slider');
  const cut = new Set();
  for (let i = 0; i <= Number(slider.max); i++) {
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    for (const e of root.querySelectorAll('.mm-seat-facts, .mm-seat-facts > span, .mz-display-head')) {
      if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) cut.add(e.textContent);
    }
  }
  return [...cut].sort();
}"""


@pytest.mark.parametrize("name, players, seed, bot", [("mamma-mia-plus", 6, 1, "chef"), ("mamma-mia", 5, 2, "chef"),
                                                        ("mammuz", 4, 3, "skeptic"), ("mammuz", 6, 1, "random")])
def test_beside_lab_s_file_browser_a_seat_s_lines_stay_whole(page, tmp_path, name, players, seed, bot):
    # A notebook beside JupyterLab's file browser on a 1280 px screen gives the widget 848 px:
    # Mamma Mia's players' region is 240 px ("hand 8+1" of a six-player Plus seat lost its "1"),
    # MammuZ's herd 362 px (its earlier displays read "Bruno claims 4 gop…"; five of them in a row
    # now read "Carla claims 1", the kind being the herd's heading's).
    m = tw.Match(name, seed=seed, players=players)
    m.autoplay({s: bot for s in range(players)})
    page.goto(live_page(tw.widget(m, seat=0), tmp_path / f"{name}.html").as_uri())
    page.wait_for_selector(".tw-board > *")
    page.evaluate("() => { document.getElementById('host').style.width = '848px'; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    region = page.locator(".mm-slot-seats, .mz-slot-herd").first.bounding_box()
    assert region["width"] < (260 if name.startswith("mamma") else 440), region  # the narrow regions this is about
    assert page.locator(".tw-root").evaluate(WALK_CUT_LINES) == []
    heights = page.locator(".tw-root").evaluate(WALK_HEIGHTS)
    assert max(heights) - min(heights) <= 2, sorted(set(heights))
    page.locator(".tw-slider").evaluate("(s) => { s.value = 0; s.dispatchEvent(new Event('input')); }")
    _shot(page, f"{name}-{players}-facts-848")


@pytest.mark.parametrize("name, seat", [("mamma-mia-plus", None), ("mammuz", 4), ("mamba", None)])
def test_beside_lab_s_file_browser_the_header_s_notes_read_whole(page, tmp_path, name, seat):
    # A teaching replay at 848 px: the view's note and the replay's keep to the header's line,
    # whole (they read "All-seeing view: every hidden card and c…", "Replay: step through it;
    # nothing is …"), and the header keeps its one line.
    m = tw.Match(name, seed=2, players=6) if name != "mamba" else tw.Match(name, seed=2)
    m.autoplay({s: "random" for s in range(6 if name != "mamba" else 2)}, max_steps=5)
    page.goto(live_page(tw.widget(m, seat=seat, replay=True), tmp_path / f"{name}.html").as_uri())
    page.wait_for_selector(".tw-board > *")
    page.evaluate("() => { document.getElementById('host').style.width = '848px'; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    notes = page.evaluate("""() => [...document.querySelectorAll('.tw-view-note, .tw-replay-note')]
        .map((n) => [n.textContent, n.offsetWidth > 0 && n.scrollWidth <= n.clientWidth + 1])""")
    assert len(notes) == 2 and all(whole for _, whole in notes), notes
    header = page.locator(".tw-header").bounding_box()
    assert header["height"] < 30, header
    page.locator(".tw-header").screenshot(path=str(ARTIFACTS / f"details-header-{name}-848.png"))


@pytest.mark.parametrize("width", [None, 848, 560])
def test_mammuz_s_hand_stays_put_when_the_seat_s_turn_comes(page, tmp_path, width):
    # Ada's turn comes after three bots' lays: her composer shows under her hand, and the hand
    # does not move (it jumped 91 px up as the herd's region gave the composer its room; in a
    # narrow table, where the regions stand in one column, 115 px).
    m = tw.Match("mammuz", seed=0, players=4)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=5)
    assert m.state.to_move == 0
    page.set_viewport_size({"width": 1280, "height": 800})  # the page is shared by this file's tests
    page.goto(live_page(tw.widget(m, seat=0), tmp_path / "turn.html").as_uri())
    page.wait_for_selector(".mz-composer")
    page.evaluate("(w) => { document.getElementById('host').style.width = w; }", f"{width}px" if width else "")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    places = page.locator(".tw-root").evaluate("""(root) => {
      const slider = root.querySelector('.tw-slider'), seen = [];
      for (let i = 0; i <= Number(slider.max); i++) {
        slider.value = i;
        slider.dispatchEvent(new Event('input'));
        const hands = root.querySelector('.mz-slot-hands').getBoundingClientRect();
        seen.push([!!root.querySelector('.mz-composer'), Math.round(hands.top), Math.round(root.querySelector('.mz-slot-herd').getBoundingClientRect().bottom)]);
      }
      return seen;
    }""")
    assert places[-1][0] and not places[0][0], places  # the composer at Ada's turn only
    columns = page.locator(".mz-root").evaluate("(root) => getComputedStyle(root).gridTemplateColumns.split(' ').length")
    assert (columns == 1) == (width == 560), columns  # 560 px: the narrow table's one column
    assert len({top for _, top, _ in places}) == 1, places
    assert len({bottom for _, _, bottom in places}) == 1, places
    page.locator(".tw-root").screenshot(path=str(ARTIFACTS / f"details-mammuz-turn-{width or 1280}.png"))

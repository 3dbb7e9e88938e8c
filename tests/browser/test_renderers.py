"""The games' drawing in a real browser, on standalone replays of whole games (no kernel, so a
few seconds a game): one footprint over every frame, a laptop screen's size, every seat and
every hand card in sight without scrolling, last-move marks on the frames that call for them,
colour roles that never share a colour, cards whose labels fit and whose text is at least
11 px, and axe-core (bundled from npm, no network) with no serious or critical violation in
light and dark. One page per game: the dark theme is the same page with its colour scheme
switched. Screenshots of each game go to ARTIFACTS (kept with TW_BROWSER_ARTIFACTS)."""

from __future__ import annotations

import json

import pytest

import tabletop_widgets as tw
from conftest import ARTIFACTS, ROOT
from lab_helpers import check_colour_roles

AXE = ROOT / "js" / "node_modules" / "axe-core" / "axe.min.js"

# (game, players, seat): the biggest tables (six seats: a player's own view and the all-seeing
# view) and smaller ones.
CASES = [
    ("mamba", 4, None),
    ("mamma-mia", 5, 2),
    ("mamma-mia-plus", 6, 5),
    ("mammuz", 6, None),
    ("mammuz", 3, 1),
]

# Every frame of the replay, one after the other, as the slider shows them: the root's height,
# where the controls are, and the marks each frame carries.
WALK = """(limit) => {
  const root = document.querySelector('.tw-root');
  const slider = root.querySelector('.tw-slider');
  const data = JSON.parse(document.getElementById('tw-replay-data').textContent);
  const out = [];
  const n = Math.min(Number(slider.max), limit);
  for (let i = 0; i <= n; i++) {
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    const bar = root.querySelector('.tw-bar').getBoundingClientRect();
    const f = data.frames[i];
    const count = (sel) => root.querySelectorAll(sel).length;
    // Regions that would need scrolling to show a seat, a hand's card or a display of the herd.
    const scrolls = [...root.querySelectorAll(SCROLL_FREE)]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
      .map((e) => e.className.split(' ').slice(0, 2).join(' '));
    out.push({
      i, kind: f.kind, data: f.data, step: f.step, sub: f.sub, scrolls, fans: FANS(root), cut: CUT(root),
      height: root.getBoundingClientRect().height, barTop: bar.top, barWidth: bar.width,
      marks: {
        to: count('.mamba-board .cell.to'), path: count('.mamba-board .move-path'),
        born: count('.born-ring'), turned: count('.turned-ring'), ends: count('.end-mark, .cell.trim-end'),
        logNew: count('.mm-log li.mm-log-new'), justPlayed: count('.mm-last-turn .mm-just-played'),
        lastLay: count('.mz-display-last .mz-last-badge'), challenged: count('.mz-display .mz-challenged'),
      },
    });
  }
  return out;
}"""

# Regions whose whole content must show without scrolling: the seats, each hand's row, a
# seat's own hand region (MammuZ's all-seeing view: every hand), the oven being emptied (the
# decision, the revealed cards, the order being settled) and MammuZ's herd.
SCROLL_FREE = ", ".join([
    ".mm-slot-seats", ".mz-slot-seats", ".mm-hand-cards", ".mz-hand", ".mm-slot-middle",
    ".mm-slot-hand > .mm-hand:not(.mm-teaching)", ".mz-slot-hands", ".mz-slot-herd",
])

# Fanned cards, in the frame shown: the oven's revealed cards stay inside their strip and off the
# order being settled (the oldest may be cut at the strip's left edge), the newest whole; each covered card of a hand shows a name that is not
# cut by the card over it (an order's name; a pile's or a MammuZ card's when it shows one), at
# 11 px or more.
FANS = """(root) => {
  const out = [];
  // Where the cards come to rest: a card flying into place is measured at its place.
  document.getAnimations().forEach((a) => a.finish());
  const r = (e) => e.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  for (const strip of root.querySelectorAll('.mm-revealed')) {
    const s = r(strip), box = r(strip.closest('.mm-eval-box'));
    const settle = strip.parentElement.querySelector('.mm-settle');
    if (!inside(s, box)) out.push('revealed strip outside the oven box');
    if (settle && r(settle).left < s.right - 1) out.push('revealed strip under the order being settled');
    const cards = [...strip.children];
    cards.forEach((c, i) => {
      const b = r(c);
      if (b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1) out.push(`revealed card ${i} of ${cards.length} outside its strip`);
    });
    const newest = cards[cards.length - 1];
    if (newest && !inside(r(newest), s)) out.push('the newest revealed card is not whole');
  }
  for (const hand of root.querySelectorAll('.mm-hand-cards, .mz-hand')) {
    const items = [...hand.children];
    items.forEach((item, i) => {
      const next = items[i + 1];
      const edge = next ? r(next).left : Infinity;
      const names = [...item.querySelectorAll('.mm-order-name, .mm-card:last-child .mm-card-name, .mz-card-name')]
        .filter((n) => getComputedStyle(n).visibility !== 'hidden' && n.getClientRects().length);
      if (item.matches('.mm-hand-order') && !names.length) out.push(`hand order ${i} shows no name`);
      for (const n of names) {
        const b = r(n);
        if (b.right > edge + 1) out.push(`hand card ${i}: "${n.textContent}" cut by the next card`);
        if (parseFloat(getComputedStyle(n).fontSize) < 11) out.push(`hand card ${i}: "${n.textContent}" under 11 px`);
        if (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1) out.push(`hand card ${i}: "${n.textContent}" overflows`);
      }
    });
  }
  return out;
}"""
# Parts of the table drawn outside the region that holds them (so cut off): Mamma Mia's table
# columns, one per kind.
CUT = """(root) => {
  const slot = root.querySelector('.mm-slot-table');
  if (!slot) return [];
  const box = slot.getBoundingClientRect();
  return [...slot.querySelectorAll('.mm-column')].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1;
  }).map((c) => c.dataset.kind || c.textContent.slice(0, 12));
}"""
WALK = (WALK.replace("SCROLL_FREE", repr(SCROLL_FREE)).replace("FANS(root)", f"({FANS})(root)")
        .replace("CUT(root)", f"({CUT})(root)"))

# The colour of each role, from the first frames that show it, and the page's backgrounds. The
# selection is drawn on a pressed card button put in the hand row (a replay offers no choice;
# the JupyterLab tests press real ones), the legal target on an enabled one.
ROLES = """(limit) => {
  const root = document.querySelector('.tw-root');
  const slider = root.querySelector('.tw-slider');
  const found = {};
  const style = (sel, prop) => { const n = root.querySelector(sel); return n ? getComputedStyle(n)[prop] : null; };
  // A mark drawn as an outline (its colour and style), else as a box-shadow ring.
  const ring = (n) => {
    const cs = getComputedStyle(n);
    return cs.outlineStyle !== 'none' ? [cs.outlineColor, cs.outlineStyle] : [cs.boxShadow, 'ring'];
  };
  const probe = (rowSel, cls, pressed) => {
    const row = root.querySelector(rowSel);
    if (!row) return null;
    const b = document.createElement('button');
    b.className = cls;
    if (pressed) b.setAttribute('aria-pressed', 'true');
    row.append(b);
    const found = ring(b);
    b.remove();
    return found;
  };
  const want = (name, value, shape) => { if (value && !(name in found)) found[name] = [value, shape]; };
  const n = Math.min(Number(slider.max), limit);
  for (let i = 0; i <= n; i++) {
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    if (root.querySelector('.mm-root')) {
      want('turn', style('.mm-seat.mm-to-move', 'boxShadow'), 'ring');
      want('last', style('.mm-just-played', 'outlineColor'), style('.mm-just-played', 'outlineStyle'));
      if (!found.players) found.players = [...root.querySelectorAll('.mm-seat')].map((e) => getComputedStyle(e).borderTopColor);
      const choice = probe('.mm-hand-cards', 'mm-card', true);
      if (choice) want('choice', ...choice);
    } else {
      want('turn', style('.mz-seat.mz-to-move', 'borderTopColor'), 'ring');
      want('last', style('.mz-display-last', 'borderTopColor'), style('.mz-display-last', 'borderTopStyle'));
      const challenged = root.querySelector('.mz-challenged');
      if (challenged) want('challenged', ...ring(challenged));
      const choice = probe('.mz-hand', 'mz-card', true);
      if (choice) want('choice', ...choice);
      const target = probe('.mz-display-last .mz-display-cards', 'mz-card', false);
      if (target) want('target', ...target);
    }
    if (['turn', 'last', 'choice'].every((k) => k in found) && (root.querySelector('.mm-root') || 'challenged' in found)) break;
  }
  const bg = (sel) => getComputedStyle(root.querySelector(sel)).backgroundColor;
  const game = root.querySelector('.mm-root, .mz-root');
  found.backgrounds = [getComputedStyle(game).backgroundColor, bg('.mm-section, .mz-section')];
  return found;
}"""

# Text under 11 px, and card labels wider than their box, in the frame shown.
LEGIBILITY = """() => {
  const root = document.querySelector('.tw-root');
  const small = [], overflow = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('svg, .tw-sr-only, [hidden]')) continue;
    if (!el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 11) small.push(`${size}px: ${node.textContent.trim().slice(0, 30)}`);
  }
  for (const el of root.querySelectorAll('.mm-card-name, .mm-mammamia-text, .mm-order-name, .mm-spine, .mz-card-name, .mm-mm-chip')) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) overflow.push(el.textContent);
  }
  return {small, overflow};
}"""

# The axe-core rules that read colours: all that can change when only the colour scheme does.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

SHOW = "(i) => { const s = document.querySelector('.tw-slider'); s.value = i; s.dispatchEvent(new Event('input')); }"


def _replay(name, players, seat, tmp_path):
    m = tw.Match(name, seed=3, players=players)
    # Whole games, except Plus: its first oven and evaluation (a whole game is 400 steps).
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(players)}, max_steps=120 if name == "mamma-mia-plus" else 400)
    path = tmp_path / f"{name}-{players}-{seat}.html"
    m.to_html(path, seat=seat)
    return path


def _axe(page, scheme, rules=None):
    """axe-core's serious and critical violations in the widget; `rules` limits the run to
    those rules (the dark scheme changes colours only, on the same page, so it asks for the
    rules that read colours)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async (rules) => {
      const options = {resultTypes: ['violations']};
      if (rules) options.runOnly = {type: 'rule', values: rules};
      const r = await axe.run(document.querySelector('.tw-root'), options);
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)).join(' | ')}`);
    }""", rules)
    return [f"{scheme}: {v}" for v in result]


@pytest.mark.parametrize("name,players,seat", CASES, ids=[f"{n}-{p}-{s}" for n, p, s in CASES])
def test_a_whole_game_keeps_one_footprint_marks_the_last_move_and_passes_axe(browser, tmp_path, name, players, seat):
    assert AXE.is_file(), "axe-core is missing: npm ci in js/ (./dev setup) installs it"
    path = _replay(name, players, seat, tmp_path)
    problems = []
    heights = {}
    page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme="light")
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".tw-root .tw-board *")
        # Every frame of the game, as the slider shows them.
        frames = page.evaluate(WALK, 2000)
        sizes = [f["height"] for f in frames]
        # One footprint: the widget and its controls stay put over the whole game, and fit a
        # 1280 × 800 screen, controls included.
        assert max(sizes) - min(sizes) <= 2, (min(sizes), max(sizes))
        assert max(sizes) <= 800, max(sizes)
        assert max(f["barTop"] for f in frames) - min(f["barTop"] for f in frames) <= 2
        # Every seat and every card of a hand in sight, on every frame: nothing hides in a
        # region that has to be scrolled.
        assert [(f["i"], f["scrolls"]) for f in frames if f["scrolls"]] == []
        # Fanned cards stay in their region, and each covered card is known by what shows.
        assert [(f["i"], f["fans"][:3]) for f in frames if f["fans"]][:5] == []
        _check_marks(name, frames)
        assert [(f["i"], f["cut"]) for f in frames if f["cut"]] == []
        if name in ("mammuz", "mamma-mia-plus"):
            # A narrower table (a notebook beside its file browser): MammuZ has still nothing
            # to scroll; every part stays inside its region.
            page.set_viewport_size({"width": 900, "height": 800})
            narrow = page.evaluate(WALK, 2000)
            if name == "mammuz":
                assert [(f["i"], f["scrolls"]) for f in narrow if f["scrolls"]] == []
            assert [(f["i"], f["cut"]) for f in narrow if f["cut"]] == []
            page.set_viewport_size({"width": 1280, "height": 800})
        marked = lambda i: sum(frames[i]["marks"].values())
        shown = sorted({max(range(len(frames)), key=lambda i: (marked(i), i)), len(frames) - 1})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if name != "mamba":
                problems += check_colour_roles(page.evaluate(ROLES, 2000), scheme)
            # Legibility and axe on the frame with the most marks and on the last one.
            for i in shown:
                page.evaluate(SHOW, i)
                heights.setdefault(i, []).append(page.evaluate("() => document.querySelector('.tw-root').getBoundingClientRect().height"))
                found = page.evaluate(LEGIBILITY)
                assert found == {"small": [], "overflow": []}, (scheme, i, found)
                problems += _axe(page, scheme, None if scheme == "light" else COLOUR_RULES)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"renderer-{name}-{players}-{seat}-{scheme}.png"))
    finally:
        page.close()
    # The dark theme keeps the same footprint.
    assert all(max(h) - min(h) <= 2 for h in heights.values()), heights
    assert problems == [], "\n".join(sorted(set(problems)))


def _check_marks(name, frames):
    """Each frame that follows an action shows that action's mark."""
    checked = 0
    by_step = {}
    for f in frames:
        by_step.setdefault(f["step"], []).append(f)
    for f in frames:
        marks, data = f["marks"], f["data"] or {}
        if name == "mamba":
            first = by_step[f["step"]][0]
            if first["kind"] == "move":
                # the move's destination, on its own frame and on every later wave of its step
                assert marks["to"] == 1, f
                checked += 1
            if f["kind"] == "transformation":
                assert marks["turned"] >= 1, f
            if f["kind"] == "overpopulation":
                assert marks["ends"] >= 2, f
            if f["kind"] == "birth":
                assert marks["born"] >= 1, f
        elif name.startswith("mamma-mia"):
            if f["kind"] == "turn":
                expected = bool(data.get("put")) + bool(data.get("order"))
                assert marks["logNew"] == expected and marks["justPlayed"] == expected, f
                checked += expected > 0
            else:
                assert marks["logNew"] == 0, f
        else:
            if f["kind"] == "lay":
                assert marks["lastLay"] == 1, f
                checked += 1
            if f["kind"] == "turn":
                assert marks["challenged"] == 1, f
                checked += 1
    assert checked >= 5, (name, checked)


# What a frame writes, and where: each such box must be laid out on its own, so that a frame
# lays out what it changed and not the whole page (nor, in a notebook, every cell). Chromium
# takes a box as a root of its own layout when it has size and layout containment and its
# parent lays out blocks (a flex or grid item never is one, whatever its containment).
WRITTEN_PER_FRAME = {
    "timeline": [".tw-caption", ".tw-step", ".tw-slider", ".tw-sr-text"],
    "mamma-mia": [".mm-slot", ".mm-oven > .mm-pile", ".mm-oven > .mm-log", ".mm-seat > .mm-seat-name", ".mm-seat > .mm-seat-facts"],
}
CONTAINED = """(selectors) => {
  const out = [];
  for (const sel of selectors) {
    const nodes = [...document.querySelectorAll('.tw-root ' + sel)];
    if (!nodes.length) out.push(`${sel}: none in the page`);
    for (const n of nodes) {
      const contain = getComputedStyle(n).contain.split(' ');
      const sized = contain.includes('strict') || contain.includes('size');
      const laid = contain.includes('strict') || contain.includes('content') || contain.includes('layout');
      const parent = getComputedStyle(n.parentElement).display;
      if (!sized || !laid) out.push(`${sel}: contain is ${contain.join(' ')}`);
      if (!['block', 'flow-root'].includes(parent)) out.push(`${sel}: its parent is ${parent}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("name,players,seat", [("mamma-mia-plus", 6, 0), ("mamba", 2, None)])
def test_what_a_frame_writes_is_laid_out_on_its_own(browser, tmp_path, name, players, seat):
    path = _replay(name, players, seat, tmp_path)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".tw-root .tw-board *")
        table = WRITTEN_PER_FRAME.get(name.replace("-plus", ""), [])
        # A narrow widget stands the table's regions in one grid column: there the timeline's
        # boxes alone.
        for width, selectors in ((1280, WRITTEN_PER_FRAME["timeline"] + table), (520, WRITTEN_PER_FRAME["timeline"])):
            page.set_viewport_size({"width": width, "height": 800})
            page.evaluate(SHOW, 30)
            assert page.evaluate(CONTAINED, selectors) == [], width
        if name.startswith("mamma-mia"):
            # The seats stand one under the other as blocks: a seat's badge shown or hidden lays
            # out that seat's lines, not every row of a grid.
            page.set_viewport_size({"width": 1280, "height": 800})
            assert page.evaluate("() => getComputedStyle(document.querySelector('.mm-seats')).display") == "block"
    finally:
        page.close()


# Where the marks of the last turn sit, frame by frame: where each log entry's words begin
# (relative to the entry; an entry is known by its node and words), its weight and whether its "new" shows; each seat's "to move" and "just played" badges
# (relative to the seat), shown or not.
MARK_BOXES = """(limit) => {
  const root = document.querySelector('.tw-root');
  const slider = root.querySelector('.tw-slider');
  const out = [];
  const ids = new WeakMap();
  let made = 0;
  for (let i = 0; i <= Math.min(Number(slider.max), limit); i++) {
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    const log = [...root.querySelectorAll('.mm-log li')].map((li) => {
      const words = [...li.childNodes].find((n) => n.nodeType === 3);
      const range = document.createRange();
      range.selectNodeContents(words);
      const w = range.getClientRects()[0], box = li.getBoundingClientRect();
      const badge = getComputedStyle(li, '::before');
      if (!ids.has(li)) ids.set(li, made++);
      return [`${ids.get(li)} ${words.nodeValue}`, Math.round(w.left - box.left), getComputedStyle(li).fontWeight,
        li.classList.contains('mm-log-new'), badge.content === '"new"' && badge.visibility === 'visible'];
    });
    const seats = [...root.querySelectorAll('.mm-seat')].map((seat) => {
      const s = seat.getBoundingClientRect();
      return [...seat.querySelectorAll('.mm-badge-turn, .mm-badge-last')].map((b) => {
        const r = b.getBoundingClientRect();
        return [b.className.split(' ')[1], Math.round(r.left - s.left), Math.round(r.top - s.top), Math.round(r.width), Math.round(r.height),
          !b.hidden && getComputedStyle(b).visibility === 'visible'];
      });
    });
    out.push({ log, seats });
  }
  return out;
}"""


def test_the_last_turn_s_marks_are_painted_and_move_no_box(browser, tmp_path):
    # A turn marks its log entries "new" and passes "to move" on: marking and unmarking paint,
    # the words of an entry and the badges of a seat stay where they are (a box that appears,
    # or letters that turn bold, lay the region out again).
    path = _replay("mamma-mia-plus", 6, 0, tmp_path)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".tw-root .tw-board *")
        frames = page.evaluate(MARK_BOXES, 2000)
    finally:
        page.close()
    words, weights, badges = {}, set(), {}
    marked = shown = 0
    for f in frames:
        for key, left, weight, new, badge in f["log"]:
            words.setdefault(key, set()).add(left)
            weights.add(weight)
            assert new == badge, (key, new, badge)
            marked += new
        for s, seat in enumerate(f["seats"]):
            for which, left, top, width, height, visible in seat:
                badges.setdefault((s, which), set()).add((left, top, width, height))
                shown += visible
    assert marked > 50 and shown > 100, (marked, shown)
    assert {k: v for k, v in words.items() if len(v) > 1} == {}
    assert len(weights) == 1, weights
    assert {k: v for k, v in badges.items() if len(v) > 1} == {}


def test_the_tally_switches_in_the_page_without_a_kernel(browser, tmp_path):
    path = _replay("mamma-mia", 3, 0, tmp_path)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(path.as_uri())
        page.evaluate(SHOW, 40)
        page.click('[data-action="tally"]')
        counts = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.mm-tally > span[data-kind]')]
            .map((n) => [n.dataset.kind, parseInt(n.textContent.match(/\\d+$/)[0], 10)]))""")
        log = page.evaluate("""() => [...document.querySelectorAll('.mm-log li[data-kind]')].map((li) => li.dataset.kind)""")
        assert sum(counts.values()) > 0 and set(k for k, n in counts.items() if n) <= set(log)
        # It stays on while the timeline moves, and follows the log.
        page.evaluate(SHOW, 41)
        assert page.locator(".mm-tally").count() == 1
    finally:
        page.close()


def test_the_replays_frames_name_what_the_marks_need(tmp_path):
    """The marks read the frames' public data: a turn names its cards, a challenge its card."""
    m = tw.Match("mamma-mia", seed=3, players=3)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(3)}, max_steps=20)
    turns = [f for f in m.frames(1) if f.kind == "turn"]
    assert turns and all({"seat", "put", "order"} <= set(f.data) for f in turns)
    assert json.dumps([f.data for f in turns if f.data["seat"] != 1]).count('"action"') == 0


def test_a_revealed_special_order_is_named_as_its_card_in_the_caption_and_the_log(browser, tmp_path):
    """A Plus oven evaluation, all-seeing: the caption revealing a special order, the oven log's
    face-down orders and the revealed card all name it as the card is printed, never by the
    notation's label."""
    game = tw.make("mamma-mia-plus", players=4)
    special = {"monotoni", "ciottona", "minimale", "bombastica", "small_monotoni", "mini", "pizza_mamma_mia"}
    for seed in range(40):
        m = tw.Match(game, seed=seed)
        m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=90)
        if any(f.kind == "reveal" and (f.data.get("order") or {}).get("type") in special for f in m.frames(None)):
            break
    else:
        pytest.fail("no special order revealed in 40 seeded games")
    path = tmp_path / "plus-reveal.html"
    m.to_html(path, seat=None)
    labels = sorted({o.label for o in game.deck if o.type in special}, key=len, reverse=True)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".tw-root .tw-board *")
        at = page.evaluate("""(special) => JSON.parse(document.getElementById('tw-replay-data').textContent).frames
            .findIndex((f) => f.kind === 'reveal' && f.data && f.data.order && special.includes(f.data.order.type))""",
                           sorted(special))
        assert at > 0
        page.evaluate(SHOW, at)
        order = page.evaluate(f"() => JSON.parse(document.getElementById('tw-replay-data').textContent).frames[{at}].data.order")
        caption = page.locator(".tw-caption").inner_text()
        assert f"'s order {order['name']}" in caption, caption
        # the revealed strip shows the card's spine with its printed name
        assert order["name"] in page.locator(".mm-revealed .mm-spine").all_inner_texts()
        shown = page.locator(".tw-root").inner_text()
        assert [label for label in labels if label in shown] == [], shown
        assert " without " not in shown
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "renderer-mamma-mia-plus-reveal.png"))
        # every frame of the game (the log names the face-down orders in this view)
        texts = page.evaluate("""() => { const s = document.querySelector('.tw-slider'); const out = [];
            for (let i = 0; i <= Number(s.max); i++) { s.value = i; s.dispatchEvent(new Event('input'));
              out.push(document.querySelector('.tw-root').innerText); } return out; }""")
        assert [t for t in texts if any(label in t for label in labels)][:1] == []
    finally:
        page.close()

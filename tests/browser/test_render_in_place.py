"""A board updated in place shows what a board mounted afresh on the same frame shows.

The renderers patch the board from frame to frame and skip the regions whose inputs look
unchanged; a skip keyed on the wrong inputs leaves a stale picture after a jump. Standalone
replays of games played by bots (no kernel) are walked forward, backward and in seeded random
jumps with the timeline's slider, Mamma Mia's tally switched on and off midway; after each
frame the board's DOM (tag, classes, attributes, text) is compared with that of a fresh mount
of the same replay opened at that frame, with the same tally.

    TW_IN_PLACE_JUMPS=400 TW_IN_PLACE_SEEDS=5 .venv/bin/pytest tests/browser/test_render_in_place.py

hunts harder (every frame both ways, more random jumps, more games per case).
"""

from __future__ import annotations

import os
import random

import pytest

import tabletop_widgets as tw

JUMPS = int(os.environ.get("TW_IN_PLACE_JUMPS", "20"))
SEEDS = int(os.environ.get("TW_IN_PLACE_SEEDS", "1"))

# name, players, seat (None: all-seeing), steps played
CASES = {
    "mamma-mia-4-seat0": ("mamma-mia", 4, 0, 400),
    "mamma-mia-4-all": ("mamma-mia", 4, None, 400),
    "plus-6-seat0": ("mamma-mia-plus", 6, 0, 200),
    "plus-6-all": ("mamma-mia-plus", 6, None, 200),
    "mammuz-4-seat1": ("mammuz", 4, 1, 300),
    "mammuz-6-all": ("mammuz", 6, None, 200),
    "mamba-2-all": ("mamba", 2, None, 200),
    "mamba-4-seat2": ("mamba", 4, 2, 200),
}

# The walk and its comparison, in the page. `Date.now` is a clock that hardly moves: every frame
# is drawn as part of a scrub (dom.SCRUB_MS), as a dragged slider draws it, so no card flies and
# no animation class is on either board whatever time the fresh mounts take in between.
WALK = """([order, toggles]) => {
  let t = 1e12;
  Date.now = () => (t += 1);
  const data = JSON.parse(document.getElementById('tw-replay-data').textContent);
  const root = document.querySelector('#tw-replay .tw-root');
  const slider = root.querySelector('.tw-slider');
  const board = root.querySelector('.tw-board');
  const width = board.getBoundingClientRect().width;
  const ser = (node) => {
    const out = [];
    const walk = (n, depth) => {
      if (n.nodeType === 3) {
        const text = n.textContent.replace(/\\s+/g, ' ').trim();
        if (text) out.push(' '.repeat(depth) + JSON.stringify(text));
        return;
      }
      if (n.nodeType !== 1) return;
      const attrs = [...n.attributes].map((a) => {
        let v = a.value;
        if (a.name === 'class') v = v.split(/\\s+/).filter((c) =>
          // Mamba's board animates a move from the frame just before (by design: prev chooses
          // the animation only); a fresh mount has no frame before.
          c && !['animate', 'slid'].includes(c)).sort().join(' ');
        if (a.name === 'style') v = v.replace(/--d[xy]:[^;]*;?/g, '').trim()
          // A hand's fan comes from its row's width: the width a ResizeObserver keeps has
          // fractions of a pixel, the one a fresh row reads once is whole (dom.widthWatcher).
          .replace(/(--mz-overlap: )(-?[0-9.]+)px/, (_, k, x) => `${k}${Math.round(Number(x))}px`);
        return `${a.name}=${JSON.stringify(v)}`;
      }).filter((a) => !/^(class|style)=""$/.test(a)).sort();
      out.push(' '.repeat(depth) + `<${n.tagName.toLowerCase()} ${attrs.join(' ')}>`);
      let kids = [...n.childNodes];
      const lines = [];
      if (n.tagName.toLowerCase() === 'g' && n.classList.contains('cells')) {
        // A sliding stone's cell is drawn last (over the others) only while it slides.
        const parts = kids.map((k) => { const o = []; const save = out.length; walk(k, depth + 1); return out.splice(save); });
        parts.sort((a, b) => (a.join('\\n') < b.join('\\n') ? -1 : 1)).forEach((p) => out.push(...p));
        return;
      }
      for (const k of kids) walk(k, depth + 1);
    };
    walk(node, 0);
    return out;
  };
  const host = document.createElement('div');
  host.style.cssText = `position:absolute; left:0; top:0; width:${root.parentElement.getBoundingClientRect().width}px; visibility:hidden`;
  document.body.append(host);
  const found = [];
  let prev = Number(slider.value);
  let tally = !!(data.settings || {}).tally;
  for (const [n, i] of order.entries()) {
    const toggle = board.querySelector('.mm-tally-toggle');
    if (toggles.includes(n) && toggle) {
      // Mamma Mia's tally switched on or off from the board (the replay's own switch).
      toggle.click();
      tally = !tally;
    }
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    const walked = ser(board);
    const inner = document.createElement('div');
    host.append(inner);
    const cleanup = TabletopWidget.default.mountStatic(inner, {...data, start: i, settings: {...(data.settings || {}), tally}});
    const fresh = ser(inner.querySelector('.tw-board'));
    cleanup();
    inner.remove();
    if (walked.join('\\n') !== fresh.join('\\n')) {
      let k = 0;
      while (k < walked.length && walked[k] === fresh[k]) k++;
      found.push({from: prev, to: i, tally, line: k, walked: walked.slice(Math.max(0, k - 3), k + 2),
                  fresh: fresh.slice(Math.max(0, k - 3), k + 2)});
      if (found.length >= 5) break;
    }
    prev = i;
  }
  host.remove();
  return {found, frames: Number(slider.max) + 1};
}"""


def _order(frames: int, rng: random.Random) -> list[int]:
    """Every frame forward, then backward by one, then random jumps (and runs after them)."""
    order = list(range(frames)) + list(range(frames - 2, -1, -1))
    for _ in range(JUMPS):
        start = rng.randrange(frames)
        order.extend(range(start, min(frames, start + rng.choice((1, 1, 2, 4)))))
    return order


@pytest.fixture(scope="module")
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    yield pg
    pg.close()


@pytest.mark.parametrize("case", list(CASES))
def test_a_board_updated_in_place_matches_a_fresh_one(page, tmp_path, case):
    name, players, seat, steps = CASES[case]
    for seed in range(SEEDS):
        m = tw.Match(name, seed=11 + seed, players=players)
        m.autoplay({s: tw.bots.Random(seed=s + seed) for s in range(players)}, max_steps=steps)
        path = tmp_path / f"{case}-{seed}.html"
        m.to_html(path, seat=seat)
        page.goto(path.as_uri())
        page.wait_for_selector("#tw-replay .tw-board *")
        frames = int(page.evaluate("() => document.querySelector('#tw-replay .tw-slider').max")) + 1
        # Long games: a walk of every frame both ways would overrun the test's budget.
        frames_walked = min(frames, 50 if not os.environ.get("TW_IN_PLACE_JUMPS") else frames)
        order = _order(frames_walked, random.Random(f"{case}-{seed}"))
        if frames_walked < frames:
            rng = random.Random(f"{case}-{seed}-late")
            order.extend(rng.randrange(frames) for _ in range(JUMPS))
        # The tally switched at a few moments of the walk (the games without one ignore it).
        toggles = sorted(random.Random(f"{case}-{seed}-tally").sample(range(len(order)), 6))
        result = page.evaluate(WALK, [order, toggles])
        assert result["frames"] == frames
        assert result["found"] == [], (case, seed, result["found"][:2])

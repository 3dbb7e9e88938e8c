"""Helpers the browser tests share (plain functions; the fixtures are in conftest.py)."""

from __future__ import annotations

import math
import re
import time

import tabletop_widgets as tw


def wait_until(check, timeout=30.0, what="the condition"):
    """Poll `check` (a kernel round trip, say) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.2)


def assert_dark_theme_changes(page, root, colours_js: str, while_dark=None):
    """Switch JupyterLab to its dark theme and back: every colour `colours_js` (a function of
    the widget's root returning a list of computed colours) must change with the theme.
    `while_dark()` (say, axe-core's checks) runs once the dark colours are in place."""
    light = root.evaluate(colours_js)
    assert all(light), light
    assert page.evaluate("() => document.body.dataset.jpThemeLight") == "true"
    theme = "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})"
    page.evaluate(theme, "JupyterLab Dark")
    try:
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_function(f"([root, light]) => JSON.stringify(({colours_js})(root)) !== JSON.stringify(light)",
                               arg=[root.element_handle(), light])
        dark = root.evaluate(colours_js)
        assert all(d != l for d, l in zip(dark, light)), (light, dark)
        if while_dark is not None:
            while_dark()
    finally:
        # The theme is a user setting, shared with the tests that follow.
        page.evaluate(theme, "JupyterLab Light")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")


def assert_each_widget_shown_once(page):
    """Every widget output shows the live widget, once: its display also carries a picture and
    a replay script (for places with no kernel), which Jupyter must not draw or run beside it."""
    shown = page.evaluate("""() => [...document.querySelectorAll('.tw-root')].map((root) => {
        const output = root.closest('.jp-OutputArea-child');
        return output && [output.querySelectorAll('.tw-root').length,
                          output.querySelectorAll('.jp-RenderedHTMLCommon, .jp-RenderedImage, .jp-RenderedSVG, .jp-RenderedJavaScript').length];
    })""")
    assert shown and all(s == [1, 0] for s in shown), shown
    assert page.locator(".tw-replay, img.tw-replay-picture").count() == 0
    # The replay script, an output of its own after each widget's, draws nothing and takes
    # (almost) no room.
    heights = page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/javascript"]')]
        .map((el) => (el.closest('.jp-OutputArea-child') || el).getBoundingClientRect().height)""")
    assert len(heights) >= len(shown) and all(h <= 4 for h in heights), heights


def decoded_comm_messages(messages):
    """Widget messages (``Session.received_comm_msgs``) with each ``frames`` message's frames
    rebuilt as the page rebuilds them: an action's frames patch the frame the page held
    before them, so every message is decoded from what the earlier ones left."""
    from tabletop_widgets.core.wire import receive

    held, out = [], []
    for message in messages:
        content = message.get("data", {}).get("content", {})
        if content.get("type") != "frames":
            out.append(message)
            continue
        start = max(0, min(content.get("from", 0), len(held)))
        held = receive(held, content)
        data = dict(message["data"], content=dict(content, frames=held[start:]))
        out.append(dict(message, data=data))
    return out


def _rgb(css: str, under=(255, 255, 255)) -> tuple[float, float, float]:
    """A computed colour (rgb(), rgba() or color(srgb …), as color-mix computes) as 0–255 RGB,
    a translucent one laid over `under`."""
    nums = [float(x) for x in re.findall(r"[-\d.]+(?:e-?\d+)?", css.split("srgb")[-1])]
    if css.startswith("color("):
        rgb, alpha = [v * 255 for v in nums[:3]], (nums[3] if len(nums) > 3 else 1.0)
    else:
        rgb, alpha = nums[:3], (nums[3] if len(nums) > 3 else 1.0)
    return tuple(alpha * c + (1 - alpha) * u for c, u in zip(rgb, under))


def _contrast(a, b) -> float:
    def lum(rgb):
        lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _ring_colour(shadow: str) -> str:
    """The colour of a `box-shadow: 0 0 0 Npx colour` ring, as computed ("rgb(…) 0px 0px 0px 3px")."""
    return re.match(r"(rgba?\([^)]*\)|color\([^)]*\))", shadow).group(1)


def check_colour_roles(roles: dict, scheme: str, required=("turn", "last", "choice")) -> list[str]:
    """Each role's colour apart from every other role's and from the seats' colours, and at
    least 3:1 against the page; each role's shape apart from the others'. `roles` maps a role
    to (computed colour, outline or border style, or "ring" for a box-shadow ring), with
    "backgrounds" (the page's first) and "players" (the seats' colours)."""
    roles = dict(roles)
    problems = []
    page_bg = _rgb(roles.pop("backgrounds")[0])
    players = [_rgb(c, page_bg) for c in roles.pop("players", [])]
    colours = {}
    for name, (value, shape) in roles.items():
        if shape == "ring" and value == "none":
            problems.append(f"{scheme}: {name} has no mark")
            continue
        colours[name] = (_rgb(_ring_colour(value) if shape == "ring" else value, page_bg), shape)
    for name in required:
        if name not in colours:
            problems.append(f"{scheme}: no {name} mark found")
    names = sorted(colours)
    # The choices and the legal targets are one role (what you may do): one colour, two shapes.
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (ca, sa), (cb, sb) = colours[a], colours[b]
            if {a, b} == {"choice", "target"}:
                if ca != cb or sa == sb:
                    problems.append(f"{scheme}: choice and target should share a colour, not a shape: {colours[a]} {colours[b]}")
                continue
            if math.dist(ca, cb) < 50:
                problems.append(f"{scheme}: {a} and {b} share a colour: {ca} {cb}")
            if sa == sb:
                problems.append(f"{scheme}: {a} and {b} share a shape: {sa}")
    for name, (c, _) in colours.items():
        for p in players:
            if math.dist(c, p) < 50:
                problems.append(f"{scheme}: {name} looks like a seat's colour: {c} {p}")
        ratio = _contrast(c, page_bg)
        if ratio < 3:
            problems.append(f"{scheme}: {name} {c} has {ratio:.2f}:1 against the page")
    return problems


AXE = __import__("pathlib").Path(__file__).resolve().parents[2] / "js" / "node_modules" / "axe-core" / "axe.min.js"


def axe_problems(page, root) -> list[str]:
    """axe-core's serious and critical violations inside `root` (a locator), as short lines.
    axe-core comes from npm (js/node_modules), loaded into the page from the file: no network."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return root.evaluate("""async (root) => {
      const r = await axe.run(root, {resultTypes: ['violations']});
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)).join(' | ')}`);
    }""")


# Every frame the widget holds, shown one after the other with its slider: the root's heights.
WALK_HEIGHTS = """(root) => {
  const slider = root.querySelector('.tw-slider');
  const heights = [];
  for (let i = 0; i <= Number(slider.max); i++) {
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    heights.push(root.getBoundingClientRect().height);
  }
  return heights;
}"""


# The marks of each colour role in the frame shown (a card table: Mamma Mia or MammuZ), as
# check_colour_roles takes them: the seat to move, pressed cards, the cards one may challenge,
# the last move, the challenged card, the seats' own colours and the backgrounds.
ROLES_SHOWN = """(root) => {
  const ring = (n) => { const cs = getComputedStyle(n); return cs.outlineStyle !== 'none' ? [cs.outlineColor, cs.outlineStyle] : [cs.boxShadow, 'ring']; };
  const frame = (n) => { const cs = getComputedStyle(n); return [cs.borderTopColor, cs.borderTopStyle]; };
  const found = {};
  const mark = (name, sel, how) => { const n = root.querySelector(sel); if (n) found[name] = how(n); };
  mark('turn', '.mm-seat.mm-to-move, .mz-seat.mz-to-move', ring);
  mark('choice', '.mm-hand-cards button.mm-card[aria-pressed="true"], .mz-hand button.mz-card[aria-pressed="true"]', ring);
  mark('target', '.mz-display-cards button.mz-card:not(:disabled)', ring);
  mark('last', '.mm-just-played', ring);
  mark('last', '.mz-display-last', frame);
  mark('challenged', '.mz-challenged', ring);
  const game = root.querySelector('.mm-root, .mz-root');
  if (game.classList.contains('mm-root')) found.players = [...root.querySelectorAll('.mm-seat')].map((e) => getComputedStyle(e).borderTopColor);
  found.backgrounds = [getComputedStyle(game).backgroundColor, getComputedStyle(root.querySelector('.mm-section, .mz-section')).backgroundColor];
  return found;
}"""


def played(name, players, seed, steps):
    """A match of ``name`` played by random bots for ``steps`` actions (``players`` None: the
    game's own count)."""
    m = tw.Match(name, seed=seed, players=players) if players else tw.Match(name, seed=seed)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(players or 2)}, max_steps=steps)
    return m

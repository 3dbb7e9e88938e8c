"""Helpers the browser tests share (plain functions; the fixtures are in conftest.py)."""

from __future__ import annotations

import time


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


def assert_dark_theme_changes(page, root, colours_js: str):
    """Switch JupyterLab to its dark theme and back: every colour `colours_js` (a function of
    the widget's root returning a list of computed colours) must change with the theme."""
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

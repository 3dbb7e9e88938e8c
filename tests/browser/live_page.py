"""A live widget in a plain page, with no kernel: the widget's own bundle rendered as anywidget
renders it, on a model standing in for the kernel's, fed the messages the Python widget sends
when the page says hello (its frames and the legal actions). What the page sends back
is kept in ``window.twSent``, not answered. Seconds instead of a JupyterLab's minute, for
checks of layout and drawing that need the live controls (a turn's composer, an editor)."""

from __future__ import annotations

import json
from pathlib import Path

from tabletop_widgets.core.html import standalone_bundle

from widget_spy import browser as from_browser, record

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<title>{title}</title>
<style>body {{ margin: 0; padding: 16px; font-family: system-ui, sans-serif; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #0d1117; color: #e6edf3; }} }}</style>
</head><body><main><div id="host"></div></main>
<script>{bundle}</script>
<script>
(function () {{
  var traits = {traits}, messages = {messages}, handlers = {{}};
  window.twSent = [];
  var model = {{
    get: function (k) {{ return traits[k]; }},
    set: function (k, v) {{ traits[k] = v; (handlers["change:" + k] || []).forEach(function (f) {{ f(); }}); }},
    on: function (n, f) {{ (handlers[n] = handlers[n] || []).push(f); }},
    off: function (n, f) {{ handlers[n] = (handlers[n] || []).filter(function (g) {{ return g !== f; }}); }},
    send: function (m) {{ window.twSent.push(m); }},
    save_changes: function () {{}}
  }};
  TabletopWidget.default.render({{ model: model, el: document.getElementById("host") }});
  messages.forEach(function (m) {{ (handlers["msg:custom"] || []).forEach(function (f) {{ f(m, []); }}); }});
}})();
</script></body></html>
"""


def live_page(widget, path: Path) -> Path:
    """Write a page showing ``widget`` live (as the browser would after its first messages)."""
    record(widget)
    from_browser(widget, {"type": "hello"})
    traits = {name: getattr(widget, name) for name in
              ("game", "seat_names", "seat", "cursor", "current", "error", "bot_seats", "settings",
               "lock_seat", "replay", "seats", "pass_to")}
    script_safe = lambda data: json.dumps(data).replace("<", "\\u003c")
    path.write_text(_PAGE.format(
        title=f"{widget.game} (live)",
        bundle=standalone_bundle(widget.game).read_text(encoding="utf-8").replace("</script", "<\\/script"),
        traits=script_safe(traits), messages=script_safe(widget.raw)), encoding="utf-8")
    return path

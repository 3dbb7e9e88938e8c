"""HTML replays: the game's renderer and the frames of one seat, playing the timeline in any
browser with no kernel and no network.

- :func:`replay_document` / :func:`write_html`: a standalone page (``m.to_html(path)``).
- :func:`replay_script`: the same replay as a self-contained script for a notebook's
  ``application/javascript`` output (an exported notebook, a documentation page): it builds
  its own container where it runs and hides the output before it (the widget's picture);
  in a live JupyterLab or Notebook 7 it does nothing. Many fit on one page.
- :func:`replay_fragment`: the replay as a ``<div>`` (its picture, replaced by the playing
  replay where scripts run) for a ``text/html`` output.

Both take ``seat`` (``None``: all-seeing) and ``steps=(first, last)``, a range of steps
(inclusive) to keep; a seat's replay holds that seat's frames only.
"""

from __future__ import annotations

import base64
import html as _html
import itertools
import json
import pathlib
import secrets
from typing import Optional

from .match import Match
from .wire import encode_frames

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{title}</title>
<style>
  body {{ margin: 0; padding: 16px; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }}
  @media (prefers-color-scheme: dark) {{ body {{ background: #0d1117; color: #e6edf3; }} }}
  h1 {{ font-size: 1.1rem; font-weight: 600; margin: 0 0 8px; }}
</style>
</head>
<body>
<h1>{heading}</h1>
<div id="tw-replay"></div>
<script type="application/json" id="tw-replay-data">{data}</script>
<script>{bundle}</script>
<script>
(function () {{
  var data = JSON.parse(document.getElementById("tw-replay-data").textContent);
  var el = document.getElementById("tw-replay");
  TabletopWidget.default.mountStatic(el, data);
  el.querySelector(".tw-root").focus();
}})();
</script>
</body>
</html>
"""

# The fragment keeps the bundle's global inside a function: each replay on a page mounts with
# its own game's renderer, whatever other bundles the page holds. Until the script runs (or
# where scripts do not run) the picture of the frame shown is there instead.
_FRAGMENT = """<div class="tw-replay" id="{id}" data-tw-game="{game}">\
<img class="tw-replay-picture" alt="{alt}" src="data:image/svg+xml;base64,{picture}">\
<script type="application/json" id="{id}-data">{data}</script>\
<script>(function () {{
var TabletopWidget;
{bundle}
;var el = document.getElementById("{id}");
if (!el || el.getAttribute("data-tw-mounted")) return;
el.setAttribute("data-tw-mounted", "1");
var data = JSON.parse(document.getElementById("{id}-data").textContent);
var picture = el.querySelector(".tw-replay-picture");
if (picture) picture.remove();
var host = document.createElement("div");
el.appendChild(host);
TabletopWidget.default.mountStatic(host, data);
}})();</script></div>"""

# The script builds its own container right after itself (``document.currentScript``: a
# page's raw <script>, nbconvert's templates), or inside ``element`` where a notebook front
# end runs the code with no script element of its own. Everything stays inside the function,
# so several replays, of one game or several, share a page. It follows the widget's first
# output (the live view and its picture): in a live JupyterLab (its shell, main dock panel) or
# Notebook 7 (its main panel, the page's ``data-notebook``), which show the view, it does nothing; elsewhere it hides that output (nbconvert's lab and classic
# templates, a myst-nb page), whose picture or empty widget area would show the widget twice.
_SCRIPT = """(function () {{
if (document.querySelector("#jp-main-dock-panel, .jp-LabShell, body[data-notebook] #main-panel")) {{
  if (typeof element !== "undefined" && element && element.style) element.style.display = "none";
  return;
}}
var script = document.currentScript;
var place = script && script.parentNode ? script : null;
var outer = !place && typeof element !== "undefined" && element ? (element.jquery ? element[0] : element) : null;
if (!place && !outer) return;
var anchor = place || outer;
var shown = "img, svg, .jupyter-widgets, .output_widget_view, script[type='application/vnd.jupyter.widget-view+json']";
var output = anchor.closest && anchor.closest(".jp-OutputArea-child, .output_area");
var before = null;
if (output) {{
  before = output.previousElementSibling;
  if (before && !before.matches(".jp-OutputArea-child, .output_area")) before = null;
}} else if (anchor.closest && anchor.closest(".cell_output")) {{
  var top = anchor;
  while (top.parentNode && !top.parentNode.classList.contains("cell_output")) top = top.parentNode;
  before = top.previousElementSibling;
}}
if (before && (before.matches(shown) || before.querySelector(shown))) before.style.display = "none";
var host = document.createElement("div");
host.className = "tw-replay";
host.setAttribute("data-tw-game", {game});
if (place) place.parentNode.insertBefore(host, place.nextSibling); else outer.appendChild(host);
var TabletopWidget;
{bundle}
;var data = {data};
var root = document.createElement("div");
host.appendChild(root);
TabletopWidget.default.mountStatic(root, data);
}})();
"""

_ids = itertools.count(1)


def standalone_bundle(game_name: str) -> pathlib.Path:
    """The classic-script bundle (``<renderer>.standalone.js``) that draws ``game_name``."""
    from .game import game_class

    path = STATIC / f"{game_class(game_name).renderer}.standalone.js"
    if not path.is_file():
        raise FileNotFoundError(
            f"the replay bundle {path} is not built; build the JS with `pip install -e .` "
            "(needs Node.js and npm) or `npm ci && npm run build` in js/"
        )
    return path


def _script_safe(text: str) -> str:
    # Inside <script>, "</script" would end the element early; "<\\/" means the same in JS
    # strings and cannot occur in JS code outside strings, comments and regexes.
    return text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")


def _check_steps(match: Match, steps) -> tuple[int, int]:
    if steps is None:
        return 0, len(match)
    ok = (
        isinstance(steps, (tuple, list))
        and len(steps) == 2
        and all(isinstance(s, int) and not isinstance(s, bool) for s in steps)
        and 0 <= steps[0] <= steps[1] <= len(match)
    )
    if not ok:
        raise ValueError(f"steps must be (first, last) with 0 <= first <= last <= {len(match)}, got {steps!r}")
    return steps[0], steps[1]


def replay_data(match: Match, seat: Optional[int] = None, steps=None, at=None) -> dict:
    """What a replay plays: the frames of ``seat`` for the steps in ``steps`` (wire-encoded),
    the seat names, and the index of the frame it opens on: ``at=(step, sub)`` (a widget's
    frame shown), else the cursor's last frame (the nearest step in range)."""
    if not isinstance(match, Match):
        raise ValueError(f"a replay needs a tw.Match, got {match!r}")
    first, last = _check_steps(match, steps)
    opening, sub = at if at is not None else (match.cursor, -1)
    opening = min(max(opening, first), last)
    frames = []
    start = 0
    for step in range(first, last + 1):
        step_frames = match.frames_of_step(step, seat)  # ValueError for a bad seat
        if step == opening:
            start = len(frames) + (sub % len(step_frames) if -len(step_frames) <= sub < len(step_frames) else len(step_frames) - 1)
        frames.extend(f.to_dict() for f in step_frames)
    return {
        "name": match.game.name,
        "frames": encode_frames(frames),
        "seatNames": list(match.game.seat_names),
        "seat": seat,
        "start": start,
    }


def _json_for_script(data) -> str:
    # "<" escaped so that no text in a caption can close the data element.
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def _view_label(match: Match, seat) -> str:
    return "all-seeing view" if seat is None else f"{match.game.seat_names[seat]}'s view"


def replay_document(match: Match, seat: Optional[int] = None, steps=None) -> str:
    """The HTML text of the replay of ``match`` as ``seat`` sees it (``None``: all-seeing)."""
    data = replay_data(match, seat, steps)
    bundle = standalone_bundle(match.game.name).read_text(encoding="utf-8")
    view = _view_label(match, seat)
    first, last = _check_steps(match, steps)
    span = f"{len(match)} steps" if (first, last) == (0, len(match)) else f"steps {first}–{last} of {len(match)}"
    return _PAGE.format(
        title=_html.escape(f"{match.game.name} replay — {view}"),
        heading=_html.escape(f"{match.game.name}: {span}, {view}"),
        data=_json_for_script(data),
        bundle=_script_safe(bundle),
    )


def replay_fragment(match: Match, seat: Optional[int] = None, steps=None, picture: Optional[str] = None,
                    at=None) -> str:
    """The replay as one ``<div>`` for a ``text/html`` output: the picture of the frame it
    opens on (``picture``, SVG text; drawn here when not given), replaced by the playing
    replay wherever scripts run; ``at=(step, sub)``: the frame it opens on. Ids are unique,
    so many replays share a page."""
    data = replay_data(match, seat, steps, at)
    if picture is None:
        from .picture import match_svg

        picture = match_svg(match, seat)
    bundle = standalone_bundle(match.game.name).read_text(encoding="utf-8")
    ident = f"tw-replay-{next(_ids)}-{secrets.token_hex(4)}"
    return _FRAGMENT.format(
        id=ident,
        game=_html.escape(match.game.name),
        alt=_html.escape(f"{match.game.name}, {_view_label(match, seat)}"),
        picture=base64.b64encode(picture.encode("utf-8")).decode("ascii"),
        data=_json_for_script(data),
        bundle=_script_safe(bundle),
    )


def replay_script(match: Match, seat: Optional[int] = None, steps=None, at=None) -> str:
    """The replay as JavaScript for an ``application/javascript`` output: where it runs it adds
    a ``<div class="tw-replay">`` right after its own ``<script>`` (or inside ``element``) and
    plays there; ``at=(step, sub)``: the frame it opens on. No ``</script`` in it, so a page
    holds it in a ``<script>`` element as it is."""
    data = replay_data(match, seat, steps, at)
    bundle = standalone_bundle(match.game.name).read_text(encoding="utf-8")
    return _script_safe(_SCRIPT.format(
        game=_json_for_script(match.game.name),
        bundle=bundle,
        data=_json_for_script(data),
    ))


def write_html(match: Match, path, seat: Optional[int] = None, steps=None) -> None:
    """Write a standalone HTML replay of ``match`` to ``path`` (no kernel, no network)."""
    document = replay_document(match, seat, steps)
    pathlib.Path(path).write_text(document, encoding="utf-8")

"""A standalone HTML replay: one file with the game's renderer and the frames of one seat,
playing the timeline in any browser with no kernel and no network."""

from __future__ import annotations

import html as _html
import json
import pathlib
from typing import Optional

from .core.match import Match
from .core.wire import encode_frames

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


def standalone_bundle(game_name: str) -> pathlib.Path:
    """The classic-script bundle (``<entry>.standalone.js``) that draws ``game_name``."""
    from .core.widget import bundle_path
    from .widgets import widget_class

    esm = bundle_path(widget_class(game_name))
    path = esm.with_name(f"{esm.stem}.standalone.js")
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


def replay_document(match: Match, seat: Optional[int] = None) -> str:
    """The HTML text of the replay of ``match`` as ``seat`` sees it (``None``: all-seeing)."""
    if not isinstance(match, Match):
        raise ValueError(f"write_html needs a tw.Match, got {match!r}")
    frames = [f.to_dict() for f in match.frames(seat)]  # ValueError for a bad seat
    names = list(match.game.seat_names)
    view = "all-seeing view" if seat is None else f"{names[seat]}'s view"
    data = {"name": match.game.name, "frames": encode_frames(frames), "seatNames": names, "seat": seat, "start": 0}
    # "<" escaped so that no text in a caption can close the data element.
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    bundle = standalone_bundle(match.game.name).read_text(encoding="utf-8")
    title = f"{match.game.name} replay — {view}"
    return _PAGE.format(
        title=_html.escape(title),
        heading=_html.escape(f"{match.game.name}: {len(match)} steps, {view}"),
        data=payload,
        bundle=_script_safe(bundle),
    )


def write_html(match: Match, path, seat: Optional[int] = None) -> None:
    """Write a standalone HTML replay of ``match`` to ``path`` (no kernel, no network)."""
    document = replay_document(match, seat)
    pathlib.Path(path).write_text(document, encoding="utf-8")

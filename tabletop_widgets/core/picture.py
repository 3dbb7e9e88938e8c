"""Pictures of a moment as SVG text, in pure Python (no browser, no JavaScript).

Each game draws its frames in ``games/<game>/svg.py`` and hooks it in with ``Game.svg``; this
module holds what every picture shares (escaping, the caption, the generic drawing of a game
without its own) and the entry points for a state, a frame and a match at its cursor. A
picture is drawn from one seat's view only (``observe(seat)``, ``None``: all-seeing), so it
shows what that seat may know and nothing else.
"""

from __future__ import annotations

import json
import textwrap
from typing import Optional

from .match import Frame, Match

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK = "#222222"
INK2 = "#555555"
BG = "#ffffff"
BORDER = "#c8c8c8"
ACCENT = "#1976d2"


def esc(text) -> str:
    """``text`` safe inside SVG text and attribute values."""
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (at least one line)."""
    return textwrap.wrap(str(text), width) or [""]


def caption_lines(x: float, y: float, text: str, width_chars: int, size: float = 13, weight: int = 400,
                  fill: str = INK) -> tuple[str, float]:
    """The caption as ``<text>`` lines from (x, y) down; returns (markup, height used)."""
    lines = wrap(text, width_chars)
    step = size * 1.35
    out = [
        f'<text x="{x}" y="{y + size + i * step:.1f}" font-size="{size}" font-weight="{weight}" fill="{fill}">{esc(line)}</text>'
        for i, line in enumerate(lines)
    ]
    return "".join(out), len(lines) * step + 4


def document(width: float, height: float, body: str, label: str, css_class: str) -> str:
    """A standalone ``<svg>`` (its own background and fonts: it reads the same in any page)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tw-picture {css_class}" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{esc(label)}" '
        f'font-family="{FONT}">'
        f"<title>{esc(label)}</title>"
        f'<rect width="100%" height="100%" rx="10" fill="{BG}" stroke="{BORDER}"/>'
        f"{body}</svg>"
    )


def view_label(seat_names, seat: Optional[int]) -> str:
    return "all-seeing view" if seat is None else f"{seat_names[seat]}'s view"


def generic_svg(game, frame: Frame, seat: Optional[int] = None) -> str:
    """A game without its own picture: the caption and the view's keys and values."""
    width = 520
    body, y = [], 14.0
    text, used = caption_lines(14, y, frame.caption, 70, size=14, weight=600)
    body.append(text)
    y += used + 6
    for key, value in frame.view.items():
        line = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        text, used = caption_lines(14, y, line, 78, size=12, fill=INK2)
        body.append(text)
        y += used
    label = f"{game.name}, step {frame.step}, {view_label(game.seat_names, seat)}"
    return document(width, y + 10, "".join(body), label, "tw-generic")


def frame_svg(game, frame: Frame, seat: Optional[int] = None) -> str:
    """The picture of ``frame`` (one of ``match.frames(seat)``) of ``game`` for ``seat``."""
    if not isinstance(frame, Frame):
        raise ValueError(f"a picture needs a tw.Frame, got {frame!r}")
    if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.players):
        raise ValueError(f"seat must be None or a seat from 0 to {game.players - 1}, got {seat!r}")
    return game.svg(frame, seat)


def state_caption(state) -> str:
    names = state.game.seat_names
    if state.is_over:
        winners = state.winners
        if not winners:
            return "The game is over."
        return "The game is over: " + " and ".join(names[w] for w in winners) + (" win." if len(winners) > 1 else " wins.")
    return f"{names[state.to_move]} to move."


def state_svg(state, seat: Optional[int] = None, caption: Optional[str] = None) -> str:
    """The picture of ``state`` as ``seat`` may see it (``None``: all-seeing)."""
    frame = Frame(step=0, sub=0, caption=state_caption(state) if caption is None else str(caption),
                  view=state.observe(seat), kind="state", data={})
    return frame_svg(state.game, frame, seat)


def png(svg: str) -> Optional[bytes]:
    """``svg`` (one of these pictures, as text) rasterized to PNG bytes, or ``None`` when the
    rasterizer (the ``resvg-py`` package) is not installed. Only our own SVG text is passed:
    it refers to no file or URL, so drawing it reads nothing but the system's fonts."""
    if not isinstance(svg, str) or not svg.startswith("<svg"):
        raise ValueError("png() takes the SVG text of a picture")
    try:
        import resvg_py
    except ImportError:
        return None
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, background=BG))


def match_svg(match: Match, seat: Optional[int] = None, step: Optional[int] = None) -> str:
    """The picture of ``match`` at its cursor (or at ``step``): that step's last frame."""
    if not isinstance(match, Match):
        raise ValueError(f"a picture needs a tw.Match, got {match!r}")
    frames = match.frames_of_step(match.cursor if step is None else step, seat)
    return frame_svg(match.game, frames[-1], seat)

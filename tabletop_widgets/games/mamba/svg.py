"""Mamba as SVG in pure Python: the widget's board (holes, alleys, snouted stones, the last
move's path and the cascade's marks), its legend of seats and the frame's caption.

The geometry and colours are those of ``js/src/mamba_board.js``; colours are written as
attributes, not a stylesheet, so the picture reads the same inside an ``<img>``, a sanitized
page or a document without the widget's CSS.

>>> import tabletop_widgets as tw
>>> from tabletop_widgets.games.mamba import svg
>>> svg.state(tw.make("mamba").new_state()).startswith("<svg")
True
"""

from __future__ import annotations

from typing import Optional

from ...core.match import Frame, Match
from ...core.picture import ACCENT, INK, INK2, caption_lines, document, esc, frame_svg, match_svg, state_svg, view_label

FILES = "abcdefghi"
SIZE = 9
PITCH = 40
MARGIN = 26
HOLE_R = 15
STONE_R = 12
VIEW_SIZE = 2 * MARGIN + SIZE * PITCH
PANEL = 230

COLOURS = {"S": "#d0443a", "N": "#2f6fc0", "E": "#2a9560", "W": "#d49a12"}
SIDE_WORD = {"S": "South", "N": "North", "E": "East", "W": "West"}
ARROW = {"S": "▼", "N": "▲", "E": "▶", "W": "◀"}
ANGLE = {"S": 0, "W": 90, "N": 180, "E": -90}  # a stone is drawn snout down, then turned
BOARD = "#eeeeee"
FIELD = "#d6d6d6"
HOLE = "#ffffff"
LINE = "#bdbdbd"
WARN = "#e65100"
ERROR = "#c62828"


def cell_index(name) -> int:
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        return -1
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def cell_name(index: int) -> str:
    return FILES[index % SIZE] + str(index // SIZE + 1)


def cell_center(name: str) -> tuple[float, float]:
    i = cell_index(name)
    return MARGIN + PITCH / 2 + (i % SIZE) * PITCH, MARGIN + PITCH / 2 + (SIZE - 1 - i // SIZE) * PITCH


def _cells(value) -> list[str]:
    return [c for c in value if cell_index(c) >= 0] if isinstance(value, list) else []


def _side_of_seat(view: dict, seat) -> Optional[str]:
    if isinstance(seat, str) and seat in COLOURS:
        return seat
    sides = view.get("sides") or []
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(sides):
        return sides[seat]
    return None


def _seat_at(data: dict, cell: str, i: int):
    sides = data.get("sides", data.get("seats"))
    if isinstance(sides, list):
        return sides[i] if i < len(sides) else None
    if isinstance(sides, dict):
        return sides.get(cell)
    return None


def marks(frame: Frame) -> dict:
    """What the frame's event changed and what its view leaves pending, as in ``frameMarks``
    of the widget (a picture is one moment: nothing animates)."""
    view, data = frame.view, frame.data or {}
    board = view["board"]
    m = {"from": None, "to": None, "path": [], "dying": {}, "newborn": set(), "parent_used": None,
         "turned": set(), "held": set(), "tug": set(), "run": set(), "ends": set(), "parents": set(),
         "cycle": False}
    kind = frame.kind
    if kind == "move":
        src = data.get("from") if cell_index(data.get("from")) >= 0 else None
        dst = data.get("to") if cell_index(data.get("to")) >= 0 else None
        path = _cells(data.get("path"))
        if src and (not path or path[0] != src):
            path = [src] + path
        if dst and (not path or path[-1] != dst):
            path = path + [dst]
        m.update({"from": src, "to": dst, "path": path})
    elif kind == "birth":
        if cell_index(data.get("parent")) >= 0:
            m["parent_used"] = data["parent"]
        if cell_index(data.get("cell")) >= 0:
            m["newborn"].add(data["cell"])
    elif kind == "suffocation":
        for i, cell in enumerate(_cells(data.get("cells"))):
            m["dying"][cell] = _side_of_seat(view, _seat_at(data, cell, i))
    elif kind == "overpopulation":
        m["run"].update(_cells(data.get("run") or data.get("cells")))
        m["ends"].update(_cells(data.get("ends")))
    elif kind == "trim":
        run = _cells(data.get("run"))
        m["run"].update(run)
        survivor = next((board[cell_index(c)] for c in run if board[cell_index(c)] != "."), None)
        for cell in _cells(data.get("cells")):
            m["dying"][cell] = survivor
    elif kind == "transformation":
        m["turned"].update(_cells(data.get("cells")))
    elif kind == "held":
        m["held"].update(_cells(data.get("cells")))
        m["tug"].update(_cells(data.get("holding_run")) + _cells(data.get("pulling_run")))
    elif kind == "cycle":
        m["cycle"] = True
    m["parents"].update(_cells(view.get("parents")))
    if view.get("phase") == "trim" and isinstance(view.get("trim"), dict):
        m["run"].update(_cells(view["trim"].get("run")))
        m["ends"].update(_cells(view["trim"].get("ends")))
    return m


def stone(side: str, x: float, y: float, opacity: float = 1.0, turned: bool = False, dying: bool = False) -> str:
    """A stone centred on (x, y): a disc with a snout and two eyes toward its owner's edge; a
    dying one (the moment it is removed) is faint and says so in its class."""
    fill = COLOURS.get(side, "#888888")
    ring = f'<circle r="{STONE_R + 3}" fill="none" stroke="{ACCENT}" stroke-width="1.5" stroke-dasharray="2 2"/>' if turned else ""
    return (
        f'<g class="{"stone dying" if dying else "stone"} side-{esc(side)}" data-stone="{esc(side)}" transform="translate({x:g},{y:g})" opacity="{opacity:g}">{ring}'
        f'<g transform="rotate({ANGLE.get(side, 0)})" stroke="{INK}" stroke-width="1.2" fill="{fill}">'
        f'<path d="M -7 {STONE_R - 4} L 0 {STONE_R + 7} L 7 {STONE_R - 4} Z"/><circle r="{STONE_R}"/>'
        f'<circle cx="-4" cy="{STONE_R - 6}" r="1.6" fill="{INK}" stroke="none"/>'
        f'<circle cx="4" cy="{STONE_R - 6}" r="1.6" fill="{INK}" stroke="none"/></g></g>'
    )


def board(frame: Frame) -> str:
    """The board of ``frame`` (its view's 81-character ``board``) as SVG elements."""
    cells = frame.view["board"]
    mk = marks(frame)
    out = [
        f'<g class="mamba-board"><rect x="3" y="3" width="{VIEW_SIZE - 6}" height="{VIEW_SIZE - 6}" rx="14" '
        f'fill="{BOARD}" stroke="{LINE}" stroke-width="2"/>',
        f'<rect x="{MARGIN - 4}" y="{MARGIN - 4}" width="{SIZE * PITCH + 8}" height="{SIZE * PITCH + 8}" rx="10" '
        f'fill="{FIELD}"' + (f' stroke="{WARN}" stroke-width="3"' if mk["cycle"] else "") + "/>",
        f'<g fill="{INK2}" font-size="11" font-weight="600" text-anchor="middle">',
    ]
    for f in range(SIZE):
        x = MARGIN + PITCH / 2 + f * PITCH
        out.append(f'<text x="{x:g}" y="{MARGIN - 9}">{FILES[f]}</text><text x="{x:g}" y="{VIEW_SIZE - MARGIN + 15}">{FILES[f]}</text>')
    for r in range(1, SIZE + 1):
        y = MARGIN + PITCH / 2 + (SIZE - r) * PITCH + 4
        out.append(f'<text x="{MARGIN / 2 - 1:g}" y="{y:g}">{r}</text><text x="{VIEW_SIZE - MARGIN / 2 + 1:g}" y="{y:g}">{r}</text>')
    out.append("</g>")
    alleys = []
    for i in range(SIZE * SIZE):
        ax, ay = cell_center(cell_name(i))
        for j in (i + 1 if i % SIZE < SIZE - 1 else -1, i + SIZE if i + SIZE < SIZE * SIZE else -1):
            if j >= 0:
                bx, by = cell_center(cell_name(j))
                alleys.append(f"M{ax:g} {ay:g}L{bx:g} {by:g}")
    out.append(f'<path d="{"".join(alleys)}" fill="none" stroke="{LINE}" stroke-width="7" stroke-linecap="round"/>')
    if len(mk["path"]) >= 2:
        points = " ".join("%g,%g" % cell_center(c) for c in mk["path"])
        out.append(f'<polyline class="move-path" points="{points}" fill="none" stroke="{ACCENT}" stroke-width="4" '
                   'stroke-linecap="round" stroke-linejoin="round" opacity="0.55"/>')
    for i in range(SIZE * SIZE):
        cell = cell_name(i)
        x, y = cell_center(cell)
        hole_fill, stroke, width, dash = HOLE, LINE, 1.5, ""
        if cell == mk["from"]:
            hole_fill = "#d4e4f6"
        elif cell in mk["path"] and cell != mk["to"]:
            hole_fill = "#e8f0fa"
        if cell == mk["to"]:
            stroke, width = ACCENT, 3
        if cell == mk["parent_used"]:
            stroke, width, dash = ACCENT, 3, ' stroke-dasharray="2 2"'
        if cell in mk["held"] or cell in mk["ends"]:
            stroke, width = WARN, 3
        out.append(f'<circle class="hole" data-cell="{cell}" cx="{x:g}" cy="{y:g}" r="{HOLE_R}" fill="{hole_fill}" '
                   f'stroke="{stroke}" stroke-width="{width}"{dash}/>')
        if cell in mk["parents"]:
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{HOLE_R + 3.5}" fill="none" stroke="{ACCENT}" stroke-width="2" stroke-dasharray="3 3"/>')
        if cell in mk["run"]:
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{HOLE_R + 2}" fill="none" stroke="{WARN}" stroke-width="3"/>')
        elif cell in mk["tug"]:
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{HOLE_R + 2}" fill="none" stroke="{WARN}" stroke-width="2" stroke-dasharray="4 2"/>')
        content = cells[i]
        if content != ".":
            out.append(stone(content, x, y, turned=cell in mk["turned"]))
        elif cell in mk["dying"]:
            side = mk["dying"][cell]
            if side:
                out.append(stone(side, x, y, opacity=0.25, dying=True))
            else:
                out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{STONE_R}" fill="none" stroke="{INK2}" stroke-dasharray="3 2"/>')
        if cell in mk["dying"]:
            out.append(f'<path d="M {x - 7:g} {y - 7:g} L {x + 7:g} {y + 7:g} M {x + 7:g} {y - 7:g} L {x - 7:g} {y + 7:g}" '
                       f'stroke="{ERROR}" stroke-width="2.5" stroke-linecap="round" opacity="0.8"/>')
        if cell in mk["held"]:
            hx, hy = x + HOLE_R - 3, y - HOLE_R + 3
            out.append(f'<g transform="translate({hx:g},{hy:g})"><path d="M -3 -1 V -4 A 3 3 0 0 1 3 -4 V -1" fill="none" '
                       f'stroke="{INK}" stroke-width="1.6"/><rect x="-4.5" y="-1.5" width="9" height="7" rx="1.5" '
                       f'fill="{WARN}" stroke="{INK}" stroke-width="0.8"/></g>')
    out.append("</g>")
    return "".join(out)


def legend(view: dict, x: float, y: float) -> tuple[str, float]:
    """One row per seat (stone, name, snout, stones left, whose turn), then the goal."""
    out = []
    names = view.get("seats") or []
    winners = view.get("winners") or []
    for seat, side in enumerate(view.get("sides") or []):
        turn = view.get("to_move") == seat
        won = seat in winners
        if turn:
            out.append(f'<rect x="{x:g}" y="{y:g}" width="{PANEL - 12}" height="28" rx="6" fill="#e8f0fa" stroke="{ACCENT}"/>')
        out.append(f'<g transform="translate({x + 16:g},{y + 13:g}) scale(0.55)">{stone(side, 0, 0)}</g>')
        name = names[seat] if seat < len(names) else SIDE_WORD.get(side, side)
        count = (view.get("stones") or [""] * (seat + 1))[seat]
        weight = 700 if won else 400
        out.append(f'<text x="{x + 34:g}" y="{y + 18:g}" font-size="13" font-weight="{weight}" fill="{INK}">{esc(name)}</text>')
        out.append(f'<text x="{x + 118:g}" y="{y + 18:g}" font-size="12" fill="{INK}">{ARROW.get(side, "")}</text>')
        out.append(f'<text x="{x + 148:g}" y="{y + 18:g}" font-size="13" font-weight="600" text-anchor="end" fill="{INK}">{esc(count)}</text>')
        badge = "wins" if won else ("to trim" if view.get("phase") == "trim" else "to move") if turn else ""
        if badge:
            out.append(f'<rect x="{x + 156:g}" y="{y + 6:g}" width="54" height="16" rx="4" fill="{ACCENT}"/>'
                       f'<text x="{x + 183:g}" y="{y + 18:g}" font-size="11" text-anchor="middle" fill="#ffffff">{badge}</text>')
        y += 34
    if view.get("goal") is not None:
        text, used = caption_lines(x, y, f"Goal: bring an opponent down to {view['goal']} stones.", 34, size=12, fill=INK2)
        out.append(text)
        y += used
    return "".join(out), y


def view_svg(frame: Frame, seat: Optional[int] = None) -> str:
    """The picture of one frame: board, legend and caption (``Game.svg`` of Mamba)."""
    view = frame.view
    parts = [board(frame)]
    side, _ = legend(view, VIEW_SIZE + 12, 8)
    parts.append(side)
    text, used = caption_lines(12, VIEW_SIZE + 4, frame.caption, 95, size=13)
    parts.append(text)
    label = f"Mamba, step {frame.step}, {view_label(view.get('seats') or [], seat)}: {frame.caption}"
    return document(VIEW_SIZE + PANEL, VIEW_SIZE + used + 12, "".join(parts), label, "tw-mamba")


def state(state, seat: Optional[int] = None, caption: Optional[str] = None) -> str:
    """``state`` drawn as SVG for ``seat`` (Mamba hides nothing: every seat sees the board)."""
    return state_svg(state, seat, caption)


def frame(frame: Frame, game=None, seat: Optional[int] = None) -> str:
    """One of ``match.frames(seat)`` drawn as SVG."""
    return frame_svg(game, frame, seat) if game is not None else view_svg(frame, seat)


def match(match: Match, seat: Optional[int] = None, step: Optional[int] = None) -> str:
    """``match`` at its cursor (or ``step``) drawn as SVG for ``seat``."""
    return match_svg(match, seat, step)

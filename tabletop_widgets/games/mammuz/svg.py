"""MammuZ as SVG in pure Python: the bases, the dinosaurs out of the game, the Plesiosaur
pile, the round's herd (each display face down, turned cards face up), the seats and the
viewing seat's hand, as the widget draws them (``js/src/mammuz.js``, ``mammuz_cards.js``).

Drawn from one seat's view only: a display's cards show face up only where that view
carries them (the seat's own displays, or the all-seeing view), as in the widget.

>>> import tabletop_widgets as tw
>>> from tabletop_widgets.games.mammuz import svg
>>> "Your hand" in svg.state(tw.make("mammuz", players=3).new_state(), seat=1)
True
"""

from __future__ import annotations

from typing import Optional

from ...core.match import Frame, Match
from ...core.picture import ACCENT, INK, INK2, caption_lines, document, esc, frame_svg, match_svg, state_svg, view_label

SPECIES = ["mammoth", "bear", "deer", "tiger", "hare", "squirrel", "gopher", "mouse"]
DINOSAURS = ["brontosaurus", "pterosaur", "triceratops", "stegosaurus", "plesiosaur", "tyrannosaurus"]
CARDS = SPECIES + DINOSAURS
ANIMALS = {
    "mammoth": ("Mammoth", "mammoths", 2, "#8a5a3c"), "bear": ("Bear", "bears", 3, "#3f3f46"),
    "deer": ("Deer", "deer", 4, "#c27c0e"), "tiger": ("Tiger", "tigers", 5, "#e0651b"),
    "hare": ("Hare", "hares", 6, "#7d8ea3"), "squirrel": ("Squirrel", "squirrels", 7, "#b5432a"),
    "gopher": ("Gopher", "gophers", 8, "#6b8e23"), "mouse": ("Mouse", "mice", 9, "#8e6bbf"),
}
DINOS = {
    "brontosaurus": ("Brontosaurus", "#1f7a6d"), "pterosaur": ("Pterosaur", "#2b6cb0"),
    "triceratops": ("Triceratops", "#b7791f"), "stegosaurus": ("Stegosaurus", "#38a169"),
    "plesiosaur": ("Plesiosaur", "#2c5282"), "tyrannosaurus": ("Tyrannosaurus", "#9b2c2c"),
}
PANEL_BG = "#f3f3f3"
PANEL_LINE = "#d6d6d6"
BACK = "#274c77"
BACK_LINE = "#17324f"
EXTINCT = "#8b1d1d"
WIN = "#2e7d32"
WIDTH = 760
CARD_W, CARD_H = 40, 50

ICONS = {
    "mammoth": (
        "<path d=\"M4 19 L4 11 Q4 5 11 5 Q18 5 19 10 L19 19 L16 19 L16 15 L8 15 L8 19 Z\" fill=\"#8a5a3c\"/><path"
        " d=\"M19 10 Q22 13 21 18 L19.5 18 Q20 14 18 12 Z\" fill=\"#6b4226\"/><path d=\"M17 13 Q15 17 11 16\" strok"
        "e=\"#f4ecd8\" stroke-width=\"1.6\" fill=\"none\" stroke-linecap=\"round\"/><circle cx=\"16\" cy=\"8.5\" r=\"0.9\" "
        "fill=\"#fff\"/>"
    ),
    "bear": (
        "<circle cx=\"6.5\" cy=\"6\" r=\"3\" fill=\"#3f3f46\"/><circle cx=\"17.5\" cy=\"6\" r=\"3\" fill=\"#3f3f46\"/><circle"
        " cx=\"12\" cy=\"13\" r=\"8\" fill=\"#3f3f46\"/><ellipse cx=\"12\" cy=\"16\" rx=\"3.5\" ry=\"2.6\" fill=\"#a8a29e\"/><c"
        "ircle cx=\"12\" cy=\"15\" r=\"1.2\" fill=\"#111\"/><circle cx=\"9\" cy=\"11\" r=\"1\" fill=\"#fff\"/><circle cx=\"15\""
        " cy=\"11\" r=\"1\" fill=\"#fff\"/>"
    ),
    "deer": (
        "<path d=\"M8 9 L5 3 M6.2 5.5 L3 4.5 M16 9 L19 3 M17.8 5.5 L21 4.5\" stroke=\"#7a4d08\" stroke-width=\"1.5"
        "\" fill=\"none\" stroke-linecap=\"round\"/><path d=\"M7 9 Q12 7 17 9 L14.5 20 Q12 22 9.5 20 Z\" fill=\"#c27c"
        "0e\"/><circle cx=\"10\" cy=\"12\" r=\"0.9\" fill=\"#fff\"/><circle cx=\"14\" cy=\"12\" r=\"0.9\" fill=\"#fff\"/><elli"
        "pse cx=\"12\" cy=\"19.5\" rx=\"1.6\" ry=\"1.1\" fill=\"#3b2406\"/>"
    ),
    "tiger": (
        "<path d=\"M4 6 L7 9 M20 6 L17 9\" stroke=\"#e0651b\" stroke-width=\"2.5\" stroke-linecap=\"round\"/><ellipse"
        " cx=\"12\" cy=\"12\" rx=\"8\" ry=\"7\" fill=\"#e0651b\"/><path d=\"M12 5 L12 8 M7 8 L9 10 M17 8 L15 10 M5 13 L8"
        " 13 M19 13 L16 13\" stroke=\"#222\" stroke-width=\"1.2\"/><path d=\"M9.5 15 L10.3 22 L11.2 15.5 Z M14.5 15"
        " L13.7 22 L12.8 15.5 Z\" fill=\"#fffdf5\" stroke=\"#555\" stroke-width=\"0.4\"/><circle cx=\"9\" cy=\"11\" r=\"1"
        "\" fill=\"#222\"/><circle cx=\"15\" cy=\"11\" r=\"1\" fill=\"#222\"/>"
    ),
    "hare": (
        "<ellipse cx=\"9\" cy=\"6\" rx=\"1.8\" ry=\"5\" fill=\"#7d8ea3\"/><ellipse cx=\"15\" cy=\"6\" rx=\"1.8\" ry=\"5\" fill="
        "\"#7d8ea3\"/><ellipse cx=\"9\" cy=\"6\" rx=\"0.8\" ry=\"3.5\" fill=\"#f2c5d0\"/><ellipse cx=\"15\" cy=\"6\" rx=\"0.8\""
        " ry=\"3.5\" fill=\"#f2c5d0\"/><ellipse cx=\"12\" cy=\"16\" rx=\"6\" ry=\"5.5\" fill=\"#7d8ea3\"/><circle cx=\"10\" c"
        "y=\"15\" r=\"0.9\" fill=\"#111\"/><circle cx=\"14\" cy=\"15\" r=\"0.9\" fill=\"#111\"/><path d=\"M11 18 L12 19 L13 "
        "18\" stroke=\"#333\" stroke-width=\"0.8\" fill=\"none\"/>"
    ),
    "squirrel": (
        "<path d=\"M16 21 Q23 17 21 9 Q19 3 14 5 Q18 8 17 13 Q16 17 13 19 Z\" fill=\"#b5432a\"/><ellipse cx=\"10\" "
        "cy=\"16\" rx=\"4.5\" ry=\"5\" fill=\"#cf6a4c\"/><circle cx=\"8.5\" cy=\"9\" r=\"3.3\" fill=\"#cf6a4c\"/><path d=\"M7 "
        "6.5 L7.5 4 L9 6\" fill=\"#cf6a4c\"/><circle cx=\"7.6\" cy=\"8.6\" r=\"0.8\" fill=\"#111\"/>"
    ),
    "gopher": (
        "<ellipse cx=\"12\" cy=\"20\" rx=\"10\" ry=\"2.8\" fill=\"#5a3d1e\"/><path d=\"M6 20 L6 11 Q6 4 12 4 Q18 4 18 11"
        " L18 20 Z\" fill=\"#6b8e23\"/><circle cx=\"9.5\" cy=\"10\" r=\"1\" fill=\"#111\"/><circle cx=\"14.5\" cy=\"10\" r=\""
        "1\" fill=\"#111\"/><rect x=\"10.6\" y=\"13.5\" width=\"1.3\" height=\"2.3\" fill=\"#fff\"/><rect x=\"12.1\" y=\"13.5"
        "\" width=\"1.3\" height=\"2.3\" fill=\"#fff\"/><circle cx=\"12\" cy=\"12.5\" r=\"1\" fill=\"#3b2406\"/>"
    ),
    "mouse": (
        "<path d=\"M18 16 Q23 18 21 22\" stroke=\"#8e6bbf\" stroke-width=\"1\" fill=\"none\"/><ellipse cx=\"12\" cy=\"15"
        "\" rx=\"7\" ry=\"4.5\" fill=\"#8e6bbf\"/><circle cx=\"7\" cy=\"9\" r=\"3.2\" fill=\"#8e6bbf\"/><circle cx=\"7\" cy=\"9"
        "\" r=\"1.8\" fill=\"#e8d8f7\"/><circle cx=\"4.5\" cy=\"14\" r=\"0.8\" fill=\"#111\"/><circle cx=\"3\" cy=\"15.5\" r=\""
        "0.7\" fill=\"#f2c5d0\"/>"
    ),
    "brontosaurus": (
        "<path d=\"M3 19 L5 13 Q7 10 12 11 L15 11 Q16 4 19 3 Q22 3 21 5 L18 6 Q17 10 17 13 Q18 18 16 19 L14 19"
        " L14 16 L9 16 L9 19 Z\" fill=\"#1f7a6d\"/><circle cx=\"19.5\" cy=\"4\" r=\"0.6\" fill=\"#fff\"/>"
    ),
    "pterosaur": (
        "<path d=\"M12 10 L2 6 Q5 11 4 15 Q8 12 12 13 Q16 12 20 15 Q19 11 22 6 Z\" fill=\"#2b6cb0\"/><path d=\"M11"
        " 9 Q12 5 16 4 L13 8 Z\" fill=\"#2b6cb0\"/><path d=\"M12 13 L12 18\" stroke=\"#2b6cb0\" stroke-width=\"1.5\"/>"
    ),
    "triceratops": (
        "<path d=\"M4 9 Q8 2 14 4 Q11 8 12 11 Z\" fill=\"#b7791f\"/><path d=\"M6 19 L6 14 Q7 9 13 10 L19 12 Q21 14"
        " 19 16 L17 16 L17 19 L15 19 L15 16 L9 16 L9 19 Z\" fill=\"#d69e2e\"/><path d=\"M19 12 L23 10 M17 10.5 L2"
        "0 6.5 M15 10 L17.5 6\" stroke=\"#fffaf0\" stroke-width=\"1.2\" stroke-linecap=\"round\"/>"
    ),
    "stegosaurus": (
        "<path d=\"M2 17 Q8 10 14 11 Q19 12 22 16 L19 16 L19 19 L17 19 L17 16 L9 16 L9 19 L7 19 L7 16 Z\" fill="
        "\"#38a169\"/><path d=\"M6 13 L7 8 L9 12 M9.5 11.5 L11 6 L13 11 M13 11 L15 6.5 L16.5 12 M16.5 12 L18.5 8"
        ".5 L19 13.5\" fill=\"#276749\" stroke=\"#276749\" stroke-width=\"1\"/>"
    ),
    "plesiosaur": (
        "<path d=\"M2 20 Q5 18 8 20 Q11 22 14 20 Q17 18 20 20 Q21.5 21 22 20.5\" stroke=\"#63b3ed\" stroke-width="
        "\"1.4\" fill=\"none\"/><path d=\"M6 17 Q8 13 13 14 Q14 8 16 5 Q18 3 19.5 4.5 L17.5 6 Q16 10 17 15 Q16 18 "
        "11 18 Z\" fill=\"#2c5282\"/><path d=\"M8 17 L5 19 M13 18 L14 20.5\" stroke=\"#2c5282\" stroke-width=\"1.4\" s"
        "troke-linecap=\"round\"/>"
    ),
    "tyrannosaurus": (
        "<path d=\"M4 20 L8 13 Q9 6 14 5 L20 5 Q22 6 21 9 L16 9 L19 11 L15 12 Q14 16 12 18 L13 20 L10 20 L10 1"
        "8 Z\" fill=\"#9b2c2c\"/><path d=\"M16 9 L17 10 L18 9 L19 10.5\" stroke=\"#fff\" stroke-width=\"0.7\" fill=\"no"
        "ne\"/><circle cx=\"16.5\" cy=\"6.8\" r=\"0.8\" fill=\"#fff\"/><path d=\"M12 13 L14 14\" stroke=\"#9b2c2c\" stroke"
        "-width=\"1.4\"/>"
    ),
    "unknown": (
        "<rect x=\"4\" y=\"4\" width=\"16\" height=\"16\" rx=\"3\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"2 2\"/><t"
        "ext x=\"12\" y=\"16\" text-anchor=\"middle\" font-size=\"10\" fill=\"#888\">?</text>"
    ),
}


def card_name(card) -> str:
    if card in ANIMALS:
        return ANIMALS[card][0]
    if card in DINOS:
        return DINOS[card][0]
    return str(card)


def card_colour(card) -> str:
    if card in ANIMALS:
        return ANIMALS[card][3]
    if card in DINOS:
        return DINOS[card][1]
    return "#888888"


def herd_of(species) -> str:
    return f"herd of {ANIMALS[species][1] if species in ANIMALS else species}"


def count_label(card, n: int) -> str:
    name = card_name(card)
    word = name.lower() if n == 1 else ANIMALS[card][1] if card in ANIMALS else f"{name.lower()}s"
    return f"{n} {word}"


def face(card, x: float, y: float, w: float = CARD_W, h: float = CARD_H, name: bool = False, dim: bool = False) -> str:
    """A card face up: its colour band, its number (animals) or star (dinosaurs), its icon."""
    colour = card_colour(card)
    fill = "#eaf1f8" if card in DINOS else "#fffdf7"
    out = [f'<g opacity="{0.6 if dim else 1}"><rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" fill="{fill}" '
           f'stroke="{colour}" stroke-width="2"/>',
           f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="5" rx="2" fill="{colour}"/>']
    mark = str(ANIMALS[card][2]) if card in ANIMALS else "✶"
    out.append(f'<text x="{x + 4:g}" y="{y + 15:g}" font-size="10" font-weight="700" fill="{colour}">{mark}</text>')
    size = min(w - 14, 24)
    out.append(f'<g transform="translate({x + (w - size) / 2:g},{y + 12:g}) scale({size / 24:g})">{ICONS.get(card, ICONS["unknown"])}</g>')
    if name:
        label = card_name(card)
        font = 10 if len(label) <= 9 else 8 if len(label) <= 12 else 6.5
        out.append(f'<text x="{x + w / 2:g}" y="{y + h - 8:g}" font-size="{font}" font-weight="700" text-anchor="middle" fill="{INK}">{esc(label)}</text>')
    out.append("</g>")
    return "".join(out)


def back(x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> str:
    """A card face down (blue stripes, as ``.mz-back``)."""
    out = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" fill="{BACK}" stroke="{BACK_LINE}" stroke-width="1.5"/>']
    for i in range(-int(h), int(w), 8):
        x1, y1 = x + max(i, 0), y + max(-i, 0)
        length = min(w - max(i, 0), h - max(-i, 0))
        if length > 0:
            out.append(f'<path d="M{x1:g} {y1 + length:g} L{x1 + length:g} {y1:g}" stroke="#3a6ea5" stroke-width="3"/>')
    return "".join(out)


def panel(x: float, y: float, w: float, h: float, title: str) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6" fill="{PANEL_BG}" stroke="{PANEL_LINE}"/>'
            f'<text x="{x + 8:g}" y="{y + 16:g}" font-size="12" font-weight="700" fill="{INK2}">{esc(title)}</text>')


def badge(x: float, y: float, text: str, fill: str = ACCENT) -> tuple[str, float]:
    w = 5.9 * len(text) + 8
    return (f'<rect x="{x:g}" y="{y - 11:g}" width="{w:g}" height="14" rx="3" fill="{fill}"/>'
            f'<text x="{x + w / 2:g}" y="{y:g}" font-size="10.5" text-anchor="middle" fill="#ffffff">{esc(text)}</text>'), w


def status(view: dict, names) -> str:
    """The line above the table: whose turn and what they may do, or the result."""
    def who(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    phase = view.get("phase")
    if phase == "over":
        winners = " and ".join(who(s) for s in view.get("winners") or [])
        return f"Game over — {winners} wins" if winners else "Game over"
    if phase == "start":
        return f"{who(view.get('to_move'))} starts a new herd: names a species and lays 1–4 cards face down."
    if phase == "respond" and view.get("displays"):
        last = view["displays"][-1]
        return f"{who(view.get('to_move'))} expands the {herd_of(view.get('claim'))} or challenges {who(last.get('seat'))}."
    if phase == "give":
        return f"Triceratops: {who(view.get('to_move'))} picks who takes the herd."
    laying = view.get("laying")
    if phase == "lay" and isinstance(laying, dict):
        return (f"{who(laying.get('seat'))} lays cards face down as a {herd_of(laying.get('species'))}: "
                f"{laying.get('count', 0)} so far.")
    return ""


def _hand_cards(hand: dict) -> list:
    rank = {c: i for i, c in enumerate(CARDS)}
    return [c for c in sorted(hand, key=lambda c: rank.get(c, len(CARDS))) for _ in range(int(hand.get(c) or 0))]


def _cards_rows(cards: list, x0: float, y: float, right: float, names: bool = True) -> tuple[list, float]:
    """Face-up cards in rows from (x0, y); returns (markup, height)."""
    w, h = 56, 68
    out, x, top = [], x0, y
    for card in cards:
        if x + w > right:
            x, y = x0, y + h + 6
        out.append(face(card, x, y, w, h, name=names))
        x += w + 6
    return out, (y + h - top) if cards else 16


def view_svg(frame: Frame, seat: Optional[int] = None) -> str:
    """The picture of one frame of MammuZ (``Game.svg`` of MammuZ)."""
    view = frame.view
    names = view.get("seats") or []
    out = []
    y = 10.0
    line = status(view, names)
    out.append(f'<text x="12" y="{y + 14:g}" font-size="14" font-weight="700" fill="{INK}">{esc(line)}</text>')
    y += 26
    # bases, dinosaurs out, the pile
    species = view.get("species") or []
    sizes = view.get("species_size") or {}
    bases = view.get("bases") or {}
    extinct = set(view.get("extinct") or [])
    out.append(panel(12, y, WIDTH - 24, 150, "Bases"))
    for i, s in enumerate(species):
        bx = 24 + i * 62
        n, size = bases.get(s, 0), sizes.get(s, "")
        out.append(face(s, bx, y + 24, dim=s in extinct))
        out.append(f'<text x="{bx + 20:g}" y="{y + 88:g}" font-size="12" font-weight="700" text-anchor="middle" fill="{INK}">{esc(n)}/{esc(size)}</text>')
        if s in extinct:
            mark, _ = badge(bx - 3, y + 103, "extinct", EXTINCT)
            out.append(mark)
    out.append(f'<text x="24" y="{y + 124:g}" font-size="12" font-weight="700" fill="{INK2}">Dinosaurs out of the game</text>')
    gone = view.get("dinosaurs_out") or []
    out.append(f'<text x="24" y="{y + 140:g}" font-size="12" fill="{INK2}">{esc(", ".join(card_name(d) for d in gone) or "none")}</text>')
    if isinstance(view.get("dinosaurs_in_play"), list):
        dealt = ", ".join(card_name(d) for d in view["dinosaurs_in_play"]) or "none"
        out.append(f'<text x="380" y="{y + 140:g}" font-size="11" fill="{INK2}">All-seeing: the dinosaurs dealt are {esc(dealt)}.</text>')
    out.append(f'<text x="220" y="{y + 124:g}" font-size="12" font-weight="700" fill="{INK2}">Plesiosaur pile</text>')
    out.append(f'<text x="220" y="{y + 140:g}" font-size="12" fill="{INK}"><tspan font-weight="700">{esc(view.get("pile", 0))}</tspan> cards</text>')
    y += 158
    # the herd
    displays = view.get("displays") or []
    claim = view.get("claim")
    laying = view.get("laying")
    if claim:
        title = f"The {herd_of(claim)}: {sum(d.get('size', 0) for d in displays)} claimed"
    elif isinstance(laying, dict):
        # A round's starter names the species before laying a card: the herd is being started.
        title = f"A new {herd_of(laying.get('species'))}"
    else:
        title = "No herd: a new round starts"
    marks, hx, hy = [], 24.0, y + 24
    turned_log = view.get("turned") or []
    if turned_log and isinstance(turned_log[-1], dict):
        # The latest challenge stays in sight after its herd is gone: who turned what.
        last_turn = turned_log[-1]

        def name_of(s):
            return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

        mark, w = badge(hx, hy + 12, "last challenge", INK)
        marks.append(mark)
        marks.append(f'<text x="{hx + w + 6:g}" y="{hy + 12:g}" font-size="11.5" fill="{INK}">{esc(name_of(last_turn.get("challenger")))} '
                     f'turned a card of {esc(name_of(last_turn.get("displayer")))}: {esc(card_name(last_turn.get("card")))}</text>')
        hy += 20
    laying = view.get("laying")
    groups = [dict(d, head=None) for d in displays]
    if isinstance(laying, dict):
        groups.append({"seat": laying.get("seat"), "size": laying.get("count", 0), "turned": {}, "cards": laying.get("cards"),
                       "head": f"is laying {laying.get('count', 0)} as {herd_of(laying.get('species'))}"})
    for j, d in enumerate(groups):
        size = d.get("size", 0)
        w = max(size * (CARD_W + 4), 130)
        if hx + w > WIDTH - 24:
            hx, hy = 24.0, hy + CARD_H + 44
        ds = d.get("seat")
        who = names[ds] if isinstance(ds, int) and 0 <= ds < len(names) else "?"
        last = j == len(displays) - 1
        head = d["head"] or f"claims {count_label(claim, size) if claim else size}"
        if last:
            marks.append(badge(hx, hy + 10, "last lay", INK)[0])
        hy_text = hy + 24
        marks.append(f'<text x="{hx:g}" y="{hy_text:g}" font-size="11.5" fill="{INK}"><tspan font-weight="700">{esc(who)}</tspan> '
                     f'<tspan fill="{INK2}">{esc(head)}</tspan></text>')
        turned = d.get("turned") or {}
        known = d.get("cards") if isinstance(d.get("cards"), list) else None
        for i in range(1, size + 1):
            cx = hx + (i - 1) * (CARD_W + 4)
            up = turned.get(str(i))
            if up:
                marks.append(face(up, cx, hy + 30))
                marks.append(f'<rect x="{cx - 2:g}" y="{hy + 28:g}" width="{CARD_W + 4}" height="{CARD_H + 4}" rx="5" fill="none" stroke="{ACCENT}" stroke-width="2"/>')
            elif known is not None and i - 1 < len(known):
                marks.append(face(known[i - 1], cx, hy + 30, dim=True))
            else:
                marks.append(back(cx, hy + 30))
        if last:
            marks.append(f'<rect x="{hx - 4:g}" y="{hy + 26:g}" width="{size * (CARD_W + 4) + 4:g}" height="{CARD_H + 8}" rx="6" '
                         f'fill="none" stroke="{INK2}" stroke-dasharray="4 3"/>')
        hx += w + 14
    herd_h = (hy + CARD_H + 40 - y) if groups else (hy + 10 - y) if turned_log else 26
    out.append(panel(12, y, WIDTH - 24, herd_h, title))
    out.extend(marks)
    y += herd_h + 8
    # the seats
    sizes_in_hand = view.get("hand_sizes") or []
    players = view.get("players") or len(sizes_in_hand)
    per_row = 4
    box_w = (WIDTH - 24 - 16 - (per_row - 1) * 8) / per_row
    rows = (players + per_row - 1) // per_row
    out.append(panel(12, y, WIDTH - 24, 24 + rows * 62, "Players"))
    over = view.get("phase") == "over"
    for s in range(players):
        px = 20 + (s % per_row) * (box_w + 8)
        py = y + 22 + (s // per_row) * 62
        moving = not over and view.get("to_move") == s
        out.append(f'<rect x="{px:g}" y="{py:g}" width="{box_w:g}" height="54" rx="6" fill="#ffffff" '
                   f'stroke="{ACCENT if moving else PANEL_LINE}" stroke-width="{3 if moving else 1.5}"/>')
        name = names[s] if s < len(names) else str(s)
        out.append(f'<text x="{px + 8:g}" y="{py + 17:g}" font-size="13" font-weight="700" fill="{INK}">{esc(name)}</text>')
        bx = px + 14 + 8.6 * len(name)
        started = not over and bool(displays) and view.get("starter") == s
        for text, fill, show in (("you", ACCENT, s == seat), ("to move", ACCENT, moving),
                                 ("herd starter", ACCENT, started),
                                 ("winner", WIN, over and s in (view.get("winners") or []))):
            if show:
                mark, w = badge(bx, py + 17, text, fill)
                out.append(mark)
                bx += w + 4
        n = sizes_in_hand[s] if s < len(sizes_in_hand) else 0
        out.append(f'<text x="{px + 8:g}" y="{py + 38:g}" font-size="11.5" fill="{INK2}">hand <tspan font-weight="700" fill="{INK}">{n}</tspan></text>')
        for k in range(min(n, 14)):
            out.append(back(px + 58 + k * 8, py + 26, 10, 20))
    y += 32 + rows * 62
    # hands the view holds
    hands = []
    if isinstance(view.get("hand"), dict) and seat is not None:
        hands.append((f"Your hand ({names[seat]})" if seat < len(names) else "Your hand", view["hand"]))
    elif isinstance(view.get("hands"), list):
        hands += [(f"{names[i]}'s hand" if i < len(names) else f"hand {i}", h) for i, h in enumerate(view["hands"]) if isinstance(h, dict)]
    for title_text, hand in hands:
        marks, height = _cards_rows(_hand_cards(hand), 24, y + 24, WIDTH - 24)
        if not hand or not any(hand.values()):
            marks = [f'<text x="24" y="{y + 36:g}" font-size="12" fill="{INK2}">no cards</text>']
        out.append(panel(12, y, WIDTH - 24, height + 32, title_text))
        out.extend(marks)
        y += height + 40
    text, used = caption_lines(12, y, frame.caption, 110, size=13)
    out.append(text)
    y += used + 8
    label = f"MammuZ, step {frame.step}, {view_label(names, seat)}: {frame.caption}"
    return document(WIDTH, y, "".join(out), label, "tw-mammuz")


def state(state, seat: Optional[int] = None, caption: Optional[str] = None) -> str:
    """``state`` drawn as SVG from ``state.observe(seat)`` (``None``: all-seeing)."""
    return state_svg(state, seat, caption)


def frame(frame: Frame, game=None, seat: Optional[int] = None) -> str:
    """One of ``match.frames(seat)`` drawn as SVG."""
    return frame_svg(game, frame, seat) if game is not None else view_svg(frame, seat)


def match(match: Match, seat: Optional[int] = None, step: Optional[int] = None) -> str:
    """``match`` at its cursor (or ``step``) drawn as SVG for ``seat``."""
    return match_svg(match, seat, step)

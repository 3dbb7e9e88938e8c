"""Mamma Mia! (both editions) as SVG in pure Python: the supply, the oven and its log, the
table, the players' seats and the viewing seat's hand, as the widget draws them
(``js/src/mamma_mia.js``, ``js/src/mamma_mia_cards.js``: the same colours and icons).

Everything comes from one seat's view (``state.observe(seat)``), so a player's picture shows
their own hand and, of the others, only what the table shows: counts and card backs.

>>> import tabletop_widgets as tw
>>> from tabletop_widgets.games.mamma_mia import svg
>>> "Your hand" in svg.state(tw.make("mamma-mia", players=3).new_state(), seat=0)
True
"""

from __future__ import annotations

from typing import Optional

from ...core.match import Frame, Match
from ...core.picture import ACCENT, INK, INK2, caption_lines, document, esc, frame_svg, match_svg, state_svg, view_label
from .cards import order_name

# js/src/mamma_mia_cards.js: each ingredient takes the colour of the seat it is personal to.
SEAT_COLOURS = {"yellow": "#e3b505", "green": "#2e9d46", "brown": "#8b5a2b", "purple": "#7b4fa0",
                "red": "#c8372d", "pink": "#e0608f"}
KINDS = {
    "salami": ("Salami", "salami", SEAT_COLOURS["red"]),
    "pineapple": ("Pineapple", "pineapples", SEAT_COLOURS["yellow"]),
    "mushroom": ("Mushroom", "mushrooms", SEAT_COLOURS["brown"]),
    "pepper": ("Pepper", "peppers", SEAT_COLOURS["green"]),
    "olive": ("Olive", "olives", SEAT_COLOURS["purple"]),
    "shrimp": ("Shrimp", "shrimps", SEAT_COLOURS["pink"]),
}
PERSONAL = {"yellow": "pineapple", "green": "pepper", "brown": "mushroom", "purple": "olive", "red": "salami",
            "pink": "shrimp"}
ORDER_TYPES = {"normal": "Normale", "bombastica": "Bombastica", "monotoni": "Monotoni", "minimale": "Minimale",
               "ciottona": "Ciottona", "small_monotoni": "Small Monotoni", "mini": "Mini pizza",
               "pizza_mamma_mia": "Pizza Mamma Mia"}
PANEL_BG = "#f3f3f3"
PANEL_LINE = "#d6d6d6"
BACK = "#b33a2a"
BACK_LINE = "#7a2418"
WIDTH = 760

ICONS = {
    "salami": (
        "<circle cx=\"12\" cy=\"12\" r=\"10\" fill=\"#c8372d\" stroke=\"#6e1a14\" stroke-width=\"1.2\"/><circle cx=\"8\" cy"
        "=\"8.5\" r=\"1.6\" fill=\"#f7d9d2\"/><circle cx=\"15\" cy=\"7.5\" r=\"1.2\" fill=\"#f7d9d2\"/><circle cx=\"13\" cy=\""
        "13\" r=\"1.7\" fill=\"#f7d9d2\"/><circle cx=\"7.5\" cy=\"15\" r=\"1.2\" fill=\"#f7d9d2\"/><circle cx=\"16.5\" cy=\"1"
        "6\" r=\"1.3\" fill=\"#f7d9d2\"/>"
    ),
    "pineapple": (
        "<path d=\"M12 1 L10 6 L7 3.5 L9 8 L15 8 L17 3.5 L14 6 Z\" fill=\"#2e9d46\" stroke=\"#1b5e2a\" stroke-width"
        "=\"0.6\"/><ellipse cx=\"12\" cy=\"15\" rx=\"6\" ry=\"7.5\" fill=\"#e3b505\" stroke=\"#8a6a00\" stroke-width=\"1\"/><"
        "path d=\"M7 12 L14 20 M8 9.5 L17 18 M10 8 L17.5 14 M7 15.5 L11 21.5 M17 12 L10 20 M16 9.5 L7 18 M14 8"
        " L6.5 14 M17 15.5 L13 21.5\" stroke=\"#8a6a00\" stroke-width=\"0.7\" fill=\"none\"/>"
    ),
    "mushroom": (
        "<path d=\"M9 12 L9 20 Q12 22.5 15 20 L15 12 Z\" fill=\"#f1e3c8\" stroke=\"#6b4a2a\" stroke-width=\"1\"/><pat"
        "h d=\"M2.5 13 Q3 3 12 3 Q21 3 21.5 13 Z\" fill=\"#8b5a2b\" stroke=\"#4a2e14\" stroke-width=\"1\"/><circle cx"
        "=\"8\" cy=\"8.5\" r=\"1.4\" fill=\"#e8cfa8\"/><circle cx=\"14.5\" cy=\"6.5\" r=\"1.2\" fill=\"#e8cfa8\"/><circle cx="
        "\"16.5\" cy=\"10.5\" r=\"1.1\" fill=\"#e8cfa8\"/>"
    ),
    "pepper": (
        "<path d=\"M12 5.5 Q12 2.5 14.5 1.5\" stroke=\"#1b5e2a\" stroke-width=\"1.8\" fill=\"none\" stroke-linecap=\"r"
        "ound\"/><path d=\"M12 6 Q5 4 4.5 11 Q4.5 18 8 21.5 Q10 23 12 21 Q14 23 16 21.5 Q19.5 18 19.5 11 Q19 4 "
        "12 6 Z\" fill=\"#2e9d46\" stroke=\"#15461f\" stroke-width=\"1\"/><path d=\"M12 7.5 L12 20\" stroke=\"#15461f\" "
        "stroke-width=\"0.8\"/><path d=\"M7.5 8.5 Q6.8 12 7.5 16\" stroke=\"#9fdcab\" stroke-width=\"1\" fill=\"none\"/"
        ">"
    ),
    "olive": (
        "<ellipse cx=\"12\" cy=\"12\" rx=\"7.5\" ry=\"9.5\" fill=\"#7b4fa0\" stroke=\"#3d2452\" stroke-width=\"1.2\" transf"
        "orm=\"rotate(-20 12 12)\"/><ellipse cx=\"13\" cy=\"10.5\" rx=\"2.6\" ry=\"3.3\" fill=\"#f1e6f7\" stroke=\"#3d2452"
        "\" stroke-width=\"0.8\" transform=\"rotate(-20 13 10.5)\"/><path d=\"M8 15.5 Q9 18 11.5 18.5\" stroke=\"#c9b"
        "2dc\" stroke-width=\"1\" fill=\"none\"/>"
    ),
    "shrimp": (
        "<path d=\"M17 5 Q22 11 17.5 17 Q13 21.5 7.5 19 L10 15.5 Q13 16.5 15 14 Q17 11 14 8 Z\" fill=\"#e0608f\" "
        "stroke=\"#8a2450\" stroke-width=\"1\"/><path d=\"M7.5 19 L3 21.5 L4.5 17 Z\" fill=\"#e0608f\" stroke=\"#8a245"
        "0\" stroke-width=\"0.8\"/><path d=\"M16 6.5 L19 8.5 M18.8 10.5 L16 11 M18.2 14 L15.5 13.2 M15 17.5 L13.5"
        " 15.5\" stroke=\"#8a2450\" stroke-width=\"0.8\"/><circle cx=\"16.8\" cy=\"6.8\" r=\"0.9\" fill=\"#3a0d20\"/><path"
        " d=\"M17.5 5.5 Q14 1.5 9 2.5\" stroke=\"#8a2450\" stroke-width=\"0.7\" fill=\"none\"/>"
    ),
}

JOKER_ICON = (
    '<circle cx="12" cy="12" r="10" fill="none" stroke="#555" stroke-width="1.4" stroke-dasharray="3 2"/>'
    '<text x="12" y="17" text-anchor="middle" font-size="14" font-weight="700" fill="#555">?</text>'
)


def kind_label(kind, count: int = 1) -> str:
    info = KINDS.get(kind)
    if info is None:
        return str(kind)
    return info[0].lower() if count == 1 else info[1]


def seat_colour(colour) -> str:
    return SEAT_COLOURS.get(colour, "#888888")


def icon(kind, x: float, y: float, size: float = 16) -> str:
    """The ingredient's icon (a joker for an unknown kind) in a ``size`` square at (x, y)."""
    inner = ICONS.get(kind, JOKER_ICON)
    return f'<g transform="translate({x:g},{y:g}) scale({size / 24:g})">{inner}</g>'


def card_back(x: float, y: float, w: float = 30, h: float = 44, colour: Optional[str] = None, mark: str = "") -> str:
    """A face-down card: the ingredient back (red stripes) or an order back in its seat's colour."""
    fill, line = (seat_colour(colour), seat_colour(colour)) if colour else (BACK, BACK_LINE)
    out = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" fill="{fill}" stroke="{line}" stroke-width="1.5"/>']
    for i in range(-int(h), int(w), 8):
        x1, y1 = x + max(i, 0), y + max(-i, 0)
        length = min(w - max(i, 0), h - max(-i, 0))
        if length > 0:
            out.append(f'<path d="M{x1:g} {y1 + length:g} L{x1 + length:g} {y1:g}" stroke="#ffffff" stroke-opacity="0.25" stroke-width="3"/>')
    if mark:
        out.append(f'<text x="{x + w / 2:g}" y="{y + h / 2 + 4:g}" font-size="11" font-weight="800" text-anchor="middle" fill="#ffffff">{esc(mark)}</text>')
    return "".join(out)


def stack(x: float, y: float, n: int, label: str) -> str:
    """A pile of face-down ingredient cards with its count."""
    out = [card_back(x + 2 * i, y + 2 * i, 44, 60, mark="MM" if i == min(n, 3) - 1 else "") for i in range(min(max(n, 1), 3))]
    if n == 0:
        out = [f'<rect x="{x:g}" y="{y:g}" width="44" height="60" rx="4" fill="none" stroke="{INK2}" stroke-dasharray="3 3"/>']
    out.append(f'<text x="{x + 24:g}" y="{y + 80:g}" font-size="12" text-anchor="middle" fill="{INK2}">{label} '
               f'<tspan font-weight="700" fill="{INK}">{n}</tspan></text>')
    return "".join(out)


def panel(x: float, y: float, w: float, h: float, title: str) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6" fill="{PANEL_BG}" stroke="{PANEL_LINE}"/>'
            f'<text x="{x + 8:g}" y="{y + 16:g}" font-size="12" font-weight="700" fill="{INK2}">{esc(title)}</text>')


def dot(colour, x: float, y: float, r: float = 4.5) -> str:
    return f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{seat_colour(colour)}" stroke="#00000055"/>'


def badge(x: float, y: float, text: str, fill: str = ACCENT) -> tuple[str, float]:
    w = 7 * len(text) + 8
    return (f'<rect x="{x:g}" y="{y - 11:g}" width="{w:g}" height="14" rx="3" fill="{fill}"/>'
            f'<text x="{x + w / 2:g}" y="{y:g}" font-size="10.5" text-anchor="middle" fill="#ffffff">{esc(text)}</text>'), w


def recipe_lines(order: dict, edition) -> list[tuple]:
    """(kind or None, count or None, text) per line of an order card, as ``recipeLines``."""
    recipe = order.get("recipe") or {}
    lines = [(k, n, kind_label(k, n)) for k, n in sorted(((k, n) for k, n in recipe.items() if n), key=lambda kn: -kn[1])]
    personal = PERSONAL.get(order.get("colour"))
    bare = not recipe
    kind = order.get("type")

    def with_personal():
        if bare and personal:
            lines.append((personal, 1, kind_label(personal)))

    if kind == "bombastica":
        lines.append((None, None, "15+ cards: takes the whole table"))
    elif kind == "monotoni":
        with_personal()
        lines.append((None, 6, "of one kind you choose"))
    elif kind == "ciottona":
        with_personal()
        lines += [(None, 4, "of one kind you choose"), (None, 4, "of another kind")]
    elif kind == "minimale":
        with_personal()
        lines.append((None, 4 if edition == "plus" else 3, "of the scarcest kind on the table"))
    elif kind == "small_monotoni":
        lines.append((None, 5, "of one kind you choose"))
    elif kind == "pizza_mamma_mia":
        fixed = order.get("fixed") or personal
        if bare and fixed:
            lines.append((fixed, 1, kind_label(fixed)))
        choices = order.get("choices") or []
        lines.append((None, 5, " or ".join(kind_label(k, 2) for k in choices) if choices else "of one printed kind"))
    if order.get("crossed"):
        lines.append((order["crossed"], None, f"no {kind_label(order['crossed'], 2)} on the table"))
    return lines


def order_card(order: dict, x: float, y: float, edition) -> tuple[str, float]:
    """A face-up order card: its seat's colour, its name and its recipe. Returns (markup, width)."""
    lines = recipe_lines(order, edition)
    w = max(120, 40 + 6.2 * max((len(t) for _, _, t in lines), default=0))
    h = 26 + 16 * len(lines)
    colour = seat_colour(order.get("colour"))
    name = order.get("name") or ORDER_TYPES.get(order.get("type"), order.get("type"))
    out = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{max(h, 60):g}" rx="5" fill="#fffdf5" stroke="{colour}" stroke-width="2.5"/>',
           f'<rect x="{x + 4:g}" y="{y + 4:g}" width="{w - 8:g}" height="14" rx="2" fill="{colour}"/>',
           f'<text x="{x + 8:g}" y="{y + 15:g}" font-size="10.5" font-weight="700" fill="#222">{esc(name)}</text>']
    ly = y + 22
    for kind, n, text in lines:
        crossed = n is None and kind is not None
        if n is not None:
            out.append(f'<text x="{x + 8:g}" y="{ly + 11:g}" font-size="10" font-weight="700" fill="{INK}">{n}×</text>')
        out.append(icon(kind, x + 24, ly + 1, 12))
        deco = ' text-decoration="line-through"' if crossed else ""
        out.append(f'<text x="{x + 40:g}" y="{ly + 11:g}" font-size="10" fill="{INK}"{deco}>{esc(text)}</text>')
        ly += 16
    return "".join(out), w


def ingredient_card(kind, count: int, x: float, y: float) -> str:
    label, _, colour = KINDS.get(kind, (str(kind), str(kind), "#888888"))
    out = [f'<rect x="{x:g}" y="{y:g}" width="56" height="68" rx="5" fill="#ffffff" stroke="{colour}" stroke-width="2"/>',
           f'<rect x="{x:g}" y="{y:g}" width="56" height="6" rx="2" fill="{colour}"/>',
           icon(kind, x + 16, y + 12, 24),
           f'<text x="{x + 28:g}" y="{y + 54:g}" font-size="{10.5 if len(label) < 9 else 9}" font-weight="700" text-anchor="middle" fill="{INK}">{esc(label)}</text>']
    if count > 1:
        out.append(f'<circle cx="{x + 50:g}" cy="{y + 8:g}" r="9" fill="{INK}"/>'
                   f'<text x="{x + 50:g}" y="{y + 12:g}" font-size="10" font-weight="700" text-anchor="middle" fill="#ffffff">×{count}</text>')
    return "".join(out)


def last_played(frame: Frame) -> Optional[dict]:
    """What the frame's turn put in the oven (its public data), as the widget's ``lastPlayed``:
    ``{seat, put: {kind, count} or None, order, source, drew}``; None when it is no turn."""
    data = frame.data or {} if frame.kind == "turn" else None
    if not data or not isinstance(data.get("seat"), int):
        return None
    put = data.get("put")
    put = {"kind": put["kind"], "count": int(put.get("count") or 0)} if isinstance(put, dict) and isinstance(put.get("kind"), str) else None
    return {"seat": data["seat"], "put": put, "order": bool(data.get("order")), "source": data.get("source"),
            "drew": int(data.get("drew") or 0)}


def played_entries(log: list, played: Optional[dict]) -> set:
    """Log indices of the cards ``played`` put in the oven: the newest, ingredient first."""
    out = set()
    if not played:
        return out
    i = len(log) - 1
    if played["order"] and i >= 0 and "order" in log[i] and log[i].get("seat") == played["seat"]:
        out.add(i)
        i -= 1
    if played["put"] and i >= 0 and log[i].get("kind") == played["put"]["kind"] and log[i].get("seat") == played["seat"]:
        out.add(i)
    return out


def _log_entry(entry: dict, names, colours) -> tuple[Optional[str], str, Optional[str]]:
    """(seat colour, words, kind for the icon) of one oven log entry."""
    seat = entry.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "left on the table from the last oven"
    colour = colours[seat] if isinstance(seat, int) and 0 <= seat < len(colours) else None
    if "kind" in entry:
        n = entry.get("count", 1)
        return colour, f"{who}: {n} {kind_label(entry['kind'], n)}", entry["kind"]
    card = entry.get("card")
    if isinstance(card, dict):
        return colour, f"{who}: an order (face down): {order_name(card)}", None
    return colour, f"{who}: an order (face down)", None


def view_svg(frame: Frame, seat: Optional[int] = None) -> str:
    """The picture of one frame of Mamma Mia! (``Game.svg`` of both editions)."""
    view = frame.view
    names = view.get("seats") or []
    colours = view.get("colours") or []
    edition = view.get("edition")
    kinds = view.get("kinds") or list(KINDS)
    out = []
    y = 10.0
    title = "Mamma Mia! Plus" if edition == "plus" else "Mamma Mia!"
    head = f'<text x="12" y="{y + 14:g}" font-size="14" font-weight="700" fill="{INK}">{title}</text>'
    head += f'<text x="170" y="{y + 14:g}" font-size="13" fill="{INK}">Oven {esc(view.get("oven_number", ""))} of {esc(view.get("ovens", ""))}</text>'
    to_move = view.get("to_move")
    evaluation = view.get("evaluation") if isinstance(view.get("evaluation"), dict) else None

    def name_of(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    if view.get("winners") or view.get("phase") == "over":
        winners = view.get("winners") or []
        text = f"Game over — {' and '.join(name_of(w) for w in winners)} {'share the win' if len(winners) > 1 else 'wins'}" if winners else "Game over"
        head += f'<text x="282" y="{y + 14:g}" font-size="13" font-weight="700" fill="{INK}">{esc(text)}</text>'
    elif view.get("phase") == "evaluation":
        decision = (evaluation or {}).get("decision")
        text = f"Emptying the oven — {name_of(decision.get('seat'))} decides" if isinstance(decision, dict) else "Emptying the oven"
        head += f'<text x="282" y="{y + 14:g}" font-size="13" fill="{INK}">{esc(text)}</text>'
    elif isinstance(to_move, int) and 0 <= to_move < len(names):
        head += dot(colours[to_move] if to_move < len(colours) else None, 282, y + 10)
        head += f'<text x="292" y="{y + 14:g}" font-size="13" fill="{INK}">{esc(names[to_move])} to play</text>'
    out.append(head)
    y += 26
    # supply and oven
    oven = view.get("oven") or {}
    log = list(oven.get("log") or [])
    played = last_played(frame)
    fresh = played_entries(log, played)
    # During the evaluation the first cards of the log have been revealed: count them off.
    revealed_cards = len((evaluation or {}).get("revealed") or [])
    revealed = set()
    for i, entry in enumerate(log):
        n = entry.get("count", 0) if "kind" in entry else 1
        if revealed_cards >= n > 0:
            revealed.add(i)
            revealed_cards -= n
        else:
            break
    shown = log[::-1][:8]
    oven_h = max(118, 30 + 17 * len(shown) + (14 if len(log) > len(shown) else 0))
    out.append(panel(12, y, 80, oven_h, "Supply"))
    out.append(stack(24, y + 24, view.get("supply", 0), "cards"))
    if view.get("mamma_mia_card") == "supply":
        out.append(f'<text x="18" y="{y + oven_h - 8:g}" font-size="9" fill="{INK2}">MM! in supply</text>')
    out.append(panel(100, y, WIDTH - 112, oven_h, "Oven"))
    out.append(stack(112, y + 24, oven.get("size", 0), "cards"))
    ly = y + 22
    for i, entry in enumerate(shown):
        colour, words, kind = _log_entry(entry, names, colours)
        new = len(log) - 1 - i in fresh
        tx = 180
        if new:
            mark, w = badge(tx - 4, ly + 12, "new", INK)
            out.append(mark)
            tx += w + 2
        out.append(dot(colour, tx, ly + 8))
        weight = 700 if new else 400
        done = len(log) - 1 - i in revealed
        style = f' fill="{INK2}" text-decoration="line-through"' if done else f' fill="{INK}"'
        out.append(f'<text x="{tx + 10:g}" y="{ly + 12:g}" font-size="12" font-weight="{weight}"{style}>{esc(words[:88])}</text>')
        if kind:
            out.append(icon(kind, tx + 16 + 6.8 * len(words[:88]), ly, 13))
        ly += 17
    if len(log) > len(shown):
        out.append(f'<text x="190" y="{ly + 12:g}" font-size="11" fill="{INK2}">… {len(log) - len(shown)} earlier</text>')
    y += oven_h + 8
    # the table
    out.append(panel(12, y, WIDTH - 24, 46, "Table"))
    table = view.get("table") or {}
    for i, kind in enumerate(kinds):
        tx = 24 + i * 70
        out.append(icon(kind, tx, y + 22, 16))
        out.append(f'<text x="{tx + 22:g}" y="{y + 35:g}" font-size="12" font-weight="700" fill="{INK}">{esc(table.get(kind, 0))}</text>')
    y += 54
    # the oven being emptied: the last cards revealed and the order being settled
    if evaluation:
        cards = (evaluation.get("revealed") or [])[-8:]
        marks, ex, row_h = [], 24.0, 16.0
        for card in cards:
            if not isinstance(card, dict):
                continue
            if card.get("type") == "order" or card.get("order_type") or "recipe" in card:
                order = dict(card, type=card.get("order_type") or card.get("type"))
                mark, w = order_card(order, ex, y + 24, edition)
                h = max(60, 26 + 16 * len(recipe_lines(order, edition)))
            else:
                mark, w, h = ingredient_card(card.get("kind"), 1, ex, y + 24), 56, 68
            if ex + w > WIDTH - 24:
                break
            marks.append(mark)
            ex += w + 6
            row_h = max(row_h, h)
        settling = evaluation.get("order")
        if isinstance(settling, dict) and ex + 130 < WIDTH - 24:
            order = dict(settling, type=settling.get("order_type") or settling.get("type"))
            marks.append(f'<text x="{ex + 8:g}" y="{y + 36:g}" font-size="11.5" font-weight="700" fill="{INK}">'
                         f'{esc(name_of(settling.get("owner")))}\'s order</text>')
            mark, w = order_card(order, ex + 8, y + 42, edition)
            marks.append(mark)
            row_h = max(row_h, 18 + max(60, 26 + 16 * len(recipe_lines(order, edition))))
        title_text = (f"Emptying the oven — {name_of(evaluation.get('emptier'))} reveals the cards one by one "
                      f"({evaluation.get('remaining') or 0} left)")
        out.append(panel(12, y, WIDTH - 24, row_h + 32, title_text))
        out.extend(marks)
        y += row_h + 40
    # the last turn, in words and cards
    if played:
        p_colour = colours[played["seat"]] if played["seat"] < len(colours) else None
        parts = []
        if played["put"]:
            parts.append(f"put {played['put']['count']} {kind_label(played['put']['kind'], played['put']['count'])} in the oven")
        if played["order"]:
            parts.append("put an order in the oven, face down")
        if played["drew"]:
            n = played["drew"]
            parts.append(f"drew {n} order{'s' * (n != 1)} from their waiter" if played["source"] == "waiter" else f"drew {n} from the supply")
        who = names[played["seat"]] if played["seat"] < len(names) else "?"
        out.append(panel(12, y, WIDTH - 24, 46, "Last turn"))
        out.append(dot(p_colour, 24, y + 31))
        out.append(f'<text x="34" y="{y + 35:g}" font-size="12" fill="{INK}">{esc(who)} {esc(", ".join(parts) or "passed")}.</text>')
        y += 54
    # the seats
    players = view.get("players") or []
    per_row = 4
    rows = (len(players) + per_row - 1) // per_row
    box_w = (WIDTH - 24 - 16 - (per_row - 1) * 8) / per_row
    out.append(panel(12, y, WIDTH - 24, 24 + rows * 82, "Players"))
    for i, p in enumerate(players):
        px = 20 + (i % per_row) * (box_w + 8)
        py = y + 22 + (i // per_row) * 82
        s = p.get("seat", i)
        colour = seat_colour(p.get("colour"))
        line = ACCENT if s == to_move else colour
        out.append(f'<rect x="{px:g}" y="{py:g}" width="{box_w:g}" height="74" rx="6" fill="#ffffff" stroke="{line}" '
                   f'stroke-width="{3 if s == to_move else 1.5}"/>')
        out.append(dot(p.get("colour"), px + 12, py + 14))
        name = names[s] if s < len(names) else str(s)
        out.append(f'<text x="{px + 22:g}" y="{py + 18:g}" font-size="13" font-weight="700" fill="{INK}">{esc(name)}</text>')
        bx = px + 30 + 8.6 * len(name)
        for text, fill, show in (("you", ACCENT, s == seat), ("to move", ACCENT, s == to_move),
                                 ("just played", INK, bool(played) and played["seat"] == s),
                                 ("winner", "#2e7d32", s in (view.get("winners") or []))):
            if show:
                mark, w = badge(bx, py + 18, text, fill)
                out.append(mark)
                bx += w + 4
        out.append(f'<text x="{px + 10:g}" y="{py + 36:g}" font-size="11.5" fill="{INK2}">waiter <tspan font-weight="700" fill="{INK}">'
                   f'{esc(p.get("waiter", 0))}</tspan>  delivered <tspan font-weight="700" fill="{INK}">{esc(p.get("delivered", 0))}</tspan></text>')
        ing, orders = p.get("hand_ingredients", 0), p.get("hand_orders", 0)
        out.append(f'<text x="{px + 10:g}" y="{py + 54:g}" font-size="11.5" fill="{INK2}">hand <tspan font-weight="700" fill="{INK}">'
                   f'{esc(ing)}+{esc(orders)}</tspan></text>')
        cx = px + 74
        for k in range(min(ing, 8)):
            out.append(card_back(cx + k * 5, py + 42, 12, 18))
        cx += min(ing, 8) * 5 + 14
        for k in range(min(orders, 8)):
            out.append(card_back(cx + k * 5, py + 42, 12, 18, colour=p.get("colour")))
        if p.get("mamma_mia"):
            out.append(f'<rect x="{px + box_w - 30:g}" y="{py + 26:g}" width="22" height="32" rx="3" fill="#d32f2f" stroke="#8e0000"/>'
                       f'<text x="{px + box_w - 19:g}" y="{py + 45:g}" font-size="7" font-weight="800" text-anchor="middle" fill="#fff">MM!</text>')
    y += 32 + rows * 82
    # the viewing seat's hand (all-seeing: every hand)
    hands = []
    if isinstance(view.get("hand"), dict) and seat is not None:
        hands.append((f"Your hand ({names[seat]})" if seat < len(names) else "Your hand", view["hand"]))
    elif isinstance(view.get("hands"), list):
        hands += [(f"{names[i]}'s hand" if i < len(names) else f"hand {i}", h) for i, h in enumerate(view["hands"]) if isinstance(h, dict)]
    for title_text, hand in hands:
        cards = [(k, n) for k, n in (hand.get("ingredients") or {}).items() if n]
        orders = hand.get("orders") or []
        marks, hx, hy, row_h = [], 24.0, y + 24, 0.0
        for k, n in cards:
            if hx + 56 > WIDTH - 24:
                hx, hy, row_h = 24.0, hy + row_h + 8, 0.0
            marks.append(ingredient_card(k, n, hx, hy))
            hx += 62
            row_h = max(row_h, 68)
        for order in orders:
            mark, w = order_card(order, 0, 0, edition)
            lines = len(recipe_lines(order, edition))
            h = max(60, 26 + 16 * lines)
            if hx + w > WIDTH - 24:
                hx, hy, row_h = 24.0, hy + row_h + 8, 0.0
            marks.append(f'<g transform="translate({hx:g},{hy:g})">{mark}</g>')
            hx += w + 6
            row_h = max(row_h, h)
        if not cards and not orders:
            marks.append(f'<text x="24" y="{hy + 12:g}" font-size="12" fill="{INK2}">no cards</text>')
            row_h = 16
        height = hy + row_h + 8 - y
        out.append(panel(12, y, WIDTH - 24, height, title_text))
        out.extend(marks)
        y += height + 8
    text, used = caption_lines(12, y, frame.caption, 110, size=13)
    out.append(text)
    y += used + 8
    label = f"{title}, step {frame.step}, {view_label(names, seat)}: {frame.caption}"
    return document(WIDTH, y, "".join(out), label, "tw-mamma-mia")


def state(state, seat: Optional[int] = None, caption: Optional[str] = None) -> str:
    """``state`` drawn as SVG from ``state.observe(seat)`` (``None``: all-seeing)."""
    return state_svg(state, seat, caption)


def frame(frame: Frame, game=None, seat: Optional[int] = None) -> str:
    """One of ``match.frames(seat)`` drawn as SVG."""
    return frame_svg(game, frame, seat) if game is not None else view_svg(frame, seat)


def match(match: Match, seat: Optional[int] = None, step: Optional[int] = None) -> str:
    """``match`` at its cursor (or ``step``) drawn as SVG for ``seat``."""
    return match_svg(match, seat, step)

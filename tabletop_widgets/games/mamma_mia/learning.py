"""The learning hooks of Mamma Mia! and Mamma Mia! Plus (``tabletop_widgets.pettingzoo``).

:func:`action_catalogue` lists every notation ``legal_actions()`` can produce for a game's
players and options, derived from the deck and the rules constants (never from sampled games);
:func:`action_parts` the few hundred parts a learner chooses those actions from, part by part
(:func:`parts_of` names each action's parts); :func:`observation_vector` encodes
``state.observe(seat)`` as a fixed-length list of numbers, every seat counted from the viewer.
``MammaMia`` wires them in as its ``Game`` hooks.
"""

from __future__ import annotations

from array import array
from itertools import chain

from ..._extras import numpy_or_none
from . import oven
from .cards import (BOMBASTICA_MIN, ORDER_TYPES, Ask, Help, Make, Refuse, Restock, SendBack, Turn, _ask_action_new,
                    _kept, _make_action_new, _parse_cards, _variant_text)

PHASES = ("turn", "evaluation", "over")
DECISION_KINDS = ("add_from_hand", "choose_kind", "help")
RESULTS = ("made", "sent back")
# a game keeps the vector's part of at most this many revealed orders (emptied when full)
_SHOWN_VECTORS = 20_000


# ---------------------------------------------------------------------------------------------
# the action catalogue
def order_labels(game) -> tuple:
    """The labels of every order card the seated colours own, sorted (identical cards share one)."""
    return tuple(sorted({o.label for o in game.deck if o.colour < game.players}))


def _max_held(game) -> int:
    # A hand never holds more ingredients than the hand limit: the deal is below it, a draw
    # stops at it, and Plus's "draw 5 ingredients" starts from none. Nor more than a kind has.
    return min(game.limit, game.per_kind)


def _sub_multisets(counts, at_least=1, at_most=None):
    """Every multiset below ``counts`` (a tuple of counts) with ``at_least``–``at_most`` cards,
    in a fixed order (built kind by kind, never more cards than ``at_most``)."""
    at_most = sum(counts) if at_most is None else at_most
    out = []

    def grow(prefix, i, room):
        if i == len(counts):
            if sum(prefix) >= at_least:
                out.append(tuple(prefix))
            return
        for n in range(min(counts[i], room) + 1):
            grow(prefix + [n], i + 1, room - n)

    grow([], 0, at_most)
    return out


def _turn_actions(game) -> list:
    # The whole product put × order × draw (under 50k even for Plus with 6 players): a few
    # combinations never arise (7 of a kind beside an order in a 7-card hand), but none is
    # left out by a reachability argument that could be wrong.
    puts = [(None, 0)] + [(kind, n) for kind in game.kinds for n in range(1, _max_held(game) + 1)]
    orders = (None,) + order_labels(game)
    out = [Turn(kind, n, order, source, draw)
           for kind, n in puts for order in orders for source, draw in _draws(game)]
    if game.draw_cap is not None:
        out.append(Restock())
    return out


def _draws(game) -> list:
    """Every ``(source, count)`` a turn's draw may name."""
    draws = [(None, None), ("supply", None), ("waiter", None)]
    if game.options["optional_actions"]:
        # a short draw names fewer cards than the refill would give, which is at most the
        # hand limit (Plus: at most the draw cap)
        most = game.limit if game.draw_cap is None else min(game.limit, game.draw_cap)
        draws += [(source, n) for source in ("supply", "waiter") for n in range(1, most)]
    return draws


def _settle_actions(game) -> list:
    """Every ``make …``/``ask …`` an order of a seated colour can offer its owner (in the order
    of their notations)."""
    kinds, nk = game.kinds, game.nk
    held = _max_held(game)
    dealt = game.new_state(0)
    out = {}
    bombastica = False

    def add(action):
        out[str(action)] = action

    for card in game.deck:
        if card.colour >= game.players:
            continue
        if card.type == "bombastica":
            bombastica = True
            continue  # its notations are the same for every colour; no Help for it
        for variant, needs in _variants_of(game, card, dealt):
            # the table may hold all of it (only offered when there is a choice of kind) or
            # any part; the missing cards come from the hand, or are asked for (a part of
            # them, the hand adding the rest)
            if variant is not None:
                add(_make_action_new(variant, None, kinds))
            for part in _sub_multisets(needs):
                add(_make_action_new(variant, part, kinds))
                if game.help:
                    add(_ask_action_new(variant, part, kinds))
    if bombastica and game.options["bombastica_from_hand"]:
        # the cards added to reach 15 (the table holds at least one fewer): any handful the
        # hand can hold
        most = min(BOMBASTICA_MIN - 1, game.limit)
        for cards in _sub_multisets((held,) * nk, 1, most):
            add(_make_action_new(None, cards, kinds))
    return [out[notation] for notation in sorted(out)]


def _variants_of(game, card, dealt):
    """The ways ``card`` could ever be made: every kind a joker may take, and for the Minimale
    every kind not printed on it (whichever has the fewest cards on the table)."""
    if card.type == "minimale":
        return [(k, tuple(n + (game.minimale if i == k else 0) for i, n in enumerate(card.recipe)))
                for k in range(game.nk) if not card.recipe[k]]
    # the engine's own list; only the Minimale and the crossed-out kinds read the table, and
    # the table of ``dealt`` (a fresh deal) is empty
    variants, _ = dealt._variants(card)
    return variants


def catalogue_actions(game) -> list:
    """The whole actions of :func:`action_catalogue`, in its order."""
    out = _turn_actions(game) + [SendBack()]
    if game.help:
        out += [Help(), Refuse()]
    return list({str(a): a for a in out + _settle_actions(game)}.values())


def action_catalogue(game) -> tuple:
    """Turns (put × order × draw), Plus's ``draw 5 ingredients``, then the evaluation's
    decisions, each once, in an order fixed by the deck and the rules constants."""
    return tuple(map(str, catalogue_actions(game)))


# ---------------------------------------------------------------------------------------------
# the parts of an action: the learning environment's action space
#
# The whole actions are a product (a turn is put × order × draw; a make or an ask names a
# multiset of cards): 3,207 of them for classic with 4 players, 19,817 for Plus with 6, 47,537
# with optional actions. A learner chooses an action part by part instead, from a catalogue of
# a few hundred parts: a turn is its put, its order, its draw; a make or an ask is its way to
# make the order (the joker kinds), then how many cards of each kind it adds from the hand or
# asks for, kind by kind in the table's order. The environment offers the parts that begin a
# legal action and plays the action once its parts are chosen (tabletop_widgets.pettingzoo).
def _draw_part(source, n) -> str:
    if source is None:
        return "no draw"
    return f"draw {source}" if n is None else f"draw {n} from {source}"


def _all_variants(game) -> list:
    """Every way to make an order of a seated colour (the joker kinds), ``None`` first."""
    dealt = game.new_state(0)
    found = {None}
    for card in game.deck:
        if card.colour < game.players and card.type != "bombastica":
            found.update(variant for variant, _ in _variants_of(game, card, dealt))
    return sorted(found, key=lambda v: (0, ()) if v is None else (1, (v,)) if isinstance(v, int) else (2, v))


def _most_counted(game) -> int:
    """The most cards of one kind a make adds or an ask asks for: what a recipe needs, or what
    a hand may add to a Bombastica."""
    dealt = game.new_state(0)
    seated = [card for card in game.deck if card.colour < game.players]
    most = max(n for card in seated if card.type != "bombastica" for _, need in _variants_of(game, card, dealt)
               for n in need)
    if game.options["bombastica_from_hand"] and any(card.type == "bombastica" for card in seated):
        most = max(most, min(_max_held(game), BOMBASTICA_MIN - 1, game.limit))
    return most


def action_parts(game) -> tuple:
    """The parts a learner chooses an action from, in a fixed order: a turn's put
    (``put nothing``, ``put <n> <kind>``), its order (``no order``, ``order <label>``), its
    draw (``no draw``, ``draw supply``, ``draw waiter``, short draws with optional actions);
    Plus's ``draw 5 ingredients``; ``send back``, ``help``, ``refuse``; ``make`` and ``ask``
    with each way to make an order (``make with olive``, ``ask with salami+olive``); then
    ``<n> <kind>`` (n from 0), the count of one kind a make adds or an ask asks for."""
    kinds = game.kinds
    out = ["put nothing"] + [f"put {n} {kind}" for kind in kinds for n in range(1, _max_held(game) + 1)]
    out += ["no order"] + [f"order {label}" for label in order_labels(game)]
    out += [_draw_part(source, n) for source, n in _draws(game)]
    if game.draw_cap is not None:
        out.append(str(Restock()))
    out.append(str(SendBack()))
    if game.help:
        out += [str(Help()), str(Refuse())]
    variants = _all_variants(game)
    out += ["make" + _variant_text(v, kinds) for v in variants]
    if game.help:
        out += ["ask" + _variant_text(v, kinds) for v in variants]
    most = _most_counted(game)
    out += [f"{n} {kind}" for kind in kinds for n in range(most + 1)]
    return tuple(out)


def _action_parts_of(game, index, action) -> tuple:
    """The parts of ``action`` as indices into :func:`action_parts` (``index``: part → index)."""
    kinds = game.kinds
    if isinstance(action, Turn):
        put = "put nothing" if not action.count else f"put {action.count} {action.kind}"
        order = "no order" if action.order is None else f"order {action.order}"
        return index[put], index[order], index[_draw_part(action.source, action.draw)]
    if isinstance(action, (Make, Ask)):
        verb = "make" if isinstance(action, Make) else "ask"
        cards = action.add if verb == "make" else action.cards
        counts = (0,) * len(kinds) if cards is None else _parse_cards(cards, kinds)
        return (index[verb + _variant_text(action.variant, kinds)],
                *(index[f"{n} {kind}"] for n, kind in zip(counts, kinds)))
    return (index[str(action)],)


def parts_of(game, actions) -> list:
    """The parts of each of ``actions`` (a ``legal_actions()`` list), as tuples of indices into
    :func:`action_parts`. Actions are values built once, so each one's parts are kept."""
    d = game.__dict__
    known = d.get("_parts_of")
    if known is None:
        known = d["_parts_of"] = {}
    try:
        return list(map(known.__getitem__, actions))
    except KeyError:
        index = d.get("_part_index")
        if index is None:
            index = d["_part_index"] = {part: i for i, part in enumerate(game.action_parts())}
        out = []
        for action in actions:
            parts = known.get(action)
            if parts is None:
                parts = known[action] = _action_parts_of(game, index, action)
            out.append(parts)
        return out


# ---------------------------------------------------------------------------------------------
# the observation vector
def _segments(game) -> list:
    """The vector's parts in order, ``(name, length)``. "Per seat" parts start at the viewer."""
    P, K, L = game.players, game.nk, len(order_labels(game))
    out = [("phase", len(PHASES)), ("to_move", P), ("oven_number", 1), ("ovens_left", 1),
           ("supply", 1), ("used", 1)]
    if game.has_mamma_mia:
        out.append(("mamma_mia_card", 1 + P))  # in the supply, or laid out by a seat
    out += [
        # what is still in the oven, from its public log: cards, the base by kind, the cards
        # each seat put by kind, the orders of each seat, and the ingredients lying before
        # each seat's latest order (what that order will be made from)
        ("oven_size", 1), ("oven_base", K), ("oven_ingredients", P * K), ("oven_orders", P),
        ("before_last_order", P * K),
        ("table", K), ("seats", 4 * P), ("winners", P),
        ("hand_ingredients", K), ("hand_orders", L),
        # the evaluation: who empties, what is left, the order being settled
        ("emptier", P), ("remaining", 1), ("order_type", len(ORDER_TYPES)), ("order_recipe", K),
        ("order_crossed", K), ("order_choices", K), ("order_needs", K), ("order_from_table", K),
        ("order_from_hand", K), ("order_from_helper", K), ("order_result", len(RESULTS)),
        ("order_owner", P), ("order_helper", P),
        # the decision awaited
        ("decision_seat", P), ("decision_kind", len(DECISION_KINDS)), ("decision_choices", K),
        ("decision_missing", K), ("decision_ask", K), ("decision_asker", P),
    ]
    return out


def observation_layout(game) -> dict:
    """``{part: slice}``: where each part of :func:`observation_vector` lies."""
    layout, at = {}, 0
    for name, n in _segments(game):
        layout[name] = slice(at, at + n)
        at += n
    return layout


def observation_size(game) -> int:
    return sum(n for _, n in _segments(game))


def observation_vector(game, observation: dict, seat: int) -> list:
    """``observe(seat)`` as numbers; seats are counted from ``seat`` (the viewer first)."""
    o = observation
    P, kinds = game.players, game.kinds
    K = len(kinds)
    kind_index = {k: i for i, k in enumerate(kinds)}

    def rel(s):
        return (s - seat) % P

    def one_hot(i, n):
        return [1.0 if k == i else 0.0 for k in range(n)]

    def seat_hot(s):
        return one_hot(None if s is None else rel(s), P)

    def counts(d):
        d = d or {}
        return [float(d.get(k, 0)) for k in kinds]

    parts = {
        "phase": one_hot(PHASES.index(o["phase"]), len(PHASES)), "to_move": seat_hot(o["to_move"]),
        "oven_number": [float(o["oven_number"])], "ovens_left": [float(o["ovens"] - o["oven_number"])],
        "supply": [float(o["supply"])], "used": [float(o["used"])],
    }
    if game.has_mamma_mia:
        mm = o["mamma_mia_card"]
        parts["mamma_mia_card"] = [1.0 if mm == "supply" else 0.0] + seat_hot(mm if isinstance(mm, int) else None)

    # During an evaluation the log's first entries are revealed already (their cards are on the
    # table or used): only what is still in the oven is tallied.
    log, in_oven = o["oven"]["log"], o["oven"]["size"]
    revealed = sum(e.get("count", 1) for e in log) - in_oven
    base, by_seat, orders, before_last = [0.0] * K, [0.0] * (P * K), [0.0] * P, [0.0] * (P * K)
    running = [0.0] * K
    for e in log:
        n = e.get("count", 1)
        if revealed >= n:
            revealed -= n
            continue
        # the emptier may be midway through an entry (one card per sub-step): tally the rest
        n, revealed = n - revealed, 0
        if "order" in e:
            r = rel(e["seat"])
            orders[r] += 1
            before_last[r * K:(r + 1) * K] = running
        else:
            k = kind_index[e["kind"]]
            running = running[:]
            running[k] += n
            if e["seat"] is None:
                base[k] += n
            else:
                by_seat[rel(e["seat"]) * K + k] += n
    parts.update(oven_size=[float(in_oven)], oven_base=base, oven_ingredients=by_seat, oven_orders=orders,
                 before_last_order=before_last, table=counts(o["table"]))

    players = o["players"]
    seats = []
    for i in range(P):
        p = players[(seat + i) % P]
        seats += [float(p["hand_ingredients"]), float(p["hand_orders"]), float(p["waiter"]), float(p["delivered"])]
    parts["seats"] = seats
    parts["winners"] = [1.0 if (seat + i) % P in o["winners"] else 0.0 for i in range(P)]

    hand = o["hand"] or {"ingredients": {}, "orders": []}
    label_index = {label: i for i, label in enumerate(order_labels(game))}
    held = [0.0] * len(label_index)
    for card in hand["orders"]:
        held[label_index[card["label"]]] += 1
    parts.update(hand_ingredients=counts(hand["ingredients"]), hand_orders=held)

    ev = o["evaluation"] or {}
    order = ev.get("order") or {}
    decision = ev.get("decision") or {}
    # a choice of kind reads "olive" or, for a Ciottona, "salami+olive"
    chosen = [0.0] * K
    for choice in decision.get("choices") or ():
        for k in choice.split("+"):
            chosen[kind_index[k]] += 1
    parts.update(
        emptier=seat_hot(ev.get("emptier")), remaining=[float(ev.get("remaining", 0))],
        order_type=[1.0 if order.get("type") == t else 0.0 for t in ORDER_TYPES],
        order_recipe=counts(order.get("recipe")),
        order_crossed=[1.0 if order.get("crossed") == k else 0.0 for k in kinds],
        order_choices=[1.0 if k in (order.get("choices") or ()) else 0.0 for k in kinds],
        order_needs=counts(order.get("needs")), order_from_table=counts(order.get("from_table")),
        order_from_hand=counts(order.get("from_hand")), order_from_helper=counts(order.get("from_helper")),
        order_result=[1.0 if order.get("result") == r else 0.0 for r in RESULTS],
        order_owner=seat_hot(order.get("owner")), order_helper=seat_hot(order.get("helper")),
        decision_seat=seat_hot(decision.get("seat")),
        decision_kind=[1.0 if decision.get("kind") == t else 0.0 for t in DECISION_KINDS],
        decision_choices=chosen, decision_missing=counts(decision.get("missing")),
        decision_ask=counts(decision.get("ask")), decision_asker=seat_hot(decision.get("asker")),
    )
    vector = []
    for name, n in _segments(game):
        part = parts[name]
        if len(part) != n:  # a broken encoding must not shift every later part silently
            raise ValueError(f"{game.name}: observation part {name!r} has {len(part)} numbers, expected {n}")
        vector += part
    return vector


def _constants(game) -> dict:
    """What every vector of ``game`` shares, computed once per game."""
    c = game.__dict__.get("_vector_constants")
    if c is None:
        P, K = game.players, game.nk
        labels = order_labels(game)
        label_index = {label: i for i, label in enumerate(labels)}
        layout = observation_layout(game)
        size = observation_size(game)
        # Every number of the vector is a count of the game's cards (a colour has at most 64
        # orders), a recipe's, a 0/1 or the oven's number: one byte each, unless a deck's recipe
        # asks for more of a kind than a byte counts
        most = max(K * game.per_kind + 1, game.minimale + max(n for o in game.deck for n in o.recipe))
        if most < 256:
            code, dtype, pack, counts = "B", "uint8", bytes, bytearray
        else:
            code, dtype, pack, counts = "q", "int64", _pack_wide, _wide

        evaluation = layout["emptier"].start  # where the evaluation's parts begin
        c = game.__dict__["_vector_constants"] = {
            "code": code, "dtype": dtype, "pack": pack, "counts": counts, "size": size,
            "label_of": tuple(label_index.get(o.label) for o in game.deck),  # order id -> hand_orders slot
            "phase": {p: pack([i == j for j in range(len(PHASES))]) for i, p in enumerate(PHASES)},
            # each seat as a one-hot of its place counted from each viewer, and nobody
            "hot": tuple(tuple(pack([i == (s - viewer) % P for i in range(P)]) for s in range(P))
                         for viewer in range(P)),
            "nobody": pack([0] * P), "no_orders": counts([0] * len(labels)),
            # the parts from the emptier on: the evaluation's, zeros during the turns
            "no_evaluation": pack([0] * (size - evaluation)), "no_kinds": pack([0] * K),
            "no_order": pack([0] * (layout["order_helper"].stop - layout["order_type"].start)),
            "no_decision": pack([0] * (size - layout["decision_seat"].start)),
            "decision_kind": {kind: pack([kind == k for k in DECISION_KINDS]) for kind in DECISION_KINDS},
            "no_oven": ((), 0, 0, (0, counts([0] * K), counts([0] * (P * K)), counts([0] * P), counts([0] * (P * K)),
                                   counts([0] * K))),
        }
    return c


def _wide(numbers):
    """The counts of a vector that needs more than a byte a number, changed in place."""
    return array("q", numbers)


def _pack_wide(numbers) -> bytes:
    return array("q", numbers).tobytes()


def _oven_tally(state, P, K, nobody):
    """What is still in the oven (the entries from the cursor on, less the ``part`` of the entry
    at the cursor that is revealed) as the public log shows it, by seat (not counted from any
    viewer): ``(cards, base, by_seat, orders, before_last, running)`` — the cards in it, the
    base's ingredients by kind, each seat's ingredients by kind (``P × K``), each seat's
    orders, the ingredients lying before each seat's latest order (``P × K``), and all of the
    ingredients by kind; the counts are bytes (wider numbers for a deck that needs them), shared
    (read-only).

    A state keeps the tally with the oven, cursor and part it counts, and passes it on to the
    states after it (their fields are copies of its own): a turn adds entries to the same oven
    and the evaluation reveals them from the front, so a successor's tally is its
    predecessor's with the entries added or revealed meanwhile, not every entry counted
    again. ``nobody`` is the tally of the empty oven."""
    d = state.__dict__
    items, cursor, part = d["oven"], d["cursor"], state.part
    kept = d.get("_oven_tally", nobody)
    if kept[0] is items and kept[1] == cursor and kept[2] == part:
        return kept[3]
    old, at, done, tally = kept
    n = len(old)
    if not (len(items) >= n and (cursor, part) >= (at, done) and items[:n] == old):
        old, at, done, tally = nobody
        n = 0
    cards, base, by_seat, orders, before, running = tally
    no_kinds = nobody[3][5]  # the empty oven's ingredients: K zeros
    base, by_seat, orders, before, running = base[:], by_seat[:], orders[:], before[:], running[:]
    for item in items[n:]:  # the entries added since
        if item[0] == "o":
            cards += 1
            s = item[1]
            orders[s] += 1
            before[s * K:s * K + K] = running
        else:
            _, s, k, count = item
            cards += count
            running[k] += count
            if s is None:
                base[k] += count
            else:
                by_seat[s * K + k] += count
    for i in range(at, cursor + 1 if part else cursor):  # the entries revealed since
        item = items[i]
        if item[0] == "o":
            cards -= 1
            s = item[1]
            orders[s] -= 1
            if not orders[s]:  # none of the seat's orders left in the oven
                before[s * K:s * K + K] = no_kinds
        else:
            _, s, k, count = item
            count = (count if i < cursor else part) - (done if i == at else 0)
            cards -= count
            running[k] -= count
            if s is None:
                base[k] -= count
            else:
                by_seat[s * K + k] -= count
            for s in range(P):  # the card lay before every order still in the oven
                if orders[s]:
                    before[s * K + k] -= count
    tally = (cards, base, by_seat, orders, before, running)
    d["_oven_tally"] = (items, cursor, part, tally)
    return tally


def state_vector(game, state, seat: int):
    """:func:`observation_vector` of ``state.observe(seat)``, the same numbers, read from the
    state without building the observation (the learning environment's hot path): a float32
    numpy array (a list without numpy). It reads only what ``observe(seat)`` shows: public
    counts, the public oven log, the seat's own hand, the order shown and the decision
    awaited. The vector is packed part by part, a byte a number, then read at once."""
    c = _constants(game)
    P, K = game.players, game.nk
    pack = c["pack"]
    d = state.__dict__
    phase = d["phase"]
    hot, nobody = c["hot"][seat], c["nobody"]
    to_move = state.to_move
    pieces = [c["phase"][phase], nobody if to_move is None else hot[to_move],
              pack((d["oven_number"], game.ovens - d["oven_number"], len(d["supply"]), sum(d["used"])))]
    if game.has_mamma_mia:
        mm = d["mm"]
        pieces += (pack((mm == "supply",)), hot[mm] if isinstance(mm, int) else nobody)

    # what is still in the oven, the seats counted from the viewer
    cards, base, by_seat, orders, before, _ = _oven_tally(state, P, K, c["no_oven"])
    rot = seat * K
    pieces += (pack((cards,)), base, by_seat[rot:], by_seat[:rot], orders[seat:], orders[:seat],
               before[rot:], before[:rot], pack(d["table"]))

    # each seat's cards in hand, orders in hand, waiter and delivered orders, packed by seat (kept
    # with the piles counted and passed on to the states after this one, as the oven's tally)
    hands_ing, hands_ord = d["hands_ing"], d["hands_ord"]
    counted = d.get("_seat_counts")
    if (counted is None or counted[0] is not hands_ing or counted[1] is not hands_ord
            or counted[2] is not d["waiters"] or counted[3] is not d["delivered"]):
        counted = d["_seat_counts"] = (hands_ing, hands_ord, d["waiters"], d["delivered"], c["counts"](chain.from_iterable(zip(
            map(sum, hands_ing), map(len, hands_ord), map(len, d["waiters"]), map(len, d["delivered"])))))
    counts = counted[4]
    pieces += (counts[4 * seat:], counts[:4 * seat])
    if phase == "over":
        winners = state.winners
        pieces.append(pack([(seat + i) % P in winners for i in range(P)]))
    else:
        pieces.append(nobody)
    pieces.append(pack(hands_ing[seat]))
    held = c["no_orders"][:]
    label_of = c["label_of"]
    for o in hands_ord[seat]:
        held[label_of[o]] += 1
    pieces.append(held)
    if phase == "evaluation" or (phase == "over" and d["emptier"] is not None):
        _evaluation_parts(game, state, seat, c, cards, pieces)
    else:
        pieces.append(c["no_evaluation"])
    packed = b"".join(pieces)
    np = numpy_or_none()
    vector = np.frombuffer(packed, c["dtype"]) if np is not None else array(c["code"], packed)
    if len(vector) != c["size"]:  # a broken encoding must not shift every later part silently
        raise ValueError(f"{game.name}: state_vector has {len(vector)} numbers, expected {c['size']}")
    return vector.tolist() if np is None else vector.astype(np.float32)


def _evaluation_parts(game, state, seat, c, remaining, pieces):
    """The parts of :func:`state_vector` from the emptier on, packed into ``pieces``: who
    empties the oven, what is left in it, the order shown and the decision awaited."""
    pack, hot, nobody = c["pack"], c["hot"][seat], c["nobody"]
    emptier = state.emptier
    pieces += (nobody if emptier is None else hot[emptier], pack((remaining,)))
    order = state.shown
    if order:
        helper = order["helper"]
        owner = order["owner"]
        pieces += (_shown_part(game, c, order), nobody if owner is None else hot[owner],
                   nobody if helper is None else hot[helper])
    else:
        pieces.append(c["no_order"])
    if state.phase == "evaluation" and state.pending is not None:
        decision = oven.decision_parts(state)
        asker = decision.get("asker")
        choices = c["no_kinds"]
        if "choices" in decision:
            choices = c["counts"](choices)
            for variant in decision["choices"]:
                for k in (variant if isinstance(variant, tuple) else (variant,)):
                    choices[k] += 1
        pieces += (hot[decision["seat"]], c["decision_kind"][decision["kind"]], choices,
                   pack(decision["missing"]) if "missing" in decision else c["no_kinds"],
                   pack(decision["ask"]) if "ask" in decision else c["no_kinds"],
                   nobody if asker is None else hot[asker])
    else:
        pieces.append(c["no_decision"])


def _shown_part(game, c, order) -> bytes:
    """The parts of the vector from ``order_type`` to ``order_result`` for the revealed ``order``
    (its owner and helper follow, counted from the viewer), packed. Shown orders are values
    shared by the states and views, read-only: each one's part is kept by its identity."""
    kept = game.__dict__.get("_shown_vectors")
    if kept is None:
        kept = game.__dict__["_shown_vectors"] = {}
    entry = kept.get(id(order))
    if entry is not None and entry[0] is order:
        return entry[1]
    kinds = game.kinds

    def counts(d):
        d = d or {}
        return [d.get(k, 0) for k in kinds]

    v = [t == order["type"] for t in ORDER_TYPES] + counts(order["recipe"])
    v += [k == order["crossed"] for k in kinds]
    v += [k in (order["choices"] or ()) for k in kinds]
    for key in ("needs", "from_table", "from_hand", "from_helper"):
        v += counts(order[key])
    v += [r == order["result"] for r in RESULTS]
    # the entry holds the order, so its id is not another's while it is kept
    return _kept(kept, id(order), (order, c["pack"](v)), _SHOWN_VECTORS)[1]

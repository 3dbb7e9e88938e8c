"""Emptying the oven — the heart of Mamma Mia!: the evaluation, readable on its own.

The emptier reveals the oven one card at a time in the order played (:func:`reveal`): each
ingredient goes to its column on the table, each order is settled at once
(:func:`settle_revealed`) — made when the table holds what it needs, else its owner decides
(:func:`settle_actions`: add from his hand, ask for Help, send it back) and, with Help, the
asked players answer one at a time (:func:`help_actions`). When the oven is empty, the used
cards become the new supply and the table's leftovers the base of the next oven
(:func:`end_evaluation`). See ``docs/rules/mamma-mia.md``, *Emptying the oven*.

Every function takes a :class:`~tabletop_widgets.games.mamma_mia.rules.MammaMiaState` (a value:
changes make a new state with ``state._with``) and appends one event per sub-step to ``events``,
or, when ``events`` is None, writes no event (a playout that reads none; the state is the same).
"""

from __future__ import annotations

import itertools

from tabletop_widgets.core import Rng
from tabletop_widgets.core.events import new_event

from .cards import (BOMBASTICA_MIN, HELP, IN_SEAT, MAMMA_MIA, REFUSE, SEND_BACK, Help, Make, SendBack, _add, _ask_action,
                    cards_of, _covers, _kept, _make_action, _missing, _moved, _multisets, _named, _one, _parse_cards, _sub,
                    _variant_text, PLURAL, cards_phrase, order_name)
# written out for each number of kinds: a hot path takes its game's at once (a state's
# multisets all have one count per kind), where the functions above look it up per call
from .cards import _ADD, _COVERS, _LEAST, _MISSING, _SUB


def help_actions(state):
    """The asked player's answers: ``help`` only when he holds every asked card."""
    d = state.__dict__
    pending = d["pending"]  # ("help", order, variant, asked, owner_adds, seat asked)
    return [HELP, REFUSE] if _COVERS[d["game"].nk](d["hands_ing"][pending[5]], pending[3]) else [REFUSE]


def _changed(state, events, **changes):
    """``state`` with ``changes``: a new state when the sub-steps are written as events (each
    event keeps the state after it), else ``state`` itself changed in place (a playout keeps
    no state of the sub-steps, so only the fresh state it works on is changed)."""
    if events is not None:
        return state._with(**changes)
    d = state.__dict__
    d.update(changes)
    if "oven" in changes:
        d["_view"] = None
    if "phase" in changes or "turn" in changes or "pending" in changes:
        _moved(d)
    return state


def apply_decision(state, action, events, in_place=False):
    """The owner's or an asked player's answer, then the reveal goes on to the next decision.
    ``in_place`` (a playout's, without events): ``state`` itself becomes the next state."""
    if events is None:
        # the fresh state that the whole decision changes in place (``_apply`` sets its
        # ``_events`` and ``_from``), or the playout itself
        if in_place:
            fresh = state
            d = state.__dict__
        else:
            fresh = object.__new__(type(state))
            d = fresh.__dict__ = state.__dict__.copy()
        pending = d["pending"]
        if pending[0] == "settle":
            oid = pending[1]
            g = d["game"]
            card = g.deck[oid]
            if action is SEND_BACK:  # the owner's most frequent answer
                _send_back_quietly(d, oid, card.colour, d["shown"])
                return _reveal_quietly(fresh)
            if card.type != "bombastica":
                # a way made, or Help asked for: apply_settle without events, written on the fields
                needs, missing = _settled(fresh, card, action.variant)
                if type(action) is Make:
                    _made_quietly(d, g, oid, card.colour, needs, missing if action.add else g.no_cards,
                                  d["shown"] or g.shown_cards[oid])
                    return _reveal_quietly(fresh)
                ask = _parse_cards(action.cards, g.kinds)
                helper = d["to_move"] = next_helper(fresh, card.colour)
                d["pending"] = ("help", oid, action.variant, ask, _sub(missing, ask), helper)
                d["shown"] = LazyShown((shown_needs, d["shown"], needs))
                return fresh  # the asked player decides: nothing is revealed meanwhile
        elif action is REFUSE:  # the asked player's (Plus): the next one is asked, or it fails
            _, oid, variant, ask, rest, helper = pending
            owner = state.game.deck[oid].colour
            later = next_helper(fresh, owner, helper)
            if later is not None:
                d["pending"] = ("help", oid, variant, ask, rest, later)
                d["to_move"] = later
                return fresh
            _send_back_quietly(d, oid, owner, d["shown"])
            return _reveal_quietly(fresh)
        state = fresh
    if state.pending[0] == "settle":
        after = apply_settle(state, action, events)
    else:
        after = apply_help(state, action, events)
    return reveal(after, events)


# the ways to make an order -----------------------------------------------------------------
def ways(state, card):
    """``(variants, reason)``: the ways ``card`` can be made as ``[(variant, needs)]``, or
    a sentence saying why it fails at once (Bombastica: ``[(None, None)]``)."""
    g = state.game
    table = state.table
    t = card.type
    if t in ("mini", "small_monotoni") and table[card.crossed]:
        return None, f"{g.kinds[card.crossed]} (crossed out on the card) is on the table"
    if t != "minimale":  # the ways of every other order are printed on the card
        variants = g._ways.get(card.id)
        if variants is None:
            variants = g._ways[card.id] = tuple(_printed_ways(g, card))
        return variants, None
    # minimale: the kind with the fewest cards on the table, ignoring absent kinds and the
    # kinds printed on the card
    recipe = card.recipe
    eligible = [k for k, n in enumerate(table) if n and not recipe[k]]
    if not eligible:
        return None, "no kind is eligible for the Minimale (every kind on the table is absent or printed on the card)"
    low = min([table[k] for k in eligible])
    by_kind = g._ways.get(card.id)  # each kind's way, worked out once
    if by_kind is None:
        by_kind = g._ways[card.id] = tuple((k, _add(recipe, _one(k, g.minimale, g.nk))) for k in range(g.nk))
    return [by_kind[k] for k in eligible if table[k] == low], None


def _printed_ways(g, card):
    nk = g.nk
    p = g.personal[card.colour]
    t = card.type
    if t in ("normal", "mini"):
        return [(None, card.recipe)]
    if t == "bombastica":
        return [(None, None)]
    if t == "monotoni":
        return [(x, _add(card.recipe, _one(x, 6, nk))) for x in range(nk) if x != p]
    if t == "ciottona":
        return [((x, y), _add(card.recipe, _add(_one(x, 4, nk), _one(y, 4, nk))))
                for x in range(nk) for y in range(x + 1, nk) if x != p and y != p]
    if t == "small_monotoni":
        personal = g.small_monotoni_personal
        return [(x, _one(x, 5, nk)) for x in range(nk) if (personal or x != p) and x != card.crossed]
    if t == "pizza_mamma_mia":
        return [(x, _add(card.recipe, _one(x, 5, nk))) for x in card.choices]
    raise ValueError(f"no printed ways for a {t}")


def helpers_of(state, owner):
    """The seats that may be asked for Help, from the owner's left (a helper needs a waiter card)."""
    n = state.game.players
    return [(owner + i) % n for i in range(1, n) if state.waiters[(owner + i) % n]]


def next_helper(state, owner, asked=None):
    """The first seat after ``asked`` (None: after the owner), from the owner's left, that may
    be asked for Help; None when nobody is left."""
    waiters = state.__dict__["waiters"]
    # the seats from the owner's left, after the one asked last
    for s in state.game._asked_after[owner][owner if asked is None else asked]:
        if waiters[s]:
            return s
    return None


def settle_actions(state):
    # Whole positions seldom repeat (the order, the table, the owner's hand); what each way to
    # make the order offers depends only on what is missing and how much of it the hand holds,
    # which do: those parts are kept per game.
    d = state.__dict__
    g = d["game"]
    oid = d["pending"][1]
    card = g.deck[oid]
    owner = card.colour
    hand = d["hands_ing"][owner]
    if card.type == "bombastica":
        key = (BOMBASTICA_MIN - sum(d["table"]), hand)
        actions = g._settle_parts.get(key)
        if actions is None:
            actions = tuple(_make_action(None, add, g.kinds) for add in _multisets(hand, key[0])) + (SEND_BACK,)
            _kept(g._settle_parts, key, actions, _SETTLE_PARTS)
        return list(actions)
    variants, missings = _ways_lacking(state, card)
    # an order the table can make is made: Help and sending back exist only for what is
    # missing, so when the table alone holds a way the owner only chooses among the ways
    no_cards = g.no_cards
    from_table = no_cards in missings
    out = []
    if not g._help or from_table or next_helper(state, owner) is None:
        # nobody to ask (always in classic): a way offers one answer or none, making it when
        # the table holds it or the hand holds all it lacks (what _settle_part offers then)
        makes = g._settle_makes
        covers = _COVERS[g.nk]
        for (variant, _), missing in zip(variants, missings):
            if missing == no_cards or covers(hand, missing):
                key = (variant, missing)
                make = makes.get(key)
                if make is None:
                    make = _kept(makes, key, _make_action(variant, None if missing == no_cards else missing, g.kinds),
                                 _SETTLE_PARTS)
                out.append(make)
    else:
        parts = g._settle_parts
        least = _LEAST[g.nk]
        for (variant, _), missing in zip(variants, missings):
            # what the hand holds of what is missing
            key = (variant, missing, least(hand, missing), True)
            part = parts.get(key)
            if part is None:
                part = _kept(parts, key, _settle_part(g, *key), _SETTLE_PARTS)
            out += part
    if not from_table:
        out.append(SEND_BACK)
    return out


def _ways_lacking(state, card):
    """The ways to make the pending ``card`` and what the table lacks for each. The same pending
    decision and table (by identity) have the same ones: worked out when the order was revealed
    (:func:`settle_revealed`) or first offered, and kept with the state for applying the answer."""
    d = state.__dict__
    memo = d.get("_settled")
    if memo is not None and memo[0] is d["pending"] and memo[1] is d["table"]:
        return memo[2], memo[3]
    variants, _ = ways(state, card)
    table = d["table"]
    missing = _MISSING[d["game"].nk]
    missings = [missing(needs, table) for _, needs in variants]
    d["_settled"] = (d["pending"], table, variants, missings)
    return variants, missings


def _settled(state, card, variant):
    """What ``card`` needs made the way ``variant``, and what of it the table lacks."""
    variants, missings = _ways_lacking(state, card)
    for (v, needs), missing in zip(variants, missings):
        if v == variant:
            return needs, missing
    needs = _needs(state, card, variant)
    return needs, _missing(needs, state.table)


_SETTLE_PARTS = 100_000  # a game keeps at most this many parts of settling decisions


def _settle_part(g, variant, missing, held, can_ask):
    """What one way to make the order offers: ``missing`` cards, of which the hand holds
    ``held`` (each kind counted up to what is missing)."""
    if not any(missing):
        return (_make_action(variant, None, g.kinds),)
    out = []
    if held == missing:
        out.append(_make_action(variant, missing, g.kinds))
    if can_ask:
        # any part of the missing cards, as long as the hand holds the rest
        for ask in itertools.product(*(range(m - h, m + 1) for m, h in zip(missing, held))):
            if any(ask):
                out.append(_ask_action(variant, ask, g.kinds))
    return tuple(out)


# revealing and settling -------------------------------------------------------------------
def reveal(state, events):
    """Reveal oven cards until a decision is needed or the oven is empty; ``state`` is a fresh
    state owned by the caller. Appends one event per sub-step to ``events``."""
    if events is None:
        return _reveal_quietly(state)
    g = state.game
    after = state
    while after.pending is None:
        if after.cursor == len(after.oven):
            return end_evaluation(after, events)
        cursor = after.cursor
        item = after.oven[cursor]
        if item[0] == "i":
            # one card per sub-step, as the emptier turns them over (the spec's "one at a time")
            _, seat, k, n = item
            kind = g.kinds[k]
            who = "the leftovers of the last oven" if seat is None else g.seat_names[seat]
            table = after.table
            for nth in range(after.part + 1, n + 1):
                table = table[:k] + (table[k] + 1,) + table[k + 1:]
                if nth == n:
                    after = after._with(cursor=cursor + 1, part=0, table=table, shown=None)
                else:
                    after = after._with(part=nth, table=table, shown=None)
                text = (f"Revealed: 1 {kind} ({who}, {nth} of {n}); sorted into the table." if n > 1 else
                        f"Revealed: 1 {kind} ({who}); sorted into the table.")
                events.append(new_event("reveal", text, {"kind": kind, "count": 1, "seat": seat, "nth": nth, "of": n},
                                        after=after))
            continue
        oid = item[2]
        card = g.deck[oid]
        owner = card.colour
        after = after._with(cursor=cursor + 1, shown=shown_card(after, card))
        events.append(new_event("reveal", f"Revealed: {g.seat_names[owner]}'s order {order_name(card, g.kinds)}.",
                                {"order": g.card_dicts[oid], "seat": owner}, after=after))
        after = settle_revealed(after, oid, events)
    return after


def _reveal_quietly(state):
    """:func:`reveal` without events, changing the fresh ``state`` in place: the ingredients up
    to the next order go to the table at once, and each order is settled by
    :func:`_settle_quietly`."""
    g = state.game
    d = state.__dict__
    items = d["oven"]
    end = len(items)
    while d["pending"] is None:
        cursor = d["cursor"]
        if cursor == end:
            return end_evaluation(state, None)
        item = items[cursor]
        if item[0] == "i":
            table = list(d["table"])
            part = d["part"]
            while cursor < end and item[0] == "i":
                table[item[2]] += item[3] - part
                part = 0
                cursor += 1
                if cursor < end:
                    item = items[cursor]
            d["cursor"] = cursor
            d["part"] = 0
            d["table"] = tuple(table)
            d["shown"] = None
            continue
        d["cursor"] = cursor + 1
        _settle_quietly(state, d, g, item[2])
    return state


def _settle_quietly(state, d, g, oid):
    """:func:`settle_revealed` of the order ``oid`` just revealed, without events: ``state``
    (whose fields are ``d``) changed in place. A playout settles several orders an action, so
    the decisions of :func:`settle_revealed` are written out here on the fields themselves."""
    card = g.deck[oid]
    owner = card.colour
    shown = g.shown_cards[oid]  # shown_card: the order as revealed
    table = d["table"]
    t = card.type
    if t == "bombastica":
        total = sum(table)
        if total >= BOMBASTICA_MIN:
            _made_quietly(d, g, oid, owner, table, (0,) * g.nk, shown)
        elif g.options["bombastica_from_hand"] and BOMBASTICA_MIN - total <= sum(d["hands_ing"][owner]):
            d["pending"] = ("settle", oid)
            d["to_move"] = owner
            d["shown"] = shown
        else:
            _send_back_quietly(d, oid, owner, shown)
        return
    if t == "minimale":
        variants, _ = ways(state, card)
        if variants is None:
            _send_back_quietly(d, oid, owner, shown)
            return
    else:
        if (t == "mini" or t == "small_monotoni") and table[card.crossed]:
            _send_back_quietly(d, oid, owner, shown)
            return
        variants = g._ways.get(oid)
        if variants is None:
            variants = g._ways[oid] = tuple(_printed_ways(g, card))
    missing_of = _MISSING[g.nk]
    if len(variants) == 1:
        needs = variants[0][1]
        missing = missing_of(needs, table)
        if missing == g.no_cards:  # the table holds it
            _made_quietly(d, g, oid, owner, needs, g.no_cards, shown)
            return
        missings = [missing]
    else:
        missings = [missing_of(needs, table) for _, needs in variants]
    if min(map(sum, missings)) <= sum(d["hands_ing"][owner]) or (g._help and next_helper(state, owner) is not None):
        pending = d["pending"] = ("settle", oid)
        d["to_move"] = owner
        d["shown"] = LazyShown((shown_needs, shown, variants[0][1])) if len(variants) == 1 else shown
        d["_settled"] = (pending, table, variants, missings)
    else:
        _send_back_quietly(d, oid, owner, shown)


def _send_back_quietly(d, oid, owner, shown):
    """:func:`send_back` without events, on the fields ``d`` of a fresh state."""
    waiters = d["waiters"]
    d["waiters"] = IN_SEAT[len(waiters)][owner](waiters, waiters[owner] + (oid,))
    d["pending"] = d["to_move"] = None
    d["shown"] = None if shown is None else LazyShown((shown_sent_back, shown))


def _made_quietly(d, g, oid, owner, needs, from_hand, shown):
    """:func:`made` without events and without a helper, on the fields ``d`` of a fresh state."""
    delivered = d["delivered"]
    in_seat = IN_SEAT[len(delivered)][owner]
    d["delivered"] = in_seat(delivered, delivered[owner] + (oid,))
    sub = _SUB[g.nk]
    if from_hand == g.no_cards:  # the table alone: no hand changes
        from_table = needs
    else:
        from_table = sub(needs, from_hand)
        hands = d["hands_ing"]
        d["hands_ing"] = in_seat(hands, sub(hands[owner], from_hand))
    d["table"] = sub(d["table"], from_table)
    d["used"] = _ADD[g.nk](d["used"], needs)
    d["pending"] = d["to_move"] = None
    d["shown"] = LazyShown((shown_made, shown, needs, from_hand, g.no_cards, None, from_table))


def shown_card(state, card):
    """The revealed order as every seat sees it, before it is settled (built once per game and
    shared: views are read-only, and settling it makes a new dict)."""
    return state.game.shown_cards[card.id]


# The revealed order as it is settled: ``shown`` with what it needs, how it was made or that it
# was sent back. The same few values recur all game long, so each is built once per game and
# shared by the states and views (read-only). Kept by the order shown before (by identity; the
# entry holds it, so its id is not reused) and what changes.
def _shown_with(game, shown, key, build):
    cache = game._shown_parts
    entry = cache.get((id(shown), key))
    if entry is None or entry[0] is not shown:
        entry = _kept(cache, (id(shown), key), (shown, build()), _SHOWN_PARTS)
    return entry[1]


_SHOWN_PARTS = 20_000


def shown_needs(game, shown, needs):
    """``shown`` naming the cards the order needs."""
    return _shown_with(game, shown, ("needs", needs), lambda: dict(shown, needs=_named(needs, game.kinds)))


def shown_sent_back(game, shown):
    """``shown`` sent back."""
    return _shown_with(game, shown, "sent back", lambda: dict(shown, result="sent back"))


def shown_made(game, shown, needs, from_hand, helper_cards, helper, from_table):
    """``shown`` made: what it needed, and where the cards came from."""
    return _shown_with(game, shown, ("made", needs, from_hand, helper_cards, helper), lambda: dict(
        shown, needs=_named(needs, game.kinds), from_table=_named(from_table, game.kinds),
        from_hand=_named(from_hand, game.kinds), from_helper=_named(helper_cards, game.kinds), helper=helper,
        result="made"))


class LazyShown(tuple):
    """``shown`` as a playout without events leaves it: ``(build, shown before, *arguments)``,
    built by :func:`shown_value` when the state's ``shown`` is first read. Most states of a
    playout are never shown, and building (or finding) the dict was a tenth of its time."""

    __slots__ = ()


def shown_value(game, shown):
    """``shown`` with a :class:`LazyShown` built."""
    if type(shown) is not LazyShown:
        return shown
    build, before, *args = shown
    return build(game, shown_value(game, before), *args)


def _shown(events, build, game, shown, *args):
    """``build(game, shown, *args)``: at once when events are written, else when first read."""
    if events is None:
        return LazyShown((build, shown, *args))
    return build(game, shown_value(game, shown), *args)


def settle_revealed(state, oid, events):
    g = state.game
    card = g.deck[oid]
    owner = card.colour
    name = g._seat_names[owner]
    variants, reason = ways(state, card)
    if reason is not None:
        return send_back(state, oid, None if events is None else f"{name}'s order {order_name(card, g.kinds)} fails: {reason}; it goes face down under "
                         f"{name}'s waiter.", events)
    hand_count = sum(state.hands_ing[owner])
    if card.type == "bombastica":
        total = sum(state.table)
        if total >= BOMBASTICA_MIN:
            return made(state, oid, None, state.table, (0,) * g.nk, None, None, events, bombastica=True)
        m = BOMBASTICA_MIN - total
        if g.options["bombastica_from_hand"] and m <= hand_count:
            return _changed(state, events, pending=("settle", oid))
        return send_back(state, oid, None if events is None else f"{name}'s {order_name(card, g.kinds)} fails: it needs at least {BOMBASTICA_MIN} cards and the table "
                               f"holds {total}; it goes face down under {name}'s waiter.", events)
    # a decision unless it is public that nothing can be done (the hand is too small and
    # nobody can be asked): deciding only when the hidden hand allows it would reveal it
    table = state.table
    if len(variants) == 1:
        needs = variants[0][1]
        missing = _missing(needs, table)
        if missing == g.no_cards:  # the table holds it (most orders lack something: one pass)
            return made(state, oid, variants[0][0], needs, g.no_cards, None, None, events)
        missings = [missing]
    else:
        missings = [_missing(needs, table) for _, needs in variants]
    if min(map(sum, missings)) <= hand_count or (g.help and next_helper(state, owner) is not None):
        shown = state.__dict__["shown"]
        if len(variants) == 1:
            shown = _shown(events, shown_needs, g, shown, variants[0][1])
        pending = ("settle", oid)
        # the ways and what each lacks, kept for offering and applying the answer (_settled)
        return _changed(state, events, pending=pending, shown=shown, _settled=(pending, table, variants, missings))
    if events is None:
        return send_back(state, oid, None, None)
    needs = variants[0][1]
    lack = cards_phrase(_missing(needs, state.table), g.kinds) if len(variants) == 1 else "cards"
    return send_back(state, oid, f"{name}'s order {order_name(card, g.kinds)} cannot be made: the table lacks {lack} and "
                           f"{name} holds too few cards to add them; it goes face down under {name}'s waiter.", events)


def send_back(state, oid, text, events):
    owner = state.game.deck[oid].colour
    waiters = list(state.waiters)
    waiters[owner] = waiters[owner] + (oid,)
    shown = state.__dict__["shown"]
    if shown is not None:
        shown = _shown(events, shown_sent_back, state.game, shown)
    after = _changed(state, events, waiters=tuple(waiters), pending=None, shown=shown)
    if events is not None:
        events.append(new_event("sent-back", text, {"order": state.game.card_dicts[oid], "seat": owner}, after=after))
    return after


def made(state, oid, variant, needs, from_hand, helper, from_helper, events, bombastica=False):
    """The pizza is made: ``needs`` cards go to the used pile (those not from a hand come
    from the table), the order to its colour's delivered pile."""
    g = state.game
    card = g.deck[oid]
    owner = card.colour
    name = g.seat_names[owner]
    helper_cards = from_helper or g.no_cards
    delivered = list(state.delivered)
    delivered[owner] = delivered[owner] + (oid,)
    changes = {}
    if helper is None and from_hand == g.no_cards:  # the table alone: no hand changes
        from_table = needs
    else:
        from_table = _sub(_sub(needs, from_hand), helper_cards)
        hands_ing = list(state.hands_ing)
        hands_ing[owner] = _sub(hands_ing[owner], from_hand)
        if helper is not None:
            hands_ing[helper] = _sub(hands_ing[helper], helper_cards)
            top = state.waiters[helper][0]
            waiters = list(state.waiters)
            waiters[helper] = waiters[helper][1:]
            delivered[helper] = delivered[helper] + (top,)
            changes["waiters"] = tuple(waiters)
        changes["hands_ing"] = tuple(hands_ing)
    shown = _shown(events, shown_made, g, state.__dict__["shown"] or shown_card(state, card), needs, from_hand,
                   helper_cards, helper, from_table)
    after = _changed(state, events, delivered=tuple(delivered), table=_sub(state.table, from_table),
                     used=_add(state.used, needs), pending=None, shown=shown, **changes)
    if events is None:
        return after
    total = sum(needs)
    parts = [f"{cards_phrase(from_table, g.kinds)} from the table"] if any(from_table) else []
    if any(from_hand):
        parts.append(f"{cards_phrase(from_hand, g.kinds)} from {name}'s hand")
    if helper is not None:
        parts.append(f"{cards_phrase(helper_cards, g.kinds)} from {g.seat_names[helper]}'s hand")
    if bombastica:
        rule = f"a {order_name(card, g.kinds)} uses every card on the table, at least {BOMBASTICA_MIN}"
    elif variant is not None:
        rule = "made with " + " and ".join(PLURAL[g.kinds[k]] for k in (variant if isinstance(variant, tuple) else (variant,)))
    else:
        rule = "the table holds what it needs" if not any(from_hand) and helper is None else "the missing cards are added"
    text = (f"{name}'s order {order_name(card, g.kinds)} is made ({rule}): {total} cards are used — " + ", ".join(parts) + ".")
    if helper is not None:
        text += (f" {g.seat_names[helper]} helped and puts the top card of their waiter, unseen, on the delivered pile "
                 f"(a point for {g.seat_names[helper]}).")
    events.append(new_event("made", text, {"order": g.card_dicts[oid], "seat": owner, "helper": helper,
                                          "from_table": _named(from_table, g.kinds),
                                          "from_hand": _named(from_hand, g.kinds),
                                          "from_helper": _named(helper_cards, g.kinds)}, after=after))
    return after


def apply_settle(state, action, events):
    g = state.game
    oid = state.pending[1]
    card = g.deck[oid]
    owner = card.colour
    name = g.seat_names[owner]
    if isinstance(action, SendBack):
        return send_back(state, oid, None if events is None else f"{name} does not make the order {order_name(card, g.kinds)}: it goes face down under "
                               f"{name}'s waiter and no card is used.", events)
    if card.type == "bombastica":
        add = _parse_cards(action.add, g.kinds)
        return made(state, oid, None, _add(state.table, add), add, None, None, events, bombastica=True)
    needs, missing = _settled(state, card, action.variant)
    if isinstance(action, Make):
        return made(state, oid, action.variant, needs, missing if action.add else g.no_cards, None, None, events)
    ask = _parse_cards(action.cards, g.kinds)
    rest = _sub(missing, ask)
    helper = next_helper(state, owner)
    after = _changed(state, events, pending=("help", oid, action.variant, ask, rest, helper),
                     shown=_shown(events, shown_needs, g, state.__dict__["shown"], needs))
    if events is not None:
        events.append(new_event("ask", f"{name} asks for help: \"I need {cards_phrase(ask, g.kinds)}\" — asking one player at "
                           f"a time from their left, starting with {g.seat_names[helper]}.",
                           {"seat": owner, "ask": _named(ask, g.kinds), "asked": helper}, after=after))
    return after


def _needs(state, card, variant):
    """What ``card`` needs when made the way ``variant``."""
    for v, needs in ways(state, card)[0]:
        if v == variant:
            return needs
    raise KeyError(variant)


def apply_help(state, action, events):
    g = state.game
    _, oid, variant, ask, rest, helper = state.pending
    card = g.deck[oid]
    owner = card.colour
    if isinstance(action, Help):
        return made(state, oid, variant, _needs(state, card, variant), rest, helper, ask, events)
    later = next_helper(state, owner, helper)
    if later is not None:
        after = _changed(state, events, pending=("help", oid, variant, ask, rest, later))
        if events is not None:
            events.append(new_event("refuse", f"{g.seat_names[helper]} does not help; {g.seat_names[owner]} asks "
                               f"{g.seat_names[later]}.", {"seat": helper, "asked": later}, after=after))
        return after
    return send_back(state, oid, None if events is None else f"{g.seat_names[helper]} does not help, and nobody else is left to ask: "
                           f"{g.seat_names[owner]}'s order {order_name(card, g.kinds)} fails (even if they could finish it from "
                           f"their hand) and goes face down under their waiter.", events)


def end_evaluation(state, events):
    g = state.game
    emptier = state.emptier
    if state.oven_number >= g.ovens:
        after = _changed(state, events, phase="over", shown=None)
        if events is None:
            return after
        scores = after.scores
        names = [g.seat_names[s] for s in after.winners]
        win = (f"the winner is {names[0]}" if len(names) == 1
               else "the winners are " + ", ".join(names[:-1]) + " and " + names[-1])
        events.append(new_event("game-over", f"The last oven is empty: the game is over. Delivered orders: "
                               + ", ".join(f"{g.seat_names[s]} {n}" for s, n in enumerate(scores))
                               + f". {win[0].upper()}{win[1:]} (most delivered; a tie goes to the most ingredient cards in hand).",
                               {"scores": list(scores), "winners": list(after.winners)}))
        return after
    # used cards (and the Mamma Mia card) make the new supply; table leftovers are the
    # base of the next oven; the emptier starts
    # (cards still in the supply, when the deadlock guard closed the oven, join them)
    cards = cards_of(state.used)
    cards += state.supply
    if g.has_mamma_mia and state.mm != "supply":
        cards.append(MAMMA_MIA)
    rng = Rng(state.rng)
    supply, rng = rng.shuffled(cards)
    base = tuple(("i", None, k, n) for k, n in enumerate(state.table) if n)
    zero = (0,) * g.nk
    after = _changed(state, events, phase="turn", turn=emptier, oven_number=state.oven_number + 1, supply=tuple(supply),
                       oven=base, table=zero, used=zero, mm="supply" if g.has_mamma_mia else None, stall=0,
                       last_drawer=None, emptier=None, cursor=0, pending=None, shown=None, rng=rng.state)
    if events is None:
        return after
    extra = " with the Mamma Mia card" if g.has_mamma_mia else ""
    left = sum(state.table)
    base_text = ("no card is left on the table" if left == 0 else
                 "the card left on the table is the base" if left == 1 else
                 f"the {left} cards left on the table are the base")
    used_text = "The used card is" if len(cards) == 1 else f"The {len(cards)} used cards are"
    events.append(new_event("new-round", f"The oven is empty. {used_text} shuffled{extra} into the new supply; "
                           f"{base_text}{'' if left == 0 else ' of oven ' + str(state.oven_number + 1)}. "
                           f"{g.seat_names[emptier]} starts.",
                           {"oven_number": state.oven_number + 1, "supply": len(cards), "base": sum(state.table)}))
    return after


# the decision awaited, as every seat sees it ---------------------------------------------------
def decision_parts(state):
    """The decision awaited, as values: ``seat``, ``kind`` (``add_from_hand``, ``choose_kind``,
    ``help``) and, as they apply, ``choices`` (the variants), ``missing`` and ``ask`` (counts),
    ``asker``. Everything here is public: the order is revealed, the table on view."""
    g = state.game
    p = state.pending
    card = g.deck[p[1]]
    owner = card.colour
    if p[0] == "help":
        return {"seat": p[5], "kind": "help", "asker": owner, "ask": p[3]}
    if card.type == "bombastica":
        return {"seat": owner, "kind": "add_from_hand"}
    variants, _ = ways(state, card)
    if len(variants) > 1:
        return {"seat": owner, "kind": "choose_kind", "choices": [v for v, _ in variants], "variants": variants}
    return {"seat": owner, "kind": "add_from_hand", "missing": _missing(variants[0][1], state.table)}


def decision(state, seat=None):
    """The decision awaited with its question: in the second person for the seat that decides,
    in the third person for every other view (the all-seeing one included).

    Built once per question and shared by the views (read-only, as every view): the order
    card (for Help, only its owner: that question names no order), whether ``seat`` decides,
    and what the text names — the asked cards and the helper, what is missing, the table's size
    for a Bombastica, the kinds to choose from and whether the table already makes one."""
    g = state.game
    p = state.pending
    if p[0] == "help":
        key = ("help", g.deck[p[1]].colour, p[3], p[5], seat == p[5])
    else:
        card = g.deck[p[1]]
        you = seat == card.colour
        table = state.table
        if card.type == "bombastica":
            key = ("bombastica", p[1], sum(table), you)
        else:
            # the ways and what the table lacks for each, as worked out when the order was settled
            variants, missings = _ways_lacking(state, card)
            if len(variants) > 1:
                key = ("choose", p[1], tuple(v for v, _ in variants) if card.type == "minimale" else None,
                       g.no_cards in missings, you)
            else:
                key = ("add", p[1], missings[0], you)
    cache = g._decision_views
    out = cache.get(key)
    if out is None:
        out = _kept(cache, key, _decision(state, seat), _DECISIONS)
    return out


_DECISIONS = 20_000  # a game keeps at most this many decisions' views (emptied when full)


def _decision(state, seat):
    g = state.game
    parts = decision_parts(state)
    card = g.deck[state.pending[1]]
    owner = card.colour
    name = g.seat_names[owner]
    kind = parts["kind"]
    if kind == "help":
        helper, ask = parts["seat"], cards_phrase(parts["ask"], g.kinds)
        if seat == helper:
            q = (f"{name} asks you for {ask}. Help (you give them and move the top card "
                 "of your waiter to the delivered pile, a point for you) or refuse?")
        else:
            other = g.seat_names[helper]
            q = (f"{name} asks {other} for {ask}. {other} helps (gives them and moves the top "
                 "card of the waiter to the delivered pile, a point) or refuses.")
        return {"seat": helper, "kind": "help", "asker": owner, "question": q, "ask": _named(parts["ask"], g.kinds)}
    you = seat == owner
    called = order_name(card, g.kinds)
    whose = "Your" if you else f"{name}'s"
    if kind == "choose_kind":
        variants = parts["variants"]
        choices = [_variant_text(v, g.kinds)[6:] for v, _ in variants]
        # A Ciottona's pairs of kinds (up to fifteen) would fill the decision's region: the
        # question only counts them, as each answer names its own. A list of single kinds (a
        # Monotoni's) is short, and named.
        if len(choices) <= 3 or not any(isinstance(v, tuple) for v, _ in variants):
            words = [" with ".join(g.kinds[k] for k in (v if isinstance(v, tuple) else (v,))) for v, _ in variants]
            kinds = "among " + " and ".join(filter(None, [", ".join(words[:-1]), words[-1] if words else ""]))
        else:
            kinds = f"among {len(choices)} pairs"
        if any(_covers(state.table, needs) for _, needs in variants):
            if you:
                q = (f"The table holds a way to make your {called}, so it is made: choose the kind {kinds}; "
                     "you may add from your hand for a kind the table lacks.")
            else:
                q = (f"The table holds a way to make {name}'s {called}, so it is made: {name} chooses the kind "
                     f"{kinds} and may add from the hand for a kind the table lacks.")
        elif you:
            q = f"Choose the kind for your {called} {kinds}; the table holds what it can: add the rest from your hand"
            q += ", ask for help, or send it back." if g.help else " or send it back."
        else:
            q = f"{name} chooses the kind for the {called} {kinds}; the table holds what it can, {name} may add the rest from the hand"
            q += ", ask for help, or send it back." if g.help else " or send it back."
        return {"seat": owner, "question": q, "kind": "choose_kind", "choices": choices}
    if "missing" not in parts:  # a Bombastica
        q = (f"{whose} {called} needs {BOMBASTICA_MIN} cards and the table holds {sum(state.table)}: "
             + ("add the rest from your hand, or send it back?" if you
                else f"{name} may add the rest from the hand or send it back."))
        return {"seat": owner, "question": q, "kind": "add_from_hand"}
    missing = parts["missing"]
    if you:
        q = f"Your order {called} lacks {cards_phrase(missing, g.kinds)}: add them from your hand"
        q += ", ask for help, or send it back?" if g.help else ", or send it back?"
    else:
        q = f"{whose} order {called} lacks {cards_phrase(missing, g.kinds)}: {name} may add them from the hand"
        q += ", ask for help, or send it back." if g.help else " or send it back."
    return {"seat": owner, "question": q, "kind": "add_from_hand", "missing": _named(missing, g.kinds)}

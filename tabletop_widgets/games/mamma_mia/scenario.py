"""Set up Mamma Mia positions by hand: the worked examples of the rules, teaching positions.

>>> import tabletop_widgets as tw
>>> from tabletop_widgets.games.mamma_mia import position
>>> g = tw.make("mamma-mia", players=4)
>>> s = position(g, base={"pineapple": 3, "pepper": 3, "mushroom": 4, "salami": 2},
...              oven=[(1, "order 4 pineapple + 1 pepper")],
...              hands={1: {"ingredients": {"pineapple": 1}}}, evaluate=True, emptier=0)
>>> s.to_move, [str(a) for a in s.legal_actions()]
(1, ['make adding 1 pineapple', 'send back'])
"""

from __future__ import annotations

from typing import Optional

from tabletop_widgets.core import Rng

from .cards import cards_of
from .rules import COLOURS, MAMMA_MIA, MammaMiaState


def _seat(game, who):
    if isinstance(who, str):
        names = [c for c in COLOURS[: game.players]]
        if who.lower() not in names:
            raise ValueError(f"unknown seat {who!r}; the seats are {', '.join(names)} (or 0 to {game.players - 1})")
        return names.index(who.lower())
    if isinstance(who, bool) or not isinstance(who, int) or not 0 <= who < game.players:
        raise ValueError(f"a seat is a colour or an int from 0 to {game.players - 1}, got {who!r}")
    return who


def _counts(game, d, what):
    out = [0] * game.nk
    for k, n in (d or {}).items():
        if k not in game.kinds:
            raise ValueError(f"{what}: unknown ingredient {k!r}; the kinds are {', '.join(game.kinds)}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"{what}: the count of {k} must be a non-negative int")
        out[game.kinds.index(k)] += n
    return out


def position(game, *, hands: Optional[dict] = None, waiters: Optional[dict] = None,
             delivered: Optional[dict] = None, supply=None, base: Optional[dict] = None, oven=(),
             to_move=0, mamma_mia=None, oven_number: int = 1, evaluate: bool = False,
             emptier=None, seed: int = 0) -> MammaMiaState:
    """A valid position of ``game`` (a ``tw.make("mamma-mia"…)`` game) built from a description.

    - ``hands``: ``{seat: {"ingredients": {kind: n}, "orders": [label, ...]}}`` (a seat is a
      colour name or an int; an order is named by its notation label, e.g.
      ``"4 pineapple + 1 pepper"``, ``"monotoni"``); unnamed seats hold nothing.
    - ``base``: ``{kind: n}`` — the table leftovers that form the base of the oven.
    - ``oven``: the cards played this round, in order: ``(seat, "2 salami")`` or
      ``(seat, "order <label>")``.
    - ``waiters``: ``{seat: n}`` — the size of a seat's waiter; by default every order of the
      colour not placed elsewhere is in the waiter. Orders left over go to the delivered pile.
    - ``delivered``: ``{seat: n}`` — that many orders start delivered.
    - ``supply``: ``{kind: n}`` or ``None``: the ingredients not placed elsewhere (shuffled with
      ``seed``); when ``supply`` is given, the rest goes to the used pile.
    - ``mamma_mia`` (classic): ``"supply"`` or a seat; default: the emptier when ``evaluate``,
      else ``"supply"``.
    - ``evaluate=True``: the oven phase is over and ``emptier`` (default ``to_move``) starts
      emptying it; the state returned waits for the first decision (or is the next round, if
      none was needed) and its ``events`` are the sub-steps that led there.
    """
    g = game
    P = g.players
    to_move = _seat(g, to_move)
    rng = Rng.from_seed(seed, stream=3)
    hands_ing = [[0] * g.nk for _ in range(P)]
    hands_ord = [[] for _ in range(P)]
    placed = set()

    def take_order(seat, label):
        for o in g.orders_of[seat]:
            if g.deck[o].label == label and o not in placed:
                placed.add(o)
                return o
        g.order_id(seat, label)  # ValueError listing the labels
        raise ValueError(f"{COLOURS[seat]} has no more order {label!r} to place")

    for who, h in (hands or {}).items():
        s = _seat(g, who)
        if not isinstance(h, dict) or set(h) - {"ingredients", "orders"}:
            raise ValueError("a hand is {'ingredients': {kind: n}, 'orders': [label, ...]}")
        hands_ing[s] = _counts(g, h.get("ingredients"), f"{COLOURS[s]}'s hand")
        hands_ord[s] = [take_order(s, label) for label in h.get("orders", [])]
    base_counts = _counts(g, base, "base")
    items = [("i", None, k, n) for k, n in enumerate(base_counts) if n]
    oven_counts = list(base_counts)
    for entry in oven:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[1], str)):
            raise ValueError(f"an oven entry is (seat, '2 salami') or (seat, 'order <label>'), got {entry!r}")
        s = _seat(g, entry[0])
        text = entry[1].strip()
        if text.startswith("order "):
            items.append(("o", s, take_order(s, text[6:])))
            continue
        try:
            n, kind = text.split(" ", 1)
            n = int(n)
        except ValueError:
            raise ValueError(f"an oven entry is '2 salami' or 'order <label>', got {text!r}") from None
        if kind not in g.kinds or n < 1:
            raise ValueError(f"bad oven entry {text!r}")
        items.append(("i", s, g.kinds.index(kind), n))
        oven_counts[g.kinds.index(kind)] += n
    # waiters and delivered piles from the colour's remaining orders, in deck order
    waiter_piles, delivered_piles = [], []
    for s in range(P):
        rest = [o for o in g.orders_of[s] if o not in placed]
        d = (delivered or {}).get(s, (delivered or {}).get(COLOURS[s], 0))
        if not isinstance(d, int) or d < 0 or d > len(rest):
            raise ValueError(f"{COLOURS[s]}: cannot deliver {d!r} orders ({len(rest)} left)")
        pile, rest = rest[:d], rest[d:]
        w = (waiters or {}).get(s, (waiters or {}).get(COLOURS[s], None))
        if w is not None:
            if not isinstance(w, int) or w < 0 or w > len(rest):
                raise ValueError(f"{COLOURS[s]}: a waiter of {w!r} orders is impossible ({len(rest)} left)")
            pile, rest = pile + rest[w:], rest[:w]
        rest, rng = rng.shuffled(rest)
        waiter_piles.append(tuple(rest))
        delivered_piles.append(tuple(pile))
    # ingredients: the rest goes to the supply, or to the used pile when the supply is given
    left = [g.per_kind - oven_counts[k] - sum(h[k] for h in hands_ing) for k in range(g.nk)]
    for k in range(g.nk):
        if left[k] < 0:
            raise ValueError(f"too many {g.kinds[k]}: the game has {g.per_kind}")
    if supply is None and not evaluate:
        sup = cards_of(left)
        used = [0] * g.nk
    else:
        wanted = _counts(g, supply, "supply") if supply is not None else [0] * g.nk
        if any(w > l for w, l in zip(wanted, left)):
            raise ValueError("the supply asks for more cards than are left")
        sup = cards_of(wanted)
        used = [l - w for l, w in zip(left, wanted)]
    emptier = to_move if emptier is None else _seat(g, emptier)
    mm = None
    if g.has_mamma_mia:
        mm = mamma_mia if mamma_mia is not None else (emptier if evaluate else "supply")
        if mm != "supply":
            mm = _seat(g, mm)
        else:
            sup.append(MAMMA_MIA)
    sup, rng = rng.shuffled(sup)
    zero = (0,) * g.nk
    state = MammaMiaState(
        g, phase="turn", turn=to_move, oven_number=oven_number, supply=tuple(sup),
        hands_ing=tuple(tuple(h) for h in hands_ing), hands_ord=tuple(tuple(sorted(h)) for h in hands_ord),
        waiters=tuple(waiter_piles), delivered=tuple(delivered_piles), oven=tuple(items), table=zero, used=tuple(used),
        mm=mm, stall=0, last_drawer=None, emptier=None, cursor=0, pending=None, shown=None, rng=rng.state,
    )
    state.validate()
    if not evaluate:
        return state
    state = state._with(phase="evaluation", emptier=emptier)
    events = []
    return state._run(events)._finish(events)

"""The material of Mamma Mia!: ingredient kinds as counts, the actions and their notation, events.

Shared by the rules (``rules.py``), the oven's evaluation (``oven.py``) and the learning hooks
(``learning.py``), which import from here and not from each other's modules.

A multiset of ingredients is a tuple of counts, one per kind of the edition, in the table's order.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import FrozenInstanceError
from typing import Optional


KINDS = ("salami", "pineapple", "mushroom", "pepper", "olive", "shrimp")
COLOURS = ("yellow", "green", "brown", "purple", "red", "pink")
PERSONAL = ("pineapple", "pepper", "mushroom", "olive", "salami", "shrimp")  # by colour
ORDER_TYPES = ("normal", "bombastica", "monotoni", "minimale", "ciottona", "small_monotoni", "mini",
               "pizza_mamma_mia")
MAMMA_MIA = -1  # the Mamma Mia card, as it lies in the supply
BOMBASTICA_MIN = 15


# ---------------------------------------------------------------------------------------------
# multisets of ingredients: tuples of counts, one per kind of the edition
def _kind_by_kind(n):
    """``add``, ``sub``, ``covers``, ``missing`` (what ``needs`` lacks of ``table``) and ``least``
    (the smaller count of each kind) for multisets of ``n`` kinds, written out kind by kind: the counts unpacked into names
    are three times quicker than ``map`` or a comprehension over a handful of kinds, and the
    evaluation works them out for every order it reveals."""
    a, b = [f"a{i}" for i in range(n)], [f"b{i}" for i in range(n)]
    unpack = f"    {', '.join(a)}, = a\n    {', '.join(b)}, = b\n"

    def each(form, sep=", "):
        return sep.join(form.format(x=x, y=y) for x, y in zip(a, b))

    namespace = {}
    exec(f"def add(a, b):\n{unpack}    return ({each('{x} + {y}')},)\n"  # noqa: S102  (code written here)
         f"def sub(a, b):\n{unpack}    return ({each('{x} - {y}')},)\n"
         f"def covers(a, b):\n{unpack}    return {each('{x} >= {y}', ' and ')}\n"
         f"def missing(a, b):\n{unpack}    return ({each('{x} - {y} if {x} > {y} else 0')},)\n"
         f"def least(a, b):\n{unpack}    return ({each('{x} if {x} < {y} else {y}')},)\n", namespace)
    return namespace


# by the number of kinds (the editions have 5 and 6)
_KIND_BY_KIND = {n: _kind_by_kind(n) for n in range(1, 8)}
_ADD, _SUB, _COVERS, _MISSING, _LEAST = ({n: f[name] for n, f in _KIND_BY_KIND.items()}
                                         for name in ("add", "sub", "covers", "missing", "least"))


def cards_of(counts) -> list:
    """The ingredient cards of ``counts`` (one count per kind), kind by kind: the list a pile
    of those counts is shuffled from."""
    cards = []
    for k, n in enumerate(counts):
        cards += [k] * n
    return cards


# Each takes the function written out for the length of ``a``; tuples of another length, or of
# two lengths, are paired as ``zip`` pairs them.
def _add(a, b):
    try:
        return _ADD[len(a)](a, b)
    except (KeyError, ValueError):
        return tuple(map(operator.add, a, b))


def _sub(a, b):
    try:
        return _SUB[len(a)](a, b)
    except (KeyError, ValueError):
        return tuple(map(operator.sub, a, b))


def _covers(a, b):
    try:
        return _COVERS[len(a)](a, b)
    except (KeyError, ValueError):
        return all(map(operator.ge, a, b))


def _missing(needs, table):
    try:
        return _MISSING[len(needs)](needs, table)
    except (KeyError, ValueError):
        return tuple([n - t if n > t else 0 for n, t in zip(needs, table)])


def _least(a, b):
    try:
        return _LEAST[len(a)](a, b)
    except (KeyError, ValueError):
        return tuple([x if x < y else y for x, y in zip(a, b)])


def _in_seat_functions(n):
    """For each seat ``s`` of ``n``, a function ``(t, x)`` → ``t`` with ``x`` in place of ``t[s]``:
    one tuple built from its items, where slicing and joining builds four."""
    functions = []
    for s in range(n):
        items = ", ".join("x" if i == s else f"t[{i}]" for i in range(n))
        functions.append(eval(f"lambda t, x: ({items},)"))  # noqa: S307  (code written here, of ints only)
    return tuple(functions)


#: ``IN_SEAT[n][s](t, x)``: the tuple ``t`` of ``n`` seats' values with ``x`` as seat ``s``'s
IN_SEAT = tuple(_in_seat_functions(n) for n in range(8))


def _kept(cache, key, value, limit):
    """``value`` kept in ``cache`` under ``key``; a cache of ``limit`` entries is emptied first,
    so that a game's caches stay bounded however long it runs."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


def _one(k, n, size):
    out = [0] * size
    out[k] = n
    return tuple(out)



def cards_text(counts, kinds) -> str:
    """``(0, 2, 0, 1, 0)`` → ``"2 pineapple + 1 pepper"`` (kinds in the table's order)."""
    parts = [f"{n} {kinds[k]}" for k, n in enumerate(counts) if n]
    return " + ".join(parts) if parts else "nothing"


# Plurals for sentences; the notation and the order labels keep the cards' own words
# ("put 2 olive", "4 pineapple + 1 pepper").
PLURAL = {"salami": "salami", "pineapple": "pineapples", "mushroom": "mushrooms", "pepper": "peppers",
          "olive": "olives", "shrimp": "shrimp"}


def kind_words(n: int, kind: str) -> str:
    """``(2, "olive")`` → ``"2 olives"``: a count of cards of one kind, in a sentence."""
    return f"{n} {kind if n == 1 else PLURAL.get(kind, kind + 's')}"


def cards_phrase(counts, kinds) -> str:
    """``(0, 2, 0, 1, 0)`` → ``"2 pineapples + 1 pepper"``: :func:`cards_text` for sentences."""
    key = (tuple(counts), kinds)  # counts may be a list
    phrase = _PHRASES.get(key)
    if phrase is None:
        phrase = " + ".join(kind_words(n, kinds[k]) for k, n in enumerate(counts) if n) or "nothing"
        if len(_PHRASES) > 100_000:
            _PHRASES.clear()
        _PHRASES[key] = phrase
    return phrase


_PHRASES: dict = {}  # the sentences' phrases by counts (the questions of every decision read one)


def order_name(card, kinds=None) -> str:
    """An order card named in a sentence: the name printed on its face, with what tells equal
    names apart, in plurals — ``"Monotoni"``, ``"Normale (4 olives + 1 pepper)"``,
    ``"Mini pizza (1 pineapple + 1 mushroom + 1 pepper, no olives)"``, ``"Small Monotoni (no
    peppers)"``, ``"Pizza Mamma Mia (1 pineapple + 5 salami or 5 shrimp)"``. ``card`` is an
    order card (with the game's ``kinds``) or the card as a view shows it (its ``to_dict``).
    The notation keeps the card's label (``"order monotoni"``)."""
    if isinstance(card, dict):
        recipe = card.get("recipe") or {}
        return _order_words(card.get("type"), card.get("name") or str(card.get("type")),
                            tuple((k, n) for k, n in recipe.items() if n), card.get("crossed"),
                            tuple(card.get("choices") or ()))
    key = (card, kinds)
    name = _ORDER_NAMES.get(key)
    if name is None:
        name = _ORDER_NAMES[key] = _order_words(
            card.type, card.name, tuple((kinds[k], n) for k, n in enumerate(card.recipe) if n),
            None if card.crossed is None else kinds[card.crossed],
            tuple(kinds[k] for k in card.choices or ()))
    return name


def _order_words(type_, name, recipe, crossed, choices) -> str:
    # ``recipe``: (kind, count) pairs in the table's order; biggest count first, as cards read
    printed = " + ".join(kind_words(n, k) for k, n in sorted(recipe, key=lambda kn: -kn[1]))
    if type_ == "normal":
        details = printed
    elif type_ == "mini":
        details = f"{printed}, no {PLURAL.get(crossed, crossed)}"
    elif type_ == "small_monotoni":
        details = f"no {PLURAL.get(crossed, crossed)}"
    elif type_ == "pizza_mamma_mia":
        details = " + ".join([printed] * bool(printed) + [" or ".join(kind_words(5, k) for k in choices)])
    else:
        details = ""
    return f"{name} ({details})" if details else name


_ORDER_NAMES: dict = {}  # by card and kinds: a few dozen cards per deck



# ---------------------------------------------------------------------------------------------
# actions
def _type_key(value):
    """The type of a field's value, and of each item of a tuple (the kinds of a variant)."""
    t = type(value)
    return (t, *map(type, value)) if t is tuple else t


class _Action:
    """An immutable action value, built once per distinct value: ``Turn("olive", 2)`` twice is
    the same object. Equality and hashing are therefore identity, which the membership test of a
    chosen action among the legal ones (``choice in legal``) does without calling Python code."""

    __slots__ = ()
    _FIELDS: tuple = ()
    _DEFAULTS: tuple = ()
    _BUILT: dict = {}

    def __new__(cls, *args, **kwargs):
        values = list(cls._DEFAULTS)
        if len(args) > len(values):
            raise TypeError(f"{cls.__name__}() takes at most {len(values)} arguments ({len(args)} given)")
        values[:len(args)] = args
        for name, value in kwargs.items():
            if name not in cls._FIELDS or cls._FIELDS.index(name) < len(args):
                raise TypeError(f"{cls.__name__}() got an unexpected or repeated argument {name!r}")
            values[cls._FIELDS.index(name)] = value
        # Equal values of other types (True and 1, 2.0 and 2, numpy's integers) are other
        # keys: the first one built would otherwise be every later one, its notation ("put
        # True olive") and its JSON those of the engine's own action in every game after it.
        key = (cls, *values, *map(_type_key, values))
        action = _Action._BUILT.get(key)
        if action is None:
            action = object.__new__(cls)
            for name, value in zip(cls._FIELDS, values):
                object.__setattr__(action, name, value)
            action._built()
            # another thread may have built the same value meanwhile: one object wins for all
            action = _Action._BUILT.setdefault(key, action)
        return action

    def _built(self):
        pass

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):  # a copy or an unpickled action is the one built here
        return type(self), tuple(getattr(self, name) for name in self._FIELDS)

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"{type(self).__name__}({fields})"


class Turn(_Action):
    """A whole turn: ingredients into the oven, maybe one order, then the draw.

    ``kind``/``count``: the ingredients put (``None``/0: none); ``order``: the label of the
    order card put (``None``: none); ``source``: ``"supply"``/``"waiter"``/``None`` (no draw);
    ``draw``: how many cards (``None``: up to the limit; a number only with optional actions).
    """

    __slots__ = ("kind", "count", "order", "source", "draw", "_notation", "_parts")
    _FIELDS = ("kind", "count", "order", "source", "draw")
    _DEFAULTS = (None, 0, None, None, None)

    def _built(self):
        # the notation, computed once: turns are compared by notation when parsed
        object.__setattr__(self, "_notation", self._text())
        # what applying the turn reads, in one tuple: the kind as its index (the same in both
        # editions: classic has the first five kinds), the count, the order's label, the draw
        k = KINDS.index(self.kind) if self.count and self.kind in KINDS else None
        object.__setattr__(self, "_parts", (k, self.count, self.order, self.source, self.draw))

    def __str__(self):
        return self._notation

    def _text(self):
        parts = []
        if self.count:
            parts.append(f"put {self.count} {self.kind}")
        if self.order is not None:
            parts.append(f"order {self.order}")
        if self.source is not None:
            parts.append(f"draw {self.source}" if self.draw is None else f"draw {self.draw} from {self.source}")
        return "; ".join(parts) if parts else "pass"


class Restock(_Action):
    """Plus: a player without ingredients replaces his whole turn by drawing 5 from the supply."""

    __slots__ = ()

    def __str__(self):
        return "draw 5 ingredients"


def _variant_text(variant, kinds):
    if variant is None:
        return ""
    if isinstance(variant, tuple):
        return " with " + "+".join(kinds[k] for k in variant)
    return " with " + kinds[variant]


class Make(_Action):
    """The owner makes the revealed order (``variant``: the joker kind(s)), adding ``add``
    (a text like ``"1 pineapple"``) from his hand, or ``None`` when the table suffices."""

    __slots__ = ("variant", "add", "_text")
    _FIELDS = ("variant", "add", "_text")
    _DEFAULTS = (None, None, "")

    def __str__(self):
        return self._text


class Ask(_Action):
    """Plus, Help: the owner asks for exactly ``cards`` (his hand adds the rest)."""

    __slots__ = ("variant", "cards", "_text")
    _FIELDS = ("variant", "cards", "_text")
    _DEFAULTS = (None, "", "")

    def __str__(self):
        return self._text


class SendBack(_Action):
    __slots__ = ()

    def __str__(self):
        return "send back"


class Help(_Action):
    __slots__ = ()

    def __str__(self):
        return "help"


class Refuse(_Action):
    __slots__ = ()

    def __str__(self):
        return "refuse"


# the actions without parameters, built once like every other (see _MEMO): a learning
# environment maps an action object it has seen to its index without its notation
SEND_BACK, HELP, REFUSE, RESTOCK = SendBack(), Help(), Refuse(), Restock()

_MEMO: dict = {}  # actions are immutable values: each distinct one is built once


def _interned(key, build, *args):
    """The one action for ``key``, built by ``build(*args)`` the first time."""
    action = _MEMO.get(key)
    if action is None:
        action = _MEMO[key] = build(*args)
    return action


def _make_action(variant, add, kinds):
    return _interned(("make", variant, add, kinds), _make_action_new, variant, add, kinds)


def _ask_action(variant, cards, kinds):
    return _interned(("ask", variant, cards, kinds), _ask_action_new, variant, cards, kinds)


def _turns(kind, count, order, need, optional):
    """The turns that put ``count`` ``kind`` and ``order``, with every draw allowed for ``need``."""
    if need == 0:
        return (Turn(kind, count, order),)
    out = [Turn(kind, count, order)] if optional else []
    out += [Turn(kind, count, order, "supply"), Turn(kind, count, order, "waiter")]
    if optional:
        out += [Turn(kind, count, order, source, n) for source in ("supply", "waiter") for n in range(1, need)]
    return tuple(out)


def _make_action_new(variant, add, kinds):
    text = "make" + _variant_text(variant, kinds) + (f" adding {cards_text(add, kinds)}" if add else "")
    return Make(variant, None if add is None else cards_text(add, kinds), text)


def _ask_action_new(variant, cards, kinds):
    v = _variant_text(variant, kinds)
    return Ask(variant, cards_text(cards, kinds), f"ask{v} for {cards_text(cards, kinds)}")



# ---------------------------------------------------------------------------------------------
# a state's fields
def _moved(d):
    """Set ``to_move`` and ``is_over`` in the fields ``d`` of a state from its phase, turn and
    pending decision."""
    phase = d["phase"]
    if phase == "turn":
        d["to_move"] = d["turn"]
    elif phase == "evaluation":
        p = d["pending"]
        # None: a sub-step between decisions (the emptier is revealing cards)
        d["to_move"] = None if p is None else d["game"].deck[p[1]].colour if p[0] == "settle" else p[5]
    else:
        d["to_move"] = None
    # not "nobody to move": between decisions the emptier reveals cards and nobody decides
    if phase == "over":
        d["is_over"] = True
    else:
        d.pop("is_over", None)


# ---------------------------------------------------------------------------------------------
def _named(counts, kinds):
    return {kinds[k]: n for k, n in enumerate(counts) if n}


def _parse_cards(text, kinds):
    """``"2 pineapple + 1 pepper"`` → ``(0, 2, 0, 1, 0)``: the counts an ask or a Bombastica's
    addition names (kept by text: applying every ask read its text again)."""
    key = (text, kinds)
    counts = _PARSED.get(key)
    if counts is None:
        out = [0] * len(kinds)
        for part in text.split(" + "):
            n, k = part.split(" ", 1)
            out[kinds.index(k)] += int(n)
        counts = tuple(out)
        if len(_PARSED) > 100_000:
            _PARSED.clear()
        _PARSED[key] = counts
    return counts


_PARSED: dict = {}  # the counts named by each text of cards (asks and additions)


def _multisets(hand, size):
    """Every way of taking ``size`` cards from ``hand`` (a tuple of counts)."""
    if size <= 0:
        return []
    return [c for c in itertools.product(*(range(n + 1) for n in hand)) if sum(c) == size]


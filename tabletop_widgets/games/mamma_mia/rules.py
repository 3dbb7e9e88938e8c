"""Mamma Mia! (classic, 1999) and Mamma Mia! Plus (2009): one engine, two registered games.

The editions differ in data (the deck of orders, the ingredient kinds, the hand limit) and in
a few switches; see ``docs/rules/mamma-mia.md`` for the rules and every decision taken.

Cards are plain values: an ingredient is the index of its kind, an order card the index of
its :class:`OrderCard` in the game's deck, the Mamma Mia card is :data:`MAMMA_MIA`.
A turn is one action (:class:`Turn` or :class:`Restock`); emptying the oven is a run of
automatic sub-steps (events) that stops at every decision (:class:`Make`, :class:`Ask`,
:class:`SendBack`, :class:`Help`, :class:`Refuse`).
"""

from __future__ import annotations

import itertools
import operator
import json
import os
from dataclasses import dataclass
from typing import Optional

from tabletop_widgets.core import Event, Game, Option, Rng, State, register
from tabletop_widgets.core.errors import quote
from tabletop_widgets.core.game import files_allowed, read_option_file

KINDS = ("salami", "pineapple", "mushroom", "pepper", "olive", "shrimp")
COLOURS = ("yellow", "green", "brown", "purple", "red", "pink")
PERSONAL = ("pineapple", "pepper", "mushroom", "olive", "salami", "shrimp")  # by colour
ORDER_TYPES = ("normal", "bombastica", "monotoni", "minimale", "ciottona", "small_monotoni", "mini",
               "pizza_mamma_mia")
MAMMA_MIA = -1  # the Mamma Mia card, as it lies in the supply
BOMBASTICA_MIN = 15

EDITIONS = {
    "classic": {
        "kinds": KINDS[:5], "per_kind": 13, "removed": {5: 0, 4: 1, 3: 3, 2: 5}, "limit": 7,
        "deal": 6, "draw_cap": None, "mamma_mia_card": True, "minimale": 3,
    },
    "plus": {
        "kinds": KINDS, "per_kind": 15, "removed": {6: 0, 5: 1, 4: 3, 3: 5, 2: 7}, "limit": 9,
        "deal": 8, "draw_cap": 5, "mamma_mia_card": False, "minimale": 4,
    },
}
DECK_DIR = os.path.join(os.path.dirname(__file__), "decks")
#: The decks a game may choose by name (option ``deck``): the package's own files.
DECKS = {"classic": os.path.join(DECK_DIR, "classic.json"), "plus": os.path.join(DECK_DIR, "plus.json")}
#: The most order cards of one colour a deck may have (the editions have 8 and 15).
DECK_COLOUR_LIMIT = 64
#: Why a deck option from a replay or a state's JSON is refused: the same sentence whatever
#: it names, so the answer tells nothing about the files of the machine that reads it.
DECK_NOT_DATA = ("option deck must be None, a registered deck name (" + ", ".join(DECKS) + ") or a deck given "
                 "inline as JSON data; a replay or a state's JSON cannot name a file")


# ---------------------------------------------------------------------------------------------
# multisets of ingredients: tuples of counts, one per kind of the edition
def _add(a, b):
    return tuple(map(operator.add, a, b))


def _sub(a, b):
    return tuple(map(operator.sub, a, b))


def _covers(a, b):
    return all(map(operator.ge, a, b))


def _missing(needs, table):
    return tuple(n - t if n > t else 0 for n, t in zip(needs, table))


def _one(k, n, size):
    out = [0] * size
    out[k] = n
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# the order cards
@dataclass(frozen=True)
class OrderCard:
    """One printed order. ``recipe`` is the printed fixed part (the whole recipe of a normal
    order or a Mini pizza, ``1 P`` for Monotoni, Ciottona and Minimale, the fixed kind of a
    Pizza Mamma Mia); ``choices`` the two alternatives of a Pizza Mamma Mia."""

    id: int
    colour: int
    type: str
    name: str
    recipe: tuple
    crossed: Optional[int]
    choices: Optional[tuple]
    label: str

    def to_dict(self, kinds) -> dict:
        return {
            "colour": COLOURS[self.colour], "type": self.type, "name": self.name,
            "recipe": {kinds[k]: n for k, n in enumerate(self.recipe) if n},
            "crossed": None if self.crossed is None else kinds[self.crossed],
            "choices": None if self.choices is None else [kinds[k] for k in self.choices],
            "label": self.label,
        }


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
    return " + ".join(kind_words(n, kinds[k]) for k, n in enumerate(counts) if n) or "nothing"


def _recipe_text(recipe, kinds) -> str:
    # biggest count first, as the cards and the sources read: "4 pineapple + 1 pepper"
    items = sorted((k for k, n in enumerate(recipe) if n), key=lambda k: (-recipe[k], k))
    return " + ".join(f"{recipe[k]} {kinds[k]}" for k in items)


def _label(type_, recipe, crossed, choices, kinds) -> str:
    if type_ == "normal":
        return _recipe_text(recipe, kinds)
    if type_ == "mini":
        return f"mini {_recipe_text(recipe, kinds)} without {kinds[crossed]}"
    if type_ == "small_monotoni":
        return f"small monotoni without {kinds[crossed]}"
    if type_ == "pizza_mamma_mia":
        fixed = next(k for k, n in enumerate(recipe) if n)
        return f"pizza mamma mia 1 {kinds[fixed]} + 5 {kinds[choices[0]]}/{kinds[choices[1]]}"
    return type_


def read_deck_file(path) -> dict:
    """The JSON document of the deck file ``path`` (a regular file of at most
    :data:`~tabletop_widgets.core.game.OPTION_FILE_LIMIT` bytes); ``ValueError`` otherwise."""
    text = read_option_file(path, "deck file")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"deck file {str(path)!r} is not valid JSON: {exc}") from None


def load_deck(source, edition: str) -> tuple:
    """The order cards of ``edition`` from a deck document (the parsed JSON of a deck file),
    or from the path of a deck file.

    Raises ``ValueError`` saying what is wrong with the deck.
    """
    spec = EDITIONS[edition]
    kinds = spec["kinds"]
    ncol = len(kinds)  # one colour per kind in both editions
    where = str(source) if isinstance(source, (str, os.PathLike)) else "deck"
    doc = read_deck_file(source) if isinstance(source, (str, os.PathLike)) else source
    if not isinstance(doc, dict) or not isinstance(doc.get("orders"), dict):
        raise ValueError(f"{where}: a deck is a JSON object with 'orders': {{colour: [order, ...]}}")
    if doc.get("edition", edition) != edition:
        raise ValueError(f"{where}: this deck is for the {doc.get('edition')!r} edition, not {edition!r}")
    colours = COLOURS[:ncol]
    if set(doc["orders"]) != set(colours):
        raise ValueError(f"{where}: 'orders' must have exactly the colours {', '.join(colours)}")

    def kind(value, what):
        if value not in kinds:
            raise ValueError(f"{where}: {what} must be one of {', '.join(kinds)}, got {value!r}")
        return kinds.index(value)

    cards = []
    for c, colour in enumerate(colours):
        entries = doc["orders"][colour]
        if not isinstance(entries, list) or not entries:
            raise ValueError(f"{where}: {colour} needs a non-empty list of orders")
        if len(entries) > DECK_COLOUR_LIMIT:
            raise ValueError(f"{where}: {colour} has {len(entries)} orders; a colour has at most {DECK_COLOUR_LIMIT}")
        p = kinds.index(PERSONAL[c])
        for i, e in enumerate(entries):
            what = f"{colour} order {i + 1}"
            if not isinstance(e, dict) or e.get("type") not in ORDER_TYPES:
                raise ValueError(f"{where}: {what} needs a 'type' among {', '.join(ORDER_TYPES)}")
            t = e["type"]
            allowed = {"type", "name", "recipe", "crossed", "fixed", "choices"}
            if set(e) - allowed:
                raise ValueError(f"{where}: {what} has unknown keys {sorted(set(e) - allowed)}")
            recipe = [0] * len(kinds)
            crossed = choices = None
            if t in ("normal", "mini"):
                r = e.get("recipe")
                if not isinstance(r, dict) or not r:
                    raise ValueError(f"{where}: {what} ({t}) needs a 'recipe' {{kind: count}}")
                for k, n in r.items():
                    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                        raise ValueError(f"{where}: {what}: count of {k!r} must be a positive int")
                    recipe[kind(k, f"{what}: recipe kind")] = n
            elif "recipe" in e:
                raise ValueError(f"{where}: {what}: a {t} order has no 'recipe'")
            if t in ("mini", "small_monotoni"):
                crossed = kind(e.get("crossed"), f"{what}: 'crossed'")
                if recipe[crossed]:
                    raise ValueError(f"{where}: {what}: the crossed-out kind cannot be in the recipe")
            elif "crossed" in e:
                raise ValueError(f"{where}: {what}: only mini and small_monotoni have 'crossed'")
            if t in ("monotoni", "ciottona", "minimale"):
                recipe[p] = 1
            if t == "pizza_mamma_mia":
                fixed = kind(e.get("fixed"), f"{what}: 'fixed'")
                ch = e.get("choices")
                if not isinstance(ch, list) or len(ch) != 2:
                    raise ValueError(f"{where}: {what}: 'choices' must list two kinds")
                choices = tuple(kind(x, f"{what}: a choice") for x in ch)
                if choices[0] == choices[1] or fixed in choices:
                    raise ValueError(f"{where}: {what}: the two choices must differ from each other and from 'fixed'")
                recipe[fixed] = 1
            elif "fixed" in e or "choices" in e:
                raise ValueError(f"{where}: {what}: only pizza_mamma_mia has 'fixed' and 'choices'")
            name = e.get("name", t.replace("_", " ").title())
            if not isinstance(name, str):
                raise ValueError(f"{where}: {what}: 'name' must be a string")
            recipe = tuple(recipe)
            cards.append(OrderCard(len(cards), c, t, name, recipe, crossed, choices,
                                   _label(t, recipe, crossed, choices, kinds)))
    return tuple(cards)


# ---------------------------------------------------------------------------------------------
# actions
@dataclass(frozen=True)
class Turn:
    """A whole turn: ingredients into the oven, maybe one order, then the draw.

    ``kind``/``count``: the ingredients put (``None``/0: none); ``order``: the label of the
    order card put (``None``: none); ``source``: ``"supply"``/``"waiter"``/``None`` (no draw);
    ``draw``: how many cards (``None``: up to the limit; a number only with optional actions).
    """

    kind: Optional[str] = None
    count: int = 0
    order: Optional[str] = None
    source: Optional[str] = None
    draw: Optional[int] = None

    def __post_init__(self):
        # the notation, computed once: turns are compared by notation when parsed
        self.__dict__["_notation"] = self._text()

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


@dataclass(frozen=True)
class Restock:
    """Plus: a player without ingredients replaces his whole turn by drawing 5 from the supply."""

    def __str__(self):
        return "draw 5 ingredients"


def _variant_text(variant, kinds):
    if variant is None:
        return ""
    if isinstance(variant, tuple):
        return " with " + "+".join(kinds[k] for k in variant)
    return " with " + kinds[variant]


@dataclass(frozen=True)
class Make:
    """The owner makes the revealed order (``variant``: the joker kind(s)), adding ``add``
    (a text like ``"1 pineapple"``) from his hand, or ``None`` when the table suffices."""

    variant: object = None
    add: Optional[str] = None
    _text: str = ""

    def __str__(self):
        return self._text


@dataclass(frozen=True)
class Ask:
    """Plus, Help: the owner asks for exactly ``cards`` (his hand adds the rest)."""

    variant: object = None
    cards: str = ""
    _text: str = ""

    def __str__(self):
        return self._text


@dataclass(frozen=True)
class SendBack:
    def __str__(self):
        return "send back"


@dataclass(frozen=True)
class Help:
    def __str__(self):
        return "help"


@dataclass(frozen=True)
class Refuse:
    def __str__(self):
        return "refuse"


_MEMO: dict = {}  # actions are immutable values: each distinct one is built once


def _make_action(variant, add, kinds):
    key = ("make", variant, add, kinds)
    action = _MEMO.get(key)
    if action is None:
        action = _MEMO[key] = _make_action_new(variant, add, kinds)
    return action


def _ask_action(variant, cards, kinds):
    key = ("ask", variant, cards, kinds)
    action = _MEMO.get(key)
    if action is None:
        action = _MEMO[key] = _ask_action_new(variant, cards, kinds)
    return action


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
# the games
def _is_seat(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6


def _is_deck(v):
    # after MammaMia._load_option: a path given from Python is already the deck's data
    return v is None or isinstance(v, dict) or (isinstance(v, str) and v in DECKS)


@register
class MammaMia(Game):
    """Mamma Mia! (classic): 2–5 players, 3 ovens, the Mamma Mia card."""

    name = "mamma-mia"
    renderer = "mamma_mia"
    edition = "classic"
    min_players, max_players, default_players = 2, 5, 4
    OPTIONS = {
        "optional_actions": Option(False, (False, True), "the Czech reading: every step of a turn may be skipped and the draw may stop short of the limit"),
        "bombastica_from_hand": Option(True, (False, True), "the owner of a Bombastica may add cards from his hand to reach 15"),
        "first_player": Option(0, _is_seat, "the seat that plays first", "a seat number (0 to players-1)"),
        "deck": Option(None, _is_deck, "None for the edition's deck; a registered deck's name (classic, plus); a deck as JSON data; or, from Python, the path of a JSON deck file, read once into data", "None, 'classic', 'plus', a deck object, or (from Python) a deck file's path"),
    }

    def svg(self, frame, seat=None) -> str:
        from .svg import view_svg

        return view_svg(frame, seat)

    def __init__(self, players=None, **options):
        if "help" in options and "help" not in self.OPTIONS:
            # the classic edition has no Help: help=False says just that (API.md lists it)
            if options["help"] is not False:
                raise ValueError(f"{self.name}: option help={options['help']!r} is not allowed: the classic edition has "
                                 "no Help; allowed values: False")
            options = {k: v for k, v in options.items() if k != "help"}
        super().__init__(players, **options)
        spec = EDITIONS[self.edition]
        self.kinds = spec["kinds"]
        self.nk = len(self.kinds)
        self.limit = spec["limit"]
        self.deal = spec["deal"]
        self.draw_cap = spec["draw_cap"]
        self.has_mamma_mia = spec["mamma_mia_card"]
        self.minimale = spec["minimale"]
        # the Small Monotoni's joker may be the personal kind (Plus option; False in classic, which has none)
        self.small_monotoni_personal = bool(self.options.get("small_monotoni_personal", False))
        self.per_kind = spec["per_kind"] - spec["removed"][self.players]
        deck = self.options["deck"]
        if deck is None or isinstance(deck, str):
            deck = read_deck_file(DECKS[deck or self.edition])  # the package's own file
        self.deck = load_deck(deck, self.edition)
        # each card's JSON view, built once (shared by events: treat as read-only)
        self.card_dicts = tuple(o.to_dict(self.kinds) for o in self.deck)
        self.personal = tuple(self.kinds.index(PERSONAL[c]) for c in range(self.players))
        self.orders_of = tuple(tuple(o.id for o in self.deck if o.colour == c) for c in range(self.players))
        self.ovens = 3 if self.options.get("help", True) else 4
        self._seat_names = tuple(c.capitalize() for c in COLOURS[: self.players])
        self._cache = {}  # legal actions by what they depend on (actions are immutable values)
        self._by_label = {}
        for o in self.deck:
            self._by_label.setdefault((o.colour, o.label), o.id)

    def _load_option(self, key, value):
        if key != "deck" or value is None or isinstance(value, dict) or (isinstance(value, str) and value in DECKS):
            return value
        if not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"{self.name}: {DECK_NOT_DATA}; got a {type(value).__name__}")
        if not files_allowed():
            raise ValueError(f"{self.name}: {DECK_NOT_DATA}")
        return read_deck_file(value)  # from Python: the file's data, kept in the spec and replays

    def _check_options(self, options):
        if options["first_player"] >= self.players:
            raise ValueError(f"{self.name}: option first_player={options['first_player']!r} is not a seat; "
                             f"allowed values: 0 to {self.players - 1}")

    @property
    def seat_names(self):
        return self._seat_names

    @property
    def help(self) -> bool:
        return bool(self.options.get("help", False))

    def order_id(self, seat: int, label: str) -> int:
        """The id of the first order card of ``seat``'s colour whose label is ``label``."""
        try:
            return self._by_label[(seat, label)]
        except KeyError:
            labels = sorted({o.label for o in self.deck if o.colour == seat})
            raise ValueError(f"{COLOURS[seat]} has no order {label!r}; its orders are: {', '.join(labels)}") from None

    # set-up --------------------------------------------------------------------------------
    def new_state(self, seed=0):
        rng = Rng.from_seed(seed)
        ingredients = [k for k in range(self.nk) for _ in range(self.per_kind)]
        ingredients, rng = rng.shuffled(ingredients)
        hands_ing = []
        for s in range(self.players):
            dealt = ingredients[s * self.deal:(s + 1) * self.deal]
            hands_ing.append(tuple(dealt.count(k) for k in range(self.nk)))
        rest = ingredients[self.players * self.deal:]
        mm = None
        if self.has_mamma_mia:
            # shuffled in after dealing (the Czech order), so no player is dealt it
            rest, rng = rng.shuffled(rest + [MAMMA_MIA])
            mm = "supply"
        waiters, hand_orders = [], []
        for s in range(self.players):
            pile, rng = rng.shuffled(self.orders_of[s])
            hand_orders.append((pile[0],))
            waiters.append(tuple(pile[1:]))
        zero = (0,) * self.nk
        return MammaMiaState(
            self, phase="turn", turn=self.options["first_player"], oven_number=1,
            supply=tuple(rest), hands_ing=tuple(hands_ing), hands_ord=tuple(hand_orders),
            waiters=tuple(waiters), delivered=((),) * self.players, oven=(), table=zero, used=zero,
            mm=mm, stall=0, last_drawer=None, emptier=None, cursor=0, pending=None, shown=None,
            rng=rng.state,
        )

    def _state_from_payload(self, p):
        return MammaMiaState.from_payload(self, p)

    # learning hooks (PettingZoo, docs/analysis.md); the encodings live in learning.py ------
    def action_catalogue(self) -> tuple:
        # built once per game: it depends only on the deck, the players and the options
        catalogue = self.__dict__.get("_catalogue")
        if catalogue is None:
            from .learning import action_catalogue
            catalogue = self.__dict__["_catalogue"] = action_catalogue(self)
        return catalogue

    def observation_size(self) -> int:
        from .learning import observation_size
        return observation_size(self)

    def observation_vector(self, observation: dict, seat: int) -> list:
        from .learning import observation_vector
        return observation_vector(self, observation, seat)


@register
class MammaMiaPlus(MammaMia):
    """Mamma Mia! Plus: 2–6 players, shrimp, Help, the special orders of the Plus deck."""

    name = "mamma-mia-plus"
    edition = "plus"
    min_players, max_players, default_players = 2, 6, 4
    OPTIONS = dict(
        MammaMia.OPTIONS,
        help=Option(True, (False, True), "Help between players (never with 2 players); 3 ovens with Help, 4 without"),
        small_monotoni_personal=Option(False, (False, True), "a Small Monotoni may be made of the owner's personal "
                                       "ingredient too (by default its joker kind, like every joker, is not it)"),
    )

    def _default_option(self, key, players):
        if key == "help":
            return players >= 3
        return super()._default_option(key, players)

    def _check_options(self, options):
        super()._check_options(options)
        if options["help"] and self.players == 2:
            raise ValueError(f"{self.name}: option help=True is not allowed with 2 players; allowed values: False")


# ---------------------------------------------------------------------------------------------
# the state
_FIELDS = ("phase", "turn", "oven_number", "supply", "hands_ing", "hands_ord", "waiters", "delivered",
           "oven", "table", "used", "mm", "stall", "last_drawer", "emptier", "cursor", "pending", "shown",
           "rng")


class MammaMiaState(State):
    """A position. Oven items are ``("i", seat, kind, count)`` (seat ``None`` for the leftovers
    that form the base of the oven) or ``("o", seat, order_id)``, in the order played; during
    the evaluation the first ``cursor`` items have been revealed, and ``part`` cards of the
    ingredient item at ``cursor`` (the emptier reveals one card at a time; ``part`` is 0
    whenever somebody is to decide, so it is not serialised).

    ``pending`` is the decision the evaluation waits for: ``("settle", order_id)`` (the owner
    decides) or ``("help", order_id, variant, asked, owner_adds, seat)`` (``seat`` answers).
    """

    def __init__(self, game, events=(), **fields):
        self.game = game
        self.events = events
        for f in _FIELDS:
            setattr(self, f, fields[f])
        self.part = fields.get("part", 0)

    def _with(self, **changes):
        # a shallow copy: every field is an immutable value, so sharing them is safe
        new = object.__new__(MammaMiaState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d["events"] = ()
        return new

    # reading ------------------------------------------------------------------------------
    @property
    def to_move(self):
        if self.phase == "turn":
            return self.turn
        if self.phase == "evaluation":
            p = self.pending
            if p is None:  # a sub-step between decisions: the emptier is revealing cards
                return None
            return self.game.deck[p[1]].colour if p[0] == "settle" else p[5]
        return None

    @property
    def is_over(self):
        # not "nobody to move": between decisions the emptier reveals cards and nobody decides
        return self.phase == "over"

    def hand_size(self, seat):
        return sum(self.hands_ing[seat]) + len(self.hands_ord[seat])

    @property
    def scores(self):
        return tuple(len(d) for d in self.delivered)

    @property
    def winners(self):
        if self.phase != "over":
            return ()
        best = max(self.scores)
        tied = [s for s, n in enumerate(self.scores) if n == best]
        most = max(sum(self.hands_ing[s]) for s in tied)
        return tuple(s for s in tied if sum(self.hands_ing[s]) == most)

    # legal actions ------------------------------------------------------------------------
    def legal_actions(self):
        if self.phase == "turn":
            return self._turn_actions()
        if self.phase == "evaluation":
            if self.pending is None:  # a sub-step between decisions (an event's ``after``)
                return []
            if self.pending[0] == "settle":
                return self._settle_actions()
            helper = self.pending[5]
            asked = self.pending[3]
            return [Help(), Refuse()] if _covers(self.hands_ing[helper], asked) else [Refuse()]
        return []

    def _turn_actions(self):
        g = self.game
        seat = self.turn
        ing = self.hands_ing[seat]
        key = ("turn", ing, self.hands_ord[seat])
        cached = g._cache.get(key)
        if cached is None:
            cached = self._turn_actions_uncached(seat, ing)
            if len(g._cache) > 100_000:
                g._cache.clear()
            g._cache[key] = cached
        return list(cached)

    def _turn_actions_uncached(self, seat, ing):
        g = self.game
        optional = g.options["optional_actions"]
        if g.draw_cap is not None and not any(ing):
            return [Restock()]
        puts = _MEMO.get(("puts", ing, optional))
        if puts is None:
            puts = [(g.kinds[k], c) for k in range(g.nk) for c in range(1, ing[k] + 1)]
            if optional or not puts:
                puts.insert(0, (None, 0))
            _MEMO[("puts", ing, optional)] = puts
        hand_orders = self.hands_ord[seat]
        deck = g.deck
        orders = [None] + sorted({deck[o].label for o in hand_orders})
        size = sum(ing) + len(hand_orders)
        limit, cap = g.limit, g.draw_cap
        out = []
        memo = _MEMO
        for kind, count in puts:
            base = limit - size + count
            for order in orders:
                need = base + 1 if order is not None else base
                if need < 0:
                    need = 0
                elif cap is not None and need > cap:
                    need = cap
                key = (kind, count, order, need, optional)
                actions = memo.get(key)
                if actions is None:
                    actions = memo[key] = _turns(kind, count, order, need, optional)
                out += actions
        return out

    def _variants(self, card):
        """``(variants, reason)``: the ways ``card`` can be made as ``[(variant, needs)]``, or
        a sentence saying why it fails at once (Bombastica: ``[(None, None)]``)."""
        g = self.game
        nk = g.nk
        table = self.table
        p = g.personal[card.colour]
        t = card.type
        if t in ("mini", "small_monotoni") and table[card.crossed]:
            return None, f"{g.kinds[card.crossed]} (crossed out on the card) is on the table"
        if t in ("normal", "mini"):
            return [(None, card.recipe)], None
        if t == "bombastica":
            return [(None, None)], None
        if t == "monotoni":
            return [(x, _add(card.recipe, _one(x, 6, nk))) for x in range(nk) if x != p], None
        if t == "ciottona":
            return [((x, y), _add(card.recipe, _add(_one(x, 4, nk), _one(y, 4, nk))))
                    for x in range(nk) for y in range(x + 1, nk) if x != p and y != p], None
        if t == "small_monotoni":
            personal = g.small_monotoni_personal
            return [(x, _one(x, 5, nk)) for x in range(nk) if (personal or x != p) and x != card.crossed], None
        if t == "pizza_mamma_mia":
            return [(x, _add(card.recipe, _one(x, 5, nk))) for x in card.choices], None
        # minimale: the kind with the fewest cards on the table, ignoring absent kinds and the
        # kinds printed on the card
        eligible = [k for k in range(nk) if table[k] and not card.recipe[k]]
        if not eligible:
            return None, "no kind is eligible for the Minimale (every kind on the table is absent or printed on the card)"
        low = min(table[k] for k in eligible)
        return [(k, _add(card.recipe, _one(k, g.minimale, nk))) for k in eligible if table[k] == low], None

    def _helpers(self, owner):
        """The seats that may be asked for Help, from the owner's left (a helper needs a waiter card)."""
        n = self.game.players
        return [(owner + i) % n for i in range(1, n) if self.waiters[(owner + i) % n]]

    def _settle_actions(self):
        g = self.game
        oid = self.pending[1]
        owner = g.deck[oid].colour
        waiters = self.waiters
        can_ask = g.help and any(waiters[s] for s in range(g.players) if s != owner)
        key = ("settle", oid, self.table, self.hands_ing[owner], can_ask)
        cached = g._cache.get(key)
        if cached is None:
            cached = self._settle_actions_uncached()
            if len(g._cache) > 100_000:
                g._cache.clear()
            g._cache[key] = cached
        return list(cached)

    def _settle_actions_uncached(self):
        g = self.game
        oid = self.pending[1]
        card = g.deck[oid]
        owner = card.colour
        hand = self.hands_ing[owner]
        out = []
        if card.type == "bombastica":
            m = BOMBASTICA_MIN - sum(self.table)
            for add in _multisets(hand, m):
                out.append(_make_action(None, add, g.kinds))
            out.append(SendBack())
            return out
        variants, _ = self._variants(card)
        table = self.table
        # an order the table can make is made: Help and sending back exist only for what is
        # missing, so when the table alone holds a way the owner only chooses among the ways
        from_table = any(_covers(table, needs) for _, needs in variants)
        can_ask = g.help and not from_table and bool(self._helpers(owner))
        for variant, needs in variants:
            missing = _missing(needs, table)
            if not any(missing):
                out.append(_make_action(variant, None, g.kinds))
                continue
            if _covers(hand, missing):
                out.append(_make_action(variant, missing, g.kinds))
            if can_ask:
                # any part of the missing cards, as long as the hand holds the rest
                ranges = [range(m - h if m > h else 0, m + 1) for m, h in zip(missing, hand)]
                for ask in itertools.product(*ranges):
                    if any(ask):
                        out.append(_ask_action(variant, ask, g.kinds))
        if not from_table:
            out.append(SendBack())
        return out

    # applying -----------------------------------------------------------------------------
    def _apply(self, action):
        if self.phase == "turn":
            return self._apply_turn(action)
        events = []
        p = self.pending
        if p[0] == "settle":
            state = self._apply_settle(action, events)
        else:
            state = self._apply_help(action, events)
        return state._run(events)._finish(events)

    def _apply_turn(self, action):
        g = self.game
        seat = self.turn
        name = g.seat_names[seat]
        hands_ing = list(self.hands_ing)
        hands_ord = list(self.hands_ord)
        oven = self.oven
        supply = self.supply
        mm = self.mm
        moved = False
        secret = public = ""
        got = [0] * g.nk
        drew = 0
        if isinstance(action, Restock):
            take = supply[:5]
            supply = supply[5:]
            for k in take:
                got[k] += 1
            hands_ing[seat] = _add(hands_ing[seat], got)
            moved = drew = len(take)
            line = f"{name} has no ingredient, so the whole turn is drawing 5 from the supply"
            secret = f"{line}: {cards_phrase(got, g.kinds)}."
            public = f"{line} ({drew} drawn)."
            source = "supply"
        else:
            if action.count:
                k = g.kinds.index(action.kind)
                ing = list(hands_ing[seat])
                ing[k] -= action.count
                hands_ing[seat] = tuple(ing)
                oven = oven + (("i", seat, k, action.count),)
                moved = True
                secret = public = f"{name} puts {kind_words(action.count, action.kind)} in the oven. "
            if action.order is not None:
                label = action.order
                deck = g.deck
                oid = min(o for o in hands_ord[seat] if deck[o].label == label)
                hands_ord[seat] = tuple(o for o in hands_ord[seat] if o != oid)
                oven = oven + (("o", seat, oid),)
                moved = True
                secret += f"{name} puts the order {label} in the oven, face down. "
                public += f"{name} puts a {COLOURS[seat]} order in the oven, face down. "
            source = action.source
            if source is not None:
                need = g.limit - (sum(hands_ing[seat]) + len(hands_ord[seat]))
                if g.draw_cap is not None and need > g.draw_cap:
                    need = g.draw_cap
                if action.draw is not None and need > action.draw:
                    need = action.draw
                if source == "waiter":
                    take = self.waiters[seat][:need]
                    waiters = list(self.waiters)
                    waiters[seat] = self.waiters[seat][need:]
                    hands_ord[seat] = tuple(sorted(hands_ord[seat] + take))
                    drew = len(take)
                    waiter_text = ", ".join(g.deck[o].label for o in take) or "nothing"
                    secret += f"{name} draws {drew} order(s) from his waiter: {waiter_text}."
                    public += f"{name} draws {drew} order(s) from his waiter."
                else:
                    i, n = 0, len(supply)
                    while need > 0 and i < n:
                        card = supply[i]
                        i += 1
                        if card == MAMMA_MIA:
                            mm = seat  # laid out at once; a replacement is drawn in its place
                            moved = True
                            continue
                        got[card] += 1
                        need -= 1
                    supply = supply[i:]
                    drew = sum(got)
                    hands_ing[seat] = _add(hands_ing[seat], got)
                    secret += f"{name} draws {drew} from the supply: {cards_phrase(got, g.kinds)}."
                    public += f"{name} draws {drew} from the supply."
                    if mm == seat and self.mm != seat:
                        line = (f" {name} draws the Mamma Mia card and lays it out: he will empty the oven and "
                                "start the next round.")
                        secret += line
                        public += line
                moved = moved or drew > 0
            elif not (action.count or action.order is not None):
                secret = public = f"{name} passes."
        secret, public = secret.strip(), public.strip()
        state = object.__new__(MammaMiaState)
        d = state.__dict__
        d.update(self.__dict__)
        d.update(hands_ing=tuple(hands_ing), hands_ord=tuple(hands_ord), oven=oven, supply=supply, mm=mm,
                 stall=0 if moved else self.stall + 1, events=())
        if source == "waiter" and drew:
            d["waiters"] = tuple(waiters)
        if self.supply and not supply:
            d["last_drawer"] = seat
        # what every seat saw happen (the widget marks these cards as just played)
        restock = isinstance(action, Restock)
        seen = {"seat": seat, "put": None if restock or not action.count else {"kind": action.kind, "count": action.count},
                "order": not restock and action.order is not None, "source": source, "drew": drew}
        turn_event = _event("turn", secret, dict(seen, action=str(action)), seats=(seat,),
                           public_text=public, public_data=seen)
        # the oven phase ends with the last supply card, or when the supply is empty after a
        # turn, or when a whole cycle of turns moved no card (the deadlock guard)
        deadlock = state.stall >= g.players
        if supply and not deadlock:
            state.turn = (seat + 1) % g.players
            state.events = (turn_event,)
            return state
        if g.has_mamma_mia:
            emptier = state.mm if isinstance(state.mm, int) else seat
        else:
            emptier = state.last_drawer if state.last_drawer is not None else seat
        events = [_event("turn", turn_event.text, turn_event.data, after=state, seats=(seat,),
                        public_text=turn_event.public_text, public_data=turn_event.public_data)]
        why = ("a whole cycle of turns moved no card (deadlock guard)" if deadlock and supply
               else "the supply is empty")
        state = state._with(phase="evaluation", emptier=emptier, cursor=0, pending=None, shown=None, stall=0)
        events.append(_event("oven-closed", f"The oven phase ends: {why}. {g.seat_names[emptier]} empties the oven, "
                            "revealing the cards in the order they were played.",
                            {"emptier": emptier, "reason": "deadlock" if deadlock and supply else "supply"}, after=state))
        return state._run(events)._finish(events)

    def _finish(self, events):
        """Attach ``events`` to this final state; the last one shows the final state itself."""
        if events and events[-1].after is not None:
            e = events[-1]
            events[-1] = _event(e.kind, e.text, e.data, None, e.seats, e.public_text, e.public_data)
        self.events = tuple(events)
        return self

    # the evaluation -------------------------------------------------------------------------
    def _run(self, events):
        """Reveal oven cards until a decision is needed or the oven is empty; ``self`` is a
        fresh state owned by the caller. Appends one event per sub-step."""
        g = self.game
        state = self
        while state.pending is None:
            if state.cursor == len(state.oven):
                return state._end_evaluation(events)
            item = state.oven[state.cursor]
            if item[0] == "i":
                # one card per sub-step, as the emptier turns them over (the spec's "one at a time")
                _, seat, k, n = item
                table = list(state.table)
                table[k] += 1
                nth = state.part + 1
                if nth == n:
                    state = state._with(cursor=state.cursor + 1, part=0, table=tuple(table), shown=None)
                else:
                    state = state._with(part=nth, table=tuple(table), shown=None)
                who = "the leftovers of the last oven" if seat is None else g.seat_names[seat]
                if n > 1:
                    who += f", {nth} of {n}"
                events.append(_event("reveal", f"Revealed: 1 {g.kinds[k]} ({who}); sorted into the table.",
                                    {"kind": g.kinds[k], "count": 1, "seat": seat, "nth": nth, "of": n}, after=state))
                continue
            oid = item[2]
            card = g.deck[oid]
            owner = card.colour
            state = state._with(cursor=state.cursor + 1, shown=state._shown(card))
            events.append(_event("reveal", f"Revealed: {g.seat_names[owner]}'s order {card.label}.",
                                {"order": g.card_dicts[oid], "seat": owner}, after=state))
            state = state._settle_revealed(oid, events)
        return state

    def _shown(self, card, **extra):
        g = self.game
        d = dict(g.card_dicts[card.id])
        d.update(owner=card.colour, needs=None, from_table={}, from_hand={}, from_helper={}, helper=None, result=None)
        d.update(extra)
        return d

    def _settle_revealed(self, oid, events):
        g = self.game
        card = g.deck[oid]
        owner = card.colour
        name = g.seat_names[owner]
        variants, reason = self._variants(card)
        if reason is not None:
            return self._send_back(oid, f"{name}'s order {card.label} fails: {reason}; it goes face down under {name}'s waiter.", events)
        hand_count = sum(self.hands_ing[owner])
        if card.type == "bombastica":
            total = sum(self.table)
            if total >= BOMBASTICA_MIN:
                return self._made(oid, None, self.table, (0,) * g.nk, None, None, events, bombastica=True)
            m = BOMBASTICA_MIN - total
            if g.options["bombastica_from_hand"] and m <= hand_count:
                return self._with(pending=("settle", oid))
            return self._send_back(oid, f"{name}'s Bombastica fails: it needs at least {BOMBASTICA_MIN} cards and the table "
                                   f"holds {total}; it goes face down under {name}'s waiter.", events)
        if len(variants) == 1 and _covers(self.table, variants[0][1]):
            return self._made(oid, variants[0][0], variants[0][1], (0,) * g.nk, None, None, events)
        # a decision unless it is public that nothing can be done (the hand is too small and
        # nobody can be asked): deciding only when the hidden hand allows it would reveal it
        possible = any(_covers(self.table, needs) or sum(_missing(needs, self.table)) <= hand_count
                       for _, needs in variants)
        if possible or (g.help and self._helpers(owner)):
            shown = self.shown
            if len(variants) == 1:
                shown = dict(shown, needs=_named(variants[0][1], g.kinds))
            return self._with(pending=("settle", oid), shown=shown)
        needs = variants[0][1]
        lack = cards_phrase(_missing(needs, self.table), g.kinds) if len(variants) == 1 else "cards"
        return self._send_back(oid, f"{name}'s order {card.label} cannot be made: the table lacks {lack} and "
                               f"{name} holds too few cards to add them; it goes face down under {name}'s waiter.", events)

    def _send_back(self, oid, text, events):
        owner = self.game.deck[oid].colour
        waiters = list(self.waiters)
        waiters[owner] = waiters[owner] + (oid,)
        shown = dict(self.shown, result="sent back") if self.shown else None
        state = self._with(waiters=tuple(waiters), pending=None, shown=shown)
        events.append(_event("sent-back", text, {"order": self.game.card_dicts[oid], "seat": owner}, after=state))
        return state

    def _made(self, oid, variant, needs, from_hand, helper, from_helper, events, bombastica=False):
        """The pizza is made: ``needs`` cards go to the used pile (those not from a hand come
        from the table), the order to its colour's delivered pile."""
        g = self.game
        card = g.deck[oid]
        owner = card.colour
        name = g.seat_names[owner]
        helper_cards = from_helper or (0,) * g.nk
        from_table = _sub(_sub(needs, from_hand), helper_cards)
        hands_ing = list(self.hands_ing)
        hands_ing[owner] = _sub(hands_ing[owner], from_hand)
        delivered = list(self.delivered)
        delivered[owner] = delivered[owner] + (oid,)
        changes = {}
        if helper is not None:
            hands_ing[helper] = _sub(hands_ing[helper], helper_cards)
            top = self.waiters[helper][0]
            waiters = list(self.waiters)
            waiters[helper] = waiters[helper][1:]
            delivered[helper] = delivered[helper] + (top,)
            changes["waiters"] = tuple(waiters)
        total = sum(needs)
        parts = [f"{cards_phrase(from_table, g.kinds)} from the table"] if any(from_table) else []
        if any(from_hand):
            parts.append(f"{cards_phrase(from_hand, g.kinds)} from {name}'s hand")
        if helper is not None:
            parts.append(f"{cards_phrase(helper_cards, g.kinds)} from {g.seat_names[helper]}'s hand")
        if bombastica:
            rule = f"a Bombastica uses every card on the table (at least {BOMBASTICA_MIN})"
        elif variant is not None:
            rule = f"made{_variant_text(variant, g.kinds)}"
        else:
            rule = "the table holds what it needs" if not any(from_hand) and helper is None else "the missing cards are added"
        text = (f"{name}'s order {card.label} is made ({rule}): {total} cards are used — " + ", ".join(parts) + ".")
        if helper is not None:
            text += (f" {g.seat_names[helper]} helped and puts the top card of his waiter, unseen, on the delivered pile "
                     f"(a point for {g.seat_names[helper]}).")
        shown = dict(self.shown or self._shown(card), needs=_named(needs, g.kinds), from_table=_named(from_table, g.kinds),
                     from_hand=_named(from_hand, g.kinds), from_helper=_named(helper_cards, g.kinds),
                     helper=helper, result="made")
        state = self._with(hands_ing=tuple(hands_ing), delivered=tuple(delivered), table=_sub(self.table, from_table),
                           used=_add(self.used, needs), pending=None, shown=shown, **changes)
        events.append(_event("made", text, {"order": g.card_dicts[oid], "seat": owner, "helper": helper,
                                           "from_table": _named(from_table, g.kinds),
                                           "from_hand": _named(from_hand, g.kinds),
                                           "from_helper": _named(helper_cards, g.kinds)}, after=state))
        return state

    def _apply_settle(self, action, events):
        g = self.game
        oid = self.pending[1]
        card = g.deck[oid]
        owner = card.colour
        name = g.seat_names[owner]
        if isinstance(action, SendBack):
            return self._send_back(oid, f"{name} does not make the order {card.label}: it goes face down under "
                                   f"{name}'s waiter and no card is used.", events)
        if card.type == "bombastica":
            add = _parse_cards(action.add, g.kinds)
            return self._made(oid, None, _add(self.table, add), add, None, None, events, bombastica=True)
        needs = dict(self._variants(card)[0])[action.variant]
        missing = _missing(needs, self.table)
        if isinstance(action, Make):
            return self._made(oid, action.variant, needs, missing if action.add else (0,) * g.nk, None, None, events)
        ask = _parse_cards(action.cards, g.kinds)
        rest = _sub(missing, ask)
        helpers = self._helpers(owner)
        state = self._with(pending=("help", oid, action.variant, ask, rest, helpers[0]),
                           shown=dict(self.shown, needs=_named(needs, g.kinds)))
        events.append(_event("ask", f"{name} asks for help: \"I need {cards_phrase(ask, g.kinds)}\" — asking one player at "
                            f"a time from his left, starting with {g.seat_names[helpers[0]]}.",
                            {"seat": owner, "ask": _named(ask, g.kinds), "asked": helpers[0]}, after=state))
        return state

    def _apply_help(self, action, events):
        g = self.game
        _, oid, variant, ask, rest, helper = self.pending
        card = g.deck[oid]
        owner = card.colour
        if isinstance(action, Help):
            needs = dict(self._variants(card)[0])[variant]
            return self._made(oid, variant, needs, rest, helper, ask, events)
        later = [s for s in self._helpers(owner) if (s - owner) % g.players > (helper - owner) % g.players]
        if later:
            state = self._with(pending=("help", oid, variant, ask, rest, later[0]))
            events.append(_event("refuse", f"{g.seat_names[helper]} does not help; {g.seat_names[owner]} asks "
                                f"{g.seat_names[later[0]]}.", {"seat": helper, "asked": later[0]}, after=state))
            return state
        return self._send_back(oid, f"{g.seat_names[helper]} does not help, and nobody else is left to ask: "
                               f"{g.seat_names[owner]}'s order {card.label} fails (even if he could finish it from "
                               f"his hand) and goes face down under his waiter.", events)

    def _end_evaluation(self, events):
        g = self.game
        emptier = self.emptier
        if self.oven_number >= g.ovens:
            state = self._with(phase="over", shown=None)
            scores = state.scores
            win = ", ".join(g.seat_names[s] for s in state.winners)
            events.append(_event("game-over", f"The last oven is empty: the game is over. Delivered orders: "
                                + ", ".join(f"{g.seat_names[s]} {n}" for s, n in enumerate(scores))
                                + f". Winner(s): {win} (most delivered; a tie goes to the most ingredient cards in hand).",
                                {"scores": list(scores), "winners": list(state.winners)}))
            return state
        # used cards (and the Mamma Mia card) make the new supply; table leftovers are the
        # base of the next oven; the emptier starts
        # (cards still in the supply, when the deadlock guard closed the oven, join them)
        cards = [k for k in range(g.nk) for _ in range(self.used[k])] + list(self.supply)
        if g.has_mamma_mia and self.mm != "supply":
            cards.append(MAMMA_MIA)
        rng = Rng(self.rng)
        supply, rng = rng.shuffled(cards)
        base = tuple(("i", None, k, n) for k, n in enumerate(self.table) if n)
        zero = (0,) * g.nk
        state = self._with(phase="turn", turn=emptier, oven_number=self.oven_number + 1, supply=tuple(supply),
                           oven=base, table=zero, used=zero, mm="supply" if g.has_mamma_mia else None, stall=0,
                           last_drawer=None, emptier=None, cursor=0, pending=None, shown=None, rng=rng.state)
        extra = " with the Mamma Mia card" if g.has_mamma_mia else ""
        left = sum(self.table)
        base_text = ("no card is left on the table" if left == 0 else
                     "the card left on the table is the base" if left == 1 else
                     f"the {left} cards left on the table are the base")
        used_text = "The used card is" if len(cards) == 1 else f"The {len(cards)} used cards are"
        events.append(_event("new-round", f"The oven is empty. {used_text} shuffled{extra} into the new supply; "
                            f"{base_text}{'' if left == 0 else ' of oven ' + str(self.oven_number + 1)}. "
                            f"{g.seat_names[emptier]} starts.",
                            {"oven_number": self.oven_number + 1, "supply": len(cards), "base": sum(self.table)}))
        return state

    # what a seat may see ----------------------------------------------------------------------
    def observe(self, seat=None, tally=False):
        g = self.game
        kinds = g.kinds
        P = g.players
        log = []
        revealed = []
        # one pass over the oven: this is on the hot path of every observation
        evaluating = self.phase != "turn"
        cursor, part = self.cursor, self.part
        oven_cards = -part
        for i, item in enumerate(self.oven):
            if item[0] == "i":
                _, s, k, n = item
                kind = kinds[k]
                log.append({"seat": None, "kind": kind, "count": n, "base": True} if s is None
                           else {"seat": s, "kind": kind, "count": n})
                if i >= cursor:
                    oven_cards += n
                if evaluating and i <= cursor:
                    revealed += [{"type": "ingredient", "kind": kind, "seat": s} for _ in range(n if i < cursor else part)]
            else:
                entry = {"seat": item[1], "order": COLOURS[item[1]]}
                if seat is None:  # the all-seeing view: which order lies face down
                    entry["card"] = g.card_dicts[item[2]]
                log.append(entry)
                if i >= cursor:
                    oven_cards += 1
                elif evaluating:
                    revealed.append(dict(g.card_dicts[item[2]], type="order", order_type=g.deck[item[2]].type,
                                         seat=item[1]))
        tally_view = None
        if tally:
            ing = [0] * g.nk
            orders = [0] * P
            for item in self.oven:
                if item[0] == "i":
                    ing[item[2]] += item[3]
                else:
                    orders[item[1]] += 1
            tally_view = {"ingredients": _named(ing, kinds), "orders": {COLOURS[s]: orders[s] for s in range(P) if orders[s]}}

        def hand(s):
            return {"ingredients": {kinds[k]: n for k, n in enumerate(self.hands_ing[s]) if n},
                    "orders": [dict(g.card_dicts[o]) for o in sorted(self.hands_ord[s])]}

        evaluation = None
        if self.phase == "evaluation" or (self.phase == "over" and self.emptier is not None):
            decision = None
            if self.phase == "evaluation" and self.pending is not None:
                decision = self._decision(seat)
            evaluation = {"emptier": self.emptier, "revealed": revealed, "remaining": oven_cards,
                          "order": self.shown, "decision": decision}
        mm = None
        if g.has_mamma_mia:
            mm = self.mm
        obs = {
            "game": g.name, "edition": g.edition, "seats": list(g.seat_names),
            "colours": list(COLOURS[:P]), "personal": [kinds[g.personal[s]] for s in range(P)],
            "kinds": list(kinds), "phase": self.phase, "to_move": self.to_move,
            "oven_number": self.oven_number, "ovens": g.ovens, "supply": len(self.supply),
            "mamma_mia_card": mm, "hand_limit": g.limit, "options": {k: v for k, v in g.options.items() if k != "deck"},
            "oven": {"size": oven_cards, "log": log, "tally": tally_view},
            "table": {k: n for k, n in zip(kinds, self.table)},
            "used": sum(self.used),
            "players": [{"seat": s, "colour": COLOURS[s], "hand_ingredients": sum(self.hands_ing[s]),
                         "hand_orders": len(self.hands_ord[s]), "waiter": len(self.waiters[s]),
                         "delivered": len(self.delivered[s]), "mamma_mia": mm == s} for s in range(P)],
            "hand": hand(seat) if seat is not None else None,
            "evaluation": evaluation,
            "scores": list(self.scores), "winners": list(self.winners),
        }
        if seat is None:
            obs["hands"] = [hand(s) for s in range(P)]
        return obs

    def _decision(self, seat=None):
        """The pending question, in the second person for the seat that decides and in the third
        person for every other view (the all-seeing one included)."""
        g = self.game
        p = self.pending
        card = g.deck[p[1]]
        owner = card.colour
        name = g.seat_names[owner]
        if p[0] == "settle":
            you = seat == owner
            whose = "Your" if you else f"{name}'s"
            hand = "your hand" if you else "the hand"
            if card.type == "bombastica":
                q = (f"{whose} Bombastica needs {BOMBASTICA_MIN} cards and the table holds {sum(self.table)}: "
                     + ("add the rest from your hand, or send it back?" if you
                        else f"{name} may add the rest from the hand or send it back."))
                return {"seat": owner, "question": q, "kind": "add_from_hand"}
            variants, _ = self._variants(card)
            if len(variants) > 1:
                kinds = ", ".join(_variant_text(v, g.kinds)[6:] for v, _ in variants)
                if any(_covers(self.table, needs) for _, needs in variants):
                    if you:
                        q = (f"The table holds a way to make your {card.label}, so it is made: choose the kind ({kinds}); "
                             "you may add from your hand for a kind the table lacks.")
                    else:
                        q = (f"The table holds a way to make {name}'s {card.label}, so it is made: {name} chooses the kind "
                             f"({kinds}) and may add from the hand for a kind the table lacks.")
                elif you:
                    q = f"Choose the kind for your {card.label} ({kinds}); the table holds what it can, you may add the rest from your hand"
                    q += ", ask for help, or send it back." if g.help else " or send it back."
                else:
                    q = f"{name} chooses the kind for the {card.label} ({kinds}); the table holds what it can, {name} may add the rest from the hand"
                    q += ", ask for help, or send it back." if g.help else " or send it back."
                return {"seat": owner, "question": q, "kind": "choose_kind", "choices": [_variant_text(v, g.kinds)[6:] for v, _ in variants]}
            missing = _missing(variants[0][1], self.table)
            if you:
                q = f"Your order {card.label} lacks {cards_phrase(missing, g.kinds)}: add them from your hand"
                q += ", ask for help, or send it back?" if g.help else ", or send it back?"
            else:
                q = f"{whose} order {card.label} lacks {cards_phrase(missing, g.kinds)}: {name} may add them from {hand}"
                q += ", ask for help, or send it back." if g.help else " or send it back."
            return {"seat": owner, "question": q, "kind": "add_from_hand", "missing": _named(missing, g.kinds)}
        helper = p[5]
        if seat == helper:
            q = (f"{name} asks you for {cards_phrase(p[3], g.kinds)}. Help (you give them and move the top card "
                 "of your waiter to the delivered pile, a point for you) or refuse?")
        else:
            other = g.seat_names[helper]
            q = (f"{name} asks {other} for {cards_phrase(p[3], g.kinds)}. {other} helps (gives them and moves the top "
                 "card of the waiter to the delivered pile, a point) or refuses.")
        return {"seat": helper, "kind": "help", "asker": owner, "question": q, "ask": _named(p[3], g.kinds)}

    def caption(self, action):
        return f"{self.game.seat_names[self.to_move]}: {action}."

    def setup_caption(self):
        g = self.game
        return (f"Set-up: {g.players} players, {g.per_kind} cards of each ingredient; each holds {g.deal} ingredients "
                f"and 1 order. {g.seat_names[self.turn]} begins.")

    def vary_hidden(self, seat, rng):
        """The same position with everything ``seat`` cannot see dealt anew: the other hands'
        ingredients with the supply (the Mamma Mia card anywhere in it), each other colour's
        orders among its hand, waiter and unrevealed oven cards, and the order of every waiter."""
        if seat is None:
            return self
        g = self.game
        P = g.players
        pool = [c for c in self.supply if c != MAMMA_MIA]
        n_supply = len(pool)
        # an owner who asked for Help told everybody he holds the rest: those cards stay his
        kept = [(0,) * g.nk] * P
        if self.pending is not None and self.pending[0] == "help":
            kept[g.deck[self.pending[1]].colour] = self.pending[4]
        for s in range(P):
            if s != seat:
                pool.extend(k for k in range(g.nk) for _ in range(self.hands_ing[s][k] - kept[s][k]))
        pool, rng = rng.shuffled(pool)
        supply, pool = pool[:n_supply], pool[n_supply:]
        if len(supply) < len(self.supply):  # the Mamma Mia card, anywhere in the supply
            supply, rng = rng.shuffled(supply + [MAMMA_MIA])
        supply = tuple(supply)
        hands_ing = list(self.hands_ing)
        for s in range(P):
            if s != seat:
                n = sum(self.hands_ing[s]) - sum(kept[s])
                dealt, pool = pool[:n], pool[n:]
                hands_ing[s] = _add(tuple(dealt.count(k) for k in range(g.nk)), kept[s])
        hands_ord, waiters, oven = list(self.hands_ord), list(self.waiters), list(self.oven)
        for s in range(P):
            slots = [i for i in range(self.cursor, len(oven)) if oven[i][0] == "o" and oven[i][1] == s]
            if s == seat:
                waiters[s], rng = rng.shuffled(waiters[s])
                waiters[s] = tuple(waiters[s])
                continue
            cards = list(hands_ord[s]) + list(waiters[s]) + [oven[i][2] for i in slots]
            cards, rng = rng.shuffled(cards)
            nh, nw = len(hands_ord[s]), len(waiters[s])
            hands_ord[s] = tuple(sorted(cards[:nh]))
            waiters[s] = tuple(cards[nh:nh + nw])
            for i, oid in zip(slots, cards[nh + nw:]):
                oven[i] = ("o", s, oid)
        return self._with(supply=supply, hands_ing=tuple(hands_ing), hands_ord=tuple(hands_ord),
                          waiters=tuple(waiters), oven=tuple(oven))

    # serialisation ------------------------------------------------------------------------------
    def _payload(self):
        g = self.game

        def item(it):
            return list(it) if it[0] == "i" else ["o", it[1], it[2]]
        return {
            "phase": self.phase, "turn": self.turn, "oven_number": self.oven_number,
            "supply": list(self.supply), "hands_ingredients": [list(h) for h in self.hands_ing],
            "hands_orders": [list(h) for h in self.hands_ord], "waiters": [list(w) for w in self.waiters],
            "delivered": [list(d) for d in self.delivered], "oven": [item(it) for it in self.oven],
            "table": list(self.table), "used": list(self.used), "mamma_mia": self.mm, "stall": self.stall,
            "last_drawer": self.last_drawer, "emptier": self.emptier, "cursor": self.cursor,
            "pending": None if self.pending is None else _pending_json(self.pending),
            "shown": self.shown, "rng": self.rng, "kinds": list(g.kinds),
        }

    @classmethod
    def from_payload(cls, game, p):
        g = game
        if not isinstance(p, dict):
            raise ValueError("a Mamma Mia state must be an object")
        need = {"phase", "turn", "oven_number", "supply", "hands_ingredients", "hands_orders", "waiters", "delivered",
                "oven", "table", "used", "mamma_mia", "stall", "last_drawer", "emptier", "cursor", "pending", "shown", "rng"}
        missing = need - set(p)
        if missing:
            raise ValueError(f"the state lacks {', '.join(sorted(missing))}")
        try:
            counts = lambda v, what: _int_tuple(v, g.nk, what)  # noqa: E731
            hands_ing = tuple(counts(h, f"hand {i} ingredients") for i, h in enumerate(_list(p["hands_ingredients"], g.players, "hands_ingredients")))
            hands_ord = tuple(tuple(_ints(h, "hands_orders")) for h in _list(p["hands_orders"], g.players, "hands_orders"))
            waiters = tuple(tuple(_ints(w, "waiters")) for w in _list(p["waiters"], g.players, "waiters"))
            delivered = tuple(tuple(_ints(d, "delivered")) for d in _list(p["delivered"], g.players, "delivered"))
            oven = []
            for it in p["oven"]:
                if isinstance(it, list) and len(it) == 4 and it[0] == "i":
                    oven.append(("i", it[1], it[2], it[3]))
                elif isinstance(it, list) and len(it) == 3 and it[0] == "o":
                    oven.append(("o", it[1], it[2]))
                else:
                    raise ValueError(f"bad oven item {it!r}")
            pending = p["pending"]
            if pending is not None:
                pending = _pending_from_json(pending, g)
            state = cls(g, phase=p["phase"], turn=p["turn"], oven_number=p["oven_number"], supply=tuple(_ints(p["supply"], "supply")),
                        hands_ing=hands_ing, hands_ord=tuple(tuple(sorted(h)) for h in hands_ord), waiters=waiters,
                        delivered=delivered, oven=tuple(oven), table=counts(p["table"], "table"), used=counts(p["used"], "used"),
                        mm=p["mamma_mia"], stall=p["stall"], last_drawer=p["last_drawer"], emptier=p["emptier"],
                        cursor=p["cursor"], pending=pending, shown=p["shown"], rng=p["rng"])
        except (TypeError, KeyError, IndexError) as exc:
            raise ValueError(f"malformed Mamma Mia state: {exc!r}") from None
        state.validate()
        state._check_hand_limit()
        if state.phase == "evaluation" and state.pending is None:
            raise ValueError("an evaluation state must wait for a decision (pending)")
        return state

    def validate(self):
        """``ValueError`` unless every card is in exactly one place and the counts make sense."""
        g = self.game
        P = g.players
        if self.phase not in ("turn", "evaluation", "over"):
            raise ValueError(f"phase must be 'turn', 'evaluation' or 'over', got {self.phase!r}")
        if not _is_int(self.oven_number) or not 1 <= self.oven_number <= g.ovens:
            raise ValueError(f"oven_number must be 1 to {g.ovens}, got {self.oven_number!r}")
        if not _is_int(self.turn) or not 0 <= self.turn < P:
            raise ValueError(f"turn must be a seat, got {self.turn!r}")
        for name in ("stall", "cursor", "rng"):
            v = getattr(self, name)
            if not _is_int(v) or v < 0:
                raise ValueError(f"{name} must be a non-negative int, got {v!r}")
        for name in ("last_drawer", "emptier"):
            v = getattr(self, name)
            if v is not None and (not _is_int(v) or not 0 <= v < P):
                raise ValueError(f"{name} must be None or a seat, got {v!r}")
        # ingredients: supply + hands + oven + table + used = the cards of the player count
        total = [0] * g.nk
        mm_in_supply = 0
        for c in self.supply:
            if c == MAMMA_MIA:
                mm_in_supply += 1
            elif _is_int(c) and 0 <= c < g.nk:
                total[c] += 1
            else:
                raise ValueError(f"bad supply card {c!r}")
        for h in self.hands_ing:
            total = _add(total, h)
        total = list(_add(_add(total, self.table), self.used))
        seen_orders = {}

        def place(oid, where):
            if not _is_int(oid) or not 0 <= oid < len(g.deck) or g.deck[oid].colour >= P:
                raise ValueError(f"{where} holds {oid!r}, which is no order card of this game")
            if oid in seen_orders:
                raise ValueError(f"order card {oid} ({g.deck[oid].label}) is twice: in {seen_orders[oid]} and in {where}")
            seen_orders[oid] = where

        if not _is_int(self.cursor) or self.cursor > len(self.oven):
            raise ValueError("cursor is beyond the oven")
        if self.phase == "turn" and self.cursor:
            raise ValueError("cursor must be 0 outside the evaluation")
        if not _is_int(self.part) or self.part < 0:
            raise ValueError(f"part must be a non-negative int, got {self.part!r}")
        if self.part and (self.phase != "evaluation" or self.pending is not None or self.cursor == len(self.oven)
                          or self.oven[self.cursor][0] != "i" or self.part >= self.oven[self.cursor][3]):
            raise ValueError("part (cards of an oven entry revealed so far) must be 0 unless the emptier is "
                             "midway through an ingredient entry")
        for i, it in enumerate(self.oven):
            if it[0] == "i":
                _, seat, k, n = it
                if seat is not None and (not _is_int(seat) or not 0 <= seat < P):
                    raise ValueError(f"oven item {i}: bad seat {seat!r}")
                if not _is_int(k) or not 0 <= k < g.nk or not _is_int(n) or n < 1:
                    raise ValueError(f"oven item {i}: bad ingredient {it!r}")
                if i > self.cursor:
                    total[k] += n
                elif i == self.cursor:
                    total[k] += n - self.part
            else:
                _, seat, oid = it
                if not _is_int(oid) or not 0 <= oid < len(g.deck) or g.deck[oid].colour != seat:
                    raise ValueError(f"oven item {i}: order {oid!r} is not a card of seat {seat!r}")
                if i >= self.cursor:
                    place(oid, f"the oven (item {i})")
        for s in range(P):
            for oid in self.hands_ord[s]:
                place(oid, f"{g.seat_names[s]}'s hand")
                if g.deck[oid].colour != s:
                    raise ValueError(f"{g.seat_names[s]}'s hand holds another colour's order {oid}")
            for oid in self.waiters[s]:
                place(oid, f"{g.seat_names[s]}'s waiter")
                if g.deck[oid].colour != s:
                    raise ValueError(f"{g.seat_names[s]}'s waiter holds another colour's order {oid}")
            for oid in self.delivered[s]:
                place(oid, f"{g.seat_names[s]}'s delivered pile")
                if g.deck[oid].colour != s:
                    raise ValueError(f"{g.seat_names[s]}'s delivered pile holds another colour's order {oid}")
        last = self.oven[self.cursor - 1] if self.cursor else None
        if self.pending is not None:
            if self.phase != "evaluation":
                raise ValueError("a pending decision outside the evaluation")
            if last is None or last[0] != "o" or last[2] != self.pending[1]:
                raise ValueError("the pending order is not the last revealed card")
            place(self.pending[1], "the evaluation (being settled)")
        elif self.phase == "evaluation" and last is not None and last[0] == "o" and last[2] not in seen_orders:
            place(last[2], "the evaluation (just revealed)")  # a sub-step before its settlement
        for k in range(g.nk):
            if any(h[k] < 0 for h in self.hands_ing) or self.table[k] < 0 or self.used[k] < 0:
                raise ValueError(f"a negative count of {g.kinds[k]}")
            if total[k] != g.per_kind:
                raise ValueError(f"{g.kinds[k]}: {total[k]} cards in play, the game has {g.per_kind} "
                                 "(conservation broken)")
        expected = {o for s in range(P) for o in g.orders_of[s]}
        if set(seen_orders) != expected:
            lost = sorted(expected - set(seen_orders))
            raise ValueError(f"order cards missing: {', '.join(g.deck[o].label + ' (' + COLOURS[g.deck[o].colour] + ')' for o in lost)}")
        if g.has_mamma_mia:
            holders = mm_in_supply + (1 if _is_int(self.mm) and 0 <= self.mm < P else 0)
            if self.mm not in ("supply",) and not (_is_int(self.mm) and 0 <= self.mm < P):
                raise ValueError(f"mamma_mia must be 'supply' or a seat, got {self.mm!r}")
            if holders != 1 or (self.mm == "supply") != (mm_in_supply == 1):
                raise ValueError("the Mamma Mia card must be exactly once: in the supply or with its holder")
        elif mm_in_supply or self.mm is not None:
            raise ValueError("Mamma Mia! Plus has no Mamma Mia card")
        if self.phase == "evaluation" and self.emptier is None:
            raise ValueError("an evaluation needs an emptier")
        if self.phase == "turn" and (self.emptier is not None or self.shown is not None):
            raise ValueError("a turn-phase state has no emptier and no order shown (they belong to the evaluation)")
        # shown first: the pending decision is checked by revealing the order again, which
        # reads shown
        if self.shown is not None:
            self._validate_shown(last)
        if self.pending is not None:
            self._validate_pending()
        return self

    def _check_hand_limit(self):
        """A hand never holds more than the draw gives: the draw refills to the limit and no
        more (Plus: a turn without ingredients draws 5 more, beyond the limit). Checked when a
        state is loaded; ``position()`` may set up a teaching example beyond it."""
        g = self.game
        for s_ in range(g.players):
            ing, size = sum(self.hands_ing[s_]), sum(self.hands_ing[s_]) + len(self.hands_ord[s_])
            if ing > g.limit or size > g.limit + (g.draw_cap or 0):
                raise ValueError(f"{g.seat_names[s_]}'s hand holds {ing} ingredients and {len(self.hands_ord[s_])} orders; "
                                 f"the hand limit is {g.limit}" + (f" (+{g.draw_cap} after a turn without ingredients)"
                                                                   if g.draw_cap else ""))

    def _validate_pending(self):
        g = self.game
        p = self.pending
        card = g.deck[p[1]]
        owner = card.colour
        if self.shown is None:
            raise ValueError("a pending decision needs the order shown (shown)")
        if p[0] == "settle":
            # exactly the decision the evaluation stops at when this order is revealed: an
            # order that fails at once (a Mini whose crossed-out kind is on the table, a
            # Minimale with no eligible kind) or that the table makes alone waits for nobody
            revealed = self._with(pending=None)._settle_revealed(p[1], [])
            if revealed.pending != p:
                raise ValueError(f"{g.seat_names[owner]}'s order {card.label} waits for no decision here: revealed on "
                                 "this table it is made or sent back at once")
            return
        if not g.help:
            raise ValueError("a pending Help, but this game has no Help")
        _, _, variant, ask, rest, helper = p
        if not _is_int(helper) or not 0 <= helper < g.players or helper == owner:
            raise ValueError(f"the asked helper must be a seat other than the owner ({owner}), got {helper!r}")
        if not self.waiters[helper]:
            raise ValueError(f"{g.seat_names[helper]} is asked for Help but his waiter is empty (he could not "
                             "move a card to his delivered pile)")
        if variant not in {v for v, _ in (self._variants(card)[0] or ())}:
            raise ValueError(f"the pending Help names a way to make {card.label} ({variant!r}) that does not exist")
        # the ask must be one the owner could make when the order was revealed
        asks = {str(a) for a in self._with(pending=("settle", p[1]))._settle_actions_uncached()}
        if any(n < 0 for n in ask) or str(_ask_action(variant, ask, g.kinds)) not in asks:
            raise ValueError(f"the pending Help asks for what {g.seat_names[owner]} could not ask for here")
        variants, _ = self._variants(card)
        needs = dict(variants or ()).get(variant) if card.type != "bombastica" else None
        if needs is None:
            raise ValueError(f"the pending Help names a way to make {card.label} ({variant!r}) that does not exist")
        if any(n < 0 for n in ask + rest) or not any(ask) or _add(ask, rest) != _missing(needs, self.table):
            raise ValueError("the pending Help's ask and the owner's part must be non-negative, the ask not empty, "
                             "and together exactly what the table lacks")
        if not _covers(self.hands_ing[owner], rest):
            raise ValueError(f"{g.seat_names[owner]}'s hand does not hold his part of the Help ({cards_phrase(rest, g.kinds)})")

    _SHOWN_KEYS = frozenset(("colour", "type", "name", "recipe", "crossed", "choices", "label", "owner", "needs",
                             "from_table", "from_hand", "from_helper", "helper", "result"))

    def _validate_shown(self, last):
        # ``shown`` goes into every seat's view: it may only describe the last revealed order
        g = self.game
        sh = self.shown
        if self.phase != "evaluation" or last is None or last[0] != "o":
            raise ValueError("shown must be None unless the evaluation's last revealed card is an order")
        if not isinstance(sh, dict) or set(sh) != self._SHOWN_KEYS:
            raise ValueError(f"shown must be an object with exactly the keys {', '.join(sorted(self._SHOWN_KEYS))}")
        oid = last[2]
        if any(sh[k] != v for k, v in g.card_dicts[oid].items()) or sh["owner"] != g.deck[oid].colour:
            raise ValueError("shown must be the last revealed order card and its owner")
        for key in ("needs", "from_table", "from_hand", "from_helper"):
            v = sh[key]
            if v is None and key == "needs":
                continue
            if not isinstance(v, dict) or any(k not in g.kinds or not _is_int(n) or n < 1 for k, n in v.items()):
                raise ValueError(f"shown[{key!r}] must be {{kind: positive int}}")
        if sh["helper"] is not None and not (_is_int(sh["helper"]) and 0 <= sh["helper"] < g.players):
            raise ValueError("shown['helper'] must be None or a seat")
        if sh["result"] not in (None, "made", "sent back"):
            raise ValueError("shown['result'] must be None, 'made' or 'sent back'")


# ---------------------------------------------------------------------------------------------
def _event(kind, text, data, after=None, seats=None, public_text=None, public_data=None):
    """An :class:`Event` built without the frozen dataclass's per-field ``__setattr__`` (an
    evaluation makes one per revealed card, so this is on the playouts' hot path)."""
    if _EVENT_HAS_DICT:
        e = object.__new__(Event)
        e.__dict__.update(kind=kind, text=text, data=data, after=after, seats=seats, public_text=public_text,
                          public_data=public_data)
        return e
    return Event(kind, text, data, after, seats, public_text, public_data)


_EVENT_HAS_DICT = not hasattr(Event, "__slots__")


def _named(counts, kinds):
    return {kinds[k]: n for k, n in enumerate(counts) if n}


def _parse_cards(text, kinds):
    out = [0] * len(kinds)
    for part in text.split(" + "):
        n, k = part.split(" ", 1)
        out[kinds.index(k)] += int(n)
    return tuple(out)


def _multisets(hand, size):
    """Every way of taking ``size`` cards from ``hand`` (a tuple of counts)."""
    if size <= 0:
        return []
    return [c for c in itertools.product(*(range(n + 1) for n in hand)) if sum(c) == size]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _ints(v, what):
    if not isinstance(v, list) or not all(_is_int(x) for x in v):
        raise ValueError(f"{what} must be lists of ints")
    return v


def _list(v, n, what):
    if not isinstance(v, list) or len(v) != n:
        raise ValueError(f"{what} must be a list with one entry per seat ({n})")
    return v


def _int_tuple(v, n, what):
    if not isinstance(v, list) or len(v) != n or not all(_is_int(x) for x in v):
        raise ValueError(f"{what} must be a list of {n} ints (one per kind)")
    return tuple(v)


def _pending_json(p):
    if p[0] == "settle":
        return ["settle", p[1]]
    v = list(p[2]) if isinstance(p[2], tuple) else p[2]
    return ["help", p[1], v, list(p[3]), list(p[4]), p[5]]


def _pending_from_json(p, g):
    if not isinstance(p, list) or not p or not _is_int(p[1] if len(p) > 1 else None):
        raise ValueError(f"bad pending decision {quote(p)}: a list ['settle', order] or ['help', order, way, ask, "
                         "owner's part, helper]")
    if p[0] == "settle" and len(p) == 2:
        return ("settle", p[1])
    if p[0] == "help" and len(p) == 6:
        v = p[2]
        # a way to make an order: None, a kind's index, or two kinds (Ciottona)
        if isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v):
            v = tuple(v)
        elif v is not None and not _is_int(v):
            raise ValueError(f"the pending Help's way to make the order must be None, a kind or two kinds, got {quote(v)}")
        return ("help", p[1], v, _int_tuple(p[3], g.nk, "ask"), _int_tuple(p[4], g.nk, "owner's part"), p[5])
    raise ValueError(f"bad pending decision {quote(p)}")

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

import bisect
import json
import os
from dataclasses import dataclass
from typing import Optional

from tabletop_widgets.core import Game, Option, Rng, State, register
from tabletop_widgets.core.events import new_event
from tabletop_widgets.core.errors import quote
from tabletop_widgets.core.game import files_allowed, read_option_file
from tabletop_widgets.core.rng import shuffled_state

from . import learning, oven
from .cards import (  # noqa: F401  (the material, re-exported: rules is the games' public module)
    BOMBASTICA_MIN, COLOURS, IN_SEAT, KINDS, MAMMA_MIA, ORDER_TYPES, PERSONAL, PLURAL, RESTOCK, Ask, Help, Make, Refuse, Restock,
    SendBack, Turn, _add, _ask_action, _ask_action_new, _covers, _interned, _kept, _make_action,
    _make_action_new, _missing, _moved, _multisets, _named, _one, _parse_cards, _sub, _turns, _variant_text, _MEMO,
    cards_of, cards_phrase, cards_text, kind_words, order_name)


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
        "bombastica_from_hand": Option(True, (False, True), "the owner of a Bombastica may add cards from their hand to reach 15"),
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
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.nk = len(self.kinds)
        self.limit = spec["limit"]
        self.deal = spec["deal"]
        self.draw_cap = spec["draw_cap"]
        self.has_mamma_mia = spec["mamma_mia_card"]
        self.minimale = spec["minimale"]
        # the Small Monotoni's joker may be the personal kind (Plus option; False in classic, which has none)
        self.small_monotoni_personal = bool(self.options.get("small_monotoni_personal", False))
        self.per_kind = spec["per_kind"] - spec["removed"][self.players]
        self._ingredients = tuple(cards_of((self.per_kind,) * self.nk))  # before the deal's shuffle
        deck = self.options["deck"]
        if deck is None or isinstance(deck, str):
            deck = read_deck_file(DECKS[deck or self.edition])  # the package's own file
        self.deck = load_deck(deck, self.edition)
        # each card's JSON view, built once (shared by events: treat as read-only)
        self.card_dicts = tuple(o.to_dict(self.kinds) for o in self.deck)
        # each card as the evaluation shows it when revealed (oven.shown_card; shared, read-only)
        self.shown_cards = tuple(dict(d, owner=o.colour, needs=None, from_table={}, from_hand={}, from_helper={},
                                      helper=None, result=None) for o, d in zip(self.deck, self.card_dicts))
        self.personal = tuple(self.kinds.index(PERSONAL[c]) for c in range(self.players))
        # the seats asked for Help, from each seat's left, after each seat asked (the owner:
        # all of them) (oven.next_helper)
        n = self.players
        self._asked_after = tuple(tuple(tuple((s + i) % n for i in range((a - s) % n + 1, n))
                                        for a in range(n)) for s in range(n))
        self.orders_of = tuple(tuple(o.id for o in self.deck if o.colour == c) for c in range(self.players))
        self.ovens = 3 if self.options.get("help", True) else 4
        self._help = bool(self.options.get("help", False))  # ``help``, an attribute read on hot paths
        self._seat_names = tuple(c.capitalize() for c in COLOURS[: self.players])
        # the parts of an order's settling decisions (oven.settle_actions)
        self._settle_parts = {}
        self._settle_makes = {}  # the answer making each way, by the way and what the table lacks
        # the parts of a turn's legal actions (MammaMiaState.legal_actions)
        self._kind_rows, self._order_turns, self._kind_turns, self._turns_seen = {}, {}, {}, {}
        # each hand of orders' set of labels: as bits in classic, sorted in Plus
        self._label_sets = {}
        self._optional = self.options["optional_actions"]
        # the orders' labels, sorted, and each order card's label as one bit (1 << its index)
        self._labels = tuple(sorted({o.label for o in self.deck}))
        # A colour of at most 8 labels (classic) has at most 256 sets of them in a hand, which
        # come again all game long: a hand's turn parts are kept by its set. Plus (15 a colour)
        # has thousands, most seen once: only hands of one label keep theirs.
        self._label_sets_kept = all(len({o.label for o in self.deck if o.colour == c}) <= 8
                                    for c in range(self.players))
        self._label_bits = tuple(1 << self._labels.index(o.label) for o in self.deck)
        self._ways = {}  # the ways to make each order card (a Minimale: each kind's way) (oven.ways)
        self.no_cards = (0,) * self.nk
        self._by_label = {}
        self.order_labels = tuple(o.label for o in self.deck)
        for o in self.deck:
            self._by_label.setdefault((o.colour, o.label), o.id)
        # the parts of every view that depend only on the game, shared by every view (views are
        # read-only), and the parts built once per value: a hand, the table, a seat's counts
        self.view_constants = {
            "seats": list(self._seat_names), "colours": list(COLOURS[: self.players]),
            "personal": [self.kinds[p] for p in self.personal], "kinds": list(self.kinds),
            "options": {k: v for k, v in self.options.items() if k != "deck"},
        }
        # a view's keys in their order, with the game's own values: a view is a copy of it with
        # the position's values set (a copy of the whole table, where a literal inserts its
        # twenty keys one by one and grows twice)
        fixed = self.view_constants
        self._view_base = {
            "game": self.name, "edition": self.edition, "seats": fixed["seats"], "colours": fixed["colours"],
            "personal": fixed["personal"], "kinds": fixed["kinds"], "phase": None, "to_move": None,
            "oven_number": None, "ovens": self.ovens, "supply": None, "mamma_mia_card": None,
            "hand_limit": self.limit, "options": fixed["options"], "oven": None, "table": None, "used": None,
            "players": None, "hand": None, "evaluation": None, "scores": None, "winners": None,
        }
        self._hand_views, self._order_views, self._table_views, self._player_views = {}, {}, {}, {}
        self._decision_views = {}  # oven.decision
        self._shown_parts = {}  # the revealed order as it is settled (oven.shown_needs, …)
        self._last_oven_view = None  # (an oven, its OvenView): see MammaMiaState._oven_view

    _PROCESS_CACHES = Game._PROCESS_CACHES + ("_catalogue", "_parts", "_part_index", "_parts_of", "_shown_vectors")

    def __getstate__(self):
        state = super().__getstate__()
        # the parts of turns, settling decisions, ways and views, kept by what they depend on
        state.update(_settle_parts={}, _settle_makes={}, _kind_rows={}, _order_turns={}, _kind_turns={}, _turns_seen={},
                     _label_sets={},
                     _ways={}, _hand_views={}, _order_views={}, _table_views={}, _player_views={},
                     _decision_views={}, _shown_parts={}, _last_oven_view=None)
        return state

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
        return self._help

    def order_id(self, seat: int, label: str) -> int:
        """The id of the first order card of ``seat``'s colour whose label is ``label``."""
        try:
            return self._by_label[(seat, label)]
        except KeyError:
            labels = sorted({o.label for o in self.deck if o.colour == seat})
            raise ValueError(f"{COLOURS[seat]} has no order {label!r}; its orders are: {', '.join(labels)}") from None

    # set-up --------------------------------------------------------------------------------
    def new_state(self, seed=0):
        # the generator's state drawn on as an int (shuffled_state): a deal shuffles 2 + players times
        rng = Rng.from_seed(seed).state
        ingredients, rng = shuffled_state(rng, self._ingredients)
        hands_ing = []
        kinds = range(self.nk)
        for s in range(self.players):
            hands_ing.append(tuple(map(ingredients[s * self.deal:(s + 1) * self.deal].count, kinds)))
        rest = ingredients[self.players * self.deal:]
        mm = None
        if self.has_mamma_mia:
            # shuffled in after dealing (the Czech order), so no player is dealt it
            rest.append(MAMMA_MIA)
            rest, rng = shuffled_state(rng, rest)
            mm = "supply"
        waiters, hand_orders = [], []
        for s in range(self.players):
            pile, rng = shuffled_state(rng, self.orders_of[s])
            hand_orders.append((pile[0],))
            waiters.append(tuple(pile[1:]))
        zero = (0,) * self.nk
        return MammaMiaState(
            self, phase="turn", turn=self.options["first_player"], oven_number=1,
            supply=tuple(rest), hands_ing=tuple(hands_ing), hands_ord=tuple(hand_orders),
            waiters=tuple(waiters), delivered=((),) * self.players, oven=(), table=zero, used=zero,
            mm=mm, stall=0, last_drawer=None, emptier=None, cursor=0, pending=None, shown=None,
            rng=rng,
        )

    def _state_from_payload(self, p):
        return MammaMiaState.from_payload(self, p)

    # learning hooks (PettingZoo, docs/analysis.md); the encodings live in learning.py ------
    def action_catalogue(self) -> tuple:
        # built once per game: it depends only on the deck, the players and the options
        catalogue = self.__dict__.get("_catalogue")
        if catalogue is None:
            catalogue = self.__dict__["_catalogue"] = learning.action_catalogue(self)
        return catalogue

    def action_parts(self) -> tuple:
        """The parts a learning environment's agent chooses an action from, part by part."""
        parts = self.__dict__.get("_parts")
        if parts is None:
            parts = self.__dict__["_parts"] = learning.action_parts(self)
        return parts

    def parts_of(self, actions) -> list:
        """The parts of each of ``actions`` (indices into :meth:`action_parts`)."""
        return learning.parts_of(self, actions)

    def action_index(self, action) -> int:
        """The index of ``action`` in :meth:`action_catalogue`. Mamma Mia builds each action once
        (``cards._MEMO`` and the constants), so its id is stable: found by id, its notation
        written once."""
        return self._catalogue_index_by_identity(action)

    def action_indices(self, actions) -> list:
        """:meth:`action_index` of each of ``actions`` (a list from ``legal_actions()``)."""
        return self._catalogue_indices_by_identity(actions)

    def observation_size(self) -> int:
        return learning.observation_size(self)

    def observation_vector(self, observation: dict, seat: int) -> list:
        return learning.observation_vector(self, observation, seat)

    def state_vector(self, state, seat: int) -> list:
        return learning.state_vector(self, state, seat)


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
# a game keeps at most this many parts of views built per value (hands, tables, seats' counts)
_VIEW_PARTS = 20_000


# the oven's public side, for the views
class OvenView:
    """What everybody sees of one oven, built once and shared by the states of that oven.

    The oven only grows within an oven (a turn appends its cards; the evaluation only moves the
    cursor), so its public log, the count of cards before each entry and the cards as they are
    revealed are lists that only grow too. Every state of the oven keeps a reference, and an
    observation takes prefixes (``log[:entries]``, ``revealed[:cards turned]``) instead of
    rebuilding them. The first successor that appends to the oven extends the lists in place;
    a state that branches later (another turn from the same position) gets a fresh view. The
    lists' entries are shared by the observations: read-only, like the game's card dicts.
    """

    __slots__ = ("game", "items", "log", "cards", "revealed", "logs", "shown")

    def __init__(self, game, items):
        self.game = game
        self.items = []
        self.log = []
        self.cards = [0]  # cards[i]: the cards of entries 0..i-1
        self.revealed = []
        # the prefixes handed out, by length: the states of one oven share them (the evaluation's
        # states all show the same log, and every state between two reveals the same cards)
        self.logs = {}
        self.shown = {}
        self.extend(items)

    def log_upto(self, n):
        """The public log of the first ``n`` entries (entries before ``len(items)`` never change)."""
        log = self.logs.get(n)
        if log is None:
            log = self.logs[n] = self.log[:n]
        return log

    def extend(self, items):
        kinds, log, cards = self.game.kinds, self.log, self.cards
        total = cards[-1]
        for item in items:
            if item[0] == "i":
                _, s, k, n = item
                log.append({"seat": None, "kind": kinds[k], "count": n, "base": True} if s is None
                           else {"seat": s, "kind": kinds[k], "count": n})
                total += n
            else:
                log.append({"seat": item[1], "order": COLOURS[item[1]]})
                total += 1
            cards.append(total)
        self.items.extend(items)

    def successor(self, state_items, items):
        """This view for the oven ``items`` that a turn made from ``state_items`` by appending,
        or None when another successor has already appended (the branch builds its own)."""
        if len(self.items) != len(state_items):
            return None
        self.extend(items[len(state_items):])
        return self

    def revealed_upto(self, n):
        """The first ``n`` cards turned over, as the evaluation shows them."""
        shown = self.shown.get(n)
        if shown is None:
            shown = self.shown[n] = self._revealed_upto(n)
        return shown

    def _revealed_upto(self, n):
        revealed = self.revealed
        if len(revealed) < n:
            g = self.game
            kinds, items, cards = g.kinds, self.items, self.cards
            # continue from the entry holding the next card to turn
            i = bisect.bisect_right(cards, len(revealed)) - 1
            while len(revealed) < n:
                item = items[i]
                if item[0] == "i":
                    _, s, k, count = item
                    # one entry for the entry's cards: views are read-only
                    revealed.extend([{"type": "ingredient", "kind": kinds[k], "seat": s}]
                                    * (count - (len(revealed) - cards[i])))
                else:
                    oid = item[2]
                    revealed.append(dict(g.card_dicts[oid], type="order", order_type=g.deck[oid].type, seat=item[1]))
                i += 1
        return revealed[:n]


# ---------------------------------------------------------------------------------------------
# the turns that put an order of each label, by label: built when first asked for
class _OrderTurns(dict):
    """The turns that put ``count`` ``kind``, an order and draw for ``need``, by the order's label."""

    __slots__ = ("kind", "count", "need", "optional")

    def __init__(self, kind, count, need, optional):
        super().__init__()
        self.kind, self.count, self.need, self.optional = kind, count, need, optional

    def __missing__(self, label):
        turns = self[label] = _turns(self.kind, self.count, label, self.need, self.optional)
        return turns


# a game keeps at most this many parts of turns' legal actions of each sort (emptied when full)
_TURN_PARTS = 50_000

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

    # Whose move it is and whether the game is over are kept in the fields (``cards._moved``),
    # set where the phase, the turn or the pending decision change: a driver reads both on
    # every action, and the two properties that worked them out were 1-2% of a playout.
    to_move = None
    is_over = False

    # ``_from`` (see ``events``) lives outside the fields' dict, which a successor copies
    __slots__ = ("_from",)

    def __init__(self, game, events=(), **fields):
        self.game = game
        self.events = events
        for f in _FIELDS:
            setattr(self, f, fields[f])
        self.part = fields.get("part", 0)
        try:
            _moved(self.__dict__)
        except (TypeError, IndexError, KeyError, AttributeError):
            pass  # a malformed state from JSON: ``validate`` says what is wrong with it

    @property
    def events(self):
        # The events are written when first read: a playout that never reads them builds no
        # sentence. ``_from`` is the fields of the position the action was applied to and the
        # action; applying it again with events is the same computation, so the events are
        # those of this very state. It is a slot, not a field: the fields kept hold no
        # ``_from`` of their own, so no older position stays alive, and nothing is copied.
        # (What the fields gain after the action, ``_view``, ``_settled``, a ``shown`` built,
        # ``_events`` read, are caches of the same values.)
        events = self.__dict__["_events"]
        if events is None:
            fields, action = self._from
            before = object.__new__(MammaMiaState)
            before.__dict__ = fields.copy()
            events = self.__dict__["_events"] = before._apply_with_events(action)._events
            self._from = None
        return events

    @events.setter
    def events(self, value):
        self.__dict__["_events"] = value
        self._from = None

    def _with(self, **changes):
        # a shallow copy: every field is an immutable value, so sharing them is safe
        # a copy of the dict given to a blank object: twice as quick as filling its own dict
        new = object.__new__(MammaMiaState)
        d = new.__dict__ = self.__dict__.copy()
        d.update(changes)
        d["_events"] = ()
        if "oven" in changes:  # another oven (the next one, or hidden orders dealt anew)
            d["_view"] = None
        if "phase" in changes or "turn" in changes or "pending" in changes:
            _moved(d)
        return new

    @property
    def shown(self):
        """The revealed order as every seat sees it (``None`` when none is revealed); a
        playout leaves it unbuilt (``oven.LazyShown``) until it is read."""
        shown = self.__dict__["shown"]
        if type(shown) is oven.LazyShown:
            shown = self.__dict__["shown"] = oven.shown_value(self.game, shown)
        return shown

    @shown.setter
    def shown(self, value):
        self.__dict__["shown"] = value

    def _oven_view(self):
        """The :class:`OvenView` of this state's oven (shared along the turns that built it)."""
        d = self.__dict__
        view = d.get("_view")
        if view is None:
            # An evaluation's sub-steps are copies of one state made before any was observed:
            # they hold the same oven (the very tuple), and the view built for the first one
            # observed is theirs too, so their views share the log's entries.
            g = self.game
            last = g._last_oven_view
            if last is not None and last[0] is self.oven:
                view = last[1]
            else:
                view = OvenView(g, self.oven)
                g._last_oven_view = (self.oven, view)
            d["_view"] = view
        return view

    # reading ------------------------------------------------------------------------------
    def hand_size(self, seat):
        return sum(self.hands_ing[seat]) + len(self.hands_ord[seat])

    @property
    def scores(self):
        return tuple(map(len, self.delivered))

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
        # A turn's actions are worked out here, in the call a driver makes on every action.
        # Positions seldom repeat (a hand's ingredients with its order cards), so the list is
        # joined from parts that do: for each kind in the hand, the turns that put 1, 2, … of
        # it, with no order or one order of each label held. Joining them is quicker than
        # looking up whole lists kept by hand: those are too many to stay in the processor's
        # caches.
        d = self.__dict__
        phase = d["phase"]
        if phase != "turn":
            if phase == "evaluation":
                pending = d["pending"]
                if pending is None:  # a sub-step between decisions (an event's ``after``)
                    return []
                if pending[0] == "settle":
                    return oven.settle_actions(self)
                return oven.help_actions(self)
            return []
        g = d["game"]
        seat = d["turn"]
        ing = d["hands_ing"][seat]
        if g.draw_cap is not None and not any(ing):
            return [RESTOCK]
        hand_orders = d["hands_ord"][seat]
        size = sum(ing) + len(hand_orders)
        no_put = g._optional or size == len(hand_orders)  # a pass or only an order
        order_labels = g.order_labels
        if g._label_sets_kept:
            # few sets of labels (classic): a hand's parts are kept by its set and size at once;
            # the set of each hand of orders is kept too (at most 256 a colour)
            bits = g._label_sets.get(hand_orders)
            if bits is None:
                bits = 0
                for o in hand_orders:
                    bits |= g._label_bits[o]
                _kept(g._label_sets, hand_orders, bits, _TURN_PARTS)
            key = bits << 8 | size
            parts = g._kind_turns.get(key)
            if parts is None:
                labels = tuple(sorted({order_labels[o] for o in hand_orders}))
                parts = _kept(g._kind_turns, key, [[None] * (size + 1) for _ in range(g.nk + 1)] + [labels],
                              _TURN_PARTS)
        else:
            if len(hand_orders) > 1:
                # the sorted labels of a hand of orders, kept by the hand (orders change less
                # often than ingredients)
                labels = g._label_sets.get(hand_orders)
                if labels is None:
                    labels = _kept(g._label_sets, hand_orders, tuple(sorted({order_labels[o] for o in hand_orders})),
                                   _TURN_PARTS)
                if len(labels) > 1:
                    # Hands of orders of several labels seldom come again (Plus: 15 orders a
                    # colour, up to 9 in a hand), and one that did came with other ingredients,
                    # whose parts were new too: parts kept for them cost a join and a cache entry
                    # (and the garbage collector's time) for little reuse. Their turns are joined
                    # from the rows of each count, the labels in the sorted order of ``_labels``.
                    return self._joined_turns(ing, size, labels, no_put)
            # a hand of one label or none: its parts (``_kind_turns``, by the label's bit and the
            # hand's size, then by kind and count) are kept from the second time it is seen
            key = (g._label_bits[hand_orders[0]] if hand_orders else 0) << 8 | size
            parts = g._kind_turns.get(key)
            if parts is None:
                labels = (order_labels[hand_orders[0]],) if hand_orders else ()
                if key not in g._turns_seen:
                    _kept(g._turns_seen, key, None, _TURN_PARTS)
                    return self._joined_turns(ing, size, labels, no_put)
                parts = _kept(g._kind_turns, key, [[None] * (size + 1) for _ in range(g.nk + 1)] + [labels],
                              _TURN_PARTS)
        # The turns joined from the hand's kept parts: one per kind and count, built when first
        # needed (the last entry is the hand's labels).
        out = []
        if no_put:
            part = parts[g.nk][0]  # the last row: no ingredient put
            out += self._kind_turns(parts, None, 0, size, parts[-1]) if part is None else part
        k = 0
        for n in ing:
            if n:
                part = parts[k][n]
                out += self._kind_turns(parts, k, n, size, parts[-1]) if part is None else part
            k += 1
        return out

    def _joined_turns(self, ing, size, labels, no_put):
        """The turns of a hand holding ``ing`` and orders of ``labels``, joined from the rows of
        each count (what :meth:`_kind_turns` keeps)."""
        kind_rows = self.game._kind_rows
        out = []
        for k, n in ((None, 0),) + tuple(enumerate(ing)) if no_put else enumerate(ing):
            if n or k is None:
                rows = kind_rows.get((k, n, size))
                if rows is None:
                    rows = self._kind_rows(k, n, size)
                for without_order, with_order in rows:
                    out += without_order
                    for label in labels:
                        out += with_order[label]
        return out

    def _kind_turns(self, parts, k, n, size, labels):
        """The turns that put 1 to ``n`` cards of kind ``k`` (``None``: no ingredient) from a hand
        of ``size`` cards holding orders of ``labels``, kept in ``parts``."""
        rows = self.game._kind_rows.get((k, n, size))
        if rows is None:
            rows = self._kind_rows(k, n, size)
        out = []
        for without_order, with_order in rows:
            out += without_order
            for label in labels:
                out += with_order[label]
        part = parts[self.game.nk if k is None else k][n] = tuple(out)
        return part

    def _kind_rows(self, k, n, size):
        """For each count of kind ``k`` (``None``: no ingredient put) that a hand of ``size``
        cards holding ``n`` of it may put: the turns that put no order, and the turns that also
        put an order, by label. The draw is what each turn leaves to refill."""
        g = self.game
        optional = g.options["optional_actions"]
        kind = None if k is None else g.kinds[k]
        rows = []
        for count in range(1, n + 1) if k is not None else (0,):
            needs = []
            for extra in (0, 1):  # an order card put leaves one more card to draw
                need = g.limit - size + count + extra
                if need < 0:
                    need = 0
                elif g.draw_cap is not None and need > g.draw_cap:
                    need = g.draw_cap
                needs.append(need)
            without_order = _interned((kind, count, None, needs[0], optional), _turns, kind, count, None, needs[0],
                                      optional)
            key = (kind, count, needs[1])
            with_order = g._order_turns.get(key)
            if with_order is None:
                with_order = g._order_turns[key] = _OrderTurns(kind, count, needs[1], optional)
            rows.append((without_order, with_order))
        return _kept(g._kind_rows, (k, n, size), tuple(rows), _TURN_PARTS)

    def playout(self):
        """A :class:`MammaMiaPlayout` starting from this position (which stays as it is)."""
        new = object.__new__(MammaMiaPlayout)
        new.__dict__ = self.__dict__.copy()
        return new

    def _apply(self, action):
        # without events (see ``events``): the position applied to is kept as its fields
        d = self.__dict__
        if d["phase"] == "turn":
            after = self._apply_turn(action, None)
        else:
            after = oven.apply_decision(self, action, None)
            after.__dict__["_events"] = None
        after._from = (d, action)
        return after

    def _apply_with_events(self, action):
        """:meth:`_apply` with the events written at once."""
        if self.phase == "turn":
            return self._apply_turn(action, [])
        events = []
        return oven.apply_decision(self, action, events)._finish(events)

    def _apply_turn(self, action, events, in_place=False):
        """The turn ``action``; ``events`` is a list to write the events into, or None to
        write none (the state's ``_events`` is then None, for :meth:`_apply` to fill in).
        ``in_place`` (a :class:`MammaMiaPlayout`'s, without events): this state becomes the
        next one."""
        d0 = self.__dict__
        g = d0["game"]
        seat = d0["turn"]
        supply = supply0 = d0["supply"]
        mm = d0["mm"]
        ing = list(d0["hands_ing"][seat])
        oven0, stall0 = d0["oven"], d0["stall"]
        # the next state's fields, changed below where the turn changes them
        if in_place:
            state, d = self, d0
        else:
            state = object.__new__(MammaMiaState)
            d = state.__dict__ = d0.copy()
            d["_events"] = None
        in_seat = IN_SEAT[g.players][seat]
        got = None  # the ingredients drawn, counted for the event (and when the Mamma Mia card interrupts)
        drew = 0
        restock = action is RESTOCK
        if restock:
            take = supply[:5]
            supply = d["supply"] = supply[5:]
            got = [0] * g.nk
            for k in take:
                got[k] += 1
                ing[k] += 1
            moved = drew = len(take)
            source = "supply"
        else:
            k, count, label, source, draw = action._parts
            moved = count
            orders = old_orders = d0["hands_ord"][seat]
            if count:
                ing[k] -= count
            if label is not None:
                # the first card of the label: the lowest id, as hands of orders are sorted
                labels = g.order_labels
                i = 0
                for oid in orders:
                    if labels[oid] == label:
                        break
                    i += 1
                orders = orders[1:] if i == 0 else orders[:i] + orders[i + 1:]
                d["oven"] = oven0 + ((("i", seat, k, count), ("o", seat, oid)) if count else (("o", seat, oid),))
                moved = True
            elif count:
                d["oven"] = oven0 + (("i", seat, k, count),)
            if source is not None:
                need = g.limit - sum(ing) - len(orders)
                cap = g.draw_cap
                if cap is not None and need > cap:
                    need = cap
                if draw is not None and need > draw:
                    need = draw
                if source == "waiter":
                    waiter = d0["waiters"][seat]
                    take = waiter[:need]
                    if take:  # else the hand keeps its orders, the same tuple
                        orders = tuple(sorted(orders + take))
                        d["waiters"] = in_seat(d0["waiters"], waiter[need:])
                        moved = drew = len(take)
                elif need > 0 and supply:
                    take = supply[:need]
                    if MAMMA_MIA not in take:
                        for card in take:
                            ing[card] += 1
                        supply = supply[len(take):]
                        drew = len(take)
                        if events is not None:
                            got = [0] * g.nk
                            for card in take:
                                got[card] += 1
                    else:
                        got = [0] * g.nk
                        i, n = 0, len(supply)
                        while need > 0 and i < n:
                            card = supply[i]
                            i += 1
                            if card == MAMMA_MIA:
                                mm = d["mm"] = seat  # laid out at once; a replacement is drawn in its place
                                continue
                            got[card] += 1
                            ing[card] += 1
                            need -= 1
                        supply = supply[i:]
                        drew = sum(got)
                    d["supply"] = supply
                    moved = True  # a card drawn, or the Mamma Mia card laid out
                elif events is not None:
                    got = [0] * g.nk  # nothing to draw: "draws 0 from the supply"
            if orders is not old_orders:
                d["hands_ord"] = in_seat(d0["hands_ord"], orders)
        d["hands_ing"] = in_seat(d0["hands_ing"], tuple(ing))
        if moved:
            stall = 0
            if stall0:
                d["stall"] = 0
        else:
            stall = d["stall"] = stall0 + 1
        view = d0.get("_view")
        if view is not None and d["oven"] is not oven0:
            d["_view"] = view.successor(oven0, d["oven"])
        if not supply and supply0:
            d["last_drawer"] = seat
        turn_event = None if events is None else self._turn_event(action, restock, source, drew, got, mm)
        # the oven phase ends with the last supply card, or when the supply is empty after a
        # turn, or when a whole cycle of turns moved no card (the deadlock guard)
        players = g.players
        deadlock = stall >= players
        if supply and not deadlock:
            seat += 1
            d["turn"] = d["to_move"] = 0 if seat == players else seat
            if events is not None:
                d["_events"] = (turn_event,)
            return state
        if g.has_mamma_mia:
            emptier = state.mm if isinstance(state.mm, int) else seat
        else:
            emptier = state.last_drawer if state.last_drawer is not None else seat
        if events is not None:
            events.append(new_event("turn", turn_event.text, turn_event.data, after=state, seats=(seat,),
                                    public_text=turn_event.public_text, public_data=turn_event.public_data))
        if events is None:
            # no event keeps the state before the evaluation: the fresh state is changed in place
            d.update(phase="evaluation", emptier=emptier, cursor=0, pending=None, shown=None, stall=0)
            _moved(d)
            after = oven.reveal(state, None)
            after.__dict__["_events"] = None
            return after
        state = state._with(phase="evaluation", emptier=emptier, cursor=0, pending=None, shown=None, stall=0)
        why = ("a whole cycle of turns moved no card (deadlock guard)" if deadlock and supply
               else "the supply is empty")
        events.append(new_event("oven-closed", f"The oven phase ends: {why}. {g.seat_names[emptier]} empties the oven, "
                               "revealing the cards in the order they were played.",
                               {"emptier": emptier, "reason": "deadlock" if deadlock and supply else "supply"}, after=state))
        return oven.reveal(state, events)._finish(events)

    def _turn_event(self, action, restock, source, drew, got, mm):
        """The turn's event: what the player did, and what every other seat saw of it."""
        g = self.game
        seat = self.turn
        name = g.seat_names[seat]
        if restock:
            line = f"{name} has no ingredient, so the whole turn is drawing 5 from the supply"
            secret = f"{line}: {cards_phrase(got, g.kinds)}."
            public = f"{line} ({drew} drawn)."
        else:
            secret = public = ""
            if action.count:
                secret = public = f"{name} puts {kind_words(action.count, action.kind)} in the oven. "
            if action.order is not None:
                secret += f"{name} puts the order {order_name(g.deck[g.order_id(seat, action.order)], g.kinds)} in the oven, face down. "
                public += f"{name} puts a {COLOURS[seat]} order in the oven, face down. "
            if source == "waiter":
                take = self.waiters[seat][:drew]
                waiter_text = ", ".join(order_name(g.deck[o], g.kinds) for o in take) or "nothing"
                orders = "1 order" if drew == 1 else f"{drew} orders"
                secret += f"{name} draws {orders} from their waiter: {waiter_text}."
                public += f"{name} draws {orders} from their waiter."
            elif source is not None:
                # A supply holding only the Mamma Mia card gives that card alone: no "draws 0".
                if drew or not (mm == seat and self.mm != seat):
                    secret += f"{name} draws {drew} from the supply: {cards_phrase(got, g.kinds)}. "
                    public += f"{name} draws {drew} from the supply. "
                if mm == seat and self.mm != seat:
                    line = (f"{name} draws the Mamma Mia card and lays it out: they will empty the oven and "
                            "start the next round.")
                    secret += line
                    public += line
            elif not (action.count or action.order is not None):
                secret = public = f"{name} passes."
        secret, public = secret.strip(), public.strip()
        # what every seat saw happen (the widget marks these cards as just played)
        seen = {"seat": seat, "put": None if restock or not action.count else {"kind": action.kind, "count": action.count},
                "order": not restock and action.order is not None, "source": source, "drew": drew}
        return new_event("turn", secret, dict(seen, action=str(action)), seats=(seat,), public_text=public,
                         public_data=seen)

    def _finish(self, events):
        """Attach ``events`` to this final state; the last one shows the final state itself."""
        if events is None:
            self.__dict__["_events"] = None  # for _apply to fill in
            return self
        if events and events[-1].after is not None:
            e = events[-1]
            events[-1] = new_event(e.kind, e.text, e.data, None, e.seats, e.public_text, e.public_data)
        self.events = tuple(events)
        return self

    # the evaluation -------------------------------------------------------------------------
    # the evaluation: oven.py ----------------------------------------------------------------
    def _variants(self, card):
        return oven.ways(self, card)

    def _run(self, events):
        return oven.reveal(self, events)

    def _decision(self, seat=None):
        return oven.decision(self, seat)

    def observe(self, seat=None, tally=False):
        d = self.__dict__
        g = d["game"]
        P = g.players
        phase = d["phase"]
        oven_items = d["oven"]
        # the oven's public side is built once per oven and shared (see OvenView): an
        # observation takes prefixes of its lists
        view = d.get("_view") or self._oven_view()
        items = len(oven_items)
        log = view.logs.get(items) or view.log_upto(items)
        if seat is None:  # the all-seeing view: which order lies face down
            log = [dict(entry, card=g.card_dicts[item[2]]) if item[0] == "o" else entry
                   for entry, item in zip(log, oven_items)]
        cards = view.cards
        shown_cards = cards[d["cursor"]] + d["part"]  # cards turned over so far
        oven_cards = cards[items] - shown_cards
        tally_view = None
        if tally:
            ing = [0] * g.nk
            orders = [0] * P
            for item in oven_items:
                if item[0] == "i":
                    ing[item[2]] += item[3]
                else:
                    orders[item[1]] += 1
            tally_view = {"ingredients": _named(ing, g.kinds),
                          "orders": {COLOURS[s]: orders[s] for s in range(P) if orders[s]}}

        evaluation = None
        if phase == "turn":
            to_move = d["turn"]
        else:
            to_move = None
            if phase == "evaluation" or d["emptier"] is not None:
                decision = None
                if phase == "evaluation":
                    p = d["pending"]
                    if p is not None:
                        to_move = g.deck[p[1]].colour if p[0] == "settle" else p[5]
                        decision = oven.decision(self, seat)
                evaluation = {"emptier": d["emptier"], "revealed": view.revealed_upto(shown_cards),
                              "remaining": oven_cards, "order": self.shown, "decision": decision}
        mm = d["mm"] if g.has_mamma_mia else None
        table = g._table_views.get(d["table"])
        if table is None:
            table = _kept(g._table_views, d["table"], dict(zip(g.kinds, d["table"])), _VIEW_PARTS)
        # the seats' counts and scores, built from the last view of this state or of a state it
        # came from (kept with the tuples it was built from): a seat whose hand, orders, waiter
        # and delivered pile are the same tuples keeps its entry (a turn changes one seat, the
        # reveals none, an order made one or two), another is kept by its counts
        hands_ing, hands_ord, waiters, delivered = d["hands_ing"], d["hands_ord"], d["waiters"], d["delivered"]
        seen = d.get("_seats_seen")
        if seen is not None and seen[4] == mm:
            if seen[0] is hands_ing and seen[1] is hands_ord and seen[2] is waiters and seen[3] is delivered:
                players, scores = seen[5], seen[6]
            else:
                players = list(seen[5])
                s = 0
                for ing, orders, waiter, done, ing0, orders0, waiter0, done0 in zip(
                        hands_ing, hands_ord, waiters, delivered, seen[0], seen[1], seen[2], seen[3]):
                    if ing is not ing0 or orders is not orders0 or waiter is not waiter0 or done is not done0:
                        players[s] = self._seat_view(s, sum(ing), len(orders), len(waiter), len(done), mm)
                    s += 1
                scores = seen[6] if seen[3] is delivered else list(map(len, delivered))
                d["_seats_seen"] = (hands_ing, hands_ord, waiters, delivered, mm, players, scores)
        else:
            players = list(map(self._seat_view, range(P), map(sum, hands_ing), map(len, hands_ord),
                               map(len, waiters), map(len, delivered), (mm,) * P))
            scores = list(map(len, delivered))
            d["_seats_seen"] = (hands_ing, hands_ord, waiters, delivered, mm, players, scores)
        obs = g._view_base.copy()
        obs["phase"] = phase
        obs["to_move"] = to_move
        obs["oven_number"] = d["oven_number"]
        obs["supply"] = len(d["supply"])
        obs["mamma_mia_card"] = mm
        obs["oven"] = {"size": oven_cards, "log": log, "tally": tally_view}
        obs["table"] = table
        obs["used"] = sum(d["used"])
        obs["players"] = players
        if seat is not None:
            obs["hand"] = self._hand_view(seat)
        obs["evaluation"] = evaluation
        obs["scores"] = scores
        obs["winners"] = list(self.winners) if phase == "over" else []
        if seat is None:
            obs["hands"] = [self._hand_view(s) for s in range(P)]
        return obs

    def _seat_view(self, s, ing, orders, waiter, delivered, mm):
        """Seat ``s``'s entry of a view's ``players``: built once per value and shared."""
        views = self.game._player_views
        key = (s, ing, orders, waiter, delivered, mm == s)
        entry = views.get(key)
        if entry is None:
            entry = _kept(views, key, {
                "seat": s, "colour": COLOURS[s], "hand_ingredients": ing, "hand_orders": orders,
                "waiter": waiter, "delivered": delivered, "mamma_mia": mm == s}, _VIEW_PARTS)
        return entry

    def _hand_view(self, seat):
        """``seat``'s hand as its view shows it: its ingredients and its orders are each built
        once per value and shared (views are read-only)."""
        g = self.game
        ing, orders = self.hands_ing[seat], self.hands_ord[seat]
        ing_view = g._hand_views.get(ing)
        if ing_view is None:
            kinds = g.kinds
            ing_view = _kept(g._hand_views, ing, {kinds[k]: n for k, n in enumerate(ing) if n}, _VIEW_PARTS)
        orders_view = g._order_views.get(orders)
        if orders_view is None:
            card_dicts = g.card_dicts
            orders_view = _kept(g._order_views, orders, [card_dicts[o] for o in sorted(orders)], _VIEW_PARTS)
        return {"ingredients": ing_view, "orders": orders_view}

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
                pool += cards_of(_sub(self.hands_ing[s], kept[s]))
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
                raise ValueError(f"order card {oid} ({order_name(g.deck[oid], g.kinds)}) is twice: in {seen_orders[oid]} and in {where}")
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
        inside = [0] * g.nk  # each card is once in the oven, revealed or not
        for i, it in enumerate(self.oven):
            if it[0] == "i":
                _, seat, k, n = it
                if seat is not None and (not _is_int(seat) or not 0 <= seat < P):
                    raise ValueError(f"oven item {i}: bad seat {seat!r}")
                if not _is_int(k) or not 0 <= k < g.nk or not _is_int(n) or n < 1:
                    raise ValueError(f"oven item {i}: bad ingredient {it!r}")
                inside[k] += n
                if inside[k] > g.per_kind:
                    raise ValueError(f"the oven holds more {g.kinds[k]} than the game's {g.per_kind} (item {i})")
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
            raise ValueError(f"order cards missing: {', '.join(order_name(g.deck[o], g.kinds) + ' (' + COLOURS[g.deck[o].colour] + ')' for o in lost)}")
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
            revealed = oven.settle_revealed(self._with(pending=None), p[1], [])
            if revealed.pending != p:
                raise ValueError(f"{g.seat_names[owner]}'s order {order_name(card, g.kinds)} waits for no decision here: revealed on "
                                 "this table it is made or sent back at once")
            return
        if not g.help:
            raise ValueError("a pending Help, but this game has no Help")
        _, _, variant, ask, rest, helper = p
        if not _is_int(helper) or not 0 <= helper < g.players or helper == owner:
            raise ValueError(f"the asked helper must be a seat other than the owner ({owner}), got {helper!r}")
        if not self.waiters[helper]:
            raise ValueError(f"{g.seat_names[helper]} is asked for Help but their waiter is empty (they could not "
                             "move a card to their delivered pile)")
        if variant not in {v for v, _ in (self._variants(card)[0] or ())}:
            raise ValueError(f"the pending Help names a way to make {order_name(card, g.kinds)} ({variant!r}) that does not exist")
        # the ask must be one the owner could make when the order was revealed
        asks = {str(a) for a in oven.settle_actions(self._with(pending=("settle", p[1])))}
        if any(n < 0 for n in ask) or str(_ask_action(variant, ask, g.kinds)) not in asks:
            raise ValueError(f"the pending Help asks for what {g.seat_names[owner]} could not ask for here")
        variants, _ = self._variants(card)
        needs = dict(variants or ()).get(variant) if card.type != "bombastica" else None
        if needs is None:
            raise ValueError(f"the pending Help names a way to make {order_name(card, g.kinds)} ({variant!r}) that does not exist")
        if any(n < 0 for n in ask + rest) or not any(ask) or _add(ask, rest) != _missing(needs, self.table):
            raise ValueError("the pending Help's ask and the owner's part must be non-negative, the ask not empty, "
                             "and together exactly what the table lacks")
        if not _covers(self.hands_ing[owner], rest):
            raise ValueError(f"{g.seat_names[owner]}'s hand does not hold their part of the Help ({cards_phrase(rest, g.kinds)})")

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



class MammaMiaPlayout(MammaMiaState):
    """A position that :meth:`play` changes in place (``state.playout()``; see
    :class:`~tabletop_widgets.core.game.Playout`): a turn and a decision write the next
    position's fields into this one, where ``_apply`` copies them into a fresh state first.

    It reads like a state. Its fields are immutable values, replaced and never changed, so an
    observation or a :meth:`snapshot` taken before a play stays as it was; it writes no events.
    """

    __hash__ = None  # it changes

    def play(self, action):
        """Move on with ``action``, one of :meth:`legal_actions` (not checked)."""
        if self.__dict__["phase"] == "turn":
            self._apply_turn(action, None, in_place=True)
        else:
            oven.apply_decision(self, action, None, in_place=True)

    def snapshot(self):
        """The position now, as an immutable :class:`MammaMiaState`."""
        new = object.__new__(MammaMiaState)
        d = new.__dict__ = self.__dict__.copy()
        d["_events"] = ()
        return new

    def playout(self):
        return self.snapshot().playout()

    @property
    def events(self):
        raise AttributeError("a playout writes no events: state.apply(action) gives the state with its events")

    def _apply(self, action):
        # ``apply`` gives the next state and leaves the playout as it is
        return self.snapshot()._apply(action)

    def _apply_with_events(self, action):
        return self.snapshot()._apply_with_events(action)


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

"""MammuZ: the bluffing card game of ice-age herds and dinosaurs.

Rules: ``docs/rules/mammuz.md`` (from the Italian rules, with every open point decided).
Cards of one species are identical, so hands are counts per card name; a display is a list
in an order the state's generator chose when it was laid, so which card a challenger turns
says nothing but what the card shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from ..._extras import numpy_or_none
from ...core import Event, Game, IllegalAction, Option, Rng, State, register
from ...core.errors import quote
from ...core.rng import shuffled_state as _shuffled

SPECIES = ("mammoth", "bear", "deer", "tiger", "hare", "squirrel", "gopher", "mouse")
SPECIES_SIZE = {s: n for s, n in zip(SPECIES, range(2, 10))}
DINOSAURS = ("brontosaurus", "pterosaur", "triceratops", "stegosaurus", "plesiosaur", "tyrannosaurus")
CARDS = SPECIES + DINOSAURS
# players: (species in play, dinosaurs drawn)
SETUP = {3: (6, 3), 4: (7, 5), 5: (7, 5), 6: (8, 4), 7: (8, 5)}
SEAT_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elsa", "Fabio", "Gina")


def _plural(card: str, n: int) -> str:
    return f"{n} {card}" if n == 1 else f"{n} {card}s" if card not in ("deer", "mouse") else (
        f"{n} {card}" if card == "deer" else f"{n} mice"
    )


@lru_cache(maxsize=4096)
def _cards_text(cards: tuple) -> str:
    counts = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(_plural(c, n) for c, n in sorted(counts.items(), key=lambda kv: CARD_INDEX[kv[0]]))


@dataclass(frozen=True)
class Lay:
    """A whole lay: 1–4 cards face down as a display; ``species`` is the claim.

    Not among ``legal_actions()`` (which offer a lay one decision at a time: :class:`Claim`,
    :class:`AddCard`, :class:`Done`), but accepted by ``apply`` at the start of a turn: the
    widget composes a lay and sends it whole, and replays record each lay as one action.
    """

    species: str
    cards: tuple  # sorted by card order, so one multiset is one action

    def __str__(self):
        return f"lay {self.species}: {' '.join(self.cards)}"


@dataclass(frozen=True)
class Claim:
    """Starting a herd: name the species; the cards follow one at a time (:class:`AddCard`)."""

    species: str

    def __str__(self):
        return f"claim {self.species}"


@dataclass(frozen=True)
class AddCard:
    """Put one card of the hand face down into the lay being made (expanding starts with it).
    The fourth card closes the lay."""

    card: str

    def __str__(self):
        return f"add {self.card}"


@dataclass(frozen=True)
class Done:
    """Close the lay being made (at least one card) and lay it face down."""

    def __str__(self):
        return "done"


@dataclass(frozen=True)
class Challenge:
    """Turn up card ``position`` (1-based) of the previous player's display."""

    position: int

    def __str__(self):
        return f"challenge {self.position}"


@dataclass(frozen=True)
class GiveHerd:
    """Triceratops: the challenger names who takes the herd."""

    seat: int

    def __str__(self):
        return f"give {self.seat}"


DONE = Done()
CLAIMS = {s: Claim(s) for s in SPECIES}
ADDS = tuple(AddCard(c) for c in CARDS)
GIVES = tuple(GiveHerd(s) for s in range(7))
CHALLENGES = tuple(Challenge(i) for i in range(1, 5))
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
SPECIES_IN_PLAY = {p: SPECIES[:n] for p, (n, _) in SETUP.items()}


@register
class Mammuz(Game):
    name = "mammuz"
    renderer = "mammuz"
    min_players, max_players, default_players = 3, 7, 4
    OPTIONS = {
        "first_player": Option(
            None, lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 7),
            "the seat that starts; null (None) draws it with the seed", "null (None) or a seat number",
        ),
        "extinction": Option(
            "in_play", ("in_play", "all_cards"),
            "in_play: holding every card of a species still in play kills it; all_cards: every card, base included",
        ),
    }

    def svg(self, frame, seat=None) -> str:
        from .svg import view_svg

        return view_svg(frame, seat)

    @property
    def seat_names(self):
        return SEAT_NAMES[: self.players]

    def _check_options(self, options):
        if options["first_player"] is not None and options["first_player"] >= self.players:
            raise ValueError(f"mammuz: option first_player={options['first_player']!r} is not a seat of {self.players} players")

    @property
    def species(self) -> tuple:
        return SPECIES_IN_PLAY[self.players]

    def new_state(self, seed=0):
        rng = Rng.from_seed(seed)
        n_species, n_dinos = SETUP[self.players]
        dinos, rng = rng.shuffled(DINOSAURS)
        deck = [s for s in SPECIES[:n_species] for _ in range(SPECIES_SIZE[s])] + dinos[:n_dinos]
        deck, rng = rng.shuffled(deck)
        each = len(deck) // self.players
        hands = tuple(_counts(deck[i * each:(i + 1) * each]) for i in range(self.players))
        first = self.options["first_player"]
        if first is None:
            first, rng = rng.below(self.players)
        state = MammuzState(
            self, hands=hands, box=tuple(sorted(dinos[n_dinos:], key=CARD_INDEX.__getitem__)), starter=first,
            to_act=first, claim=None, displays=(), pile=(), bases={}, dinos_out=(), extinct=(),
            turned=(), pending=None, winner=None, rng=rng.state,
        )
        state, events = state._extinctions([])
        return state._with(events=tuple(events))

    def _state_from_payload(self, p):
        return MammuzState.from_payload(self, p)

    def parse_action(self, state, text):
        """Notation → action; a whole lay (``lay hare: hare gopher``) is read directly."""
        if isinstance(text, str) and text.strip().startswith("lay "):
            head, sep, tail = text.strip()[4:].partition(":")
            if not sep:
                raise IllegalAction(f"{text!r} is not legal: a lay is written 'lay <species>: <card> <card> …'")
            return state.check(Lay(head.strip(), tuple(tail.split())))
        return super().parse_action(state, text)

    # learning hooks (PettingZoo, docs/analysis.md) -----------------------------------------------
    def _action_list(self) -> tuple:
        cards = [c for c in CARDS if c in self.species or c in DINOSAURS]
        return (tuple(CLAIMS[s] for s in self.species) + tuple(ADDS[CARD_INDEX[c]] for c in cards) + (DONE,)
                + CHALLENGES + GIVES[: self.players])

    def action_catalogue(self) -> tuple:
        """``claim <species>`` for each species in play, ``add <card>`` for each card in play
        (species in play, every dinosaur), ``done``, ``challenge 1`` … ``challenge 4``, then
        ``give 0`` … ``give P-1``: 29 actions for 4 players, 33 for 6 (a lay is several)."""
        return tuple(str(a) for a in self._action_list())

    def _index_table(self) -> dict:
        table = self.__dict__.get("_index")
        if table is None:
            table = self.__dict__["_index"] = {a: i for i, a in enumerate(self._action_list())}
        return table

    def action_index(self, action) -> int:
        """The index of a legal action in :meth:`action_catalogue`, without its notation."""
        return self._index_table()[action]

    def action_indices(self, actions) -> list:
        """:meth:`action_index` of each of ``actions`` (a list from ``legal_actions()``)."""
        table = self._index_table()
        return [table[a] for a in actions]

    def observation_size(self) -> int:
        P, C, S = self.players, len(CARDS), len(SPECIES)
        # hand, own herd cards, turned card, own lay being made | sizes, displayed, to move,
        # starter, last displayer | phase | claim, extinct, bases | dinosaurs out | herd, pile,
        # displays, last size, cards in the lay being made
        return 4 * C + 5 * P + 5 + 3 * S + len(DINOSAURS) + 5

    def observation_vector(self, observation: dict, seat: int) -> list:
        """``observe(seat)`` as numbers, seats counted from ``seat`` (the learner first)."""
        o, P = observation, self.players
        rel = lambda s: (s - seat) % P
        one_hot = lambda i, n: [1.0 if k == i else 0.0 for k in range(n)]
        hand = o["hand"] or {}
        mine = [0] * len(CARDS)  # the cards this seat laid into the current herd (it knows them)
        displayed = [0] * P
        for d in o["displays"]:
            displayed[rel(d["seat"])] += d["size"]
            for c in d.get("cards", []) if d["seat"] == seat else []:
                mine[CARD_INDEX[c]] += 1
        last = o["displays"][-1] if o["displays"] else None
        turned = [0.0] * len(CARDS)
        for c in (last or {}).get("turned", {}).values():
            turned[CARD_INDEX[c]] += 1
        laying = o.get("laying")
        making = [0.0] * len(CARDS)
        for c in (laying or {}).get("cards", []):
            making[CARD_INDEX[c]] += 1
        vector = [float(hand.get(c, 0)) for c in CARDS] + [float(n) for n in mine] + turned + making
        vector += [float(o["hand_sizes"][(seat + i) % P]) for i in range(P)] + [float(n) for n in displayed]
        vector += one_hot(None if o["to_move"] is None else rel(o["to_move"]), P)
        vector += one_hot(rel(o["starter"]), P)
        vector += one_hot(None if last is None else rel(last["seat"]), P)
        vector += one_hot(("start", "respond", "lay", "give", "over").index(o["phase"]), 5)
        claim = o["claim"] if laying is None else laying["species"]
        vector += one_hot(None if claim is None else SPECIES.index(claim), len(SPECIES))
        vector += [1.0 if s in o["extinct"] else 0.0 for s in SPECIES]
        vector += [float(o["bases"].get(s, 0)) for s in SPECIES]
        vector += [1.0 if d in o["dinosaurs_out"] else 0.0 for d in DINOSAURS]
        vector += [float(o["herd_size"]), float(o["pile"]), float(len(o["displays"])), float(last["size"] if last else 0),
                   float(laying["count"] if laying else 0)]
        return vector

    def state_vector(self, state: "MammuzState", seat: int) -> list:
        """:meth:`observation_vector` of ``observe(seat)``, read from the state itself."""
        P = self.players
        C = len(CARDS)
        mine = [0] * C
        displayed = [0] * P
        herd = 0
        for s, cards, _ in state.displays:
            displayed[(s - seat) % P] += len(cards)
            herd += len(cards)
            if s == seat:
                for c in cards:
                    mine[CARD_INDEX[c]] += 1
        turned = [0] * C
        last = state.displays[-1] if state.displays else None
        if last is not None:
            cards = last[1]
            for i in last[2]:
                turned[CARD_INDEX[cards[i]]] += 1
        laying = state.laying
        making = [0] * C
        if laying is not None and seat == state.to_act:
            for c in laying[1]:
                making[CARD_INDEX[c]] += 1
        hands = state.hands
        vector = [*hands[seat], *mine, *turned, *making]
        vector += [sum(hands[(seat + i) % P]) for i in range(P)]
        vector += displayed
        seats = [0] * (3 * P)
        if state.winner is None:
            seats[(state.to_act - seat) % P] = 1
        seats[P + (state.starter - seat) % P] = 1
        if last is not None:
            seats[2 * P + (last[0] - seat) % P] = 1
        vector += seats
        phase = [0] * 5
        phase[4 if state.winner is not None else 3 if state.pending == "give" else 2 if laying is not None
              else 1 if state.displays else 0] = 1
        vector += phase
        claim = [0] * len(SPECIES)
        species = state.claim if laying is None else laying[0]
        if species is not None:
            claim[CARD_INDEX[species]] = 1  # species come first in CARDS
        vector += claim
        extinct = state.extinct
        vector += [s in extinct for s in SPECIES]
        bases, in_play = state.bases, self.species
        vector += [bases.get(s, 0) if s in in_play else 0 for s in SPECIES]
        out = state.dinos_out
        vector += [d in out for d in DINOSAURS]
        vector += [herd, len(state.pile), len(state.displays), len(last[1]) if last is not None else 0,
                   len(laying[1]) if laying is not None else 0]
        np = numpy_or_none()
        if np is None:
            return vector
        # every number is a count of the game's 50 cards (or a 0/1): one byte each, read at once
        return np.frombuffer(bytes(vector), np.uint8).astype(np.float32)


_HAND_ADDS: dict = {}


def _adds(hand: tuple, cards: tuple) -> list:
    """The cards of ``hand`` (counts aligned with CARDS) that may still join the lay ``cards``."""
    adds = _HAND_ADDS.get(hand)
    if adds is None:  # a hand's cards, kept for the next decisions of the same lay
        if len(_HAND_ADDS) > 50_000:
            _HAND_ADDS.clear()
        adds = _HAND_ADDS[hand] = tuple(ADDS[i] for i, n in enumerate(hand) if n)
    if not cards:
        return list(adds)
    return [a for a in adds if hand[CARD_INDEX[a.card]] > cards.count(a.card)]


# Views of values many states share (a hand, the record of turned cards), built once and
# copied for each observation; bounded, as a long simulation meets many of them.
_HAND_DICTS: dict = {}
_TURNED_VIEWS: dict = {}


def _hand_dict(hand: tuple) -> dict:
    view = _HAND_DICTS.get(hand)
    if view is None:
        if len(_HAND_DICTS) > 50_000:
            _HAND_DICTS.clear()
        view = _HAND_DICTS[hand] = {c: n for c, n in zip(CARDS, hand) if n}
    return view.copy()


def _turned_view(turned: tuple) -> list:
    view = _TURNED_VIEWS.get(turned)
    if view is None:
        if len(_TURNED_VIEWS) > 20_000:
            _TURNED_VIEWS.clear()
        view = _TURNED_VIEWS[turned] = [{"displayer": d, "card": c, "challenger": ch} for d, c, ch in turned]
    return [record.copy() for record in view]


def _counts(cards) -> tuple:
    """Card counts as a tuple aligned with CARDS (hashable, cheap to copy)."""
    out = [0] * len(CARDS)
    for c in cards:
        out[CARD_INDEX[c]] += 1
    return tuple(out)


def _cards(counts) -> list:
    return [c for c, n in zip(CARDS, counts) for _ in range(n)]


class MammuzState(State):
    __slots__ = ("game", "hands", "box", "starter", "to_act", "claim", "displays", "pile", "bases",
                 "dinos_out", "extinct", "turned", "pending", "winner", "rng", "laying", "events")

    def __init__(self, game, *, hands, box, starter, to_act, claim, displays, pile, bases, dinos_out,
                 extinct, turned, pending, winner, rng, laying=None, events=()):
        self.game, self.hands, self.box, self.starter, self.to_act = game, hands, box, starter, to_act
        self.claim, self.displays, self.pile, self.bases = claim, displays, pile, bases
        self.dinos_out, self.extinct, self.turned, self.pending = dinos_out, extinct, turned, pending
        self.winner, self.rng, self.events = winner, rng, events
        # the lay being made by the seat to act, one decision at a time: (species, cards so far
        # in card order), or None
        self.laying = laying

    def _copy(self) -> "MammuzState":
        new = object.__new__(MammuzState)  # on the hot path of every action: no keyword parsing
        new.game, new.hands, new.box, new.starter, new.to_act = self.game, self.hands, self.box, self.starter, self.to_act
        new.claim, new.displays, new.pile, new.bases = self.claim, self.displays, self.pile, self.bases
        new.dinos_out, new.extinct, new.turned, new.pending = self.dinos_out, self.extinct, self.turned, self.pending
        new.winner, new.rng, new.laying, new.events = self.winner, self.rng, self.laying, ()
        return new

    def _with(self, **changes) -> "MammuzState":
        new = self._copy()
        for key, value in changes.items():
            setattr(new, key, value)
        return new

    # reading -----------------------------------------------------------------------------
    @property
    def to_move(self):
        return None if self.winner is not None else self.to_act

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def herd(self) -> list:
        """Every card of every display of this round."""
        return [c for _, cards, _ in self.displays for c in cards]

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.game.players

    def _live_species(self) -> list:
        return [s for s in self.game.species if s not in self.extinct]

    def legal_actions(self):
        """At most 18 decisions: a lay is made one decision at a time (docs/rules/mammuz.md)."""
        if self.winner is not None:
            return []
        if self.pending == "give":
            return list(GIVES[: self.game.players])
        hand = self.hands[self.to_act]
        if self.laying is not None:
            cards = self.laying[1]
            return _adds(hand, cards) + [DONE] if cards else _adds(hand, cards)
        if not self.displays:
            return [CLAIMS[s] for s in self.game.species if s not in self.extinct]
        last_seat, cards, _ = self.displays[-1]
        actions = list(CHALLENGES[: len(cards)])
        if not any(self.hands[last_seat]):
            return actions  # whoever lays their last cards must be challenged
        return actions + _adds(hand, ()) if any(hand) else actions

    def check(self, action):
        """As ``State.check``, and a whole :class:`Lay` at the start of a turn."""
        if isinstance(action, Lay):
            why = self._lay_problem(action)
            if why:
                raise IllegalAction(f"{str(action)!r} is not legal: {why}")
            return action
        return super().check(action)

    def _lay_problem(self, action: Lay) -> Optional[str]:
        """Why the whole lay ``action`` cannot be made here, or None."""
        names = self.game.seat_names
        if self.winner is not None:
            return "the game is over"
        if self.pending == "give":
            return f"{names[self.to_act]} must name who takes the herd"
        if self.laying is not None:
            return f"{names[self.to_act]} is making a lay one card at a time (add <card> or done)"
        if self.displays and not any(self.hands[self.displays[-1][0]]):
            return f"{names[self.displays[-1][0]]} laid their last cards and must be challenged"
        if not isinstance(action.species, str) or not isinstance(action.cards, tuple) or not all(
                isinstance(c, str) for c in action.cards):
            return "a lay names a species and a tuple of cards"
        if self.displays and action.species != self.claim:
            return f"the herd is claimed to be {self.claim}; an expansion claims the same species"
        if action.species not in self.game.species or action.species in self.extinct:
            return f"{action.species} is not a species in play that can be named"
        if not 1 <= len(action.cards) <= 4:
            return "a lay is 1 to 4 cards"
        if any(c not in CARD_INDEX for c in action.cards):
            return "an unknown card"
        if list(action.cards) != sorted(action.cards, key=CARD_INDEX.__getitem__):
            return "the cards are written in card order"
        hand = self.hands[self.to_act]
        if any(hand[CARD_INDEX[c]] < action.cards.count(c) for c in set(action.cards)):
            return f"{names[self.to_act]} does not hold those cards"
        return None

    def caption(self, action) -> str:
        """The sentence of a decision with no event (naming a species, a card put face down):
        the card is not named, every seat reads it."""
        name = self.game.seat_names[self.to_act]
        if isinstance(action, Claim):
            return f"{name} starts a herd of {_plural(action.species, 2)[2:]} and chooses the cards to lay."
        if isinstance(action, AddCard):
            n = len(self.laying[1]) + 1 if self.laying else 1
            return f"{name} puts a card face down ({n} so far, claimed to be {_plural(self.laying[0] if self.laying else self.claim, n)})."
        return super().caption(action)

    def _why_illegal(self, text):
        if self.pending == "give":
            return f"{text!r} is not legal: {self.game.seat_names[self.to_act]} must name who takes the herd (give 0 … give {self.game.players - 1})"
        if self.displays and sum(self.hands[self.displays[-1][0]]) == 0 and not text.startswith("challenge"):
            return f"{text!r} is not legal: {self.game.seat_names[self.displays[-1][0]]} laid their last cards and must be challenged"
        return super()._why_illegal(text)

    # acting ------------------------------------------------------------------------------
    def _apply(self, action):
        kind = type(action)
        if kind is AddCard:
            species, cards = self.laying if self.laying is not None else (self.claim, ())
            cards = cards + (action.card,)
            if len(cards) > 1 and CARD_INDEX[cards[-2]] > CARD_INDEX[action.card]:
                cards = tuple(sorted(cards, key=CARD_INDEX.__getitem__))
            if len(cards) == 4:
                return self._lay(species, cards)
            new = self._copy()
            new.laying = (species, cards)
            return new
        if kind is Challenge:
            return self._challenge(action)
        if kind is Done:
            return self._lay(*self.laying)
        if kind is Claim:
            new = self._copy()
            new.laying = (action.species, ())
            return new
        if kind is Lay:
            return self._lay(action.species, action.cards)
        return self._give(action)

    def _lay(self, species: str, cards: tuple):
        """Lay ``cards`` (in card order) face down as a display claimed to be ``species``."""
        seat = self.to_act
        names = self.game.seat_names
        hand = list(self.hands[seat])
        for c in cards:
            hand[CARD_INDEX[c]] -= 1
        order, rng = _shuffled(self.rng, cards)
        hands = self.hands[:seat] + (tuple(hand),) + self.hands[seat + 1:]
        new = self._copy()
        new.hands, new.claim, new.displays = hands, species, self.displays + ((seat, tuple(order), ()),)
        new.to_act, new.rng, new.laying = self._next(seat), rng, None
        n = len(cards)
        verb = "starts a herd" if not self.displays else "expands the herd"
        last = " — their last cards, so the next player must challenge" if not any(hand) else ""
        text = f"{names[seat]} {verb}: {n} card{'s' * (n > 1)} face down, claimed to be {_plural(species, n)}{last}."
        event = Event("lay", f"{text[:-1]} (in truth: {_cards_text(cards)}).",
                      {"seat": seat, "count": n, "species": species, "cards": list(cards)},
                      seats=(seat,), public_text=text,
                      public_data={"seat": seat, "count": n, "species": species})
        new.events = (event,)
        return new

    def _challenge(self, action: Challenge):
        challenger = self.to_act
        displayer, cards, up = self.displays[-1]
        index = action.position - 1
        card = cards[index]
        names = self.game.seat_names
        displays = self.displays[:-1] + ((displayer, cards, tuple(sorted(up + (index,)))),)
        turned = self.turned + ((displayer, card, challenger),)
        state = self._copy()
        state.displays, state.turned = displays, turned
        claim = self.claim
        truth = "the claim was true" if card == claim else (
            "a dinosaur" if card in DINOSAURS else f"the claim of {claim} was false")
        events = [Event("turn", f"{names[challenger]} challenges {names[displayer]}, turning card {action.position} "
                        f"of the display: {'a' if card[0] not in 'aeiou' else 'an'} {card} ({truth}).",
                        {"challenger": challenger, "displayer": displayer, "position": action.position, "card": card},
                        after=state)]
        if card == claim:
            return state._herd_to(challenger, f"the card shows the named species, so the challenger {names[challenger]} takes the herd", events)
        if card in SPECIES:
            return state._herd_to(displayer, f"another animal, so the displayer {names[displayer]} takes the herd", events)
        if card == "brontosaurus":
            return state._herd_to(displayer, f"Brontosaurus: the displayer {names[displayer]} takes the herd", events)
        if card == "pterosaur":
            return state._herd_to(challenger, f"Pterosaur: the challenger {names[challenger]} takes the herd", events)
        if card == "triceratops":
            waiting = state._with(pending="give", to_act=challenger)
            events.append(Event("triceratops", f"Triceratops: {names[challenger]} chooses who takes the herd.",
                                {"challenger": challenger}))
            return waiting._with(events=tuple(events))
        if card == "stegosaurus":
            return state._stegosaurus(challenger, events)
        if card == "plesiosaur":
            herd = state.herd
            pile = tuple(sorted(state.pile + tuple(herd), key=CARD_INDEX.__getitem__))
            after = state._with(pile=pile, displays=(), claim=None)
            events.append(Event("plesiosaur", f"Plesiosaur: the herd ({len(herd)} cards) goes into the pile in the middle "
                                f"(now {len(pile)}); the next player to take herd cards takes the pile too.",
                                {"count": len(herd), "pile": len(pile)}, after=after))
            return after._end_round(None, challenger, events)
        # tyrannosaurus: the herd leaves the game face up, animals on their bases
        herd = state.herd
        bases = dict(state.bases)
        for c in herd:
            if c in SPECIES:
                bases[c] = bases.get(c, 0) + 1
        dinos = tuple(sorted(state.dinos_out + tuple(c for c in herd if c in DINOSAURS), key=CARD_INDEX.__getitem__))
        after = state._with(bases=bases, dinos_out=dinos, displays=(), claim=None)
        events.append(Event("tyrannosaurus", f"Tyrannosaurus: the herd leaves the game face up: {_cards_text(tuple(herd))}.",
                            {"cards": sorted(herd, key=CARD_INDEX.__getitem__)}, after=after))
        return after._end_round(None, challenger, events)

    def _give(self, action: GiveHerd):
        names = self.game.seat_names
        chooser = self.to_act
        base = self._with(pending=None)
        return base._herd_to(action.seat, f"Triceratops: {names[chooser]} gives the herd to {names[action.seat]}", [])

    def _herd_to(self, taker: int, why: str, events: list):
        herd = self.herd
        pile = list(self.pile)
        hand = list(self.hands[taker])
        for c in herd + pile:
            hand[CARD_INDEX[c]] += 1
        hands = self.hands[:taker] + (tuple(hand),) + self.hands[taker + 1:]
        after = self._copy()
        after.hands, after.displays, after.pile, after.claim, after.pending = hands, (), (), None, None
        extra = f", with the pile of {len(pile)}" if pile else ""
        events.append(Event("take", f"{why[0].upper()}{why[1:]}: {len(herd)} card{'s' * (len(herd) != 1)}{extra}.",
                            {"seat": taker, "count": len(herd) + len(pile)}, after=after))
        return after._end_round(taker, None, events)

    def _stegosaurus(self, challenger: int, events: list):
        names = self.game.seat_names
        cards = self.herd + list(self.pile)
        dealt, rng = Rng(self.rng).shuffled(cards)
        hands = [list(h) for h in self.hands]
        got = [0] * self.game.players
        seat = challenger
        for c in dealt:
            seat = self._next(seat)
            hands[seat][CARD_INDEX[c]] += 1
            got[seat] += 1
        after = self._with(hands=tuple(tuple(h) for h in hands), displays=(), pile=(), claim=None, rng=rng.state)
        shares = ", ".join(f"{names[s]} {got[s]}" for s in range(self.game.players) if got[s])
        extra = f" with the pile of {len(self.pile)}" if self.pile else ""
        events.append(Event("stegosaurus", f"Stegosaurus: {names[challenger]} shuffles the herd{extra} and deals it out "
                            f"one card at a time from the next player: {shares}.",
                            {"dealt": got}, after=after))
        return after._end_round(None, challenger, events)

    def _end_round(self, taker: Optional[int], challenger: Optional[int], events: list):
        """After a herd is settled: extinctions, the winner check, and who starts the next round."""
        names = self.game.seat_names
        displayer = self.turned[-1][0]
        # The turned card decides first: a displayer who laid their last cards and still holds
        # none after its effect has won at that moment, before any extinction it would cause.
        if sum(self.hands[displayer]) == 0:
            state = self._with(winner=displayer)
            events.append(Event("end", f"{names[displayer]} laid their last cards and still holds none: {names[displayer]} wins.",
                                {"winners": [displayer]}))
            return state._with(events=tuple(_last_is_final(events)))
        state, events = self._extinctions(events)
        if state.winner is None and len(state.extinct) >= len(self.game.species) and not state._live_species():
            # Every species died out and the hands hold only dinosaurs: nobody can name a herd
            # again. The fewest cards wins; a tie goes to the first in turn from the next starter.
            starter = self._next(taker) if taker is not None else challenger
            order = [(starter + i) % self.game.players for i in range(self.game.players)]
            best = min(order, key=lambda s: sum(state.hands[s]))
            state = state._with(winner=best)
            events.append(Event("end", f"Every species has died out, so no herd can be named again: {names[best]}, "
                                f"with the fewest cards ({sum(state.hands[best])}), wins.", {"winners": [best]}))
        if state.winner is None:
            starter = self._next(taker) if taker is not None else challenger
            state = state._copy()
            state.starter = state.to_act = starter
            why = f"the player after {names[taker]}, who took the herd" if taker is not None else "nobody took the herd, so the challenger"
            events.append(Event("starter", f"{names[starter]} starts the next herd ({why}).", {"seat": starter}))
        if state is self:
            state = self._copy()
        state.events = tuple(_last_is_final(events))  # a fresh state, not yet seen by anyone
        return state

    def _any_extinction(self) -> bool:
        hands, bases, extinct = self.hands, self.bases, self.extinct
        for s in self.game.species:
            if s in extinct:
                continue
            left = SPECIES_SIZE[s] - bases.get(s, 0)
            if left == 0:
                return True
            i = CARD_INDEX[s]
            for h in hands:
                if h[i] == left:
                    return True
        return False

    def _extinctions(self, events: list):
        """Every species whose cards still in play are all in one hand dies out at once."""
        if not self._any_extinction():
            return self, events  # the common case, checked cheaply
        names = self.game.seat_names
        state = self
        all_cards = self.game.options["extinction"] == "all_cards"
        for species in self.game.species:
            if species in state.extinct:
                continue
            i = CARD_INDEX[species]
            on_base = state.bases.get(species, 0)
            in_play = SPECIES_SIZE[species] - on_base
            holders = [s for s, h in enumerate(state.hands) if h[i]]
            if in_play == 0:
                why = "no card of it is left in play"
                holder = None
            elif len(holders) == 1 and state.hands[holders[0]][i] == in_play and not (all_cards and on_base):
                holder = holders[0]
                why = f"{names[holder]} holds every {species} card in play"
            else:
                continue
            hands = state.hands
            if holder is not None:
                hand = list(hands[holder])
                hand[i] = 0
                hands = hands[:holder] + (tuple(hand),) + hands[holder + 1:]
            bases = dict(state.bases)
            bases[species] = SPECIES_SIZE[species]
            state = state._with(hands=hands, bases=bases, extinct=state.extinct + (species,))
            events.append(Event("extinction", f"The {species} dies out: {why}; its cards go face up on its base.",
                                {"species": species, "seat": holder}, after=state))
            if holder is not None and sum(hands[holder]) == 0 and state.winner is None:
                state = state._with(winner=holder)
                events.append(Event("end", f"{names[holder]}'s hand emptied through an extinction: {names[holder]} wins.",
                                    {"winners": [holder]}, after=state))
        return state, events

    # results -----------------------------------------------------------------------------
    @property
    def scores(self):
        return tuple(-sum(h) for h in self.hands)

    @property
    def winners(self):
        return () if self.winner is None else (self.winner,)

    # views -------------------------------------------------------------------------------
    def observe(self, seat=None):
        g = self.game
        # the parts fixed for the game are built once (observe runs after every action of a
        # learning environment); each view gets its own copies
        fixed = g.__dict__.get("_fixed_view")
        if fixed is None:
            fixed = g.__dict__["_fixed_view"] = (list(g.seat_names), list(g.species),
                                                 {s: SPECIES_SIZE[s] for s in g.species}, dict(g.options))
        seats, species, sizes, options = fixed
        hand_dict = _hand_dict
        hand_sizes = [sum(h) for h in self.hands]
        bases = self.bases
        view = {
            "game": "mammuz", "players": g.players, "seats": seats[:],
            "to_move": self.to_move,
            "phase": "over" if self.winner is not None else "give" if self.pending == "give"
            else "lay" if self.laying is not None else "respond" if self.displays else "start",
            "species": species[:], "species_size": dict(sizes),
            "extinct": list(self.extinct), "claim": self.claim, "starter": self.starter,
            "hand_sizes": hand_sizes,
            "hand": None if seat is None else hand_dict(self.hands[seat]),
            "displays": [
                {"seat": s, "size": len(cards), "turned": {str(i + 1): cards[i] for i in up},
                 **({"cards": list(cards)} if seat is None or seat == s else {})}
                for s, cards, up in self.displays
            ],
            "laying": None if self.laying is None else {
                "seat": self.to_act, "species": self.laying[0], "count": len(self.laying[1]),
                **({"cards": list(self.laying[1])} if seat is None or seat == self.to_act else {})},
            "herd_size": sum(len(cards) for _, cards, _ in self.displays), "pile": len(self.pile),
            "bases": {s: bases.get(s, 0) for s in species},
            "dinosaurs_out": list(self.dinos_out),
            "turned": _turned_view(self.turned),
            "winners": list(self.winners),
            "scores": [-n for n in hand_sizes],
            "options": dict(options),
        }
        if seat is None:
            view["hands"] = [hand_dict(h) for h in self.hands]
            view["pile_cards"] = list(self.pile)
            view["dinosaurs_in_play"] = [d for d in DINOSAURS if d not in self.box]
        return view

    def vary_hidden(self, seat, rng):
        if seat is None:
            return self
        # Unseen by `seat`: other hands, unturned cards of others' displays, the pile, and which
        # dinosaurs are in play. Deal those anew into the same places, sizes kept.
        # the cards of a lay being made by another seat stay in his hand (the seat sees their
        # number only), so the varied lay is still one he can make
        keep = list(self.laying[1]) if self.laying is not None and self.to_act != seat else []
        pool = [c for s, h in enumerate(self.hands) if s != seat for c in _cards(h)]
        for c in keep:
            pool.remove(c)
        for s, cards, up in self.displays:
            if s != seat:
                pool += [c for i, c in enumerate(cards) if i not in up]
        pool += list(self.pile)
        dinos = [c for c in pool if c in DINOSAURS] + list(self.box)
        dinos, rng = rng.shuffled(dinos)
        k = sum(c in DINOSAURS for c in pool)
        pool = [c for c in pool if c not in DINOSAURS] + dinos[:k]
        box = tuple(sorted(dinos[k:], key=CARD_INDEX.__getitem__))
        pool, rng = rng.shuffled(pool)
        hands = list(self.hands)
        for s in range(self.game.players):
            if s != seat:
                n = sum(self.hands[s]) - (len(keep) if s == self.to_act else 0)
                hands[s], pool = _counts(pool[:n] + (keep if s == self.to_act else [])), pool[n:]
        displays = []
        for s, cards, up in self.displays:
            if s != seat:
                new = list(cards)
                for i in range(len(cards)):
                    if i not in up:
                        new[i], pool = pool[0], pool[1:]
                cards = tuple(new)
            displays.append((s, cards, up))
        pile = tuple(sorted(pool, key=CARD_INDEX.__getitem__))
        return self._with(hands=tuple(hands), displays=tuple(displays), pile=pile, box=box,
                          rng=rng.next64()[1].state, events=self.events)

    def setup_caption(self):
        names = self.game.seat_names
        n_species, n_dinos = SETUP[self.game.players]
        return (f"Set-up: {self.game.players} players, {n_species} species and {n_dinos} unknown dinosaurs "
                f"dealt out; {names[self.starter]} starts the first herd.")

    # serialization -----------------------------------------------------------------------
    def _payload(self):
        return {
            "hands": [_cards(h) for h in self.hands],
            "box": list(self.box), "starter": self.starter, "to_act": self.to_act, "claim": self.claim,
            "displays": [{"seat": s, "cards": list(c), "turned": list(u)} for s, c, u in self.displays],
            "pile": list(self.pile), "bases": dict(self.bases), "dinosaurs_out": list(self.dinos_out),
            "extinct": list(self.extinct),
            "turned": [[d, c, ch] for d, c, ch in self.turned], "pending": self.pending,
            "winner": self.winner, "rng": self.rng,
            "laying": None if self.laying is None else {"species": self.laying[0], "cards": list(self.laying[1])},
        }

    @classmethod
    def from_payload(cls, game, p, sub_step=False):
        """The state of payload ``p``; ``ValueError`` saying what is wrong. Every card must be in
        one place, and the state must be one play continues from: ``sub_step=True`` checks only
        the cards, for the states inside a challenge (the ``after`` of its events), which are
        drawn but never played from."""
        def need(key, kind):
            if key not in p or not isinstance(p[key], kind) or isinstance(p[key], bool) and kind is not bool:
                raise ValueError(f"mammuz state: {key!r} is missing or not a {getattr(kind, '__name__', kind)}")
            return p[key]

        P = game.players
        seat_ok = lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < P
        known = set(game.species) | set(DINOSAURS)
        # a card is a name (a string): a list or an object in its place is refused by name,
        # before any set lookup would trip over it
        is_card = lambda c, allowed=known: isinstance(c, str) and c in allowed  # noqa: E731
        seat_ok_index = lambda i, n: isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n  # noqa: E731
        hands_raw = need("hands", list)
        if len(hands_raw) != P:
            raise ValueError(f"mammuz state: {len(hands_raw)} hands for {P} players")
        for h in hands_raw:
            if not isinstance(h, list) or not all(is_card(c) for c in h):
                raise ValueError(f"mammuz state: a hand holds an unknown card: {quote(h)}")
        hands = tuple(_counts(h) for h in hands_raw)
        displays = []
        for d in need("displays", list):
            if not isinstance(d, dict) or not seat_ok(d.get("seat")) or not isinstance(d.get("cards"), list) \
                    or not 1 <= len(d["cards"]) <= 4 or not all(is_card(c) for c in d["cards"]):
                raise ValueError(f"mammuz state: bad display {quote(d)}")
            up = d.get("turned", [])
            if not isinstance(up, list) or any(not seat_ok_index(i, len(d["cards"])) for i in up) or len(set(up)) != len(up):
                raise ValueError(f"mammuz state: bad turned positions in display {quote(d)}")
            displays.append((d["seat"], tuple(d["cards"]), tuple(sorted(set(up)))))
        pile = tuple(need("pile", list))
        box = tuple(need("box", list))
        bases = need("bases", dict)
        dinos_out = tuple(need("dinosaurs_out", list))
        extinct = tuple(need("extinct", list))
        if not all(is_card(c) for c in pile) or not all(is_card(c, DINOSAURS) for c in box + dinos_out) \
                or not all(is_card(s, game.species) for s in list(bases) + list(extinct)) or len(set(extinct)) != len(extinct):
            raise ValueError("mammuz state: an unknown card in the pile, the box, the bases or the extinct list")
        # every card exactly once: hands + displays + pile + bases + dinosaurs out + box
        seen = {c: 0 for c in CARDS}
        for h in hands:
            for c, n in zip(CARDS, h):
                seen[c] += n
        for _, cards, _ in displays:
            for c in cards:
                seen[c] += 1
        for c in pile + box + dinos_out:
            seen[c] += 1
        for s, n in bases.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"mammuz state: base of {s} holds {n!r}")
            seen[s] += n
        for c in CARDS:
            want = SPECIES_SIZE[c] if c in game.species else 0 if c in SPECIES else 1
            if seen[c] != want:
                raise ValueError(f"mammuz state: {seen[c]} {c} cards found, the game has {want}")
        for s in extinct:
            if bases.get(s, 0) != SPECIES_SIZE[s]:
                raise ValueError(f"mammuz state: {s} is extinct but its base does not hold all its cards")
        if not seat_ok(p.get("starter")) or not seat_ok(p.get("to_act")):
            raise ValueError("mammuz state: 'starter' and 'to_act' must be seats")
        claim = p.get("claim")
        if claim is not None and not is_card(claim, game.species):
            raise ValueError(f"mammuz state: claim {quote(claim)} is no species of this game")
        if (claim is None) != (not displays) or (claim is not None and claim in extinct):
            raise ValueError(f"mammuz state: claim {quote(claim)} does not fit the displays")
        turned = p.get("turned", [])
        if not isinstance(turned, list) or any(
            not isinstance(t, list) or len(t) != 3 or not seat_ok(t[0]) or not is_card(t[1]) or not seat_ok(t[2])
            for t in turned
        ):
            raise ValueError("mammuz state: 'turned' must be a list of [displayer, card, challenger]")
        pending = p.get("pending")
        if pending is not None and pending != "give":
            raise ValueError(f"mammuz state: unknown pending decision {quote(pending)}")
        winner = p.get("winner")
        if winner is not None and not seat_ok(winner):
            raise ValueError(f"mammuz state: winner {quote(winner)} is not a seat")
        rng = p.get("rng")
        if not isinstance(rng, int) or isinstance(rng, bool) or rng < 0:
            raise ValueError("mammuz state: 'rng' must be an int (not negative)")
        starter, to_act = p["starter"], p["to_act"]
        names = game.seat_names
        if not sub_step:  # a sub-step inside a challenge is drawn, never played from: only its cards
            # a challenge turns one card and settles the herd at once, but for a Triceratops, which
            # waits for the challenger to give the herd
            ups = [(i, up) for i, (_, _, up) in enumerate(displays) if up]
            if pending == "give":
                last_seat, last_cards, last_up = displays[-1] if displays else (None, (), ())
                if winner is not None or ups != [(len(displays) - 1, last_up)] or len(last_up) != 1 \
                        or last_cards[last_up[0]] != "triceratops" or not turned \
                        or tuple(turned[-1]) != (last_seat, "triceratops", to_act):
                    raise ValueError("mammuz state: a herd is to be given only after a challenge turned a Triceratops "
                                     "in the last display (the last turned card, the challenger to act)")
            elif ups:
                raise ValueError("mammuz state: a display has a turned card, but no Triceratops waits to be given "
                                 "(any other turned card settles the herd at once)")
            if winner is None:
                # only the last displayer may hold no card (he laid his last ones and awaits the challenge)
                for s_ in range(P):
                    if not sum(hands[s_]) and not (displays and displays[-1][0] == s_):
                        raise ValueError(f"mammuz state: {names[s_]} holds no card and the game is not over "
                                         "(an empty hand wins once the herd it laid is settled)")
            elif sum(hands[winner]) and [s_ for s_ in game.species if s_ not in extinct]:
                raise ValueError(f"mammuz state: {names[winner]} won but holds cards while a species still lives")
        state = cls(game, hands=hands, box=tuple(sorted(box, key=CARDS.index)), starter=starter,
                    to_act=to_act, claim=claim, displays=tuple(displays), pile=tuple(sorted(pile, key=CARDS.index)),
                    bases={s: n for s, n in bases.items() if n}, dinos_out=tuple(sorted(dinos_out, key=CARDS.index)),
                    extinct=extinct, turned=tuple(tuple(t) for t in turned), pending=pending, winner=winner, rng=rng)
        state.laying = state._laying_from_payload(p.get("laying"))
        return state

    def _laying_from_payload(self, raw):
        """The lay being made, checked against the position (``ValueError`` if it cannot be)."""
        if raw is None:
            return None
        names = self.game.seat_names
        if not isinstance(raw, dict) or set(raw) != {"species", "cards"} or not isinstance(raw["cards"], list) \
                or not all(isinstance(c, str) and c in CARD_INDEX for c in raw["cards"]):
            raise ValueError(f"mammuz state: 'laying' must be null or {{'species', 'cards'}}, got {raw!r}"[:200])
        species, cards = raw["species"], tuple(sorted(raw["cards"], key=CARD_INDEX.__getitem__))
        if self.winner is not None or self.pending is not None:
            raise ValueError("mammuz state: a lay is being made although the game is over or a herd awaits its taker")
        if self.displays and not any(self.hands[self.displays[-1][0]]):
            raise ValueError("mammuz state: a lay is being made although the last display must be challenged")
        if self.displays and species != self.claim or not self.displays and (
                species not in self.game.species or species in self.extinct):
            raise ValueError(f"mammuz state: the lay being made claims {species!r}, which cannot be claimed here")
        if len(cards) > 3 or not cards and self.displays:
            raise ValueError("mammuz state: a lay being made holds 0–3 cards (1–3 when expanding; four close it)")
        hand = self.hands[self.to_act]
        if any(hand[CARD_INDEX[c]] < cards.count(c) for c in cards) or not any(hand):
            raise ValueError(f"mammuz state: {names[self.to_act]} does not hold the cards of the lay being made")
        return species, cards


def _last_is_final(events: list) -> list:
    """The last sub-step of an action shows the action's final state."""
    if events and events[-1].after is not None:
        e = events[-1]  # a new Event: dataclasses.replace is slow on this hot path
        events[-1] = Event(e.kind, e.text, e.data, None, e.seats, e.public_text, e.public_data)
    return events

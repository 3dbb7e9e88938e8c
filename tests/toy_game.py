"""A tiny game for testing the core: "Fifteen", with a shuffled deck, hidden hands and
automatic consequences. Each seat holds 2 hidden cards (values 1–6). On a turn a seat plays
one card to a public pile, then draws one (hidden) from the deck. When the pile's total
exceeds 15 it busts: the player who busted it scores a point against him and the pile clears.
The game ends when every hand is empty; fewest points win.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabletop_widgets.core import Event, Game, Option, Rng, State, register


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self):
        return f"play {self.card}"


@register
class Fifteen(Game):
    name = "toy-fifteen"
    min_players, max_players, default_players = 2, 4, 2
    OPTIONS = {"limit": Option(15, (10, 15, 20), "the pile busts above this total")}

    def new_state(self, seed=0):
        rng = Rng.from_seed(seed)
        deck, rng = rng.shuffled([v for v in range(1, 7) for _ in range(3)])
        hands = tuple(tuple(sorted(deck[2 * i: 2 * i + 2])) for i in range(self.players))
        return FifteenState(self, hands, tuple(deck[2 * self.players:]), (), (0,) * self.players, 0, rng.state)

    def _state_from_payload(self, p):
        try:
            hands = tuple(tuple(h) for h in p["hands"])
            state = FifteenState(self, hands, tuple(p["deck"]), tuple(p["pile"]), tuple(p["points"]),
                                 p["turn"], p["rng"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"bad toy-fifteen state: {exc}") from None
        if len(hands) != self.players:
            raise ValueError("one hand per seat")
        return state

    def action_catalogue(self):
        return tuple(str(Play(v)) for v in range(1, 7))

    def observation_size(self):
        return 6 + 2 * self.players + 4

    def observation_vector(self, observation, seat):
        # The seat's own hand as counts of each value, then every seat's hand size and points
        # starting from the viewer (so a learner sees itself first), then the shared table.
        hand = observation["hands"][seat] or []
        vector = [hand.count(v) for v in range(1, 7)]
        for i in range(self.players):
            s = (seat + i) % self.players
            vector += [observation["hand_sizes"][s], observation["points"][s]]
        pile = observation["pile"]
        return vector + [observation["deck_size"], sum(pile), len(pile), float(observation["to_move"] == seat)]


class FifteenState(State):
    def __init__(self, game, hands, deck, pile, points, turn, rng, events=()):
        self.game, self.hands, self.deck, self.pile = game, hands, deck, pile
        self.points, self.turn, self.rng, self.events = points, turn, rng, events

    @property
    def to_move(self):
        return None if all(not h for h in self.hands) else self.turn

    def legal_actions(self):
        if self.to_move is None:
            return []
        return [Play(c) for c in sorted(set(self.hands[self.turn]))]

    def _apply(self, action):
        seat = self.turn
        hand = list(self.hands[seat])
        hand.remove(action.card)
        pile = self.pile + (action.card,)
        points = list(self.points)
        played = FifteenState(self.game, self._with(seat, tuple(hand)), self.deck, pile, self.points, seat, self.rng)
        events = [Event("play", f"Seat {seat} plays a {action.card}.", {"card": action.card}, after=played)]
        if sum(pile) > self.game.options["limit"]:
            points[seat] += 1
            pile = ()
            events.append(Event("bust", f"The pile busts above {self.game.options['limit']}: a point against seat {seat}.",
                                {"seat": seat}, after=FifteenState(self.game, played.hands, self.deck, (), tuple(points), seat, self.rng)))
        deck = self.deck
        if deck:
            hand.append(deck[0])
            deck = deck[1:]
            events.append(Event("draw", f"Seat {seat} draws a {hand[-1]}.", {"card": hand[-1]}, seats=(seat,),
                                public_text=f"Seat {seat} draws a card.", public_data={}))
        # The last sub-step shows the final state (whose turn it is next included).
        events[-1] = replace(events[-1], after=None)
        nxt = (seat + 1) % self.game.players
        for _ in range(self.game.players):
            if self._with(seat, tuple(sorted(hand)))[nxt]:
                break
            nxt = (nxt + 1) % self.game.players
        return FifteenState(self.game, self._with(seat, tuple(sorted(hand))), deck, pile, tuple(points), nxt,
                            self.rng, tuple(events))

    def vary_hidden(self, seat, rng):
        # The other hands and the deck are unknown to `seat`: deal them anew, sizes kept.
        unseen = [c for s, h in enumerate(self.hands) if s != seat for c in h] + list(self.deck)
        if seat is None:
            return self
        unseen, _ = rng.shuffled(unseen)
        hands = []
        for s, h in enumerate(self.hands):
            if s == seat:
                hands.append(h)
            else:
                hands.append(tuple(sorted(unseen[: len(h)])))
                unseen = unseen[len(h):]
        return FifteenState(self.game, tuple(hands), tuple(unseen), self.pile, self.points, self.turn, self.rng)

    def _with(self, seat, hand):
        return self.hands[:seat] + (hand,) + self.hands[seat + 1:]

    def observe(self, seat=None):
        return {
            "hands": [list(h) if seat is None or s == seat else None for s, h in enumerate(self.hands)],
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "pile": list(self.pile),
            "points": list(self.points),
            "to_move": self.to_move,
        }

    def _payload(self):
        return {"hands": [list(h) for h in self.hands], "deck": list(self.deck), "pile": list(self.pile),
                "points": list(self.points), "turn": self.turn, "rng": self.rng}

    @property
    def scores(self):
        return tuple(-p for p in self.points)

    @property
    def winners(self):
        if not self.is_over:
            return ()
        best = min(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == best)

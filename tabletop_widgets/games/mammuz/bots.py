"""MammuZ bots. They see only their observation and the legal actions.

The legal actions offer a lay one decision at a time (``claim``, ``add``, ``done``); a bot
answers a turn with one action, so these bots answer with a whole :class:`Lay` when they
lay, and a lay stays one step of the timeline.
"""

from __future__ import annotations

from ...core.bots import Bot, register_bot
from .rules import CARDS, DINOSAURS, SPECIES, AddCard, Challenge, Claim, GiveHerd, Lay

_ORDER = {c: i for i, c in enumerate(CARDS)}


def _lay(species: str, cards) -> Lay:
    return Lay(species, tuple(sorted(cards, key=_ORDER.__getitem__)))


class RandomLays(Bot):
    """Uniformly random decisions, as a random walk over the legal decisions would make them,
    composed into one whole lay (the timeline then shows one step per lay)."""

    def choose(self, observation, legal_actions):
        choice = self._pick(legal_actions)
        if observation is None or observation.get("laying") or not isinstance(choice, (Claim, AddCard)):
            return choice
        left = dict(observation["hand"] or {})
        species = choice.species if isinstance(choice, Claim) else observation["claim"]
        cards = []
        if isinstance(choice, AddCard):
            cards.append(choice.card)
            left[choice.card] -= 1
        while len(cards) < 4:
            options = [c for c in CARDS if left.get(c)] + (["done"] if cards else [])
            card = self._pick(options)
            if card == "done":
                break
            cards.append(card)
            left[card] -= 1
        return _lay(species, cards)


class Skeptic(Bot):
    """Counts every card its seat has seen and challenges a display that is impossible or
    improbable; otherwise lays four cards, true ones first.

    The unknown cards of the claimed species are those not in its hand, not among its own
    face-down cards of the herd, not turned face up and not on the base (extinctions and
    Tyrannosaurus). They lie spread over the other hands, the others' face-down cards and the
    pile; the displayer laid from a hand of his present size plus his display, true cards
    first. A display of a species with no unknown card is a lie for sure (chance 0).
    """

    # Tuned on seeded 4-player games against random seats and the previous skeptic: doubt a
    # display whose turned card shows the claim with less than this chance, more readily the
    # bigger the herd and when there is no true card to expand with.
    doubt = 0.4
    per_card = 0.02
    no_true = 0.4
    chosen = 1.3  # a starter names the species he holds most of: more true cards
    kept = 0.5  # how much of what another seat took it still holds (he may have laid it since)

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._claims = {}  # turned-card record index → the claim of the round it settled

    def choose(self, observation, legal_actions):
        o = observation
        me = o["to_move"]
        self._remember(o)
        hand = {c: n for c, n in (o["hand"] or {}).items() if n}
        gives = [a for a in legal_actions if isinstance(a, GiveHerd)]
        if gives:
            # The herd to whoever is closest to winning (fewest cards), never to itself.
            sizes = o["hand_sizes"]
            return min((a for a in gives if a.seat != me), key=lambda a: (sizes[a.seat], a.seat))
        if o.get("laying"):  # a lay begun one decision at a time: close it at once
            done = [a for a in legal_actions if str(a) == "done"]
            return done[0] if done else legal_actions[0]
        challenges = [a for a in legal_actions if isinstance(a, Challenge)]
        can_lay = any(isinstance(a, (Claim, AddCard)) for a in legal_actions)
        if not can_lay:
            return self._pick(challenges or legal_actions)
        claims = [a.species for a in legal_actions if isinstance(a, Claim)] or [o["claim"]]
        if challenges:
            doubt = self.doubt + self.per_card * o["herd_size"] + (0 if hand.get(o["claim"]) else self.no_true)
            if self._chance_true(o, hand) < doubt:
                return self._pick(challenges)
        return self._lay(o, hand, claims)

    def _remember(self, o):
        """Note the claim of the round in progress: once a card of it is turned, who took the
        herd (and that card) follows from the card and the claim."""
        n = len(o["turned"])
        if any(k > n for k in self._claims):  # a new game: the record of turned cards restarted
            self._claims.clear()
        if o["claim"] is not None:
            self._claims[n] = o["claim"]

    def _taken(self, o) -> dict:
        """Species cards seen turned and taken into another seat's hand: {seat: {card: n}}."""
        me, out = o["to_move"], {}
        for i, t in enumerate(o["turned"]):
            claim, card = self._claims.get(i), t["card"]
            if claim is None or card not in SPECIES:
                continue
            taker = t["challenger"] if card == claim else t["displayer"]
            if taker != me:
                out.setdefault(taker, {})
                out[taker][card] = out[taker].get(card, 0) + 1
        return out

    def _unknown(self, o, hand, species) -> int:
        """How many cards of ``species`` may lie where this seat cannot see."""
        me = o["to_move"]
        known = hand.get(species, 0) + o["bases"].get(species, 0)
        for d in o["displays"]:
            if d["seat"] == me:
                known += sum(c == species for c in d.get("cards", []))
            else:
                known += sum(c == species for c in d["turned"].values())
        return max(0, o["species_size"][species] - known)

    def _chance_true(self, o, hand) -> float:
        """The chance that a card turned from the last display shows the claimed species."""
        me, last = o["to_move"], o["displays"][-1]
        unknown = self._unknown(o, hand, o["claim"])
        if unknown == 0:
            return 0.0
        slots = o["pile"] + sum(n for s, n in enumerate(o["hand_sizes"]) if s != me)
        slots += sum(d["size"] - len(d["turned"]) for d in o["displays"] if d["seat"] != me)
        # Cards of the species it saw turned and taken: in the displayer's hand they make the
        # claim likelier, in another hand they are not in the display (unless laid since).
        taken = self._taken(o)
        mine = taken.get(last["seat"], {}).get(o["claim"], 0)
        elsewhere = sum(cards.get(o["claim"], 0) for seat, cards in taken.items() if seat != last["seat"])
        spread = max(0, unknown - mine - elsewhere * self.kept)
        held = min(unknown, mine + spread * (o["hand_sizes"][last["seat"]] + last["size"]) / max(1, slots))
        if len(o["displays"]) == 1:
            held *= self.chosen
        return min(1.0, held / last["size"])

    def _lay(self, o, hand, claims) -> Lay:
        """Four cards (or all it holds): the claimed species first, then lies, dinosaurs
        first (they can be shed no other way)."""
        species = max(claims, key=lambda s: (min(4, hand.get(s, 0)), -o["species_size"][s]))
        true = min(4, hand.get(species, 0))
        cards = [species] * true
        left = dict(hand)
        left[species] = left.get(species, 0) - true
        while len(cards) < min(4, sum(hand.values())):
            junk = next((c for c in DINOSAURS if left.get(c)), None) or min(
                (c for c in SPECIES if left.get(c)), key=lambda c: (c == species, left[c], _ORDER[c]))
            cards.append(junk)
            left[junk] -= 1
        return _lay(species, cards)


register_bot("mammuz", "random", RandomLays)
register_bot("mammuz", "skeptic", Skeptic)

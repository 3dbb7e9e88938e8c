"""MammuZ bots. They see only their observation and the legal actions."""

from __future__ import annotations

from ...core.bots import Bot, register_bot
from .rules import DINOSAURS, Challenge, GiveHerd, Lay


class Skeptic(Bot):
    """Tells the truth when it can, and challenges a claim that cannot be true or is unlikely.

    A claim is impossible when the claimed cards of the species plus the ones the bot holds
    and the ones on the base exceed how many exist; it is likely a lie when the herd is big.
    """

    def choose(self, observation, legal_actions):
        me = observation["to_move"]
        hand = observation["hand"] or {}
        gives = [a for a in legal_actions if isinstance(a, GiveHerd)]
        if gives:
            # Give the herd to the player with the fewest cards: he is closest to winning.
            sizes = observation["hand_sizes"]
            others = [a for a in gives if a.seat != me]
            return min(others, key=lambda a: (sizes[a.seat], a.seat))
        challenges = [a for a in legal_actions if isinstance(a, Challenge)]
        lays = [a for a in legal_actions if isinstance(a, Lay)]
        if challenges and (not lays or self._doubt(observation, hand)):
            return self._pick(challenges)
        if not lays:
            return self._pick(legal_actions)
        return self._lay(observation, hand, lays)

    def _doubt(self, observation, hand) -> bool:
        claim = observation["claim"]
        claimed = sum(d["size"] for d in observation["displays"])
        exists = observation["species_size"][claim]
        known_elsewhere = hand.get(claim, 0) + observation["bases"].get(claim, 0)
        last = observation["displays"][-1]
        if claimed - sum(1 for c in last.get("cards", []) if c == claim) + known_elsewhere > exists:
            return True
        if observation["hand_sizes"][last["seat"]] == 0:
            return True
        return claimed + known_elsewhere > exists or (claimed >= 6 and self._pick([True, False, False]))

    def _lay(self, observation, hand, lays):
        # Shed as many cards as possible, true ones first: a display of four with one lie
        # sheds more than one honest card and is rarely worse off when challenged.
        def truth(a):
            return sum(c == a.species for c in a.cards)

        return max(lays, key=lambda a: (len(a.cards), truth(a), -sum(c in DINOSAURS for c in a.cards)))


register_bot("mammuz", "skeptic", Skeptic)

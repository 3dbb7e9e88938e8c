"""The MammuZ ``skeptic`` as it was before it counted what it saw: the yardstick of the
bot-strength test. It judges a claim by its displays' sizes, ignores the turned cards, and
chooses among every whole lay its hand allows (as the engine once listed them)."""

from tabletop_widgets.core.bots import Bot
from tabletop_widgets.games.mammuz.rules import CARDS, DINOSAURS, Challenge, Claim, GiveHerd, Lay


def every_lay(hand: dict, claims) -> list:
    """Every lay of 1–4 cards of ``hand`` for each claim, cards in card order."""
    counts = [hand.get(c, 0) for c in CARDS]
    multisets = []

    def grow(start, chosen, left):
        if chosen:
            multisets.append(tuple(chosen))
        if left:
            for i in range(start, len(CARDS)):
                if counts[i] > chosen.count(CARDS[i]):
                    chosen.append(CARDS[i])
                    grow(i, chosen, left - 1)
                    chosen.pop()

    grow(0, [], 4)
    return [Lay(s, cards) for s in claims for cards in multisets]


class PreviousSkeptic(Bot):
    def choose(self, observation, legal_actions):
        me = observation["to_move"]
        hand = observation["hand"] or {}
        gives = [a for a in legal_actions if isinstance(a, GiveHerd)]
        if gives:
            sizes = observation["hand_sizes"]
            others = [a for a in gives if a.seat != me]
            return min(others, key=lambda a: (sizes[a.seat], a.seat))
        challenges = [a for a in legal_actions if isinstance(a, Challenge)]
        claims = [a.species for a in legal_actions if isinstance(a, Claim)]
        can_lay = len(challenges) < len(legal_actions)
        lays = every_lay(hand, claims or [observation["claim"]]) if can_lay else []
        if challenges and (not lays or self._doubt(observation, hand)):
            return self._pick(challenges)
        if not lays:
            return self._pick(legal_actions)
        truth = lambda a: sum(c == a.species for c in a.cards)
        return max(lays, key=lambda a: (len(a.cards), truth(a), -sum(c in DINOSAURS for c in a.cards)))

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

"""Mamba bots. ``tw.bots.Random`` plays every game; :class:`GreedyBot` looks one action ahead.

A bot sees only the observation and the legal actions. Mamba hides nothing, so the
observation's ``position`` (with its ``options``) rebuilds the whole state, on which the bot
tries each legal action with the full cascade.
"""

from __future__ import annotations

from ...core.bots import Bot, register_bot
from ...core.game import make

__all__ = ["GreedyBot"]

WIN = 1_000_000


class GreedyBot(Bot):
    """Plays the action that leaves it the most stones against its strongest opponent.

    Each legal action is played out with its whole cascade; a win scores highest and a loss
    lowest, otherwise ``own stones − strongest opponent's``. A pending trim is scored as it
    stands. Ties are broken by the bot's seeded generator, so a seed replays the same game.

    >>> import tabletop_widgets as tw
    >>> state = tw.make("mamba").new_state()
    >>> bot = GreedyBot(seed=1)
    >>> str(bot.choose(state.observe(0), state.legal_actions())) in map(str, state.legal_actions())
    True
    """

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._games: dict = {}

    def _game(self, observation):
        key = (observation["players"], tuple(sorted(observation["options"].items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = make("mamba", players=observation["players"], **observation["options"])
        return game

    def choose(self, observation, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = observation["to_move"]
        state = self._game(observation).position(observation["position"])
        best, best_score = [], None
        for action in legal_actions:
            score = self._score(*state._outcome(action), seat)
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self._pick(best)

    @staticmethod
    def _score(counts, winners, seat) -> int:
        if winners is not None:
            return WIN if seat in winners else -WIN
        return counts[seat] - max(c for s, c in enumerate(counts) if s != seat)


register_bot("mamba", "greedy", GreedyBot)

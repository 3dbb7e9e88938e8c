"""Bots: players that see only ``state.observe(seat)`` and the legal actions."""

from __future__ import annotations

from typing import Optional

from .rng import Rng, below_state

_BOTS: dict[str, dict[str, type]] = {}


class Bot:
    """A player: ``choose(observation, legal_actions) -> action``. Nothing else is given to it.

    A bot that never reads its observation says so with ``reads_observation = False``: the
    drivers (``Match.autoplay``, ``tw.simulate``) then pass ``None`` instead of building one,
    which is most of the cost of a random playout's step.
    """

    reads_observation = True

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rng_state = Rng.from_seed(seed, stream=7).state  # the bare state: a draw per action

    def choose(self, observation: dict, legal_actions: list):
        raise NotImplementedError

    def _pick(self, items):
        """One of ``items`` (``Rng.choice`` of the bot's generator), the generator moved on."""
        if not items:
            raise ValueError("a bot needs at least one legal action to choose from")
        i, self._rng_state = below_state(self._rng_state, len(items))
        return items[i]

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"


class Random(Bot):
    """Plays a uniformly random legal action, from its own seeded generator."""

    reads_observation = False

    def choose(self, observation, legal_actions):
        # The draw itself (Bot._pick without its check and call): a playout asks for one each
        # action; an empty list goes to _pick, which says so.
        if not legal_actions:
            return self._pick(legal_actions)
        i, self._rng_state = below_state(self._rng_state, len(legal_actions))
        return legal_actions[i]


def observation_for(bot, state, seat):
    """What ``bot`` is shown at ``seat``: the seat's observation, or ``None`` for a bot that
    does not read it.

    A view is read-only and shares its parts with other views and the match's frames. The
    package's bots only read it; a bot written elsewhere gets a copy of its own, so one that
    edits what it is given (pops a list, marks a dict) changes nothing of the game."""
    if not getattr(bot, "reads_observation", True):
        return None
    view = state.observe(seat)
    if type(bot).__module__.partition(".")[0] == __name__.partition(".")[0]:
        return view
    return _own_copy(view)


def _own_copy(value):
    """A copy of a JSON-like value sharing no dict or list with it (tuples are copied too, as
    they may hold dicts)."""
    if isinstance(value, dict):
        return {k: _own_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return list(map(_own_copy, value))
    if type(value) is tuple:
        return tuple(map(_own_copy, value))
    return value


def register_bot(game_name: str, bot_name: str, cls: type) -> type:
    _BOTS.setdefault(game_name, {"random": Random})[bot_name] = cls
    return cls


def for_game(name: str) -> dict[str, type]:
    """The bots that play ``name``: a dict of bot name → class (always with ``"random"``)."""
    from .game import game_class

    game_class(name)  # ValueError for an unknown game
    return dict(_BOTS.get(name, {"random": Random}))


def resolve_bots(game_name: str, bots: Optional[dict], seed: int = 0) -> dict[int, Bot]:
    """``{seat: bot or bot name}`` → ``{seat: Bot}``; names come from :func:`for_game`."""
    if not bots:
        return {}
    if not isinstance(bots, dict):
        raise ValueError("bots must be a dict {seat: bot or bot name}")
    table = {}
    available = for_game(game_name)
    for seat, bot in bots.items():
        if isinstance(bot, str):
            if bot not in available:
                raise ValueError(f"unknown bot {bot!r} for {game_name}; the bots are {', '.join(available)}")
            bot = available[bot](seed=seed + 1000 * (seat if isinstance(seat, int) else 0))
        if not hasattr(bot, "choose"):
            raise ValueError(f"bot for seat {seat!r} has no choose() method")
        table[seat] = bot
    return table

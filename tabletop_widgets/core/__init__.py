"""The shared core: games, states, events, the timeline, bots. It imports no game."""

from .bots import Bot, Random, for_game, register_bot
from .errors import IllegalAction, ReplayError
from .events import Event
from .game import Game, Option, Playout, State, game_class, make, register, registered
from .match import Frame, Match
from .rng import Rng

__all__ = [
    "Bot", "Event", "Frame", "Game", "IllegalAction", "Match", "Option", "Playout", "Random", "ReplayError",
    "Rng", "State", "for_game", "game_class", "make", "register", "register_bot", "registered",
]

"""``tw.bots``: the random bot for every game and each game's stronger bots."""

from .core.bots import Bot, Random, for_game, register_bot, resolve_bots

__all__ = ["Bot", "Random", "for_game", "register_bot", "resolve_bots"]

"""Jupyter-native widgets and pure-Python engines for Mamma Mia!, Mamba and MammuZ.

>>> import tabletop_widgets as tw
>>> m = tw.Match("mamba", seed=1)
"""

from . import bots
from .core import Event, Frame, Game, IllegalAction, Match, ReplayError, State, make
from .core.game import registered
from . import games  # noqa: F401  (registers every game)
from . import html

__version__ = "0.1.0"

# The four games of the project, in this order; games registered later follow.
_OWN_GAMES = ("mamba", "mamma-mia", "mamma-mia-plus", "mammuz")


def _games() -> tuple:
    names = registered()
    return tuple(n for n in _OWN_GAMES if n in names) + tuple(n for n in names if n not in _OWN_GAMES)


def widget(match_or_game, seat=None, bots=None, **kwargs):
    """The right widget for the game of ``match_or_game`` (a Match, a Game or a game name)."""
    from .widgets import widget as _widget

    return _widget(match_or_game, seat=seat, bots=bots, **kwargs)


def __getattr__(name):
    # `tw.GAMES` is read from the registry each time, so a game registered after import
    # (a user's own, a test's toy game) is listed too.
    if name == "GAMES":
        return _games()
    # Widgets import anywidget; keep the engines importable where no Jupyter is installed.
    if name in ("MambaWidget", "MammaMiaWidget", "MammuzWidget", "GameWidget"):
        from . import widgets

        return getattr(widgets, name)
    if name == "simulate":
        from .analysis import simulate

        return simulate
    raise AttributeError(f"module 'tabletop_widgets' has no attribute {name!r}")


__all__ = [
    "GAMES", "Event", "Frame", "Game", "IllegalAction", "Match", "ReplayError", "State",
    "bots", "html", "make", "widget", "MambaWidget", "MammaMiaWidget", "MammuzWidget", "simulate",
]

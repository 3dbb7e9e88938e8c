"""``tw.widget(...)``: the right widget for a game. Widget classes are imported on first use,
so the engines stay importable where anywidget is not installed."""

from __future__ import annotations

import importlib
from typing import Optional, Union

from .core.game import Game, game_class
from .core.match import Match

# game name → (module, class). Games without an entry use the generic GameWidget.
_WIDGETS = {
    "mamba": ("tabletop_widgets.games.mamba.widget", "MambaWidget"),
    "mamma-mia": ("tabletop_widgets.games.mamma_mia.widget", "MammaMiaWidget"),
    "mamma-mia-plus": ("tabletop_widgets.games.mamma_mia.widget", "MammaMiaWidget"),
    "mammuz": ("tabletop_widgets.games.mammuz.widget", "MammuzWidget"),
}
_CLASSES = {cls: module for module, cls in _WIDGETS.values()}


def _game_name(match_or_game) -> str:
    if isinstance(match_or_game, Match):
        return match_or_game.game.name
    if isinstance(match_or_game, Game):
        return match_or_game.name
    if isinstance(match_or_game, str):
        game_class(match_or_game)  # ValueError naming the games for an unknown name
        return match_or_game
    raise ValueError(f"tw.widget needs a Match, a Game or a game name, got {match_or_game!r}")


def widget_class(name: str) -> type:
    """The widget class that draws game ``name`` (the generic ``GameWidget`` if it has none)."""
    entry = _WIDGETS.get(name)
    if entry is not None:
        module_name, class_name = entry
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            # Only a game whose widget module does not exist falls back; other import
            # errors are real bugs and propagate.
            if exc.name != module_name:
                raise
        else:
            return getattr(module, class_name)
    from .core.widget import GameWidget

    return GameWidget


def widget(match_or_game: Union[Match, Game, str], seat: Optional[int] = None, bots: Optional[dict] = None, **kwargs):
    """The widget for ``match_or_game`` (a Match, a Game or a game name).

    ``seat=None`` is the all-seeing teaching view, an int one player's view;
    ``bots={1: "random"}`` lets bots answer for those seats; ``lock_seat=True`` keeps the
    browser from changing the viewing seat (a player's own screen); ``settings={...}``;
    ``frame=(step, sub)`` opens on that frame; ``replay=True`` steps through a recorded game
    without ever playing; ``seats=[0, 2]`` (with bots for the other seats) is pass-and-play.
    """
    return widget_class(_game_name(match_or_game))(match_or_game, seat=seat, bots=bots, **kwargs)


def __getattr__(name):
    if name == "GameWidget":
        from .core.widget import GameWidget

        return GameWidget
    if name in _CLASSES:
        return getattr(importlib.import_module(_CLASSES[name]), name)
    raise AttributeError(f"module 'tabletop_widgets.widgets' has no attribute {name!r}")


__all__ = ["GameWidget", "MambaWidget", "MammaMiaWidget", "MammuzWidget", "widget", "widget_class"]

"""Mamma Mia! classic and Plus: rules, decks, bots and widget.

Importing this package registers the games ``"mamma-mia"`` and ``"mamma-mia-plus"`` and their
bots; the widget lives in ``widget.py`` and is imported only by ``tabletop_widgets.widgets``.
"""

from . import bots, rules  # noqa: F401  (registration)
from .rules import MammaMia, MammaMiaPlus, MammaMiaState, OrderCard, load_deck
from .scenario import position

__all__ = ["MammaMia", "MammaMiaPlus", "MammaMiaState", "OrderCard", "load_deck", "position", "rules", "bots"]

"""Mamba (Christophe Berg): rules, notation, bots and widget."""

from . import rules  # noqa: F401  (registers the game "mamba")
from . import bots  # noqa: F401  (registers its bots)
from .rules import Birth, Mamba, MambaState, Move, Trim

__all__ = ["Birth", "Mamba", "MambaState", "Move", "Trim"]

"""MammuZ: rules, bots and widget."""

from . import bots, rules  # noqa: F401  (registration)

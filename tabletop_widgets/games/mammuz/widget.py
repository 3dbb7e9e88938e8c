"""``MammuzWidget``: the MammuZ card table on the shared timeline.

Thin: the frames are the match's, as the viewing seat sees them (its own hand and its own
displays face up, every other card a back unless a challenge turned it). Laying, challenging
and the Triceratops choice are ordinary ``play`` messages in the engine's notation
(``lay hare: hare hare gopher``, ``challenge 2``, ``give 1``), checked by the engine.
"""

from __future__ import annotations

from tabletop_widgets.core.widget import STATIC, GameWidget


class MammuzWidget(GameWidget):
    """The MammuZ table: ``MammuzWidget(match, seat=None, bots=None, settings=None)``.

    ``seat=None`` is the all-seeing teaching view (every hand and display face up);
    ``seat=s`` shows only what seat ``s`` may know. ``bots={1: "skeptic", 2: "random"}``.
    ``settings={"animate": False}`` shows each step's end at once instead of its sub-steps.
    """

    GAMES = ("mammuz",)
    _esm = STATIC / "mammuz.js"


__all__ = ["MammuzWidget"]

"""``MammaMiaWidget``: the card table of Mamma Mia! (classic and Plus) on the shared timeline.

Thin: the frames are the match's, as the viewing seat sees them. The one addition is the
``tally`` display switch in ``settings`` (off by default, because remembering the oven is the
game): the browser sums the oven's public log itself and draws the tally at once, so the switch
changes no frame and never waits for the kernel. The browser flips it through ``settings``
(``{"type": "tally", "on": bool}`` is accepted too); ``w.tally = True`` from Python.
"""

from __future__ import annotations

from tabletop_widgets.core.errors import quote
from tabletop_widgets.core.widget import STATIC, GameWidget


class MammaMiaWidget(GameWidget):
    """The Mamma Mia! card table: ``MammaMiaWidget(match, seat=None, bots=None, settings=None)``.

    ``settings={"tally": True}`` shows the oven's tally (a teaching aid).
    """

    GAMES = ("mamma-mia", "mamma-mia-plus")
    SETTINGS = {**GameWidget.SETTINGS, "tally": bool}  # the browser may switch the tally
    _esm = STATIC / "mamma_mia.js"

    def __init__(self, match_or_game, seat=None, bots=None, settings=None, **kwargs):
        settings = dict(self._checked_settings(settings) or {})  # the tally's type is checked there
        settings.setdefault("tally", False)
        super().__init__(match_or_game, seat=seat, bots=bots, settings=settings, **kwargs)

    @property
    def tally(self) -> bool:
        """Whether the oven's tally is shown (a display switch; the game is unchanged)."""
        return bool(self.settings.get("tally", False))

    @tally.setter
    def tally(self, on: bool):
        if not isinstance(on, bool):
            raise ValueError(f"tally must be True or False, got {on!r}")
        self.settings = dict(self.settings, tally=on)

    # browser messages ------------------------------------------------------------------------
    def _on_game_message(self, msg: dict) -> bool:
        if msg["type"] != "tally":
            return False
        on = msg.get("on")
        if not isinstance(on, bool):
            raise ValueError(f"'on' of a tally message must be true or false, got {quote(on)}; nothing changed.")
        self.tally = on
        self._send_legal()  # every browser message is answered with the legal actions
        return True


__all__ = ["MammaMiaWidget"]

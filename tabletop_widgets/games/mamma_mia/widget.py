"""``MammaMiaWidget``: the card table of Mamma Mia! (classic and Plus) on the shared timeline.

Thin: the frames are the match's, as the viewing seat sees them. The one addition is the
``tally`` display switch in ``settings`` (off by default, because remembering the oven is the
game): when on, every frame's view carries the engine's per-kind tally of the oven's public
log (``state.observe(seat, tally=True)``). The browser toggles it with ``{"type": "tally",
"on": bool}``; the frames are then sent again from the start, so stepping back shows the tally
of each earlier moment too.
"""

from __future__ import annotations

import traitlets

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
        settings = dict(settings or {})
        settings.setdefault("tally", False)
        if not isinstance(settings["tally"], bool):
            raise ValueError(f"settings['tally'] must be True or False, got {settings['tally']!r}")
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

    @traitlets.observe("settings")
    def _settings_changed(self, change):
        old = bool((change["old"] or {}).get("tally", False))
        new = bool((change["new"] or {}).get("tally", False))
        if old != new and self._match is not None:
            # The views themselves change: redraw the current frame and resend the timeline.
            self._sync_cursor()
            self._send_all(goto=False)

    # frames with the tally --------------------------------------------------------------------
    def _states_of_step(self, step: int) -> list:
        """The states after each sub-step of ``step``, aligned with ``frames_of_step``."""
        state = self._match.state_at(step)
        if step == 0 or not state.events:
            return [state]
        return [e.after if e.after is not None else state for e in state.events]

    def _with_tally(self, step: int, frames: list[dict]) -> list[dict]:
        if not self.tally:
            return frames
        states = self._states_of_step(step)
        if len(states) != len(frames):  # cannot happen with the core's Match; keep the plain views
            return frames
        out = []
        for frame, state in zip(frames, states):
            out.append(dict(frame, view=state.observe(self.seat, tally=True)))
        return out

    def _frames_of(self, step: int) -> list[dict]:
        return self._with_tally(step, super()._frames_of(step))

    def _sync_cursor(self):
        super()._sync_cursor()
        if self.tally and self.current is not None:
            last = self._states_of_step(self._match.cursor)[-1]
            self.current = dict(self.current, view=last.observe(self.seat, tally=True))

    # browser messages ------------------------------------------------------------------------
    def _on_game_message(self, msg: dict) -> bool:
        if msg["type"] != "tally":
            return False
        on = msg.get("on")
        if not isinstance(on, bool):
            raise ValueError(f"'on' of a tally message must be true or false, got {quote(on)}; nothing changed.")
        self.tally = on
        return True


__all__ = ["MammaMiaWidget"]

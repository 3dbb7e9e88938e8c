"""``MambaWidget``: the Mamba board on the shared timeline, with a position editor.

Thin: the frames are the match's. The one addition is the editor: the browser sends
``{"type": "mamba_load_position", "position": "<notation>"}`` and the widget replaces its
match by a new one starting at that position (same game, same options, same bots). A
position the engine refuses sets ``error`` with the engine's sentence and changes nothing.
Either way the editor gets an answer, ``{"type": "mamba_position", "ok": true, "position": …}``
or ``{"type": "mamba_position", "ok": false, "error": …}``.
"""

from __future__ import annotations

from tabletop_widgets.core.errors import quote
from tabletop_widgets.core.match import Match
from tabletop_widgets.core.widget import STATIC, GameWidget

#: Longer notation is refused before parsing (a full board with parents and a trim is < 150).
MAX_POSITION_LENGTH = 300


class MambaWidget(GameWidget):
    """The Mamba board: ``MambaWidget(match, seat=None, bots=None, settings=None)``.

    Click a stone, then a lit destination, to move; a ringed parent, then a cell of its
    cross, to give birth; an end of an overpopulated run to trim it. "Edit position" sets up
    any board, or call :meth:`load_position` from Python.
    """

    GAMES = ("mamba",)
    _esm = STATIC / "mamba.js"

    def load_position(self, text: str) -> Match:
        """Start a new match at ``text`` (position notation), keeping the game and its options.

        ``ValueError`` saying what is wrong (and nothing changes) when the engine refuses it.

        >>> w.load_position("9/9/9/9/2NNN4/9/2SSS4/9/9 S")  # doctest: +SKIP
        """
        if not isinstance(text, str):
            raise ValueError(f"a position must be a notation string, got {quote(text)}")
        if len(text) > MAX_POSITION_LENGTH:
            raise ValueError(f"a position is at most {MAX_POSITION_LENGTH} characters; this one has {len(text)}")
        game = self.match.game
        state = game.position(text)  # ValueError naming the rank, character or field
        self.match = Match(game, state=state)
        self.error = ""
        return self.match

    def _check_editor_allowed(self):
        # A new position is a new match: a replay would lose the game it shows, and a player's
        # own screen (locked, or passed from player to player) could set up any board to play on.
        if self.replay:
            raise ValueError("this widget is a replay: it shows the recorded game and loads no other")
        if self.lock_seat:
            raise ValueError(f"this is a player's screen ({self._seat_label()}), which plays the game as it is dealt")

    def _on_game_message(self, msg: dict) -> bool:
        if msg.get("type") != "mamba_load_position":
            return False
        position = msg.get("position")
        try:
            self._check_editor_allowed()
            self.load_position(position)
        except ValueError as exc:
            text = f"The position was not loaded: {exc}"
            # The editor waits for an answer: a refusal repeated word for word would not
            # change the `error` trait, so it is also said in a message of its own.
            self.send({"type": "mamba_position", "ok": False, "error": text})
            raise ValueError(text) from None
        self.send({"type": "mamba_position", "ok": True, "position": self.match.state.position()})
        return True

"""``GameWidget``: the anywidget base every game widget subclasses.

The Python side is thin: it keeps the browser in sync with a :class:`~.match.Match` through
``match.observe_changes`` and checks every message the browser sends. The frames the browser
receives are always those of the viewing seat, so a seat's view never holds another seat's
secrets. The protocol is in docs/architecture.md.
"""

from __future__ import annotations

import base64
import gc
import json
import os
import pathlib
import threading
import weakref
from collections import OrderedDict
from typing import Optional, Union

import anywidget
import traitlets
from anywidget._util import try_file_contents

from .bots import resolve_bots
from .errors import quote
from .game import Game
from .match import CacheSize, Match
from .picture import frame_svg, png
from .wire import encode_frames

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"


class MissingBundle:
    """Stands for a bundle that was not built, so the class imports and construction explains."""

    def __init__(self, path):
        self.path = pathlib.Path(path)

    def error(self, cls) -> FileNotFoundError:
        return FileNotFoundError(
            f"{cls.__name__} needs the JavaScript bundle {self.path}, which is not built. "
            "Build the JS with `pip install -e .` in the project folder (needs Node.js and npm), "
            "or `npm ci && npm run build` in its js/ folder."
        )

    def __str__(self):
        return ""


def _bundle(path):
    """``path`` as anywidget's file contents, or a :class:`MissingBundle` when not built."""
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, MissingBundle):
        candidate = pathlib.Path(path)
        if candidate.suffix in (".js", ".mjs") and not candidate.is_file():
            return MissingBundle(candidate)
        return try_file_contents(candidate) or path
    return path


def bundle_path(cls) -> pathlib.Path:
    """The file of ``cls``'s ES module bundle (``FileNotFoundError`` if not built)."""
    esm = getattr(cls, "_esm", None)
    if isinstance(esm, MissingBundle):
        raise esm.error(cls)
    path = getattr(esm, "_path", None)
    if path is None:
        raise ValueError(f"{cls.__name__} has no bundle file")
    return pathlib.Path(path)


def _clip(text: str) -> str:
    return text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 1] + "…"


class _Refused(ValueError):
    """A browser message that is refused; its text goes to the ``error`` trait."""


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value, limit: int = 80) -> str:
    """Browser input quoted in ``error``: cut to ``limit`` characters, so a forged megabyte is
    not copied into a trait (and back to the browser), and written without recursion, so a
    value nested thousands deep is refused like any other (:func:`~.errors.quote`)."""
    return quote(value, limit)


_VIEWING = object()  # to_html's default seat: the widget's own

#: The longest ``error`` text: a refusal quoting input it did not write itself (a game's
#: IllegalAction message, an exception's repr) is cut here too.
ERROR_LIMIT = 600
#: No notation is this long; a longer forged action is refused before the game parses it.
ACTION_LIMIT = 1000
#: The longest id a page may give its play (the page's own are a few characters).
PLAY_ID_LIMIT = 32

#: Widgets whose ``current`` changed without being sent (after an action: the browser built
#: that frame from the frames it received). Sent once a notebook cell has run, so that a
#: notebook saved from the kernel's messages (nbclient, myst-nb) stores the frame shown.
_CURRENT_BEHIND = weakref.WeakSet()
_FLUSH_HOOKED = []


def _send_current_behind():
    for widget in list(_CURRENT_BEHIND):
        widget._send_current()


def _hook_flush():
    if _FLUSH_HOOKED:
        return
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.events.register("post_execute", _send_current_behind)
        _FLUSH_HOOKED.append(shell)


class _CollectionPaused:
    """Python's cyclic garbage collector, paused while a move from the browser is answered
    until the move's message has left the kernel. An oven evaluation or a cascade allocates
    thousands of objects (a frame per sub-step, each a view); the collections they set off,
    a millisecond or more each in a notebook's kernel and tens for a full one, otherwise fall
    between the click and the move drawn. They run after it, while the bots think or the player
    does. ``resume`` restores the collector as it was: a notebook that turned it off keeps it off."""

    def __init__(self):
        self.paused = gc.isenabled()
        if self.paused:
            gc.disable()

    def resume(self):
        if self.paused:
            self.paused = False
            gc.enable()


class GameWidget(anywidget.AnyWidget):
    """A match on the shared timeline: step through it, rewind it, play it from a seat.

    ``GameWidget(match_or_game, seat=None, bots=None, settings=None, frame=None, replay=False)``:
    a :class:`Match`, a :class:`Game` or a game name (a new match dealt from a fresh OS seed). ``seat=None`` is
    the all-seeing view; ``bots={seat: bot or name}`` answers for those seats after each action.
    ``frame=(step, sub)`` opens on that frame (as :meth:`goto`). ``replay=True`` shows a recorded
    game: the timeline steps freely, but nothing is played and the match's cursor never moves.
    ``seats=[0, 2]`` is pass-and-play: those seats share one screen (every other seat needs a
    bot); the view follows the seat to move, and between two of them a cover asks to pass the
    screen, with nothing of either seat's hand in the page until the next player opens it.
    """

    #: The games a subclass draws (``None``: any game, drawn by the generic renderer).
    GAMES: Optional[tuple] = None

    game = traitlets.Unicode("").tag(sync=True)
    seat_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    seat = traitlets.Any(None, allow_none=True).tag(sync=True)
    cursor = traitlets.Int(0).tag(sync=True)
    current = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    bot_seats = traitlets.List(traitlets.Int()).tag(sync=True)
    settings = traitlets.Dict().tag(sync=True)
    #: True: the browser may not change the viewing seat (a player's own screen); Python may.
    lock_seat = traitlets.Bool(False).tag(sync=True)
    #: True: a recorded game to step through; neither the browser nor Python plays or moves it.
    replay = traitlets.Bool(False).tag(sync=True)
    #: Pass-and-play: the seats sharing this screen (empty: not pass-and-play).
    seats = traitlets.List(traitlets.Int()).tag(sync=True)
    #: Pass-and-play: the seat the screen is being passed to; while set the page holds no frame.
    pass_to = traitlets.Any(None, allow_none=True).tag(sync=True)

    #: The display switches the browser may change in ``settings``: key → type of its value.
    #: Subclasses extend it (``SETTINGS = {**GameWidget.SETTINGS, "tally": bool}``).
    SETTINGS: dict = {"animate": bool}

    def __init_subclass__(cls, **kwargs):
        # anywidget reads `_esm` files when the class is defined and fails on a missing file
        # with a bare path; keep the class importable and explain on construction instead.
        if "_esm" in cls.__dict__:
            cls._esm = _bundle(cls.__dict__["_esm"])
        super().__init_subclass__(**kwargs)

    def __init__(
        self,
        match_or_game: Union[Match, Game, str],
        seat: Optional[int] = None,
        bots: Optional[dict] = None,
        settings: Optional[dict] = None,
        lock_seat: bool = False,
        frame=None,
        replay: bool = False,
        seats=None,
        **kwargs,
    ):
        if isinstance(type(self)._esm, MissingBundle):
            raise type(self)._esm.error(type(self))
        if not isinstance(lock_seat, bool):
            raise ValueError(f"lock_seat must be True or False, got {_short(lock_seat)}")
        if not isinstance(replay, bool):
            raise ValueError(f"replay must be True or False, got {_short(replay)}")
        settings = self._checked_settings(settings)
        match = self._as_match(match_or_game)
        self._check_seat_of(match, seat)
        self._resolved_bots(match, bots)  # before frame= moves the match
        if replay and bots:
            raise ValueError("a replay plays nothing, so it takes no bots; leave out bots= or replay=True")
        if seats is not None:
            seats = self._check_pass_seats(match, seats, seat, bots, replay)
            lock_seat = True  # the screen passes from seat to seat; nobody picks another view
        opening = None
        if frame is not None:
            if not isinstance(frame, (tuple, list)) or len(frame) != 2:
                raise ValueError(f"frame must be a pair (step, sub), got {_short(frame)}")
            opening = self._check_frame(match, seat, frame[0], 0 if frame[1] is None else frame[1])
        self._match: Optional[Match] = None
        self._unobserve = None
        self._counts: list[int] = []  # frames per step the browser holds, for `from` offsets
        # (seat, step) → (that step's frames as sent: the first a patch of the
        # previous step's last view, that last view); least recently used first.
        self._encoded: OrderedDict = OrderedDict()
        self._quiet_current = False
        self._answering_browser = False  # inside a message from the browser (see _sync_cursor)
        self._play_id = None  # the id of the page's play being answered: its answers echo it
        self._move_alone = False  # the next step played is the page's own move (see _send_move_alone)
        self._holding = False  # inside an action and the bots' answers: `legal` is sent once, after
        # The frames of the steps played and not yet sent, {"from": i, "frames": [...]}: an action
        # and the bots' answers to it leave as one message, with `legal` (see _send_legal).
        self._outbox = None
        self._bot_specs = bots
        self._bots = {}
        self._at = None  # (step, sub): the frame Python last told the browser to show
        self._seen = {}  # pass-and-play: seat → the match's cursor when that seat passed the screen on
        self._dropped = []  # (seat, JSON) of the last frames of steps a fork dropped (see _is_frame_sent)
        super().__init__(**kwargs)
        self.lock_seat = lock_seat
        self.replay = replay
        if seats:
            self.seats = seats
            seat = None  # chosen in _attach: the first seat to move, behind the cover
        if opening is not None:
            self._at = opening
            if not replay:
                match.goto(opening[0])
        if settings is not None:
            self.settings = dict(settings)
        self.on_msg(self._on_msg)
        self._attach(match, seat, bots)

    # the match -------------------------------------------------------------------------------
    def _as_match(self, match_or_game) -> Match:
        if isinstance(match_or_game, Match):
            match = match_or_game
        elif isinstance(match_or_game, (Game, str)):
            match = Match(match_or_game)
        else:
            raise ValueError(f"a widget needs a Match, a Game or a game name, got {match_or_game!r}")
        if self.GAMES is not None and match.game.name not in self.GAMES:
            raise ValueError(
                f"{type(self).__name__} shows {', '.join(self.GAMES)}, not {match.game.name!r}; "
                "use tw.widget(match) to pick the right widget"
            )
        return match

    @property
    def match(self) -> Match:
        """The match shown; assigning a new one resets the browser's timeline."""
        return self._match

    @match.setter
    def match(self, match_or_game):
        match = self._as_match(match_or_game)
        seat = self.seat
        if self.seats:
            self._check_pass_seats(match, self.seats, None, self._bot_specs, False)
            seat = None
        if seat is not None and seat >= match.game.players:
            # Falling back to None would turn a player's view into the all-seeing one.
            raise ValueError(
                f"this widget shows seat {seat}'s view, and the new {match.game.players}-player match "
                "has no such seat; set w.seat first (None is the all-seeing view)"
            )
        self._resolved_bots(match, self._bot_specs)  # refused before the frame shown is let go
        self._at = None  # a new match opens where its cursor is
        self._attach(match, seat, self._bot_specs)

    @staticmethod
    def _resolved_bots(match: Match, bots) -> dict:
        table = resolve_bots(match.game.name, bots)
        for s in table:
            if not _is_int(s) or not 0 <= s < match.game.players:
                raise ValueError(f"bots: seat {s!r} is not a seat of this {match.game.players}-player game")
        return table

    def _attach(self, match: Match, seat, bots):
        table = self._resolved_bots(match, bots)
        if self._unobserve is not None:
            self._unobserve()
        if match is not self._match:
            self._encoded.clear()
        self._match = match
        self._bots = table
        self._bot_specs = bots
        self.game = match.game.name
        self.seat_names = list(match.game.seat_names)
        self.bot_seats = sorted(table)
        # Bots that must open the game do so, unless that would drop a recorded future
        # (before observing the match: `_send_all` below sends all their frames at once).
        # One that fails (a notebook's own bot) does not leave the widget unhooked from its
        # match: the widget is attached and the page in step first, then the failure is raised.
        failure = None
        if self._bots and match.cursor == len(match):
            try:
                match.autoplay(self._bots)
            except Exception as exc:
                failure = exc
        if self.seats:
            # The screen starts covered, passed to the first of its seats to move.
            to_move = match.state.to_move
            seat = to_move if to_move in self.seats else self.seats[0]
            self._seen = {}
        self._seat_change_quiet = True  # _send_all below sends this seat's frames once
        try:
            with self.hold_sync():
                self.seat = seat
                self.pass_to = seat if self.seats else None
        finally:
            self._seat_change_quiet = False
        if self._at is not None and (self._at[0] > len(match) or (not self.replay and self._at[0] != match.cursor)):
            self._at = None  # the bots moved on: show where play continues
        self._unobserve = match.observe_changes(self._on_match_change)
        self._sync_cursor()
        self._send_all()
        if failure is not None:
            # A bot's own words are the game's refusal (IllegalAction names the seat and the
            # bot); a bug's text may show what the screen's seat may not know: the notebook gets it.
            said = str(failure) if isinstance(failure, ValueError) else (
                f"A bot failed ({type(failure).__name__}; see the exception in the notebook)")
            self.error = _clip(f"{said}; the match stays at step {match.cursor}.")
            raise failure

    @property
    def bots(self) -> dict:
        """``{seat: Bot}`` answering after each action made in the widget."""
        return dict(self._bots)

    @bots.setter
    def bots(self, bots):
        if self.replay and bots:
            raise ValueError("a replay plays nothing, so it takes no bots")
        if self.seats:
            self._check_pass_seats(self._match, self.seats, None, bots, False)
        self._attach(self._match, self.seat, bots)

    # Python-side actions ---------------------------------------------------------------------
    def goto(self, step: int, sub: Optional[int] = None):
        """Show frame ``sub`` of ``step`` and move the match's cursor to ``step``.

        ``sub=None`` is the step's first frame: the action itself, with what it caused to step
        through next (an oven evaluation, a cascade). ``sub=-1`` is the step's last frame, where
        play continues; negative values count from the end as list indices do. In a replay
        (``replay=True``) only the browser moves: the match's cursor stays where it is.
        Returns the state at the match's cursor.
        """
        match = self._match
        self._at = self._check_frame(match, self.seat, step, 0 if sub is None else sub)
        if self.replay:
            self._sync_cursor()
            self.send(self._goto_message())
            return match.state
        return match.goto(step)  # the match notifies `cursor`; _on_match_change sends the frame

    def play(self, action):
        """Play ``action`` at the cursor, then let the bots answer."""
        if self.replay:
            raise ValueError("this widget is a replay: it plays nothing (make one without replay=True to play)")
        self._holding = True
        try:
            state = self._match.play(action)
            if self._bots:
                state = self._match.autoplay(self._bots)
        except Exception:
            self._holding = False
            if self._outbox is not None:  # what was played before a bot failed reaches the page
                self._send_legal()
            raise
        finally:
            self._holding = False
        self._pass_if_needed()
        self._send_legal()
        return state

    def to_html(self, path, seat=_VIEWING, steps=None) -> None:
        """A standalone HTML replay of the match as the viewing seat sees it (or ``seat``),
        of the steps ``(first, last)`` (default: all)."""
        from .html import write_html

        write_html(self._match, path, seat=self.seat if seat is _VIEWING else seat, steps=steps)

    @classmethod
    def _checked_settings(cls, settings) -> Optional[dict]:
        """``settings`` given to the constructor: a dict whose display switches (``SETTINGS``)
        have their type (other keys are the notebook's own, e.g. a title, which the browser
        may not change), or ``ValueError``."""
        if settings is None:
            return None
        if not isinstance(settings, dict):
            raise ValueError(f"settings must be a dict of display switches, got {_short(settings)}")
        for key, kind in cls.SETTINGS.items():
            if key in settings and type(settings[key]) is not kind:
                raise ValueError(f"settings[{key!r}] must be a {kind.__name__}, got {_short(settings[key])}")
        try:  # the page reads them as JSON, which has no NaN or infinity
            json.dumps(settings, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise ValueError(f"settings must hold JSON values (the page reads them): {_short(exc)}") from None
        return settings

    @staticmethod
    def _check_pass_seats(match: Match, seats, seat, bots, replay) -> list:
        """The seats of a pass-and-play screen, checked against the game and the bots."""
        players = match.game.players
        if replay:
            raise ValueError("a replay plays nothing: pass-and-play (seats=) needs replay=False")
        if seat is not None:
            raise ValueError("seats= puts the seat to move on the screen; leave out seat=")
        if not isinstance(seats, (list, tuple)) or not seats or not all(_is_int(s) and 0 <= s < players for s in seats):
            raise ValueError(f"seats must be a non-empty list of seats from 0 to {players - 1}, got {_short(seats)}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"seats lists a seat twice: {_short(seats)}")
        bot_seats = set(bots or {})
        if bot_seats & set(seats):
            raise ValueError(f"seat {min(bot_seats & set(seats))} is in seats and has a bot; a seat is one or the other")
        missing = sorted(set(range(players)) - set(seats) - bot_seats)
        if missing:
            names = ", ".join(f"{s} ({match.game.seat_names[s]})" for s in missing)
            raise ValueError(f"seats: every other seat needs a bot, and {names} has none (bots={{seat: 'random'}})")
        return list(seats)

    @staticmethod
    def _check_frame(match: Match, seat, step, sub) -> tuple:
        """``(step, sub)`` with ``sub`` from 0, or ``ValueError`` saying which frames exist."""
        if not _is_int(step) or not 0 <= step <= len(match):
            raise ValueError(f"step must be an int from 0 to {len(match)}, got {_short(step)}")
        count = len(match.frames_of_step(step, seat))
        if not _is_int(sub) or not -count <= sub < count:
            raise ValueError(
                f"step {step} has {count} frame{'s' if count != 1 else ''}: sub must be an int from "
                f"0 to {count - 1} (or from -{count}, counting from its end), got {_short(sub)}"
            )
        return step, sub % count

    # showing without a kernel -------------------------------------------------------------
    #: What a display carries beside the live widget, for the places no kernel runs (an
    #: exported notebook, a documentation page, a notebook viewer), all of the viewing seat:
    #: ``"image/png"``, the picture of the frame shown, and ``"image/svg+xml"`` (not in the
    #: default: an HTML export ranks it before the PNG), the same picture as SVG, which stands
    #: in for the PNG when it cannot be drawn (no ``resvg-py``), and ``"text/html"`` (not in
    #: the default), the replay as a ``<div>`` holding the picture until its script runs, ride
    #: with the live view in one output; ``"application/javascript"``, the match as a replay
    #: that plays with no kernel and no network, is a second output of its own. Jupyter shows
    #: the live view of the first and the second draws nothing there. Wherever the view cannot
    #: show (an HTML export, with or without the widget state; a documentation page) the
    #: script builds the replay where it runs and hides the first output; where scripts do not
    #: run (``sanitize_html``, nbconvert's ``SanitizeHTML``, notebook viewers) the first
    #: output's picture stays.
    fallbacks: tuple = ("application/javascript", "image/png")

    def _ipython_display_(self):
        from IPython.display import display

        for data, metadata in self._outputs():
            display(data, metadata=metadata, raw=True)

    def _repr_mimebundle_(self, **kwargs):
        """The first output of the widget's display: the live view with its pictures (what
        ``display(w)`` shows; the replay script follows it as an output of its own)."""
        outputs = self._outputs(**kwargs)
        return outputs[0] if outputs else None

    def _outputs(self, **kwargs) -> list:
        """The display's outputs as ``(data, metadata)``: the live view with the pictures of
        the frame shown, then (when ``fallbacks`` holds it) the replay script alone."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return []
        # anywidget answers (data, metadata); plain ipywidgets only data.
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data)
        if self._match is None or self.seats:
            # A pass-and-play screen goes from player to player and an output stays in the page
            # (and the saved notebook): no seat's picture or replay in it, covered or not.
            return [(data, metadata)]
        # Everything comes from the viewing seat's frames: what another seat hides is not
        # in them, so neither the picture nor the replay can show it.
        step, sub = self._shown()
        picture = frame_svg(self._match.game, self._match.frames_of_step(step, self.seat)[sub], self.seat)
        if "image/png" in self.fallbacks:
            try:
                raster = png(picture)
            except ValueError:
                # A picture the rasterizer refuses (a game's own svg) costs the PNG only:
                # the live widget and the replay still show, the SVG in the PNG's place.
                raster = None
            if raster is not None:
                data["image/png"] = base64.b64encode(raster).decode("ascii")
        if "image/svg+xml" in self.fallbacks or ("image/png" in self.fallbacks and "image/png" not in data):
            data["image/svg+xml"] = picture
        if "text/html" in self.fallbacks:
            from .html import replay_fragment

            data["text/html"] = replay_fragment(self._match, self.seat, picture=picture, at=(step, sub))
        outputs = [(data, metadata)]
        if "application/javascript" in self.fallbacks:
            from .html import replay_script

            outputs.append(({"application/javascript": replay_script(self._match, self.seat, at=(step, sub))}, {}))
        return outputs

    # the viewing seat ------------------------------------------------------------------------
    def _check_seat_of(self, match: Match, seat):
        if seat is not None and (not _is_int(seat) or not 0 <= seat < match.game.players):
            names = ", ".join(f"{i} ({n})" for i, n in enumerate(match.game.seat_names))
            raise ValueError(f"seat must be None (the all-seeing view) or one of {names}; got {_short(seat)}")

    @traitlets.validate("replay")
    def _validate_replay(self, proposal):
        if proposal["value"] and self._bots:
            raise traitlets.TraitError("a replay plays nothing: set w.bots = None before w.replay = True")
        return proposal["value"]

    @traitlets.observe("replay")
    def _replay_changed(self, change):
        if self._match is not None:
            self._send_legal()  # a replay offers no action; leaving one offers them again

    @traitlets.validate("seats")
    def _validate_seats(self, proposal):
        if self._match is not None and proposal["value"] != self.seats:
            # Passing the screen needs its lock, the bots of the other seats and the cover first.
            raise traitlets.TraitError("a screen's seats are given when it is made: tw.widget(m, seats=[0, 2], "
                                       "bots={1: 'random', 3: 'random'})")
        return proposal["value"]

    @traitlets.validate("lock_seat")
    def _validate_lock_seat(self, proposal):
        if self.seats and not proposal["value"]:
            # Unlocked, the screen's seat selector would show one player another's hand.
            raise traitlets.TraitError("a pass-and-play screen (seats=) stays locked: each player sees only their "
                                       "own hand; make a widget without seats= for an analysis view")
        return proposal["value"]

    @traitlets.validate("settings")
    def _validate_settings(self, proposal):
        try:
            self._checked_settings(proposal["value"])
        except ValueError as exc:
            raise traitlets.TraitError(str(exc)) from None
        return proposal["value"]

    @traitlets.validate("seat")
    def _validate_seat(self, proposal):
        if self._match is not None:
            try:
                self._check_seat_of(self._match, proposal["value"])
            except ValueError as exc:
                self.error = str(exc)
                raise traitlets.TraitError(str(exc)) from None
        return proposal["value"]

    def notify_change(self, change):
        # A seat switch from Python: `seat`, `cursor` and `current` reach the browser as one
        # update, and the new seat's frames only after it, so the browser never draws frames
        # under another seat's label (it drops its frames when the seat changes; timeline.js).
        if change.get("name") != "seat" or getattr(self, "_seat_change_quiet", False) or self._match is None:
            return super().notify_change(change)
        with self.hold_sync():
            super().notify_change(change)  # runs _seat_changed: cursor and current
        self._send_all(goto=False)

    @traitlets.observe("seat")
    def _seat_changed(self, change):
        if getattr(self, "_seat_change_quiet", False) or self._match is None:
            return
        self._sync_cursor()

    #: Traits the browser may set; every other synced trait belongs to Python.
    BROWSER_TRAITS = ("seat", "settings", "error")

    def set_state(self, sync_data):
        # Only `seat`, `settings` (the declared switches) and clearing `error` may come from
        # the browser. Anything else is refused: `error` says why and the browser gets the
        # Python value back, so a forged update changes nothing on either side.
        if self._match is None or not isinstance(sync_data, dict):
            return super().set_state(sync_data)
        accepted, refused = {}, []
        for name, value in sync_data.items():
            if name == "current" and self._is_frame_sent(value):
                continue  # the browser's model keeps the last frame it got; an update carries it back
            try:
                accepted[name] = self._check_from_browser(name, value)
            except ValueError as exc:
                refused.append((name, str(exc)))
        if refused:
            # A refused seat answers with the unchanged frames too: the browser dropped its
            # frames when its seat selector changed (timeline.js) and waits for them.
            with self.hold_sync():
                if accepted:
                    super().set_state(accepted)
                self.error = refused[0][1][:ERROR_LIMIT]
                for name, _ in refused:
                    if name in self.keys:
                        self.send_state(name)
            if any(name == "seat" for name, _ in refused) and "seat" not in accepted:
                self._send_all(goto=False)
            return
        super().set_state(accepted)

    #: How many dropped steps' last frames a widget still takes back from the page's model.
    DROPPED_KEPT = 16

    def _remember_dropped(self, step: int):
        """Keep the last frame of each step from ``step`` on that the page got, as it got it: a
        fork from another screen drops them, and an update the page sent before the fork's
        frames reached it carries one back as its model's ``current``."""
        for (seat, at), (encoded, last_view) in self._encoded.items():
            if at >= step and seat == self.seat:
                frame = {key: value for key, value in encoded[-1].items() if key != "view_delta"}
                frame.update(view=last_view, last=True)
                self._dropped.append((seat, json.dumps(frame, sort_keys=True, default=str)))
        del self._dropped[:-self.DROPPED_KEPT]

    def _is_frame_sent(self, value) -> bool:
        """Whether ``value`` is a frame of this widget's match as its seat sees it (what the
        browser holds as ``current``), or one of a step a fork dropped since it was sent; not
        one the browser wrote."""
        if not isinstance(value, dict) or self.pass_to is not None:
            return False
        if self._dropped and any(seat == self.seat for seat, _ in self._dropped):
            try:
                text = json.dumps(value, sort_keys=True)
            except (TypeError, ValueError, RecursionError):
                return False
            if (self.seat, text) in self._dropped:
                return True
        step, sub = value.get("step"), value.get("sub")
        if not _is_int(step) or not _is_int(sub) or not 0 <= step <= len(self._match):
            return False
        frames = self._match.frames_of_step(step, self.seat)
        # as the browser got it: JSON (tuples are lists there)
        return 0 <= sub < len(frames) and json.loads(json.dumps(frames[sub].to_dict())) == value

    def _check_from_browser(self, name, value):
        """The value trait ``name`` takes from the browser's ``value``, or ``ValueError``
        unless the browser may set it."""
        if name == "seat":
            if self.lock_seat and value != self.seat:
                raise ValueError(
                    f"This widget is locked to {self._seat_label()}; the view cannot be changed here."
                )
            self._check_seat_of(self._match, value)
        elif name == "settings":
            return self._check_settings(value)
        elif name == "error":
            if value != "":  # the browser's close button clears it; it may not write one
                raise ValueError(f"The browser may only clear the error message, not set it to {_short(value)}.")
        elif name in self.keys:
            raise ValueError(f"The browser may not change {name!r}; it was put back.")
        else:
            raise ValueError(f"The widget has no setting {_short(name)}; it was ignored.")
        return value

    def _check_settings(self, value) -> dict:
        """The settings after the browser's ``value``: Python's, with the switches it changed."""
        if not isinstance(value, dict):
            raise ValueError(f"settings must be an object, got {_short(value)}; nothing changed.")
        # The page sends back the settings it holds, as JSON made them (string keys, lists for
        # tuples, 1 for 1.0): the notebook's own keys are compared so and keep Python's values.
        current = json.loads(json.dumps(self.settings, default=str))
        for key in set(current) | set(value):
            kind = self.SETTINGS.get(key)
            if key in current and key in value and current[key] == value[key] and (
                    kind is None or type(current[key]) is type(value[key])):
                continue
            if kind is None:
                raise ValueError(f"The browser may not change the setting {_short(key)}; nothing changed.")
            if key not in value:
                raise ValueError(f"The setting {key!r} cannot be removed; nothing changed.")
            if type(value[key]) is not kind:
                raise ValueError(
                    f"The setting {key!r} must be a {kind.__name__}, got {_short(value[key])}; nothing changed."
                )
        return {**self.settings, **{key: value[key] for key in self.SETTINGS if key in value}}

    def _seat_label(self) -> str:
        if self.seat is None:
            return "the all-seeing view"
        return f"{self._match.game.seat_names[self.seat]}'s view"

    # sending -----------------------------------------------------------------------------
    #: How many steps' encoded frames a widget keeps (over the seats it showed); the least
    #: recently used go first.
    encoded_cache_size = CacheSize(4096)

    def _frames_of(self, step: int) -> list[dict]:
        return [f.to_dict() for f in self._match.frames_of_step(step, self.seat)]

    def _encoded_step(self, step: int) -> list[dict]:
        """``step``'s frames as sent: the first a patch of the previous step's last view."""
        key = (self.seat, step)
        cached = self._encoded.get(key)
        if cached is not None:
            self._encoded.move_to_end(key)
            return cached[0]
        frames = self._frames_of(step)
        base = self._last_view(step - 1) if step > 0 else None
        encoded = encode_frames(frames, base, shared=True)  # one step: its views share what did not change
        self._encoded[key] = (encoded, frames[-1]["view"])
        while len(self._encoded) > self.encoded_cache_size:
            self._encoded.popitem(last=False)
        return encoded

    def _last_view(self, step: int) -> dict:
        """The view of ``step``'s last frame (what a patch of the next step's first frame is of)."""
        before = self._encoded.get((self.seat, step))
        return before[1] if before is not None else self._frames_of(step)[-1]["view"]

    def _send_move_alone(self, step: int) -> bool:
        """Send the first frame of ``step``, the page's own move, on its own when the step has
        more (an oven evaluation, a cascade): the page draws the move while the consequences it
        set off are made and sent. ``more`` tells the page how many frames of the step follow."""
        first, count = self._match.first_frame_of_step(step, self.seat)
        if count < 2:
            return False
        (frame,) = encode_frames([first.to_dict()], self._last_view(step - 1))  # keeps `last: false`
        msg = {"type": "frames", "from": sum(self._counts), "frames": [frame], "more": count - 1}
        if self._play_id is not None:
            msg["id"] = self._play_id
        self.send(msg)
        self._let_sent_leave()  # out before Python is busy making the rest of the step
        return True

    def _send_all(self, goto: bool = True):
        """Everything the browser needs: frames from 0, the legal actions, the cursor. Each
        step's frames are encoded once and kept, so a reload (``hello``) re-encodes nothing."""
        self._outbox = None  # the frames from 0 hold them
        if self.pass_to is not None:
            # Covered between two players: no frame of either seat until the next one is ready.
            self._counts = []
            self._send_legal()
            return
        frames, counts = [], []
        for step in range(len(self._match) + 1):
            step_frames = self._encoded_step(step)
            frames.extend(step_frames)
            counts.append(len(step_frames))
        self._counts = counts
        self.send({"type": "frames", "from": 0, "frames": frames})
        self._send_legal()
        if goto:
            self.send(self._goto_message())
        self._send_current()

    def _should_send_property(self, key, value):
        if key == "current" and self._quiet_current:
            return False
        return super()._should_send_property(key, value)

    def _send_current(self):
        """Send ``current`` if an action changed it without sending it."""
        if self in _CURRENT_BEHIND:
            _CURRENT_BEHIND.discard(self)
            if getattr(self, "comm", None) is not None:
                self.send_state("current")

    def _shown(self) -> tuple:
        """The frame the browser is told to show, as ``(step, sub)`` within this match."""
        step, sub = self._at if self._at is not None else (self._match.cursor, -1)
        step = min(step, len(self._match))
        count = len(self._match.frames_of_step(step, self.seat))
        return step, sub % count if -count <= sub < count else count - 1

    def _goto_message(self) -> dict:
        step, sub = self._shown()
        return {"type": "goto", "step": step, "sub": sub}

    def _legal_message(self) -> dict:
        state = self._match.state
        to_move = state.to_move
        may_act = (
            not self.replay and self.pass_to is None and to_move is not None and to_move not in self._bots and self.seat in (None, to_move)
        )
        if self.lock_seat and self._match.cursor != len(self._match):
            may_act = False  # a locked screen plays only at the live end
        actions = [str(a) for a in state.legal_actions()] if may_act else []
        return {"type": "legal", "step": self._match.cursor, "to_move": to_move, "actions": actions}

    def _send_legal(self):
        """``legal``, after the frames of the steps played since the last one, in one message.

        A move from the browser is answered by a ``frames`` message holding the move's frames,
        then (when bots answer it) one holding the bots' answers and the legal actions (whose
        ``step`` is the cursor), then one update of ``cursor``: the page draws the move as soon
        as it is played, whatever the bots then work out (an oven evaluation's dozens of
        frames), and is playable again once, with the last message, instead of once per step,
        cursor and ``legal`` message (each of which costs the page a redraw while the next one
        waits)."""
        if self._holding:
            return
        legal = self._legal_message()
        if self._outbox is None:
            if self._play_id is not None:
                legal["id"] = self._play_id
            self.send(legal)
            return
        del legal["type"]
        self._send_outbox(legal)

    def _send_outbox(self, legal=None, cursor=True):
        out, self._outbox = self._outbox, None
        if out is None:
            return
        msg = {"type": "frames", "from": out["from"], "frames": out["frames"]}
        if legal is not None:
            msg["legal"] = legal
        if self._play_id is not None:
            msg["id"] = self._play_id  # the answer to that page's play: it waits for this id
        self.send(msg)
        if cursor:
            # `cursor` after the frames: the browser draws them without waiting for it.
            self._sync_cursor(quiet=True)

    #: At most this long (seconds) a move waits for its message to leave the kernel.
    LEAVE_TIMEOUT = 0.05

    def _let_sent_leave(self):
        """Wait until what was sent has left the kernel. ipykernel sends messages from its
        IOPub thread, which needs Python's lock to run: while the bots' answers are worked out,
        it would send the move's message only once they are done (or after Python's 5 ms switch
        interval). Another kernel, or none, sends as it is asked: nothing to wait for."""
        kernel = getattr(getattr(self, "comm", None), "kernel", None)
        thread = getattr(getattr(kernel, "iopub_socket", None), "io_thread", None)
        schedule = getattr(thread, "schedule", None)
        if not callable(schedule):
            return
        left = threading.Event()
        schedule(left.set)  # run in order after the sends already queued
        left.wait(self.LEAVE_TIMEOUT)

    def _resume_collection_once_sent(self, paused: "_CollectionPaused"):
        """Let what was sent leave the kernel, then let Python collect again: a collection run
        first would hold Python's lock while the move's message waits for the IOPub thread."""
        if paused.paused:
            self._let_sent_leave()
            paused.resume()

    def _sync_cursor(self, quiet: bool = False):
        """``cursor`` and ``current`` from the match. ``quiet`` (after an action): the browser
        builds that frame from the frames just sent, so ``current`` is updated here and sent
        later (once a notebook cell has run, or with the next ``hello``), not with every action."""
        match = self._match
        step, sub = self._shown()
        self._quiet_current = quiet
        try:
            with self.hold_sync():  # one state update for both traits
                self.cursor = match.cursor
                covered = self.pass_to is not None
                self.current = None if covered else match.frames_of_step(step, self.seat)[sub].to_dict()
        finally:
            self._quiet_current = False
        if quiet and not self._answering_browser:
            _CURRENT_BEHIND.add(self)
            _hook_flush()
        else:
            # Sent now, or (a move from the browser) kept by the browser's model from the
            # frames it just received: the kernel runs post_execute after every comm message,
            # and sending the whole frame again there made each click's bytes grow with the game.
            _CURRENT_BEHIND.discard(self)

    def _on_match_change(self, kind, step=None, dropped=0, **info):
        if not self.replay and self._at is not None and self._at[0] != self._match.cursor:
            self._at = None  # the match moved elsewhere: show where play continues there
        if kind == "play" and dropped:  # a new step replaces a recorded future: forget its encodings
            self._remember_dropped(step)
            self._encoded = OrderedDict((k, v) for k, v in self._encoded.items() if k[1] < step)
        if self.pass_to is not None:
            # Covered: nothing is sent; the next player gets every frame when ready.
            self._sync_cursor()
            if not self._holding:
                self._pass_if_needed()
            return
        if kind == "play":
            # Only the new step's frames, the first a patch of the browser's last frame before
            # them; the browser drops whatever it held from there on. They wait in the outbox
            # for the bots' answers (while holding) and leave with `legal`.
            if self._outbox is not None and step != len(self._counts):
                self._send_outbox()  # not the next step of those waiting: they go first
            del self._counts[step:]
            alone = False
            if self._move_alone:  # the page's own move: its first frame need not wait for the rest
                self._move_alone = False
                if self._outbox is not None:
                    self._send_outbox(cursor=False)
                alone = self._send_move_alone(step)
            frames = self._encoded_step(step)
            if self._outbox is None:
                self._outbox = {"from": sum(self._counts) + (1 if alone else 0), "frames": []}
            self._outbox["frames"].extend(frames[1:] if alone else frames)
            self._counts.append(len(frames))
            self._send_legal()
        elif kind == "cursor":
            self._send_outbox()
            self._sync_cursor()
            if not self.replay:  # a replay's browser stays on its frame when the match moves
                self.send(self._goto_message())
            self._send_legal()
        if not self._holding:
            self._pass_if_needed()

    # pass-and-play -------------------------------------------------------------------------
    def _pass_if_needed(self):
        """Cover the screen when another of its seats is to move: the page drops every frame
        (its `seat` changes) and gets the next seat's only when that player opens it."""
        if not self.seats:
            return
        to_move = self._match.state.to_move
        if to_move not in self.seats or to_move == self.pass_to or (self.pass_to is None and to_move == self.seat):
            return
        self._send_outbox()  # the last player's screen shows the action before the cover
        if self.pass_to is None and self.seat is not None:
            self._seen[self.seat] = self._match.cursor
        self._seat_change_quiet = True
        try:
            with self.hold_sync():  # seat, pass_to and an empty `current` in one update
                self.pass_to = to_move
                self.seat = to_move
                self._sync_cursor()
        finally:
            self._seat_change_quiet = False
        self._counts = []

    def _ready_from_browser(self):
        seat = self.pass_to
        if seat is None:
            raise _Refused("The screen is not being passed; nothing changed.")
        with self.hold_sync():
            self.pass_to = None
            self._sync_cursor()
        # The new player watches, at the chosen speed, what happened since they passed it on.
        # Where that starts goes before the frames: the page shows it as they come, instead of
        # drawing the newest frame first.
        first = self._seen.get(seat, -1) + 1
        if first <= self._match.cursor:
            self.send({"type": "goto", "step": first, "sub": 0, "follow": True})
        else:
            self.send(self._goto_message())
        self._send_all(goto=False)

    # receiving ----------------------------------------------------------------------------
    def _on_msg(self, _widget, content, buffers):
        try:
            self._answer(content)
        finally:
            self._play_id = None

    def _answer(self, content):
        self._answering_browser = True
        try:
            self._dispatch(content)
        except ValueError as exc:  # refused (IllegalAction is a ValueError too)
            self.error = _clip(str(exc))
        except (KeyError, TypeError) as exc:  # a malformed game-specific message
            kind = content.get("type") if isinstance(content, dict) else None
            self.error = f"The widget could not read a {_short(kind)} message ({_short(exc)}); it was ignored."
        except RecursionError:  # a game's own check walking a forged value nested thousands deep
            kind = content.get("type") if isinstance(content, dict) else None
            self.error = f"The widget could not read a {_short(kind)} message (nested too deeply); it was ignored."
        except Exception as exc:  # a bug (a notebook's own bot, say): the page still gets its answer.
            # Its text is not quoted (it may show what the screen's seat may not know): the kernel logs it.
            kind = content.get("type") if isinstance(content, dict) else None
            self.error = f"The widget failed on a {_short(kind)} message ({type(exc).__name__}; see the kernel's log)."
            self._send_legal()
            raise
        else:
            return
        finally:
            self._answering_browser = False
        # Every message gets an answer: the browser waits for `legal` after a play.
        self._send_legal()

    def _dispatch(self, msg):
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise _Refused("The widget received a message without a 'type'; it was ignored.")
        kind = msg["type"]
        if kind == "hello":
            self._send_all()
        elif kind == "play":
            self._play_id = self._check_play_id(msg)
            self._play_from_browser(msg)
        elif kind == "goto":
            self._goto_from_browser(msg)
        elif kind == "ready":
            self._ready_from_browser()
        elif not self._on_game_message(msg):
            raise _Refused(f"The widget does not understand messages of type {_short(kind)}; nothing changed.")

    def _on_game_message(self, msg: dict) -> bool:
        """Game-specific browser messages: return True when handled. Raise ``ValueError``
        with a clear sentence to refuse one (it is shown as ``error``)."""
        return False

    @staticmethod
    def _check_play_id(msg):
        """The id the page gave its play (echoed by every answer to it), or ``None``."""
        play_id = msg.get("id")
        if play_id is not None and (not isinstance(play_id, str) or not 0 < len(play_id) <= PLAY_ID_LIMIT):
            raise _Refused(f"A play's id must be a string of 1 to {PLAY_ID_LIMIT} characters, got {_short(play_id)}; "
                           "nothing was played.")
        return play_id

    def _check_step(self, msg) -> int:
        step = msg.get("step")
        if not _is_int(step) or not 0 <= step <= len(self._match):
            raise _Refused(f"The step must be an int from 0 to {len(self._match)}, got {_short(step)}; nothing changed.")
        return step

    def _refuse_in_replay(self, what: str):
        if self.replay:
            raise _Refused(f"This widget is a replay: {what}; the match stays as recorded.")

    def _play_from_browser(self, msg):
        self._refuse_in_replay("it plays nothing")
        if self.pass_to is not None:
            raise _Refused(
                f"The screen is being passed to {self._match.game.seat_names[self.pass_to]}; nothing was played."
            )
        action = msg.get("action")
        if not isinstance(action, str):
            raise _Refused(f"The action must be a notation string, got {_short(action)}; nothing changed.")
        if len(action) > ACTION_LIMIT:
            raise _Refused(f"No action is {len(action)} characters long: {_short(action)} was not played.")
        step = self._check_step(msg)
        match = self._match
        if self.lock_seat and not step == match.cursor == len(match):
            # A player's own screen plays only at the live end: playing at an earlier step
            # would drop the recorded future (another screen's moves, the bots' draws seen).
            raise _Refused(self._locked_text(f"{_short(action)} was not played"))
        state = match.state_at(step)
        if state.is_over:
            raise _Refused(f"The game is over at step {step}; {_short(action)} was not played.")
        names = match.game.seat_names
        mover = state.to_move
        if self.seat is not None and mover != self.seat:
            raise _Refused(
                f"This is {names[self.seat]}'s view; it cannot play for {names[mover]} ({_short(action)} was not played)."
            )
        if mover in self._bots:
            raise _Refused(f"{names[mover]} is played by a bot; {_short(action)} was not played.")
        # Check before moving anything, so a refused action leaves the match as it was.
        parsed = match.game.parse_action(state, action)
        before = match.cursor
        paused = _CollectionPaused()
        try:
            self._holding = True
            try:
                if before != step:
                    match.goto(step)
                self._move_alone = True
                try:
                    match.play(parsed)
                except Exception:
                    if match.cursor != before:
                        match.goto(before)
                    raise
                finally:
                    self._move_alone = False
                self.error = ""
                if self._bots:
                    if match.state.to_move in self._bots:
                        # The move leaves now, before the bots work out their answers: the page
                        # draws it at once and, as no `legal` came with it, offers no play yet.
                        # `cursor` follows the answers (the page takes the move's step until then).
                        self._send_outbox(cursor=False)
                        self._resume_collection_once_sent(paused)  # the bots think with it on
                    try:
                        match.autoplay(self._bots)
                    except Exception:
                        self._sync_cursor(quiet=True)  # the move's message left `cursor` to the answers
                        raise
            finally:
                self._holding = False
            self._pass_if_needed()
            self._send_legal()
            self._resume_collection_once_sent(paused)
        finally:
            paused.resume()

    def _goto_from_browser(self, msg):
        self._refuse_in_replay("the match's cursor does not move")
        step = self._check_step(msg)
        if self.lock_seat:
            raise _Refused(self._locked_text("the match stays where it is"))
        self._holding = True
        try:
            self._match.goto(step)
            self.error = ""
            # "Continue from here": if a bot's seat is to move there, it answers now.
            if self._bots:
                self._match.autoplay(self._bots)
        finally:
            self._holding = False
        self._pass_if_needed()
        self._send_legal()

    def _locked_text(self, outcome: str) -> str:
        live = len(self._match)
        where = "" if self._match.cursor == live else f" (the match is shown at step {self._match.cursor})"
        return (f"This is {self._seat_label()}, locked to the game as it is played: it plays only at the "
                f"last step, {live}{where}, and cannot move the match back; {outcome}.")

    def close(self):
        _CURRENT_BEHIND.discard(self)
        if getattr(self, "_unobserve", None) is not None:
            self._unobserve()
            self._unobserve = None
        super().close()


GameWidget._esm = _bundle(STATIC / "generic.js")

"""The timeline: a recorded game that users play, rewind, fork and replay.

The list of actions is the source of truth (a replay is a start plus actions). Every state
along it is cached, so ``goto`` and ``frames`` never recompute a position they have seen.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Optional, Union

from .errors import IllegalAction, ReplayError, quote
from .game import MAX_DEPTH, Game, State, depth_exceeds, make, make_from_data
from .rng import check_seed, fresh_seed
from .wire import share

REPLAY_FORMAT = "tabletop_widgets.match"
REPLAY_VERSION = 1


def _short(value, limit: int = 80) -> str:
    """Untrusted input quoted in a message (:func:`~.errors.quote`: cut, and safe at any depth)."""
    return quote(value, limit)


class CacheSize:
    """A cache's bound, set per instance over the class's default: refused unless an int from 0
    (a bound below 0 would empty the cache and then pop from nothing on the next entry)."""

    def __init__(self, default: int):
        self.default = default

    def __set_name__(self, owner, name):
        self.name = name
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.default
        return obj.__dict__.get(self.slot, self.default)

    def __set__(self, obj, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.name} must be an int (how many entries to keep), got {_short(value)}")
        if value < 0:
            raise ValueError(f"{self.name} must be 0 or more, got {value}")
        obj.__dict__[self.slot] = value


@dataclass(frozen=True)
class Frame:
    """One renderable sub-step: ``step`` actions applied, ``sub``-th consequence of the last.

    ``view`` is what the seat the frames were asked for may know after this sub-step.
    ``last`` says the frame is the final one of its step (the state where play continues).
    """

    step: int
    sub: int
    caption: str
    view: dict
    kind: str = "action"
    data: Optional[dict] = None
    last: bool = True

    def to_dict(self) -> dict:
        return {
            "step": self.step,
            "sub": self.sub,
            "caption": self.caption,
            "kind": self.kind,
            "data": self.data or {},
            "view": self.view,
            "last": self.last,
        }


class Match:
    """A recorded game starting at ``game.new_state(seed)`` or at a set-up ``state``.

    Without a ``seed`` (and without a ``state``) the deal's seed is drawn from the operating
    system (:func:`~.rng.fresh_seed`) and kept in :attr:`seed`, so the replay reproduces it.
    """

    #: How many (step, seat) frame lists a match keeps; the least recently used go first.
    #: (A finished 6-player Plus game holds about 2,100 with every seat's view.)
    frame_cache_size = CacheSize(4096)

    def __init__(
        self,
        game_or_name: Union[Game, str],
        seed: Optional[int] = None,
        players: Optional[int] = None,
        state: Optional[State] = None,
        **options,
    ):
        if isinstance(game_or_name, Game):
            if players is not None and players != game_or_name.players or options:
                raise ValueError("give players and options to tw.make(), not to Match(), when passing a Game")
            game = game_or_name
        elif isinstance(game_or_name, str):
            game = make(game_or_name, players=players, **options)
        else:
            raise ValueError(f"Match needs a Game or a game name, got {game_or_name!r}")
        self.game = game
        if state is not None:
            if not isinstance(state, State) or state.game != game:
                raise ValueError("state= must be a state of the same game, players and options")
            self.seed = None
            self._start = state
        else:
            self.seed = fresh_seed() if seed is None else check_seed(seed)
            self._start = game.new_state(self.seed)
        self._actions: list = []
        self._states: list[State] = [self._start]
        self._cursor = 0
        self._frames: OrderedDict = OrderedDict()
        self._listeners: list[Callable] = []

    # reading ---------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[self._cursor]

    @property
    def cursor(self) -> int:
        return self._cursor

    @property
    def actions(self) -> tuple:
        return tuple(self._actions)

    def state_at(self, step: int) -> State:
        return self._states[self._check_step(step)]

    def __len__(self) -> int:
        return len(self._actions)

    def __repr__(self):
        return f"<Match {self.game!r} step {self._cursor}/{len(self)}>"

    # changing ---------------------------------------------------------------------------------
    def play(self, action) -> State:
        """Apply ``action`` at the cursor; a rewound future is dropped (fork first to keep it)."""
        action = self.state.check(action)  # IllegalAction here leaves everything unchanged
        new = self.state._apply(action)
        dropped = len(self._actions) - self._cursor
        del self._actions[self._cursor:]
        del self._states[self._cursor + 1:]
        if dropped:
            self._frames = OrderedDict((k, v) for k, v in self._frames.items() if k[0] <= self._cursor)
        self._actions.append(action)
        self._states.append(new)
        self._cursor += 1
        self._notify("play", step=self._cursor, dropped=dropped)
        return new

    def undo(self) -> State:
        if self._cursor == 0:
            raise IndexError("nothing to undo: the cursor is at the start")
        return self.goto(self._cursor - 1)

    def redo(self) -> State:
        if self._cursor == len(self._actions):
            raise IndexError("nothing to redo: the cursor is at the last recorded step")
        return self.goto(self._cursor + 1)

    def goto(self, step: int) -> State:
        self._cursor = self._check_step(step)
        self._notify("cursor", step=self._cursor)
        return self.state

    def fork(self) -> "Match":
        """An independent copy of the timeline up to the cursor."""
        other = Match.__new__(Match)
        other.game = self.game
        other.seed = self.seed
        other._start = self._start
        other._actions = self._actions[: self._cursor]
        other._states = self._states[: self._cursor + 1]
        other._cursor = self._cursor
        other._frames = OrderedDict((k, v) for k, v in self._frames.items() if k[0] <= self._cursor)
        other._listeners = []
        return other

    def autoplay(self, bots, max_steps: Optional[int] = None) -> State:
        """Let ``bots`` ({seat: bot}) play until a seat without a bot must decide or the end."""
        from .bots import observation_for, resolve_bots

        table = resolve_bots(self.game.name, bots)
        done = 0
        while not self.state.is_over and self.state.to_move in table:
            if max_steps is not None and done >= max_steps:
                break
            seat = self.state.to_move
            legal = self.state.legal_actions()
            choice = table[seat].choose(observation_for(table[seat], self.state, seat), legal)
            try:
                self.play(choice)
            except IllegalAction as exc:
                # The engine's sentence lists the seat's legal actions, which show its hand: a
                # widget puts the refusal on the screen of the player the bot answered.
                raise IllegalAction(f"{self.game.seat_names[seat]}'s bot ({type(table[seat]).__name__}) chose an "
                                    "action that is not legal here; nothing was played for it") from exc
            done += 1
        return self.state

    # frames ------------------------------------------------------------------------------------
    def frames(self, seat: Optional[int] = None) -> list[Frame]:
        """Every renderable sub-step from the start, as ``seat`` may see it."""
        out = []
        for step in range(len(self._actions) + 1):
            out.extend(self.frames_of_step(step, seat))
        return out

    def frames_of_step(self, step: int, seat: Optional[int] = None) -> list[Frame]:
        """The frames of one step (0 is the set-up), cached per (step, seat).

        The cache keeps the :attr:`frame_cache_size` most recently used (step, seat) lists. A
        view shares every part that did not change with the view before it (the previous frame,
        or the previous step's last frame when cached): views are never changed in place."""
        self._check_seat(seat)
        key = (self._check_step(step), seat)
        cached = self._frames.get(key)
        if cached is not None:
            self._frames.move_to_end(key)
            return cached
        state = self._states[step]
        before_frames = self._frames.get((step - 1, seat)) if step > 0 else None
        prev = before_frames[-1].view if before_frames else None

        seen = None  # the observation `prev` was made from (within this step)

        def view_of(observed):
            nonlocal prev, seen
            prev = observed if prev is None else share(prev, observed, seen)
            seen = observed
            return prev

        if step == 0:
            frames = [Frame(0, 0, state.setup_caption(), view_of(state.observe(seat)), "setup", {}, True)]
        else:
            before = self._states[step - 1]
            events = state.events
            if not events:
                frames = [Frame(step, 0, before.caption(self._actions[step - 1]), view_of(state.observe(seat)))]
            else:
                frames = []
                for sub, event in enumerate(events):
                    text, data = event.seen_by(seat)
                    after = event.after if event.after is not None else state
                    frames.append(
                        Frame(step, sub, text, view_of(after.observe(seat)), event.kind, data, sub == len(events) - 1)
                    )
        self._frames[key] = frames
        while len(self._frames) > self.frame_cache_size:
            self._frames.popitem(last=False)
        return frames

    def first_frame_of_step(self, step: int, seat: Optional[int] = None) -> tuple[Frame, int]:
        """The first frame of ``step`` (as :meth:`frames_of_step` makes it, up to the sharing of
        unchanged parts) and how many frames the step has, without making the others: a widget
        sends a move's own frame before the consequences it set off (an oven evaluation's
        dozens of sub-steps). Cached only as part of the whole step."""
        self._check_seat(seat)
        key = (self._check_step(step), seat)
        cached = self._frames.get(key)
        if cached is not None:
            return cached[0], len(cached)
        events = self._states[step].events if step > 0 else ()
        if len(events) < 2:
            frames = self.frames_of_step(step, seat)
            return frames[0], len(frames)
        event = events[0]
        text, data = event.seen_by(seat)
        after = event.after if event.after is not None else self._states[step]
        return Frame(step, 0, text, after.observe(seat), event.kind, data, False), len(events)

    def _check_seat(self, seat):
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players):
            raise ValueError(f"seat must be None or an int from 0 to {self.game.players - 1}, got {seat!r}")

    def _check_step(self, step) -> int:
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(self._actions):
            raise IndexError(f"step must be an int from 0 to {len(self._actions)}, got {step!r}")
        return step

    # listeners (the widget keeps itself in sync through these) -----------------------------------
    def observe_changes(self, callback: Callable) -> Callable:
        """Call ``callback(kind, **info)`` after every change; returns a function that stops it."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def _notify(self, kind: str, **info):
        for callback in list(self._listeners):
            callback(kind, **info)

    # replays -----------------------------------------------------------------------------------
    def to_json(self) -> str:
        doc = {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            **self.game.spec(),
            "actions": [str(a) for a in self._actions],
            "cursor": self._cursor,
        }
        if self.seed is not None:
            doc["seed"] = self.seed
        else:
            doc["start"] = json.loads(self._start.to_json())["state"]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text) -> "Match":
        """Load a replay, checking every action; :class:`ReplayError` names the bad step."""
        try:
            doc = json.loads(text) if isinstance(text, (str, bytes)) else text
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, too deep
            raise ReplayError(f"the replay is not valid JSON: {_short(exc, 200)}") from None
        if depth_exceeds(doc, MAX_DEPTH):
            raise ReplayError(f"the replay is nested deeper than {MAX_DEPTH} levels")
        if not isinstance(doc, dict):
            raise ReplayError("a replay must be a JSON object")
        if doc.get("format") != REPLAY_FORMAT:
            raise ReplayError(f"not a tabletop_widgets replay (format {_short(doc.get('format'))})")
        if doc.get("version") != REPLAY_VERSION or isinstance(doc.get("version"), bool):
            raise ReplayError(f"unsupported replay version {_short(doc.get('version'))}")
        actions = doc.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ReplayError("'actions' must be a list of action notations (strings)")
        name = doc.get("game")
        if not isinstance(name, str):
            raise ReplayError(f"'game' must be a game's name (a string), got {_short(name)}")
        players = doc.get("players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ReplayError(f"'players' must be an int, got {_short(players)}")
        options = doc.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise ReplayError("'options' must be an object of rules switches")
        if ("seed" in doc) == ("start" in doc):
            raise ReplayError("a replay has either a 'seed' or a 'start' state")
        if "seed" in doc and (isinstance(doc["seed"], bool) or not isinstance(doc["seed"], int)):
            raise ReplayError(f"'seed' must be an int, got {_short(doc['seed'])}")
        if "start" in doc and not isinstance(doc["start"], dict):
            raise ReplayError(f"'start' must be a state (an object), got {_short(doc['start'])}")
        try:
            game = make_from_data(name, players, options)  # a replay's options name no file
        except ValueError as exc:
            raise ReplayError(f"the replay's set-up is invalid: {exc}") from None
        except Exception as exc:  # an option's check tripping over a value of the wrong shape
            raise ReplayError(f"the replay's options are invalid: {type(exc).__name__}: {exc}") from None
        try:
            if "seed" in doc:
                match = cls(game, seed=doc["seed"])
            else:
                start = game.state_from_json(json.dumps(dict(game.spec(), state=doc["start"])))
                match = cls(game, state=start)
        except Exception as exc:
            # A start state is untrusted input read by the game's own checks; whatever they
            # trip over (a missing key, a wrong type deep inside) is a corrupt replay.
            raise ReplayError(f"the replay's set-up is invalid: {type(exc).__name__}: {exc}") from None
        for i, notation in enumerate(actions, start=1):
            try:
                match.play(notation)
            except IllegalAction as exc:
                raise ReplayError(f"step {i}: {exc}", step=i) from None
            except Exception as exc:  # an engine tripping over a position its loader let through
                raise ReplayError(f"step {i}: {_short(notation)} cannot be played here "
                                  f"({type(exc).__name__}: {_short(str(exc), 200)})", step=i) from None
        cursor = doc.get("cursor", len(actions))
        if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(actions):
            raise ReplayError(f"'cursor' must be an int from 0 to {len(actions)}, got {_short(cursor)}")
        match._cursor = cursor
        return match

    def save(self, path) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(self.to_json())

    @classmethod
    def load(cls, path) -> "Match":
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(fh.read())

    def svg(self, seat: Optional[int] = None, step: Optional[int] = None) -> str:
        """The picture (SVG) of the cursor's step (or ``step``) as ``seat`` sees it."""
        from .picture import match_svg

        return match_svg(self, seat, step)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_png_(self) -> Optional[bytes]:
        # The same picture for viewers that drop SVG; None (no PNG) without resvg-py.
        from .picture import png

        return png(self.svg())

    def to_html(self, path, seat: Optional[int] = None, steps=None) -> None:
        """A standalone HTML replay that plays in any browser with no kernel: as ``seat``
        sees it (``None``: all-seeing), of the steps ``(first, last)`` (default: all)."""
        from .html import write_html

        write_html(self, path, seat=seat, steps=steps)



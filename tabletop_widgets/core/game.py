"""The shared shape of every game: rules switches, states, the checked path and the registry.

A game module subclasses :class:`Game` and :class:`State`, implements the ``_``-prefixed
hooks, and calls :func:`register`. The core never imports a game.
"""

from __future__ import annotations

import contextvars
import json
import os
import stat
from dataclasses import dataclass
from typing import Any, ClassVar, Optional

from .errors import IllegalAction
from .events import Event

_REGISTRY: dict[str, type["Game"]] = {}


def register(cls: type["Game"]) -> type["Game"]:
    """Class decorator: make ``cls`` findable by ``make(cls.name)``."""
    _REGISTRY[cls.name] = cls
    return cls


def registered() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def game_class(name: str) -> type["Game"]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(map(repr, _REGISTRY))}") from None


def make(name: str, players: Optional[int] = None, **options) -> "Game":
    """The :class:`Game` ``name`` for ``players`` seats with the given rules switches."""
    return game_class(name)(players=players, **options)


# Whether option values may name files. Options read from Python (``tw.make(..., deck=path)``)
# may; options read from a replay or a state's JSON, data from strangers, may not.
_FILES_ALLOWED = contextvars.ContextVar("tabletop_widgets_files_allowed", default=True)


def files_allowed() -> bool:
    """False while a game is made from a replay's or a state's data (:func:`make_from_data`):
    an option hook must then read no file."""
    return _FILES_ALLOWED.get()


def make_from_data(name: str, players: Optional[int], options: dict) -> "Game":
    """:func:`make` for a spec read from data a stranger may have written (a replay): no
    option value may name a file (a deck is then a registered name or given inline)."""
    token = _FILES_ALLOWED.set(False)
    try:
        return make(name, players=players, **options)
    finally:
        _FILES_ALLOWED.reset(token)


#: The largest file an option may name (a deck file is a few kilobytes).
OPTION_FILE_LIMIT = 1 << 20


def read_option_file(path, what: str) -> str:
    """The text of the regular file ``path``, for an option given from Python (a deck file).

    ``ValueError`` for anything else: a FIFO would block for ever and ``/dev/zero`` never ends,
    so the file is opened without blocking, checked to be regular and read up to a size cap.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, TypeError, ValueError) as exc:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what} {str(path)!r} is not a regular file")
        if info.st_size > OPTION_FILE_LIMIT:
            raise ValueError(f"{what} {str(path)!r} is larger than {OPTION_FILE_LIMIT} bytes")
        data = os.read(fd, OPTION_FILE_LIMIT + 1)
    except OSError as exc:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {exc}") from None
    finally:
        os.close(fd)
    if len(data) > OPTION_FILE_LIMIT:
        raise ValueError(f"{what} {str(path)!r} is larger than {OPTION_FILE_LIMIT} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} {str(path)!r} is not UTF-8 text: {exc}") from None


@dataclass(frozen=True)
class Option:
    """A rules switch: its default, its allowed values and the sentence documenting it.

    ``allowed`` is a tuple of values, or a predicate with ``describe`` saying what it accepts.
    """

    default: Any
    allowed: Any
    doc: str = ""
    describe: str = ""

    def accepts(self, value) -> bool:
        if callable(self.allowed):
            return bool(self.allowed(value))
        return any(value == a and type(value) is type(a) for a in self.allowed)

    def allowed_text(self) -> str:
        if callable(self.allowed):
            return self.describe or "see the rules page"
        return ", ".join(repr(a) for a in self.allowed)


#: How many action objects a game's index-by-identity map keeps before it starts again.
_INDEX_KEPT_LIMIT = 100_000


class Game:
    """A game with a fixed number of players and fixed rules switches.

    Subclasses set ``name``, ``min_players``/``max_players``/``default_players``, ``OPTIONS``
    and ``seat_names``, and implement :meth:`new_state` and :meth:`_state_from_payload`.
    """

    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    OPTIONS: ClassVar[dict[str, Option]] = {}
    #: False for games of perfect information (every seat sees the whole state).
    hidden_information: ClassVar[bool] = True
    #: The browser renderer: ``tabletop_widgets/static/<renderer>.js`` (and its
    #: ``.standalone.js`` for HTML replays), built from ``js/src/<renderer>.js``.
    renderer: ClassVar[str] = "generic"

    def __init__(self, players: Optional[int] = None, **options):
        if players is None:
            players = self.default_players
        if isinstance(players, bool) or not isinstance(players, int) or not (
            self.min_players <= players <= self.max_players
        ):
            raise ValueError(
                f"{self.name}: players must be an int from {self.min_players} to "
                f"{self.max_players}, got {players!r}"
            )
        self.players = players
        for key, value in options.items():
            if key not in self.OPTIONS:
                known = ", ".join(sorted(self.OPTIONS)) or "none"
                raise ValueError(f"{self.name}: unknown option {key!r}; the options are {known}")
        resolved = {}
        for key, opt in self.OPTIONS.items():
            if key in options:
                value = self._load_option(key, options[key])
            else:
                value = self._default_option(key, players)
            if not opt.accepts(value):
                raise ValueError(
                    f"{self.name}: option {key}={value!r} is not allowed; allowed values: "
                    f"{opt.allowed_text()}"
                )
            resolved[key] = value
        self._check_options(resolved)
        self.options = resolved

    #: What the game works out on demand and keeps (filled again when needed): a pickled game,
    #: as inside a state shipped to a worker process, leaves it behind. The action index by
    #: ``id()`` would name other objects in another process, and the caches of a game that has
    #: played for a while weigh megabytes.
    _PROCESS_CACHES: ClassVar[tuple[str, ...]] = ("_index_by_id", "_index_of", "_index_kept")

    def __getstate__(self):
        state = dict(self.__dict__)
        for key in self._PROCESS_CACHES:
            state.pop(key, None)
        return state

    # hooks -----------------------------------------------------------------------------
    def _default_option(self, key: str, players: int):
        """The default of option ``key`` (override when it depends on the player count)."""
        return self.OPTIONS[key].default

    def _load_option(self, key: str, value):
        """The data an option value given to :func:`make` stands for (e.g. a deck file's path
        read into the deck, so the spec and replays carry data, never a path). Must read no
        file while :func:`files_allowed` is False."""
        return value

    def _check_options(self, options: dict) -> None:
        """Raise ``ValueError`` for combinations of switches the rules forbid."""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"Player {i + 1}" for i in range(self.players))

    def new_state(self, seed: int = 0) -> "State":
        raise NotImplementedError

    def _state_from_payload(self, payload: dict) -> "State":
        """Build and validate a state from its JSON payload (``ValueError`` if inconsistent)."""
        raise NotImplementedError

    # hooks for learning environments (tabletop_widgets.pettingzoo); optional -------------
    def action_catalogue(self) -> tuple[str, ...]:
        """Every notation that ``legal_actions()`` may ever produce for these players and
        options, each once, in an order fixed for the game: index ``i`` is action ``i``."""
        raise NotImplementedError(
            f"{self.name} has no action catalogue: Game.action_catalogue() must return a tuple of "
            "every action notation its states can make legal, in a fixed order"
        )

    def _catalogue_index_by_identity(self, action) -> int:
        """The index of ``action`` in :meth:`action_catalogue`, for a game that builds each action
        object once (so its id is stable): found by id, its notation written only the first time."""
        d = self.__dict__
        by_id = d.get("_index_by_id")
        if by_id is None:
            by_id = d["_index_by_id"] = {}
            d["_index_of"] = {a: i for i, a in enumerate(self.action_catalogue())}
            d["_index_kept"] = {}
        index = by_id.get(id(action))
        if index is None:
            index = d["_index_of"][str(action)]
            # An id names an object only while it lives: the map keeps every object it notes,
            # or a freed one's id, taken by a new object (an equal action built by hand, a
            # string), would give that object the old one's index. Bounded for objects built
            # anew at every call; the game's own ones are noted again at once.
            kept = d["_index_kept"]
            if len(kept) >= _INDEX_KEPT_LIMIT:
                kept.clear()
                by_id.clear()
            by_id[id(action)] = index
            kept[id(action)] = action
        return index

    def _catalogue_indices_by_identity(self, actions) -> list:
        """:meth:`_catalogue_index_by_identity` of each of ``actions``, in order: once every
        object has been seen, one pass of dictionary look-ups made in C."""
        by_id = self.__dict__.get("_index_by_id")
        if by_id is not None:
            try:
                return list(map(by_id.__getitem__, map(id, actions)))
            except KeyError:  # an object not seen yet: the slow path notes it (and only it)
                index = self._catalogue_index_by_identity
                return [by_id[k] if (k := id(a)) in by_id else index(a) for a in actions]
        index = self._catalogue_index_by_identity
        return [index(a) for a in actions]

    def observation_size(self) -> int:
        """The length of every :meth:`observation_vector` of this game (players and options)."""
        raise NotImplementedError(
            f"{self.name} has no observation encoding: Game.observation_size() and "
            "Game.observation_vector(observation, seat) are not implemented"
        )

    def observation_vector(self, observation: dict, seat: int) -> list[float]:
        """``observation`` (``state.observe(seat)``) as ``observation_size()`` numbers."""
        raise NotImplementedError(
            f"{self.name} has no observation encoding: Game.observation_size() and "
            "Game.observation_vector(observation, seat) are not implemented"
        )

    def state_vector(self, state: "State", seat: int):
        """``observation_vector(state.observe(seat), seat)``, the same numbers: a game may read
        its state directly (no observation dict built and parsed again), as long as the vector
        holds only what ``observe(seat)`` shows. A list, or a 1-D float32 numpy array (the
        learning environment's dtype: the numbers as float32)."""
        return self.observation_vector(state.observe(seat), seat)

    # pictures (tabletop_widgets.core.picture) -------------------------------------------
    def svg(self, frame, seat: Optional[int] = None) -> str:
        """The SVG picture of ``frame`` (a :class:`~.match.Frame`, drawn from its ``view``,
        which is ``seat``'s). Games draw their own in ``games/<game>/svg.py``."""
        from .picture import generic_svg

        return generic_svg(self, frame, seat)

    # shared ------------------------------------------------------------------------------
    def spec(self) -> dict:
        """The JSON-safe description that recreates this game with :func:`make`."""
        return {"game": self.name, "players": self.players, "options": dict(self.options)}

    def state_from_json(self, text: str) -> "State":
        """The state that :meth:`State.to_json` wrote; ``ValueError`` saying what is wrong."""
        try:
            doc = json.loads(text) if isinstance(text, (str, bytes)) else text
        except RecursionError:
            raise ValueError(f"not a state: JSON nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            raise ValueError(f"not valid JSON: {exc}") from None
        if depth_exceeds(doc, MAX_DEPTH):
            raise ValueError(f"not a state: JSON nested deeper than {MAX_DEPTH} levels")
        if not isinstance(doc, dict) or "state" not in doc:
            raise ValueError("a state's JSON must be an object with 'game', 'players', 'options', 'state'")
        if doc.get("game") != self.name:
            raise ValueError(f"this JSON is a {doc.get('game')!r} state, not {self.name!r}")
        if doc.get("players") != self.players:
            raise ValueError(f"this JSON is for {doc.get('players')!r} players, the game has {self.players}")
        if doc.get("options", self.options) != self.options:
            raise ValueError(f"this JSON was made with options {doc.get('options')!r}, the game has {self.options!r}")
        if not isinstance(doc["state"], dict):
            raise ValueError("'state' must be an object")
        state = self._state_from_payload(doc["state"])
        # A loaded state can be played on: a widget showing one where nobody can act and the
        # game is not over would wait for ever.
        if not state.is_over and not state.legal_actions():
            who = self.seat_names[state.to_move] if isinstance(state.to_move, int) else repr(state.to_move)
            raise ValueError(f"{who} is to move, the game is not over, and no action is legal: not a state to play on")
        return state

    def parse_action(self, state: "State", text: str):
        """The legal action of ``state`` whose notation is ``text``."""
        if not isinstance(text, str):
            raise IllegalAction(f"an action's notation must be a string, got {text!r}")
        wanted = text.strip()
        for action in state.legal_actions():
            if str(action) == wanted:
                return action
        raise IllegalAction(state._why_illegal(wanted))

    def __eq__(self, other):
        return isinstance(other, Game) and other.spec() == self.spec()

    def __hash__(self):
        return hash(json.dumps(self.spec(), sort_keys=True))

    def __repr__(self):
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"tw.make({self.name!r}, players={self.players}{opts})"


class State:
    """An immutable position. Subclasses implement the ``_``-prefixed hooks.

    ``apply`` is the checked public path; ``_apply`` the unchecked fast one used by playouts.
    """

    game: Game
    events: tuple[Event, ...] = ()

    # hooks -----------------------------------------------------------------------------
    @property
    def to_move(self) -> Optional[int]:
        raise NotImplementedError

    def legal_actions(self) -> list:
        raise NotImplementedError

    def _apply(self, action) -> "State":
        """The next state for a legal ``action`` (not checked), with its ``events``."""
        raise NotImplementedError

    def observe(self, seat: Optional[int] = None) -> dict:
        raise NotImplementedError

    def _payload(self) -> dict:
        """Everything that defines the state, JSON-safe (the RNG included)."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple:
        raise NotImplementedError

    @property
    def winners(self) -> tuple:
        """The winning seats once the game is over, else ``()``."""
        raise NotImplementedError

    def vary_hidden(self, seat: Optional[int], rng) -> "State":
        """A state that differs from this one only in what ``seat`` may not know.

        For example the other hands and the supply dealt anew from the same cards (``rng`` is a
        :class:`~tabletop_widgets.core.rng.Rng`). A game without hidden information returns an
        equal state. The conformance suite checks ``observe(seat)`` is the same for both.
        """
        raise NotImplementedError(f"{type(self).__name__} must say what each seat cannot see")

    # shared ------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def apply(self, action) -> "State":
        """The state after ``action`` (an action or its notation); raises :class:`IllegalAction`."""
        return self._apply(self.check(action))

    def playout(self) -> "Playout":
        """A position of its own that :meth:`Playout.play` changes in place, starting from this
        one (which stays as it is): the fast path for random playouts and simulations."""
        return Playout(self)

    def check(self, action):
        """The legal action meant by ``action`` (an action or its notation), or :class:`IllegalAction`."""
        if self.is_over:
            raise IllegalAction(f"the game is over; no action is legal (tried {action!s})")
        if isinstance(action, str):
            return self.game.parse_action(self, action)
        # The game's own object is played, not the one given: an object equal to a legal action
        # (an action built anew, a wrapper comparing equal) lacks what the engine reads.
        try:
            found = {a: a for a in self.legal_actions()}.get(action)
        except TypeError:
            found = None
        if found is None:
            raise IllegalAction(self._why_illegal(str(action)))
        return found

    def _why_illegal(self, text: str) -> str:
        """The message of an :class:`IllegalAction` for ``text``; games may explain more."""
        legal = [str(a) for a in self.legal_actions()]
        sample = ", ".join(legal[:8]) + (f", … ({len(legal)} in all)" if len(legal) > 8 else "")
        who = self.game.seat_names[self.to_move] if self.to_move is not None else "nobody"
        return f"{text!r} is not a legal action for {who} here; legal actions: {sample or 'none'}"

    def to_json(self) -> str:
        """The whole state as canonical JSON (sorted keys), for :meth:`Game.state_from_json`."""
        doc = dict(self.game.spec(), state=self._payload())
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    def __eq__(self, other):
        return (
            isinstance(other, State) and other.game == self.game and other._payload() == self._payload()
        )

    def __hash__(self):
        return hash(self.to_json())

    def svg(self, seat: Optional[int] = None) -> str:
        """This state drawn as SVG, as ``seat`` may see it (``None``: all-seeing)."""
        from .picture import state_svg

        return state_svg(self, seat)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_png_(self) -> Optional[bytes]:
        # The same picture for viewers that drop SVG; None (no PNG) without resvg-py.
        from .picture import png

        return png(self.svg())

    def caption(self, action) -> str:
        """The sentence for an action that caused no event (games may say more)."""
        return f"{self.game.seat_names[self.to_move]} plays {action}."

    def setup_caption(self) -> str:
        """The sentence of the timeline's first frame."""
        if self.to_move is None:
            return f"Set-up: {self.game.players} players; the game is already over."
        return f"Set-up: {self.game.players} players; {self.game.seat_names[self.to_move]} to move."


class Playout:
    """A position that :meth:`play` changes in place, for playouts: ``state.playout()``.

    It reads like a state (``to_move``, ``is_over``, ``legal_actions()``, ``check``,
    ``observe(seat)``, ``scores``, ``winners``) and moves on with ``play(action)``, where a
    state gives a new one with ``apply``. ``play`` takes one of ``legal_actions()`` and does
    not check it (``check`` does); it writes no events. :meth:`snapshot` is the position as
    an immutable state, which later plays leave unchanged. A game may give its own playout
    that updates its fields in place instead of making a new state every action (Mamma Mia);
    this one, every game's by default, holds the latest state.
    """

    __slots__ = ("_state",)

    def __init__(self, state: State):
        self._state = state

    def play(self, action) -> None:
        """Move on with ``action``, one of :meth:`legal_actions` (not checked)."""
        self._state = self._state._apply(action)

    def snapshot(self) -> State:
        """The position now, as an immutable state."""
        return self._state

    @property
    def to_move(self) -> Optional[int]:
        return self._state.to_move

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def scores(self) -> tuple:
        return self._state.scores

    @property
    def winners(self) -> tuple:
        return self._state.winners

    def legal_actions(self) -> list:
        return self._state.legal_actions()

    def check(self, action):
        return self._state.check(action)

    def observe(self, seat: Optional[int] = None) -> dict:
        return self._state.observe(seat)


#: No state, replay or deck is nested this deep; deeper JSON is refused before any check
#: walks it (a recursive comparison would raise ``RecursionError``).
MAX_DEPTH = 64


def depth_exceeds(value, limit: int) -> bool:
    """True when ``value`` (parsed JSON) nests lists and objects deeper than ``limit``,
    found without recursion."""
    todo = [(value, 0)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, (list, tuple, dict)):
            if depth >= limit:
                return True
            todo.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return False


def canonical_json(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))



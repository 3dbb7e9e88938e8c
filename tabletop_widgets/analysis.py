"""``tw.simulate``: many bot-played games, one row each, on any executor.

Game ``i`` is dealt with seed ``seed + i`` and its bots get seeds derived from that seed and
their seat, so a row depends only on its seed: serial, threads, processes and a Dask cluster
give the same table.

>>> df = tw.simulate("mamba", games=10, bots="random", progress=False)
>>> df.columns.tolist()
['game', 'players', 'seed', 'bots', 'winners', 'scores', 'steps', 'finished']
"""

from __future__ import annotations

import concurrent.futures
import importlib
import math
import pickle
import sys
import time
from typing import Callable, Optional, Sequence

from ._extras import missing
from .core.bots import for_game, observation_for
from .core.game import game_class, make, registered
from .core.rng import Rng, check_seed

COLUMNS = ("game", "players", "seed", "bots", "winners", "scores", "steps", "finished")

# A bot's seed is drawn from the game's seed on a stream of its own per seat, far from the
# streams the games use, so bots of different seats (and games) never share a sequence.
_BOT_STREAM = 0x5EA7


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game dealt with ``game_seed``."""
    value, _ = Rng.from_seed(game_seed, stream=_BOT_STREAM + seat).next64()
    return value


def simulate(
    name: str,
    games: int = 100,
    players: Optional[int] = None,
    bots="random",
    seed: int = 0,
    max_steps: Optional[int] = None,
    executor=None,
    progress: bool = True,
    chunk_size: Optional[int] = None,
    **options,
):
    """Play ``games`` games of ``name`` between bots; a ``pandas.DataFrame``, one row per game.

    Columns: ``game``, ``players``, ``seed`` (the deal), ``bots`` (tuple of bot names by
    seat), ``winners`` and ``scores`` (tuples by seat), ``steps`` (actions played) and
    ``finished`` (``False`` when ``max_steps`` stopped the game first; its ``winners`` is
    then ``()`` and ``scores`` the scores so far).

    ``bots`` is one bot name for every seat, a list with one per seat, or a dict
    ``{seat: bot}`` (seats left out play ``"random"``). A bot is a name from
    ``tw.bots.for_game(name)`` or a bot class (any callable ``f(seed=...)`` returning an object
    with ``choose``); a fresh bot is made for each game. ``executor`` is ``None`` (this
    process), a ``concurrent.futures.Executor`` or a ``dask.distributed.Client``; games are
    sent in chunks of ``chunk_size``. Bad arguments raise ``ValueError`` before any game runs.
    """
    try:
        import pandas as pd
    except ModuleNotFoundError as exc:
        raise missing(exc, "tw.simulate") from None

    game = _check_game(name, players, options)
    games = _check_count("games", games)
    seed = check_seed(seed)
    if max_steps is not None:
        max_steps = _check_count("max_steps", max_steps)
    if chunk_size is not None:
        chunk_size = _check_count("chunk_size", chunk_size)
        if chunk_size == 0:
            raise ValueError("chunk_size must be at least 1")
    names, factories = _check_bots(game, bots)
    submit = _runner(executor)
    if isinstance(executor, concurrent.futures.ProcessPoolExecutor):
        try:
            pickle.dumps(tuple(factories))
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            raise ValueError(
                f"bots: to play in other processes a bot must be a class defined at a module's top level ({exc})"
            ) from None

    seeds = list(range(seed, seed + games))
    module = type(game).__module__
    spec = (game.name, game.players, dict(game.options))
    rows = submit(
        _play_chunk,
        _chunks(seeds, chunk_size, executor),
        (module, spec, tuple(factories), max_steps),
        _Progress(f"simulate {game.name}", games) if progress and games else None,
    )

    n = len(rows)
    df = pd.DataFrame(
        {
            "game": pd.Series([game.name] * n, dtype=str),
            "players": pd.Series([game.players] * n, dtype="int64"),
            # Seeds beyond 64 bits are allowed (any int is a seed); pandas keeps those as objects.
            "seed": pd.Series([r[0] for r in rows], dtype="int64" if -2**63 <= seed and seed + games <= 2**63 else object),
            "bots": pd.Series([tuple(names)] * n, dtype=object),
            "winners": pd.Series([r[1] for r in rows], dtype=object),
            "scores": pd.Series([r[2] for r in rows], dtype=object),
            "steps": pd.Series([r[3] for r in rows], dtype="int64"),
            "finished": pd.Series([r[4] for r in rows], dtype=bool),
        },
        columns=list(COLUMNS),
    )
    df.attrs.update(game=game.name, players=game.players, options=dict(game.options), bots=tuple(names),
                    seed=seed, max_steps=max_steps)
    return df


# checking the arguments -------------------------------------------------------------------
def _check_game(name, players, options):
    if not isinstance(name, str):
        raise ValueError(f"the game must be named by a string, one of {', '.join(registered())}; got {name!r}")
    game_class(name)  # ValueError naming the games
    return make(name, players=players, **options)


def _check_count(what: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be an int >= 0, got {value!r}")
    return value


def _check_bots(game, bots) -> tuple[list[str], list[Callable]]:
    """Bot names and bot factories by seat, checked (each factory is tried once)."""
    seats = range(game.players)
    if isinstance(bots, dict):
        for seat in bots:
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in seats:
                raise ValueError(f"bots: {seat!r} is not a seat; seats are 0 to {game.players - 1}")
        chosen = [bots.get(seat, "random") for seat in seats]
    elif isinstance(bots, (list, tuple)):
        if len(bots) != game.players:
            raise ValueError(f"bots: {len(bots)} given for {game.players} seats; give one per seat")
        chosen = list(bots)
    else:
        chosen = [bots] * game.players
    available = for_game(game.name)
    names, factories = [], []
    for seat, bot in zip(seats, chosen):
        if isinstance(bot, str):
            if bot not in available:
                raise ValueError(f"unknown bot {bot!r} for {game.name}; the bots are {', '.join(available)}")
            names.append(bot)
            factories.append(available[bot])
        elif isinstance(bot, type) or (callable(bot) and not hasattr(bot, "choose")):
            try:
                made = bot(seed=0)
            except Exception as exc:  # a factory that cannot be called the way simulate calls it
                raise ValueError(f"bots: seat {seat}'s bot cannot be made with {bot!r}(seed=...): {exc}") from None
            if not hasattr(made, "choose"):
                raise ValueError(f"bots: {bot!r}(seed=...) for seat {seat} has no choose() method")
            names.append(getattr(bot, "__name__", repr(bot)))
            factories.append(bot)
        else:
            raise ValueError(
                f"bots: seat {seat}'s bot must be a bot name ({', '.join(available)}) or a bot class, "
                f"got {bot!r} (simulate makes a fresh, seeded bot for every game)"
            )
    return names, factories


# playing ------------------------------------------------------------------------------------
_MADE: dict = {}


def _game(module: str, spec: tuple):
    """The game of ``spec``, made once per process (a worker plays many chunks of one game)."""
    name, players, options = spec
    key = (module, name, players, repr(sorted(options.items())))
    game = _MADE.get(key)
    if game is None:
        if name not in registered():
            # A worker process that has not imported the game's module yet (spawn, a Dask worker).
            importlib.import_module(module)
        game = _MADE[key] = make(name, players=players, **options)
    return game


class _Rows(list):
    """A chunk's rows, sent back from a worker as one object. Dask sends a plain list's every
    element as a frame of its own, with its own header: a chunk of 77 rows is 79 frames, fifty
    times the worker's time to serialize it whole, and taken apart frame by frame in the
    client's process, which on a local cluster shares the cores with the workers."""

    __slots__ = ()


def _play_chunk(seeds: Sequence[int], module: str, spec: tuple, factories: tuple, max_steps) -> _Rows:
    """Play the games dealt with ``seeds``; a top-level function so that processes can run it."""
    game = _game(module, spec)
    return _Rows([play_one(game, factories, s, max_steps) for s in seeds])


def play_one(game, factories, seed: int, max_steps: Optional[int] = None) -> tuple:
    """One game: ``(seed, winners, scores, steps, finished)``."""
    # the game played on one position changed in place (nobody keeps the states between)
    state = game.new_state(seed).playout()
    bots = [factory(seed=bot_seed(seed, seat)) for seat, factory in enumerate(factories)]
    steps = 0
    while not state.is_over and (max_steps is None or steps < max_steps):
        seat = state.to_move
        legal = state.legal_actions()
        choice = bots[seat].choose(observation_for(bots[seat], state, seat), legal)
        try:
            # The bot normally returns one of ``legal``: played as it is; anything else (a
            # notation, a forged action) is checked first.
            state.play(choice if choice in legal else state.check(choice))
        except ValueError as exc:
            raise RuntimeError(
                f"{game.name}, game with seed {seed}, step {steps + 1}: seat {seat}'s bot chose {choice!s}: {exc}"
            ) from None
        steps += 1
    finished = state.is_over
    return (seed, tuple(state.winners) if finished else (), tuple(state.scores), steps, finished)


# executors -----------------------------------------------------------------------------------
def _workers(executor) -> int:
    if executor is None:
        return 1
    n = getattr(executor, "_max_workers", None)
    if n is None and hasattr(executor, "nthreads"):
        try:
            n = sum(executor.nthreads().values())
        except Exception:  # a client that is not connected yet; the default chunking will do
            n = None
    return max(1, n or 4)


def _chunks(seeds: list, chunk_size: Optional[int], executor) -> list:
    """The seeds cut into the chunks sent to the executor, in seed order."""
    games = len(seeds)
    if chunk_size or executor is None:
        size = chunk_size or max(1, min(games, 10))
        return [seeds[i: i + size] for i in range(0, games, size)]
    # Guided sizes: each chunk takes a share of what is left (a third of a worker's share),
    # so the first chunks are big (little overhead) and the last ones single games. Game
    # lengths vary a lot (a Mamba game may be ten times another), and with equal chunks a
    # worker that drew the long ones finishes alone; here the workers pick up the small last
    # chunks as they free up and end within about one game of each other.
    workers = _workers(executor)
    chunks, at = [], 0
    while at < games:
        size = max(1, math.ceil((games - at) / (3 * workers)))
        chunks.append(seeds[at: at + size])
        at += size
    return chunks


def _is_dask_client(executor) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "gather")


def _runner(executor):
    if executor is None:
        return _run_serial
    if isinstance(executor, concurrent.futures.Executor):
        return lambda *a: _run_futures(executor, *a)
    if _is_dask_client(executor):
        return lambda *a: _run_dask(executor, *a)
    raise ValueError(
        f"executor must be None, a concurrent.futures.Executor or a dask.distributed.Client, got {executor!r}"
    )


def _run_serial(func, chunks, args, progress):
    rows = []
    try:
        for chunk in chunks:
            rows.extend(func(chunk, *args))
            if progress:
                progress.advance(len(chunk))
    finally:
        if progress:
            progress.close()
    return rows


def _run_futures(executor, func, chunks, args, progress):
    futures = {executor.submit(func, chunk, *args): i for i, chunk in enumerate(chunks)}
    results = [None] * len(chunks)
    try:
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()
            if progress:
                progress.advance(len(chunks[futures[future]]))
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        if progress:
            progress.close()
    return [row for chunk in results for row in chunk]


def _run_dask(client, func, chunks, args, progress):
    from distributed import as_completed

    # one graph for every chunk: a submit per chunk is a message of its own to the scheduler,
    # which runs in this process on a local cluster (about twice the CPU time per chunk)
    futures = client.map(func, chunks, *[[arg] * len(chunks) for arg in args], pure=False)
    try:
        # The rows come back in one gather at the end; finished chunks are only counted on the
        # way. Fetching each chunk's rows as it finishes is a round trip per chunk made from
        # this process, where the scheduler runs too and needs the CPU to hand out the chunks.
        if progress:
            size = {future.key: len(chunk) for future, chunk in zip(futures, chunks)}
            for future in as_completed(futures):
                if future.status == "error":
                    future.result()  # the worker's error, raised here
                progress.advance(size[future.key])
        results = client.gather(futures)
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if progress:
            progress.close()
    return [row for chunk in results for row in chunk]


# progress --------------------------------------------------------------------------------------
class _Progress:
    """A tqdm bar when tqdm is installed, else a line on stderr rewritten at most 5 times a second."""

    def __init__(self, label: str, total: int):
        self.label, self.total, self.done = label, total, 0
        try:
            from tqdm.auto import tqdm
        except ImportError:
            self.bar = None
            self._last = 0.0
            self._write()
        else:
            self.bar = tqdm(total=total, desc=label, unit="game")

    def advance(self, n: int):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif time.monotonic() - self._last >= 0.2 or self.done >= self.total:
            self._write()

    def _write(self):
        self._last = time.monotonic()
        sys.stderr.write(f"\r{self.label}: {self.done}/{self.total} games")
        sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")
            sys.stderr.flush()

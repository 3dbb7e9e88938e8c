"""tw.simulate: one row per game, the same on every executor, bad arguments refused up front."""

import concurrent.futures
import pickle

import pandas as pd
import pandas.testing as pdt
import pytest

import tabletop_widgets as tw
from tabletop_widgets.analysis import bot_seed
from tabletop_widgets.core.game import registered

import toy_game  # noqa: F401  (registers "toy-fifteen")

# Every registered game, the real ones included once they land; a cap on the actions keeps
# the runs short whatever the game, and the toy game always runs to its end.
ALL_GAMES = registered()
CAP = 300


class FirstLegal(tw.bots.Bot):
    """Always the first legal action: a deterministic bot that is not ``random``."""

    def choose(self, observation, legal_actions):
        return legal_actions[0]


class Forger(tw.bots.Bot):
    """Plays a notation that is never legal."""

    def choose(self, observation, legal_actions):
        return "not an action"


class SpyExecutor(concurrent.futures.Executor):
    """Records whether anything was submitted."""

    def __init__(self):
        self.submitted = 0

    def submit(self, fn, *args, **kwargs):
        self.submitted += 1
        future = concurrent.futures.Future()
        future.set_result(fn(*args, **kwargs))
        return future


def _replay_row(name, players, seed, bot_classes, max_steps=None, **options):
    """What one row must say, by playing the game here with the documented seeds."""
    game = tw.make(name, players=players, **options)
    state = game.new_state(seed)
    bots = [cls(seed=bot_seed(seed, s)) for s, cls in enumerate(bot_classes)]
    steps = 0
    while not state.is_over and (max_steps is None or steps < max_steps):
        seat = state.to_move
        state = state.apply(bots[seat].choose(state.observe(seat), state.legal_actions()))
        steps += 1
    return (tuple(state.winners) if state.is_over else ()), tuple(state.scores), steps, state.is_over


@pytest.mark.parametrize("name", ALL_GAMES)
def test_rows_describe_the_games_played(name):
    game = tw.make(name)
    df = tw.simulate(name, games=4, seed=10, max_steps=CAP, progress=False)
    assert list(df.columns)[:8] == ["game", "players", "seed", "bots", "winners", "scores", "steps", "finished"]
    assert df["seed"].tolist() == [10, 11, 12, 13]
    assert df["seed"].dtype == "int64" and df["steps"].dtype == "int64" and df["finished"].dtype == bool
    assert (df["game"] == name).all() and (df["players"] == game.players).all()
    for row in df.itertuples():
        assert isinstance(row.winners, tuple) and isinstance(row.scores, tuple)
        assert len(row.scores) == game.players
        assert row.bots == ("random",) * game.players
        assert 0 < row.steps <= CAP
        if row.finished:
            assert row.winners and set(row.winners) <= set(range(game.players))
        else:
            assert row.winners == () and row.steps == CAP
        assert (row.winners, row.scores, row.steps, row.finished) == _replay_row(
            name, game.players, row.seed, [tw.bots.for_game(name)["random"]] * game.players, max_steps=CAP)


@pytest.fixture(scope="module")
def process_pool():
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        yield pool


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_game_gives_the_same_table_in_other_processes(name, process_pool):
    kwargs = dict(games=6, seed=100, max_steps=CAP, progress=False)
    serial = tw.simulate(name, **kwargs)
    pdt.assert_frame_equal(serial, tw.simulate(name, executor=process_pool, chunk_size=2, **kwargs))
    pdt.assert_frame_equal(serial, tw.simulate(name, **kwargs))  # and again, the same


def test_a_row_depends_only_on_its_seed():
    whole = tw.simulate("toy-fifteen", games=12, players=3, progress=False)
    part = tw.simulate("toy-fifteen", games=5, players=3, seed=4, chunk_size=2, progress=False)
    cols = ["seed", "winners", "scores", "steps", "finished"]
    pdt.assert_frame_equal(part[cols], whole[cols].iloc[4:9].reset_index(drop=True))
    # ... and the seed matters: not every game of the twelve is the same.
    assert whole["scores"].nunique() > 1


def test_same_table_serial_threads_processes_and_dask():
    kwargs = dict(games=23, players=3, bots=["random", FirstLegal, "random"], seed=7, progress=False)
    serial = tw.simulate("toy-fifteen", **kwargs)
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        threads = tw.simulate("toy-fifteen", executor=pool, chunk_size=4, **kwargs)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        processes = tw.simulate("toy-fifteen", executor=pool, **kwargs)
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        dask = tw.simulate("toy-fifteen", executor=client, chunk_size=5, **kwargs)
    for other in (threads, processes, dask):
        pdt.assert_frame_equal(serial, other)
    assert serial.attrs == dask.attrs
    assert serial["bots"][0] == ("random", "FirstLegal", "random")


def test_dask_counts_progress_gathers_the_rows_once_and_passes_a_workers_error_on(capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        df = tw.simulate("toy-fifteen", games=9, seed=2, executor=client, chunk_size=2, progress=True)
        pdt.assert_frame_equal(df, tw.simulate("toy-fifteen", games=9, seed=2, progress=False))
        assert "9/9" in capsys.readouterr().err
        for progress in (True, False):
            with pytest.raises(RuntimeError, match=r"seed 3, step 1: seat 0's bot chose not an action"):
                tw.simulate("toy-fifteen", games=1, seed=3, bots=Forger, executor=client, chunk_size=1,
                            progress=progress)


def test_a_chunks_rows_travel_from_a_dask_worker_as_one_object():
    protocol = pytest.importorskip("distributed.protocol")
    from tabletop_widgets.analysis import _play_chunk

    game = tw.make("toy-fifteen", players=3)
    rows = _play_chunk(list(range(60)), type(game).__module__, (game.name, game.players, {}),
                       (tw.bots.Random,) * 3, None)
    # Dask serializes a plain list element by element, a frame and a header per row
    frames = protocol.dumps({"result": protocol.to_serialize(rows)})
    assert len(frames) < 5 < len(protocol.dumps({"result": protocol.to_serialize(list(rows))}))
    back = protocol.loads(frames)["result"]
    assert back == rows and len(back) == 60
    assert pickle.loads(pickle.dumps(rows)) == rows


def test_bots_per_seat_and_their_seeds():
    as_dict = tw.simulate("toy-fifteen", games=6, bots={1: FirstLegal}, progress=False)
    as_list = tw.simulate("toy-fifteen", games=6, bots=["random", FirstLegal], progress=False)
    pdt.assert_frame_equal(as_dict, as_list)
    for row in as_dict.itertuples():
        assert (row.winners, row.scores, row.steps, row.finished) == _replay_row(
            "toy-fifteen", 2, row.seed, [tw.bots.Random, FirstLegal])
    # The bots of the two seats draw from different seeds, game after game.
    assert len({bot_seed(s, seat) for s in range(50) for seat in range(4)}) == 200


def test_options_reach_the_game():
    tight = tw.simulate("toy-fifteen", games=10, limit=10, progress=False)
    loose = tw.simulate("toy-fifteen", games=10, limit=20, progress=False)
    assert tight.attrs["options"] == {"limit": 10}
    # A lower limit busts the pile more often: more points against the players overall.
    assert sum(map(sum, tight["scores"])) < sum(map(sum, loose["scores"]))


def test_max_steps_stops_games_unfinished():
    df = tw.simulate("toy-fifteen", games=5, max_steps=3, progress=False)
    assert (df["steps"] == 3).all() and not df["finished"].any()
    assert all(w == () for w in df["winners"])
    none = tw.simulate("toy-fifteen", games=2, max_steps=0, progress=False)
    assert (none["steps"] == 0).all() and all(s == (0, 0) for s in none["scores"])


def test_no_games_is_an_empty_table_with_the_columns():
    df = tw.simulate("toy-fifteen", games=0, progress=False)
    assert len(df) == 0
    assert list(df.columns) == ["game", "players", "seed", "bots", "winners", "scores", "steps", "finished"]
    assert df["steps"].dtype == "int64" and df["finished"].dtype == bool


def test_progress_goes_to_stderr_only_when_asked(capsys):
    tw.simulate("toy-fifteen", games=5, progress=False)
    assert capsys.readouterr() == ("", "")
    tw.simulate("toy-fifteen", games=5, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "5/5" in err


def test_a_bot_that_plays_an_illegal_action_names_the_game():
    with pytest.raises(RuntimeError, match=r"seed 3, step 1: seat 0's bot chose not an action"):
        tw.simulate("toy-fifteen", games=1, seed=3, bots=Forger, progress=False)


@pytest.mark.parametrize("kwargs, message", [
    (dict(name="no-such-game"), "unknown game"),
    (dict(name=None), "named by a string"),
    (dict(games=-1), "games must be an int >= 0"),
    (dict(games=2.5), "games must be an int"),
    (dict(games=True), "games must be an int"),
    (dict(players=9), "players must be an int from 2 to 4"),
    (dict(limit=11), "option limit=11 is not allowed"),
    (dict(speed=3), "unknown option 'speed'"),
    (dict(bots="greedy"), "unknown bot 'greedy'"),
    (dict(bots=["random"]), "1 given for 2 seats"),
    (dict(bots={2: "random"}), "2 is not a seat"),
    (dict(bots={"0": "random"}), "'0' is not a seat"),
    (dict(bots=tw.bots.Random(seed=1)), "bot name .* or a bot class"),
    (dict(bots=len), "cannot be made"),
    (dict(seed="0"), "seed must be an int"),
    (dict(max_steps=-5), "max_steps must be an int"),
    (dict(chunk_size=0), "chunk_size must be at least 1"),
    (dict(executor="threads"), "executor must be"),
])
def test_bad_arguments_are_refused_before_any_game(kwargs, message):
    kwargs = dict({"name": "toy-fifteen", "games": 3}, **kwargs)
    spy = kwargs.setdefault("executor", SpyExecutor())
    with pytest.raises(ValueError, match=message):
        tw.simulate(kwargs.pop("name"), progress=False, **kwargs)
    if isinstance(spy, SpyExecutor):
        assert spy.submitted == 0


def test_bots_that_cannot_travel_to_processes_are_refused_first():
    with concurrent.futures.ProcessPoolExecutor(1) as pool:
        with pytest.raises(ValueError, match="top level"):
            tw.simulate("toy-fifteen", games=2, bots=lambda seed: FirstLegal(seed), executor=pool, progress=False)


def test_the_spy_executor_does_see_a_good_run():
    # Guards the test above: with good arguments the same executor is used.
    spy = SpyExecutor()
    df = tw.simulate("toy-fifteen", games=3, executor=spy, progress=False)
    assert spy.submitted >= 1 and len(df) == 3
    assert isinstance(df, pd.DataFrame)


class ChunkSpy(SpyExecutor):
    """Two workers that record the seeds of every chunk sent."""

    _max_workers = 2

    def __init__(self):
        super().__init__()
        self.chunks = []

    def submit(self, fn, *args, **kwargs):
        self.chunks.append(list(args[0]))
        return super().submit(fn, *args, **kwargs)


def test_default_chunks_shrink_to_single_games_so_workers_finish_together():
    # Game lengths vary (a Mamba game may be ten times another): equal chunks leave one worker
    # finishing alone; shrinking chunks end with single games that the freed workers pick up.
    spy = ChunkSpy()
    df = tw.simulate("toy-fifteen", games=100, seed=3, executor=spy, progress=False)
    sizes = [len(c) for c in spy.chunks]
    assert [s for c in spy.chunks for s in c] == list(range(3, 103)) == df["seed"].tolist()
    assert sizes == sorted(sizes, reverse=True) and sizes[0] >= 10  # big first: little overhead
    assert sizes[-4:] == [1, 1, 1, 1]
    assert len(sizes) < 40
    pdt.assert_frame_equal(df, tw.simulate("toy-fifteen", games=100, seed=3, progress=False))
    fixed = ChunkSpy()
    tw.simulate("toy-fifteen", games=10, executor=fixed, chunk_size=4, progress=False)
    assert [len(c) for c in fixed.chunks] == [4, 4, 2]  # an explicit chunk_size is kept


@pytest.mark.parametrize("workers", [1, 2])
def test_default_chunks_give_the_same_table_on_one_worker_or_two_of_either_executor(workers):
    # The chunks are cut by the number of workers (from 150 games to single ones on one
    # worker, from 75 on two); where a game runs never changes its row or its place.
    kwargs = dict(games=450, players=3, bots=["random", FirstLegal, "random"], seed=11, progress=False)
    serial = tw.simulate("toy-fifteen", **kwargs)
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        pdt.assert_frame_equal(serial, tw.simulate("toy-fifteen", executor=pool, **kwargs))
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=workers, threads_per_worker=1, dashboard_address=None) as client:
        pdt.assert_frame_equal(serial, tw.simulate("toy-fifteen", executor=client, **kwargs))

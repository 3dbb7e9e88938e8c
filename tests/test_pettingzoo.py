"""The PettingZoo AEC environment: the official API test, masks, hidden hands and rewards."""

import json
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tabletop_widgets as tw
from tabletop_widgets.core.game import registered
from tabletop_widgets.pettingzoo import env

import toy_game

ALL_GAMES = registered()


def _env_or_skip(name, **kwargs):
    try:
        return env(name, **kwargs)
    except NotImplementedError as exc:
        pytest.skip(f"{name} does not provide the learning hooks yet: {exc}")


def _play(e, rng, steps=10_000):
    """Play masked random actions until the end (or ``steps``); dead agents step with None."""
    for agent in e.agent_iter(steps):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", ALL_GAMES)
def test_passes_the_pettingzoo_api_test(name):
    e = _env_or_skip(name)
    with warnings.catch_warnings():
        # api_test warns that dict observations are not arrays (as for chess or go): expected.
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=200)


@pytest.mark.parametrize("name", ALL_GAMES)
def test_same_seed_same_episode(name):
    _env_or_skip(name)
    seed_test(lambda: env(name), num_cycles=50)


@pytest.mark.parametrize("name", ALL_GAMES)
def test_mask_and_observation_follow_the_game(name):
    e = _env_or_skip(name, max_steps=200)
    raw = e.unwrapped
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        state = raw.game_state
        if not e.agents or state.is_over:
            break
        mover = e.agent_selection
        assert mover == f"player_{state.to_move}"
        # a game played part by part: the parts chosen of the action being made
        chosen = tuple(raw._decision.chosen) if raw._decision is not None else ()
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            obs = e.observe(agent)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            expected = raw.game.observation_vector(state.observe(seat), seat)
            offered = sorted(raw.catalogue[i] for i in np.flatnonzero(obs["action_mask"]))
            if raw._parts_of is None:
                np.testing.assert_array_equal(obs["observation"], np.asarray(expected, dtype=np.float32))
                assert offered == (sorted(map(str, state.legal_actions())) if agent == mover else [])
                continue
            # the game's vector, then the parts chosen, known only to the agent choosing them
            tail = np.zeros(len(raw.catalogue), dtype=np.float32)
            if agent == mover:
                tail[list(chosen)] = 1
            np.testing.assert_array_equal(obs["observation"], np.asarray(expected + list(tail), dtype=np.float32))
            legal = state.legal_actions()
            nexts = {p[len(chosen)] for p in raw.game.parts_of(legal) if p[:len(chosen)] == chosen}
            assert offered == (sorted(raw.catalogue[p] for p in nexts) if agent == mover else [])
        if e.terminations[mover] or e.truncations[mover]:
            break
        e.step(int(rng.choice(np.flatnonzero(e.observe(mover)["action_mask"]))))


@pytest.mark.parametrize("name", ALL_GAMES)
def test_state_vector_is_the_observation_vector_of_every_sub_step(name):
    # the environment reads the state directly (game.state_vector); it must say exactly what
    # observation_vector(observe(seat)) says, in every position a game passes through
    game = tw.make(name)
    try:
        game.observation_size()
    except NotImplementedError:
        pytest.skip(f"{name} has no observation encoding")
    rng = np.random.default_rng(5)
    compared = 0
    for seed in range(3):
        state = game.new_state(seed)
        for _ in range(150):
            if state.is_over:
                break
            for s in [e.after for e in state.events if e.after is not None] + [state]:
                for seat in range(game.players):
                    vector = game.state_vector(s, seat)
                    # the same numbers, as float32 where the hook gives an array (the
                    # environment's dtype)
                    assert isinstance(vector, list) or vector.dtype == np.float32
                    assert list(vector) == list(np.float32(game.observation_vector(s.observe(seat), seat)))
                    compared += 1
            legal = state.legal_actions()
            state = state._apply(legal[int(rng.integers(len(legal)))])
    assert compared > 100


def test_legal_actions_map_to_their_indices_by_the_games_hook_and_by_notation():
    for name in ("mamba", "mammuz"):  # action_index: by the ids of objects built once, or by fields
        e = env(name).unwrapped
        e.reset(seed=0)
        for _ in range(40):
            legal = e.game_state.legal_actions()
            assert {e.catalogue[i]: str(a) for i, a in e._legal.items()} == {str(a): str(a) for a in legal}
            e.step(max(e._legal))
    fresh = env("toy-fifteen", players=2).unwrapped  # a game that builds new action objects every time
    fresh.reset(seed=1)
    for _ in range(5):
        state = fresh.game_state
        assert sorted(fresh.catalogue[i] for i in fresh._legal) == sorted(map(str, state.legal_actions()))
        fresh.step(next(iter(fresh._legal)))


@pytest.mark.parametrize("name,players", [("mamba", 2), ("mamba", 3), ("mamma-mia", 4), ("mamma-mia-plus", 6)])
def test_a_whole_legal_list_maps_to_the_indices_of_its_notations(name, players):
    # game.action_indices(actions) maps a whole list at once (objects seen before in one pass,
    # new ones on the way): each index must be the catalogue entry of that action's notation
    game = tw.make(name, players=players)
    catalogue = game.action_catalogue()
    rng = np.random.default_rng(2)
    for seed in range(2):
        state = game.new_state(seed)
        for _ in range(120):
            if state.is_over:
                break
            legal = state.legal_actions()
            indices = game.action_indices(legal)
            assert [catalogue[i] for i in indices] == [str(a) for a in legal]
            assert indices == [game.action_index(a) for a in legal]
            if hasattr(game, "legal_indices"):  # the indices straight from the game's tables
                assert game.legal_indices(state) == indices
                assert all(game.catalogue_actions()[i] is a for i, a in zip(indices, legal))
            state = state._apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name,players", [("mamma-mia", 4), ("mamma-mia-plus", 6)])
def test_an_action_chosen_part_by_part_plays_as_the_whole_action(name, players):
    # Mamma Mia's actions are a product (put × order × draw; a make's or an ask's cards): its
    # environment offers a few hundred parts, and playing an action's parts plays that action
    e = env(name, players=players)
    raw = e.unwrapped
    game = raw.game
    assert raw.catalogue == game.action_parts() and len(raw.catalogue) < len(game.action_catalogue()) / 10
    assert e.action_space("player_0").n == len(raw.catalogue)
    assert e.observation_space("player_0")["observation"].shape == (game.observation_size() + len(raw.catalogue),)
    rng = np.random.default_rng(4)
    whole = parts = 0
    for seed in range(2):
        e.reset(seed=seed)
        state = raw.game_state
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            mover = e.agent_selection
            steps = raw.steps
            for part in game.parts_of([action])[0]:
                if raw.game_state is not state or e.terminations[mover]:
                    break  # the parts every remaining action shared were taken without asking
                if part not in raw._legal:
                    continue
                assert e.agent_selection == mover
                e.step(part)
                parts += 1
            expected = state._apply(action)
            assert raw.game_state is not state and raw.game_state == expected
            assert raw.steps - steps >= 1
            state = raw.game_state
            whole += 1
        assert all(e.terminations.values())
    assert parts > whole * 1.5  # most actions took several parts


def test_a_part_not_offered_is_refused_and_changes_nothing():
    e = env("mamma-mia-plus", players=4, render_mode="ansi")
    e.reset(seed=1)
    raw = e.unwrapped
    assert e.agent_selection == "player_0" and raw.catalogue[raw._legal_indices[0]].startswith("put ")
    e.step(raw._legal_indices[0])  # the put: the order comes next
    before = (raw.game_state, list(raw._decision.chosen), list(raw._legal_indices), raw.steps)
    for bad in (raw._legal_indices[0] - 1, len(raw.catalogue), raw.catalogue.index("send back")):
        with pytest.raises(tw.IllegalAction, match="is not legal"):
            e.step(bad)
        assert (raw.game_state, list(raw._decision.chosen), list(raw._legal_indices), raw.steps) == before
    assert f"player_0 to move, chosen so far: {raw.catalogue[before[1][0]]}\n" in e.render()


@pytest.mark.parametrize("limit", [None, 50])
def test_an_index_found_by_identity_never_outlives_its_object(monkeypatch, limit):
    # action_index notes objects by id(); an object built for one call (an equal action made by
    # hand, a notation string) dies after it, and the next such object often gets its id: it must
    # get its own index, not the dead one's, and so must the game's own objects built later
    import tabletop_widgets.core.game as core_game
    from tabletop_widgets.games.mamba.rules import Birth, Move

    if limit is not None:  # the map starts again when full: answers stay right
        monkeypatch.setattr(core_game, "_INDEX_KEPT_LIMIT", limit, raising=False)
    game = tw.make("mamba", players=2)
    catalogue = game.action_catalogue()
    state = game.new_state(0)
    for action in state.legal_actions() * 3:
        twin = Move(action.start, action.to) if isinstance(action, Move) else Birth(action.parent, action.cell)
        assert catalogue[game.action_index(twin)] == str(action)
        del twin
    for name, players in (("mamma-mia", 3), ("mamma-mia-plus", 5)):
        game = tw.make(name, players=players, optional_actions=True)
        catalogue = game.action_catalogue()
        rng = np.random.default_rng(3)
        state = game.new_state(7)
        for _ in range(60):
            legal = state.legal_actions()
            for action in legal[:12]:
                notation = "".join(list(str(action)))  # a new string object each time
                assert catalogue[game.action_index(notation)] == str(action)
                del notation
            assert [catalogue[i] for i in game.action_indices(legal)] == [str(a) for a in legal]
            state = state._apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name, players", [("mamba", 2), ("mamma-mia-plus", 5)])
def test_a_pickled_state_leaves_its_games_caches_behind(name, players):
    # A state shipped to a worker process carries its game. The index by id() would name other
    # objects there, and a game that has played a while keeps megabytes of caches: neither goes.
    import pickle
    import subprocess
    import sys

    game = tw.make(name, players=players)
    fresh = len(pickle.dumps(game.new_state(1)))
    state = game.new_state(1)
    rng = np.random.default_rng(1)
    for seed in range(6):  # warm every cache the game has
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_actions()
            game.action_indices(legal)
            state.observe(state.to_move)
            state = state.apply(legal[int(rng.integers(len(legal)))])
    start = game.new_state(1)
    data = pickle.dumps(start)
    assert len(data) < 1.5 * fresh, (len(data), fresh)
    # in another process the unpickled state's game indexes its own legal actions rightly
    script = (
        "import pickle, sys\n"
        "state = pickle.loads(sys.stdin.buffer.read())\n"
        "game = state.game\n"
        "legal = state.legal_actions()\n"
        "cat = game.action_catalogue()\n"
        "assert [cat[i] for i in game.action_indices(legal)] == [str(a) for a in legal]\n"
        "assert [cat[game.action_index(a)] for a in legal] == [str(a) for a in legal]\n"
        "print(len(legal))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], input=data, capture_output=True, check=True)
    assert int(out.stdout) == len(start.legal_actions()) > 0


def test_mamba_state_vector_in_a_pending_trim_and_without_numpy(monkeypatch):
    from tabletop_widgets.games.mamba import rules

    game = tw.make("mamba")
    pending = game.position("9/9/9/9/9/9/9/SSSS1S3/9 S").apply("f2-e2")
    assert pending.phase == "trim"
    states = [pending, game.new_state(), pending.apply("trim a2")]
    vectors = [[list(game.state_vector(s, seat)) for seat in (0, 1)] for s in states]
    observed = [[game.observation_vector(s.observe(seat), seat) for seat in (0, 1)] for s in states]
    for by_seat, numbers in zip(vectors, observed):
        assert by_seat == [list(np.float32(n)) for n in numbers]
    run = 81 * 2 + 81  # the pending trim's run comes after the seats' cells and the parents
    assert sum(vectors[0][0][run:run + 81]) == 5  # a2–e2
    monkeypatch.setattr(rules, "_numpy", lambda: None)  # the engine runs without the analysis extras
    monkeypatch.setattr(rules, "_VECTOR_NUMPY", None)  # as if numpy had never been asked for
    without = [[game.state_vector(s, seat) for seat in (0, 1)] for s in states]
    assert all(type(v) is list for by_seat in without for v in by_seat)
    assert without == observed


def test_mammuz_state_vector_without_numpy(monkeypatch):
    from tabletop_widgets.games.mammuz import rules

    game = tw.make("mammuz", players=4)
    state, states = game.new_state(2), []
    while not state.is_over and len(states) < 120:
        states.append(state)
        state = state._apply(state.legal_actions()[len(states) % len(state.legal_actions())])
    vectors = [[list(game.state_vector(s, seat)) for seat in range(4)] for s in states]
    monkeypatch.setattr(rules, "numpy_or_none", lambda: None)  # the engine runs without the analysis extras
    assert [[game.state_vector(s, seat) for seat in range(4)] for s in states] == vectors
    assert vectors == [[game.observation_vector(s.observe(seat), seat) for seat in range(4)] for s in states]


def test_an_observation_holds_nothing_of_the_other_hands():
    game = tw.make("toy-fifteen", players=2)
    state = game.new_state(0)
    doc = json.loads(state.to_json())
    doc["state"]["hands"][1] = [6, 6]  # a different hidden hand for seat 1, the rest unchanged
    other = game.state_from_json(json.dumps(doc))
    e = env(game).unwrapped
    e.reset(seed=0)
    mine = e.observe("player_0")["observation"]
    e.game_state = other
    np.testing.assert_array_equal(e.observe("player_0")["observation"], mine)
    assert not np.array_equal(e.observe("player_1")["observation"], mine)


def test_rewards_at_the_end_winners_plus_one_others_minus_one():
    e = env("toy-fifteen", players=3)
    rng = np.random.default_rng(1)
    seen = set()
    for seed in range(12):
        e.reset(seed=seed)
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter(10_000):
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            if not (terminated or truncated):
                assert reward == 0  # nothing is paid before the end
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        winners = set(e.unwrapped.game_state.winners)
        assert e.unwrapped.game_state.is_over and e.agents == []
        shared_by_all = len(winners) == 3
        for seat, agent in enumerate(e.possible_agents):
            assert totals[agent] == (0 if shared_by_all else 1 if seat in winners else -1)
        seen.add(len(winners))
    assert seen & {1, 2}  # at least some games had a loser


def test_reset_without_seed_deals_the_next_seed():
    e = env("toy-fifteen")
    e.reset()
    game = e.unwrapped.game
    assert e.unwrapped.game_state == game.new_state(0)
    e.reset(seed=41)
    assert e.unwrapped.game_state == game.new_state(41)
    e.reset()
    assert e.unwrapped.game_state == game.new_state(42)


def test_illegal_actions_raise_and_change_nothing():
    e = env("toy-fifteen")
    e.reset(seed=0)
    raw = e.unwrapped
    before, agent = raw.game_state, e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad, message in [(illegal, "is not legal for player_0"), (99, "out of range"),
                         (-1, "out of range"), ("play 1", "an int"), (1.0, "an int")]:
        with pytest.raises(tw.IllegalAction, match=message):
            e.step(bad)
        assert raw.game_state is before and e.agent_selection == agent and raw.steps == 0
    e.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are fine
    assert raw.steps == 1


def test_max_steps_truncates_without_reward():
    e = env("toy-fifteen", max_steps=4)
    e.reset(seed=0)
    raw = e.unwrapped
    rng = np.random.default_rng(2)
    for _ in range(4):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0 for r in e.rewards.values())
    assert raw.steps == 4 and not raw.game_state.is_over
    _play(e, rng)  # the truncated agents leave one by one
    assert e.agents == []


def test_render_modes():
    e = env("toy-fifteen", render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    assert "toy-fifteen" in text and "player_0 to move" in text
    quiet = env("toy-fifteen")
    quiet.reset()
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        env("toy-fifteen", render_mode="human")


class NoHooks(toy_game.Fifteen):
    """The toy game without the learning hooks (never registered)."""

    action_catalogue = tw.Game.action_catalogue
    observation_size = tw.Game.observation_size
    observation_vector = tw.Game.observation_vector


class ShortCatalogue(toy_game.Fifteen):
    def action_catalogue(self):
        return tuple(f"play {v}" for v in range(1, 6))  # "play 6" is missing


class TwiceInCatalogue(toy_game.Fifteen):
    def action_catalogue(self):
        return ("play 1", "play 2", "play 1")


def test_games_without_hooks_or_with_bad_hooks_are_refused():
    with pytest.raises(NotImplementedError, match="action_catalogue"):
        env(NoHooks())
    with pytest.raises(ValueError, match="twice"):
        env(TwiceInCatalogue())
    e = env(ShortCatalogue())
    with pytest.raises(ValueError, match="'play 6' is missing from action_catalogue"):
        for seed in range(20):  # some deal puts a 6 in the first hand
            e.reset(seed=seed)
    for bad in [dict(players=7), dict(limit=3), dict(max_steps=0)]:
        with pytest.raises(ValueError):
            env("toy-fifteen", **bad)


def test_the_call_order_is_still_enforced_around_the_fast_last_and_step(caplog):
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    e = env("mamba")
    assert isinstance(e, OrderEnforcingWrapper)
    with pytest.raises(AttributeError):
        e.last()  # agent_selection before reset()
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=0)
    obs, reward, terminated, truncated, info = e.last()
    raw = e.unwrapped.last()
    assert np.array_equal(obs["observation"], raw[0]["observation"]) and np.array_equal(obs["action_mask"], raw[0]["action_mask"])
    assert (reward, terminated, truncated, info) == raw[1:]
    assert e.last(observe=False)[0] is None
    rng = np.random.default_rng(0)
    _play(e, rng)
    assert not e.agents
    e.step(None)  # every agent is done: the wrapper warns as PettingZoo's does
    assert "step() called after all agents are terminated" in caplog.text


def test_catalogue_actions_must_write_the_catalogue():
    class Shuffled(toy_game.Fifteen):
        def catalogue_actions(self):
            return tuple(reversed(self.action_catalogue()))

        def legal_indices(self, state):
            return []

    with pytest.raises(ValueError, match="catalogue_actions"):
        env(Shuffled(players=2))

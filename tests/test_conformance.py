"""The generic conformance suite: every registered game must pass it.

Seeded random playouts to the end; legal actions non-empty until the end; every legal action
applies; illegal ones raise and change nothing; JSON round trips of states and matches;
determinism; frames consistent with the states; and ``observe(seat)`` unchanged when only
what that seat cannot see changes.
"""

import json
import os
import subprocess
import sys

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.core.game import game_class, registered

import toy_game  # noqa: F401  (registers "toy-fifteen", the core's own test game)

GAMES = registered()
# Turns before a playout counts as stuck: far above any real game's length.
MAX_ACTIONS = 6000


def configurations():
    for name in GAMES:
        cls = game_class(name)
        for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
            yield pytest.param(name, players, id=f"{name}-{players}p")


def playout(game, seed, bot_seed=None):
    """A random match to the end, checking the invariants at every state on the way."""
    match = tw.Match(game, seed=seed)
    rng = Rng.from_seed(seed if bot_seed is None else bot_seed, stream=99)
    while not match.state.is_over:
        state = match.state
        legal = state.legal_actions()
        assert legal, f"{game.name}: no legal action at step {match.cursor} but the game is not over"
        assert isinstance(state.to_move, int) and 0 <= state.to_move < game.players
        action, rng = rng.choice(legal)
        match.play(action)
        assert len(match) < MAX_ACTIONS, f"{game.name}: random playout did not end in {MAX_ACTIONS} actions"
    return match


@pytest.fixture(scope="module")
def playouts():
    cache = {}

    def get(name, players, seed):
        key = (name, players, seed)
        if key not in cache:
            cache[key] = playout(tw.make(name, players=players), seed)
        return cache[key]

    return get


@pytest.mark.parametrize("name, players", list(configurations()))
def test_random_playouts_reach_the_end(name, players, playouts):
    for seed in range(3):
        m = playouts(name, players, seed)
        end = m.state
        assert end.is_over and end.to_move is None and end.legal_actions() == []
        assert len(end.scores) == players
        assert end.winners and set(end.winners) <= set(range(players))


@pytest.mark.parametrize("name, players", list(configurations()))
def test_every_legal_action_applies_and_illegal_ones_change_nothing(name, players, playouts):
    m = playouts(name, players, 0)
    rng = Rng.from_seed(1)
    for step in range(0, len(m), max(1, len(m) // 25)):
        state = m.state_at(step)
        before = state.to_json()
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal), "legal actions must be distinct"
        assert len({str(a) for a in legal}) == len(legal), "notations must be distinct"
        sample, rng = rng.shuffled(legal)
        for action in sample[:20]:
            hash(action)
            after = state.apply(action)
            assert state.apply(str(action)) == after
            assert game_class(name).name == after.game.name
        for bad in ("", "no such action", str(legal[0]) + "x"):
            with pytest.raises(tw.IllegalAction):
                state.apply(bad)
        # legal somewhere else in the game, not here
        elsewhere = {a for s in range(max(0, step - 5), min(len(m), step + 5)) for a in m.state_at(s).legal_actions()}
        for action in list(elsewhere - set(legal))[:5]:
            with pytest.raises(tw.IllegalAction):
                state.apply(action)
        assert state.to_json() == before


class _EqualTo:
    """Not an action, but equal to one (and hashed like it): a wrapper a user's code might pass."""

    def __init__(self, action):
        self.action = action

    def __hash__(self):
        return hash(self.action)

    def __eq__(self, other):
        return other is self.action or other == self.action

    def __str__(self):
        return str(self.action)


@pytest.mark.parametrize("name, players", list(configurations()))
def test_an_object_equal_to_a_legal_action_plays_it_or_is_refused(name, players, playouts):
    # the engine reads the fields of its own actions: given an object that only compares equal,
    # apply plays the game's own action, or refuses with IllegalAction, never fails inside
    m = playouts(name, players, 0)
    for step in range(0, len(m), max(1, len(m) // 30)):
        state = m.state_at(step)
        action = m.actions[step]
        try:
            after = state.apply(_EqualTo(action))
        except tw.IllegalAction:
            continue
        expected = state.apply(action)
        assert after == expected
        assert [(e.kind, e.text) for e in after.events] == [(e.kind, e.text) for e in expected.events]


@pytest.mark.parametrize("name, players", list(configurations()))
def test_a_legal_list_is_the_callers_to_change(name, players, playouts):
    # games build legal lists from cached parts: a caller that sorts, clears or fills the list
    # it got must change nothing the game gives later, for this state or any other
    m = playouts(name, players, 1)
    states = [m.state_at(step) for step in range(len(m))]
    told = [[str(a) for a in state.legal_actions()] for state in states]
    for state in states:
        legal = state.legal_actions()
        legal.reverse()
        legal.append(legal[0])
        legal[0] = "not an action"
        state.legal_actions().clear()
    again = tw.Match.from_json(m.to_json())  # the same game played anew, through every cache
    assert [[str(a) for a in again.state_at(step).legal_actions()] for step in range(len(m))] == told
    assert [[str(a) for a in state.legal_actions()] for state in states] == told


@pytest.mark.parametrize("name, players", list(configurations()))
def test_states_and_matches_round_trip_through_json(name, players, playouts):
    m = playouts(name, players, 1)
    game = m.game
    for step in range(0, len(m) + 1, max(1, len(m) // 40)):
        state = m.state_at(step)
        text = state.to_json()
        again = game.state_from_json(text)
        assert again == state and again.to_json() == text
        assert again.legal_actions() == state.legal_actions() and again.to_move == state.to_move
    assert tw.Match.from_json(m.to_json()).to_json() == m.to_json()


@pytest.mark.parametrize("name, players", list(configurations()))
def test_same_seed_and_actions_give_the_same_game(name, players, playouts):
    m = playouts(name, players, 2)
    again = tw.Match(tw.make(name, players=players), seed=2)
    for action in m.actions:
        again.play(str(action))
    assert again.to_json() == m.to_json()
    assert all(again.state_at(i).to_json() == m.state_at(i).to_json() for i in range(0, len(m) + 1, 7))
    assert tw.make(name, players=players).new_state(5).to_json() == tw.make(name, players=players).new_state(5).to_json()


@pytest.mark.parametrize("name, players", list(configurations()))
def test_a_playout_plays_the_match_and_leaves_its_states_alone(name, players, playouts):
    m = playouts(name, players, 1)
    start = m.state_at(0)
    start_json = start.to_json()
    p = start.playout()
    snapshots = []
    for i, action in enumerate(m.actions):
        assert p.to_move == m.state_at(i).to_move and not p.is_over
        assert [str(a) for a in p.legal_actions()] == [str(a) for a in m.state_at(i).legal_actions()]
        if i % 5 == 0:
            seat = p.to_move
            snapshots.append((i, p.snapshot(), p.snapshot().to_json(), p.observe(seat), json.dumps(p.observe(seat))))
            assert p.observe(seat) == m.state_at(i).observe(seat)
        p.play(p.check(str(action)))
    assert p.is_over and p.snapshot().to_json() == m.state.to_json()
    assert (p.scores, p.winners) == (m.state.scores, m.state.winners)
    # what was handed out before a play is as it was: the start, each snapshot, each view
    assert start.to_json() == start_json
    for i, snapshot, text, view, view_text in snapshots:
        assert snapshot.to_json() == text == m.state_at(i).to_json()
        assert json.dumps(view) == view_text


@pytest.mark.parametrize("name, players", list(configurations()))
def test_frames_are_consistent_with_the_states(name, players, playouts):
    m = playouts(name, players, 0)
    for seat in [None] + list(range(players)):
        frames = m.frames(seat)
        assert frames[0].step == 0
        by_step = {}
        for f in frames:
            by_step.setdefault(f.step, []).append(f)
            assert isinstance(f.caption, str) and f.caption.strip(), f
            json.dumps(f.to_dict())
        assert sorted(by_step) == list(range(len(m) + 1))
        for step, of_step in by_step.items():
            state = m.state_at(step)
            assert of_step[-1].last and not any(f.last for f in of_step[:-1])
            assert of_step[-1].view == state.observe(seat), f"last frame of step {step} is not the state"
            if step:
                assert len(of_step) == max(1, len(state.events))
    for step in range(1, len(m) + 1):
        for event in m.state_at(step).events:
            assert isinstance(event.kind, str) and event.text.strip()
            json.dumps(event.data)
            if event.after is not None:
                assert event.after.game == m.game
                json.dumps(event.after.observe(None))


def _canon(value):
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("name, players", list(configurations()))
def test_no_frame_gives_a_seat_another_seats_secret_event(name, players, playouts):
    for seed in range(2):
        m = playouts(name, players, seed)
        for seat in range(players):
            # Every secret event text and data meant for other seats, minus what the seat may
            # read anyway (the same sentence given publicly elsewhere in the match).
            secret_texts, secret_data, public_texts, public_data = set(), set(), set(), set()
            for step in range(1, len(m) + 1):
                for event in m.state_at(step).events:
                    text, data = event.seen_by(seat)
                    public_texts.add(text)
                    public_data.add(_canon(data))
                    if event.seats is not None and seat not in event.seats:
                        if event.text != text:
                            secret_texts.add(event.text)
                        if event.data and _canon(event.data) != _canon(data):
                            secret_data.add(_canon(event.data))
            secret_texts -= public_texts
            secret_data -= public_data
            checked = 0
            for step in range(1, len(m) + 1):
                events = m.state_at(step).events
                for frame in m.frames_of_step(step, seat):
                    assert frame.caption not in secret_texts, (step, frame.sub, frame.caption)
                    if frame.data:
                        assert _canon(frame.data) not in secret_data, (step, frame.sub, frame.data)
                    if events:
                        event = events[frame.sub]
                        if event.seats is not None and seat not in event.seats:
                            checked += 1
                            assert frame.caption == event.seen_by(seat)[0]
                            if event.text != (event.public_text or ""):
                                assert frame.caption != event.text
                            if event.data and event.data != (event.public_data or {}):
                                assert frame.data != event.data
            if m.game.hidden_information and players > 1 and seed == 0 and seat == 0:
                # A hidden-information game whose playout never hid an event from seat 0
                # proves nothing here; every game of this project hides draws or turns.
                assert checked or not any(
                    e.seats for s in range(1, len(m) + 1) for e in m.state_at(s).events
                )


def _vary_and_compare(state, seat, rng):
    other = state.vary_hidden(seat, rng)
    assert _canon(other.observe(seat)) == _canon(state.observe(seat))
    return other.to_json() != state.to_json()


@pytest.mark.parametrize("name, players", list(configurations()))
def test_intermediate_sub_steps_hide_what_the_seat_cannot_see(name, players, playouts):
    # The frames of a cascade show each event's `after` state, not only a step's final state:
    # those intermediate views must be unchanged by what the seat cannot see, too.
    m = playouts(name, players, 1)
    rng = Rng.from_seed(11)
    seen = differed = 0
    for step in range(1, len(m) + 1, max(1, len(m) // 60)):
        for event in m.state_at(step).events:
            if event.after is None:
                continue
            for seat in range(players):
                rng, sub = Rng(rng.state + 1), rng
                differed += _vary_and_compare(event.after, seat, sub)
                seen += 1
    assert seen or not any(e.after is not None for s in range(1, len(m) + 1) for e in m.state_at(s).events)
    if seen and m.game.hidden_information:
        assert differed, "vary_hidden never changed an intermediate state, so this test proved nothing"


@pytest.mark.parametrize("name, players", list(configurations()))
def test_observe_is_unchanged_by_what_the_seat_cannot_see(name, players, playouts):
    m = playouts(name, players, 1)
    rng = Rng.from_seed(3)
    differed = 0
    for step in range(0, len(m) + 1, max(1, len(m) // 30)):
        state = m.state_at(step)
        for seat in range(players):
            rng, sub = Rng(rng.state + 1), rng
            other = state.vary_hidden(seat, sub)
            assert json.dumps(other.observe(seat), sort_keys=True) == json.dumps(state.observe(seat), sort_keys=True)
            differed += other.to_json() != state.to_json()
            json.dumps(state.observe(seat))
        json.dumps(state.observe(None))
    if m.game.hidden_information:
        assert differed, "vary_hidden never changed the state, so this test proved nothing"
    else:
        assert differed == 0, "a game of perfect information cannot hide anything"


# What a seeded game is, as a digest: every state's JSON and seat 0's frames of a seeded
# random playout. Run here and in interpreters with other string-hash seeds.
DIGEST_CODE = """
import hashlib, json, sys
import tabletop_widgets as tw
from tabletop_widgets.core import Rng

def digest(name, players, seed):
    match = tw.Match(tw.make(name, players=players), seed=seed)
    rng = Rng.from_seed(seed, stream=99)
    while not match.state.is_over and len(match) < 400:
        action, rng = rng.choice(match.state.legal_actions())
        match.play(action)
    h = hashlib.sha256()
    for i in range(len(match) + 1):
        h.update(match.state_at(i).to_json().encode())
    h.update(json.dumps([f.to_dict() for f in match.frames(0)], sort_keys=True).encode())
    return h.hexdigest()
"""


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_a_seeded_game_is_the_same_byte_for_byte_in_any_interpreter(hash_seed):
    configs = [(name, game_class(name).max_players) for name in tw.GAMES if name in
               ("mamba", "mamma-mia", "mamma-mia-plus", "mammuz")]
    assert len(configs) == 4
    call = "print(' '.join(digest(n, p, 3) for n, p in %r))" % (configs,)
    namespace: dict = {}
    exec(DIGEST_CODE, namespace)
    here = [namespace["digest"](n, p, 3) for n, p in configs]
    out = subprocess.run([sys.executable, "-c", DIGEST_CODE + call], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONHASHSEED=hash_seed)).stdout.split()
    assert out == here

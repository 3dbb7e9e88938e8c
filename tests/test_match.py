"""The timeline: play, undo, redo, goto, fork, frames per seat, replays and their validation."""

import json

import pytest

import tabletop_widgets as tw

import toy_game  # noqa: F401  (registers "toy-fifteen")


def played(seed=4, steps=None):
    m = tw.Match("toy-fifteen", seed=seed)
    m.autoplay({0: tw.bots.Random(1), 1: tw.bots.Random(2)}, max_steps=steps)
    return m


def test_play_undo_redo_goto():
    m = played(steps=6)
    assert len(m) == m.cursor == 6
    states = [m.state_at(i) for i in range(7)]
    m.undo()
    assert m.cursor == 5 and m.state is states[5]
    m.redo()
    assert m.state is states[6]
    m.goto(2)
    assert m.state is states[2] and len(m) == 6
    with pytest.raises(IndexError):
        m.goto(7)
    with pytest.raises(IndexError):
        m.goto(True)
    m.goto(0)
    with pytest.raises(IndexError, match="nothing to undo"):
        m.undo()
    m.goto(6)
    with pytest.raises(IndexError, match="nothing to redo"):
        m.redo()


def test_play_after_rewind_drops_the_future_and_fork_keeps_it():
    m = played(steps=6)
    original = m.to_json()
    m.goto(3)
    keep = m.fork()
    alternative = [a for a in m.state.legal_actions() if a != m.actions[3]]
    if not alternative:
        pytest.skip("only one legal action at step 3 for this seed")
    m.play(alternative[0])
    assert len(m) == 4 and m.actions[3] == alternative[0]
    assert len(keep) == 3 and keep.cursor == 3
    keep.play(tw.Match.from_json(original).actions[3])
    assert keep.state == tw.Match.from_json(original).state_at(4)


def test_fork_is_independent():
    m = played(steps=4)
    f = m.fork()
    f.play(f.state.legal_actions()[0])
    assert len(m) == 4 and len(f) == 5


def test_illegal_play_changes_nothing():
    m = played(steps=3)
    before = m.to_json()
    with pytest.raises(tw.IllegalAction):
        m.play("play 42")
    assert m.to_json() == before


def test_frames_match_events_and_end_at_each_state():
    m = played()
    assert m.state.is_over
    for seat in (None, 0, 1):
        frames = m.frames(seat)
        assert frames[0].step == 0 and frames[0].kind == "setup"
        assert [f.step for f in frames] == sorted(f.step for f in frames)
        for step in range(len(m) + 1):
            of_step = [f for f in frames if f.step == step]
            assert [f.sub for f in of_step] == list(range(len(of_step)))
            assert [f.last for f in of_step] == [False] * (len(of_step) - 1) + [True]
            assert of_step[-1].view == m.state_at(step).observe(seat)
            if step:
                assert len(of_step) == max(1, len(m.state_at(step).events))


def test_frames_hide_other_seats_secrets():
    m = played()
    for seat in (0, 1):
        other = 1 - seat
        for f in m.frames(seat):
            assert f.view["hands"][other] is None
            if f.kind == "draw" and f"Seat {other} " in f.caption:
                assert f.caption == f"Seat {other} draws a card." and f.data == {}
    drawn = [f for f in m.frames(None) if f.kind == "draw"]
    assert drawn and all("draws a " in f.caption and "card" in f.data for f in drawn)


def test_frames_are_cached_and_dropped_with_the_future():
    m = played(steps=6)
    first = m.frames_of_step(5, 0)
    assert m.frames_of_step(5, 0) is first
    m.goto(4)
    m.play(m.state.legal_actions()[-1])
    assert len(m) == 5
    assert m.frames_of_step(5, 0)[-1].view == m.state.observe(0)


def test_frames_reject_a_bad_seat():
    with pytest.raises(ValueError, match="seat must be None or an int from 0 to 1"):
        played(steps=1).frames(2)


def test_listeners_hear_every_change():
    m = tw.Match("toy-fifteen", seed=1)
    heard = []
    stop = m.observe_changes(lambda kind, **info: heard.append((kind, info)))
    m.play(m.state.legal_actions()[0])
    m.play(m.state.legal_actions()[0])
    m.goto(1)
    m.play(m.state.legal_actions()[-1])
    stop()
    m.goto(0)
    assert heard == [
        ("play", {"step": 1, "dropped": 0}),
        ("play", {"step": 2, "dropped": 0}),
        ("cursor", {"step": 1}),
        ("play", {"step": 2, "dropped": 1}),
    ]


def test_replay_round_trip_keeps_cursor_and_start_state():
    m = played()
    m.goto(5)
    r = tw.Match.from_json(m.to_json())
    assert r.to_json() == m.to_json() and r.cursor == 5 and r.state == m.state
    # a match from a set-up state (no seed) replays from that state
    start = m.state_at(3)
    m2 = tw.Match(m.game, state=start)
    m2.autoplay({0: "random", 1: "random"}, max_steps=4)
    r2 = tw.Match.from_json(m2.to_json())
    assert r2.seed is None and r2.state_at(0) == start and r2.state == m2.state


def tamper(text, **changes):
    doc = json.loads(text)
    doc.update(changes)
    return json.dumps(doc)


def without(text, key):
    return json.dumps({k: v for k, v in json.loads(text).items() if k != key})


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t[:-5], "not valid JSON"),
        (lambda t: "[1, 2]", "must be a JSON object"),
        (lambda t: tamper(t, format="other"), "not a tabletop_widgets replay"),
        (lambda t: tamper(t, version=99), "unsupported replay version 99"),
        (lambda t: tamper(t, actions="play 1"), "'actions' must be a list"),
        (lambda t: tamper(t, game="go"), "set-up is invalid: unknown game 'go'"),
        (lambda t: tamper(t, players=7), "set-up is invalid: .*players"),
        (lambda t: tamper(t, options={"limit": 3}), "set-up is invalid: .*limit=3"),
        (lambda t: tamper(t, seed="x"), "'seed' must be an int, got 'x'"),
        (lambda t: tamper(t, game=[]), "'game' must be a game's name"),
        (lambda t: tamper(t, game={}), "'game' must be a game's name"),
        (lambda t: tamper(t, players="2"), "'players' must be an int"),
        (lambda t: tamper(t, players=True), "'players' must be an int"),
        (lambda t: tamper(t, actions=["play 1", 3]), "'actions' must be a list"),
        (lambda t: tamper(t, options=[]), "'options' must be an object"),
        (lambda t: tamper(t, seed=1.5), "'seed' must be an int"),
        (lambda t: without(tamper(t, start=[1]), "seed"), "'start' must be a state"),
        (lambda t: tamper(t, cursor=True), "'cursor' must be an int"),
        (lambda t: tamper(t, version=True), "unsupported replay version"),
        (lambda t: b'\xff\xfe', "not valid JSON"),
        (lambda t: tamper(t, cursor=999), "'cursor' must be an int from 0 to"),
        (lambda t: tamper(t, start={}), "either a 'seed' or a 'start'"),
    ],
)
def test_corrupt_replays_are_replay_errors(change, message):
    with pytest.raises(tw.ReplayError, match=message):
        tw.Match.from_json(change(played(steps=6).to_json()))


def test_tampered_action_names_the_step():
    m = played(steps=6)
    doc = json.loads(m.to_json())
    doc["actions"][3] = "play 77"
    with pytest.raises(tw.ReplayError, match=r"^step 4: 'play 77' is not a legal action") as info:
        tw.Match.from_json(json.dumps(doc))
    assert info.value.step == 4


def test_replay_file_round_trip(tmp_path):
    m = played(steps=8)
    m.save(tmp_path / "r.json")
    assert tw.Match.load(tmp_path / "r.json").to_json() == m.to_json()


def test_match_arguments_are_checked():
    g = tw.make("toy-fifteen")
    with pytest.raises(ValueError, match="give players and options to tw.make"):
        tw.Match(g, players=3)
    with pytest.raises(ValueError, match="same game"):
        tw.Match(g, state=tw.make("toy-fifteen", players=3).new_state())
    with pytest.raises(ValueError, match="needs a Game or a game name"):
        tw.Match(42)


def test_autoplay_stops_at_a_seat_without_bot_and_at_max_steps():
    m = tw.Match("toy-fifteen", seed=3)
    m.autoplay({1: "random"})
    assert len(m) == 0 and m.state.to_move == 0
    m.play(m.state.legal_actions()[0])
    m.autoplay({1: "random"})
    assert len(m) == 2 and m.state.to_move == 0
    m.autoplay({0: "random", 1: "random"}, max_steps=3)
    assert len(m) == 5


# property tests (hypothesis) ------------------------------------------------------------------
from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

# Real games, small set-ups: each machine plays a few dozen random legal actions.
PROPERTY_GAMES = [("mamba", 2), ("mammuz", 3), ("mamma-mia", 3), ("toy-fifteen", 3)]


class TimelineMachine(RuleBasedStateMachine):
    """tw.Match against a plain model: the list of notations played and a cursor. The model's
    states are computed with ``State.apply`` alone, independently of the Match's caches."""

    NAME, PLAYERS = "toy-fifteen", 2

    @initialize(seed=st.integers(0, 2**32))
    def start(self, seed):
        self.match = tw.Match(self.NAME, seed=seed, players=self.PLAYERS)
        self.states = [self.match.game.new_state(seed)]  # the model: states[i] after i actions
        self.notations = []
        self.cursor = 0
        self.forks = []  # (fork, its notations, its cursor): must not move when the match does

    @precondition(lambda self: not self.states[self.cursor].is_over)
    @rule(data=st.data())
    def play(self, data):
        state = self.states[self.cursor]
        action = data.draw(st.sampled_from(state.legal_actions()), label="action")
        self.match.play(str(action) if data.draw(st.booleans(), label="as notation") else action)
        del self.notations[self.cursor:]
        del self.states[self.cursor + 1:]
        self.notations.append(str(action))
        self.states.append(state.apply(action))
        self.cursor += 1

    @precondition(lambda self: self.states[self.cursor].is_over is False)
    @rule(bad=st.sampled_from(["", "no such action", "e5*e6 extra", "play 99"]))
    def illegal_play_changes_nothing(self, bad):
        before = self.match.to_json()
        with pytest.raises(tw.IllegalAction):
            self.match.play(bad)
        assert self.match.to_json() == before

    @rule()
    def undo(self):
        if self.cursor == 0:
            with pytest.raises(IndexError):
                self.match.undo()
        else:
            self.match.undo()
            self.cursor -= 1

    @rule()
    def redo(self):
        if self.cursor == len(self.notations):
            with pytest.raises(IndexError):
                self.match.redo()
        else:
            self.match.redo()
            self.cursor += 1

    @rule(data=st.data())
    def goto(self, data):
        step = data.draw(st.integers(-2, len(self.notations) + 2), label="step")
        if 0 <= step <= len(self.notations):
            self.match.goto(step)
            self.cursor = step
        else:
            with pytest.raises(IndexError):
                self.match.goto(step)

    @rule()
    def fork(self):
        f = self.match.fork()
        assert [str(a) for a in f.actions] == self.notations[: self.cursor]
        assert f.cursor == len(f) == self.cursor and f.state == self.states[self.cursor]
        self.forks.append((f, list(self.notations[: self.cursor]), self.cursor))

    @precondition(lambda self: self.forks)
    @rule(data=st.data())
    def play_on_a_fork(self, data):
        # A fork is independent: playing on it leaves the match (checked by the invariants).
        f, notations, _ = self.forks[-1]
        if not f.state.is_over:
            action = data.draw(st.sampled_from(f.state.legal_actions()), label="fork action")
            f.play(action)
            notations.append(str(action))
            self.forks[-1] = (f, notations, f.cursor)

    @rule()
    def json_round_trip(self):
        text = self.match.to_json()
        again = tw.Match.from_json(text)
        assert again.to_json() == text
        assert again.cursor == self.cursor and again.state == self.states[self.cursor]

    @invariant()
    def agrees_with_the_model(self):
        m = self.match
        assert m.cursor == self.cursor and len(m) == len(self.notations)
        assert [str(a) for a in m.actions] == self.notations
        assert m.state == self.states[self.cursor]
        assert m.state_at(len(self.notations)) == self.states[-1]
        # The last frame of the cursor step shows the cursor's state, for every viewer.
        for seat in (None, self.cursor % self.PLAYERS):
            assert m.frames_of_step(self.cursor, seat)[-1].view == self.states[self.cursor].observe(seat)
        for f, notations, cursor in self.forks:
            assert [str(a) for a in f.actions] == notations and f.cursor == cursor


def _machine(name, players):
    cls = type(f"Timeline_{name.replace('-', '_')}", (TimelineMachine,), {"NAME": name, "PLAYERS": players})
    cls.TestCase.settings = hsettings(max_examples=25, stateful_step_count=25, deadline=None)
    return cls.TestCase


for _name, _players in PROPERTY_GAMES:
    _case = _machine(_name, _players)
    globals()[f"TestTimeline_{_name.replace('-', '_')}"] = _case
del _case


# Corrupt replays of any shape: always ReplayError, never another exception ----------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
REPLAY_KEYS = ["format", "version", "game", "players", "options", "actions", "cursor", "seed", "start"]


@hsettings(max_examples=150, deadline=None)
@given(data=st.data())
def test_corrupt_replays_of_any_shape_raise_replay_error(data):
    good = json.loads(played(steps=6).to_json())
    doc = dict(good)
    for key in data.draw(st.lists(st.sampled_from(REPLAY_KEYS), min_size=1, max_size=3, unique=True), label="keys"):
        if data.draw(st.booleans(), label=f"drop {key}"):
            doc.pop(key, None)
        else:
            doc[key] = data.draw(JSON, label=key)
    text = json.dumps(doc)
    try:
        m = tw.Match.from_json(text)
    except tw.ReplayError as exc:
        assert str(exc) and len(str(exc)) < 2000
    else:
        # A change that still loads must be a replay that really is one (e.g. a dropped
        # cursor, a different seed): it round-trips.
        assert tw.Match.from_json(m.to_json()).to_json() == m.to_json()


@hsettings(max_examples=100, deadline=None)
@given(doc=JSON)
def test_any_json_value_is_refused_as_a_replay_error(doc):
    with pytest.raises(tw.ReplayError):
        tw.Match.from_json(json.dumps(doc))

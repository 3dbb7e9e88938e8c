"""MambaWidget without a browser: the position editor's messages, and what the frames carry.

Messages come in through ``_handle_custom_msg`` as the browser would send them; what the
widget sends is captured from ``send``."""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mamba.widget import MambaWidget

from widget_spy import record

TUG_OF_WAR = "9/9/9/9/2NNN4/9/2SSS4/9/9 S"
FRAME_KEYS = {"step", "sub", "caption", "kind", "data", "view", "last"}


def make_widget(match=None, **kwargs):
    match = match if match is not None else tw.Match("mamba", seed=3)
    w = MambaWidget(match, **kwargs)
    return record(w)


def browser(w, content):
    w._handle_custom_msg(content, [])


def of_type(w, kind):
    return [m for m in w.sent if m["type"] == kind]


def snapshot(w):
    m = w.match
    return m, m.cursor, len(m), m.actions, m.state.position()


def assert_same_timeline_sent(w):
    """The browser got no new timeline: no frames nor jump, and only the same legal actions."""
    assert of_type(w, "frames") == [] and of_type(w, "goto") == []
    legal = {"type": "legal", "step": w.match.cursor, "to_move": w.match.state.to_move,
             "actions": [str(a) for a in w.match.state.legal_actions()]}
    assert all(m == legal for m in of_type(w, "legal"))


# the editor ----------------------------------------------------------------------------------
def test_tw_widget_picks_the_mamba_widget():
    w = tw.widget(tw.Match("mamba"))
    assert isinstance(w, MambaWidget)
    with pytest.raises(ValueError, match="MambaWidget shows mamba"):
        MambaWidget(tw.Match("mamma-mia"))


def test_a_good_position_from_the_editor_starts_a_new_match_there():
    old = tw.Match("mamba", seed=3)
    old.play(old.state.legal_actions()[0])
    w = make_widget(old)
    w.error = "an earlier complaint"
    browser(w, {"type": "mamba_load_position", "position": TUG_OF_WAR})
    assert w.error == ""
    assert w.match is not old and len(w.match) == 0 and w.match.cursor == 0
    assert w.match.state.position() == TUG_OF_WAR
    assert w.match.game == old.game
    # The old match is left as it was.
    assert len(old) == 1
    # The browser's timeline is reset to the new start: frames from 0, its legal actions.
    frames = of_type(w, "frames")[-1]
    assert frames["from"] == 0 and len(frames["frames"]) == 1
    assert frames["frames"][0]["view"]["position"] == TUG_OF_WAR
    legal = of_type(w, "legal")[-1]
    assert legal["step"] == 0 and "d3-e4" in legal["actions"]
    assert w.cursor == 0 and w.current["view"]["position"] == TUG_OF_WAR
    # The editor is told, after the new timeline.
    assert w.sent[-1] == {"type": "mamba_position", "ok": True, "position": TUG_OF_WAR}
    assert w.sent.index(frames) < len(w.sent) - 1


def test_the_same_refusal_twice_is_answered_twice():
    w = make_widget()
    for _ in range(2):
        browser(w, {"type": "mamba_load_position", "position": "9/9 S"})
    answers = of_type(w, "mamba_position")
    assert len(answers) == 2 and all(not a["ok"] and "9 ranks" in a["error"] for a in answers)


def test_the_loaded_position_keeps_the_games_options():
    game = tw.make("mamba", isolation="cross", trim_chooser="active")
    w = make_widget(tw.Match(game))
    w.load_position("9/9/9/9/4S4/9/9/9/4N4 S")
    assert w.match.game.options == game.options
    # Under isolation="cross" a stone with only diagonal neighbours is a parent.
    w.load_position("9/9/9/9/4S4/5N3/9/9/9 S")
    assert w.match.state.observe()["parents"] == ["e5"]


@pytest.mark.parametrize(
    "position, words",
    [
        ("9/9/9 S", "9 ranks"),
        ("9/9/9/9/2NNN5/9/2SSS4/9/9 S", "rank 5"),
        ("9/9/9/9/2NXN4/9/2SSS4/9/9 S", "'X'"),
        ("9/9/9/9/2NNN4/9/2SSS4/9/9 E", "side to move"),
        ("9/9/9/9/2NEN4/9/2SSS4/9/9 S", "East"),
        ("9/9/9/9/2NNN4/9/2SSS4/9/9", "side to move"),
        ("", "side to move"),
        ("9/9/9/9/2NNN4/9/2SSS4/9/9 S " + "x" * 400, "at most"),
    ],
)
def test_a_bad_position_sets_error_and_changes_nothing(position, words):
    w = make_widget()
    before = snapshot(w)
    browser(w, {"type": "mamba_load_position", "position": position})
    assert w.error.startswith("The position was not loaded")
    assert words in w.error
    assert snapshot(w) == before
    assert of_type(w, "mamba_position") == [{"type": "mamba_position", "ok": False, "error": w.error}]
    assert_same_timeline_sent(w)


@pytest.mark.parametrize("position", [None, 42, ["9/9/9/9/9/9/9/9/9", "S"], {"board": "x"}])
def test_a_position_that_is_not_a_string_is_refused(position):
    w = make_widget()
    before = snapshot(w)
    browser(w, {"type": "mamba_load_position", "position": position})
    assert "not loaded" in w.error and "string" in w.error
    assert snapshot(w) == before
    assert_same_timeline_sent(w)


def test_a_message_without_a_position_is_refused():
    w = make_widget()
    before = snapshot(w)
    browser(w, {"type": "mamba_load_position"})
    assert w.error and snapshot(w) == before
    assert_same_timeline_sent(w)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "mamba_set_board", "board": "." * 81},
        {"type": "load_position", "position": TUG_OF_WAR},
        {"type": "MAMBA_LOAD_POSITION", "position": TUG_OF_WAR},
        {"position": TUG_OF_WAR},
        {"type": 7, "position": TUG_OF_WAR},
        "mamba_load_position",
    ],
)
def test_forged_messages_set_error_and_change_nothing(message):
    w = make_widget()
    before = snapshot(w)
    browser(w, message)
    assert w.error
    assert snapshot(w) == before
    assert_same_timeline_sent(w)
    assert of_type(w, "mamba_position") == []


def test_load_position_from_python_raises_and_changes_nothing():
    w = make_widget()
    before = snapshot(w)
    with pytest.raises(ValueError, match="9 ranks"):
        w.load_position("9/9 S")
    with pytest.raises(ValueError, match="string"):
        w.load_position(None)
    assert snapshot(w) == before
    match = w.load_position(TUG_OF_WAR)
    assert match is w.match and match.state.position() == TUG_OF_WAR


def test_the_loaded_match_is_played_from_the_browser_wave_by_wave():
    w = make_widget()
    browser(w, {"type": "mamba_load_position", "position": TUG_OF_WAR})
    w.sent.clear()
    browser(w, {"type": "play", "action": "d3-e4", "step": 0})
    assert w.error == ""
    assert [str(a) for a in w.match.actions] == ["d3-e4"]
    # The move's own frame leaves first, on its own; its waves follow it.
    move, waves = of_type(w, "frames")
    assert move["from"] == 1 and len(move["frames"]) == 1 and waves["from"] == 2
    assert move["more"] == len(waves["frames"])
    kinds = [f["kind"] for f in move["frames"] + waves["frames"]]
    assert kinds[0] == "move" and "held" in kinds
    held = next(f for f in waves["frames"] if f["kind"] == "held")
    assert held["data"]["cells"] == ["e5"]
    # e5 stays North's in the frame of the held wave.
    board = held["view"]["board"]
    assert board[(5 - 1) * 9 + 4] == "N"


def test_bots_answer_in_a_loaded_position():
    w = make_widget(tw.Match("mamba", seed=1), bots={1: "random"})
    # North (a bot) to move: it answers at once.
    w.load_position("9/9/9/9/2NNN4/9/2SSS4/9/9 N")
    assert len(w.match) == 1
    assert w.match.state.to_move in (0, None)
    assert w.bot_seats == [1]


# what the frames carry ----------------------------------------------------------------------
def test_a_seats_frames_carry_only_that_seats_views():
    m = tw.Match("mamba", seed=2)
    m.autoplay({0: tw.bots.Random(seed=4), 1: tw.bots.Random(seed=5)}, max_steps=6)
    m.goto(len(m))
    w = make_widget(m, seat=1)
    browser(w, {"type": "hello"})
    frames = of_type(w, "frames")[-1]["frames"]
    expected = m.frames(seat=1)
    assert len(frames) == len(expected)
    for sent, frame in zip(frames, expected):
        assert set(sent) == FRAME_KEYS
        assert sent["view"] == json.loads(json.dumps(frame.view))
        assert set(sent["view"]) >= {"board", "to_move", "phase", "parents", "trim", "stones", "position"}
        # Only the view: no serialized state, generator or payload rides along.
        text = json.dumps(sent)
        assert '"state"' not in text and '"rng"' not in text and '"payload"' not in text
    # The current frame trait (what a saved notebook redraws) is that seat's too.
    assert w.current == json.loads(json.dumps(expected[-1].to_dict()))


def test_legal_actions_reach_only_the_seat_to_move():
    m = tw.Match("mamba", seed=2)
    w = make_widget(m, seat=1)  # North's view while South moves
    browser(w, {"type": "hello"})
    legal = of_type(w, "legal")[-1]
    assert legal["to_move"] == 0 and legal["actions"] == []
    browser(w, {"type": "play", "action": "d3-d4", "step": 0})
    assert "cannot play for South" in w.error and len(m) == 0

"""Teaching moments and replay mode: ``w.goto(step, sub)``, ``frame=(step, sub)``,
``replay=True``. The toy game "toy-fifteen" plays a card, may bust the pile, then draws:
two or three frames a step."""

import pytest

import tabletop_widgets as tw

import toy_game  # noqa: F401  (registers "toy-fifteen")
from test_widget_base import ToyWidget, browser, of_type
from widget_spy import record


def recorded(steps=8, seed=5):
    m = tw.Match("toy-fifteen", seed=seed)
    for _ in range(steps):
        m.play(m.state.legal_actions()[0])
    return m


def cascade_step(m):
    """A step with three frames (a bust between the play and the draw)."""
    return next(s for s in range(1, len(m) + 1) if len(m.frames_of_step(s)) == 3)


def widget(m, **kwargs):
    return record(ToyWidget(m, **kwargs))


def test_goto_defaults_to_the_steps_first_frame_and_takes_a_sub_step():
    m = recorded()
    step = cascade_step(m)
    w = widget(m)
    w.goto(step)
    assert of_type(w, "goto")[-1] == {"type": "goto", "step": step, "sub": 0}
    assert w.current == m.frames_of_step(step)[0].to_dict()
    assert m.cursor == step and w.cursor == step
    w.goto(step, sub=1)
    assert of_type(w, "goto")[-1] == {"type": "goto", "step": step, "sub": 1}
    assert w.current["caption"] == m.frames_of_step(step)[1].caption
    w.goto(step, sub=-1)  # counted from the end: where play continues
    assert of_type(w, "goto")[-1]["sub"] == 2 and w.current["last"] is True


@pytest.mark.parametrize("step, sub", [(99, None), (-1, None), (1, 3), (1, -4), (1, "0"), ("1", 0), (True, 0), (1, 1.0)])
def test_goto_refuses_a_frame_that_does_not_exist_and_moves_nothing(step, sub):
    m = recorded()
    m.goto(4)
    w = widget(m)
    before = (m.cursor, dict(w.current))
    w.sent.clear()
    with pytest.raises(ValueError, match="step|sub"):
        w.goto(step, sub=sub)
    assert (m.cursor, w.current) == before and w.sent == []


def test_a_widget_opens_on_the_frame_asked_for():
    m = recorded()
    step = cascade_step(m)
    w = widget(m, frame=(step, 1))
    assert m.cursor == step and w.current == m.frames_of_step(step)[1].to_dict()
    browser(w, {"type": "hello"})
    assert of_type(w, "goto") == [{"type": "goto", "step": step, "sub": 1}]
    # a seat's view opens on the same frame, as that seat sees it
    w2 = widget(m, seat=1, frame=(step, None))
    assert w2.current == m.frames_of_step(step, 1)[0].to_dict()


@pytest.mark.parametrize("frame", [3, (1,), (1, 2, 3), (1, 5), (40, 0), "1,0"])
def test_a_bad_opening_frame_is_refused_before_the_match_moves(frame):
    m = recorded()
    with pytest.raises(ValueError, match="frame|step|sub"):
        widget(m, frame=frame)
    assert m.cursor == len(m)


def test_moving_the_match_elsewhere_shows_the_last_frame_of_the_new_cursor_step():
    m = recorded()
    w = widget(m, frame=(2, 0))
    w.sent.clear()
    m.goto(5)
    assert of_type(w, "goto") == [{"type": "goto", "step": 5, "sub": len(m.frames_of_step(5)) - 1}]


# replay mode -------------------------------------------------------------------------------
def test_a_replay_offers_no_action_and_refuses_play_and_continue_from_the_browser():
    m = recorded()
    m.goto(3)
    actions = list(m.actions)
    w = widget(m, replay=True)
    assert w.replay is True
    browser(w, {"type": "hello"})
    (legal,) = of_type(w, "legal")
    assert legal["actions"] == [] and legal["step"] == 3
    for msg in ({"type": "play", "action": str(m.state.legal_actions()[0]), "step": 3}, {"type": "goto", "step": 1}):
        w.sent.clear()
        browser(w, msg)
        assert "replay" in w.error
        assert m.cursor == 3 and list(m.actions) == actions and len(m) == 8
        assert of_type(w, "frames") == [] and of_type(w, "legal")[-1]["actions"] == []


def test_a_replay_steps_from_python_without_moving_the_match():
    m = recorded()
    step = cascade_step(m)
    w = widget(m, replay=True, frame=(step, 1))
    assert m.cursor == len(m)  # opening on a frame does not move a replay's match
    assert w.current == m.frames_of_step(step)[1].to_dict()
    w.sent.clear()
    w.goto(2)
    assert m.cursor == len(m) and w.cursor == len(m)
    assert of_type(w, "goto") == [{"type": "goto", "step": 2, "sub": 0}]
    assert w.current == m.frames_of_step(2)[0].to_dict()
    assert of_type(w, "legal") == []
    # the match moved by its owner: the replay's frame stays where it was
    w.sent.clear()
    m.goto(1)
    assert of_type(w, "goto") == [] and w.current == m.frames_of_step(2)[0].to_dict()
    assert all(msg["actions"] == [] for msg in of_type(w, "legal"))


def test_a_replay_of_a_bot_game_never_lets_the_bots_or_python_play():
    m = tw.Match("toy-fifteen", seed=3)
    m.autoplay({0: tw.bots.Random(seed=1), 1: tw.bots.Random(seed=2)}, max_steps=6)
    m.goto(2)
    with pytest.raises(ValueError, match="bots"):
        widget(m, replay=True, bots={1: "random"})
    w = widget(m, replay=True)
    with pytest.raises(ValueError, match="replay"):
        w.play(m.state.legal_actions()[0])
    with pytest.raises(ValueError, match="bots"):
        w.bots = {0: "random"}
    assert m.cursor == 2 and len(m) == 6
    # leaving replay mode offers the actions again
    w.sent.clear()
    w.replay = False
    assert of_type(w, "legal")[-1]["actions"] == [str(a) for a in m.state.legal_actions()]


@pytest.mark.parametrize("value", [1, "yes", None])
def test_replay_must_be_a_bool(value):
    with pytest.raises(ValueError, match="replay"):
        widget(recorded(), replay=value)


def test_the_browser_cannot_turn_replay_off():
    w = widget(recorded(), replay=True)
    w.set_state({"replay": False})
    assert w.replay is True and "replay" in w.error

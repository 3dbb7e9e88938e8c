"""Browser input a player's screen may not send, and forged input of any depth.

Without a browser: messages in through ``_handle_custom_msg``, messages out captured from
``send`` (tests/widget_spy.py). The toy game "toy-fifteen" has hidden hands and hidden draws.
"""

import pytest
from hypothesis import given, settings, strategies as st

import tabletop_widgets as tw
from tabletop_widgets.core.errors import quote
from tabletop_widgets.core.widget import STATIC, GameWidget

import toy_game  # noqa: F401  (registers "toy-fifteen")
from widget_spy import browser, record


class ToyWidget(GameWidget):
    GAMES = ("toy-fifteen",)
    _esm = STATIC / "generic.js"


def legal(match, step=None):
    state = match.state if step is None else match.state_at(step)
    return [str(a) for a in state.legal_actions()]


def of_type(w, kind):
    return [m for m in w.sent if m["type"] == kind]


# a player's own screen -----------------------------------------------------------------------
def two_screens(steps=4):
    """One match, two locked player screens (seats 0 and 1), ``steps`` actions played on them."""
    m = tw.Match("toy-fifteen", seed=5)
    screens = [record(ToyWidget(m, seat=s, lock_seat=True)) for s in (0, 1)]
    for _ in range(steps):
        mover = screens[m.state.to_move]
        browser(mover, {"type": "play", "action": legal(m)[0], "step": m.cursor})
        assert mover.error == ""
    return m, screens


def test_two_locked_screens_play_in_turn_at_the_live_end():
    m, screens = two_screens(4)
    assert len(m) == m.cursor == 4
    assert [str(a) for a in m.actions] and all(w.error == "" for w in screens)


def test_a_locked_screen_cannot_play_at_an_earlier_step():
    m, screens = two_screens(4)
    before = m.to_json()
    # step 2: seat 0 was to move there, and the step is in range; on an unlocked screen this
    # would drop steps 3 and 4 (seat 1's move with it) and play again
    assert m.state_at(2).to_move == 0
    w = screens[0]
    for w_, other in ((screens[0], 2), (screens[1], 1)):
        w_.sent.clear()
        browser(w_, {"type": "play", "action": legal(m, other)[-1], "step": other})
        assert "locked" in w_.error and "was not played" in w_.error
        assert m.to_json() == before
        # refused with the usual answer: the unchanged legal actions
        assert w_.sent == [w_._legal_message()]
    assert w.match.cursor == 4


def test_a_locked_screen_cannot_move_the_match_cursor():
    m, screens = two_screens(4)
    before = m.to_json()
    for w in screens:
        for step in (0, 2, 3, 4):
            w.error = ""
            w.sent.clear()
            browser(w, {"type": "goto", "step": step})
            assert "cannot move the match back" in w.error
            assert m.cursor == 4 and m.to_json() == before
            assert of_type(w, "goto") == [] and len(of_type(w, "legal")) == 1
    # the other screen never saw a cursor move either
    assert all(w.cursor == 4 for w in screens)


def test_a_locked_screen_keeps_every_frame_to_look_back_through():
    m, screens = two_screens(4)
    w = screens[1]
    w.sent.clear()
    browser(w, {"type": "hello"})
    (frames,) = of_type(w, "frames")
    assert frames["from"] == 0
    assert [f["step"] for f in frames["frames"]][-1] == 4
    assert {f["step"] for f in frames["frames"]} == set(range(5))


def test_a_locked_screen_plays_nothing_while_python_shows_an_earlier_step():
    m, screens = two_screens(4)
    m.goto(2)  # the teacher's code rewinds to look at something
    w = screens[m.state_at(4).to_move]
    assert w._legal_message()["actions"] == []
    before = m.to_json()
    browser(w, {"type": "play", "action": legal(m, 4)[0], "step": 4})
    assert "locked" in w.error and "shown at step 2" in w.error
    browser(w, {"type": "play", "action": legal(m, 2)[0], "step": 2})
    assert "locked" in w.error
    assert m.to_json() == before and m.cursor == 2
    m.goto(4)
    assert w._legal_message()["actions"] == legal(m)
    browser(w, {"type": "play", "action": legal(m)[0], "step": 4})
    assert w.error == "" and len(m) == 5


def test_an_unlocked_analysis_widget_still_rewinds():
    m, screens = two_screens(4)
    analysis = record(ToyWidget(m))
    browser(analysis, {"type": "goto", "step": 1})
    assert analysis.error == "" and m.cursor == 1
    browser(analysis, {"type": "play", "action": legal(m, 1)[-1], "step": 1})
    assert analysis.error == "" and len(m) == 2
    # the locked screens follow the match: they now show the shorter timeline
    assert all(w.cursor == 2 for w in screens)


# forged input of any depth ---------------------------------------------------------------------
def nested(depth, inner="play 1", wrap=list):
    value = inner
    for _ in range(depth):
        value = [value] if wrap is list else {"k": value}
    return value


DEEP_MESSAGES = [
    ("action", lambda d, w: {"type": "play", "action": nested(d, wrap=w), "step": 0}),
    ("step", lambda d, w: {"type": "play", "action": "play 1", "step": nested(d, 0, w)}),
    ("goto step", lambda d, w: {"type": "goto", "step": nested(d, 0, w)}),
    ("type", lambda d, w: {"type": nested(d, "play", w), "action": "play 1", "step": 0}),
    ("whole message", lambda d, w: nested(d, {"type": "hello"}, w)),
]


def check_refused_with_answer(w, m, content, before_legal=()):
    before = m.to_json()
    w.error = ""
    w.sent.clear()
    browser(w, content)
    assert w.error and len(w.error) < 700
    assert m.to_json() == before
    assert [msg["type"] for msg in w.sent[:-1]] == list(before_legal)
    assert w.sent[-1] == w._legal_message()


@pytest.mark.parametrize("wrap", [list, dict], ids=["lists", "objects"])
@pytest.mark.parametrize("depth", [1000, 5000, 100_000])
@pytest.mark.parametrize("where", [n for n, _ in DEEP_MESSAGES])
def test_a_message_nested_thousands_deep_gets_the_usual_error_and_answer(where, depth, wrap):
    w = record(ToyWidget(tw.Match("toy-fifteen", seed=5)))
    make = dict(DEEP_MESSAGES)[where]
    check_refused_with_answer(w, w.match, make(depth, wrap))


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_settings_and_seat_nested_thousands_deep_are_refused(depth):
    w = record(ToyWidget(tw.Match("toy-fifteen", seed=5), seat=0))
    for update in ({"settings": {"animate": nested(depth)}}, {"settings": nested(depth, wrap=dict)},
                   {"settings": {"animate": True, "extra": nested(depth)}},
                   {"seat": nested(depth, 1)}, {"error": nested(depth, "")}, {"cursor": nested(depth, 0)}):
        w.error = ""
        w.set_state(update)
        assert w.error and len(w.error) < 700
        assert w.seat == 0 and w.settings == {} and w.cursor == 0


def test_game_messages_nested_thousands_deep_are_refused():
    # the games' own messages quote what they refuse too
    mamba = record(tw.widget(tw.Match("mamba", seed=0)))
    check_refused_with_answer(mamba, mamba.match, {"type": "mamba_load_position", "position": nested(5000)},
                              before_legal=["mamba_position"])
    pizza = record(tw.widget(tw.Match("mamma-mia", seed=0)))
    check_refused_with_answer(pizza, pizza.match, {"type": "tally", "on": nested(5000, True, dict)})


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5))


@st.composite
def forged_values(draw):
    """Any JSON value, sometimes wrapped in a chain of lists and objects thousands deep."""
    value = draw(st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                              | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8))
    depth = draw(st.sampled_from([0, 0, 1, 50, 999, 1000, 3000]))
    kinds = draw(st.lists(st.booleans(), min_size=1, max_size=3))
    for i in range(depth):
        value = [value] if kinds[i % len(kinds)] else {"k": value}
    return value


@settings(max_examples=60, deadline=None)
@given(where=st.sampled_from(["action", "step", "type", "on", "message"]), value=forged_values(),
       kind=st.sampled_from(["play", "goto", "tally", "hello"]))
def test_any_forged_value_at_any_depth_gets_an_error_or_plays_legally(where, value, kind):
    w = record(tw.widget(tw.Match("mamma-mia", players=2, seed=1)))
    m = w.match
    before = m.to_json()
    content = {"type": kind, "action": legal(m)[0], "step": 0, "on": True}
    if where == "message":
        content = value
    else:
        content[where] = value
    w.error = ""
    w.sent.clear()
    browser(w, content)
    # every message is answered by the legal actions; a refused one changes nothing
    assert of_type(w, "legal")[-1] == w._legal_message()
    if w.error:
        assert len(w.error) < 700 and m.to_json() == before


def test_quote_is_repr_for_shallow_values_and_cut_for_long_or_deep_ones():
    for value in ([1, (2,), "x"], {"a": [None, True, 1.5]}, (), {}, [], "it's", (1, 2)):
        assert quote(value) == repr(value)
    assert quote("y" * 500) == repr("y" * 500)[:80] + "…"
    assert quote(nested(100_000)) == "[" * 80 + "…"
    assert quote(nested(100_000, wrap=dict)).startswith("{'k': {'k': ")
    with pytest.raises(RecursionError):
        repr(nested(100_000))  # what the messages quoted before


def test_every_answer_to_a_play_echoes_its_id_and_nothing_else_does():
    # A page waiting for its play's answer cannot otherwise tell it from the `legal` answering
    # a message Python took before it (another display's hello): it would be playable again.
    m = tw.Match("toy-fifteen", seed=5)
    w = record(ToyWidget(m, seat=0, bots={1: "random"}))
    browser(w, {"type": "hello"})
    assert all("id" not in msg for msg in w.raw)
    w.raw.clear()
    browser(w, {"type": "play", "action": legal(m)[0], "step": 0, "id": "k3x9a1"})
    # the move's own frame, the rest of its step, then the bot's answer with `legal`: all the
    # page's answer
    assert [(msg["type"], "legal" in msg, msg.get("id")) for msg in w.raw] == [
        ("frames", False, "k3x9a1"), ("frames", False, "k3x9a1"), ("frames", True, "k3x9a1")]
    w.raw.clear()
    browser(w, {"type": "play", "action": "nonsense", "step": m.cursor, "id": "k3x9a2"})  # refused
    assert w.error and w.raw == [{**w._legal_message(), "id": "k3x9a2"}]
    w.bots = None
    w.raw.clear()
    browser(w, {"type": "play", "action": legal(m)[0], "step": m.cursor, "id": "k3x9a3"})  # no bot answers
    assert [(msg["type"], "legal" in msg, msg.get("id")) for msg in w.raw] == [
        ("frames", False, "k3x9a3"), ("frames", True, "k3x9a3")]
    w.raw.clear()
    browser(w, {"type": "hello"})
    m.play(legal(m)[0])
    w.goto(1)
    assert w.raw and all("id" not in msg for msg in w.raw)  # no play of a page answered there


@pytest.mark.parametrize("play_id", [7, True, "", "x" * 33, ["k3"], {"id": "k3"}])
def test_a_play_with_a_forged_id_is_refused_and_plays_nothing(play_id):
    m = tw.Match("toy-fifteen", seed=5)
    w = record(ToyWidget(m, seat=0))
    check_refused_with_answer(w, m, {"type": "play", "action": legal(m)[0], "step": 0, "id": play_id})
    assert "id" in w.error and len(m) == 0

"""Pass-and-play (``seats=[0, 2]``): several seats share one screen. Checked on the data the
browser receives: between two players the page is sent no frame, ``current`` is empty and
nothing hand-shaped is in any trait; after the next player opens the screen, everything sent
until the next pass is that seat's own view (the leak checks of the game widget tests)."""

import random
from types import SimpleNamespace

import pytest

import tabletop_widgets as tw
import test_mamma_mia_widget as mamma_mia
import test_mammuz_widget as mammuz
from widget_spy import browser, dicts_in, record

SEATS, BOTS = [0, 2], {1: "random", 3: "random"}


def synced(w):
    """Every synced trait as the browser holds it."""
    return {name: getattr(w, name) for name in w.keys if not name.startswith("_")}


def mark_passes(w):
    """Put a marker in ``w.sent`` each time the screen is covered, in order with the messages."""
    w.observe(lambda change: change["new"] is not None and w.sent.append({"type": "#covered"}), names="pass_to")


def covered_part(sent):
    """The messages sent after the screen was last covered (none before it: all of them)."""
    marks = [i for i, msg in enumerate(sent) if msg["type"] == "#covered"]
    return sent[marks[-1] + 1:] if marks else sent


def current_frame(w, seat):
    """The frame the browser's `current` would hold for ``seat`` now."""
    return w.match.frames_of_step(w.cursor, seat)[-1].to_dict()


def play_passing(w, leaks, rng, turns):
    """Open the screen for each seat to move and play random legal actions for it, checking
    every stretch of messages against the seat that held the screen. Returns the passes."""
    passes = 0
    for _ in range(turns):
        if w.match.state.is_over:
            break
        if w.pass_to is not None:
            to = w.pass_to
            assert to == w.match.state.to_move and w.seat == to
            # covered: nothing of anybody's hand in the page, nothing sent since but empty `legal`
            assert w.current is None
            assert not any("ingredients" in d or "hand" in d or "hands" in d for d in dicts_in(synced(w)))
            after = covered_part(w.sent)
            assert all(msg["type"] == "legal" and msg["actions"] == [] for msg in after), after
            w.sent.clear()
            browser(w, {"type": "ready"})
            assert w.pass_to is None and w.error == "" and w.seat == to
            assert w.current == current_frame(w, to)
            passes += 1
        seat = w.seat
        legal = [msg for msg in w.sent if msg["type"] == "legal"][-1]["actions"]
        assert legal and w.match.state.to_move == seat
        played, start = w.cursor + 1, len(w.sent)
        browser(w, {"type": "play", "action": rng.choice(legal), "step": w.cursor})
        assert w.error == ""
        marks = [i for i, msg in enumerate(w.sent) if msg["type"] == "#covered"]
        held = w.sent[: marks[0]] if marks else w.sent
        if marks:
            # Before the cover the screen got every step up to the one the next player must
            # answer, the move and each bot's answer: its page plays them out, a beat each.
            steps = [f["step"] for msg in held[start:] if msg["type"] == "frames" for f in msg["frames"]]
            assert sorted(set(steps)) == list(range(played, w.cursor + 1)) and steps == sorted(steps)
            assert all(msg["type"] == "legal" and msg["actions"] == [] for msg in w.sent[marks[0] + 1:])
        # what the screen got while `seat` held it: that seat's own view and nothing else
        # (`current` is compared with the state at the end by the leak checks)
        assert leaks(SimpleNamespace(match=w.match, sent=held, current=current_frame(w, seat)), seat) == []
    return passes


# (a MammuZ lay is several decisions of one seat: more turns for as many passes)
@pytest.mark.parametrize("name, leaks, turns", [("mamma-mia", mamma_mia.leaks, 12), ("mammuz", mammuz.leaks, 40)])
def test_pass_and_play_never_sends_a_hand_to_the_wrong_seat(name, leaks, turns):
    m = tw.Match(name, seed=11, players=4)
    w = record(tw.widget(m, seats=SEATS, bots=BOTS))
    mark_passes(w)
    assert w.lock_seat and w.seats == SEATS and w.pass_to == w.seat == m.state.to_move
    assert all(msg["type"] == "legal" for msg in covered_part(w.sent))
    browser(w, {"type": "hello"})
    assert [msg["type"] for msg in w.sent] == ["legal"]  # covered from the start
    w.sent.clear()
    assert play_passing(w, leaks, random.Random(4), turns=turns) >= 6


@pytest.mark.parametrize("kwargs, words", [
    ({"seats": [0, 2], "bots": {1: "random"}}, "needs a bot"),
    ({"seats": [0, 0], "bots": {1: "random", 2: "random", 3: "random"}}, "twice"),
    ({"seats": [0, 4], "bots": {1: "random", 2: "random", 3: "random"}}, "from 0 to 3"),
    ({"seats": [], "bots": {}}, "non-empty"),
    ({"seats": "02", "bots": {}}, "non-empty"),
    ({"seats": [0, 1, 2, 3], "bots": {1: "random"}}, "one or the other"),
    ({"seats": [0, 1, 2, 3], "seat": 1}, "leave out seat"),
    ({"seats": [0, 1, 2, 3], "replay": True}, "replay"),
])
def test_pass_and_play_seats_are_checked(kwargs, words):
    m = tw.Match("mamma-mia", seed=1, players=4)
    with pytest.raises(ValueError, match=words):
        tw.widget(m, **kwargs)
    assert len(m) == 0


def test_a_covered_screen_plays_nothing_and_ready_opens_it_on_what_happened_since():
    m = tw.Match("mamma-mia", seed=2, players=4)
    w = record(tw.widget(m, seats=[0, 1, 2, 3]))
    assert w.pass_to == 0
    browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": 0})
    assert "passed to" in w.error and len(m) == 0
    browser(w, {"type": "ready"})
    w.sent.clear()
    browser(w, {"type": "ready"})
    assert "not being passed" in w.error
    w.error = ""
    # each seat in turn: the screen opens on the first step it has not seen, and follows on
    opened = []
    for _ in range(6):
        browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": len(m)})
        assert w.pass_to == m.state.to_move == w.seat
        w.sent.clear()
        browser(w, {"type": "ready"})
        # where the player starts comes first: the page shows it as the frames come
        assert [msg["type"] for msg in w.sent] == ["goto", "frames", "legal"]
        opened.append((w.seat, w.sent[0]["step"], w.sent[0]["follow"]))
    # seats 1-3 open on the set-up the first time; seat 0 saw up to its own move (step 1)
    assert opened == [(1, 0, True), (2, 0, True), (3, 0, True), (0, 2, True), (1, 3, True), (2, 4, True)]

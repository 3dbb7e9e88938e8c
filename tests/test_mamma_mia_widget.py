"""MammaMiaWidget without a browser: messages in through ``_handle_custom_msg``, every message
out captured from ``send`` (from construction on) and checked against the engine's state."""

import json
import random
import re

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mamma_mia.widget import MammaMiaWidget

from widget_spy import browser, dicts_in, spying, state_after

SpyWidget = spying(MammaMiaWidget)


def engine_hand(state, seat):
    """A seat's hand straight from the engine's hidden fields, in the observation's shape."""
    g = state.game
    return {
        "ingredients": {g.kinds[k]: n for k, n in enumerate(state.hands_ing[seat]) if n},
        "orders": [g.deck[o].to_dict(g.kinds) for o in sorted(state.hands_ord[seat])],
    }


def hand_shaped(obj):
    """Every dict in ``obj`` shaped like a hand (ingredients + orders)."""
    return (d for d in dicts_in(obj) if "ingredients" in d and "orders" in d and isinstance(d["orders"], list))


def has_key(obj, key):
    return any(key in d for d in dicts_in(obj))


def leaks(w, seat):
    """What the messages ``w`` sent show that ``seat`` may not know (empty: nothing)."""
    m = w.match
    found = []
    # The secret sentences of other seats' events (what they drew, which order they put).
    secrets = set()
    for step in range(1, len(m) + 1):
        for e in m.state_at(step).events:
            if e.seats is not None and seat not in e.seats and e.public_text != e.text:
                secrets.add(e.text)
    for msg in w.sent:
        text = json.dumps(msg)
        found += [f"secret caption {s!r}" for s in secrets if json.dumps(s)[1:-1] in text]
        if has_key(msg, "hands"):
            found.append("an all-seeing 'hands' key")
        if msg["type"] == "frames":
            for frame in msg["frames"]:
                state = state_after(m, frame["step"], frame["sub"])
                own = engine_hand(state, seat)
                for hand in hand_shaped(frame):
                    if hand != own:
                        found.append(f"a hand that is not seat {seat}'s at step {frame['step']}.{frame['sub']}: {hand}")
        if msg["type"] == "legal" and msg["actions"]:
            if m.state_at(msg["step"]).to_move != seat:
                found.append(f"legal actions of seat {msg['to_move']}")
    for hand in hand_shaped(w.current):
        if hand != engine_hand(m.state, seat):
            found.append("a foreign hand in 'current'")
    return found


def play_out(w, seat, seed):
    """Play the human seat with seeded random choices until the game is over."""
    rng = random.Random(seed)
    m = w.match
    while not m.state.is_over:
        assert m.state.to_move == seat
        w.play(rng.choice(m.state.legal_actions()))


@pytest.mark.parametrize("name, players, seat", [("mamma-mia", 4, 1), ("mamma-mia-plus", 4, 2)])
def test_a_seat_view_never_sends_another_seats_hand(name, players, seat):
    bots = {s: "random" for s in range(players) if s != seat}
    w = SpyWidget(tw.Match(name, seed=11, players=players), seat=seat, bots=bots)
    play_out(w, seat, seed=3)
    browser(w, {"type": "hello"})
    assert w.match.state.is_over
    # The game went through evaluations with decisions, so hands changed many times.
    kinds = {f["kind"] for msg in w.sent if msg["type"] == "frames" for f in msg["frames"]}
    assert {"turn", "reveal", "oven-closed", "game-over"} <= kinds
    assert leaks(w, seat) == []


def test_the_leak_check_finds_the_hands_of_the_all_seeing_view():
    # The same check on the teaching view must find the other hands: it can fail.
    w = SpyWidget(tw.Match("mamma-mia", seed=2, players=3), seat=None)
    w.play(w.match.state.legal_actions()[0])
    assert any("hands" in leak or "not seat 0" in leak for leak in leaks(w, 0))


def test_both_editions_get_this_widget():
    for name in ("mamma-mia", "mamma-mia-plus"):
        assert isinstance(tw.widget(tw.Match(name, players=3)), MammaMiaWidget)
    with pytest.raises(ValueError, match="tally"):
        MammaMiaWidget(tw.Match("mamma-mia"), settings={"tally": "yes"})


# the tally switch ---------------------------------------------------------------------------
def test_the_tally_is_a_display_switch_that_changes_no_frame():
    m = tw.Match("mamma-mia", seed=4, players=3)
    m.autoplay({s: "random" for s in range(3)}, max_steps=6)
    w = SpyWidget(m, seat=0)
    assert w.settings["tally"] is False
    browser(w, {"type": "hello"})
    frames = [f for msg in w.sent if msg["type"] == "frames" for f in msg["frames"]]
    assert frames and all(f.get("view", {}).get("oven", {}).get("tally") is None for f in frames if "view" in f)
    current = w.current

    # The browser draws the tally from the public log itself: switching sends no frame back
    # (only the legal actions that answer every browser message).
    w.sent.clear()
    browser(w, {"type": "tally", "on": True})
    assert w.error == "" and w.settings["tally"] is True and w.tally is True
    assert [msg["type"] for msg in w.sent] == ["legal"] and w.current == current
    w.sent.clear()
    w.tally = False
    assert w.settings["tally"] is False and w.sent == []


def test_the_browser_may_switch_the_tally_through_settings_with_a_bool_only():
    m = tw.Match("mamma-mia", seed=4, players=3)
    m.autoplay({s: "random" for s in range(3)}, max_steps=6)
    w = SpyWidget(m, seat=0)
    browser(w, {"type": "hello"})
    w.set_state({"settings": dict(w.settings, tally="yes")})
    assert "must be a bool" in w.error and w.settings["tally"] is False
    w.sent.clear()
    w.set_state({"settings": dict(w.settings, tally=True)})
    assert w.settings["tally"] is True
    assert not [msg for msg in w.sent if msg["type"] == "frames"]


# forged messages ----------------------------------------------------------------------------
def test_forged_messages_set_error_and_change_nothing():
    m = tw.Match("mamma-mia-plus", seed=9, players=3)
    m.autoplay({s: "random" for s in range(3)}, max_steps=4)
    w = SpyWidget(m, seat=m.state.to_move)
    other = (w.seat + 1) % 3
    before = (m.to_json(), m.cursor, len(m), dict(w.settings))
    forged = [
        {"type": "tally", "on": "yes"},
        {"type": "tally"},
        {"type": "play", "action": "make adding 1 salami", "step": m.cursor},  # not a turn's action
        {"type": "play", "action": "put 99 salami; draw supply", "step": m.cursor},
        {"type": "play", "action": 3, "step": m.cursor},
        {"type": "play", "action": str(m.state.legal_actions()[0]), "step": len(m) + 5},
        {"type": "peek", "seat": other},
        {"no": "type"},
    ]
    for msg in forged:
        w.error = ""
        w.sent.clear()
        browser(w, msg)
        assert w.error, msg
        assert (m.to_json(), m.cursor, len(m), dict(w.settings)) == before, msg
        assert not [s for s in w.sent if s["type"] == "frames"], msg

    # Playing for another seat from this seat's view is refused too.
    w2 = SpyWidget(m, seat=other)
    browser(w2, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": m.cursor})
    assert "cannot play" in w2.error
    assert (m.to_json(), m.cursor, len(m)) == before[:3]


# captions per seat ---------------------------------------------------------------------------
def _states_with_decisions(name, kinds, games=40):
    """States of random games whose pending question is one of ``kinds``."""
    found = {}
    for seed in range(games):
        state = tw.make(name, players=3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.observe(None)
            decision = (view.get("evaluation") or {}).get("decision")
            if decision and decision["kind"] not in found:
                found[decision["kind"]] = state
            if len(found) == len(kinds):
                return found
            state = state.apply(rng.choice(state.legal_actions()))
    return found


def test_a_decision_speaks_to_the_deciding_seat_and_of_it_to_everybody_else():
    found = _states_with_decisions("mamma-mia-plus", {"add_from_hand", "choose_kind", "help"})
    assert {"add_from_hand", "help"} <= set(found)
    for kind, state in found.items():
        decider = state.observe(None)["evaluation"]["decision"]["seat"]
        name = state.game.seat_names[decider]
        mine = state.observe(decider)["evaluation"]["decision"]["question"]
        assert re.search(r"\byour?\b", mine, re.I), (kind, mine)
        for seat in [None] + [s for s in range(3) if s != decider]:
            other = state.observe(seat)["evaluation"]["decision"]["question"]
            assert not re.search(r"\byour?\b", other, re.I), (kind, seat, other)
            assert name in other, (kind, seat, other)


# what a turn shows every seat ----------------------------------------------------------------
def test_a_turn_frame_tells_every_seat_which_cards_went_into_the_oven_and_nothing_secret():
    m = tw.Match("mamma-mia-plus", seed=5, players=4)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=30)
    seen = 0
    for seat in [None, 0, 1, 2, 3]:
        for frame in m.frames(seat):
            if frame.kind != "turn":
                continue
            data, log = frame.data, frame.view["oven"]["log"]
            assert set(data) >= {"seat", "put", "order", "source", "drew"}
            # The newest entries of the oven's public log are the cards the data names.
            tail = log[len(log) - (data["order"] + bool(data["put"])):]
            if data["order"]:
                assert tail[-1] == {**tail[-1], "seat": data["seat"], "order": tail[-1]["order"]} and "kind" not in tail[-1]
            if data["put"]:
                assert {"seat": data["seat"], **data["put"]} == {k: tail[0][k] for k in ("seat", "kind", "count")}
            # Which order went in is the player's own secret (and the all-seeing view's).
            assert ("action" in data) == (seat in (None, data["seat"])), (seat, data)
            seen += 1
    assert seen > 40


def test_a_ciottona_question_counts_its_ways_and_leaves_each_answer_to_name_its_kinds():
    # Red's Ciottona: ten pairs of kinds to choose from, each answer naming its own pair.
    m = tw.Match("mamma-mia-plus", seed=10, players=6)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(6)}, max_steps=235)
    red = m.state.to_move
    decision = m.state.observe(red)["evaluation"]["decision"]
    assert decision["kind"] == "choose_kind" and len(decision["choices"]) == 10
    answers = [str(a) for a in m.state.legal_actions()]
    for seat in (red, (red + 1) % 6, None):
        question = m.state.observe(seat)["evaluation"]["decision"]["question"]
        assert "among 10 pairs;" in question or "among 10 pairs and" in question, question
        assert not any(pair in question for pair in decision["choices"]), question
        assert len(question) < 150, question
    # Every pair the question no longer lists is named by an answer.
    assert all(any(f"with {pair}" in a for a in answers) for pair in decision["choices"])
    # A Monotoni's four kinds, single words, are still named in its question.
    m = tw.Match("mamma-mia", seed=0, players=3)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(3)}, max_steps=30)
    decision = m.state.observe(None)["evaluation"]["decision"]
    assert decision["kind"] == "choose_kind" and len(decision["choices"]) == 4, decision
    *rest, last = decision["choices"]
    assert f"among {', '.join(rest)} and {last};" in decision["question"], decision


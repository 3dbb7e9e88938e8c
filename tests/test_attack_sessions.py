"""Random sessions on the screens of one match, checked on what each page holds: its frames,
rebuilt from the patches it was sent (tests/widget_spy.py decodes as js/src/timeline.js
does), equal the frames of a fresh game replaying the same actions (nothing shared with the
caches of the match shown), and a seat's page never holds another seat's hand."""

import json
import random
from types import SimpleNamespace

import pytest

import tabletop_widgets as tw
import test_mamma_mia_widget as mamma_mia
import test_mammuz_widget as mammuz
from widget_spy import browser, record

LEAKS = {"mamma-mia": mamma_mia.leaks, "mamma-mia-plus": mamma_mia.leaks, "mammuz": mammuz.leaks}


def fresh_frames(match, seat):
    """The frames of ``match``'s actions for ``seat``, encoded whole from a new game."""
    again = tw.Match(tw.make(match.game.name, players=match.game.players), seed=match.seed)
    for action in match.actions:
        again.play(str(action))
    return json.loads(json.dumps([f.to_dict() for f in again.frames(seat)])), again


def check_page(w, label):
    if w.pass_to is not None:
        return  # covered: the page dropped every frame (test_pass_and_play)
    expected, again = fresh_frames(w.match, w.seat)
    assert w.held == expected, f"{label}: the page's frames are not seat {w.seat}'s"
    leaks = LEAKS.get(w.match.game.name)
    if leaks is not None and w.seat is not None:
        page = SimpleNamespace(match=again, sent=[{"type": "frames", "frames": w.held}], current=w.held[-1])
        assert leaks(page, w.seat) == [], label


def play_at_the_end(w, rng):
    m = w.match
    if w.pass_to is not None:
        browser(w, {"type": "ready"})
    elif not m.state.is_over and (w.seat is None or m.state.to_move == w.seat) and m.cursor == len(m):
        browser(w, {"type": "play", "step": m.cursor, "action": str(rng.choice(m.state.legal_actions()))})


@pytest.mark.parametrize("name, players, seed", [("mamma-mia", 4, 1), ("mamma-mia-plus", 3, 2), ("mammuz", 4, 3)])
def test_player_screens_a_pass_and_play_screen_and_a_replay_of_one_match(name, players, seed):
    """Seats 0 and 1 passing one screen (bots for the others), the last seat's own screen (a
    bot plays it: the screen watches, its plays are refused) and a replay of the same match
    from another view: every page holds its own seat's frames."""
    rng = random.Random(seed)
    m = tw.Match(name, seed=seed, players=players)
    passing = record(tw.widget(m, seats=[0, 1], bots={s: "random" for s in range(2, players)}))
    own = record(tw.widget(m, seat=players - 1, lock_seat=True))
    watch = record(tw.widget(m, seat=2, replay=True))
    screens = [own, passing, watch]
    for w in screens:
        browser(w, {"type": "hello"})
    for i in range(70):
        w = rng.choice(screens)
        op = rng.random()
        if op < 0.7 and w is not watch:
            play_at_the_end(w, rng)
        elif op < 0.8:
            step = rng.randint(0, len(m))
            watch.goto(step, rng.choice([None, -1, 0]))
        elif op < 0.9:
            browser(w, {"type": "hello"})  # a reload
        else:
            watch.seat = rng.choice([None, *range(players)])
            browser(own, {"type": "goto", "step": 0})  # refused: a player's screen
        for s in screens:
            s.error = ""
        if i % 10 == 9:
            for label, s in zip(("own screen", "pass-and-play", "replay"), screens):
                check_page(s, f"{label} after op {i}")
    assert len(m) >= 10


@pytest.mark.parametrize("name, players, seed", [("mamma-mia", 4, 4), ("mamma-mia-plus", 4, 5), ("mammuz", 5, 6)])
def test_an_analysis_view_rewound_forked_and_switched_holds_the_seats_frames(name, players, seed):
    """Rewind, play a new future (continue from here), switch seats, go back and forth:
    the frames kept per (step, seat) and encoded per step never mix futures or seats."""
    rng = random.Random(seed)
    m = tw.Match(name, seed=seed, players=players)
    w = record(tw.widget(m, seat=0, bots={s: "random" for s in range(1, players) if s % 2}))
    browser(w, {"type": "hello"})
    for i in range(60):
        op = rng.random()
        st = m.state
        if op < 0.6 and not st.is_over and w.seat in (None, st.to_move) and st.to_move not in w.bots:
            browser(w, {"type": "play", "step": m.cursor, "action": str(rng.choice(st.legal_actions()))})
        elif op < 0.6 and not st.is_over:
            m.play(rng.choice(st.legal_actions()))
        elif op < 0.75:
            browser(w, {"type": "goto", "step": rng.randint(0, len(m))})  # continue from here
        elif op < 0.85:
            w.seat = rng.choice([None, *range(players)])
        elif op < 0.95:
            w.goto(rng.randint(0, len(m)), rng.choice([None, -1]))
        else:
            browser(w, {"type": "hello"})
        w.error = ""
        if i % 6 == 5:
            check_page(w, f"op {i}")


@pytest.mark.parametrize("name, players, seed", [("mamma-mia-plus", 4, 7), ("mammuz", 4, 8), ("mamba", 2, 9)])
def test_tiny_caches_bound_a_long_session_and_lose_no_frame_a_page_holds(name, players, seed):
    """The match's frames and the widgets' encodings kept to a handful of steps: an analysis
    view switched between every seat, a pass-and-play screen and a replay of the same match
    still hold exactly their seat's frames, after every kind of message."""
    rng = random.Random(seed)
    m = tw.Match(name, seed=seed, players=players)
    m.frame_cache_size = 3
    bots = {s: "random" for s in range(2, players)}
    view = record(tw.widget(m, seat=0, bots=bots))
    passing = record(tw.widget(m, seats=[0, 1], bots=bots))
    watch = record(tw.widget(m, seat=1, replay=True))
    screens = (view, passing, watch)
    for w in screens:
        w.encoded_cache_size = 2
        browser(w, {"type": "hello"})
    for i in range(60):
        op = rng.random()
        if op < 0.45:
            play_at_the_end(passing, rng)
        elif op < 0.6 and not m.state.is_over and m.cursor == len(m) and m.state.to_move in (0, 1):
            view.seat = m.state.to_move
            browser(view, {"type": "play", "step": m.cursor, "action": str(rng.choice(m.state.legal_actions()))})
        elif op < 0.7:
            view.seat = rng.choice([None, *range(players)])
        elif op < 0.8:
            watch.goto(rng.randint(0, len(m)), rng.choice([None, -1, 0]))
            watch.seat = rng.choice([None, *range(players)])
        else:
            browser(rng.choice(screens), {"type": "hello"})
        for w in screens:
            assert len(w._encoded) <= 2
            w.error = ""
        assert len(m._frames) <= 3
        if i % 5 == 4:
            for label, w in zip(("analysis", "pass-and-play", "replay"), screens):
                check_page(w, f"{label} after op {i}")
    assert len(m) >= 10

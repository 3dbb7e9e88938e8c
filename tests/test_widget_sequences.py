"""Any sequence of browser messages (plays at the cursor or earlier, gotos, reloads, forged
ones, ``ready``) and Python calls (``m.play``, ``m.undo``, ``w.goto``, ``w.seat``) leaves the
page holding exactly the match's frames for its seat, with the last ``legal`` it got for the
match's cursor: a move's answer (its frames, the bots' answers, ``legal``) is one ``frames``
message, whatever came before it."""

import random

import pytest

import tabletop_widgets as tw
from widget_spy import browser, record

CONFIGS = [
    ("mamba", 2, {"bots": {1: "random"}}),
    ("mamma-mia", 3, {"bots": {1: "random", 2: "random"}}),
    ("mamma-mia", 4, {"seats": [0, 2], "bots": {1: "random", 3: "random"}}),  # pass-and-play
    ("mammuz", 3, {"seat": 0, "bots": {1: "random", 2: "random"}}),
    ("mamma-mia-plus", 2, {}),
    ("mamma-mia", 2, {"replay": True}),  # steps only through what is recorded: Python plays
]
OPS = ["play", "play_earlier", "goto", "undo", "python_goto", "python_play", "hello", "forged", "ready", "seat"]
FORGED = [{"type": "play", "action": "put 9 olive"}, {"type": "play", "step": -1, "action": "pass"},
          {"type": "goto", "step": 10**9}, {"type": "play"}, {"type": 3}, {"type": "goto", "step": "1"}]


def frames_of_match(w):
    return [f for step in range(len(w.match) + 1) for f in w._frames_of(step)]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{'-'.join(c[2])}")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_page_holds_the_matchs_frames_after_any_sequence(config, seed):
    name, players, options = config
    m = tw.Match(name, seed=seed, players=players)
    w = record(tw.widget(m, **options))
    browser(w, {"type": "hello"})
    rng = random.Random(seed)
    # plays and "ready" (the covered screen opened) come often, so games go on between the rest
    for op in rng.choices(OPS, weights=[10, 1, 1, 1, 1, 1, 1, 1, 3, 1], k=60):
        state, sent = m.state, len(w.raw)
        covered = w.pass_to is not None
        try:
            if op == "play" and not state.is_over:
                browser(w, {"type": "play", "step": m.cursor, "action": str(rng.choice(state.legal_actions()))})
            elif op == "play_earlier":
                step = rng.randrange(len(m) + 1)
                if not m.state_at(step).is_over:
                    action = rng.choice(m.state_at(step).legal_actions())
                    browser(w, {"type": "play", "step": step, "action": str(action)})
            elif op == "goto":
                browser(w, {"type": "goto", "step": rng.randrange(len(m) + 1)})
            elif op == "undo" and m.cursor and not w.lock_seat:
                m.undo()
            elif op == "python_goto" and not w.lock_seat:
                w.goto(rng.randrange(len(m) + 1))
            elif op == "python_play" and not state.is_over and not w.lock_seat:
                m.play(rng.choice(state.legal_actions()))
            elif op == "hello":
                browser(w, {"type": "hello"})
            elif op == "forged":
                forged = dict(rng.choice(FORGED))
                forged.setdefault("step", m.cursor)
                browser(w, forged)
            elif op == "ready":
                browser(w, {"type": "ready"})
            elif op == "seat" and not w.seats:
                w.seat = rng.choice([None, *range(players)])
        except ValueError:  # refused from Python (a locked or covered screen): nothing changed
            pass
        if op.startswith("play") and not covered and w.pass_to is None:
            # A browser's play: its move (its own frame first when its step has more), then
            # (when bots answer it) their answers with `legal`.
            parts = [x for x in w.raw[sent:] if x["type"] == "frames"]
            alone = bool(parts) and "more" in parts[0]
            assert len(parts) <= (2 if w._bots else 1) + alone
            assert all("legal" not in x for x in parts[:-1])
            if alone:
                assert len(parts[0]["frames"]) == 1 and parts[1]["from"] == parts[0]["from"] + 1
                assert len(parts[1]["frames"]) >= parts[0]["more"]
        assert w.cursor == m.cursor
        if w.pass_to is None:
            assert w.held == frames_of_match(w)
            legal = [x for x in w.sent if x["type"] == "legal"]
            assert legal and legal[-1]["step"] == m.cursor
            if legal[-1]["actions"]:
                assert legal[-1]["actions"] == [str(a) for a in m.state.legal_actions()]

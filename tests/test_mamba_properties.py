"""Mamba properties over thousands of seeded random games (2, 3 and 4 players, every option).

The engine keeps its board as strings scanned with regular expressions and caches; here a
deliberately plain reference (dicts of cells, every rule re-checked on every pass, suffocation
included) replays the rules from the source, and random games must agree with it move by move.
Games are driven directly (no hypothesis shrinking of whole games) to stay fast.
"""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.games.mamba import Birth, Move

FILES = "abcdefghi"
ALL = [(f, r) for r in range(9) for f in range(9)]
GOAL = {2: 4, 3: 3, 4: 2}


# ---- the plain reference -----------------------------------------------------------------------------
def cell(name):
    return FILES.index(name[0]), int(name[1:]) - 1


def name(c):
    return f"{FILES[c[0]]}{c[1] + 1}"


def inside(c):
    return 0 <= c[0] < 9 and 0 <= c[1] < 9


def cross(c):
    return [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)) if inside(n)]


def square(c):
    return [(c[0] + df, c[1] + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)
            if (df or dr) and inside((c[0] + df, c[1] + dr))]


def board_of(state):
    text = state.board
    return {(i % 9, i // 9): ch for i, ch in enumerate(text) if ch != "."}


def lines():
    for r in range(9):
        yield [(f, r) for f in range(9)], False
    for f in range(9):
        yield [(f, r) for r in range(9)], True


def runs_in(board, line):
    runs, current = [], []
    for c in line:
        if c in board and current and board[current[-1]] == board[c]:
            current.append(c)
        else:
            if current:
                runs.append(current)
            current = [c] if c in board else []
    if current:
        runs.append(current)
    return runs


def ref_moves(board, letter):
    out = set()
    for c, owner in board.items():
        if owner != letter:
            continue
        for n1 in cross(c):
            if n1 in board:
                continue
            out.add((c, n1))
            for n2 in cross(n1):
                if n2 != c and n2 not in board:
                    out.add((c, n2))
    return out


def ref_wave(board, y, block_set):
    changes = set()
    for line, vertical in lines():
        runs = runs_in(board, line)
        for a, b in zip(runs, runs[1:]):
            if line.index(b[0]) != line.index(a[-1]) + 1:
                continue  # not touching
            for u_run, t_run in ((a, b), (b, a)):
                if board[u_run[0]] != y or len(u_run) <= len(t_run):
                    continue
                x, u = board[t_run[0]], len(u_run)
                step = (1, 0) if vertical else (0, 1)  # across the line
                held = []
                for s in t_run:
                    for d in (1, -1):
                        r, k = 0, (s[0] + d * step[0], s[1] + d * step[1])
                        while board.get(k) == x:
                            r += 1
                            k = (k[0] + d * step[0], k[1] + d * step[1])
                        j, k = 1, (s[0] - d * step[0], s[1] - d * step[1])
                        while board.get(k) == y:
                            j += 1
                            k = (k[0] - d * step[0], k[1] - d * step[1])
                        if r >= u and r > j:
                            held.append(s)
                            break
                if block_set and held:
                    continue
                changes |= {s for s in t_run if s not in held}
    return changes


def ref_cascade(board, active, letters, block_set, kinds):
    """Resolve to rest; returns (board, pending overpopulated run or None)."""
    players = len(letters)
    seen = {frozenset(board.items())}
    while True:
        dead = [c for c in board if all(n in board for n in cross(c))]
        if dead:
            for c in dead:
                del board[c]
            kinds.append("suffocation")
            continue
        over = []
        for line, vertical in lines():
            for run in runs_in(board, line):
                if len(run) >= 5:
                    owner = letters.index(board[run[0]])
                    over.append((((owner - active) % players, vertical, run[0][1], run[0][0]), run))
        if over:
            kinds.append("overpopulation")
            return board, min(over)[1]
        for k in range(players):
            y = letters[(active + k) % players]
            changes = ref_wave(board, y, block_set)
            if changes:
                for c in changes:
                    board[c] = y
                kinds.append("transformation")
                key = frozenset(board.items())
                if key in seen:
                    kinds.append("cycle")
                    return board, None
                seen.add(key)
                break
        else:
            return board, None


def ref_apply(state, action):
    """(board, pending run, cascade kinds) the reference expects after ``action``."""
    game = state.game
    letters = game.letters
    board = board_of(state)
    active = state.active
    if isinstance(action, Move):
        letter = board.pop(cell(action.start))
        board[cell(action.to)] = letter
    elif isinstance(action, Birth):
        board[cell(action.cell)] = board[cell(action.parent)]
    else:
        run = [cell(c) for c in state.observe(None)["trim"]["run"]]
        removed = run[:len(run) - 4] if cell(action.end) == run[0] else run[4:]
        for c in removed:
            del board[c]
    kinds = []
    board, run = ref_cascade(board, active, letters, game.options["held_blocks"] == "set", kinds)
    return board, run, kinds


def ref_legal(state):
    obs = state.observe(None)
    if obs["phase"] == "trim":
        return {f"trim {c}" for c in obs["trim"]["ends"]}
    board = board_of(state)
    letter = state.game.letters[state.to_move]
    out = {f"{name(a)}-{name(b)}" for a, b in ref_moves(board, letter)}
    if len(board) < 50:
        for p in obs["parents"]:
            out |= {f"{p}*{name(n)}" for n in cross(cell(p)) if n not in board}
    return out


def ref_parents(state):
    board = board_of(state)
    letter = state.game.letters[state.to_move]
    around = square if state.game.options["isolation"] == "square" else cross
    return {name(c) for c, x in board.items() if x == letter and all(n not in board for n in around(c))}


# ---- playouts ------------------------------------------------------------------------------------------
OPTION_SETS = [
    {},
    {"isolation": "cross"},
    {"held_blocks": "set"},
    {"trim_chooser": "active", "isolation": "cross"},
]


INDEX = {f"{FILES[i % 9]}{i // 9 + 1}": i for i in range(81)}


def stone_deltas(before, after):
    """Per-seat counts reconstructed from ``before`` and the events alone."""
    counts = list(before.scores)
    board = before.board
    letters = before.game.letters
    index = INDEX
    for e in after.events:
        d = e.data
        cells = d["cells"]
        if e.kind == "move":
            b = list(board)
            b[index[d["to"]]], b[index[d["from"]]] = b[index[d["from"]]], "."
            board = "".join(b)
        elif e.kind == "birth":
            counts[before.active] += 1
            b = list(board)
            b[index[d["cell"]]] = b[index[d["parent"]]]
            board = "".join(b)
        elif e.kind in ("suffocation", "trim"):
            b = list(board)
            for c in cells:
                counts[letters.index(b[index[c]])] -= 1
                b[index[c]] = "."
            board = "".join(b)
        elif e.kind == "transformation":
            b = list(board)
            for c, seat in zip(cells, d["from"]):
                assert b[index[c]] == letters[seat]
                counts[seat] -= 1
                counts[d["to"]] += 1
                b[index[c]] = letters[d["to"]]
            board = "".join(b)
        if e.after is not None:
            assert e.after.board == board, f"{e.kind}: event board differs"
    assert board == after.board
    return tuple(counts)


def test_random_games_keep_every_invariant(record_property):
    """~1,500 random games: invariants at every step, the reference on a share of them."""
    totals = {"games": 0, "finished": 0, "actions": 0, "cycle": 0, "held": 0, "trim": 0,
              "transformation": 0, "suffocation": 0, "birth": 0, "checked_by_reference": 0}
    turn_cap = 60
    for g in range(1500):
        players = 2 + g % 3
        options = OPTION_SETS[(g // 3) % len(OPTION_SETS)]
        game = tw.make("mamba", players=players, **options)
        rng = Rng.from_seed(g, stream=5)
        state = game.new_state(seed=g)
        with_reference = g % 12 == 0
        while not state.is_over and state.turn <= turn_cap:
            legal = state.legal_actions()
            assert legal, f"game {g}: no legal action at {state.position()}"
            if with_reference:
                assert {str(a) for a in legal} == ref_legal(state), state.position()
                if not state.in_turn and state.phase == "birth_or_move":
                    assert set(state.observe(None)["parents"]) == ref_parents(state)
            action, rng = rng.choice(legal)
            after = state._apply(action)
            # the board: 81 cells of known letters, never more than 50 stones
            board = after.board
            assert len(board) == 81 and set(board) <= set("." + game.letters)
            assert 81 - board.count(".") <= 50
            assert len(after.events) < 100, "a resolution that does not settle"
            assert stone_deltas(state, after) == after.scores
            for e in after.events:
                totals[e.kind] = totals.get(e.kind, 0) + 1
            if with_reference:
                expected, run, kinds = ref_apply(state, action)
                got = board_of(after)
                assert got == expected, f"game {g}: {state.position()} + {action} → {after.position()}"
                if run is not None:
                    assert after.phase == "trim" and after.observe(None)["trim"]["run"] == [name(c) for c in run]
                else:
                    assert after.phase != "trim"
                engine_kinds = [e.kind for e in after.events if e.kind in
                                ("suffocation", "transformation", "cycle", "overpopulation")]
                assert engine_kinds == kinds, f"{state.position()} + {action}"
                totals["checked_by_reference"] += 1
            state = after
            totals["actions"] += 1
        totals["games"] += 1
        totals["finished"] += state.is_over
        if state.is_over:
            counts = state.scores
            goal = GOAL[players]
            assert min(counts) <= goal and state.winners
    record_property("mamba_random_games", json.dumps(totals))
    print("\nmamba random games:", totals)
    assert totals["finished"] > 0 and totals["checked_by_reference"] > 5000
    # the fuzzer must exercise the whole cascade
    for kind in ("held", "trim", "transformation", "suffocation", "birth"):
        assert totals[kind] > 0, kind
    # Whether the safety net fired is recorded above (it can: see test_safety_net_stops_a_real_
    # cycle); every resolution ended, with fewer than 100 waves, either way.


def test_round_trips_and_replays():
    """Positions, state JSON and Match replays reproduce every position of random games."""
    for g in range(45):
        players = 2 + g % 3
        game = tw.make("mamba", players=players, **OPTION_SETS[g % len(OPTION_SETS)])
        match = tw.Match(game, seed=g)
        rng = Rng.from_seed(g, stream=11)
        while not match.state.is_over and len(match) < 220:
            action, rng = rng.choice(match.state.legal_actions())
            match.play(action)
        replay = tw.Match.from_json(match.to_json())
        assert len(replay) == len(match)
        for step in range(len(match) + 1):
            state = match.state_at(step)
            assert replay.state_at(step) == state
            if step % 3 == 0:
                text = state.position()
                again = game.position(text)
                assert again.position() == text
                assert again.legal_actions() == state.legal_actions() and again.to_move == state.to_move
                back = game.state_from_json(state.to_json())
                assert back == state and back.to_json() == state.to_json()
                obs = state.observe(step % players)
                assert json.loads(json.dumps(obs)) == obs
                assert obs["position"] == text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_frames_follow_the_events(players):
    match = tw.Match("mamba", players=players, seed=1)
    rng = Rng.from_seed(players)
    while not match.state.is_over and len(match) < 150:
        action, rng = rng.choice(match.state.legal_actions())
        match.play(action)
    for step in range(1, len(match) + 1):
        frames = match.frames_of_step(step)
        state = match.state_at(step)
        assert [f.kind for f in frames] == [e.kind for e in state.events]
        assert frames[-1].view == state.observe(None)
        assert frames[0].kind in ("move", "birth", "trim")

"""Mamba properties over thousands of seeded random games (2, 3 and 4 players, every option).

The engine keeps its board as strings scanned with regular expressions and caches; here a
deliberately plain reference (dicts of cells, every rule re-checked on every pass, suffocation
included) replays the rules from the source, and random games must agree with it move by move.
The seeded games are driven directly (no hypothesis shrinking of whole games) to stay fast;
hypothesis draws boards that no set-up reaches (any loadable position) and the actions on them.
"""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

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


def _cross(c):
    return [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)) if inside(n)]


def _square(c):
    return [(c[0] + df, c[1] + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)
            if (df or dr) and inside((c[0] + df, c[1] + dr))]


CROSS, SQUARE = {c: _cross(c) for c in ALL}, {c: _square(c) for c in ALL}  # computed once, for speed
cross, square = CROSS.__getitem__, SQUARE.__getitem__


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


def ref_held(board, s, y, u, vertical):
    """The spec's words, read on the board: s (of X) that U (of y, |U| = u, in a column when
    ``vertical``) would take is held when, in the perpendicular line, s touches a run R of X
    stones with |R| >= u that would dominate the run s would join if it changed side."""
    x = board[s]
    line = [(f, s[1]) for f in range(9)] if vertical else [(s[0], r) for r in range(9)]
    turned = dict(board)
    turned[s] = y  # "if it changed side"
    runs = runs_in(turned, line)
    joined = next(run for run in runs if s in run)
    for run in runs:
        touches_s = any(abs(line.index(c) - line.index(s)) == 1 for c in run)
        if turned[run[0]] == x and touches_s and len(run) >= u and len(run) > len(joined):
            return True
    return False


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
                held = [s for s in t_run if ref_held(board, s, y, len(u_run), vertical)]
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


def ref_legal(state, parents):
    """The legal actions, from the board and the parents the test tracked itself."""
    if state.phase == "trim":
        return {f"trim {c}" for c in state.observe(None)["trim"]["ends"]}
    board = board_of(state)
    letter = state.game.letters[state.to_move]
    out = {f"{name(a)}-{name(b)}" for a, b in ref_moves(board, letter)}
    if len(board) < 50:
        for p in parents:
            if board[cell(p)] == letter:
                out |= {f"{p}*{name(n)}" for n in cross(cell(p)) if n not in board}
    return out


def ref_parents(board, letter, isolation):
    """The isolated stones of ``letter``: the birth parents of a turn starting on ``board``."""
    around = square if isolation == "square" else cross
    return {name(c) for c, x in board.items() if x == letter and all(n not in board for n in around(c))}


def ref_winners(counts, active, goal):
    """The end of the game after a resolved action of ``active`` (stones per seat): winners, or None."""
    opponents = [seat for seat in range(len(counts)) if seat != active]
    if any(counts[seat] <= goal for seat in opponents):
        return (active,)  # reducing any opponent wins
    if counts[active] <= goal:  # only himself: the opponents with most stones share the win
        most = max(counts[seat] for seat in opponents)
        return tuple(seat for seat in opponents if counts[seat] == most)
    return None


class TurnTracker:
    """Whose turn it is and its birth parents, followed from the actions alone: the parents
    are fixed at the turn's start and lose their birth once used or dead; one that a cascade
    turned gives birth only while it is the player's again ("still the player's")."""

    def __init__(self, state):
        self.game = state.game
        self.seat = state.to_move
        self.moved = False
        board = board_of(state)
        self.parents = ref_parents(board, self.game.letters[self.seat], self.game.options["isolation"])

    def after(self, action, after):
        """Follow ``action``; returns the seat that must act next by the turn's flow."""
        game, letters = self.game, self.game.letters
        board = board_of(after)
        if isinstance(action, Move):
            self.moved = True
        elif isinstance(action, Birth):
            self.parents.discard(action.parent)
        self.parents = {p for p in self.parents if cell(p) in board}
        if after.phase == "trim" or after.is_over:
            return None
        if self.moved:  # the move is played and resolved: the next seat's turn starts
            self.seat, self.moved = (self.seat + 1) % game.players, False
            self.parents = ref_parents(board, letters[self.seat], game.options["isolation"])
        return self.seat


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


GAMES = 3000  # 2, 3 and 4 players in turn, every option set
TURN_CAP = 60
REFERENCE_EVERY = 15  # games replayed against the plain reference, action by action
REPLAY_EVERY = 10  # games played through a Match and reloaded from its JSON


def test_random_games_keep_every_invariant(record_property):
    """Thousands of random games: invariants at every action, the end of the game and the
    turn's flow by the plain rules, the reference on a share of them, replays on others."""
    totals = {"games": 0, "finished": 0, "actions": 0, "cycle": 0, "held": 0, "trim": 0,
              "transformation": 0, "suffocation": 0, "birth": 0, "checked_by_reference": 0,
              "replayed_games": 0, "replayed_steps": 0}
    for g in range(GAMES):
        players = 2 + g % 3
        options = OPTION_SETS[(g // 3) % len(OPTION_SETS)]
        game = tw.make("mamba", players=players, **options)
        letters, goal = game.letters, GOAL[players]
        rng = Rng.from_seed(g, stream=5)
        state = game.new_state(seed=g)
        with_reference = g % REFERENCE_EVERY == 0
        match = tw.Match(game, seed=g) if g % REPLAY_EVERY == 0 else None
        tracker = TurnTracker(state) if with_reference else None
        while not state.is_over and state.turn <= TURN_CAP:
            legal = state.legal_actions()
            assert legal, f"game {g}: no legal action at {state.position()}"
            if with_reference:
                assert state.to_move == tracker.seat or state.phase == "trim"
                assert {str(a) for a in legal} == ref_legal(state, tracker.parents), state.position()
                if state.phase == "birth_or_move":
                    own = {p for p in tracker.parents if board_of(state)[cell(p)] == state.game.letters[state.to_move]}
                    ringed = own if 81 - state.board.count(".") < 50 else set()
                    assert set(state.observe(None)["parents"]) == ringed, state.position()
            action, rng = rng.choice(legal)
            after = match.play(action) if match is not None else state._apply(action)
            # the board: 81 cells of known letters, never more than 50 stones
            board = after.board
            assert len(board) == 81 and set(board) <= set("." + game.letters)
            assert 81 - board.count(".") <= 50
            assert len(after.events) < 100, "a resolution that does not settle"
            # stones come only from births and go only by deaths (suffocation, trims)
            born = sum(e.kind == "birth" for e in after.events)
            died = sum(len(e.data["cells"]) for e in after.events if e.kind in ("suffocation", "trim"))
            assert state.board.count(".") - board.count(".") == born - died
            assert stone_deltas(state, after) == after.scores
            # the end of the game, by the plain rule, after every resolved action
            counts = [board.count(x) for x in letters]
            ends = None if after.phase == "trim" else ref_winners(counts, state.active, goal)
            assert after.is_over == (ends is not None) and after.winners == (ends or ()), \
                f"game {g}: {state.position()} + {action}: {counts}"
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
                nxt = tracker.after(action, after)
                assert nxt is None or after.to_move == nxt, f"game {g}: {state.position()} + {action}"
                totals["checked_by_reference"] += 1
            state = after
            totals["actions"] += 1
        totals["games"] += 1
        totals["finished"] += state.is_over
        if match is not None:
            replay = tw.Match.from_json(match.to_json())
            assert len(replay) == len(match)
            for step in range(len(match) + 1):
                assert replay.state_at(step) == match.state_at(step), f"game {g}, step {step}"
            totals["replayed_games"] += 1
            totals["replayed_steps"] += len(match)
    # read by the terminal summary (tests/conftest.py) and written to JUnit XML
    record_property("mamba_random_games", json.dumps(totals))
    assert totals["games"] >= 3000 and totals["replayed_games"] >= 300
    assert totals["finished"] > 0 and totals["checked_by_reference"] > 10000
    # the fuzzer must exercise the whole cascade and the end of the game
    for kind in ("held", "trim", "transformation", "suffocation", "birth", "end"):
        assert totals[kind] > 0, kind
    # Whether the safety net fired ("cycle") is in the totals, printed at the end of every
    # pytest run (tests/conftest.py); it can fire (test_safety_net_stops_a_real_cycle) and
    # every resolution ended, with fewer than 100 waves, either way.


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


# ---- any loadable position (hypothesis) -----------------------------------------------------------------
def position_text(board, side):
    """Position notation for ``board`` ({(file, rank): letter}), written here, not by the engine."""
    ranks = []
    for r in range(8, -1, -1):
        text, gap = "", 0
        for f in range(9):
            letter = board.get((f, r))
            if letter is None:
                gap += 1
            else:
                text, gap = text + (str(gap) if gap else "") + letter, 0
        ranks.append(text + (str(gap) if gap else ""))
    return "/".join(ranks) + " " + side


@st.composite
def loadable_positions(draw):
    """A random board of up to 50 stones laid as short runs (so runs face each other and pull
    across one another often), made loadable: stones with a full cross would already have
    suffocated and a run of 5+ would wait for its trim, so those are taken off."""
    players = draw(st.sampled_from([2, 3, 4]))
    game = tw.make("mamba", players=players, **draw(st.sampled_from(OPTION_SETS)))
    pieces = draw(st.lists(st.tuples(st.sampled_from(ALL), st.booleans(), st.integers(1, 4),
                                     st.sampled_from(game.letters)), min_size=1, max_size=18))
    board = {}
    for (f, r), vertical, length, letter in pieces:
        for k in range(length):
            c = (f, r + k) if vertical else (f + k, r)
            if inside(c) and c not in board and len(board) < 50:
                board[c] = letter
    for c in [c for c in board if all(n in board for n in cross(c))]:
        del board[c]
    while True:
        over = [run for line, _ in lines() for run in runs_in(board, line) if len(run) >= 5]
        if not over:
            break
        del board[over[0][4]]
    side = draw(st.sampled_from(game.letters))
    assume(side in board.values())
    return game.position(position_text(board, side))


@settings(max_examples=200, deadline=None)
@given(start=loadable_positions(), data=st.data())
def test_any_loadable_position_plays_by_the_reference(start, data):
    """From any loadable board: the notation round trip, then a few actions drawn by hypothesis,
    each resolved (and ended) exactly as the plain reference says, within the box's 50 stones."""
    game = start.game
    assert game.position(start.position()).position() == start.position()
    state, tracker = start, TurnTracker(start)
    for _ in range(4):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert {str(a) for a in legal} == ref_legal(state, tracker.parents)
        action = data.draw(st.sampled_from(legal), label="action")
        after = state.apply(str(action))
        expected, run, kinds = ref_apply(state, action)
        assert board_of(after) == expected
        assert (after.phase == "trim") == (run is not None)
        assert [e.kind for e in after.events if e.kind in
                ("suffocation", "transformation", "cycle", "overpopulation")] == kinds
        assert len(after.events) < 100 and 81 - after.board.count(".") <= 50
        assert stone_deltas(state, after) == after.scores
        counts = [after.board.count(x) for x in game.letters]
        ends = None if after.phase == "trim" else ref_winners(counts, state.active, game.goal)
        assert after.is_over == (ends is not None) and after.winners == (ends or ())
        nxt = tracker.after(action, after)
        assert nxt is None or after.to_move == nxt
        state = after


@settings(max_examples=200, deadline=None)
@given(u=st.integers(1, 4), t=st.integers(1, 3), r=st.integers(0, 3), j=st.integers(0, 3),
       transposed=st.booleans(), puller=st.sampled_from("SN"), mover=st.sampled_from("SN"),
       block=st.sampled_from(["stone", "set"]))
def test_tug_of_war_configurations_resolve_by_the_reference(u, t, r, j, transposed, puller, mover, block):
    """Every shape of the held rule around one stone s = e5: U (``u`` stones of the puller)
    takes s's run T (``t`` stones) along one line; across it, s touches R (``r`` of s's side)
    on one side (r ≤ 3: with s, R would be overpopulated) and ``j`` puller stones on the other,
    which s would join if it changed side.
    A far-away move starts the cascade; the reference decides who keeps s."""
    x = "N" if puller == "S" else "S"
    tug = {}
    tug.update({(3 - k, 4): puller for k in range(u)})  # U: d5, c5 … westward
    tug.update({(4 + k, 4): x for k in range(t)})  # T: e5 (s), f5 … eastward
    tug.update({(4, 5 + k): x for k in range(r)})  # R: e6 … northward
    tug.update({(4, 3 - k): puller for k in range(j)})  # what s would join: e4 … southward
    board = {((rank, file) if transposed else (file, rank)): v for (file, rank), v in tug.items()}
    assume(not all(n in board for n in cross((4, 4))))  # e5 with a full cross would be gone already
    board.update({(0, 0): "S", (2, 0): "S", (0, 8): "N", (2, 8): "N"})  # a1 c1 / a9 c9: far away
    start_cell = (8, 0) if mover == "S" else (8, 8)
    board[start_cell] = mover
    game = tw.make("mamba", held_blocks=block)
    state = game.position(position_text(board, mover))
    move = Move(name(start_cell), name((8, 1) if mover == "S" else (8, 7)))  # i1-i2 or i9-i8
    after = state.apply(move)
    expected, run, kinds = ref_apply(state, move)
    assert board_of(after) == expected
    assert [e.kind for e in after.events if e.kind in
            ("suffocation", "transformation", "cycle", "overpopulation")] == kinds
    counts = [after.board.count(side) for side in game.letters]
    ends = None if after.phase == "trim" else ref_winners(counts, state.active, game.goal)
    assert after.winners == (ends or ())


def test_the_shortcuts_of_a_quiet_action_agree_with_the_whole_board():
    # A move or a birth on a calm board (no facing runs of unequal length, no run of five)
    # looks only at the lines through the cells it changed, keeps the empty cells as bits from
    # the state before, and skips the end-of-game count (nobody's stones went down): every
    # settled state must hold what reading its whole board says.
    from tabletop_widgets.games.mamba import rules

    quiet = births = 0
    for players in (2, 3, 4):
        game = tw.make("mamba", players=players)
        rng = Rng.from_seed(players)
        for _ in range(6):
            state = game.new_state()
            while not state.is_over and state.turn < 150:
                action, rng = rng.choice(state.legal_actions())
                after = state._apply(action)
                if after.phase != "trim" and after.settled and not after.is_over:
                    # the empty cells are known after every move or birth, and right
                    assert after._empty == rules._empty_bits(after.rows) or (
                        after._empty is None and not isinstance(action, (Move, Birth)))
                    if after._calm:
                        assert rules._dominations(game, after.rows, after.cols) == []
                        assert not any(x * 5 in after.rows or x * 5 in after.cols for x in game.letters)
                if state._calm and isinstance(action, (Move, Birth)) and len(after.events) == 1:
                    quiet += 1
                    births += isinstance(action, Birth)
                    assert after._calm is rules.QUIET
                    assert after.is_over == (rules._end_winners(game, after.rows, state.active) is not None)
                state = after
    assert quiet > 1000 and births > 20


def _told(events):
    return [(e.kind, e.text, json.dumps(e.data, sort_keys=True),
             None if e.after is None else (e.after.position(), e.after.to_move)) for e in events]


def test_events_read_late_are_the_events_read_at_once():
    # A state writes its events from the action's log when they are first read: read after
    # the game has gone on from it (cascades, trims and ends met since), they must be those
    # that the same action gives when read at once, and the same objects when read again
    kinds = set()
    for players in (2, 3, 4):
        game = tw.make("mamba", players=players)
        rng = Rng.from_seed(40 + players)
        for _ in range(4):
            state = game.new_state()
            unread = []
            while not state.is_over and state.turn < 200:
                action, rng = rng.choice(state.legal_actions())
                at_once = _told(state._apply(action).events)
                after = state._apply(action)
                unread.append((after, at_once))
                state = after
            for after, at_once in unread:
                events = after.events
                assert _told(events) == at_once
                assert after.events is events
                kinds.update(kind for kind, *_ in at_once)
    assert {"move", "birth", "transformation", "held", "suffocation", "overpopulation", "trim", "end"} <= kinds


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(range(90)).filter(lambda p: p % 10 != 9), st.sampled_from(".SNEW"),
                       max_size=12))
def test_writing_cells_by_slices_or_by_lists_gives_the_same_strings(changes):
    from tabletop_widgets.games.mamba import rules

    rows, cols = rules._put(rules.EMPTY_BOARD, rules.EMPTY_BOARD, {p: "S" for p in range(0, 89, 3) if p % 10 != 9})
    lr, lc = list(rows), list(cols)
    for p, ch in changes.items():
        lr[p] = ch
        lc[rules.P2Q[p]] = ch
    assert rules._put(rows, cols, changes) == ("".join(lr), "".join(lc))


def test_the_suffocation_table_is_the_full_cross_rule():
    from tabletop_widgets.games.mamba import rules

    rng = Rng.from_seed(9)
    for _ in range(300):
        occupied, rng = rng.shuffled(list(rules.CELLS))
        rows, _ = rules._put(rules.EMPTY_BOARD, rules.EMPTY_BOARD, dict.fromkeys(occupied[:60], "N"))
        empty = rules._empty_bits(rows)
        for filled in rules.CELLS:
            by_table = [c for c, around in rules.SUFFOCATION[filled] if not empty & around]
            assert by_table == [c for c in rules.AROUND[filled] if rows[c] != "." and rules._full_cross(rows, c)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=".SNEW", min_size=9, max_size=9))
def test_a_lines_facing_runs_are_those_its_runs_of_one_side_face(line):
    # the engine scans a line cell by cell; the plain reading: runs as a regular expression
    # finds them, each pair of runs that touch end to end with unequal lengths
    import re

    from tabletop_widgets.games.mamba import rules

    runs = [(m.group()[0], m.end() - m.start(), m.start()) for m in re.finditer(r"S+|N+|E+|W+", line)]
    expected = []
    for a, b in zip(runs, runs[1:]):
        if a[2] + a[1] == b[2] and a[1] != b[1]:
            expected.append((a + b) if a[1] > b[1] else (b + a))
    assert rules._line_pairs(line) == tuple(expected)

"""Mamba rules: the source's worked positions, the cascade's order, every option, notation.

Positions are set up with ``game.position(...)`` (as a user debugging would) from a small
helper that writes the notation from a list of stones; results are checked on
``state.position()`` and on the events' kinds, sentences and data.
"""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mamba import Birth, Move, Trim
from tabletop_widgets.games.mamba import rules as mamba_rules

# Far-away stones that keep each side above the goal without touching anything.
FILLER = {2: {"N": "a9 c9 e9 g9 i9", "S": "a7 c7 e7 g7 i7"}}


def notation(stones: dict, side: str, rest: str = "") -> str:
    """Position notation for ``{side letter: "cells ..."}`` (test helper, independent of the engine)."""
    grid = [["."] * 9 for _ in range(9)]
    for letter, cells in stones.items():
        for cell in cells.split():
            f, r = "abcdefghi".index(cell[0]), int(cell[1:]) - 1
            assert grid[r][f] == ".", f"{cell} twice in the test's own position"
            grid[r][f] = letter
    ranks = []
    for r in range(8, -1, -1):
        text, gap = "", 0
        for ch in grid[r]:
            if ch == ".":
                gap += 1
            else:
                text += (str(gap) if gap else "") + ch
                gap = 0
        ranks.append(text + (str(gap) if gap else ""))
    return "/".join(ranks) + f" {side}" + (f" {rest}" if rest else "")


def setup(stones, side="S", players=2, filler=True, rest="", **options):
    game = tw.make("mamba", players=players, **options)
    stones = dict(stones)
    if filler and players == 2:
        for letter, cells in FILLER[2].items():
            stones[letter] = (stones.get(letter, "") + " " + cells).strip()
    return game.position(notation(stones, side, rest))


def kinds(state):
    return [e.kind for e in state.events]


def cells_of(state, letter):
    return {mamba_rules.NAME[p] for p in mamba_rules.CELLS if state.rows[p] == letter}


# ---- the source's worked positions -------------------------------------------------------------
def test_a_a_b_becomes_a_a_a():
    state = setup({"S": "c5 d3", "N": "e5"})
    after = state.apply("d3-d5")  # row 5 becomes S S N
    assert kinds(after) == ["move", "transformation"]
    turn = after.events[1]
    assert turn.data["cells"] == ["e5"] and turn.data["to"] == 0 and turn.data["from"] == [1]
    assert "dominates" in turn.text and "(2 > 1)" in turn.text and "e5" in turn.text
    assert {"c5", "d5", "e5"} <= cells_of(after, "S") and "e5" not in cells_of(after, "N")
    assert after.position() == setup({"S": "c5 d5 e5"}, side="N").position()


def test_a_b_a_stays_as_it_is():
    state = setup({"S": "c5 e3", "N": "d5"})
    after = state.apply("e3-e5")  # row 5 becomes S N S: the two S are not one set
    assert kinds(after) == ["move"]
    assert after.position() == setup({"S": "c5 e5", "N": "d5"}, side="N").position()


def test_tug_of_war_holds_the_stone():
    state = setup({"N": "c5 d5 e5", "S": "c3 d3 e3"})
    after = state.apply("d3-e4")
    assert kinds(after) == ["move", "held"]
    move, held = after.events
    assert move.data["path"] == ["d3", "d4", "e4"]
    assert held.data["cells"] == ["e5"] and held.data["against"] == [2, 2]
    assert "held: 2 against 2" in held.text and "tug of war" in held.text and "North's" in held.text
    # nothing else changes: the move only
    assert after.position() == setup({"N": "c5 d5 e5", "S": "c3 e3 e4"}, side="N").position()


def test_a_move_built_anywhere_plays_as_the_legal_one_and_a_diagonal_says_its_path():
    # the engine writes a move's events from what it worked out once per move of its tables;
    # a Move made by hand (equal, not the same object) must play exactly the same
    for stones, move, path in [({"S": "d3"}, "d3-e4", ["d3", "d4", "e4"]),   # vertical first
                               ({"S": "d3", "N": "d4"}, "d3-e4", ["d3", "e3", "e4"]),  # d4 taken
                               ({"S": "d3"}, "d3-d5", ["d3", "d4", "d5"]),
                               ({"S": "d3"}, "d3-c3", ["d3", "c3"])]:
        state = setup(stones)
        legal = next(a for a in state.legal_actions() if str(a) == move)
        made = Move(*move.split("-"))
        assert made == legal and made is not legal
        by_hand, played = state._apply(made), state._apply(legal)
        assert played.events[0].data["path"] == path
        assert played.events[0].text == f"South moves {move}."
        assert [(e.kind, e.text, e.data) for e in by_hand.events] == [(e.kind, e.text, e.data) for e in played.events]
        assert by_hand.position() == played.position()
        by_hand.events[0].data["path"].append("x")  # each event owns its data
        assert state._apply(legal).events[0].data["path"] == path


def test_corner_stone_suffocates_with_two_neighbours():
    state = setup({"N": "a1", "S": "b1 a3"})
    after = state.apply("a3-a2")
    assert kinds(after) == ["move", "suffocation"]
    assert after.events[1].data == {"cells": ["a1"], "sides": ["N"]}  # whose stone died, for a board drawn at it
    assert after.events[1].text == "a1 suffocates: its cross is full."
    assert "a1" not in cells_of(after, "N") and {"a2", "b1"} <= cells_of(after, "S")


def test_edge_stone_suffocates_with_three_neighbours_an_inner_one_does_not():
    edge = setup({"N": "e1", "S": "d1 f1 e3"}).apply("e3-e2")
    assert kinds(edge) == ["move", "suffocation"] and edge.events[1].data["cells"] == ["e1"]
    inner = setup({"N": "e3", "S": "d3 f3 e5"}).apply("e5-e4")  # e3 keeps e2 free
    assert "suffocation" not in kinds(inner) and "e3" in cells_of(inner, "N")


def test_run_of_five_is_trimmed_from_the_end_its_owner_chooses():
    state = setup({"S": "a2 b2 c2 d2 e4"})
    pending = state.apply("e4-e2")
    assert kinds(pending) == ["move", "overpopulation"]
    assert pending.phase == "trim" and pending.to_move == 0
    assert sorted(map(str, pending.legal_actions())) == ["trim a2", "trim e2"]
    assert pending.observe(0)["trim"] == {"seat": 0, "run": ["a2", "b2", "c2", "d2", "e2"], "ends": ["a2", "e2"]}
    assert pending.position().endswith(" S moved trim a2-e2")
    west = pending.apply("trim a2")
    east = pending.apply("trim e2")
    assert west.events[0].kind == "trim" and west.events[0].data["cells"] == ["a2"]
    assert west.events[0].data["run"] == ["a2", "b2", "c2", "d2", "e2"]
    assert cells_of(west, "S") >= {"b2", "c2", "d2", "e2"} and "a2" not in cells_of(west, "S")
    assert cells_of(east, "S") >= {"a2", "b2", "c2", "d2"} and "e2" not in cells_of(east, "S")
    assert west.to_move == east.to_move == 1  # the move was played: North's turn
    with pytest.raises(tw.IllegalAction, match="not an end of the overpopulated run"):
        pending.apply("trim c2")
    with pytest.raises(tw.IllegalAction, match="must first choose"):
        pending.apply("a7-a6")


# ---- the cascade's harder cases ---------------------------------------------------------------------
def test_one_wave_turns_a_row_and_a_column_at_once():
    # d3 joins c3 (row: 2 against e3) and d4 (column: 2 against d5); both are judged on the
    # board before the wave, so both North stones turn in one transformation.
    after = setup({"S": "c3 d4 d1", "N": "e3 d5"}).apply("d1-d3")
    assert kinds(after) == ["move", "transformation"]
    wave = after.events[1]
    assert sorted(wave.data["cells"]) == ["d5", "e3"] and wave.data["from"] == [1, 1]
    assert len(wave.data["runs"]) == 2
    assert after.position() == setup({"S": "c3 d3 e3 d4 d5"}, side="N").position()


def test_attacked_from_both_sides_then_a_run_of_five():
    # e3 arrives: row 3 is S S N S S, d3 is dominated from both sides, turns, and the South
    # row b3–f3 is then overpopulated.
    after = setup({"S": "b3 c3 f3 e1", "N": "d3"}).apply("e1-e3")
    assert kinds(after) == ["move", "transformation", "overpopulation"]
    assert after.events[1].data["cells"] == ["d3"] and len(after.events[1].data["runs"]) == 2
    assert after.phase == "trim" and after.to_move == 0
    assert sorted(map(str, after.legal_actions())) == ["trim b3", "trim f3"]
    done = after.apply("trim f3")
    assert done.to_move == 1 and {"b3", "c3", "d3", "e3"} <= cells_of(done, "S") and "f3" not in cells_of(done, "S")


def test_a_birth_that_captures_and_leaves_the_turn_open():
    state = setup({"S": "e3 b1", "N": "e5 i2"})
    assert {"e3", "b1"} <= set(state.observe(0)["parents"])
    after = state.apply("e3*e4")  # column e: e3 e4 (2) against e5 (1)
    assert kinds(after) == ["birth", "transformation"]
    assert after.events[0].data == {"cells": ["e4"], "parent": "e3", "cell": "e4"}
    assert after.events[0].text == "South's e3 gives birth on e4."
    assert after.to_move == 0 and after.phase == "birth_or_move"
    parents = after.observe(0)["parents"]
    assert "e3" not in parents and "b1" in parents and "e4" not in parents  # a newborn is no parent
    with pytest.raises(tw.IllegalAction, match="not a birth parent"):
        after.apply("e3*d3")  # each parent gives birth once
    assert set(after.position().split()[2].split(",")) == set(parents)
    again = tw.make("mamba").position(after.position())
    assert again.position() == after.position() and again.legal_actions() == after.legal_actions()
    assert after.apply("e4-d4").to_move == 1  # a newborn may move in the same turn


def test_parents_are_fixed_at_the_start_of_the_turn():
    state = setup({"S": "e3 g3", "N": "h8"})
    assert {"e3", "g3"} <= set(state.observe(0)["parents"])
    after = state.apply("e3*f3")  # g3's square is no longer empty: it stays a parent
    assert "g3" in after.observe(0)["parents"]
    assert "g3*g4" in map(str, after.legal_actions())


def test_the_game_ends_after_a_birth_and_the_move_is_not_played():
    game = tw.make("mamba")
    # North has exactly 5 stones; the birth takes one: 4 is the goal
    state = game.position(notation({"S": "e3 a7 c7 e7 g7", "N": "e5 a9 c9 g9 i9"}, "S"))
    after = state.apply("e3*e4")
    assert kinds(after) == ["birth", "transformation", "end"]
    assert after.is_over and after.to_move is None and after.winners == (0,)
    assert after.legal_actions() == [] and after.scores == (7, 4)
    assert after.events[-1].data["winners"] == [0] and "South wins" in after.events[-1].text
    assert after.position().endswith(" S over")
    assert game.position(after.position()).winners == (0,)
    with pytest.raises(tw.IllegalAction, match="over"):
        after.apply("e4-e6")


def test_a_player_who_falls_to_the_goal_by_his_own_action_ends_the_game():
    game = tw.make("mamba")
    # South moves e6 into e5 next to North's d5–f5? no: into a North run's end, losing it.
    state = game.position(notation({"S": "e7 a1 c1 g1 i1", "N": "c5 d5 a9 c9 g9 i9 e9"}, "S"))
    after = state.apply("e7-e5")  # N N S: the South stone turns North; South is down to 4
    assert kinds(after)[-1] == "end" and after.is_over
    assert after.winners == (1,) and "by its own action" in after.events[-1].text


def test_a_move_whose_departure_triggers_the_cascade():
    # d5 (South) is held between a5–c5 and e5 by the South column d6 d7 d8 (3 against 3).
    # South moves d8 away: the column is too short now, d5 turns North and North's row
    # a5–e5 is overpopulated; its owner North chooses the end.
    start = setup({"N": "a5 b5 c5 e5 f1 g1 i1", "S": "d5 d6 d7 d8 a1 c1"}, filler=False)
    after = start.apply("d8-c8")
    assert kinds(after) == ["move", "transformation", "overpopulation"]
    assert after.events[1].data == {"cells": ["d5"], "to": 1, "from": [0], "runs": [
        {"run": ["a5", "b5", "c5"], "dominates": ["d5"], "sizes": [3, 1]}]}
    assert after.to_move == 1 and after.phase == "trim"  # the owner chooses, not the mover
    west = after.apply("trim a5")
    east = after.apply("trim e5")
    # either way d5 then stays North's, held against the South column d6 d7
    assert kinds(west) == ["trim", "held"] and west.events[1].data["against"] == [2, 2]
    assert kinds(east) == ["trim", "held"] and east.events[1].data["against"] == [3, 2]
    assert "stronger" in east.events[1].text
    assert west.to_move == east.to_move == 1  # the move was South's: North's turn now
    assert west.turn == east.turn == start.turn + 1


def test_trim_chooser_active_gives_the_choice_to_the_mover():
    start = setup({"N": "a5 b5 c5 e5 f1 g1 i1", "S": "d5 d6 d7 d8 a1 c1"}, filler=False,
                  trim_chooser="active")
    after = start.apply("d8-c8")
    assert after.to_move == 0 and after.observe(None)["trim"]["seat"] == 0
    assert "South chooses" in after.events[-1].text


def test_held_blocks_stone_versus_set():
    # b5 joins c5 d5: 3 against e5 f5 (2). e5 is held by the North column e6–e8 (3 against 3);
    # f5 is not. Default: f5 turns alone. held_blocks="set": e5 keeps its whole set.
    stones = {"S": "c5 d5 b3 a1 c1 g1 i1", "N": "e5 f5 e6 e7 e8 a9 i9"}
    one = setup(stones, filler=False).apply("b3-b5")
    assert kinds(one) == ["move", "transformation", "held"]
    assert one.events[1].data["cells"] == ["f5"] and one.events[2].data["cells"] == ["e5"]
    assert one.events[2].data["against"] == [3, 3]
    kept = setup(stones, filler=False, held_blocks="set").apply("b3-b5")
    assert kinds(kept) == ["move", "held"]
    assert kept.events[1].data["kept"] == ["e5", "f5"] and "keeps its set e5–f5" in kept.events[1].text
    assert "f5" in cells_of(kept, "N") and "f5" in cells_of(one, "S")


def test_isolation_square_versus_cross():
    # e5 has only a diagonal neighbour (f6): a parent by its cross, not by its square
    stones = {"S": "e5 b1", "N": "f6"}
    square = setup(stones)
    cross = setup(stones, isolation="cross")
    assert "e5" not in square.observe(0)["parents"] and "e5" in cross.observe(0)["parents"]
    assert "e5*e4" in map(str, cross.legal_actions()) and "e5*e4" not in map(str, square.legal_actions())
    with pytest.raises(tw.IllegalAction, match="not a birth parent"):
        square.apply("e5*e4")


def test_transformation_order_three_players():
    # Seats North, East, West. East arrives on e5, attacked by North (c5 d5, row) and West
    # (e3 e4, column). After East's action West comes first in turn order: e5 turns West,
    # then North's pull on it is held (2 against 2).
    game = tw.make("mamba", players=3)
    stones = {"N": "c5 d5 a9 c9", "E": "e7 i1 i3 i5 g1", "W": "e3 e4 a1 a3"}
    after = game.position(notation(stones, "E")).apply("e7-e5")
    assert kinds(after) == ["move", "transformation", "held"]
    assert after.events[1].data["to"] == 2 and after.events[1].data["cells"] == ["e5"]
    assert after.events[2].data["seat"] == 2 and after.events[2].data["by"] == 0
    assert after.events[2].data["against"] == [2, 2]
    assert "e5" in cells_of(after, "W") and after.to_move == 2


def test_transformation_order_four_players():
    # Seats South, West, North, East. North arrives on e5, attacked by East (c5 d5) and
    # South (e3 e4). After North comes East: e5 turns East, and South's pull is then held.
    game = tw.make("mamba", players=4)
    stones = {"S": "e3 e4 a1 c1", "W": "a5 a7 a9", "N": "e7 g9 i9 c9", "E": "c5 d5 i1 i3"}
    after = game.position(notation(stones, "N")).apply("e7-e5")
    assert kinds(after) == ["move", "transformation", "held"]
    assert after.events[1].data["to"] == 3 and after.events[2].data["seat"] == 3
    assert after.to_move == 3
    # the mirror: South moves in, North holds the column. After South come West, North, East.
    stones = {"S": "e7 a1 c1 g1", "W": "a5 a7 a9", "N": "e3 e4 g9 i9", "E": "c5 d5 i1 i3"}
    after = game.position(notation(stones, "S")).apply("e7-e5")
    assert after.events[1].data["to"] == 2


def test_rows_before_columns_and_the_row_trim_can_save_the_column():
    state = setup({"S": "a5 b5 c5 d5 e1 e2 e3 e4 g5"})
    first = state.apply("g5-e5")  # row a5–e5 and column e1–e5 are both 5
    assert first.observe(0)["trim"]["run"] == ["a5", "b5", "c5", "d5", "e5"]  # rows first
    by_e5 = first.apply("trim e5")
    assert by_e5.phase == "birth_or_move" and by_e5.to_move == 1  # the column is back to 4
    by_a5 = first.apply("trim a5")
    assert by_a5.phase == "trim" and by_a5.observe(0)["trim"]["run"] == ["e1", "e2", "e3", "e4", "e5"]
    assert by_a5.to_move == 0


def test_overpopulation_priority_names_the_run_trimmed_first():
    # Two overpopulated runs (only a set-up holds both): the active player's comes first.
    game = tw.make("mamba")
    stones = {"N": "a5 b5 c5 d5 e5 a9", "S": "a3 b3 c3 d3 e3 i9"}
    with pytest.raises(ValueError, match="not the run trimmed first: a5–e5"):
        game.position(notation(stones, "N", "moved trim a3-e3"))
    ok = game.position(notation(stones, "S", "moved trim a3-e3"))
    assert ok.to_move == 0
    after = ok.apply("trim a3")
    assert after.phase == "trim" and after.to_move == 1 and after.observe(1)["trim"]["ends"] == ["a5", "e5"]


def dense(extra: int) -> dict:
    """A crowded board at rest-ish: 44 stones in stripes, plus ``extra`` (≤ 6) more."""
    stones = {"S": [], "N": []}
    for rank in (1, 3, 5, 7, 9):
        stones["S"] += [f"{f}{rank}" for f in "abcd"]
        stones["N"] += [f"{f}{rank}" for f in "fghi"]
    stones["S"] += ["e2", "e4", "e6", "e8"]
    more = [("S", "b4"), ("N", "h4"), ("S", "c6"), ("N", "g6"), ("S", "d2"), ("S", "d8")]
    for side, cell in more[:extra]:
        stones[side].append(cell)
    return stones


def test_fifty_stones_stop_births():
    game = tw.make("mamba")
    full = game.position(notation({k: " ".join(v) for k, v in dense(6).items()}, "S", "e4"))
    assert sum(full.scores) == 50
    # e4 is still a parent in the notation, but no birth is possible: the view rings none
    assert full.position().endswith(" S e4") and full.observe(0)["parents"] == []
    assert not any(isinstance(a, Birth) for a in full.legal_actions())
    with pytest.raises(tw.IllegalAction, match="50 stones"):
        full.apply("e4*e3")
    room = game.position(notation({k: " ".join(v) for k, v in dense(5).items()}, "S", "e4"))
    assert sum(room.scores) == 49 and room.observe(0)["parents"] == ["e4"]
    assert {"e4*e3", "e4*e5"} <= set(map(str, room.legal_actions()))
    # the 50th stone is born on a full cross: it suffocates at once
    born = room.apply("e4*e3")
    assert [e.kind for e in born.events] == ["birth", "suffocation"] and sum(born.scores) == 49


def test_safety_net_stops_a_real_cycle():
    # Row 4: N N N S N, d4 held by the South column d5–d7 (3 against 3). South's f5-e5 makes
    # e5 e6 take e4; the North row a4–c4 then dominates the South set d4–e4: d4 is held but,
    # by the default DECISION, e4 alone turns back, and the board repeats.
    text = "N1N1N4/9/3S5/3SS4/3S1S3/NNNSN4/9/9/9 S"
    after = tw.make("mamba").position(text).apply("f5-e5")
    assert kinds(after) == ["move", "transformation", "transformation", "held", "cycle"]
    assert after.events[1].data["cells"] == after.events[2].data["cells"] == ["e4"]
    assert after.events[-1].text.startswith("The board repeats within this cascade (e4 turned back)")
    assert after.events[-1].data == {"cells": ["e4"]}
    # the resolution stops at the first repetition: the board right after the move
    assert after.board == after.events[0].after.board
    assert after.position() == "N1N1N4/9/3S5/3SS4/3SS4/NNNSN4/9/9/9 N"
    # held_blocks="set": d4 keeps its whole set, e4 stays South's and nothing repeats
    kept = tw.make("mamba", held_blocks="set").position(text).apply("f5-e5")
    assert kinds(kept) == ["move", "transformation", "held"]
    assert kept.position() == "N1N1N4/9/3S5/3SS4/3SS4/NNNSS4/9/9/9 N"


def test_safety_net_stops_the_tug_of_war_without_holds(monkeypatch):
    # Without the hold, the source's tug of war would turn e5 back and forth for ever.
    monkeypatch.setattr(mamba_rules, "_pull_back", lambda *args: None)
    state = setup({"N": "c5 d5 e5", "S": "c3 d3 e3"})
    after = state.apply("d3-e4")
    assert kinds(after) == ["move", "transformation", "transformation", "cycle"]
    assert after.events[1].data["to"] == 0 and after.events[2].data["to"] == 1
    assert "safety net" in after.events[-1].text
    assert after.to_move == 1  # the turn goes on normally


# ---- notation, positions, JSON ---------------------------------------------------------------------
def test_setups_and_seats():
    for players, names in ((2, ("South", "North")), (3, ("North", "East", "West")),
                           (4, ("South", "West", "North", "East"))):
        game = tw.make("mamba", players=players)
        state = game.new_state(seed=3)
        assert game.seat_names == names
        obs = state.observe(None)
        assert obs["seats"] == list(names) and obs["sides"] == [n[0] for n in names]
        assert obs["stones"] == [7] * players and obs["goal"] == {2: 4, 3: 3, 4: 2}[players]
        assert state.to_move == 0 and obs["phase"] == "birth_or_move" and obs["turn"] == 1
    assert tw.make("mamba").new_state().position() == "3N1N3/3NNN3/3N1N3/9/9/9/3S1S3/3SSS3/3S1S3 S"
    assert tw.make("mamba", players=3).new_state().position() == \
        "3N1N3/3NNN3/3N1N3/9/WWW3EEE/1W5E1/WWW3EEE/9/9 N"
    assert tw.make("mamba", players=4).new_state().position() == \
        "3N1N3/3NNN3/3N1N3/WWW3EEE/1W5E1/WWW3EEE/3S1S3/3SSS3/3S1S3 S"


def test_bad_options_name_the_allowed_values():
    with pytest.raises(ValueError, match="'square', 'cross'"):
        tw.make("mamba", isolation="diagonal")
    with pytest.raises(ValueError, match="'owner', 'active'"):
        tw.make("mamba", trim_chooser="nobody")
    with pytest.raises(ValueError, match="'stone', 'set'"):
        tw.make("mamba", held_blocks=True)
    with pytest.raises(ValueError, match="players"):
        tw.make("mamba", players=5)


def test_action_notation_and_messages():
    state = tw.make("mamba").new_state()
    assert str(Move("d3", "d5")) == "d3-d5" and str(Birth("e5", "e6")) == "e5*e6" and str(Trim("a5")) == "trim a5"
    assert state.apply("d3-d5") == state.apply(Move("d3", "d5"))
    cases = {
        "d4-d5": r"d4 holds no South stone \(it is empty\)",
        "d7-d6": r"d7 holds no South stone \(it is North's\)",
        "d1-d2": "d2 is occupied",
        "d3-d6": "not reachable from d3 in one or two orthogonal steps",
        "e2-e2": "start cell is never a destination",
        "e2*e3": "not a birth parent",
        "trim d3": "no overpopulated run",
        "j3-d4": "'j3' is not a cell",
        "hello": "not Mamba notation",
    }
    before = state.to_json()
    for text, why in cases.items():
        with pytest.raises(tw.IllegalAction, match=why):
            state.apply(text)
    assert state.to_json() == before
    blocked = setup({"S": "d3 d4 e3"})
    with pytest.raises(tw.IllegalAction, match="d4 and e3 are occupied"):
        blocked.apply("d3-e4")
    assert "d3-e4" not in map(str, blocked.legal_actions())
    with pytest.raises(tw.IllegalAction, match="Legal actions: "):
        state.apply("d4-d5")
    with pytest.raises(tw.IllegalAction, match="not a birth parent"):
        state.apply(Birth("e2", "e3"))


def test_diagonal_moves_are_listed_once_and_two_steps_need_a_free_first_cell():
    state = setup({"S": "e3"})
    moves = [str(a) for a in state.legal_actions() if isinstance(a, Move) and a.start == "e3"]
    assert sorted(moves) == sorted(["e3-e4", "e3-e5", "e3-e2", "e3-e1", "e3-d3", "e3-c3", "e3-f3",
                                    "e3-g3", "e3-d4", "e3-f4", "e3-d2", "e3-f2"])
    state = setup({"S": "e3 e4 d3", "N": "f3"})
    moves = {str(a) for a in state.legal_actions() if isinstance(a, Move) and a.start == "e3"}
    assert moves == {"e3-e2", "e3-e1", "e3-d2", "e3-f2"}


def test_positions_reject_bad_notation_clearly():
    game = tw.make("mamba")
    bad = {
        "9/9/9/9/2NNN4/9/2SSS4/9 S": "9 ranks",
        "9/9/9/9/2NNN3/9/2SSS4/9/9 S": "rank 5 .* covers 8 cells",
        "9/9/9/9/2NNX4/9/2SSS4/9/9 S": "rank 5 .*'X' is neither",
        "9/9/9/9/2NNE4/9/2SSS4/9/9 S": r"'E' \(East\) is not a side of a 2-player game",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 E": "side to move 'E'",
        "9/9/9/9/2NNN4/9/2SSS4/9/9": "the board, a space and the side",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 S z9": "'z9' is not a cell",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 S d3 extra": "unexpected",
        "3N1N3/3NNN3/3N1N3/9/9/9/3S1S3/3SSS3/3S1S3 S over": "not over",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 S moved": "'moved' only",
        "9/9/9/9/2NNNNN2/9/2SSS4/9/9 S": "overpopulated",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 S - trim c5-e5": "not an overpopulated run",
        "9/9/9/9/2NNN4/9/2SSS4/9/9 S e4": "parent e4 is an empty cell",
        "9/9/9/9/9/9/9/N8/NS7 S": "a1 has a full cross",
        "9/9/9/9/2NNN4/9/9/9/9 S": "South has no stone",
        "/".join(["SSSS1NNNN"] * 8 + ["9"]) + " S": "holds 50",
    }
    for text, why in bad.items():
        with pytest.raises(ValueError, match=why):
            game.position(text)


def test_positions_and_json_round_trip_inside_a_turn_and_during_a_trim():
    pending = setup({"S": "a2 b2 c2 d2 e4"}).apply("e4-e2")
    birth = setup({"S": "e3 b1", "N": "e5 i2"}).apply("e3*e4")
    birth_trim = setup({"S": "a2 b2 c2 d2 f2"}, isolation="cross").apply("f2*e2")  # a run of 6
    assert birth_trim.phase == "trim" and birth_trim.position().endswith(" trim a2-f2")
    for state in (pending, birth, birth_trim, tw.make("mamba", players=4).new_state()):
        game = state.game
        text = state.position()
        assert game.position(text).position() == text
        again = game.state_from_json(state.to_json())
        assert again == state and again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions() and again.to_move == state.to_move
    # after the trim that follows a birth, the turn goes on with the remaining parents
    resumed = birth_trim.apply("trim a2")
    assert resumed.events[0].data["cells"] == ["a2", "b2"]  # down to 4, from one end
    assert resumed.to_move == 0 and resumed.phase == "birth_or_move"


def test_state_json_is_validated():
    game = tw.make("mamba")
    good = json.loads(game.new_state().to_json())

    def broken(**changes):
        doc = json.loads(json.dumps(good))
        doc["state"].update(changes)
        return json.dumps(doc)

    crowded = dense(6)
    crowded["N"].append("e5")  # 51
    cases = [
        (broken(stones={"S": ["d1", "j1"], "N": ["d9"]}), "off the board"),
        (broken(stones={"S": ["d1"], "X": ["d9"]}), "'X' is not a side"),
        (broken(stones={"S": ["d1", "d1"], "N": ["d9"]}), "d1 holds two stones"),
        (broken(stones=crowded), "51 stones are on the board"),
        (broken(phase="trim"), "'trim' must list"),
        (broken(active=2), "'active' must be a seat"),
        (broken(turn=0), "turn number"),
        (broken(winners=[0]), "no winners"),
        (broken(moved=True), "'moved'"),
        (broken(parents=["e5"]), "parent e5 is an empty cell"),
        (broken(extra=1), "unknown"),
        ("not json", "not valid JSON"),
    ]
    for text, why in cases:
        with pytest.raises(ValueError, match=why):
            game.state_from_json(text)
    with pytest.raises(ValueError, match="players"):
        tw.make("mamba", players=3).state_from_json(game.new_state().to_json())


def test_observation_format():
    state = tw.make("mamba", players=3).new_state()
    obs = state.observe(1)
    assert obs == state.observe(None) == state.observe(2)  # nothing is hidden in Mamba
    assert json.loads(json.dumps(obs)) == obs
    for key in ("game", "players", "seats", "sides", "board", "to_move", "phase", "parents", "trim",
                "stones", "goal", "turn", "winners", "position", "options"):
        assert key in obs
    board = obs["board"]
    assert len(board) == 81 and board[(8 - 1) * 9 + 4] == "N" and board[(4 - 1) * 9 + 7] == "E"  # e8, h4
    assert obs["options"] == {"isolation": "square", "trim_chooser": "owner", "held_blocks": "stone"}
    assert obs["trim"] is None and obs["winners"] == [] and obs["to_move"] == 0
    with pytest.raises(ValueError):
        state.observe(3)


def test_match_frames_step_through_the_cascade():
    game = tw.make("mamba")
    start = game.position(notation({"N": "a5 b5 c5 e5 f1 g1 i1", "S": "d5 d6 d7 d8 a1 c1"}, "S"))
    match = tw.Match(game, state=start)
    match.play("d8-c8")
    frames = match.frames_of_step(1)
    assert [f.kind for f in frames] == ["move", "transformation", "overpopulation"]
    d5, c8 = (5 - 1) * 9 + 3, (8 - 1) * 9 + 2
    assert frames[0].view["board"][c8] == "S" and frames[0].view["board"][d5] == "S"
    assert frames[1].view["board"][d5] == "N"  # d5 turned in the second frame
    assert frames[-1].last and frames[-1].view["phase"] == "trim"
    match.play("trim a5")
    again = tw.Match.from_json(match.to_json())
    assert again.state == match.state


# ---- snapshots inside a cascade ----------------------------------------------------------------------
def test_a_snapshot_inside_the_move_cascade_has_nobody_to_move():
    # d3-d5 makes S S N in row 5; the snapshot right after the move still shows e5 North's.
    state = setup({"S": "c5 d3", "N": "e5"})
    after = state.apply("d3-d5")
    snap = after.events[0].after
    assert snap.board[(5 - 1) * 9 + 4] == "N" and not snap.settled
    # The move is played and the rules are resolving: no seat decides, nothing is legal.
    assert snap.to_move is None and snap.legal_actions() == [] and not snap.is_over
    assert snap.position().endswith(" S moved")  # not " S -" (South still to act)
    view = snap.observe(None)
    assert view["to_move"] is None and view["parents"] == [] and view["settled"] is False
    with pytest.raises(tw.IllegalAction, match="snapshot inside a cascade"):
        snap.apply("c5-c6")
    with pytest.raises(ValueError, match="snapshot inside the move's cascade"):
        state.game.position(snap.position())
    # the result itself is settled: North to move
    assert after.to_move == 1 and after.settled


def test_a_snapshot_inside_a_birth_cascade_keeps_the_turn_bookkeeping():
    state = setup({"S": "e3 b1", "N": "e5 i2"})
    after = state.apply("e3*e4")  # the birth, then e5 turns South
    snap = after.events[0].after
    assert snap.to_move is None and snap.legal_actions() == [] and snap.observe(0)["parents"] == []
    # the notation still records the parents left this turn, as the settled state does
    assert snap.position().split()[2] == after.position().split()[2]
    assert "e3" not in snap.position().split()[2].split(",")


def test_frames_inside_a_cascade_show_no_seat_to_move():
    match = tw.Match(tw.make("mamba"), state=setup({"S": "c5 d3", "N": "e5"}))
    match.play("d3-d5")
    frames = match.frames_of_step(1)
    assert [f.kind for f in frames] == ["move", "transformation"]
    assert frames[0].view["to_move"] is None and frames[0].view["position"].endswith(" S moved")
    assert frames[-1].view["to_move"] == 1 and frames[-1].view["settled"] is True


# ---- held stones: the general form ------------------------------------------------------------------
def test_a_long_enough_run_that_would_not_dominate_does_not_hold():
    # e3 e4 (2) take e5 from below. In row 5, c5 d5 (2) touches e5: |R| = 2 ≥ |U| = 2, but if
    # e5 turned it would join f5 g5 h5 in a South run of 4, which c5 d5 cannot dominate: e5
    # is not held. It turns; then e5–h5 (4) takes c5 d5 (their columns are empty) and row 5
    # is a South run of 6 (c5–h5) that its owner South must trim.
    state = setup({"N": "c5 d5 e5", "S": "d3 e3 f5 g5 h5"})
    after = state.apply("d3-e4")
    assert kinds(after) == ["move", "transformation", "transformation", "overpopulation"]
    assert after.events[1].data["cells"] == ["e5"]
    assert sorted(after.events[2].data["cells"]) == ["c5", "d5"]
    assert after.phase == "trim" and after.to_move == 0
    assert after.observe(None)["trim"]["run"] == ["c5", "d5", "e5", "f5", "g5", "h5"]
    assert after.position().endswith(" S moved trim c5-h5")
    assert after.scores == (5 + 5 + 3, 5)  # filler, e3 e4 f5 g5 h5, and c5 d5 e5; North keeps its filler


def test_a_stronger_pull_takes_the_stone_which_is_then_held_back():
    # e2 e3 e4 (3) take e5 from below; c5 d5 (2) is too weak to hold it (2 < 3), so e5 turns.
    # Now c5 d5 (2) would take e5 back in row 5, but e5 is held by the South column e2–e4:
    # 3 ≥ 2, and as a North stone e5 would be a run of 1 in its column, which e2–e4 dominates.
    state = setup({"N": "c5 d5 e5", "S": "e2 e3 d4"})
    after = state.apply("d4-e4")
    assert kinds(after) == ["move", "transformation", "held"]
    assert after.events[1].data["cells"] == ["e5"] and after.events[1].data["to"] == 0
    held = after.events[2]
    assert held.data["cells"] == ["e5"] and held.data["against"] == [3, 2]
    assert held.data["seat"] == 0 and held.data["by"] == 1
    assert held.data["holding_run"] == ["e2", "e3", "e4"] and held.data["pulling_run"] == ["c5", "d5"]
    assert "held: 3 against 2" in held.text and "stronger pull" in held.text
    assert after.position() == setup({"N": "c5 d5", "S": "e2 e3 e4 e5"}, side="N").position()


# ---- the end of the game with 3 and 4 players ----------------------------------------------------
def test_three_players_goal_is_three_stones():
    # Seats North, East, West. North's d3-d5 makes N N E in row 5: e5 turns North.
    game = tw.make("mamba", players=3)
    west = "a1 a3 c1 c3 a7"
    four = game.position(notation({"N": "c5 d3 a9 c9 g9", "E": "e5 i1 i3 g1", "W": west}, "N"))
    won = four.apply("d3-d5")
    assert won.is_over and won.winners == (0,) and won.scores == (6, 3, 5)
    assert "East is down to 3 stones (goal: 3 or fewer): North wins." == won.events[-1].text
    five = game.position(notation({"N": "c5 d3 a9 c9 g9", "E": "e5 i1 i3 g1 g3", "W": west}, "N"))
    on = five.apply("d3-d5")  # East keeps 4, above the goal: play goes on, East to move
    assert not on.is_over and on.scores == (6, 4, 5) and on.to_move == 1


def test_four_players_goal_is_two_and_any_opponent_counts():
    # Seats South, West, North, East. South's birth takes a stone from North, the opponent
    # across the table: North is down to 2 and South wins at once, although West and East
    # (3 each) were not touched. The game ends after the birth: the move is not played.
    game = tw.make("mamba", players=4)
    stones = {"S": "e3 a1 c1 g1", "W": "a3 a5 a7", "N": "e5 g9 i9", "E": "i1 i3 i5"}
    state = game.position(notation(stones, "S"))
    after = state.apply("e3*e4")
    assert kinds(after) == ["birth", "transformation", "end"]
    assert after.is_over and after.winners == (0,) and after.scores == (6, 3, 2, 3)
    assert after.turn == state.turn and after.legal_actions() == [] and after.to_move is None
    assert after.position().endswith(" S over")


def test_reducing_only_oneself_gives_the_win_to_the_opponents_tied_on_most_stones():
    # Three players. North (4 stones) moves e7-e5 beside East's c5 d5: E E N, and after North
    # comes East in turn order: e5 turns East. North is down to 3 (the goal) by its own move;
    # no opponent is at the goal, so the game ends and East (5 + 1) and West (6) share it.
    game = tw.make("mamba", players=3)
    stones = {"N": "e7 a9 c9 g9", "E": "c5 d5 i1 i3 g1", "W": "a1 a3 c1 c3 a7 i7"}
    after = game.position(notation(stones, "N")).apply("e7-e5")
    assert kinds(after) == ["move", "transformation", "end"]
    assert after.scores == (3, 6, 6) and after.winners == (1, 2)
    assert "share the win" in after.events[-1].text and "by its own action" in after.events[-1].text


# ---- notation: one way to write a position, parents that exist --------------------------------------
def test_position_reader_refuses_two_digits_in_a_row():
    game = tw.make("mamba")
    for rank_text in ("18", "2NNN13", "45"):
        text = f"9/9/9/9/{rank_text}/9/2SSS4/9/9 S"
        with pytest.raises(ValueError, match=rf"rank 5 \('{rank_text}'\): two digits in a row"):
            game.position(text)
    assert game.position("9/9/9/9/2NNN4/9/2SSS4/9/9 S").position() == "9/9/9/9/2NNN4/9/2SSS4/9/9 S"


def test_parents_field_must_name_stones_on_the_board():
    game = tw.make("mamba")
    board = "9/9/9/9/2NNN4/9/2SSS4/9/9"
    with pytest.raises(ValueError, match="parent e4 is an empty cell"):
        game.position(f"{board} S e3,e4")
    with pytest.raises(ValueError, match="listed twice"):
        game.position(f"{board} S c3,c3")
    ok = game.position(f"{board} S c3")  # an own stone, no longer isolated: a birth was played
    assert ok.position() == f"{board} S c3" and "c3*c2" in map(str, ok.legal_actions())
    doc = json.loads(ok.to_json())
    doc["state"]["parents"] = ["d4"]
    with pytest.raises(ValueError, match="parent d4 is an empty cell"):
        game.state_from_json(json.dumps(doc))


def test_a_parent_turned_by_a_cascade_gives_birth_again_once_turned_back():
    # "The parent must still be on the board and still the player's": judged at the birth.
    # e5 was South's parent at the turn's start and a cascade turned it North; it is listed
    # (it may turn back) but cannot give birth while it faces North.
    game = tw.make("mamba")
    state = game.position("N1N1N1N1N/9/9/9/2S1N4/3S5/9/9/S1S1S1S1S S e5,d4")
    assert state.observe(0)["parents"] == ["d4"]
    with pytest.raises(tw.IllegalAction, match="e5 is no longer South's"):
        state.apply("e5*e6")
    # d4 gives birth on d5: the South run c5-d5 (2) dominates e5 (1), which turns back.
    after = state.apply("d4*d5")
    assert [e.kind for e in after.events] == ["birth", "transformation"]
    assert after.observe(0)["parents"] == ["e5"]
    assert "e5*e6" in map(str, after.legal_actions())
    # A parent that dies loses its birth: c1 gives birth on b1, which fills the corner a1's
    # cross (a2, b1), and a1 suffocates.
    state = game.position("N3N1N1N/9/9/9/9/9/8S/N8/S1S3S1S S a1,c1")
    after = state.apply("c1*b1")
    assert [e.kind for e in after.events] == ["birth", "suffocation"]
    assert after.position().endswith(" S -") and after.observe(0)["parents"] == []


def test_a_calm_board_checks_only_the_lines_an_action_touches():
    # After a cascade that leaves no facing runs of unequal length, the next action's cascade
    # looks for dominations on the lines of the cells it changed only; a loaded board is
    # searched whole. Every action must give the same events and position either way.
    from tabletop_widgets.core import Rng

    game = tw.make("mamba", players=3)
    rng, state = Rng.from_seed(4), game.new_state()
    calm = turned = 0
    for _ in range(120):
        if state.is_over:
            break
        if state._calm:
            calm += 1
            loaded = game.position(state.position())
            assert not loaded._calm
            for action in state.legal_actions():
                a, b = state._apply(action), loaded._apply(action)
                assert a.position() == b.position()
                assert [(e.kind, e.text, e.data) for e in a.events] == [(e.kind, e.text, e.data) for e in b.events]
                turned += any(e.kind == "transformation" for e in a.events)
        action, rng = rng.choice(state.legal_actions())
        state = state._apply(action)
    assert calm > 30 and turned > 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_move_on_a_calm_board_plays_as_the_whole_cascade_says(players):
    # a move on a calm board whose lines stay calm passes the turn without running the
    # cascade; the same position with nothing known about its board (no empty cells read, not
    # known calm) runs it in full, and must reach the same state and event
    import random

    game = tw.make("mamba", players=players)
    rng = random.Random(players)
    compared = 0
    for _ in range(15):
        state = game.new_state()
        while not state.is_over and state.turn < 150:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            after = state._apply(action)
            if type(action) is Move:
                unknown = mamba_rules.MambaState(
                    game, state.rows, state.cols, state.active, state.phase, state.parents, state.in_turn,
                    state.moved, state.run, state.turn, state.winners, (), state.settled, None, False)
                slow = unknown._apply(action)
                assert slow._payload() == after._payload() and slow.parents == after.parents
                assert [(e.kind, e.text, e.data, e.after) for e in slow.events] == \
                       [(e.kind, e.text, e.data, e.after) for e in after.events]
                assert slow.legal_actions() == after.legal_actions()
                compared += 1
            state = after
    assert compared > 500

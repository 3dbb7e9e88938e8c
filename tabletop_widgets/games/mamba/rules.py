"""Mamba (Christophe Berg, toodoo.net): the rules engine and its notation.

The rules, every decision the source leaves open and the options are in ``docs/rules/mamba.md``.

>>> import tabletop_widgets as tw
>>> state = tw.make("mamba").new_state()
>>> state.position()
'3N1N3/3NNN3/3N1N3/9/9/9/3S1S3/3SSS3/3S1S3 S'
>>> str(state.apply("e2-e4").events[0].text)
'South moves e2-e4.'

Board representation, chosen for speed: a position is two strings of 90 characters, the
*rows* string (rank 1 first, files a–i, then a ``/`` closing the rank) and the *columns*
string (file a first, ranks 1–9, then ``/``). A cell is ``'.'`` or the letter of the side its
stone faces. A cell's internal number is ``rank * 10 + file`` (0-based) in the rows string and
``file * 10 + rank`` in the columns string, so the ``/`` sentinels stop every walk along a line,
a line is a slice, and most checks (overpopulation, facing runs, a stone's moves) are string
operations or look-ups in tables filled as play goes, rather than loops in Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ..._extras import numpy_or_none as _numpy
from ...core import Game, IllegalAction, Option, State, register
from ...core.events import new_event
from ...core.rng import check_seed

__all__ = ["Birth", "Mamba", "MambaState", "Move", "Trim", "cell_name"]

FILES = "abcdefghi"
SIZE = 9
MAX_STONES = 50  # the box holds 50 stones
#: Stones at or below which a player has lost, by player count.
GOAL = {2: 4, 3: 3, 4: 2}
SIDE_WORD = {"S": "South", "N": "North", "E": "East", "W": "West"}
#: Seats in turn order (seat 0 moves first) and each seat's side letter.
SIDES = {2: "SN", 3: "NEW", 4: "SWNE"}
#: The set-up: an "H" of 7 stones per side, its bars running away from the owner.
SETUP = {
    2: {"S": "d1 d2 d3 f1 f2 f3 e2", "N": "d7 d8 d9 f7 f8 f9 e8"},
    3: {"N": "d7 d8 d9 f7 f8 f9 e8", "E": "g3 h3 i3 g5 h5 i5 h4", "W": "a3 b3 c3 a5 b5 c5 b4"},
    4: {"S": "d1 d2 d3 f1 f2 f3 e2", "W": "a4 b4 c4 a6 b6 c6 b5",
        "N": "d7 d8 d9 f7 f8 f9 e8", "E": "g4 h4 i4 g6 h6 i6 h5"},
}

# ---- cells and neighbour tables ---------------------------------------------------------------
EMPTY_BOARD = ("." * SIZE + "/") * SIZE
SENTINEL = 89  # a '/' in both strings: the guard of moves that need no guard
CELLS = tuple(r * 10 + f for r in range(SIZE) for f in range(SIZE))  # index order: a1, b1, … i9
NAME = {p: FILES[p % 10] + str(p // 10 + 1) for p in CELLS}
POS = {name: p for p, name in NAME.items()}
INDEX = {p: (p // 10) * SIZE + p % 10 for p in CELLS}  # the observation's 81-cell index
P2Q = [0] * 90  # rows-string number → columns-string number
Q2P = [0] * 90
for _p in CELLS:
    P2Q[_p] = (_p % 10) * 10 + _p // 10
    Q2P[P2Q[_p]] = _p


def _on_board(r, f):
    return 0 <= r < SIZE and 0 <= f < SIZE


def _neighbours(p, steps):
    r, f = divmod(p, 10)
    return tuple((r + dr) * 10 + f + df for dr, df in steps if _on_board(r + dr, f + df))


_ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))  # north, south, east, west
CROSS = [()] * 90
SQUARE = [()] * 90
AROUND = [()] * 90  # a cell and its cross: where a stone may suffocate when the cell fills
for _p in CELLS:
    CROSS[_p] = _neighbours(_p, _ORTHO)
    AROUND[_p] = (_p,) + CROSS[_p]
    SQUARE[_p] = _neighbours(_p, [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if dr or df])


def cell_name(p: int) -> str:
    """The notation of internal cell number ``p`` (``rank * 10 + file``)."""
    return NAME[p]


# ---- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """One stone takes one or two steps: ``d3-e4``."""

    start: str
    to: str

    def __str__(self):
        return f"{self.start}-{self.to}"


@dataclass(frozen=True)
class Birth:
    """An isolated parent gives birth on an empty cell of its cross: ``e5*e6``."""

    parent: str
    cell: str

    def __str__(self):
        return f"{self.parent}*{self.cell}"


@dataclass(frozen=True)
class Trim:
    """Trim the overpopulated run from its end at ``end``: ``trim a5``."""

    end: str

    def __str__(self):
        return f"trim {self.end}"


# Every action exists once, built here: legal_actions() only picks them (no allocation).
MOVES = {}
BIRTHS = [()] * 90  # parent → ((cell, Birth), …)
TRIMS = {p: Trim(NAME[p]) for p in CELLS}
# STEPS[s] = ((first step, its Move, ((second step, its Move, guard), …)), …). A diagonal
# destination has two paths; it is listed through the vertical first step, and through the
# horizontal one only when the vertical one is blocked (its guard cell is occupied).
STEPS = [()] * 90
for _s in CELLS:
    _first = []
    for _n1 in CROSS[_s]:
        _seconds = []
        for _n2 in CROSS[_n1]:
            if _n2 == _s:
                continue
            _dr, _df = _n2 // 10 - _s // 10, _n2 % 10 - _s % 10
            _guard = SENTINEL
            if _dr and _df and _n1 // 10 == _s // 10:  # diagonal reached by a horizontal first step
                _guard = _s + _dr * 10
            if (_s, _n2) not in MOVES:  # a diagonal's second path: the same object
                MOVES[(_s, _n2)] = Move(NAME[_s], NAME[_n2])
            _seconds.append((_n2, MOVES[(_s, _n2)], _guard))
        MOVES[(_s, _n1)] = Move(NAME[_s], NAME[_n1])
        _first.append((_n1, MOVES[(_s, _n1)], tuple(_seconds)))
    STEPS[_s] = tuple(_first)
    BIRTHS[_s] = tuple((_n, Birth(NAME[_s], NAME[_n])) for _n in CROSS[_s])


# the start of the rank (in the rows string) and of the file (in the columns string) of a cell
RANK_AT = [p - p % 10 for p in range(90)]
FILE_AT = [P2Q[p] - P2Q[p] % 10 for p in range(90)]


def _move_info(s, d) -> tuple:
    """(start, destination, the text after the mover's name, the path's cell names or, for a
    diagonal, its vertical and horizontal vias, the bits of both cells in a bitboard, both
    cells, and the lines through them: the starts of their ranks in the rows string and of
    their files in the columns string, each line once): what playing the move writes and
    changes, worked out once."""
    start, to = NAME[s], NAME[d]
    dr, df = d // 10 - s // 10, d % 10 - s % 10
    if d in CROSS[s]:
        path = [start, to]
    elif dr and df:
        path = (s + dr * 10, s + df)
    else:
        path = [start, NAME[s + (dr // 2) * 10 + df // 2], to]
    ranks = tuple(dict.fromkeys((RANK_AT[s], RANK_AT[d])))
    files = tuple(dict.fromkeys((FILE_AT[s], FILE_AT[d])))
    return s, d, f" moves {start}-{to}.", path, BIT[s] | BIT[d], (s, d), (ranks, files)


# The learning environments' action catalogue, by index: every move (cell by cell, each
# destination once), then every birth, then every trim; and each object's index by its id.
CATALOGUE = tuple(
    [m for (s, d), m in sorted(MOVES.items(), key=lambda kv: (INDEX[kv[0][0]], INDEX[kv[0][1]]))]
    + [b for p in CELLS for _, b in BIRTHS[p]] + [TRIMS[p] for p in CELLS])
CATALOGUE_INDEX = {id(a): i for i, a in enumerate(CATALOGUE)}
# STEPS with each move followed by its catalogue index
_STEPS_INDEXED = [tuple((n1, m1, CATALOGUE_INDEX[id(m1)],
                         tuple((n2, m2, CATALOGUE_INDEX[id(m2)], g) for n2, m2, g in seconds))
                        for n1, m1, seconds in STEPS[_s]) for _s in range(90)]
# BIRTHS with each birth as the pair (birth, its catalogue index)
_BIRTHS_INDEXED = [tuple((n, (b, CATALOGUE_INDEX[id(b)])) for n, b in BIRTHS[_p]) for _p in range(90)]

# Bitboards of empty cells, for speed: bit ``89 - p`` is cell ``p`` of the rows string, so
# ``int(rows.translate(_EMPTY_BITS), 2)`` reads the whole board in C.
_EMPTY_BITS = str.maketrans({".": "1", "/": "0", "S": "0", "N": "0", "E": "0", "W": "0"})
BIT = [1 << (89 - p) for p in range(90)]
# id of each Move of the table → its _move_info (the table's objects live as long as the module)
_MOVE_INFO = {id(_m): _move_info(_s, _d) for (_s, _d), _m in MOVES.items()}
# REACH[s]: the cells within two steps of s, whose emptiness alone decides s's moves.
REACH = [0] * 90
for _s in CELLS:
    REACH[_s] = sum(BIT[c] for c in {n for n1 in CROSS[_s] for n in CROSS[n1] + (n1,)} - {_s})
CELL_BITS = sum(BIT[c] for c in CELLS)
# SUFFOCATION[f]: for each cell of AROUND[f], (cell, its bit and its cross's bits): a stone
# there suffocates when none of those cells is empty.
SUFFOCATION = [()] * 90
for _f in CELLS:
    SUFFOCATION[_f] = tuple((_c, BIT[_c] | sum(BIT[n] for n in CROSS[_c])) for _c in AROUND[_f])
SUFFOCATION_BITS = [tuple(around for _, around in cells) for cells in SUFFOCATION]  # the bits alone
# The moves of a stone by cell, then by the emptiness of its reach: most positions repeat
# locally, so a playout mostly looks its moves up instead of walking the board. A reach has at
# most 12 cells (4,096 patterns); long random play fills some 100,000 entries in all (about
# 15 MB), and a cell's table is emptied when it reaches the limit. The actions and their
# catalogue indices have tables of their own (_MOVES_BY_REACH[part], as in _legal): a playout
# asks for the one, a learning environment for the other.
_MOVES_BY_REACH = ([{} for _ in range(90)], [{} for _ in range(90)])
_MOVES_BY_REACH_LIMIT = 2_048


def _empty_bits(rows: str) -> int:
    return int(rows.translate(_EMPTY_BITS), 2)


def _stone_moves(rows, s):
    """The moves of the stone on ``s`` and their catalogue indices (walking the board; the
    cache's fallback)."""
    out, indices = [], []
    for n1, move1, i1, seconds in _STEPS_INDEXED[s]:
        if rows[n1] == ".":
            out.append(move1)
            indices.append(i1)
            for n2, move2, i2, guard in seconds:
                if rows[n2] == "." and rows[guard] != ".":
                    out.append(move2)
                    indices.append(i2)
    return tuple(out), tuple(indices)


# ---- small text helpers -----------------------------------------------------------------------------
def _names(cells) -> list:
    return [NAME[p] for p in sorted(cells, key=INDEX.__getitem__)]


def _list_text(names) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _run_text(cells) -> str:
    names = _names(cells)
    return names[0] if len(names) == 1 else f"{names[0]}–{names[-1]}"


def _put(rows, cols, changes):
    """The two strings with ``changes`` ({cell: character}) written in."""
    if len(changes) <= 5:  # a few cells (a wave, a suffocation, a trim): slices are quicker
        for p, ch in changes.items():
            q = P2Q[p]
            rows = rows[:p] + ch + rows[p + 1:]
            cols = cols[:q] + ch + cols[q + 1:]
        return rows, cols
    lr, lc = list(rows), list(cols)
    for p, ch in changes.items():
        lr[p] = ch
        lc[P2Q[p]] = ch
    return "".join(lr), "".join(lc)


def _put_move(rows, cols, a, b, ch):
    """The strings after a stone ``ch`` went from ``a`` to ``b`` (the hot path: two slices)."""
    qa, qb = P2Q[a], P2Q[b]
    # f-strings join their parts at once (a chain of + builds every partial string)
    if a < b:
        rows = f"{rows[:a]}.{rows[a + 1:b]}{ch}{rows[b + 1:]}"
    else:
        rows = f"{rows[:b]}{ch}{rows[b + 1:a]}.{rows[a + 1:]}"
    if qa < qb:
        cols = f"{cols[:qa]}.{cols[qa + 1:qb]}{ch}{cols[qb + 1:]}"
    else:
        cols = f"{cols[:qb]}{ch}{cols[qb + 1:qa]}.{cols[qa + 1:]}"
    return rows, cols


def _put_one(rows, cols, p, ch):
    q = P2Q[p]
    return rows[:p] + ch + rows[p + 1:], cols[:q] + ch + cols[q + 1:]


def _full_cross(rows, p) -> bool:
    for n in CROSS[p]:
        if rows[n] == ".":
            return False
    return True


# ---- the cascade -------------------------------------------------------------------------------------
# A line (9 characters) → its facing runs of unequal length. Lines repeat from move to move,
# so the transformation check is mostly 18 dictionary look-ups made in C. Bounded.
class _LineCache(dict):
    def __missing__(self, line):
        if len(self) >= _LINE_PAIRS_LIMIT:
            self.clear()
        found = self[line] = _line_pairs(line)
        return found


_LINE_PAIRS = _LineCache()
_LINE_PAIRS_LIMIT = 100_000  # long random play with 4 players reaches about 90,000 lines


def _line_pairs(line: str) -> tuple:
    """The facing runs of unequal length in ``line``, as (U letter, |U|, U offset, T letter,
    |T|, T offset): U dominates T. (A scan of the 9 cells: quicker than a regular expression
    for a line met for the first time.)"""
    pairs = []
    prev = None
    i, end = 0, len(line)
    while i < end:
        ch = line[i]
        j = i + 1
        while j < end and line[j] == ch:
            j += 1
        if ch != ".":
            run = (ch, j - i, i)
            if prev is not None and prev[2] + prev[1] == i and prev[1] != j - i:
                u, t = (prev, run) if prev[1] > j - i else (run, prev)
                pairs.append(u + t)
            prev = run
        i = j
    return tuple(pairs)


def _dominations(game, rows, cols):
    """Every pair of facing runs of unequal length, as (U letter, |U|, U cells, T letter, |T|,
    T cells, vertical): U dominates T. Cells are rows-string numbers."""
    found_by_line = list(map(_LINE_PAIRS.__getitem__, (rows + cols[:89]).split("/")))  # 9 ranks, 9 files
    if not any(found_by_line):
        return []
    pairs = []
    for k, found in enumerate(found_by_line):
        if not found:
            continue
        if k < 9:  # rank k+1
            base = k * 10
            for yl, u, uo, xl, t, to in found:
                pairs.append((yl, u, tuple(range(base + uo, base + uo + u)), xl, t,
                              tuple(range(base + to, base + to + t)), False))
        else:  # file k-9
            f = k - 9
            for yl, u, uo, xl, t, to in found:
                pairs.append((yl, u, tuple(range(f + uo * 10, f + (uo + u) * 10, 10)), xl, t,
                              tuple(range(f + to * 10, f + (to + t) * 10, 10)), True))
    return pairs


def _pull_back(line, q, x, y, u):
    """Whether stone ``q`` (of ``x``, in ``line``: the line across the one it is taken in) is
    held against a pull of strength ``u`` by ``y``: a run R of ``x`` touching it (not counting
    it) with |R| ≥ u that would dominate the run it would join as a ``y`` stone.
    Returns (|R|, direction) of the strongest such R, or None."""
    best = None
    for d in (1, -1):
        r, k = 0, q + d
        while line[k] == x:
            r += 1
            k += d
        if r >= u and (best is None or r > best[0]):
            joined, k = 1, q - d
            while line[k] == y:
                joined += 1
                k -= d
            if r > joined:
                best = (r, d)
    return best


def _wave(game, rows, cols, pairs, block_set):
    """The transformation wave of the pairs' favoured side, judged on the board before it.

    Returns (changes {cell: old letter}, held {cell: details}, pairs that turned stones)."""
    changes, held, used = {}, {}, []
    for pair in pairs:
        yl, u, ucells, xl, t, tcells, vertical = pair
        across = rows if vertical else cols  # the perpendicular line lives in the other string
        free, blocked = [], []
        for s in tcells:
            h = _pull_back(across, s if vertical else P2Q[s], xl, yl, u)
            (blocked if h else free).append((s, h))
        if block_set and blocked:
            free = []  # option held_blocks="set": one held stone keeps its whole set
        for s, h in blocked:
            if s not in held or held[s][1] < u:
                held[s] = (h, u, pair, tcells if block_set else (s,))
        if free:
            used.append(pair)
            for s, _ in free:
                changes[s] = xl
    for s in changes:
        held.pop(s, None)
    return changes, held, used


def _first_overpopulated(game, rows, cols, active):
    """The overpopulated run trimmed first: the active player's first, then in turn order;
    within a player rows before columns, then the run whose first cell comes first."""
    players, seat = game.players, game.seat_of
    best = None
    for line, vertical in ((rows, False), (cols, True)):
        for m in game._overpopulated.finditer(line):
            cells = tuple(range(m.start(), m.end()))
            if vertical:
                cells = tuple(Q2P[q] for q in cells)
            key = ((seat[m.group()[0]] - active) % players, vertical, INDEX[cells[0]])
            if best is None or key < best[0]:
                best = (key, cells)
    return best[1] if best else None


class _StirCache(dict):
    def __missing__(self, line):
        if len(self) >= _LINE_PAIRS_LIMIT:
            self.clear()
        found = self[line] = bool(_LINE_PAIRS[line]) or _FIVE.search(line) is not None
        return found


# A line → whether it holds facing runs of unequal length or an overpopulated run: what the
# cascade must look at. Bounded like _LINE_PAIRS.
_LINE_STIRRED = _StirCache()
_FIVE = re.compile(r"S{5,}|N{5,}|E{5,}|W{5,}")


def _touched_stirred(rows, cols, touched) -> bool:
    """Whether a rank or a file through one of the cells ``touched`` holds facing runs of
    unequal length or an overpopulated run."""
    stirred = _LINE_STIRRED
    rank = file = -1
    for p in touched:  # a line through two of the cells is looked at once
        if RANK_AT[p] != rank:
            rank = RANK_AT[p]
            if stirred[rows[rank:rank + 9]]:
                return True
        if FILE_AT[p] != file:
            file = FILE_AT[p]
            if stirred[cols[file:file + 9]]:
                return True
    return False


QUIET = 2  # _cascade's calm when nothing but the action changed the board


def _quiet(rows, cols, filled, lines, empty) -> bool:
    """Whether a move on a calm board that filled cell ``filled`` and changed the cells on
    ``lines`` (its info's rank and file starts; ``empty``: the empty cells after it) leaves
    the cascade nothing to do: no cross closed around the filled cell, no domination or run
    of five on those lines."""
    for around in SUFFOCATION_BITS[filled]:
        if not empty & around:
            return False
    stirred = _LINE_STIRRED
    ranks, files = lines
    for rank in ranks:
        if stirred[rows[rank:rank + 9]]:
            return False
    for file in files:
        if stirred[cols[file:file + 9]]:
            return False
    return True


def _cascade(game, rows, cols, active, filled, log, touched=None, empty=None):
    """Restore balance after an action of ``active`` that filled cell ``filled`` (or -1).

    Repeats the first applicable item of the rules' list (suffocation, overpopulation,
    transformations for the active player, then for the others in turn order) until none
    applies, a trim must be chosen, or the board repeats (the safety net). Appends
    ``(kind, text, data, rows, cols)`` to ``log`` (when it is not None) for every wave, most
    of them to be written later (see :func:`_written`).
    ``touched``: the cells the action changed, when the board before it was calm (no facing
    runs of unequal length anywhere): a domination can then only lie on their lines.
    ``empty``: the board's empty cells as bits, when known.
    Returns (rows, cols, the overpopulated run waiting for a trim or None, whether the board
    is left calm: ``QUIET`` when nothing but the action changed it, the empty cells as bits or
    None). Only a suffocation empties cells: a transformation turns stones, and a trim is an
    action of its own.
    """
    letters = game.letters
    # 1. Suffocation. Only a cell that fills can close a cross: transformations change no
    # occupancy and removals only open crosses, and a position never rests with a full cross.
    # So suffocation can fire only here, right after the action, around the filled cell.
    if filled >= 0:
        if empty is None:
            empty = _empty_bits(rows)
        for _, around in SUFFOCATION[filled]:
            if not empty & around:
                dead = [c for c, around in SUFFOCATION[filled] if not empty & around]
                break
        else:
            dead = None
        if dead:
            touched = None  # more cells changed than the action's
            for c in dead:
                empty |= BIT[c]
            # The sides of the stones that die: a board drawn straight at this event (a jump, not
            # a step from the board before) still shows whose stones they were.
            sides = [rows[c] for c in dead] if log is not None else None
            rows, cols = _put(rows, cols, dict.fromkeys(dead, "."))
            if log is not None:
                log.append(("suffocation", None, (_suffocation_written, (dead, sides)), rows, cols))
    if touched is not None:
        # The board before the action was calm and held no overpopulated run (it would be
        # waiting for a trim): a domination or a run of five can only lie on the lines
        # through the cells the action changed.
        if not _touched_stirred(rows, cols, touched):
            return rows, cols, None, QUIET, empty
    seen = {rows}
    told = set()
    while True:
        # 2. Overpopulation: a decision node; the cascade resumes after the trim.
        for five in game._fives:
            if five in rows or five in cols:
                return rows, cols, _first_overpopulated(game, rows, cols, active), False, empty
        pairs = _dominations(game, rows, cols)
        if not pairs:
            return rows, cols, None, True, empty
        for y in game.turn_orders[active]:
            # 3. / 4. Transformation in favour of the active player, then of each other one.
            yl = letters[y]
            mine = [pr for pr in pairs if pr[0] == yl]
            if not mine:
                continue
            changes, held, used = _wave(game, rows, cols, mine, game.options["held_blocks"] == "set")
            if changes:
                rows, cols = _put(rows, cols, dict.fromkeys(changes, yl))
                if log is not None:
                    log.append(("transformation", None, (_transformation_written, (y, changes, used)), rows, cols))
                    if held:
                        log.append(("held", None, (_held_written, (held, told)), rows, cols))
                if rows in seen:
                    if log is not None:
                        names = _names(changes)
                        log.append(("cycle", f"The board repeats within this cascade ({_list_text(names)} "
                                    f"turned back): the safety net stops the resolution here.",
                                    {"cells": names}, rows, cols))
                    return rows, cols, None, False, empty
                seen.add(rows)
                break
            if held and log is not None:
                log.append(("held", None, (_held_written, (held, told)), rows, cols))
        else:
            return rows, cols, None, False, empty  # every pull is held


# ---- the events' texts --------------------------------------------------------------------------------
# A cascade logs what each wave did; its text and data are written only when the events are
# first read (a learner's or a search's step never reads them): a log entry whose text is None
# holds (writer, its arguments), and ``writer(game, *arguments)`` gives the wave's
# (kind, text, data) entries, none or more for the held stones.
def _move_written(game, seat, info, via) -> list:
    return [("move", *_move_text(game, seat, info, via))]


def _suffocation_written(game, dead, sides) -> list:
    names = _names(dead)
    text = (f"{names[0]} suffocates: its cross is full." if len(names) == 1 else
            f"{_list_text(names)} suffocate: their crosses are full.")
    return [("suffocation", text, {"cells": names, "sides": sides})]


def _transformation_written(game, y, changes, used) -> list:
    side = game.seat_names[y]
    parts = []
    for yl, u, ucells, xl, t, tcells, _ in used:
        parts.append(f"the {side} run {_run_text(ucells)} dominates the {SIDE_WORD[xl]} run "
                     f"{_run_text(tcells)} ({u} > {t})")
    names = _names(changes)
    turned = f"{_list_text(names)} turn{'s' if len(names) == 1 else ''} to face {side}"
    text = "; ".join(parts) + ": " + turned + "."
    text = text[0].upper() + text[1:]
    data = {
        "cells": names,
        "to": y,
        "from": [game.seat_of[changes[POS[n]]] for n in names],
        "runs": [{"run": _names(uc), "dominates": _names(tc), "sizes": [u, t]}
                 for _, u, uc, _, t, tc, _ in used],
    }
    return [("transformation", text, data)]


def _held_written(game, held, told) -> list:
    """The held stones of a wave not told yet in this cascade (``told``, shared by the
    cascade's entries, which are written in order)."""
    out = []
    for s in sorted(held, key=INDEX.__getitem__):
        (r, d), u, pair, kept = held[s]
        yl, _, ucells, xl, _, tcells, vertical = pair
        key = (s, yl, r, u)
        if key in told:
            continue  # said once per cascade; the list may pass over the same hold again
        told.add(key)
        if vertical:  # R lies in the stone's row
            rcells = [s + d * k for k in range(1, r + 1)]
        else:
            q = P2Q[s]
            rcells = [Q2P[q + d * k] for k in range(1, r + 1)]
        owner = SIDE_WORD[xl]
        how = "tug of war" if r == u else "the stronger pull"
        text = (f"{NAME[s]} is held: {r} against {u} ({how}) — the {owner} run {_run_text(rcells)} "
                f"pulls it back against the {SIDE_WORD[yl]} run {_run_text(ucells)}; it stays {owner}'s")
        data = {"cells": [NAME[s]], "against": [r, u], "seat": game.seat_of[xl],
                "by": game.seat_of[yl], "holding_run": _names(rcells), "pulling_run": _names(ucells)}
        if len(kept) > 1:
            text += f" and keeps its set {_run_text(kept)} from turning"
            data["kept"] = _names(kept)
        out.append(("held", text + ".", data))
    return out


def _written(game, log, active, alive, moved, turn) -> tuple:
    """The events of an action of ``active`` from its ``log`` (its texts written now). Every
    event but the last carries a snapshot inside the cascade: the board after its wave and the
    turn as it stands (``moved`` kept; of ``alive``, the parents as the action left them, those
    still on the board at that wave). Nobody decides while the rules resolve, so
    ``settled=False`` gives it no seat to move."""
    entries = []
    for kind, text, data, rows, cols in log:
        if text is None:
            write, args = data
            entries += [(k, t, d, rows, cols) for k, t, d in write(game, *args)]
        else:
            entries.append((kind, text, data, rows, cols))
    last = len(entries) - 1
    events = []
    for i, (kind, text, data, r, c) in enumerate(entries):
        after = None if i == last else MambaState(
            game, r, c, active, "birth_or_move", () if moved else tuple(p for p in alive if r[p] != "."),
            True, moved, None, turn, (), settled=False)
        events.append(new_event(kind, text, data, after))
    return tuple(events)


# ---- the game ---------------------------------------------------------------------------------------
@register
class Mamba(Game):
    """Mamba for 2–4 players. Options: ``isolation``, ``trim_chooser``, ``held_blocks``."""

    name = "mamba"
    renderer = "mamba"
    min_players, max_players, default_players = 2, 4, 2
    hidden_information = False  # every seat sees the whole board
    OPTIONS = {
        "isolation": Option(
            "square", ("square", "cross"),
            "A parent is a stone whose square (the 8 cells around it) is empty at the start of "
            "the turn; 'cross' asks only for its 4 orthogonal neighbours."),
        "trim_chooser": Option(
            "owner", ("owner", "active"),
            "Who chooses the end of an overpopulated run to trim: its owner, or the active player."),
        "held_blocks": Option(
            "stone", ("stone", "set"),
            "A held stone keeps only itself from turning ('stone'), or its whole set ('set')."),
    }

    def __init__(self, players=None, **options):
        super().__init__(players=players, **options)
        self.letters = SIDES[self.players]
        self.seat_of = {letter: seat for seat, letter in enumerate(self.letters)}
        self.goal = GOAL[self.players]
        self.turn_orders = tuple(
            tuple((a + k) % self.players for k in range(self.players)) for a in range(self.players))
        self._square = self.options["isolation"] == "square"
        ls = self.letters
        self._overpopulated = re.compile("|".join(f"{x}{{5,}}" for x in ls))
        self._fives = tuple(x * 5 for x in ls)
        self._names = tuple(SIDE_WORD[x] for x in ls)
        # the sides seen from each seat: its own first, then the others in turn order
        self._orders = tuple(tuple(ls[y] for y in order) for order in self.turn_orders)

    def svg(self, frame, seat=None) -> str:
        from .svg import view_svg

        return view_svg(frame, seat)

    @property
    def seat_names(self):
        return self._names

    # states ---------------------------------------------------------------------------------
    def new_state(self, seed: int = 0) -> "MambaState":
        """The set-up. Mamba has no chance after the die that seats the players, so every seed
        gives the same position (the seed is checked and accepted for the common API)."""
        check_seed(seed)
        rows = EMPTY_BOARD
        changes = {POS[c]: x for x, cells in SETUP[self.players].items() for c in cells.split()}
        rows, cols = _put(rows, EMPTY_BOARD, changes)
        return MambaState(self, rows, cols, 0, "birth_or_move", self._parents(rows, 0), False, False,
                          None, 1, ())

    def _parents(self, rows, seat, empty=None):
        """The isolated stones of ``seat``: the parents of the turn that starts now.

        On bitboards: the occupied cells shifted by each neighbour's offset mark every cell
        that has an occupied neighbour (the ``/`` sentinels, never occupied, keep a shift from
        reaching into the next rank); the stones left unmarked are isolated, a few of any side,
        and those of ``seat`` are the parents. The square's three cells above and below a cell
        are its rank's row of three, stone and sides, shifted a rank up and down."""
        occupied = CELL_BITS ^ (_empty_bits(rows) if empty is None else empty)
        sides = occupied << 1 | occupied >> 1
        if self._square:
            row = occupied | sides
            near = sides | row << 10 | row >> 10
        else:
            near = sides | occupied << 10 | occupied >> 10
        isolated = occupied & ~near
        x = self.letters[seat]
        out = []
        while isolated:  # highest bit first: cells in rows order
            b = isolated.bit_length() - 1
            if rows[89 - b] == x:
                out.append(89 - b)
            isolated ^= 1 << b
        return tuple(out)

    def position(self, text: str) -> "MambaState":
        """The state written in position notation (see ``state.position()``); ``ValueError``
        saying which rank, character or field is wrong.

        >>> import tabletop_widgets as tw
        >>> tw.make("mamba").position("9/9/9/9/2NNN4/9/2SSS4/9/9 S").position()
        '9/9/9/9/2NNN4/9/2SSS4/9/9 S'
        """
        if not isinstance(text, str):
            raise ValueError(f"a position must be a string, got {text!r}")
        fields = text.split()
        if len(fields) < 2:
            raise ValueError(f"a Mamba position is the board, a space and the side to move, e.g. "
                             f"'9/9/9/9/2NNN4/9/2SSS4/9/9 S'; got {text!r}")
        rows = self._parse_board(fields[0])
        side = fields[1]
        if side not in self.seat_of:
            raise ValueError(f"the side to move {side!r} is not a side of a {self.players}-player game "
                             f"(sides {', '.join(self.letters)})")
        rest = fields[2:]
        parents, moved, phase, run = None, False, "birth_or_move", None
        if rest and rest[0] != "trim":
            token = rest.pop(0)
            if token == "over":
                phase = "over"
            elif token == "moved":
                moved = True
            elif token == "-":
                parents = ()
            else:
                parents = tuple(self._cell(c, "parent") for c in token.split(","))
        if rest:
            if rest[0] != "trim" or len(rest) != 2 or "-" not in rest[1] or phase == "over":
                raise ValueError(f"unexpected {' '.join(rest)!r} after the parents; a pending trim is "
                                 f"written 'trim a5-e5' (the run's two ends)")
            a, b = rest[1].split("-", 1)
            run = self._run_between(rows, self._cell(a, "trim"), self._cell(b, "trim"))
            phase = "trim"
        elif moved:
            raise ValueError("'moved' only appears before a pending trim ('moved trim a5-e5'); without "
                             "one it marks a snapshot inside the move's cascade, which cannot be loaded")
        return self._checked(rows, self.seat_of[side], phase, parents, moved, run, 1, None)

    def _parse_board(self, board: str) -> str:
        ranks = board.split("/")
        if len(ranks) != SIZE:
            raise ValueError(f"the board needs 9 ranks separated by '/', found {len(ranks)}")
        out = list(EMPTY_BOARD)
        for k, rank_text in enumerate(ranks):
            rank = SIZE - k
            f = 0
            for i, ch in enumerate(rank_text):
                if ch in "123456789":
                    if i and rank_text[i - 1] in "123456789":
                        # one count per gap, so every position has one notation
                        raise ValueError(f"rank {rank} ({rank_text!r}): two digits in a row "
                                         f"({rank_text[i - 1]}{ch}); write each gap of empty cells as one digit")
                    f += int(ch)
                elif ch in self.seat_of:
                    if f < SIZE:
                        out[(rank - 1) * 10 + f] = ch
                    f += 1
                elif ch in SIDE_WORD:
                    raise ValueError(f"rank {rank} ({rank_text!r}): {ch!r} ({SIDE_WORD[ch]}) is not a side "
                                     f"of a {self.players}-player game (sides {', '.join(self.letters)})")
                else:
                    raise ValueError(f"rank {rank} ({rank_text!r}): {ch!r} is neither a digit 1–9 nor a "
                                     f"side letter ({', '.join(self.letters)})")
            if f != SIZE:
                raise ValueError(f"rank {rank} ({rank_text!r}) covers {f} cells, not 9")
        return "".join(out)

    @staticmethod
    def _cell(name, what) -> int:
        if not isinstance(name, str) or name not in POS:
            raise ValueError(f"{what} {name!r} is not a cell (files a–i, ranks 1–9, e.g. 'e5')")
        return POS[name]

    def _run_between(self, rows, a, b):
        lo, hi = sorted((a, b), key=INDEX.__getitem__)
        if lo // 10 == hi // 10:
            cells = tuple(range(lo, hi + 1))
        elif lo % 10 == hi % 10:
            cells = tuple(range(lo, hi + 1, 10))
        else:
            raise ValueError(f"the trim run {NAME[a]}-{NAME[b]} is not in one row or one column")
        return cells

    def _checked(self, rows, active, phase, parents, moved, run, turn, winners):
        """A state after checking that it can arise in play; ``ValueError`` saying what is wrong."""
        cols = "".join(rows[Q2P[q]] if q % 10 != 9 else "/" for q in range(90))
        count = sum(1 for p in CELLS if rows[p] != ".")
        if count > MAX_STONES:
            raise ValueError(f"{count} stones are on the board; the box holds {MAX_STONES}")
        for p in CELLS:
            if rows[p] != "." and _full_cross(rows, p):
                raise ValueError(f"{NAME[p]} has a full cross: it would already have suffocated")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
            raise ValueError(f"the turn number must be an int ≥ 1, got {turn!r}")
        side = self.seat_names[active]
        first = _first_overpopulated(self, rows, cols, active)
        if phase == "trim":
            if parents is None and not moved:
                raise ValueError("a pending trim follows an action: give the remaining parents "
                                 "('-' or 'e5,g2') or 'moved' before it")
            if any(rows[p] != rows[run[0]] or rows[p] == "." for p in run):
                raise ValueError(f"the trim run {_run_text(run)} is not one side's line of stones")
            if first is None or set(first) != set(run):
                if len(run) < 5 or first is None:
                    raise ValueError(f"{_run_text(run)} is not an overpopulated run (5 or more stones)")
                raise ValueError(f"{_run_text(run)} is not the run trimmed first: {_run_text(first)} is")
            run = first
        elif first is not None:
            raise ValueError(f"the run {_run_text(first)} is overpopulated ({len(first)} stones): write "
                             f"the trim pending ('… trim {NAME[first[0]]}-{NAME[first[-1]]}')")
        in_turn = parents is not None or phase == "trim"
        if parents is None:
            parents = self._parents(rows, active) if phase == "birth_or_move" else ()
        else:
            if len(set(parents)) != len(parents):
                raise ValueError("a parent is listed twice")
            # A parent of another side is possible (a cascade turned it; it gives birth again
            # only if one turns it back), an empty cell is not.
            for p in parents:
                if rows[p] == ".":
                    raise ValueError(f"the parent {NAME[p]} is an empty cell: the parents are stones of "
                                     f"{side}'s that were isolated at the start of its turn")
            parents = tuple(sorted(parents))
        if phase == "over":
            found = _end_winners(self, rows, active)
            if found is None:
                raise ValueError(f"nobody is at or below the goal of {self.goal} stones: the game is not over")
            if winners is not None and tuple(winners) != found:
                raise ValueError(f"the winners are {list(found)} by the end-of-game rule, not {list(winners)}")
            return MambaState(self, rows, cols, active, "over", (), False, False, None, turn, found)
        if winners:
            raise ValueError("a game that is not over has no winners")
        if phase == "birth_or_move" and self.letters[active] not in rows:
            raise ValueError(f"{side} has no stone: it cannot move")
        return MambaState(self, rows, cols, active, phase, parents, in_turn, moved, run, turn, ())

    def _state_from_payload(self, p):
        if not isinstance(p, dict):
            raise ValueError("a Mamba state is an object")
        expected = {"stones", "active", "phase", "parents", "moved", "trim", "turn", "winners"}
        if set(p) != expected:
            missing, extra = expected - set(p), set(p) - expected
            raise ValueError(f"a Mamba state has the keys {sorted(expected)}"
                             + (f"; missing {sorted(missing)}" if missing else "")
                             + (f"; unknown {sorted(extra)}" if extra else ""))
        stones = p["stones"]
        if not isinstance(stones, dict):
            raise ValueError("'stones' must map side letters to lists of cells")
        board = list(EMPTY_BOARD)
        for x, cells in stones.items():
            if x not in self.seat_of:
                raise ValueError(f"'stones': {x!r} is not a side of a {self.players}-player game "
                                 f"(sides {', '.join(self.letters)})")
            if not isinstance(cells, list):
                raise ValueError(f"'stones'[{x!r}] must be a list of cells")
            for c in cells:
                if not isinstance(c, str) or c not in POS:
                    raise ValueError(f"the {SIDE_WORD[x]} stone on {c!r} is off the board (cells a1–i9)")
                if board[POS[c]] != ".":
                    raise ValueError(f"{c} holds two stones")
                board[POS[c]] = x
        rows = "".join(board)
        active = p["active"]
        if isinstance(active, bool) or not isinstance(active, int) or not 0 <= active < self.players:
            raise ValueError(f"'active' must be a seat from 0 to {self.players - 1}, got {active!r}")
        phase = p["phase"]
        if phase not in ("birth_or_move", "trim", "over"):
            raise ValueError(f"'phase' must be 'birth_or_move', 'trim' or 'over', got {phase!r}")
        parents = p["parents"]
        if parents is not None:
            if not isinstance(parents, list):
                raise ValueError("'parents' must be null (a turn's start) or a list of cells")
            parents = tuple(self._cell(c, "parent") for c in parents)
        moved = p["moved"]
        if not isinstance(moved, bool) or (moved and phase != "trim"):
            raise ValueError("'moved' must be a bool, true only while a trim is pending after the move")
        run = p["trim"]
        if (run is None) != (phase != "trim"):
            raise ValueError("'trim' must list the overpopulated run exactly when the phase is 'trim'")
        if run is not None:
            if not isinstance(run, list) or len(run) < 2:
                raise ValueError("'trim' must be the list of the run's cells")
            cells = [self._cell(c, "trim") for c in run]
            run = self._run_between(rows, cells[0], cells[-1])
            if sorted(cells) != sorted(run):
                raise ValueError("'trim' must list every cell of the run, in order")
        if phase == "trim" and parents is None and not moved:
            raise ValueError("a pending trim needs the remaining parents (a list) or 'moved'")
        if (moved or phase == "over") and parents:
            raise ValueError("'parents' must be empty once the move is played or the game is over")
        winners = p["winners"]
        if not isinstance(winners, list):
            raise ValueError("'winners' must be a list of seats")
        return self._checked(rows, active, phase, parents, moved, run, p["turn"], winners if phase == "over" else winners or None)

    # learning hooks (tabletop_widgets.pettingzoo) --------------------------------------------
    def action_catalogue(self) -> tuple:
        """Every move (cell by cell, each destination once), then every birth, then every trim."""
        return tuple(map(str, CATALOGUE))

    def action_index(self, action) -> int:
        """The index of ``action`` in :meth:`action_catalogue`. Every Mamba action is built once
        (the module's tables), so its id is stable: found by id, its notation written once."""
        return self._catalogue_index_by_identity(action)

    def action_indices(self, actions) -> list:
        """:meth:`action_index` of each of ``actions`` (a list from ``legal_actions()``)."""
        return self._catalogue_indices_by_identity(actions)

    def catalogue_actions(self) -> tuple:
        """The action of each index of :meth:`action_catalogue` (the objects that
        ``legal_actions()`` gives)."""
        return CATALOGUE

    def legal_indices(self, state: "MambaState") -> list:
        """The indices of ``state.legal_actions()``, in its order, from the same tables."""
        return state._legal(1)

    def observation_size(self) -> int:
        # per cell: one channel per seat (counted from the learner) | parents | pending trim run
        # | phase (3) | seat to move (from the learner) | stones per seat
        return 81 * self.players + 81 + 81 + 3 + 2 * self.players

    def observation_vector(self, observation: dict, seat: int) -> list:
        """``observe(seat)`` as numbers, seats counted from ``seat`` (the learner first)."""
        P, o = self.players, observation
        rel = {x: (i - seat) % P for i, x in enumerate(self.letters)}
        cells = [0.0] * (81 * P)
        for i, ch in enumerate(o["board"]):
            if ch != ".":
                cells[rel[ch] * 81 + i] = 1.0
        parents = [0.0] * 81
        for c in o["parents"]:
            parents[INDEX[POS[c]]] = 1.0
        run = [0.0] * 81
        for c in (o["trim"] or {}).get("run", []):
            run[INDEX[POS[c]]] = 1.0
        phase = [1.0 if o["phase"] == ph else 0.0 for ph in ("birth_or_move", "trim", "over")]
        mover = [1.0 if o["to_move"] is not None and (o["to_move"] - seat) % P == k else 0.0 for k in range(P)]
        stones = [o["stones"][(seat + k) % P] / MAX_STONES for k in range(P)]
        return cells + parents + run + phase + mover + stones

    def state_vector(self, state: "MambaState", seat: int):
        """:meth:`observation_vector` of ``state.observe(seat)`` as a float32 numpy array, read
        from the board string directly (no observation, no position notation built); without
        numpy, the observation's vector."""
        np = _VECTOR_NUMPY or _vector_numpy()
        if np is None:
            return self.observation_vector(state.observe(seat), seat)
        P, rows, phase = self.players, state.rows, state.phase
        order = self._orders[seat]  # the learner's side first
        # one byte per 0 or 1, read at once; the stone counts (a byte each, 0 until set) after
        marks = bytearray(165 + 2 * P)  # parents | trim run | phase | seat to move | stones
        if phase == "birth_or_move":
            parents = state.parents
            if parents and state.settled and rows.count(".") > 90 - 9 - MAX_STONES:
                x = self.letters[state.active]  # the parents that can give birth now (_birth_parents)
                for p in parents:
                    if rows[p] == x:
                        marks[INDEX[p]] = 1
        elif phase == "trim":
            for p in state.run:
                marks[81 + INDEX[p]] = 1
        marks[162 + _PHASES[phase]] = 1
        to_move = state.to_move
        if to_move is not None:
            marks[165 + (to_move - seat) % P] = 1
        board = rows.encode("latin-1")
        planes = [board.translate(_ONE_HOT[x], b"/") for x in order]
        planes.append(marks)
        vector = np.frombuffer(b"".join(planes), np.uint8).astype(np.float32)
        base = 81 * P + 165 + P
        for x in order:
            vector[base] = rows.count(x) / MAX_STONES
            base += 1
        return vector

    # notation --------------------------------------------------------------------------------
    def parse_action(self, state: "MambaState", text: str):
        """The legal action written ``text`` in ``state``; :class:`IllegalAction` saying why not.

        >>> import tabletop_widgets as tw
        >>> game = tw.make("mamba")
        >>> game.parse_action(game.new_state(), "e2-e4")
        Move(start='e2', to='e4')
        """
        if not isinstance(text, str):
            raise IllegalAction(f"an action's notation must be a string, got {text!r}")
        action = _read_action(text)
        reason = state._illegal(action)
        if reason:
            raise IllegalAction(state._explain(text.strip(), reason))
        return action


_MOVE_RE = re.compile(r"^([a-z]+\d+)-([a-z]+\d+)$")
_BIRTH_RE = re.compile(r"^([a-z]+\d+)\*([a-z]+\d+)$")
_TRIM_RE = re.compile(r"^trim\s+([a-z]+\d+)$")
_NOTATION_HELP = "Mamba actions are written d3-e4 (a move), e5*e6 (a birth) or 'trim a5' (a trim)"


def _read_action(text: str):
    """The action that ``text`` writes, legal or not (``IllegalAction`` if it writes none)."""
    t = text.strip()
    for pattern, kind in ((_MOVE_RE, Move), (_BIRTH_RE, Birth), (_TRIM_RE, Trim)):
        m = pattern.match(t)
        if m:
            for c in m.groups():
                if c not in POS:
                    raise IllegalAction(f"{t!r}: {c!r} is not a cell of the board (files a–i, ranks 1–9)")
            return kind(*m.groups())
    raise IllegalAction(f"{t!r} is not Mamba notation. {_NOTATION_HELP}.")


def _end_winners(game, rows, active):
    """The winners if the game ends on this board after ``active``'s action, else None."""
    goal = game.goal
    for x in game.letters:
        if rows.count(x) <= goal:
            break
    else:
        return None  # the common case: nobody is down to the goal
    counts = [rows.count(x) for x in game.letters]
    others = [s for s in range(game.players) if s != active]
    if any(counts[s] <= goal for s in others):
        return (active,)
    if counts[active] <= goal:
        most = max(counts[s] for s in others)
        return tuple(s for s in others if counts[s] == most)
    return None


def _move_text(game, seat, info, via) -> tuple:
    """The text and data of the event of the move of ``info`` (``_MOVE_INFO``) played by
    ``seat``, through ``via`` when it is a diagonal."""
    s, d, tail, path = info[:4]
    start, to = NAME[s], NAME[d]
    path = path.copy() if via is None else [start, NAME[via], to]
    return game.seat_names[seat] + tail, {"cells": [start, to], "from": start, "to": to, "path": path}


# board.translate(_ONE_HOT[x], b"/") (the rows string as bytes): the 81 cells in observation
# order, 1 where a stone faces x, else 0
_ONE_HOT = {x: bytes(chr(b) == x for b in range(256)) for x in SIDE_WORD}
_PHASES = {"birth_or_move": 0, "trim": 1, "over": 2}
_VECTOR_NUMPY = None  # numpy, once state_vector has found it


def _vector_numpy():
    """numpy, imported on first use, or None (asked again next time: numpy may be installed
    meanwhile)."""
    global _VECTOR_NUMPY
    _VECTOR_NUMPY = _numpy()
    return _VECTOR_NUMPY


# ---- states ------------------------------------------------------------------------------------------
class MambaState(State):
    """A Mamba position: the board, whose turn it is and where in the turn play stands.

    ``phase`` is ``"birth_or_move"`` (births may still come, then the move), ``"trim"`` (an
    overpopulated run waits for its end to be chosen) or ``"over"``. ``parents`` are the cells
    of the turn's remaining birth parents; ``in_turn`` says a birth has been played this turn;
    ``moved`` says the pending trim follows the move (so the turn ends after the cascade).
    """

    __slots__ = ("game", "rows", "cols", "active", "phase", "parents", "in_turn", "moved", "run",
                 "turn", "winners", "_events", "_log", "settled", "_empty", "_calm")

    def __init__(self, game, rows, cols, active, phase, parents, in_turn, moved, run, turn, winners,
                 events=(), settled=True, empty=None, calm=False):
        self.game, self.rows, self.cols, self.active, self.phase = game, rows, cols, active, phase
        self.parents, self.in_turn, self.moved, self.run = parents, in_turn, moved, run
        self.turn, self.winners, self._events, self.settled = turn, winners, events, settled
        # _events is None until first read: then written from _log, the log of the action (_written)
        self._empty = empty  # the board's empty cells as bits when already read (else None)
        self._calm = calm  # known to hold no facing runs of unequal length (after a cascade)

    # reading ----------------------------------------------------------------------------------
    @property
    def to_move(self) -> Optional[int]:
        """The seat that must decide now; None once over and in a snapshot inside a cascade."""
        if not self.settled:
            return None
        phase = self.phase
        if phase == "birth_or_move":
            return self.active
        if phase == "trim":
            return self.chooser
        return None

    @property
    def chooser(self) -> Optional[int]:
        """The seat that chooses the end of the pending trim (None when none is pending)."""
        if self.run is None:
            return None
        if self.game.options["trim_chooser"] == "active":
            return self.active
        return self.game.seat_of[self.rows[self.run[0]]]

    @property
    def board(self) -> str:
        """81 characters, a1 b1 … i1 a2 … i9: ``'.'`` or the side letter of the stone there."""
        return self.rows.replace("/", "")

    def stones(self, seat: int) -> int:
        """How many stones face ``seat``."""
        return self.rows.count(self.game.letters[seat])

    @property
    def scores(self) -> tuple:
        return tuple(self.rows.count(x) for x in self.game.letters)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list:
        return self._legal(0)

    def _legal(self, part) -> list:
        """The legal actions (``part`` 0) or their catalogue indices (1), in the same order."""
        phase = self.phase
        if not self.settled:
            return []  # a snapshot inside a cascade: the rules act there, not a player
        if phase == "trim":
            ends = [TRIMS[self.run[0]], TRIMS[self.run[-1]]]
            return [CATALOGUE_INDEX[id(t)] for t in ends] if part else ends
        if phase != "birth_or_move":
            return []
        rows = self.rows
        x = self.game.letters[self.active]
        out = []
        if self.parents and rows.count(".") > 90 - 9 - MAX_STONES:
            for p in self.parents:
                if rows[p] == x:
                    for n, birth in _BIRTHS_INDEXED[p]:
                        if rows[n] == ".":
                            out.append(birth[part])
        empty = self._empty
        if empty is None:
            empty = _empty_bits(rows)
        tables, reach = _MOVES_BY_REACH[part], REACH
        find = rows.find
        s = find(x)
        while s >= 0:
            key = empty & reach[s]
            moves = tables[s].get(key)
            if moves is None:
                table = tables[s]
                if len(table) >= _MOVES_BY_REACH_LIMIT:
                    table.clear()
                moves = table[key] = _stone_moves(rows, s)[part]
            out += moves
            s = find(x, s + 1)
        return out

    # checking ---------------------------------------------------------------------------------
    def _illegal(self, action) -> Optional[str]:
        """Why ``action`` is not legal here, or None if it is."""
        phase = self.phase
        if phase == "over":
            return "the game is over"
        if not self.settled:
            return "this is a snapshot inside a cascade: nobody acts until the resolution is over"
        rows = self.rows
        t = type(action)
        if t is Trim:
            if phase != "trim":
                return "no overpopulated run is waiting for a trim"
            p = POS.get(action.end)
            if p not in (self.run[0], self.run[-1]):
                return (f"{action.end} is not an end of the overpopulated run {_run_text(self.run)} "
                        f"(trim {NAME[self.run[0]]} or trim {NAME[self.run[-1]]})")
            return None
        if t not in (Move, Birth):
            return f"{action!r} is not a Mamba action"
        if phase == "trim":
            who = self.game.seat_names[self.chooser]
            return (f"{who} must first choose the end of the overpopulated run {_run_text(self.run)} to "
                    f"trim (trim {NAME[self.run[0]]} or trim {NAME[self.run[-1]]})")
        x = self.game.letters[self.active]
        side = self.game.seat_names[self.active]
        if t is Birth:
            p, c = POS.get(action.parent), POS.get(action.cell)
            if p is None or c is None:
                return "a birth names two cells"
            if p not in self.parents:
                listed = ", ".join(NAME[q] for q in self.parents if rows[q] == x) or "none left"
                return f"{action.parent} is not a birth parent of {side} this turn (parents: {listed})"
            if rows[p] != x:
                return f"the parent {action.parent} is no longer {side}'s"
            if rows.count(".") <= 90 - 9 - MAX_STONES:
                return f"{MAX_STONES} stones are on the board: no birth is possible"
            if c not in CROSS[p]:
                return f"{action.cell} is not in the cross of {action.parent}"
            if rows[c] != ".":
                return f"{action.cell} is occupied"
            return None
        s, d = POS.get(action.start), POS.get(action.to)
        if s is None or d is None:
            return "a move names two cells"
        if rows[s] != x:
            what = "it is empty" if rows[s] == "." else f"it is {SIDE_WORD[rows[s]]}'s"
            return f"{action.start} holds no {side} stone ({what})"
        if d == s:
            return "a move takes one or two steps; the start cell is never a destination"
        if rows[d] != ".":
            return f"{action.to} is occupied"
        if d in CROSS[s]:
            return None
        dr, df = d // 10 - s // 10, d % 10 - s % 10
        if abs(dr) + abs(df) != 2:
            return f"{action.to} is not reachable from {action.start} in one or two orthogonal steps"
        vias = [s + dr * 10, s + df] if dr and df else [s + (dr // 2) * 10 + df // 2]
        if any(rows[v] == "." for v in vias):
            return None
        return (f"{action.to} is not reachable from {action.start} in two steps: "
                f"{_list_text(NAME[v] for v in vias)} {'is' if len(vias) == 1 else 'are'} occupied")

    def _explain(self, text, reason) -> str:
        legal = [str(a) for a in self.legal_actions()]
        sample = ", ".join(legal[:6]) + (f", … ({len(legal)} in all)" if len(legal) > 6 else "")
        return f"{text!r} is not legal: {reason}. Legal actions: {sample or 'none'}"

    def check(self, action):
        """The legal action meant by ``action`` (an action or its notation), or
        :class:`IllegalAction` saying why it is not legal here (without listing every action)."""
        if isinstance(action, str):
            return self.game.parse_action(self, action)
        reason = self._illegal(action)
        if reason:
            raise IllegalAction(self._explain(str(action), reason))
        return action

    def apply(self, action) -> "MambaState":
        """The state after ``action`` (an action or its notation); :class:`IllegalAction` if not legal."""
        return self._apply(self.check(action))

    def vary_hidden(self, seat, rng) -> "MambaState":
        """Mamba hides nothing: the only state that differs in what ``seat`` cannot see is this one."""
        return self

    # playing ----------------------------------------------------------------------------------
    def _apply(self, action) -> "MambaState":
        return self._play(action, [])

    def _outcome(self, action) -> tuple:
        """(stones per seat, winners or None) after ``action`` and its whole cascade, without
        writing a single event: the fast path for bots and searches."""
        after = self._play(action, None)
        return after.scores, (after.winners if after.phase == "over" else None)

    def _play(self, action, log):
        """The next state; ``log`` collects the waves for the events (None: no events at all,
        only for :meth:`_outcome`, whose state never leaves this module)."""
        t = type(action)
        if t is Move:
            info = _MOVE_INFO.get(id(action))
            if info is None:  # a Move built elsewhere, equal to one of the table
                info = _MOVE_INFO[id(MOVES[POS[action.start], POS[action.to]])]
            s, d, tail, path, cells, touched, lines = info
            before = self.rows
            rows, cols = _put_move(before, self.cols, s, d, before[s])
            if log is not None:
                via = None
                if type(path) is tuple:  # a diagonal: vertically first when that cell is free
                    via = path[0] if before[path[0]] == "." else path[1]
            empty = self._empty
            if empty is not None:  # the start cell empties, the destination fills
                empty ^= cells
                if self._calm and _quiet(rows, cols, d, lines, empty):
                    # nothing to resolve, no end possible: the turn passes, as _settle would say
                    game = self.game
                    nxt = (self.active + 1) % game.players
                    state = MambaState(game, rows, cols, nxt, "birth_or_move", game._parents(rows, nxt, empty),
                                       False, False, None, self.turn + 1, (), (), True, empty, QUIET)
                    if log is not None:
                        log.append(("move", None, (_move_written, (self.active, info, via)), rows, cols))
                        state._events, state._log = None, (log, self.active, self.parents, True, self.turn)
                    return state
                # not quiet: a cross closed (the cascade forgets the touched cells) or a line
                # through them is stirred, which the cascade need not read again
                touched = None
            if log is not None:
                log.append(("move", None, (_move_written, (self.active, info, via)), rows, cols))
            return self._settle(rows, cols, d, self.parents, True, log, touched if self._calm else None, empty)
        if t is Birth:
            p, c = POS[action.parent], POS[action.cell]
            rows, cols = _put_one(self.rows, self.cols, c, self.rows[p])
            if log is not None:
                log.append(("birth", f"{self.game.seat_names[self.active]}'s {action.parent} gives birth "
                            f"on {action.cell}.",
                            {"cells": [action.cell], "parent": action.parent, "cell": action.cell}, rows, cols))
            parents = tuple(q for q in self.parents if q != p)
            empty = self._empty
            if empty is not None:
                empty ^= BIT[c]
            return self._settle(rows, cols, c, parents, False, log, (c,) if self._calm else None, empty)
        if t is Trim:
            run = self.run
            end = POS[action.end]
            removed = run[:len(run) - 4] if end == run[0] else run[4:]
            rows, cols = _put(self.rows, self.cols, dict.fromkeys(removed, "."))
            if log is not None:
                who = self.game.seat_names[self.to_move]
                names = _names(removed)
                verb = "is" if len(names) == 1 else "are"
                log.append(("trim", f"{who} trims the run {_run_text(run)} from {action.end}: "
                            f"{_list_text(names)} {verb} removed.",
                            {"cells": names, "run": [NAME[q] for q in run], "end": action.end}, rows, cols))
            return self._settle(rows, cols, -1, self.parents, self.moved, log)
        raise IllegalAction(f"{action!r} is not a Mamba action")

    def _settle(self, rows, cols, filled, parents, moved, log, touched=None, empty=None):
        """Resolve the cascade, then a pending trim, the end of the game, or the turn's flow.
        ``empty``: the empty cells after the action as bits, when known."""
        game, active = self.game, self.active
        alive = parents  # the parents as the action left them, for the snapshots below
        rows, cols, run, calm, empty = _cascade(game, rows, cols, active, filled, log, touched, empty)
        # A parent that died loses its birth for good, even if a newborn refills its cell later.
        # One that changed side keeps it: "still the player's" is judged when it gives birth,
        # so a parent turned back by a later cascade of the same turn may still give birth.
        # (After the move the turn's parents are of no more use.)
        if parents and not moved:
            parents = tuple([p for p in parents if rows[p] != "."])
        turn = self.turn
        if run is not None:
            state = MambaState(game, rows, cols, active, "trim", () if moved else parents, True, moved,
                               run, turn, ())
            if log is None:
                return state
            chooser = state.chooser
            owner = SIDE_WORD[rows[run[0]]]
            log.append(("overpopulation",
                        f"The {owner} run {_run_text(run)} is overpopulated ({len(run)} stones, more than 4): "
                        f"{game.seat_names[chooser]} chooses the end to trim ({NAME[run[0]]} or {NAME[run[-1]]}).",
                        {"cells": [NAME[p] for p in run], "seat": chooser, "ends": [NAME[run[0]], NAME[run[-1]]]},
                        rows, cols))
        else:
            # A quiet action (a move or a birth, nothing else changed) leaves every opponent's
            # count as it was, above the goal (the state before was played to, not set up),
            # and the active player's no lower.
            winners = None if calm is QUIET else _end_winners(game, rows, active)
            if winners is not None:
                state = MambaState(game, rows, cols, active, "over", (), False, False, None, turn, winners)
                if log is None:
                    return state
                log.append(("end", _end_text(game, rows, active, winners),
                            {"cells": [], "winners": list(winners), "stones": list(state.scores)}, rows, cols))
            elif moved:
                nxt = (active + 1) % game.players
                if empty is None:  # read once for the parents and the next legal moves
                    empty = _empty_bits(rows)
                state = MambaState(game, rows, cols, nxt, "birth_or_move", game._parents(rows, nxt, empty), False,
                                   False, None, turn + 1, (), empty=empty, calm=calm)
            else:
                state = MambaState(game, rows, cols, active, "birth_or_move", parents, True, False, None, turn, (),
                                   empty=empty, calm=calm)
            if log is None:
                return state
        state._events, state._log = None, (log, active, alive, moved, turn)  # written when first read
        return state

    @property
    def events(self) -> tuple:
        events = self._events
        if events is None:  # not written yet: from the log of the action that made this state
            events = self._events = _written(self.game, *self._log)
            self._log = None
        return events

    # views and notation ---------------------------------------------------------------------------
    def observe(self, seat: Optional[int] = None) -> dict:
        """The same dict for every seat: Mamba hides nothing. Documented in docs/rules/mamba.md."""
        game = self.game
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < game.players):
            raise ValueError(f"seat must be None or an int from 0 to {game.players - 1}, got {seat!r}")
        rows, phase = self.rows, self.phase
        trim = None
        if phase == "trim":
            run = [NAME[p] for p in self.run]
            trim = {"seat": self.chooser, "run": run, "ends": [run[0], run[-1]]}
        return {
            "game": "mamba",
            "players": game.players,
            "seats": list(game.seat_names),
            "sides": list(game.letters),
            "board": rows.replace("/", ""),
            "to_move": self.to_move,
            "phase": phase,
            "active": self.active,
            "parents": self._birth_parents(),
            "trim": trim,
            "stones": [rows.count(x) for x in game.letters],
            "goal": game.goal,
            "turn": self.turn,
            "winners": list(self.winners),
            "position": self.position(),
            "settled": self.settled,
            "options": dict(game.options),
        }

    def _birth_parents(self) -> list:
        """The parents that can give birth now: none at 50 stones, in a snapshot or outside
        the births' phase (a parent without an empty cell of its cross is still listed)."""
        if self.phase != "birth_or_move" or not self.settled or self.rows.count(".") <= 90 - 9 - MAX_STONES:
            return []
        rows, x = self.rows, self.game.letters[self.active]
        return [NAME[p] for p in self.parents if rows[p] == x]

    def position(self) -> str:
        """This position in the one-line notation that ``game.position()`` reads back."""
        rows = self.rows
        ranks = []
        for r in range(SIZE - 1, -1, -1):
            line = rows[r * 10:r * 10 + SIZE]
            ranks.append(re.sub(r"\.+", lambda m: str(len(m.group())), line))
        out = "/".join(ranks) + " " + self.game.letters[self.active]
        phase = self.phase
        parents = ",".join(NAME[p] for p in self.parents) or "-"
        if phase == "over":
            return out + " over"
        if phase == "trim":
            ends = f"{NAME[self.run[0]]}-{NAME[self.run[-1]]}"
            return out + (" moved" if self.moved else " " + parents) + " trim " + ends
        if self.moved:  # only a snapshot inside the move's cascade is moved without a trim
            return out + " moved"
        return out + (" " + parents if self.in_turn else "")

    def _payload(self) -> dict:
        rows = self.rows
        stones = {x: [NAME[p] for p in CELLS if rows[p] == x] for x in self.game.letters}
        fresh = self.phase == "birth_or_move" and not self.in_turn
        return {
            "stones": stones,
            "active": self.active,
            "phase": self.phase,
            "parents": None if fresh or self.phase == "over" else [NAME[p] for p in self.parents],
            "moved": self.moved,
            "trim": None if self.run is None else [NAME[p] for p in self.run],
            "turn": self.turn,
            "winners": list(self.winners),
        }

    def caption(self, action) -> str:
        return f"{self.game.seat_names[self.to_move]} plays {action}."

    def setup_caption(self) -> str:
        names = ", ".join(self.game.seat_names)
        if self.to_move is None:
            return f"Position: {self.game.players} players ({names}); the game is over."
        # A loaded position may start with any side to move, and inside a turn.
        return f"Set-up: {self.game.players} players ({names}); {self.game.seat_names[self.to_move]} to move."

    def __repr__(self):
        return f"<MambaState {self.position()!r}>"


def _end_text(game, rows, active, winners) -> str:
    goal = game.goal
    counts = [rows.count(x) for x in game.letters]
    names = game.seat_names
    losers = [s for s in range(game.players) if s != active and counts[s] <= goal]
    if losers:
        who = _list_text(names[s] for s in losers)
        have = _list_text(str(counts[s]) for s in losers)
        return (f"{who} {'is' if len(losers) == 1 else 'are'} down to {have} stone"
                f"{'' if counts[losers[-1]] == 1 else 's'} (goal: {goal} or fewer): {names[active]} wins.")
    win = _list_text(names[s] for s in winners)
    return (f"{names[active]} is down to {counts[active]} stones (goal: {goal} or fewer) by its own action: "
            f"the game ends and {win} {'wins' if len(winners) == 1 else 'share the win'} with the most stones.")

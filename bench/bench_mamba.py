"""Mamba engine speed, measured in the same run as python-chess random playouts.

    .venv/bin/python bench/bench_mamba.py [--seconds 5]

Random playouts in plies (actions) per CPU second of this process: Mamba's
``legal_actions()`` plus ``_apply`` with the full cascade and its events, against
python-chess's ``list(board.legal_moves)`` plus ``push``. Then what a jump 1,000 actions away costs: ``Match.goto``
alone, and goto plus the step's frames for a seat (what the widget shows), the first time and
cached. Prints the ratio (and the load average over the last minute, before and after) and
writes ``bench/results/mamba.json``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import time

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from common import write_results

TURN_CAP = 400  # turns before a random Mamba game counts as unfinished and restarts
# Playouts are timed in CPU seconds of this process, Mamba's and chess's alike: a shared
# machine gives them unequal shares of wall time, not of CPU time. A jump is timed on the wall
# clock, as a person waits for it.
_clock = time.process_time


class MambaPlayouts:
    """Random Mamba playouts that can run in slices (so chess and Mamba interleave)."""

    def __init__(self, players: int, seed: int = 0):
        self.game = tw.make("mamba", players=players)
        self.rng = Rng.from_seed(seed)
        self.state = self.game.new_state()
        self.plies = self.games = self.finished = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        rng, state, game = self.rng, self.state, self.game
        plies = 0
        start = _clock()
        end = start + seconds
        while True:
            if state.is_over or state.turn > TURN_CAP:
                self.games += 1
                self.finished += state.is_over
                state = game.new_state()
                if _clock() > end:
                    break
            for _ in range(50):  # check the clock every 50 plies
                legal = state.legal_actions()
                action, rng = rng.choice(legal)
                state = state._apply(action)
                plies += 1
                if state.is_over:
                    break
            if _clock() > end:
                break
        self.seconds += _clock() - start
        self.plies += plies
        self.rng, self.state = rng, state

    def result(self):
        return {"plies": self.plies, "seconds": self.seconds, "plies_per_s": self.plies / self.seconds,
                "games": self.games, "finished": self.finished}


class ChessPlayouts:
    def __init__(self, seed: int = 0):
        import chess

        self.chess = chess
        self.rng = Rng.from_seed(seed)
        self.board = chess.Board()
        self.plies = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        rng, board = self.rng, self.board
        plies = 0
        start = _clock()
        end = start + seconds
        while _clock() < end:
            for _ in range(50):
                if board.is_game_over(claim_draw=False) or board.ply() >= 400:
                    board = self.chess.Board()
                    self.games += 1
                moves = list(board.legal_moves)
                move, rng = rng.choice(moves)
                board.push(move)
                plies += 1
        self.seconds += _clock() - start
        self.plies += plies
        self.rng, self.board = rng, board

    def result(self):
        return {"plies": self.plies, "seconds": self.seconds, "plies_per_s": self.plies / self.seconds,
                "games": self.games, "chess_version": self.chess.__version__}


def jump_cost(actions: int = 1300, repeats: int = 2000, jumps: int = 200, seat: int = 0):
    """What a user waits for when the widget jumps 1,000 actions away, on a recorded random match.

    ``Match.goto`` alone is a list index. The widget then shows the step's frames for its seat
    (one observation per event of the cascade): built the first time a step is shown, then
    cached. First-time figures are averaged over ``jumps`` distinct steps, each shown once."""
    match = tw.Match("mamba", players=2)
    bot_rng = Rng.from_seed(3)
    while len(match) < actions:
        if match.state.is_over:
            match = tw.Match("mamba", players=2)  # too short: start a longer one
            continue
        action, bot_rng = bot_rng.choice(match.state.legal_actions())
        match.play(action)
    far = [(i % 2) * 1000 + 100 for i in range(repeats)]  # alternate 100 ↔ 1100
    t0 = time.perf_counter()
    for step in far:
        match.goto(step)
    goto_s = (time.perf_counter() - t0) / repeats
    # distinct targets 1,000 apart, alternating low and high: every jump shows a step not yet seen
    targets = [100 + i // 2 + (i % 2) * 1000 for i in range(jumps)]
    t0 = time.perf_counter()
    for step in targets:
        match.goto(step)
        match.frames_of_step(step, seat)
    first_s = (time.perf_counter() - t0) / jumps
    t0 = time.perf_counter()
    for i in range(repeats):
        step = targets[i % jumps]
        match.goto(step)
        match.frames_of_step(step, seat)
    cached_s = (time.perf_counter() - t0) / repeats
    return {"match_actions": len(match), "seat": seat, "goto_us": goto_s * 1e6,
            "jump_first_us": first_s * 1e6, "jump_cached_us": cached_s * 1e6}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "mamba.json"))
    args = parser.parse_args(argv)
    results = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds,
               "load_before": os.getloadavg()[0]}
    chess_run = ChessPlayouts()
    mamba_runs = {p: MambaPlayouts(p) for p in (2, 3, 4)}
    # Steady state: a short untimed run first (imports, caches such as Mamba's move tables).
    for runner in [ChessPlayouts(seed=1)] + [MambaPlayouts(p, seed=1) for p in (2, 3, 4)]:
        runner.run(args.seconds / 8)
    # Interleaved slices, so a change in the machine's load hits both engines alike.
    for _ in range(8):
        chess_run.run(args.seconds / 8)
        for runner in mamba_runs.values():
            runner.run(args.seconds / 8)
    results["chess"] = chess_run.result()
    for players, runner in mamba_runs.items():
        results[f"mamba_{players}p"] = runner.result()
    chess_rate = results["chess"]["plies_per_s"]
    print(f"python-chess random playouts: {chess_rate:,.0f} plies/s")
    for players in (2, 3, 4):
        r = results[f"mamba_{players}p"]
        r["ratio_to_chess"] = r["plies_per_s"] / chess_rate
        print(f"mamba {players}p random playouts: {r['plies_per_s']:,.0f} plies/s "
              f"({r['ratio_to_chess']:.2f}× chess; {r['games']} games, {r['finished']} finished)")
    results["jump"] = jump_cost()
    g = results["jump"]
    print(f"Match.goto 1,000 actions away: {g['goto_us']:.2f} µs (a list index; match of {g['match_actions']} actions)")
    print(f"widget jump 1,000 actions away (goto + frames_of_step for seat {g['seat']}): "
          f"{g['jump_first_us']:.0f} µs the first time a step is shown, {g['jump_cached_us']:.2f} µs cached")
    results["load_after"] = os.getloadavg()[0]
    print(f"load average (1 min): {results['load_before']:.2f} before, {results['load_after']:.2f} after")
    write_results(results, args.out)


if __name__ == "__main__":
    main()

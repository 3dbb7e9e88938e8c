"""Every game's PettingZoo environment, measured in the same run as RLCard's 4-player UNO ``env.step``.

    .venv/bin/python bench/bench_pettingzoo.py [--seconds 6] [--rounds 12]

What a learner's loop costs per action, on fixed seeded deals: ``last()`` (the observation
vector and action mask of the agent to act) and ``step(index)`` (a random legal index, read
from the mask) on ``tabletop_widgets.pettingzoo.env(name)`` as users get it (wrapped to
enforce call order); a finished game is dealt again with the next seed. The anchor is RLCard's
UNO ``env.step`` (which builds the next player's observation and legal actions) with a random
legal action read from its ``legal_actions``, as in ``bench_mamma_mia.py``: both sides draw
with the same seeded chooser (``random.Random(0).randrange``), not RLCard's ``RandomAgent``,
whose ``eval_step`` costs about as much as the ``env.step`` it feeds. All run in interleaved slices, timed in this
process's CPU seconds as ``bench_mamma_mia.py`` times its anchor (a shared machine gives them
unequal shares of wall time, not of CPU time), so a busy machine slows them alike. Prints
steps per second and the ratio; writes ``bench/results/pettingzoo.json``. A step is one decision of the agent: Mamma Mia's agents choose an action part by part
(``docs/analysis.md``) and MammuZ's a lay card by card, so the whole actions played per second
(``actions_per_s``, every game action the engine applied) are printed beside the steps.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import time

import random

import numpy as np

from bench_mamma_mia import UnoPlayouts
from tabletop_widgets.core.game import make, registered
from tabletop_widgets.pettingzoo import env as make_env
from common import write_results

# CPU seconds of this process, the clock bench_mamma_mia.py times the UNO anchor with
_clock = time.process_time

# The configurations the engines are benchmarked in (bench_mamma_mia.py, bench_mamba.py).
PLAYERS = {"mamba": 2, "mamma-mia": 4, "mamma-mia-plus": 6, "mammuz": 4}


class EnvPlayouts:
    """Random masked play in one game's environment, in slices."""

    def __init__(self, name: str, players: int, seed: int = 0):
        self.env = make_env(name, players=players)
        self.pick = random.Random(seed).randrange  # the same chooser as UNO's, seeded
        self.seed = seed
        self.env.reset(seed=seed)
        self.steps = self.games = self.actions = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        e, pick = self.env, self.pick
        raw = e.unwrapped
        steps = actions = 0
        start = _clock()
        end = start + seconds
        while True:
            for _ in range(50):
                obs, reward, terminated, truncated, info = e.last()
                if terminated or truncated:
                    self.games += 1
                    self.seed += 1
                    e.reset(seed=self.seed)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                before = raw.game_state
                e.step(int(legal[pick(len(legal))]))
                steps += 1
                actions += raw.game_state is not before
            if _clock() > end:
                break
        self.seconds += _clock() - start
        self.steps += steps
        self.actions += actions

    def result(self):
        return {"steps": self.steps, "seconds": self.seconds, "steps_per_s": self.steps / self.seconds,
                "actions_per_s": self.actions / self.seconds, "games": self.games}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per environment (split over the rounds)")
    parser.add_argument("--rounds", type=int, default=12, help="interleaved slices per environment")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "pettingzoo.json"))
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    uno = UnoPlayouts(4)
    runs = {}
    for name in registered():
        players = PLAYERS.get(name, make(name).players)
        try:
            runs[f"{name}_{players}p"] = EnvPlayouts(name, players)
        except NotImplementedError as exc:  # a game without the learning hooks
            print(f"{name}: no environment ({exc})")
    for r in [uno, *runs.values()]:  # imports, caches (action catalogues, move tables)
        r.run(0.3)
        r.steps = r.games = 0
        r.actions = 0
        r.seconds = 0.0
    piece = args.seconds / args.rounds
    for _ in range(args.rounds):
        uno.run(piece)
        for r in runs.values():
            r.run(piece)
    base = uno.result()
    doc = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds,
           "uno_4p_env": base, "load_before": load, "load_after": os.getloadavg()[0]}
    print(f"RLCard UNO 4p env.step:   {base['steps_per_s']:9.0f} steps/s")
    for key, r in runs.items():
        res = r.result()
        res["ratio_to_uno"] = res["steps_per_s"] / base["steps_per_s"]
        doc[key] = res
        print(f"PettingZoo {key:18s} {res['steps_per_s']:9.0f} steps/s   {res['ratio_to_uno']:.2f}x UNO env.step"
              f"   ({res['actions_per_s']:.0f} game actions/s)")
    print(f"load average (1 min): {load:.2f} before, {doc['load_after']:.2f} after")
    write_results(doc, args.out)
    return doc


if __name__ == "__main__":
    main()

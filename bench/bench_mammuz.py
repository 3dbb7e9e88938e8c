"""MammuZ engine speed, measured in the same run as RLCard's 4-player UNO.

    .venv/bin/python bench/bench_mammuz.py [--seconds 6] [--rounds 20] [--profile]

Random play on fixed seeded deals (seed 0, 1, 2, … one after the other), in actions per
second on one core, against RLCard's 4-player ``uno`` (seeded); both choose uniformly among
the legal actions with the same seeded chooser (``random.Random(0).randrange``), so the
figures compare the engines, not the random agents. Two bases:

- ``bare``: ``legal_actions()``, a uniformly random choice among them, ``_apply`` — against
  UNO's ``game.get_legal_actions()`` + ``game.step`` (RLCard's game object, no environment);
- ``observed``: the same plus ``observe()`` of the seat to move next — against UNO's
  ``env.step`` (which always builds the next player's state).

An action is one decision of the engine's action model (``docs/rules/mammuz.md``): naming
the species, laying one card, closing a lay, a challenge or a Triceratops choice. The lays
per second (whole displays laid) are printed too. Every engine runs in interleaved slices,
so a busy machine slows them alike. ``--profile`` prints the engine's top costs instead.
Writes ``bench/results/mammuz.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import pathlib
import platform
import random
import time

import tabletop_widgets as tw
from common import write_results


class Playouts:
    """Random MammuZ games with ``players`` seats, run in slices of about ``seconds``."""

    def __init__(self, players: int = 4, observed: bool = False):
        self.game = tw.make("mammuz", players=players)
        self.observed = observed
        self.seed = 0
        self.state = self.game.new_state(0)
        self.pick = random.Random(0).randrange  # the same chooser as UNO's, seeded
        self.actions = self.games = self.lays = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        state, game, observed, pick = self.state, self.game, self.observed, self.pick
        actions = lays = 0
        start = time.perf_counter()
        end = start + seconds
        while True:
            for _ in range(50):  # check the clock every 50 actions
                if state.is_over:
                    self.games += 1
                    self.seed += 1
                    state = game.new_state(self.seed)
                legal = state.legal_actions()
                state = state._apply(legal[pick(len(legal))])
                if observed and not state.is_over:
                    state.observe(state.to_move)
                events = state.events
                if events and events[0].kind == "lay":
                    lays += 1
                actions += 1
            if time.perf_counter() > end:
                break
        self.seconds += time.perf_counter() - start
        self.actions += actions
        self.lays += lays
        self.state = state

    def result(self):
        return {"actions": self.actions, "seconds": self.seconds, "actions_per_s": self.actions / self.seconds,
                "lays_per_s": self.lays / self.seconds, "games": self.games, "games_per_s": self.games / self.seconds}


class UnoPlayouts:
    """RLCard's UNO with random choices: ``game`` (bare) or ``env.step`` (observed)."""

    def __init__(self, players: int = 4, observed: bool = False):
        import rlcard

        self.rlcard = rlcard
        self.observed = observed
        self.env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
        self.pick = random.Random(0).randrange
        self.steps = self.games = 0
        self.seconds = 0.0
        if observed:
            self.state, self.player = self.env.reset()
        else:
            self.game = self.env.game
            self.game.init_game()

    def run(self, seconds: float):
        steps = 0
        pick = self.pick
        start = time.perf_counter()
        end = start + seconds
        if self.observed:
            env, state = self.env, self.state
            while True:
                for _ in range(50):
                    if env.is_over():
                        self.games += 1
                        state, _ = env.reset()
                    legal = list(state["legal_actions"])
                    state, _ = env.step(legal[pick(len(legal))])
                    steps += 1
                if time.perf_counter() > end:
                    break
            self.state = state
        else:
            game = self.game
            while True:
                for _ in range(50):
                    if game.is_over():
                        self.games += 1
                        game.init_game()
                    legal = game.get_legal_actions()
                    game.step(legal[pick(len(legal))])
                    steps += 1
                if time.perf_counter() > end:
                    break
        self.seconds += time.perf_counter() - start
        self.steps += steps

    def result(self):
        return {"steps": self.steps, "seconds": self.seconds, "steps_per_s": self.steps / self.seconds,
                "games": self.games, "games_per_s": self.games / self.seconds,
                "rlcard_version": getattr(self.rlcard, "__version__", "?")}


def profile(seconds: float, players: int = 4, observed: bool = True, top: int = 14):
    import cProfile
    import pstats

    playouts = Playouts(players, observed=observed)
    profiler = cProfile.Profile()
    profiler.runcall(playouts.run, seconds)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per engine (split over the rounds)")
    parser.add_argument("--rounds", type=int, default=20, help="interleaved slices per engine")
    parser.add_argument("--profile", action="store_true", help="print the engine's top costs (observed basis)")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "mammuz.json"))
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.seconds)
        return None
    pairs = {"bare": (Playouts(4), UnoPlayouts(4)), "observed": (Playouts(4, observed=True), UnoPlayouts(4, observed=True))}
    for ours, uno in pairs.values():  # warm caches as a long simulation would
        for e in (ours, uno):
            e.run(0.3)
        ours.actions = ours.games = ours.lays = uno.steps = uno.games = 0
        ours.seconds = uno.seconds = 0.0
    piece = args.seconds / args.rounds
    for _ in range(args.rounds):
        for ours, uno in pairs.values():
            uno.run(piece)
            ours.run(piece)
    doc = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds}
    for basis, (ours, uno) in pairs.items():
        r, base = ours.result(), uno.result()
        r["ratio_to_uno"] = r["actions_per_s"] / base["steps_per_s"]
        doc[f"uno_4p_{basis}"], doc[f"mammuz_4p_{basis}"] = base, r
        anchor = "game.step" if basis == "bare" else "env.step"
        print(f"RLCard UNO 4p {anchor:10s} {base['steps_per_s']:9.0f} steps/s   {base['games_per_s']:7.1f} games/s")
        print(f"MammuZ 4p {basis:14s} {r['actions_per_s']:9.0f} actions/s {r['games_per_s']:7.1f} games/s "
              f"{r['lays_per_s']:8.0f} lays/s   ratio {r['ratio_to_uno']:.2f}x")
    write_results(doc, args.out)
    return doc


if __name__ == "__main__":
    main()

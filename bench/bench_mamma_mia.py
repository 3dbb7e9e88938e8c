"""Mamma Mia engine speed, measured in the same run as RLCard's 4-player UNO.

    .venv/bin/python bench/bench_mamma_mia.py [--seconds 6] [--rounds 20] [--profile CONFIG]

Random play in actions per second on one core, for 4-player classic and 6-player Plus, on
fixed seeded deals, against RLCard's 4-player ``uno`` on fixed seeds. Every action is one
decision (a whole turn, or one decision of the evaluation with every reveal and its event in
between). Both sides choose uniformly among the legal actions with the same seeded chooser
(``random.Random(0).randrange``, as ``bench_mammuz.py`` does), so the figures compare the
engines, not the random agents: RLCard's ``RandomAgent.eval_step`` costs about as much as UNO's
``env.step`` itself, and ``tw.bots.Random`` draws with a chooser of its own. Two bases, each
with its own anchor:

- bare (``classic_4p``, ``plus_6p``): ``legal_actions()``, the choice, then ``play`` on the
  game's playout (``state.playout()``: the position changed in place, the fast path for a choice
  among the legal actions, as ``tw.simulate`` takes it, as UNO's ``game.step`` changes its
  game); against UNO's ``game.get_legal_actions()`` + ``game.step``;
- observed (``…_observed``): the same plus the observation of the seat to move after every
  action, as RLCard's ``env.step`` always builds one; against UNO's ``env.step``.

All run in interleaved slices, timed in this process's CPU seconds (a shared machine gives
them unequal shares of wall time, not of CPU time), so a busy machine slows them alike. Prints
the ratios and full games per second and writes ``bench/results/mamma_mia.json`` (or ``--out``).
``--profile CONFIG`` (``classic_4p``, ``plus_6p_observed``, …) prints that configuration's top
costs instead, after the same warm-up.
"""

from __future__ import annotations

import argparse
import pathlib
import platform
import random
import time

import tabletop_widgets as tw
from common import write_results

# CPU seconds of this process: engines and anchors are compared by the work each does, which
# other programs on a shared machine do not add to
_clock = time.process_time


class Playouts:
    """Random games of one configuration, run in slices of about ``seconds``."""

    def __init__(self, name: str, players: int, seed: int = 0, observed: bool = False):
        self.observed = observed
        self.game = tw.make(name, players=players)
        self.pick = random.Random(seed).randrange  # the same chooser as UNO's, seeded
        self.seed = seed
        self.state = self.game.new_state(seed).playout()
        self.actions = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        state, game, pick, observed = self.state, self.game, self.pick, self.observed
        actions = 0
        start = _clock()
        end = start + seconds
        while True:
            for _ in range(50):  # check the clock every 50 actions
                if state.is_over:
                    self.games += 1
                    self.seed += 1
                    state = game.new_state(self.seed).playout()
                legal = state.legal_actions()
                state.play(legal[pick(len(legal))])
                if observed and not state.is_over:
                    state.observe(state.to_move)  # as env.step: the next seat's observation
                actions += 1
            if _clock() > end:
                break
        self.seconds += _clock() - start
        self.actions += actions
        self.state = state

    def result(self):
        return {"actions": self.actions, "seconds": self.seconds, "actions_per_s": self.actions / self.seconds,
                "games": self.games, "games_per_s": self.games / self.seconds}


class UnoPlayouts:
    """RLCard's UNO with random choices, counted in environment steps."""

    def __init__(self, players: int = 4, seed: int = 0):
        import rlcard

        self.rlcard = rlcard
        self.env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
        self.pick = random.Random(seed).randrange
        self.state, self.player = self.env.reset()
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        env, pick = self.env, self.pick
        state, player = self.state, self.player
        steps = 0
        start = _clock()
        end = start + seconds
        while True:
            for _ in range(50):
                if env.is_over():
                    self.games += 1
                    state, player = env.reset()
                legal = list(state["legal_actions"])
                state, player = env.step(legal[pick(len(legal))])
                steps += 1
            if _clock() > end:
                break
        self.seconds += _clock() - start
        self.steps += steps
        self.state, self.player = state, player

    def result(self):
        return {"steps": self.steps, "seconds": self.seconds, "steps_per_s": self.steps / self.seconds,
                "games": self.games, "games_per_s": self.games / self.seconds,
                "rlcard_version": getattr(self.rlcard, "__version__", "?")}


class UnoGamePlayouts:
    """RLCard's UNO game without its environment: ``get_legal_actions()`` + ``step``."""

    def __init__(self, players: int = 4, seed: int = 0):
        import rlcard

        self.env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
        self.game = self.env.game
        self.pick = random.Random(seed).randrange
        self.game.init_game()
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float):
        game, pick = self.game, self.pick
        steps = 0
        start = _clock()
        end = start + seconds
        while True:
            for _ in range(50):
                if game.is_over():
                    self.games += 1
                    game.init_game()
                legal = game.get_legal_actions()
                game.step(legal[pick(len(legal))])
                steps += 1
            if _clock() > end:
                break
        self.seconds += _clock() - start
        self.steps += steps

    def result(self):
        return {"steps": self.steps, "seconds": self.seconds, "steps_per_s": self.steps / self.seconds,
                "games": self.games, "games_per_s": self.games / self.seconds}


def configurations():
    return {"classic_4p": Playouts("mamma-mia", 4), "plus_6p": Playouts("mamma-mia-plus", 6),
            "classic_4p_observed": Playouts("mamma-mia", 4, observed=True),
            "plus_6p_observed": Playouts("mamma-mia-plus", 6, observed=True)}


def profile(name: str, seconds: float, top: int = 16):
    import cProfile
    import pstats

    playouts = configurations()[name]
    playouts.run(0.3)
    profiler = cProfile.Profile()
    profiler.runcall(playouts.run, seconds)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per engine (split over the rounds)")
    parser.add_argument("--rounds", type=int, default=20, help="interleaved slices per engine")
    parser.add_argument("--profile", choices=sorted(configurations()), help="print one configuration's top costs")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "mamma_mia.json"))
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, args.seconds)
        return None
    uno = UnoPlayouts(4)
    uno_game = UnoGamePlayouts(4)
    engines = configurations()
    for e in engines.values():  # warm the caches of legal actions, as a long simulation would
        e.run(0.3)
        e.actions = e.games = 0
        e.seconds = 0.0
    for anchor in (uno, uno_game):
        anchor.run(0.3)
        anchor.steps = anchor.games = 0
        anchor.seconds = 0.0
    piece = args.seconds / args.rounds
    for _ in range(args.rounds):
        uno.run(piece)
        uno_game.run(piece)
        for e in engines.values():
            e.run(piece)
    env_base, game_base = uno.result(), uno_game.result()
    doc = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds,
           "uno_4p": env_base, "uno_4p_game": game_base}
    print(f"RLCard UNO 4p game.step:   {game_base['steps_per_s']:9.0f} steps/s   {game_base['games_per_s']:7.1f} games/s")
    print(f"RLCard UNO 4p env.step:    {env_base['steps_per_s']:9.0f} steps/s   {env_base['games_per_s']:7.1f} games/s")
    for key, e in engines.items():
        r = e.result()
        base, anchor = (env_base, "env.step") if e.observed else (game_base, "game.step")
        r["anchor"] = f"RLCard UNO 4p {anchor}"
        r["ratio_to_uno"] = r["actions_per_s"] / base["steps_per_s"]
        doc[key] = r
        print(f"Mamma Mia {key:19s}  {r['actions_per_s']:9.0f} actions/s {r['games_per_s']:7.1f} games/s"
              f"   {r['ratio_to_uno']:.2f}x UNO {anchor}")
    write_results(doc, args.out)
    return doc


if __name__ == "__main__":
    main()

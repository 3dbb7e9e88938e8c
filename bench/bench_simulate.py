"""``tw.simulate`` scaling: 2 workers against 1, for every game, with a process pool and with Dask.

    .venv/bin/python bench/bench_simulate.py [--seconds 4] [--repeats 3] [--no-dask]

For each game (in the configurations of the other benchmarks) the same seeded games (random
bots) are played by one worker and by two, in a ``concurrent.futures.ProcessPoolExecutor`` and
in a ``dask.distributed`` local cluster of worker processes. Pools are started and warmed (each
worker has made the game once) before the clock runs, as in a notebook that reuses its
executor. The number of games is chosen so that one worker needs about ``--seconds``. Each
measurement is the best of ``--repeats`` runs, 1 and 2 workers alternating. The figure is the
speed-up ``time(1 worker) / time(2 workers)``: at most 2 on two free cores, less on a machine
that other work keeps busy (the load average is printed). Writes ``bench/results/simulate.json``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import logging
import os
import pathlib
import platform
import time

import tabletop_widgets as tw
from tabletop_widgets.core.game import registered
from common import write_results

PLAYERS = {"mamba": 2, "mamma-mia": 4, "mamma-mia-plus": 6, "mammuz": 4}


def timed(name, players, games, executor, seed=0):
    start = time.perf_counter()
    df = tw.simulate(name, games=games, players=players, seed=seed, executor=executor, progress=False)
    return time.perf_counter() - start, df


def calibrate(name, players, seconds):
    """Games that take one worker about ``seconds`` (measured serially, in this process)."""
    games, spent = 4, 0.0
    while spent < 0.5:
        spent, _ = timed(name, players, games, None, seed=10_000)
        if spent < 0.5:
            games *= 2
    return max(4, round(games * seconds / spent))


class Pools:
    """A process pool and (optionally) a Dask cluster of ``n`` workers, started and warmed."""

    def __init__(self, n, dask):
        self.executors = {"process": concurrent.futures.ProcessPoolExecutor(n)}
        self.cluster = None
        if dask:
            from distributed import Client, LocalCluster

            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                        silence_logs=logging.ERROR)
            self.executors["dask"] = Client(self.cluster)

    def warm(self, name, players, n):
        for executor in self.executors.values():
            tw.simulate(name, games=4 * n, players=players, seed=20_000, executor=executor, progress=False)

    def close(self):
        for kind, executor in self.executors.items():
            executor.shutdown() if kind == "process" else executor.close()
        if self.cluster is not None:
            self.cluster.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="one worker's time per game and executor")
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement (the best counts)")
    parser.add_argument("--no-dask", action="store_true", help="the process pool only")
    parser.add_argument("--games", nargs="*", default=None, help="the games to measure (default: every game)")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "simulate.json"))
    args = parser.parse_args(argv)
    pools = {n: Pools(n, not args.no_dask) for n in (1, 2)}
    doc = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
           "load_before": os.getloadavg()}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cpus")
    try:
        for name in args.games or registered():
            players = PLAYERS.get(name, tw.make(name).players)
            games = calibrate(name, players, args.seconds)
            for n, p in pools.items():
                p.warm(name, players, n)
            row = {"games": games, "players": players}
            for kind in pools[1].executors:
                best = {1: float("inf"), 2: float("inf")}
                tables = {}
                for _ in range(args.repeats):
                    for n in (1, 2):
                        spent, tables[n] = timed(name, players, games, pools[n].executors[kind])
                        best[n] = min(best[n], spent)
                same = tables[1].equals(tables[2])
                row[kind] = {"seconds_1": best[1], "seconds_2": best[2], "speedup": best[1] / best[2],
                             "same_table": bool(same)}
                print(f"{name:15s} {players}p {kind:8s} {games:5d} games: 1 worker {best[1]:6.2f} s, "
                      f"2 workers {best[2]:6.2f} s, speed-up {best[1] / best[2]:.2f}x"
                      + ("" if same else "  (TABLES DIFFER)"))
            doc[f"{name}_{players}p"] = row
    finally:
        for p in pools.values():
            p.close()
    doc["load_after"] = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    write_results(doc, args.out)
    return doc


if __name__ == "__main__":
    main()

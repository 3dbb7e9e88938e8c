"""``tw.simulate`` scaling: 2 workers against 1, for every game, with a process pool and with Dask.

    .venv/bin/python bench/bench_simulate.py [--seconds 4] [--warm 4] [--repeats 5] [--no-dask]

For each game (in the configurations of the other benchmarks) the same seeded games (random
bots) are played by one worker and by two, in a ``concurrent.futures.ProcessPoolExecutor`` and
in a ``dask.distributed`` local cluster of worker processes. One pool is alive at a time, as a
notebook uses one executor: in each of ``--repeats`` rounds the pool of 1 worker and the pool
of 2 are each started, warmed, timed on the round's games and shut down, one after the other,
in an order that alternates from round to round (1 then 2, 2 then 1, …), so that whatever
slows the machine for a minute (other work, the host under a virtual machine) falls on both
sides of a round rather than on one pool's every run. An idle Dask cluster is not idle on two
cores: its scheduler, nannies and workers take some 55 ms of CPU a second with one worker, 105
with two, which a cluster kept beside the one timed would take from a 2-worker run. Pools are
warmed before the clock runs, as in a notebook that reuses its executor: every worker plays
about ``--warm`` seconds of other games. The engines fill caches in each process as they play
(a fresh process plays its first 140 Mamba games some 14% slower, and its caches go on filling
for hundreds more), so a pool warmed by a few games leaves two workers, each with half the
games behind it, colder than one worker that played them all.

The number of games is chosen so that one worker needs about ``--seconds``: games from seed 0
on are first played one by one in this process until their CPU time adds up to that (CPU time,
so that a busy machine does not shrink the sample). Each round plays that many games not played
in the rounds before (round ``r`` from seed ``r × games``), with one worker and with two. The
figure is the speed-up ``time(1 worker) / time(2 workers)`` of the round with the median
speed-up: at most 2 on two free cores, less on a machine that other work keeps busy (the load
average over the last minute is taken before every run and printed). Next to it, the *schedule
bound*: the speed-up that ``tw.simulate``'s chunks allow with two free cores, from the CPU
times of the first round's games (each chunk to the first worker free, as the executors hand
them out), which no other load on the machine changes, and the *work*: the CPU time the workers
spent with 2 against 1 (the same games; above 1 when two workers do more work for them, such as
colder caches), and the speed-up *at equal work*: each round's speed-up times its work ratio,
the median over the rounds. On a virtual machine the CPU itself speeds up and slows down, and
CPU time with it (one process alone played the same 100 MammuZ games in 191 to 364 ms of CPU
time within 40 s, changing over a second or two), so a round's two runs can fall in a slow and
a fast second; this figure takes the CPU's speed out and keeps the time the workers wait (the
schedule, the share of the cores that the client and the Dask scheduler take). Prints a table per game and executor; writes ``bench/results/simulate.json``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import heapq
import logging
import os
import pathlib
import platform
import time

import tabletop_widgets as tw
from tabletop_widgets.analysis import _check_bots, _chunks, play_one
from tabletop_widgets.core.game import make, registered
from common import write_results

# the warm-up's games: far from those measured (seeds 0, 1, …)
WARM_SEED = 10_000_000
PLAYERS = {"mamba": 2, "mamma-mia": 4, "mamma-mia-plus": 6, "mammuz": 4}


def timed(name, players, games, executor, seed=0):
    start = time.perf_counter()
    df = tw.simulate(name, games=games, players=players, seed=seed, executor=executor, progress=False)
    return time.perf_counter() - start, df


def calibrate(name, players, seconds):
    """The CPU time of each game from seed 0 on, played one by one in this process until they
    add up to ``seconds``: the games that one worker then plays (at least 4)."""
    game = make(name, players=players)
    _, factories = _check_bots(game, "random")
    for seed in range(20_000, 20_004):  # imports, caches
        play_one(game, factories, seed)
    cpu, total, seed = [], 0.0, 0
    while total < seconds or seed < 4:
        clock = time.process_time()
        play_one(game, factories, seed)
        cpu.append(time.process_time() - clock)
        total += cpu[-1]
        seed += 1
    return cpu


def schedule_bound(cpu, chunks):
    """time(1 worker) / time(2 workers) of the chunks ``tw.simulate`` sends each pool (``chunks``
    by number of workers), the games taking their CPU times ``cpu`` and each chunk going to
    the first worker free."""
    def makespan(workers):
        free = [0.0] * workers
        for chunk in chunks[workers]:
            heapq.heappush(free, heapq.heappop(free) + sum(cpu[s] for s in chunk))
        return max(free)

    return makespan(1) / makespan(2)


class Pool:
    """``n`` workers of one kind: a process pool or a Dask local cluster of worker processes."""

    def __init__(self, kind, n):
        self.kind, self.cluster = kind, None
        if kind == "process":
            self.executor = concurrent.futures.ProcessPoolExecutor(n)
        else:
            from distributed import Client, LocalCluster

            # the scheduler runs in this process; workers closing with the cluster log harmless errors
            logging.getLogger("distributed").setLevel(logging.CRITICAL)

            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                        silence_logs=logging.CRITICAL)
            self.executor = Client(self.cluster)

    def warm(self, name, players, n, games):
        """Every worker plays about ``games`` games (the same count in every pool)."""
        tw.simulate(name, games=max(4, games) * n, players=players, seed=WARM_SEED, executor=self.executor,
                    progress=False)

    def cpu(self):
        """The CPU seconds the workers have used so far (None where unknown)."""
        if self.kind == "dask":
            return sum(self.executor.run(time.process_time).values())
        try:
            total = 0
            for pid in self.executor._processes:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
            return total / os.sysconf("SC_CLK_TCK")
        except (OSError, AttributeError, ValueError):
            return None

    def close(self):
        if self.kind == "process":
            self.executor.shutdown()
        else:
            self.executor.close()
            self.cluster.close()


def measure(name, players, cpu, kind, args):
    """``--repeats`` rounds of the pools of ``kind``: in each, the pool of 1 worker and the pool
    of 2 (in alternating order), each alone: started, warmed on ``name``, timed on the round's
    games of ``cpu``, shut down."""
    games = len(cpu)
    timings, chunks = {1: [], 2: []}, {}
    for repeat in range(args.repeats):
        for n in (1, 2) if repeat % 2 == 0 else (2, 1):
            pool = Pool(kind, n)
            try:
                pool.warm(name, players, n, round(games * args.warm / args.seconds))
                chunks[n] = _chunks(list(range(games)), None, pool.executor)
                load = os.getloadavg()[0]
                before = pool.cpu()
                spent, table = timed(name, players, games, pool.executor, seed=repeat * games)
                after = pool.cpu()
                timings[n].append((spent, load, None if before is None else after - before, table))
            finally:
                pool.close()
    # round r's 1 worker against its 2 (the same games); the round of the median speed-up
    runs = [{1: one, 2: two} for one, two in zip(timings[1], timings[2])]
    same = all(run[1][3].equals(run[2][3]) for run in runs)
    equal_work = sorted(run[1][0] / run[2][0] * run[2][2] / run[1][2] for run in runs if run[1][2] and run[2][2])
    equal = equal_work[len(equal_work) // 2] if equal_work else None
    runs.sort(key=lambda run: run[1][0] / run[2][0])
    best = runs[len(runs) // 2]
    bound = schedule_bound(cpu, chunks)
    print(f"{name:15s} {players}p {kind:8s} {games:5d} games: 1 worker {best[1][0]:6.2f} s "
          f"(load {best[1][1]:.1f}), 2 workers {best[2][0]:6.2f} s (load {best[2][1]:.1f}), "
          f"speed-up {best[1][0] / best[2][0]:.2f}x, schedule bound {bound:.2f}x, "
          f"workers' CPU {_seconds(best[1][2])} / {_seconds(best[2][2])}, "
          f"at equal work {_times(equal)}"
          + ("" if same else "  (TABLES DIFFER)"))
    return {"seconds_1": best[1][0], "seconds_2": best[2][0], "speedup": best[1][0] / best[2][0],
            "load_1": best[1][1], "load_2": best[2][1], "schedule_bound": bound,
            "same_table": bool(same), "worker_cpu_1": best[1][2], "worker_cpu_2": best[2][2],
            "speedups": [run[1][0] / run[2][0] for run in runs],
            "speedup_equal_work": equal}


def _seconds(x):
    return "?" if x is None else f"{x:.2f} s"


def _times(x):
    return "?" if x is None else f"{x:.2f}x"


def _work(r):
    """The workers' CPU time with 2 workers against 1 (above 1: the same games cost more work)."""
    a, b = r.get("worker_cpu_1"), r.get("worker_cpu_2")
    return f"{b / a:.2f}" if a and b is not None else "?"


def print_table(doc):
    """2 workers against 1, one line per game and executor."""
    print(f"\n{'game':20s} {'executor':8s} {'games':>6s} {'1 worker':>9s} {'2 workers':>10s} {'speed-up':>9s} "
          f"{'bound':>6s} {'work':>5s} {'equal work':>10s} {'load':>10s}")
    for key, row in doc.items():
        if not isinstance(row, dict) or "games" not in row:
            continue
        for kind in ("process", "dask"):
            if kind in row:
                r = row[kind]
                print(f"{key:20s} {kind:8s} {row['games']:6d} {r['seconds_1']:8.2f}s {r['seconds_2']:9.2f}s "
                      f"{r['speedup']:8.2f}x {r['schedule_bound']:5.2f}x {_work(r):>5s} "
                      f"{_times(r.get('speedup_equal_work')):>10s} "
                      f"{r['load_1']:4.1f}/{r['load_2']:<4.1f}"
                      + ("" if r["same_table"] else "  TABLES DIFFER"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="one worker's time per game and executor")
    parser.add_argument("--warm", type=float, default=4.0,
                        help="one worker's time of other games each worker plays before the clock")
    parser.add_argument("--repeats", type=int, default=5, help="rounds per measurement (the median speed-up counts)")
    parser.add_argument("--no-dask", action="store_true", help="the process pool only")
    parser.add_argument("--games", nargs="*", default=None, help="the games to measure (default: every game)")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "simulate.json"))
    args = parser.parse_args(argv)
    doc = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
           "load_before": os.getloadavg()}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cpus")
    games = {}  # per game: its players and the CPU time of each game one worker plays
    for name in args.games or registered():
        players = PLAYERS.get(name, tw.make(name).players)
        cpu = calibrate(name, players, args.seconds)
        games[name] = players, cpu
        doc[f"{name}_{players}p"] = {"games": len(cpu), "players": players, "cpu_seconds": sum(cpu),
                                     "longest_game": max(cpu)}
    for kind in ("process",) if args.no_dask else ("process", "dask"):
        for name, (players, cpu) in games.items():
            doc[f"{name}_{players}p"][kind] = measure(name, players, cpu, kind, args)
    doc["load_after"] = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print_table(doc)
    write_results(doc, args.out)
    return doc


if __name__ == "__main__":
    main()

"""The command line: ``python -m tabletop_widgets`` (or ``tabletop-widgets``).

    tabletop-widgets games
    tabletop-widgets simulate mamba --games 100 --players 2 --bots random,greedy --out results.csv
    tabletop-widgets replay game.json --html game.html --seat 0 --steps 5:20
    tabletop-widgets replay game.json --svg last.svg --seat 1

Errors print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Optional, Sequence

PROG = "tabletop-widgets"


class UsageError(ValueError):
    """A command line that cannot be run as given."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Rules engines, simulations and replays of Mamma Mia!, Mamba and MammuZ.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                        help="import MODULE first (a module that registers more games); repeatable")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    commands.add_parser("games", help="list the games, their player counts, options and bots")

    sim = commands.add_parser(
        "simulate", help="play many games between bots; write one row per game to CSV or Parquet",
        description="Play many games between bots (tw.simulate) and write one row per game.")
    sim.add_argument("game", help="a game name (see the 'games' command)")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--players", type=int, default=None, help="number of seats (default: the game's)")
    sim.add_argument("--bots", default="random",
                     help="one bot name for every seat, or one per seat separated by commas (default random)")
    sim.add_argument("--seed", type=int, default=0, help="game i is dealt with seed SEED+i (default 0)")
    sim.add_argument("--max-steps", type=int, default=None, help="stop a game after this many actions")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a rules switch, e.g. --option isolation=cross; VALUE is read as JSON "
                          "(true, 3, \"text\") or else as text; repeatable")
    sim.add_argument("--workers", type=int, default=1, help="processes to play in (default 1: this one)")
    sim.add_argument("--out", default=None, metavar="FILE",
                     help="write the table to FILE.csv or FILE.parquet (default: print a summary only)")
    sim.add_argument("--quiet", action="store_true", help="no progress on stderr")

    rep = commands.add_parser(
        "replay", help="turn a saved replay (JSON) into a standalone HTML page or a picture",
        description="Load a replay saved by Match.save/to_json, check every action, and write HTML "
                    "(a replay that plays with no kernel) and/or SVG (a picture of the last step).")
    rep.add_argument("file", help="the replay JSON file")
    rep.add_argument("--html", default=None, metavar="OUT", help="the HTML file to write")
    rep.add_argument("--svg", default=None, metavar="OUT", help="the SVG picture to write (the last step shown)")
    rep.add_argument("--seat", type=int, default=None,
                     help="show the game as this seat sees it (default: the all-seeing view)")
    rep.add_argument("--steps", default=None, metavar="FIRST:LAST",
                     help="keep the steps FIRST to LAST (inclusive; default: all); the picture shows LAST")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the error (status 2) or help (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.version:
            from . import __version__

            print(f"{PROG} {__version__}")
            return 0
        for module in args.imports:
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise UsageError(f"--import {module}: {exc}") from None
        if args.command is None:
            parser.print_usage(sys.stderr)
            raise UsageError("give a command: games, simulate or replay")
        return {"games": _games, "simulate": _simulate, "replay": _replay}[args.command](args)
    except BrokenPipeError:  # the reader stopped early (| head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, ImportError, NotImplementedError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


# games ---------------------------------------------------------------------------------------
def _games(args) -> int:
    from .core.bots import for_game
    from .core.game import game_class, registered

    names = registered()
    if not names:
        print("no games are installed")
    for name in names:
        cls = game_class(name)
        counts = (f"{cls.min_players} players" if cls.min_players == cls.max_players
                  else f"{cls.min_players}-{cls.max_players} players, default {cls.default_players}")
        print(f"{name}  ({counts})")
        for key, opt in cls.OPTIONS.items():
            allowed = (opt.allowed_text() if callable(opt.allowed)
                       else ", ".join(flag_value(a) for a in opt.allowed))
            print(f"    --option {key}=VALUE  (default {flag_value(opt.default)}; allowed: {allowed})")
            if opt.doc:
                print(f"        {opt.doc}")
        print(f"    bots: {', '.join(for_game(name))}")
    return 0


def flag_value(value) -> str:
    """``value`` written as ``--option KEY=VALUE`` reads it back: JSON (true, null, 3), and text
    bare unless bare text would read as something else ("3" stays quoted)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except json.JSONDecodeError:
            if value not in ("True", "False", "None"):
                return value
    return json.dumps(value)


# simulate ------------------------------------------------------------------------------------
def _option(text: str):
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--option {text!r}: write KEY=VALUE, e.g. --option isolation=cross")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = {"True": True, "False": False, "None": None}.get(raw, raw)
    return key.strip(), value


def _out_format(path: Optional[str]) -> Optional[str]:
    if path is None:
        return None
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csv":
        return "csv"
    if ext in (".parquet", ".pq"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError(
                "writing Parquet needs pyarrow (pip install 'tabletop_widgets[analysis]'); "
                f"or write CSV instead: --out {os.path.splitext(path)[0]}.csv"
            ) from None
        return "parquet"
    raise UsageError(f"--out {path!r}: the file name must end in .csv or .parquet")


def _simulate(args) -> int:
    from .analysis import simulate

    fmt = _out_format(args.out)
    options = dict(_option(o) for o in args.option)
    bots = [b.strip() for b in args.bots.split(",")]
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    kwargs = dict(games=args.games, players=args.players, bots=bots[0] if len(bots) == 1 else bots,
                  seed=args.seed, max_steps=args.max_steps, progress=not args.quiet, **options)
    if args.workers == 1:
        df = simulate(args.game, **kwargs)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.workers) as pool:
            df = simulate(args.game, executor=pool, **kwargs)
    if fmt is not None:
        _write(df, args.out, fmt)
    print(_summary(df) + (f"\nwrote {len(df)} games to {args.out}" if fmt else ""))
    return 0


def _write(df, path: str, fmt: str) -> None:
    """Winners and scores as JSON lists in CSV (one cell each), as list columns in Parquet."""
    out = df.copy()
    if fmt == "csv":
        for column in ("bots", "winners", "scores"):
            out[column] = [json.dumps(list(v)) for v in out[column]]
        out.to_csv(path, index=False)
    else:
        for column in ("bots", "winners", "scores"):
            out[column] = [list(v) for v in out[column]]
        out.to_parquet(path, index=False)


def _summary(df) -> str:
    game, players = df.attrs["game"], df.attrs["players"]
    bots = df.attrs["bots"]
    lines = [f"{game}: {len(df)} games, {players} players, bots {', '.join(bots)}"]
    if len(df):
        finished = df[df["finished"]]
        lines.append(f"finished {len(finished)}/{len(df)}; mean steps {df['steps'].mean():.1f}")
        for seat in range(players):
            wins = sum(seat in w for w in finished["winners"])
            share = wins / len(finished) if len(finished) else 0.0
            lines.append(f"  seat {seat} ({bots[seat]}): won {wins} ({share:.1%})")
    return "\n".join(lines)


# replay --------------------------------------------------------------------------------------
def _replay(args) -> int:
    from .core.match import Match

    if args.html is None and args.svg is None:
        raise UsageError("replay writes --html OUT, --svg OUT or both; neither was given")
    match = Match.load(args.file)  # ReplayError (a ValueError) names the bad step
    if args.seat is not None and not 0 <= args.seat < match.game.players:
        raise UsageError(f"--seat must be from 0 to {match.game.players - 1} for this replay, got {args.seat}")
    steps = None
    if args.steps is not None:
        first, _, last = args.steps.partition(":")
        if not (first.isdigit() and last.isdigit() and int(first) <= int(last) <= len(match)):
            raise UsageError(f"--steps must be FIRST:LAST with 0 <= FIRST <= LAST <= {len(match)}, got {args.steps!r}")
        steps = (int(first), int(last))
    if args.svg is not None:
        picture = match.svg(args.seat, step=len(match) if steps is None else steps[1])
        with open(args.svg, "w", encoding="utf-8") as fh:
            fh.write(picture)
        print(f"wrote {args.svg}: step {len(match) if steps is None else steps[1]} of {match.game.name}")
    if args.html is None:
        return 0
    try:
        importlib.import_module(f"{__package__}.html")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.html":
            raise
        raise UsageError("HTML export is not available in this installation (tabletop_widgets.html is missing)") from None
    match.to_html(args.html, seat=args.seat, steps=steps)
    print(f"wrote {args.html}: {len(match)} actions of {match.game.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

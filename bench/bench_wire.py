"""What a widget sends and keeps: bytes per action, the cost of a reload, frame memory.

    .venv/bin/python bench/bench_wire.py [--games 3] [--out bench/results/wire.json]

For full games played by random bots (6-player Mamma Mia Plus and 2-player Mamba), a widget
at seat 0 (Plus) or the all-seeing view (Mamba) records every message and state update it
sends, as JSON bytes:

- bytes per action: the mean over the game, and over its first and last thirds (early, late);
  for actions played from Python, and for a Plus game played by clicks at seat 0 against five
  bots (each click answered with the bots' turns, then the kernel's post_execute, as in JupyterLab);
- a reload: the kernel time of answering ``hello`` on the finished game, as a ratio against
  replaying the same game from JSON (``Match.from_json``) in the same run;
- memory (tracemalloc): every seat's frames of a finished Plus game, with the widget's
  encodings, against the match's states alone.

Writes ``bench/results/wire.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import platform
import random
import statistics
import time
import tracemalloc

import tabletop_widgets as tw


def size(content) -> int:
    return len(json.dumps(content, separators=(",", ":")))


def counting(w):
    """Count the JSON bytes of everything ``w`` sends (custom messages and state updates)."""
    w.sent_bytes = 0

    def _send(msg, buffers=None):
        w.sent_bytes += size(msg)

    w._send = _send
    return w


def play_out(match, rng, widget, limit=5000):
    """Random actions to the end; the bytes each action cost the widget."""
    per_action = []
    while not match.state.is_over and len(per_action) < limit:
        before = widget.sent_bytes
        match.play(rng.choice(match.state.legal_actions()))
        per_action.append(widget.sent_bytes - before)
    return per_action


def bytes_per_action(name, players, seat, seed):
    rng = random.Random(seed)
    match = tw.Match(name, seed=seed, players=players)
    w = counting(tw.widget(match, seat=seat))
    per_action = play_out(match, rng, w)
    third = max(1, len(per_action) // 3)
    return match, w, {
        "actions": len(per_action),
        "mean": statistics.fmean(per_action),
        "early": statistics.fmean(per_action[:third]),
        "late": statistics.fmean(per_action[-third:]),
    }


def bytes_per_click(seed):
    """Seat 0 of a 6-player Plus game plays from the browser against five random bots."""
    from tabletop_widgets.core import widget as widget_module

    rng = random.Random(seed)
    match = tw.Match("mamma-mia-plus", seed=seed, players=6)
    w = counting(tw.widget(match, seat=0, bots={seat: "random" for seat in range(1, 6)}))
    per_action, clicks = [], 0
    while not match.state.is_over:
        before, steps = w.sent_bytes, len(match)
        action = rng.choice(match.state.legal_actions())
        clicks += 1  # the page's id for its play, which the answers echo (the page's are this long)
        w._handle_custom_msg({"type": "play", "action": str(action), "step": match.cursor, "id": f"k3x9a{clicks}"}, [])
        widget_module._send_current_behind()  # what IPython runs after each comm message
        played = len(match) - steps
        per_action += [(w.sent_bytes - before) / played] * played
    third = max(1, len(per_action) // 3)
    return {"actions": len(per_action), "mean": statistics.fmean(per_action),
            "early": statistics.fmean(per_action[:third]), "late": statistics.fmean(per_action[-third:])}


def reload_ratio(match, w, repeats=5):
    text = match.to_json()
    hello, replay = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        w._handle_custom_msg({"type": "hello"}, [])
        hello.append(time.perf_counter() - t)
        t = time.perf_counter()
        tw.Match.from_json(text)
        replay.append(time.perf_counter() - t)
    before = w.sent_bytes
    w._handle_custom_msg({"type": "hello"}, [])
    return {"hello_ms": 1000 * min(hello), "replay_ms": 1000 * min(replay),
            "ratio": min(hello) / min(replay), "hello_bytes": w.sent_bytes - before}


def memory(seed):
    """MB held by every seat's frames of a finished 6-player Plus game, and by its states."""
    rng = random.Random(seed)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    match = tw.Match("mamma-mia-plus", seed=seed, players=6)
    while not match.state.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    gc.collect()
    states = tracemalloc.get_traced_memory()[0] - base
    widgets = []
    for seat in [None, *range(6)]:
        widgets.append(counting(tw.widget(match, seat=seat)))
    gc.collect()
    total = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    frames = total - states
    return {"states_mb": states / 1e6, "frames_mb": frames / 1e6, "frames_over_states": frames / states}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results" / "wire.json"))
    args = parser.parse_args()
    results = {"python": platform.python_version()}
    for label, name, players, seat in (("plus", "mamma-mia-plus", 6, 0), ("mamba", "mamba", 2, None)):
        rows, reloads = [], []
        for seed in range(args.games):
            match, w, row = bytes_per_action(name, players, seat, seed)
            rows.append(row)
            reloads.append(reload_ratio(match, w))
        summary = {key: statistics.fmean(r[key] for r in rows) for key in ("actions", "mean", "early", "late")}
        summary["late_over_early"] = summary["late"] / summary["early"]
        summary.update({key: statistics.fmean(r[key] for r in reloads) for key in reloads[0]})
        results[label] = summary
        print(f"{label:6} bytes/action: mean {summary['mean'] / 1000:6.2f} KB, early {summary['early'] / 1000:6.2f} KB, "
              f"late {summary['late'] / 1000:6.2f} KB (late/early {summary['late_over_early']:.2f}) over "
              f"{summary['actions']:.0f} actions; reload {summary['hello_ms']:.1f} ms = "
              f"{summary['ratio']:.2f}x a JSON replay ({summary['replay_ms']:.1f} ms), {summary['hello_bytes'] / 1e6:.2f} MB")
    rows = [bytes_per_click(seed) for seed in range(args.games)]
    clicks = {key: statistics.fmean(r[key] for r in rows) for key in ("actions", "mean", "early", "late")}
    clicks["late_over_early"] = clicks["late"] / clicks["early"]
    results["plus_clicks"] = clicks
    print(f"plus, played by clicks at seat 0 against bots: mean {clicks['mean'] / 1000:6.2f} KB, early "
          f"{clicks['early'] / 1000:6.2f} KB, late {clicks['late'] / 1000:6.2f} KB (late/early "
          f"{clicks['late_over_early']:.2f}) over {clicks['actions']:.0f} actions")
    results["memory"] = memory(0)
    m = results["memory"]
    print(f"memory: every seat's frames of a 6-player Plus game {m['frames_mb']:.1f} MB "
          f"({m['frames_over_states']:.1f}x the match's states, {m['states_mb']:.2f} MB)")
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

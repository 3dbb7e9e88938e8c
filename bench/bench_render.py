"""What a frame costs the browser, measured in the same headless Chromium run as a minimal
chess-board replay.

    .venv/bin/python bench/bench_render.py [--rounds 5]

Standalone replays step through every frame with the timeline's slider: a 6-player Mamma Mia!
Plus game as seat 0 sees it (and as the all-seeing view), a 4-player Mamba game, a 6-player
MammuZ game (all-seeing), and a minimal chess-board replay in the same timeline (64 squares,
one frame per move of a fixed 200-move game, squares updated in place). Per frame, script (the
slider's input handler: the timeline and the renderer) and layout (forced right after) are
timed with ``performance.now()``. The walk draws frames back to back, as a dragged slider does:
the cards that fly into place when a game is played at a pace (frames at least 100 ms apart)
do not fly in a scrub, so no flight is timed. The pages take turns, round after round, so that a busy
machine slows them alike, and each frame keeps its best round. Chromium's own accounting
(the DevTools Performance domain) splits the same walk into script, style and layout. The pages
are served from a local server that makes them cross-origin isolated (COOP and COEP headers):
only then does Chromium's ``performance.now()`` step in 5 µs instead of 100 µs, which, with each
frame keeping its best round, would round a 0.3 ms frame down far more than a 1 ms one. Prints
the ratios to the chess board and writes them, with the load average before and after the
run (a busy machine makes every figure larger), through ``bench/common.py`` to
``bench/results/render.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import os
import pathlib
import platform
import random
import sys
import tempfile
import threading

import tabletop_widgets as tw

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from common import write_results  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# The baseline: a chess board of 64 squares played by the same shared timeline (the generic
# bundle's mountStatic with a renderer of its own): a frame sets the text of the squares that
# changed. What the games' renderers add is measured against it.
CHESS_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font-family: system-ui, sans-serif; margin: 16px; }
.board { display: grid; grid-template-columns: repeat(8, 48px); grid-template-rows: repeat(8, 48px); border: 1px solid #333; width: max-content; }
.sq { display: flex; align-items: center; justify-content: center; font-size: 32px; }
.sq.d { background: #b58863; } .sq.l { background: #f0d9b5; }
</style></head><body><div id="replay"></div>
<script>__BUNDLE__</script>
<script>
function mountChess(boardEl) {
  const board = document.createElement('div');
  board.className = 'board';
  const squares = [];
  for (let i = 0; i < 64; i++) {
    const sq = document.createElement('div');
    sq.className = 'sq ' + ((Math.floor(i / 8) + i) % 2 ? 'd' : 'l');
    board.append(sq);
    squares.push(sq);
  }
  boardEl.append(board);
  return {
    update(frame) {
      const cells = frame.view.board;
      for (let k = 0; k < 64; k++) if (squares[k].textContent !== cells[k]) squares[k].textContent = cells[k];
    },
    destroy() { board.remove(); },
  };
}
TabletopWidget.default.mountStatic(document.getElementById('replay'),
  {name: 'chess', frames: __FRAMES__, seatNames: ['White', 'Black'], seat: null, mount: mountChess});
</script></body></html>"""

WALK = """() => {
  const root = document.querySelector('.tw-root');
  const slider = root.querySelector('.tw-slider');
  const n = Number(slider.max);
  const script = [], layout = [];
  for (let i = 0; i <= n; i++) {
    const t0 = performance.now();
    slider.value = i;
    slider.dispatchEvent(new Event('input'));
    const t1 = performance.now();
    void root.getBoundingClientRect().height;
    const t2 = performance.now();
    script.push(t1 - t0);
    layout.push(t2 - t1);
  }
  return {script, layout, nodes: root.querySelectorAll('*').length};
}"""

# Chromium's cumulative durations (seconds) of the page's main thread.
METRICS = {"script": "ScriptDuration", "style": "RecalcStyleDuration", "layout": "LayoutDuration"}


def chess_frames(moves: int = 200, seed: int = 0) -> list[dict]:
    """A fixed random walk of pieces on a board: one frame per move (no rules needed to draw)."""
    rng = random.Random(seed)
    board = list("♜♞♝♛♚♝♞♜♟♟♟♟♟♟♟♟") + [""] * 32 + list("♙♙♙♙♙♙♙♙♖♘♗♕♔♗♘♖")
    frame = lambda step, caption: {"step": step, "sub": 0, "caption": caption, "kind": "move", "data": {},
                                   "view": {"board": list(board)}, "last": True}
    frames = [frame(0, "Set-up.")]
    for k in range(moves):
        src = rng.choice([i for i, p in enumerate(board) if p])
        dst = rng.randrange(64)
        board[dst], board[src] = board[src], ""
        frames.append(frame(k + 1, f"Move {k + 1}: {src} to {dst}."))
    return frames


def game_replay(directory: pathlib.Path, name: str, players: int, seat, max_steps: int = 400) -> pathlib.Path:
    m = tw.Match(name, seed=3, players=players)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(players)}, max_steps=max_steps)
    path = directory / f"{name}-{players}-{seat}.html"
    m.to_html(path, seat=seat)
    return path


def plus_replay(directory: pathlib.Path, seat) -> pathlib.Path:
    return game_replay(directory, "mamma-mia-plus", 6, seat)


class IsolatedPages(http.server.SimpleHTTPRequestHandler):
    """Serves the pages cross-origin isolated, so that their timer steps in 5 µs, not 100 µs."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory: pathlib.Path):
    """A local server of `directory`'s pages; yields the URL of a file name."""
    handler = functools.partial(IsolatedPages, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield lambda name: f"http://127.0.0.1:{server.server_port}/{name}"
    finally:
        server.shutdown()
        server.server_close()


def measure(browser, pages: dict, rounds: int, url) -> dict:
    """Walk every page `rounds` times, the pages taking turns; each frame keeps its best round."""
    opened = {}
    try:
        for name, path in pages.items():
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url(path.name))
            page.wait_for_selector(".tw-root .tw-board *")
            if not page.evaluate("crossOriginIsolated"):
                raise RuntimeError(f"{name}: the page is not cross-origin isolated, so its timer is coarse")
            page.evaluate(WALK)  # warm-up: the code compiled, every node built once
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            opened[name] = (page, cdp)
        walks = {name: [] for name in pages}
        for _ in range(rounds):
            for name, (page, cdp) in opened.items():
                before = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                walk = page.evaluate(WALK)
                after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                walk["chromium"] = {k: (after[m] - before[m]) * 1000 / len(walk["script"]) for k, m in METRICS.items()}
                walks[name].append(walk)
    finally:
        for page, _ in opened.values():
            page.close()
    results = {}
    for name, runs in walks.items():
        frames = len(runs[0]["script"])
        best = [min(range(len(runs)), key=lambda r: runs[r]["script"][i] + runs[r]["layout"][i]) for i in range(frames)]
        script = sum(runs[r]["script"][i] for i, r in enumerate(best)) / frames
        layout = sum(runs[r]["layout"][i] for i, r in enumerate(best)) / frames
        quiet = min(runs, key=lambda w: sum(w["chromium"].values()))["chromium"]
        results[name] = {"frames": frames, "script_ms": script, "layout_ms": layout, "total_ms": script + layout,
                         "nodes": runs[0]["nodes"], "chromium_ms": quiet}
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        directory = pathlib.Path(tmp)
        chess = directory / "chess.html"
        from tabletop_widgets.core.widget import STATIC

        bundle = (STATIC / "generic.standalone.js").read_text(encoding="utf-8")  # the generic renderer's
        chess.write_text(CHESS_PAGE.replace("__FRAMES__", json.dumps(chess_frames(), ensure_ascii=False))
                         .replace("__BUNDLE__", bundle.replace("</script", "<\\/script")), encoding="utf-8")
        pages = {"chess board (baseline)": chess, "Plus, 6 players, seat 0": plus_replay(directory, 0),
                 "Plus, 6 players, all-seeing": plus_replay(directory, None),
                 "Mamba, 4 players": game_replay(directory, "mamba", 4, None),
                 "MammuZ, 6 players, all-seeing": game_replay(directory, "mammuz", 6, None)}
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            with serve(directory) as url:
                results = measure(browser, pages, args.rounds, url)
        finally:
            browser.close()
    base = results["chess board (baseline)"]["total_ms"]
    print(f"{'replay':32} {'frames':>6} {'script ms':>10} {'layout ms':>10} {'total ms':>9} {'× chess':>8} {'nodes':>6}"
          f"   Chromium: {'script':>6} {'style':>6} {'layout':>6}")
    for name, r in results.items():
        r["ratio"] = r["total_ms"] / base if base else float("inf")
        c = r["chromium_ms"]
        print(f"{name:32} {r['frames']:6d} {r['script_ms']:10.2f} {r['layout_ms']:10.2f} {r['total_ms']:9.2f} "
              f"{r['ratio']:8.2f} {r['nodes']:6d}             {c['script']:6.2f} {c['style']:6.2f} {c['layout']:6.2f}")
    load_after = os.getloadavg()[0]
    print(f"load average: {load_before:.1f} before, {load_after:.1f} after")
    write_results({"python": sys.version.split()[0], "platform": platform.platform(), "load_before": load_before,
                   "load_after": load_after, "results": results}, pathlib.Path(__file__).with_name("results") / "render.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Click → Python → rendered reply, in a real JupyterLab, with and without tabletop_widgets.nodelay.

    ./dev bench latency [--clicks 200] [--rounds 20] [--out bench/results/latency.json]

Starts two JupyterLab servers from this environment at once: one as installed (the server
extension ``tabletop_widgets.nodelay`` on: TCP no-delay on kernel websockets) and one with the
extension disabled in that server's own config. In each, headless Chromium opens a notebook
with three widgets and times, in the page (``performance.now()``), ``--clicks`` round trips of
each:

- ``bare``: a bare anywidget: a button click sets a trait, Python answers by setting another,
  the page writes it into the DOM (the floor any widget library pays);
- ``mamba``: the click on a Mamba destination → the move drawn (the timeline's step changes);
- ``mamma-mia``: the click that plays a Mamma Mia turn (a decision's answer, or "Play turn"
  after picking cards) against a bot → the turn drawn;
- ``mamba-draw``, ``mamma-mia-draw``: the timeline's previous / next frame buttons, which
  redraw the board with no kernel message: the page's own share of a move.

The clicks are taken in ``--rounds`` rounds (by default ten clicks of each kind a round), the
two servers and the kinds taking turns, so a machine whose load changes during the run weighs on
both servers and every kind alike: a slow spell falls on a few clicks of each kind, not on one
kind's block of fifty (whose p95 it would make alone). The load average is sampled with each
round.
Prints p50 / p95 per server side by side with each p95 as a ratio to the same server's bare
round trip, the Mamma Mia turns split by the frames their answers carried (an oven evaluation
is ten or more: in the move's own step, which follows the move drawn, or in the bots' answers,
which follow it too), the goals (with the extension: our move's p50 ≤ 15 ms and p95 ≤ 1.5× the bare
round trip's p95), and writes the figures through ``bench/common.py``
(``bench/results/latency.json``). About three minutes on an idle two-core machine.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time
from typing import Optional

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

from common import write_results  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, LabServer, Session  # noqa: E402

from tabletop_widgets.nodelay import ACTIVE, NAME  # noqa: E402

KINDS = {
    "bare": ("bare anywidget", ".jp-OutputArea-output:has(.echo-button)"),
    "mamba": ("Mamba move", ".tw-root:has(svg.mamba-board)"),
    "mamma-mia": ("Mamma Mia turn", ".tw-root:has(.mm-root)"),
    "mamba-draw": ("Mamba redraw", ".tw-root:has(svg.mamba-board)"),
    "mamma-mia-draw": ("Mamma Mia redraw", ".tw-root:has(.mm-root)"),
}
GOAL_P50_MS = 15
GOAL_P95_RATIO = 1.5
LOST_MS = 5000  # a click with no answer after this long is counted as lost

CELLS = [
    '''import anywidget, traitlets
import tabletop_widgets as tw

class Echo(anywidget.AnyWidget):
    _esm = """export default { render({ model, el }) {
        const button = document.createElement("button");
        button.className = "echo-button"; button.textContent = "ping";
        const out = document.createElement("span");
        out.className = "echo-out"; out.textContent = "0";
        button.addEventListener("click", () => { model.set("ping", model.get("ping") + 1); model.save_changes(); });
        model.on("change:pong", () => { out.textContent = String(model.get("pong")); });
        el.append(button, out);
    } }"""
    ping = traitlets.Int(0).tag(sync=True)
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _answer(self, change):
        self.pong = change["new"]

echo = Echo()
echo''',
    '''mamba = tw.widget(tw.Match("mamba", seed=1), settings={"animate": False})
mamba''',
    '''mia = tw.widget(tw.Match("mamma-mia", seed=1, players=2), seat=0, bots={1: "random"}, settings={"animate": False})
mia''',
]

# One timed click: `act(root)` clicks (after any untimed preparation) and returns true, or
# returns false when nothing can be played (the game is over: Python starts a new one).
LOOP_JS = """async ([selector, clicks, kind]) => {
    const root = () => document.querySelector(selector);
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    // A person's pace: what the untimed preparation drew (a stone picked, cards chosen) is on
    // screen before the timed click, as it is when a person clicks.
    const pause = () => sleep(30 + Math.random() * 20);
    const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    // When `read()` first differs from `before`, or null after LOST_MS (a click that got no
    // answer is counted as lost, not waited for).
    const changed = (read, before) => new Promise((resolve) => {
        const done = (value) => { observer.disconnect(); clearTimeout(timer); resolve(value); };
        const check = () => { if (read() !== before) { done(performance.now()); return true; } return false; };
        const observer = new MutationObserver(check);
        const timer = setTimeout(() => done(null), LOST_MS);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        check();
    });
    // The kernel has answered the whole click (its status goes back to idle after its messages).
    const settled = async () => {
        for (const end = performance.now() + LOST_MS; kernel.status !== "idle" && performance.now() < end;) await sleep(1);
    };
    const lost = [];
    const time = (at, t0) => (at === null ? lost.push(kind) : times.push(at - t0));
    const restart = async (code) => { await kernel.requestExecute({ code, store_history: false }).done; await sleep(300); };
    const times = [];
    const frames = [];
    let guard = 0;
    while (times.length < clicks && guard++ < clicks * 20) {
        const r = root();
        if (kind.endsWith("-draw")) {
            const step = () => r.querySelector(".tw-step").textContent;
            const button = r.querySelector(times.length % 2 ? ".tw-next" : ".tw-prev");
            const before = step();
            await pause();
            const t0 = performance.now();
            click(button);
            time(await changed(step, before), t0);
            continue;
        }
        if (kind === "bare") {
            const out = r.querySelector(".echo-out");
            const before = out.textContent;
            await pause();
            const t0 = performance.now();
            click(r.querySelector(".echo-button"));
            time(await changed(() => out.textContent, before), t0);
            continue;
        }
        const step = () => r.querySelector(".tw-step").textContent;
        let target = null;
        if (kind === "mamba") {
            // A trim when the board asks for one; else a stone and one of its destinations (or,
            // for a parent, the cells of its birth; a second click on it offers its moves).
            const pick = (list) => list[Math.floor(Math.random() * list.length)] || null;
            const cells = (cls) => [...r.querySelectorAll(`svg.mamba-board [data-cell].${cls}`)];
            target = pick(cells("trim-end"));
            const stones = cells("pickable").sort(() => Math.random() - 0.5);
            for (const stone of target ? [] : stones) {
                click(stone);
                target = pick([...cells("dest"), ...cells("birth-target")]);
                if (target) break;
                click(stone);
                target = pick(cells("dest"));
                if (target) break;
            }
            if (!target) { await restart("mamba.match = tw.Match('mamba')"); continue; }
        } else {
            const answers = [...r.querySelectorAll("button[data-action='play']:not(:disabled)")];
            if (answers.length) target = answers[Math.floor(Math.random() * answers.length)];
            else {
                // Compose a turn as a player does: cards, then where to draw from, until it is legal.
                const ready = () => r.querySelector("[data-action='play-turn']:not(:disabled)");
                for (const card of r.querySelectorAll(".mm-hand-group button:not(:disabled)")) {
                    if (ready()) break;
                    click(card);
                    for (const source of r.querySelectorAll("[data-action='source']:not(:disabled)")) {
                        if (ready()) break;
                        click(source);
                    }
                }
                target = ready();
            }
            if (!target) { await restart("mia.match = tw.Match('mamma-mia', players=2)"); continue; }
        }
        const before = step();
        // The log holds one entry per frame: how many frames the answer carried.
        const held = r.querySelector(".tw-log").children.length;
        await pause();
        const t0 = performance.now();
        click(target);
        const at = await changed(step, before);
        // The frames of the move's own step, as its counter reads them ("· 1/14"): a move whose
        // step has more frames is drawn before the rest of its step comes, and counts them.
        const count = /·\s*\d+\/(\d+)/.exec(step());
        const withMove = count ? Number(count[1]) : 1;
        if (at === null) {
            lost.push(kind);
            await restart(kind === "mamba" ? "mamba.match = tw.Match('mamba')" : "mia.match = tw.Match('mamma-mia', players=2)");
            continue;
        }
        times.push(at - t0);
        // The bots' answers may follow the move (after the click's time is taken): the next
        // click waits for the whole answer, as a person waits for their turn.
        await settled();
        frames.push([withMove, r.querySelector(".tw-log").children.length - held]);
    }
    // A redraw block that stopped a frame back (an odd number of clicks) leaves the widget at its
    // live end again: the next block of moves plays there, not a new game.
    const last = kind.endsWith("-draw") && root().querySelector(".tw-last:not(:disabled)");
    if (last) click(last);
    return { times, frames, lost: lost.length };
}"""


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def notebook(path: pathlib.Path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def open_page(browser, server: LabServer):
    name = server.copy_notebook(server.base / "latency.ipynb", "latency.ipynb")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(120_000)
    page = context.new_page()
    Session(page, server, name).open().run_all()
    page.locator(".echo-button").wait_for()
    page.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
    page.locator(".mm-root").first.wait_for()
    return context, page


def clicks_of(page, kind: str, clicks: int, lost: dict, carried: Optional[dict] = None) -> list:
    """``clicks`` timed clicks of ``kind`` (ms); a click unanswered after LOST_MS counts in ``lost``.
    ``carried`` (a move's clicks) gets each time under the numbers of frames its answer carried:
    its own step's (as the step's counter reads when the move is drawn: the move may come ahead
    of the rest of its step), and all once the bots had answered."""
    got = page.evaluate(LOOP_JS.replace("LOST_MS", str(LOST_MS)), [KINDS[kind][1], clicks, kind])
    times = got["times"]
    lost[kind] = lost.get(kind, 0) + got["lost"]
    if not times:
        shot = pathlib.Path(tempfile.gettempdir()) / f"tw-latency-{kind}.png"
        page.screenshot(path=str(shot))
        raise RuntimeError(f"no {kind} click got an answer (screenshot: {shot})")
    if carried is not None:
        for ms, n in zip(times, got["frames"]):
            carried.setdefault(tuple(n), []).append(ms)
    return times


#: A Mamma Mia answer carrying this many frames or more holds an oven evaluation.
MANY_FRAMES = 10


def by_frames(carried: dict) -> dict:
    """A move's clicks split by the frames their answers carried: fewer than MANY_FRAMES in all,
    MANY_FRAMES or more in the move's own step (the player emptied the oven), or only in the bots'
    answers that followed it."""
    groups = {f"under {MANY_FRAMES} frames": [], f"{MANY_FRAMES} frames or more in the move's step": [],
              f"{MANY_FRAMES} frames or more in the bots' answers only": []}
    labels = list(groups)
    for (with_move, total), times in carried.items():
        label = labels[1] if with_move >= MANY_FRAMES else labels[2] if total >= MANY_FRAMES else labels[0]
        groups[label].extend(times)
    return {label: figures(times) if times else None for label, times in groups.items()}


def figures(times: list) -> dict:
    return {"clicks": len(times), "p50": percentile(times, 50), "p95": percentile(times, 95),
            "mean": statistics.fmean(times), "max": max(times)}


def table(results: dict) -> list:
    """The side-by-side table: each server's p50 / p95 and p95 as a ratio to its bare p95."""
    sides = ("on", "off")
    lines = [f"{'(ms)':18}" + "".join(f"{'extension ' + side:>30}" for side in sides),
             f"{'':18}" + f"{'p50':>10}{'p95':>9}{'p95/bare':>11}" * len(sides)]
    for kind, (label, _) in KINDS.items():
        row = f"{label:18}"
        for side in sides:
            f = results[side][kind]
            ratio = f["p95"] / results[side]["bare"]["p95"]
            row += f"{f['p50']:>10.1f}{f['p95']:>9.1f}{ratio:>10.2f}x"
        lines.append(row)
    return lines


def goals(results: dict) -> dict:
    on = results["on"]
    out = {}
    for kind in ("mamba", "mamma-mia"):
        ratio = on[kind]["p95"] / on["bare"]["p95"]
        out[kind] = {"p50_ms": on[kind]["p50"], "p50_ok": on[kind]["p50"] <= GOAL_P50_MS,
                     "p95_ratio": ratio, "p95_ok": ratio <= GOAL_P95_RATIO}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200, help="timed clicks per kind and server")
    parser.add_argument("--rounds", type=int, default=20, help="the servers and the kinds take turns this many times")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "latency.json"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    configs = {"on": None, "off": {"ServerApp": {"jpserver_extensions": {NAME: False}}}}
    times = {side: {kind: [] for kind in KINDS} for side in configs}
    loads = []
    lost = {side: {} for side in configs}
    carried = {side: {} for side in configs}  # Mamma Mia: frames an answer carried → its times
    with tempfile.TemporaryDirectory(prefix="tw-latency-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        servers, pages, contexts = {}, {}, []
        try:
            for side, config in configs.items():
                (pathlib.Path(tmp) / side).mkdir()
                servers[side] = LabServer(pathlib.Path(tmp) / side, server_config=config).start()
                notebook(servers[side].base / "latency.ipynb")
            for side, server in servers.items():
                context, pages[side] = open_page(browser, server)
                contexts.append(context)
                for kind in KINDS:
                    clicks_of(pages[side], kind, 10, {})  # warm up
            per_round = [args.clicks // args.rounds + (i < args.clicks % args.rounds) for i in range(args.rounds)]
            for i, clicks in enumerate(per_round):
                loads.append(os.getloadavg()[0])
                for side in (("on", "off") if i % 2 == 0 else ("off", "on")):
                    for kind in KINDS:
                        times[side][kind] += clicks_of(pages[side], kind, clicks, lost[side],
                                                       carried[side] if kind == "mamma-mia" else None)
            loads.append(os.getloadavg()[0])
            active = {side: ACTIVE in server.log_path.read_text(errors="replace") for side, server in servers.items()}
        finally:
            for context in contexts:
                context.close()
            for server in servers.values():
                server.stop()
            browser.close()

    results = {side: {kind: figures(t) for kind, t in kinds.items()} for side, kinds in times.items()}
    for side in results:
        results[side]["mamma-mia"]["by_frames"] = by_frames(carried[side])
        results[side]["extension_active"] = active[side]
        results[side]["lost_clicks"] = lost[side]
    doc = {"python": platform.python_version(), "cpus": os.cpu_count(), "clicks": args.clicks,
           "rounds": args.rounds, "load_average_1min": {"samples": loads, "min": min(loads), "max": max(loads)},
           "seconds": round(time.monotonic() - started, 1), **results, "goals": goals(results)}
    print(f"click → rendered answer in JupyterLab, {args.clicks} clicks each, {args.rounds} rounds taking turns; "
          f"1-min load average {min(loads):.2f}–{max(loads):.2f} on {os.cpu_count()} cpus")
    print("\n".join(table(results)))
    for side in ("on", "off"):
        parts = [f"{label}: {f['clicks']} clicks, p50 {f['p50']:.1f} / p95 {f['p95']:.1f} ms" if f else f"{label}: none"
                 for label, f in results[side]["mamma-mia"]["by_frames"].items()]
        print(f"Mamma Mia turn, extension {side}, by the frames its answer carried: " + "; ".join(parts))
    print(f"extension active: on-server {active['on']}, off-server {active['off']}")
    if any(any(counts.values()) for counts in lost.values()):
        print(f"clicks with no answer in {LOST_MS / 1000:.0f} s (not in the figures): {lost}")
    for kind, goal in doc["goals"].items():
        print(f"goal {KINDS[kind][0]} (extension on): p50 {goal['p50_ms']:.1f} ms ≤ {GOAL_P50_MS} ms: "
              f"{'yes' if goal['p50_ok'] else 'NO'}; p95 / bare p95 = {goal['p95_ratio']:.2f} ≤ {GOAL_P95_RATIO}: "
              f"{'yes' if goal['p95_ok'] else 'NO'}")
    print(f"{doc['seconds']:.0f} s")
    write_results(doc, args.out)


if __name__ == "__main__":
    main()

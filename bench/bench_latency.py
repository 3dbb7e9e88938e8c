"""Click → Python → rendered reply, in a real JupyterLab, with and without tabletop_widgets.nodelay.

    ./dev bench latency [--clicks 200] [--out bench/results/latency.json]

Starts JupyterLab twice from this environment: once as installed (the server extension
``tabletop_widgets.nodelay`` on: TCP no-delay on kernel websockets) and once with the extension
disabled in that server's own config. In each, headless Chromium opens a notebook with three
widgets and times, in the page (``performance.now()``), ``--clicks`` round trips of each:

- ``bare``: a bare anywidget: a button click sets a trait, Python answers by setting another,
  the page writes it into the DOM (the floor any widget library pays);
- ``mamba``: the click on a Mamba destination → the move drawn (the timeline's step changes);
- ``mamma-mia``: the click that plays a Mamma Mia turn (a decision's answer, or "Play turn"
  after picking cards) → the turn drawn;
- ``mamba-draw``, ``mamma-mia-draw``: the timeline's previous / next frame buttons, which
  redraw the board with no kernel message: the page's own share of a move.

Prints p50 / p95 per server side by side, the goals (with the extension: our move's p50 ≤
15 ms and p95 ≤ 1.5× the bare round trip's p95) and writes ``bench/results/latency.json``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import statistics
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM, CHROMIUM_ARGS, LabServer, Session  # noqa: E402

from tabletop_widgets.nodelay import ACTIVE, NAME  # noqa: E402

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
    const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const changed = (read, before) => new Promise((resolve) => {
        const check = () => { if (read() !== before) { observer.disconnect(); resolve(performance.now()); return true; } return false; };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        check();
    });
    const restart = async (code) => { await kernel.requestExecute({ code, store_history: false }).done; await sleep(300); };
    const times = [];
    let guard = 0;
    while (times.length < clicks && guard++ < clicks * 20) {
        await sleep(30 + Math.random() * 20);  // a person's pace, not back to back
        const r = root();
        if (kind.endsWith("-draw")) {
            const step = () => r.querySelector(".tw-step").textContent;
            const button = r.querySelector(times.length % 2 ? ".tw-next" : ".tw-prev");
            const before = step();
            const t0 = performance.now();
            click(button);
            times.push((await changed(step, before)) - t0);
            continue;
        }
        if (kind === "bare") {
            const out = r.querySelector(".echo-out");
            const before = out.textContent;
            const t0 = performance.now();
            click(r.querySelector(".echo-button"));
            times.push((await changed(() => out.textContent, before)) - t0);
            continue;
        }
        const step = () => r.querySelector(".tw-step").textContent;
        let target = null;
        if (kind === "mamba") {
            const stone = r.querySelector("svg.mamba-board [data-cell].pickable");
            if (stone) {
                click(stone);
                const dests = [...r.querySelectorAll("svg.mamba-board [data-cell].dest")];
                target = dests[Math.floor(Math.random() * dests.length)] || null;
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
        const t0 = performance.now();
        click(target);
        times.push((await changed(step, before)) - t0);
    }
    return times;
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


def measure(browser, server: LabServer, clicks: int) -> dict:
    name = server.copy_notebook(server.base / "latency.ipynb", "latency.ipynb")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(120_000)
    page = context.new_page()
    try:
        session = Session(page, server, name).open()
        session.run_all()
        page.locator(".echo-button").wait_for()
        page.locator("svg.mamba-board [data-cell].pickable").first.wait_for()
        page.locator(".mm-root").first.wait_for()
        out = {}
        for kind, selector in (("bare", ".jp-OutputArea-output:has(.echo-button)"),
                               ("mamba", ".tw-root:has(svg.mamba-board)"),
                               ("mamma-mia", ".tw-root:has(.mm-root)"),
                               ("mamba-draw", ".tw-root:has(svg.mamba-board)"),
                               ("mamma-mia-draw", ".tw-root:has(.mm-root)")):
            page.evaluate(LOOP_JS, [selector, 10, kind])  # warm up
            times = page.evaluate(LOOP_JS, [selector, clicks, kind])
            if not times:
                page.screenshot(path=str(pathlib.Path(tempfile.gettempdir()) / f"tw-latency-{kind}.png"))
                raise RuntimeError(f"no {kind} click got an answer (screenshot: {tempfile.gettempdir()}/tw-latency-{kind}.png)")
            out[kind] = {"clicks": len(times), "p50": percentile(times, 50), "p95": percentile(times, 95),
                         "mean": statistics.fmean(times)}
        return out
    finally:
        context.close()
        server.shut_down_kernels_of(name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "latency.json"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results = {"python": platform.python_version(), "clicks": args.clicks}
    with tempfile.TemporaryDirectory(prefix="tw-latency-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for label, config in (("on", None), ("off", {"ServerApp": {"jpserver_extensions": {NAME: False}}})):
            (pathlib.Path(tmp) / label).mkdir()
            server = LabServer(pathlib.Path(tmp) / label, server_config=config)
            try:
                server.start()
                notebook(server.base / "latency.ipynb")
                results[label] = measure(browser, server, args.clicks)
                log = server.log_path.read_text(errors="replace")
                results[label]["extension_active"] = ACTIVE in log
            finally:
                server.stop()
        browser.close()

    on, off = results["on"], results["off"]
    print(f"{'':15}{'extension on':>22}{'extension off':>22}   (ms, p50 / p95, {args.clicks} clicks each)")
    for kind in ("bare", "mamba", "mamma-mia", "mamba-draw", "mamma-mia-draw"):
        print(f"{kind:15}{on[kind]['p50']:>12.1f} / {on[kind]['p95']:<7.1f}{off[kind]['p50']:>12.1f} / {off[kind]['p95']:<7.1f}")
    print(f"extension active: on-server {on['extension_active']}, off-server {off['extension_active']}")
    for kind in ("mamba", "mamma-mia"):
        p50_ok = on[kind]["p50"] <= 15
        ratio = on[kind]["p95"] / on["bare"]["p95"]
        print(f"goal {kind}: p50 {on[kind]['p50']:.1f} ms ≤ 15 ms: {'yes' if p50_ok else 'no'}; "
              f"p95 / bare p95 = {ratio:.2f} ≤ 1.5: {'yes' if ratio <= 1.5 else 'no'}")
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

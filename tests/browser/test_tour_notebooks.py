"""The teaching notebooks in a real JupyterLab: every replay opens on the moment its cell names."""

from __future__ import annotations

import re

import pytest
from conftest import ARTIFACTS
from lab_helpers import wait_until

# Each code cell as the user sees it after running: what it printed and the game widget's
# timeline position and caption (the widget the cell displays, if any).
CELLS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter(c => c.model.type === 'code')
  .map(c => {
    const root = c.node.querySelector('.tw-root');
    const text = (sel) => { const el = root && root.querySelector(sel); return el ? el.textContent : null; };
    return {printed: c.model.outputs.toJSON().filter(o => o.output_type === 'stream').map(o => o.text).join(''),
            step: text('.tw-step'), caption: text('.tw-caption')};
  })"""

MOMENT = re.compile(r"^step (\d+)\.(\d+): (.*)$", re.M)


def mismatches(page) -> list:
    """Each cell whose widget does not show the moment the cell printed (its last "step N.S:")."""
    wrong, checked = [], 0
    for i, cell in enumerate(page.evaluate(CELLS_JS)):
        moments = MOMENT.findall(cell["printed"])
        if not moments:
            continue
        step, sub, caption = moments[-1]
        shown = re.match(r"step (\d+) / \d+(?: · (\d+)/\d+)?", cell["step"] or "")
        at = (int(shown[1]), int(shown[2] or 1) - 1) if shown else None
        if at != (int(step), int(sub)) or (cell["caption"] or "").strip() != caption.strip():
            wrong.append((i, f"printed {step}.{sub}", cell["step"], (cell["caption"] or "")[:80]))
        checked += 1
    return wrong if checked >= 6 else [f"only {checked} moments printed"]


@pytest.mark.parametrize("name", ["tricky-positions.ipynb", "tour-mammuz.ipynb"])
def test_each_replay_shows_the_moment_its_cell_prints(notebook, name):
    nb = notebook(name)
    nb.run_all()
    page = nb.page
    page.locator(".tw-root .tw-caption").first.wait_for()
    # The widgets get their frames after they are drawn: wait until every one has them.
    last = []

    def all_shown():
        last[:] = mismatches(page)
        return not last

    try:
        wait_until(all_shown, timeout=60, what="every replay to show its moment")
    except AssertionError:
        raise AssertionError(f"replays not on their moment: {last}") from None
    roots = page.locator(".tw-root")
    for k in range(roots.count()):
        roots.nth(k).scroll_into_view_if_needed()
        roots.nth(k).screenshot(path=str(ARTIFACTS / f"{name.split('.')[0]}-{k}.png"))

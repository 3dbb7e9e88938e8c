"""The timeline's keys on a focused widget, in JupyterLab: the widget gets them, and the
notebook around it (whose command mode binds plain keys to cell commands) does not."""

from __future__ import annotations

import time

# The notebook's cells as the user sees them: count, sources, the active one, the mode.
CELLS_JS = """() => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    return {sources: nb.widgets.map(c => c.model.sharedModel.getSource()),
            active: nb.activeCellIndex, mode: nb.mode};
}"""


def test_arrows_home_end_and_space_drive_the_focused_widget(notebook):
    nb = notebook("mamba.ipynb")
    nb.run_all()
    page = nb.page
    page.locator("svg.mamba-board").first.wait_for()
    # The widget with the longest timeline (the four bots' game), opened on its last frame.
    roots = page.locator(".tw-root", has=page.locator("svg.mamba-board"))
    lengths = [int(roots.nth(i).locator("input.tw-slider").get_attribute("max")) for i in range(roots.count())]
    root = roots.nth(lengths.index(max(lengths)))
    last = max(lengths)
    assert last >= 10, lengths
    slider = root.locator("input.tw-slider")
    play = root.locator("button.tw-play")

    def frame() -> int:
        return int(slider.input_value())

    # Command mode, as after a click beside a cell: there Lab binds a, b, d d, ↑, ↓... to cells.
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.content.mode = 'command'; }")
    cells_before = page.evaluate(CELLS_JS)
    root.evaluate("(root) => root.focus()")
    assert page.evaluate("(root) => document.activeElement === root", root.element_handle())
    mark = len(nb.sent)

    page.keyboard.press("ArrowLeft")
    assert frame() == last - 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert frame() == last - 1
    page.keyboard.press("Home")
    assert frame() == 0
    page.keyboard.press("ArrowRight")
    assert frame() == 1
    page.keyboard.press("End")
    assert frame() == last

    # Space plays (from the start, being at the end) and pauses.
    page.keyboard.press("Space")
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_function("([s, last]) => Number(s.value) > 0 && Number(s.value) < last",
                           arg=[slider.element_handle(), last])
    page.keyboard.press("Space")
    assert play.get_attribute("aria-pressed") == "false"
    paused = frame()
    time.sleep(1.0)  # longer than a frame at the default speed
    assert frame() == paused

    # Keys the widget does not use must not reach the notebook's commands either:
    # "b" would insert a cell below, "ArrowDown" would select the next cell.
    page.keyboard.press("b")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("(root) => document.activeElement === root", root.element_handle())
    assert page.evaluate(CELLS_JS) == cells_before
    # All of it happened in the browser: not one message to the kernel.
    assert nb.comm_msgs_since(mark) == 0

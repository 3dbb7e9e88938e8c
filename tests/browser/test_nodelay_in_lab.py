"""The server extension tabletop_widgets.nodelay in a real JupyterLab: on in the test server
(the package is installed in its environment), and the widgets play with it off too."""

from __future__ import annotations

import re

import pytest
from conftest import ARTIFACTS, EXAMPLES, LabServer, Session
from test_mamba_notebook import NOTEBOOK, interactive_root, play_a_move_by_clicks

from tabletop_widgets.nodelay import ACTIVE, NAME


def server_log(lab: LabServer) -> str:
    lab.log.flush()
    return lab.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def lab_without_nodelay(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lab-off"),
                       server_config={"ServerApp": {"jpserver_extensions": {NAME: False}}})
    try:
        yield server.start()
    finally:
        server.stop()


def test_the_test_server_sets_no_delay_on_kernel_websockets(notebook, lab):
    nb = notebook(NOTEBOOK)
    nb.run_all()
    play_a_move_by_clicks(nb, interactive_root(nb.page))
    log = server_log(lab)
    assert log.count(ACTIVE) == 1, log[-3000:]
    # Every kernel websocket opened so far (this notebook's included) took the setting.
    assert "cannot set TCP no-delay" not in log and "stepping aside" not in log, log[-3000:]


def test_widgets_play_with_the_extension_turned_off(page, lab_without_nodelay, request):
    lab = lab_without_nodelay
    name = lab.copy_notebook(EXAMPLES / NOTEBOOK, f"off-{re.sub(r'[^A-Za-z0-9]+', '-', request.node.name)}.ipynb")
    nb = Session(page, lab, name).open()
    try:
        nb.run_all()
        root = interactive_root(nb.page)
        play_a_move_by_clicks(nb, root)
        root.screenshot(path=str(ARTIFACTS / "nodelay-off-mamba.png"))
        log = server_log(lab)
        assert ACTIVE not in log and "Connecting to kernel" in log, log[-3000:]
    finally:
        lab.shut_down_kernels_of(name)

"""End-to-end fixtures: a real JupyterLab server on a free port and Debian's Chromium driven
by Playwright. Every test opens its own copy of an example notebook, so it gets its own
kernel; a failing test leaves a screenshot and the server's log in ARTIFACTS.

    def test_something(notebook):
        nb = notebook("mamba.ipynb")          # or notebook(path, app="notebook") for Notebook 7
        nb.run_all()                          # fails on any cell error
        nb.page.locator("svg.mamba-board").first.wait_for()
        nb.widgets()                          # the kernel's live game widgets and their matches
        nb.execute("print(len(m))")           # any code in the notebook's kernel
        mark = len(nb.sent); ...; nb.comm_msgs_since(mark)   # widget messages the page sent
        nb.received_comm_msgs()               # widget messages the page received from the kernel
"""

from __future__ import annotations

import json
import os
import struct
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page

# The fanned rows of cards take their width from a ResizeObserver, which reports before the
# page's next paint: after a resize, a check waits for that paint, as a person would see it.
_set_viewport_size = Page.set_viewport_size


def _set_viewport_size_and_paint(self, viewport_size):
    _set_viewport_size(self, viewport_size)
    self.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


Page.set_viewport_size = _set_viewport_size_and_paint

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CHROMIUM = os.environ.get("TW_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("TW_BROWSER_ARTIFACTS") or tempfile.mkdtemp(prefix="tw-browser-"))
# Without the networking switches Chromium keeps dialling Google's services, which a closed
# network refuses many times a second.
# "--headless=new": with the old headless mode and no GPU, page screenshots of JupyterLab come
# out blank where the notebook should be.
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SLOW = 120_000  # ms: starting a kernel and running a notebook on a busy 2-core machine

# Settings for a quiet, reproducible Lab: no news or update checks popping up over the page.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    # Every cell rendered, not skipped until scrolled to: widgets off screen still mount, and
    # screenshots show the notebook (content-visibility leaves it blank in a screenshot).
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}

COMM_MSG = re.compile(rb'"msg_type"\s*:\s*"comm_msg"')
COMM_ANY = re.compile(rb'"msg_type"\s*:\s*"comm_(msg|open)"')


def _bytes(payload) -> bytes:
    return payload.encode() if isinstance(payload, str) else bytes(payload)

# Python run in a notebook's kernel: every live game widget and what its match holds.
WIDGETS_CODE = """
import gc as _gc, json as _json
import tabletop_widgets as _tw
print(_json.dumps(sorted((
    {"id": _w.model_id, "game": _w.game, "seat": _w.seat, "len": len(_w.match), "cursor": _w.match.cursor,
     "actions": [str(_a) for _a in _w.match.actions]}
    for _w in _gc.get_objects() if isinstance(_w, _tw.GameWidget) and getattr(_w, "comm", None) is not None
), key=lambda _d: _d["id"])))
"""


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(240))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def pytest_terminal_summary(terminalreporter, exitstatus):
    if exitstatus != 0 and ARTIFACTS.exists():
        terminalreporter.write_line(f"browser test artifacts (screenshots, JupyterLab log): {ARTIFACTS}")


def pytest_sessionfinish(session, exitstatus):
    # A passing run keeps nothing, unless the directory was asked for.
    if exitstatus == 0 and not os.environ.get("TW_BROWSER_ARTIFACTS"):
        shutil.rmtree(ARTIFACTS, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    """``server_config``: the user's jupyter_server_config.json of this server (e.g. extensions
    turned off), which takes precedence over what installed packages enable."""

    def __init__(self, base: Path, server_config: dict | None = None):
        self.base = base
        self.server_config = server_config
        self.root = base / "root"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = ARTIFACTS / f"jupyterlab-{self.port}.log"
        self.proc = None

    def start(self):
        self.root.mkdir()
        for name in ("runtime", "workspaces", "config", "data"):
            (self.base / name).mkdir()
        if self.server_config is not None:
            (self.base / "config" / "jupyter_server_config.json").write_text(json.dumps(self.server_config))
        settings = self.base / "settings"
        for name, values in LAB_SETTINGS.items():
            plugin, _, file = name.rpartition("/")
            (settings / plugin).mkdir(parents=True, exist_ok=True)
            (settings / plugin / file).write_text(json.dumps(values))
        venv_bin = str(Path(sys.executable).parent)
        env = dict(os.environ,
                   # Kernels start as "python" from PATH: the test's own environment.
                   PATH=venv_bin + os.pathsep + os.environ.get("PATH", ""),
                   JUPYTER_RUNTIME_DIR=str(self.base / "runtime"),
                   JUPYTER_CONFIG_DIR=str(self.base / "config"),
                   JUPYTER_DATA_DIR=str(self.base / "data"),
                   JUPYTER_PLATFORM_DIRS="1",
                   PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={self.port}",
               "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
               "--IdentityProvider.token=", "--ServerApp.password=",
               "--ServerApp.disable_check_xsrf=True",
               "--LabApp.expose_app_in_browser=True",
               "--JupyterNotebookApp.expose_app_in_browser=True",
               f"--ServerApp.root_dir={self.root}",
               f"--LabApp.workspaces_dir={self.base / 'workspaces'}",
               f"--LabApp.user_settings_dir={settings}",
               "--allow-root"]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=self.root)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.25)
        raise RuntimeError(f"JupyterLab did not answer /api/status in 120 s:\n{self.log_tail()}")

    def log_tail(self, n=40):
        self.log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()

    def copy_notebook(self, source: Path, name: str) -> str:
        shutil.copy(source, self.root / name)
        return name

    def api(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read()
        return json.loads(text) if text else None

    def shut_down_kernels_of(self, name: str):
        for session in self.api("GET", "/api/sessions"):
            if session.get("path") == name:
                self.api("DELETE", f"/api/sessions/{session['id']}")


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lab"))
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {CHROMIUM}: ./dev setup installs Debian's chromium (or set TW_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def decode_kernel_frame(frame: bytes) -> dict | None:
    """A kernel websocket frame as a Jupyter message dict. Jupyter Server speaks either plain
    JSON or its binary "v1" protocol (a count and offsets of parts, then channel, header,
    parent header, metadata, content and buffers), whichever the page chose."""
    if frame[:1] == b"{":
        return json.loads(frame)
    try:
        (count,) = struct.unpack_from("<Q", frame)
        offsets = list(struct.unpack_from(f"<{count}Q", frame, 8)) + [len(frame)]
        parts = [frame[a:b] for a, b in zip(offsets, offsets[1:])]
        return {"channel": parts[0].decode(), "header": json.loads(parts[1]), "parent_header": json.loads(parts[2]),
                "metadata": json.loads(parts[3]), "content": json.loads(parts[4]), "buffers": parts[5:]}
    except (struct.error, ValueError, IndexError):
        return None  # not a kernel message (Lab's other websockets)


class Session:
    """One page of JupyterLab (or Notebook 7) with one notebook, its kernel and the websocket
    frames the page sent and received."""

    def __init__(self, page, lab: LabServer, name: str):
        self.page, self.lab, self.name = page, lab, name
        self.sent: list[bytes] = []
        self.received: list[bytes] = []
        self.console: list[str] = []
        page.on("websocket", self._websocket)
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}") if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda exc: self.console.append(f"pageerror: {exc}"))

    def _websocket(self, ws):
        ws.on("framesent", lambda payload: self.sent.append(_bytes(payload)))
        ws.on("framereceived", lambda payload: self.received.append(_bytes(payload)))

    def received_comm_msgs(self, comm_id: str | None = None) -> list[dict]:
        """The content of every widget message (comm_open, comm_msg) the page received from a
        kernel, oldest first; only those of widget `comm_id` if given."""
        found = []
        for frame in list(self.received):
            msg = decode_kernel_frame(frame) if COMM_ANY.search(frame) else None
            if msg and msg.get("header", {}).get("msg_type") in ("comm_open", "comm_msg"):
                if comm_id is None or msg["content"].get("comm_id") == comm_id:
                    found.append(msg["content"])
        return found

    def comm_msgs_since(self, mark: int) -> int:
        """How many comm messages (widget → kernel) the page sent after `mark` frames."""
        return sum(1 for frame in self.sent[mark:] if COMM_MSG.search(frame))

    def open(self, app: str = "lab"):
        # A workspace of its own: Lab would otherwise reopen (and start kernels for) the
        # notebooks of earlier tests.
        workspace = re.sub(r"[^A-Za-z0-9-]+", "-", self.name)
        path = f"/lab/workspaces/{workspace}/tree/{self.name}" if app == "lab" else f"/notebooks/{self.name}"
        self.page.goto(self.lab.url + path)
        # The notebook is open, its kernel started and idle.
        self.page.wait_for_function(
            """(name) => {
                const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                const k = w && w.context && w.context.path === name && w.sessionContext.session?.kernel;
                return !!k && k.status === 'idle' && w.content.widgets.length > 0;
            }""", arg=self.name, timeout=SLOW)
        return self

    def run_all(self):
        # The command's promise settles once every cell has run (or one failed).
        self.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        cells = self.page.evaluate(
            """() => window.jupyterapp.shell.currentWidget.content.widgets
                 .filter(c => c.model.type === 'code')
                 .map(c => ({count: c.model.executionCount,
                             errors: c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                                      .map(o => o.ename + ': ' + o.evalue)}))""")
        errors = [e for cell in cells for e in cell["errors"]]
        assert not errors, f"{self.name} raised: {errors}"
        assert all(cell["count"] is not None for cell in cells), f"not every cell of {self.name} ran"

    def execute(self, code: str) -> str:
        """Run `code` in this notebook's kernel (not in a cell) and return what it printed."""
        result = self.page.evaluate(
            """async (code) => {
                const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
                const future = kernel.requestExecute({code, store_history: false});
                let out = '', err = null;
                future.onIOPub = (msg) => {
                    const t = msg.header.msg_type;
                    if (t === 'stream') out += msg.content.text;
                    else if (t === 'error') err = msg.content.ename + ': ' + msg.content.evalue;
                };
                await future.done;
                return {out, err};
            }""", code)
        assert result["err"] is None, result["err"]
        return result["out"]

    def widgets(self) -> list[dict]:
        """The kernel's live game widgets (by model id): game, seat and their match's actions."""
        return json.loads(self.execute(WIDGETS_CODE).strip().splitlines()[-1])


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    yield pg
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        shot = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', request.node.name)}.png"
        try:
            pg.screenshot(path=str(shot))
            print(f"screenshot: {shot}")
        except Exception as exc:  # a crashed page still gets its log below
            print(f"no screenshot: {exc}")
    context.close()


@pytest.fixture
def notebook(page, lab, request):
    """open(source, app="lab"): a fresh copy of an example notebook, opened, kernel idle."""
    opened = []

    def open_copy(source: str | Path, app: str = "lab") -> Session:
        source = Path(source)
        if not source.is_absolute():
            source = EXAMPLES / source
        assert source.is_file(), f"{source} is missing"
        name = lab.copy_notebook(source, f"{source.stem}-{re.sub(r'[^A-Za-z0-9]+', '-', request.node.name)}.ipynb")
        session = Session(page, lab, name)
        opened.append(session)
        return session.open(app)

    yield open_copy
    failed = getattr(request.node, "rep_call", None)
    for session in opened:
        if failed is not None and failed.failed:
            print("browser console:\n" + "\n".join(session.console[-30:]))
            print("JupyterLab log:\n" + lab.log_tail())
        try:
            lab.shut_down_kernels_of(session.name)
        except (urllib.error.URLError, OSError):
            pass

"""The documentation site, built as ``./dev docs`` builds it and opened in headless Chromium
with the network cut off: every page loads with nothing fetched from outside the site, and
every widget replay on it draws and steps."""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TW_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(os.environ.get("TW_ARTIFACTS", ROOT / "build" / "test-artifacts")) / "docs"

pytestmark = pytest.mark.browser


def build_site(out: Path) -> subprocess.CompletedProcess:
    """The same build as ``./dev docs``: warnings are errors, notebooks executed."""
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
           "-c", "docs", "-d", str(out.parent / "doctrees"), ".", str(out)]
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # TW_DOCS_SITE=build/docs/html tests a site ./dev docs already built instead of building one.
    if os.environ.get("TW_DOCS_SITE"):
        out = Path(os.environ["TW_DOCS_SITE"]).resolve()
    else:
        out = tmp_path_factory.mktemp("docs") / "html"
        built = build_site(out)
        assert built.returncode == 0, f"sphinx-build failed:\n{built.stdout[-4000:]}\n{built.stderr[-8000:]}"
    handler = functools.partial(_QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def chromium():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {CHROMIUM}: ./dev setup installs Debian's chromium (or set TW_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _pages(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*.html") if "_static" not in p.parts)


def _open(chromium, url: str, origin: str):
    """A page on ``url`` whose requests outside ``origin`` are refused and recorded."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    outside, errors = [], []

    def route(r):
        if r.request.url.startswith(origin + "/") or r.request.url.startswith(("data:", "blob:", "about:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(url, wait_until="load")
    return context, page, outside, errors


def test_the_site_has_every_page(site):
    out, _ = site
    pages = set(_pages(out))
    expected = {"docs/index.html", "README.html", "docs/architecture.html", "docs/analysis.html",
                "docs/rules/mamba.html", "docs/rules/mamma-mia.html", "docs/rules/mammuz.html"}
    expected |= {f"examples/{p.stem}.html" for p in (ROOT / "examples").glob("*.ipynb")}
    assert expected <= pages, f"missing pages: {sorted(expected - pages)}"
    # Executed notebooks: their pages carry outputs, not just the code.
    for p in (ROOT / "examples").glob("*.ipynb"):
        text = (out / "examples" / f"{p.stem}.html").read_text(encoding="utf-8")
        assert "cell_output" in text, f"{p.name} was not executed into the page"


def test_no_page_fetches_anything_outside_the_site(site, chromium):
    out, origin = site
    for rel in _pages(out):
        context, page, outside, errors = _open(chromium, f"{origin}/{rel}", origin)
        try:
            # Fonts, pictures and scripts a page loads late start right after "load".
            page.wait_for_timeout(500)
            assert outside == [], f"{rel} requested {outside}"
            assert errors == [], f"{rel} raised {errors}"
        finally:
            context.close()


def test_every_widget_on_every_page_draws_and_steps(site, chromium):
    out, origin = site
    with_widgets = {f"examples/{p.stem}.html" for p in (ROOT / "examples").glob("*.ipynb")
                    if "tw.widget(" in p.read_text(encoding="utf-8")}
    assert with_widgets
    for rel in _pages(out):
        text = (out / rel).read_text(encoding="utf-8")
        assert not re.search(r"Widget object at 0x", text), f"{rel} shows a widget as its Python repr"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stepped = 0
    for rel in _pages(out):
        if 'http-equiv="refresh"' in (out / rel).read_text(encoding="utf-8"):
            continue  # the site's root page only leads on to the first page
        context, page, outside, errors = _open(chromium, f"{origin}/{rel}", origin)
        try:
            roots = page.locator(".tw-root")
            count = roots.count()
            if rel in with_widgets:
                assert count > 0, f"{rel}: the notebook draws widgets but no replay was mounted"
            # A widget's picture (its first output) gives way to its replay: shown once.
            twice = page.evaluate("""() => [...document.querySelectorAll('.tw-replay')].filter((replay) => {
                const output = replay.closest('.cell_output');
                return output && [...output.querySelectorAll('img')].some((img) => img.getClientRects().length > 0);
            }).length""")
            assert twice == 0, f"{rel}: {twice} widget(s) show their picture beside their replay"
            for i in range(count):
                root = roots.nth(i)
                root.scroll_into_view_if_needed()
                box = root.bounding_box()
                assert box and box["width"] > 100 and box["height"] > 100, f"{rel} widget {i} is not drawn: {box}"
                board = root.locator(".tw-board")
                assert board.evaluate("el => el.childElementCount") > 0, f"{rel} widget {i} has an empty board"
                slider = root.locator(".tw-slider")
                last = int(slider.get_attribute("max") or 0)
                if last == 0:
                    continue
                root.focus()
                page.keyboard.press("Home")
                assert slider.input_value() == "0", f"{rel} widget {i}: Home did not go to the first frame"
                before = board.inner_html() + root.locator(".tw-caption").inner_text()
                page.keyboard.press("ArrowRight")
                assert slider.input_value() == "1", f"{rel} widget {i}: → did not step"
                after = board.inner_html() + root.locator(".tw-caption").inner_text()
                assert after != before, f"{rel} widget {i}: stepping changed nothing on screen"
                stepped += 1
            if count:
                page.screenshot(path=str(ARTIFACTS / (re.sub(r"[^\w.-]", "_", rel) + ".png")), full_page=False)
            assert outside == [] and errors == [], f"{rel}: outside requests {outside}, errors {errors}"
        finally:
            context.close()
    assert stepped > 0

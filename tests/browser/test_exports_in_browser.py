"""Exported notebooks in a real browser with the network blocked: `jupyter nbconvert --to html
--execute` (widget state stored, as by default; and the classic template) shows each widget
once, as a replay that steps with no kernel, two games on one page included; a sanitizing
export (`sanitize_html=True`, nbconvert's SanitizeHTML, which drops scripts and SVG as notebook
viewers do) shows each widget's frame as a PNG picture."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import ARTIFACTS

CELLS = [
    "import tabletop_widgets as tw",
    "m = tw.Match('mamba', seed=1)\n"
    "m.autoplay({0: tw.bots.Random(seed=0), 1: tw.bots.Random(seed=1)}, max_steps=6)\n"
    "tw.widget(m)",
    "g = tw.Match('mamma-mia', seed=2, players=3)\n"
    "g.autoplay({s: tw.bots.Random(seed=s) for s in range(3)}, max_steps=8)\n"
    "tw.widget(g, seat=0)",
    "g.state",
]
# What nbconvert's own page template asks of the network (MathJax, require.js): not ours.
TEMPLATE_URLS = ("https://cdnjs.cloudflare.com/ajax/libs/require.js/", "https://cdnjs.cloudflare.com/ajax/libs/mathjax/")


def write_notebook(path: Path, first_cell: str, heading: bool = True) -> Path:
    nb = nbformat.v4.new_notebook()
    # (a sanitizing export escapes a Markdown heading's HTML: the other notebook has none)
    nb.cells = [nbformat.v4.new_markdown_cell("# Two games, exported")] if heading else []
    nb.cells += [nbformat.v4.new_code_cell(first_cell)] + [nbformat.v4.new_code_cell(c) for c in CELLS[1:]]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def offline(page) -> list:
    """Abort every request that leaves the machine; return the list of those attempted."""
    attempted = []

    def handle(route):
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:", "about:")):
            route.continue_()
        else:
            attempted.append(url)
            route.abort()

    page.route("**/*", handle)
    return attempted


@pytest.fixture(scope="module")
def plain_export(tmp_path_factory):
    # nbconvert's defaults: the widget state is stored, so the page picks each widget's live
    # view, which needs a widget manager from a CDN; the replay output after it stands in.
    folder = tmp_path_factory.mktemp("export")
    source = write_notebook(folder / "two.ipynb", CELLS[0])
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute", str(source)],
                   check=True, capture_output=True, timeout=240)
    return folder / "two.html"


def visible_pictures_and_views(page) -> list:
    """Each output that would show a widget a second time: a picture or a widget view area
    left visible beside the replays."""
    return page.evaluate("""() => [...document.querySelectorAll(
        ".jupyter-widgets, .output_widget_view, " +
        "[data-mime-type='image/png'], [data-mime-type='image/svg+xml'], .output_png, .output_svg")]
        .filter((el) => el.getClientRects().length > 0).map((el) => el.outerHTML.slice(0, 120))""")


def step_label(root) -> str:
    return root.locator(".tw-step").inner_text()


def test_an_nbconvert_export_plays_each_widget_offline(page, plain_export):
    attempted = offline(page)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    assert "application/vnd.jupyter.widget-state+json" in plain_export.read_text(encoding="utf-8")
    page.goto(plain_export.as_uri())
    replays = page.locator(".tw-replay")
    replays.nth(1).locator(".tw-root").wait_for()
    assert replays.count() == 2
    assert [replays.nth(i).get_attribute("data-tw-game") for i in range(2)] == ["mamba", "mamma-mia"]
    # each replay mounted once, with its own game's renderer, and its picture gave way
    assert replays.nth(0).locator(".tw-root svg.mamba-board").count() == 1
    assert replays.nth(1).locator(".tw-root .mm-hand-cards").count() == 1
    assert page.locator(".tw-root").count() == 2 and page.locator("img.tw-replay-picture").count() == 0
    # the live views' (empty) areas before the replays are hidden; the state's picture stays
    assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 2
    shown = visible_pictures_and_views(page)
    assert len(shown) == 1 and "jp-OutputArea-executeResult" in shown[0], shown  # g.state
    # The replay steps with no kernel: keys and buttons move the frame.
    mamba = replays.nth(0).locator(".tw-root")
    caption = mamba.locator(".tw-caption")
    at_end, label_end = caption.inner_text(), step_label(mamba)
    mamba.locator("input.tw-slider").focus()
    page.keyboard.press("Home")
    assert step_label(mamba) != label_end and caption.inner_text() != at_end
    assert "Set-up" in caption.inner_text()
    mamba.locator("button[aria-label='Next frame']").click()
    assert "moves" in caption.inner_text()
    page.keyboard.press("End")
    assert caption.inner_text() == at_end
    # Seat 0's replay: its own hand only.
    cards = replays.nth(1).locator(".mm-hand-cards")
    assert cards.count() == 1 and replays.nth(1).locator("text=Your hand").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "nbconvert-export.png"), full_page=True)
    assert errors == []
    # with the widget state stored, the page also asks for its widget manager: not ours
    widget_manager = "https://unpkg.com/@jupyter-widgets/html-manager@"
    assert all(url.startswith((*TEMPLATE_URLS, widget_manager)) for url in attempted), attempted


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook executed with the default fallbacks, without the widget state."""
    from nbconvert.preprocessors import ExecutePreprocessor

    folder = tmp_path_factory.mktemp("executed")
    nb = nbformat.read(write_notebook(folder / "two.ipynb", CELLS[0], heading=False), as_version=4)
    ExecutePreprocessor(timeout=240, store_widget_state=False).preprocess(nb, {"metadata": {"path": str(folder)}})
    return nb


def export(nb, path: Path, **options) -> Path:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(**{k: v for k, v in options.items() if k != "sanitizer"})
    if options.get("sanitizer"):
        from nbconvert.preprocessors.sanitize import SanitizeHTML

        exporter.register_preprocessor(SanitizeHTML(), enabled=True)
    html, _ = exporter.from_notebook_node(copy.deepcopy(nb))
    path.write_text(html, encoding="utf-8")
    return path


JQUERY_STAND_IN = (
    "window.$ = window.jQuery = function (s) { var n = document.getElementById(s.slice(1));"
    " return { jquery: 'stand-in', 0: n, length: n ? 1 : 0 }; };"
)


def test_the_classic_template_plays_each_widget_offline(page, executed, tmp_path):
    attempted = offline(page)
    # The classic template's own script line needs jQuery, which it loads from a CDN: a
    # stand-in answers that request; the replay itself uses none of it.
    page.route("**/jquery*.js", lambda route: route.fulfill(content_type="text/javascript", body=JQUERY_STAND_IN))
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(export(executed, tmp_path / "classic.html", template_name="classic").as_uri())
    replays = page.locator(".tw-replay")
    replays.nth(1).locator(".tw-root").wait_for()
    assert [replays.nth(i).get_attribute("data-tw-game") for i in range(replays.count())] == ["mamba", "mamma-mia"]
    # each replay sits in its own output, where its script ran
    assert page.locator(".output_javascript .tw-replay, .output_subarea .tw-replay").count() == 2
    # each widget's picture before its replay is hidden: only the state's picture shows
    shown = visible_pictures_and_views(page)
    assert len(shown) == 1 and ("output_svg" in shown[0] or "output_png" in shown[0]), shown
    mamba = replays.nth(0).locator(".tw-root")
    at_end = mamba.locator(".tw-caption").inner_text()
    mamba.locator("input.tw-slider").focus()
    page.keyboard.press("Home")
    assert "Set-up" in mamba.locator(".tw-caption").inner_text() != at_end
    page.screenshot(path=str(ARTIFACTS / "nbconvert-classic-export.png"), full_page=True)
    assert errors == []
    # the classic template's page also asks for mermaid from its CDN
    assert all(url.startswith("https://cdnjs.cloudflare.com/ajax/libs/") for url in attempted), attempted


# nbconvert's sanitizer drops the replay script's output whole, and nbconvert then warns that
# the output it left, with no data, has nothing to show: that is the point of the test.
@pytest.mark.filterwarnings("ignore:Your element with mimetype:UserWarning")
def test_a_sanitized_export_shows_each_widgets_frame_as_a_picture(page, executed, tmp_path):
    # nbconvert's SanitizeHTML drops what a viewer that runs no script drops: scripts, SVG.
    attempted = offline(page)
    page.goto(export(executed, tmp_path / "sanitized.html", sanitize_html=True, sanitizer=True).as_uri())
    pictures = page.locator(".jp-OutputArea-output img[src^='data:image/png;base64,']")
    pictures.nth(2).wait_for()
    assert pictures.count() == 3  # two widgets and the state
    sizes = [pictures.nth(i).evaluate("(img) => [img.complete, img.naturalWidth, img.naturalHeight]") for i in range(3)]
    assert all(done and w > 400 and h > 300 for done, w, h in sizes), sizes
    assert page.locator("script[src*='tabletop'], .tw-root, .tw-replay").count() == 0
    text = page.locator("body").inner_text()
    assert "<script" not in text and "mountStatic" not in text and "TabletopWidget" not in text
    page.screenshot(path=str(ARTIFACTS / "sanitized-export.png"), full_page=True)
    assert all(url.startswith(TEMPLATE_URLS) for url in attempted), attempted


def test_sanitize_html_alone_shows_each_widgets_frame_as_a_picture(page, executed, tmp_path):
    # HTMLExporter(sanitize_html=True) ranks the replay script first in its own output and
    # leaves it out (an empty output, never the script's text); the widget's first output,
    # the view without its state, shows the PNG picture of its frame.
    path = export(executed, tmp_path / "s.html", sanitize_html=True)
    html = path.read_text(encoding="utf-8")
    assert "mountStatic" not in html and "TabletopWidget" not in html and "&lt;script" not in html
    empty = re.findall(r'data-mime-type="application/javascript"[^>]*>\s*</div>', html)
    assert len(empty) == 2
    attempted = offline(page)
    page.goto(path.as_uri())
    pictures = page.locator(".jp-OutputArea-output img[src^='data:image/png;base64,']")
    pictures.nth(1).wait_for()
    assert pictures.count() == 2  # the two widgets (the state shows its SVG picture)
    assert page.locator(".jp-OutputArea-output img[src^='data:image/svg+xml;base64,']").count() == 1
    sizes = [pictures.nth(i).evaluate("(img) => [img.complete, img.naturalWidth, img.naturalHeight]") for i in range(2)]
    assert all(done and w > 400 and h > 300 for done, w, h in sizes), sizes
    assert page.locator(".tw-root, .tw-replay").count() == 0
    text = page.locator("body").inner_text()
    assert "mountStatic" not in text and "TabletopWidget" not in text
    page.screenshot(path=str(ARTIFACTS / "sanitize-html-export.png"), full_page=True)
    assert all(url.startswith(TEMPLATE_URLS) for url in attempted), attempted

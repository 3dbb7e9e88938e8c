"""Dependencies point one way: widgets → rules → core. Read from the source (every import
statement, also those inside functions), and checked at run time for the HTML replay."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "tabletop_widgets"
GAMES = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())
# What a game's engine may never reach: the widget side and the browser side.
WIDGET_SIDE = ("anywidget", "ipywidgets", "traitlets", "IPython", "tabletop_widgets.widgets",
               "tabletop_widgets.core.widget")


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> set[str]:
    """Absolute names of every module ``path`` imports (``from x import y``: x and x.y)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)
    return out


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_resolver_reads_relative_imports():
    found = imports(PACKAGE / "core" / "match.py")
    assert "tabletop_widgets.core.game" in found and "tabletop_widgets.core.errors.IllegalAction" in found


@pytest.mark.parametrize("path", sorted((PACKAGE / "core").glob("*.py")), ids=lambda p: p.name)
def test_core_imports_nothing_outside_core(path):
    outside = {n for n in imports(path) if inside(n, "tabletop_widgets") and not inside(n, "tabletop_widgets.core")}
    assert not outside, f"core/{path.name} imports {sorted(outside)}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game):
    for path in (PACKAGE / "games" / game).glob("*.py"):
        others = {n for n in imports(path) if inside(n, "tabletop_widgets.games")
                  and not inside(n, f"tabletop_widgets.games.{game}") and n != "tabletop_widgets.games"}
        assert not others, f"games/{game}/{path.name} imports {sorted(others)}"


@pytest.mark.parametrize("game", GAMES)
def test_a_games_engine_and_pictures_import_nothing_of_the_widgets(game):
    for path in (PACKAGE / "games" / game).glob("*.py"):
        if path.name == "widget.py":
            continue
        found = imports(path)
        bad = {n for n in found if any(inside(n, w) for w in WIDGET_SIDE)}
        bad |= {n for n in found if n.startswith("tabletop_widgets.games.") and n.endswith(".widget")}
        assert not bad, f"games/{game}/{path.name} imports {sorted(bad)}"


def test_widget_classes_load_the_bundle_their_game_names():
    tw = pytest.importorskip("tabletop_widgets")
    from tabletop_widgets.widgets import widget_class

    for name in tw.GAMES:
        cls = widget_class(name)
        assert pathlib.Path(cls._esm._path).stem == tw.make(name).renderer, name


def test_a_replay_and_a_picture_need_no_widget_module(tmp_path):
    # Without a widget in sight, an HTML replay and a picture load neither anywidget nor
    # tabletop_widgets.widgets: the core reaches none of them.
    code = f"""
import sys
import tabletop_widgets as tw
m = tw.Match("mamma-mia", seed=1, players=3)
m.autoplay({{s: tw.bots.Random(seed=s) for s in range(3)}}, max_steps=5)
m.to_html({str(tmp_path / "r.html")!r}, seat=0)
m.svg(seat=1)
loaded = [n for n in ("anywidget", "ipywidgets", "tabletop_widgets.widgets", "tabletop_widgets.core.widget") if n in sys.modules]
print(loaded)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert (tmp_path / "r.html").stat().st_size > 10_000

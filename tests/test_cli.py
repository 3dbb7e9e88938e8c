"""The command line: simulate to CSV/Parquet, list the games, replay to HTML, clean errors."""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import tabletop_widgets as tw
from tabletop_widgets.__main__ import main
from tabletop_widgets.core.game import game_class, registered

import toy_game  # noqa: F401  (registers "toy-fifteen")

TESTS = Path(__file__).parent
HAS_HTML = importlib.util.find_spec("tabletop_widgets.html") is not None


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_writes_the_table_to_csv(tmp_path, capsys):
    path = tmp_path / "results.csv"
    code, out, err = run(capsys, "simulate", "toy-fifteen", "--games", "7", "--players", "3", "--seed", "4",
                         "--bots", "random", "--option", "limit=10", "--out", str(path), "--quiet")
    assert code == 0 and err == ""
    assert "7 games" in out and str(path) in out
    table = pd.read_csv(path)
    expected = tw.simulate("toy-fifteen", games=7, players=3, seed=4, limit=10, progress=False)
    assert table["seed"].tolist() == expected["seed"].tolist()
    assert table["steps"].tolist() == expected["steps"].tolist()
    assert [tuple(json.loads(w)) for w in table["winners"]] == expected["winners"].tolist()
    assert [tuple(json.loads(s)) for s in table["scores"]] == expected["scores"].tolist()


def test_simulate_writes_parquet_with_list_columns(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    path = tmp_path / "results.parquet"
    code, out, err = run(capsys, "simulate", "toy-fifteen", "--games", "5", "--bots", "random,random",
                         "--workers", "2", "--out", str(path), "--quiet")
    assert code == 0, err
    table = pd.read_parquet(path)
    expected = tw.simulate("toy-fifteen", games=5, progress=False)
    assert [tuple(w) for w in table["winners"]] == expected["winners"].tolist()
    assert table["finished"].tolist() == expected["finished"].tolist()


def test_parquet_without_pyarrow_suggests_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # makes "import pyarrow" fail
    path = tmp_path / "results.parquet"
    code, out, err = run(capsys, "simulate", "toy-fifteen", "--games", "3", "--out", str(path))
    assert code == 2 and "pyarrow" in err and "results.csv" in err
    assert not path.exists() and out == ""


def test_simulate_prints_a_summary_without_out(capsys):
    code, out, err = run(capsys, "simulate", "toy-fifteen", "--games", "6", "--max-steps", "2")
    assert code == 0
    assert "finished 0/6" in out
    assert re.search(r"6/6( games| \[)", err)  # the progress line, or tqdm's bar when it is installed


@pytest.mark.parametrize("argv, message", [
    (["simulate", "no-such-game"], "unknown game 'no-such-game'"),
    (["simulate", "toy-fifteen", "--bots", "greedy"], "unknown bot 'greedy'"),
    (["simulate", "toy-fifteen", "--bots", "random,random,random"], "3 given for 2 seats"),
    (["simulate", "toy-fifteen", "--option", "limit=11"], "option limit=11 is not allowed"),
    (["simulate", "toy-fifteen", "--option", "limit"], "KEY=VALUE"),
    (["simulate", "toy-fifteen", "--games", "-1"], "games must be an int >= 0"),
    (["simulate", "toy-fifteen", "--workers", "0"], "--workers"),
    (["simulate", "toy-fifteen", "--out", "results.xlsx"], ".csv or .parquet"),
    (["simulate", "toy-fifteen", "--games", "many"], "invalid int value"),
    (["replay", "no-such-file.json", "--html", "x.html"], "No such file"),
    (["--import", "no_such_module_here", "games"], "no_such_module_here"),
    (["frobnicate"], "invalid choice"),
    ([], "give a command"),
])
def test_errors_are_one_message_and_status_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing was written


def test_games_lists_every_game_with_options_and_bots(capsys):
    code, out, err = run(capsys, "games")
    assert code == 0
    for name in registered():
        assert f"\n{name}  (" in "\n" + out
        for key in game_class(name).OPTIONS:
            assert f"--option {key}=" in out
    toy = out[out.index("toy-fifteen"):]
    assert "2-4 players" in toy and "allowed: 10, 15, 20" in toy and "bots: random" in toy


def test_replay_of_a_tampered_file_names_the_step(tmp_path, capsys):
    m = tw.Match("toy-fifteen", seed=2)
    for _ in range(3):
        m.play(m.state.legal_actions()[0])
    doc = json.loads(m.to_json())
    doc["actions"][2] = "play 9"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "replay", str(path), "--html", str(tmp_path / "game.html"))
    assert code == 2 and "step 3" in err
    assert not (tmp_path / "game.html").exists()


@pytest.mark.skipif(not HAS_HTML, reason="tabletop_widgets.html (Match.to_html) is not there yet")
def test_replay_writes_html(tmp_path, capsys):
    m = tw.Match("toy-fifteen", seed=2)
    for _ in range(4):
        m.play(m.state.legal_actions()[-1])
    path = tmp_path / "game.json"
    m.save(path)
    out_path = tmp_path / "game.html"
    code, out, err = run(capsys, "replay", str(path), "--html", str(out_path), "--seat", "1")
    assert code == 0, err
    assert out_path.stat().st_size > 0 and "<html" in out_path.read_text().lower()
    code, out, err = run(capsys, "replay", str(path), "--html", str(tmp_path / "x.html"), "--seat", "5")
    assert code == 2 and "--seat" in err


def test_replay_writes_a_picture_and_a_range_of_steps(tmp_path, capsys):
    m = tw.Match("mammuz", seed=2, players=3)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(3)}, max_steps=20)
    path = tmp_path / "game.json"
    m.save(path)
    svg, html = tmp_path / "p.svg", tmp_path / "p.html"
    code, out, err = run(capsys, "replay", str(path), "--svg", str(svg), "--html", str(html), "--seat", "1",
                         "--steps", "4:9")
    assert code == 0, err
    assert svg.read_text(encoding="utf-8") == m.svg(1, step=9)
    assert "steps 4–9 of 20" in html.read_text(encoding="utf-8")
    for bad in (["--steps", "9:4"], ["--steps", "0:21"], ["--steps", "x"], []):
        code, out, err = run(capsys, "replay", str(path), "--svg", str(tmp_path / "bad.svg"), *bad) if bad else \
            run(capsys, "replay", str(path))
        assert code == 2, bad
    assert not (tmp_path / "bad.svg").exists()


def test_module_runs_as_a_program(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    path = tmp_path / "r.csv"
    done = subprocess.run(
        [sys.executable, "-m", "tabletop_widgets", "--import", "toy_game", "simulate", "toy-fifteen",
         "--games", "4", "--out", str(path), "--quiet"],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(path)) == 4


def test_games_prints_options_as_the_option_flag_reads_them(capsys):
    from tabletop_widgets.__main__ import _option

    code, out, err = run(capsys, "games")
    assert code == 0
    checked = 0
    for name in registered():
        block = out[out.index(f"{name}  ("):].split("    bots:")[0]
        for key, opt in game_class(name).OPTIONS.items():
            line = next(l for l in block.splitlines() if l.startswith(f"    --option {key}="))
            default = re.search(r"\(default (.*?); allowed: ", line)[1]
            assert _option(f"{key}={default}") == (key, opt.default), line
            if not callable(opt.allowed):
                allowed = re.search(r"; allowed: (.*)\)$", line)[1].split(", ")
                assert [_option(f"{key}={a}")[1] for a in allowed] == list(opt.allowed), line
            shown = re.search(r"\(default (.*)\)$", line)[1]
            if callable(opt.allowed):  # a description, which names null for None
                shown = shown.split("; allowed: ")[0]
                assert opt.default is not None or "null" in line
            for python_word in ("True", "False", "None", "'"):
                assert python_word not in shown, line
            checked += 1
    assert checked >= 10

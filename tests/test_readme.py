"""The README's tour runs as written, and the commands and files it names exist."""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_readme_python_blocks_run_in_order(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)  # w.to_html writes a file
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
    tw = namespace["tw"]
    # The tuple the README prints, as a fresh interpreter has it (this session's registry also
    # holds the tests' toy game).
    printed = re.search(r"tw\.GAMES\s+# (\(.*?\))", README)[1]
    fresh = subprocess.run([sys.executable, "-c", "import tabletop_widgets as tw; print(tw.GAMES)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert fresh == printed
    assert set(tw.GAMES) >= set(ast.literal_eval(printed))
    assert namespace["state"].position() != namespace["game"].new_state(seed=0).position()
    assert tw.Match.from_json(namespace["replay"]).to_json() == namespace["replay"]
    assert (tmp_path / "replay.html").stat().st_size > 1000
    assert len(namespace["df"]) == 20
    assert len(namespace["env"].possible_agents) == 2


def test_readme_shell_commands_run(tmp_path):
    commands = [line.split("#")[0].strip() for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S)
                for line in block.splitlines() if line.startswith("python -m tabletop_widgets")]
    assert len(commands) >= 3
    tw = __import__("tabletop_widgets")
    m = tw.Match("mamba", seed=1)
    m.autoplay({0: tw.bots.Random(seed=0), 1: tw.bots.Random(seed=1)}, max_steps=12)
    (tmp_path / "replay.json").write_text(m.to_json())  # long enough for the --steps 0:12 example
    for command in commands:
        proc = subprocess.run([sys.executable, *shlex.split(command)[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{command}: {proc.stderr[-2000:]}"
    assert len((tmp_path / "mamba.csv").read_text().splitlines()) == 21  # a header and 20 games
    assert (tmp_path / "replay.html").stat().st_size > 1000


def test_readme_commands_and_paths_exist():
    assert os.access(ROOT / "dev", os.X_OK)
    for command in ("lab", "test", "setup", "bench"):
        assert f"./dev {command}" in README
    dev = (ROOT / "dev").read_text()
    layers = re.search(r"^LAYERS=\((.*)\)$", dev, flags=re.M)[1].split()
    for layer in layers:
        assert f"| `{layer}` |" in README, f"README's table of test layers lacks {layer}"
    for path in re.findall(r"\]\(([\w./-]+)\)", README):
        assert (ROOT / path).exists(), f"README links to {path}, which does not exist"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./dev test" in ci


def test_readme_starts_a_newcomer_off():
    # what it is, the two commands, ten lines, every notebook, the rules and the docs
    ten = re.search(r"## Ten lines\n\n```python\n(.*?)```", README, flags=re.S)[1]
    assert len([line for line in ten.splitlines() if line.strip()]) <= 10
    for notebook in (ROOT / "examples").glob("*.ipynb"):
        assert f"(examples/{notebook.name})" in README, f"README does not link {notebook.name}"
    assert "(docs/rules/)" in README and "(docs/index.md)" in README
    assert "./dev lab --port" in README  # its arguments go to jupyter lab
    for name in ("mamba", "mamma-mia", "mamma-mia-plus", "mammuz"):  # a screenshot of each widget
        assert f"](docs/images/{name}.png)" in README and (ROOT / "docs" / "images" / f"{name}.png").is_file()
    # the extra is named where the examples that need it stand
    simulate = README.index('df = tw.simulate(')
    assert "pip install 'tabletop_widgets[analysis]'" in README[simulate - 600:simulate]

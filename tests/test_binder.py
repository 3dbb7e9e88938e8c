"""Binder: the README badge opens examples/start-here.ipynb on mybinder.org, built by repo2docker
from binder/. These tests check what repo2docker will do with that folder (without Docker),
and then do the same install into a fresh virtual environment and run the example notebooks
with it, as a Binder user would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# repo2docker imports a logging module that warns about its own move.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"


def _repo2docker_dockerfile():
    # As on mybinder.org: the image's user is 1000, not whoever runs this test.
    proc = subprocess.run([sys.executable, "-m", "repo2docker", "--no-build", "--user-id=1000",
                           "--user-name=jovyan", str(ROOT)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout, proc.stderr


def _local_requirements():
    lines = [line.partition("#")[0].strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    return [line for line in lines if line and (line.startswith((".", "/", "-e")))]


def test_readme_badge_opens_an_existing_notebook():
    readme = (ROOT / "README.md").read_text()
    badges = re.findall(r"https://mybinder\.org/v2/gh/[\w.-]+/[\w.-]+/HEAD\?urlpath=lab/tree/([\w./-]+)", readme)
    assert badges, "README.md has no Binder badge"
    for notebook in badges:
        assert (ROOT / notebook).is_file(), f"the Binder badge opens {notebook}, which does not exist"


def test_repo2docker_installs_the_project_from_binder_folder():
    dockerfile, log = _repo2docker_dockerfile()
    # binder/ exists, so repo2docker reads only it: the Python version comes from runtime.txt.
    version = (BINDER / "runtime.txt").read_text().strip().removeprefix("python-")
    assert f"python={version}" in log, log[-2000:]
    install = dockerfile.find('pip install --no-cache-dir -r "binder/requirements.txt"')
    copy_repo = dockerfile.find("COPY --chown=1000:1000 src/ ${REPO_DIR}/")
    assert install != -1, "repo2docker does not install binder/requirements.txt"
    # The requirement is the repository itself, so it must be installed after the copy, by
    # the user who owns the copy: building the JS writes js/node_modules and the bundles there.
    assert copy_repo != -1 and install > copy_repo
    users = re.findall(r"^USER (.+)$", dockerfile[:install], flags=re.M)
    assert users and users[-1] == "${NB_USER}", users
    if (BINDER / "postBuild").exists():
        assert "postBuild" in dockerfile and os.access(BINDER / "postBuild", os.X_OK)


def test_binder_requirement_is_this_project_with_its_analysis_extra():
    local = _local_requirements()
    assert len(local) == 1, local
    path, _, extras = local[0].removeprefix("-e").strip().partition("[")
    # repo2docker runs pip from the repository root: the path is relative to it.
    pyproject = (ROOT / path / "pyproject.toml").read_text()
    assert 'name = "tabletop_widgets"' in pyproject
    assert "analysis" in extras  # the example notebooks simulate games into DataFrames


def test_binder_image_has_node_to_build_the_widgets():
    """pip builds the JavaScript bundles with npm while installing: the image's environment
    for our Python version must ship Node.js new enough for js/package.json."""
    import repo2docker

    version = (BINDER / "runtime.txt").read_text().strip().removeprefix("python-")
    lock = Path(repo2docker.__file__).parent / "buildpacks" / "conda" / f"environment.py-{version}-linux-64.lock"
    assert lock.is_file(), f"repo2docker does not support Python {version}"
    node = re.search(r"/nodejs-(\d+)\.(\d+)\.(\d+)-", lock.read_text())
    assert node, "repo2docker's environment has no Node.js"
    assert (int(node[1]), int(node[2])) >= (20, 0), node[0]


def test_the_js_lock_file_installs_with_npm_10(tmp_path):
    """Binder's Node.js 20.19 (and Node 20 and 22 everywhere) ship npm 10, which refuses a lock
    file that npm 11 accepts when their peer-dependency rules disagree: `pip install .` runs
    `npm ci` there. A dry run checks the lock without installing anything."""
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / "js" / name, tmp_path / name)
    proc = subprocess.run(["npx", "-y", "npm@10", "ci", "--dry-run", "--no-audit", "--no-fund"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert not (tmp_path / "node_modules").exists()


def _copy_like_a_clone(dest: Path):
    """The files git tracks, as they are in the working tree (uncommitted edits included):
    what a clone of the commit would hold, so an untracked file cannot make the test pass."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=ROOT, capture_output=True, check=True).stdout
    paths = [p for p in listed.decode().split("\0") if p]
    assert "pyproject.toml" in paths and "binder/requirements.txt" in paths, paths[:20]
    for rel in paths:
        source = ROOT / rel
        if not source.exists():  # tracked but deleted in the working tree: a clone would have it,
            continue             # but the commit being made will not
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest / rel)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_fresh_binder_install_runs_every_example(tmp_path):
    src = tmp_path / "repo"
    _copy_like_a_clone(src)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "HATCH_JUPYTER_BUILDER_SKIP_NPM")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    # Binder's base environment already has Jupyter and a kernel; add what stands for them here.
    proc = subprocess.run([str(py), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                           "-r", "binder/requirements.txt", "ipykernel", "nbclient", "nbformat"],
                          cwd=src, env=env, capture_output=True, text=True, timeout=480)
    assert proc.returncode == 0, proc.stderr[-4000:]

    # A real (non-editable) install, with the bundles built by npm during it.
    where = subprocess.run([str(py), "-c", "import tabletop_widgets, pathlib; print(pathlib.Path(tabletop_widgets.__file__).parent)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.strip()
    package = Path(where)
    assert venv in package.parents
    for bundle in ("mamba.js", "mamma_mia.js"):
        assert (package / "static" / bundle).stat().st_size > 2000, f"{bundle} was not built"
    # The server extension that sets TCP no-delay is enabled in the environment Binder's server runs in.
    enabled = venv / "etc" / "jupyter" / "jupyter_server_config.d" / "tabletop_widgets.nodelay.json"
    assert json.loads(enabled.read_text())["ServerApp"]["jpserver_extensions"] == {"tabletop_widgets.nodelay": True}

    notebooks = sorted((src / "examples").glob("*.ipynb"))
    assert any(nb.name == "mamba.ipynb" for nb in notebooks), "examples/mamba.ipynb is missing"
    runner = (
        "import os, sys, nbformat, nbclient\n"
        "for path in sys.argv[1:]:\n"
        "    nb = nbformat.read(path, as_version=4)\n"
        "    nbclient.NotebookClient(nb, timeout=180, kernel_name='python3', resources={'metadata': {'path': os.path.dirname(path)}}).execute()\n"
        "    print('ran', path, flush=True)\n"
    )
    proc = subprocess.run([str(py), "-c", runner, *map(str, notebooks)], cwd=src, env=env,
                          capture_output=True, text=True, timeout=420)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    assert proc.stdout.count("ran ") == len(notebooks)
